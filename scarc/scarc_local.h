/* Private to the scarc layer (scarc/scarc.c, scarc/scarc_hex.c): what both ScaRC solvers
 * hand their local multigrids. Not in scarc/scarc.h, which exposes no coproc type (the
 * "unmodified application" property, docs/architecture.md). */
#ifndef FEAST_SCARC_LOCAL_H
#define FEAST_SCARC_LOCAL_H
#include "coproc/coproc.h"
#include "scarc/scarc.h"

/* the local multigrids' parameters from ScaRC's; local_fixed_cycles = n > 0: every local
 * solve runs exactly n cycles (no tolerance test: a linear map) */
FeastLocalMGParams scarc_local_params(const ScarcParams *p);
/* the adaptive Schwarz step from dq = (d, A c) and qq = (A c, A c): the minimiser
 * dq / qq of ||d - alpha A c||, in [0, 2 damping] (damping when qq is not positive) */
static inline double scarc_adaptive_step(double dq, double qq, double damping) {
  double alpha = qq > 0 ? dq / qq : damping;
  if (!(alpha > 0)) alpha = 0.0;
  if (alpha > 2.0 * damping) alpha = 2.0 * damping;
  return alpha;
}
/* the global coarse level: the finest level with fewer than max_dofs unknowns (level 0
 * if even that is larger) */
int scarc_choose_coarse(const FeastDomain *dom, long max_dofs);
#endif

/* Two-layer ScaRC: a global multigrid over the level hierarchy whose smoother is an
 * additive Schwarz step over the macros (every macro solves its local problem with the
 * fully assembled interface rows by a local multigrid from the coproc layer; the
 * corrections at shared nodes are averaged and damped), with the global coarse grid
 * solved directly (UMFPACK). It is used standalone or as a preconditioner. */
#ifndef FEAST_SCARC_H
#define FEAST_SCARC_H
#include "coproc/coproc.h"
#include "feast/config.h"
#include "feast/domain.h"
#include "feast/vector.h"

/* raw per-macro operator (partial: this macro's own cells, no boundary conditions) */
typedef int (*ScarcAssembleFn)(void *ctx, const FeastDomain *dom, int level, int li,
                               FeastBand9 *A);

typedef struct {
  int pre_smooth, post_smooth; /* global V cycle: 1, 0 */
  double damping;              /* additive Schwarz damping: 1 */
  long coarse_max_dofs;        /* global coarse level: finest with fewer unknowns: 20000 */
  char target[8], precision[8];/* local backend: "cpu"/"gpu", "double"/"single" */
  FeastLocalMGParams local;
} ScarcParams;

int scarc_params_from_config(const FeastConfig *cfg, ScarcParams *p);

typedef struct Scarc Scarc;
int scarc_create(const FeastDomain *dom, const ScarcParams *p, Scarc **s);
/* assemble the operator on every level, set up local solvers and the coarse solver */
int scarc_set_operator(Scarc *s, ScarcAssembleFn assemble, void *ctx);
void scarc_destroy(Scarc **s);
int scarc_coarse_level(const Scarc *s);
/* y <- A x on the finest level (x, y consistent) */
int scarc_matvec(Scarc *s, const FeastVec *x, FeastVec *y);
/* x <- one V cycle for A x = b starting from x = 0 (the preconditioner) */
int scarc_precondition(Scarc *s, const FeastVec *b, FeastVec *x);
/* partial matrices of the finest level (for export) */
const FeastBand9 *scarc_matrices(const Scarc *s, int level);
/* consistent local matrix of local macro li on a level (what its local solver sees) */
const FeastBand9 *scarc_local_matrix(const Scarc *s, int level, int li);
/* statistics of the local solves since the last reset */
void scarc_local_stats(const Scarc *s, long *solves, long *cycles, long *nonfinite);
#endif

/* Where the time goes: the FEAST paper's timing analysis (Goeddeke et al., section 5)
 * computed from the named timers of one run, in the paper's notation.
 *
 *   T_tot   the whole run (timer "total": from the start to the summary)
 *   T_lin   the linear solver (timer "linear_solve", summed over nonlinear steps)
 *   T_loc   the local multigrid solves inside it (timer "local_mg"): the only part that
 *           solver.target = gpu moves to the accelerator
 *   T_ass   matrix assembly (timer "assembly")
 *   T_setup solver setup (timer "solver_setup": local hierarchies, backend upload,
 *           coarse LU)
 *   R_acc   accelerable fraction: T_loc / T_lin for a linear problem (poisson, stokes),
 *           T_loc / T_tot for a nonlinear run (navier-stokes)
 *   R_ass = T_ass / T_tot, R_lin = T_lin / T_tot
 *   S_max = 1 / (1 - R_acc): the largest speedup any accelerator of the local multigrids
 *           can give (Amdahl)
 *   first touch: of each T, the part the kernel spent backing fresh memory (timers
 *           "T.first_touch", feast_prefault), and its MB; in a virtual machine whose host
 *           has taken back free memory this is most of a cold run's T_ass and T_setup
 *
 * Every T is the maximum over the ranks (the critical path); the ratios are formed from
 * these maxima. Since T_loc <= T_lin <= T_tot holds on every rank, it holds for the
 * maxima, and every R lies in [0, 1]. */
#ifndef FEAST_AMDAHL_H
#define FEAST_AMDAHL_H
#include "feast/base/log.h"
#include "feast/io/summary.h"

enum { FEAST_AMDAHL_NT = 5 }; /* T_tot, T_lin, T_loc, T_ass, T_setup */

typedef struct {
  int nonlinear;                    /* 1: R_acc = T_loc / T_tot; 0: T_loc / T_lin */
  int ranks;
  FeastTimerStats t[FEAST_AMDAHL_NT]; /* over the ranks; .max is the T of the report */
  double T_tot, T_lin, T_loc, T_ass, T_setup;
  double T_coarse;                  /* global coarse solve (part of T_lin), for the report */
  double R_acc, R_ass, R_lin, S_max;
  double touch_s[FEAST_AMDAHL_NT], touch_mb[FEAST_AMDAHL_NT]; /* first touch within t[i] */
} FeastAmdahl;

/* the paper's names of t[0..FEAST_AMDAHL_NT): "T_tot", "T_lin", "T_loc", "T_ass", "T_setup" */
const char *feast_amdahl_name(int i);

/* the figures from reduced timer statistics (feast_timers_reduce); a timer missing from
 * stats counts 0 s; ratios with a zero denominator are 0 */
void feast_amdahl_compute(const FeastTimerStats *stats, int n, int nonlinear, int ranks, FeastAmdahl *a);

/* "amdahl": {R_acc_of, ranks, T_*, R_*, S_max, "imbalance": {T_*: max/mean},
 * "rank0": {T_*: rank 0's value}, "mean": {T_*: mean over ranks},
 * "first_touch": {T_*: s}, "first_touch_mb": {T_*: MB}} */
int feast_amdahl_to_summary(const FeastAmdahl *a, FeastSummary *s);

/* the end-of-run block (rank 0, verbosity >= 1) */
void feast_amdahl_print(const FeastAmdahl *a);
#endif

/* The coproc interface: local multigrid solvers for a batch of macros, the inner layer
 * of two-layer ScaRC and the only part a config flag moves to an accelerator.
 * A backend is looked up by name ("cpu", "gpu") and precision ("double", "single") in a
 * registry; it implements setup (copy/convert the level hierarchy of every macro in the
 * batch), solve (double defect in, double correction out, converted at the boundary)
 * and destroy. The front end (coproc/coproc.c) checks arguments once; backends compute. */
#ifndef FEAST_COPROC_H
#define FEAST_COPROC_H
#include "feast/band9.h"

/* one macro's local problem */
typedef struct {
  int level;                     /* finest local level L (N = 2^L+1) */
  const FeastBand9 *A;           /* the consistent local matrix on level L */
  const unsigned char *const *fixed; /* fixed[l][node] = 1: Dirichlet node, correction 0 */
} FeastLocalProblem;

typedef struct {
  int pre_smooth, post_smooth;   /* Jacobi steps per V cycle (4, 4) */
  double jacobi_damping;         /* omega of damped Jacobi (0.7) */
  double rtol;                   /* stop when ||d_k|| <= rtol ||d_0|| (0.1: one digit) */
  int max_cycles;                /* at most this many V cycles */
  int coarse_max_dofs;           /* coarsest local level: first with <= this many nodes (200) */
  double coarse_rtol;            /* CG on the coarse level: relative tolerance */
} FeastLocalMGParams;

typedef struct {
  long cycles;                   /* V cycles over all macros of the last solve */
  int max_cycles_hit;            /* macros that stopped at max_cycles */
  int nonfinite;                 /* macros whose result was NaN/Inf (result zeroed) */
} FeastLocalMGStats;

typedef struct FeastLocalSolver FeastLocalSolver;

/* target "cpu" | "gpu", precision "double" | "single" */
int feast_local_create(const char *target, const char *precision, FeastLocalSolver **ls);
int feast_local_setup(FeastLocalSolver *ls, int nmacros, const FeastLocalProblem *problems,
                      const FeastLocalMGParams *params);
/* new values for the matrices of the last setup (same macros, levels and masks) */
int feast_local_update(FeastLocalSolver *ls, const FeastLocalProblem *problems);
/* c[m] <- approx A_m^{-1} d[m] for every macro m of the batch (padded grid vectors of
 * the finest level); fixed nodes of c are zero */
int feast_local_solve(FeastLocalSolver *ls, const double *const *d, double *const *c,
                      FeastLocalMGStats *stats);
void feast_local_destroy(FeastLocalSolver **ls);
/* "cpu(double,single) gpu(single,double)" : what this build offers */
const char *feast_local_backends(void);
/* 1 if the named target can run here (gpu: a device is present) */
int feast_local_available(const char *target);
const char *feast_local_resolve_precision(const char *target, const char *precision);
const char *feast_local_precision(const FeastLocalSolver *ls);
#endif

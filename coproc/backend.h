/* Private to coproc/: the ops table every local multigrid backend implements. The front
 * end (coproc/coproc.c) looks a backend up by (target, precision), checks the arguments
 * once, and calls these; a backend only computes. Adding a backend = one more table in
 * the registry of coproc.c, nothing else changes.
 *
 * The algorithm every backend runs (so that results agree up to rounding):
 *   levels lc..L of the macro, lc = largest level with (2^l+1)^2 <= coarse_max_dofs
 *   (or L itself if that is smaller); x = 0; r = d;
 *   repeat up to max_cycles: x += V(L, r); r = d - A x; stop when ||r|| <= rtol ||d||
 *   V(l, b), starting from 0: pre_smooth damped Jacobi steps, r = b - A x, restrict r
 *   (fixed coarse nodes zeroed), V(l-1) on it, prolongate and add, post_smooth steps;
 *   on lc: CG until ||r|| <= coarse_rtol ||b|| (at most #nodes steps).
 * Counted: cycles per macro; a macro whose result is not finite gets c = 0 and counts in
 * stats->nonfinite. Fixed (Dirichlet) nodes of c are 0. */
#ifndef FEAST_COPROC_BACKEND_H
#define FEAST_COPROC_BACKEND_H
#include "coproc/coproc.h"

typedef struct {
  const char *target;    /* "cpu" | "gpu" */
  const char *precision; /* "double" | "single" */
  int (*available)(void); /* 1 if it can run on this machine */
  /* copy/convert the hierarchies of nmacros macros (all with the same level) */
  int (*setup)(void **data, int nmacros, const FeastLocalProblem *problems,
               const FeastLocalMGParams *params);
  int (*solve)(void *data, const double *const *d, double *const *c, FeastLocalMGStats *stats);
  void (*destroy)(void **data);
} FeastLocalBackend;

extern const FeastLocalBackend feast_local_cpu_double, feast_local_cpu_single;
#ifdef FEAST_HAVE_CUDA
extern const FeastLocalBackend feast_local_cuda_single, feast_local_cuda_double;
#endif

/* coarsest local level of the V cycle for a macro of level L */
static inline int feast_local_coarse_level(int L, int coarse_max_dofs) {
  int lc = 0;
  while (lc < L && (long)((1 << (lc + 1)) + 1) * ((1 << (lc + 1)) + 1) <= coarse_max_dofs) lc++;
  return lc;
}
#endif

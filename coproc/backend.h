/* Private to coproc/: the ops table every local multigrid backend implements. The front
 * end (coproc/coproc.c) looks a backend up by (target, precision), checks the arguments
 * once, builds each macro's hierarchy (FeastLocalHierarchy) and calls these; a backend
 * only copies/converts values and computes. Adding a backend = one more table in the
 * registry of coproc.c, nothing else changes.
 *
 * The algorithm every backend runs (so that results agree up to rounding):
 *   levels lc..L of the macro, lc = largest level with (2^l+1)^2 <= coarse_max_dofs
 *   (or L itself if that is smaller); A_L the given matrix, A_{l-1} = P^T A_l P (front
 *   end, double); x = 0; r = d;
 *   repeat up to max_cycles: x += V(L, r); r = d - A x; stop when ||r|| <= rtol ||d||
 *   V(l, b), starting from 0: pre_smooth damped Jacobi steps, r = b - A x, restrict r
 *   (fixed coarse nodes zeroed), V(l-1) on it, prolongate and add, post_smooth steps;
 *   on lc: x = A_lc^-1 b exactly, one dense matvec with the inverse (LU with partial
 *   pivoting and the inverse in double by the front end, stored in the working
 *   precision; right for nonsymmetric and indefinite matrices, unlike CG).
 * Counted: cycles per macro; a macro whose result is not finite gets c = 0 and counts in
 * stats->nonfinite. Fixed (Dirichlet) nodes of c are 0. */
#ifndef FEAST_COPROC_BACKEND_H
#define FEAST_COPROC_BACKEND_H
#include "coproc/coproc.h"
#include "feast/mesh/mesh.h"

/* one macro's hierarchy as the backends see it (built by the front end). Matrices,
 * masks and inverse live as long as the solver, at the same addresses from setup to
 * destroy, and change values only right before an update: a backend that computes in
 * double on the host uses them in place (cpu double); the others copy/convert them
 * during setup and update. */
typedef struct {
  int level, coarse;                                 /* L and lc */
  FeastBand9Framed A[FEAST_MAX_LEVEL + 1];           /* A[l], l = lc..L: A[L] whole, the
                                                        others framed or whole */
  const unsigned char *fixed[FEAST_MAX_LEVEL + 1];   /* fixed[l], l = lc..L */
  const double *coarse_inv; /* A[lc]^-1, n x n column-major (n = N_lc^2) */
} FeastLocalHierarchy;

typedef struct {
  const char *target;    /* "cpu" | "gpu" */
  const char *precision; /* "double" | "single" */
  int (*available)(void); /* 1 if it can run on this machine */
  /* allocate storage for nmacros macros (all with the same L and lc) and take their
   * values (in place or copied/converted) */
  int (*setup)(void **data, int nmacros, const FeastLocalHierarchy *h,
               const FeastLocalMGParams *params);
  /* new values (same macros, levels, matrices and masks as the setup): into the
   * existing storage (the CPU backends allocate nothing) */
  int (*update)(void *data, const FeastLocalHierarchy *h);
  int (*solve)(void *data, const double *const *d, double *const *c, FeastLocalMGStats *stats);
  void (*destroy)(void **data);
  /* solve on defects and corrections in the device memory of solver.residency = device
   * (nmacros arrays of N^2 values one after the other); NULL where the backend computes
   * on the host */
  int (*solve_device)(void *data, const double *d, double *c, FeastLocalMGStats *stats);
} FeastLocalBackend;

extern const FeastLocalBackend feast_local_cpu_double, feast_local_cpu_single;
#ifdef FEAST_HAVE_CUDA
extern const FeastLocalBackend feast_local_cuda_single, feast_local_cuda_double;
#endif

/* the backend's data of a set-up solver (for coproc/cuda/cuda_bench.cu), NULL if none */
void *feast_local_backend_data(FeastLocalSolver *ls);

/* nodes of a macro of level l in dim dimensions: (2^l + 1)^dim */
static inline long feast_local_level_nodes(int l, int dim) {
  long n = 1;
  for (int d = 0; d < dim; d++) n *= (1L << l) + 1;
  return n;
}
/* coarsest local level of the V cycle for a macro of level L in dim dimensions: the
 * finest with at most coarse_max_dofs nodes (0 if none has), or L itself */
static inline int feast_local_coarse_level(int L, int coarse_max_dofs, int dim) {
  int lc = 0;
  while (lc < L && feast_local_level_nodes(lc + 1, dim) <= coarse_max_dofs) lc++;
  return lc;
}
/* the local multigrid's parameters in range for macros of dimension dim (2 or 3):
 * FEAST_ERR_ARG, or FEAST_ERR_CONFIG for coarse_max_dofs above the dense solve's cap
 * (coproc/coproc.c) */
int feast_local_check_params(const FeastLocalMGParams *p, int dim);
#endif

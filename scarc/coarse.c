#include "scarc/coarse.h"
#include "feast/error.h"
#include "feast/gather.h"
#include "feast/log.h"
#include <stdlib.h>
#include <string.h>
#include <umfpack.h>

struct ScarcCoarse {
  const FeastDomain *dom;
  int level;
  int64_t n;
  SuiteSparse_long *Ap, *Ai, *map; /* compressed columns; map: triplet k -> position in Ax */
  SuiteSparse_long nnz;
  double *Ax, *rhs, *sol;
  double *val;                     /* the gathered values of the triplets (rank 0) */
  FeastMatrixGather *gather;       /* the pattern: a refresh gathers values only */
  void *symbolic, *numeric;
};

/* OpenBLAS (Debian's default BLAS under UMFPACK) starts one thread per core in every
 * process; with one MPI rank per core those threads oversubscribe the cores, and their
 * spin-waiting made the coarse factorisation 3-7x slower on a busy 2-core machine.
 * Each rank therefore uses one BLAS thread unless the user asked otherwise through
 * OPENBLAS_NUM_THREADS or OMP_NUM_THREADS. A weak reference: a build against another
 * BLAS links and skips this. */
extern void openblas_set_num_threads(int) __attribute__((weak));

static void blas_one_thread_per_rank(void) {
  if (openblas_set_num_threads && !getenv("OPENBLAS_NUM_THREADS") && !getenv("OMP_NUM_THREADS"))
    openblas_set_num_threads(1);
}

/* rank 0, first call: compressed columns of the merged triplets and the symbolic analysis */
static int analyse(ScarcCoarse *c, const FeastTriplets *t) {
  const SuiteSparse_long n = (SuiteSparse_long)t->n, nnz = (SuiteSparse_long)t->nnz;
  blas_one_thread_per_rank();
  SuiteSparse_long *Ti, *Tj;
  FEAST_CALL(FEAST_ALLOC(nnz + 1, &Ti));
  FEAST_CALL(FEAST_ALLOC(nnz + 1, &Tj));
  for (SuiteSparse_long k = 0; k < nnz; k++) {
    Ti[k] = t->row[k];
    Tj[k] = t->col[k];
  }
  c->nnz = nnz;
  FEAST_CALL(FEAST_ALLOC(n + 1, &c->Ap));
  FEAST_CALL(FEAST_ALLOC(nnz + 1, &c->Ai));
  FEAST_CALL(FEAST_ALLOC(nnz + 1, &c->Ax));
  FEAST_CALL(FEAST_ALLOC(nnz + 1, &c->map));
  SuiteSparse_long st = umfpack_dl_triplet_to_col(n, n, nnz, Ti, Tj, t->val, c->Ap, c->Ai, c->Ax, c->map);
  free(Ti);
  free(Tj);
  FEAST_CHECK(st == UMFPACK_OK, FEAST_ERR_SOLVER, "UMFPACK could not build the coarse matrix (status %ld)", (long)st);
  st = umfpack_dl_symbolic(n, n, c->Ap, c->Ai, c->Ax, &c->symbolic, NULL, NULL);
  FEAST_CHECK(st == UMFPACK_OK, FEAST_ERR_SOLVER,
              "UMFPACK symbolic factorisation of the coarse matrix (level %d, %ld unknowns) failed (status %ld)",
              c->level, (long)n, (long)st);
  return 0;
}

/* rank 0: the triplet values val (of the analysed pattern) into Ax, numeric factorisation */
static int factor(ScarcCoarse *c, const double *val) {
  memset(c->Ax, 0, sizeof(double) * (size_t)c->nnz);
  for (SuiteSparse_long k = 0; k < c->nnz; k++) c->Ax[c->map[k]] += val[k];
  if (c->numeric) umfpack_dl_free_numeric(&c->numeric);
  const SuiteSparse_long st = umfpack_dl_numeric(c->Ap, c->Ai, c->Ax, c->symbolic, &c->numeric, NULL, NULL);
  FEAST_CHECK(st != UMFPACK_WARNING_singular_matrix, FEAST_ERR_SOLVER,
              "the coarse grid matrix (level %d, %lld unknowns) is singular: check the boundary "
              "conditions - a pure Neumann problem has no unique solution",
              c->level, (long long)c->n);
  FEAST_CHECK(st == UMFPACK_OK, FEAST_ERR_SOLVER,
              "UMFPACK numeric factorisation of the coarse matrix failed (status %ld)", (long)st);
  return 0;
}

/* every rank learns whether rank 0 succeeded (rank 0 keeps the message) */
static int agree(const ScarcCoarse *c, int status) {
  int global = status;
  FEAST_MPI_CALL(MPI_Bcast(&global, 1, MPI_INT, 0, c->dom->comm));
  if (global && c->dom->rank != 0) FEAST_ERROR(global, "the coarse grid factorisation failed on rank 0");
  return global;
}

/* first call: gather the pattern and values on rank 0, analyse and factor there */
static int gather_analyse_factor(ScarcCoarse *c, const FeastBand9 *A) {
  FeastTriplets t;
  int status = feast_matrix_gather_create(c->dom, c->level, A, 0, &t, &c->gather);
  if (status) { /* a failed collective: every rank returns it, as from any MPI call */
    feast_triplets_free(&t);
    return status;
  }
  if (c->dom->rank == 0) status = analyse(c, &t);
  if (!status && c->dom->rank == 0) status = FEAST_ALLOC(c->nnz + 1, &c->val);
  if (!status && c->dom->rank == 0) status = factor(c, t.val);
  feast_triplets_free(&t);
  return agree(c, status);
}

int scarc_coarse_create(const FeastDomain *dom, int level, const FeastBand9 *A, ScarcCoarse **cp) {
  ScarcCoarse *c;
  FEAST_CALL(FEAST_ALLOC(1, &c));
  *cp = c;
  c->dom = dom;
  c->level = level;
  c->n = dom->levels[level].nglobal;
  FEAST_CALL(FEAST_ALLOC(c->n, &c->rhs));
  FEAST_CALL(FEAST_ALLOC(c->n, &c->sol));
  return gather_analyse_factor(c, A);
}

/* new values: gathered without sorting into the analysed pattern, numeric factorisation */
int scarc_coarse_refresh(ScarcCoarse *c, const FeastBand9 *A) {
  FEAST_CALL(feast_matrix_gather_values(c->gather, A, c->val));
  return agree(c, c->dom->rank == 0 ? factor(c, c->val) : 0);
}

int scarc_coarse_solve(ScarcCoarse *c, double *const *b, double *const *x) {
  feast_timer_start(FEAST_T_COARSE);
  FEAST_CALL(feast_gather_vector(c->dom, c->level, b, 0, c->rhs));
  int status = 0;
  if (c->dom->rank == 0) {
    SuiteSparse_long st = umfpack_dl_solve(UMFPACK_A, c->Ap, c->Ai, c->Ax, c->sol, c->rhs, c->numeric, NULL, NULL);
    if (st != UMFPACK_OK)
      status = feast_error_set(FEAST_ERR_SOLVER, __FILE__, __LINE__, "UMFPACK coarse solve failed (status %ld)", (long)st);
  }
  FEAST_MPI_CALL(MPI_Bcast(&status, 1, MPI_INT, 0, c->dom->comm));
  FEAST_CHECK(status == 0, status, "the coarse grid solve failed on rank 0");
  FEAST_CALL(feast_scatter_vector(c->dom, c->level, c->sol, 0, x));
  feast_timer_stop(FEAST_T_COARSE);
  return 0;
}

void scarc_coarse_destroy(ScarcCoarse **cp) {
  ScarcCoarse *c = *cp;
  if (!c) return;
  if (c->numeric) umfpack_dl_free_numeric(&c->numeric);
  if (c->symbolic) umfpack_dl_free_symbolic(&c->symbolic);
  free(c->Ap);
  free(c->Ai);
  free(c->Ax);
  free(c->map);
  free(c->val);
  feast_matrix_gather_destroy(&c->gather);
  free(c->rhs);
  free(c->sol);
  feast_free(cp);
}

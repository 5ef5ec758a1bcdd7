#include "solvers/direct.h"
#include "feast/base/error.h"
#include "feast/la/gather.h"
#include "feast/base/log.h"
#include <klu.h>
#include <limits.h>
#include <stdlib.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <string.h>
#include <umfpack.h>

const char *feast_direct_solver_name(FeastDirectSolver s) {
  return s == FEAST_DIRECT_KLU ? "klu" : s == FEAST_DIRECT_UMFPACK ? "umfpack" : "?";
}

/* The merged couplings arrive sorted by (row, col): the rows of A in compressed form,
 * which both libraries read as the compressed columns of S = A^T. Factoring S and
 * solving with its transpose (UMFPACK_At, klu_tsolve) solves A x = b without a
 * conversion. */
struct FeastDirect {
  const FeastDomain *dom;
  int level;
  FeastDirectSolver method;
  int nb;                         /* blocks per row and column (1: one scalar operator) */
  int64_t ng, n;                  /* unknowns per block (the level's global nodes), in all */
  int64_t pin;                    /* the row replaced by the identity (-1: none) */
  SuiteSparse_long pin_lo, pin_hi, pin_diag; /* rank 0: its couplings, its diagonal's (find_pin) */
  const char *what;               /* the matrix in messages */
  SuiteSparse_long *Ap, *Ai, nnz; /* rank 0: the pattern, rows of A (UMFPACK) */
  int *kAp, *kAi;                 /* rank 0: the same in KLU's 32-bit indices (a coarse grid
                                     is far below 2^31 entries; the factors' triangular
                                     solves then stream 12 bytes per entry instead of 16:
                                     17 % less time at 4,225 unknowns) */
  double *Ax;                     /* rank 0: the values of the pattern (same order) */
  double *rhs, *sol;              /* rank 0: FEAST_DIRECT_MAX_RHS right-hand sides and
                                     solutions, n apart */
  FeastMatrixGather *gather[FEAST_DIRECT_MAX_BLOCKS * FEAST_DIRECT_MAX_BLOCKS]; /* per block (NULL: a zero
                                     block): the pattern, so a refresh gathers values only */
  int64_t *slot[FEAST_DIRECT_MAX_BLOCKS * FEAST_DIRECT_MAX_BLOCKS]; /* rank 0: block k's coupling e is
                                     Ax[slot[k][e]] */
  int64_t bnnz[FEAST_DIRECT_MAX_BLOCKS * FEAST_DIRECT_MAX_BLOCKS]; /* rank 0: couplings per block */
  double *bval;                   /* rank 0: one block's gathered values (work) */
  FeastVecGather *vgather;        /* the right-hand side in, the solution out, ids once */
  void *symbolic, *numeric;       /* UMFPACK */
  klu_symbolic *ksym;             /* KLU: ordering (AMD) once per pattern */
  klu_numeric *knum;              /* KLU: factors; a refresh keeps their pivot order */
  klu_common kc;
  double rcond_full;              /* KLU: rcond estimate of the last full factorisation */
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

/* SuiteSparse's blocks (KLU's factors, UMFPACK's work) faulted in at once as ours are
 * (feast_prefault): in this project's virtual machines the page faults of the first
 * factorisation cost more than its arithmetic (KLU's first factorisation at level 4 of
 * unitsquare8, 2145 unknowns: 7.5 ms, 4.0 ms with its blocks faulted in at once; a
 * refactorisation into memory already touched takes 1.3 ms). The content is what
 * malloc and calloc give; the choice is process-wide. */
static void *prefaulted_malloc(size_t bytes) {
  void *p = malloc(bytes);
  if (p) feast_prefault(p, bytes);
  return p;
}

static void *prefaulted_calloc(size_t count, size_t size) {
  void *p = calloc(count, size);
  if (p) feast_prefault(p, count * size);
  return p;
}

static void suitesparse_prefaulted(void) {
  SuiteSparse_config.malloc_func = prefaulted_malloc;
  SuiteSparse_config.calloc_func = prefaulted_calloc;
}

/* A coupled system is factored again at every nonlinear step, and UMFPACK allocates its
 * factors afresh each time (tens of MB at 25k unknowns); glibc maps blocks that large
 * anew and unmaps them when freed, so every factorisation faulted its memory in again
 * (the step at Re = 800, L = 4: 1.5 GB over level 3's 27 factorisations, 0.5-0.7 s of
 * kernel time). From the first coupled system on, the process keeps freed memory in its
 * heap for the next factorisation (no mmap for large blocks, no trimming): the peak
 * memory is the same, the resident size after it stays at the peak (+7 % there). The
 * prefault of a block the heap already backed costs next to nothing. */
static void keep_freed_memory(void) {
#ifdef __GLIBC__
  static int done;
  if (done) return;
  done = 1;
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, INT_MAX);
#endif
}

static int singular(const FeastDirect *c) {
  FEAST_ERROR(FEAST_ERR_SOLVER,
              "the %s (level %d, %lld unknowns) is singular: check the boundary "
              "conditions - a pure Neumann problem has no unique solution",
              c->what, c->level, (long long)c->n);
}

/* rank 0: the blocks' merged couplings t[k] (each sorted by row, then column) as the
 * compressed rows of the whole matrix, block row r's row i being row r ng + i, its
 * couplings block by block (the columns ascend: block column b's are b ng + col), and
 * slot[k][e] the place of block k's coupling e */
static int compress_rows(FeastDirect *c, const FeastTriplets *t) {
  const int nb = c->nb;
  const int64_t ng = c->ng;
  SuiteSparse_long nnz = 0;
  for (int k = 0; k < nb * nb; k++) nnz += (SuiteSparse_long)t[k].nnz;
  c->nnz = nnz;
  FEAST_CALL(FEAST_ALLOC(c->n + 1, &c->Ap));
  FEAST_CALL(FEAST_ALLOC(nnz + 1, &c->Ai));
  FEAST_CALL(FEAST_ALLOC(nnz + 1, &c->Ax));
  for (int k = 0; k < nb * nb; k++)
    for (int64_t e = 0; e < t[k].nnz; e++) c->Ap[(k / nb) * ng + t[k].row[e] + 1]++;
  for (int64_t r = 0; r < c->n; r++) c->Ap[r + 1] += c->Ap[r];
  SuiteSparse_long *next;
  FEAST_CALL(FEAST_ALLOC(c->n + 1, &next));
  memcpy(next, c->Ap, sizeof(SuiteSparse_long) * (size_t)c->n);
  int st = 0;
  for (int k = 0; k < nb * nb && !st; k++) {
    c->bnnz[k] = t[k].nnz;
    if (!t[k].nnz) continue;
    st = FEAST_ALLOC(t[k].nnz, &c->slot[k]);
    for (int64_t e = 0; !st && e < t[k].nnz; e++) {
      const SuiteSparse_long at = next[(k / nb) * ng + t[k].row[e]]++;
      c->Ai[at] = (SuiteSparse_long)((k % nb) * ng + t[k].col[e]);
      c->Ax[at] = t[k].val[e];
      c->slot[k][e] = at;
    }
  }
  free(next);
  return st;
}

/* rank 0: the couplings pin_lo .. pin_hi - 1 of row pin, its diagonal at pin_diag (-1: not
 * in the pattern) */
static void find_pin(FeastDirect *c) {
  c->pin_lo = c->pin_hi = 0, c->pin_diag = -1;
  if (c->pin < 0) return;
  c->pin_lo = c->Ap[c->pin], c->pin_hi = c->Ap[c->pin + 1];
  for (SuiteSparse_long k = c->pin_lo; k < c->pin_hi; k++)
    if (c->Ai[k] == c->pin) c->pin_diag = k;
}

/* rank 0: row pin of Ax the identity's */
static void pin_row(FeastDirect *c) {
  for (SuiteSparse_long k = c->pin_lo; k < c->pin_hi; k++) c->Ax[k] = k == c->pin_diag ? 1.0 : 0.0;
}

/* rank 0, first call: the compressed rows with their values (compress_rows), the pinned
 * row, and the symbolic analysis */
static int analyse(FeastDirect *c, const FeastTriplets *t) {
  FEAST_CALL(compress_rows(c, t));
  find_pin(c);
  FEAST_CHECK(c->pin < 0 || c->pin_diag >= 0, FEAST_ERR_INTERNAL, "the %s's pinned row %lld has no diagonal entry", c->what,
              (long long)c->pin);
  pin_row(c);
  const SuiteSparse_long n = (SuiteSparse_long)c->n, nnz = c->nnz;
  if (c->method == FEAST_DIRECT_KLU) {
    FEAST_CHECK(nnz < INT_MAX, FEAST_ERR_LIMIT,
                "the %s (level %d) has %ld entries, more than KLU's 32-bit indices hold: "
                "lower solver.coarse_max_dofs", c->what, c->level, (long)nnz);
    FEAST_CALL(FEAST_ALLOC(n + 1, &c->kAp));
    FEAST_CALL(FEAST_ALLOC(nnz + 1, &c->kAi));
    for (SuiteSparse_long k = 0; k <= n; k++) c->kAp[k] = (int)c->Ap[k];
    for (SuiteSparse_long k = 0; k < nnz; k++) c->kAi[k] = (int)c->Ai[k];
    free(c->Ap), free(c->Ai); /* UMFPACK's */
    c->Ap = c->Ai = NULL;
    klu_defaults(&c->kc);
    c->ksym = klu_analyze((int)n, c->kAp, c->kAi, &c->kc);
    FEAST_CHECK(c->ksym, c->kc.status == KLU_OUT_OF_MEMORY ? FEAST_ERR_MEM : FEAST_ERR_SOLVER,
                "KLU analysis of the %s (level %d, %ld unknowns) failed (status %d)", c->what, c->level, (long)n,
                (int)c->kc.status);
    return 0;
  }
  blas_one_thread_per_rank();
  const SuiteSparse_long st = umfpack_dl_symbolic(n, n, c->Ap, c->Ai, c->Ax, &c->symbolic, NULL, NULL);
  FEAST_CHECK(st == UMFPACK_OK, FEAST_ERR_SOLVER,
              "UMFPACK symbolic factorisation of the %s (level %d, %ld unknowns) failed (status %ld)",
              c->what, c->level, (long)n, (long)st);
  return 0;
}

/* KLU with partial pivoting; rcond_full: its cheap reciprocal condition estimate */
static int klu_full(FeastDirect *c) {
  if (c->knum) klu_free_numeric(&c->knum, &c->kc);
  c->knum = klu_factor(c->kAp, c->kAi, c->Ax, c->ksym, &c->kc);
  if (!c->knum && c->kc.status == KLU_SINGULAR) return singular(c);
  FEAST_CHECK(c->knum, c->kc.status == KLU_OUT_OF_MEMORY ? FEAST_ERR_MEM : FEAST_ERR_SOLVER,
              "KLU factorisation of the %s failed (status %d%s)", c->what, (int)c->kc.status,
              c->kc.status == KLU_TOO_LARGE ? ": its factors exceed 32-bit indices, lower solver.coarse_max_dofs" : "");
  klu_rcond(c->ksym, c->knum, &c->kc);
  c->rcond_full = c->kc.rcond;
  return 0;
}

/* KLU with new values: the pivot order of the last full factorisation (no search, no
 * allocation). Without pivoting a pivot may have become small: a refactorisation whose
 * rcond estimate fell below 1e-3 of the full one's is replaced by a full factorisation. */
static int klu_values(FeastDirect *c) {
  if (!c->knum) return klu_full(c);
  const int ok = klu_refactor(c->kAp, c->kAi, c->Ax, c->ksym, c->knum, &c->kc) && klu_rcond(c->ksym, c->knum, &c->kc);
  if (ok && c->kc.rcond >= 1e-3 * c->rcond_full) return 0;
  feast_log(2, "coarse grid: KLU refactorisation lost accuracy (rcond %.3g, was %.3g): full factorisation\n",
            c->kc.rcond, c->rcond_full);
  return klu_full(c);
}

static int umfpack_numeric(FeastDirect *c) {
  if (c->numeric) umfpack_dl_free_numeric(&c->numeric);
  const SuiteSparse_long st = umfpack_dl_numeric(c->Ap, c->Ai, c->Ax, c->symbolic, &c->numeric, NULL, NULL);
  if (st == UMFPACK_WARNING_singular_matrix) return singular(c);
  FEAST_CHECK(st == UMFPACK_OK, FEAST_ERR_SOLVER,
              "UMFPACK numeric factorisation of the %s failed (status %ld)", c->what, (long)st);
  return 0;
}

/* rank 0: numeric factorisation of the values in Ax */
static int factor(FeastDirect *c) {
  return c->method == FEAST_DIRECT_KLU ? klu_values(c) : umfpack_numeric(c);
}

/* every rank learns whether rank 0 succeeded (rank 0 keeps the message) */
static int agree(const FeastDirect *c, int status) {
  int global = status;
  FEAST_MPI_CALL(MPI_Bcast(&global, 1, MPI_INT, 0, c->dom->comm));
  if (global && c->dom->rank != 0) FEAST_ERROR(global, "the %s's factorisation failed on rank 0", c->what);
  return global;
}

/* the blocks as the gathers read them (M[k].bands NULL for a zero block) */
static int level_matrices(const FeastDomain *dom, int nb, const FeastBand9 *const *A, FeastLevelMatrix *M) {
  memset(M, 0, sizeof *M * (size_t)(nb * nb));
  for (int k = 0; k < nb * nb; k++)
    if (A[k]) FEAST_CALL(feast_level_matrix_band9(dom, A[k], &M[k]));
  return 0;
}

static void level_matrices_free(int nb, FeastLevelMatrix *M) {
  for (int k = 0; k < nb * nb; k++) feast_level_matrix_free(&M[k]);
}

/* first call: gather every block's pattern and values on rank 0, analyse and factor there */
static int gather_analyse_factor(FeastDirect *c, const FeastLevelMatrix *A) {
  FeastTriplets t[FEAST_DIRECT_MAX_BLOCKS * FEAST_DIRECT_MAX_BLOCKS];
  memset(t, 0, sizeof t);
  int status = 0;
  for (int k = 0; k < c->nb * c->nb && !status; k++)
    if (A[k].bands) status = feast_matrix_gather_create(c->dom, c->level, &A[k], 0, &t[k], &c->gather[k]);
  if (!status) { /* else a failed collective: every rank returns it, as from any MPI call */
    int64_t most = 0;
    for (int k = 0; k < c->nb * c->nb; k++) most = t[k].nnz > most ? t[k].nnz : most;
    if (c->dom->rank == 0 && c->nb > 1) status = FEAST_ALLOC(most + 1, &c->bval);
    if (!status && c->dom->rank == 0) status = analyse(c, t);
    if (!status && c->dom->rank == 0) status = factor(c);
    status = agree(c, status);
  }
  for (int k = 0; k < c->nb * c->nb; k++) feast_triplets_free(&t[k]);
  return status;
}

static int create_system(const FeastDomain *dom, int level, int nb, const FeastLevelMatrix *A, FeastDirectSolver method,
                         int64_t pin, FeastDirect **cp) {
  FeastDirect *c;
  FEAST_CALL(FEAST_ALLOC(1, &c));
  *cp = c;
  c->dom = dom;
  c->level = level;
  c->method = method;
  c->nb = nb;
  c->ng = dom->levels[level].nglobal;
  c->n = nb * c->ng;
  c->pin = pin;
  c->what = nb == 1 ? "coarse grid matrix" : "coupled system";
  FEAST_CHECK(pin < c->n, FEAST_ERR_ARG, "feast_direct_create_system: pinned row %lld of %lld", (long long)pin,
              (long long)c->n);
  suitesparse_prefaulted();
  if (nb > 1) keep_freed_memory();
  const int64_t rhs = nb == 1 ? FEAST_DIRECT_MAX_RHS : 1;
  FEAST_CALL(FEAST_ALLOC(rhs * c->n, &c->rhs));
  FEAST_CALL(FEAST_ALLOC(rhs * c->n, &c->sol));
  FEAST_CALL(feast_vec_gather_create(dom, level, 0, &c->vgather));
  return gather_analyse_factor(c, A);
}

int feast_direct_create_system(const FeastDomain *dom, int level, int nb, const FeastBand9 *const *A,
                               FeastDirectSolver method, int64_t pin, FeastDirect **cp) {
  FEAST_CHECK(nb >= 1 && nb <= FEAST_DIRECT_MAX_BLOCKS, FEAST_ERR_ARG, "feast_direct_create_system: %d blocks (1..%d)",
              nb, FEAST_DIRECT_MAX_BLOCKS);
  FeastLevelMatrix M[FEAST_DIRECT_MAX_BLOCKS * FEAST_DIRECT_MAX_BLOCKS];
  int st = level_matrices(dom, nb, A, M);
  if (!st) st = create_system(dom, level, nb, M, method, pin, cp);
  level_matrices_free(nb, M);
  return st;
}

int feast_direct_create(const FeastDomain *dom, int level, const FeastBand9 *A, FeastDirectSolver method,
                        FeastDirect **cp) {
  return feast_direct_create_system(dom, level, 1, &A, method, -1, cp);
}

int feast_direct_create_band(const FeastDomain *dom, int level, const FeastBand *A, FeastDirectSolver method,
                             FeastDirect **cp) {
  FeastLevelMatrix M;
  int st = feast_level_matrix_band(dom, A, &M);
  if (!st) st = create_system(dom, level, 1, &M, method, -1, cp);
  feast_level_matrix_free(&M);
  return st;
}

/* rank 0: Ax <- the blocks' values (one block: gathered into Ax in place), the pinned
 * row the identity's */
static int gather_values(FeastDirect *c, const FeastLevelMatrix *A) {
  if (c->nb == 1) {
    FEAST_CALL(feast_matrix_gather_values(c->gather[0], &A[0], c->Ax));
  } else {
    for (int k = 0; k < c->nb * c->nb; k++) {
      FEAST_CHECK(!A[k].bands == !c->gather[k], FEAST_ERR_ARG, "feast_direct_refresh_system: block %d %s", k,
                  A[k].bands ? "was a zero block at create" : "is missing");
      if (!A[k].bands) continue;
      FEAST_CALL(feast_matrix_gather_values(c->gather[k], &A[k], c->bval));
      for (int64_t e = 0; c->dom->rank == 0 && e < c->bnnz[k]; e++) c->Ax[c->slot[k][e]] = c->bval[e];
    }
  }
  if (c->dom->rank == 0) pin_row(c);
  return 0;
}

/* new values: gathered in pattern order (no sort, nothing allocated), numeric factorisation */
static int refresh(FeastDirect *c, const FeastLevelMatrix *A) {
  FEAST_CALL(gather_values(c, A));
  return agree(c, c->dom->rank == 0 ? factor(c) : 0);
}

int feast_direct_refresh_system(FeastDirect *c, const FeastBand9 *const *A) {
  FeastLevelMatrix M[FEAST_DIRECT_MAX_BLOCKS * FEAST_DIRECT_MAX_BLOCKS];
  int st = level_matrices(c->dom, c->nb, A, M);
  if (!st) st = refresh(c, M);
  level_matrices_free(c->nb, M);
  return st;
}

int feast_direct_refresh(FeastDirect *c, const FeastBand9 *A) { return feast_direct_refresh_system(c, &A); }

int feast_direct_refresh_band(FeastDirect *c, const FeastBand *A) {
  FeastLevelMatrix M;
  int st = feast_level_matrix_band(c->dom, A, &M);
  if (!st) st = refresh(c, &M);
  feast_level_matrix_free(&M);
  return st;
}

/* rank 0: sol <- A^{-1} rhs for nrhs right-hand sides n apart (the transpose solve of
 * S = A^T). KLU solves them together, each column with the operations of a solve of its
 * own (bitwise the same; the factors stream once for all: two cost ~1.2x one). */
static int solve_rank0(FeastDirect *c, int nrhs) {
  const size_t n = (size_t)c->n;
  if (c->method == FEAST_DIRECT_KLU) {
    memcpy(c->sol, c->rhs, sizeof(double) * n * (size_t)nrhs);
    FEAST_CHECK(klu_tsolve(c->ksym, c->knum, (int)c->n, nrhs, c->sol, &c->kc), FEAST_ERR_SOLVER,
                "KLU solve of the %s failed (status %d)", c->what, (int)c->kc.status);
    return 0;
  }
  for (int k = 0; k < nrhs; k++) {
    const SuiteSparse_long st = umfpack_dl_solve(UMFPACK_At, c->Ap, c->Ai, c->Ax, c->sol + k * n, c->rhs + k * n,
                                                 c->numeric, NULL, NULL);
    FEAST_CHECK(st == UMFPACK_OK, FEAST_ERR_SOLVER, "UMFPACK solve of the %s failed (status %ld)", c->what, (long)st);
  }
  return 0;
}

/* x[k] <- the solution for b[k]: arrays k < count of c->ng unknowns each, solved as nrhs
 * systems (nb = 1: count = nrhs) or as one (count = nb blocks) */
static int gather_solve_scatter(FeastDirect *c, int count, int nrhs, double *const *const *b, double *const *const *x) {
  for (int k = 0; k < count; k++) FEAST_CALL(feast_vec_gather(c->vgather, b[k], c->rhs + k * c->ng));
  if (c->dom->rank == 0 && c->pin >= 0) c->rhs[c->pin] = 0.0;
  int status = c->dom->rank == 0 ? solve_rank0(c, nrhs) : 0;
  FEAST_MPI_CALL(MPI_Bcast(&status, 1, MPI_INT, 0, c->dom->comm));
  FEAST_CHECK(status == 0, status, "the %s's solve failed on rank 0", c->what);
  for (int k = 0; k < count; k++) FEAST_CALL(feast_vec_scatter(c->vgather, c->sol + k * c->ng, x[k]));
  return 0;
}

int feast_direct_solve_many(FeastDirect *c, int nrhs, double *const *const *b, double *const *const *x) {
  FEAST_CHECK(nrhs >= 1 && nrhs <= FEAST_DIRECT_MAX_RHS && c->nb == 1, FEAST_ERR_ARG,
              "feast_direct_solve_many: %d right-hand sides (1..%d) of a %d-block system (1)", nrhs,
              FEAST_DIRECT_MAX_RHS, c->nb);
  feast_timer_start(FEAST_T_COARSE);
  const int st = gather_solve_scatter(c, nrhs, nrhs, b, x);
  feast_timer_stop(FEAST_T_COARSE);
  return st;
}

int feast_direct_solve(FeastDirect *c, double *const *b, double *const *x) {
  return feast_direct_solve_many(c, 1, &b, &x);
}

int feast_direct_solve_system(FeastDirect *c, double *const *const *b, double *const *const *x) {
  return gather_solve_scatter(c, c->nb, 1, b, x);
}

void feast_direct_destroy(FeastDirect **cp) {
  FeastDirect *c = *cp;
  if (!c) return;
  if (c->numeric) umfpack_dl_free_numeric(&c->numeric);
  if (c->symbolic) umfpack_dl_free_symbolic(&c->symbolic);
  if (c->knum) klu_free_numeric(&c->knum, &c->kc);
  if (c->ksym) klu_free_symbolic(&c->ksym, &c->kc);
  free(c->Ap);
  free(c->Ai);
  free(c->kAp);
  free(c->kAi);
  free(c->Ax);
  for (int k = 0; k < FEAST_DIRECT_MAX_BLOCKS * FEAST_DIRECT_MAX_BLOCKS; k++) {
    feast_matrix_gather_destroy(&c->gather[k]);
    free(c->slot[k]);
  }
  free(c->bval);
  feast_vec_gather_destroy(&c->vgather);
  free(c->rhs);
  free(c->sol);
  feast_free(cp);
}

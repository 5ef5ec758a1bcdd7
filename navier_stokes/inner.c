/* The inner solvers of the block preconditioner (schur.c: the velocity blocks; pcd.c: the
 * pressure Laplacian A_p): an approximate inverse of one scalar block operator, built by
 * name (velocity.solver, pressure.solver: NsInnerSolver) and applied as a FeastLinOp
 * (x <- approx A^-1 b, from zero):
 *   scarc  - two-layer ScaRC multigrid ([solver] keys) to the tolerance of its prefix;
 *   direct - the global sparse matrix (Dirichlet rows made identity) factored by the
 *            coarse-grid solver of solvers/direct.h (KLU or UMFPACK on rank 0,
 *            solver.coarse_solver), exact; for small systems and tests: refused above
 *            NS_DIRECT_MAX_NODES unknowns;
 *   jacobi - c = D^-1 d with D the assembled diagonal (one step; a weak baseline). */
#include "feast/base/error.h"
#include "navier_stokes/ns_private.h"
#include "solvers/direct.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct NsInner {
  NsInnerSolver kind;
  const char *prefix;          /* "velocity", "pressure": the keys' section, in messages */
  const FeastDomain *dom;
  int level;
  const FeastMask *mask;
  FeastDirectSolver coarse_solver;
  Scarc *scarc;                /* scarc */
  FeastKrylovMethod method;    /* scarc */
  const FeastSolveParams *sp;  /* scarc: the tolerances (owned by the problem) */
  FeastBand9 *A;               /* direct: a copy of the operator with identity Dirichlet rows */
  FeastDirect *lu;             /* direct */
  FeastVec *diag;              /* jacobi: the assembled diagonal */
};

int ns_inner_create(NsInnerSolver kind, const char *prefix, const FeastDomain *dom, int level, const FeastMask *mask,
                    const ScarcParams *scarc, FeastKrylovMethod method, const FeastSolveParams *sp, NsInner **s) {
  const int64_t n = dom->levels[level].nglobal;
  *s = NULL;
  FEAST_CHECK(kind != NS_INNER_DIRECT || n <= NS_DIRECT_MAX_NODES, FEAST_ERR_CONFIG,
              "%s.solver = direct: the block has %lld unknowns, more than %d (a sparse direct factorisation on one "
              "rank is for small systems and tests); use %s.solver = scarc",
              prefix, (long long)n, NS_DIRECT_MAX_NODES, prefix);
  NsInner *t;
  FEAST_CALL(FEAST_ALLOC(1, &t));
  *t = (NsInner){kind, prefix, dom, level, mask, scarc->coarse_solver, NULL, method, sp, NULL, NULL, NULL};
  *s = t;
  if (kind == NS_INNER_SCARC) return scarc_create(dom, mask, scarc, &t->scarc);
  if (kind == NS_INNER_JACOBI) return feast_vec_create(dom, level, 1, &t->diag);
  return FEAST_ALLOC(dom->nlocal + 1, &t->A);
}

void ns_inner_destroy(NsInner **s) {
  NsInner *t = *s;
  if (!t) return;
  scarc_destroy(&t->scarc);
  feast_direct_destroy(&t->lu);
  for (int li = 0; t->A && li < t->dom->nlocal; li++) feast_band9_destroy(&t->A[li]);
  feast_free(&t->A);
  feast_vec_destroy(&t->diag);
  feast_free(s);
}

/* direct: A's copy with the Dirichlet rows of the mask (identity at the owning macro),
 * factored (the pattern and ordering once, then values only) */
static int direct_set_operator(NsInner *s, const FeastBand9 *A) {
  for (int li = 0; li < s->dom->nlocal; li++) {
    if (!s->A[li].N) FEAST_CALL(feast_band9_copy(&A[li], &s->A[li]));
    else
      for (int k = 0; k < FEAST_NBANDS; k++)
        memcpy(s->A[li].band[k], A[li].band[k], sizeof(double) * A[li].N * A[li].N);
    feast_band9_fix_rows(&s->A[li], s->mask->fixed[s->level][li], s->dom->levels[s->level].owned[li]);
  }
  if (s->lu) return feast_direct_refresh(s->lu, s->A);
  return feast_direct_create(s->dom, s->level, s->A, s->coarse_solver, &s->lu);
}

/* jacobi: the consistent diagonal (partial sums added over the interfaces) */
static int jacobi_set_operator(NsInner *s, const FeastBand9 *A) {
  feast_vec_diagonal(A, s->diag);
  return feast_vec_sum(s->diag);
}

int ns_inner_set_operator(NsInner *s, const FeastBand9 *A) {
  if (s->kind == NS_INNER_SCARC) return scarc_set_operator(s->scarc, A);
  return s->kind == NS_INNER_DIRECT ? direct_set_operator(s, A) : jacobi_set_operator(s, A);
}

int ns_inner_solve_capped(NsInner *s, int max_iterations, const FeastVec *b, FeastVec *x, FeastSolveResult *res) {
  if (s->kind == NS_INNER_SCARC) {
    FeastSolveParams sp = *s->sp;
    if (max_iterations > 0 && max_iterations < sp.max_iterations) { /* capped */
      sp.max_iterations = max_iterations;
      if (sp.fixed_iterations > max_iterations) sp.fixed_iterations = max_iterations;
    }
    feast_vec_zero(x);
    return scarc_solve(s->scarc, s->method, &sp, b, x, res);
  }
  memset(res, 0, sizeof *res);
  res->converged = 1, res->iterations = 1;
  if (s->kind == NS_INNER_DIRECT) return feast_direct_solve(s->lu, feast_vec_blocks(b, 0), feast_vec_blocks(x, 0));
  feast_vec_pointwise_divide(b, s->diag, x);
  return 0;
}

int ns_inner_solve(NsInner *s, const FeastVec *b, FeastVec *x, FeastSolveResult *res) {
  return ns_inner_solve_capped(s, 0, b, x, res);
}

int ns_inner_solve_many(NsInner *s, int n, const FeastVec *const *b, FeastVec *const *x, FeastSolveResult *res) {
  if (s->kind != NS_INNER_SCARC || s->method != FEAST_KRYLOV_RICHARDSON || n > SCARC_MAX_RHS) {
    for (int k = 0; k < n; k++) FEAST_CALL(ns_inner_solve(s, b[k], x[k], &res[k]));
    return 0;
  }
  for (int k = 0; k < n; k++) feast_vec_zero(x[k]);
  return scarc_solve_mg_many(s->scarc, n, s->sp, b, x, res);
}

Scarc *ns_inner_scarc(const NsInner *s) { return s ? s->scarc : NULL; }

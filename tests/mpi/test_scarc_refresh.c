/* A second scarc_set_operator with new values (the per-nonlinear-step path: Galerkin
 * levels, local hierarchies, backend copies and the coarse LU refreshed in place) gives
 * bitwise the solution of a ScaRC set up from scratch with those values, for a
 * nonsymmetric operator (convection-diffusion) in double and single local precision and
 * with either coarse grid solver. Matrices assembled into the solver's own storage
 * (scarc_operator_storage, taken in place) give bitwise the solution of a copied one,
 * also when assembled there again for a refresh; the storage comes zeroed, and the
 * solver refuses to solve while the application holds it. The two coarse grid solvers (KLU, UMFPACK) agree, also
 * after a refresh to values that need other pivots than the first factorisation's.
 * Two systems solved together (scarc_solve_mg_many, scarc_precondition_many: paired V
 * cycles, one coarse-grid solve for both) give bitwise the solutions, iteration counts,
 * reasons and residuals of two solves one after the other, also when one system stops
 * iterations before the other or at once (a zero right-hand side), in both precisions and
 * with either coarse grid solver. */
#include "feast/base/error.h"
#include "feast/la/mask.h"
#include "feast/mesh/mesh.h"
#include "feast/fem/q1.h"
#include "feast_test.h"
#include "solvers/direct.h"
#include "scarc/scarc.h"
#include "scarc/scarc_keys.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* eps grad u . grad v + (b . grad u) v with b = (1, 0.5) */
static void convection_diffusion(const FeastQ1Point *p, void *ctx, double A[4][4]) {
  const double eps = *(const double *)ctx;
  for (int a = 0; a < 4; a++)
    for (int c = 0; c < 4; c++)
      A[a][c] += (eps * (p->dphi[a][0] * p->dphi[c][0] + p->dphi[a][1] * p->dphi[c][1]) +
                  (p->dphi[c][0] + 0.5 * p->dphi[c][1]) * p->phi[a]) * p->weight;
}

/* A[li] += the operator of local macro li on a level */
static void assemble_into(const FeastDomain *dom, int level, double eps, FeastBand9 *A) {
  const FeastLevel *lev = &dom->levels[level];
  for (int li = 0; li < dom->nlocal; li++)
    CHECK_OK(feast_q1_assemble(lev->N, lev->xy[li], dom->local[li], convection_diffusion, &eps, 3, &A[li]));
}

static FeastBand9 *assemble_level(const FeastDomain *dom, int level, double eps) {
  FeastBand9 *A = calloc((size_t)dom->nlocal + 1, sizeof *A);
  for (int li = 0; li < dom->nlocal; li++) CHECK_OK(feast_band9_create(dom->levels[level].N, &A[li]));
  assemble_into(dom, level, eps, A);
  return A;
}

static FeastBand9 *assemble(const FeastDomain *dom, double eps) { return assemble_level(dom, dom->finest, eps); }

static void free_matrices(const FeastDomain *dom, FeastBand9 *A) {
  for (int li = 0; li < dom->nlocal; li++) feast_band9_destroy(&A[li]);
  free(A);
}

/* x <- ScaRC-mg solution of A x = b (b = 1 inside, 0 on the boundary) */
static void solve(Scarc *s, const FeastDomain *dom, const FeastMask *mask, FeastVec *x) {
  FeastVec *b = NULL;
  CHECK_OK(feast_vec_create(dom, dom->finest, 1, &b));
  if (!b) return;
  for (int li = 0; li < dom->nlocal; li++)
    for (long i = 0; i < (long)x->N * x->N; i++) b->host[li][i] = 1.0;
  feast_vec_zero_fixed(b, 0, mask);
  feast_vec_zero(x);
  FeastSolveParams sp = {.rtol = 1e-10, .max_iterations = 60, .divergence_factor = 1e4};
  FeastSolveResult res;
  CHECK_OK(scarc_solve(s, FEAST_KRYLOV_RICHARDSON, &sp, b, x, &res));
  CHECK(res.converged);
  feast_vec_destroy(&b);
}

/* the solver parameters of these tests: global coarse grid of at most 100 unknowns */
static ScarcParams make_params(ScarcPrecision precision, FeastDirectSolver coarse_solver) {
  ScarcParams p;
  scarc_params_defaults(&p);
  p.coarse_max_dofs = 100;
  p.local_precision = precision;
  p.coarse_solver = coarse_solver;
  return p;
}

static long count_differences(const FeastVec *x, const FeastVec *y) {
  long differ = 0;
  for (int li = 0; li < x->nlocal; li++)
    for (long i = 0; i < (long)x->N * x->N; i++) differ += x->host[li][i] != y->host[li][i];
  return differ;
}

/* the storage of the finest matrices, zeroed: no nonzero value in any band */
static long count_nonzeros(const FeastDomain *dom, const FeastBand9 *A) {
  long nonzero = 0;
  for (int li = 0; li < dom->nlocal; li++)
    for (int k = 0; k < FEAST_NBANDS; k++)
      for (long i = 0; i < (long)A[li].N * A[li].N; i++) nonzero += A[li].band[k][i] != 0.0;
  return nonzero;
}

/* assembled in place (twice: first values, then the refresh's) against a copied matrix */
static void check_in_place(const FeastDomain *dom, const FeastMask *mask) {
  const ScarcParams params = make_params(SCARC_PRECISION_DOUBLE, FEAST_DIRECT_KLU), *p = &params;
  FeastBand9 *A2 = assemble(dom, 0.02), *own = NULL;
  Scarc *copied = NULL, *in_place = NULL;
  FeastVec *x1 = NULL, *x2 = NULL;
  CHECK_OK(feast_vec_create(dom, dom->finest, 1, &x1));
  CHECK_OK(feast_vec_create(dom, dom->finest, 1, &x2));
  CHECK_OK(scarc_create(dom, mask, p, &copied));
  CHECK_OK(scarc_set_operator(copied, A2));
  solve(copied, dom, mask, x1);
  CHECK_OK(scarc_create(dom, mask, p, &in_place));
  CHECK_OK(scarc_operator_storage(in_place, &own));
  CHECK(count_nonzeros(dom, own) == 0);
  assemble_into(dom, dom->finest, 1.0, own);
  CHECK_OK(scarc_set_operator(in_place, own));
  solve(in_place, dom, mask, x2); /* use the first values once */
  FeastBand9 *again = NULL;
  CHECK_OK(scarc_operator_storage(in_place, &again));
  CHECK(again == own);
  CHECK(count_nonzeros(dom, again) == 0);
  FeastSolveParams sp = {.rtol = 1e-10, .max_iterations = 5, .divergence_factor = 1e4};
  FeastSolveResult res;
  CHECK(scarc_solve(in_place, FEAST_KRYLOV_RICHARDSON, &sp, x1, x2, &res) == FEAST_ERR_ARG); /* no operator now */
  feast_error_clear();
  assemble_into(dom, dom->finest, 0.02, again);
  CHECK_OK(scarc_set_operator(in_place, again));
  solve(in_place, dom, mask, x2);
  const long differ = count_differences(x1, x2);
  CHECK(differ == 0);
  if (differ) fprintf(stderr, "in place: %ld values differ from the copied matrix's solution\n", differ);
  scarc_destroy(&copied);
  scarc_destroy(&in_place);
  feast_vec_destroy(&x1);
  feast_vec_destroy(&x2);
  free_matrices(dom, A2);
}

static void check_precision(const FeastDomain *dom, const FeastMask *mask, ScarcPrecision precision,
                            FeastDirectSolver coarse_solver) {
  const ScarcParams params = make_params(precision, coarse_solver), *p = &params;
  FeastBand9 *A1 = assemble(dom, 1.0), *A2 = assemble(dom, 0.02);
  Scarc *refreshed = NULL, *fresh = NULL;
  FeastVec *x1 = NULL, *x2 = NULL;
  CHECK_OK(feast_vec_create(dom, dom->finest, 1, &x1));
  CHECK_OK(feast_vec_create(dom, dom->finest, 1, &x2));
  CHECK_OK(scarc_create(dom, mask, p, &refreshed));
  CHECK_OK(scarc_set_operator(refreshed, A1));
  solve(refreshed, dom, mask, x1); /* use the first values once */
  CHECK_OK(scarc_set_operator(refreshed, A2));
  solve(refreshed, dom, mask, x1);
  CHECK_OK(scarc_create(dom, mask, p, &fresh));
  CHECK_OK(scarc_set_operator(fresh, A2));
  solve(fresh, dom, mask, x2);
  const long differ = count_differences(x1, x2);
  CHECK(differ == 0);
  if (differ)
    fprintf(stderr, "%s, %s: %ld values differ between the refreshed and the fresh solver\n",
            scarc_precision_name(precision), coarse_solver == FEAST_DIRECT_KLU ? "klu" : "umfpack", differ);
  scarc_destroy(&refreshed);
  scarc_destroy(&fresh);
  feast_vec_destroy(&x1);
  feast_vec_destroy(&x2);
  free_matrices(dom, A1);
  free_matrices(dom, A2);
}

/* x <- A^-1 b on level l (b = 1 at every node) by the coarse grid solver c */
static void coarse_solve(FeastDirect *c, const FeastDomain *dom, int l, double **x) {
  const long n = (long)dom->levels[l].N * dom->levels[l].N;
  double **b = calloc((size_t)dom->nlocal + 1, sizeof *b);
  for (int li = 0; li < dom->nlocal; li++) {
    b[li] = malloc(sizeof(double) * (size_t)n);
    for (long i = 0; i < n; i++) b[li][i] = 1.0;
  }
  CHECK_OK(feast_direct_solve(c, b, x));
  for (int li = 0; li < dom->nlocal; li++) free(b[li]);
  free(b);
}

/* max |x - y| / max |y| over the local macros and all ranks */
static double relative_difference(const FeastDomain *dom, long n, double **x, double **y) {
  double d[2] = {0, 0};
  for (int li = 0; li < dom->nlocal; li++)
    for (long i = 0; i < n; i++) {
      d[0] = fmax(d[0], fabs(x[li][i] - y[li][i]));
      d[1] = fmax(d[1], fabs(y[li][i]));
    }
  MPI_Allreduce(MPI_IN_PLACE, d, 2, MPI_DOUBLE, MPI_MAX, dom->comm);
  return d[0] / d[1];
}

/* the coarse solvers on level 2 (with Dirichlet rows): KLU and UMFPACK agree on a
 * diffusion-dominated operator, and after KLU's refresh to a convection-dominated one
 * (eps = 1e-6: the diagonal pivots of the first factorisation make its rcond estimate
 * drop from 0.49 to 1.5e-8) with a fresh UMFPACK factorisation of it. That refresh must
 * have fallen back to a full factorisation: bitwise a fresh KLU's solution. */
static void check_coarse_solvers(const FeastDomain *dom, const FeastMask *mask) {
  const int l = 2;
  const long n = (long)dom->levels[l].N * dom->levels[l].N;
  FeastBand9 *A[2] = {assemble_level(dom, l, 1.0), assemble_level(dom, l, 1e-6)};
  for (int k = 0; k < 2; k++)
    for (int li = 0; li < dom->nlocal; li++)
      feast_band9_fix_rows(&A[k][li], mask->fixed[l][li], dom->levels[l].owned[li]);
  double **x[2];
  for (int k = 0; k < 2; k++) {
    x[k] = calloc((size_t)dom->nlocal + 1, sizeof *x[k]);
    for (int li = 0; li < dom->nlocal; li++) x[k][li] = calloc((size_t)n, sizeof(double));
  }
  FeastDirect *klu = NULL, *umf = NULL;
  for (int k = 0; k < 2; k++) {
    if (k == 0) CHECK_OK(feast_direct_create(dom, l, A[0], FEAST_DIRECT_KLU, &klu));
    else CHECK_OK(feast_direct_refresh(klu, A[1]));
    CHECK_OK(feast_direct_create(dom, l, A[k], FEAST_DIRECT_UMFPACK, &umf));
    coarse_solve(klu, dom, l, x[0]);
    coarse_solve(umf, dom, l, x[1]);
    const double diff = relative_difference(dom, n, x[0], x[1]);
    CHECK(diff < 1e-9);
    if (!(diff < 1e-9)) fprintf(stderr, "eps %g: KLU and UMFPACK differ by %.3e\n", k ? 1e-6 : 1.0, diff);
    feast_direct_destroy(&umf);
  }
  FeastDirect *fresh = NULL;
  CHECK_OK(feast_direct_create(dom, l, A[1], FEAST_DIRECT_KLU, &fresh));
  coarse_solve(fresh, dom, l, x[1]);
  long differ = 0;
  for (int li = 0; li < dom->nlocal; li++)
    for (long i = 0; i < n; i++) differ += x[0][li][i] != x[1][li][i];
  CHECK(differ == 0);
  feast_direct_destroy(&fresh);
  feast_direct_destroy(&klu);
  for (int k = 0; k < 2; k++) {
    for (int li = 0; li < dom->nlocal; li++) free(x[k][li]);
    free(x[k]);
    free_matrices(dom, A[k]);
  }
}

/* b <- a right-hand side of kind 0 (1 inside), 1 (an oscillating one: other iteration
 * counts) or 2 (zero), zero at the Dirichlet nodes */
static void paired_rhs(const FeastMask *mask, int kind, FeastVec *b) {
  for (int li = 0; li < b->nlocal; li++)
    for (long i = 0; i < (long)b->N * b->N; i++) b->host[li][i] = kind == 0 ? 1.0 : kind == 1 ? (double)(i % 7) - 3.0 : 0.0;
  feast_vec_zero_fixed(b, 0, mask);
}

static int same_result(const FeastSolveResult *a, const FeastSolveResult *b) {
  return a->converged == b->converged && a->reason == b->reason && a->iterations == b->iterations &&
         a->initial_residual == b->initial_residual && a->final_residual == b->final_residual;
}

static void check_paired(const FeastDomain *dom, const FeastMask *mask, ScarcPrecision precision,
                         FeastDirectSolver coarse_solver, int kind0, int kind1) {
  const ScarcParams params = make_params(precision, coarse_solver);
  FeastBand9 *A = assemble(dom, 0.02);
  Scarc *s = NULL;
  FeastVec *b[2] = {NULL}, *x[2] = {NULL}, *y[2] = {NULL};
  for (int k = 0; k < 2; k++) {
    FeastVec **v[3] = {&b[k], &x[k], &y[k]};
    CHECK_OK(feast_vec_create_set(dom, dom->finest, 1, 3, v));
  }
  if (!b[1]) return;
  paired_rhs(mask, kind0, b[0]);
  paired_rhs(mask, kind1, b[1]);
  CHECK_OK(scarc_create(dom, mask, &params, &s));
  CHECK_OK(scarc_set_operator(s, A));
  FeastSolveParams sp = {.rtol = 1e-6, .max_iterations = 40, .divergence_factor = 1e4};
  FeastSolveResult alone[2], together[2];
  for (int k = 0; k < 2; k++) {
    feast_vec_zero(x[k]);
    CHECK_OK(scarc_solve(s, FEAST_KRYLOV_RICHARDSON, &sp, b[k], x[k], &alone[k]));
    feast_vec_zero(y[k]);
  }
  CHECK_OK(scarc_solve_mg_many(s, 2, &sp, (const FeastVec *const *)b, y, together));
  for (int k = 0; k < 2; k++) {
    CHECK(same_result(&alone[k], &together[k]));
    CHECK(count_differences(x[k], y[k]) == 0);
  }
  CHECK(kind0 == kind1 || alone[0].iterations != alone[1].iterations); /* the lockstep covers unequal counts */
  for (int k = 0; k < 2; k++) CHECK_OK(scarc_precondition(s, b[k], x[k]));
  CHECK_OK(scarc_precondition_many(s, 2, (const FeastVec *const *)b, y));
  for (int k = 0; k < 2; k++) CHECK(count_differences(x[k], y[k]) == 0);
  scarc_destroy(&s);
  for (int k = 0; k < 2; k++) feast_vec_destroy(&b[k]), feast_vec_destroy(&x[k]), feast_vec_destroy(&y[k]);
  free_matrices(dom, A);
}

static int run(void) {
  FeastMesh *mesh = NULL;
  FeastDomain *dom = NULL;
  FeastMask *mask = NULL;
  CHECK_OK(feast_mesh_read("grids/dfg24.feast", NULL, &mesh));
  if (!mesh) return 1;
  CHECK_OK(feast_domain_create(mesh, 4, MPI_COMM_WORLD, &dom));
  if (!dom) return 1;
  unsigned char parts[8];
  CHECK_OK(feast_mask_parse_parts(mesh, "all", "test", parts));
  CHECK_OK(feast_mask_create(dom, parts, &mask));
  if (!mask) return 1;
  check_precision(dom, mask, SCARC_PRECISION_DOUBLE, FEAST_DIRECT_KLU);
  check_precision(dom, mask, SCARC_PRECISION_SINGLE, FEAST_DIRECT_KLU);
  check_precision(dom, mask, SCARC_PRECISION_DOUBLE, FEAST_DIRECT_UMFPACK);
  check_coarse_solvers(dom, mask);
  check_in_place(dom, mask);
  check_paired(dom, mask, SCARC_PRECISION_DOUBLE, FEAST_DIRECT_KLU, 0, 1);
  check_paired(dom, mask, SCARC_PRECISION_SINGLE, FEAST_DIRECT_KLU, 1, 0);
  check_paired(dom, mask, SCARC_PRECISION_DOUBLE, FEAST_DIRECT_UMFPACK, 0, 2);
  check_paired(dom, mask, SCARC_PRECISION_SINGLE, FEAST_DIRECT_KLU, 2, 1);
  feast_mask_destroy(&mask);
  feast_domain_destroy(&dom);
  feast_mesh_destroy(&mesh);
  return 0;
}

FEAST_TEST_MAIN(run)

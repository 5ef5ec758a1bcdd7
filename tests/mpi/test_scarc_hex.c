/* Two-layer ScaRC on hexahedral macros (scarc/scarc_hex.c; issue #47): -Laplace u = f on
 * the unit cube, u = sin(pi x) sin(pi y) sin(pi z) (zero on the boundary), as 2 x 2 x 2
 * macros and as a distorted 3 x 2 x 2 box, levels 2-4, CG with the V cycle:
 *  - the discrete solution converges with order 2 in L2;
 *  - the iterations to 1e-10 do not grow with the level (at most one more than the
 *    coarsest run's) and stay few;
 *  - the same iterations, residuals and solution bits as on MPI_COMM_SELF (all macros on
 *    one rank), in double and single local precision;
 *  - bad input: a 2D domain, an operator not set: one error each. */
#include "feast/base/error.h"
#include "feast/fem/q1_hex.h"
#include "feast/la/gather.h"
#include "feast/mesh/hex.h"
#include "scarc/scarc_hex.h"
#include "feast_test.h"
#include <stdlib.h>
#include <string.h>

static void rhs_fn(long n, const double *x, const double *y, const double *z, void *ctx, double *f) {
  (void)ctx;
  for (long q = 0; q < n; q++) f[q] = 3.0 * M_PI * M_PI * sin(M_PI * x[q]) * sin(M_PI * y[q]) * sin(M_PI * z[q]);
}
static void exact_fn(long n, const double *x, const double *y, const double *z, void *ctx, double *u) {
  (void)ctx;
  for (long q = 0; q < n; q++) u[q] = sin(M_PI * x[q]) * sin(M_PI * y[q]) * sin(M_PI * z[q]);
}

typedef struct {
  int iterations;
  double final_residual, l2_error;
  double *solution; /* in the global numbering (every rank) */
  long nglobal;
} Result;

static void solve(const FeastMesh *mesh, int level, MPI_Comm comm, ScarcPrecision precision, Result *r) {
  memset(r, 0, sizeof *r);
  FeastDomain *dom = NULL;
  FeastMask *mask = NULL;
  ScarcHex *s = NULL;
  FeastVec *b = NULL, *x = NULL;
  CHECK_OK(feast_domain_create(mesh, level, comm, &dom));
  if (!dom) return;
  unsigned char *all = malloc(mesh->nparts);
  memset(all, 1, mesh->nparts);
  CHECK_OK(feast_mask_create(dom, all, &mask));
  free(all);
  ScarcParams p;
  scarc_params_defaults(&p);
  p.local_precision = precision;
  p.mg_pre_smooth = p.mg_post_smooth = 1;
  p.coarse_max_dofs = 200;
  p.smoother_damping = 0.8; /* 1: 6 / 8 / 11 iterations at L2-4 on the distorted box */
  p.smoother_step = SCARC_STEP_FIXED;
  const FeastLevel *lev = &dom->levels[level];
  FeastBand *A = calloc((size_t)dom->nlocal + 1, sizeof *A);
  CHECK_OK(feast_vec_create(dom, level, 1, &b));
  CHECK_OK(feast_vec_create(dom, level, 1, &x));
  for (int li = 0; li < dom->nlocal; li++) {
    CHECK_OK(feast_band_create(&feast_stencil_q1_3d, lev->N, &A[li]));
    CHECK_OK(feast_q1_hex_assemble(lev->N, lev->xy[li], dom->local[li], feast_q1_hex_form_laplace, NULL, 2, &A[li]));
    CHECK_OK(feast_q1_hex_assemble_rhs(lev->N, lev->xy[li], dom->local[li], rhs_fn, NULL, 3, feast_vec_block(b, 0, li)));
  }
  CHECK_OK(feast_vec_sum(b));
  feast_vec_zero_fixed(b, 0, mask);
  CHECK_OK(scarc_hex_create(dom, mask, &p, &s));
  if (s) CHECK_OK(scarc_hex_set_operator(s, A));
  FeastSolveParams sp;
  feast_solve_params_defaults(&sp);
  sp.rtol = 1e-10;
  sp.max_iterations = 60;
  FeastSolveResult res = {0};
  if (s) CHECK_OK(scarc_hex_solve(s, FEAST_KRYLOV_CG, &sp, b, x, &res));
  CHECK(res.converged);
  r->iterations = res.iterations;
  r->final_residual = res.final_residual;
  /* the L2 error: each cell in one macro, the macros' parts summed in macro order */
  double *part = calloc(2 * (size_t)dom->nlocal + 2, sizeof(double)), sums[2];
  for (int li = 0; li < dom->nlocal; li++)
    CHECK_OK(feast_q1_hex_l2_error(lev->N, lev->xy[li], feast_vec_block_read(x, 0, li), exact_fn, NULL, 3, &part[li],
                                   &part[dom->nlocal + li]));
  CHECK_OK(feast_domain_sum_macros(dom, 2, part, sums));
  r->l2_error = sqrt(sums[0] / sums[1]);
  r->nglobal = lev->nglobal;
  r->solution = calloc((size_t)lev->nglobal, sizeof(double));
  CHECK_OK(feast_vec_gather_block(x, 0, 0, r->solution));
  MPI_Bcast(r->solution, (int)lev->nglobal, MPI_DOUBLE, 0, dom->comm);
  free(part);
  for (int li = 0; li < dom->nlocal; li++) feast_band_destroy(&A[li]);
  free(A);
  feast_vec_destroy(&b), feast_vec_destroy(&x);
  scarc_hex_destroy(&s);
  feast_mask_destroy(&mask);
  feast_domain_destroy(&dom);
}

static void check_mesh(const char *path, int finest) {
  FeastMesh *mesh = NULL;
  CHECK_OK(feast_mesh_read(path, NULL, &mesh));
  if (!mesh) return;
  Result r[8];
  int first_its = 0;
  for (int L = 2; L <= finest; L++) {
    solve(mesh, L, MPI_COMM_WORLD, SCARC_PRECISION_DOUBLE, &r[L]);
    if (L == 2) first_its = r[L].iterations;
    CHECK(r[L].iterations <= first_its + 1 && r[L].iterations <= 9);
    if (feast_test_rank() == 0)
      printf("test_scarc_hex: %s L%d: %ld unknowns, %d CG iterations, L2 error %.4e\n", path, L, r[L].nglobal,
             r[L].iterations, r[L].l2_error);
    if (L > 2) {
      const double order = log2(r[L - 1].l2_error / r[L].l2_error);
      if (feast_test_rank() == 0) printf("test_scarc_hex:   order %.3f\n", order);
      CHECK(order > 1.9 && order < 2.2);
    }
  }
  /* the same bits on one rank, in double and single local precision */
  for (int prec = 0; prec < 2; prec++) {
    const ScarcPrecision pr = prec ? SCARC_PRECISION_SINGLE : SCARC_PRECISION_DOUBLE;
    Result w, self;
    if (prec) solve(mesh, 3, MPI_COMM_WORLD, pr, &w);
    else w = r[3], w.solution = NULL;
    solve(mesh, 3, MPI_COMM_SELF, pr, &self);
    const double *ws = prec ? w.solution : r[3].solution;
    const int same = w.iterations == self.iterations && w.final_residual == self.final_residual &&
                     memcmp(ws, self.solution, sizeof(double) * self.nglobal) == 0;
    CHECK(same);
    if (feast_test_rank() == 0)
      printf("test_scarc_hex: %s L3 %s: %d iterations, the same bits as on one rank: %s\n", path,
             prec ? "single" : "double", w.iterations, same ? "yes" : "no");
    free(self.solution);
    if (prec) free(w.solution);
  }
  for (int L = 2; L <= finest; L++) free(r[L].solution);
  feast_mesh_destroy(&mesh);
}

static void check_bad(void) {
  FeastMesh *mesh = NULL;
  FeastDomain *dom = NULL;
  FeastMask *mask = NULL;
  ScarcHex *s = NULL;
  ScarcParams p;
  scarc_params_defaults(&p);
  CHECK_OK(feast_mesh_read("grids/unitsquare8.feast", NULL, &mesh));
  if (mesh) CHECK_OK(feast_domain_create(mesh, 1, MPI_COMM_WORLD, &dom));
  if (dom) CHECK_OK(feast_mask_create(dom, NULL, &mask));
  if (mask) {
    CHECK_FAILS(scarc_hex_create(dom, mask, &p, &s));
    scarc_hex_destroy(&s);
  }
  feast_error_clear();
  feast_mask_destroy(&mask), feast_domain_destroy(&dom), feast_mesh_destroy(&mesh);
  CHECK_OK(feast_mesh_read("grids/cube2x2x2.feast", NULL, &mesh));
  if (mesh) CHECK_OK(feast_domain_create(mesh, 2, MPI_COMM_WORLD, &dom));
  if (dom) CHECK_OK(feast_mask_create(dom, NULL, &mask));
  if (mask) CHECK_OK(scarc_hex_create(dom, mask, &p, &s));
  FeastVec *b = NULL, *x = NULL;
  if (s) {
    CHECK_OK(feast_vec_create(dom, 2, 1, &b));
    CHECK_OK(feast_vec_create(dom, 2, 1, &x));
    const int st = scarc_hex_precondition(s, b, x);
    CHECK(st != 0 && strstr(feast_error_message(), "no operator set") != NULL);
  }
  feast_error_clear();
  feast_vec_destroy(&b), feast_vec_destroy(&x);
  scarc_hex_destroy(&s), feast_mask_destroy(&mask), feast_domain_destroy(&dom), feast_mesh_destroy(&mesh);
}

static int run(void) {
  check_mesh("grids/cube2x2x2.feast", 4);
  check_mesh("grids/box3x2x2_distorted.feast", 4);
  check_bad();
  return 0;
}

FEAST_TEST_MAIN(run)

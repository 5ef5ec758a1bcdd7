/* A second scarc_set_operator with new values (the per-nonlinear-step path: Galerkin
 * levels, local hierarchies, backend copies and the coarse LU refreshed in place) gives
 * bitwise the solution of a ScaRC set up from scratch with those values, for a
 * nonsymmetric operator (convection-diffusion) in double and single local precision. */
#include "feast/error.h"
#include "feast/mask.h"
#include "feast/mesh.h"
#include "feast/q1.h"
#include "feast_test.h"
#include "scarc/scarc.h"
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

static FeastBand9 *assemble(const FeastDomain *dom, double eps) {
  const FeastLevel *lev = &dom->levels[dom->finest];
  FeastBand9 *A = calloc((size_t)dom->nlocal + 1, sizeof *A);
  for (int li = 0; li < dom->nlocal; li++) {
    CHECK_OK(feast_band9_create(lev->N, &A[li]));
    CHECK_OK(feast_q1_assemble(lev->N, lev->xy[li], dom->local[li], convection_diffusion, &eps, 3, &A[li]));
  }
  return A;
}

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
    for (long i = 0; i < (long)x->N * x->N; i++) b->v[li][i] = 1.0;
  feast_vec_zero_fixed(b, 0, mask);
  feast_vec_zero(x);
  FeastSolveParams sp = {.rtol = 1e-10, .max_iterations = 60, .divergence_factor = 1e4};
  FeastSolveResult res;
  CHECK_OK(scarc_solve(s, "mg", &sp, b, x, &res));
  CHECK(res.converged);
  feast_vec_destroy(&b);
}

static void check_precision(const FeastDomain *dom, const FeastMask *mask, const char *precision) {
  FeastConfig *cfg = NULL;
  ScarcParams *p = NULL;
  char over[64];
  snprintf(over, sizeof over, "solver.local_precision=%s", precision);
  CHECK_OK(feast_config_create(&cfg));
  CHECK_OK(feast_config_override(cfg, "solver.coarse_max_dofs=100"));
  CHECK_OK(feast_config_override(cfg, over));
  CHECK_OK(scarc_params_create(cfg, &p));
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
  long differ = 0;
  for (int li = 0; li < dom->nlocal; li++)
    for (long i = 0; i < (long)x1->N * x1->N; i++) differ += x1->v[li][i] != x2->v[li][i];
  CHECK(differ == 0);
  if (differ) fprintf(stderr, "%s: %ld values differ between the refreshed and the fresh solver\n", precision, differ);
  scarc_destroy(&refreshed);
  scarc_destroy(&fresh);
  feast_vec_destroy(&x1);
  feast_vec_destroy(&x2);
  free_matrices(dom, A1);
  free_matrices(dom, A2);
  scarc_params_destroy(&p);
  feast_config_destroy(&cfg);
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
  check_precision(dom, mask, "double");
  check_precision(dom, mask, "single");
  feast_mask_destroy(&mask);
  feast_domain_destroy(&dom);
  feast_mesh_destroy(&mesh);
  return 0;
}

FEAST_TEST_MAIN(run)

/* The Poisson problem on a mesh of hexahedral macros (problem.type = poisson, a mesh with
 * `dimension 3`; issue #47): -Laplace u = f with u = sin(pi x) sin(pi y) sin(pi z) exact,
 * Dirichlet values from it on grid.dirichlet, Q1 on hexahedra, solved by two-layer ScaRC
 * on hexahedra (scarc/scarc_hex.h) as standalone multigrid or as preconditioner of
 * solver.scarc_solver, with the [solver] keys of the 2D problem. The Dirichlet values are
 * lifted: A x0 = b - A g on the free nodes, x = x0 + g. Reports the same summary entries
 * as in 2D (iterations, residuals, the L2 error, the coarse level). */
#include "apps/poisson.h"
#include "feast/base/error.h"
#include "feast/base/log.h"
#include "feast/fem/q1_hex.h"
#include "scarc/scarc_hex.h"
#include <math.h>
#include <stdlib.h>

static void exact(long n, const double *x, const double *y, const double *z, void *ctx, double *u) {
  (void)ctx;
  for (long q = 0; q < n; q++) u[q] = sin(M_PI * x[q]) * sin(M_PI * y[q]) * sin(M_PI * z[q]);
}
static void source(long n, const double *x, const double *y, const double *z, void *ctx, double *f) {
  exact(n, x, y, z, ctx, f);
  for (long q = 0; q < n; q++) f[q] *= 3.0 * M_PI * M_PI;
}

/* the partial Laplace matrices into the solver's storage, the consistent right-hand side
 * and g: the exact values at the fixed nodes, zero elsewhere */
static int assemble(const FeastDomain *dom, const FeastMask *mask, ScarcHex *s, FeastVec *b, FeastVec *g) {
  const FeastLevel *lev = &dom->levels[dom->finest];
  FeastBand *A;
  feast_timer_start(FEAST_T_ASSEMBLY);
  int st = scarc_hex_operator_storage(s, &A);
  for (int li = 0; li < dom->nlocal && !st; li++) {
    st = feast_q1_hex_assemble(lev->N, lev->xy[li], dom->local[li], feast_q1_hex_form_laplace, NULL, 2, &A[li]);
    if (!st)
      st = feast_q1_hex_assemble_rhs(lev->N, lev->xy[li], dom->local[li], source, NULL, 2, feast_vec_block(b, 0, li));
    const double *xyz = lev->xy[li];
    double *gs = feast_vec_block(g, 0, li);
    const unsigned char *fix = mask->fixed[dom->finest][li];
    for (long r = 0; r < lev->nodes_per_macro && !st; r++)
      if (fix[r]) exact(1, &xyz[3 * r], &xyz[3 * r + 1], &xyz[3 * r + 2], NULL, &gs[r]);
  }
  if (!st) st = feast_vec_sum(b);
  feast_timer_stop(FEAST_T_ASSEMBLY);
  if (!st) st = scarc_hex_set_operator(s, A);
  return st;
}

/* b <- b - A g on the free nodes, 0 on the fixed ones */
static int lift(ScarcHex *s, const FeastMask *mask, const FeastVec *g, FeastVec *b, FeastVec *work) {
  FEAST_CALL(scarc_hex_matvec(s, g, work));
  feast_vec_axpy(-1.0, work, b);
  feast_vec_zero_fixed(b, 0, mask);
  return 0;
}

static int l2_error(const FeastDomain *dom, const FeastVec *x, double *err) {
  const FeastLevel *lev = &dom->levels[dom->finest];
  double *part, sums[2];
  FEAST_CALL(FEAST_ALLOC(2 * dom->nlocal + 2, &part));
  int st = 0;
  for (int li = 0; li < dom->nlocal && !st; li++)
    st = feast_q1_hex_l2_error(lev->N, lev->xy[li], feast_vec_block_read(x, 0, li), exact, NULL, 3, &part[li],
                               &part[dom->nlocal + li]);
  if (!st) st = feast_domain_sum_macros(dom, 2, part, sums);
  free(part);
  *err = sqrt(sums[0]);
  return st;
}

int feast_poisson3d_run(const FeastProblemContext *app, const FeastMask *mask, const ScarcParams *p,
                        FeastPoissonRun *r) {
  const FeastDomain *dom = app->dom;
  ScarcHex *s = NULL;
  FeastVec *b = NULL, *x = NULL, *g = NULL;
  int st = scarc_hex_create(dom, mask, p, &s);
  FeastVec **vecs[] = {&b, &x, &g};
  if (!st) st = feast_vec_create_set(dom, dom->finest, 1, 3, vecs);
  if (!st) st = assemble(dom, mask, s, b, g);
  if (!st) st = lift(s, mask, g, b, x);
  if (!st) {
    if (r->random_start) feast_vec_fill_hash(x), feast_vec_zero_fixed(x, 0, mask);
    else feast_vec_zero(x);
  }
  feast_timer_start(FEAST_T_LINEAR);
  if (!st) st = scarc_hex_solve(s, r->method, &r->solve_params, b, x, &r->res);
  feast_timer_stop(FEAST_T_LINEAR);
  if (!st) feast_vec_axpy(1.0, g, x);
  if (!st) st = l2_error(dom, x, &r->l2_error);
  r->coarse_level = s ? scarc_hex_coarse_level(s) : 0;
  if (!st) st = feast_poisson_write_vtk(app, x);
  feast_vec_destroy(&x), feast_vec_destroy(&g), feast_vec_destroy(&b); /* b holds the set's block */
  scarc_hex_destroy(&s);
  return st;
}

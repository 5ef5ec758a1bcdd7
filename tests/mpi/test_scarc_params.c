/* ScaRC driven from C without a config: a domain from a mesh file, scarc_params_defaults,
 * Poisson (-Laplace u = 2 pi^2 sin(pi x) sin(pi y) on the unit square, 4 x 2 macros,
 * u = 0 on the boundary) solved by standalone multigrid at levels 3..6 over the same
 * coarse level: converged, iteration counts level independent (max - min <= 2) and the
 * L2 error falling by about 4 per level (Q1). The same solve with CG and, after
 * scarc_params_make_linear, with ibicgstab. Then the config adapter: an empty config
 * gives exactly the defaults (and bitwise the same solve), a prefix inherits the solver.
 * keys it does not set, scarc_linear_required refuses an explicit adaptive step; and the
 * Krylov registry: names and enums both ways, the method list built from it; the Krylov
 * defaults (feast_solve_params_defaults) are the schema's. */
#include "feast/config/config.h"
#include "feast/base/error.h"
#include "feast/la/mask.h"
#include "feast/mesh/mesh.h"
#include "feast/fem/q1.h"
#include "feast_test.h"
#include "scarc/scarc.h"
#include "scarc/scarc_config.h"
#include "scarc/scarc_keys.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static double u_exact(double x, double y) { return sin(M_PI * x) * sin(M_PI * y); }
static void exact(long n, const double *x, const double *y, void *ctx, double *u) {
  (void)ctx;
  for (long k = 0; k < n; k++) u[k] = u_exact(x[k], y[k]);
}
static void source(long n, const double *x, const double *y, void *ctx, double *f) {
  (void)ctx;
  for (long k = 0; k < n; k++) f[k] = 2.0 * M_PI * M_PI * u_exact(x[k], y[k]);
}

typedef struct {
  int iterations, converged;
  double final_residual, l2_error;
} Outcome;

/* the Poisson solve on level L of mesh with parameters p and method m */
static Outcome poisson(const FeastMesh *mesh, int L, const ScarcParams *p, FeastKrylovMethod m) {
  Outcome o = {-1, 0, NAN, NAN};
  FeastDomain *dom = NULL;
  FeastMask *mask = NULL;
  Scarc *s = NULL;
  FeastBand9 *A = NULL;
  FeastVec *b = NULL, *x = NULL;
  unsigned char parts[16];
  CHECK_OK(feast_domain_create(mesh, L, MPI_COMM_WORLD, &dom));
  if (!dom) return o;
  CHECK_OK(feast_mask_parse_parts(mesh, "all", "test", parts));
  CHECK_OK(feast_mask_create(dom, parts, &mask));
  CHECK_OK(scarc_create(dom, mask, p, &s));
  CHECK_OK(scarc_operator_storage(s, &A));
  const FeastLevel *lev = &dom->levels[L];
  for (int li = 0; li < dom->nlocal; li++)
    CHECK_OK(feast_q1_assemble(lev->N, lev->xy[li], dom->local[li], feast_q1_form_laplace, NULL, 2, &A[li]));
  CHECK_OK(scarc_set_operator(s, A));
  CHECK_OK(feast_vec_create(dom, L, 1, &b));
  CHECK_OK(feast_vec_create(dom, L, 1, &x));
  feast_vec_zero(b);
  for (int li = 0; li < dom->nlocal; li++)
    CHECK_OK(feast_q1_assemble_rhs(lev->N, lev->xy[li], dom->local[li], source, NULL, 2, b->host[li]));
  CHECK_OK(feast_vec_sum(b));
  feast_vec_zero_fixed(b, 0, mask);
  feast_vec_zero(x);
  FeastSolveParams sp;
  feast_solve_params_defaults(&sp);
  sp.label = "poisson";
  FeastSolveResult res;
  CHECK_OK(scarc_solve(s, m, &sp, b, x, &res));
  o.iterations = res.iterations;
  o.converged = res.converged;
  o.final_residual = res.final_residual;
  double part[2] = {0, 0}, sum[2] = {0, 0};
  for (int li = 0; li < dom->nlocal; li++) {
    double e2, n2;
    CHECK_OK(feast_q1_l2_error(lev->N, lev->xy[li], x->host[li], exact, NULL, 3, &e2, &n2));
    part[0] += e2, part[1] += n2;
  }
  MPI_Allreduce(part, sum, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  o.l2_error = sqrt(sum[0]);
  feast_vec_destroy(&b);
  feast_vec_destroy(&x);
  scarc_destroy(&s);
  feast_mask_destroy(&mask);
  feast_domain_destroy(&dom);
  return o;
}

/* level independence and the discretisation error, with parameters p and method m */
static void levels(const FeastMesh *mesh, const ScarcParams *p, FeastKrylovMethod m) {
  int lo = 1000, hi = 0;
  double last = NAN;
  for (int L = 3; L <= 6; L++) {
    const Outcome o = poisson(mesh, L, p, m);
    CHECK(o.converged);
    lo = o.iterations < lo ? o.iterations : lo;
    hi = o.iterations > hi ? o.iterations : hi;
    if (L > 3) {
      const double ratio = last / o.l2_error;
      if (!(ratio > 3.5 && ratio < 4.5)) fprintf(stderr, "L=%d: L2 error ratio %.3f, not ~4\n", L, ratio);
      CHECK(ratio > 3.5 && ratio < 4.5);
    }
    last = o.l2_error;
    if (feast_test_rank() == 0)
      printf("  %-10s L=%d: %2d iterations, residual %.3e, L2 error %.3e\n", feast_krylov_method_name(m), L,
             o.iterations, o.final_residual, o.l2_error);
  }
  if (!(hi - lo <= 2)) fprintf(stderr, "%s: iterations %d..%d over L = 3..6\n", feast_krylov_method_name(m), lo, hi);
  CHECK(hi - lo <= 2);
  CHECK(hi <= 20);
}

/* every field of the two parameter sets equal */
static int same_params(const ScarcParams *a, const ScarcParams *b) {
  return a->mg_pre_smooth == b->mg_pre_smooth && a->mg_post_smooth == b->mg_post_smooth &&
         a->smoother_damping == b->smoother_damping && a->smoother_step == b->smoother_step &&
         a->overlap == b->overlap && a->coarse_max_dofs == b->coarse_max_dofs &&
         a->coarse_solver == b->coarse_solver && a->coarse_stabilisation == b->coarse_stabilisation &&
         a->target == b->target && a->local_precision == b->local_precision &&
         a->local_pre_smooth == b->local_pre_smooth && a->local_post_smooth == b->local_post_smooth &&
         a->local_jacobi_damping == b->local_jacobi_damping && a->local_rtol == b->local_rtol &&
         a->local_max_cycles == b->local_max_cycles && a->local_fixed_cycles == b->local_fixed_cycles &&
         a->local_coarse_max_dofs == b->local_coarse_max_dofs &&
         a->local_framed_min_nodes == b->local_framed_min_nodes && a->local_gpu_min_nodes == b->local_gpu_min_nodes;
}

static void check_adapter(const FeastMesh *mesh) {
  ScarcParams def, p;
  scarc_params_defaults(&def);
  FeastConfig *cfg = NULL;
  CHECK_OK(feast_config_create(&cfg));
  if (cfg) CHECK_OK(feast_config_add_keys(cfg, scarc_config_keys()));
  if (!cfg) return;
  /* an empty config: the schema's defaults are scarc_params_defaults, and the solve is
   * bitwise the same */
  CHECK_OK(scarc_params_from_config(cfg, "solver.", &p));
  CHECK(same_params(&p, &def));
  const Outcome o1 = poisson(mesh, 5, &def, FEAST_KRYLOV_RICHARDSON);
  const Outcome o2 = poisson(mesh, 5, &p, FEAST_KRYLOV_RICHARDSON);
  CHECK(o1.converged && o1.iterations == o2.iterations && o1.final_residual == o2.final_residual &&
        o1.l2_error == o2.l2_error);
  /* the Krylov defaults are the schema's [solver] ones */
  FeastSolveParams sp;
  feast_solve_params_defaults(&sp);
  double rtol = 0, divergence = 0, drop = 0;
  long maxit = 0;
  CHECK_OK(feast_config_get_real(cfg, "solver.rtol", &rtol));
  CHECK_OK(feast_config_get_int(cfg, "solver.max_iterations", &maxit));
  CHECK_OK(feast_config_get_real(cfg, "solver.divergence_factor", &divergence));
  CHECK_OK(feast_config_get_real(cfg, "solver.residual_replacement_drop", &drop));
  CHECK(sp.rtol == rtol && sp.max_iterations == maxit && sp.divergence_factor == divergence && sp.replace_drop == drop);
  /* a prefix inherits the solver. keys it does not set (no velocity.mg_* keys exist) */
  CHECK_OK(feast_config_override(cfg, "solver.mg_pre_smooth=2"));
  CHECK_OK(feast_config_override(cfg, "solver.coarse_solver=umfpack"));
  CHECK_OK(feast_config_override(cfg, "solver.local_precision=single"));
  CHECK_OK(scarc_params_from_config(cfg, "velocity.", &p));
  CHECK(p.mg_pre_smooth == 2 && p.coarse_solver == FEAST_DIRECT_UMFPACK);
  CHECK(p.local_precision == SCARC_PRECISION_SINGLE);
  CHECK(p.local_rtol == def.local_rtol && p.smoother_step == SCARC_STEP_AUTO);
  /* linear preconditioner: auto becomes fixed with 2 local cycles; adaptive is refused */
  CHECK_OK(scarc_linear_required(cfg, "solver.", "solver.scarc_solver", &p));
  CHECK(p.smoother_step == SCARC_STEP_FIXED && p.local_fixed_cycles == 2);
  CHECK_OK(feast_config_override(cfg, "solver.local_fixed_cycles=3"));
  CHECK_OK(scarc_params_from_config(cfg, "solver.", &p));
  scarc_params_make_linear(&p, "the test");
  CHECK(p.local_fixed_cycles == 3);
  CHECK_OK(feast_config_override(cfg, "solver.smoother_step=adaptive"));
  CHECK_FAILS(scarc_linear_required(cfg, "solver.", "solver.scarc_solver", NULL));
  /* the test hook's parameters */
  FeastFaultParams fp;
  CHECK_OK(feast_fault_params_from_config(cfg, &fp));
  CHECK(fp.mode == FEAST_FAULT_NONE && fp.rank == 0);
  CHECK_OK(feast_config_override(cfg, "debug.inject=fail"));
  CHECK_OK(feast_config_override(cfg, "debug.inject_rank=3"));
  CHECK_OK(feast_fault_params_from_config(cfg, &fp));
  CHECK(fp.mode == FEAST_FAULT_FAIL && fp.rank == 3);
  feast_config_destroy(&cfg);
}

static void check_registry(void) {
  CHECK(strcmp(feast_krylov_methods(), "richardson cg bicgstab ibicgstab pipebicgsafe fgmres") == 0);
  for (int i = 0; i < FEAST_KRYLOV_NMETHODS; i++) {
    FeastKrylovMethod m = FEAST_KRYLOV_NMETHODS;
    CHECK_OK(feast_krylov_method_from_name(feast_krylov_method_name((FeastKrylovMethod)i), &m));
    CHECK((int)m == i);
    CHECK(feast_krylov_needs_linear_preconditioner(m) ==
          (m == FEAST_KRYLOV_IBICGSTAB || m == FEAST_KRYLOV_PIPEBICGSAFE));
  }
  FeastKrylovMethod m;
  CHECK_FAILS(feast_krylov_method_from_name("gmres", &m));
  CHECK_OK(scarc_method_from_name("mg", &m));
  CHECK(m == FEAST_KRYLOV_RICHARDSON);
  CHECK_OK(scarc_method_from_name("bicgstab", &m));
  CHECK(m == FEAST_KRYLOV_BICGSTAB);
  CHECK(feast_krylov_basis_vectors(FEAST_KRYLOV_FGMRES, 10, 0) == 21.0);
  CHECK(feast_krylov_basis_vectors(FEAST_KRYLOV_FGMRES, 10, 1) == 17.5); /* 12 double + 11 single */
  CHECK(feast_krylov_basis_vectors(FEAST_KRYLOV_CG, 10, 1) == 0.0);
}

static int run(void) {
  FeastMesh *mesh = NULL;
  CHECK_OK(feast_mesh_read_native("grids/unitsquare8.feast", &mesh));
  if (!mesh) return 1;
  ScarcParams p;
  scarc_params_defaults(&p);
  p.coarse_max_dofs = 100; /* the same coarse level (1) for every L: multigrid throughout */
  levels(mesh, &p, FEAST_KRYLOV_RICHARDSON);
  levels(mesh, &p, FEAST_KRYLOV_CG);
  scarc_params_make_linear(&p, "ibicgstab in test_scarc_params");
  CHECK(p.smoother_step == SCARC_STEP_FIXED && p.local_fixed_cycles == 2);
  levels(mesh, &p, FEAST_KRYLOV_IBICGSTAB);
  check_adapter(mesh);
  check_registry();
  feast_mesh_destroy(&mesh);
  return 0;
}

FEAST_TEST_MAIN(run)

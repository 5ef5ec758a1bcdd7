/* Flows that Q1/Q1 SUPG/PSPG reproduces exactly, on the distorted 4 x 4 macros of
 * grids/distorted4x4.feast (no macro a parallelogram) at level 2:
 *  - stagnation flow u = (x, -y), p = x + 2 y, with the body force f = (x + 1, y + 2)
 *    that makes it a Navier-Stokes solution (nu = 0.1), the velocity given on the whole
 *    boundary (pressure up to a constant): linear fields lie in the isoparametric Q1
 *    space, the strong residual (w.grad)u + grad p - f vanishes pointwise (so SUPG and
 *    PSPG add nothing), and 3 x 3 Gauss integrates every Galerkin term exactly;
 *  - Couette flow u = (y, 0), p = 0, no force, the velocity given on bottom, top and left,
 *    a natural outflow on the right (nu du/dn - p n = 0 holds there), Stokes and
 *    Navier-Stokes.
 * Checked: the defect of the interpolant is zero to round-off (1e-13 of |h|) for
 * fixed point and Newton; ns_solve from zero ends at the interpolant (pressure with zero
 * mean where it is free) to 1e-9; the force on the bottom wall (ns_force, the consistent
 * reaction force) of the Couette flow is exactly (nu, 0) and on the top (-nu, 0)
 * (pseudo-traction nu du/dn - p n = (-nu, 0) on the bottom, zero on the side walls, so the
 * corner tapers add nothing): 1e-13 at the interpolant, 1e-9 after the solve; for the
 * stagnation flow ns_errors (0), ns_kinetic_energy (1/3) and ns_pressure_at (the exact
 * value less the mean 3/2) to 1e-9; and the forces, these quantities and the solved
 * fields are the same bits as those of the same problem on MPI_COMM_SELF (all macros on
 * one rank). */
/* white-box (ns_testing_private.h): checks the interpolant's defect with the system's operator */
#include "ns_testing_private.h"

static double lin_x(double x, double y) { return (void)y, x; }
static double neg_y(double x, double y) { return (void)x, -y; }
static double p_lin(double x, double y) { return x + 2.0 * y; }
static double ident_y(double x, double y) { return (void)x, y; }

static const char *stagnation =
    "[problem]\nre = 10\nforce_x = x + 1\nforce_y = y + 2\nexact_u = x\nexact_v = -y\nexact_p = x + 2*y\n"
    "[boundary.bottom]\nu = x\nv = -y\n[boundary.top]\nu = x\nv = -y\n"
    "[boundary.left]\nu = x\nv = -y\n[boundary.right]\nu = x\nv = -y\n"
    "[nonlinear]\nmethod = %s\nrtol = 1e-13\nmax_iterations = 30\n"
    "[linear]\nrtol = 1e-6\n";

static const char *couette =
    "[problem]\nre = 4\n"
    "[boundary.bottom]\nu = y\nv = 0\n[boundary.top]\nu = y\nv = 0\n[boundary.left]\nu = y\nv = 0\n"
    "[nonlinear]\nmethod = %s\nrtol = 1e-13\nmax_iterations = 30\n"
    "[linear]\nrtol = 1e-6\n";

enum { LEVEL = 2 };
#define MESH "distorted4x4.feast"

/* the exact discrete solution of a case: its interpolant, pressure projected where free */
static void exact(NsProblem *ns, FeastVec *x, int stagn) {
  if (stagn) ns_interpolate(x, lin_x, neg_y, p_lin);
  else ns_interpolate(x, ident_y, NULL, NULL);
  CHECK_OK(ns_project_solution(ns, x));
}

static void check_case(int stagn, int stokes, const char *nonlinear) {
  char text[1024];
  snprintf(text, sizeof text, stagn ? stagnation : couette, nonlinear);
  const char *name = stagn ? "stagnation" : stokes ? "couette (stokes)" : "couette";
  NsCase c, s;
  if (ns_case_create(MESH, LEVEL, text, stokes, MPI_COMM_WORLD, &c)) {
    CHECK(0);
    return;
  }
  NsProblem *ns = c.ns;
  CHECK(ns_pressure_nullspace(ns) == stagn);
  FeastVec *x = NULL;
  CHECK_OK(feast_vec_create(c.dom, ns_level(ns), NS_NFIELDS, &x));
  exact(ns, x, stagn);
  /* the interpolant solves the discrete equations */
  double defect, rhs;
  CHECK_OK(ns_defect_at(ns, x, &defect, &rhs));
  CHECK(defect <= 1e-13 * rhs);
  /* the force of the interpolant */
  double fb[2] = {0, 0}, ft[2] = {0, 0};
  const double nu = ns_viscosity(ns);
  if (!stagn) {
    CHECK_OK(ns_set_initial_guess(ns, x)); /* the iterate <- the interpolant (its own Dirichlet values) */
    CHECK_OK(ns_force(ns, "bottom", fb));
    CHECK_OK(ns_force(ns, "top", ft));
    CHECK(fabs(fb[0] - nu) <= 1e-13 && fabs(fb[1]) <= 1e-13);
    CHECK(fabs(ft[0] + nu) <= 1e-13 && fabs(ft[1]) <= 1e-13);
    FeastVec *zero = NULL; /* the solve starts from zero with the Dirichlet values */
    CHECK_OK(feast_vec_create(c.dom, ns_level(ns), NS_NFIELDS, &zero));
    if (zero) CHECK_OK(ns_set_initial_guess(ns, zero));
    feast_vec_destroy(&zero);
  }
  /* the solve from zero */
  NsResult res;
  CHECK_OK(ns_solve(ns, &res));
  CHECK(res.converged);
  double err[NS_NFIELDS];
  for (int f = 0; f < NS_NFIELDS; f++) err[f] = ns_max_diff(ns_solution(ns), x, f);
  CHECK(err[0] <= 1e-9 && err[1] <= 1e-9 && err[2] <= 1e-9);
  if (!stagn) {
    CHECK_OK(ns_force(ns, "bottom", fb));
    CHECK_OK(ns_force(ns, "top", ft));
    CHECK(fabs(fb[0] - nu) <= 1e-9 && fabs(fb[1]) <= 1e-9);
    CHECK(fabs(ft[0] + nu) <= 1e-9 && fabs(ft[1]) <= 1e-9);
  }
  /* post-processing of the stagnation flow: L2 errors (problem.exact_*, pressure with zero
   * mean) 0, kinetic energy 1/2 int x^2 + y^2 = 1/3, p(0.37, 0.61) = 0.37 + 1.22 - 1.5 */
  double eu = 0.0, ep = 0.0, ke = 0.0, pa = 0.0;
  const double at[2] = {0.37, 0.61};
  if (stagn) {
    CHECK_OK(ns_errors(ns, &eu, &ep));
    CHECK(eu <= 1e-9 && ep <= 1e-9);
    CHECK_OK(ns_kinetic_energy(ns, &ke));
    CHECK(fabs(ke - 1.0 / 3.0) <= 1e-9);
    CHECK_OK(ns_pressure_at(ns, at, "test point", &pa));
    CHECK(fabs(pa - (0.37 + 1.22 - 1.5)) <= 1e-9);
    if (feast_test_rank() == 0) printf("  l2 errors %.2e %.2e, kinetic energy - 1/3 = %.2e, p(0.37, 0.61) - 0.09 = %.2e\n", eu, ep, ke - 1.0 / 3.0, pa - 0.09);
  }
  if (feast_test_rank() == 0)
    printf("%-17s %-11s: defect %.2e (|h| %.2e), %d steps %ld its, max errors %.2e %.2e %.2e, F_bottom - (nu,0) = "
           "(%.2e, %.2e)\n",
           name, nonlinear, defect, rhs, res.nonlinear_iterations, res.linear_iterations, err[0], err[1], err[2],
           fb[0] - (stagn ? 0 : nu), fb[1]);
  /* the same on one rank: forces and fields bitwise */
  if (!ns_case_create(MESH, LEVEL, text, stokes, MPI_COMM_SELF, &s)) {
    NsResult rs;
    CHECK_OK(ns_solve(s.ns, &rs));
    CHECK(rs.nonlinear_iterations == res.nonlinear_iterations && rs.linear_iterations == res.linear_iterations);
    long differ = 0;
    for (int f = 0; f < NS_NFIELDS; f++) differ += ns_count_bit_differences(ns_solution(ns), ns_solution(s.ns), f);
    CHECK(differ == 0);
    if (!stagn) {
      double sb[2];
      CHECK_OK(ns_force(s.ns, "bottom", sb));
      CHECK(memcmp(sb, fb, sizeof sb) == 0);
    } else {
      double su, sp, ske, spa;
      CHECK_OK(ns_errors(s.ns, &su, &sp));
      CHECK_OK(ns_kinetic_energy(s.ns, &ske));
      CHECK_OK(ns_pressure_at(s.ns, at, "test point", &spa));
      CHECK(su == eu && sp == ep && ske == ke && spa == pa);
    }
    if (differ && feast_test_rank() == 0) fprintf(stderr, "%s: %ld macro fields differ from one rank's\n", name, differ);
  } else {
    CHECK(0);
  }
  ns_case_destroy(&s);
  feast_vec_destroy(&x);
  ns_case_destroy(&c);
}

static int run(void) {
  check_case(1, 0, "fixed-point");
  check_case(1, 0, "newton");
  check_case(0, 1, "fixed-point");
  check_case(0, 0, "fixed-point");
  check_case(0, 0, "newton");
  return 0;
}

FEAST_TEST_MAIN(run)

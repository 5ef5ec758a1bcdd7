/* Poiseuille flow in the unit square (grids/unitsquare8.feast): u = 4 y (1 - y), v = 0,
 * p = 8 nu (1 - x), the profile given on the left, walls at rest on bottom and top, a
 * natural outflow on the right (nu du/dx - p = 0 holds there). Q1 cannot represent the
 * quadratic profile, and the PSPG/SUPG terms drop -nu Laplace u, which the exact solution
 * has (-nu Laplace u = 8 nu = -dp/dx): so the discrete solution is not the interpolant,
 * and what is checked is the order of convergence, levels 2, 3, 4, Stokes and
 * Navier-Stokes (fixed point; the convection of the exact flow is zero).
 *
 * The force on the bottom wall (ns_force, the consistent reaction force with the test
 * function 1 at the part's nodes): the pseudo-traction nu du/dn - p n is (-4 nu, p) on
 * the bottom, so F = (4 nu, -4 nu) from the wall itself. The test function also falls
 * from 1 to 0 over the first cell of the left (inflow) wall, where the pseudo-traction is
 * (p, 0) = (8 nu, 0): that adds -8 nu h_y / 2 to F_x, h_y the height of the corner cell
 * (the right corner adds nothing: p = 0 at the outflow). So the reference is
 *   F = (4 nu (1 - h_y), -4 nu),
 * a first-order offset of the definition, not of the discretisation (the DFG cylinder,
 * a closed part, has no such corner). Checked, levels 2 -> 3 -> 4 (measured at 1 rank,
 * Stokes; Navier-Stokes within 3 %):
 *  - the maximum nodal velocity error falls by >= 3.8 per level (measured 4.00, 3.99:
 *    second order);
 *  - the force error against the reference by >= 3.0 (F_x: 3.11, 3.30, and on to 3.42,
 *    3.50 at levels 5, 6) and >= 3.1 (F_y: 3.43, 3.55, 3.62, 3.66; Navier-Stokes 3.22, 3.46): second order
 *    approached from below; the offset against 4 nu (no corner term) is 30 times larger
 *    at level 4 and first order;
 *  - the maximum nodal pressure error by [1.9, 2.1] (measured 2.03, 2.02: first order in
 *    the maximum norm; PSPG's dropped -nu Laplace u is a consistency error of size tau at
 *    the inflow and outflow rows). */
#include "ns_testing.h"

static double profile(double x, double y) { return (void)x, 4.0 * y * (1.0 - y); }
static double nu_global = 0.0;
static double pressure(double x, double y) { return (void)y, 8.0 * nu_global * (1.0 - x); }

static const char *poiseuille =
    "[problem]\nre = 5\n"
    "[boundary.left]\nu = 4*y*(1-y)\nv = 0\n[boundary.bottom]\nu = 0\nv = 0\npriority = 1\n"
    "[boundary.top]\nu = 0\nv = 0\npriority = 1\n"
    "[nonlinear]\nmethod = fixed-point\nrtol = 1e-12\nmax_iterations = 30\n"
    "[linear]\nrtol = 1e-6\n";

enum { LMIN = 2, LMAX = 4, NL = LMAX - LMIN + 1 };

typedef struct {
  double force[2], u, p;
} Errors;

static Errors solve_level(int level, int stokes) {
  Errors e = {{NAN, NAN}, NAN, NAN};
  NsCase c;
  if (ns_case_create("unitsquare8.feast", level, poiseuille, stokes, MPI_COMM_WORLD, &c)) {
    CHECK(0);
    return e;
  }
  NsProblem *ns = c.ns;
  nu_global = ns_viscosity(ns);
  const double nu = nu_global, hy = 0.5 / (1 << level);
  CHECK(!ns_pressure_nullspace(ns));
  NsResult res;
  CHECK_OK(ns_solve(ns, &res));
  CHECK(res.converged);
  FeastVec *x = NULL;
  CHECK_OK(feast_vec_create(c.dom, ns_level(ns), NS_NFIELDS, &x));
  ns_interpolate(x, profile, NULL, pressure);
  e.u = fmax(ns_max_diff(ns_solution(ns), x, NS_U), ns_max_diff(ns_solution(ns), x, NS_V));
  e.p = ns_max_diff(ns_solution(ns), x, NS_P);
  double F[2];
  CHECK_OK(ns_force(ns, "bottom", F));
  e.force[0] = fabs(F[0] - 4.0 * nu * (1.0 - hy));
  CHECK(e.force[0] < 0.1 * fabs(F[0] - 4.0 * nu)); /* the corner term is there */
  e.force[1] = fabs(F[1] + 4.0 * nu);
  CHECK(e.u < 0.05 && e.p < 0.2 && e.force[1] < 0.1 * nu);
  if (feast_test_rank() == 0)
    printf("%s L = %d: %d steps, F = (%.10f, %.10f), reference (%.10f, %.10f); errors F %.3e %.3e, u %.3e, p %.3e\n",
           stokes ? "stokes" : "ns    ", level, res.nonlinear_iterations, F[0], F[1], 4.0 * nu * (1.0 - hy),
           -4.0 * nu, e.force[0], e.force[1], e.u, e.p);
  feast_vec_destroy(&x);
  ns_case_destroy(&c);
  return e;
}

static void check_orders(int stokes) {
  Errors e[NL];
  for (int l = 0; l < NL; l++) e[l] = solve_level(LMIN + l, stokes);
  for (int l = 1; l < NL; l++) {
    CHECK(e[l - 1].force[0] / e[l].force[0] >= 3.0);
    CHECK(e[l - 1].force[1] / e[l].force[1] >= 3.1);
    CHECK(e[l - 1].u / e[l].u >= 3.8);
    CHECK(e[l - 1].p / e[l].p >= 1.9 && e[l - 1].p / e[l].p <= 2.1);
  }
}

static int run(void) {
  check_orders(1);
  check_orders(0);
  return 0;
}

FEAST_TEST_MAIN(run)

/* ns_wall_shear_zeros (navier_stokes/forces.c): the zeros of the wall shear stress along a
 * wall, from the one-sided second-order normal derivative (4 w_1 - w_2 - 3 w_0) / (2 h) of
 * the tangential velocity. On the field u = y (x - X0) + K y^2 (v = 0) of the unit square's
 * bottom wall, du/dy at y = 0 is x - X0: the one zero at X0 exactly (the derivative is
 * exact for quadratics in y, and linear in x, so its interpolation along the wall is
 * exact), where the first-order u(h) / h put it at X0 - K h; on any number of ranks. */
#include "ns_testing.h"

enum { LEVEL = 4 };
static const double X0 = 0.3, K = 2.0;
static const char *ini = "[problem]\ntype = navier-stokes\nre = 100\n[boundary.top]\nu = 1\nv = 0\n"
                         "[boundary.left]\nu = 0\nv = 0\npriority = 1\n[boundary.right]\nu = 0\nv = 0\n"
                         "priority = 1\n[boundary.bottom]\nu = 0\nv = 0\n";

static double field(double x, double y) { return y * (x - X0) + K * y * y; }

static int run(void) {
  NsCase c;
  if (ns_case_create("unitsquare8.feast", LEVEL, ini, 0, MPI_COMM_WORLD, &c)) {
    CHECK(0);
    return 0;
  }
  FeastVec *x = NULL;
  CHECK_OK(feast_vec_create(c.dom, LEVEL, NS_NFIELDS, &x));
  if (x) {
    ns_interpolate(x, field, NULL, NULL);
    CHECK_OK(ns_set_initial_guess(c.ns, x));
    double xy[8];
    int count = -1;
    CHECK_OK(ns_wall_shear_zeros(c.ns, "bottom", xy, 4, &count));
    CHECK(count == 1);
    if (count >= 1) {
      CHECK(fabs(xy[0] - X0) < 1e-12 && xy[1] == 0.0);
      if (fabs(xy[0] - X0) >= 1e-12) fprintf(stderr, "zero at x = %.15g (X0 = %g)\n", xy[0], X0);
    }
  }
  feast_vec_destroy(&x);
  ns_case_destroy(&c);
  return 0;
}

FEAST_TEST_MAIN(run)

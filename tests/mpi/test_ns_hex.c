/* The 3D flow solver (navier_stokes/ns_hex.h) on meshes of hexahedral macros:
 *  - Stokes with a manufactured solution (u = (sin pi y sin pi z, sin pi x sin pi z,
 *    sin pi x sin pi y), divergence free; p = cos pi x cos pi y cos pi z, zero mean) on the
 *    2 x 2 x 2 cube and the distorted 3 x 2 x 2 box: the L2 errors fall at second order
 *    (velocity) and at least 1.5 (pressure) from level 2 to 3, the linear iterations per
 *    step do not grow;
 *  - the same Navier-Stokes problem (the force with the convection (u.grad)u, nu = 1/Re,
 *    Re = 10): converges, errors of the same order;
 *  - the lid-driven cavity at Re = 100, level 2: converges by the fixed point, and the
 *    solution (kinetic energy, errors, iterations) is bitwise the one of a solve with every
 *    macro on one rank (MPI_COMM_SELF);
 *  - what the 3D solver does not have yet (Newton, time steps, PCD) is refused. */
#include "feast/base/error.h"
#include "feast_test.h"
#include "navier_stokes/ns_hex.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *parts[6] = {"x0", "x1", "y0", "y1", "z0", "z1"};

#define U1 "sin(pi*y)*sin(pi*z)"
#define U2 "sin(pi*x)*sin(pi*z)"
#define U3 "sin(pi*x)*sin(pi*y)"
#define P "cos(pi*x)*cos(pi*y)*cos(pi*z)"
/* -nu Lap u + grad p (nu = 1) and the convection (u.grad)u */
#define STOKES_F1 "2*pi^2*sin(pi*y)*sin(pi*z) - pi*sin(pi*x)*cos(pi*y)*cos(pi*z)"
#define STOKES_F2 "2*pi^2*sin(pi*x)*sin(pi*z) - pi*cos(pi*x)*sin(pi*y)*cos(pi*z)"
#define STOKES_F3 "2*pi^2*sin(pi*x)*sin(pi*y) - pi*cos(pi*x)*cos(pi*y)*sin(pi*z)"
#define CONV1 "(" U2 ")*pi*cos(pi*y)*sin(pi*z) + (" U3 ")*pi*sin(pi*y)*cos(pi*z)"
#define CONV2 "(" U1 ")*pi*cos(pi*x)*sin(pi*z) + (" U3 ")*pi*sin(pi*x)*cos(pi*z)"
#define CONV3 "(" U1 ")*pi*cos(pi*x)*sin(pi*y) + (" U2 ")*pi*sin(pi*x)*cos(pi*y)"
/* Re = 10: nu = 1/10 */
#define NS_F1 "0.1*2*pi^2*sin(pi*y)*sin(pi*z) - pi*sin(pi*x)*cos(pi*y)*cos(pi*z) + " CONV1
#define NS_F2 "0.1*2*pi^2*sin(pi*x)*sin(pi*z) - pi*cos(pi*x)*sin(pi*y)*cos(pi*z) + " CONV2
#define NS_F3 "0.1*2*pi^2*sin(pi*x)*sin(pi*y) - pi*cos(pi*x)*cos(pi*y)*sin(pi*z) + " CONV3

typedef struct {
  double eu, ep, ke;
  int steps;
  long linear;
  int converged;
} Outcome;

static void mms_params(NsParams *p, int stokes) {
  ns_params_defaults(p);
  p->physics.re = stokes ? 1.0 : 10.0;
  p->physics.force[0] = stokes ? STOKES_F1 : NS_F1;
  p->physics.force[1] = stokes ? STOKES_F2 : NS_F2;
  p->physics.force_z = stokes ? STOKES_F3 : NS_F3;
  p->physics.exact[0] = U1, p->physics.exact[1] = U2, p->physics.exact_w = U3, p->physics.exact[2] = P;
  for (int q = 0; q < 6; q++) CHECK_OK(ns_params_boundary3(p, parts[q], U1, U2, U3, NULL, 0));
}

static void cavity_params(NsParams *p) {
  ns_params_defaults(p);
  p->physics.re = 100.0;
  for (int q = 0; q < 6; q++) {
    const int lid = strcmp(parts[q], "y1") == 0, side = parts[q][0] == 'x' || parts[q][0] == 'z';
    CHECK_OK(ns_params_boundary3(p, parts[q], lid ? "1" : "0", "0", "0", NULL, side));
  }
}

static Outcome solve(const char *mesh_path, int level, const NsParams *p, int stokes, MPI_Comm comm) {
  Outcome o = {NAN, NAN, NAN, 0, 0, 0};
  FeastMesh *mesh = NULL;
  FeastDomain *dom = NULL;
  NsHex *ns = NULL;
  CHECK_OK(feast_mesh_read(mesh_path, NULL, &mesh));
  if (mesh) CHECK_OK(feast_domain_create(mesh, level, comm, &dom));
  if (dom) CHECK_OK(ns_hex_create(p, dom, stokes, &ns));
  NsHexResult r;
  if (ns) {
    CHECK_OK(ns_hex_solve(ns, &r));
    CHECK_OK(ns_hex_errors(ns, &o.eu, &o.ep));
    CHECK_OK(ns_hex_kinetic_energy(ns, &o.ke));
    o.steps = r.nonlinear_iterations, o.linear = r.linear_iterations, o.converged = r.converged;
  }
  ns_hex_destroy(&ns);
  feast_domain_destroy(&dom);
  feast_mesh_destroy(&mesh);
  return o;
}

static void check_orders(const char *mesh, int stokes) {
  NsParams p;
  mms_params(&p, stokes);
  Outcome o[2];
  for (int k = 0; k < 2; k++) o[k] = solve(mesh, 2 + k, &p, stokes, MPI_COMM_WORLD);
  const double ou = log2(o[0].eu / o[1].eu), op = log2(o[0].ep / o[1].ep);
  if (feast_test_rank() == 0)
    printf("%s %s: L2 errors velocity %.4e %.4e (order %.2f), pressure %.4e %.4e (order %.2f); steps %d %d, linear "
           "iterations %ld %ld\n",
           mesh, stokes ? "stokes" : "navier-stokes Re 10", o[0].eu, o[1].eu, ou, o[0].ep, o[1].ep, op, o[0].steps,
           o[1].steps, o[0].linear, o[1].linear);
  CHECK(o[0].converged && o[1].converged);
  CHECK(ou > 1.7);
  CHECK(op > 1.5);
  CHECK(o[1].linear <= 1.5 * o[0].linear + 5); /* the iterations do not grow with the level */
}

/* the cavity on this communicator and with all macros on rank 0 alone: the same bits */
static void check_ranks(void) {
  NsParams p;
  cavity_params(&p);
  const Outcome all = solve("grids/cube2x2x2.feast", 2, &p, 0, MPI_COMM_WORLD);
  CHECK(all.converged);
  Outcome self = all;
  if (feast_test_rank() == 0) self = solve("grids/cube2x2x2.feast", 2, &p, 0, MPI_COMM_SELF);
  if (feast_test_rank() == 0) {
    printf("cavity Re 100 L2: %d steps, %ld linear iterations, kinetic energy %.17g (one rank: %.17g)\n", all.steps,
           all.linear, all.ke, self.ke);
    CHECK(memcmp(&all.ke, &self.ke, sizeof all.ke) == 0);
    CHECK(all.steps == self.steps && all.linear == self.linear);
  }
}

static void check_refused(void) {
  FeastMesh *mesh = NULL;
  FeastDomain *dom = NULL;
  CHECK_OK(feast_mesh_read("grids/cube2x2x2.feast", NULL, &mesh));
  if (mesh) CHECK_OK(feast_domain_create(mesh, 1, MPI_COMM_WORLD, &dom));
  NsParams p;
  NsHex *ns = NULL;
  cavity_params(&p);
  p.nonlinear.method = NS_NONLINEAR_NEWTON;
  CHECK_FAILS(ns_hex_create(&p, dom, 0, &ns));
  cavity_params(&p);
  p.time.scheme = NS_TIME_BDF2;
  CHECK_FAILS(ns_hex_create(&p, dom, 0, &ns));
  cavity_params(&p);
  p.linear.schur = NS_SCHUR_PCD;
  CHECK_FAILS(ns_hex_create(&p, dom, 0, &ns));
  CHECK(ns == NULL);
  feast_domain_destroy(&dom);
  feast_mesh_destroy(&mesh);
}

static int run(void) {
  check_orders("grids/cube2x2x2.feast", 1);
  check_orders("grids/box3x2x2_distorted.feast", 1);
  check_orders("grids/cube2x2x2.feast", 0);
  check_ranks();
  check_refused();
  return 0;
}

FEAST_TEST_MAIN(run)

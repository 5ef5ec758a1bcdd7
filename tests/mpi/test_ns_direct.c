/* linear.preconditioner = direct (navier_stokes/coupled_direct.c: the whole linearised
 * system factored by KLU on rank 0) and its auto rule (sequencing.c):
 *  - an open flow (the backward-facing step at Re = 100, level 2) and an enclosed one
 *    (the cavity at Re = 100, level 3: the pressure's constant mode, its first row
 *    pinned): one Krylov iteration per nonlinear step, the block preconditioner's
 *    solution to the nonlinear tolerance, Newton throughout where nonlinear.method =
 *    auto (fewer steps than the block preconditioner's fixed point);
 *  - the same bits on any number of ranks (against a serial run on MPI_COMM_SELF);
 *  - auto: grid sequencing's coarser level is solved with it (one iteration per step
 *    there), the finest level with the block preconditioner; block keeps it off;
 *  - pseudo-time steps with Newton's linearisation from the zero start of the cylinder at
 *    Re = 40, level 2, whose defect grows 3x in the first: fixed-point steps from there,
 *    and the run converges (with Newton's steps throughout the defect reached 1e7). */
#include "ns_testing.h"

static const char *step_ini = "[problem]\ntype = navier-stokes\nre = 100\n"
                              "[boundary.inflow]\nu = 24*y*(0.5-y)\nv = 0\n"
                              "[boundary.step]\nu = 0\nv = 0\n[boundary.lower]\nu = 0\nv = 0\n"
                              "[boundary.upper]\nu = 0\nv = 0\n[nonlinear]\nrtol = 1e-10\n";
static const char *cavity_ini = "[problem]\ntype = navier-stokes\nre = 100\n[boundary.top]\nu = 1\nv = 0\n"
                                "[boundary.left]\nu = 0\nv = 0\npriority = 1\n[boundary.right]\nu = 0\nv = 0\n"
                                "priority = 1\n[boundary.bottom]\nu = 0\nv = 0\n[nonlinear]\nrtol = 1e-10\n";

typedef struct {
  NsCase c;
  NsResult r;
  double ke;
} Run;

/* the case made of `base` and `extra` on comm, solved; 0 on success */
static int solve(const char *mesh, int level, const char *base, const char *extra, MPI_Comm comm, Run *run) {
  char text[2048];
  snprintf(text, sizeof text, "%s%s", base, extra);
  memset(run, 0, sizeof *run);
  FEAST_CALL(ns_case_create(mesh, level, text, 0, comm, &run->c));
  FEAST_CALL(ns_solve(run->c.ns, &run->r));
  return ns_kinetic_energy(run->c.ns, &run->ke);
}

/* direct against block (converged, one iteration per step, the same solution to the
 * tolerance) and against itself on MPI_COMM_SELF (the same bits) */
static void check_case(const char *mesh, int level, const char *ini) {
  Run block, direct, serial;
  CHECK_OK(solve(mesh, level, ini, "[linear]\npreconditioner = block\n", MPI_COMM_WORLD, &block));
  CHECK_OK(solve(mesh, level, ini, "[linear]\npreconditioner = direct\n", MPI_COMM_WORLD, &direct));
  CHECK_OK(solve(mesh, level, ini, "[linear]\npreconditioner = direct\n", MPI_COMM_SELF, &serial));
  if (block.c.ns && direct.c.ns && serial.c.ns) {
    CHECK(block.r.converged && direct.r.converged && serial.r.converged);
    CHECK(direct.r.linear_iterations == direct.r.nonlinear_iterations);
    CHECK(direct.r.nonlinear_iterations < block.r.nonlinear_iterations); /* Newton against the fixed point */
    CHECK(fabs(direct.ke - block.ke) <= 1e-8 * block.ke);
    for (int f = NS_U; f <= NS_V; f++)
      CHECK(ns_max_diff(ns_solution(direct.c.ns), ns_solution(block.c.ns), f) < 1e-7);
    CHECK(direct.r.nonlinear_iterations == serial.r.nonlinear_iterations &&
          direct.r.final_residual == serial.r.final_residual && direct.ke == serial.ke);
    for (int f = 0; f < NS_NFIELDS; f++)
      CHECK(ns_count_bit_differences(ns_solution(direct.c.ns), ns_solution(serial.c.ns), f) == 0);
  }
  ns_case_destroy(&block.c);
  ns_case_destroy(&direct.c);
  ns_case_destroy(&serial.c);
}

/* grid sequencing from level 2 to 3: auto factors level 2's systems (one iteration per
 * step there), block does not; the finest level is the block preconditioner's either way */
static void check_auto(void) {
  Run a, b;
  CHECK_OK(solve("step60x2.feast", 3, step_ini, "", MPI_COMM_WORLD, &a));
  CHECK_OK(solve("step60x2.feast", 3, step_ini, "[linear]\npreconditioner = block\n", MPI_COMM_WORLD, &b));
  if (a.c.ns && b.c.ns) {
    CHECK(a.r.converged && b.r.converged && a.r.coarse.levels == 1 && b.r.coarse.levels == 1);
    CHECK(a.r.coarse.linear_iterations == a.r.coarse.nonlinear_iterations);
    CHECK(b.r.coarse.linear_iterations > 2 * b.r.coarse.nonlinear_iterations);
    CHECK(a.r.linear_iterations > 2 * a.r.nonlinear_iterations);
    CHECK(fabs(a.ke - b.ke) <= 1e-8 * b.ke);
  }
  ns_case_destroy(&a.c);
  ns_case_destroy(&b.c);
}

static const char *cylinder_ini = "[problem]\ntype = navier-stokes\nre = 40\n[boundary.inflow]\nu = 1\nv = 0\n"
                                  "[boundary.lateral]\nu = 1\nv = 0\n[boundary.cylinder]\ntype = circle\n"
                                  "center = 0 0\nradius = 0.5\nu = 0\nv = 0\n";

static void check_pseudo_time_newton(void) {
  Run r;
  CHECK_OK(solve("cylinder.feast", 2, cylinder_ini,
                 "[linear]\npreconditioner = direct\n[nonlinear]\nmethod = newton\n[continuation]\n"
                 "method = pseudo-time\n",
                 MPI_COMM_WORLD, &r));
  if (r.c.ns) CHECK(r.r.converged && r.r.nonlinear_iterations < 30 && isfinite(r.ke));
  ns_case_destroy(&r.c);
}

static int run(void) {
  check_case("step60x2.feast", 2, step_ini);
  check_case("unitsquare8.feast", 3, cavity_ini);
  check_auto();
  check_pseudo_time_newton();
  return 0;
}

FEAST_TEST_MAIN(run)

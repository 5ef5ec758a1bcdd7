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
 *    and the run converges (with Newton's steps throughout the defect reached 1e7);
 *  - auto's switch (schur.c): the cavity at Re = 1000, level 3, whose block preconditioner
 *    needs more than NS_DIRECT_SWITCH_ITERATIONS iterations at one step: one iteration per
 *    step after it, the block preconditioner's solution to the tolerance, the same bits on
 *    one rank, and a run restored from a checkpoint written after the switch goes on with
 *    it (the same steps and bits as the uninterrupted run). */
/* white-box (ns_testing_private.h): ns_restore, to continue from a checkpoint */
#include "ns_testing_private.h"
#include "feast/io/checkpoint.h"

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

static const char *cavity1000_ini = "[problem]\ntype = navier-stokes\nre = 1000\n[boundary.top]\nu = 1\nv = 0\n"
                                    "[boundary.left]\nu = 0\nv = 0\npriority = 1\n[boundary.right]\nu = 0\nv = 0\n"
                                    "priority = 1\n[boundary.bottom]\nu = 0\nv = 0\n[nonlinear]\nrtol = 1e-10\n";

/* the first step whose linear solve took more than NS_DIRECT_SWITCH_ITERATIONS (-1: none) */
static int first_expensive(const NsResult *r) {
  for (int k = 0; k < r->nonlinear_iterations; k++)
    if (r->linear_per_step[k] > NS_DIRECT_SWITCH_ITERATIONS) return k;
  return -1;
}

/* a run restored from the checkpoint at `path` against the uninterrupted run u */
static void check_switch_restored(const char *path, const Run *u) {
  FeastCheckpoint *ck = NULL;
  Run r;
  memset(&r, 0, sizeof r);
  CHECK_OK(feast_checkpoint_read(path, "test checkpoint", MPI_COMM_WORLD, &ck));
  CHECK_OK(ns_case_create("unitsquare8.feast", 3, cavity1000_ini, 0, MPI_COMM_WORLD, &r.c));
  if (ck && r.c.ns) {
    CHECK_OK(ns_restore(r.c.ns, ck));
    CHECK_OK(ns_solve(r.c.ns, &r.r));
    CHECK_OK(ns_kinetic_energy(r.c.ns, &r.ke));
    CHECK(r.r.converged && r.r.nonlinear_iterations == u->r.nonlinear_iterations);
    for (int k = 0; k < u->r.nonlinear_iterations; k++) CHECK(r.r.linear_per_step[k] == u->r.linear_per_step[k]);
    CHECK(r.r.final_residual == u->r.final_residual && r.ke == u->ke);
  }
  feast_checkpoint_destroy(&ck);
  ns_case_destroy(&r.c);
}

static void check_switch(void) {
  char dir[64] = "/tmp/feast_ns_direct_XXXXXX", path[128], output[256];
  if (feast_test_rank() == 0 && !mkdtemp(dir)) dir[0] = 0;
  MPI_Bcast(dir, sizeof dir, MPI_CHAR, 0, MPI_COMM_WORLD);
  CHECK(dir[0]);
  if (!dir[0]) return;
  snprintf(path, sizeof path, "%s/ns.ck", dir);
  Run a, b, serial, written;
  CHECK_OK(solve("unitsquare8.feast", 3, cavity1000_ini, "", MPI_COMM_WORLD, &a));
  CHECK_OK(solve("unitsquare8.feast", 3, cavity1000_ini, "[linear]\npreconditioner = block\n", MPI_COMM_WORLD, &b));
  const int k0 = a.c.ns ? first_expensive(&a.r) : -1;
  CHECK(k0 >= 0 && k0 + 2 < a.r.nonlinear_iterations);
  if (k0 >= 0 && k0 + 2 < a.r.nonlinear_iterations && b.c.ns) {
    CHECK(a.r.converged && b.r.converged && first_expensive(&b.r) == k0);
    for (int k = k0 + 1; k < a.r.nonlinear_iterations; k++) CHECK(a.r.linear_per_step[k] == 1);
    CHECK(b.r.linear_per_step[k0 + 1] > 1); /* block: no switch */
    CHECK(fabs(a.ke - b.ke) <= 1e-8 * b.ke);
    /* the same bits on one rank; a checkpoint one step after the switch */
    CHECK_OK(solve("unitsquare8.feast", 3, cavity1000_ini, "", MPI_COMM_SELF, &serial));
    if (serial.c.ns) {
      CHECK(serial.r.nonlinear_iterations == a.r.nonlinear_iterations && serial.r.final_residual == a.r.final_residual);
      for (int f = 0; f < NS_NFIELDS; f++)
        CHECK(ns_count_bit_differences(ns_solution(a.c.ns), ns_solution(serial.c.ns), f) == 0);
    }
    ns_case_destroy(&serial.c);
    snprintf(output, sizeof output, "[output]\ncheckpoint = %s\ncheckpoint_interval = %d\n", path, k0 + 2);
    CHECK_OK(solve("unitsquare8.feast", 3, cavity1000_ini, output, MPI_COMM_WORLD, &written));
    if (written.c.ns) CHECK(written.r.final_residual == a.r.final_residual);
    ns_case_destroy(&written.c);
    check_switch_restored(path, &a);
  }
  if (feast_test_rank() == 0)
    printf("auto's switch: step %d took %.0f iterations, then %d steps of one; block %d steps\n", k0 + 1,
           k0 >= 0 ? a.r.linear_per_step[k0] : 0.0, a.r.nonlinear_iterations - k0 - 1, b.r.nonlinear_iterations);
  ns_case_destroy(&a.c);
  ns_case_destroy(&b.c);
  MPI_Barrier(MPI_COMM_WORLD);
  if (feast_test_rank() == 0) {
    remove(path);
    rmdir(dir);
  }
}

static int run(void) {
  check_switch();
  check_case("step60x2.feast", 2, step_ini);
  check_case("unitsquare8.feast", 3, cavity_ini);
  check_auto();
  check_pseudo_time_newton();
  return 0;
}

FEAST_TEST_MAIN(run)

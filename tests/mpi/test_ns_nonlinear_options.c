/* The nonlinear solver's options (solve.c): the lid-driven cavity at Re = 200 on the
 * distorted 4 x 4 macros, level 3, stationary, nonlinear.rtol = 1e-8.
 *  - nonlinear.method = auto with nonlinear.newton_switch = 1e-16 (never reached) is the
 *    fixed point bit for bit (both with nonlinear.anderson_depth = 0, the plain fixed point) (same steps, linear iterations, solution), and with switch 1
 *    (Newton from the first step) Newton bit for bit: the switch changes the linearisation
 *    only, not the structures' numbers;
 *  - auto with the default switch converges in fewer nonlinear steps than the fixed point,
 *    to the same solution (kinetic energy to 1e-7);
 *  - nonlinear.linear_forcing = eisenstat-walker (the default) acts in Newton's steps only: the
 *    fixed point with it is the fixed point bit for bit; auto with it converges to the same
 *    solution, its first (fixed-point) linear solve is that of auto with linear_forcing =
 *    fixed, and it needs fewer linear iterations than that (linear.rtol = 1e-2 in every step);
 *    (auto switches to Newton here: PCD with its rotation term, U D / nu = 200)
 *  - the default fixed point (Anderson acceleration, nonlinear.anderson_depth = 5) converges
 *    in fewer nonlinear steps and linear iterations than the plain fixed point, to the
 *    same solution (kinetic energy to 1e-7); auto, Eisenstat-Walker: compared with the
 *    plain fixed point, auto with its default Anderson phase;
 *  - on MPI_COMM_SELF (all macros on one rank) the same counts. */
#include "ns_testing.h"

static const char *cavity = "[problem]\nre = 200\n"
                            "[boundary.bottom]\nu = 0\nv = 0\n[boundary.top]\nu = 1\nv = 0\n"
                            "[boundary.left]\nu = 0\nv = 0\npriority = 1\n[boundary.right]\nu = 0\nv = 0\npriority = 1\n"
                            "[nonlinear]\nrtol = 1e-8\n%s\n";

typedef struct {
  NsResult r;
  double ke;
  NsCase c;
} Run;

static int solve_case(const char *solver, MPI_Comm comm, Run *run) {
  char text[2048];
  snprintf(text, sizeof text, cavity, solver);
  if (ns_case_create("distorted4x4.feast", 3, text, 0, comm, &run->c)) return 1;
  CHECK_OK(ns_solve(run->c.ns, &run->r));
  CHECK(run->r.converged);
  CHECK_OK(ns_kinetic_energy(run->c.ns, &run->ke));
  char label[128];
  snprintf(label, sizeof label, "%s", solver);
  for (char *c = label; *c; c++) *c = *c == '\n' ? ' ' : *c;
  if (feast_test_rank() == 0 && comm == MPI_COMM_WORLD)
    printf("%-45s %3d nonlinear steps, %4ld linear its, kinetic energy %.12e\n", label, run->r.nonlinear_iterations,
           run->r.linear_iterations, run->ke);
  return 0;
}

/* a and b: the same steps, iterations and solution bit for bit */
static void check_same(const Run *a, const Run *b) {
  CHECK(a->r.nonlinear_iterations == b->r.nonlinear_iterations && a->r.linear_iterations == b->r.linear_iterations);
  for (int f = 0; f < NS_NFIELDS; f++)
    CHECK(ns_count_bit_differences(ns_solution(a->c.ns), ns_solution(b->c.ns), f) == 0);
}

static int run(void) {
  Run fp, newton, never, at_once, autos, ew, ew_self, ew_fp, aa, aa_self;
  if (solve_case("method = fixed-point\nanderson_depth = 0", MPI_COMM_WORLD, &fp) ||
      solve_case("method = newton", MPI_COMM_WORLD, &newton) ||
      solve_case("method = auto\nnewton_switch = 1e-16\nanderson_depth = 0", MPI_COMM_WORLD, &never) ||
      solve_case("method = auto\nnewton_switch = 1", MPI_COMM_WORLD, &at_once) ||
      solve_case("method = auto\nlinear_forcing = fixed", MPI_COMM_WORLD, &autos) ||
      solve_case("method = auto\nlinear_forcing = eisenstat-walker", MPI_COMM_WORLD, &ew) ||
      solve_case("method = auto\nlinear_forcing = eisenstat-walker", MPI_COMM_SELF, &ew_self) ||
      solve_case("method = fixed-point\nlinear_forcing = eisenstat-walker\nanderson_depth = 0", MPI_COMM_WORLD,
                 &ew_fp) ||
      solve_case("method = fixed-point", MPI_COMM_WORLD, &aa) ||
      solve_case("method = fixed-point", MPI_COMM_SELF, &aa_self))
    return 1;
  check_same(&fp, &never);
  check_same(&newton, &at_once);
  CHECK(autos.r.nonlinear_iterations < fp.r.nonlinear_iterations);
  CHECK_CLOSE(autos.ke, fp.ke, 1e-7);
  CHECK_CLOSE(ew.ke, fp.ke, 1e-7);
  CHECK(ew.r.linear_per_step[0] == autos.r.linear_per_step[0]);
  CHECK(ew.r.linear_iterations < autos.r.linear_iterations);
  check_same(&fp, &ew_fp);
  CHECK(ew_self.r.nonlinear_iterations == ew.r.nonlinear_iterations &&
        ew_self.r.linear_iterations == ew.r.linear_iterations);
  CHECK(aa.r.nonlinear_iterations < fp.r.nonlinear_iterations && aa.r.linear_iterations < fp.r.linear_iterations);
  CHECK_CLOSE(aa.ke, fp.ke, 1e-7);
  CHECK(aa_self.r.nonlinear_iterations == aa.r.nonlinear_iterations &&
        aa_self.r.linear_iterations == aa.r.linear_iterations);
  Run *all[] = {&fp, &newton, &never, &at_once, &autos, &ew, &ew_self, &ew_fp, &aa, &aa_self};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) ns_case_destroy(&all[i]->c);
  return 0;
}

FEAST_TEST_MAIN(run)

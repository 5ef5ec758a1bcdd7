/* The count of linear solves that stopped at their cap (NsResult.linear_capped,
 * NsTimeResult.linear_capped; the summary's linear_capped): the lid-driven cavity at
 * Re = 50 on the distorted 4 x 4 macros, level 2.
 *  - stationary, linear.max_iterations = 2 and linear.rtol = 1e-12 (BiCGStab, no growing
 *    cap; the default 1e-2 is reached in 2 iterations on this small grid): every one of the
 *    nonlinear steps' linear solves hits the cap, so linear_capped = nonlinear_iterations
 *    and every step took exactly 2 iterations; with the default cap none does (0);
 *  - a time run (BDF2, dt = 0.1, 3 steps) with cap 2: linear_capped = the nonlinear steps of
 *    all time steps, summed over the steps as the iterations are. */
#include "ns_testing.h"

static const char *cavity = "[problem]\nre = 50\n"
                            "[boundary.bottom]\nu = 0\nv = 0\n[boundary.top]\nu = 1\nv = 0\n"
                            "[boundary.left]\nu = 0\nv = 0\npriority = 1\n[boundary.right]\nu = 0\nv = 0\npriority = 1\n"
                            "[nonlinear]\nrtol = 1e-6\nmax_iterations = 30\n"
                            "[linear]\nkrylov = bicgstab\n%s\n[time]\nscheme = %s\ndt = 0.1\nend = 0.3\n";

static int make(const char *linear, const char *scheme, NsCase *c) {
  char text[2048];
  snprintf(text, sizeof text, cavity, linear, scheme);
  return ns_case_create("distorted4x4.feast", 2, text, 0, MPI_COMM_WORLD, c);
}

static int run(void) {
  NsCase c;
  NsResult r;
  if (make("max_iterations = 2\nrtol = 1e-12", "none", &c)) return 1;
  CHECK_OK(ns_solve(c.ns, &r));
  CHECK(r.nonlinear_iterations > 0 && r.linear_capped == r.nonlinear_iterations);
  for (int k = 0; k < r.nonlinear_iterations; k++) CHECK(r.linear_per_step[k] == 2);
  ns_case_destroy(&c);
  if (make("", "none", &c)) return 1;
  CHECK_OK(ns_solve(c.ns, &r));
  CHECK(r.converged && r.linear_capped == 0);
  if (feast_test_rank() == 0) printf("default cap: converged, %d nonlinear steps, none capped\n", r.nonlinear_iterations);
  ns_case_destroy(&c);
  if (make("max_iterations = 2\nrtol = 1e-12", "bdf2", &c)) return 1;
  NsTimeParams p;
  NsTimeResult tr;
  CHECK_OK(ns_time_params_from_config(c.cfg, &p));
  CHECK_OK(ns_time_run(c.ns, &p, NULL, NULL, &tr));
  CHECK(tr.steps >= 1 && tr.linear_capped == tr.nonlinear_iterations && tr.linear_iterations == 2 * tr.linear_capped);
  if (feast_test_rank() == 0)
    printf("cap 2, time: %ld of %ld capped in %ld steps (%s)\n", tr.linear_capped, tr.nonlinear_iterations, tr.steps,
           ns_time_status_name(tr.reason));
  ns_case_destroy(&c);
  return 0;
}

FEAST_TEST_MAIN(run)

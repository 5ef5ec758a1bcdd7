/* The stopping test of a time step's nonlinear solve (solve.c,
 * nonlinear.step_reference): the lid-driven cavity at Re = 50 on the distorted
 * 4 x 4 macros, level 2, from rest, BDF2 with dt = 0.1 to t = 1 (near its steady state,
 * where the extrapolated start makes a step's first defect tiny), nonlinear.rtol
 * = 1e-6.
 *  - rhs (defect <= rtol max(r0, ||h_free||)) and update take fewer nonlinear steps than
 *    first-defect, every step converged, and their solutions at t = 1 agree with a tight
 *    run (first-defect, rtol 1e-10) to 1e-5 (relative, velocity): the test bounds the
 *    change of u, not only the defect;
 *  - the counts do not depend on the ranks (the run on MPI_COMM_SELF);
 *  - a stationary solve ignores the key: the same steps and the same solution bit for bit
 *    with rhs and first-defect. */
#include "ns_testing.h"

static const char *cavity = "[problem]\nre = 50\n"
                            "[boundary.bottom]\nu = 0\nv = 0\n[boundary.top]\nu = 1\nv = 0\n"
                            "[boundary.left]\nu = 0\nv = 0\npriority = 1\n[boundary.right]\nu = 0\nv = 0\npriority = 1\n"
                            "[nonlinear]\nrtol = %s\nstep_reference = %s\n"
                            "[time]\nscheme = %s\ndt = 0.1\nend = 1\n";

enum { LEVEL = 2 };
#define MESH "distorted4x4.feast"

static int make(const char *rtol, const char *reference, const char *scheme, MPI_Comm comm, NsCase *c) {
  char text[2048];
  snprintf(text, sizeof text, cavity, rtol, reference, scheme);
  return ns_case_create(MESH, LEVEL, text, 0, comm, c);
}

/* the time run of (rtol, reference) on comm: its result and ||u - u_ref|| / ||u_ref|| against
 * ref's velocity (ref NULL: 0) */
static int time_run(const char *rtol, const char *reference, MPI_Comm comm, const NsCase *ref, NsTimeResult *r,
                    double *change, NsCase *keep) {
  NsCase c;
  if (make(rtol, reference, "bdf2", comm, &c)) return 1;
  NsTimeParams p;
  CHECK_OK(ns_time_params_from_config(c.cfg, &p));
  CHECK_OK(ns_time_run(c.ns, &p, NULL, NULL, r));
  CHECK(r->converged && r->steps == 10);
  *change = 0.0;
  if (ref) {
    double dv = 0.0, vv = 0.0;
    FeastVec *a = NULL; /* one field of c's solution, then its difference from ref's */
    CHECK_OK(feast_vec_create(c.dom, ns_level(c.ns), 1, &a));
    for (int f = NS_U; f <= NS_V && a; f++) {
      FeastVec cf, b;
      feast_vec_view(ns_solution(c.ns), f, &cf);
      feast_vec_view(ns_solution(ref->ns), f, &b);
      feast_vec_copy(&cf, a);
      double nb, d;
      feast_vec_norm(&b, &nb);
      feast_vec_axpy(-1.0, &b, a);
      feast_vec_norm(a, &d);
      dv += d * d, vv += nb * nb;
    }
    feast_vec_destroy(&a);
    *change = sqrt(dv / vv);
  }
  if (keep) *keep = c;
  else ns_case_destroy(&c);
  return 0;
}

/* the stationary problem with `reference`: its result and solution (kept in c) */
static int stationary(const char *reference, NsCase *c, NsResult *r) {
  if (make("1e-8", reference, "none", MPI_COMM_WORLD, c)) return 1;
  CHECK_OK(ns_solve(c->ns, r));
  CHECK(r->converged);
  return 0;
}

static int run(void) {
  NsCase tight;
  NsTimeResult rt, rf, rr, ru, rs;
  double dummy, df, dr, du;
  if (time_run("1e-10", "first-defect", MPI_COMM_WORLD, NULL, &rt, &dummy, &tight)) return 1;
  if (time_run("1e-6", "first-defect", MPI_COMM_WORLD, &tight, &rf, &df, NULL)) return 1;
  if (time_run("1e-6", "rhs", MPI_COMM_WORLD, &tight, &rr, &dr, NULL)) return 1;
  if (time_run("1e-6", "update", MPI_COMM_WORLD, &tight, &ru, &du, NULL)) return 1;
  if (time_run("1e-6", "rhs", MPI_COMM_SELF, NULL, &rs, &dummy, NULL)) return 1;
  if (feast_test_rank() == 0)
    printf("nonlinear steps (linear its) of 10 steps: tight %ld (%ld), first-defect %ld (%ld), rhs %ld (%ld), "
           "update %ld (%ld); change against tight: %.2e %.2e %.2e\n",
           rt.nonlinear_iterations, rt.linear_iterations, rf.nonlinear_iterations, rf.linear_iterations,
           rr.nonlinear_iterations, rr.linear_iterations, ru.nonlinear_iterations, ru.linear_iterations, df, dr, du);
  CHECK(rr.nonlinear_iterations < rf.nonlinear_iterations);
  CHECK(ru.nonlinear_iterations < rf.nonlinear_iterations);
  CHECK(dr <= 1e-5 && du <= 1e-5 && df <= 1e-5);
  CHECK(rs.nonlinear_iterations == rr.nonlinear_iterations && rs.linear_iterations == rr.linear_iterations);
  ns_case_destroy(&tight);
  /* stationary: the key is not read */
  NsCase a, b;
  NsResult ra, rb;
  if (stationary("rhs", &a, &ra) || stationary("first-defect", &b, &rb)) return 1;
  CHECK(ra.nonlinear_iterations == rb.nonlinear_iterations && ra.linear_iterations == rb.linear_iterations);
  long differ = 0;
  for (int li = 0; li < a.dom->nlocal; li++)
    for (int f = 0; f < NS_NFIELDS; f++)
      differ += memcmp(feast_vec_block(ns_solution(a.ns), f, li), feast_vec_block(ns_solution(b.ns), f, li),
                       sizeof(double) * (size_t)ns_solution(a.ns)->N * ns_solution(a.ns)->N) != 0;
  CHECK(differ == 0);
  ns_case_destroy(&a);
  ns_case_destroy(&b);
  return 0;
}

FEAST_TEST_MAIN(run)

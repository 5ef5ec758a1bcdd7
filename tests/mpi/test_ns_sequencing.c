/* Grid sequencing (continuation.grid_sequencing, navier_stokes/sequencing.c) on the
 * backward-facing step at Re = 100, level 3 (its coarsest level is 2: the cell Peclet
 * number 6.25 there):
 *  - feast_vec_prolongate on a view of the coarser level (feast_domain_coarser_view) is
 *    exact for a bilinear field (the step's macros are rectangles);
 *  - auto sequences the open flow: level 2 first, then level 3 from its interpolated
 *    solution in a few Newton steps (measured: 3 against 18 from the zero start), to the
 *    solution of the unsequenced run within the nonlinear tolerance, with a stopping test
 *    relative to the zero start's first defect (the same initial_residual reference);
 *  - the same bits on any number of ranks (against a serial run on MPI_COMM_SELF);
 *  - a solve from ns_set_initial_guess is not sequenced (from a zero guess: the unsequenced
 *    run, the reference above);
 *  - a coarser level that does not converge (nonlinear.max_iterations = 2, no
 *    continuation), or a finer attempt that fails after a coarser level converged,
 *    falls back to the level's own strategy and ends with a clear status
 *    (max_iterations), not a crash, every step of both attempts counted. */
#include "feast/fem/transfer.h"
#include "ns_testing.h"

static const char *step_ini = "[problem]\ntype = navier-stokes\nre = 100\n"
                              "[boundary.inflow]\nu = 24*y*(0.5-y)\nv = 0\n"
                              "[boundary.step]\nu = 0\nv = 0\n[boundary.lower]\nu = 0\nv = 0\n"
                              "[boundary.upper]\nu = 0\nv = 0\n";
enum { LEVEL = 3 };

static double bilinear(double x, double y) { return 1.0 + 2.0 * x - 3.0 * y + 0.5 * x * y; }

static void check_prolongation(const FeastDomain *dom) {
  FeastDomain coarse;
  CHECK_OK(feast_domain_coarser_view(dom, LEVEL - 1, &coarse));
  CHECK(coarse.finest == LEVEL - 1 && coarse.levels == dom->levels && coarse.nlocal == dom->nlocal);
  CHECK(feast_domain_coarser_view(dom, LEVEL + 1, &coarse) == FEAST_ERR_ARG);
  feast_error_clear();
  CHECK_OK(feast_domain_coarser_view(dom, LEVEL - 1, &coarse));
  FeastVec *xc = NULL, *xf = NULL, *exact = NULL;
  CHECK_OK(feast_vec_create(&coarse, LEVEL - 1, NS_NFIELDS, &xc));
  CHECK_OK(feast_vec_create(dom, LEVEL, NS_NFIELDS, &xf));
  CHECK_OK(feast_vec_create(dom, LEVEL, NS_NFIELDS, &exact));
  if (xc && xf && exact) {
    ns_interpolate(xc, bilinear, bilinear, bilinear);
    ns_interpolate(exact, bilinear, bilinear, bilinear);
    CHECK_OK(feast_vec_prolongate(xc, xf));
    for (int f = 0; f < NS_NFIELDS; f++) CHECK(ns_max_diff(xf, exact, f) < 1e-13);
    CHECK(feast_vec_prolongate(xf, xc) == FEAST_ERR_ARG); /* the wrong way round */
    feast_error_clear();
  }
  feast_vec_destroy(&xc);
  feast_vec_destroy(&xf);
  feast_vec_destroy(&exact);
}

static void check_sequenced(void) {
  NsCase seq, serial;
  if (ns_case_create("step60x2.feast", LEVEL, step_ini, 0, MPI_COMM_WORLD, &seq) ||
      ns_case_create("step60x2.feast", LEVEL, step_ini, 0, MPI_COMM_SELF, &serial)) {
    CHECK(0);
    return;
  }
  check_prolongation(seq.dom);
  NsResult rs, r1, ro;
  CHECK_OK(ns_solve(seq.ns, &rs));
  CHECK_OK(ns_solve(serial.ns, &r1));
  CHECK(rs.converged && r1.converged);
  CHECK(rs.coarse.levels == 1 && rs.coarse.converged && rs.coarse.nonlinear_iterations > 0);
  /* rank-independent, bit for bit */
  CHECK(rs.nonlinear_iterations == r1.nonlinear_iterations && rs.linear_iterations == r1.linear_iterations);
  CHECK(rs.coarse.nonlinear_iterations == r1.coarse.nonlinear_iterations &&
        rs.coarse.linear_iterations == r1.coarse.linear_iterations);
  for (int f = 0; f < NS_NFIELDS; f++) CHECK(ns_count_bit_differences(ns_solution(seq.ns), ns_solution(serial.ns), f) == 0);
  /* a solve from a given guess is not sequenced: from the zero guess it is the unsequenced
   * run (continuation.grid_sequencing = off) */
  FeastVec *zero = NULL, *sequenced = NULL;
  CHECK_OK(feast_vec_create(seq.dom, LEVEL, NS_NFIELDS, &zero));
  CHECK_OK(feast_vec_create(seq.dom, LEVEL, NS_NFIELDS, &sequenced));
  if (zero && sequenced) {
    feast_vec_copy(ns_solution(seq.ns), sequenced);
    CHECK_OK(ns_set_initial_guess(seq.ns, zero));
    CHECK_OK(ns_solve(seq.ns, &ro));
    CHECK(ro.converged && ro.coarse.levels == 0);
    /* a few Newton steps on the finest level, fewer than from the zero start */
    if (!(rs.nonlinear_iterations <= 5 && rs.nonlinear_iterations < ro.nonlinear_iterations))
      fprintf(stderr, "finest-level steps: sequenced %d, from zero %d\n", rs.nonlinear_iterations, ro.nonlinear_iterations);
    CHECK(rs.nonlinear_iterations <= 5 && rs.nonlinear_iterations < ro.nonlinear_iterations);
    /* "converged" means the same: the tolerance relative to the zero start's first defect */
    CHECK(rs.final_residual <= 1e-8 * ro.initial_residual * (1.0 + 1e-12));
    /* the same solution within the nonlinear tolerance (u, v of order 1, p of order 0.1) */
    for (int f = 0; f < NS_NFIELDS; f++) {
      const double d = ns_max_diff(sequenced, ns_solution(seq.ns), f);
      if (!(d < 1e-6)) fprintf(stderr, "field %s: sequenced and unsequenced differ by %.3e\n", ns_field_names[f], d);
      CHECK(d < 1e-6);
    }
  }
  feast_vec_destroy(&zero);
  feast_vec_destroy(&sequenced);
  ns_case_destroy(&seq);
  ns_case_destroy(&serial);
}

/* the solve of the step with `keys` (ini sections) after step_ini, 2 nonlinear steps at
 * most and no continuation */
static int solve_capped(const char *keys, NsResult *r) {
  char ini[1024];
  snprintf(ini, sizeof ini, "%s[nonlinear]\nmax_iterations = 2\n%s", step_ini, keys);
  NsCase c;
  if (ns_case_create("step60x2.feast", LEVEL, ini, 0, MPI_COMM_WORLD, &c)) return 1;
  const int st = ns_solve(c.ns, r);
  if (!st) {
    double sum = 0.0; /* the per-step array is the problem's: read it before it goes */
    for (int k = 0; k < r->nonlinear_iterations; k++) sum += r->linear_per_step[k];
    CHECK(sum == (double)r->linear_iterations);
  }
  ns_case_destroy(&c);
  return st;
}

static void check_fallback(void) {
  NsResult r;
  /* level 2 fails: level 3's own strategy from the zero start */
  CHECK_OK(solve_capped("[continuation]\nmethod = off\n", &r));
  CHECK(!r.converged && r.reason == NS_MAX_ITERATIONS && r.nonlinear_iterations == 2);
  CHECK(r.coarse.levels == 1 && !r.coarse.converged);
  CHECK(isfinite(r.final_residual));
  /* level 2 "converges" at once (continuation.rtol = 1), level 3's attempt from it fails
   * after 2 steps, then its own strategy: both attempts counted, step by step */
  CHECK_OK(solve_capped("[continuation]\nmethod = off\nrtol = 1\n", &r));
  CHECK(!r.converged && r.reason == NS_MAX_ITERATIONS && r.nonlinear_iterations == 4);
  CHECK(r.coarse.levels == 1 && r.coarse.converged && r.coarse.nonlinear_iterations == 0);
}

static int run(void) {
  check_sequenced();
  check_fallback();
  return 0;
}

FEAST_TEST_MAIN(run)

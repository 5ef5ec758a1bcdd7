/* Continuation in Re (continuation.method, navier_stokes/continuation.c) on the lid-driven
 * cavity (unitsquare8), stationary:
 *  - Newton at Re = 2000, level 3, solved to nonlinear.rtol = 1e-4 with a stall
 *    test over continuation.stall_steps = 5 (the defaults 1e-8 and 10 take 2.8 x
 *    the linear iterations): the direct attempt stalls (after 11 steps its defect is above
 *    0.5 x the one 5 steps before; 13 with PCD's N_p at 2 x 2 Gauss points instead of 3 x 3,
 *    2026-12-02; 10 with FGMRES's basis in double precision, 5 before
 *    Newton's Jacobian had tau's derivative, 2026-11-27: a stalled Newton's step count
 *    follows rounding); with continuation.method = off and a
 *    cap of 3 steps it stops not converged and takes no stage, with the very same linear
 *    iterations per step as the first steps of auto's direct attempt; auto then converges
 *    through stages (the first at Re / 4
 *    from zero, the last at 2000; Newton at Re = 1000 converged directly here once its
 *    Jacobian had the stabilisation's derivatives, 2026-11-26), reported in the result: stages, their Re (increasing,
 *    ending at the target), their steps, which with the direct attempt's add up to
 *    nonlinear_iterations, the per-step linear iterations to linear_iterations; the
 *    defect at the final iterate recomputed from outside at the target Re (ns->nu restored)
 *    is <= nonlinear.rtol x the direct attempt's first defect;
 *  - one stage allowed (continuation.max_stages = 1, on one rank): the stage at
 *    Re / 4 converges and the stages run out below the target: not converged, reason
 *    NS_STAGES_EXHAUSTED (not the stage's "converged"), and the hint names the key;
 *  - a converging case (the fixed point at Re = 100, level 3): auto is off bit for bit
 *    (steps, linear iterations, iterate), with no stage;
 *  - the Re 2000 case runs on 1 and 2 ranks, and on more where each rank has a CPU (run());
 *  - on more ranks than one: the continuation case on rank 0 alone (MPI_COMM_SELF, all
 *    macros; the other ranks wait, so that 4 oversubscribed ranks on a busy machine do not
 *    solve it 4 times) takes the same stages, steps and iterations, and its iterate is
 *    bitwise the distributed one (both gathered in global node order).
 * The block preconditioner throughout (linear.preconditioner = block): auto's switch to the
 * direct one after an expensive step (test_ns_direct) would make the direct attempt
 * converge, and the continuation under test would not run. */
#include "feast/la/gather.h"
/* white-box (ns_testing_private.h): checks the final defect with the system's operator */
#include "ns_testing_private.h"
#include <stdlib.h>
#include <string.h>

static const char *cavity = "[problem]\nre = %g\n"
                            "[boundary.bottom]\nu = 0\nv = 0\n[boundary.top]\nu = 1\nv = 0\n"
                            "[boundary.left]\nu = 0\nv = 0\npriority = 1\n[boundary.right]\nu = 0\nv = 0\npriority = 1\n"
                            "[linear]\npcd_rotation = 0\npcd_supg = off\npreconditioner = block\n%s\n";

typedef struct {
  NsResult r;
  NsCase c;
} Run;

static int solve_case(double re, const char *solver, MPI_Comm comm, Run *run) {
  char text[2048];
  snprintf(text, sizeof text, cavity, re, solver);
  if (ns_case_create("unitsquare8.feast", 3, text, 0, comm, &run->c)) return 1;
  CHECK_OK(ns_solve(run->c.ns, &run->r));
  if (feast_test_rank() == 0 && comm == MPI_COMM_WORLD) {
    char label[256];
    snprintf(label, sizeof label, "Re %g %s", re, solver);
    for (char *c = label; *c; c++) *c = *c == '\n' ? ' ' : *c;
    printf("%-60s %s, %3d nonlinear steps, %5ld linear its, %d stages:", label, ns_status_name(run->r.reason),
           run->r.nonlinear_iterations, run->r.linear_iterations, run->r.continuation_stages);
    for (int k = 0; k < run->r.continuation_stages; k++)
      printf(" Re %g (%d steps, %s)", run->r.continuation_re[k], run->r.continuation_iterations[k],
             ns_status_name(run->r.continuation_reason[k]));
    printf("\n");
  }
  return 0;
}

/* a and b (same communicator): the same steps, iterations and iterate bit for bit */
static void check_same(const Run *a, const Run *b) {
  CHECK(a->r.nonlinear_iterations == b->r.nonlinear_iterations && a->r.linear_iterations == b->r.linear_iterations);
  CHECK(a->r.reason == b->r.reason && a->r.final_residual == b->r.final_residual);
  for (int f = 0; f < NS_NFIELDS; f++)
    CHECK(ns_count_bit_differences(ns_solution(a->c.ns), ns_solution(b->c.ns), f) == 0);
}

/* the distributed iterate of `dist` against `self`'s, the same problem solved on rank 0
 * alone (NULL on the other ranks, or where it failed): the values of every field in global
 * node order, bit for bit; the number of differing values (1 without `self` on rank 0),
 * on every rank */
static long differences_on_root(const NsCase *dist, const NsCase *self) {
  const NsProblem *ns = dist->ns;
  const int64_t n = dist->dom->levels[ns_level(ns)].nglobal;
  const int root = feast_test_rank() == 0;
  double *a = root ? malloc((size_t)n * sizeof *a) : NULL, *b = root ? malloc((size_t)n * sizeof *b) : NULL;
  long d = root && (!self || !a || !b);
  for (int f = 0; f < NS_NFIELDS; f++) {
    const FeastVec *v = ns_solution(ns);
    CHECK_OK(feast_gather_vector(dist->dom, ns_level(ns), v->host + f * v->nlocal, 0, a));
    if (!root || d) continue;
    const FeastVec *x = ns_solution(self->ns);
    CHECK_OK(feast_gather_vector(self->dom, ns_level(self->ns), x->host + f * x->nlocal, 0, b));
    for (int64_t i = 0; i < n; i++) d += memcmp(&a[i], &b[i], sizeof *a) != 0;
  }
  free(a);
  free(b);
  MPI_Bcast(&d, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  return d;
}

/* with the linear tolerance and Schur approximation of before 2026-11-27 (linear.rtol in every
 * step; no rotation term and no SUPG term in PCD's F_p: the cavity's [linear]), under which
 * this Newton stalls at Re = 2000 */
static const char *newton = "[nonlinear]\nmethod = newton\nrtol = 1e-4\nlinear_forcing = fixed\n"
                            "[continuation]\nstall_steps = 5";
#define RE 2000.0 /* the target Reynolds number of the continuation case */
#define RTOL 1e-4 /* its nonlinear.rtol */
enum { DIRECT_STEPS = 11, OFF_STEPS = 3 }; /* the direct attempt's steps until it stalls; the cap of `off` */

/* auto where the direct attempt fails: stages, counts, the defect at the target, `off`,
 * and on more ranks the same run on rank 0 alone */
static int check_continuation(int size) {
  Run cont, off;
  if (solve_case(RE, newton, MPI_COMM_WORLD, &cont)) return 1;
  const NsResult *r = &cont.r;
  CHECK(r->converged && r->reason == NS_CONVERGED);
  CHECK(r->direct_reason == NS_STALLED && r->direct_iterations == DIRECT_STEPS);
  CHECK(r->continuation_stages >= 2 && r->continuation_stages <= NS_MAX_STAGES);
  CHECK(r->continuation_re[0] == RE / 4);
  CHECK(r->continuation_re[r->continuation_stages - 1] == RE);
  CHECK(r->continuation_reason[r->continuation_stages - 1] == NS_CONVERGED);
  int steps = r->direct_iterations;
  for (int k = 0; k < r->continuation_stages; k++) {
    steps += r->continuation_iterations[k];
    CHECK(r->continuation_re[k] > 0.0 && r->continuation_re[k] <= RE);
  }
  CHECK(steps == r->nonlinear_iterations);
  double its = 0.0;
  for (int k = 0; k < r->nonlinear_iterations; k++) its += r->linear_per_step[k];
  CHECK(its == (double)r->linear_iterations);
  CHECK(ns_viscosity(cont.c.ns) == 1.0 / RE);
  double defect, rhs;
  CHECK_OK(ns_defect_at(cont.c.ns, ns_solution(cont.c.ns), &defect, &rhs));
  CHECK(defect <= RTOL * r->initial_residual);
  CHECK(r->final_residual <= RTOL * r->initial_residual);
  /* off: the first steps of the direct attempt, not converged, no stage */
  char off_solver[256];
  snprintf(off_solver, sizeof off_solver, "%s\nmethod = off\n[nonlinear]\nmax_iterations = %d", newton, OFF_STEPS);
  if (solve_case(RE, off_solver, MPI_COMM_WORLD, &off)) return 1;
  CHECK(!off.r.converged && off.r.reason == NS_MAX_ITERATIONS && off.r.continuation_stages == 0);
  CHECK(off.r.nonlinear_iterations == OFF_STEPS);
  for (int k = 0; k < off.r.nonlinear_iterations; k++) CHECK(off.r.linear_per_step[k] == r->linear_per_step[k]);
  CHECK(off.r.initial_residual == r->initial_residual);
  ns_case_destroy(&off.c);

  /* ---- the same stages and iterates on one rank (rank 0 alone) ---- */
  if (size > 1) {
    Run self;
    const int made = feast_test_rank() == 0 && !solve_case(RE, newton, MPI_COMM_SELF, &self);
    if (made) {
      CHECK(self.r.converged && self.r.continuation_stages == r->continuation_stages);
      CHECK(self.r.nonlinear_iterations == r->nonlinear_iterations && self.r.linear_iterations == r->linear_iterations);
      for (int k = 0; k < r->continuation_stages && k < self.r.continuation_stages; k++)
        CHECK(self.r.continuation_re[k] == r->continuation_re[k] &&
              self.r.continuation_iterations[k] == r->continuation_iterations[k]);
    }
    CHECK(differences_on_root(&cont.c, made ? &self.c : NULL) == 0);
    if (made) ns_case_destroy(&self.c);
  }
  ns_case_destroy(&cont.c);
  return 0;
}

/* stages that run out below the target (one rank) */
static int check_exhausted(void) {
  Run one;
  char one_stage[160];
  snprintf(one_stage, sizeof one_stage, "%s\nmax_stages = 1", newton);
  if (solve_case(RE, one_stage, MPI_COMM_WORLD, &one)) return 1;
  CHECK(!one.r.converged && one.r.reason == NS_STAGES_EXHAUSTED && one.r.continuation_stages == 1);
  CHECK(one.r.continuation_reason[0] == NS_CONVERGED && one.r.continuation_re[0] == RE / 4);
  char hint[512];
  ns_failure_hint(one.c.ns, &one.r, hint, sizeof hint);
  CHECK(strstr(hint, "continuation.max_stages") != NULL);
  CHECK(!strcmp(ns_status_name(NS_STAGES_EXHAUSTED), "stages_exhausted"));
  ns_case_destroy(&one.c);
  return 0;
}

/* a converging case: auto is off bit for bit */
static int check_converging(void) {
  Run a, b;
  if (solve_case(100, "[continuation]\nmethod = auto", MPI_COMM_WORLD, &a) || solve_case(100, "[continuation]\nmethod = off", MPI_COMM_WORLD, &b))
    return 1;
  CHECK(a.r.converged && a.r.continuation_stages == 0 && b.r.continuation_stages == 0);
  check_same(&a, &b);
  ns_case_destroy(&a.c);
  ns_case_destroy(&b.c);
  return 0;
}

static int run(void) {
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (check_converging()) return 1;
  if (size == 1 && check_exhausted()) return 1;
  /* the Re 2000 case on up to 2 ranks, and on more where each rank has a CPU (on more
   * its ~6000 FGMRES iterations run far past the test's time limit on a busy machine) */
  if (size <= 2 || !feast_test_oversubscribed()) return check_continuation(size);
  if (feast_test_rank() == 0) printf("the Re 2000 case not run: %d ranks, more than the CPUs\n", size);
  return 0;
}

FEAST_TEST_MAIN(run)

/* The nonlinear solver's checkpoint in-process (checkpoint.c, solve.c): the lid-driven
 * cavity at Re = 50 on the distorted 4 x 4 macros, level 2, fixed point with Anderson
 * acceleration of depth 5 (the default; 13 steps to convergence).
 *  - run A: 7 steps; run B: 9 steps, writing a checkpoint every 7 (output.checkpoint),
 *    so after step 7, when Anderson's history holds 5 steps and has dropped the oldest;
 *  - the checkpoint matches config and mesh (feast_checkpoint_match), and ns_restore into
 *    a fresh problem on MPI_COMM_SELF (a different rank count, all macros on one rank)
 *    gives A's iterate bit for bit and A's state: steps 7, the residual, the initial
 *    residual, the linear iterations (total and per step);
 *  - the restored problem continued by ns_solve to step 9 ends at B's iterate bit for
 *    bit, with B's step count and linear iterations (the "very steps of an
 *    uninterrupted run" of ns_private.h: Anderson's history is in the checkpoint), also
 *    from a problem on MPI_COMM_WORLD;
 *  - restored with nonlinear.anderson_depth = 2 (the newest 2 steps of the history) or 0 (the
 *    plain fixed point), the run goes on and its defect falls below the checkpoint's. */
#include "feast/io/checkpoint.h"
/* white-box (ns_testing_private.h): checks ns_restore's state, ns->iter.restored and ns->iter.resume */
#include "ns_testing_private.h"

static const char *cavity = "[problem]\nre = 50\n"
                            "[boundary.bottom]\nu = 0\nv = 0\n[boundary.top]\nu = 1\nv = 0\n"
                            "[boundary.left]\nu = 0\nv = 0\npriority = 1\n[boundary.right]\nu = 0\nv = 0\npriority = 1\n"
                            "[nonlinear]\nrtol = 1e-12\nmax_iterations = %d\nanderson_depth = %d\n"
                            /* runs stopped after k steps: the direct attempt alone */
                            "[continuation]\nmethod = off\n"
                            "[output]\n%s\n";

enum { LEVEL = 2, FIRST = 7, STEPS = 9, DEPTH = 5 };
#define MESH "distorted4x4.feast"

static int solve(int steps, const char *output, MPI_Comm comm, NsCase *c, NsResult *res) {
  char text[2048];
  snprintf(text, sizeof text, cavity, steps, DEPTH, output);
  if (ns_case_create(MESH, LEVEL, text, 0, comm, c)) return 1;
  CHECK_OK(ns_solve(c->ns, res));
  CHECK(!res->converged && res->nonlinear_iterations == steps);
  return 0;
}

/* a problem on comm with nonlinear.anderson_depth = depth restored from ck and solved to step
 * STEPS (*rr); 1 when it could not be made */
static int continue_run(const FeastCheckpoint *ck, int depth, MPI_Comm comm, NsCase *r, NsResult *rr) {
  char text[2048];
  snprintf(text, sizeof text, cavity, STEPS, depth, "");
  if (ns_case_create(MESH, LEVEL, text, 0, comm, r)) {
    CHECK(0);
    return 1;
  }
  CHECK_OK(ns_restore(r->ns, ck));
  CHECK_OK(ns_solve(r->ns, rr));
  return 0;
}

/* the restored problem continued to step STEPS against run B */
static void check_continued(MPI_Comm comm, const FeastCheckpoint *ck, const NsCase *b, const NsResult *rb) {
  NsCase r;
  NsResult rr;
  if (continue_run(ck, DEPTH, comm, &r, &rr)) return;
  CHECK(rr.nonlinear_iterations == rb->nonlinear_iterations && rr.linear_iterations == rb->linear_iterations);
  CHECK(rr.initial_residual == rb->initial_residual && rr.final_residual == rb->final_residual);
  for (int k = 0; k < STEPS; k++) CHECK(rr.linear_per_step[k] == rb->linear_per_step[k]);
  long differ = 0;
  /* compare on b's partition: b is on MPI_COMM_WORLD */
  if (comm == MPI_COMM_SELF) {
    for (int f = 0; f < NS_NFIELDS; f++) differ += ns_count_bit_differences(ns_solution(b->ns), ns_solution(r.ns), f);
  } else {
    for (int li = 0; li < b->dom->nlocal; li++)
      for (int f = 0; f < NS_NFIELDS; f++)
        differ += memcmp(feast_vec_block(ns_solution(b->ns), f, li), feast_vec_block(ns_solution(r.ns), f, li),
                         sizeof(double) * (size_t)ns_solution(b->ns)->N * ns_solution(b->ns)->N) != 0;
  }
  CHECK(differ == 0);
  if (feast_test_rank() == 0)
    printf("continued on %s: %d steps, %ld its, residual %.17g (uninterrupted %.17g), %ld macro fields differ\n",
           comm == MPI_COMM_SELF ? "one rank" : "all ranks", rr.nonlinear_iterations, rr.linear_iterations,
           rr.final_residual, rb->final_residual, differ);
  ns_case_destroy(&r);
}

/* restored with another nonlinear.anderson_depth: the history cut to it, the run goes on */
static void check_other_depth(const FeastCheckpoint *ck, int depth, double restored_residual) {
  NsCase r;
  NsResult rr;
  if (continue_run(ck, depth, MPI_COMM_WORLD, &r, &rr)) return;
  CHECK(rr.nonlinear_iterations == STEPS && rr.final_residual < restored_residual);
  if (feast_test_rank() == 0)
    printf("restored with anderson_depth = %d: %d steps, residual %.3e (restored %.3e)\n", depth,
           rr.nonlinear_iterations, rr.final_residual, restored_residual);
  ns_case_destroy(&r);
}

static int run(void) {
  char dir[64] = "/tmp/feast_ns_ck_XXXXXX", path[128], output[256];
  if (feast_test_rank() == 0 && !mkdtemp(dir)) dir[0] = 0;
  MPI_Bcast(dir, sizeof dir, MPI_CHAR, 0, MPI_COMM_WORLD);
  if (!dir[0]) return 1;
  snprintf(path, sizeof path, "%s/ns.ck", dir);
  snprintf(output, sizeof output, "checkpoint = %s\ncheckpoint_interval = %d", path, FIRST);
  NsCase a, b, s;
  NsResult ra, rb;
  if (solve(FIRST, "", MPI_COMM_WORLD, &a, &ra) || solve(STEPS, output, MPI_COMM_WORLD, &b, &rb)) {
    CHECK(0);
    return 1;
  }
  FeastCheckpoint *ck = NULL;
  CHECK_OK(feast_checkpoint_read(path, "test checkpoint", MPI_COMM_WORLD, &ck));
  if (ck) {
    CHECK_OK(feast_checkpoint_match(ck, b.cfg, b.mesh, LEVEL, NS_NFIELDS));
    /* restored on one rank: A's iterate and state */
    char text[2048];
    snprintf(text, sizeof text, cavity, STEPS, DEPTH, "");
    if (!ns_case_create(MESH, LEVEL, text, 0, MPI_COMM_SELF, &s)) {
      CHECK_OK(ns_restore(s.ns, ck));
      long differ = 0;
      for (int f = 0; f < NS_NFIELDS; f++) differ += ns_count_bit_differences(ns_solution(a.ns), ns_solution(s.ns), f);
      CHECK(differ == 0);
      const NsState *st = &s.ns->iter.resume;
      CHECK(s.ns->iter.restored && st->steps == FIRST);
      CHECK(st->residual == ra.final_residual && st->initial_residual == ra.initial_residual);
      CHECK(st->linear_iterations == ra.linear_iterations);
      for (int k = 0; k < FIRST; k++) CHECK(st->linear_per_step[k] == ra.linear_per_step[k]);
      ns_case_destroy(&s);
    } else {
      CHECK(0);
    }
    check_continued(MPI_COMM_SELF, ck, &b, &rb);
    check_continued(MPI_COMM_WORLD, ck, &b, &rb);
    check_other_depth(ck, 2, ra.final_residual);
    check_other_depth(ck, 0, ra.final_residual);
  }
  feast_checkpoint_destroy(&ck);
  ns_case_destroy(&a);
  ns_case_destroy(&b);
  MPI_Barrier(MPI_COMM_WORLD);
  if (feast_test_rank() == 0) {
    remove(path);
    CHECK(rmdir(dir) == 0);
  }
  return 0;
}

FEAST_TEST_MAIN(run)

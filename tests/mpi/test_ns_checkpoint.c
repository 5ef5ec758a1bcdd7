/* The nonlinear solver's checkpoint in-process (checkpoint.c, solve.c): the lid-driven
 * cavity at Re = 50 on the distorted 4 x 4 macros, level 2, fixed point.
 *  - run A: 3 steps; run B: 5 steps, writing a checkpoint every 3 (output.checkpoint),
 *    so after step 3;
 *  - the checkpoint matches config and mesh (feast_checkpoint_match), and ns_restore into
 *    a fresh problem on MPI_COMM_SELF (a different rank count, all macros on one rank)
 *    gives A's iterate bit for bit and A's state: steps 3, the residual, the initial
 *    residual, the linear iterations (total and per step);
 *  - the restored problem continued by ns_solve to step 5 ends at B's iterate bit for
 *    bit, with B's step count and linear iterations (the "very steps of an
 *    uninterrupted run" of ns_private.h), also from a problem on MPI_COMM_WORLD. */
#include "feast/checkpoint.h"
#include "ns_testing.h"

static const char *cavity = "[problem]\nre = 50\n"
                            "[boundary.bottom]\nu = 0\nv = 0\n[boundary.top]\nu = 1\nv = 0\n"
                            "[boundary.left]\nu = 0\nv = 0\npriority = 1\n[boundary.right]\nu = 0\nv = 0\npriority = 1\n"
                            "[solver]\nnonlinear_rtol = 1e-12\nnonlinear_max_iterations = %d\n"
                            /* runs stopped after k steps: the direct attempt alone */
                            "continuation = off\n"
                            "[output]\n%s\n";

enum { LEVEL = 2 };
#define MESH "distorted4x4.feast"

static int solve(int steps, const char *output, MPI_Comm comm, NsCase *c, NsResult *res) {
  char text[2048];
  snprintf(text, sizeof text, cavity, steps, output);
  if (ns_case_create(MESH, LEVEL, text, 0, comm, c)) return 1;
  CHECK_OK(ns_solve(c->ns, res));
  CHECK(!res->converged && res->nonlinear_iterations == steps);
  return 0;
}

/* the restored problem continued to step 5 against run B */
static void check_continued(MPI_Comm comm, const FeastCheckpoint *ck, const NsCase *b, const NsResult *rb) {
  NsCase r;
  char text[2048];
  snprintf(text, sizeof text, cavity, 5, "");
  if (ns_case_create(MESH, LEVEL, text, 0, comm, &r)) {
    CHECK(0);
    return;
  }
  CHECK_OK(ns_restore(r.ns, ck));
  NsResult rr;
  CHECK_OK(ns_solve(r.ns, &rr));
  CHECK(rr.nonlinear_iterations == rb->nonlinear_iterations && rr.linear_iterations == rb->linear_iterations);
  CHECK(rr.initial_residual == rb->initial_residual && rr.final_residual == rb->final_residual);
  for (int k = 0; k < 5; k++) CHECK(rr.linear_per_step[k] == rb->linear_per_step[k]);
  long differ = 0;
  /* compare on b's partition: b is on MPI_COMM_WORLD */
  if (comm == MPI_COMM_SELF) {
    for (int f = 0; f < NS_NFIELDS; f++) differ += ns_count_bit_differences(b->ns->v, r.ns->v, f);
  } else {
    for (int li = 0; li < b->dom->nlocal; li++)
      for (int f = 0; f < NS_NFIELDS; f++)
        differ += memcmp(feast_vec_block(b->ns->v, f, li), feast_vec_block(r.ns->v, f, li),
                         sizeof(double) * (size_t)b->ns->v->N * b->ns->v->N) != 0;
  }
  CHECK(differ == 0);
  if (feast_test_rank() == 0)
    printf("continued on %s: %d steps, %ld its, residual %.17g (uninterrupted %.17g), %ld macro fields differ\n",
           comm == MPI_COMM_SELF ? "one rank" : "all ranks", rr.nonlinear_iterations, rr.linear_iterations,
           rr.final_residual, rb->final_residual, differ);
  ns_case_destroy(&r);
}

static int run(void) {
  char dir[64] = "/tmp/feast_ns_ck_XXXXXX", path[128], output[256];
  if (feast_test_rank() == 0 && !mkdtemp(dir)) dir[0] = 0;
  MPI_Bcast(dir, sizeof dir, MPI_CHAR, 0, MPI_COMM_WORLD);
  if (!dir[0]) return 1;
  snprintf(path, sizeof path, "%s/ns.ck", dir);
  snprintf(output, sizeof output, "checkpoint = %s\ncheckpoint_interval = 3", path);
  NsCase a, b, s;
  NsResult ra, rb;
  if (solve(3, "", MPI_COMM_WORLD, &a, &ra) || solve(5, output, MPI_COMM_WORLD, &b, &rb)) {
    CHECK(0);
    return 1;
  }
  FeastCheckpoint *ck = NULL;
  CHECK_OK(feast_checkpoint_read(path, "test checkpoint", &ck));
  if (ck) {
    CHECK_OK(feast_checkpoint_match(ck, b.cfg, b.mesh, LEVEL, NS_NFIELDS));
    /* restored on one rank: A's iterate and state */
    char text[2048];
    snprintf(text, sizeof text, cavity, 5, "");
    if (!ns_case_create(MESH, LEVEL, text, 0, MPI_COMM_SELF, &s)) {
      CHECK_OK(ns_restore(s.ns, ck));
      long differ = 0;
      for (int f = 0; f < NS_NFIELDS; f++) differ += ns_count_bit_differences(a.ns->v, s.ns->v, f);
      CHECK(differ == 0);
      const NsState *st = &s.ns->resume;
      CHECK(s.ns->restored && st->steps == 3);
      CHECK(st->residual == ra.final_residual && st->initial_residual == ra.initial_residual);
      CHECK(st->linear_iterations == ra.linear_iterations);
      for (int k = 0; k < 3; k++) CHECK(st->linear_per_step[k] == ra.linear_per_step[k]);
      ns_case_destroy(&s);
    } else {
      CHECK(0);
    }
    check_continued(MPI_COMM_SELF, ck, &b, &rb);
    check_continued(MPI_COMM_WORLD, ck, &b, &rb);
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

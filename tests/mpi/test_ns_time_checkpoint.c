/* Checkpoint/restart of a time-dependent run in-process (navier_stokes/checkpoint.c,
 * timestep.c): the lid-driven cavity at Re = 50 on the distorted 4 x 4 macros, level 2,
 * started from rest, BDF2 with dt = 0.1 (so u_n-1 and the previous step size matter).
 *  - run A: 4 steps to t = 0.4; run B: 2 steps to t = 0.2, writing a checkpoint every 2
 *    steps, so after step 2;
 *  - the checkpoint is a time run's: ns_checkpoint_check accepts A's config and refuses
 *    (FEAST_ERR_CONFIG) a stationary config and one with another time.dt;
 *  - restored (ns_time_restore) into fresh problems on MPI_COMM_SELF (all macros on one
 *    rank) and on MPI_COMM_WORLD and continued by ns_time_run to t = 0.4: A's solution bit
 *    for bit, A's step, nonlinear and linear iteration counts;
 *  - with u_n-1 zeroed after the restore (a checkpoint without it), the continued
 *    solution is not A's: the check sees BDF2's second level. */
#include "feast/io/checkpoint.h"
/* white-box (ns_testing_private.h): checks ns_time_restore's state (ns->time) */
#include "ns_testing_private.h"

static const char *cavity = "[problem]\nre = 50\n"
                            "[boundary.bottom]\nu = 0\nv = 0\n[boundary.top]\nu = 1\nv = 0\n"
                            "[boundary.left]\nu = 0\nv = 0\npriority = 1\n[boundary.right]\nu = 0\nv = 0\npriority = 1\n"
                            "[nonlinear]\nrtol = 1e-8\n"
                            "[time]\nscheme = %s\ndt = %s\nend = %s\n"
                            "[output]\n%s\n";

enum { LEVEL = 2 };
#define MESH "distorted4x4.feast"

static int make(const char *scheme, const char *dt, const char *end, const char *output, MPI_Comm comm, NsCase *c) {
  char text[2048];
  snprintf(text, sizeof text, cavity, scheme, dt, end, output);
  return ns_case_create(MESH, LEVEL, text, 0, comm, c);
}

static int run_time(NsCase *c, NsTimeResult *r) {
  NsTimeParams p;
  CHECK_OK(ns_time_params_from_config(c->cfg, &p));
  CHECK_OK(ns_time_run(c->ns, &p, NULL, NULL, r));
  CHECK(r->converged);
  return 0;
}

/* bit differences of b's solution from a's (a on MPI_COMM_WORLD) */
static long differences(const NsCase *a, const NsCase *b, MPI_Comm comm) {
  long differ = 0;
  if (comm == MPI_COMM_SELF) {
    for (int f = 0; f < NS_NFIELDS; f++) differ += ns_count_bit_differences(ns_solution(a->ns), ns_solution(b->ns), f);
    return differ;
  }
  for (int li = 0; li < a->dom->nlocal; li++)
    for (int f = 0; f < NS_NFIELDS; f++)
      differ += memcmp(feast_vec_block(ns_solution(a->ns), f, li), feast_vec_block(ns_solution(b->ns), f, li),
                       sizeof(double) * (size_t)ns_solution(a->ns)->N * ns_solution(a->ns)->N) != 0;
  long all = differ;
  MPI_Allreduce(&differ, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  return all;
}

/* restored on comm and continued to t = 0.4; drop_previous: u_n-1 zeroed after the restore */
static void check_continued(MPI_Comm comm, const FeastCheckpoint *ck, const NsCase *a, const NsTimeResult *ra,
                            int drop_previous) {
  NsCase r;
  if (make("bdf2", "0.1", "0.4", "", comm, &r)) {
    CHECK(0);
    return;
  }
  CHECK_OK(ns_checkpoint_check(ck, r.cfg));
  CHECK_OK(ns_time_restore(r.ns, ck));
  CHECK(r.ns->time.step == 2 && ns_time(r.ns) == 0.2);
  if (drop_previous) feast_vec_zero(r.ns->time.u1);
  NsTimeResult rr;
  run_time(&r, &rr);
  const long differ = differences(a, &r, comm);
  if (drop_previous) {
    CHECK(differ > 0);
  } else {
    CHECK(differ == 0);
    CHECK(rr.steps == ra->steps && rr.t == ra->t);
    CHECK(rr.nonlinear_iterations == ra->nonlinear_iterations && rr.linear_iterations == ra->linear_iterations);
  }
  if (feast_test_rank() == 0)
    printf("continued on %s%s: %ld steps, %ld nonlinear, %ld linear (uninterrupted %ld, %ld), %ld fields differ\n",
           comm == MPI_COMM_SELF ? "one rank" : "all ranks", drop_previous ? " without u_n-1" : "", rr.steps,
           rr.nonlinear_iterations, rr.linear_iterations, ra->nonlinear_iterations, ra->linear_iterations, differ);
  ns_case_destroy(&r);
}

static int run(void) {
  char dir[64] = "/tmp/feast_ns_tck_XXXXXX", path[128], output[256];
  if (feast_test_rank() == 0 && !mkdtemp(dir)) dir[0] = 0;
  MPI_Bcast(dir, sizeof dir, MPI_CHAR, 0, MPI_COMM_WORLD);
  if (!dir[0]) return 1;
  snprintf(path, sizeof path, "%s/time.ck", dir);
  snprintf(output, sizeof output, "checkpoint = %s\ncheckpoint_interval = 2", path);
  NsCase a, b;
  NsTimeResult ra, rb;
  if (make("bdf2", "0.1", "0.4", "", MPI_COMM_WORLD, &a) || make("bdf2", "0.1", "0.2", output, MPI_COMM_WORLD, &b)) {
    CHECK(0);
    return 1;
  }
  run_time(&a, &ra);
  run_time(&b, &rb);
  CHECK(ra.steps == 4 && rb.steps == 2);
  FeastCheckpoint *ck = NULL;
  CHECK_OK(feast_checkpoint_read(path, "test checkpoint", MPI_COMM_WORLD, &ck));
  if (ck) {
    const char *kind = feast_checkpoint_get(ck, "kind");
    CHECK(kind && strcmp(kind, "time") == 0);
    long step;
    CHECK_OK(ns_time_checkpoint_step(ck, &step));
    CHECK(step == 2);
    CHECK_OK(feast_checkpoint_match(ck, a.cfg, a.mesh, LEVEL, NS_NFIELDS));
    /* refused: another time.dt, a stationary run */
    NsCase other;
    if (!make("bdf2", "0.05", "0.4", "", MPI_COMM_SELF, &other)) {
      CHECK(ns_checkpoint_check(ck, other.cfg) == FEAST_ERR_CONFIG);
      ns_case_destroy(&other);
    }
    if (!make("none", "0.1", "0.4", "", MPI_COMM_SELF, &other)) {
      CHECK(ns_checkpoint_check(ck, other.cfg) == FEAST_ERR_CONFIG);
      ns_case_destroy(&other);
    }
    check_continued(MPI_COMM_SELF, ck, &a, &ra, 0);
    check_continued(MPI_COMM_WORLD, ck, &a, &ra, 0);
    check_continued(MPI_COMM_WORLD, ck, &a, &ra, 1);
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

/* feast/io/checkpoint_io.c on several ranks: fields written by every rank (each the ids
 * it owns, handed over in any order) give the very bytes of the same file written by one
 * rank holding every value; read back on every rank at any ids (repeated, in any order)
 * bit for bit; rank 0's arrays and header on every rank; a field read as an array, a
 * missing field, parts that hold an id twice or miss one: an error on every rank and no
 * file written. */
#include "feast/io/checkpoint.h"
#include "feast/base/error.h"
#include "feast_test.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { NGLOBAL = 1000, NREAD = 700 };

static double value(int f, int64_t g) { return sin(0.37 * (double)g + f) + (double)g * 1e-3 + f; }

/* the checkpoint of two fields and an array: this rank's part (owner of g: (g / 7) % size,
 * ids added from the highest down), or every value (all = 1) */
static int build(int all, int twice, FeastCheckpoint **ck) {
  const int rank = feast_test_rank(), size = all ? 1 : feast_test_size();
  int64_t gid[NGLOBAL];
  double x[NGLOBAL];
  const double series[3] = {1.5, -2.25, 1e-300};
  CHECK_OK(feast_checkpoint_create(ck));
  if (rank == 0 || all) CHECK_OK(feast_checkpoint_set(*ck, "ns.steps", "%d", 12));
  if (rank == 0 || all) CHECK_OK(feast_checkpoint_add_array(*ck, "series", series, 3));
  for (int f = 0; f < 2; f++) {
    int64_t count = 0;
    for (int64_t g = NGLOBAL - 1; g >= 0; g--)
      if (all || (g / 7) % size == rank || (twice && g == 0)) gid[count] = g, x[count++] = value(f, g);
    CHECK_OK(feast_checkpoint_add_field(*ck, f ? "v" : "u", NGLOBAL, count, gid, x));
  }
  return 0;
}

/* every rank reads the fields at its own ids, repeated and unordered */
static void check_read(const FeastCheckpoint *ck) {
  int64_t gid[NREAD];
  double x[NREAD];
  const int rank = feast_test_rank();
  for (int k = 0; k < NREAD; k++) gid[k] = (13 * k + 101 * rank) % NGLOBAL;
  for (int f = 0; f < 2; f++) {
    memset(x, 0, sizeof x);
    CHECK_OK(feast_checkpoint_field(ck, MPI_COMM_WORLD, f ? "v" : "u", NGLOBAL, NREAD, gid, x));
    int same = 1;
    for (int k = 0; k < NREAD; k++) same &= x[k] == value(f, gid[k]);
    CHECK(same);
  }
  const double *series = NULL;
  long steps = 0;
  CHECK_OK(feast_checkpoint_array(ck, "series", 3, &series));
  CHECK(series && series[1] == -2.25 && series[2] == 1e-300);
  CHECK_OK(feast_checkpoint_get_long(ck, "ns.steps", &steps));
  CHECK(steps == 12);
  CHECK_FAILS(feast_checkpoint_array(ck, "u", NGLOBAL, &series));
  feast_error_clear();
  CHECK_FAILS(feast_checkpoint_field(ck, MPI_COMM_WORLD, "w", NGLOBAL, NREAD, gid, x));
  feast_error_clear();
}

static int run(void) {
  const int rank = feast_test_rank();
  char dir[64] = "/tmp/feast_ckf_XXXXXX", par[128], seq[128], bad[128];
  if (rank == 0 && !mkdtemp(dir)) dir[0] = 0;
  MPI_Bcast(dir, sizeof dir, MPI_CHAR, 0, MPI_COMM_WORLD);
  CHECK(dir[0]);
  snprintf(par, sizeof par, "%s/par.ckpt", dir);
  snprintf(seq, sizeof seq, "%s/seq.ckpt", dir);
  snprintf(bad, sizeof bad, "%s/bad.ckpt", dir);
  FeastCheckpoint *ck = NULL, *back = NULL;
  build(0, 0, &ck);
  CHECK_OK(feast_checkpoint_write(ck, MPI_COMM_WORLD, par));
  feast_checkpoint_destroy(&ck);
  if (rank == 0) {
    build(1, 0, &ck);
    CHECK_OK(feast_checkpoint_write(ck, MPI_COMM_SELF, seq));
    feast_checkpoint_destroy(&ck);
    unsigned char *a = NULL, *b = NULL;
    const long na = feast_test_read_file(par, &a), nb = feast_test_read_file(seq, &b);
    CHECK(na > 16000 && na == nb && memcmp(a, b, (size_t)na) == 0);
    free(a), free(b);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  CHECK_OK(feast_checkpoint_read(par, "test", MPI_COMM_WORLD, &back));
  if (back) check_read(back);
  feast_checkpoint_destroy(&back);
  /* an id in two ranks' parts (with more than one rank) or the parts of one rank only */
  if (feast_test_size() > 1) {
    build(0, 1, &ck);
    CHECK_FAILS(feast_checkpoint_write(ck, MPI_COMM_WORLD, bad));
    feast_error_clear();
    feast_checkpoint_destroy(&ck);
    CHECK(access(bad, F_OK) != 0);
  }
  if (rank == 0 && feast_test_size() > 1) {
    build(0, 0, &ck);
    CHECK_FAILS(feast_checkpoint_write(ck, MPI_COMM_SELF, bad));
    feast_error_clear();
    feast_checkpoint_destroy(&ck);
    CHECK(access(bad, F_OK) != 0);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) remove(par), remove(seq), remove(bad), rmdir(dir);
  return 0;
}

FEAST_TEST_MAIN(run)

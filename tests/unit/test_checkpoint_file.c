/* feast/io/checkpoint.c and feast/base/paths.c: a checkpoint file round trip (header values and
 * arrays bit for bit), a version 1 file read as before, every damage detected (each byte flipped in turn, every
 * truncation), and the file-identity rules of the outputs-versus-inputs check. */
#include "feast/io/checkpoint.h"
#include "feast/base/error.h"
#include "feast/base/hash.h"
#include "feast/base/paths.h"
#include "feast_test.h"
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[] = "/tmp/feast_ckpt_XXXXXX";

static void file_in_dir(const char *name, char *out, size_t size) { snprintf(out, size, "%s/%s", dir, name); }

static void write_bytes(const char *path, const unsigned char *buf, long n) {
  FILE *f = fopen(path, "wb");
  fwrite(buf, 1, (size_t)n, f);
  fclose(f);
}

static void test_round_trip(const char *path) {
  const double x[5] = {1.0, -0.1, 1e-300, 3.141592653589793, -0.0};
  FeastCheckpoint *ck = NULL, *back = NULL;
  CHECK_OK(feast_checkpoint_create(&ck));
  CHECK_OK(feast_checkpoint_set(ck, "ns.steps", "%d", 7));
  CHECK_OK(feast_checkpoint_set(ck, "ns.initial_residual", "%.17g", 0.1 + 0.2));
  CHECK_OK(feast_checkpoint_set(ck, "mesh", "%s", "a name with blanks.feast"));
  CHECK_OK(feast_checkpoint_add_array(ck, "x", x, 5));
  CHECK_OK(feast_checkpoint_add_array(ck, "empty", x, 0));
  CHECK_FAILS(feast_checkpoint_set(ck, "two words", "%d", 1));
  CHECK_FAILS(feast_checkpoint_set(ck, "key", "%s", "two\nlines"));
  CHECK_OK(feast_checkpoint_write(ck, MPI_COMM_SELF, path));
  feast_checkpoint_destroy(&ck);
  CHECK(ck == NULL);
  CHECK_OK(feast_checkpoint_read(path, "test", MPI_COMM_SELF, &back));
  if (!back) return;
  long steps = 0;
  double r = 0;
  const double *y = NULL;
  CHECK_OK(feast_checkpoint_get_long(back, "ns.steps", &steps));
  CHECK(steps == 7);
  CHECK_OK(feast_checkpoint_get_real(back, "ns.initial_residual", &r));
  CHECK(r == 0.1 + 0.2); /* 17 digits: the same double */
  CHECK(strcmp(feast_checkpoint_get(back, "mesh"), "a name with blanks.feast") == 0);
  CHECK(feast_checkpoint_get(back, "nosuch") == NULL);
  CHECK_FAILS(feast_checkpoint_get_long(back, "mesh", &steps));
  CHECK_OK(feast_checkpoint_array(back, "x", 5, &y));
  CHECK(y && memcmp(x, y, sizeof x) == 0);
  CHECK_FAILS(feast_checkpoint_array(back, "x", 4, &y));
  CHECK_FAILS(feast_checkpoint_array(back, "nosuch", 5, &y));
  CHECK_OK(feast_checkpoint_array(back, "empty", 0, &y));
  feast_checkpoint_destroy(&back);
}

/* every single flipped bit of every byte and every shorter length is rejected */
static void test_damage(const char *path) {
  char bad[512];
  file_in_dir("bad.ckpt", bad, sizeof bad);
  unsigned char *buf = NULL;
  long n = feast_test_read_file(path, &buf);
  CHECK(n > 100);
  int accepted = 0;
  for (long i = 0; i < n; i++) {
    buf[i] ^= (unsigned char)(1u << (i % 8));
    write_bytes(bad, buf, n);
    buf[i] ^= (unsigned char)(1u << (i % 8));
    FeastCheckpoint *ck = NULL;
    if (feast_checkpoint_read(bad, "test", MPI_COMM_SELF, &ck) == 0) accepted++;
    feast_error_clear();
    feast_checkpoint_destroy(&ck);
  }
  for (long len = 0; len < n; len++) {
    write_bytes(bad, buf, len);
    FeastCheckpoint *ck = NULL;
    if (feast_checkpoint_read(bad, "test", MPI_COMM_SELF, &ck) == 0) accepted++;
    feast_error_clear();
    feast_checkpoint_destroy(&ck);
  }
  CHECK(accepted == 0);
  free(buf);
  remove(bad);
}

static int check_pair(int input_first, const char *a, const char *b) {
  FeastPaths *p = NULL;
  CHECK_OK(feast_paths_create(&p));
  if (input_first) CHECK_OK(feast_paths_add_input(p, "in", a, NULL));
  else CHECK_OK(feast_paths_add_output(p, "out1", a));
  CHECK_OK(feast_paths_add_output(p, "out2", b));
  int st = feast_paths_check(p);
  feast_error_clear();
  feast_paths_destroy(&p);
  return st;
}

static void test_paths(const char *existing) {
  char link[512], other[512], missing[512], missing2[512], sub[512];
  file_in_dir("link", link, sizeof link);
  file_in_dir("other", other, sizeof other);
  file_in_dir("missing.json", missing, sizeof missing);
  file_in_dir("sub", sub, sizeof sub);
  snprintf(missing2, sizeof missing2, "%s/sub/../missing.json", dir);
  CHECK(symlink(existing, link) == 0);
  CHECK(mkdir(sub, 0700) == 0);
  FILE *f = fopen(other, "w");
  if (f) fclose(f);
  CHECK(check_pair(1, existing, existing) != 0);  /* same name */
  CHECK(check_pair(1, existing, link) != 0);      /* symlink */
  CHECK(check_pair(1, existing, other) == 0);     /* another file */
  CHECK(check_pair(0, missing, missing2) != 0);   /* not existing, ../ spelling */
  CHECK(check_pair(0, missing, other) == 0);
  CHECK(check_pair(1, existing, missing) == 0);
  /* the one allowed replacement: the checkpoint continuing the restart file */
  FeastPaths *p = NULL;
  CHECK_OK(feast_paths_create(&p));
  CHECK_OK(feast_paths_add_input(p, "--restart", existing, "out.checkpoint"));
  CHECK_OK(feast_paths_add_output(p, "out.checkpoint", link));
  CHECK_OK(feast_paths_check(p));
  CHECK_OK(feast_paths_add_output(p, "out.summary", existing));
  CHECK_FAILS(feast_paths_check(p));
  feast_paths_destroy(&p);
  CHECK(p == NULL);
  remove(link), remove(other), rmdir(sub);
}

/* a file of version 1 (one FNV-1a 64 over every byte, as written before version 2) is
 * read as it was: its arrays whole, also as fields; a damaged one is rejected */
static void test_version1(void) {
  char path[512];
  file_in_dir("v1.ckpt", path, sizeof path);
  const double x[3] = {0.25, -1e-300, 7.0};
  unsigned char buf[256];
  int n = snprintf((char *)buf, sizeof buf, "feastc-checkpoint 1\nbyte_order little\nns.steps 7\narray x 3\ndata\n");
  memcpy(buf + n, x, sizeof x), n += (int)sizeof x;
  n += snprintf((char *)buf + n, sizeof buf - (size_t)n, "checksum %016" PRIx64 "\n",
                feast_fnv1a64(FEAST_FNV_OFFSET, buf, (size_t)n));
  write_bytes(path, buf, n);
  FeastCheckpoint *ck = NULL;
  CHECK_OK(feast_checkpoint_read(path, "test", MPI_COMM_SELF, &ck));
  const double *y = NULL;
  long steps = 0;
  const int64_t gid[4] = {2, 0, 2, 1};
  double z[4] = {0};
  if (ck) {
    CHECK_OK(feast_checkpoint_get_long(ck, "ns.steps", &steps));
    CHECK(steps == 7);
    CHECK_OK(feast_checkpoint_array(ck, "x", 3, &y));
    CHECK(y && memcmp(x, y, sizeof x) == 0);
    CHECK_OK(feast_checkpoint_field(ck, MPI_COMM_SELF, "x", 3, 4, gid, z));
    CHECK(z[0] == 7.0 && z[1] == 0.25 && z[2] == 7.0 && z[3] == -1e-300);
  }
  feast_checkpoint_destroy(&ck);
  buf[n - 30] ^= 1; /* in the data */
  write_bytes(path, buf, n);
  CHECK_FAILS(feast_checkpoint_read(path, "test", MPI_COMM_SELF, &ck));
  feast_error_clear();
  remove(path);
}

static int run(void) {
  if (feast_test_rank() != 0) return 0;
  CHECK(mkdtemp(dir) != NULL);
  char path[512];
  file_in_dir("run.ckpt", path, sizeof path);
  test_round_trip(path);
  test_damage(path);
  test_version1();
  test_paths(path);
  remove(path);
  rmdir(dir);
  return 0;
}

FEAST_TEST_MAIN(run)

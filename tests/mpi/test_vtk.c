/* VTK output: a 2x2 macro grid on [0,2]^2 at level 2, macros split over the ranks, with
 * a scalar f = x + 2y and a vector (y, -x). Checks the pieces' headers and binary data,
 * the .pvtu's piece list, and collective errors. Then four hexahedral macros, the unit
 * cubes at x = 0, 1, 2, 3, at level 1, with f = x + 2y + 3z and (y, -x, z)
 * (feast_vtk_write_hex). With an argument DIR the files are written to DIR/field.* and
 * DIR/hexfield.* and kept (tests/run/test_vtk_read.sh reads them with VTK). */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include "feast/base/error.h"
#include "feast/mesh/partition.h"
#include "feast/io/vtk.h"
#include "feast_test.h"
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { LEVEL = 2, N = 5, NMACROS = 4 };
static const char *out_dir = NULL; /* from the command line, else a temporary dir */

static void macro_data(int m, double *xy, double *f, double *vel) {
  for (int j = 0; j < N; j++)
    for (int i = 0; i < N; i++) {
      int q = j * N + i;
      double x = m % 2 + (double)i / (N - 1), y = m / 2 + (double)j / (N - 1);
      xy[2 * q] = x, xy[2 * q + 1] = y;
      f[q] = x + 2 * y;
      vel[2 * q] = y, vel[2 * q + 1] = -x;
    }
}

static char *read_file(const char *path, long *size) {
  FILE *fp = fopen(path, "rb");
  if (!fp) return NULL;
  fseek(fp, 0, SEEK_END);
  *size = ftell(fp);
  rewind(fp);
  char *s = calloc((size_t)*size + 1, 1);
  if (s && fread(s, 1, (size_t)*size, fp) != (size_t)*size) *size = -1;
  fclose(fp);
  return s;
}

/* header counts and the first appended array (f) of this rank's piece */
static void check_piece(const char *base, int rank, int nlocal, const int *ids) {
  char path[600], want[128];
  snprintf(path, sizeof path, "%s_r%d.vtu", base, rank);
  long size = 0;
  char *s = read_file(path, &size);
  CHECK(s != NULL && size > 0);
  if (!s) return;
  snprintf(want, sizeof want, "NumberOfPoints=\"%d\" NumberOfCells=\"%d\"", nlocal * N * N,
           nlocal * (N - 1) * (N - 1));
  CHECK(strstr(s, want) != NULL);
  CHECK(strstr(s, "Name=\"f\" NumberOfComponents=\"1\" format=\"appended\" offset=\"0\"") != NULL);
  CHECK(strstr(s, "Name=\"vel\" NumberOfComponents=\"3\"") != NULL);
  char *data = strstr(s, "<AppendedData encoding=\"raw\">\n_");
  CHECK(data != NULL);
  if (data && nlocal > 0) {
    data += strlen("<AppendedData encoding=\"raw\">\n_");
    uint64_t bytes;
    double fv[N * N], xy[2 * N * N], f[N * N], vel[2 * N * N];
    memcpy(&bytes, data, 8);
    CHECK(bytes == (uint64_t)nlocal * N * N * 8);
    memcpy(fv, data + 8, sizeof fv);
    macro_data(ids[0], xy, f, vel);
    for (int q = 0; q < N * N; q++) CHECK(fv[q] == f[q]);
  }
  free(s);
}

static void check_pvtu(const char *base, int nranks) {
  char path[600], want[128];
  snprintf(path, sizeof path, "%s.pvtu", base);
  long size = 0;
  char *s = read_file(path, &size);
  CHECK(s != NULL);
  if (!s) return;
  for (int r = 0; r < nranks; r++) {
    snprintf(want, sizeof want, "<Piece Source=\"field_r%d.vtu\"/>", r);
    CHECK(strstr(s, want) != NULL);
  }
  CHECK(strstr(s, "<PDataArray type=\"Int32\" Name=\"macro\"") != NULL);
  free(s);
}

static void check_errors(int nlocal, const int *ids, const double *const *xy,
                         const FeastVtkField *fields, int rank, int nranks) {
  const char *bad = "/nonexistent_feast_dir/field";
  CHECK(feast_vtk_write(bad, LEVEL, nlocal, ids, xy, 2, fields, MPI_COMM_WORLD) == FEAST_ERR_FILE);
  CHECK(strstr(feast_error_message(), bad) != NULL);
  feast_error_clear();
  FeastVtkField three = fields[0];
  three.ncomp = 3;
  CHECK(feast_vtk_write("/tmp/x", LEVEL, nlocal, ids, xy, 1, &three, MPI_COMM_WORLD) == FEAST_ERR_ARG);
  CHECK(strstr(feast_error_message(), "3 components") != NULL);
  feast_error_clear();
  FeastVtkField quote = fields[0];
  quote.name = "a\"b";
  CHECK_FAILS(feast_vtk_write("/tmp/x", LEVEL, nlocal, ids, xy, 1, &quote, MPI_COMM_WORLD));
  if (nranks > 1) { /* only the last rank fails: every rank must report the failure */
    char base[512];
    snprintf(base, sizeof base, "%s/field_again", out_dir);
    const char *mine = rank == nranks - 1 ? bad : base;
    CHECK_FAILS(feast_vtk_write(mine, LEVEL, nlocal, ids, xy, 2, fields, MPI_COMM_WORLD));
    if (rank == 0) {
      snprintf(base, sizeof base, "%s/field_again_r0.vtu", out_dir), remove(base);
      snprintf(base, sizeof base, "%s/field_again.pvtu", out_dir), remove(base);
    }
    for (int r = 1; r < nranks - 1; r++) /* the other ranks' pieces, removed by their owners */
      if (rank == r) snprintf(base, sizeof base, "%s/field_again_r%d.vtu", out_dir, r), remove(base);
  }
}

/* the files of base; last: then the directory too */
static void remove_outputs(const char *base, int rank, int last) {
  char path[600];
  snprintf(path, sizeof path, "%s_r%d.vtu", base, rank);
  remove(path);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank) return;
  snprintf(path, sizeof path, "%s.pvtu", base);
  remove(path);
  if (last) CHECK(rmdir(out_dir) == 0);
}

enum { HEX_LEVEL = 1, HN = 3, HEX_MACROS = 4 };

static void hex_data(int m, double *xyz, double *f, double *vel) {
  for (int k = 0; k < HN; k++)
    for (int j = 0; j < HN; j++)
      for (int i = 0; i < HN; i++) {
        const int q = (k * HN + j) * HN + i;
        const double x = m + (double)i / (HN - 1), y = (double)j / (HN - 1), z = (double)k / (HN - 1);
        xyz[3 * q] = x, xyz[3 * q + 1] = y, xyz[3 * q + 2] = z;
        f[q] = x + 2 * y + 3 * z;
        vel[3 * q] = y, vel[3 * q + 1] = -x, vel[3 * q + 2] = z;
      }
}

/* the hexahedral piece of this rank: header, the field's values, the first cell's corners
 * and its type */
static void check_hex_piece(const char *base, int rank, int nlocal, const int *ids) {
  char path[600], want[128];
  snprintf(path, sizeof path, "%s_r%d.vtu", base, rank);
  long size = 0;
  char *s = read_file(path, &size);
  CHECK(s != NULL && size > 0);
  if (!s) return;
  snprintf(want, sizeof want, "NumberOfPoints=\"%d\" NumberOfCells=\"%d\"", nlocal * HN * HN * HN,
           nlocal * (HN - 1) * (HN - 1) * (HN - 1));
  CHECK(strstr(s, want) != NULL);
  CHECK(strstr(s, "Name=\"vel\" NumberOfComponents=\"3\"") != NULL);
  char *data = strstr(s, "<AppendedData encoding=\"raw\">\n_");
  if (data && nlocal > 0) {
    data += strlen("<AppendedData encoding=\"raw\">\n_");
    double fv[HN * HN * HN], xyz[3 * HN * HN * HN], f[HN * HN * HN], vel[3 * HN * HN * HN];
    memcpy(fv, data + 8, sizeof fv);
    hex_data(ids[0], xyz, f, vel);
    int same = 1;
    for (int q = 0; q < HN * HN * HN; q++) same &= fv[q] == f[q];
    CHECK(same);
  }
  free(s);
}

static void check_hex(int rank, int nranks, int keep) {
  int owner[HEX_MACROS], nlocal = 0, *ids = NULL;
  CHECK_OK(feast_partition_contiguous(HEX_MACROS, nranks, owner));
  CHECK_OK(feast_partition_local(owner, HEX_MACROS, rank, &nlocal, &ids));
  double xyz[HEX_MACROS][3 * HN * HN * HN], f[HEX_MACROS][HN * HN * HN], vel[HEX_MACROS][3 * HN * HN * HN];
  const double *xp[HEX_MACROS], *fp[HEX_MACROS], *vp[HEX_MACROS];
  for (int k = 0; k < nlocal; k++) {
    hex_data(ids[k], xyz[k], f[k], vel[k]);
    xp[k] = xyz[k], fp[k] = f[k], vp[k] = vel[k];
  }
  FeastVtkField fields[2] = {{"f", 1, fp}, {"vel", 3, vp}};
  char base[512];
  snprintf(base, sizeof base, "%s/hexfield", out_dir);
  CHECK_OK(feast_vtk_write_hex(base, HEX_LEVEL, nlocal, ids, xp, 2, fields, MPI_COMM_WORLD));
  MPI_Barrier(MPI_COMM_WORLD);
  check_hex_piece(base, rank, nlocal, ids);
  FeastVtkField two = fields[1];
  two.ncomp = 2; /* a 2D vector on hexahedra */
  CHECK(feast_vtk_write_hex("/tmp/x", HEX_LEVEL, nlocal, ids, xp, 1, &two, MPI_COMM_WORLD) == FEAST_ERR_ARG);
  CHECK(strstr(feast_error_message(), "2 components (1 or 3 supported)") != NULL);
  feast_error_clear();
  if (!keep) remove_outputs(base, rank, 0);
  feast_free(&ids);
}

static int run(void) {
  int rank = feast_test_rank(), nranks = feast_test_size(), keep = out_dir != NULL;
  static char tmp[64];
  if (!keep) {
    strcpy(tmp, "/tmp/feast_vtk_test_XXXXXX");
    if (rank == 0 && !mkdtemp(tmp)) tmp[0] = 0;
    MPI_Bcast(tmp, sizeof tmp, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (!tmp[0]) return 1;
    out_dir = tmp;
  }
  int owner[NMACROS], nlocal = 0, *ids = NULL;
  CHECK_OK(feast_partition_contiguous(NMACROS, nranks, owner));
  CHECK_OK(feast_partition_local(owner, NMACROS, rank, &nlocal, &ids));
  double xy[NMACROS][2 * N * N], f[NMACROS][N * N], vel[NMACROS][2 * N * N];
  const double *xyp[NMACROS], *fp[NMACROS], *velp[NMACROS];
  for (int k = 0; k < nlocal; k++) {
    macro_data(ids[k], xy[k], f[k], vel[k]);
    xyp[k] = xy[k], fp[k] = f[k], velp[k] = vel[k];
  }
  FeastVtkField fields[2] = {{"f", 1, fp}, {"vel", 2, velp}};
  char base[512];
  snprintf(base, sizeof base, "%s/field", out_dir);
  CHECK_OK(feast_vtk_write(base, LEVEL, nlocal, ids, xyp, 2, fields, MPI_COMM_WORLD));
  MPI_Barrier(MPI_COMM_WORLD);
  check_piece(base, rank, nlocal, ids);
  if (rank == 0) check_pvtu(base, nranks);
  check_errors(nlocal, ids, xyp, fields, rank, nranks);
  check_hex(rank, nranks, keep);
  if (!keep) remove_outputs(base, rank, 1);
  feast_free(&ids);
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 1) out_dir = argv[1];
  return feast_test_main(argc, argv, run, __FILE__);
}

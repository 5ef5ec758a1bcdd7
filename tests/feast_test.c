#include "feast_test.h"
#include "feast/base/error.h"
#include "feast/fem/transfer.h"
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int feast_test_failures = 0;
int feast_test_checks = 0;

int feast_test_rank(void) {
  int r = 0, init = 0;
  MPI_Initialized(&init);
  if (init) MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

double feast_test_random(unsigned *state) {
  *state = *state * 1103515245u + 12345u;
  return ((*state >> 8) & 0xffff) / 65535.0 - 0.5;
}

int feast_test_size(void) {
  int s = 1, init = 0;
  MPI_Initialized(&init);
  if (init) MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

int feast_test_oversubscribed(void) { return feast_test_size() > sysconf(_SC_NPROCESSORS_ONLN); }

long feast_test_read_file(const char *path, unsigned char **buf) {
  FILE *f = fopen(path, "rb");
  *buf = NULL;
  if (!f) return -1;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  *buf = malloc((size_t)n + 1);
  if (!*buf || fread(*buf, 1, (size_t)n, f) != (size_t)n) n = -1;
  fclose(f);
  return n;
}

/* Sum failures over ranks; rank 0 prints the closing line. 77 from run() means skip. */
int feast_test_main(int argc, char **argv, int (*run)(void), const char *name) {
  MPI_Init(&argc, &argv);
  int rc = run();
  int local[2] = {feast_test_failures + (rc != 0 && rc != 77), feast_test_checks}, global[2];
  MPI_Allreduce(local, global, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  int skip = rc == 77, anyskip;
  MPI_Allreduce(&skip, &anyskip, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  const char *base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
  if (feast_test_rank() == 0) {
    if (anyskip && global[0] == 0)
      printf("%s: skipped\n", base);
    else
      printf("%s: %d checks, %d failed (%d ranks)\n", base, global[1], global[0], feast_test_size());
  }
  MPI_Finalize();
  if (global[0]) return 1;
  return anyskip ? 77 : 0;
}

void feast_test_stencil(FeastBand9 *A, const unsigned char *fixed, double bx, double by, double k) {
  const int N = A->N;
  const double h = 1.0 / (N - 1);
  const int ux = bx > 0 ? -1 : 1, uy = by > 0 ? -1 : 1; /* upwind neighbours */
  for (int b = 0; b < FEAST_NBANDS; b++) memset(A->band[b], 0, sizeof(double) * (size_t)N * N);
  for (int j = 0; j < N; j++)
    for (int i = 0; i < N; i++) {
      const long idx = (long)j * N + i;
      if (fixed[idx]) {
        A->band[FEAST_BAND_DIAG][idx] = 1.0;
        continue;
      }
      for (int b = 0; b < FEAST_NBANDS; b++) {
        const int ci = i + b % 3 - 1, cj = j + b / 3 - 1;
        if (ci >= 0 && cj >= 0 && ci < N && cj < N) A->band[b][idx] = b == FEAST_BAND_DIAG ? 8.0 / 3.0 : -1.0 / 3.0;
      }
      /* h bx (u_i - u_upwind) + h by (...) + h^2 k u_i */
      A->band[FEAST_BAND_DIAG][idx] += (fabs(bx) + fabs(by)) * h + k * h * h;
      if (i + ux >= 0 && i + ux < N) A->band[feast_band_index(ux, 0)][idx] -= fabs(bx) * h;
      if (j + uy >= 0 && j + uy < N) A->band[feast_band_index(0, uy)][idx] -= fabs(by) * h;
    }
}

int feast_test_outer_hierarchy(const FeastBand9 *A, int L, double (*rnd)(void), FeastBand9 *G) {
  const long N = A->N, n = N * N;
  for (int l = 0; l <= L; l++) FEAST_CALL(feast_band9_create((1 << l) + 1, &G[l]));
  for (int k = 0; k < FEAST_NBANDS; k++) memcpy(G[L].band[k], A->band[k], sizeof(double) * (size_t)n);
  for (long j = 0; j < N; j++)
    for (long i = 0; i < N; i++)
      if (i < 3 || j < 3 || i >= N - 3 || j >= N - 3) G[L].band[FEAST_BAND_DIAG][j * N + i] += 1.0 + rnd();
  unsigned char *none;
  FEAST_CALL(FEAST_ALLOC(n, &none));
  int rc = 0;
  for (int l = L; l > 0 && !rc; l--)
    rc = feast_band9_galerkin(&(FeastBand9Framed){&G[l], {NULL}}, none, none, &G[l - 1]);
  free(none);
  return rc;
}

void feast_test_jittered_macro(int N, unsigned seed, double *xy) {
  const double c[4][2] = {{0, 0}, {2, 0.2}, {1.7, 1.5}, {0.3, 1.1}};
  for (int j = 0; j < N; j++)
    for (int i = 0; i < N; i++) {
      const double s = (double)i / (N - 1), t = (double)j / (N - 1);
      for (int d = 0; d < 2; d++) {
        double v = (1 - s) * (1 - t) * c[0][d] + s * (1 - t) * c[1][d] + s * t * c[2][d] + (1 - s) * t * c[3][d];
        seed = seed * 1103515245u + 12345u;
        const double r = ((seed >> 8) & 0xffff) / 65535.0 - 0.5;
        if (i > 0 && j > 0 && i < N - 1 && j < N - 1) v += 0.25 * r / (N - 1);
        xy[2 * (j * N + i) + d] = v;
      }
    }
}

const double feast_test_unit_cube[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},
                                           {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
const double feast_test_twisted_hex[8][3] = {{0, 0, 0},        {1.1, 0.1, 0.05}, {1.25, 1.2, -0.1},
                                             {-0.05, 0.9, 0.1}, {0.1, -0.1, 1.0}, {1.0, 0.05, 1.2},
                                             {1.15, 1.1, 0.95}, {0.05, 1.05, 1.1}};
const double feast_test_sheared_hex[8][3] = {{0, 0, 0},       {1.2, 0.1, 0},   {1.5, 0.9, 0.2}, {0.3, 0.8, 0.2},
                                             {0.1, 0.2, 0.7}, {1.3, 0.3, 0.7}, {1.6, 1.1, 0.9}, {0.4, 1.0, 0.9}};

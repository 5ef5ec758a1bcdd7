#include "feast/band9.h"
#include "feast/error.h"
#include <stdlib.h>
#include <string.h>

int feast_band9_create(int N, FeastBand9 *A) {
  memset(A, 0, sizeof *A);
  FEAST_CHECK(N >= 2, FEAST_ERR_ARG, "band matrix needs N >= 2, got %d", N);
  size_t n = (size_t)N * N;
  double *all;
  FEAST_CALL(FEAST_ALLOC(n * FEAST_NBANDS, &all));
  A->N = N;
  for (int k = 0; k < FEAST_NBANDS; k++) A->band[k] = all + k * n;
  return 0;
}

void feast_band9_destroy(FeastBand9 *A) {
  if (A->band[0]) free(A->band[0]);
  memset(A, 0, sizeof *A);
}

int feast_band9_copy(const FeastBand9 *src, FeastBand9 *dst) {
  FEAST_CALL(feast_band9_create(src->N, dst));
  memcpy(dst->band[0], src->band[0], sizeof(double) * FEAST_NBANDS * src->N * src->N);
  return 0;
}

int feast_grid_alloc(int N, double **x) {
  double *p;
  FEAST_CALL(FEAST_ALLOC((size_t)N * N + 2 * FEAST_PAD(N), &p));
  *x = p + FEAST_PAD(N);
  return 0;
}

void feast_grid_free(int N, double **x) {
  if (*x) free(*x - FEAST_PAD(N));
  *x = NULL;
}

int feast_grid_alloc_f(int N, float **x) {
  float *p;
  FEAST_CALL(FEAST_ALLOC((size_t)N * N + 2 * FEAST_PAD(N), &p));
  *x = p + FEAST_PAD(N);
  return 0;
}

void feast_grid_free_f(int N, float **x) {
  if (*x) free(*x - FEAST_PAD(N));
  *x = NULL;
}

/* y_i = sum_k band_k[i] * x[i + off_k]; out-of-macro couplings are zero and the padding
 * keeps every read in bounds */
void feast_band9_matvec(const FeastBand9 *A, const double *restrict x, double *restrict y) {
  const int N = A->N;
  const ptrdiff_t n = (ptrdiff_t)N * N;
  const double *restrict b0 = A->band[0], *restrict b1 = A->band[1], *restrict b2 = A->band[2];
  const double *restrict b3 = A->band[3], *restrict b4 = A->band[4], *restrict b5 = A->band[5];
  const double *restrict b6 = A->band[6], *restrict b7 = A->band[7], *restrict b8 = A->band[8];
  for (ptrdiff_t i = 0; i < n; i++)
    y[i] = b0[i] * x[i - N - 1] + b1[i] * x[i - N] + b2[i] * x[i - N + 1] + b3[i] * x[i - 1] +
           b4[i] * x[i] + b5[i] * x[i + 1] + b6[i] * x[i + N - 1] + b7[i] * x[i + N] +
           b8[i] * x[i + N + 1];
}

void feast_band9_defect(const FeastBand9 *A, const double *restrict b, const double *restrict x,
                        double *restrict d) {
  const int N = A->N;
  const ptrdiff_t n = (ptrdiff_t)N * N;
  const double *restrict b0 = A->band[0], *restrict b1 = A->band[1], *restrict b2 = A->band[2];
  const double *restrict b3 = A->band[3], *restrict b4 = A->band[4], *restrict b5 = A->band[5];
  const double *restrict b6 = A->band[6], *restrict b7 = A->band[7], *restrict b8 = A->band[8];
  for (ptrdiff_t i = 0; i < n; i++)
    d[i] = b[i] - (b0[i] * x[i - N - 1] + b1[i] * x[i - N] + b2[i] * x[i - N + 1] +
                   b3[i] * x[i - 1] + b4[i] * x[i] + b5[i] * x[i + 1] + b6[i] * x[i + N - 1] +
                   b7[i] * x[i + N] + b8[i] * x[i + N + 1]);
}

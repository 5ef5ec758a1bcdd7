/* Dense banded LU and inverse (the local multigrid's exact coarse solve): on random
 * 9-band matrices, with weak diagonals so that partial pivoting swaps rows, the inverse
 * times A is the identity and agrees with A^-1 e_j from the solve, column by column; a
 * matrix with an empty column is reported singular at that column. */
#include "feast/la/band9.h"
#include "feast/la/dense.h"
#include "feast/base/error.h"
#include "feast_test.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static unsigned rng = 12345u;
/* random couplings inside the grid; diagonal = weight times the off-diagonal sum plus
 * noise: weight 0 leaves pivots that partial pivoting must replace */
static void random_band9(FeastBand9 *A, double weight) {
  const int N = A->N;
  for (int j = 0; j < N; j++)
    for (int i = 0; i < N; i++) {
      double sum = 0.0;
      for (int k = 0; k < FEAST_NBANDS; k++) {
        const int ki = i + k % 3 - 1, kj = j + k / 3 - 1;
        const int inside = ki >= 0 && kj >= 0 && ki < N && kj < N && k != FEAST_BAND_DIAG;
        A->band[k][j * N + i] = inside ? feast_test_random(&rng) : 0.0;
        sum += fabs(A->band[k][j * N + i]);
      }
      A->band[FEAST_BAND_DIAG][j * N + i] = weight * sum + 0.1 * feast_test_random(&rng);
    }
}

static void check_inverse(int N, double weight) {
  const long n = (long)N * N;
  FeastBand9 A;
  CHECK_OK(feast_band9_create(N, &A));
  random_band9(&A, weight);
  double *a = malloc(sizeof(double) * n * n), *lu = malloc(sizeof(double) * n * n);
  double *inv = malloc(sizeof(double) * n * n), *col = malloc(sizeof(double) * n);
  long *piv = malloc(sizeof(long) * n);
  feast_band9_to_dense(&(FeastBand9Framed){&A, {NULL}}, a);
  memcpy(lu, a, sizeof(double) * n * n);
  CHECK(feast_dense_lu(n, N + 1, N + 1, lu, piv) == 0);
  long swaps = 0;
  for (long k = 0; k < n; k++) swaps += piv[k] != k;
  if (weight == 0.0) CHECK(swaps > 0);
  feast_dense_lu_inverse(n, N + 1, N + 1, lu, piv, inv);
  double dev_identity = 0.0, dev_solve = 0.0, scale = 0.0;
  for (long j = 0; j < n; j++) {
    for (long i = 0; i < n; i++) {
      double s = 0.0; /* (A inv)(i, j) */
      for (long k = 0; k < n; k++) s += a[i * n + k] * inv[j * n + k];
      dev_identity = fmax(dev_identity, fabs(s - (i == j)));
    }
    memset(col, 0, sizeof(double) * n);
    col[j] = 1.0;
    feast_dense_lu_solve(n, N + 1, N + 1, lu, piv, col);
    for (long i = 0; i < n; i++) {
      dev_solve = fmax(dev_solve, fabs(col[i] - inv[j * n + i]));
      scale = fmax(scale, fabs(col[i]));
    }
  }
  if (dev_identity > 1e-9 || dev_solve > 1e-12 * scale)
    fprintf(stderr, "N = %d, weight %g: |A inv - I| = %.3g, |inv - solve| = %.3g (scale %.3g)\n", N, weight,
            dev_identity, dev_solve, scale);
  CHECK(dev_identity <= 1e-9);
  CHECK(dev_solve <= 1e-12 * scale);
  free(a);
  free(lu);
  free(inv);
  free(col);
  free(piv);
  feast_band9_destroy(&A);
}

static void check_singular(void) {
  const int N = 5;
  const long n = (long)N * N;
  FeastBand9 A;
  CHECK_OK(feast_band9_create(N, &A));
  random_band9(&A, 2.0);
  for (int k = 0; k < FEAST_NBANDS; k++) A.band[k][7] = 0.0; /* row 7 empty: singular */
  double *lu = malloc(sizeof(double) * n * n);
  long *piv = malloc(sizeof(long) * n);
  feast_band9_to_dense(&(FeastBand9Framed){&A, {NULL}}, lu);
  CHECK(feast_dense_lu(n, N + 1, N + 1, lu, piv) > 0);
  free(lu);
  free(piv);
  feast_band9_destroy(&A);
}

static int run(void) {
  const int sizes[] = {2, 3, 5, 9, 17};
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    check_inverse(sizes[s], 1.5);
    check_inverse(sizes[s], 0.0);
  }
  check_singular();
  return 0;
}

FEAST_TEST_MAIN(run)

#include "feast/la/dense.h"
#include <math.h>
#include <string.h>

void feast_band9_to_dense(const FeastBand9Framed *A, double *a) {
  const long N = A->inside->N, n = N * N;
  const FeastStencil *s = FEAST_BAND9_STENCIL;
  memset(a, 0, sizeof(double) * (size_t)(n * n));
  for (long j = 0; j < N; j++)
    for (long i = 0; i < N; i++) {
      const long row = j * N + i, p[FEAST_STENCIL_MAX_DIM] = {i, j, 0};
      for (int k = 0; k < s->nbands; k++) {
        long c[FEAST_STENCIL_MAX_DIM];
        if (feast_stencil_neighbour(s, k, N, p, c)) a[row * n + c[1] * N + c[0]] = feast_band9_framed_at(A, k, i, j);
      }
    }
}

void feast_band_to_dense(const FeastBand *A, double *a) {
  const FeastStencil *s = A->stencil;
  const long N = A->N, n = feast_band_rows(A);
  memset(a, 0, sizeof(double) * (size_t)(n * n));
  for (long row = 0; row < n; row++) {
    long p[FEAST_STENCIL_MAX_DIM], c[FEAST_STENCIL_MAX_DIM];
    feast_stencil_point(s, N, row, p);
    for (int k = 0; k < s->nbands; k++)
      if (feast_stencil_neighbour(s, k, N, p, c)) a[row * n + row + feast_stencil_offset(s, k, N)] = A->band[k][row];
  }
}

static long min_l(long a, long b) { return a < b ? a : b; }

/* row of the largest |a(i, k)|, i = k..iend */
static long pivot_row(long n, const double *a, long k, long iend) {
  long p = k;
  for (long i = k + 1; i <= iend; i++)
    if (fabs(a[i * n + k]) > fabs(a[p * n + k])) p = i;
  return p;
}

/* rows r1 and r2 of a exchanged in columns j0..j1 */
static void swap_rows(long n, double *a, long r1, long r2, long j0, long j1) {
  for (long j = j0; j <= j1; j++) {
    const double t = a[r1 * n + j];
    a[r1 * n + j] = a[r2 * n + j];
    a[r2 * n + j] = t;
  }
}

int feast_dense_lu(long n, long kl, long ku, double *a, long *piv) {
  for (long k = 0; k < n; k++) {
    const long iend = min_l(n - 1, k + kl), jend = min_l(n - 1, k + kl + ku);
    const long p = pivot_row(n, a, k, iend);
    piv[k] = p;
    if (!(fabs(a[p * n + k]) > 0) || !isfinite(a[p * n + k])) return (int)(k + 1);
    if (p != k) swap_rows(n, a, k, p, k, jend);
    /* l(i,k) = a(i,k) / u(k,k); row i -= l(i,k) row k */
    for (long i = k + 1; i <= iend; i++) {
      const double l = a[i * n + k] / a[k * n + k];
      a[i * n + k] = l;
      if (l != 0.0)
        for (long j = k + 1; j <= jend; j++) a[i * n + j] -= l * a[k * n + j];
    }
  }
  return 0;
}

void feast_dense_lu_solve(long n, long kl, long ku, const double *lu, const long *piv, double *x) {
  /* x <- L^-1 P x, interchange by interchange */
  for (long k = 0; k < n; k++) {
    const double t = x[piv[k]];
    x[piv[k]] = x[k];
    x[k] = t;
    if (t != 0.0)
      for (long i = k + 1; i <= min_l(n - 1, k + kl); i++) x[i] -= lu[i * n + k] * t;
  }
  /* x <- U^-1 x */
  for (long k = n - 1; k >= 0; k--) {
    double s = x[k];
    for (long j = k + 1; j <= min_l(n - 1, k + kl + ku); j++) s -= lu[k * n + j] * x[j];
    x[k] = s / lu[k * n + k];
  }
}

/* row a <- row a - f row b, rows of length n */
static void row_axpy(long n, double f, const double *restrict b, double *restrict a) {
  for (long j = 0; j < n; j++) a[j] -= f * b[j];
}

static void transpose_square(long n, double *a) {
  for (long i = 0; i < n; i++)
    for (long j = i + 1; j < n; j++) {
      const double t = a[i * n + j];
      a[i * n + j] = a[j * n + i];
      a[j * n + i] = t;
    }
}

/* X = A^-1 from P A = L U, the steps of feast_dense_lu_solve applied to all columns of
 * the identity at once: each step is an operation on whole rows of X (length n, which
 * vectorises) instead of n scalar ones; then transposed into column-major order */
void feast_dense_lu_inverse(long n, long kl, long ku, const double *lu, const long *piv, double *inv) {
  double *x = inv;
  memset(x, 0, sizeof(double) * (size_t)(n * n));
  for (long i = 0; i < n; i++) x[i * n + i] = 1.0;
  for (long k = 0; k < n; k++) {
    if (piv[k] != k) swap_rows(n, x, k, piv[k], 0, n - 1);
    for (long i = k + 1; i <= min_l(n - 1, k + kl); i++)
      if (lu[i * n + k] != 0.0) row_axpy(n, lu[i * n + k], x + k * n, x + i * n);
  }
  for (long k = n - 1; k >= 0; k--) {
    double *xk = x + k * n;
    for (long j = k + 1; j <= min_l(n - 1, k + kl + ku); j++)
      if (lu[k * n + j] != 0.0) row_axpy(n, lu[k * n + j], x + j * n, xk);
    const double d = lu[k * n + k];
    for (long j = 0; j < n; j++) xk[j] /= d;
  }
  transpose_square(n, x);
}

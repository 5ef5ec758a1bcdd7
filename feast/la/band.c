#include "feast/la/band.h"
#include "feast/base/error.h"
#include "feast/la/band9.h"
#include <stdlib.h>
#include <string.h>

long feast_band_grid_rows(const FeastStencil *s, int N) {
  long n = 1;
  for (int d = 0; d < s->dim; d++) n *= N;
  return n;
}

int feast_band_create(const FeastStencil *s, int N, FeastBand *A) {
  memset(A, 0, sizeof *A);
  FEAST_CHECK(s != NULL && N >= 2, FEAST_ERR_ARG, "band matrix: needs a stencil and N >= 2 (got N = %d)", N);
  char *arrays[FEAST_STENCIL_MAX_BANDS];
  void *block;
  FEAST_CALL(feast_alloc_coloured(s->nbands, (size_t)feast_band_grid_rows(s, N), sizeof(double), 0, 0, arrays,
                                  &block)); /* band 0 starts the block (colour 0, lead 0) */
  A->stencil = s, A->N = N;
  for (int k = 0; k < s->nbands; k++) A->band[k] = (double *)(void *)arrays[k];
  return 0;
}

void feast_band_destroy(FeastBand *A) {
  if (A->stencil) feast_free_coloured(A->band[0]);
  memset(A, 0, sizeof *A);
}

void feast_band_copy(const FeastBand *src, FeastBand *dst) {
  for (int k = 0; k < src->stencil->nbands; k++)
    memcpy(dst->band[k], src->band[k], sizeof(double) * (size_t)feast_band_rows(src));
}

void feast_band_zero(FeastBand *A) {
  for (int k = 0; k < A->stencil->nbands; k++) memset(A->band[k], 0, sizeof(double) * (size_t)feast_band_rows(A));
}

void feast_band_apply(const FeastBand *A, const double *x, double *y) {
  feast_band_matvec(A->stencil, A->N, (const double *const *)A->band, x, y);
}

void feast_band_fix_rows(FeastBand *A, const unsigned char *fixed) {
  const long n = feast_band_rows(A);
  for (long r = 0; r < n; r++) {
    if (!fixed[r]) continue;
    for (int k = 0; k < A->stencil->nbands; k++) A->band[k][r] = 0.0;
    A->band[A->stencil->centre][r] = 1.0;
  }
}

void feast_band_eliminate_fixed(FeastBand *A, const unsigned char *fixed, const double *x, double *b) {
  const FeastStencil *s = A->stencil;
  const long N = A->N, n = feast_band_rows(A);
  for (long r = 0; r < n; r++) {
    if (fixed[r]) continue;
    long p[FEAST_STENCIL_MAX_DIM], q[FEAST_STENCIL_MAX_DIM];
    feast_stencil_point(s, N, r, p);
    for (int k = 0; k < s->nbands; k++) {
      const long c = r + feast_stencil_offset(s, k, N);
      if (!feast_stencil_neighbour(s, k, N, p, q) || !fixed[c]) continue;
      b[r] -= A->band[k][r] * x[c];
      A->band[k][r] = 0.0;
    }
  }
  feast_band_fix_rows(A, fixed);
  for (long r = 0; r < n; r++)
    if (fixed[r]) b[r] = x[r];
}

int feast_band_vec_alloc(const FeastBand *A, double **x) {
  const long pad = feast_stencil_pad(A->stencil, A->N);
  double *p;
  FEAST_CALL(FEAST_ALLOC(feast_band_rows(A) + 2 * pad, &p));
  *x = p + pad;
  return 0;
}

void feast_band_vec_free(const FeastBand *A, double **x) {
  if (*x) free(*x - feast_stencil_pad(A->stencil, A->N));
  *x = NULL;
}

int feast_band_make_consistent(const FeastDomain *dom, int level, FeastBand *A) {
  const FeastLevel *lev = &dom->levels[level];
  const int nl = dom->nlocal, nb = nl ? A[0].stencil->nbands : 1;
  double **diag, **bands;
  FEAST_CALL(FEAST_ALLOC(nl + 1, &diag));
  int st = FEAST_ALLOC((size_t)nl * nb + 1, &bands);
  for (int li = 0; li < nl && !st; li++) {
    diag[li] = A[li].band[A[li].stencil->centre];
    for (int k = 0; k < nb; k++) bands[li * nb + k] = A[li].band[k];
  }
  if (!st) st = feast_exchange_sum(lev->nodes, diag);
  if (!st) st = feast_exchange_sum(lev->links, bands);
  free(diag), free(bands);
  return st;
}

/* 1 if node r lies on the boundary of the grid */
static int on_boundary(const FeastStencil *s, int N, long r) {
  long p[FEAST_STENCIL_MAX_DIM];
  feast_stencil_point(s, N, r, p);
  int on = 0;
  for (int d = 0; d < s->dim; d++) on |= p[d] == 0 || p[d] == N - 1;
  return on;
}

int feast_band_ring_create(const FeastStencil *s, int N, const unsigned char *skip, FeastBandRing *R) {
  memset(R, 0, sizeof *R);
  R->stencil = s, R->N = N;
  const long n = feast_band_grid_rows(s, N);
  for (long r = 0; r < n; r++) R->n += on_boundary(s, N, r) && !(skip && skip[r]);
  FEAST_CALL(FEAST_ALLOC(R->n + 1, &R->row));
  double *all;
  FEAST_CALL(FEAST_ALLOC((size_t)s->nbands * R->n + 1, &all));
  for (int k = 0; k < s->nbands; k++) R->band[k] = all + (size_t)k * R->n;
  for (long r = 0, i = 0; r < n; r++)
    if (on_boundary(s, N, r) && !(skip && skip[r])) R->row[i++] = r;
  return 0;
}

void feast_band_ring_destroy(FeastBandRing *R) {
  free(R->row);
  free(R->band[0]);
  memset(R, 0, sizeof *R);
}

void feast_band_ring_get(const FeastBand *A, FeastBandRing *R) {
  for (int k = 0; k < R->stencil->nbands; k++)
    for (long i = 0; i < R->n; i++) R->band[k][i] = A->band[k][R->row[i]];
}

void feast_band_ring_apply(const FeastBandRing *R, const double *x, double *y) {
  const FeastStencil *s = R->stencil;
  long off[FEAST_STENCIL_MAX_BANDS];
  for (int k = 0; k < s->nbands; k++) off[k] = feast_stencil_offset(s, k, R->N);
  for (long i = 0; i < R->n; i++) {
    const long r = R->row[i];
    double v = 0.0;
    for (int k = 0; k < s->nbands; k++) v += R->band[k][i] * x[r + off[k]];
    y[r] = v;
  }
}

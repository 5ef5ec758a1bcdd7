#include "solvers/band_cg.h"
#include "feast/base/error.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static double dot(long n, const double *a, const double *b) {
  double s = 0.0;
  for (long i = 0; i < n; i++) s += a[i] * b[i];
  return s;
}

/* z <- D^-1 r */
static int jacobi(const FeastBand *A, const double *r, double *z) {
  const double *diag = A->band[A->stencil->centre];
  for (long i = 0; i < feast_band_rows(A); i++) z[i] = r[i] / diag[i];
  return 0;
}

typedef struct {
  double *r, *z, *d, *q;
} Work;

static void work_free(const FeastBand *A, Work *w) {
  feast_band_vec_free(A, &w->r), feast_band_vec_free(A, &w->z);
  feast_band_vec_free(A, &w->d), feast_band_vec_free(A, &w->q);
}

static int precondition(const FeastBand *A, FeastBandPrecond M, void *ctx, const double *r, double *z) {
  return M ? M(ctx, r, z) : jacobi(A, r, z);
}

static int iterate(const FeastBand *A, const unsigned char *fixed, const double *b, double *x, double rtol, int maxit,
                   FeastBandPrecond M, void *ctx, Work *w, FeastBandCGStats *st) {
  const long n = feast_band_rows(A);
  feast_band_apply(A, x, w->q);
  for (long i = 0; i < n; i++) w->r[i] = fixed && fixed[i] ? 0.0 : b[i] - w->q[i];
  FEAST_CALL(precondition(A, M, ctx, w->r, w->z));
  memcpy(w->d, w->z, sizeof(double) * (size_t)n);
  double rz = dot(n, w->r, w->z), rr = dot(n, w->r, w->r);
  const double r0 = sqrt(rr);
  st->iterations = 0;
  st->relres = r0 > 0 ? 1.0 : 0.0;
  while (sqrt(rr) > rtol * r0) {
    FEAST_CHECK(st->iterations < maxit, FEAST_ERR_NOT_CONVERGED,
                "CG on a banded matrix: residual %.3e of the initial after %d iterations (rtol %.1e)", st->relres,
                maxit, rtol);
    feast_band_apply(A, w->d, w->q);
    for (long i = 0; fixed && i < n; i++)
      if (fixed[i]) w->q[i] = 0.0;
    const double dq = dot(n, w->d, w->q);
    FEAST_CHECK(rz > 0 && dq > 0 && isfinite(rz) && isfinite(dq), FEAST_ERR_SOLVER,
                "CG on a banded matrix: breakdown in iteration %d (r^T z = %g, d^T A d = %g: the matrix or the "
                "preconditioner is not symmetric positive definite)",
                st->iterations + 1, rz, dq);
    const double alpha = rz / dq;
    for (long i = 0; i < n; i++) x[i] += alpha * w->d[i], w->r[i] -= alpha * w->q[i];
    FEAST_CALL(precondition(A, M, ctx, w->r, w->z));
    const double rz1 = dot(n, w->r, w->z), beta = rz1 / rz;
    for (long i = 0; i < n; i++) w->d[i] = w->z[i] + beta * w->d[i];
    rz = rz1;
    rr = dot(n, w->r, w->r);
    st->iterations++;
    st->relres = sqrt(rr) / r0;
  }
  return 0;
}

int feast_band_cg(const FeastBand *A, const unsigned char *fixed, const double *b, double *x, double rtol,
                  int max_iterations, FeastBandPrecond M, void *ctx, FeastBandCGStats *stats) {
  FEAST_CHECK(A && b && x && stats && rtol > 0 && max_iterations >= 0, FEAST_ERR_ARG, "feast_band_cg: bad arguments");
  Work w = {NULL, NULL, NULL, NULL};
  int rc = feast_band_vec_alloc(A, &w.r);
  if (!rc) rc = feast_band_vec_alloc(A, &w.z);
  if (!rc) rc = feast_band_vec_alloc(A, &w.d);
  if (!rc) rc = feast_band_vec_alloc(A, &w.q);
  if (!rc) rc = iterate(A, fixed, b, x, rtol, max_iterations, M, ctx, &w, stats);
  work_free(A, &w);
  return rc;
}

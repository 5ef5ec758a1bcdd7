/* Preconditioned CG on one macro's banded matrix (feast/la/band.h), serial: the solve of
 * the single-macro hexahedral problems (tests, bench_poisson3d) until the distributed
 * Krylov methods (krylov.h) run on hexahedral domains (issue #47). A symmetric positive
 * definite A on the free nodes; fixed nodes (Dirichlet, identity rows of A with b = x
 * there: feast_band_eliminate_fixed) keep x's values. */
#ifndef FEAST_BAND_CG_H
#define FEAST_BAND_CG_H
#include "feast/la/band.h"

/* z <- M^-1 r (padded vectors of A's grid; r's fixed entries are 0); nonzero: an error */
typedef int (*FeastBandPrecond)(void *ctx, const double *r, double *z);

typedef struct {
  int iterations;
  double relres; /* ||b - A x|| / ||b - A x_0|| of the recurrence, at the end */
} FeastBandCGStats;

/* x <- the solution of A x = b (x: the initial guess, padded; b: N^dim values) to
 * ||r|| <= rtol ||r_0||; M = NULL: Jacobi (the diagonal of A). FEAST_ERR_NOT_CONVERGED
 * after max_iterations, FEAST_ERR_SOLVER on a breakdown (r^T z or d^T A d not positive
 * finite). */
int feast_band_cg(const FeastBand *A, const unsigned char *fixed, const double *b, double *x, double rtol,
                  int max_iterations, FeastBandPrecond M, void *ctx, FeastBandCGStats *stats);
#endif

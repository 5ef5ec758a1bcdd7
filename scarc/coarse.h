/* Global coarse grid solver: the partial matrices of the coarse level are gathered on
 * rank 0 and factored once by UMFPACK (64-bit interface); each solve gathers the
 * right-hand side, solves on rank 0 and broadcasts the solution. */
#ifndef FEAST_SCARC_COARSE_H
#define FEAST_SCARC_COARSE_H
#include "feast/band9.h"
#include "feast/domain.h"

typedef struct ScarcCoarse ScarcCoarse;
int scarc_coarse_create(const FeastDomain *dom, int level, const FeastBand9 *A, ScarcCoarse **c);
/* x <- A^{-1} b (b, x: per local macro arrays of the coarse level, consistent) */
int scarc_coarse_solve(ScarcCoarse *c, double *const *b, double *const *x);
void scarc_coarse_destroy(ScarcCoarse **c);
#endif

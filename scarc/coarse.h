/* Global coarse grid solver: the partial matrices of the coarse level are gathered on
 * rank 0 (every coupling of the band structure, so the pattern never depends on the
 * values) and factored by UMFPACK (64-bit interface): gathered pattern and symbolic
 * analysis once; a refresh gathers values only (no sort, nothing allocated on our
 * side; UMFPACK allocates its numeric object) and refactors; each solve gathers the right-hand
 * side, solves on rank 0 and broadcasts the solution. */
#ifndef FEAST_SCARC_COARSE_H
#define FEAST_SCARC_COARSE_H
#include "feast/band9.h"
#include "feast/domain.h"

typedef struct ScarcCoarse ScarcCoarse;
int scarc_coarse_create(const FeastDomain *dom, int level, const FeastBand9 *A, ScarcCoarse **c);
/* new values of the same matrices: values gather and numeric factorisation only */
int scarc_coarse_refresh(ScarcCoarse *c, const FeastBand9 *A);
/* x <- A^{-1} b (b, x: per local macro arrays of the coarse level, consistent) */
int scarc_coarse_solve(ScarcCoarse *c, double *const *b, double *const *x);
void scarc_coarse_destroy(ScarcCoarse **c);
#endif

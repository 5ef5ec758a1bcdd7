/* Global coarse grid solver: the partial matrices of the coarse level are gathered on
 * rank 0 (every coupling of the band structure, so the pattern never depends on the
 * values) and factored there by KLU or UMFPACK (SuiteSparse, 64-bit interfaces, chosen by
 * solver.coarse_solver): gathered pattern and symbolic analysis (fill-reducing ordering)
 * once; a refresh gathers values only (no sort, nothing allocated on our side) and
 * refactors (KLU: in place, with the pivot order of the first factorisation while it
 * stays accurate; UMFPACK: a new numeric object); each solve gathers the right-hand
 * side, solves on rank 0 and broadcasts the solution. */
#ifndef FEAST_SCARC_COARSE_H
#define FEAST_SCARC_COARSE_H
#include "feast/band9.h"
#include "feast/domain.h"
#include "scarc/scarc.h" /* ScarcCoarseSolver */

typedef struct ScarcCoarse ScarcCoarse;
int scarc_coarse_create(const FeastDomain *dom, int level, const FeastBand9 *A, ScarcCoarseSolver method,
                        ScarcCoarse **c);
/* new values of the same matrices: values gather and numeric factorisation only */
int scarc_coarse_refresh(ScarcCoarse *c, const FeastBand9 *A);
/* x <- A^{-1} b (b, x: per local macro arrays of the coarse level, consistent) */
int scarc_coarse_solve(ScarcCoarse *c, double *const *b, double *const *x);
/* x[k] <- A^{-1} b[k], k < nrhs <= SCARC_MAX_RHS: the same results as nrhs solves,
 * bitwise, in one (KLU: the factors read once for all) */
int scarc_coarse_solve_many(ScarcCoarse *c, int nrhs, double *const *const *b, double *const *const *x);
void scarc_coarse_destroy(ScarcCoarse **c);
#endif

/* Sparse direct solves of a distributed banded matrix (ScaRC's global coarse grid): the
 * partial matrices of one level are gathered on rank 0 (every coupling of the band structure, so the pattern never depends on the
 * values) and factored there by KLU or UMFPACK (SuiteSparse, 64-bit interfaces, chosen by
 * solver.coarse_solver for ScaRC): gathered pattern and symbolic analysis (fill-reducing ordering)
 * once; a refresh gathers values only (no sort, nothing allocated on our side) and
 * refactors (KLU: in place, with the pivot order of the first factorisation while it
 * stays accurate; UMFPACK: a new numeric object); each solve gathers the right-hand
 * side, solves on rank 0 and broadcasts the solution. */
#ifndef FEAST_DIRECT_H
#define FEAST_DIRECT_H
#include "feast/la/band9.h"
#include "feast/parallel/domain.h"

typedef enum { FEAST_DIRECT_KLU, FEAST_DIRECT_UMFPACK, FEAST_DIRECT_NCHOICES } FeastDirectSolver; /* klu|umfpack */
/* "klu", "umfpack"; "?" outside the enum */
const char *feast_direct_solver_name(FeastDirectSolver s);
/* the right-hand sides one feast_direct_solve_many takes at most */
enum { FEAST_DIRECT_MAX_RHS = 2 };

typedef struct FeastDirect FeastDirect;
int feast_direct_create(const FeastDomain *dom, int level, const FeastBand9 *A, FeastDirectSolver method,
                        FeastDirect **c);
/* new values of the same matrices: values gather and numeric factorisation only */
int feast_direct_refresh(FeastDirect *c, const FeastBand9 *A);
/* x <- A^{-1} b (b, x: per local macro arrays of the coarse level, consistent) */
int feast_direct_solve(FeastDirect *c, double *const *b, double *const *x);
/* x[k] <- A^{-1} b[k], k < nrhs <= FEAST_DIRECT_MAX_RHS: the same results as nrhs solves,
 * bitwise, in one (KLU: the factors read once for all) */
int feast_direct_solve_many(FeastDirect *c, int nrhs, double *const *const *b, double *const *const *x);
void feast_direct_destroy(FeastDirect **c);
#endif

/* Sparse direct solves of a distributed banded matrix (ScaRC's global coarse grid), or of
 * a system of such blocks (the whole linearised flow system, linear.preconditioner =
 * direct): the
 * partial matrices of one level are gathered on rank 0 (every coupling of the band structure, so the pattern never depends on the
 * values) and factored there by KLU or UMFPACK (SuiteSparse, 64-bit interfaces, chosen by
 * solver.coarse_solver for ScaRC): gathered pattern and symbolic analysis (fill-reducing ordering)
 * once; a refresh gathers values only (no sort, nothing allocated on our side) and
 * refactors (KLU: in place, with the pivot order of the first factorisation while it
 * stays accurate; UMFPACK: a new numeric object); each solve gathers the right-hand
 * side, solves on rank 0 and broadcasts the solution. */
#ifndef FEAST_DIRECT_H
#define FEAST_DIRECT_H
#include "feast/la/band.h"
#include "feast/la/band9.h"
#include "feast/parallel/domain.h"

typedef enum { FEAST_DIRECT_KLU, FEAST_DIRECT_UMFPACK, FEAST_DIRECT_NCHOICES } FeastDirectSolver; /* klu|umfpack */
/* "klu", "umfpack"; "?" outside the enum */
const char *feast_direct_solver_name(FeastDirectSolver s);
/* the right-hand sides one feast_direct_solve_many takes at most; the blocks per row and
 * column of a system (feast_direct_create_system) at most */
enum { FEAST_DIRECT_MAX_RHS = 2, FEAST_DIRECT_MAX_BLOCKS = 3 };

typedef struct FeastDirect FeastDirect;
int feast_direct_create(const FeastDomain *dom, int level, const FeastBand9 *A, FeastDirectSolver method,
                        FeastDirect **c);
/* new values of the same matrices: values gather and numeric factorisation only */
int feast_direct_refresh(FeastDirect *c, const FeastBand9 *A);
/* the same for the banded matrices of any stencil (the 27 bands of hexahedral macros) */
int feast_direct_create_band(const FeastDomain *dom, int level, const FeastBand *A, FeastDirectSolver method,
                             FeastDirect **c);
int feast_direct_refresh_band(FeastDirect *c, const FeastBand *A);
/* x <- A^{-1} b (b, x: per local macro arrays of the coarse level, consistent) */
int feast_direct_solve(FeastDirect *c, double *const *b, double *const *x);
/* x[k] <- A^{-1} b[k], k < nrhs <= FEAST_DIRECT_MAX_RHS: the same results as nrhs solves,
 * bitwise, in one (KLU: the factors read once for all) */
int feast_direct_solve_many(FeastDirect *c, int nrhs, double *const *const *b, double *const *const *x);
/* A block system: nb x nb blocks, A[r nb + b] the per-macro partial matrices of block row
 * r, column b (NULL: a zero block), each block over the level's nodes; its unknowns are
 * block by block (block r's node g is unknown r n_g + g). pin >= 0: that row replaced by
 * the identity's and its right-hand side by 0 (a system singular by a constant mode, e.g.
 * the pressure of an enclosed flow: the row is one the others imply; -1: none). The same
 * gathers, factorisations and messages as the scalar case, which is nb = 1. */
int feast_direct_create_system(const FeastDomain *dom, int level, int nb, const FeastBand9 *const *A,
                               FeastDirectSolver method, int64_t pin, FeastDirect **c);
/* new values of the same blocks (a zero block stays zero) */
int feast_direct_refresh_system(FeastDirect *c, const FeastBand9 *const *A);
/* x <- A^{-1} b, b[r] and x[r] the per-macro arrays of block r (consistent); not timed
 * (feast_direct_solve: the coarse grid's timer) */
int feast_direct_solve_system(FeastDirect *c, double *const *const *b, double *const *const *x);
void feast_direct_destroy(FeastDirect **c);
#endif

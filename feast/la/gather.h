/* The fully assembled global view of distributed data, in the global node numbering of
 * feast_mesh_gid (2D and hexahedral macros): matrices as merged coordinate triplets and vectors as arrays,
 * gathered on one rank (for the coarse grid solver and Matrix Market export). */
#ifndef FEAST_GATHER_H
#define FEAST_GATHER_H
#include "feast/la/band.h"
#include "feast/la/band9.h"
#include "feast/la/vector.h"
#include "feast/parallel/domain.h"
#include <stdint.h>

typedef struct {
  int64_t n, nnz;
  int64_t *row, *col; /* sorted by (row, col), duplicates summed */
  double *val;
} FeastTriplets;

/* one level's per-macro banded matrices as the gathers read them: band k of local macro
 * li at bands[li * stencil->nbands + k] (a table of pointers into the matrices, made
 * from FeastBand9 or FeastBand arrays; release with feast_level_matrix_free) */
typedef struct {
  const FeastStencil *stencil;
  const double *const *bands;
} FeastLevelMatrix;
int feast_level_matrix_band9(const FeastDomain *dom, const FeastBand9 *A, FeastLevelMatrix *M);
int feast_level_matrix_band(const FeastDomain *dom, const FeastBand *A, FeastLevelMatrix *M);
void feast_level_matrix_free(FeastLevelMatrix *M);

/* sum of the partial per-macro matrices A[li] of a level, on rank root (others get n, nnz = 0).
 * structural = 1 keeps every coupling of the band structure, zero or not, so that the
 * pattern does not depend on the values (a numeric refactorisation reuses its analysis);
 * structural = 0 drops zeros (export). */
int feast_gather_matrix(const FeastDomain *dom, int level, const FeastBand9 *A, int structural, int root,
                        FeastTriplets *t);
/* the same for banded matrices of any stencil (hexahedral macros) */
int feast_gather_matrix_band(const FeastDomain *dom, int level, const FeastBand *A, int structural, int root,
                             FeastTriplets *t);
void feast_triplets_free(FeastTriplets *t);
/* Repeated structural gathers of one level's matrices with new values (the coarse grid
 * solver's refresh). Create gathers like feast_gather_matrix(structural = 1) into t and
 * keeps the pattern: the order in which the entries arrive on root and the merged
 * coupling each one sums into. A values gather then moves 8 bytes per coupling (not
 * 32), needs no sort, allocates nothing, and gives root the values of t's couplings
 * summed in the same order, so the same bits as a fresh feast_gather_matrix. */
typedef struct FeastMatrixGather FeastMatrixGather;
int feast_matrix_gather_create(const FeastDomain *dom, int level, const FeastLevelMatrix *M, int root,
                               FeastTriplets *t, FeastMatrixGather **g);
/* val[k] <- value of coupling k of the create's triplets (root; t->nnz values) */
int feast_matrix_gather_values(FeastMatrixGather *g, const FeastLevelMatrix *M, double *val);
void feast_matrix_gather_destroy(FeastMatrixGather **g);
/* Repeated gathers and scatters of one level's vectors (the coarse grid solve): the
 * global ids worked out once. gather: consistent per-macro arrays v[li] -> out (length
 * nglobal) on root; scatter: global (length nglobal) on root -> every copy of every node
 * of v[li] on all ranks (global is overwritten by root's on the others). Collective. */
typedef struct FeastVecGather FeastVecGather;
int feast_vec_gather_create(const FeastDomain *dom, int level, int root, FeastVecGather **g);
int feast_vec_gather(FeastVecGather *g, double *const *v, double *out);
int feast_vec_scatter(const FeastVecGather *g, double *global, double *const *v);
void feast_vec_gather_destroy(FeastVecGather **g);
/* one gather as above (a plan made and freed): consistent per-macro arrays v[li] -> global
 * array g (length nglobal) on root */
int feast_gather_vector(const FeastDomain *dom, int level, double *const *v, int root, double *g);
/* one scatter: global array g on root -> every copy of every node of v[li] (all ranks) */
int feast_scatter_vector(const FeastDomain *dom, int level, double *g, int root, double *const *v);
/* the same for block b of a consistent vector x (on its domain and level): gather into g,
 * scatter from g */
int feast_vec_gather_block(const FeastVec *x, int b, int root, double *g);
int feast_vec_scatter_block(double *g, int root, FeastVec *x, int b);
#endif

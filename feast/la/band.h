/* A banded matrix of any stencil on one refined macro (feast/mesh/stencil.h): the
 * operator type of hexahedral macros (27 bands, feast_stencil_q1_3d), built beside the
 * 2D FeastBand9 (band9.h) that the 2D layers use; the two become one type when the
 * layers above take the stencil from the matrix (docs/architecture.md, "Where 3D plugs
 * in"). Rows are the N^dim nodes of the macro's grid, node (i, j, k) at index
 * (k N + j) N + i; band b couples a row to the node feast_stencil_offset(stencil, b, N)
 * further on, and is zero where that neighbour lies outside the grid. Vectors carry
 * feast_stencil_pad(stencil, N) zero values before and after their N^dim values
 * (feast_band_vec_alloc), so a row reads its neighbours without bounds checks. */
#ifndef FEAST_BAND_H
#define FEAST_BAND_H
#include "feast/mesh/stencil.h"
#include "feast/parallel/domain.h"

typedef struct {
  const FeastStencil *stencil;
  int N;                                 /* nodes per side */
  double *band[FEAST_STENCIL_MAX_BANDS]; /* stencil->nbands bands of N^dim values, one block */
} FeastBand;

/* nodes of the grid of N per side in dim dimensions: the rows of its matrices */
long feast_band_grid_rows(const FeastStencil *s, int N);
static inline long feast_band_rows(const FeastBand *A) { return feast_band_grid_rows(A->stencil, A->N); }
/* a zeroed matrix of the stencil on N >= 2 nodes per side: its bands on the colours of a
 * page in turn (feast_alloc_coloured) in one block */
int feast_band_create(const FeastStencil *s, int N, FeastBand *A);
void feast_band_destroy(FeastBand *A); /* A zeroed; a zeroed A: nothing */
void feast_band_copy(const FeastBand *src, FeastBand *dst); /* values; the same stencil and size */
void feast_band_zero(FeastBand *A);                         /* every value 0 */
/* y <- A x (padded vectors, x != y): feast_band_matvec, the written-out rows of the Q1
 * stencils */
void feast_band_apply(const FeastBand *A, const double *x, double *y);
/* the rows of the nodes with fixed[r] != 0 (Dirichlet nodes): zero but the diagonal, 1 */
void feast_band_fix_rows(FeastBand *A, const unsigned char *fixed);
/* Dirichlet values x at the fixed nodes eliminated from A x = b: b_r -= A_rq x_q and
 * A_rq = 0 for free rows r and fixed q, then the fixed rows identity rows with b = x
 * there. A symmetric A stays symmetric (the system CG sees); b unpadded is enough. */
void feast_band_eliminate_fixed(FeastBand *A, const unsigned char *fixed, const double *x, double *b);

/* The boundary rows of a matrix: the rows of the nodes on the grid's boundary (2D: its
 * edges, 3D: its faces), kept beside a matrix whose boundary rows are changed (ScaRC's
 * local matrices are the partial ones made consistent there). */
typedef struct {
  const FeastStencil *stencil;
  int N;
  long n;                                /* boundary rows */
  long *row;                             /* their node indices, ascending */
  double *band[FEAST_STENCIL_MAX_BANDS]; /* n values each */
} FeastBandRing;
/* zeroed; skip (or NULL): nodes left out (e.g. Dirichlet nodes, whose rows are zeroed
 * anyway) */
int feast_band_ring_create(const FeastStencil *s, int N, const unsigned char *skip, FeastBandRing *R);
void feast_band_ring_destroy(FeastBandRing *R);
void feast_band_ring_get(const FeastBand *A, FeastBandRing *R); /* R <- the boundary rows of A */
/* y[row] <- the ring's rows times x at the boundary rows only (x padded) */
void feast_band_ring_apply(const FeastBandRing *R, const double *x, double *y);

/* the partial matrices A[li] of a domain's level (each macro's own cells) made consistent
 * in place: at every coupling between two nodes that several macros hold (the diagonal of
 * a shared node, the couplings along shared edges and within shared faces) the sum over
 * those macros, so that A[li] is the global matrix restricted to macro li's nodes (the
 * local matrices of the Schwarz step). The sums run in ascending macro order: the same
 * bits on any number of ranks. */
int feast_band_make_consistent(const FeastDomain *dom, int level, FeastBand *A);

/* a zeroed padded vector for the grids of A's stencil and size: *x addresses value 0 */
int feast_band_vec_alloc(const FeastBand *A, double **x);
void feast_band_vec_free(const FeastBand *A, double **x); /* *x = NULL */
#endif

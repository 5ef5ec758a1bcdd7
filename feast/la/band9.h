/* 9-band matrices of one macro at one level, band-major (structure of arrays).
 * Band k couples node (i,j) to node (i+dx, j+dy), k = (dy+1)*3 + (dx+1), i.e. index
 * offset dy*N + dx: k = 0..8 <-> offsets {-N-1, -N, -N+1, -1, 0, 1, N-1, N, N+1}.
 * Entries whose neighbour lies outside the macro are zero. Grid vectors carry N+1
 * padding values (zero) before and after the N*N values, so a matvec row reads
 * x[idx + offset] without bounds checks on every row.
 * The stencil is data (feast/mesh/stencil.h): every FeastBand9 is an operator of the 2D
 * Q1 stencil, FEAST_BAND9_STENCIL, band k its band k; the loops that are not hot kernels
 * read the offsets from it, the row kernels are its 9-band specialisation
 * (feast_band9_row, BAND9_ROW in band9.c) and feast_band_matvec the generic loop of any
 * stencil. A 27-band operator is another descriptor (feast_stencil_q1_3d) and a type
 * with band[FEAST_STENCIL_MAX_BANDS] and a `const FeastStencil *stencil` where these
 * read FEAST_BAND9_STENCIL (docs/architecture.md, "Where 3D plugs in"); the name
 * FeastBand9 would then become a 2D alias of it. */
#ifndef FEAST_BAND9_H
#define FEAST_BAND9_H
#include "feast/mesh/macro_grid.h"
#include <stddef.h>

/* the stencil of every FeastBand9: FEAST_NBANDS bands, FEAST_BAND_DIAG its centre */
#define FEAST_BAND9_STENCIL (&feast_stencil_q1_2d)
#ifdef __cplusplus /* the CUDA sources and the emulator's tests include this too */
static_assert
#else
_Static_assert
#endif
    (FEAST_NBANDS == FEAST_STENCIL_BANDS(2) && FEAST_BAND_DIAG == FEAST_STENCIL_CENTRE(2),
     "FeastBand9 holds the bands of the 2D Q1 stencil");

typedef struct {
  int N;                      /* nodes per side, N = 2^L + 1 */
  double *band[FEAST_NBANDS]; /* each N*N values (one allocation, see feast_alloc_coloured) */
} FeastBand9;

/* count arrays of len elements of size bytes in one zeroed, page-aligned block: element
 * lead of array i lies at byte 256 (colour0 + i) modulo 4 KiB (the 16 colours of a page
 * in turn: past 16 arrays, as the 27 bands of a 3D operator, they come round again).
 * With N = 2^L + 1 plain back-to-back arrays of N*N values all start 8 bytes apart
 * modulo 4 KiB, so the 12+ streams of a band sweep compete for a few L1 sets and alias
 * in the load/store unit (measured: half the bandwidth at L = 8, bench/bench_band9).
 * colour0 < 16.
 * arrays[i] points at element 0 of array i; release *block with feast_free_coloured. */
int feast_alloc_coloured(int count, size_t len, size_t size, size_t lead, int colour0, char **arrays,
                         void **block);
/* groups x count arrays in one block (arrays[g * count + i]): every group's arrays on
 * colours colour0..colour0+count-1, as feast_alloc_coloured gives one group. One block
 * for the matrices of many macros: fewer, larger blocks, on huge pages (see band9.c). */
int feast_alloc_coloured_groups(int groups, int count, size_t len, size_t size, size_t lead, int colour0,
                                char **arrays, void **block);
void feast_free_coloured(void *block); /* NULL: nothing */

int feast_band9_create(int N, FeastBand9 *A); /* zeroed */
/* count zeroed matrices of size N in one block (each laid out as feast_band9_create
 * does); release them with feast_free_coloured(block), not feast_band9_destroy */
int feast_band9_create_batch(int count, int N, FeastBand9 *A, void **block);
void feast_band9_destroy(FeastBand9 *A);
int feast_band9_copy(const FeastBand9 *src, FeastBand9 *dst); /* dst created here */

/* padded grid vectors: the returned pointer addresses value 0; padding is zero */
int feast_grid_alloc(int N, double **x);
void feast_grid_free(int N, double **x);
int feast_grid_alloc_f(int N, float **x);
void feast_grid_free_f(int N, float **x);

/* y <- A x (x, y padded grid vectors, x != y) */
void feast_band9_matvec(const FeastBand9 *A, const double *x, double *y);
/* d <- b - A x */
void feast_band9_defect(const FeastBand9 *A, const double *b, const double *x, double *d);
/* y <- y + A x (x != y): block operators sum their blocks' products into one field */
/* y <- A x on part of the rows: interior = 0 the macro's boundary ring (the rows that
 * the interface exchange sums), 1 the others; the two parts together are exactly
 * feast_band9_matvec (the same arithmetic per row: bitwise the same result) */
void feast_band9_matvec_part(const FeastBand9 *A, const double *x, double *y, int interior);
void feast_band9_matvec_add(const FeastBand9 *A, const double *x, double *y);
/* rows of the fixed (Dirichlet) nodes: zero, with diagonal entry 1 where diag_one[i]
 * (diag_one = NULL: diagonal 0, a zero row, for the off-diagonal blocks of a system);
 * a partial operator passes the node ownership, so the interface sum is the identity row */
void feast_band9_fix_rows(FeastBand9 *A, const unsigned char *fixed, const unsigned char *diag_one);
/* A <- 0 (storage kept) */
void feast_band9_zero(FeastBand9 *A);
/* y <- A x for a banded matrix of any stencil s: N^dim rows, band[k] the N^dim values
 * of band k, x padded by feast_stencil_pad(s, N) on both sides, x != y. The generic
 * loop (k = 0 .. nbands-1 per row, the order of feast_band9_row); the 2D Q1 stencil is
 * sent to the 9-band kernel of feast_band9_matvec, the 3D one to the written-out 27-band
 * row (feast_band27_row): the same sums, faster (bench_band9, bench_band9 3d) */
void feast_band_matvec(const FeastStencil *s, int N, const double *const *band, const double *x, double *y);
/* the same in single precision (the 27-band rows written out, others the generic loop) */
void feast_band_matvec_f(const FeastStencil *s, int N, const float *const *band, const float *x, float *y);

/* The boundary ring of a 9-band matrix: the rows of the 4 (N - 1) nodes on the macro's
 * edges, band-major, numbered along the ring (row j = 0, row j = N-1, then columns
 * i = 0 and i = N-1 of the rows between). A partial operator and the consistent local
 * matrix of a macro differ only in these rows (interface sums, Dirichlet rows), so
 * ScaRC stores the partial operator as the consistent matrix plus its ring. */
typedef struct {
  int N;
  double *band[FEAST_NBANDS]; /* each feast_ring_rows(N) values */
} FeastBand9Ring;
static inline long feast_ring_rows(int N) { return 4L * (N - 1); }
int feast_band9_ring_create(int N, FeastBand9Ring *R); /* zeroed */
void feast_band9_ring_destroy(FeastBand9Ring *R);
void feast_band9_ring_get(const FeastBand9 *A, FeastBand9Ring *R); /* R <- ring rows of A */
void feast_band9_ring_put(const FeastBand9Ring *R, FeastBand9 *A); /* ring rows of A <- R */
/* feast_band9_fix_rows on the ring rows */
void feast_band9_ring_fix_rows(FeastBand9Ring *R, const unsigned char *fixed, const unsigned char *diag_one);
/* y <- R x on the ring rows only (the arithmetic of feast_band9_matvec per row: with
 * feast_band9_matvec_part(A, x, y, 1) on the interior rows, bitwise the product of the
 * matrix whose interior is A's and whose ring is R) */
void feast_band9_ring_matvec(const FeastBand9Ring *R, const double *x, double *y);
/* A 9-band matrix kept in two parts: its inside (rows and columns 2 .. N-3) is that of
 * another matrix of its size, `inside`, read in place; its frame (rows 0, 1, N-2, N-1
 * in full and columns 0, 1, N-2, N-1 of the rows between) is its own, band-major,
 * feast_frame_len(N) values per band. Matrices that differ only near the macro's edges
 * share one inside this way: the levels of ScaRC's local hierarchies are the global
 * levels' matrices but for their frames. frame[0] == NULL: no frame, `inside` is the
 * whole matrix (N >= 5 with a frame). */
typedef struct {
  const FeastBand9 *inside;
  double *frame[FEAST_NBANDS];
} FeastBand9Framed;

/* values per band of a frame: 2 full rows at the bottom and at the top, 4 per row between */
static inline long feast_frame_len(long N) { return 8 * N - 16; }
/* the frame slot of node (i, j), or -1 for an inside node. Order: rows 0 and 1, rows
 * N-2 and N-1, then columns 0, 1, N-2, N-1 of the rows between, each as one run down
 * the column (N - 4 values). */
static inline long feast_frame_slot(long N, long i, long j) {
  if (j < 2) return j * N + i;
  if (j >= N - 2) return (j - N + 4) * N + i;
  if (i < 2) return 4 * N + i * (N - 4) + j - 2;
  if (i >= N - 2) return 4 * N + (i - N + 4) * (N - 4) + j - 2;
  return -1;
}
/* the node index j N + i of frame slot f */
static inline long feast_frame_node(long N, long f) {
  if (f < 4 * N) return f < 2 * N ? f : f + (N - 4) * N;
  const long q = f - 4 * N, c = q / (N - 4);
  return (2 + q % (N - 4)) * N + (c < 2 ? c : N - 4 + c);
}
/* band k of A at node (i, j) */
static inline double feast_band9_framed_at(const FeastBand9Framed *A, int k, long i, long j) {
  const long N = A->inside->N, f = A->frame[0] ? feast_frame_slot(N, i, j) : -1;
  return f >= 0 ? A->frame[k][f] : A->inside->band[k][j * N + i];
}
/* dst[0 .. N^2-1] <- band k of A as a whole band: the inside's values, then the frame's
 * over them, converted to T (what a backend that keeps its own copies sweeps: the CPU
 * single and the CUDA ones) */
#define FEAST_DEFINE_FRAMED_EXPAND(T, S)                                                       \
  static inline void feast_band9_framed_expand_##S(const FeastBand9Framed *A, int k, T *dst) { \
    const long N = A->inside->N;                                                               \
    for (long i = 0; i < N * N; i++) dst[i] = (T)A->inside->band[k][i];                        \
    for (long f = 0; A->frame[0] && f < feast_frame_len(N); f++)                               \
      dst[feast_frame_node(N, f)] = (T)A->frame[k][f];                                         \
  }
FEAST_DEFINE_FRAMED_EXPAND(double, d)
FEAST_DEFINE_FRAMED_EXPAND(float, f)
#undef FEAST_DEFINE_FRAMED_EXPAND
#endif

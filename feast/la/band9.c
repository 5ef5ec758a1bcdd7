#include "feast/la/band9.h"
#include "feast/la/band9_kernels.h"
#include "feast/base/error.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

enum { PAGE = 4096, COLOUR = 256, HUGE_PAGE = 2 << 20 };

/* bytes of zeroed memory from a page boundary. calloc, not aligned_alloc + memset: fresh
 * pages from the kernel are zero already (and faulted in at once, feast_prefault). The
 * calloc pointer is kept just below the returned base.
 * Blocks of at least one huge page start on a 2 MiB boundary and ask the kernel for
 * transparent huge pages over their whole 2 MiB pages (where it grants them on request,
 * as in the "madvise" mode of Debian's kernels): one page fault per 2 MiB instead of per
 * 4 KiB. In this virtual machine a 4 KiB fault costs about 15 us (first touch of 100 MB:
 * 0.36 s of CPU with 4 KiB pages, 0.01 s with huge pages, 0.005 s to fill the same memory
 * again), so first touch of a fresh matrix cost more than filling it: Poisson L = 8 on one
 * core, assembly 0.15 -> 0.06 s, ScaRC setup 0.75 -> 0.52 s with the first huge pages.
 * The last part of a block (less than 2 MiB) keeps 4 KiB pages: rounding every block up
 * to whole huge pages cost 15.6 MB of the 144 MB such blocks hold at Poisson L = 8
 * (peak RSS 187.4 -> 172.2 MB without it, 2026-11-25). */
static char *page_calloc(size_t bytes) {
  const size_t align = bytes >= (size_t)HUGE_PAGE ? HUGE_PAGE : PAGE;
  const size_t span = (bytes + PAGE - 1) / PAGE * PAGE;
  char *p = calloc(span + align, 1);
  if (!p) return NULL;
  char *base = (char *)(((uintptr_t)p + align) & ~(uintptr_t)(align - 1));
  memcpy(base - sizeof p, &p, sizeof p);
#ifdef MADV_HUGEPAGE
  if (align == HUGE_PAGE) (void)madvise(base, span / HUGE_PAGE * HUGE_PAGE, MADV_HUGEPAGE);
#endif
  feast_prefault(base, span);
  return base;
}

void feast_free_coloured(void *block) {
  if (!block) return;
  char *p;
  memcpy(&p, (char *)block - sizeof p, sizeof p);
  free(p);
}

int feast_alloc_coloured_groups(int groups, int count, size_t len, size_t size, size_t lead, int colour0,
                                char **arrays, void **block) {
  FEAST_CHECK(groups >= 1 && count >= 1 && colour0 >= 0 && colour0 < PAGE / COLOUR && lead <= len,
              FEAST_ERR_ARG, "coloured allocation: %d x %d arrays from colour %d", groups, count, colour0);
  /* consecutive arrays 256 bytes further modulo 4 KiB (past 16 arrays the colours come
   * round again); a group is padded to whole pages, so the next starts on colour0 again */
  const size_t bytes = len * size, stride = (bytes + PAGE - 1) / PAGE * PAGE + COLOUR;
  const size_t gstride = ((size_t)count * stride + PAGE - 1) / PAGE * PAGE;
  const size_t off0 = (size_t)((colour0 * COLOUR - (long)(lead * size % PAGE)) % PAGE + PAGE) % PAGE;
  const size_t total = off0 + (size_t)groups * gstride;
  char *base = page_calloc(total);
  FEAST_CHECK(base, FEAST_ERR_MEM, "out of memory (%.3g MB)", (double)total / 1e6);
  for (int g = 0; g < groups; g++)
    for (int i = 0; i < count; i++)
      arrays[g * count + i] = base + off0 + (size_t)g * gstride + (size_t)i * stride + lead * size;
  *block = base;
  return 0;
}

int feast_alloc_coloured(int count, size_t len, size_t size, size_t lead, int colour0, char **arrays,
                         void **block) {
  return feast_alloc_coloured_groups(1, count, len, size, lead, colour0, arrays, block);
}

int feast_band9_create(int N, FeastBand9 *A) {
  void *block;
  return feast_band9_create_batch(1, N, A, &block); /* band[0] == block (colour 0, lead 0) */
}

int feast_band9_create_batch(int count, int N, FeastBand9 *A, void **block) {
  *block = NULL;
  memset(A, 0, sizeof *A * (size_t)count);
  FEAST_CHECK(N >= 2 && count >= 1, FEAST_ERR_ARG, "band matrix needs N >= 2, got %d (%d matrices)", N, count);
  char **bands;
  FEAST_CALL(FEAST_ALLOC((size_t)count * FEAST_NBANDS, &bands));
  const int rc = feast_alloc_coloured_groups(count, FEAST_NBANDS, (size_t)N * N, sizeof(double), 0, 0, bands, block);
  for (int m = 0; m < count && !rc; m++) {
    A[m].N = N;
    for (int k = 0; k < FEAST_NBANDS; k++) A[m].band[k] = (double *)(void *)bands[m * FEAST_NBANDS + k];
  }
  free(bands);
  return rc;
}

void feast_band9_destroy(FeastBand9 *A) {
  feast_free_coloured(A->band[0]);
  memset(A, 0, sizeof *A);
}

int feast_band9_copy(const FeastBand9 *src, FeastBand9 *dst) {
  FEAST_CALL(feast_band9_create(src->N, dst));
  for (int k = 0; k < FEAST_NBANDS; k++)
    memcpy(dst->band[k], src->band[k], sizeof(double) * src->N * src->N);
  return 0;
}

int feast_grid_alloc(int N, double **x) {
  double *p;
  FEAST_CALL(FEAST_ALLOC((size_t)N * N + 2 * FEAST_PAD(N), &p));
  *x = p + FEAST_PAD(N);
  return 0;
}

void feast_grid_free(int N, double **x) {
  if (*x) free(*x - FEAST_PAD(N));
  *x = NULL;
}

int feast_grid_alloc_f(int N, float **x) {
  float *p;
  FEAST_CALL(FEAST_ALLOC((size_t)N * N + 2 * FEAST_PAD(N), &p));
  *x = p + FEAST_PAD(N);
  return 0;
}

void feast_grid_free_f(int N, float **x) {
  if (*x) free(*x - FEAST_PAD(N));
  *x = NULL;
}

/* The row loops below are the 9-band specialisation of the stencil's row (feast_stencil_row
 * in band9_kernels.h, the same sum term by term): the nine bands of A as restrict
 * pointers, and N, n */
#define BAND9_LOCALS(A)                                                                          \
  const int N = (A)->N;                                                                          \
  const ptrdiff_t n = (ptrdiff_t)N * N;                                                          \
  const double *restrict b0 = (A)->band[0], *restrict b1 = (A)->band[1], *restrict b2 = (A)->band[2]; \
  const double *restrict b3 = (A)->band[3], *restrict b4 = (A)->band[4], *restrict b5 = (A)->band[5]; \
  const double *restrict b6 = (A)->band[6], *restrict b7 = (A)->band[7], *restrict b8 = (A)->band[8]
/* row with band values at index r and vector values around node i (a ring row: r is
 * its position in the ring, i its node) */
#define BAND9_ROW_AT(x, r, i)                                                                    \
  (b0[r] * x[i - N - 1] + b1[r] * x[i - N] + b2[r] * x[i - N + 1] + b3[r] * x[i - 1] + b4[r] * x[i] + \
   b5[r] * x[i + 1] + b6[r] * x[i + N - 1] + b7[r] * x[i + N] + b8[r] * x[i + N + 1])
#define BAND9_ROW(x, i) BAND9_ROW_AT(x, i, i)

/* y_i = sum_k band_k[i] * x[i + off_k]; out-of-macro couplings are zero and the padding
 * keeps every read in bounds */
void feast_band9_matvec(const FeastBand9 *A, const double *restrict x, double *restrict y) {
  BAND9_LOCALS(A);
  for (ptrdiff_t i = 0; i < n; i++) y[i] = BAND9_ROW(x, i);
}

static void matvec_range(const FeastBand9 *A, const double *restrict x, double *restrict y, ptrdiff_t i0,
                         ptrdiff_t i1) {
  BAND9_LOCALS(A);
  (void)n;
  for (ptrdiff_t i = i0; i < i1; i++) y[i] = BAND9_ROW(x, i);
}

void feast_band9_matvec_part(const FeastBand9 *A, const double *x, double *y, int interior) {
  const ptrdiff_t N = A->N;
  if (interior) {
    for (ptrdiff_t j = 1; j < N - 1; j++) matvec_range(A, x, y, j * N + 1, j * N + N - 1);
    return;
  }
  matvec_range(A, x, y, 0, N);
  for (ptrdiff_t j = 1; j < N - 1; j++) {
    matvec_range(A, x, y, j * N, j * N + 1);
    matvec_range(A, x, y, j * N + N - 1, j * N + N);
  }
  matvec_range(A, x, y, (N - 1) * N, N * N);
}

void feast_band9_matvec_add(const FeastBand9 *A, const double *restrict x, double *restrict y) {
  BAND9_LOCALS(A);
  for (ptrdiff_t i = 0; i < n; i++) y[i] += BAND9_ROW(x, i);
}

/* row r of the bands a fixed row: zero, diagonal one or zero */
static void fix_row(double *const *band, long r, int one) {
  for (int k = 0; k < FEAST_NBANDS; k++) band[k][r] = 0.0;
  band[FEAST_BAND_DIAG][r] = one ? 1.0 : 0.0;
}

void feast_band9_fix_rows(FeastBand9 *A, const unsigned char *fixed, const unsigned char *diag_one) {
  const long n = (long)A->N * A->N;
  for (long i = 0; i < n; i++)
    if (fixed[i]) fix_row(A->band, i, diag_one && diag_one[i]);
}

/* The ring as 4 segments of nodes: ring rows r0.. r0+count-1 are the nodes node0 +
 * q stride, q < count (bottom row, top row, left and right column between them) */
typedef struct {
  long r0, node0, stride, count;
} RingSegment;

static void ring_segments(long N, RingSegment seg[4]) {
  seg[0] = (RingSegment){0, 0, 1, N};
  seg[1] = (RingSegment){N, (N - 1) * N, 1, N};
  seg[2] = (RingSegment){2 * N, N, N, N - 2};
  seg[3] = (RingSegment){3 * N - 2, 2 * N - 1, N, N - 2};
}

int feast_band9_ring_create(int N, FeastBand9Ring *R) {
  memset(R, 0, sizeof *R);
  FEAST_CHECK(N >= 2, FEAST_ERR_ARG, "band matrix ring needs N >= 2, got %d", N);
  double *v;
  FEAST_CALL(FEAST_ALLOC((size_t)FEAST_NBANDS * feast_ring_rows(N), &v));
  R->N = N;
  for (int k = 0; k < FEAST_NBANDS; k++) R->band[k] = v + (size_t)k * feast_ring_rows(N);
  return 0;
}

void feast_band9_ring_destroy(FeastBand9Ring *R) {
  free(R->band[0]);
  memset(R, 0, sizeof *R);
}

/* copy the ring rows: to_ring = 1 from A into R, else from R into A */
static void ring_copy(FeastBand9 *A, FeastBand9Ring *R, int to_ring) {
  RingSegment seg[4];
  ring_segments(A->N, seg);
  for (int g = 0; g < 4; g++)
    for (long q = 0; q < seg[g].count; q++) {
      const long r = seg[g].r0 + q, i = seg[g].node0 + q * seg[g].stride;
      for (int k = 0; k < FEAST_NBANDS; k++) {
        if (to_ring) R->band[k][r] = A->band[k][i];
        else A->band[k][i] = R->band[k][r];
      }
    }
}

void feast_band9_ring_get(const FeastBand9 *A, FeastBand9Ring *R) { ring_copy((FeastBand9 *)A, R, 1); }
void feast_band9_ring_put(const FeastBand9Ring *R, FeastBand9 *A) { ring_copy(A, (FeastBand9Ring *)R, 0); }

void feast_band9_ring_fix_rows(FeastBand9Ring *R, const unsigned char *fixed, const unsigned char *diag_one) {
  RingSegment seg[4];
  ring_segments(R->N, seg);
  for (int g = 0; g < 4; g++)
    for (long q = 0; q < seg[g].count; q++) {
      const long r = seg[g].r0 + q, i = seg[g].node0 + q * seg[g].stride;
      if (fixed[i]) fix_row(R->band, r, diag_one && diag_one[i]);
    }
}

void feast_band9_ring_matvec(const FeastBand9Ring *R, const double *restrict x, double *restrict y) {
  BAND9_LOCALS(R);
  (void)n;
  RingSegment seg[4];
  ring_segments(N, seg);
  for (int g = 0; g < 4; g++)
    for (long q = 0; q < seg[g].count; q++) {
      const long r = seg[g].r0 + q, i = seg[g].node0 + q * seg[g].stride;
      y[i] = BAND9_ROW_AT(x, r, i);
    }
}

void feast_band9_zero(FeastBand9 *A) {
  for (int k = 0; k < FEAST_NBANDS; k++) memset(A->band[k], 0, sizeof(double) * A->N * A->N);
}

void feast_band9_defect(const FeastBand9 *A, const double *restrict b, const double *restrict x,
                        double *restrict d) {
  BAND9_LOCALS(A);
  for (ptrdiff_t i = 0; i < n; i++) d[i] = b[i] - BAND9_ROW(x, i);
}

/* the 3D Q1 stencil's rows written out: N^3 rows of 27 bands, in chunks of
 * BAND27_CHUNK rows, each in three passes, one plane (dz = -1, 0, 1: bands 0-8, 9-17,
 * 18-26) a pass, y's chunk staying in the L1 cache between them. Each pass adds its nine
 * terms to y in band order (y + t9 + t10 + ... left to right), so the row is
 * feast_band27_row's sum, bitwise (test_stencil). One pass of 27 bands streams 29 arrays
 * at once and reached 54-59 % of a STREAM copy at L = 6, 7 on one core of the AMD EPYC VM;
 * the passes, 11 arrays each, 77-108 % (bench_band9 3d, 2026-12-03; chunks of 256-2048
 * rows gave 60-85 %, 8192-16384 no more than 4096). */
enum { BAND27_CHUNK = 4096 };
#define DEFINE_BAND27_MATVEC(T, S)                                                                \
  static void band27_matvec_##S(long N, const T *const *band, const T *restrict x, T *restrict y) { \
    const long P = N * N, n = P * N;                                                              \
    for (long i0 = 0; i0 < n; i0 += BAND27_CHUNK) {                                               \
      const long i1 = i0 + BAND27_CHUNK < n ? i0 + BAND27_CHUNK : n;                              \
      FEAST_IVDEP                                                                                 \
      for (long i = i0; i < i1; i++) {                                                            \
        const T *xr = x + i - P;                                                                  \
        y[i] = FEAST_BAND27_PLANE(band, 0, xr, i, N);                                             \
      }                                                                                           \
      FEAST_IVDEP                                                                                 \
      for (long i = i0; i < i1; i++) {                                                            \
        const T *xr = x + i;                                                                      \
        y[i] = y[i] + FEAST_BAND27_PLANE(band, 9, xr, i, N);                                      \
      }                                                                                           \
      FEAST_IVDEP                                                                                 \
      for (long i = i0; i < i1; i++) {                                                            \
        const T *xr = x + i + P;                                                                  \
        y[i] = y[i] + FEAST_BAND27_PLANE(band, 18, xr, i, N);                                     \
      }                                                                                           \
    }                                                                                             \
  }
DEFINE_BAND27_MATVEC(double, d)
DEFINE_BAND27_MATVEC(float, f)
#undef DEFINE_BAND27_MATVEC

void feast_band_matvec(const FeastStencil *s, int N, const double *const *band, const double *restrict x,
                       double *restrict y) {
  if (s == FEAST_BAND9_STENCIL) { /* the written-out 9-band rows */
    FeastBand9 A = {N, {NULL}};
    memcpy(A.band, band, sizeof A.band);
    feast_band9_matvec(&A, x, y);
    return;
  }
  if (s == &feast_stencil_q1_3d) {
    band27_matvec_d(N, band, x, y);
    return;
  }
  long off[FEAST_STENCIL_MAX_BANDS], n = 1;
  for (int d = 0; d < s->dim; d++) n *= N;
  for (int k = 0; k < s->nbands; k++) off[k] = feast_stencil_offset(s, k, N);
  for (long i = 0; i < n; i++) y[i] = feast_stencil_row_d(s->nbands, band, off, x, i);
}

void feast_band_matvec_f(const FeastStencil *s, int N, const float *const *band, const float *restrict x,
                         float *restrict y) {
  if (s == &feast_stencil_q1_3d) {
    band27_matvec_f(N, band, x, y);
    return;
  }
  long off[FEAST_STENCIL_MAX_BANDS], n = 1;
  for (int d = 0; d < s->dim; d++) n *= N;
  for (int k = 0; k < s->nbands; k++) off[k] = feast_stencil_offset(s, k, N);
  for (long i = 0; i < n; i++) y[i] = feast_stencil_row_f(s->nbands, band, off, x, i);
}

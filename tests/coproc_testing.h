/* Helpers of the CUDA local multigrid test (tests/unit/test_coproc_gpu.c, also built for
 * the host emulator as test_coproc_gpu_emu): a batch of NMACROS macros with the test
 * stencil (feast_test_stencil) on the finest level, Dirichlet edges that differ per
 * macro and random defects; padded corrections of a batch; the solver parameters; and
 * comparisons of corrections (relative 2-norm, bitwise, fixed nodes and padding). Header
 * only (static functions): tests/ builds every tests/unit/test_*.c as its own program. */
#ifndef FEAST_COPROC_TESTING_H
#define FEAST_COPROC_TESTING_H
#include "coproc/coproc.h"
#include "feast/la/band9.h"
#include "feast/base/error.h"
#include "feast_test.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NMACROS 4
/* Dirichlet edges per macro: bit 0 left, 1 right, 2 bottom, 3 top */
static const int edges[NMACROS] = {15, 5, 0, 10};

/* feast_test_stencil on the finest level: Laplace + grid-unit upwind convection
 * h (bx, by).grad + reaction h^2 k (h = 2^-L); the coarser levels are Galerkin products
 * (front end) */
typedef struct {
  double bx, by, k;
} Coeffs;
static const Coeffs laplace = {0, 0, 0}, conv1 = {40, 20, -150}, conv2 = {-30, 35, -80};

typedef struct {
  int level;
  FeastBand9 A[NMACROS];             /* the finest level */
  unsigned char *fixed[NMACROS][16]; /* every level */
  FeastLocalProblem prob[NMACROS];
  double *d[NMACROS]; /* padded defects of the finest level */
} Batch;

static inline int is_fixed(int pattern, int N, int i, int j) {
  return (i == 0 && (pattern & 1)) || (i == N - 1 && (pattern & 2)) ||
         (j == 0 && (pattern & 4)) || (j == N - 1 && (pattern & 8));
}

/* the fixed-node mask of level l */
static inline int build_mask(int pattern, int l, unsigned char **fixed) {
  const int N = (1 << l) + 1;
  FEAST_CALL(FEAST_ALLOC((size_t)N * N, fixed));
  for (int j = 0; j < N; j++)
    for (int i = 0; i < N; i++) (*fixed)[(long)j * N + i] = (unsigned char)is_fixed(pattern, N, i, j);
  return 0;
}

static unsigned long long rng = 12345; /* one fixed sequence per test program */
static inline double uniform(void) { /* [-1, 1) */
  rng = rng * 6364136223846793005ull + 1442695040888963407ull;
  return (double)(rng >> 11) / 9007199254740992.0 * 2 - 1;
}

static inline int build_batch(int L, Coeffs cf, Batch *b) {
  memset(b, 0, sizeof *b);
  b->level = L;
  const int N = (1 << L) + 1;
  for (int m = 0; m < NMACROS; m++) {
    for (int l = 0; l <= L; l++) FEAST_CALL(build_mask(edges[m], l, &b->fixed[m][l]));
    FEAST_CALL(feast_band9_create(N, &b->A[m]));
    feast_test_stencil(&b->A[m], b->fixed[m][L], cf.bx, cf.by, cf.k);
    b->prob[m].level = L;
    b->prob[m].A = &b->A[m];
    b->prob[m].fixed = (const unsigned char *const *)b->fixed[m];
    b->prob[m].inside = NULL;
    FEAST_CALL(feast_grid_alloc(N, &b->d[m]));
    for (long i = 0; i < (long)N * N; i++) b->d[m][i] = b->fixed[m][L][i] ? 0.0 : uniform();
  }
  return 0;
}

static inline void free_batch(Batch *b) {
  const int N = (1 << b->level) + 1;
  for (int m = 0; m < NMACROS; m++) {
    feast_band9_destroy(&b->A[m]);
    for (int l = 0; l <= b->level; l++) free(b->fixed[m][l]);
    feast_grid_free(N, &b->d[m]);
  }
}

/* corrections of all macros: padded vectors, one allocation each */
typedef struct {
  int N;
  double *c[NMACROS];
  FeastLocalMGStats st;
} Result;

static inline int alloc_result(int N, Result *r) {
  memset(r, 0, sizeof *r);
  r->N = N;
  for (int m = 0; m < NMACROS; m++) FEAST_CALL(feast_grid_alloc(N, &r->c[m]));
  return 0;
}
static inline void free_result(Result *r) {
  for (int m = 0; m < NMACROS; m++) feast_grid_free(r->N, &r->c[m]);
}

static inline FeastLocalMGParams params(double rtol, int max_cycles) {
  FeastLocalMGParams p = {.pre_smooth = 4, .post_smooth = 4, .jacobi_damping = 0.7,
                          .rtol = rtol, .max_cycles = max_cycles, .coarse_max_dofs = 200};
  return p;
}

static inline double rel_diff(const double *a, const double *ref, long n) {
  double dd = 0, rr = 0;
  for (long i = 0; i < n; i++) {
    dd += (a[i] - ref[i]) * (a[i] - ref[i]);
    rr += ref[i] * ref[i];
  }
  return rr > 0 ? sqrt(dd / rr) : sqrt(dd);
}

/* fixed nodes exactly 0, every value finite, padding still 0 */
static inline void check_shape(const Batch *b, const Result *r) {
  const int N = r->N;
  const long n = (long)N * N;
  for (int m = 0; m < NMACROS; m++) {
    long bad_fixed = 0, nonfinite = 0, pad = 0;
    for (long i = 0; i < n; i++) {
      bad_fixed += b->fixed[m][b->level][i] && r->c[m][i] != 0.0;
      nonfinite += !isfinite(r->c[m][i]);
    }
    for (long i = 1; i <= N + 1; i++) pad += r->c[m][-i] != 0.0 || r->c[m][n - 1 + i] != 0.0;
    CHECK(bad_fixed == 0);
    CHECK(nonfinite == 0);
    CHECK(pad == 0);
  }
}

static inline int bitwise_equal(const double *a, const double *b, long n) {
  return memcmp(a, b, sizeof(double) * (size_t)n) == 0;
}

#endif

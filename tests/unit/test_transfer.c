/* Grid transfer: the Galerkin product of feast_band9_galerkin against P^T A P computed
 * with dense matrices, with and without fixed (Dirichlet) nodes on the macro's edges,
 * on grids small enough that every row is near an edge and large enough to have rows
 * the stencil formula computes without checks; and on grids wider than one column chunk
 * of that formula against P^T A P summed term by term over the fine couplings. The
 * product with its inside copied from the product of a matrix that differs only near
 * the edges (ScaRC's local hierarchies) is bitwise the full product, over two levels.
 * The coarse-level stabilisation (feast_band9_upwind and its frame variant): symmetric
 * matrices unchanged, row sums kept, the diffusion of every pair as specified. */
#include "feast/la/band9.h"
#include "feast/base/error.h"
#include "feast/fem/transfer.h"
#include "feast_test.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static unsigned rng = 4711u;
/* random values on every coupling inside the grid, zero on couplings that leave it */
static void random_matrix(FeastBand9 *A) {
  const int N = A->N;
  for (int j = 0; j < N; j++)
    for (int i = 0; i < N; i++)
      for (int k = 0; k < FEAST_NBANDS; k++) {
        const int ki = i + k % 3 - 1, kj = j + k / 3 - 1;
        A->band[k][j * N + i] = ki >= 0 && kj >= 0 && ki < N && kj < N ? feast_test_random(&rng) : 0.0;
      }
}

/* edge nodes fixed with probability 1/2 (every = 0: none); the coarse mask is the fine
 * mask at the coinciding nodes */
static void masks(int Nc, int every, unsigned char *ff, unsigned char *fc) {
  const int Nf = 2 * Nc - 1;
  for (int j = 0; j < Nf; j++)
    for (int i = 0; i < Nf; i++) {
      const int edge = i == 0 || j == 0 || i == Nf - 1 || j == Nf - 1;
      ff[j * Nf + i] = every && edge && feast_test_random(&rng) > 0.0;
    }
  for (int J = 0; J < Nc; J++)
    for (int I = 0; I < Nc; I++) fc[J * Nc + I] = ff[2 * J * Nf + 2 * I];
}

/* dense bilinear prolongation restricted to free nodes, nf x nc row-major */
static double *dense_prolongation(int Nc, const unsigned char *ff, const unsigned char *fc) {
  const int Nf = 2 * Nc - 1, nf = Nf * Nf, nc = Nc * Nc;
  double *P = calloc((size_t)nf * nc, sizeof *P);
  for (int J = 0; J < Nc; J++)
    for (int I = 0; I < Nc; I++) {
      double *e = calloc((size_t)nc, sizeof *e), *col = malloc(sizeof(double) * (nf + 2 * (Nf + 1)));
      e[J * Nc + I] = 1.0;
      feast_grid_prolongate(Nc, e, col);
      for (int f = 0; f < nf; f++)
        if (!ff[f] && !fc[J * Nc + I]) P[(size_t)f * nc + J * Nc + I] = col[f];
      free(e);
      free(col);
    }
  return P;
}

/* largest deviation of Ac from P^T A P (identity rows at fixed coarse nodes) */
static double deviation(const FeastBand9 *Af, const FeastBand9 *Ac, const double *P, const unsigned char *fc) {
  const int Nf = Af->N, Nc = Ac->N, nf = Nf * Nf, nc = Nc * Nc;
  double *AP = calloc((size_t)nf * nc, sizeof *AP), dev = 0.0;
  for (int f = 0; f < nf; f++)
    for (int k = 0; k < FEAST_NBANDS; k++) {
      const int g = f + feast_band_offset(k, Nf);
      const double a = Af->band[k][f];
      if (a == 0.0) continue;
      for (int c = 0; c < nc; c++) AP[(size_t)f * nc + c] += a * P[(size_t)g * nc + c];
    }
  for (int r = 0; r < nc; r++)
    for (int c = 0; c < nc; c++) {
      double ref = 0.0;
      for (int f = 0; f < nf; f++) ref += P[(size_t)f * nc + r] * AP[(size_t)f * nc + c];
      if (fc[r]) ref = r == c;
      const int dx = c % Nc - r % Nc, dy = c / Nc - r / Nc;
      const double got = abs(dx) <= 1 && abs(dy) <= 1 ? Ac->band[feast_band_index(dx, dy)][r] : 0.0;
      if (fabs(got - ref) > dev) dev = fabs(got - ref);
    }
  for (int r = 0; r < nc; r++) /* couplings that leave the grid stay zero */
    for (int k = 0; k < FEAST_NBANDS; k++) {
      const int ki = r % Nc + k % 3 - 1, kj = r / Nc + k / 3 - 1;
      if (ki < 0 || kj < 0 || ki >= Nc || kj >= Nc) dev = fmax(dev, fabs(Ac->band[k][r]));
    }
  free(AP);
  return dev;
}

static void check_galerkin(int Nc, int with_fixed) {
  const int Nf = 2 * Nc - 1;
  FeastBand9 Af, Ac;
  CHECK_OK(feast_band9_create(Nf, &Af));
  CHECK_OK(feast_band9_create(Nc, &Ac));
  unsigned char *ff = malloc((size_t)Nf * Nf), *fc = malloc((size_t)Nc * Nc);
  random_matrix(&Af);
  masks(Nc, with_fixed, ff, fc);
  for (int k = 0; k < FEAST_NBANDS; k++) /* stale values are overwritten */
    for (int i = 0; i < Nc * Nc; i++) Ac.band[k][i] = 99.0;
  CHECK_OK(feast_band9_galerkin(&(FeastBand9Framed){&Af, {NULL}}, ff, fc, &Ac));
  double *P = dense_prolongation(Nc, ff, fc);
  const double dev = deviation(&Af, &Ac, P, fc);
  if (dev > 1e-13) fprintf(stderr, "Nc = %d, fixed %d: deviation %.3g\n", Nc, with_fixed, dev);
  CHECK(dev <= 1e-13);
  free(P);
  free(ff);
  free(fc);
  feast_band9_destroy(&Af);
  feast_band9_destroy(&Ac);
}

/* the parents of fine index i along one axis: i / 2 (weight 1) or (i -+ 1) / 2 (1/2 each) */
static int parents(int i, int *p, double *w) {
  if (i % 2 == 0) {
    p[0] = i / 2, w[0] = 1.0;
    return 1;
  }
  p[0] = (i - 1) / 2, p[1] = (i + 1) / 2, w[0] = w[1] = 0.5;
  return 2;
}

/* Ref = P^T A P by summing P(i, I) A(i, k) P(k, K) over every free fine coupling (i, k)
 * and the free coarse parents I of i and K of k; fixed coarse rows identity */
static void galerkin_by_terms(const FeastBand9 *Af, const unsigned char *ff, const unsigned char *fc,
                              FeastBand9 *Ref) {
  const int Nf = Af->N, Nc = Ref->N;
  for (int k = 0; k < FEAST_NBANDS; k++) memset(Ref->band[k], 0, sizeof(double) * Nc * Nc);
  for (int j = 0; j < Nf; j++)
    for (int i = 0; i < Nf; i++)
      for (int k = 0; k < FEAST_NBANDS; k++) {
        const int ki = i + k % 3 - 1, kj = j + k / 3 - 1;
        if (ki < 0 || kj < 0 || ki >= Nf || kj >= Nf || ff[j * Nf + i] || ff[kj * Nf + ki]) continue;
        int pi[2], pj[2], qi[2], qj[2];
        double wi[2], wj[2], vi[2], vj[2];
        const int npi = parents(i, pi, wi), npj = parents(j, pj, wj), nqi = parents(ki, qi, vi),
                  nqj = parents(kj, qj, vj);
        for (int b = 0; b < npj; b++)
          for (int a = 0; a < npi; a++)
            for (int d = 0; d < nqj; d++)
              for (int c = 0; c < nqi; c++) {
                const int I = pi[a], J = pj[b], K = qi[c], L = qj[d];
                if (fc[J * Nc + I] || fc[L * Nc + K]) continue;
                Ref->band[feast_band_index(K - I, L - J)][J * Nc + I] +=
                    wi[a] * wj[b] * Af->band[k][j * Nf + i] * vi[c] * vj[d];
              }
      }
  for (int r = 0; r < Nc * Nc; r++)
    if (fc[r])
      for (int k = 0; k < FEAST_NBANDS; k++) Ref->band[k][r] = k == FEAST_BAND_DIAG;
}

static void check_galerkin_wide(int Nc, int with_fixed) {
  const int Nf = 2 * Nc - 1;
  FeastBand9 Af, Ac, Ref;
  CHECK_OK(feast_band9_create(Nf, &Af));
  CHECK_OK(feast_band9_create(Nc, &Ac));
  CHECK_OK(feast_band9_create(Nc, &Ref));
  unsigned char *ff = malloc((size_t)Nf * Nf), *fc = malloc((size_t)Nc * Nc);
  random_matrix(&Af);
  masks(Nc, with_fixed, ff, fc);
  CHECK_OK(feast_band9_galerkin(&(FeastBand9Framed){&Af, {NULL}}, ff, fc, &Ac));
  galerkin_by_terms(&Af, ff, fc, &Ref);
  double dev = 0.0;
  for (int k = 0; k < FEAST_NBANDS; k++)
    for (int r = 0; r < Nc * Nc; r++) dev = fmax(dev, fabs(Ac.band[k][r] - Ref.band[k][r]));
  if (dev > 1e-13) fprintf(stderr, "wide Nc = %d, fixed %d: deviation %.3g\n", Nc, with_fixed, dev);
  CHECK(dev <= 1e-13);
  free(ff);
  free(fc);
  feast_band9_destroy(&Af);
  feast_band9_destroy(&Ac);
  feast_band9_destroy(&Ref);
}

/* every entry of A and of the framed B bitwise the same */
static int bitwise_equal(const FeastBand9 *A, const FeastBand9Framed *B) {
  for (int k = 0; k < FEAST_NBANDS; k++)
    for (long j = 0; j < A->N; j++)
      for (long i = 0; i < A->N; i++) {
        const double b = feast_band9_framed_at(B, k, i, j);
        if (memcmp(&A->band[k][j * A->N + i], &b, sizeof b) != 0) return 0;
      }
  return 1;
}

/* the frame numbering: slot and node are inverse, the slots are 0 .. len - 1, and the
 * nodes two or more inside have none */
static void check_frame_numbering(int N) {
  long count = 0;
  for (long j = 0; j < N; j++)
    for (long i = 0; i < N; i++) {
      const long f = feast_frame_slot(N, i, j);
      const int inside = i >= 2 && j >= 2 && i < N - 2 && j < N - 2;
      CHECK(inside ? f == -1 : f >= 0 && f < feast_frame_len(N) && feast_frame_node(N, f) == j * N + i);
      count += f >= 0;
    }
  CHECK(count == feast_frame_len(N));
}

/* a framed matrix of N nodes per side on the inside `in`, its frame in `frame` */
static FeastBand9Framed framed_on(const FeastBand9 *in, double *frame) {
  FeastBand9Framed A = {in, {NULL}};
  for (int k = 0; k < FEAST_NBANDS; k++) A.frame[k] = frame + k * feast_frame_len(in->N);
  return A;
}

/* new random values in the rows within `width` nodes of the edges (their couplings
 * inside the grid), as consistency and Dirichlet rows change a global matrix there */
static void perturb_frame(FeastBand9 *A, int width) {
  const int N = A->N;
  for (int j = 0; j < N; j++)
    for (int i = 0; i < N; i++) {
      if (i >= width && j >= width && i < N - width && j < N - width) continue;
      for (int k = 0; k < FEAST_NBANDS; k++) {
        const int ki = i + k % 3 - 1, kj = j + k / 3 - 1;
        if (ki >= 0 && kj >= 0 && ki < N && kj < N) A->band[k][j * N + i] += feast_test_random(&rng);
      }
    }
}

/* G1 = P^T A P, G2 = P^T G1 P (no mask: a global hierarchy); B = A changed in its
 * frame (three fine rows: the widest the claim allows), with fixed edge nodes;
 * H1, H2 its hierarchy in full, C1, C2 with the insides of G1, G2 and only the frames
 * computed (C2 from the framed C1): bitwise the same. With a frame four rows wide the
 * inside differs (the test can fail). */
static void check_inside_from(int Nc2, int width, int expect_equal) {
  const int Nc = 2 * Nc2 - 1, Nf = 2 * Nc - 1;
  FeastBand9 A, B, G1, G2, H1, H2;
  CHECK_OK(feast_band9_create(Nf, &A));
  CHECK_OK(feast_band9_create(Nf, &B));
  FeastBand9 *coarse[] = {&G1, &H1}, *coarser[] = {&G2, &H2};
  for (int i = 0; i < 2; i++) {
    CHECK_OK(feast_band9_create(Nc, coarse[i]));
    CHECK_OK(feast_band9_create(Nc2, coarser[i]));
  }
  double *frame1 = malloc(sizeof(double) * FEAST_NBANDS * feast_frame_len(Nc));
  double *frame2 = malloc(sizeof(double) * FEAST_NBANDS * feast_frame_len(Nc2));
  FeastBand9Framed C1 = framed_on(&G1, frame1), C2 = framed_on(&G2, frame2);
  unsigned char *ff = malloc((size_t)Nf * Nf), *fc = malloc((size_t)Nc * Nc), *fc2 = malloc((size_t)Nc2 * Nc2);
  unsigned char *none = calloc((size_t)Nf * Nf, 1);
  random_matrix(&A);
  for (int k = 0; k < FEAST_NBANDS; k++) memcpy(B.band[k], A.band[k], sizeof(double) * Nf * Nf);
  perturb_frame(&B, width);
  masks(Nc, 1, ff, fc);
  for (int J = 0; J < Nc2; J++)
    for (int I = 0; I < Nc2; I++) fc2[J * Nc2 + I] = fc[2 * J * Nc + 2 * I];
  const FeastBand9Framed wA = {&A, {NULL}}, wB = {&B, {NULL}}, wG1 = {&G1, {NULL}}, wH1 = {&H1, {NULL}};
  CHECK_OK(feast_band9_galerkin(&wA, none, none, &G1));
  CHECK_OK(feast_band9_galerkin(&wG1, none, none, &G2));
  CHECK_OK(feast_band9_galerkin(&wB, ff, fc, &H1));
  CHECK_OK(feast_band9_galerkin(&wH1, fc, fc2, &H2));
  CHECK_OK(feast_band9_galerkin_frame(&wB, ff, fc, &C1));
  CHECK_OK(feast_band9_galerkin_frame(&C1, fc, fc2, &C2));
  CHECK(bitwise_equal(&H1, &C1) == expect_equal);
  CHECK(bitwise_equal(&H2, &C2) == expect_equal);
  /* the whole product of a framed matrix is that of its whole equal */
  CHECK_OK(feast_band9_galerkin(&C1, fc, fc2, &G2));
  CHECK(bitwise_equal(&G2, &(FeastBand9Framed){&H2, {NULL}}) == expect_equal);
  free(ff);
  free(fc);
  free(fc2);
  free(none);
  free(frame1);
  free(frame2);
  FeastBand9 *all[] = {&A, &B, &G1, &G2, &H1, &H2};
  for (int i = 0; i < 6; i++) feast_band9_destroy(all[i]);
}

/* sum of row p's values */
static double row_sum(const FeastBand9 *A, long p) {
  double s = 0;
  for (int k = 0; k < FEAST_NBANDS; k++) s += A->band[k][p];
  return s;
}

/* feast_band9_upwind: a symmetric matrix is left bitwise alone; a nonsymmetric one keeps
 * its row sums, every pair loses min(skew, positive part) on both couplings (so a pair
 * made positive by convection alone ends up <= 0), and a hand-made pair gets exactly
 * d = 0.5. The frame variant: pairs inside the frame as in the whole matrix, row sums
 * kept, inside untouched. */
static void check_upwind(int N) {
  FeastBand9 S, A, U;
  CHECK_OK(feast_band9_create(N, &S));
  CHECK_OK(feast_band9_create(N, &A));
  CHECK_OK(feast_band9_create(N, &U));
  random_matrix(&A);
  for (int j = 0; j < N; j++) /* S = (A + A^T) / 2 exactly symmetric */
    for (int i = 0; i < N; i++)
      for (int k = 0; k < FEAST_NBANDS; k++) {
        const int ni = i + k % 3 - 1, nj = j + k / 3 - 1;
        if (ni < 0 || nj < 0 || ni >= N || nj >= N) continue;
        const long p = (long)j * N + i, q = (long)nj * N + ni;
        S.band[k][p] = k == FEAST_BAND_DIAG ? A.band[k][p] : 0.5 * (A.band[k][p] + A.band[8 - k][q]);
      }
  for (int k = 0; k < FEAST_NBANDS; k++) memcpy(U.band[k], S.band[k], sizeof(double) * N * N);
  feast_band9_upwind(&U);
  CHECK(bitwise_equal(&U, &(FeastBand9Framed){&S, {NULL}}));
  for (int k = 0; k < FEAST_NBANDS; k++) memcpy(U.band[k], A.band[k], sizeof(double) * N * N);
  feast_band9_upwind(&U);
  double dev = 0;
  int wrong = 0;
  for (int j = 0; j < N; j++)
    for (int i = 0; i < N; i++) {
      const long p = (long)j * N + i;
      dev = fmax(dev, fabs(row_sum(&U, p) - row_sum(&A, p)));
      for (int k = 0; k < FEAST_NBANDS; k++) {
        const int ni = i + k % 3 - 1, nj = j + k / 3 - 1;
        if (k == FEAST_BAND_DIAG || ni < 0 || nj < 0 || ni >= N || nj >= N) continue;
        const long q = (long)nj * N + ni;
        const double a = A.band[k][p], b = A.band[8 - k][q];
        const double d = fmin(0.5 * fabs(a - b), fmax(fmax(a, b), 0.0));
        wrong += U.band[k][p] != a - d;
        wrong += a > 0 && b < -a && U.band[k][p] > 0; /* positive by convection alone */
      }
    }
  CHECK(dev <= 1e-14 && wrong == 0);
  /* the pair (0,0)-(1,0): a_ij = 0.5, a_ji = -1.5: skew 1, positive part 0.5 */
  for (int k = 0; k < FEAST_NBANDS; k++) memset(U.band[k], 0, sizeof(double) * N * N);
  U.band[5][0] = 0.5;
  U.band[3][1] = -1.5;
  U.band[FEAST_BAND_DIAG][0] = U.band[FEAST_BAND_DIAG][1] = 2.0;
  feast_band9_upwind(&U);
  CHECK(U.band[5][0] == 0.0 && U.band[3][1] == -2.0 && U.band[FEAST_BAND_DIAG][0] == 2.5 &&
        U.band[FEAST_BAND_DIAG][1] == 2.5);
  if (N >= 5) { /* the frame: inside = A upwinded (as ScaRC's global level), frame = A's */
    for (int k = 0; k < FEAST_NBANDS; k++) memcpy(U.band[k], A.band[k], sizeof(double) * N * N);
    feast_band9_upwind(&U);
    double *frame = malloc(sizeof(double) * FEAST_NBANDS * feast_frame_len(N));
    FeastBand9Framed F = framed_on(&U, frame);
    for (long f = 0; f < feast_frame_len(N); f++)
      for (int k = 0; k < FEAST_NBANDS; k++) F.frame[k][f] = A.band[k][feast_frame_node(N, f)];
    feast_band9_upwind_frame(&F);
    double sums = 0;
    int differ = 0;
    for (long f = 0; f < feast_frame_len(N); f++) {
      const long p = feast_frame_node(N, f), i = p % N, j = p / N;
      double s = 0;
      for (int k = 0; k < FEAST_NBANDS; k++) {
        s += F.frame[k][f];
        const long ni = i + k % 3 - 1, nj = j + k / 3 - 1;
        const int in_frame = ni >= 0 && nj >= 0 && ni < N && nj < N && feast_frame_slot(N, ni, nj) >= 0;
        if (k != FEAST_BAND_DIAG && in_frame) differ += F.frame[k][f] != U.band[k][p];
      }
      sums = fmax(sums, fabs(s - row_sum(&A, p)));
    }
    CHECK(sums <= 1e-14 && differ == 0);
    free(frame);
  }
  feast_band9_destroy(&S);
  feast_band9_destroy(&A);
  feast_band9_destroy(&U);
}

static int run(void) {
  const int upwind_sizes[] = {2, 5, 9, 17};
  for (size_t s = 0; s < sizeof upwind_sizes / sizeof upwind_sizes[0]; s++) check_upwind(upwind_sizes[s]);
  const int sizes[] = {2, 3, 5, 6, 9, 17};
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
    for (int f = 0; f <= 1; f++) check_galerkin(sizes[s], f);
  const int wide[] = {129, 133, 261}; /* one chunk of 128 columns and 2 + 1, two and 2 + 1 */
  for (size_t s = 0; s < sizeof wide / sizeof wide[0]; s++)
    for (int f = 0; f <= 1; f++) check_galerkin_wide(wide[s], f);
  const int coarser[] = {5, 9, 65, 133}; /* inside empty, small, one and two chunks */
  for (size_t s = 0; s < sizeof coarser / sizeof coarser[0]; s++) check_inside_from(coarser[s], 3, 1);
  check_inside_from(9, 4, 0);
  check_inside_from(65, 4, 0);
  const int numbered[] = {5, 6, 9, 33};
  for (size_t s = 0; s < sizeof numbered / sizeof numbered[0]; s++) check_frame_numbering(numbered[s]);
  FeastBand9 Af, Ac;
  CHECK_OK(feast_band9_create(9, &Af));
  CHECK_OK(feast_band9_create(4, &Ac));
  unsigned char none[81] = {0};
  CHECK_FAILS(feast_band9_galerkin(&(FeastBand9Framed){&Af, {NULL}}, none, none, &Ac));
  double frame[FEAST_NBANDS * 16];
  FeastBand9Framed small = framed_on(&Ac, frame); /* N = 4: no room for a frame and an inside */
  CHECK_FAILS(feast_band9_galerkin_frame(&(FeastBand9Framed){&Af, {NULL}}, none, none, &small));
  feast_band9_destroy(&Af);
  feast_band9_destroy(&Ac);
  return 0;
}

FEAST_TEST_MAIN(run)

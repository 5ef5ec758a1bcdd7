/* The element form of navier_stokes/forms.h, cell by cell and block by block:
 *  - ns_tau: on a rectangle hx x hy (hx = 2 hy) the viscous limit h_min^2 / (4 nu) with
 *    h_min = hy (w = 0), the advective limits hx / (2 |w|) for w along x and hy / (2 |w|)
 *    along y (nu = 1e-300), the combination ((2|w|/h_w)^2 + (4 nu/h_min^2)^2)^(-1/2) in
 *    between; invariant under a rotation of cell and w together (1e-14);
 *  - Stokes (w = 0), on one general quadrilateral macro at level 2 with jittered interior
 *    nodes: A11 = A22 = nu times the Q1 Laplace matrix of feast/q1 (3 x 3 Gauss, generic
 *    point path; 1e-13), A12 = A21 = 0, BT1 = B1^T and BT2 = B2^T exactly (bitwise), C
 *    symmetric, C 1 = 0, diag(C) <= 0 and x^T C x < 0 for the coordinate fields; no
 *    right-hand side without a force;
 *  - a nonlinear w (Newton off): the rows of A11, A22, BT1, BT2 and C sum to zero
 *    (constants have no gradient: convection, SUPG and PSPG of a constant vanish);
 *  - ns_cell_laplacian (stabilisation.viscous_residual) on a parallelogram macro (not a
 *    rectangle): exact for a quadratic in every cell, the macro's edge cells (one-sided)
 *    included (1e-10); the Q1 field x y of the reference bilinear term has Laplacian
 *    2 g^st there (nonzero: Q1's Laplacian vanishes on rectangles only). */
#include "feast/base/error.h"
#include "feast/fem/q1.h"
#include "feast_test.h"
#include "navier_stokes/forms.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { N = 5, NN = N * N };

/* a cell captured from the assembly (level 0: one cell) */
static FeastQ1Cell captured;
static void capture(const FeastQ1Cell *c, void *ctx, double (*A)[4][4], double (*b)[4]) {
  (void)ctx, (void)A, (void)b;
  captured = *c;
}

static void cell_of(const double corners[4][2], FeastQ1Cell *c) {
  double xy[8];
  /* level 0 node order: (0,0), (1,0), (0,1), (1,1) */
  const int node[4] = {0, 1, 3, 2};
  for (int k = 0; k < 4; k++) xy[2 * node[k]] = corners[k][0], xy[2 * node[k] + 1] = corners[k][1];
  CHECK_OK(feast_q1_assemble_cells(2, xy, 0, capture, NULL, 3, 0, NULL, 0, NULL));
  *c = captured;
}

static void check_tau(void) {
  const double hx = 0.5, hy = 0.25, nu = 0.01, U = 3.0;
  const double rect[4][2] = {{0, 0}, {hx, 0}, {hx, hy}, {0, hy}};
  FeastQ1Cell c;
  cell_of(rect, &c);
  const double zero[2] = {0, 0}, wx[2] = {U, 0}, wy[2] = {0, U};
  CHECK_CLOSE(ns_tau(&c, zero, nu, 0.0), hy * hy / (4.0 * nu), 1e-14);
  CHECK_CLOSE(ns_tau(&c, wx, 1e-300, 0.0), hx / (2.0 * U), 1e-14);
  CHECK_CLOSE(ns_tau(&c, wy, 1e-300, 0.0), hy / (2.0 * U), 1e-14);
  const double adv = 2.0 * U / hx, visc = 4.0 * nu / (hy * hy);
  CHECK_CLOSE(ns_tau(&c, wx, nu, 0.0), 1.0 / sqrt(adv * adv + visc * visc), 1e-14);
  /* a time step's rate alpha_0/dt = m: Tezduyar's (2 m)^2 term; tau -> 1/(2 m) as m grows */
  CHECK_CLOSE(ns_tau(&c, wx, nu, 40.0), 1.0 / sqrt(6400.0 + adv * adv + visc * visc), 1e-14);
  CHECK_CLOSE(ns_tau(&c, wx, nu, 1e12) * 2e12, 1.0, 1e-10);
  /* rotated by 0.7 rad about (0.3, -0.2), w rotated with it */
  const double a = 0.7, ca = cos(a), sa = sin(a);
  double rot[4][2];
  for (int k = 0; k < 4; k++) {
    rot[k][0] = 0.3 + ca * rect[k][0] - sa * rect[k][1];
    rot[k][1] = -0.2 + sa * rect[k][0] + ca * rect[k][1];
  }
  FeastQ1Cell r;
  cell_of(rot, &r);
  const double w[2] = {1.3, -0.4}, wr[2] = {ca * w[0] - sa * w[1], sa * w[0] + ca * w[1]};
  CHECK_CLOSE(ns_tau(&r, wr, nu, 0.0), ns_tau(&c, w, nu, 0.0), 1e-14);
}

static double xy[2 * NN];

static void make_macro(void) { feast_test_jittered_macro(N, 99u, xy); }

/* dense copies: M[row][col] of a 9-band matrix on the macro */
static void dense(const FeastBand9 *A, double *M) {
  memset(M, 0, sizeof(double) * NN * NN);
  for (int j = 0; j < N; j++)
    for (int i = 0; i < N; i++)
      for (int k = 0; k < FEAST_NBANDS; k++) {
        const int ci = i + k % 3 - 1, cj = j + k / 3 - 1;
        if (ci >= 0 && cj >= 0 && ci < N && cj < N) M[(j * N + i) * NN + cj * N + ci] = A->band[k][j * N + i];
      }
}

static void laplace_points(const FeastQ1Point *p, void *ctx, double A[4][4]) { feast_q1_form_laplace(p, ctx, A); }

typedef struct {
  FeastBand9 A[NS_NBLOCKS];
  double M[NS_NBLOCKS][NN * NN];
} Blocks;

static void assemble(Blocks *B, double nu, const double *w1, const double *w2) {
  FeastBand9 *A[NS_NBLOCKS];
  static double b[NS_NRHS][NN];
  double *bp[NS_NRHS] = {b[0], b[1], b[2]};
  for (int k = 0; k < NS_NBLOCKS; k++) {
    CHECK_OK(feast_band9_create(N, &B->A[k]));
    A[k] = &B->A[k];
  }
  NsForm form = ns_form_steady(nu, 0, w1, w2, (FeastExpr *[2]){NULL, NULL});
  CHECK_OK(feast_q1_assemble_cells(N, xy, 0, ns_form, &form, 3, NS_NBLOCKS, A, NS_NRHS, bp));
  for (int k = 0; k < NS_NBLOCKS; k++) dense(&B->A[k], B->M[k]), feast_band9_destroy(&B->A[k]);
  for (int r = 0; r < NS_NRHS; r++)
    for (int n = 0; n < NN; n++) CHECK(b[r][n] == 0.0); /* no force */
}

static double maxabs(const double *M, long n) {
  double m = 0.0;
  for (long i = 0; i < n; i++) m = fmax(m, fabs(M[i]));
  return m;
}

static void check_stokes_blocks(void) {
  const double nu = 0.03;
  static Blocks B;
  assemble(&B, nu, NULL, NULL);
  FeastBand9 L;
  static double Ld[NN * NN];
  CHECK_OK(feast_band9_create(N, &L));
  CHECK_OK(feast_q1_assemble(N, xy, 0, laplace_points, NULL, 3, &L));
  dense(&L, Ld);
  feast_band9_destroy(&L);
  const double scale = nu * maxabs(Ld, NN * NN);
  int bad_a = 0, bad_t = 0, bad_c = 0, zero12 = 0;
  for (int r = 0; r < NN; r++)
    for (int c = 0; c < NN; c++) {
      const long rc = (long)r * NN + c, cr = (long)c * NN + r;
      bad_a += fabs(B.M[NS_A11][rc] - nu * Ld[rc]) > 1e-13 * scale || B.M[NS_A22][rc] != B.M[NS_A11][rc];
      bad_t += B.M[NS_BT1][rc] != B.M[NS_B1][cr] || B.M[NS_BT2][rc] != B.M[NS_B2][cr];
      bad_c += fabs(B.M[NS_C][rc] - B.M[NS_C][cr]) > 1e-15 * maxabs(B.M[NS_C], NN * NN);
      zero12 += B.M[NS_A12][rc] != 0.0 || B.M[NS_A21][rc] != 0.0;
    }
  CHECK(bad_a == 0);
  CHECK(bad_t == 0);
  CHECK(bad_c == 0);
  CHECK(zero12 == 0);
  /* C 1 = 0, diag(-C) >= 0, x^T C x <= 0 for x = coordinates */
  const double cmax = maxabs(B.M[NS_C], NN * NN);
  double qx = 0.0, qy = 0.0;
  for (int r = 0; r < NN; r++) {
    double s = 0.0;
    for (int c = 0; c < NN; c++) {
      s += B.M[NS_C][(long)r * NN + c];
      qx += xy[2 * r] * B.M[NS_C][(long)r * NN + c] * xy[2 * c];
      qy += xy[2 * r + 1] * B.M[NS_C][(long)r * NN + c] * xy[2 * c + 1];
    }
    CHECK(fabs(s) <= 1e-14 * cmax);
    CHECK(B.M[NS_C][(long)r * NN + r] <= 0.0);
  }
  CHECK(qx < 0.0 && qy < 0.0);
}

/* rows of A, BT, C sum to zero for any w */
static void check_general_w(void) {
  const double nu = 0.02;
  static double w1[NN], w2[NN];
  for (int n = 0; n < NN; n++) {
    const double X = xy[2 * n], Y = xy[2 * n + 1];
    w1[n] = sin(1.3 * X) * cos(0.7 * Y) + 0.5;
    w2[n] = -0.6 * cos(0.9 * X) * sin(1.1 * Y) + 0.3 * X;
  }
  static Blocks B;
  assemble(&B, nu, w1, w2);
  const int blocks[] = {NS_A11, NS_A22, NS_BT1, NS_BT2, NS_C};
  for (size_t k = 0; k < sizeof blocks / sizeof blocks[0]; k++) {
    const double *M = B.M[blocks[k]], m = maxabs(M, NN * NN);
    int bad = 0;
    for (int r = 0; r < NN; r++) {
      double s = 0.0;
      for (int c = 0; c < NN; c++) s += M[(long)r * NN + c];
      bad += fabs(s) > 1e-13 * m;
    }
    CHECK(bad == 0);
    if (bad) fprintf(stderr, "block %d: %d rows do not sum to zero\n", blocks[k], bad);
  }
}

/* the largest |ns_cell_laplacian(u) - ctx[0]| over the cells (ctx[1]) of field ctx[2..] */
static double lap_field[NN], lap_worst;
static void lap_check(const FeastQ1Cell *c, void *ctx, double (*A)[4][4], double (*b)[4]) {
  (void)A, (void)b;
  const double d = fabs(ns_cell_laplacian(c, lap_field) - *(const double *)ctx);
  if (d > lap_worst) lap_worst = d;
}

static void check_cell_laplacian(void) {
  static double pg[2 * NN];
  const double e1[2] = {1.0, 0.2}, e2[2] = {0.5, 0.9}; /* a parallelogram, not a rectangle */
  for (int j = 0; j < N; j++)
    for (int i = 0; i < N; i++)
      for (int d = 0; d < 2; d++) pg[2 * (j * N + i) + d] = 0.3 * (i * e1[d] + j * e2[d]) + (d ? -0.1 : 0.4);
  for (int n = 0; n < NN; n++) {
    const double X = pg[2 * n], Y = pg[2 * n + 1];
    lap_field[n] = X * X + 3.0 * X * Y - 2.0 * Y * Y + X - 5.0 * Y; /* Laplace = 2 - 4 */
  }
  double want = -2.0;
  lap_worst = 0.0;
  CHECK_OK(feast_q1_assemble_cells(N, pg, 0, lap_check, &want, 2, 0, NULL, 0, NULL));
  CHECK(lap_worst < 1e-10);
  if (lap_worst >= 1e-10) fprintf(stderr, "ns_cell_laplacian: quadratic off by %g\n", lap_worst);
  /* u = s t (s, t: the macro's reference coordinates in [0, N-1]): x = 0.3 (s e1 + t e2) +
   * x0, so s t is a quadratic in x with Laplace 2 g^st, g = (J^T J)^-1, J = 0.3 [e1 e2] */
  for (int j = 0; j < N; j++)
    for (int i = 0; i < N; i++) lap_field[j * N + i] = (double)i * j;
  const double a = 0.09 * (e1[0] * e1[0] + e1[1] * e1[1]), bb = 0.09 * (e1[0] * e2[0] + e1[1] * e2[1]),
               dd = 0.09 * (e2[0] * e2[0] + e2[1] * e2[1]);
  want = 2.0 * -bb / (a * dd - bb * bb);
  lap_worst = 0.0;
  CHECK_OK(feast_q1_assemble_cells(N, pg, 0, lap_check, &want, 2, 0, NULL, 0, NULL));
  CHECK(fabs(want) > 1.0 && lap_worst < 1e-10 * fabs(want));
}

static int run(void) {
  check_cell_laplacian();
  check_tau();
  make_macro();
  check_stokes_blocks();
  check_general_w();
  return 0;
}

FEAST_TEST_MAIN(run)

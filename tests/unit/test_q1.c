/* Q1 element: stencils, sums, right-hand side, L2 error and its convergence order,
 * assembly on a distorted macro, orientation of non-symmetric forms, bad input. */
#include "feast/base/error.h"
#include "feast/fem/q1.h"
#include "feast_test.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* coordinates of a macro with corners c[4] (counter-clockwise) by the bilinear map,
 * interior nodes moved by jitter * h times a fixed pseudo-random pattern */
static double *macro_xy(int N, const double c[4][2], double jitter) {
  double *xy = malloc(2 * sizeof(double) * N * N);
  unsigned seed = 12345u;
  for (int j = 0; j < N; j++)
    for (int i = 0; i < N; i++) {
      double s = (double)i / (N - 1), t = (double)j / (N - 1);
      for (int d = 0; d < 2; d++)
        xy[2 * (j * N + i) + d] = (1 - s) * (1 - t) * c[0][d] + s * (1 - t) * c[1][d] +
                                  s * t * c[2][d] + (1 - s) * t * c[3][d];
      for (int d = 0; d < 2; d++) {
        seed = seed * 1103515245u + 12345u;
        double r = ((seed >> 8) & 0xffff) / 65535.0 - 0.5;
        if (i > 0 && j > 0 && i < N - 1 && j < N - 1) xy[2 * (j * N + i) + d] += jitter * r / (N - 1);
      }
    }
  return xy;
}

static const double unit[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
static const double distorted[4][2] = {{0, 0}, {2, 0.2}, {1.7, 1.5}, {0.3, 1.1}};

/* A(i,j) row, band k */
static double entry(const FeastBand9 *A, int N, int i, int j, int dx, int dy) {
  return A->band[feast_band_index(dx, dy)][j * N + i];
}

static double sum_all(const FeastBand9 *A) {
  double s = 0.0;
  for (int k = 0; k < FEAST_NBANDS; k++)
    for (int n = 0; n < A->N * A->N; n++) s += A->band[k][n];
  return s;
}

/* y = A x on unpadded vectors (out-of-macro couplings are zero) */
static void apply(const FeastBand9 *A, const double *x, double *y) {
  const int N = A->N;
  for (int j = 0; j < N; j++)
    for (int i = 0; i < N; i++) {
      double s = 0.0;
      for (int k = 0; k < FEAST_NBANDS; k++) {
        int ci = i + k % 3 - 1, cj = j + k / 3 - 1;
        if (ci >= 0 && cj >= 0 && ci < N && cj < N) s += A->band[k][j * N + i] * x[cj * N + ci];
        else CHECK(A->band[k][j * N + i] == 0.0);
      }
      y[j * N + i] = s;
    }
}

/* boundary edge forms (feast_q1_assemble_edge): g psi_b psi_a with g = 1 and g = x + 2 y on
 * each local edge of the distorted macro (straight edges: nodes on the chord, the edge's
 * refined segments add up to it); sum of all entries = int g ds (exact: Gauss on linear g
 * times the partition of unity), the entries only on the edge's rows and couplings along
 * it, the normal outward (n . (centre - edge midpoint) < 0), A symmetric */
typedef struct {
  double gx, gy, c; /* g = gx x + gy y + c */
  double centre[2];
  int inward; /* normals that point into the macro */
} EdgeCtx;

static void edge_form(const FeastQ1EdgePoint *p, void *ctxp, double A[2][2]) {
  EdgeCtx *ctx = ctxp;
  const double g = ctx->gx * p->x + ctx->gy * p->y + ctx->c;
  for (int a = 0; a < 2; a++)
    for (int b = 0; b < 2; b++) A[a][b] += p->weight * g * p->phi[a] * p->phi[b];
  ctx->inward += p->normal[0] * (ctx->centre[0] - p->x) + p->normal[1] * (ctx->centre[1] - p->y) > 0.0;
}

static void test_edge_assembly(void) {
  const int N = 9;
  double *xy = macro_xy(N, distorted, 0.0);
  for (int le = 0; le < 4; le++) {
    const double *a = distorted[le], *b = distorted[(le + 1) % 4];
    const double len = hypot(b[0] - a[0], b[1] - a[1]);
    for (int lin = 0; lin < 2; lin++) {
      EdgeCtx ctx = {lin ? 1.0 : 0.0, lin ? 2.0 : 0.0, 1.0, {1.0, 0.7}, 0};
      FeastBand9 A;
      CHECK_OK(feast_band9_create(N, &A));
      CHECK_OK(feast_q1_assemble_edge(N, xy, le, edge_form, &ctx, &A));
      const double mid[2] = {0.5 * (a[0] + b[0]), 0.5 * (a[1] + b[1])};
      const double exact = len * (ctx.gx * mid[0] + ctx.gy * mid[1] + ctx.c);
      CHECK(fabs(sum_all(&A) - exact) <= 1e-13 * exact);
      CHECK(ctx.inward == 0);
      int off_edge = 0, asym = 0;
      for (int n = 0; n < N * N; n++) {
        int on = 0;
        for (int p = 0; p < N; p++) on |= feast_edge_node(le, p, N) == n;
        for (int k = 0; k < FEAST_NBANDS; k++) {
          if (A.band[k][n] == 0.0) continue;
          const long m = n + feast_band_offset(k, N);
          int partner = 0;
          for (int p = 0; p < N; p++) partner |= feast_edge_node(le, p, N) == m;
          off_edge += !on || !partner;
          asym += fabs(A.band[k][n] - A.band[FEAST_NBANDS - 1 - k][m]) > 1e-15;
        }
      }
      CHECK(off_edge == 0 && asym == 0);
      feast_band9_destroy(&A);
    }
  }
  free(xy);
}

/* the Laplace form through the generic point-form path (a different pointer) */
static void laplace_by_points(const FeastQ1Point *p, void *ctx, double Aloc[4][4]) {
  feast_q1_form_laplace(p, ctx, Aloc);
}

/* feast_q1_form_laplace's own kernel (closed form on parallelogram cells, inline
 * quadrature elsewhere) against the generic quadrature, on a parallelogram, a general
 * quadrilateral and a jittered macro (no two cells alike), both rules */
static void test_laplace_kernel(void) {
  const double skew[4][2] = {{0, 0}, {2, 0.5}, {2.6, 1.7}, {0.6, 1.2}};
  const struct {
    const double (*c)[2];
    double jitter;
  } cases[] = {{skew, 0.0}, {distorted, 0.0}, {distorted, 0.3}, {unit, 0.2}};
  const int N = 19;
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
    for (int order = 2; order <= 3; order++) {
      double *xy = macro_xy(N, cases[k].c, cases[k].jitter);
      FeastBand9 fast, ref;
      CHECK_OK(feast_band9_create(N, &fast));
      CHECK_OK(feast_band9_create(N, &ref));
      CHECK_OK(feast_q1_assemble(N, xy, 0, feast_q1_form_laplace, NULL, order, &fast));
      CHECK_OK(feast_q1_assemble(N, xy, 0, laplace_by_points, NULL, order, &ref));
      double diff = 0.0, scale = 0.0;
      for (int b = 0; b < FEAST_NBANDS; b++)
        for (int n = 0; n < N * N; n++) {
          diff = fmax(diff, fabs(fast.band[b][n] - ref.band[b][n]));
          scale = fmax(scale, fabs(ref.band[b][n]));
        }
      CHECK(scale > 0.1 && diff <= 1e-13 * scale);
      feast_band9_destroy(&fast);
      feast_band9_destroy(&ref);
      free(xy);
    }
}

static void test_uniform_stencils(void) {
  const int N = 9;
  double *xy = macro_xy(N, unit, 0.0);
  for (int order = 2; order <= 3; order++) {
    FeastBand9 A, M;
    CHECK_OK(feast_band9_create(N, &A));
    CHECK_OK(feast_band9_create(N, &M));
    CHECK_OK(feast_q1_assemble(N, xy, 0, feast_q1_form_laplace, NULL, order, &A));
    CHECK_OK(feast_q1_assemble(N, xy, 0, feast_q1_form_mass, NULL, order, &M));
    /* interior Laplace row: 8/3 on the diagonal, -1/3 on the eight neighbours */
    for (int dy = -1; dy <= 1; dy++)
      for (int dx = -1; dx <= 1; dx++)
        CHECK_CLOSE(entry(&A, N, 4, 3, dx, dy), dx || dy ? -1.0 / 3.0 : 8.0 / 3.0, 1e-14);
    /* boundary rows: edge node (4,0) has 4/3 and corner (0,0) 2/3 on the diagonal */
    CHECK_CLOSE(entry(&A, N, 4, 0, 0, 0), 4.0 / 3.0, 1e-14);
    CHECK_CLOSE(entry(&A, N, 0, 0, 0, 0), 2.0 / 3.0, 1e-14);
    /* interior mass row: h^2/36 * [1 4 1; 4 16 4; 1 4 1] */
    double h2 = 1.0 / ((N - 1) * (N - 1));
    CHECK_CLOSE(entry(&M, N, 4, 3, 0, 0), 16.0 / 36.0 * h2, 1e-14);
    CHECK_CLOSE(entry(&M, N, 4, 3, 1, 0), 4.0 / 36.0 * h2, 1e-14);
    CHECK_CLOSE(entry(&M, N, 4, 3, -1, 1), 1.0 / 36.0 * h2, 1e-14);
    CHECK_CLOSE(sum_all(&M), 1.0, 1e-14); /* sum of all mass entries = area */
    for (int n = 0; n < N * N; n++) {     /* Laplace rows sum to zero, symmetric */
      double s = 0.0;
      for (int k = 0; k < FEAST_NBANDS; k++) s += A.band[k][n];
      CHECK(fabs(s) < 1e-14);
    }
    feast_band9_destroy(&A);
    feast_band9_destroy(&M);
  }
  free(xy);
}

static void one(long n, const double *x, const double *y, void *ctx, double *v) {
  for (long k = 0; k < n; k++) v[k] = 1.0;
}
static void bilinear(long n, const double *x, const double *y, void *ctx, double *v) {
  for (long k = 0; k < n; k++) v[k] = 1.0 + 2.0 * x[k] - 3.0 * y[k] + 0.5 * x[k] * y[k];
}
static void sines(long n, const double *x, const double *y, void *ctx, double *v) {
  for (long k = 0; k < n; k++) v[k] = sin(M_PI * x[k]) * sin(M_PI * y[k]);
}

/* nodal interpolant of u */
static double *interpolate(int N, const double *xy, FeastQ1Function u) {
  double *uh = malloc(sizeof(double) * N * N), *x = malloc(sizeof(double) * N * N),
         *y = malloc(sizeof(double) * N * N);
  for (int n = 0; n < N * N; n++) x[n] = xy[2 * n], y[n] = xy[2 * n + 1];
  u(N * N, x, y, NULL, uh);
  free(x);
  free(y);
  return uh;
}

static void test_rhs(void) {
  const int N = 17;
  double *xy = macro_xy(N, distorted, 0.3);
  double *b = calloc((size_t)N * N, sizeof(double));
  /* area of the distorted quad by the shoelace formula (interior jitter keeps it) */
  double area = 0.0;
  for (int k = 0; k < 4; k++)
    area += 0.5 * (distorted[k][0] * distorted[(k + 1) % 4][1] - distorted[(k + 1) % 4][0] * distorted[k][1]);
  for (int order = 2; order <= 3; order++) {
    memset(b, 0, sizeof(double) * N * N);
    CHECK_OK(feast_q1_assemble_rhs(N, xy, 3, one, NULL, order, b));
    double s = 0.0;
    for (int n = 0; n < N * N; n++) s += b[n];
    CHECK_CLOSE(s, area, 1e-13);
    FeastBand9 M;
    CHECK_OK(feast_band9_create(N, &M));
    CHECK_OK(feast_q1_assemble(N, xy, 3, feast_q1_form_mass, NULL, order, &M));
    CHECK_CLOSE(sum_all(&M), area, 1e-13);
    feast_band9_destroy(&M);
  }
  free(b);
  free(xy);
}

/* on a rectangle a bilinear f is in the Q1 space, and 3x3 Gauss integrates f phi_i and
 * phi_j phi_i exactly: the right-hand side is the mass matrix times the interpolant, node
 * by node (catches any node or point of a row of cells taken for another) */
static void test_rhs_is_mass_times_interpolant(void) {
  const double rect[4][2] = {{-1, 0.5}, {2, 0.5}, {2, 1.25}, {-1, 1.25}};
  const int N = 13;
  double *xy = macro_xy(N, rect, 0.0), *fh = interpolate(N, xy, bilinear), *x, *Mf;
  double *b = calloc((size_t)N * N, sizeof(double));
  CHECK_OK(feast_grid_alloc(N, &x));
  CHECK_OK(feast_grid_alloc(N, &Mf));
  memcpy(x, fh, sizeof(double) * N * N);
  FeastBand9 M;
  CHECK_OK(feast_band9_create(N, &M));
  CHECK_OK(feast_q1_assemble(N, xy, 0, feast_q1_form_mass, NULL, 3, &M));
  feast_band9_matvec(&M, x, Mf);
  CHECK_OK(feast_q1_assemble_rhs(N, xy, 0, bilinear, NULL, 3, b));
  double worst = 0.0, scale = 0.0;
  for (int n = 0; n < N * N; n++) worst = fmax(worst, fabs(b[n] - Mf[n])), scale = fmax(scale, fabs(Mf[n]));
  worst /= scale;
  printf("  rhs of a bilinear f against M f_h: largest difference %.2e of the largest value\n", worst);
  CHECK(worst < 1e-13);
  feast_band9_destroy(&M);
  feast_grid_free(N, &x);
  feast_grid_free(N, &Mf);
  free(b);
  free(fh);
  free(xy);
}

static void test_l2_error(void) {
  /* a bilinear function on a rectangle is its own interpolant */
  const double rect[4][2] = {{-1, 0.5}, {2, 0.5}, {2, 1.25}, {-1, 1.25}};
  const int N = 9;
  double *xy = macro_xy(N, rect, 0.0), *uh = interpolate(N, xy, bilinear), e2, n2;
  CHECK_OK(feast_q1_l2_error(N, xy, uh, bilinear, NULL, 3, &e2, &n2));
  CHECK(e2 < 1e-26);
  CHECK(n2 > 1.0);
  free(uh);
  free(xy);

  /* sin(pi x) sin(pi y): int u^2 = 1/4 and the interpolation error is O(h^2) */
  double prev = 0.0;
  for (int L = 2; L <= 7; L++) {
    int n = (1 << L) + 1;
    xy = macro_xy(n, unit, 0.0);
    uh = interpolate(n, xy, sines);
    CHECK_OK(feast_q1_l2_error(n, xy, uh, sines, NULL, 3, &e2, &n2));
    CHECK_CLOSE(n2, 0.25, L >= 4 ? 1e-6 : 1e-3);
    double err = sqrt(e2);
    if (L > 2) {
      double eoc = log2(prev / err);
      printf("  L=%d  |u_h - u|_L2 = %.6e  EOC %.4f\n", L, err, eoc);
      CHECK(fabs(eoc - 2.0) < 0.05);
    } else {
      printf("  L=%d  |u_h - u|_L2 = %.6e\n", L, err);
    }
    prev = err;
    free(uh);
    free(xy);
  }
}

static void test_distorted(void) {
  const int N = 17;
  double *xy = macro_xy(N, distorted, 0.35);
  FeastBand9 A;
  CHECK_OK(feast_band9_create(N, &A));
  CHECK_OK(feast_q1_assemble(N, xy, 0, feast_q1_form_laplace, NULL, 2, &A));
  /* linear functions are in the isoparametric Q1 space and int grad(u) . grad(phi_i) = 0
   * for interior nodes; 2x2 Gauss integrates grad phi det J exactly */
  double *u = malloc(sizeof(double) * N * N), *y = malloc(sizeof(double) * N * N);
  for (int n = 0; n < N * N; n++) u[n] = 0.7 - 1.3 * xy[2 * n] + 2.1 * xy[2 * n + 1];
  apply(&A, u, y);
  double worst = 0.0;
  for (int j = 1; j < N - 1; j++)
    for (int i = 1; i < N - 1; i++) worst = fmax(worst, fabs(y[j * N + i]));
  CHECK(worst < 1e-12);
  /* symmetry: A(r, r+off) == A(r+off, r) */
  double asym = 0.0;
  for (int j = 0; j < N; j++)
    for (int i = 0; i < N; i++)
      for (int k = 0; k < FEAST_NBANDS; k++) {
        int dx = k % 3 - 1, dy = k / 3 - 1, ci = i + dx, cj = j + dy;
        if (ci < 0 || cj < 0 || ci >= N || cj >= N) continue;
        asym = fmax(asym, fabs(A.band[k][j * N + i] - A.band[feast_band_index(-dx, -dy)][cj * N + ci]));
      }
  CHECK(asym < 1e-14);
  for (int n = 0; n < N * N; n++) { /* constants are in the kernel */
    double s = 0.0;
    for (int k = 0; k < FEAST_NBANDS; k++) s += A.band[k][n];
    CHECK(fabs(s) < 1e-13);
  }
  feast_band9_destroy(&A);
  free(u);
  free(y);
  free(xy);
}

/* phi_test (beta . grad phi_trial): non-symmetric */
static void form_convection(const FeastQ1Point *p, void *ctx, double Aloc[4][4]) {
  const double *beta = ctx;
  for (int a = 0; a < 4; a++)
    for (int b = 0; b < 4; b++)
      Aloc[a][b] += p->phi[a] * (beta[0] * p->dphi[b][0] + beta[1] * p->dphi[b][1]) * p->weight;
}

static void test_orientation(void) {
  /* (A x)_i = int phi_i beta . grad(x) = beta_x int phi_i: test row, trial column */
  const int N = 9;
  double *xy = macro_xy(N, distorted, 0.3), beta[2] = {1.5, -0.5};
  FeastBand9 A, M;
  CHECK_OK(feast_band9_create(N, &A));
  CHECK_OK(feast_band9_create(N, &M));
  CHECK_OK(feast_q1_assemble(N, xy, 0, form_convection, beta, 2, &A));
  CHECK_OK(feast_q1_assemble(N, xy, 0, feast_q1_form_mass, NULL, 3, &M));
  double *u = malloc(sizeof(double) * N * N), *y = malloc(sizeof(double) * N * N);
  for (int n = 0; n < N * N; n++) u[n] = xy[2 * n];
  apply(&A, u, y);
  for (int n = 0; n < N * N; n++) {
    double m = 0.0;
    for (int k = 0; k < FEAST_NBANDS; k++) m += M.band[k][n];
    CHECK_CLOSE(y[n], beta[0] * m, 1e-12);
  }
  feast_band9_destroy(&A);
  feast_band9_destroy(&M);
  free(u);
  free(y);
  free(xy);
}

static void test_bad_input(void) {
  const int N = 5;
  double *xy = macro_xy(N, unit, 0.0), b[25] = {0}, e2, n2;
  FeastBand9 A;
  CHECK_OK(feast_band9_create(N, &A));
  CHECK_FAILS(feast_q1_assemble(1, xy, 0, feast_q1_form_laplace, NULL, 2, &A));
  CHECK_FAILS(feast_q1_assemble(N, xy, 0, feast_q1_form_laplace, NULL, 4, &A));
  CHECK_FAILS(feast_q1_assemble(N, xy, 0, feast_q1_form_laplace, NULL, 1, &A));
  CHECK_FAILS(feast_q1_assemble(N, xy, 0, NULL, NULL, 2, &A));
  CHECK_FAILS(feast_q1_assemble(N + 1, xy, 0, feast_q1_form_laplace, NULL, 2, &A));
  CHECK_FAILS(feast_q1_assemble_rhs(N, xy, 0, one, NULL, 5, b));
  CHECK_FAILS(feast_q1_l2_error(N, xy, b, one, NULL, 0, &e2, &n2));
  /* move node (2,1) past node (3,1): cells (2,0) and (2,1) invert */
  xy[2 * (1 * N + 2)] = 0.9;
  int st = feast_q1_assemble(N, xy, 7, feast_q1_form_laplace, NULL, 2, &A);
  CHECK(st == FEAST_ERR_MESH);
  CHECK(strstr(feast_error_message(), "macro 7") != NULL);
  CHECK(strstr(feast_error_message(), "cell (") != NULL);
  feast_error_clear();
  CHECK(sum_all(&A) == 0.0); /* nothing accumulated */
  CHECK(feast_q1_assemble_rhs(N, xy, 2, one, NULL, 2, b) == FEAST_ERR_MESH);
  feast_error_clear();
  CHECK_FAILS(feast_q1_l2_error(N, xy, b, one, NULL, 2, &e2, &n2));
  feast_band9_destroy(&A);
  free(xy);
}

/* point location and evaluation on a distorted, jittered macro: the point x(s,t) of a
 * cell is found in that cell (or a neighbour, on a shared edge) at its (s,t); a bilinear
 * function of the reference coordinates is reproduced; points outside are not found */
static void test_locate(void) {
  const int N = 9;
  double *xy = macro_xy(N, distorted, 0.3), u[81];
  for (int k = 0; k < N * N; k++) u[k] = 1.0 + 2.0 * xy[2 * k] - 3.0 * xy[2 * k + 1];
  const double st[5][2] = {{0.5, 0.5}, {0.1, 0.9}, {0.0, 0.0}, {1.0, 0.3}, {0.77, 0.01}};
  for (int j = 0; j < N - 1; j += 3)
    for (int i = 0; i < N - 1; i += 2)
      for (int q = 0; q < 5; q++) {
        const double s = st[q][0], t = st[q][1];
        const double *P0 = xy + 2 * (j * N + i), *P1 = P0 + 2, *P3 = P0 + 2 * N, *P2 = P3 + 2;
        double x = (1 - s) * (1 - t) * P0[0] + s * (1 - t) * P1[0] + s * t * P2[0] + (1 - s) * t * P3[0];
        double y = (1 - s) * (1 - t) * P0[1] + s * (1 - t) * P1[1] + s * t * P2[1] + (1 - s) * t * P3[1];
        int ci = -1, cj = -1;
        double r[2];
        CHECK(feast_q1_locate(N, xy, x, y, 1e-9, &ci, &cj, r) == 1);
        if (ci == i && cj == j) CHECK(fabs(r[0] - s) < 1e-12 && fabs(r[1] - t) < 1e-12);
        else CHECK(abs(ci - i) <= 1 && abs(cj - j) <= 1 && (q >= 2)); /* on an edge: a neighbour may hold it */
        /* u is linear in x, y but not in the cell's (s,t) unless the map is: compare with the
         * interpolant's value built from the nodal values at (r) */
        const double *U0 = u + cj * N + ci, *U3 = U0 + N;
        const double want = (1 - r[0]) * (1 - r[1]) * U0[0] + r[0] * (1 - r[1]) * U0[1] + r[0] * r[1] * U3[1] +
                            (1 - r[0]) * r[1] * U3[0];
        CHECK_CLOSE(feast_q1_eval(N, u, ci, cj, r), want, 1e-14);
      }
  int ci, cj;
  double r[2];
  CHECK(feast_q1_locate(N, xy, -0.5, 0.5, 1e-9, &ci, &cj, r) == 0);
  CHECK(feast_q1_locate(N, xy, 1.0, 1.6, 1e-9, &ci, &cj, r) == 0);
  /* a corner of the macro */
  CHECK(feast_q1_locate(N, xy, 0.0, 0.0, 1e-9, &ci, &cj, r) == 1 && ci == 0 && cj == 0);
  CHECK_CLOSE(feast_q1_eval(N, u, ci, cj, r), 1.0, 1e-14);
  free(xy);
}

static int run(void) {
  test_uniform_stencils();
  test_laplace_kernel();
  test_rhs();
  test_rhs_is_mass_times_interpolant();
  test_l2_error();
  test_edge_assembly();
  test_distorted();
  test_orientation();
  test_bad_input();
  test_locate();
  return 0;
}

FEAST_TEST_MAIN(run)

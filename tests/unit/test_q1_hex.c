/* Q1 on hexahedral macros (feast/fem/q1_hex.h, feast/mesh/hex.h, feast/la/band.h; issue
 * #47):
 *  - the hexahedron's cell data agree with the element's nodes; its face nodes;
 *  - on the unit cube the Laplace and mass rows are the textbook 27-point stencils
 *    (Laplace h (8/3, 0, -1/6, -1/12) at centre, faces, edges, corners; mass the tensor
 *    product of h/6 (1, 4, 1)), with both quadrature orders, through the closed form and
 *    through the point loop;
 *  - on a twisted (non-affine) hexahedron the matrices are symmetric to the bit, the
 *    Laplace rows of the interior annihilate linear functions (exact: the 2x2x2 rule
 *    integrates adj(J)^T grad_ref phi exactly), and the mass sums to the volume (a
 *    frustum: h/3 (a^2 + ab + b^2));
 *  - -Laplace u = f with Dirichlet values converges with order 2 in L2 on the unit cube
 *    and on the twisted hexahedron (levels 2..5, Jacobi-PCG to 1e-11, feast_band_cg);
 *  - bad input: an inverted, a non-convex and a NaN hexahedron, a 9-band matrix, order 4:
 *    one error each, naming the cell, and nothing written. */
#include "feast/base/error.h"
#include "feast/fem/q1_hex.h"
#include "feast/mesh/hex.h"
#include "solvers/band_cg.h"
#include "feast_test.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void check_cell_data(void) {
  const FeastMacroCell *c = &feast_macro_hex;
  const FeastQ1Element *e = &feast_q1_hex;
  CHECK(c->dim == 3 && c->corners == 8 && c->edges == 12 && c->faces == 6);
  CHECK(e->dim == 3 && e->nodes == 8 && e->stencil == &feast_stencil_q1_3d && e->max_points == 27);
  for (int a = 0; a < 8; a++) CHECK(memcmp(c->at[a], e->node[a], 3) == 0);
  for (int k = 0; k < c->edges; k++) { /* an edge joins corners one axis apart */
    int differ = 0;
    for (int d = 0; d < 3; d++) differ += c->at[c->edge[k][0]][d] != c->at[c->edge[k][1]][d];
    CHECK(differ == 1);
    for (int l = 0; l < k; l++)
      CHECK(!((c->edge[l][0] == c->edge[k][0] && c->edge[l][1] == c->edge[k][1]) ||
              (c->edge[l][0] == c->edge[k][1] && c->edge[l][1] == c->edge[k][0])));
  }
  long node[8];
  feast_q1_hex_cell_nodes(9, 2, 3, 4, node);
  for (int a = 0; a < 8; a++) CHECK(node[a] == ((4 + e->node[a][2]) * 9 + 3 + e->node[a][1]) * 9 + 2 + e->node[a][0]);
  unsigned char mask[125]; /* the face nodes: all of them, one face, two opposite faces */
  const unsigned sets[3] = {FEAST_HEX_FACES, FEAST_HEX_FACE_Y1, FEAST_HEX_FACE_X0 | FEAST_HEX_FACE_X1};
  const int count[3] = {125 - 27, 25, 50};
  for (int t = 0; t < 3; t++) {
    feast_hex_face_nodes(5, sets[t], mask);
    int n = 0;
    for (int r = 0; r < 125; r++) n += mask[r];
    CHECK(n == count[t]);
  }
  CHECK(mask[0] && mask[4] && !mask[2] && mask[(2 * 5 + 2) * 5 + 4]);
  double xyz[3 * 27];
  feast_hex_macro_coords(3, feast_test_twisted_hex, xyz);
  for (int a = 0; a < 8; a++) { /* corners where they are, the centre their mean */
    const long r = ((long)2 * e->node[a][2] * 3 + 2 * e->node[a][1]) * 3 + 2 * e->node[a][0];
    for (int d = 0; d < 3; d++) CHECK(xyz[3 * r + d] == feast_test_twisted_hex[a][d]);
  }
  for (int d = 0; d < 3; d++) {
    double mean = 0.0;
    for (int a = 0; a < 8; a++) mean += feast_test_twisted_hex[a][d] / 8;
    CHECK(fabs(xyz[3 * 13 + d] - mean) <= 1e-15);
  }
}

/* the Laplace form through the point loop (not the closed form: another function) */
static void laplace_by_points(const FeastQ1HexPoint *p, void *ctx, double Aloc[8][8]) {
  feast_q1_hex_form_laplace(p, ctx, Aloc);
}

static int assemble(int N, const double corner[8][3], FeastQ1HexForm form, int order, FeastBand *A, double **xyz) {
  FEAST_CALL(FEAST_ALLOC(3L * N * N * N, xyz));
  feast_hex_macro_coords(N, corner, *xyz);
  FEAST_CALL(feast_band_create(&feast_stencil_q1_3d, N, A));
  return feast_q1_hex_assemble(N, *xyz, 0, form, NULL, order, A);
}

/* the interior row of node (2,2,2) of a 5^3 unit cube against the stencil want[number of
 * nonzero offset components] */
static void check_row(FeastQ1HexForm form, int order, const double want[4]) {
  FeastBand A;
  double *xyz;
  CHECK_OK(assemble(5, feast_test_unit_cube, form, order, &A, &xyz));
  const long r = (2 * 5 + 2) * 5 + 2;
  for (int k = 0; k < 27; k++) {
    const signed char *o = feast_stencil_q1_3d.offset[k];
    CHECK(fabs(A.band[k][r] - want[abs(o[0]) + abs(o[1]) + abs(o[2])]) <= 1e-14 * want[0]);
  }
  feast_band_destroy(&A);
  free(xyz);
}

static void check_unit_cube(void) {
  const double h = 0.25, h3 = h * h * h / 216;
  const double laplace[4] = {8 * h / 3, 0.0, -h / 6, -h / 12};
  const double mass[4] = {64 * h3, 16 * h3, 4 * h3, h3};
  for (int order = 2; order <= 3; order++) {
    check_row(feast_q1_hex_form_laplace, order, laplace);
    check_row(laplace_by_points, order, laplace);
    check_row(feast_q1_hex_form_mass, order, mass);
  }
}

/* band k at row r against the opposite band at the neighbour: bitwise */
static int symmetric(const FeastBand *A) {
  const long N = A->N;
  int sym = 1;
  for (long r = 0; r < N * N * N; r++)
    for (int k = 0; k < 27; k++) {
      const long p[3] = {r % N, r / N % N, r / (N * N)};
      long q[3];
      if (!feast_stencil_neighbour(A->stencil, k, N, p, q)) continue;
      sym &= A->band[k][r] == A->band[26 - k][(q[2] * N + q[1]) * N + q[0]];
    }
  return sym;
}

/* max over interior rows of |A u| / max |A| |u| for u = 1 + 2x + 3y + 5z */
static double linear_defect(const FeastBand *A, const double *xyz) {
  const long N = A->N, n = N * N * N;
  double *u, *y, worst = 0.0, scale = 0.0;
  if (feast_band_vec_alloc(A, &u) || feast_band_vec_alloc(A, &y)) return HUGE_VAL;
  for (long r = 0; r < n; r++) u[r] = 1 + 2 * xyz[3 * r] + 3 * xyz[3 * r + 1] + 5 * xyz[3 * r + 2];
  feast_band_apply(A, u, y);
  for (long r = 0; r < n; r++) {
    scale = fmax(scale, fabs(A->band[13][r] * u[r]));
    const long i = r % N, j = r / N % N, k = r / (N * N);
    if (i > 0 && j > 0 && k > 0 && i < N - 1 && j < N - 1 && k < N - 1) worst = fmax(worst, fabs(y[r]));
  }
  feast_band_vec_free(A, &u);
  feast_band_vec_free(A, &y);
  return worst / scale;
}

/* the sum of A's entries, and *size that of their magnitudes */
static double sum_all(const FeastBand *A, double *size) {
  double s = 0.0;
  *size = 0.0;
  for (int k = 0; k < 27; k++)
    for (long r = 0; r < feast_band_rows(A); r++) s += A->band[k][r], *size += fabs(A->band[k][r]);
  return s;
}

static void check_twisted(void) {
  const int N = 9;
  for (int order = 2; order <= 3; order++) {
    FeastBand A, M;
    double *xyz, *xyz2;
    CHECK_OK(assemble(N, feast_test_twisted_hex, feast_q1_hex_form_laplace, order, &A, &xyz));
    CHECK_OK(assemble(N, feast_test_twisted_hex, feast_q1_hex_form_mass, order, &M, &xyz2));
    CHECK(symmetric(&A));
    CHECK(symmetric(&M));
    CHECK(linear_defect(&A, xyz) <= 1e-13);
    double size;
    CHECK(fabs(sum_all(&A, &size)) <= 1e-15 * size); /* constants in the kernel */
    feast_band_destroy(&A);
    feast_band_destroy(&M);
    free(xyz2);
    /* the closed form of parallelepipeds against the point loop */
    FeastBand B, C;
    CHECK_OK(assemble(N, feast_test_sheared_hex, feast_q1_hex_form_laplace, order, &B, &xyz2));
    CHECK_OK(feast_band_create(&feast_stencil_q1_3d, N, &C));
    CHECK_OK(feast_q1_hex_assemble(N, xyz2, 0, laplace_by_points, NULL, order, &C));
    double diff = 0.0, big = 0.0;
    for (int k = 0; k < 27; k++)
      for (long r = 0; r < feast_band_rows(&B); r++)
        diff = fmax(diff, fabs(B.band[k][r] - C.band[k][r])), big = fmax(big, fabs(C.band[k][r]));
    CHECK(diff <= 1e-14 * big);
    CHECK(symmetric(&B));
    CHECK(linear_defect(&B, xyz2) <= 1e-13);
    feast_band_destroy(&B);
    feast_band_destroy(&C);
    free(xyz);
    free(xyz2);
  }
}

static void one(long n, const double *x, const double *y, const double *z, void *ctx, double *v) {
  for (long q = 0; q < n; q++) v[q] = 1.0;
}

static void check_volume(void) {
  const double a = 1.0, b = 0.4, h = 0.7, want = h / 3 * (a * a + a * b + b * b);
  const double frustum[8][3] = {{-a / 2, -a / 2, 0}, {a / 2, -a / 2, 0}, {a / 2, a / 2, 0}, {-a / 2, a / 2, 0},
                                {-b / 2, -b / 2, h}, {b / 2, -b / 2, h}, {b / 2, b / 2, h}, {-b / 2, b / 2, h}};
  const int N = 5;
  FeastBand M;
  double *xyz, *m, *f;
  CHECK_OK(assemble(N, frustum, feast_q1_hex_form_mass, 2, &M, &xyz));
  CHECK_OK(FEAST_ALLOC(N * N * N, &m));
  CHECK_OK(FEAST_ALLOC(N * N * N, &f));
  CHECK_OK(feast_q1_hex_lumped_mass(N, xyz, 0, m));
  CHECK_OK(feast_q1_hex_assemble_rhs(N, xyz, 0, one, NULL, 2, f));
  double lumped = 0.0;
  int same = 1;
  for (long r = 0; r < N * N * N; r++) {
    lumped += m[r];
    same &= m[r] == f[r];
    double row = 0.0; /* the mass matrix's row sum is the lumped mass */
    for (int k = 0; k < 27; k++) row += M.band[k][r];
    CHECK(fabs(row - m[r]) <= 1e-15 * want);
  }
  CHECK_CLOSE(lumped, want, 1e-14);
  double size;
  CHECK_CLOSE(sum_all(&M, &size), want, 1e-14);
  CHECK(same);
  feast_band_destroy(&M);
  free(xyz);
  free(m);
  free(f);
}

/* ---- order 2 in L2 ---- */

/* on the unit cube: u = sin(pi x) sin(pi y) sin(pi z), f = 3 pi^2 u; on the twisted one
 * u = sin(x) e^y (1 + z^2), f = -2 sin(x) e^y */
static void u_cube(long n, const double *x, const double *y, const double *z, void *ctx, double *v) {
  for (long q = 0; q < n; q++) v[q] = sin(M_PI * x[q]) * sin(M_PI * y[q]) * sin(M_PI * z[q]);
}
static void f_cube(long n, const double *x, const double *y, const double *z, void *ctx, double *v) {
  u_cube(n, x, y, z, ctx, v);
  for (long q = 0; q < n; q++) v[q] *= 3 * M_PI * M_PI;
}
static void u_twisted(long n, const double *x, const double *y, const double *z, void *ctx, double *v) {
  for (long q = 0; q < n; q++) v[q] = sin(x[q]) * exp(y[q]) * (1 + z[q] * z[q]);
}
static void f_twisted(long n, const double *x, const double *y, const double *z, void *ctx, double *v) {
  for (long q = 0; q < n; q++) v[q] = -2 * sin(x[q]) * exp(y[q]);
}

/* the relative L2 error of the Q1 solution at level L */
static double l2_error(const double corner[8][3], FeastQ1HexFunction u, FeastQ1HexFunction f, int L) {
  const int N = (1 << L) + 1;
  const long n = (long)N * N * N;
  FeastBand A;
  double *xyz, *b, *x, *ue, err2 = HUGE_VAL, norm2 = 1.0;
  unsigned char *fixed;
  if (assemble(N, corner, feast_q1_hex_form_laplace, 2, &A, &xyz) || FEAST_ALLOC(n, &b) ||
      feast_band_vec_alloc(&A, &x) || FEAST_ALLOC(n, &ue) || FEAST_ALLOC(n, &fixed))
    return HUGE_VAL;
  CHECK_OK(feast_q1_hex_assemble_rhs(N, xyz, 0, f, NULL, 3, b));
  double *px = malloc(sizeof(double) * 3 * n);
  for (long r = 0; r < n; r++) px[r] = xyz[3 * r], px[n + r] = xyz[3 * r + 1], px[2 * n + r] = xyz[3 * r + 2];
  u(n, px, px + n, px + 2 * n, NULL, ue);
  free(px);
  feast_hex_face_nodes(N, FEAST_HEX_FACES, fixed);
  for (long r = 0; r < n; r++) x[r] = fixed[r] ? ue[r] : 0.0;
  FeastBandCGStats st; /* Jacobi-PCG on the free rows: the reference solve here */
  CHECK_OK(feast_band_cg(&A, fixed, b, x, 1e-11, 2000, NULL, NULL, &st));
  CHECK_OK(feast_q1_hex_l2_error(N, xyz, x, u, NULL, 3, &err2, &norm2));
  feast_band_vec_free(&A, &x);
  feast_band_destroy(&A);
  free(xyz), free(b), free(ue), free(fixed);
  return sqrt(err2 / norm2);
}

static void check_order(const char *name, const double corner[8][3], FeastQ1HexFunction u, FeastQ1HexFunction f) {
  double e[6];
  for (int L = 2; L <= 5; L++) {
    e[L] = l2_error(corner, u, f, L);
    if (L > 2) printf("%s L%d: L2 error %.4e, order %.3f\n", name, L, e[L], log2(e[L - 1] / e[L]));
  }
  const double eoc = log2(e[4] / e[5]);
  CHECK(eoc > 1.9 && eoc < 2.1);
  CHECK(log2(e[3] / e[4]) > 1.8);
}

/* ---- bad input ---- */

/* the assembly of corner's macro (number 7) fails with code, its message naming want;
 * the matrix and the right-hand side untouched */
static void check_refused(const double corner[8][3], int order, int code, const char *want) {
  const int N = 3;
  double xyz[3 * 27], b[27] = {0};
  feast_hex_macro_coords(N, corner, xyz);
  FeastBand A;
  CHECK_OK(feast_band_create(&feast_stencil_q1_3d, N, &A));
  CHECK(feast_q1_hex_assemble(N, xyz, 7, feast_q1_hex_form_laplace, NULL, order, &A) == code);
  const char *msg = feast_error_message();
  CHECK(strstr(msg, want) != NULL);
  if (!strstr(msg, want)) fprintf(stderr, "message: %s\n", msg);
  feast_error_clear();
  CHECK(feast_q1_hex_assemble_rhs(N, xyz, 7, one, NULL, order, b) == code);
  feast_error_clear();
  int untouched = 1;
  for (int k = 0; k < 27; k++)
    for (int r = 0; r < 27; r++) untouched &= A.band[k][r] == 0.0 && b[r] == 0.0;
  CHECK(untouched);
  feast_band_destroy(&A);
}

static void check_bad_input(void) {
  double inverted[8][3], dented[8][3], broken[8][3];
  memcpy(inverted, feast_test_unit_cube, sizeof inverted);
  for (int a = 0; a < 4; a++) /* top and bottom swapped: a mirror image */
    for (int d = 0; d < 3; d++)
      inverted[a][d] = feast_test_unit_cube[a + 4][d], inverted[a + 4][d] = feast_test_unit_cube[a][d];
  check_refused(inverted, 2, FEAST_ERR_MESH, "macro 7, cell (0,0,0) of 2^3: Jacobian determinant");
  memcpy(dented, feast_test_unit_cube, sizeof dented);
  dented[6][0] = dented[6][1] = dented[6][2] = 0.2; /* corner 6 pushed through the cube */
  check_refused(dented, 2, FEAST_ERR_MESH, "inverted or degenerate hexahedron");
  memcpy(broken, feast_test_unit_cube, sizeof broken);
  broken[3][1] = NAN;
  check_refused(broken, 3, FEAST_ERR_MESH, "Jacobian determinant");
  check_refused(feast_test_unit_cube, 4, FEAST_ERR_ARG, "order must be 2 (2x2x2 Gauss) or 3");
  FeastBand9 A9;
  double xyz[3 * 27];
  feast_hex_macro_coords(3, feast_test_unit_cube, xyz);
  CHECK_OK(feast_band9_create(3, &A9));
  FeastBand wrong = {&feast_stencil_q1_2d, 3, {NULL}};
  memcpy(wrong.band, A9.band, sizeof A9.band);
  CHECK(feast_q1_hex_assemble(3, xyz, 0, feast_q1_hex_form_laplace, NULL, 2, &wrong) == FEAST_ERR_ARG);
  CHECK(strstr(feast_error_message(), "27-band stencil") != NULL);
  feast_error_clear();
  feast_band9_destroy(&A9);
}

static int run(void) {
  check_cell_data();
  check_unit_cube();
  check_twisted();
  check_volume();
  check_order("unit cube", feast_test_unit_cube, u_cube, f_cube);
  check_order("twisted hexahedron", feast_test_twisted_hex, u_twisted, f_twisted);
  check_bad_input();
  return 0;
}

FEAST_TEST_MAIN(run)

/* The element-level assembly on hexahedra (feast_q1_hex_assemble_cells) and the 3D Q1/Q1
 * SUPG/PSPG form (navier_stokes/hex_forms.h):
 *  - a cell form writing the Laplace and mass point forms gives feast_q1_hex_assemble's
 *    matrices and the vectors of feast_q1_hex_lumped_mass / _assemble_rhs (1e-14) on a
 *    twisted macro with jittered nodes and on a sheared one (the closed-form Laplace);
 *    the cell data (nodes, points, centre, Jacobian) are the cell's; a NULL matrix is
 *    not stored; bad arguments are refused;
 *  - Stokes without stabilisation: A = nu Laplace, BT_d = B_d^T to rounding, C = 0;
 *  - consistency with the full stabilisation on a macro of parallelepipeds: for u =
 *    (x + y, y + z, x - 2z), p = 2x - y + z/2 and f = (w.grad) u + grad p the interior rows of K x - F
 *    vanish to rounding for a constant w, for w = u (f evaluated per point), and for
 *    Stokes; without the force they do not (the check can fail);
 *  - ns_hex_tau on a cube and on an h x 2h x 4h box; the form's errors (force, viscous
 *    residual) in NsHexForm.status;
 *  - the time of one L5 macro's 8 blocks and 4 vectors (printed). */
#include "feast/base/error.h"
#include "feast/base/log.h"
#include "feast/mesh/hex.h"
#include "navier_stokes/hex_forms.h"
#include "feast_test.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* xyz of corner's macro at N nodes per side, interior nodes moved by up to jitter cells */
static double *macro_coords(int N, const double corner[8][3], double jitter) {
  double *xyz = malloc(sizeof(double) * 3 * N * N * N);
  if (!xyz) return NULL;
  feast_hex_macro_coords(N, corner, xyz);
  unsigned seed = 47;
  for (long k = 1; k < N - 1; k++)
    for (long j = 1; j < N - 1; j++)
      for (long i = 1; i < N - 1; i++)
        for (int d = 0; d < 3; d++) xyz[3 * ((k * N + j) * N + i) + d] += jitter * feast_test_random(&seed) / (N - 1);
  return xyz;
}

static int interior(long N, long r) {
  const long i = r % N, j = r / N % N, k = r / (N * N);
  return i > 0 && j > 0 && k > 0 && i < N - 1 && j < N - 1 && k < N - 1;
}

/* max |A - s B| / max |s B| over all bands */
static double band_diff(const FeastBand *A, const FeastBand *B, double s) {
  double d = 0.0, big = 0.0;
  for (int k = 0; k < 27; k++)
    for (long r = 0; r < feast_band_rows(A); r++)
      d = fmax(d, fabs(A->band[k][r] - s * B->band[k][r])), big = fmax(big, fabs(s * B->band[k][r]));
  return d / big;
}

static double vec_diff(long n, const double *a, const double *b) {
  double d = 0.0, big = 0.0;
  for (long r = 0; r < n; r++) d = fmax(d, fabs(a[r] - b[r])), big = fmax(big, fabs(b[r]));
  return d / big;
}

/* ---- the cell assembly against the point assembly ---- */

static void g_at(long n, const double *x, const double *y, const double *z, void *ctx, double *v) {
  (void)ctx;
  for (long q = 0; q < n; q++) v[q] = 1.0 + x[q] * y[q] + z[q] * z[q];
}

/* Laplace into Aloc[0], mass into Aloc[1] and Aloc[2]; int phi_a and int g phi_a into bloc */
static void laplace_mass(const FeastQ1HexCell *c, void *ctx, double (*Aloc)[8][8], double (*bloc)[8]) {
  (void)ctx;
  for (int q = 0; q < c->nq; q++) {
    const FeastQ1HexPoint *p = &c->q[q];
    feast_q1_hex_form_laplace(p, NULL, Aloc[0]);
    feast_q1_hex_form_mass(p, NULL, Aloc[1]);
    feast_q1_hex_form_mass(p, NULL, Aloc[2]);
    double g;
    g_at(1, &p->x[0], &p->x[1], &p->x[2], NULL, &g);
    for (int a = 0; a < 8; a++) bloc[0][a] += p->phi[a] * p->weight, bloc[1][a] += g * p->phi[a] * p->weight;
  }
}

static void check_point_forms(const double corner[8][3], double jitter) {
  const int N = 6;
  const long n = (long)N * N * N;
  double *xyz = macro_coords(N, corner, jitter), *b[2], *m = calloc(n, sizeof(double)), *g = calloc(n, sizeof(double));
  b[0] = calloc(n, sizeof(double)), b[1] = calloc(n, sizeof(double));
  for (int order = 2; order <= 3; order++) {
    FeastBand L, M, K[2], *A[3] = {&K[0], &K[1], NULL};
    CHECK_OK(feast_band_create(&feast_stencil_q1_3d, N, &L));
    CHECK_OK(feast_band_create(&feast_stencil_q1_3d, N, &M));
    for (int k = 0; k < 2; k++) CHECK_OK(feast_band_create(&feast_stencil_q1_3d, N, &K[k]));
    CHECK_OK(feast_q1_hex_assemble(N, xyz, 3, feast_q1_hex_form_laplace, NULL, order, &L));
    CHECK_OK(feast_q1_hex_assemble(N, xyz, 3, feast_q1_hex_form_mass, NULL, order, &M));
    memset(b[0], 0, sizeof(double) * n), memset(b[1], 0, sizeof(double) * n);
    memset(m, 0, sizeof(double) * n), memset(g, 0, sizeof(double) * n);
    CHECK_OK(feast_q1_hex_assemble_cells(N, xyz, 3, laplace_mass, NULL, order, 3, A, 2, b));
    CHECK_OK(feast_q1_hex_lumped_mass(N, xyz, 3, m));
    CHECK_OK(feast_q1_hex_assemble_rhs(N, xyz, 3, g_at, NULL, order, g));
    CHECK(band_diff(&K[0], &L, 1.0) <= 1e-14);
    CHECK(band_diff(&K[1], &M, 1.0) <= 1e-14);
    CHECK(vec_diff(n, b[0], m) <= (order == 2 ? 1e-14 : 1e-13)); /* lumped mass: order 2 */
    CHECK(vec_diff(n, b[1], g) <= 1e-14);
    for (int k = 0; k < 2; k++) feast_band_destroy(&K[k]);
    feast_band_destroy(&L);
    feast_band_destroy(&M);
  }
  free(xyz), free(b[0]), free(b[1]), free(m), free(g);
}

/* the cell data of the sheared macro (affine: every cell the same parallelepiped, its
 * edge vectors those of the macro over N - 1) */
typedef struct {
  int N, order, bad;
  const double (*corner)[3];
} CellCheck;

static void cell_check(const FeastQ1HexCell *c, void *ctx, double (*Aloc)[8][8], double (*bloc)[8]) {
  CellCheck *cc = ctx;
  const double(*X)[3] = cc->corner, h = 1.0 / (cc->N - 1);
  long node[8];
  feast_q1_hex_cell_nodes(cc->N, c->i, c->j, c->k, node);
  int bad = c->macro != 5 || c->nq != cc->order * cc->order * cc->order || memcmp(node, c->node, sizeof node);
  for (int q = 0; q < c->nq; q++)
    bad |= c->q[q].macro != 5 || c->q[q].cell[0] != c->i || c->q[q].cell[1] != c->j || c->q[q].cell[2] != c->k;
  const double vol = c->centre.weight, ref[3] = {(c->i + 0.5) * h, (c->j + 0.5) * h, (c->k + 0.5) * h};
  double wsum = 0.0;
  for (int q = 0; q < c->nq; q++) wsum += c->q[q].weight;
  bad |= fabs(wsum - vol) > 1e-15;
  for (int d = 0; d < 3; d++) {
    const double e[3] = {X[1][d] - X[0][d], X[3][d] - X[0][d], X[4][d] - X[0][d]};
    for (int f = 0; f < 3; f++) bad |= fabs(c->jac[d][f] - e[f] * h) > 1e-15;
    bad |= fabs(c->centre.x[d] - (X[0][d] + e[0] * ref[0] + e[1] * ref[1] + e[2] * ref[2])) > 1e-14;
  }
  const double(*J)[3] = c->jac;
  const double det = J[0][0] * (J[1][1] * J[2][2] - J[1][2] * J[2][1]) -
                     J[0][1] * (J[1][0] * J[2][2] - J[1][2] * J[2][0]) +
                     J[0][2] * (J[1][0] * J[2][1] - J[1][1] * J[2][0]);
  bad |= fabs(det - vol) > 1e-15 * fabs(det) || fabs(c->centre.phi[0] - 0.125) > 1e-16;
  cc->bad += bad;
  Aloc[0][0][0] += 1.0, bloc[0][7] += 1.0; /* one cell each */
}

static void check_cell_data(void) {
  const int N = 4;
  double *xyz = macro_coords(N, feast_test_sheared_hex, 0.0), *b = calloc(N * N * N, sizeof(double));
  FeastBand K, *A = &K;
  CHECK_OK(feast_band_create(&feast_stencil_q1_3d, N, &K));
  for (int order = 2; order <= 3; order++) {
    CellCheck cc = {N, order, 0, feast_test_sheared_hex};
    CHECK_OK(feast_q1_hex_assemble_cells(N, xyz, 5, cell_check, &cc, order, 1, &A, 1, &b));
    CHECK(cc.bad == 0);
  }
  const long last = ((N - 2) * N + N - 2) * N + N - 2, top = ((N - 1) * N + N - 1) * N; /* (0, N-1, N-1) */
  CHECK(K.band[13][0] == 2.0 && K.band[13][last] == 2.0 && K.band[13][last + 1] == 0.0 && b[top] == 2.0);
  /* refused: order 4, too many matrices, a 9-band-stencil matrix, an inverted macro */
  CHECK(feast_q1_hex_assemble_cells(N, xyz, 5, cell_check, NULL, 4, 1, &A, 0, NULL) == FEAST_ERR_ARG);
  feast_error_clear();
  CHECK(feast_q1_hex_assemble_cells(N, xyz, 5, cell_check, NULL, 2, FEAST_Q1_HEX_MAX_MATRICES + 1, &A, 0, NULL) ==
        FEAST_ERR_ARG);
  feast_error_clear();
  FeastBand wrong = K;
  wrong.stencil = &feast_stencil_q1_2d;
  FeastBand *W = &wrong;
  CHECK(feast_q1_hex_assemble_cells(N, xyz, 5, cell_check, NULL, 2, 1, &W, 0, NULL) == FEAST_ERR_ARG);
  CHECK(strstr(feast_error_message(), "27-band stencil") != NULL);
  feast_error_clear();
  for (long r = 0; r < N * N; r++) xyz[3 * r + 2] = 2.0; /* the bottom above the top */
  CHECK(feast_q1_hex_assemble_cells(N, xyz, 5, cell_check, NULL, 2, 1, &A, 0, NULL) == FEAST_ERR_MESH);
  CHECK(strstr(feast_error_message(), "macro 5, cell (0,0,0)") != NULL);
  feast_error_clear();
  feast_band_destroy(&K);
  free(xyz), free(b);
}

/* ---- the Navier-Stokes form ---- */

/* the form's 8 blocks and 4 vectors on one macro */
typedef struct {
  int N;
  FeastBand K[NS_HEX_NBLOCKS];
  double *F[NS_HEX_NRHS];
} HexSystem;

static int system_assemble(int N, const double *xyz, NsHexForm *f, int order, HexSystem *s) {
  s->N = N;
  FeastBand *A[NS_HEX_NBLOCKS];
  for (int k = 0; k < NS_HEX_NBLOCKS; k++) {
    FEAST_CALL(feast_band_create(&feast_stencil_q1_3d, N, &s->K[k]));
    A[k] = &s->K[k];
  }
  for (int r = 0; r < NS_HEX_NRHS; r++) FEAST_CALL(FEAST_ALLOC((long)N * N * N, &s->F[r]));
  f->status = 0;
  FEAST_CALL(feast_q1_hex_assemble_cells(N, xyz, 0, ns_hex_form, f, order, NS_HEX_NBLOCKS, A, NS_HEX_NRHS, s->F));
  return f->status;
}

static void system_destroy(HexSystem *s) {
  for (int k = 0; k < NS_HEX_NBLOCKS; k++) feast_band_destroy(&s->K[k]);
  for (int r = 0; r < NS_HEX_NRHS; r++) free(s->F[r]);
}

/* y <- A x and m <- |A| |x| (padded vectors): the size of a row's products */
static int apply_both(const FeastBand *A, const double *x, double *y, double *m) {
  FeastBand B;
  double *ax;
  FEAST_CALL(feast_band_create(A->stencil, A->N, &B));
  FEAST_CALL(feast_band_vec_alloc(A, &ax));
  const long n = feast_band_rows(A);
  for (int k = 0; k < A->stencil->nbands; k++)
    for (long r = 0; r < n; r++) B.band[k][r] = fabs(A->band[k][r]);
  for (long r = 0; r < n; r++) ax[r] = fabs(x[r]);
  feast_band_apply(A, x, y);
  feast_band_apply(&B, ax, m);
  feast_band_destroy(&B);
  feast_band_vec_free(A, &ax);
  return 0;
}

/* max over the interior rows of |K x - F| over the largest |K| |x| + |F| of those rows,
 * per equation, the worst equation (rounding: ~1e-16); x = (u1, u2, u3, p) padded vectors */
static double interior_defect(const HexSystem *s, double *const x[4]) {
  const long N = s->N, n = N * N * N;
  enum { NY = NS_HEX_NBLOCKS + 3 };
  double *y[NY], *m[NY], worst = 0.0; /* the blocks applied, then A to u_1..3; their sizes */
  int finite = 1;
  for (int k = 0; k < NY; k++) {
    const int block = k < NS_HEX_NBLOCKS ? k : NS_HEX_A;
    const int field = k >= NS_HEX_NBLOCKS ? k - NS_HEX_NBLOCKS : k >= NS_HEX_BT1 && k <= NS_HEX_BT3 ? k - NS_HEX_BT1 : 3;
    if (feast_band_vec_alloc(&s->K[block], &y[k]) || feast_band_vec_alloc(&s->K[block], &m[k]) ||
        apply_both(&s->K[block], x[field], y[k], m[k]))
      return HUGE_VAL;
  }
  for (int e = 0; e < 4; e++) {
    /* the row's blocks: A u_e, B_e p, or BT_1..3 u, C p */
    const int rows[4] = {e < 3 ? NS_HEX_NBLOCKS + e : NS_HEX_BT1, e < 3 ? NS_HEX_B1 + e : NS_HEX_BT2,
                         e < 3 ? -1 : NS_HEX_BT3, e < 3 ? -1 : NS_HEX_C};
    const double *F = s->F[e < 3 ? NS_HEX_F1 + e : NS_HEX_G];
    double res = 0.0, size = 0.0;
    for (long r = 0; r < n; r++) {
      if (!interior(N, r)) continue;
      double sum = -F[r], mag = fabs(F[r]);
      for (int t = 0; t < 4; t++)
        if (rows[t] >= 0) sum += y[rows[t]][r], mag += m[rows[t]][r];
      res = fmax(res, fabs(sum)), size = fmax(size, mag);
      finite &= isfinite(sum);
    }
    worst = fmax(worst, res / size);
  }
  for (int k = 0; k < NY; k++) {
    feast_band_vec_free(&s->K[0], &y[k]);
    feast_band_vec_free(&s->K[0], &m[k]);
  }
  return finite ? worst : HUGE_VAL;
}

static void check_stokes_blocks(void) {
  const int N = 5;
  double *xyz = macro_coords(N, feast_test_twisted_hex, 0.3);
  NsHexForm f = {.nu = 0.7, .stab = {.supg_scale = 0.0, .pspg_scale = 0.0}};
  HexSystem s;
  FeastBand L;
  CHECK_OK(system_assemble(N, xyz, &f, 2, &s));
  CHECK_OK(feast_band_create(&feast_stencil_q1_3d, N, &L));
  CHECK_OK(feast_q1_hex_assemble(N, xyz, 0, feast_q1_hex_form_laplace, NULL, 2, &L));
  CHECK(band_diff(&s.K[NS_HEX_A], &L, 0.7) <= 1e-14);
  double diff = 0.0, big = 0.0, c = 0.0;
  for (long r = 0; r < feast_band_rows(&L); r++)
    for (int k = 0; k < 27; k++) {
      const long p[3] = {r % N, r / N % N, r / (N * N)};
      long q[3];
      c = fmax(c, fabs(s.K[NS_HEX_C].band[k][r]));
      if (!feast_stencil_neighbour(L.stencil, k, N, p, q)) continue;
      for (int d = 0; d < 3; d++) { /* BT_d(r, q) against B_d(q, r) */
        const double bt = s.K[NS_HEX_BT1 + d].band[k][r], b = s.K[NS_HEX_B1 + d].band[26 - k][(q[2] * N + q[1]) * N + q[0]];
        diff = fmax(diff, fabs(bt - b)), big = fmax(big, fabs(b));
      }
    }
  CHECK(diff <= 1e-15 * big && big > 0.0);
  CHECK(c == 0.0);
  system_destroy(&s);
  feast_band_destroy(&L);
  free(xyz);
}

/* the exact solution u = G x = (x + y, y + z, x - 2z) (div u = tr G = 0, each d_d u_d
 * nonzero), p = 2x - y + z/2; (v.grad) u = G v */
static const double grad_p[3] = {2.0, -1.0, 0.5};
static void exact_u(const double x[3], double u[3]) { u[0] = x[0] + x[1], u[1] = x[1] + x[2], u[2] = x[0] - 2 * x[2]; }

/* the force of the linearisation velocity ctx (a constant one, NULL: w = u), or only grad p
 * (Stokes) with ctx = grad_p */
typedef struct {
  const double *w; /* NULL: w = u */
  int stokes;
} ForceCtx;

static int force(void *ctxp, const double x[3], double f[3]) {
  const ForceCtx *fc = ctxp;
  double w[3];
  if (fc->w) memcpy(w, fc->w, sizeof w);
  else exact_u(x, w);
  double cu[3];
  exact_u(w, cu); /* (w.grad) u */
  for (int d = 0; d < 3; d++) f[d] = (fc->stokes ? 0.0 : cu[d]) + grad_p[d];
  return 0;
}

/* the interior defect of the exact solution with w constant (wconst), w = u, or w = 0
 * (stokes); with_force 0: f left out */
static double consistency(const double *wconst, int stokes, int with_force, int order) {
  const int N = 6;
  const long n = (long)N * N * N;
  double *xyz = macro_coords(N, feast_test_sheared_hex, 0.0), *x[4], *wg[3];
  FeastBand proto = {&feast_stencil_q1_3d, N, {NULL}};
  for (int e = 0; e < 4; e++)
    if (feast_band_vec_alloc(&proto, &x[e])) return HUGE_VAL;
  for (int d = 0; d < 3; d++) wg[d] = malloc(sizeof(double) * n);
  for (long r = 0; r < n; r++) {
    const double *X = &xyz[3 * r];
    double u[3];
    exact_u(X, u);
    for (int d = 0; d < 3; d++) x[d][r] = u[d], wg[d][r] = wconst ? wconst[d] : u[d];
    x[3][r] = grad_p[0] * X[0] + grad_p[1] * X[1] + grad_p[2] * X[2];
  }
  ForceCtx fc = {wconst, stokes};
  NsHexForm f = {.nu = 0.1, .force = with_force ? force : NULL, .force_ctx = &fc,
                 .stab = {.supg_scale = 1.0, .pspg_scale = 1.0}};
  for (int d = 0; d < 3; d++) f.w[d] = stokes ? NULL : wg[d];
  HexSystem s;
  double defect = HUGE_VAL;
  if (system_assemble(N, xyz, &f, order, &s) == 0) defect = interior_defect(&s, x);
  system_destroy(&s);
  for (int e = 0; e < 4; e++) feast_band_vec_free(&proto, &x[e]);
  for (int d = 0; d < 3; d++) free(wg[d]);
  free(xyz);
  return defect;
}

static void check_consistency(void) {
  const double w[3] = {0.3, -0.2, 0.5};
  for (int order = 2; order <= 3; order++) {
    const double dc = consistency(w, 0, 1, order), du = consistency(NULL, 0, 1, order);
    const double ds = consistency(NULL, 1, 1, order);
    printf("order %d: interior defect %.2e (w constant), %.2e (w = u), %.2e (Stokes)\n", order, dc, du, ds);
    CHECK(dc <= 1e-12);
    CHECK(du <= 1e-12);
    CHECK(ds <= 1e-12);
  }
  CHECK(consistency(w, 0, 0, 2) > 1e-3); /* without the force: not a solution */
  CHECK(consistency(NULL, 1, 0, 2) > 1e-3);
}

/* ---- tau, errors ---- */

static void keep_cell(const FeastQ1HexCell *c, void *ctx, double (*Aloc)[8][8], double (*bloc)[8]) {
  (void)Aloc, (void)bloc;
  *(FeastQ1HexCell *)ctx = *c;
}

/* the one cell of the box [0,a] x [0,b] x [0,c] */
static FeastQ1HexCell box_cell(double a, double b, double c) {
  const double corner[8][3] = {{0, 0, 0}, {a, 0, 0}, {a, b, 0}, {0, b, 0}, {0, 0, c}, {a, 0, c}, {a, b, c}, {0, b, c}};
  double xyz[3 * 8];
  feast_hex_macro_coords(2, corner, xyz);
  FeastQ1HexCell cell;
  memset(&cell, 0, sizeof cell);
  CHECK_OK(feast_q1_hex_assemble_cells(2, xyz, 0, keep_cell, &cell, 2, 0, NULL, 0, NULL));
  return cell;
}

static double tau_formula(double U, double hw, double hmin, double nu) {
  const double adv = 2.0 * U / hw, visc = 4.0 * nu / (hmin * hmin);
  return 1.0 / sqrt(adv * adv + visc * visc);
}

static int failing_force(void *ctx, const double x[3], double f[3]) {
  int *calls = ctx;
  (*calls)++;
  f[0] = f[1] = f[2] = 1.0;
  return feast_error_set(FEAST_ERR_CONFIG, __FILE__, __LINE__, "force: cannot evaluate at (%g, %g, %g)", x[0], x[1],
                         x[2]);
}

static void check_tau(void) {
  const double h = 0.1, nu = 0.01, U = 2.0;
  const FeastQ1HexCell cube = box_cell(h, h, h), box = box_cell(h, 2 * h, 4 * h);
  const double wx[3] = {U, 0, 0}, wy[3] = {0, -U, 0}, wz[3] = {0, 0, U}, w0[3] = {0, 0, 0};
  CHECK_CLOSE(ns_hex_tau(&cube, wx, nu), tau_formula(U, h, h, nu), 1e-14);
  CHECK_CLOSE(ns_hex_tau(&cube, wz, nu), tau_formula(U, h, h, nu), 1e-14);
  CHECK_CLOSE(ns_hex_tau(&cube, w0, nu), h * h / (4 * nu), 1e-14);
  CHECK_CLOSE(ns_hex_tau(&box, wx, nu), tau_formula(U, h, h, nu), 1e-14);
  CHECK_CLOSE(ns_hex_tau(&box, wy, nu), tau_formula(U, 2 * h, h, nu), 1e-14);
  CHECK_CLOSE(ns_hex_tau(&box, wz, nu), tau_formula(U, 4 * h, h, nu), 1e-14);
  CHECK(isinf(ns_hex_tau(&box, w0, 0.0)));
  /* the form's errors: the first failing force stops the evaluations; the viscous residual */
  int calls = 0;
  const int N = 3;
  double *xyz = macro_coords(N, feast_test_unit_cube, 0.0);
  NsHexForm f = {.nu = nu, .force = failing_force, .force_ctx = &calls, .stab = {.supg_scale = 1.0, .pspg_scale = 1.0}};
  HexSystem s;
  CHECK(system_assemble(N, xyz, &f, 2, &s) == FEAST_ERR_CONFIG && calls == 1);
  CHECK(strstr(feast_error_message(), "cannot evaluate") != NULL);
  feast_error_clear();
  system_destroy(&s);
  NsHexForm g = {.nu = nu, .stab = {.supg_scale = 1.0, .pspg_scale = 1.0, .viscous_residual = 1}};
  CHECK(system_assemble(N, xyz, &g, 2, &s) == FEAST_ERR_UNSUPPORTED);
  CHECK(strstr(feast_error_message(), "viscous_residual") != NULL);
  feast_error_clear();
  system_destroy(&s);
  free(xyz);
}

/* the 8 blocks and 4 vectors of one L5 macro (33^3 nodes), w and f nonzero */
static void time_assembly(void) {
  const int N = 33;
  const long n = (long)N * N * N;
  double *xyz = macro_coords(N, feast_test_twisted_hex, 0.2), *wg[3];
  for (int d = 0; d < 3; d++) {
    wg[d] = malloc(sizeof(double) * n);
    for (long r = 0; r < n; r++) wg[d][r] = xyz[3 * r + (d + 1) % 3];
  }
  const double wc[3] = {1, 1, 1};
  ForceCtx fc = {wc, 0};
  NsHexForm f = {.nu = 0.01, .w = {wg[0], wg[1], wg[2]}, .force = force, .force_ctx = &fc, .stab = {.supg_scale = 1.0, .pspg_scale = 1.0}};
  for (int order = 2; order <= 3; order++) {
    HexSystem s;
    const double t0 = feast_wtime();
    CHECK_OK(system_assemble(N, xyz, &f, order, &s));
    printf("L5 macro (%d^3 cells), order %d: 8 blocks and 4 vectors in %.3f s\n", N - 1, order, feast_wtime() - t0);
    system_destroy(&s);
  }
  for (int d = 0; d < 3; d++) free(wg[d]);
  free(xyz);
}

static int run(void) {
  check_point_forms(feast_test_twisted_hex, 0.3);
  check_point_forms(feast_test_sheared_hex, 0.0);
  check_cell_data();
  check_stokes_blocks();
  check_consistency();
  check_tau();
  time_assembly();
  return 0;
}

FEAST_TEST_MAIN(run)

/* Q1 on hexahedral macros. Reference cell [0,1]^3, basis function a at corner
 * n = feast_q1_hex.node[a]: phi_a(s, t, u) = l(n_0, s) l(n_1, t) l(n_2, u) with
 * l(0, s) = 1 - s, l(1, s) = s. The trilinear map of a cell is x = sum_a X_a phi_a, its
 * Jacobian J[d][e] = dx_d / dref_e = sum_a X_a,d dphi_a / dref_e, and the physical
 * gradients dphi_a = J^-T dref_a. Unlike the bilinear case det J is not affine (of
 * degree 2 in each reference coordinate), so the cells are checked at their corners and
 * at the quadrature points, where the weights need it positive. */
#include "feast/fem/q1_hex.h"
#include "feast/base/error.h"
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { HEX_NODES = 8, HEX_MAXQP = 27 };

const FeastQ1Element feast_q1_hex = {
    3, HEX_NODES, {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}},
    2, 3, HEX_MAXQP, &feast_stencil_q1_3d};

/* reference data at the points of a rule, computed once per call */
typedef struct {
  int nq;
  double ref[HEX_MAXQP][3], w[HEX_MAXQP];
  double phi[HEX_MAXQP][HEX_NODES];
  double dref[HEX_MAXQP][HEX_NODES][3]; /* d phi_a / d(s, t, u) */
} HexRule;

/* basis data at reference point ref (weight w) as point q of r */
static void rule_point(HexRule *r, int q, const double ref[3], double w) {
  r->w[q] = w;
  memcpy(r->ref[q], ref, sizeof r->ref[q]);
  for (int a = 0; a < HEX_NODES; a++) {
    double l[3], dl[3];
    for (int d = 0; d < 3; d++) {
      const int n = feast_q1_hex.node[a][d];
      l[d] = n ? ref[d] : 1.0 - ref[d];
      dl[d] = n ? 1.0 : -1.0;
    }
    r->phi[q][a] = l[0] * l[1] * l[2];
    r->dref[q][a][0] = dl[0] * l[1] * l[2];
    r->dref[q][a][1] = l[0] * dl[1] * l[2];
    r->dref[q][a][2] = l[0] * l[1] * dl[2];
  }
}

/* the tensor Gauss rule of order points per direction, point (qi, qj, qk) at q =
 * (qk order + qj) order + qi */
static void hex_rule(int order, HexRule *r) {
  double x[3], w[3];
  feast_q1_gauss(order, x, w);
  r->nq = order * order * order;
  for (int qk = 0; qk < order; qk++)
    for (int qj = 0; qj < order; qj++)
      for (int qi = 0; qi < order; qi++) {
        const double ref[3] = {x[qi], x[qj], x[qk]};
        rule_point(r, (qk * order + qj) * order + qi, ref, w[qi] * w[qj] * w[qk]);
      }
}

/* the eight corners as points (weight 0): where the cells' determinants are checked */
static void corner_rule(HexRule *r) {
  r->nq = HEX_NODES;
  for (int a = 0; a < HEX_NODES; a++) {
    const double ref[3] = {feast_q1_hex.node[a][0], feast_q1_hex.node[a][1], feast_q1_hex.node[a][2]};
    rule_point(r, a, ref, 0.0);
  }
}

void feast_q1_hex_cell_nodes(long N, long i, long j, long k, long node[8]) {
  for (int a = 0; a < HEX_NODES; a++) {
    const signed char *n = feast_q1_hex.node[a];
    node[a] = ((k + n[2]) * N + j + n[1]) * N + i + n[0];
  }
}

/* one cell: its nodes and its map in monomials, x = c0 + cs s + ct t + cst s t + u (cu +
 * csu s + ctu t + cstu s t) per coordinate */
typedef struct {
  int i, j, k;
  long node[HEX_NODES];
  double c0[3], cs[3], ct[3], cst[3], cu[3], csu[3], ctu[3], cstu[3];
} HexCell;

static void hex_cell(long N, const double *xyz, int i, int j, int k, HexCell *c) {
  c->i = i, c->j = j, c->k = k;
  feast_q1_hex_cell_nodes(N, i, j, k, c->node);
  const double *X[HEX_NODES];
  for (int a = 0; a < HEX_NODES; a++) X[a] = xyz + 3 * c->node[a];
  for (int d = 0; d < 3; d++) { /* the corners (0,0,0) (1,0,0) (1,1,0) (0,1,0), then at u = 1 */
    c->c0[d] = X[0][d];
    c->cs[d] = X[1][d] - X[0][d];
    c->ct[d] = X[3][d] - X[0][d];
    c->cst[d] = X[0][d] - X[1][d] + X[2][d] - X[3][d];
    c->cu[d] = X[4][d] - X[0][d];
    c->csu[d] = X[0][d] - X[1][d] + X[5][d] - X[4][d];
    c->ctu[d] = X[0][d] - X[3][d] + X[7][d] - X[4][d];
    c->cstu[d] = X[1][d] - X[0][d] - X[2][d] + X[3][d] - X[5][d] + X[4][d] + X[6][d] - X[7][d];
  }
}

/* the map at point q: physical point, Jacobian and its determinant */
typedef struct {
  double x[3], J[3][3], det;
} HexMap;

static void hex_map(const HexRule *r, int q, const HexCell *c, HexMap *m) {
  const double s = r->ref[q][0], t = r->ref[q][1], u = r->ref[q][2];
  for (int d = 0; d < 3; d++) {
    const double at_u = c->cu[d] + c->csu[d] * s + c->ctu[d] * t + c->cstu[d] * s * t;
    m->x[d] = c->c0[d] + c->cs[d] * s + c->ct[d] * t + c->cst[d] * s * t + u * at_u;
    m->J[d][0] = c->cs[d] + c->cst[d] * t + u * (c->csu[d] + c->cstu[d] * t);
    m->J[d][1] = c->ct[d] + c->cst[d] * s + u * (c->ctu[d] + c->cstu[d] * s);
    m->J[d][2] = at_u;
  }
  const double(*J)[3] = m->J;
  m->det = J[0][0] * (J[1][1] * J[2][2] - J[1][2] * J[2][1]) - J[0][1] * (J[1][0] * J[2][2] - J[1][2] * J[2][0]) +
           J[0][2] * (J[1][0] * J[2][1] - J[1][1] * J[2][0]);
}

/* inv = J^-1 (adjugate over det) */
static void hex_inverse(const HexMap *m, double inv[3][3]) {
  const double(*J)[3] = m->J;
  const double r = 1.0 / m->det;
  inv[0][0] = (J[1][1] * J[2][2] - J[1][2] * J[2][1]) * r;
  inv[0][1] = (J[0][2] * J[2][1] - J[0][1] * J[2][2]) * r;
  inv[0][2] = (J[0][1] * J[1][2] - J[0][2] * J[1][1]) * r;
  inv[1][0] = (J[1][2] * J[2][0] - J[1][0] * J[2][2]) * r;
  inv[1][1] = (J[0][0] * J[2][2] - J[0][2] * J[2][0]) * r;
  inv[1][2] = (J[0][2] * J[1][0] - J[0][0] * J[1][2]) * r;
  inv[2][0] = (J[1][0] * J[2][1] - J[1][1] * J[2][0]) * r;
  inv[2][1] = (J[0][1] * J[2][0] - J[0][0] * J[2][1]) * r;
  inv[2][2] = (J[0][0] * J[1][1] - J[0][1] * J[1][0]) * r;
}

/* what a form sees at point q: dphi_a[d] = sum_e inv[e][d] dref_a[e] */
static void hex_point(const HexRule *r, int q, const HexCell *c, int macro, FeastQ1HexPoint *p) {
  HexMap m;
  hex_map(r, q, c, &m);
  double inv[3][3];
  hex_inverse(&m, inv);
  memcpy(p->x, m.x, sizeof p->x);
  p->weight = r->w[q] * m.det;
  for (int a = 0; a < HEX_NODES; a++) {
    const double *dr = r->dref[q][a];
    p->phi[a] = r->phi[q][a];
    for (int d = 0; d < 3; d++) p->dphi[a][d] = inv[0][d] * dr[0] + inv[1][d] * dr[1] + inv[2][d] * dr[2];
  }
  p->macro = macro, p->cell[0] = c->i, p->cell[1] = c->j, p->cell[2] = c->k;
}

/* the cell is a parallelepiped when the map's bilinear and trilinear coefficients are
 * below 64 ulp of its edges */
static int is_parallelepiped(const HexCell *c) {
  double size = 0.0, twist = 0.0;
  for (int d = 0; d < 3; d++) {
    size += fabs(c->cs[d]) + fabs(c->ct[d]) + fabs(c->cu[d]);
    twist += fabs(c->cst[d]) + fabs(c->csu[d]) + fabs(c->ctu[d]) + fabs(c->cstu[d]);
  }
  return twist <= 64 * DBL_EPSILON * size;
}

static int hex_check_args(int N, const double *xyz, int order) {
  FEAST_CHECK(N >= 2, FEAST_ERR_ARG, "Q1 hexahedra: a macro needs N >= 2 nodes per side, got %d", N);
  FEAST_CHECK(xyz != NULL, FEAST_ERR_ARG, "Q1 hexahedra: coordinates are NULL");
  FEAST_CHECK(order >= feast_q1_hex.min_order && order <= feast_q1_hex.max_order, FEAST_ERR_ARG,
              "Q1 hexahedra: quadrature order must be 2 (2x2x2 Gauss) or 3 (3x3x3 Gauss), got %d", order);
  return 0;
}

/* the smallest det J of the cell over the points of r; NaN if one is NaN */
static double min_det(const HexRule *r, const HexCell *c) {
  double d = HUGE_VAL;
  for (int q = 0; q < r->nq; q++) {
    HexMap m;
    hex_map(r, q, c, &m);
    if (!(m.det >= d)) d = m.det; /* fmin would drop a NaN */
  }
  return d;
}

/* every cell positive at its corners and at the points of the order's rule */
static int hex_check_cells(int N, const double *xyz, int macro, int order) {
  FEAST_CALL(hex_check_args(N, xyz, order));
  HexRule corners, rule;
  corner_rule(&corners);
  hex_rule(order, &rule);
  for (int k = 0; k < N - 1; k++)
    for (int j = 0; j < N - 1; j++)
      for (int i = 0; i < N - 1; i++) {
        HexCell c;
        hex_cell(N, xyz, i, j, k, &c);
        double d; /* a parallelepiped's J is constant: one point tells */
        if (is_parallelepiped(&c)) {
          HexMap m;
          hex_map(&rule, 0, &c, &m);
          d = m.det;
        } else {
          const double dc = min_det(&corners, &c);
          d = dc > 0 ? min_det(&rule, &c) : dc;
        }
        if (d > 0) continue; /* NaN coordinates fail here too */
        char which[32] = "";
        if (macro >= 0) snprintf(which, sizeof which, "macro %d, ", macro);
        FEAST_ERROR(FEAST_ERR_MESH,
                    "%scell (%d,%d,%d) of %d^3: Jacobian determinant %g <= 0 (inverted or degenerate hexahedron)",
                    which, i, j, k, N - 1, d);
      }
  return 0;
}

/* ---- matrices ---- */

/* band[a][b]: the band of A coupling a cell's node a to its node b */
static int cell_bands(int N, const FeastBand *A, double *band[HEX_NODES][HEX_NODES]) {
  FEAST_CHECK(A->stencil == &feast_stencil_q1_3d && A->N == N, FEAST_ERR_ARG,
              "Q1 hexahedra: the matrix must be of the 27-band stencil with N = %d (has %d bands, N = %d)", N,
              A->stencil ? A->stencil->nbands : 0, A->N);
  const signed char(*n)[3] = feast_q1_hex.node;
  for (int a = 0; a < HEX_NODES; a++)
    for (int b = 0; b < HEX_NODES; b++)
      band[a][b] = A->band[feast_stencil_band(A->stencil, n[b][0] - n[a][0], n[b][1] - n[a][1], n[b][2] - n[a][2])];
  return 0;
}

static void scatter(double *const band[HEX_NODES][HEX_NODES], const long node[HEX_NODES],
                    const double K[HEX_NODES][HEX_NODES]) {
  for (int a = 0; a < HEX_NODES; a++)
    for (int b = 0; b < HEX_NODES; b++) band[a][b][node[a]] += K[a][b];
}

/* The Laplace form on a parallelepiped: J is constant, so grad phi_a . grad phi_b =
 * dref_a^T G dref_b / (w det) with G = det J^-1 J^-T, and the element matrix is
 * sum_{e<=f} G_ef S_ef with the reference matrices S_ee = sum_q w dref_a,e dref_b,e and
 * S_ef = sum_q w (dref_a,e dref_b,f + dref_a,f dref_b,e) of the same rule: 6 x 64
 * products a cell instead of a point loop. Computed for a <= b and mirrored: the element
 * matrix is symmetric to the bit, as the point loop's is. */
typedef struct {
  double S[6][HEX_NODES][HEX_NODES]; /* pairs (0,0) (1,1) (2,2) (0,1) (0,2) (1,2) */
} LaplaceRef;
static const int pair[6][2] = {{0, 0}, {1, 1}, {2, 2}, {0, 1}, {0, 2}, {1, 2}};

static void laplace_ref(const HexRule *r, LaplaceRef *ref) {
  memset(ref, 0, sizeof *ref);
  for (int q = 0; q < r->nq; q++)
    for (int a = 0; a < HEX_NODES; a++)
      for (int b = a; b < HEX_NODES; b++)
        for (int p = 0; p < 6; p++) {
          const int e = pair[p][0], f = pair[p][1];
          const double *da = r->dref[q][a], *db = r->dref[q][b];
          ref->S[p][a][b] += r->w[q] * (e == f ? da[e] * db[e] : da[e] * db[f] + da[f] * db[e]);
        }
}

static void laplace_parallelepiped(const LaplaceRef *ref, const HexRule *r, const HexCell *c,
                                   double K[HEX_NODES][HEX_NODES]) {
  HexMap m;
  hex_map(r, 0, c, &m);
  double inv[3][3], G[6];
  hex_inverse(&m, inv);
  for (int p = 0; p < 6; p++) {
    const int e = pair[p][0], f = pair[p][1];
    G[p] = m.det * (inv[e][0] * inv[f][0] + inv[e][1] * inv[f][1] + inv[e][2] * inv[f][2]);
  }
  for (int a = 0; a < HEX_NODES; a++)
    for (int b = a; b < HEX_NODES; b++) {
      double s = 0.0;
      for (int p = 0; p < 6; p++) s += G[p] * ref->S[p][a][b];
      K[a][b] = K[b][a] = s;
    }
}

static void point_loop(const HexRule *r, const HexCell *c, int macro, FeastQ1HexForm form, void *ctx,
                       double K[HEX_NODES][HEX_NODES]) {
  memset(K, 0, sizeof(double) * HEX_NODES * HEX_NODES);
  for (int q = 0; q < r->nq; q++) {
    FeastQ1HexPoint p;
    hex_point(r, q, c, macro, &p);
    form(&p, ctx, K);
  }
}

int feast_q1_hex_assemble(int N, const double *xyz, int macro, FeastQ1HexForm form, void *ctx, int order,
                          FeastBand *A) {
  FEAST_CHECK(form != NULL && A != NULL, FEAST_ERR_ARG, "Q1 hexahedra: form or matrix is NULL");
  double *band[HEX_NODES][HEX_NODES];
  FEAST_CALL(cell_bands(N, A, band));
  FEAST_CALL(hex_check_cells(N, xyz, macro, order));
  HexRule r;
  hex_rule(order, &r);
  const int laplace = form == feast_q1_hex_form_laplace;
  LaplaceRef *ref = NULL;
  if (laplace) {
    FEAST_CALL(FEAST_ALLOC(1, &ref));
    laplace_ref(&r, ref);
  }
  double last[9] = {0}; /* the edge vectors of the last parallelepiped: its matrix is K */
  int have_last = 0;
  double K[HEX_NODES][HEX_NODES];
  for (int k = 0; k < N - 1; k++)
    for (int j = 0; j < N - 1; j++)
      for (int i = 0; i < N - 1; i++) {
        HexCell c;
        hex_cell(N, xyz, i, j, k, &c);
        if (laplace && is_parallelepiped(&c)) {
          /* a translate of the last parallelepiped has its matrix (on an affine macro,
           * every cell): the same edge vectors to the bit */
          const double edges[9] = {c.cs[0], c.cs[1], c.cs[2], c.ct[0], c.ct[1], c.ct[2], c.cu[0], c.cu[1], c.cu[2]};
          if (!have_last || memcmp(edges, last, sizeof edges) != 0) {
            laplace_parallelepiped(ref, &r, &c, K);
            memcpy(last, edges, sizeof edges);
            have_last = 1;
          }
        } else {
          point_loop(&r, &c, macro, form, ctx, K);
          have_last = 0;
        }
        scatter(band, c.node, K);
      }
  free(ref);
  return 0;
}

void feast_q1_hex_form_laplace(const FeastQ1HexPoint *p, void *ctx, double Aloc[8][8]) {
  (void)ctx;
  for (int a = 0; a < HEX_NODES; a++)
    for (int b = 0; b < HEX_NODES; b++)
      Aloc[a][b] +=
          (p->dphi[a][0] * p->dphi[b][0] + p->dphi[a][1] * p->dphi[b][1] + p->dphi[a][2] * p->dphi[b][2]) * p->weight;
}

void feast_q1_hex_form_mass(const FeastQ1HexPoint *p, void *ctx, double Aloc[8][8]) {
  (void)ctx;
  for (int a = 0; a < HEX_NODES; a++)
    for (int b = 0; b < HEX_NODES; b++) Aloc[a][b] += p->phi[a] * p->phi[b] * p->weight;
}

/* ---- element-level forms: one cell with all its points ---- */

/* what a cell form sees of cell c: its points of rule r, and the centre, the one point of
 * mid (the 1-point rule: weight 1) */
static void cell_data(const HexRule *r, const HexRule *mid, const HexCell *c, int macro, FeastQ1HexCell *cell) {
  cell->macro = macro, cell->i = c->i, cell->j = c->j, cell->k = c->k;
  memcpy(cell->node, c->node, sizeof cell->node);
  cell->nq = r->nq;
  for (int q = 0; q < r->nq; q++) hex_point(r, q, c, macro, &cell->q[q]);
  hex_point(mid, 0, c, macro, &cell->centre);
  HexMap m;
  hex_map(mid, 0, c, &m);
  memcpy(cell->jac, m.J, sizeof cell->jac);
}

int feast_q1_hex_assemble_cells(int N, const double *xyz, int macro, FeastQ1HexCellForm form, void *ctx, int order,
                                int nmat, FeastBand *const *A, int nvec, double *const *b) {
  enum { MAXM = FEAST_Q1_HEX_MAX_MATRICES, MAXV = FEAST_Q1_HEX_MAX_VECTORS };
  FEAST_CHECK(form != NULL && (nmat == 0 || A != NULL) && (nvec == 0 || b != NULL), FEAST_ERR_ARG,
              "Q1 hexahedra cell assembly: form, matrices or vectors NULL");
  FEAST_CHECK(nmat >= 0 && nmat <= MAXM && nvec >= 0 && nvec <= MAXV, FEAST_ERR_ARG,
              "Q1 hexahedra cell assembly: %d matrices and %d vectors (at most %d and %d)", nmat, nvec, MAXM, MAXV);
  double *band[MAXM][HEX_NODES][HEX_NODES];
  for (int m = 0; m < nmat; m++)
    if (A[m]) FEAST_CALL(cell_bands(N, A[m], band[m]));
  FEAST_CALL(hex_check_cells(N, xyz, macro, order));
  HexRule r, mid;
  hex_rule(order, &r);
  hex_rule(1, &mid);
  FeastQ1HexCell cell;
  double Aloc[MAXM][HEX_NODES][HEX_NODES], bloc[MAXV][HEX_NODES];
  for (int k = 0; k < N - 1; k++)
    for (int j = 0; j < N - 1; j++)
      for (int i = 0; i < N - 1; i++) {
        HexCell c;
        hex_cell(N, xyz, i, j, k, &c);
        cell_data(&r, &mid, &c, macro, &cell);
        memset(Aloc, 0, sizeof Aloc[0] * nmat);
        memset(bloc, 0, sizeof bloc[0] * nvec);
        form(&cell, ctx, Aloc, bloc);
        for (int m = 0; m < nmat; m++)
          if (A[m]) scatter(band[m], c.node, Aloc[m]);
        for (int v = 0; v < nvec; v++)
          if (b[v])
            for (int a = 0; a < HEX_NODES; a++) b[v][c.node[a]] += bloc[v][a];
      }
  return 0;
}

/* ---- integrals of functions: right-hand sides, lumped masses, L2 errors ----
 * by rows of cells (i = 0 .. N-2 at fixed j, k): the function is called once per row */
typedef struct {
  int N, j, k, nq;
  const double *x, *y, *z, *weight; /* point q of cell i at [i nq + q] */
  double *value;                    /* room for a function's values at the row's points */
} HexRow;

typedef void (*HexRowVisit)(const HexRow *row, const HexRule *r, void *ctx);

static int hex_for_rows(int N, const double *xyz, int macro, int order, HexRowVisit visit, void *ctx) {
  FEAST_CALL(hex_check_cells(N, xyz, macro, order));
  HexRule r;
  hex_rule(order, &r);
  const long npts = (long)(N - 1) * r.nq;
  double *buf;
  FEAST_CALL(FEAST_ALLOC(5 * npts, &buf));
  double *x = buf, *y = buf + npts, *z = buf + 2 * npts, *w = buf + 3 * npts;
  HexRow row = {N, 0, 0, r.nq, x, y, z, w, buf + 4 * npts};
  for (int k = 0; k < N - 1; k++)
    for (int j = 0; j < N - 1; j++) {
      for (int i = 0; i < N - 1; i++) {
        HexCell c;
        hex_cell(N, xyz, i, j, k, &c);
        for (int q = 0; q < r.nq; q++) {
          HexMap m;
          hex_map(&r, q, &c, &m);
          const long p = (long)i * r.nq + q;
          x[p] = m.x[0], y[p] = m.x[1], z[p] = m.x[2], w[p] = r.w[q] * m.det;
        }
      }
      row.j = j, row.k = k;
      visit(&row, &r, ctx);
    }
  free(buf);
  return 0;
}

/* b_a += sum_q f(x_q) phi_a(q) w_q (f = NULL: 1) */
typedef struct {
  FeastQ1HexFunction f;
  void *ctx;
  double *b;
} RhsSum;

static void rhs_row(const HexRow *row, const HexRule *r, void *ctxp) {
  const RhsSum *rs = ctxp;
  const long cells = row->N - 1;
  if (rs->f) rs->f(cells * row->nq, row->x, row->y, row->z, rs->ctx, row->value);
  for (long i = 0; i < cells; i++) {
    double bloc[HEX_NODES] = {0};
    for (int q = 0; q < row->nq; q++) {
      const long p = i * row->nq + q;
      const double fw = (rs->f ? row->value[p] : 1.0) * row->weight[p];
      for (int a = 0; a < HEX_NODES; a++) bloc[a] += fw * r->phi[q][a];
    }
    long node[HEX_NODES];
    feast_q1_hex_cell_nodes(row->N, i, row->j, row->k, node);
    for (int a = 0; a < HEX_NODES; a++) rs->b[node[a]] += bloc[a];
  }
}

int feast_q1_hex_assemble_rhs(int N, const double *xyz, int macro, FeastQ1HexFunction f, void *ctx, int order,
                              double *b) {
  FEAST_CHECK(f != NULL && b != NULL, FEAST_ERR_ARG, "Q1 hexahedra right-hand side: function or vector is NULL");
  RhsSum rs = {f, ctx, b};
  return hex_for_rows(N, xyz, macro, order, rhs_row, &rs);
}

int feast_q1_hex_lumped_mass(int N, const double *xyz, int macro, double *m) {
  FEAST_CHECK(m != NULL, FEAST_ERR_ARG, "Q1 hexahedra lumped mass: vector is NULL");
  RhsSum rs = {NULL, NULL, m}; /* f = 1 */
  return hex_for_rows(N, xyz, macro, 2, rhs_row, &rs);
}

typedef struct {
  const double *uh;
  FeastQ1HexFunction u;
  void *ctx;
  double e2, n2;
} L2Error;

static void l2_error_row(const HexRow *row, const HexRule *r, void *ctxp) {
  L2Error *le = ctxp;
  const long cells = row->N - 1;
  le->u(cells * row->nq, row->x, row->y, row->z, le->ctx, row->value);
  for (long i = 0; i < cells; i++) {
    long node[HEX_NODES];
    feast_q1_hex_cell_nodes(row->N, i, row->j, row->k, node);
    for (int q = 0; q < row->nq; q++) {
      const long p = i * row->nq + q;
      double uh = 0.0;
      for (int a = 0; a < HEX_NODES; a++) uh += le->uh[node[a]] * r->phi[q][a];
      const double ue = row->value[p], d = uh - ue;
      le->e2 += d * d * row->weight[p];
      le->n2 += ue * ue * row->weight[p];
    }
  }
}

int feast_q1_hex_l2_error(int N, const double *xyz, const double *uh, FeastQ1HexFunction u, void *ctx, int order,
                          double *err2, double *norm2) {
  FEAST_CHECK(uh != NULL && u != NULL && err2 != NULL && norm2 != NULL, FEAST_ERR_ARG,
              "Q1 hexahedra L2 error: a NULL argument");
  L2Error le = {uh, u, ctx, 0.0, 0.0};
  FEAST_CALL(hex_for_rows(N, xyz, -1, order, l2_error_row, &le));
  *err2 = le.e2, *norm2 = le.n2;
  return 0;
}

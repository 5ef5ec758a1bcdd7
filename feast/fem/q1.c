/* Q1 element on a refined macro. Reference cell [0,1]^2 with the local basis
 *   phi0 = (1-s)(1-t), phi1 = s(1-t), phi2 = s t, phi3 = (1-s) t
 * at the cell nodes (i,j), (i+1,j), (i+1,j+1), (i,j+1). The bilinear map of a cell is
 *   x(s,t) = P0 + a s + b t + c s t,  a = P1-P0, b = P3-P0, c = P0-P1+P2-P3,
 * so dx/ds = a + c t, dx/dt = b + c s, and det J = (a + c t) x (b + c s) is affine in
 * (s,t): positive at the four corners means positive on the whole cell. */
#include "feast/fem/q1.h"
#include "feast/base/error.h"
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define Q1_MAXQP 9 /* the most quadrature points of a cell: 3 x 3 (FeastQ1Cell.q) */

/* reference data at the quadrature points, computed once per call */
typedef struct {
  int nq;
  double s[Q1_MAXQP], t[Q1_MAXQP], w[Q1_MAXQP];
  double phi[Q1_MAXQP][4];
  double dref[Q1_MAXQP][4][2]; /* d phi / d(s,t) */
} Q1Rule;

/* geometry of one cell */
typedef struct {
  double p0[2], a[2], b[2], c[2];
} Q1Cell;

const FeastQ1Element feast_q1_quad = {2, 4, {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}}, 2, 3, Q1_MAXQP,
                                        FEAST_BAND9_STENCIL};

/* local basis node offsets (di, dj) */
static inline int q1_di(int a) { return feast_q1_quad.node[a][0]; }
static inline int q1_dj(int a) { return feast_q1_quad.node[a][1]; }

void feast_q1_gauss(int order, double x[3], double w[3]) {
  if (order == 1) {
    x[0] = 0.5, w[0] = 1.0;
  } else if (order == 2) {
    const double h = 0.5 / sqrt(3.0);
    x[0] = 0.5 - h, x[1] = 0.5 + h, w[0] = w[1] = 0.5;
  } else {
    const double h = 0.5 * sqrt(0.6);
    x[0] = 0.5 - h, x[1] = 0.5, x[2] = 0.5 + h;
    w[0] = w[2] = 5.0 / 18.0, w[1] = 4.0 / 9.0;
  }
}

static void q1_rule(int order, Q1Rule *r) {
  double x[3], w[3];
  feast_q1_gauss(order, x, w);
  r->nq = order * order;
  for (int qj = 0; qj < order; qj++)
    for (int qi = 0; qi < order; qi++) {
      int q = qj * order + qi;
      double s = x[qi], t = x[qj];
      r->s[q] = s, r->t[q] = t, r->w[q] = w[qi] * w[qj];
      r->phi[q][0] = (1 - s) * (1 - t), r->phi[q][1] = s * (1 - t);
      r->phi[q][2] = s * t, r->phi[q][3] = (1 - s) * t;
      r->dref[q][0][0] = -(1 - t), r->dref[q][0][1] = -(1 - s);
      r->dref[q][1][0] = 1 - t, r->dref[q][1][1] = -s;
      r->dref[q][2][0] = t, r->dref[q][2][1] = s;
      r->dref[q][3][0] = -t, r->dref[q][3][1] = 1 - s;
    }
}

static int q1_check_args(int N, const double *xy, int order) {
  FEAST_CHECK(N >= 2, FEAST_ERR_ARG, "Q1: a macro needs N >= 2 nodes per side, got %d", N);
  FEAST_CHECK(xy != NULL, FEAST_ERR_ARG, "Q1: coordinates are NULL");
  FEAST_CHECK(order >= feast_q1_quad.min_order && order <= feast_q1_quad.max_order, FEAST_ERR_ARG,
              "Q1 quadrature order must be 2 (2x2 Gauss) or 3 (3x3 Gauss), got %d", order);
  return 0;
}

/* map coefficients of cell (i,j) */
static inline void q1_cell(int N, const double *xy, int i, int j, Q1Cell *c) {
  const double *P0 = xy + 2 * ((ptrdiff_t)j * N + i), *P1 = P0 + 2;
  const double *P3 = P0 + 2 * (ptrdiff_t)N, *P2 = P3 + 2;
  for (int d = 0; d < 2; d++) {
    c->p0[d] = P0[d];
    c->a[d] = P1[d] - P0[d];
    c->b[d] = P3[d] - P0[d];
    c->c[d] = P0[d] - P1[d] + P2[d] - P3[d];
  }
}

/* det J at reference point (s,t) */
static inline double q1_det(const Q1Cell *c, double s, double t) {
  double xs = c->a[0] + c->c[0] * t, ys = c->a[1] + c->c[1] * t;
  double xt = c->b[0] + c->c[0] * s, yt = c->b[1] + c->c[1] * s;
  return xs * yt - xt * ys;
}

/* every cell must have det J > 0 at its corners (then everywhere, det J being affine);
 * macro < 0: unknown to the caller */
static int q1_check_cells(int N, const double *xy, int macro) {
  for (int j = 0; j < N - 1; j++)
    for (int i = 0; i < N - 1; i++) {
      Q1Cell c;
      q1_cell(N, xy, i, j, &c);
      double d = fmin(fmin(q1_det(&c, 0, 0), q1_det(&c, 1, 0)), fmin(q1_det(&c, 1, 1), q1_det(&c, 0, 1)));
      if (d > 0) continue;
      char which[32] = "";
      if (macro >= 0) snprintf(which, sizeof which, "macro %d, ", macro);
      FEAST_ERROR(FEAST_ERR_MESH, "%scell (%d,%d) of %d x %d: Jacobian determinant %g <= 0 "
                  "(inverted or degenerate cell)", which, i, j, N - 1, N - 1, d);
    }
  return 0;
}

/* where quadrature point q of a cell lies, and its weight w |det J| (with det J > 0 on
 * every checked cell): what integrals of functions need; q1_point adds the gradients */
typedef struct {
  double x, y, weight;
  double xs, ys, xt, yt, det; /* dx/ds, dy/ds, dx/dt, dy/dt, det J */
} Q1Map;

static inline void q1_map(const Q1Rule *r, int q, const Q1Cell *c, Q1Map *m) {
  const double s = r->s[q], t = r->t[q];
  m->xs = c->a[0] + c->c[0] * t, m->ys = c->a[1] + c->c[1] * t;
  m->xt = c->b[0] + c->c[0] * s, m->yt = c->b[1] + c->c[1] * s;
  m->det = m->xs * m->yt - m->xt * m->ys;
  m->x = c->p0[0] + c->a[0] * s + c->b[0] * t + c->c[0] * s * t;
  m->y = c->p0[1] + c->a[1] * s + c->b[1] * t + c->c[1] * s * t;
  m->weight = r->w[q] * m->det;
}

/* physical point, weight, basis values and gradients at quadrature point q:
 * grad phi = J^{-T} grad_ref phi, J^{-1} = adj(J) / det J */
static inline void q1_point(const Q1Rule *r, int q, const Q1Cell *c, FeastQ1Point *p) {
  Q1Map m;
  q1_map(r, q, c, &m);
  const double inv = 1.0 / m.det;
  p->x = m.x, p->y = m.y, p->weight = m.weight;
  for (int k = 0; k < 4; k++) {
    double ds = r->dref[q][k][0], dt = r->dref[q][k][1];
    p->phi[k] = r->phi[q][k];
    p->dphi[k][0] = (m.yt * ds - m.ys * dt) * inv;
    p->dphi[k][1] = (m.xs * dt - m.xt * ds) * inv;
  }
}

/* every cell of a macro with its quadrature points, visited in order */
typedef void (*Q1Visit)(const FeastQ1Cell *c, void *ctx);

static int q1_for_cells(int N, const double *xy, int macro, int order, Q1Visit visit, void *ctx) {
  FEAST_CALL(q1_check_args(N, xy, order));
  FEAST_CALL(q1_check_cells(N, xy, macro));
  Q1Rule r, mid;
  q1_rule(order, &r);
  q1_rule(1, &mid);
  FeastQ1Cell cell;
  cell.macro = macro;
  cell.nq = r.nq;
  for (int j = 0; j < N - 1; j++)
    for (int i = 0; i < N - 1; i++) {
      Q1Cell c;
      q1_cell(N, xy, i, j, &c);
      cell.i = i, cell.j = j;
      feast_q1_cell_nodes(N, i, j, cell.node);
      for (int q = 0; q < r.nq; q++) {
        q1_point(&r, q, &c, &cell.q[q]);
        cell.q[q].macro = macro, cell.q[q].cell_i = i, cell.q[q].cell_j = j;
      }
      q1_point(&mid, 0, &c, &cell.centre);
      for (int d = 0; d < 2; d++) {
        cell.jac[d][0] = c.a[d] + 0.5 * c.c[d];
        cell.jac[d][1] = c.b[d] + 0.5 * c.c[d];
      }
      cell.centre.macro = macro, cell.centre.cell_i = i, cell.centre.cell_j = j;
      visit(&cell, ctx);
    }
  return 0;
}

enum { Q1_MAX_MATRICES = 16, Q1_MAX_VECTORS = 8 };

typedef struct {
  FeastQ1CellForm form;
  void *ctx;
  int nmat, nvec;
  double *band[Q1_MAX_MATRICES][4][4]; /* band of matrix k coupling row a to column b; NULL: not stored */
  double *const *b;
} CellAssembly;

/* band[a][b]: the band of A coupling a cell's node a to its node b (row a, band(b - a)) */
static int cell_bands(int N, const FeastBand9 *A, int k, double *band[4][4]) {
  FEAST_CHECK(A->band[0] != NULL && A->N == N, FEAST_ERR_ARG,
              "Q1 assembly: matrix %d must be created with N = %d (has %d)", k, N, A->N);
  for (int a = 0; a < 4; a++)
    for (int c = 0; c < 4; c++)
      band[a][c] = A->band[feast_stencil_band(feast_q1_quad.stencil, q1_di(c) - q1_di(a), q1_dj(c) - q1_dj(a), 0)];
  return 0;
}

/* A(row node a, column node b) += K[a][b], stored at the row node */
static inline void scatter_matrix(double *const band[4][4], const long node[4], const double K[4][4]) {
  for (int a = 0; a < 4; a++)
    for (int b = 0; b < 4; b++) band[a][b][node[a]] += K[a][b];
}

static void scatter_cell(const FeastQ1Cell *c, void *ctxp) {
  CellAssembly *as = ctxp;
  double Aloc[Q1_MAX_MATRICES][4][4], bloc[Q1_MAX_VECTORS][4];
  memset(Aloc, 0, sizeof(double) * 16 * as->nmat);
  memset(bloc, 0, sizeof(double) * 4 * as->nvec);
  as->form(c, as->ctx, Aloc, bloc);
  for (int k = 0; k < as->nmat; k++)
    if (as->band[k][0][0]) scatter_matrix(as->band[k], c->node, Aloc[k]);
  for (int r = 0; r < as->nvec; r++)
    if (as->b[r])
      for (int a = 0; a < 4; a++) as->b[r][c->node[a]] += bloc[r][a];
}

int feast_q1_assemble_cells(int N, const double *xy, int macro, FeastQ1CellForm form, void *ctx, int order,
                            int nmat, FeastBand9 *const *A, int nvec, double *const *b) {
  FEAST_CHECK(form != NULL, FEAST_ERR_ARG, "Q1 assembly: form is NULL");
  FEAST_CHECK(nmat >= 0 && nmat <= Q1_MAX_MATRICES && nvec >= 0 && nvec <= Q1_MAX_VECTORS, FEAST_ERR_ARG,
              "Q1 assembly: %d matrices and %d vectors (at most %d and %d)", nmat, nvec, Q1_MAX_MATRICES,
              Q1_MAX_VECTORS);
  CellAssembly as = {form, ctx, nmat, nvec, {{{NULL}}}, b};
  for (int k = 0; k < nmat; k++)
    if (A[k]) FEAST_CALL(cell_bands(N, A[k], k, as.band[k]));
  return q1_for_cells(N, xy, macro, order, scatter_cell, &as);
}

int feast_q1_assemble_edge(int N, const double *xy, int le, FeastQ1EdgeForm form, void *ctx, FeastBand9 *A) {
  FEAST_CHECK(form != NULL && le >= 0 && le < 4, FEAST_ERR_ARG, "Q1 edge assembly: form NULL or local edge %d", le);
  FEAST_CHECK(A->band[0] != NULL && A->N == N, FEAST_ERR_ARG, "Q1 edge assembly: matrix must have N = %d (has %d)", N,
              A->N);
  static const double gauss[2] = {0.21132486540518711775, 0.78867513459481288225}; /* (1 -+ 1/sqrt 3) / 2 */
  for (int s = 0; s + 1 < N; s++) {
    FeastQ1EdgePoint p;
    p.node[0] = feast_edge_node(le, s, N), p.node[1] = feast_edge_node(le, s + 1, N);
    const double *a = &xy[2 * p.node[0]], *b = &xy[2 * p.node[1]];
    const double len = hypot(b[0] - a[0], b[1] - a[1]);
    p.normal[0] = (b[1] - a[1]) / len, p.normal[1] = -(b[0] - a[0]) / len;
    double K[2][2] = {{0.0, 0.0}, {0.0, 0.0}};
    for (int q = 0; q < 2; q++) {
      const double t = gauss[q];
      p.x = (1.0 - t) * a[0] + t * b[0], p.y = (1.0 - t) * a[1] + t * b[1];
      p.weight = 0.5 * len, p.phi[0] = 1.0 - t, p.phi[1] = t;
      form(&p, ctx, K);
    }
    for (int r = 0; r < 2; r++)
      for (int c = 0; c < 2; c++) {
        const int dx = (int)(p.node[c] % N - p.node[r] % N), dy = (int)(p.node[c] / N - p.node[r] / N);
        A->band[feast_band_index(dx, dy)][p.node[r]] += K[r][c];
      }
  }
  return 0;
}

/* a point form as a cell form: the sum over the cell's quadrature points */
typedef struct {
  FeastQ1Form form;
  void *ctx;
} PointForm;

static void point_form(const FeastQ1Cell *c, void *ctxp, double (*Aloc)[4][4], double (*bloc)[4]) {
  const PointForm *pf = ctxp;
  for (int q = 0; q < c->nq; q++) pf->form(&c->q[q], pf->ctx, Aloc[0]);
}

/* ---- the Laplace form without a call per point ----
 * grad phi_a . grad phi_b integrated over a cell is dref_a^T G dref_b summed over the
 * quadrature points, G = adj(J^T J) w / det J. On a parallelogram cell (c = 0) J is
 * constant and the rule integrates the products of the reference gradients exactly, so
 * the element matrix is (|b|^2 S_ss - a.b (S_st + S_ts) + |a|^2 S_tt) / det with the
 * reference matrices S of the same rule: the same values as the quadrature (to rounding)
 * for a few dozen flops. Other cells (general and curved macros) are integrated point
 * by point with the generic point data and form, called directly (inlined). */
typedef struct {
  double ss[4][4], st[4][4], tt[4][4]; /* sum over q of w dref_a,x dref_b,y; st symmetrised */
} LaplaceRef;

static void laplace_ref(const Q1Rule *r, LaplaceRef *ref) {
  memset(ref, 0, sizeof *ref);
  for (int q = 0; q < r->nq; q++)
    for (int a = 0; a < 4; a++)
      for (int b = 0; b < 4; b++) {
        const double *da = r->dref[q][a], *db = r->dref[q][b];
        ref->ss[a][b] += r->w[q] * da[0] * db[0];
        ref->st[a][b] += r->w[q] * (da[0] * db[1] + da[1] * db[0]);
        ref->tt[a][b] += r->w[q] * da[1] * db[1];
      }
}

/* the cell counts as a parallelogram when |c| is below 64 ulp of its edges */
static int is_parallelogram(const Q1Cell *c) {
  const double size = fabs(c->a[0]) + fabs(c->a[1]) + fabs(c->b[0]) + fabs(c->b[1]);
  return fabs(c->c[0]) + fabs(c->c[1]) <= 64 * DBL_EPSILON * size;
}

static void laplace_parallelogram(const LaplaceRef *ref, const Q1Cell *c, double K[4][4]) {
  const double det = c->a[0] * c->b[1] - c->a[1] * c->b[0];
  const double gss = (c->b[0] * c->b[0] + c->b[1] * c->b[1]) / det;
  const double gst = -(c->a[0] * c->b[0] + c->a[1] * c->b[1]) / det;
  const double gtt = (c->a[0] * c->a[0] + c->a[1] * c->a[1]) / det;
  for (int a = 0; a < 4; a++)
    for (int b = 0; b < 4; b++) K[a][b] = gss * ref->ss[a][b] + gst * ref->st[a][b] + gtt * ref->tt[a][b];
}

static void laplace_general(const Q1Rule *r, const Q1Cell *c, double K[4][4]) {
  memset(K, 0, sizeof(double) * 16);
  for (int q = 0; q < r->nq; q++) {
    FeastQ1Point p;
    q1_point(r, q, c, &p);
    feast_q1_form_laplace(&p, NULL, K);
  }
}

static int assemble_laplace(int N, const double *xy, int macro, int order, FeastBand9 *A) {
  FEAST_CALL(q1_check_args(N, xy, order));
  FEAST_CALL(q1_check_cells(N, xy, macro));
  double *band[4][4];
  FEAST_CALL(cell_bands(N, A, 0, band));
  Q1Rule r;
  q1_rule(order, &r);
  LaplaceRef ref;
  laplace_ref(&r, &ref);
  for (int j = 0; j < N - 1; j++)
    for (int i = 0; i < N - 1; i++) {
      Q1Cell c;
      q1_cell(N, xy, i, j, &c);
      double K[4][4];
      if (is_parallelogram(&c))
        laplace_parallelogram(&ref, &c, K);
      else
        laplace_general(&r, &c, K);
      long node[4];
      feast_q1_cell_nodes(N, i, j, node);
      scatter_matrix(band, node, K);
    }
  return 0;
}

int feast_q1_assemble(int N, const double *xy, int macro, FeastQ1Form form, void *ctx, int order,
                      FeastBand9 *A) {
  FEAST_CHECK(form != NULL && A != NULL, FEAST_ERR_ARG, "Q1 assembly: form or matrix is NULL");
  if (form == feast_q1_form_laplace) return assemble_laplace(N, xy, macro, order, A);
  PointForm pf = {form, ctx};
  return feast_q1_assemble_cells(N, xy, macro, point_form, &pf, order, 1, &A, 0, NULL);
}

/* ---- integrals of functions: right-hand sides, lumped masses, L2 errors ----
 * They need only where the quadrature points lie and their weights, not the gradients
 * and centre data of a FeastQ1Cell. q1_for_rows gives a visitor those for a whole row
 * of cells at a time, so that the function is called once per row (FeastQ1Function:
 * a loop over points that vectorises) and not once per point. */
typedef struct {
  long N;               /* nodes per side */
  int j, nq;            /* row j of cells (cells 0..N-2), nq points per cell */
  const double *x, *y;  /* point q of cell i at [i nq + q] */
  const double *weight; /* w_q |det J| there */
  double *value;        /* room for a function's values at the row's points */
} Q1Row;

typedef void (*Q1RowVisit)(const Q1Row *row, const Q1Rule *r, void *ctx);

void feast_q1_cell_nodes(long N, long i, long j, long node[4]) {
  for (int a = 0; a < 4; a++) node[a] = (j + q1_dj(a)) * N + i + q1_di(a);
}

/* node a of cell i of the row */
static inline long q1_row_node(const Q1Row *row, int i, int a) {
  return (long)(row->j + q1_dj(a)) * row->N + i + q1_di(a);
}

static int q1_for_rows(int N, const double *xy, int macro, int order, Q1RowVisit visit, void *ctx) {
  FEAST_CALL(q1_check_args(N, xy, order));
  FEAST_CALL(q1_check_cells(N, xy, macro));
  Q1Rule r;
  q1_rule(order, &r);
  const long npts = (long)(N - 1) * r.nq;
  double *buf;
  FEAST_CALL(FEAST_ALLOC(4 * npts, &buf));
  double *x = buf, *y = buf + npts, *w = buf + 2 * npts;
  Q1Row row = {N, 0, r.nq, x, y, w, buf + 3 * npts};
  for (int j = 0; j < N - 1; j++) {
    for (int i = 0; i < N - 1; i++) {
      Q1Cell c;
      q1_cell(N, xy, i, j, &c);
      for (int q = 0; q < r.nq; q++) {
        Q1Map m;
        q1_map(&r, q, &c, &m);
        x[(long)i * r.nq + q] = m.x, y[(long)i * r.nq + q] = m.y, w[(long)i * r.nq + q] = m.weight;
      }
    }
    row.j = j;
    visit(&row, &r, ctx);
  }
  free(buf);
  return 0;
}

/* b_a += sum_q f(x_q) phi_a(q) w_q (f = NULL: 1) */
typedef struct {
  FeastQ1Function f;
  void *ctx;
  double *b;
} RhsSum;

static void rhs_row(const Q1Row *row, const Q1Rule *r, void *ctxp) {
  const RhsSum *rs = ctxp;
  const long cells = row->N - 1;
  if (rs->f) rs->f(cells * row->nq, row->x, row->y, rs->ctx, row->value);
  for (long i = 0; i < cells; i++) {
    double bloc[4] = {0, 0, 0, 0};
    for (int q = 0; q < row->nq; q++) {
      const long k = i * row->nq + q;
      const double fw = (rs->f ? row->value[k] : 1.0) * row->weight[k];
      for (int a = 0; a < 4; a++) bloc[a] += fw * r->phi[q][a];
    }
    for (int a = 0; a < 4; a++) rs->b[q1_row_node(row, (int)i, a)] += bloc[a];
  }
}

int feast_q1_assemble_rhs(int N, const double *xy, int macro, FeastQ1Function f, void *ctx,
                          int order, double *b) {
  FEAST_CHECK(f != NULL && b != NULL, FEAST_ERR_ARG, "Q1 right-hand side: function or vector is NULL");
  RhsSum rs = {f, ctx, b};
  return q1_for_rows(N, xy, macro, order, rhs_row, &rs);
}

int feast_q1_lumped_mass(int N, const double *xy, int macro, double *m) {
  FEAST_CHECK(m != NULL, FEAST_ERR_ARG, "Q1 lumped mass: vector is NULL");
  RhsSum rs = {NULL, NULL, m}; /* f = 1 */
  return q1_for_rows(N, xy, macro, 2, rhs_row, &rs);
}

typedef struct {
  const double *uh;
  FeastQ1Function u;
  void *ctx;
  double e2, n2;
} L2Error;

static void l2_error_row(const Q1Row *row, const Q1Rule *r, void *ctxp) {
  L2Error *le = ctxp;
  const long cells = row->N - 1;
  le->u(cells * row->nq, row->x, row->y, le->ctx, row->value);
  for (long i = 0; i < cells; i++)
    for (int q = 0; q < row->nq; q++) {
      const long k = i * row->nq + q;
      double uh = 0.0;
      for (int a = 0; a < 4; a++) uh += le->uh[q1_row_node(row, (int)i, a)] * r->phi[q][a];
      const double ue = row->value[k], d = uh - ue;
      le->e2 += d * d * row->weight[k];   /* (u_h - u)^2 */
      le->n2 += ue * ue * row->weight[k]; /* u^2 */
    }
}

int feast_q1_l2_error(int N, const double *xy, const double *uh, FeastQ1Function u, void *ctx,
                      int order, double *err2, double *norm2) {
  FEAST_CHECK(uh != NULL && u != NULL && err2 != NULL && norm2 != NULL, FEAST_ERR_ARG,
              "Q1 L2 error: a NULL argument");
  L2Error le = {uh, u, ctx, 0.0, 0.0};
  FEAST_CALL(q1_for_rows(N, xy, -1, order, l2_error_row, &le));
  *err2 = le.e2;
  *norm2 = le.n2;
  return 0;
}

/* grad phi_a . grad phi_b */
void feast_q1_form_laplace(const FeastQ1Point *p, void *ctx, double Aloc[4][4]) {
  for (int a = 0; a < 4; a++)
    for (int b = 0; b < 4; b++)
      Aloc[a][b] += (p->dphi[a][0] * p->dphi[b][0] + p->dphi[a][1] * p->dphi[b][1]) * p->weight;
}

/* phi_a phi_b */
void feast_q1_form_mass(const FeastQ1Point *p, void *ctx, double Aloc[4][4]) {
  for (int a = 0; a < 4; a++)
    for (int b = 0; b < 4; b++) Aloc[a][b] += p->phi[a] * p->phi[b] * p->weight;
}

/* ---- point location ---- */

/* Newton's method on the bilinear map of cell c: (s,t) with x(s,t) = (x, y); 0 if the
 * iteration meets a singular Jacobian (the point is then far outside the cell) */
static int q1_inverse(const Q1Cell *c, double x, double y, double st[2]) {
  double s = 0.5, t = 0.5;
  for (int it = 0; it < 50; it++) {
    const double fx = c->p0[0] + c->a[0] * s + c->b[0] * t + c->c[0] * s * t - x;
    const double fy = c->p0[1] + c->a[1] * s + c->b[1] * t + c->c[1] * s * t - y;
    const double xs = c->a[0] + c->c[0] * t, ys = c->a[1] + c->c[1] * t;
    const double xt = c->b[0] + c->c[0] * s, yt = c->b[1] + c->c[1] * s;
    const double det = xs * yt - xt * ys;
    if (det == 0.0 || !isfinite(det)) return 0;
    const double ds = (yt * fx - xt * fy) / det, dt = (xs * fy - ys * fx) / det;
    s -= ds, t -= dt;
    if (fabs(ds) + fabs(dt) < 1e-15) break;
  }
  st[0] = s, st[1] = t;
  return isfinite(s) && isfinite(t);
}

int feast_q1_cell_inverse(int N, const double *xy, int i, int j, double x, double y, double st[2]) {
  Q1Cell c;
  q1_cell(N, xy, i, j, &c);
  return q1_inverse(&c, x, y, st);
}

int feast_q1_locate(int N, const double *xy, double x, double y, double tol, int *ci, int *cj, double st[2]) {
  double lo[2] = {HUGE_VAL, HUGE_VAL}, hi[2] = {-HUGE_VAL, -HUGE_VAL};
  for (long k = 0; k < (long)N * N; k++)
    for (int d = 0; d < 2; d++) lo[d] = fmin(lo[d], xy[2 * k + d]), hi[d] = fmax(hi[d], xy[2 * k + d]);
  const double pad = tol * fmax(hi[0] - lo[0], hi[1] - lo[1]);
  if (x < lo[0] - pad || x > hi[0] + pad || y < lo[1] - pad || y > hi[1] + pad) return 0;
  for (int j = 0; j < N - 1; j++)
    for (int i = 0; i < N - 1; i++) {
      Q1Cell c;
      q1_cell(N, xy, i, j, &c);
      /* the cell's box (its edges are straight), padded by tol of its size */
      double clo[2], chi[2];
      for (int d = 0; d < 2; d++) {
        const double v[4] = {c.p0[d], c.p0[d] + c.a[d], c.p0[d] + c.b[d], c.p0[d] + c.a[d] + c.b[d] + c.c[d]};
        clo[d] = fmin(fmin(v[0], v[1]), fmin(v[2], v[3]));
        chi[d] = fmax(fmax(v[0], v[1]), fmax(v[2], v[3]));
      }
      const double cpad = tol * fmax(chi[0] - clo[0], chi[1] - clo[1]);
      if (x < clo[0] - cpad || x > chi[0] + cpad || y < clo[1] - cpad || y > chi[1] + cpad) continue;
      double r[2];
      if (!q1_inverse(&c, x, y, r) || r[0] < -tol || r[0] > 1 + tol || r[1] < -tol || r[1] > 1 + tol) continue;
      *ci = i, *cj = j;
      st[0] = fmin(fmax(r[0], 0.0), 1.0), st[1] = fmin(fmax(r[1], 0.0), 1.0);
      return 1;
    }
  return 0;
}

double feast_q1_eval(int N, const double *u, int ci, int cj, const double st[2]) {
  const double s = st[0], t = st[1];
  const double *u0 = u + (ptrdiff_t)cj * N + ci, *u3 = u0 + N;
  return (1 - s) * (1 - t) * u0[0] + s * (1 - t) * u0[1] + s * t * u3[1] + (1 - s) * t * u3[0];
}

#include "navier_stokes/forms.h"
#include <math.h>
#include <string.h>

/* smallest height of a cell: its area over the longer of its two mid-lines (the
 * columns of the Jacobian at the centre); exact for parallelograms */
static double min_height(const FeastQ1Cell *c) {
  const double ls = hypot(c->jac[0][0], c->jac[1][0]), lt = hypot(c->jac[0][1], c->jac[1][1]);
  return c->centre.weight / fmax(ls, lt);
}

NsForm ns_form_steady(double nu, int newton, const double *w1, const double *w2, FeastExpr *const force[2]) {
  return (NsForm){.nu = nu, .newton = newton, .w1 = w1, .w2 = w2, .force = {force[0], force[1]}, .theta = 1.0,
                  .stab = {.supg_scale = 1.0, .pspg_scale = 1.0, .viscous_residual = 0}};
}

/* a, b, d of J^T J = [a b; b d] at the centre: the metric of ns_cell_laplacian */
static void cell_metric(const FeastQ1Cell *c, double m[3]) {
  m[0] = c->jac[0][0] * c->jac[0][0] + c->jac[1][0] * c->jac[1][0];
  m[1] = c->jac[0][0] * c->jac[0][1] + c->jac[1][0] * c->jac[1][1];
  m[2] = c->jac[0][1] * c->jac[0][1] + c->jac[1][1] * c->jac[1][1];
}

/* ns_cell_laplacian of cell (i, j) of an N x N macro with the metric m (cell_metric) */
static double laplacian(long N, long i, long j, const double m[3], const double *u) {
  if (N < 3) return 0.0;
  double hss = 0.0, htt = 0.0;
  for (int r = 0; r < 2; r++)
    for (int k = 0; k < 2; k++) { /* at node (i+k, j+r) and (i+r, j+k), the centre kept in [1, N-2] */
      const long is = i + k < 1 ? 1 : i + k > N - 2 ? N - 2 : i + k, js = j + r;
      const long jt = j + k < 1 ? 1 : j + k > N - 2 ? N - 2 : j + k, it = i + r;
      hss += 0.25 * (u[js * N + is - 1] - 2.0 * u[js * N + is] + u[js * N + is + 1]);
      htt += 0.25 * (u[(jt - 1) * N + it] - 2.0 * u[jt * N + it] + u[(jt + 1) * N + it]);
    }
  const double hst = u[(j + 1) * N + i + 1] - u[j * N + i + 1] - u[(j + 1) * N + i] + u[j * N + i];
  /* (J^T J)^-1 = [d -b; -b a] / (a d - b^2) */
  const double a = m[0], b = m[1], d = m[2];
  return (hss * d - 2.0 * hst * b + htt * a) / (a * d - b * b);
}

double ns_cell_laplacian(const FeastQ1Cell *c, const double *u) {
  double m[3];
  cell_metric(c, m);
  return laplacian(c->node[3] - c->node[0], c->i, c->j, m, u);
}

void ns_viscous_derivative_apply(int N, const NsViscousCell *cells, const double *x1, const double *x2,
                                 const unsigned char *const fixed[3], double *y1, double *y2, double *yp) {
  for (long j = 0; j + 1 < N; j++)
    for (long i = 0; i + 1 < N; i++) {
      const NsViscousCell *v = &cells[j * (N - 1) + i];
      const double l1 = laplacian(N, i, j, v->metric, x1), l2 = laplacian(N, i, j, v->metric, x2);
      long node[4];
      feast_q1_cell_nodes(N, i, j, node);
      for (int a = 0; a < 4; a++) {
        const long n = node[a];
        if (!fixed || !fixed[0][n]) y1[n] += v->mom[a] * l1;
        if (!fixed || !fixed[1][n]) y2[n] += v->mom[a] * l2;
        if (!fixed || !fixed[2][n]) yp[n] += v->cont[0][a] * l1 + v->cont[1][a] * l2;
      }
    }
}

/* tau of ns_tau and, where dtau is not NULL, its gradient in the cell-centre velocity w:
 * tau = (4 rate^2 + adv^2 + visc^2)^-1/2 with adv = sum_a |w . grad phi_a| homogeneous of
 * degree 1 in w, so dtau/dw_j = -tau^3 adv sum_a sgn(w . grad phi_a) d_j phi_a */
static double tau_and_gradient(const FeastQ1Cell *c, const double w[2], double nu, double mass, double dtau[2]) {
  const double h = min_height(c);
  double adv = 0.0, dadv[2] = {0.0, 0.0}; /* sum_a |w . grad phi_a| = 2 |w| / h_w, its gradient */
  for (int a = 0; a < 4; a++) {
    const double *g = c->centre.dphi[a], t = w[0] * g[0] + w[1] * g[1];
    adv += fabs(t);
    const double sgn = t > 0.0 ? 1.0 : t < 0.0 ? -1.0 : 0.0;
    dadv[0] += sgn * g[0], dadv[1] += sgn * g[1];
  }
  const double visc = 4.0 * nu / (h * h);
  const double tau = 1.0 / sqrt((mass == 0.0 ? 0.0 : 4.0 * mass * mass) + adv * adv + visc * visc);
  if (dtau)
    for (int j = 0; j < 2; j++) dtau[j] = -tau * tau * tau * adv * dadv[j];
  return tau;
}

double ns_tau(const FeastQ1Cell *c, const double w[2], double nu, double mass) {
  return tau_and_gradient(c, w, nu, mass, NULL);
}

/* value and gradient of a grid field at a point of cell c */
static void field_at(const FeastQ1Cell *c, const FeastQ1Point *p, const double *u, double *v, double g[2]) {
  *v = g[0] = g[1] = 0.0;
  if (!u) return;
  for (int a = 0; a < 4; a++) {
    const double ua = u[c->node[a]];
    *v += ua * p->phi[a];
    g[0] += ua * p->dphi[a][0];
    g[1] += ua * p->dphi[a][1];
  }
}

static double force_at(NsForm *f, int d, const FeastQ1Point *p) {
  double v = 0.0;
  if (f->force[d] && !f->status) f->status = feast_expr_eval(f->force[d], p->x, p->y, &v);
  return v;
}

/* the stabilisation of one cell: tau of the SUPG and the PSPG terms, nu Laplace w (0:
 * dropped); the cell-centre velocity wc and the gradients of both taus in it (d tau /
 * d w_b,j = dsupg[j] phi_b(centre), phi_b(centre) = 1/4), used where tau_derivative is
 * set: Newton with tau from ns_tau (not NsForm.tau_frozen) */
typedef struct {
  double supg, pspg, visc[2];
  double wc[2], dsupg[2], dpspg[2];
  int tau_derivative;
} CellStab;

/* Newton: the integrals over the cell that tau multiplies at the linearisation point,
 * phi[i][a] = (R_i, w.grad phi_a) (the SUPG residual of momentum row i, as res in
 * point()) and psi[a] = -(R_p, grad psi_a) (the PSPG residual of the continuity row,
 * R_p = (w.grad) w + mass w + s + grad p_w - f - nu Lap w); tau's derivative adds
 * dtau_s phi[i][a] to A_ij and dtau_p psi[a] to BT_j (forms.h) */
typedef struct {
  double phi[2][4], psi[4];
} TauIntegrals;

static CellStab cell_stabilisation(const NsForm *f, const FeastQ1Cell *c);

/* (w . grad) w at a point: ww_i = w . grad w_i */
static void convection_of_w(const double w[2], const double gw[2][2], double ww[2]) {
  for (int i = 0; i < 2; i++) ww[i] = w[0] * gw[i][0] + w[1] * gw[i][1];
}

/* Newton: the SUPG residual R at the linearisation point (w, p_w) (forms.h), from
 * ww = (w . grad) w, the force (fx, fy), sq (the known part of du/dt) and grad p_w; 0
 * without Newton */
static void supg_residual_at_w(const NsForm *f, const double w[2], const double ww[2], double fx, double fy,
                               const double sq[2], const double gpw[2], const CellStab *st, double res[2]) {
  for (int i = 0; i < 2; i++)
    res[i] = f->newton ? f->theta * (ww[i] - (i ? fy : fx) - st->visc[i]) + f->mass * w[i] + sq[i] + gpw[i] : 0.0;
}

/* ti += quadrature point p's part of test function a's integrals (TauIntegrals) */
static void tau_integrals_add(const NsForm *f, const FeastQ1Point *p, int a, double W, const double w[2],
                              const double ww[2], double conv, const double res[2], double fx, double fy,
                              const double sq[2], const double gpw[2], const CellStab *st, TauIntegrals *ti) {
  const double rx = ww[0] + f->mass * w[0] + sq[0] + gpw[0] - fx - st->visc[0];
  const double ry = ww[1] + f->mass * w[1] + sq[1] + gpw[1] - fy - st->visc[1];
  ti->phi[0][a] += W * res[0] * conv;
  ti->phi[1][a] += W * res[1] * conv;
  ti->psi[a] -= W * (rx * p->dphi[a][0] + ry * p->dphi[a][1]);
}

/* Newton, tau from ns_tau: tau's derivative (TauIntegrals) applied to the velocity
 * change dw = w - x, dw_c its cell-centre value: the columns of A_ij, BT_j (A != NULL)
 * and the right-hand side's terms for x = 0, b += J_tau dw (ns_form: dw = w; ns_form_residual:
 * b - A x gets J_tau (w - x)) */
static void tau_derivative_terms(const CellStab *st, const TauIntegrals *ti, const double dwc[2],
                                 double (*A)[4][4], double (*b)[4]) {
  const double s_dw = st->dsupg[0] * dwc[0] + st->dsupg[1] * dwc[1];
  const double p_dw = st->dpspg[0] * dwc[0] + st->dpspg[1] * dwc[1];
  for (int a = 0; a < 4; a++) {
    b[NS_F1][a] += ti->phi[0][a] * s_dw;
    b[NS_F2][a] += ti->phi[1][a] * s_dw;
    b[NS_G][a] += ti->psi[a] * p_dw;
    if (!A) continue;
    for (int c = 0; c < 4; c++) /* d tau / d w_c,j = dtau[j] phi_c(centre), phi_c(centre) = 1/4 */
      for (int j = 0; j < 2; j++) {
        A[NS_A11 + j][a][c] += 0.25 * ti->phi[0][a] * st->dsupg[j];
        A[NS_A21 + j][a][c] += 0.25 * ti->phi[1][a] * st->dsupg[j];
        A[NS_BT1 + j][a][c] += 0.25 * ti->psi[a] * st->dpspg[j];
      }
  }
}

/* the contributions of one quadrature point (weight W); sq: the known part of du/dt there */
static void point(NsForm *f, const FeastQ1Point *p, const double w[2], const double gw[2][2], const double sq[2],
                  const double gp[2], const CellStab *st, TauIntegrals *ti, double (*A)[4][4], double (*b)[4]) {
  const double tau_s = st->supg, tau_p = st->pspg;
  const double W = p->weight, nu = f->nu, th = f->theta, mass = f->mass;
  const double fx = force_at(f, 0, p), fy = force_at(f, 1, p);
  double conv[4]; /* w . grad phi_a: trial convection and SUPG test direction */
  for (int a = 0; a < 4; a++) conv[a] = w[0] * p->dphi[a][0] + w[1] * p->dphi[a][1];
  double ww[2], res[2]; /* (w . grad) w; Newton: the SUPG residual at (w, p_w) */
  convection_of_w(w, gw, ww);
  supg_residual_at_w(f, w, ww, fx, fy, sq, gp, st, res);
  for (int a = 0; a < 4; a++) {
    const double pa = p->phi[a], dxa = p->dphi[a][0], dya = p->dphi[a][1];
    for (int c = 0; c < 4; c++) {
      const double pc = p->phi[c], dxc = p->dphi[c][0], dyc = p->dphi[c][1];
      const double lap = dxa * dxc + dya * dyc;
      double a_ii = th * (nu * lap + conv[c] * pa + tau_s * conv[c] * conv[a]);
      double bt1 = -pa * dxc - tau_p * conv[c] * dxa, bt2 = -pa * dyc - tau_p * conv[c] * dya;
      if (mass != 0.0) { /* mass (phi_c, phi_a + tau w.grad phi_a), -tau mass (phi_c, grad psi_a) */
        a_ii += mass * pc * (pa + tau_s * conv[a]);
        bt1 -= tau_p * mass * pc * dxa;
        bt2 -= tau_p * mass * pc * dya;
      }
      A[NS_A11][a][c] += W * a_ii;
      A[NS_A22][a][c] += W * a_ii;
      if (f->velocity_blocks) A[NS_V11][a][c] += W * a_ii, A[NS_V22][a][c] += W * a_ii;
      A[NS_B1][a][c] += W * (-pc * dxa + tau_s * dxc * conv[a]);
      A[NS_B2][a][c] += W * (-pc * dya + tau_s * dyc * conv[a]);
      A[NS_BT1][a][c] += W * bt1;
      A[NS_BT2][a][c] += W * bt2;
      A[NS_C][a][c] -= W * tau_p * lap;
      if (f->newton) { /* the derivatives in w of the momentum and continuity rows (forms.h) */
        const double m = W * th * pc * (pa + tau_s * conv[a]), q = W * tau_p * pc, t = W * tau_s * pc;
        /* m gw: the reaction term ((. grad) w, phi_a + tau_s w.grad phi_a), which the velocity blocks leave out */
        const double s11 = t * res[0] * dxa, s12 = t * res[0] * dya, s21 = t * res[1] * dxa, s22 = t * res[1] * dya;
        A[NS_A11][a][c] += m * gw[0][0] + s11;
        A[NS_A12][a][c] += m * gw[0][1] + s12;
        A[NS_A21][a][c] += m * gw[1][0] + s21;
        A[NS_A22][a][c] += m * gw[1][1] + s22;
        if (f->velocity_blocks) A[NS_V11][a][c] += s11, A[NS_V21][a][c] += s21, A[NS_V22][a][c] += s22;
        A[NS_BT1][a][c] -= q * (gw[0][0] * dxa + gw[1][0] * dya);
        A[NS_BT2][a][c] -= q * (gw[0][1] * dxa + gw[1][1] * dya);
      }
    }
    /* (theta f - s, phi_a + tau_s w.grad phi_a) + theta tau_s (nu Lap w, w.grad phi_a),
     * -tau_p (f - s + nu Lap w, grad psi_a) */
    b[NS_F1][a] += W * (th * fx - sq[0]) * (pa + tau_s * conv[a]) + W * th * tau_s * st->visc[0] * conv[a];
    b[NS_F2][a] += W * (th * fy - sq[1]) * (pa + tau_s * conv[a]) + W * th * tau_s * st->visc[1] * conv[a];
    b[NS_G][a] -= W * tau_p * ((fx - sq[0] + st->visc[0]) * dxa + (fy - sq[1] + st->visc[1]) * dya);
    if (f->newton) { /* the same terms applied to w: the defect stays that of the nonlinear problem */
      b[NS_F1][a] += W * (th * (pa + tau_s * conv[a]) * ww[0] + tau_s * res[0] * conv[a]);
      b[NS_F2][a] += W * (th * (pa + tau_s * conv[a]) * ww[1] + tau_s * res[1] * conv[a]);
      b[NS_G][a] -= W * tau_p * (ww[0] * dxa + ww[1] * dya);
    }
    if (st->tau_derivative) tau_integrals_add(f, p, a, W, w, ww, conv[a], res, fx, fy, sq, gp, st, ti);
  }
}

/* Newton with the viscous residual: the derivative of its lagged terms (forms.h) on cell c,
 * whose Laplacian of a trial velocity is constant on the cell: per unit Lap x_i, momentum
 * row a of component i gets -theta tau_s nu (w.grad phi_a, 1), continuity row a
 * tau_p nu (d_i psi_a, 1). The cell's entry of NsForm.viscous_cells, its metric set and
 * its integrals zeroed (viscous_derivative_add sums them); NULL where none is stored */
static NsViscousCell *viscous_derivative_cell(const NsForm *f, const FeastQ1Cell *c) {
  if (!f->viscous_cells || !f->newton || !f->stab.viscous_residual || !f->w1 || !f->w2) return NULL;
  NsViscousCell *v = &f->viscous_cells[(long)c->j * (c->node[3] - c->node[0] - 1) + c->i];
  cell_metric(c, v->metric);
  memset(v->mom, 0, sizeof v->mom);
  memset(v->cont, 0, sizeof v->cont);
  return v;
}

/* v += quadrature point p's part of the cell's integrals (viscous_derivative_cell), w there */
static void viscous_derivative_add(const NsForm *f, const FeastQ1Point *p, const double w[2], const CellStab *st,
                                   NsViscousCell *v) {
  for (int a = 0; a < 4; a++) {
    v->mom[a] -= p->weight * f->theta * st->supg * f->nu * (w[0] * p->dphi[a][0] + w[1] * p->dphi[a][1]);
    v->cont[0][a] += p->weight * st->pspg * f->nu * p->dphi[a][0];
    v->cont[1][a] += p->weight * st->pspg * f->nu * p->dphi[a][1];
  }
}

void ns_form(const FeastQ1Cell *c, void *ctx, double (*A)[4][4], double (*b)[4]) {
  NsForm *f = ctx;
  const CellStab st = cell_stabilisation(f, c);
  TauIntegrals ti = {{{0.0}}, {0.0}};
  NsViscousCell *vc = viscous_derivative_cell(f, c);
  for (int q = 0; q < c->nq; q++) {
    double w[2], gw[2][2], sq[2], gs[2], pw, gp[2];
    field_at(c, &c->q[q], f->w1, &w[0], gw[0]);
    field_at(c, &c->q[q], f->w2, &w[1], gw[1]);
    field_at(c, &c->q[q], f->s1, &sq[0], gs);
    field_at(c, &c->q[q], f->s2, &sq[1], gs);
    field_at(c, &c->q[q], f->newton ? f->wp : NULL, &pw, gp);
    point(f, &c->q[q], w, gw, sq, gp, &st, &ti, A, b);
    if (vc) viscous_derivative_add(f, &c->q[q], w, &st, vc);
  }
  if (st.tau_derivative) tau_derivative_terms(&st, &ti, st.wc, A, b);
}

/* b[r][a] += the residual of one quadrature point (weight W) at the iterate (x, p) with
 * the linearisation (w, gw) and the cell's stabilisation st: see forms.h */
static void residual_point(NsForm *f, const FeastQ1Point *q, const double w[2], const double gw[2][2],
                           const double x[2], const double gx[2][2], double p, const double gp[2], const double gpw[2],
                           const double sq[2], const CellStab *st, TauIntegrals *ti, double (*b)[4]) {
  const double W = q->weight, th = f->theta, mass = f->mass, tau_s = st->supg, tau_p = st->pspg;
  const double fx = force_at(f, 0, q), fy = force_at(f, 1, q);
  const double cu = w[0] * gx[0][0] + w[1] * gx[0][1], cv = w[0] * gx[1][0] + w[1] * gx[1][1]; /* (w.grad) x */
  double mx = th * (fx - cu) - sq[0] - mass * x[0], my = th * (fy - cv) - sq[1] - mass * x[1];
  const double ex = fx - cu - sq[0] - mass * x[0] - gp[0] + st->visc[0];
  const double ey = fy - cv - sq[1] - mass * x[1] - gp[1] + st->visc[1];
  const double div = gx[0][0] + gx[1][1], visc = th * f->nu;
  /* Newton (forms.h): the derivative terms applied to w - x: ((w - x).grad) w in both residuals,
   * and the SUPG residual at (w, p_w) tested with tau_s (w - x).grad phi_a */
  double nx = 0.0, ny = 0.0, ww[2], res[2];
  convection_of_w(w, gw, ww);
  supg_residual_at_w(f, w, ww, fx, fy, sq, gpw, st, res);
  if (f->newton) {
    nx = gw[0][0] * (w[0] - x[0]) + gw[0][1] * (w[1] - x[1]);
    ny = gw[1][0] * (w[0] - x[0]) + gw[1][1] * (w[1] - x[1]);
  }
  for (int a = 0; a < 4; a++) {
    const double pa = q->phi[a], dxa = q->dphi[a][0], dya = q->dphi[a][1];
    const double conv = w[0] * dxa + w[1] * dya; /* w . grad phi_a */
    const double dconv = (w[0] - x[0]) * dxa + (w[1] - x[1]) * dya;
    b[NS_F1][a] += W * ((pa + tau_s * conv) * (mx + th * nx) + tau_s * conv * (th * st->visc[0] - gp[0]) + p * dxa -
                        visc * (gx[0][0] * dxa + gx[0][1] * dya) + tau_s * res[0] * dconv);
    b[NS_F2][a] += W * ((pa + tau_s * conv) * (my + th * ny) + tau_s * conv * (th * st->visc[1] - gp[1]) + p * dya -
                        visc * (gx[1][0] * dxa + gx[1][1] * dya) + tau_s * res[1] * dconv);
    b[NS_G][a] += W * (pa * div - tau_p * ((ex + nx) * dxa + (ey + ny) * dya));
    if (st->tau_derivative) tau_integrals_add(f, q, a, W, w, ww, conv, res, fx, fy, sq, gpw, st, ti);
  }
}

/* the stabilisation of cell c at the velocity w of the form (ns_form and ns_form_residual) */
static CellStab cell_stabilisation(const NsForm *f, const FeastQ1Cell *c) {
  double wc[2], g[2];
  field_at(c, &c->centre, f->w1, &wc[0], g);
  field_at(c, &c->centre, f->w2, &wc[1], g);
  double dtau[2] = {0.0, 0.0};
  const int derivative = f->newton && f->tau_frozen <= 0.0;
  const double tau = f->tau_frozen > 0.0 ? f->tau_frozen : tau_and_gradient(c, wc, f->nu, f->tau_rate, dtau);
  CellStab st = {tau * f->stab.supg_scale, tau * f->stab.pspg_scale, {0.0, 0.0}, {wc[0], wc[1]},
                 {f->stab.supg_scale * dtau[0], f->stab.supg_scale * dtau[1]},
                 {f->stab.pspg_scale * dtau[0], f->stab.pspg_scale * dtau[1]}, derivative};
  if (f->stab.viscous_residual && f->w1 && f->w2) {
    st.visc[0] = f->nu * ns_cell_laplacian(c, f->w1);
    st.visc[1] = f->nu * ns_cell_laplacian(c, f->w2);
  }
  return st;
}

void ns_form_residual(const FeastQ1Cell *c, void *ctx, double (*A)[4][4], double (*b)[4]) {
  NsForm *f = ctx;
  (void)A;
  const CellStab st = cell_stabilisation(f, c);
  const int x_is_w = f->x1 == f->w1 && f->x2 == f->w2;
  TauIntegrals ti = {{{0.0}}, {0.0}};
  for (int q = 0; q < c->nq; q++) {
    double w[2], gw[2][2], x[2], gx[2][2], sq[2], gs[2], p, gp[2];
    field_at(c, &c->q[q], f->w1, &w[0], gw[0]);
    field_at(c, &c->q[q], f->w2, &w[1], gw[1]);
    if (x_is_w) { /* x = w: the defect of the nonlinear problem */
      x[0] = w[0], x[1] = w[1];
      memcpy(gx, gw, sizeof gx);
    } else {
      field_at(c, &c->q[q], f->x1, &x[0], gx[0]);
      field_at(c, &c->q[q], f->x2, &x[1], gx[1]);
    }
    field_at(c, &c->q[q], f->s1, &sq[0], gs);
    field_at(c, &c->q[q], f->s2, &sq[1], gs);
    field_at(c, &c->q[q], f->p, &p, gp);
    double pw, gpw[2]; /* Newton: the pressure of the linearisation point */
    field_at(c, &c->q[q], f->newton ? f->wp : NULL, &pw, gpw);
    residual_point(f, &c->q[q], w, gw, x, gx, p, gp, gpw, sq, &st, &ti, b);
  }
  if (st.tau_derivative && !x_is_w) { /* J_tau (w - x), (w - x) at the cell centre */
    double xc[2], g[2];
    field_at(c, &c->centre, f->x1, &xc[0], g);
    field_at(c, &c->centre, f->x2, &xc[1], g);
    const double dwc[2] = {st.wc[0] - xc[0], st.wc[1] - xc[1]};
    tau_derivative_terms(&st, &ti, dwc, NULL, b);
  }
}

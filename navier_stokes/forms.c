#include "navier_stokes/forms.h"
#include <math.h>

/* smallest height of a cell: its area over the longer of its two mid-lines (the
 * columns of the Jacobian at the centre); exact for parallelograms */
static double min_height(const FeastQ1Cell *c) {
  const double ls = hypot(c->jac[0][0], c->jac[1][0]), lt = hypot(c->jac[0][1], c->jac[1][1]);
  return c->centre.weight / fmax(ls, lt);
}

double ns_tau(const FeastQ1Cell *c, const double w[2], double nu) {
  const double h = min_height(c);
  double adv = 0.0; /* sum_a |w . grad phi_a| = 2 |w| / h_w */
  for (int a = 0; a < 4; a++) adv += fabs(w[0] * c->centre.dphi[a][0] + w[1] * c->centre.dphi[a][1]);
  const double visc = 4.0 * nu / (h * h);
  return 1.0 / sqrt(adv * adv + visc * visc);
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

/* the contributions of one quadrature point (weight W) */
static void point(NsForm *f, const FeastQ1Point *p, const double w[2], const double gw[2][2], double tau,
                  double (*A)[4][4], double (*b)[4]) {
  const double W = p->weight, nu = f->nu;
  const double fx = force_at(f, 0, p), fy = force_at(f, 1, p);
  double conv[4]; /* w . grad phi_a: trial convection and SUPG test direction */
  for (int a = 0; a < 4; a++) conv[a] = w[0] * p->dphi[a][0] + w[1] * p->dphi[a][1];
  for (int a = 0; a < 4; a++) {
    const double pa = p->phi[a], dxa = p->dphi[a][0], dya = p->dphi[a][1];
    for (int c = 0; c < 4; c++) {
      const double pc = p->phi[c], dxc = p->dphi[c][0], dyc = p->dphi[c][1];
      const double lap = dxa * dxc + dya * dyc;
      const double a_ii = nu * lap + conv[c] * pa + tau * conv[c] * conv[a];
      A[NS_A11][a][c] += W * a_ii;
      A[NS_A22][a][c] += W * a_ii;
      A[NS_B1][a][c] += W * (-pc * dxa + tau * dxc * conv[a]);
      A[NS_B2][a][c] += W * (-pc * dya + tau * dyc * conv[a]);
      A[NS_BT1][a][c] += W * (-pa * dxc - tau * conv[c] * dxa);
      A[NS_BT2][a][c] += W * (-pa * dyc - tau * conv[c] * dya);
      A[NS_C][a][c] -= W * tau * lap;
      if (f->newton) { /* (d_j w_i phi_c, phi_a) */
        const double m = W * pa * pc;
        A[NS_A11][a][c] += m * gw[0][0];
        A[NS_A12][a][c] += m * gw[0][1];
        A[NS_A21][a][c] += m * gw[1][0];
        A[NS_A22][a][c] += m * gw[1][1];
      }
    }
    b[NS_F1][a] += W * fx * (pa + tau * conv[a]);
    b[NS_F2][a] += W * fy * (pa + tau * conv[a]);
    b[NS_G][a] -= W * tau * (fx * dxa + fy * dya);
    if (f->newton) { /* ((w . grad) w, phi_a) */
      b[NS_F1][a] += W * pa * (w[0] * gw[0][0] + w[1] * gw[0][1]);
      b[NS_F2][a] += W * pa * (w[0] * gw[1][0] + w[1] * gw[1][1]);
    }
  }
}

void ns_form(const FeastQ1Cell *c, void *ctx, double (*A)[4][4], double (*b)[4]) {
  NsForm *f = ctx;
  double wc[2], g[2];
  field_at(c, &c->centre, f->w1, &wc[0], g);
  field_at(c, &c->centre, f->w2, &wc[1], g);
  const double tau = ns_tau(c, wc, f->nu);
  for (int q = 0; q < c->nq; q++) {
    double w[2], gw[2][2];
    field_at(c, &c->q[q], f->w1, &w[0], gw[0]);
    field_at(c, &c->q[q], f->w2, &w[1], gw[1]);
    point(f, &c->q[q], w, gw, tau, A, b);
  }
}

/* The Q1/Q1 SUPG/PSPG cell form of the stationary (Navier-)Stokes equations on hexahedra
 * (navier_stokes/hex_forms.h states the blocks, signs and tau). */
#include "navier_stokes/hex_forms.h"
#include "feast/base/error.h"
#include <math.h>

/* the smallest height of a cell at its centre: det J over the largest face area |J_e x J_f|
 * of the Jacobian's columns J_e (exact for parallelepipeds) */
static double min_height(const FeastQ1HexCell *c) {
  double area = 0.0;
  for (int e = 0; e < 3; e++) {
    const int f = (e + 1) % 3;
    double n[3];
    for (int d = 0; d < 3; d++) {
      const int d1 = (d + 1) % 3, d2 = (d + 2) % 3;
      n[d] = c->jac[d1][e] * c->jac[d2][f] - c->jac[d2][e] * c->jac[d1][f];
    }
    area = fmax(area, sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]));
  }
  return c->centre.weight / area;
}

double ns_hex_tau(const FeastQ1HexCell *c, const double w[3], double nu) {
  const double h = min_height(c);
  double adv = 0.0; /* sum_a |w . grad phi_a| = 2 |w| / h_w */
  for (int a = 0; a < 8; a++) {
    const double *g = c->centre.dphi[a];
    adv += fabs(w[0] * g[0] + w[1] * g[1] + w[2] * g[2]);
  }
  const double visc = 4.0 * nu / (h * h);
  return 1.0 / sqrt(adv * adv + visc * visc);
}

/* w at point p of cell c (the grid functions f->w; NULL: 0) */
static void velocity_at(const NsHexForm *f, const FeastQ1HexCell *c, const FeastQ1HexPoint *p, double w[3]) {
  for (int d = 0; d < 3; d++) {
    w[d] = 0.0;
    if (f->w[d])
      for (int a = 0; a < 8; a++) w[d] += f->w[d][c->node[a]] * p->phi[a];
  }
}

/* the force at p, 0 where there is none or an evaluation has failed (f->status) */
static void force_at(NsHexForm *f, const FeastQ1HexPoint *p, double v[3]) {
  v[0] = v[1] = v[2] = 0.0;
  if (!f->force || f->status) return;
  f->status = f->force(f->force_ctx, p->x, v);
  if (f->status) v[0] = v[1] = v[2] = 0.0;
}

/* one quadrature point p of the form (hex_forms.h), w there, tau_s and tau_p the cell's.
 * With the SUPG test function's weighted value s_a = W (phi_a + tau_s w.grad phi_a), A's
 * convective and SUPG terms are (w.grad phi_b) s_a and f_d's f_d s_a. The point's data
 * copied to locals first (W phi, the gradients by component), which no store to Aloc can
 * alias: the loops over the trial function vectorise */
static void point(NsHexForm *f, const FeastQ1HexPoint *p, const double w[3], double tau_s, double tau_p,
                  double (*A)[8][8], double (*b)[8]) {
  const double W = p->weight, Wnu = W * f->nu, Wp = W * tau_p;
  double phi[8], g[3][8], conv[8], fv[3]; /* W phi_a, d_d phi_a, w.grad phi_a */
  for (int a = 0; a < 8; a++) {
    phi[a] = W * p->phi[a];
    for (int d = 0; d < 3; d++) g[d][a] = p->dphi[a][d];
    conv[a] = w[0] * g[0][a] + w[1] * g[1][a] + w[2] * g[2][a];
  }
  force_at(f, p, fv);
  for (int a = 0; a < 8; a++) {
    const double ga[3] = {g[0][a], g[1][a], g[2][a]}, pa = phi[a];
    const double ca = W * tau_s * conv[a], sa = pa + ca;
    for (int c = 0; c < 8; c++) {
      const double lap = ga[0] * g[0][c] + ga[1] * g[1][c] + ga[2] * g[2][c], pcw = Wp * conv[c];
      A[NS_HEX_A][a][c] += Wnu * lap + conv[c] * sa;
      A[NS_HEX_B1][a][c] += -phi[c] * ga[0] + ca * g[0][c];
      A[NS_HEX_B2][a][c] += -phi[c] * ga[1] + ca * g[1][c];
      A[NS_HEX_B3][a][c] += -phi[c] * ga[2] + ca * g[2][c];
      A[NS_HEX_BT1][a][c] += -pa * g[0][c] - pcw * ga[0];
      A[NS_HEX_BT2][a][c] += -pa * g[1][c] - pcw * ga[1];
      A[NS_HEX_BT3][a][c] += -pa * g[2][c] - pcw * ga[2];
      A[NS_HEX_C][a][c] -= Wp * lap;
    }
    for (int d = 0; d < 3; d++) b[NS_HEX_F1 + d][a] += fv[d] * sa;
    b[NS_HEX_G][a] -= Wp * (fv[0] * ga[0] + fv[1] * ga[1] + fv[2] * ga[2]);
  }
}

void ns_hex_form(const FeastQ1HexCell *c, void *ctx, double (*A)[8][8], double (*b)[8]) {
  NsHexForm *f = ctx;
  if (f->stab.viscous_residual && !f->status)
    f->status = feast_error_set(FEAST_ERR_UNSUPPORTED, __FILE__, __LINE__,
                                "3D Navier-Stokes form: stabilisation.viscous_residual is not supported on hexahedra");
  double wc[3];
  velocity_at(f, c, &c->centre, wc);
  const double tau = ns_hex_tau(c, wc, f->nu);
  /* a scale 0 turns its terms off even where tau is infinite (nu = 0, w_c = 0) */
  const double tau_s = f->stab.supg_scale != 0.0 ? f->stab.supg_scale * tau : 0.0;
  const double tau_p = f->stab.pspg_scale != 0.0 ? f->stab.pspg_scale * tau : 0.0;
  for (int q = 0; q < c->nq; q++) {
    double w[3];
    velocity_at(f, c, &c->q[q], w);
    point(f, &c->q[q], w, tau_s, tau_p, A, b);
  }
}

/* The Newton linearisation of the element form ns_form (navier_stokes/forms.h) against
 * finite differences of the nonlinear residual, on one general quadrilateral macro at
 * level 2 with jittered interior nodes (16 cells, none a parallelogram), body force
 * (sin x + y^2, x y - 1).
 *
 * The nonlinear residual of the discretisation is the fixed-point system assembled at
 * the iterate itself,
 *   F(x) = K(u) x - h(u),   x = (u, v, p), K, h: ns_form with newton = 0 and w = u,
 * and Newton's matrix at w is J(w) = K_newton(w) (ns_form with newton = 1). forms.h
 * says what J differentiates: every term in w (the convection in the Galerkin, SUPG and
 * PSPG terms, the SUPG test direction w.grad phi, and tau through the cell-centre
 * velocity). Checked:
 *  1. the Newton right-hand side keeps the defect: K_newton(u) x - h_newton(u) equals
 *     K(u) x - h(u) to round-off (1e-13 relative), nu = 1e-2, 1, 1e2, with and without
 *     force (the added terms on both sides cancel at w = u);
 *  2. with tau frozen (NsForm.tau_frozen: one value in every cell, in F and J alike),
 *     J d is the derivative: the central difference D = (F(x + e d) - F(x - e d)) / 2e
 *     (e = 1e-4; exact for the quadratic terms) equals J d to 1e-7 of the size of
 *     Newton's terms |J d - K d|, at nu = 1e-2 (convective: cell Peclet number ~ 25),
 *     1 and 1e2; Newton's matrix of before 2026-11-26 (the Galerkin term alone) is off by
 *     O(1) there, and so is a Newton term with the velocity gradient transposed (A12 and
 *     A21 exchanged): > 0.5;
 *     (measured 3e-9 at every nu; the Galerkin term alone: 0.27)
 *  3. with tau from ns_tau (its derivative in J), J d is the derivative as well: gap <
 *     1e-6 where viscosity sets tau (nu = 1e2, 1e3; measured 8e-9 and 8e-8) and in the
 *     convective regime (nu = 1e-2, where tau follows |w|; measured 7e-9). Without tau's
 *     derivative (before 2026-11-27) the gap there was 0.70 of Newton's terms, and Newton
 *     converged linearly (docs/notes/ns-nonlinear.md, "Newton with tau's derivative").
 *  4. the preconditioner's velocity blocks (NsForm.velocity_blocks, velocity.newton_reaction =
 *     off), assembled in the same pass as J: J - J_drop is the reaction term alone, R_ij =
 *     ((phi_c d_j w_i), phi_a + tau w.grad phi_a), integrated here by a form of its own (tau
 *     frozen), to 1e-14 of |R| + |J_ij| (round-off), in A11, A21 and A22; J's blocks and the
 *     right-hand side are the bits of a pass without the velocity blocks.
 *  5. with the viscous residual (stabilisation.viscous_residual = on: -nu Lap u, per cell,
 *     in both residuals, lagged in the fixed point's form) and tau from ns_tau, J d plus
 *     the derivative of the lagged term (ns_viscous_derivative_apply, from the cells
 *     ns_form stored) is the derivative of F: gap < 1e-6 at nu = 1e-2 and 1; without that
 *     term (Newton before 2026-11-27 there) the gap is > 1e-3.
 */
#include "feast/base/error.h"
#include "feast/config/expr.h"
#include "feast/fem/q1.h"
#include "feast_test.h"
#include "navier_stokes/forms.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { N = 5, NN = N * N, NF = 3 };

static const int row_blocks[NF][NF] = {{NS_A11, NS_A12, NS_B1}, {NS_A21, NS_A22, NS_B2}, {NS_BT1, NS_BT2, NS_C}};

static double xy[2 * NN];
static double tau_frozen; /* > 0: check 2's frozen tau (NsForm.tau_frozen) */
static int velocity_blocks; /* check 4: NsForm.velocity_blocks */
static int viscous;         /* check 5: stabilisation.viscous_residual = on */
static NsViscousCell viscous_cells[(N - 1) * (N - 1)]; /* check 5: Newton's cells of the lagged term */

/* a general quadrilateral macro with jittered interior nodes */
static void make_macro(void) { feast_test_jittered_macro(N, 777u, xy); }

typedef struct {
  FeastBand9 A[NS_NMATRICES]; /* NS_V11..NS_V22: with velocity_blocks */
  double b[NS_NRHS][NN];
} System;

static void system_create(System *s) {
  for (int k = 0; k < NS_NMATRICES; k++) CHECK_OK(feast_band9_create(N, &s->A[k]));
}
static void system_destroy(System *s) {
  for (int k = 0; k < NS_NMATRICES; k++) feast_band9_destroy(&s->A[k]);
}

/* the blocks and right-hand sides of ns_form at w = (velocity, pressure) */
static void assemble(System *s, double nu, int newton, const double w[NF][NN], FeastExpr *const *force) {
  FeastBand9 *A[NS_NMATRICES];
  double *b[NS_NRHS];
  for (int k = 0; k < NS_NMATRICES; k++) feast_band9_zero(&s->A[k]), A[k] = &s->A[k];
  for (int r = 0; r < NS_NRHS; r++) memset(s->b[r], 0, sizeof s->b[r]), b[r] = s->b[r];
  NsForm form = ns_form_steady(nu, newton, w[0], w[1], (FeastExpr *[2]){force ? force[0] : NULL, force ? force[1] : NULL});
  form.wp = w[2];
  form.tau_frozen = tau_frozen;
  form.velocity_blocks = velocity_blocks;
  form.stab.viscous_residual = viscous;
  form.viscous_cells = viscous && newton ? viscous_cells : NULL;
  CHECK_OK(feast_q1_assemble_cells(N, xy, 0, ns_form, &form, 3, velocity_blocks ? NS_NMATRICES : NS_NBLOCKS, A,
                                   NS_NRHS, b));
  CHECK(form.status == 0);
}

/* y += A x on an unpadded grid vector */
static void matvec_add(const FeastBand9 *A, const double *x, double *y) {
  for (int j = 0; j < N; j++)
    for (int i = 0; i < N; i++)
      for (int k = 0; k < FEAST_NBANDS; k++) {
        const int ci = i + k % 3 - 1, cj = j + k / 3 - 1;
        if (ci >= 0 && cj >= 0 && ci < N && cj < N) y[j * N + i] += A->band[k][j * N + i] * x[cj * N + ci];
      }
}

/* y <- K x - (with_rhs ? h : 0) */
static void apply(const System *s, const double x[NF][NN], int with_rhs, double y[NF][NN]) {
  for (int f = 0; f < NF; f++) {
    for (int n = 0; n < NN; n++) y[f][n] = with_rhs ? -s->b[f][n] : 0.0;
    for (int c = 0; c < NF; c++) matvec_add(&s->A[row_blocks[f][c]], x[c], y[f]);
  }
}

/* F(x) = K(u) x - h(u) (fixed-point form at w = u) */
static void residual(System *s, double nu, FeastExpr *const *force, const double x[NF][NN], double y[NF][NN]) {
  assemble(s, nu, 0, x, force);
  apply(s, x, 1, y);
}

static double norm(const double x[NF][NN]) {
  double s = 0.0;
  for (int f = 0; f < NF; f++)
    for (int n = 0; n < NN; n++) s += x[f][n] * x[f][n];
  return sqrt(s);
}

static double dist(const double x[NF][NN], const double y[NF][NN]) {
  double s = 0.0;
  for (int f = 0; f < NF; f++)
    for (int n = 0; n < NN; n++) s += (x[f][n] - y[f][n]) * (x[f][n] - y[f][n]);
  return sqrt(s);
}

/* a smooth nonlinear state and a pseudo-random direction */
static void make_state(double x[NF][NN], double d[NF][NN]) {
  unsigned seed = 4242u;
  for (int n = 0; n < NN; n++) {
    const double X = xy[2 * n], Y = xy[2 * n + 1];
    x[0][n] = sin(1.3 * X + 0.4) * cos(0.7 * Y) + 0.5;
    x[1][n] = -0.6 * cos(0.9 * X) * sin(1.1 * Y + 0.2) + 0.3 * X;
    x[2][n] = X * Y - 0.4 * X + 0.2;
    for (int f = 0; f < NF; f++) {
      seed = seed * 1103515245u + 12345u;
      d[f][n] = ((seed >> 8) & 0xffff) / 32767.5 - 1.0;
    }
  }
}

typedef struct {
  double gap;        /* |D - J d| / |J d| */
  double newton;     /* |J d - K d| / |J d|: the size of Newton's terms */
  double transposed; /* |D - J^T-variant d| / |J d|: a Newton term with grad w transposed */
  double blocks;     /* |D - J_blocks d| / |J d - K d|: the blocks alone, without the lagged viscous term's
                        derivative (= gap where the viscous residual is off) */
} FdResult;

/* J d (Newton at u), K d (fixed point at u), the central difference of F, and the Newton
 * term with the velocity gradient transposed (A12 <-> A21 entries swapped): the check
 * must tell it from the right one */
static FdResult fd_check(double nu, FeastExpr *const *force, double eps) {
  static double x[NF][NN], d[NF][NN], xp[NF][NN], xm[NF][NN], Fp[NF][NN], Fm[NF][NN], D[NF][NN], Jd[NF][NN],
      Kd[NF][NN], Td[NF][NN];
  make_state(x, d);
  System s;
  system_create(&s);
  for (int f = 0; f < NF; f++)
    for (int n = 0; n < NN; n++) xp[f][n] = x[f][n] + eps * d[f][n], xm[f][n] = x[f][n] - eps * d[f][n];
  residual(&s, nu, force, xp, Fp);
  residual(&s, nu, force, xm, Fm);
  for (int f = 0; f < NF; f++)
    for (int n = 0; n < NN; n++) D[f][n] = (Fp[f][n] - Fm[f][n]) / (2.0 * eps);
  assemble(&s, nu, 1, x, force);
  apply(&s, d, 0, Jd);
  const double blocks_gap = dist(D, Jd);
  if (viscous) ns_viscous_derivative_apply(N, viscous_cells, d[0], d[1], NULL, Jd[0], Jd[1], Jd[2]);
  /* a wrong Newton term: A12 and A21 exchanged, i.e. the velocity gradient transposed */
  {
    FeastBand9 tmp = s.A[NS_A12];
    s.A[NS_A12] = s.A[NS_A21];
    s.A[NS_A21] = tmp;
    apply(&s, d, 0, Td);
    tmp = s.A[NS_A12];
    s.A[NS_A12] = s.A[NS_A21];
    s.A[NS_A21] = tmp;
  }
  assemble(&s, nu, 0, x, force);
  apply(&s, d, 0, Kd);
  const double nt = dist(Jd, Kd);
  FdResult r = {dist(D, Jd) / nt, nt / norm(Jd), dist(D, Td) / nt, blocks_gap / nt};
  system_destroy(&s);
  return r;
}

/* 1: the Newton right-hand side keeps the nonlinear defect */
static void check_defect_kept(double nu, FeastExpr *const *force) {
  static double x[NF][NN], d[NF][NN], Ff[NF][NN], Fn[NF][NN];
  make_state(x, d);
  System s;
  system_create(&s);
  assemble(&s, nu, 0, x, force);
  apply(&s, x, 1, Ff);
  assemble(&s, nu, 1, x, force);
  apply(&s, x, 1, Fn);
  const double rel = dist(Ff, Fn) / norm(Ff);
  CHECK(rel < 1e-13);
  if (!(rel < 1e-13)) fprintf(stderr, "nu = %g: Newton's defect differs from the fixed point's by %.3e\n", nu, rel);
  system_destroy(&s);
}

/* R_ij += (phi_c d_j w_i, phi_a + tau_frozen w.grad phi_a): the reaction term of check 4 */
static void reaction_form(const FeastQ1Cell *c, void *ctx, double (*A)[4][4], double (*b)[4]) {
  const double(*w)[NN] = ctx;
  (void)b;
  for (int q = 0; q < c->nq; q++) {
    const FeastQ1Point *p = &c->q[q];
    double v[2] = {0.0, 0.0}, g[2][2] = {{0.0, 0.0}, {0.0, 0.0}};
    for (int a = 0; a < 4; a++)
      for (int i = 0; i < 2; i++) {
        v[i] += w[i][c->node[a]] * p->phi[a];
        for (int j = 0; j < 2; j++) g[i][j] += w[i][c->node[a]] * p->dphi[a][j];
      }
    for (int a = 0; a < 4; a++) {
      const double test = p->weight * (p->phi[a] + tau_frozen * (v[0] * p->dphi[a][0] + v[1] * p->dphi[a][1]));
      for (int cc = 0; cc < 4; cc++)
        for (int i = 0; i < 2; i++)
          for (int j = 0; j < 2; j++) A[2 * i + j][a][cc] += test * p->phi[cc] * g[i][j];
    }
  }
}

static double band_dist(const FeastBand9 *A, const FeastBand9 *B, const FeastBand9 *R, double *size) {
  double s = 0.0, r = 0.0;
  for (int k = 0; k < FEAST_NBANDS; k++)
    for (int n = 0; n < NN; n++) {
      const double e = A->band[k][n] - B->band[k][n] - (R ? R->band[k][n] : 0.0);
      s += e * e, r += R ? R->band[k][n] * R->band[k][n] : 0.0;
    }
  *size = sqrt(r);
  return sqrt(s);
}

static double band_norm(const FeastBand9 *A) {
  double s = 0.0;
  for (int k = 0; k < FEAST_NBANDS; k++)
    for (int n = 0; n < NN; n++) s += A->band[k][n] * A->band[k][n];
  return sqrt(s);
}

/* 4: the Jacobian without its reaction term differs from it by that term alone */
static void check_velocity_blocks(double nu, FeastExpr *const *force) {
  static double x[NF][NN], d[NF][NN];
  make_state(x, d);
  System full, both;
  system_create(&full), system_create(&both);
  assemble(&full, nu, 1, x, force);
  velocity_blocks = 1;
  assemble(&both, nu, 1, x, force);
  velocity_blocks = 0;
  FeastBand9 R[4];
  FeastBand9 *Rp[4];
  for (int k = 0; k < 4; k++) {
    CHECK_OK(feast_band9_create(N, &R[k]));
    feast_band9_zero(&R[k]);
    Rp[k] = &R[k];
  }
  CHECK_OK(feast_q1_assemble_cells(N, xy, 0, reaction_form, x, 3, 4, Rp, 0, NULL));
  static const int velocity[3] = {NS_A11, NS_A21, NS_A22};
  for (int k = 0; k < 3; k++) {
    double size, block, e = band_dist(&both.A[velocity[k]], &both.A[NS_V11 + k], &R[velocity[k]], &size);
    block = band_norm(&both.A[velocity[k]]);
    printf("nu = %g, block %d: |J - J_drop - R| %.3e, |R| %.3e, |J| %.3e\n", nu, velocity[k], e, size, block);
    CHECK(size > 1e-3 && e < 1e-14 * (size + block));
  }
  for (int k = 0; k < NS_NBLOCKS; k++) {
    double size;
    CHECK(band_dist(&full.A[k], &both.A[k], NULL, &size) == 0.0);
  }
  CHECK(memcmp(full.b, both.b, sizeof full.b) == 0);
  for (int k = 0; k < 4; k++) feast_band9_destroy(&R[k]);
  system_destroy(&full), system_destroy(&both);
}

static int run(void) {
  make_macro();
  FeastExpr *force[2] = {NULL, NULL};
  CHECK_OK(feast_expr_create("sin(x) + y*y", "force_x", &force[0]));
  CHECK_OK(feast_expr_create("x*y - 1", "force_y", &force[1]));
  for (double nu = 1e-2; nu < 2e3; nu *= 100.0) {
    check_defect_kept(nu, force);
    check_defect_kept(nu, NULL);
  }
  const double eps = 1e-4;
  /* 2: tau frozen */
  tau_frozen = 0.05;
  for (double nu = 1e-2; nu < 2e2; nu *= 100.0) {
    const FdResult r = fd_check(nu, force, eps);
    printf("tau frozen, nu = %g: gap %.3e  newton terms %.3e  transposed %.3e\n", nu, r.gap, r.newton, r.transposed);
    CHECK(r.gap < 1e-7);
    CHECK(r.transposed > 0.5);
  }
  for (double nu = 1e-2; nu < 2e2; nu *= 100.0) check_velocity_blocks(nu, force);
  tau_frozen = 0.0;
  /* 3: tau from ns_tau */
  FdResult r1 = fd_check(1e2, force, eps), r2 = fd_check(1e3, force, eps), r3 = fd_check(1e-2, force, eps);
  CHECK(r1.gap < 1e-6 && r2.gap < 1e-6);
  CHECK(r3.gap < 1e-6);
  CHECK(r1.transposed > 0.5 && r2.transposed > 0.5);
  printf("nu = 1e2:  gap %.3e  newton terms %.3e  transposed %.3e\n", r1.gap, r1.newton, r1.transposed);
  printf("nu = 1e3:  gap %.3e  newton terms %.3e  transposed %.3e\n", r2.gap, r2.newton, r2.transposed);
  printf("nu = 1e-2: gap %.3e  newton terms %.3e  transposed %.3e\n", r3.gap, r3.newton, r3.transposed);
  /* 5: the viscous residual */
  viscous = 1;
  for (double nu = 1e-2; nu < 2.0; nu *= 100.0) {
    const FdResult r = fd_check(nu, force, eps);
    printf("viscous residual, nu = %g: gap %.3e  without its derivative %.3e  newton terms %.3e\n", nu, r.gap,
           r.blocks, r.newton);
    CHECK(r.gap < 1e-6);
    CHECK(r.blocks > 1e-3);
  }
  viscous = 0;
  feast_expr_destroy(&force[0]);
  feast_expr_destroy(&force[1]);
  return 0;
}

FEAST_TEST_MAIN(run)

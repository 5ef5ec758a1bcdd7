/* The BiCGStab family: classical BiCGStab (van der Vorst), ibicgstab (one fused global
 * reduction per iteration) and pipebicgsafe (one non-blocking reduction overlapped with
 * the preconditioner and the operator) */
#include "solvers/krylov_private.h"
#include "feast/base/error.h"
#include <math.h>

/* right-preconditioned BiCGStab (van der Vorst): 5 reductions per iteration (rho, r*.v,
 * ||s||, the fused t.s and t.t, ||r||) */
int krylov_bicgstab(Solve *S) {
  Work *w = S->w;
  NEED(w, &w->r, &w->rhat, &w->p, &w->q, &w->y, &w->z, &w->t);
  double rnorm, rho = 1, alpha = 1, omega = 1;
  int stop;
  FEAST_CALL(krylov_initial(S, w->r, &rnorm, &stop));
  if (stop) return 0;
  feast_vec_copy(w->r, w->rhat);
  feast_vec_zero(w->p);
  feast_vec_zero(w->q); /* q holds v = A M p */
  krylov_loop_begin(S);
  for (int it = 1;; it++) {
    double rho_new;
    FEAST_CALL(feast_vec_dot(w->rhat, w->r, &rho_new));
    if (rho_new == 0.0 || omega == 0.0) return krylov_breakdown(S, 0.0, it);
    double beta = (rho_new / rho) * (alpha / omega);
    rho = rho_new;
    /* p <- r + beta (p - omega v) */
    feast_vec_axpy(-omega, w->q, w->p);
    feast_vec_aypx(beta, w->r, w->p);
    FEAST_CALL(krylov_apply_M(S, w->p, w->y));
    FEAST_CALL(krylov_apply_A(S, w->y, w->q));
    double rv;
    FEAST_CALL(feast_vec_dot(w->rhat, w->q, &rv));
    if (rv == 0.0 || !isfinite(rv)) return krylov_breakdown(S, rv, it);
    alpha = rho / rv;
    feast_vec_axpy(alpha, w->y, S->x);
    feast_vec_axpy(-alpha, w->q, w->r); /* s = r - alpha v, stored in r */
    FEAST_CALL(feast_vec_norm(w->r, &rnorm));
    if (rnorm <= krylov_tolerance(S)) {
      krylov_stop_test(S, rnorm, it);
      return 0;
    }
    FEAST_CALL(krylov_apply_M(S, w->r, w->z));
    FEAST_CALL(krylov_apply_A(S, w->z, w->t));
    const FeastVec *xs[2] = {w->t, w->t}, *ys[2] = {w->r, w->t};
    double tt[2];
    FEAST_CALL(feast_vec_dots(2, xs, ys, tt));
    omega = tt[1] != 0.0 ? tt[0] / tt[1] : 0.0;
    feast_vec_axpy(omega, w->z, S->x);
    feast_vec_axpy(-omega, w->t, w->r);
    FEAST_CALL(feast_vec_norm(w->r, &rnorm));
    if (krylov_stop_test(S, rnorm, it)) return 0;
  }
}

/* The recurrence methods below update x through preimages: every vector of the
 * recurrences that lies in the range of A (t = A M s, ...) carries a partner P(t) with
 * A P(t) = t, built by the same linear combinations from the preconditioned vectors
 * (P(A M v) = M v). The update of x is then P of the update of r, so r = b - A x holds
 * up to rounding even when M is not linear (ScaRC's adaptive smoother step, inner
 * solves to a tolerance), and no extra preconditioner application is needed. */

/* BiCGStab with one global reduction per iteration: Algorithm 3 of Wang, He, Yang, Tan
 * (2020) after Yang and Brent (2002), right-preconditioned (B = A M). With s, t, p, v, q
 * of the paper (t = B s, p = B t, v = B p_classical, q = B v) an iteration is
 *   rho = phi - w m, delta = rho/rho_old alpha, beta = delta / w,
 *   gamma = sigma + beta gamma - delta pi, alpha = rho / gamma,
 *   v <- t - w p + beta v - delta q, q = B v, s = r - alpha v, t <- t - w p - alpha q,
 *   p = B t, then ONE reduction of r*.s, r*.q, s.t, t.t, r*.t, r*.p, s.s, and
 *   w = s.t / t.t, sigma = r*.t - w r*.p, r <- s - w t, ||r||^2 = s.s - 2 w s.t + w^2 t.t.
 * Start (any x0, derived here): the recurrences need from the fictitious step 0 only
 * t0 - w0 p0 = B r0, sigma0 = r*.(t0 - w0 p0), phi0 - w0 m0 = r*.r0; so t0 = B r0,
 * p0 = 0, sigma0 = r*.t0, phi0 = r*.r0, m0 = pi0 = gamma0 = 0, rho0 = alpha0 = w0 = 1.
 * (The paper's t0 = A A x0 + A r0, p0 = A A x0 gives t0 - p0 = A r0 but sigma0 = r*.t0
 * != r*.A r0 unless x0 = 0: its first alpha is wrong for a nonzero start.) The same
 * start serves a restart from a replaced residual. */
typedef struct {
  double rho, alpha, w, sigma, phi, m, pi, gamma;
} IbcgScalars;

/* (re)start from r = b - A x: t = B r, P(t) = M r, p = v = q = 0; one reduction */
static int ibicgstab_start(Solve *S, FeastVec **e, IbcgScalars *c, double *rnorm) {
  Work *w = S->w;
  FeastVec *t = e[0], *p = e[1], *v = e[2], *q = e[3], *Pt = e[4], *Pv = e[5], *Mv = e[6], *Mt = e[7];
  FEAST_CALL(krylov_apply_M(S, w->r, Pt));
  FEAST_CALL(krylov_apply_A(S, Pt, t));
  FeastVec *zero[] = {p, v, q, Pv, Mv, Mt};
  for (int i = 0; i < 6; i++) feast_vec_zero(zero[i]);
  const FeastVec *xs[3] = {w->rhat, w->rhat, w->r}, *ys[3] = {t, w->r, w->r};
  double d[3];
  FEAST_CALL(feast_vec_dots(3, xs, ys, d));
  *c = (IbcgScalars){1, 1, 1, d[0], d[1], 0, 0, 0};
  *rnorm = sqrt(d[2]);
  return 0;
}

int krylov_ibicgstab(Solve *S) {
  Work *w = S->w;
  NEED(w, &w->r, &w->rhat, &w->z);
  FeastVec **e;
  FEAST_CALL(krylov_extras(w, 8, &e));
  FeastVec *t = e[0], *p = e[1], *v = e[2], *q = e[3], *Pt = e[4], *Pv = e[5], *Mv = e[6], *Mt = e[7];
  FeastVec *s = w->z;
  double rnorm;
  IbcgScalars c;
  int stop;
  FEAST_CALL(krylov_initial(S, w->r, &rnorm, &stop));
  if (stop) return 0;
  feast_vec_copy(w->r, w->rhat);
  FEAST_CALL(ibicgstab_start(S, e, &c, &rnorm));
  double rmax = rnorm;
  int restarts = 0;
  krylov_loop_begin(S);
  for (int it = 1;; it++) {
    const double rho = c.phi - c.w * c.m;
    const double delta = rho / c.rho * c.alpha, beta = delta / c.w;
    const double gamma = c.sigma + beta * c.gamma - delta * c.pi;
    if (rho == 0.0 || gamma == 0.0 || !isfinite(gamma)) return krylov_breakdown(S, gamma, it);
    const double alpha = rho / gamma;
    /* v <- (t - w p) + beta v - delta q, and its preimage */
    feast_vec_axpy(-c.w, p, t); /* t - w p: B r_old */
    feast_vec_axpy(-c.w, Mt, Pt);
    feast_vec_scale(beta, v);
    feast_vec_axpy(1.0, t, v);
    feast_vec_axpy(-delta, q, v);
    feast_vec_scale(beta, Pv);
    feast_vec_axpy(1.0, Pt, Pv);
    feast_vec_axpy(-delta, Mv, Pv);
    FEAST_CALL(krylov_apply_M(S, v, Mv));
    FEAST_CALL(krylov_apply_A(S, Mv, q));
    /* s = r - alpha v; t <- (t - w p) - alpha q, P(t) likewise */
    feast_vec_copy(w->r, s);
    feast_vec_axpy(-alpha, v, s);
    feast_vec_axpy(-alpha, q, t);
    feast_vec_axpy(-alpha, Mv, Pt);
    FEAST_CALL(krylov_apply_M(S, t, Mt));
    FEAST_CALL(krylov_apply_A(S, Mt, p));
    const FeastVec *xs[7] = {w->rhat, w->rhat, s, t, w->rhat, w->rhat, s}, *ys[7] = {s, q, t, t, t, p, s};
    double d[7]; /* phi, pi, theta, kappa, m, eta, s.s */
    FEAST_CALL(feast_vec_dots(7, xs, ys, d));
    const double om = d[3] != 0.0 ? d[2] / d[3] : 0.0;
    /* x += alpha P(v) + w P(t); r = s - w t */
    feast_vec_axpy(alpha, Pv, S->x);
    feast_vec_axpy(om, Pt, S->x);
    feast_vec_copy(s, w->r);
    feast_vec_axpy(-om, t, w->r);
    c = (IbcgScalars){rho, alpha, om, d[4] - om * d[5], d[0], d[4], d[1], gamma};
    rnorm = sqrt(fmax(d[6] - 2.0 * om * d[2] + om * om * d[3], 0.0));
    if (om == 0.0) return krylov_breakdown(S, d[3], it);
    int done = krylov_stop_test(S, rnorm, it);
    if (done) {
      int ok = krylov_confirm_exit(S, w->r, it, &restarts);
      if (ok < 0) return -ok;
      if (ok) return 0;
    }
    if (done || krylov_replace_due(S, it, rnorm, &rmax)) {
      if (!done) FEAST_CALL(krylov_residual(S, w->r));
      FEAST_CALL(ibicgstab_start(S, e, &c, &rnorm));
      rmax = rnorm;
    }
  }
}

/* Pipelined BiCGSafe (Huynh and Suito, Algorithm 2, after Cools and Vanroose's
 * pipelined BiCGStab), built from ssBiCGSafe2 (Fujino and Iwasato), right-preconditioned
 * (B = A M). With s = B r, o = B p, q = B o, w = B u, v = B t, g = B y of ssBiCGSafe2,
 * iteration i starts the reduction of
 *   a = s.s, b = y.y, c = s.y, d = s.r, e = y.r, f = r*.r, g = r*.s, h = r*.t, and r.r
 * WITHOUT waiting (MPI_Iallreduce), computes B s (preconditioner and matvec) meanwhile,
 * then waits and forms
 *   i = 0: beta = 0, alpha = f/g, zeta = d/a, eta = 0;
 *   else   beta = alpha_old f / (zeta_old f_old), alpha = f / (g + beta h),
 *          zeta = (b d - c e) / (a b - c^2), eta = (a e - c d) / (a b - c^2);
 *   o = s + beta t, q = B s + beta v, w = zeta q + eta (g + beta w), B w (second product),
 *   t = o - w, v = q - B w, y <- zeta s + eta y - alpha w, g <- zeta B s + eta g - alpha B w,
 *   r <- r - alpha o - y, s <- s - alpha q - g, x <- x + P(alpha o + y).
 * (p, u, z of the paper only serve the update of x; the preimages P replace them.)
 * Start (not in the paper; any x0, and a restart): the i = 0 branch uses none of the
 * previous vectors except through beta = eta = 0, and y_0 = B z_{-1} = 0 since the
 * associate residual starts at zero; so s0 = B r0, P(s0) = M r0, and y, g, t, v, w and
 * their preimages are zero. ||r_i|| comes with the reduction of iteration i: a stop is
 * seen one (overlapped) product late. */
enum { PB_S, PB_Y, PB_T, PB_O, PB_Q, PB_W, PB_V, PB_G, PB_AS, PB_AW, PB_N };

/* (re)start from r: s = B r, P(s) = M r, the rest zero */
static int pipe_start(Solve *S, FeastVec **v, FeastVec **P) {
  FEAST_CALL(krylov_apply_M(S, S->w->r, P[PB_S]));
  FEAST_CALL(krylov_apply_A(S, P[PB_S], v[PB_S]));
  for (int k = PB_Y; k < PB_N; k++) feast_vec_zero(v[k]), feast_vec_zero(P[k]);
  return 0;
}

typedef struct {
  double alpha, beta, zeta, eta, f;
} PipeScalars;

/* the scalars of iteration i from the reduced products (first: the i = 0 branch) */
static int pipe_scalars(const double *d, int first, PipeScalars *c) {
  const double a = d[0], b = d[1], cc = d[2], dd = d[3], e = d[4], f = d[5], g = d[6], h = d[7];
  PipeScalars n = {0};
  if (first) {
    n.alpha = f / g;
    n.zeta = dd / a;
  } else {
    const double den = a * b - cc * cc;
    n.beta = c->alpha * f / (c->zeta * c->f);
    n.alpha = f / (g + n.beta * h);
    n.zeta = (b * dd - cc * e) / den;
    n.eta = (a * e - cc * dd) / den;
  }
  n.f = f;
  *c = n;
  return isfinite(n.alpha) && isfinite(n.zeta) && isfinite(n.eta) && isfinite(n.beta) && n.zeta != 0.0;
}

/* y <- a y + b x (both the vector and its preimage) */
static void comb(double a, FeastVec *y, double b, const FeastVec *x) {
  feast_vec_scale(a, y);
  feast_vec_axpy(b, x, y);
}

/* the vector updates of one iteration after the scalars (Aw, Mw: B w and M w) */
static int pipe_update(Solve *S, FeastVec **v, FeastVec **P, const PipeScalars *c) {
  FeastVec *Ms = S->w->z, *Mw = S->w->y;
  for (int side = 0; side < 2; side++) { /* 0: vectors, 1: preimages */
    FeastVec **V = side ? P : v;
    FeastVec *Bs = side ? Ms : v[PB_AS];
    comb(c->beta, V[PB_T], 1.0, V[PB_S]); /* o, held in t */
    FeastVec *o = V[PB_T];
    comb(c->beta, V[PB_V], 1.0, Bs); /* q, held in v */
    feast_vec_copy(V[PB_V], V[PB_Q]);
    comb(c->beta, V[PB_W], 1.0, V[PB_G]); /* w <- zeta q + eta (g + beta w) */
    comb(c->eta, V[PB_W], c->zeta, V[PB_Q]);
    feast_vec_copy(o, V[PB_O]);
  }
  FEAST_CALL(krylov_apply_M(S, v[PB_W], Mw));
  FEAST_CALL(krylov_apply_A(S, Mw, v[PB_AW]));
  for (int side = 0; side < 2; side++) {
    FeastVec **V = side ? P : v;
    FeastVec *Bs = side ? Ms : v[PB_AS], *Bw = side ? Mw : v[PB_AW];
    feast_vec_axpy(-1.0, V[PB_W], V[PB_T]);         /* t = o - w */
    feast_vec_axpy(-1.0, Bw, V[PB_V]);              /* v = q - B w */
    comb(c->eta, V[PB_Y], c->zeta, V[PB_S]);        /* y <- zeta s + eta y - alpha w */
    feast_vec_axpy(-c->alpha, V[PB_W], V[PB_Y]);
    comb(c->eta, V[PB_G], c->zeta, Bs);             /* g <- zeta B s + eta g - alpha B w */
    feast_vec_axpy(-c->alpha, Bw, V[PB_G]);
    feast_vec_axpy(-c->alpha, V[PB_Q], V[PB_S]);    /* s <- s - alpha q - g */
    feast_vec_axpy(-1.0, V[PB_G], V[PB_S]);
  }
  /* r <- r - (alpha o + y), x <- x + P(alpha o + y) */
  feast_vec_axpy(-c->alpha, v[PB_O], S->w->r);
  feast_vec_axpy(-1.0, v[PB_Y], S->w->r);
  feast_vec_axpy(c->alpha, P[PB_O], S->x);
  feast_vec_axpy(1.0, P[PB_Y], S->x);
  return 0;
}

int krylov_pipebicgsafe(Solve *S) {
  Work *w = S->w;
  NEED(w, &w->r, &w->rhat, &w->z, &w->y);
  FeastVec **e;
  FEAST_CALL(krylov_extras(w, 2 * PB_N, &e));
  FeastVec **v = e, **P = e + PB_N, *r = w->r, *rs = w->rhat, *Ms = w->z;
  double rnorm;
  int stop;
  FEAST_CALL(krylov_initial(S, r, &rnorm, &stop));
  if (stop) return 0;
  feast_vec_copy(r, rs);
  FEAST_CALL(pipe_start(S, v, P));
  PipeScalars c = {0};
  double rmax = rnorm; /* 0 after a restart: ||r|| comes with the next reduction */
  int first = 1, restarts = 0;
  krylov_loop_begin(S);
  for (int it = 1;; it++) {
    /* a stop seen after this iteration's reduction ends the loop before it: what it
     * spent (the reduction and the product overlapped with it) is not counted */
    FeastCommCounts top, top_A = S->in_A, top_M = S->in_M;
    feast_comm_counts(&top);
    const FeastVec *xs[9] = {v[PB_S], v[PB_Y], v[PB_S], v[PB_S], v[PB_Y], rs, rs, rs, r};
    const FeastVec *ys[9] = {v[PB_S], v[PB_Y], v[PB_Y], r, r, r, v[PB_S], v[PB_T], r};
    double d[9];
    FeastMacroSum red;
    FEAST_CALL(feast_vec_dots_begin(9, xs, ys, 0, &red));
    int st = krylov_apply_M(S, v[PB_S], Ms); /* B s, overlapped with the reduction */
    if (!st) st = krylov_apply_A(S, Ms, v[PB_AS]);
    FEAST_CALL(feast_vec_dots_end(&red, d));
    FEAST_CALL(st);
    if (it > 1 && krylov_stop_test(S, sqrt(d[8]), it - 1)) {
      S->loop1 = top, S->in_A = top_A, S->in_M = top_M;
      int ok = krylov_confirm_exit(S, r, it - 1, &restarts);
      if (ok < 0) return -ok;
      if (ok) return 0;
      FEAST_CALL(pipe_start(S, v, P));
      first = 1;
      rmax = 0;
      it--; /* the restart's reduction is iteration it again */
      continue;
    }
    if (!pipe_scalars(d, first, &c)) return krylov_breakdown(S, c.alpha + c.beta + c.zeta + c.eta, it);
    first = 0;
    FEAST_CALL(pipe_update(S, v, P, &c));
    if (krylov_replace_due(S, it, sqrt(d[8]), &rmax)) { /* d[8]: ||r||^2 before this update */
      FEAST_CALL(krylov_residual(S, r));
      FEAST_CALL(pipe_start(S, v, P));
      first = 1;
      rmax = 0;
    }
  }
}


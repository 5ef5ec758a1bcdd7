#include "solvers/krylov.h"
#include "feast/base/commstat.h"
#include "feast/base/error.h"
#include "feast/base/log.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { NEXTRA = 20 }; /* the pipelined methods' further vectors, made at their first use */

/* work vectors shared by the methods, each made at the first use of a method that needs
 * it (NEED): CG needs 4 of the 7, FGMRES only r and its basis */
typedef struct {
  const FeastDomain *dom;
  int level, nb;
  FeastVec *r, *z, *p, *q, *t, *rhat, *y;
  FeastVec *extra[NEXTRA];
  FeastVec **basis; /* fgmres: V_0..V_k+1 (two with single_basis), made at the first use */
  int nbasis;
  FeastVec **dirs; /* fgmres: Z_0..Z_k, made at the first use */
  int ndirs;
  FeastVecSingle **single; /* fgmres with single_basis: V_0..V_k+1 in single precision */
  int nsingle;
} Work;

struct FeastKrylovWork {
  Work w;
};

/* the first n extra vectors, created where missing */
static int extras(Work *w, int n, FeastVec ***out) {
  for (int i = 0; i < n; i++)
    if (!w->extra[i]) FEAST_CALL(feast_vec_create(w->dom, w->level, w->nb, &w->extra[i]));
  *out = w->extra;
  return 0;
}

/* the named vectors vecs[0..n) of w, those still missing made in one block */
static int named(Work *w, int n, FeastVec **const vecs[]) {
  FeastVec **missing[n];
  int k = 0;
  for (int i = 0; i < n; i++)
    if (!*vecs[i]) missing[k++] = vecs[i];
  return k ? feast_vec_create_set(w->dom, w->level, w->nb, k, missing) : 0;
}
#define NEED(w, ...)                                                                           \
  do {                                                                                         \
    FeastVec **const need_[] = {__VA_ARGS__};                                                  \
    FEAST_CALL(named((w), (int)(sizeof need_ / sizeof need_[0]), need_));                      \
  } while (0)

#define WORK_VECTORS(w) {&(w)->r, &(w)->z, &(w)->p, &(w)->q, &(w)->t, &(w)->rhat, &(w)->y}

int feast_krylov_work_create(const FeastVec *like, FeastKrylovWork **wp) {
  FEAST_CALL(FEAST_ALLOC(1, wp));
  Work *w = &(*wp)->w;
  w->dom = like->dom;
  w->level = like->level;
  w->nb = like->nb;
  return 0;
}

void feast_krylov_work_destroy(FeastKrylovWork **wp) {
  if (!*wp) return;
  FeastVec **all[] = WORK_VECTORS(&(*wp)->w);
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) feast_vec_destroy(all[i]);
  for (int i = 0; i < NEXTRA; i++) feast_vec_destroy(&(*wp)->w.extra[i]);
  for (int i = 0; i < (*wp)->w.nbasis; i++) feast_vec_destroy(&(*wp)->w.basis[i]);
  free((*wp)->w.basis);
  for (int i = 0; i < (*wp)->w.ndirs; i++) feast_vec_destroy(&(*wp)->w.dirs[i]);
  free((*wp)->w.dirs);
  for (int i = 0; i < (*wp)->w.nsingle; i++) feast_vec_single_destroy(&(*wp)->w.single[i]);
  free((*wp)->w.single);
  feast_free(wp);
}

/* one solve: the operators, the data, and the communication counted in the iteration
 * loop (feast/base/commstat.h counts at the MPI call sites; the solve attributes the counts to
 * the operator, the preconditioner, or itself by taking differences around the calls) */
typedef struct {
  FeastLinOp A, M;
  const FeastVec *b;
  FeastVec *x;
  const FeastSolveParams *p;
  FeastSolveResult *res;
  Work *w;
  int in_loop;
  FeastCommCounts loop0, loop1, in_A, in_M; /* loop start/end; inside A and M in the loop */
} Solve;

typedef int (*Method)(Solve *S);

static void counts_add(FeastCommCounts *acc, const FeastCommCounts *a, const FeastCommCounts *b) {
  acc->reductions += b->reductions - a->reductions;
  acc->exchanges += b->exchanges - a->exchanges;
}

/* y <- op(x), its communication added to *acc while in the loop */
static int apply_counted(Solve *S, FeastLinOp op, FeastCommCounts *acc, const FeastVec *x, FeastVec *y) {
  FeastCommCounts a, b;
  feast_comm_counts(&a);
  FEAST_CALL(op.apply(op.ctx, x, y));
  feast_comm_counts(&b);
  if (S->in_loop) counts_add(acc, &a, &b);
  return 0;
}
static int apply_A(Solve *S, const FeastVec *x, FeastVec *y) { return apply_counted(S, S->A, &S->in_A, x, y); }
static int apply_M(Solve *S, const FeastVec *x, FeastVec *y) { return apply_counted(S, S->M, &S->in_M, x, y); }

static void loop_begin(Solve *S) {
  S->in_loop = 1;
  feast_comm_counts(&S->loop0);
  S->loop1 = S->loop0;
}

/* the residual norm to reach: rtol times the reference norm, or ||r_0|| */
static double tolerance(const Solve *S) {
  return S->p->rtol * (S->p->reference_norm > 0 ? S->p->reference_norm : S->res->initial_residual);
}

/* Common stopping test: returns 1 when the iteration must stop, with the reason set; in
 * the loop (it > 0) it also marks the end of the counted part */
static int stop_test(Solve *S, double rnorm, int it) {
  const FeastSolveParams *p = S->p;
  FeastSolveResult *res = S->res;
  res->iterations = it;
  res->final_residual = rnorm;
  if (it > 0 && S->in_loop) feast_comm_counts(&S->loop1);
  if (p->monitor)
    feast_log(1, "  %s iter %3d  residual %.6e  rel %.3e\n", p->label ? p->label : "linear", it,
              rnorm, res->initial_residual > 0 ? rnorm / res->initial_residual : 0.0);
  if (!isfinite(rnorm)) {
    res->reason = FEAST_SOLVE_NAN;
    return 1;
  }
  if (rnorm == 0.0 || (p->fixed_iterations > 0 ? it >= p->fixed_iterations : rnorm <= tolerance(S))) {
    res->converged = 1;
    res->reason = FEAST_SOLVE_CONVERGED;
    return 1;
  }
  if (rnorm > p->divergence_factor * res->initial_residual) {
    res->reason = FEAST_SOLVE_DIVERGED;
    return 1;
  }
  if (it >= p->max_iterations) {
    res->reason = FEAST_SOLVE_MAX_ITERATIONS;
    return 1;
  }
  return 0;
}

/* stop with reason "breakdown" (or "nan" when the offending value is not finite) */
static int breakdown(Solve *S, double value, int it) {
  S->res->reason = isfinite(value) ? FEAST_SOLVE_BREAKDOWN : FEAST_SOLVE_NAN;
  S->res->iterations = it;
  if (S->in_loop) feast_comm_counts(&S->loop1);
  return 0;
}

/* r <- b - A x */
static int residual(Solve *S, FeastVec *r) {
  FEAST_CALL(apply_A(S, S->x, r));
  feast_vec_aypx(-1.0, S->b, r);
  return 0;
}

/* r <- b - A x_0 and its norm; *stop = 1 when x_0 already passes the stopping test. The
 * return value is an error code only (an operator's failure reaches the caller). */
static int initial(Solve *S, FeastVec *r, double *rnorm, int *stop) {
  FEAST_CALL(residual(S, r));
  FEAST_CALL(feast_vec_norm(r, rnorm));
  S->res->initial_residual = *rnorm;
  *stop = stop_test(S, *rnorm, 0);
  return 0;
}

/* x += M (b - A x) */
static int richardson(Solve *S) {
  Work *w = S->w;
  NEED(w, &w->r, &w->z);
  double rnorm;
  int stop;
  FEAST_CALL(initial(S, w->r, &rnorm, &stop));
  if (stop) return 0;
  loop_begin(S);
  for (int it = 1;; it++) {
    FEAST_CALL(apply_M(S, w->r, w->z));
    feast_vec_axpy(1.0, w->z, S->x);
    FEAST_CALL(residual(S, w->r));
    FEAST_CALL(feast_vec_norm(w->r, &rnorm));
    if (stop_test(S, rnorm, it)) return 0;
  }
}

/* flexible preconditioned conjugate gradients (Notay's FCG(1), Polak-Ribiere beta):
 * beta = z_new . (r_new - r_old) / (z_old . r_old) = -alpha (z_new . q) / (z_old . r_old),
 * since r_new = r_old - alpha q. For a fixed SPD preconditioner this is classical PCG
 * (r_old . z_new = 0); ScaRC is not one (a V cycle with pre-smoothing only, an adaptive
 * Schwarz step, single-precision local solves), and the flexible beta keeps CG
 * converging with it. Costs one more dot product, fused with the other. */
static int cg(Solve *S) {
  Work *w = S->w;
  NEED(w, &w->r, &w->z, &w->p, &w->q);
  double rnorm, rz, pq;
  int stop;
  FEAST_CALL(initial(S, w->r, &rnorm, &stop));
  if (stop) return 0;
  FEAST_CALL(apply_M(S, w->r, w->z));
  feast_vec_copy(w->z, w->p);
  FEAST_CALL(feast_vec_dot(w->r, w->z, &rz));
  loop_begin(S);
  for (int it = 1;; it++) {
    FEAST_CALL(apply_A(S, w->p, w->q));
    FEAST_CALL(feast_vec_dot(w->p, w->q, &pq));
    if (pq == 0.0 || !isfinite(pq)) return breakdown(S, pq, it);
    double alpha = rz / pq;
    feast_vec_axpy(alpha, w->p, S->x);
    feast_vec_axpy(-alpha, w->q, w->r);
    FEAST_CALL(feast_vec_norm(w->r, &rnorm));
    if (stop_test(S, rnorm, it)) return 0;
    FEAST_CALL(apply_M(S, w->r, w->z));
    const FeastVec *xs[2] = {w->r, w->q}, *ys[2] = {w->z, w->z};
    double d[2]; /* r_new . z_new, q . z_new */
    FEAST_CALL(feast_vec_dots(2, xs, ys, d));
    const double beta = -alpha * d[1] / rz;
    rz = d[0];
    feast_vec_aypx(beta, w->z, w->p); /* p <- z + beta p */
  }
}

/* right-preconditioned BiCGStab (van der Vorst): 5 reductions per iteration (rho, r*.v,
 * ||s||, the fused t.s and t.t, ||r||) */
static int bicgstab(Solve *S) {
  Work *w = S->w;
  NEED(w, &w->r, &w->rhat, &w->p, &w->q, &w->y, &w->z, &w->t);
  double rnorm, rho = 1, alpha = 1, omega = 1;
  int stop;
  FEAST_CALL(initial(S, w->r, &rnorm, &stop));
  if (stop) return 0;
  feast_vec_copy(w->r, w->rhat);
  feast_vec_zero(w->p);
  feast_vec_zero(w->q); /* q holds v = A M p */
  loop_begin(S);
  for (int it = 1;; it++) {
    double rho_new;
    FEAST_CALL(feast_vec_dot(w->rhat, w->r, &rho_new));
    if (rho_new == 0.0 || omega == 0.0) return breakdown(S, 0.0, it);
    double beta = (rho_new / rho) * (alpha / omega);
    rho = rho_new;
    /* p <- r + beta (p - omega v) */
    feast_vec_axpy(-omega, w->q, w->p);
    feast_vec_aypx(beta, w->r, w->p);
    FEAST_CALL(apply_M(S, w->p, w->y));
    FEAST_CALL(apply_A(S, w->y, w->q));
    double rv;
    FEAST_CALL(feast_vec_dot(w->rhat, w->q, &rv));
    if (rv == 0.0 || !isfinite(rv)) return breakdown(S, rv, it);
    alpha = rho / rv;
    feast_vec_axpy(alpha, w->y, S->x);
    feast_vec_axpy(-alpha, w->q, w->r); /* s = r - alpha v, stored in r */
    FEAST_CALL(feast_vec_norm(w->r, &rnorm));
    if (rnorm <= tolerance(S)) {
      stop_test(S, rnorm, it);
      return 0;
    }
    FEAST_CALL(apply_M(S, w->r, w->z));
    FEAST_CALL(apply_A(S, w->z, w->t));
    const FeastVec *xs[2] = {w->t, w->t}, *ys[2] = {w->r, w->t};
    double tt[2];
    FEAST_CALL(feast_vec_dots(2, xs, ys, tt));
    omega = tt[1] != 0.0 ? tt[0] / tt[1] : 0.0;
    feast_vec_axpy(omega, w->z, S->x);
    feast_vec_axpy(-omega, w->t, w->r);
    FEAST_CALL(feast_vec_norm(w->r, &rnorm));
    if (stop_test(S, rnorm, it)) return 0;
  }
}

/* The recurrence methods below update x through preimages: every vector of the
 * recurrences that lies in the range of A (t = A M s, ...) carries a partner P(t) with
 * A P(t) = t, built by the same linear combinations from the preconditioned vectors
 * (P(A M v) = M v). The update of x is then P of the update of r, so r = b - A x holds
 * up to rounding even when M is not linear (ScaRC's adaptive smoother step, inner
 * solves to a tolerance), and no extra preconditioner application is needed. */

/* the true residual at exit: r <- b - A x and its norm (one more reduction, outside the
 * counted loop). Returns 1 when it confirms the stop, 0 when the solve must go on from
 * r (the recurrences drifted: the recurrence residual met the tolerance, the true one not),
 * minus the error code when A failed. */
static int confirm_exit(Solve *S, FeastVec *r, int it, int *restarts) {
  if (!S->res->converged) return 1;
  S->in_loop = 0;
  double rnorm;
  int st = residual(S, r);
  if (!st) st = feast_vec_norm(r, &rnorm);
  if (st) return -st;
  S->res->final_residual = rnorm;
  S->in_loop = 1;
  if (rnorm <= tolerance(S) || it >= S->p->max_iterations || ++*restarts > 3) {
    S->res->converged = rnorm <= tolerance(S);
    if (!S->res->converged) S->res->reason = FEAST_SOLVE_MAX_ITERATIONS;
    return 1;
  }
  S->res->converged = 0;
  S->res->reason = FEAST_SOLVE_MAX_ITERATIONS;
  return 0;
}

/* a restart from the true residual due after iteration it, whose recurrence residual
 * norm is rnorm; *rmax: the largest recurrence residual norm since the last (re)start
 * (updated here; a restart resets it). Due every replace_every iterations, and when rnorm
 * has fallen below replace_drop * *rmax: the rounding errors the recurrences carry (the
 * gap between r and b - A x, fed by the preimage recurrences) scale with the largest
 * residual they have seen, not with the current one, so a solve that must reduce its
 * residual by much more than 1/replace_drop stagnates near eps * rmax and the gap then
 * grows; a restart begins a fresh process whose errors scale with the small residual. */
static int replace_due(const Solve *S, int it, double rnorm, double *rmax) {
  *rmax = fmax(*rmax, rnorm);
  const FeastSolveParams *p = S->p;
  return (p->replace_every > 0 && it > 0 && it % p->replace_every == 0) ||
         (p->replace_drop > 0 && rnorm < p->replace_drop * *rmax);
}

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
  FEAST_CALL(apply_M(S, w->r, Pt));
  FEAST_CALL(apply_A(S, Pt, t));
  FeastVec *zero[] = {p, v, q, Pv, Mv, Mt};
  for (int i = 0; i < 6; i++) feast_vec_zero(zero[i]);
  const FeastVec *xs[3] = {w->rhat, w->rhat, w->r}, *ys[3] = {t, w->r, w->r};
  double d[3];
  FEAST_CALL(feast_vec_dots(3, xs, ys, d));
  *c = (IbcgScalars){1, 1, 1, d[0], d[1], 0, 0, 0};
  *rnorm = sqrt(d[2]);
  return 0;
}

static int ibicgstab(Solve *S) {
  Work *w = S->w;
  NEED(w, &w->r, &w->rhat, &w->z);
  FeastVec **e;
  FEAST_CALL(extras(w, 8, &e));
  FeastVec *t = e[0], *p = e[1], *v = e[2], *q = e[3], *Pt = e[4], *Pv = e[5], *Mv = e[6], *Mt = e[7];
  FeastVec *s = w->z;
  double rnorm;
  IbcgScalars c;
  int stop;
  FEAST_CALL(initial(S, w->r, &rnorm, &stop));
  if (stop) return 0;
  feast_vec_copy(w->r, w->rhat);
  FEAST_CALL(ibicgstab_start(S, e, &c, &rnorm));
  double rmax = rnorm;
  int restarts = 0;
  loop_begin(S);
  for (int it = 1;; it++) {
    const double rho = c.phi - c.w * c.m;
    const double delta = rho / c.rho * c.alpha, beta = delta / c.w;
    const double gamma = c.sigma + beta * c.gamma - delta * c.pi;
    if (rho == 0.0 || gamma == 0.0 || !isfinite(gamma)) return breakdown(S, gamma, it);
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
    FEAST_CALL(apply_M(S, v, Mv));
    FEAST_CALL(apply_A(S, Mv, q));
    /* s = r - alpha v; t <- (t - w p) - alpha q, P(t) likewise */
    feast_vec_copy(w->r, s);
    feast_vec_axpy(-alpha, v, s);
    feast_vec_axpy(-alpha, q, t);
    feast_vec_axpy(-alpha, Mv, Pt);
    FEAST_CALL(apply_M(S, t, Mt));
    FEAST_CALL(apply_A(S, Mt, p));
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
    if (om == 0.0) return breakdown(S, d[3], it);
    int done = stop_test(S, rnorm, it);
    if (done) {
      int ok = confirm_exit(S, w->r, it, &restarts);
      if (ok < 0) return -ok;
      if (ok) return 0;
    }
    if (done || replace_due(S, it, rnorm, &rmax)) {
      if (!done) FEAST_CALL(residual(S, w->r));
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
  FEAST_CALL(apply_M(S, S->w->r, P[PB_S]));
  FEAST_CALL(apply_A(S, P[PB_S], v[PB_S]));
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
  FEAST_CALL(apply_M(S, v[PB_W], Mw));
  FEAST_CALL(apply_A(S, Mw, v[PB_AW]));
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

static int pipebicgsafe(Solve *S) {
  Work *w = S->w;
  NEED(w, &w->r, &w->rhat, &w->z, &w->y);
  FeastVec **e;
  FEAST_CALL(extras(w, 2 * PB_N, &e));
  FeastVec **v = e, **P = e + PB_N, *r = w->r, *rs = w->rhat, *Ms = w->z;
  double rnorm;
  int stop;
  FEAST_CALL(initial(S, r, &rnorm, &stop));
  if (stop) return 0;
  feast_vec_copy(r, rs);
  FEAST_CALL(pipe_start(S, v, P));
  PipeScalars c = {0};
  double rmax = rnorm; /* 0 after a restart: ||r|| comes with the next reduction */
  int first = 1, restarts = 0;
  loop_begin(S);
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
    int st = apply_M(S, v[PB_S], Ms); /* B s, overlapped with the reduction */
    if (!st) st = apply_A(S, Ms, v[PB_AS]);
    FEAST_CALL(feast_vec_dots_end(&red, d));
    FEAST_CALL(st);
    if (it > 1 && stop_test(S, sqrt(d[8]), it - 1)) {
      S->loop1 = top, S->in_A = top_A, S->in_M = top_M;
      int ok = confirm_exit(S, r, it - 1, &restarts);
      if (ok < 0) return -ok;
      if (ok) return 0;
      FEAST_CALL(pipe_start(S, v, P));
      first = 1;
      rmax = 0;
      it--; /* the restart's reduction is iteration it again */
      continue;
    }
    if (!pipe_scalars(d, first, &c)) return breakdown(S, c.alpha + c.beta + c.zeta + c.eta, it);
    first = 0;
    FEAST_CALL(pipe_update(S, v, P, &c));
    if (replace_due(S, it, sqrt(d[8]), &rmax)) { /* d[8]: ||r||^2 before this update */
      FEAST_CALL(residual(S, r));
      FEAST_CALL(pipe_start(S, v, P));
      first = 1;
      rmax = 0;
    }
  }
}

static int fault_apply(void *ctx, const FeastVec *x, FeastVec *y) {
  FeastFaultOp *h = ctx;
  FEAST_CALL(h->inner.apply(h->inner.ctx, x, y));
  if (++h->calls != 2 || !h->on_this_rank) return 0;
  if (h->mode == FEAST_FAULT_FAIL)
    FEAST_ERROR(FEAST_ERR_INTERNAL, "injected failure (debug.inject = fail) on rank %d", feast_log_rank());
  if (h->mode == FEAST_FAULT_NAN && y->nlocal > 0) y->v[0][0] = NAN;
  return 0;
}

int feast_fault_op(const FeastFaultParams *fp, int rank, FeastLinOp inner, FeastFaultOp *hook, FeastLinOp *wrapped) {
  hook->inner = inner;
  hook->mode = fp ? fp->mode : FEAST_FAULT_NONE;
  hook->on_this_rank = fp && fp->rank == rank;
  hook->calls = 0;
  *wrapped = hook->mode != FEAST_FAULT_NONE ? (FeastLinOp){fault_apply, hook} : inner;
  return 0;
}

/* FGMRES(m) (Saad 1993): GMRES right-preconditioned by a preconditioner that may change
 * from one application to the next (ScaRC stopped at a tolerance, the adaptive smoother
 * step), so the search directions Z_j = M V_j are kept and x += Z y. The residual norm is
 * the least-squares one, |g_{j+1}| after the Givens rotations: it never grows, so the
 * method cannot diverge where BiCGStab's residual spikes. Orthogonalisation by classical
 * Gram-Schmidt applied twice (CGS2), each pass one fused reduction, plus the norm:
 * 3 reductions per iteration whatever j. Restarted every m iterations from the true
 * residual; a converged exit is confirmed by the true residual. */
enum { FGMRES_DEFAULT_RESTART = 30 };

static int fgmres_restart(int restart) { return restart > 0 ? restart : FGMRES_DEFAULT_RESTART; }

/* the double-precision vectors of FGMRES(m) at most: V (m + 1, or 2 with the basis in
 * single precision, which then adds m + 1 single vectors) and Z (m) */
static int fgmres_double_vectors(int m, int single_basis) { return (single_basis ? 2 : m + 1) + m; }

double feast_krylov_basis_vectors(FeastKrylovMethod method, int restart, int single_basis) {
  if (method != FEAST_KRYLOV_FGMRES) return 0.0;
  const int m = fgmres_restart(restart);
  return fgmres_double_vectors(m, single_basis) + (single_basis ? 0.5 * (m + 1) : 0.0);
}

/* (*vecs)[0..need) of w's shape, those beyond *n made now */
static int grow_vecs(Work *w, FeastVec ***vecs, int *n, int need) {
  if (*n >= need) return 0;
  FeastVec **b = realloc(*vecs, (size_t)need * sizeof *b);
  FEAST_CHECK(b, FEAST_ERR_MEM, "fgmres: no memory for %d basis vectors", need);
  *vecs = b;
  for (int i = *n; i < need; i++) {
    b[i] = NULL;
    *n = i + 1;
    FEAST_CALL(feast_vec_create(w->dom, w->level, w->nb, &b[i]));
  }
  return 0;
}

/* the single-precision basis U_0..U_need-1 (single_basis) */
static int grow_single(Work *w, int need) {
  if (w->nsingle >= need) return 0;
  FeastVecSingle **b = realloc(w->single, (size_t)need * sizeof *b);
  FEAST_CHECK(b, FEAST_ERR_MEM, "fgmres: no memory for %d basis vectors", need);
  w->single = b;
  for (int i = w->nsingle; i < need; i++) {
    b[i] = NULL;
    w->nsingle = i + 1;
    FEAST_CALL(feast_vec_single_create(w->dom, w->level, w->nb, &b[i]));
  }
  return 0;
}

/* the vectors iteration k of a cycle uses, made at their first use (a solve of j
 * iterations holds j directions and j + 1 basis vectors, not the restart length's; the
 * pointers change as they grow): V_0..V_k+1 (with single_basis two double vectors that
 * take turns as V_k and V_k+1, the basis itself in *U), Z_0..Z_k */
static int fgmres_vectors(Solve *S, int k, FeastVec ***V, FeastVec ***Z, FeastVecSingle ***U) {
  Work *w = S->w;
  const int single = S->p->single_basis;
  FEAST_CALL(grow_vecs(w, &w->basis, &w->nbasis, single ? 2 : k + 2));
  FEAST_CALL(grow_vecs(w, &w->dirs, &w->ndirs, k + 1));
  if (single) FEAST_CALL(grow_single(w, k + 2));
  *V = w->basis;
  *Z = w->dirs;
  *U = single ? w->single : NULL;
  return 0;
}

/* w -= sum_i h_i V_i with h = V^T w, twice (CGS2); h[0..j] the sum of both passes; the
 * basis in single precision where U is not NULL */
static int fgmres_orthogonalise(FeastVec **V, FeastVecSingle **U, int j, FeastVec *w, double *h) {
  const FeastVec *ws[j + 1];
  double c[j + 1];
  for (int i = 0; i <= j; i++) ws[i] = w, h[i] = 0.0;
  for (int pass = 0; pass < 2; pass++) {
    if (U) FEAST_CALL(feast_vec_single_dots(j + 1, (const FeastVecSingle *const *)U, w, c));
    else FEAST_CALL(feast_vec_dots(j + 1, (const FeastVec *const *)V, ws, c));
    double minus_c[j + 1];
    for (int i = 0; i <= j; i++) {
      minus_c[i] = -c[i];
      h[i] += c[i];
    }
    if (U) feast_vec_single_maxpy(j + 1, minus_c, (const FeastVecSingle *const *)U, w);
    else feast_vec_maxpy(j + 1, minus_c, (const FeastVec *const *)V, w);
  }
  return 0;
}

/* the column h[0..j+1] of the Hessenberg matrix through the rotations so far and a new
 * one that zeroes h[j+1]; g (the rotated right-hand side) follows */
static void fgmres_rotate(double *h, int j, double *cs, double *sn, double *g) {
  for (int i = 0; i < j; i++) {
    const double t = cs[i] * h[i] + sn[i] * h[i + 1];
    h[i + 1] = -sn[i] * h[i] + cs[i] * h[i + 1];
    h[i] = t;
  }
  const double d = hypot(h[j], h[j + 1]);
  cs[j] = d > 0 ? h[j] / d : 1.0;
  sn[j] = d > 0 ? h[j + 1] / d : 0.0;
  h[j] = d;
  h[j + 1] = 0.0;
  g[j + 1] = -sn[j] * g[j];
  g[j] *= cs[j];
}

/* x += Z y with R y = g[0..k-1] (R upper triangular, column-major in H, leading dim m+1) */
static void fgmres_update(Solve *S, FeastVec **Z, const double *H, int m, const double *g, int k) {
  double y[k > 0 ? k : 1];
  for (int i = k - 1; i >= 0; i--) {
    double s = g[i];
    for (int l = i + 1; l < k; l++) s -= H[l * (m + 1) + i] * y[l];
    y[i] = s / H[i * (m + 1) + i];
  }
  feast_vec_maxpy(k, y, (const FeastVec *const *)Z, S->x);
}

static int fgmres(Solve *S) {
  Work *w = S->w;
  NEED(w, &w->r);
  const int m = fgmres_restart(S->p->restart);
  FeastVec **V = NULL, **Z = NULL;
  FeastVecSingle **U = NULL;
  double rnorm;
  int solved;
  FEAST_CALL(initial(S, w->r, &rnorm, &solved));
  if (solved) return 0;
  FEAST_CALL(fgmres_vectors(S, 0, &V, &Z, &U));
  double *H, *g, *cs, *sn;
  FEAST_CALL(FEAST_ALLOC((size_t)(m + 1) * (m + 4), &H));
  g = H + (size_t)m * (m + 1), cs = g + m + 1, sn = cs + m + 1;
  loop_begin(S);
  int it = 0, restarts = 0, st = 0;
  for (;;) { /* one cycle of at most m iterations from r, ||r|| = rnorm */
    feast_vec_copy(w->r, V[0]);
    feast_vec_scale(1.0 / rnorm, V[0]);
    if (U) feast_vec_single_store(V[0], U[0]);
    memset(g, 0, (size_t)(m + 1) * sizeof *g);
    g[0] = rnorm;
    int k = 0, stop = 0, broken = 0;
    while (k < m && !stop) {
      double *h = H + (size_t)k * (m + 1);
      if ((st = fgmres_vectors(S, k, &V, &Z, &U))) break;
      FeastVec *vk = U ? V[k & 1] : V[k], *vnext = U ? V[(k + 1) & 1] : V[k + 1];
      if ((st = apply_M(S, vk, Z[k])) || (st = apply_A(S, Z[k], vnext))) break;
      if ((st = fgmres_orthogonalise(V, U, k, vnext, h)) || (st = feast_vec_norm(vnext, &h[k + 1]))) break;
      if (h[k + 1] > 0) feast_vec_scale(1.0 / h[k + 1], vnext);
      if (U) feast_vec_single_store(vnext, U[k + 1]);
      fgmres_rotate(h, k, cs, sn, g);
      k++;
      broken = !isfinite(g[k]) || h[k - 1] == 0.0; /* NaN, or a singular column: no update */
      stop = stop_test(S, fabs(g[k]), ++it) || broken;
    }
    if (st) break;
    if (broken) {
      if (isfinite(g[k])) breakdown(S, 0.0, it);
      break;
    }
    fgmres_update(S, Z, H, m, g, k);
    if (stop) {
      const int done = confirm_exit(S, w->r, it, &restarts);
      if (done < 0) st = -done;
      if (done) break;
      if ((st = feast_vec_norm(w->r, &rnorm))) break; /* drifted: go on from the true residual */
      continue;
    }
    /* restart from the true residual (its product and reduction counted in the loop) */
    if ((st = residual(S, w->r)) || (st = feast_vec_norm(w->r, &rnorm))) break;
    if (rnorm == 0.0 || !isfinite(rnorm)) {
      stop_test(S, rnorm, it);
      break;
    }
  }
  free(H);
  return st;
}

void feast_solve_params_defaults(FeastSolveParams *p) {
  *p = (FeastSolveParams){.rtol = 1e-8, .max_iterations = 100, .divergence_factor = 1e4,
                          .replace_drop = 1.4901161193847656e-08};
}

/* The registry: one row per FeastKrylovMethod, in enum order (checked at compile time by
 * the array size); the names, the by-name lookup and feast_krylov_methods() come from it. */
static const struct {
  const char *name;
  Method fn;
  int needs_linear; /* recurrences that assume a linear (fixed) preconditioner */
  unsigned uses;    /* FEAST_KRYLOV_FOR_* */
} methods[] = {
    [FEAST_KRYLOV_RICHARDSON] = {"richardson", richardson, 0, 0},
    [FEAST_KRYLOV_CG] = {"cg", cg, 0, FEAST_KRYLOV_FOR_SCARC},
    [FEAST_KRYLOV_BICGSTAB] = {"bicgstab", bicgstab, 0, FEAST_KRYLOV_FOR_SADDLE | FEAST_KRYLOV_FOR_SCARC},
    [FEAST_KRYLOV_IBICGSTAB] = {"ibicgstab", ibicgstab, 1, FEAST_KRYLOV_FOR_SADDLE | FEAST_KRYLOV_FOR_SCARC},
    [FEAST_KRYLOV_PIPEBICGSAFE] = {"pipebicgsafe", pipebicgsafe, 1, FEAST_KRYLOV_FOR_SADDLE | FEAST_KRYLOV_FOR_SCARC},
    [FEAST_KRYLOV_FGMRES] = {"fgmres", fgmres, 0, FEAST_KRYLOV_FOR_SADDLE},
};
_Static_assert(sizeof methods / sizeof methods[0] == FEAST_KRYLOV_NMETHODS, "one registry row per method");

static int valid(FeastKrylovMethod m) { return (int)m >= 0 && m < FEAST_KRYLOV_NMETHODS; }

const char *feast_solve_status_name(FeastSolveStatus s) {
  static const char *const names[] = {[FEAST_SOLVE_CONVERGED] = "converged", [FEAST_SOLVE_MAX_ITERATIONS] = "max_iterations",
                                      [FEAST_SOLVE_DIVERGED] = "diverged", [FEAST_SOLVE_NAN] = "nan",
                                      [FEAST_SOLVE_BREAKDOWN] = "breakdown"};
  return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "?";
}

const char *feast_krylov_method_name(FeastKrylovMethod m) { return valid(m) ? methods[m].name : "?"; }

int feast_krylov_method_from_name(const char *name, FeastKrylovMethod *m) {
  for (int i = 0; i < FEAST_KRYLOV_NMETHODS; i++)
    if (name && strcmp(methods[i].name, name) == 0) {
      *m = (FeastKrylovMethod)i;
      return 0;
    }
  FEAST_ERROR(FEAST_ERR_CONFIG, "unknown solver '%s' (available: %s)", name ? name : "(null)", feast_krylov_methods());
}

int feast_krylov_needs_linear_preconditioner(FeastKrylovMethod method) {
  return valid(method) && methods[method].needs_linear;
}

const char *feast_krylov_choices(unsigned use, const char *first, char *buf, size_t size) {
  size_t n = (size_t)snprintf(buf, size, "%s", first ? first : "");
  for (int i = 0; i < FEAST_KRYLOV_NMETHODS && n < size; i++)
    if (methods[i].uses & use) n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? "|" : "", methods[i].name);
  return buf;
}

const char *feast_krylov_methods(void) {
  static char list[128];
  if (!list[0]) {
    size_t n = 0;
    for (int i = 0; i < FEAST_KRYLOV_NMETHODS; i++)
      n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", i ? " " : "", methods[i].name);
  }
  return list;
}

/* per iteration of the loop: the method's own reductions and the exchanges of the
 * operator and the method (the preconditioner's are its own business: ScaRC's V cycle) */
static void report_counts(const Solve *S) {
  FeastSolveResult *res = S->res;
  if (!S->in_loop || res->iterations <= 0) return;
  FeastCommCounts all = {0}, own;
  counts_add(&all, &S->loop0, &S->loop1);
  own.reductions = all.reductions - S->in_A.reductions - S->in_M.reductions;
  own.exchanges = all.exchanges - S->in_M.exchanges;
  res->reductions_per_iteration = (double)own.reductions / res->iterations;
  res->operator_reductions_per_iteration = (double)S->in_A.reductions / res->iterations;
  res->exchanges_per_iteration = (double)own.exchanges / res->iterations;
}

/* one lockstep iteration's preconditioner application to the systems still running */
static int apply_many(FeastLinOpMany M, Solve *S, const int *running, int n) {
  const FeastVec *in[FEAST_KRYLOV_MAX_SYSTEMS];
  FeastVec *out[FEAST_KRYLOV_MAX_SYSTEMS];
  int m = 0;
  for (int k = 0; k < n; k++)
    if (running[k]) in[m] = S[k].w->r, out[m++] = S[k].w->z;
  return M.apply(M.ctx, m, in, out);
}

int feast_krylov_richardson_many(int n, FeastLinOp A, FeastLinOpMany M, const FeastVec *const *b, FeastVec *const *x,
                                 const FeastSolveParams *p, FeastKrylovWork *const *work, FeastSolveResult *res) {
  FEAST_CHECK(n >= 1 && n <= FEAST_KRYLOV_MAX_SYSTEMS, FEAST_ERR_ARG,
              "feast_krylov_richardson_many: %d systems (1..%d)", n, FEAST_KRYLOV_MAX_SYSTEMS);
  Solve S[FEAST_KRYLOV_MAX_SYSTEMS];
  FeastKrylovWork *own[FEAST_KRYLOV_MAX_SYSTEMS] = {NULL};
  int running[FEAST_KRYLOV_MAX_SYSTEMS], left = 0, st = 0;
  double rnorm;
  for (int k = 0; k < n && !st; k++) {
    memset(&res[k], 0, sizeof res[k]);
    res[k].reason = FEAST_SOLVE_MAX_ITERATIONS;
    if (!work || !work[k]) st = feast_krylov_work_create(b[k], &own[k]);
    S[k] = (Solve){.A = A, .b = b[k], .x = x[k], .p = p, .res = &res[k], .w = own[k] ? &own[k]->w : &work[k]->w};
    if (!st) st = named(S[k].w, 2, (FeastVec **const[]){&S[k].w->r, &S[k].w->z});
    if (!st) st = residual(&S[k], S[k].w->r);
    if (!st) st = feast_vec_norm(S[k].w->r, &rnorm);
    if (st) break;
    res[k].initial_residual = rnorm;
    running[k] = !stop_test(&S[k], rnorm, 0);
    left += running[k];
  }
  for (int it = 1; left > 0 && !st; it++) {
    st = apply_many(M, S, running, n);
    for (int k = 0; k < n && !st; k++) {
      if (!running[k]) continue;
      feast_vec_axpy(1.0, S[k].w->z, S[k].x);
      st = residual(&S[k], S[k].w->r);
      if (!st) st = feast_vec_norm(S[k].w->r, &rnorm);
      if (!st && stop_test(&S[k], rnorm, it)) running[k] = 0, left--;
    }
  }
  for (int k = 0; k < n; k++) {
    feast_krylov_work_destroy(&own[k]);
    if (!st && res[k].initial_residual > 0 && res[k].iterations > 0 && res[k].final_residual > 0)
      res[k].rate = pow(res[k].final_residual / res[k].initial_residual, 1.0 / res[k].iterations);
  }
  return st;
}

int feast_krylov_solve(FeastKrylovMethod method, FeastLinOp A, FeastLinOp M, const FeastVec *b,
                       FeastVec *x, const FeastSolveParams *p, FeastKrylovWork *work, FeastSolveResult *res) {
  FEAST_CHECK(valid(method), FEAST_ERR_ARG, "feast_krylov_solve: no method %d (available: %s)", (int)method,
              feast_krylov_methods());
  const Method fn = methods[method].fn;
  FEAST_CHECK(!work || (work->w.nb == b->nb && work->w.level == b->level && work->w.dom == b->dom), FEAST_ERR_ARG,
              "Krylov work vectors of another shape (%d blocks, level %d) for a solve with %d blocks, level %d",
              work ? work->w.nb : 0, work ? work->w.level : 0, b->nb, b->level);
  memset(res, 0, sizeof *res);
  res->reason = FEAST_SOLVE_MAX_ITERATIONS;
  FeastKrylovWork *own = NULL;
  int st = work ? 0 : feast_krylov_work_create(b, &own);
  Solve S = {.A = A, .M = M, .b = b, .x = x, .p = p, .res = res, .w = work ? &work->w : &own->w};
  if (!st) st = fn(&S);
  feast_krylov_work_destroy(&own);
  if (!st) report_counts(&S);
  if (!st && res->initial_residual > 0 && res->iterations > 0 && res->final_residual > 0)
    res->rate = pow(res->final_residual / res->initial_residual, 1.0 / res->iterations);
  return st;
}

#include "scarc/krylov.h"
#include "feast/error.h"
#include "feast/log.h"
#include <math.h>
#include <string.h>

/* work vectors shared by the methods */
typedef struct {
  FeastVec *r, *z, *p, *q, *t, *rhat, *y;
} Work;

struct FeastKrylovWork {
  Work w;
};

#define WORK_VECTORS(w) {&(w)->r, &(w)->z, &(w)->p, &(w)->q, &(w)->t, &(w)->rhat, &(w)->y}

int feast_krylov_work_create(const FeastVec *like, FeastKrylovWork **wp) {
  FEAST_CALL(FEAST_ALLOC(1, wp));
  FeastVec **all[] = WORK_VECTORS(&(*wp)->w);
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
    FEAST_CALL(feast_vec_create(like->dom, like->level, like->nb, all[i]));
  return 0;
}

void feast_krylov_work_destroy(FeastKrylovWork **wp) {
  if (!*wp) return;
  FeastVec **all[] = WORK_VECTORS(&(*wp)->w);
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) feast_vec_destroy(all[i]);
  feast_free(wp);
}

typedef int (*Method)(FeastLinOp A, FeastLinOp M, const FeastVec *b, FeastVec *x,
                      const FeastSolveParams *p, FeastSolveResult *res, Work *w);

/* Common stopping test: returns 1 when the iteration must stop, with the reason set */
static int stop_test(double rnorm, int it, const FeastSolveParams *p, FeastSolveResult *res) {
  res->iterations = it;
  res->final_residual = rnorm;
  if (p->monitor)
    feast_log(1, "  %s iter %3d  residual %.6e  rel %.3e\n", p->label ? p->label : "linear", it,
              rnorm, res->initial_residual > 0 ? rnorm / res->initial_residual : 0.0);
  if (!isfinite(rnorm)) {
    res->reason = "nan";
    return 1;
  }
  if (rnorm <= p->rtol * res->initial_residual || rnorm == 0.0) {
    res->converged = 1;
    res->reason = "converged";
    return 1;
  }
  if (rnorm > p->divergence_factor * res->initial_residual) {
    res->reason = "diverged";
    return 1;
  }
  if (it >= p->max_iterations) {
    res->reason = "max_iterations";
    return 1;
  }
  return 0;
}

/* r <- b - A x */
static int residual(FeastLinOp A, const FeastVec *b, const FeastVec *x, FeastVec *r) {
  FEAST_CALL(A.apply(A.ctx, x, r));
  feast_vec_aypx(-1.0, b, r);
  return 0;
}

static int initial(FeastLinOp A, const FeastVec *b, FeastVec *x, const FeastSolveParams *p,
                   FeastSolveResult *res, FeastVec *r, double *rnorm) {
  FEAST_CALL(residual(A, b, x, r));
  FEAST_CALL(feast_vec_norm(r, rnorm));
  res->initial_residual = *rnorm;
  return stop_test(*rnorm, 0, p, res) ? 1 : 0;
}

/* x += M (b - A x) */
static int richardson(FeastLinOp A, FeastLinOp M, const FeastVec *b, FeastVec *x,
                      const FeastSolveParams *p, FeastSolveResult *res, Work *w) {
  double rnorm;
  if (initial(A, b, x, p, res, w->r, &rnorm)) return 0;
  for (int it = 1;; it++) {
    FEAST_CALL(M.apply(M.ctx, w->r, w->z));
    feast_vec_axpy(1.0, w->z, x);
    FEAST_CALL(residual(A, b, x, w->r));
    FEAST_CALL(feast_vec_norm(w->r, &rnorm));
    if (stop_test(rnorm, it, p, res)) return 0;
  }
}

/* flexible preconditioned conjugate gradients (Notay's FCG(1), Polak-Ribiere beta):
 * beta = z_new . (r_new - r_old) / (z_old . r_old) = -alpha (z_new . q) / (z_old . r_old),
 * since r_new = r_old - alpha q. For a fixed SPD preconditioner this is classical PCG
 * (r_old . z_new = 0); ScaRC is not one (a V cycle with pre-smoothing only, an adaptive
 * Schwarz step, single-precision local solves), and the flexible beta keeps CG
 * converging with it. Costs one more dot product, fused with the other. */
static int cg(FeastLinOp A, FeastLinOp M, const FeastVec *b, FeastVec *x,
              const FeastSolveParams *p, FeastSolveResult *res, Work *w) {
  double rnorm, rz, pq;
  if (initial(A, b, x, p, res, w->r, &rnorm)) return 0;
  FEAST_CALL(M.apply(M.ctx, w->r, w->z));
  feast_vec_copy(w->z, w->p);
  FEAST_CALL(feast_vec_dot(w->r, w->z, &rz));
  for (int it = 1;; it++) {
    FEAST_CALL(A.apply(A.ctx, w->p, w->q));
    FEAST_CALL(feast_vec_dot(w->p, w->q, &pq));
    if (pq == 0.0 || !isfinite(pq)) {
      res->reason = isfinite(pq) ? "breakdown" : "nan";
      res->iterations = it;
      return 0;
    }
    double alpha = rz / pq;
    feast_vec_axpy(alpha, w->p, x);
    feast_vec_axpy(-alpha, w->q, w->r);
    FEAST_CALL(feast_vec_norm(w->r, &rnorm));
    if (stop_test(rnorm, it, p, res)) return 0;
    FEAST_CALL(M.apply(M.ctx, w->r, w->z));
    const FeastVec *xs[2] = {w->r, w->q}, *ys[2] = {w->z, w->z};
    double d[2]; /* r_new . z_new, q . z_new */
    FEAST_CALL(feast_vec_dots(2, xs, ys, d));
    const double beta = -alpha * d[1] / rz;
    rz = d[0];
    feast_vec_aypx(beta, w->z, w->p); /* p <- z + beta p */
  }
}

/* right-preconditioned BiCGStab (van der Vorst) */
static int bicgstab(FeastLinOp A, FeastLinOp M, const FeastVec *b, FeastVec *x,
                    const FeastSolveParams *p, FeastSolveResult *res, Work *w) {
  double rnorm, rho = 1, alpha = 1, omega = 1;
  if (initial(A, b, x, p, res, w->r, &rnorm)) return 0;
  feast_vec_copy(w->r, w->rhat);
  feast_vec_zero(w->p);
  feast_vec_zero(w->q); /* q holds v = A M p */
  for (int it = 1;; it++) {
    double rho_new;
    FEAST_CALL(feast_vec_dot(w->rhat, w->r, &rho_new));
    if (rho_new == 0.0 || omega == 0.0) {
      res->reason = "breakdown";
      res->iterations = it;
      return 0;
    }
    double beta = (rho_new / rho) * (alpha / omega);
    rho = rho_new;
    /* p <- r + beta (p - omega v) */
    feast_vec_axpy(-omega, w->q, w->p);
    feast_vec_aypx(beta, w->r, w->p);
    FEAST_CALL(M.apply(M.ctx, w->p, w->y));
    FEAST_CALL(A.apply(A.ctx, w->y, w->q));
    double rv;
    FEAST_CALL(feast_vec_dot(w->rhat, w->q, &rv));
    if (rv == 0.0 || !isfinite(rv)) {
      res->reason = isfinite(rv) ? "breakdown" : "nan";
      res->iterations = it;
      return 0;
    }
    alpha = rho / rv;
    feast_vec_axpy(alpha, w->y, x);
    feast_vec_axpy(-alpha, w->q, w->r); /* s = r - alpha v, stored in r */
    FEAST_CALL(feast_vec_norm(w->r, &rnorm));
    if (rnorm <= p->rtol * res->initial_residual) {
      stop_test(rnorm, it, p, res);
      return 0;
    }
    FEAST_CALL(M.apply(M.ctx, w->r, w->z));
    FEAST_CALL(A.apply(A.ctx, w->z, w->t));
    const FeastVec *xs[2] = {w->t, w->t}, *ys[2] = {w->r, w->t};
    double tt[2];
    FEAST_CALL(feast_vec_dots(2, xs, ys, tt));
    omega = tt[1] != 0.0 ? tt[0] / tt[1] : 0.0;
    feast_vec_axpy(omega, w->z, x);
    feast_vec_axpy(-omega, w->t, w->r);
    FEAST_CALL(feast_vec_norm(w->r, &rnorm));
    if (stop_test(rnorm, it, p, res)) return 0;
  }
}

static int fault_apply(void *ctx, const FeastVec *x, FeastVec *y) {
  FeastFaultOp *h = ctx;
  FEAST_CALL(h->inner.apply(h->inner.ctx, x, y));
  if (++h->calls != 2 || !h->on_this_rank) return 0;
  if (h->mode == 2)
    FEAST_ERROR(FEAST_ERR_INTERNAL, "injected failure (debug.inject = fail) on rank %d", feast_log_rank());
  if (h->mode == 1 && y->nlocal > 0) y->v[0][0] = NAN;
  return 0;
}

int feast_fault_op(const FeastConfig *cfg, int rank, FeastLinOp inner, FeastFaultOp *hook, FeastLinOp *wrapped) {
  const char *mode;
  long on;
  FEAST_CALL(feast_config_get_string(cfg, "debug.inject", &mode));
  FEAST_CALL(feast_config_get_int(cfg, "debug.inject_rank", &on));
  hook->inner = inner;
  hook->mode = strcmp(mode, "nan") == 0 ? 1 : strcmp(mode, "fail") == 0 ? 2 : 0;
  hook->on_this_rank = on == rank;
  hook->calls = 0;
  *wrapped = hook->mode ? (FeastLinOp){fault_apply, hook} : inner;
  return 0;
}

static const struct {
  const char *name;
  Method fn;
} methods[] = {{"richardson", richardson}, {"cg", cg}, {"bicgstab", bicgstab}};

const char *feast_krylov_methods(void) { return "richardson cg bicgstab"; }

int feast_krylov_solve(const char *method, FeastLinOp A, FeastLinOp M, const FeastVec *b,
                       FeastVec *x, const FeastSolveParams *p, FeastKrylovWork *work, FeastSolveResult *res) {
  Method fn = NULL;
  for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++)
    if (strcmp(methods[i].name, method) == 0) fn = methods[i].fn;
  FEAST_CHECK(fn, FEAST_ERR_CONFIG, "unknown solver '%s' (available: %s)", method, feast_krylov_methods());
  FEAST_CHECK(!work || (work->w.r->nb == b->nb && work->w.r->level == b->level), FEAST_ERR_ARG,
              "Krylov work vectors of another shape (%d blocks, level %d) for a solve with %d blocks, level %d",
              work ? work->w.r->nb : 0, work ? work->w.r->level : 0, b->nb, b->level);
  memset(res, 0, sizeof *res);
  res->reason = "max_iterations";
  FeastKrylovWork *own = NULL;
  int st = work ? 0 : feast_krylov_work_create(b, &own);
  if (!st) st = fn(A, M, b, x, p, res, work ? &work->w : &own->w);
  feast_krylov_work_destroy(&own);
  if (!st && res->initial_residual > 0 && res->iterations > 0 && res->final_residual > 0)
    res->rate = pow(res->final_residual / res->initial_residual, 1.0 / res->iterations);
  return st;
}

/* The steps every Krylov method is made of (krylov_private.h): the work vectors, the
 * operator and preconditioner applied with their communication counted, the stopping
 * test, the residual, and the exit and restart tests of the recurrence methods. Below
 * the methods (richardson.c, cg.c, bicgstab.c, fgmres.c) and the driver (krylov.c). */
#include "solvers/krylov_private.h"
#include "feast/base/error.h"
#include "feast/base/log.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* the first n extra vectors, created where missing */
int krylov_extras(Work *w, int n, FeastVec ***out) {
  for (int i = 0; i < n; i++)
    if (!w->extra[i]) FEAST_CALL(feast_vec_create(w->dom, w->level, w->nb, &w->extra[i]));
  *out = w->extra;
  return 0;
}

/* the named vectors vecs[0..n) of w, those still missing made in one block */
int krylov_named(Work *w, int n, FeastVec **const vecs[]) {
  FeastVec **missing[n];
  int k = 0;
  for (int i = 0; i < n; i++)
    if (!*vecs[i]) missing[k++] = vecs[i];
  return k ? feast_vec_create_set(w->dom, w->level, w->nb, k, missing) : 0;
}

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

void krylov_counts_add(FeastCommCounts *acc, const FeastCommCounts *a, const FeastCommCounts *b) {
  acc->reductions += b->reductions - a->reductions;
  acc->exchanges += b->exchanges - a->exchanges;
}

/* y <- op(x), its communication added to *acc while in the loop */
static int apply_counted(Solve *S, FeastLinOp op, FeastCommCounts *acc, const FeastVec *x, FeastVec *y) {
  FeastCommCounts a, b;
  feast_comm_counts(&a);
  FEAST_CALL(op.apply(op.ctx, x, y));
  feast_comm_counts(&b);
  if (S->in_loop) krylov_counts_add(acc, &a, &b);
  return 0;
}
int krylov_apply_A(Solve *S, const FeastVec *x, FeastVec *y) { return apply_counted(S, S->A, &S->in_A, x, y); }
int krylov_apply_M(Solve *S, const FeastVec *x, FeastVec *y) { return apply_counted(S, S->M, &S->in_M, x, y); }

void krylov_loop_begin(Solve *S) {
  S->in_loop = 1;
  feast_comm_counts(&S->loop0);
  S->loop1 = S->loop0;
}

/* the residual norm to reach: rtol times the reference norm, or ||r_0|| */
double krylov_tolerance(const Solve *S) {
  return S->p->rtol * (S->p->reference_norm > 0 ? S->p->reference_norm : S->res->initial_residual);
}

/* Common stopping test: returns 1 when the iteration must stop, with the reason set; in
 * the loop (it > 0) it also marks the end of the counted part */
int krylov_stop_test(Solve *S, double rnorm, int it) {
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
  if (rnorm == 0.0 || (p->fixed_iterations > 0 ? it >= p->fixed_iterations : rnorm <= krylov_tolerance(S))) {
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
int krylov_breakdown(Solve *S, double value, int it) {
  S->res->reason = isfinite(value) ? FEAST_SOLVE_BREAKDOWN : FEAST_SOLVE_NAN;
  S->res->iterations = it;
  if (S->in_loop) feast_comm_counts(&S->loop1);
  return 0;
}

/* r <- b - A x */
int krylov_residual(Solve *S, FeastVec *r) {
  FEAST_CALL(krylov_apply_A(S, S->x, r));
  feast_vec_aypx(-1.0, S->b, r);
  return 0;
}

/* r <- b - A x_0 and its norm; *stop = 1 when x_0 already passes the stopping test. The
 * return value is an error code only (an operator's failure reaches the caller). */
int krylov_initial(Solve *S, FeastVec *r, double *rnorm, int *stop) {
  FEAST_CALL(krylov_residual(S, r));
  FEAST_CALL(feast_vec_norm(r, rnorm));
  S->res->initial_residual = *rnorm;
  *stop = krylov_stop_test(S, *rnorm, 0);
  return 0;
}

/* the true residual at exit: r <- b - A x and its norm (one more reduction, outside the
 * counted loop). Returns 1 when it confirms the stop, 0 when the solve must go on from
 * r (the recurrences drifted: the recurrence residual met the tolerance, the true one not),
 * minus the error code when A failed. */
int krylov_confirm_exit(Solve *S, FeastVec *r, int it, int *restarts) {
  if (!S->res->converged) return 1;
  S->in_loop = 0;
  double rnorm;
  int st = krylov_residual(S, r);
  if (!st) st = feast_vec_norm(r, &rnorm);
  if (st) return -st;
  S->res->final_residual = rnorm;
  S->in_loop = 1;
  if (rnorm <= krylov_tolerance(S) || it >= S->p->max_iterations || ++*restarts > 3) {
    S->res->converged = rnorm <= krylov_tolerance(S);
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
int krylov_replace_due(const Solve *S, int it, double rnorm, double *rmax) {
  *rmax = fmax(*rmax, rnorm);
  const FeastSolveParams *p = S->p;
  return (p->replace_every > 0 && it > 0 && it % p->replace_every == 0) ||
         (p->replace_drop > 0 && rnorm < p->replace_drop * *rmax);
}

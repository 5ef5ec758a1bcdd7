/* The Krylov methods' driver: the work vectors, the steps every method is made of
 * (counted applications, the stopping test, the residual, the exit and restart tests of
 * the recurrence methods), the registry of the methods (richardson.c, cg.c, bicgstab.c,
 * fgmres.c), feast_krylov_solve and the lockstep Richardson of several systems. */
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
    [FEAST_KRYLOV_RICHARDSON] = {"richardson", krylov_richardson, 0, 0},
    [FEAST_KRYLOV_CG] = {"cg", krylov_cg, 0, FEAST_KRYLOV_FOR_SCARC},
    [FEAST_KRYLOV_BICGSTAB] = {"bicgstab", krylov_bicgstab, 0, FEAST_KRYLOV_FOR_SADDLE | FEAST_KRYLOV_FOR_SCARC},
    [FEAST_KRYLOV_IBICGSTAB] = {"ibicgstab", krylov_ibicgstab, 1, FEAST_KRYLOV_FOR_SADDLE | FEAST_KRYLOV_FOR_SCARC},
    [FEAST_KRYLOV_PIPEBICGSAFE] = {"pipebicgsafe", krylov_pipebicgsafe, 1, FEAST_KRYLOV_FOR_SADDLE | FEAST_KRYLOV_FOR_SCARC},
    [FEAST_KRYLOV_FGMRES] = {"fgmres", krylov_fgmres, 0, FEAST_KRYLOV_FOR_SADDLE},
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
    if (!st) st = krylov_named(S[k].w, 2, (FeastVec **const[]){&S[k].w->r, &S[k].w->z});
    if (!st) st = krylov_residual(&S[k], S[k].w->r);
    if (!st) st = feast_vec_norm(S[k].w->r, &rnorm);
    if (st) break;
    res[k].initial_residual = rnorm;
    running[k] = !krylov_stop_test(&S[k], rnorm, 0);
    left += running[k];
  }
  for (int it = 1; left > 0 && !st; it++) {
    st = apply_many(M, S, running, n);
    for (int k = 0; k < n && !st; k++) {
      if (!running[k]) continue;
      feast_vec_axpy(1.0, S[k].w->z, S[k].x);
      st = krylov_residual(&S[k], S[k].w->r);
      if (!st) st = feast_vec_norm(S[k].w->r, &rnorm);
      if (!st && krylov_stop_test(&S[k], rnorm, it)) running[k] = 0, left--;
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


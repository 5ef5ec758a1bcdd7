/* The Krylov methods' driver: the registry of the methods (richardson.c, cg.c,
 * bicgstab.c, fgmres.c), their names and defaults, feast_krylov_solve and the lockstep
 * Richardson of several systems. The steps the methods are made of are krylov_steps.c. */
#include "solvers/krylov_private.h"
#include "feast/base/error.h"
#include "feast/base/log.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

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
  krylov_counts_add(&all, &S->loop0, &S->loop1);
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


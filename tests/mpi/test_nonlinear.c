/* The generic nonlinear solver (solvers/nonlinear.h) on small componentwise problems, no
 * Navier-Stokes: one scalar field on square4x4 at level 2 (289 nodes), F_i(x) = f(x_i,
 * s_i) with s_i = (x + y) / 2 of node i, so the Jacobian is diagonal and the linear solve
 * a division. Run on 1, 2 and 4 ranks (the componentwise operations keep the copies of
 * shared nodes consistent; norms and the Anderson products are global reductions).
 *  - cubic: F = x^3 + 3 x - b, b from the root x* = 0.5 + s/2; the fixed point is Picard's
 *    (the linearisation x^2 + 3 lagged: x <- b / (x^2 + 3), contraction |g'(x*)| =
 *    2 x*^2 / (x*^2 + 3) <= 0.5), Newton's the Jacobian 3 x^2 + 3. Newton converges
 *    quadratically (r_k+1 / r_k^2 bounded, r_k+1 / r_k -> 0), the fixed point linearly
 *    (r_k+1 / r_k near 0.5 at the end); Anderson (depth 5) needs at most 2/3 of the fixed
 *    point's steps; a run stopped after 3 steps and continued from its state
 *    (FeastNonlinearState, the Anderson history kept) ends bitwise where the uninterrupted
 *    one does; auto switches to Newton once the defect is <= newton_switch x the first,
 *    and back to the fixed point for good when two Newton solves in a row say at_limit.
 *  - Eisenstat-Walker: Newton on the cubic with an inexact solve (c = (1 - rtol / 2) J^-1 d)
 *    and forcing on: the tolerance of every solve is choice 2's formula, recomputed here
 *    from the defects the solver passed.
 *  - arctan: F = atan(x - s/4) from x = 2 + s/4, where the full Newton step overshoots (to
 *    about -3.5, a larger defect): with the line search the first step is halved, lambda =
 *    1/2, and the solve converges (the shorter trials by the defect alone, the length taken
 *    assembled: the linearisation ends at the final iterate); without it, it does not.
 *  - the monitor: one STEP event per step (steps + 1 with the last) in order and one
 *    STEP_DONE per update; a stop from it ends the solve as interrupted after that step.
 *  - the stall test: the defect's window, and Newton's steps without descent (a linear
 *    solve that returns minus the correction) stalled after FEAST_NONLINEAR_NO_DESCENT;
 *    linear solves at their cap that make no progress (1e-4 of the correction) stalled
 *    after FEAST_NONLINEAR_CAPPED_STEPS steps, with or without the stall test. */
#include "feast/base/error.h"
#include "feast/la/vector.h"
#include "feast/mesh/mesh.h"
#include "feast/parallel/domain.h"
#include "feast_test.h"
#include "solvers/nonlinear.h"
#include <math.h>
#include <string.h>

enum { LEVEL = 2, MAXLOG = 64 };
typedef enum { CUBIC, ARCTAN } Kind;

typedef struct {
  Kind kind;
  FeastVec *s;       /* the node's parameter s */
  FeastVec *J;       /* the linearisation of the last assembly (the diagonal) */
  FeastVec *at;      /* the iterate it was assembled at */
  int newton;        /* set_newton's last word */
  int inexact;       /* the linear solve stops at (1 - rtol / 2) of the exact correction */
  int limit_newton;  /* Newton's solves report at_limit */
  int ascent;        /* the linear solve returns minus the correction: no length decreases the defect */
  int capped;        /* every solve reports at_limit; with crawl its correction is 1e-4 of J^-1 d */
  int crawl;
  int set_newton_calls[2], steps_seen, done_seen, next_step, stop_after, trials, events_ok;
  int newton_on_step, newton_off_step;
  double newton_on_rel;
  double r[MAXLOG], rtol[MAXLOG], lambda[MAXLOG]; /* per linear solve: the defect and rtol; per step: lambda */
  int nsolves;
} App;

/* y_i <- f(x_i, s_i) over every copy of every node */
static void each(const FeastVec *x, const FeastVec *s, FeastVec *y, double (*f)(double, double)) {
  for (int li = 0; li < x->dom->nlocal; li++) {
    const double *xv = feast_vec_block(x, 0, li), *sv = feast_vec_block(s, 0, li);
    double *yv = feast_vec_block(y, 0, li);
    for (long n = 0; n < (long)x->N * x->N; n++) yv[n] = f(xv[n], sv[n]);
  }
}
static double root(double s) { return 0.5 + 0.5 * s; }
static double cubic_defect(double x, double s) {
  const double z = root(s);
  return (z * z * z + 3.0 * z) - (x * x * x + 3.0 * x);
}
static double cubic_newton(double x, double s) { return (void)s, 3.0 * x * x + 3.0; }
static double cubic_picard(double x, double s) { return (void)s, x * x + 3.0; }
static double atan_defect(double x, double s) { return -atan(x - 0.25 * s); }
static double atan_newton(double x, double s) { return 1.0 / (1.0 + (x - 0.25 * s) * (x - 0.25 * s)); }
static double divide(double d, double j) { return d / j; }

static int residual(void *ctx, const FeastVec *x, int assemble, FeastVec *d, double *norm) {
  App *a = ctx;
  each(x, a->s, d, a->kind == CUBIC ? cubic_defect : atan_defect);
  if (assemble) {
    each(x, a->s, a->J, a->kind == ARCTAN ? atan_newton : a->newton ? cubic_newton : cubic_picard);
    feast_vec_copy(x, a->at);
  } else {
    a->trials++;
  }
  return feast_vec_norm(d, norm);
}

static int linear_solve(void *ctx, const FeastVec *d, FeastVec *c, FeastNonlinearLinearSolve *s) {
  App *a = ctx;
  each(d, a->J, c, divide);
  if (a->inexact) feast_vec_scale(1.0 - 0.5 * s->rtol, c);
  if (a->ascent) feast_vec_scale(-1.0, c);
  if (a->crawl) feast_vec_scale(1e-4, c);
  if (a->nsolves < MAXLOG) a->r[a->nsolves] = s->defect_norm, a->rtol[a->nsolves] = s->rtol;
  a->nsolves++;
  s->result = (FeastSolveResult){.converged = 1, .reason = FEAST_SOLVE_CONVERGED, .iterations = 1};
  s->at_limit = (a->limit_newton && a->newton) || a->capped;
  return 0;
}

static int set_newton(void *ctx, int on) {
  App *a = ctx;
  a->newton = on;
  a->set_newton_calls[on != 0]++;
  return 0;
}

static int monitor(void *ctx, FeastNonlinearEvent event, const FeastNonlinearInfo *in, int *stop) {
  App *a = ctx;
  if (event == FEAST_NONLINEAR_STEP) { /* steps in order, the counters of the steps done */
    if ((a->next_step >= 0 && in->step != a->next_step) || in->step != in->result->steps) a->events_ok = 0;
    a->next_step = in->step + 1;
    a->steps_seen++;
    if (in->step > 0 && in->step <= MAXLOG) a->lambda[in->step - 1] = in->lambda;
  } else if (event == FEAST_NONLINEAR_STEP_DONE) { /* after the update of the step just seen */
    if (in->step != a->next_step || in->step != in->result->steps) a->events_ok = 0;
    a->done_seen++;
    if (a->stop_after > 0 && in->step == a->stop_after) *stop = 15;
  } else if (event == FEAST_NONLINEAR_NEWTON_ON) {
    a->newton_on_step = in->step;
    a->newton_on_rel = in->residual / in->result->initial_residual;
  } else {
    a->newton_off_step = in->step;
  }
  return 0;
}

static const FeastNonlinearOps ops = {.residual = residual, .linear_solve = linear_solve, .set_newton = set_newton,
                                      .monitor = monitor};

typedef struct {
  FeastVec *x, *d, *c, *x_old;
} Vecs;

static double coordinate_sum(double x, double y) { return 0.5 * (x + y); }

/* a fresh app on the vectors, and x <- the start of its kind */
static void reset(App *a, Kind kind, Vecs *v, double x0) {
  FeastVec *s = a->s, *J = a->J, *at = a->at;
  memset(a, 0, sizeof *a);
  a->kind = kind, a->s = s, a->J = J, a->at = at;
  a->events_ok = 1;
  a->newton_on_step = a->newton_off_step = a->next_step = -1;
  for (int li = 0; li < v->x->dom->nlocal; li++) {
    const double *sv = feast_vec_block(s, 0, li);
    double *xv = feast_vec_block(v->x, 0, li);
    for (long n = 0; n < (long)v->x->N * v->x->N; n++) xv[n] = x0 + (kind == ARCTAN ? 0.25 * sv[n] : 0.0);
  }
}

static int solve(App *a, const FeastNonlinearVectors *nv, int depth, const FeastNonlinearParams *p,
                 const FeastNonlinearState *from, FeastNonlinear **keep, FeastNonlinearResult *res) {
  FeastNonlinear *nl = keep && *keep ? *keep : NULL;
  if (!nl) FEAST_CALL(feast_nonlinear_create(nv, depth, &nl));
  feast_nonlinear_set_params(nl, p);
  feast_nonlinear_set_ops(nl, &ops, a);
  int st = feast_nonlinear_solve(nl, from, res);
  if (keep) *keep = nl;
  else feast_nonlinear_destroy(&nl);
  return st;
}

static double max_gap(const FeastVec *x, const FeastVec *y) {
  double m = 0.0, g;
  for (int li = 0; li < x->dom->nlocal; li++)
    for (long n = 0; n < (long)x->N * x->N; n++)
      m = fmax(m, fabs(feast_vec_block(x, 0, li)[n] - feast_vec_block(y, 0, li)[n]));
  MPI_Allreduce(&m, &g, 1, MPI_DOUBLE, MPI_MAX, x->dom->comm);
  return g;
}

static void check_monitor(const App *a, const FeastNonlinearResult *res) {
  CHECK(a->events_ok);
  CHECK(a->steps_seen == res->steps + 1);
  CHECK(a->done_seen == res->steps);
}

/* Newton's quadratic and the fixed point's linear convergence; Anderson's acceleration;
 * the continued run */
static void check_rates(App *a, Vecs *v, const FeastNonlinearVectors *nv) {
  FeastNonlinearParams p;
  feast_nonlinear_params_defaults(&p);
  p.rtol = 1e-13;
  FeastNonlinearResult res;
  /* Newton */
  p.method = FEAST_NONLINEAR_NEWTON;
  reset(a, CUBIC, v, 0.0);
  a->newton = 1;
  CHECK_OK(solve(a, nv, 0, &p, NULL, NULL, &res));
  CHECK(res.converged && res.reason == FEAST_NONLINEAR_CONVERGED);
  check_monitor(a, &res);
  CHECK(a->set_newton_calls[0] + a->set_newton_calls[1] == 0);
  const int newton_steps = res.steps;
  /* the defects r_0..r_n of the steps (r_n the final one): r_k+1 <= C r_k^2 once r_k is
   * small, with C far below 1 / r_k */
  double r[MAXLOG + 1], q2 = 0.0;
  const int n = a->nsolves;
  memcpy(r, a->r, (size_t)n * sizeof *r);
  r[n] = res.final_residual;
  int quadratic = 0;
  for (int k = 1; k <= n; k++) {
    if (r[k - 1] < 2.0 && r[k] > 1e-13) quadratic++, q2 = fmax(q2, r[k] / (r[k - 1] * r[k - 1]));
    if (feast_test_rank() == 0) printf("  newton step %d: defect %.3e  ratio %.3e  r_k / r_k-1^2 %.3e\n", k, r[k],
                                       r[k] / r[k - 1], r[k] / (r[k - 1] * r[k - 1]));
  }
  CHECK(quadratic >= 3 && q2 < 0.1);
  CHECK(r[n] / r[n - 1] < 1e-3 && r[n - 1] / r[n - 2] < 1e-3);
  CHECK(res.final_residual <= p.rtol * res.initial_residual);
  CHECK(res.steps == n && res.linear_iterations == res.steps && res.linear_capped == 0);
  /* the fixed point */
  p.method = FEAST_NONLINEAR_FIXED_POINT;
  p.rtol = 1e-10;
  reset(a, CUBIC, v, 0.0);
  CHECK_OK(solve(a, nv, 0, &p, NULL, NULL, &res));
  CHECK(res.converged);
  check_monitor(a, &res);
  const int picard_steps = res.steps;
  const double q_last = a->r[a->nsolves - 1] / a->r[a->nsolves - 2], q_before = a->r[a->nsolves - 2] / a->r[a->nsolves - 3];
  if (feast_test_rank() == 0)
    printf("  fixed point: %d steps, last ratios %.4f %.4f; Newton %d steps\n", picard_steps, q_before, q_last,
           newton_steps);
  CHECK(q_last > 0.4 && q_last < 0.55 && fabs(q_last - q_before) < 0.02); /* linear: |g'(x*)| at x* = 1 is 0.5 */
  CHECK(picard_steps > 2 * newton_steps);
  /* Anderson, uninterrupted */
  FeastVec *plain_x;
  CHECK_OK(feast_vec_create(v->x->dom, LEVEL, 1, &plain_x));
  reset(a, CUBIC, v, 0.0);
  CHECK_OK(solve(a, nv, 5, &p, NULL, NULL, &res));
  CHECK(res.converged);
  check_monitor(a, &res);
  const int anderson_steps = res.steps;
  const double anderson_r = res.final_residual;
  feast_vec_copy(v->x, plain_x);
  if (feast_test_rank() == 0) printf("  Anderson (depth 5): %d steps, fixed point %d\n", anderson_steps, picard_steps);
  CHECK(3 * anderson_steps <= 2 * picard_steps);
  /* stopped after 3 steps, continued by a second solver from the state and the history
   * (as a checkpoint restores them): the very steps of the uninterrupted run */
  FeastNonlinear *first = NULL, *second = NULL;
  reset(a, CUBIC, v, 0.0);
  p.max_steps = 3;
  CHECK_OK(solve(a, nv, 5, &p, NULL, &first, &res));
  CHECK(res.reason == FEAST_NONLINEAR_MAX_ITERATIONS && res.steps == 3);
  double per_step[3];
  memcpy(per_step, res.linear_per_step, sizeof per_step);
  const FeastNonlinearState state = {res.steps, res.initial_residual, res.final_residual, a->lambda[2],
                                     res.linear_iterations, per_step, res.linear_capped};
  FeastVec *h1[2 * FEAST_ANDERSON_MAX + 2], *h2[2 * FEAST_ANDERSON_MAX + 2];
  const int n1 = feast_anderson_history(feast_nonlinear_anderson(first), h1);
  CHECK(n1 == 2 + 2 * 2); /* x_prev, c_prev and the differences of 2 steps */
  CHECK_OK(feast_nonlinear_create(nv, 5, &second));
  int skip = -1;
  CHECK_OK(feast_anderson_restore(feast_nonlinear_anderson(second), 1, (n1 - 2) / 2, &skip));
  CHECK(skip == 0 && feast_anderson_history(feast_nonlinear_anderson(second), h2) == n1);
  for (int j = 0; j < n1; j++) feast_vec_copy(h1[j], h2[j]);
  feast_nonlinear_destroy(&first);
  p.max_steps = 50;
  const int before = a->steps_seen;
  a->next_step = -1;
  CHECK_OK(solve(a, nv, 5, &p, &state, &second, &res));
  CHECK(res.converged && res.steps == anderson_steps && res.final_residual == anderson_r);
  CHECK(res.linear_iterations == anderson_steps && res.linear_per_step[0] == 1.0);
  CHECK(a->events_ok && a->steps_seen - before == anderson_steps - 3 + 1);
  CHECK(max_gap(v->x, plain_x) == 0.0);
  feast_nonlinear_destroy(&second);
  /* a depth of 1 restores the newest step of the two */
  CHECK_OK(feast_nonlinear_create(nv, 1, &second));
  CHECK_OK(feast_anderson_restore(feast_nonlinear_anderson(second), 1, 2, &skip));
  CHECK(skip == 1 && feast_anderson_history(feast_nonlinear_anderson(second), h2) == 4);
  feast_nonlinear_destroy(&second);
  CHECK_OK(feast_anderson_restore(NULL, 1, 2, &skip)); /* no history kept: all skipped */
  CHECK(skip == 2 && feast_anderson_history(NULL, h2) == 0);
  feast_vec_destroy(&plain_x);
}

/* Eisenstat-Walker's choice 2 (nonlinear.h), recomputed from the defects passed */
static void check_forcing(App *a, Vecs *v, const FeastNonlinearVectors *nv) {
  FeastNonlinearParams p;
  feast_nonlinear_params_defaults(&p);
  p.method = FEAST_NONLINEAR_NEWTON;
  p.rtol = 1e-12;
  p.forcing = 1;
  p.linear_rtol = 0.5;
  reset(a, CUBIC, v, 0.0);
  a->newton = 1, a->inexact = 1;
  FeastNonlinearResult res;
  CHECK_OK(solve(a, nv, 0, &p, NULL, NULL, &res));
  CHECK(res.converged);
  check_monitor(a, &res);
  double eta = p.linear_rtol;
  int changed = 0, safeguarded = 0, kelley = 0;
  for (int k = 0; k < a->nsolves && k < MAXLOG; k++) {
    if (k > 0) {
      double e = 0.9 * pow(a->r[k] / a->r[k - 1], 2.0);
      const double guard = 0.9 * pow(eta, 2.0);
      if (guard > 0.1 && guard > e) e = guard, safeguarded++;
      if (e < 0.5 * p.rtol * res.initial_residual / a->r[k]) e = 0.5 * p.rtol * res.initial_residual / a->r[k], kelley++;
      eta = e < 0.9 ? e : 0.9;
    }
    CHECK(a->rtol[k] == eta);
    changed += a->rtol[k] != p.linear_rtol;
    if (feast_test_rank() == 0) printf("  forcing step %d: defect %.3e  eta %.3e\n", k, a->r[k], a->rtol[k]);
  }
  CHECK(changed >= 2 && safeguarded >= 1 && kelley >= 1);
  /* the fixed point keeps linear_rtol */
  p.method = FEAST_NONLINEAR_FIXED_POINT;
  p.rtol = 1e-8;
  reset(a, CUBIC, v, 0.0);
  a->inexact = 1;
  CHECK_OK(solve(a, nv, 0, &p, NULL, NULL, &res));
  CHECK(res.converged);
  int kept = 1;
  for (int k = 0; k < a->nsolves && k < MAXLOG; k++) kept &= a->rtol[k] == p.linear_rtol;
  CHECK(kept);
}

/* the line search where the full Newton step overshoots */
static void check_line_search(App *a, Vecs *v, const FeastNonlinearVectors *nv) {
  FeastNonlinearParams p;
  feast_nonlinear_params_defaults(&p);
  p.method = FEAST_NONLINEAR_NEWTON;
  p.rtol = 1e-12;
  FeastNonlinearResult res;
  reset(a, ARCTAN, v, 2.0);
  CHECK_OK(solve(a, nv, 0, &p, NULL, NULL, &res));
  CHECK(res.converged);
  check_monitor(a, &res);
  CHECK(a->lambda[0] == 0.5 && a->trials >= 1);
  int shortened = 0;
  for (int k = 0; k < res.steps; k++) shortened += a->lambda[k] != 1.0;
  CHECK(max_gap(a->at, v->x) == 0.0); /* the length taken was assembled */
  if (feast_test_rank() == 0)
    printf("  arctan from 2 with the line search: %d steps, %d shortened, %d trials by the defect alone\n", res.steps,
           shortened, a->trials);
  p.line_search = 0;
  reset(a, ARCTAN, v, 2.0);
  p.max_steps = 20;
  CHECK_OK(solve(a, nv, 0, &p, NULL, NULL, &res));
  CHECK(!res.converged && a->trials == 0);
  if (feast_test_rank() == 0) printf("  without: %s after %d steps\n", feast_nonlinear_status_name(res.reason), res.steps);
  /* damping 0.8, no line search: every step of length 0.8 */
  p.damping = 0.8;
  reset(a, CUBIC, v, 0.0);
  CHECK_OK(solve(a, nv, 0, &p, NULL, NULL, &res));
  int damped = 1;
  for (int k = 0; k < res.steps; k++) damped &= a->lambda[k] == 0.8;
  CHECK(damped && res.steps > 0);
}

/* nonlinear.method = auto: the switch to Newton and the way back */
static void check_auto(App *a, Vecs *v, const FeastNonlinearVectors *nv) {
  FeastNonlinearParams p;
  feast_nonlinear_params_defaults(&p);
  p.method = FEAST_NONLINEAR_AUTO;
  p.rtol = 1e-12;
  p.newton_switch = 1e-2;
  FeastNonlinearResult res;
  reset(a, CUBIC, v, 0.0);
  a->newton = 1; /* auto starts every solve with the fixed point: set_newton(0) */
  CHECK_OK(solve(a, nv, 0, &p, NULL, NULL, &res));
  CHECK(res.converged && res.newton_given_up == 0);
  check_monitor(a, &res);
  CHECK(a->set_newton_calls[0] == 1 && a->set_newton_calls[1] == 1 && a->newton);
  CHECK(a->newton_on_step > 0 && a->newton_on_rel <= 1e-2 && a->r[a->newton_on_step - 1] / res.initial_residual > 1e-2);
  if (feast_test_rank() == 0)
    printf("  auto: Newton from step %d (relative defect %.3e), %d steps\n", a->newton_on_step, a->newton_on_rel,
           res.steps);
  /* Newton's solves at their limit twice in a row: the fixed point for the rest */
  reset(a, CUBIC, v, 0.0);
  a->limit_newton = 1;
  CHECK_OK(solve(a, nv, 0, &p, NULL, NULL, &res));
  CHECK(res.converged && res.newton_given_up == 1);
  CHECK(a->set_newton_calls[1] == 1 && a->set_newton_calls[0] == 2 && !a->newton);
  CHECK(a->newton_off_step == a->newton_on_step + 1);
  /* Newton from the first step (newton_switch = INFINITY) */
  p.newton_switch = INFINITY;
  reset(a, CUBIC, v, 0.0);
  CHECK_OK(solve(a, nv, 0, &p, NULL, NULL, &res));
  CHECK(res.converged && a->newton_on_step == 0);
}

/* a stop from the monitor; the stall test */
static void check_stops(App *a, Vecs *v, const FeastNonlinearVectors *nv) {
  FeastNonlinearParams p;
  feast_nonlinear_params_defaults(&p);
  FeastNonlinearResult res;
  reset(a, CUBIC, v, 0.0);
  a->stop_after = 2;
  CHECK_OK(solve(a, nv, 0, &p, NULL, NULL, &res));
  CHECK(res.reason == FEAST_NONLINEAR_INTERRUPTED && res.stop_signal == 15 && res.steps == 2 && !res.converged);
  CHECK(a->steps_seen == 2 && a->done_seen == 2);
  /* the fixed point's rate is about 0.5: stalled over 2 steps when asked to fall below 0.1 */
  p.stall_steps = 2;
  p.stall_factor = 0.1;
  reset(a, CUBIC, v, 0.0);
  CHECK_OK(solve(a, nv, 0, &p, NULL, NULL, &res));
  CHECK(res.reason == FEAST_NONLINEAR_STALLED && res.steps >= 2);
  p.stall_factor = 0.9;
  reset(a, CUBIC, v, 0.0);
  CHECK_OK(solve(a, nv, 0, &p, NULL, NULL, &res));
  CHECK(res.converged);
  /* no descent: Newton's steps whose line search finds no decrease stall after
   * FEAST_NONLINEAR_NO_DESCENT of them where the stall test is on (the defect's window of
   * 6 steps would take longer), the fixed point's by the window, and without the stall
   * test the solve runs to max_steps */
  p.stall_steps = 6;
  p.stall_factor = 1.0;
  p.max_steps = 12;
  const FeastNonlinearMethod methods[2] = {FEAST_NONLINEAR_NEWTON, FEAST_NONLINEAR_FIXED_POINT};
  const int stalled_after[2] = {FEAST_NONLINEAR_NO_DESCENT, 6};
  for (int m = 0; m < 2; m++) {
    p.method = methods[m];
    reset(a, CUBIC, v, 0.0);
    a->ascent = 1;
    CHECK_OK(solve(a, nv, 0, &p, NULL, NULL, &res));
    CHECK(res.reason == FEAST_NONLINEAR_STALLED && res.steps == stalled_after[m]);
    if (feast_test_rank() == 0)
      printf("  no descent, %s: %s after %d steps\n", m ? "fixed point" : "Newton",
             feast_nonlinear_status_name(res.reason), res.steps);
  }
  p.method = FEAST_NONLINEAR_NEWTON;
  p.stall_steps = 0;
  reset(a, CUBIC, v, 0.0);
  a->ascent = 1;
  CHECK_OK(solve(a, nv, 0, &p, NULL, NULL, &res));
  CHECK(res.reason == FEAST_NONLINEAR_MAX_ITERATIONS && res.steps == 12);
  /* linear solves at their cap: stalled after FEAST_NONLINEAR_CAPPED_STEPS steps that
   * reduce the defect by less than 1 %, stall test or not; converged where they progress */
  p.method = FEAST_NONLINEAR_NEWTON;
  p.max_steps = 50;
  reset(a, CUBIC, v, 0.0);
  a->capped = a->crawl = 1;
  CHECK_OK(solve(a, nv, 0, &p, NULL, NULL, &res));
  CHECK(res.reason == FEAST_NONLINEAR_STALLED && res.steps == FEAST_NONLINEAR_CAPPED_STEPS);
  if (feast_test_rank() == 0)
    printf("  linear solves at their cap, no progress: %s after %d steps\n", feast_nonlinear_status_name(res.reason),
           res.steps);
  reset(a, CUBIC, v, 0.0);
  a->capped = 1;
  CHECK_OK(solve(a, nv, 0, &p, NULL, NULL, &res));
  CHECK(res.converged);
}

static int run(void) {
  FeastMesh *mesh = NULL;
  FeastDomain *dom = NULL;
  CHECK_OK(feast_mesh_read("grids/square4x4.feast", NULL, &mesh));
  if (!mesh) return 1;
  CHECK_OK(feast_domain_create(mesh, LEVEL, MPI_COMM_WORLD, &dom));
  if (!dom) return 1;
  Vecs v;
  App a = {0};
  FeastVec **all[] = {&v.x, &v.d, &v.c, &v.x_old, &a.s, &a.J, &a.at};
  for (int i = 0; i < 7; i++) CHECK_OK(feast_vec_create(dom, LEVEL, 1, all[i]));
  const FeastLevel *lev = &dom->levels[LEVEL];
  for (int li = 0; li < dom->nlocal; li++) {
    double *sv = feast_vec_block(a.s, 0, li);
    for (long n = 0; n < (long)a.s->N * a.s->N; n++) sv[n] = coordinate_sum(lev->xy[li][2 * n], lev->xy[li][2 * n + 1]);
  }
  const FeastNonlinearVectors nv = {v.x, v.d, v.c, v.x_old};
  check_rates(&a, &v, &nv);
  check_forcing(&a, &v, &nv);
  check_line_search(&a, &v, &nv);
  check_auto(&a, &v, &nv);
  check_stops(&a, &v, &nv);
  FeastNonlinear *nl = NULL;
  CHECK_FAILS(feast_nonlinear_create(&(FeastNonlinearVectors){v.x, NULL, v.c, v.x_old}, 0, &nl));
  CHECK_FAILS(feast_nonlinear_create(&nv, FEAST_ANDERSON_MAX + 1, &nl));
  feast_nonlinear_destroy(&nl);
  for (int i = 0; i < 7; i++) feast_vec_destroy(all[i]);
  feast_domain_destroy(&dom);
  feast_mesh_destroy(&mesh);
  return 0;
}

FEAST_TEST_MAIN(run)

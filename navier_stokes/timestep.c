/* Time-dependent Navier-Stokes: du/dt + (u.grad) u - nu Laplace u + grad p = f(t),
 * div u = 0, by one-step schemes whose every step (or substep) is the nonlinear problem
 *   mass M u + s + theta [A(u) u - f(t_new)] + (1 - theta) r_old + B p = 0,
 *   continuity rows at t_new (with du/dt in the PSPG residual),
 * du/dt ~ mass u + s = (alpha_0 u + alpha_1 u_n + alpha_2 u_n-1) / dt, solved by the very
 * nonlinear iteration, forms, block preconditioner and ScaRC solvers of the stationary
 * problem (solve.c, forms.c, schur.c): the time terms are folded into the assembly
 * (system.c, ns_form_at) and into the pressure Schur approximation (Cahouet-Chabard).
 *   backward-euler   theta = 1,   alpha = (1, -1, 0)
 *   crank-nicolson   theta = 1/2, alpha = (1, -1, 0)
 *   bdf2             theta = 1,   alpha = ((1+2w)/(1+w), -(1+w), w^2/(1+w)), w = dt/dt_prev
 *                    (variable steps: the shortened last one), the first step backward Euler
 *   fs-theta         three substeps of lengths th k, (1 - 2 th) k, th k (th = 1 - 1/sqrt 2),
 *                    implicit weights a, b, a (a = (1 - 2 th)/(1 - th), b = 1 - a) (Bristeau,
 *                    Glowinski & Periaux 1987; Turek, "Efficient solvers for incompressible
 *                    flow problems", 1999)
 * The pressure is fully implicit (weight 1, a Lagrange multiplier of the step): with
 * crank-nicolson and fs-theta it belongs to the interior of the (sub)step, with
 * backward-euler and bdf2 to its end. The mass matrix is the consistent one (with its
 * SUPG/PSPG weights, forms.h): lumping would cost the phase accuracy the DFG benchmarks
 * measure (the Strouhal number) and break the consistency of the stabilisation.
 * Each step of backward-euler, crank-nicolson and bdf2 starts from the linear
 * extrapolation u_n + (dt / dt_prev) (u_n - u_n-1) of the last two solutions (pressure
 * included; the first step and fs-theta's substeps from the last solution), with the new
 * boundary values: its defect is O(dt^2) instead of O(dt), so a relative nonlinear
 * tolerance gives a solution closer to the step's exact one. r_old = A(u_n) u_n - f(t_n) (momentum rows, no pressure) is assembled once
 * per theta-(sub)step with theta < 1. */
#include "feast/base/error.h"
#include "feast/base/log.h"
#include "feast/base/signals.h"
#include "navier_stokes/ns_private.h"
#include <math.h>
#include <string.h>

/* steps from start to end: (end - start) / dt rounded up, a last step shorter than
 * 1e-9 dt merged into the one before */
static long step_count(double start, double end, double dt) {
  const double n = (end - start) / dt;
  return n < 1.0 ? 1 : (long)ceil(n - 1e-9);
}

long ns_time_step_count(const NsTimeParams *p) { return step_count(p->start, p->end, p->dt); }

double ns_time(const NsProblem *ns) { return ns->time.t; }

/* the expression ctx at the node (x, y) (FeastNodeFn) */
static int expr_at_node(void *ctx, double x, double y, double *value) { return feast_expr_eval(ctx, x, y, value); }

/* v <- (initial.u, initial.v, 0) with the boundary values at `start` */
static int initial_values(NsProblem *ns, double start) {
  feast_vec_zero(ns->iter.v);
  for (int f = 0; f < 2; f++) {
    FeastExpr *e = ns->initial[f];
    FEAST_CHECK(e, FEAST_ERR_ARG, "ns_time_run: a problem made with time.scheme = none");
    feast_expr_set_time(e, start);
    FEAST_CALL(feast_vec_set_nodes(ns->iter.v, NS_U + f, NULL, expr_at_node, e));
  }
  ns_set_time(ns, start);
  return ns_boundary_values(ns, ns->iter.v);
}

/* zero the pressure block of x */
static void zero_pressure(FeastVec *x) {
  FeastVec p;
  feast_vec_view(x, NS_P, &p);
  feast_vec_zero(&p);
}

/* r_old <- A(u1) u1 - f(t_old) in the momentum rows (no pressure term), the stationary
 * residual at the old level (its Dirichlet rows u1 - g(t_old) = 0) */
static int old_residual(NsProblem *ns, double t_old) {
  ns->time.on = 0;
  ns_set_time(ns, t_old);
  FEAST_CALL(ns_system_assemble(ns, ns->time.u1));
  feast_vec_copy(ns->time.u1, ns->iter.correction);
  zero_pressure(ns->iter.correction);
  FEAST_CALL(ns_system_apply(ns, ns->iter.correction, ns->time.r_old));
  feast_vec_axpy(-1.0, ns->sys.rhs, ns->time.r_old);
  zero_pressure(ns->time.r_old);
  return 0;
}

/* the counts of one time step, summed over its substeps */
typedef struct {
  int nonlinear;
  long linear;
  int capped;    /* linear solves stopped at their cap */
  NsResult last; /* of the last nonlinear solve */
} StepCounts;

/* one (sub)step from t_old (solution u1, and u2 one step before) of length dt:
 * du/dt ~ (alpha[0] u + alpha[1] u1 + alpha[2] u2) / dt, implicit weight theta, from
 * u1 + extrapolate (u1 - u2) (ns->iter.v = u1 on entry); *ok = 0 when its nonlinear solve did
 * not converge */
static int substep(NsProblem *ns, double t_old, double dt, double theta, const double alpha[3], double extrapolate,
                   StepCounts *c, int *ok) {
  if (theta < 1.0) FEAST_CALL(old_residual(ns, t_old));
  /* s = (alpha_1 u1 + alpha_2 u2) / dt */
  feast_vec_zero(ns->time.s);
  feast_vec_axpy(alpha[1] / dt, ns->time.u1, ns->time.s);
  if (alpha[2] != 0.0) feast_vec_axpy(alpha[2] / dt, ns->time.u2, ns->time.s);
  zero_pressure(ns->time.s);
  ns->time.on = 1;
  ns->time.t = t_old + dt;
  ns->time.theta = theta;
  ns->time.explicit_weight = 1.0 - theta;
  ns->time.mass = alpha[0] / dt;
  ns_set_time(ns, ns->time.t);
  if (extrapolate != 0.0) { /* v = u1 + extrapolate (u1 - u2) */
    feast_vec_axpy(extrapolate, ns->time.u1, ns->iter.v);
    feast_vec_axpy(-extrapolate, ns->time.u2, ns->iter.v);
  }
  FEAST_CALL(ns_boundary_values(ns, ns->iter.v)); /* the new boundary values */
  FEAST_CALL(ns_solve_step(ns, &c->last));
  c->nonlinear += c->last.nonlinear_iterations;
  c->linear += c->last.linear_iterations;
  c->capped += c->last.linear_capped;
  *ok = c->last.converged;
  return 0;
}

/* fs-theta's three substeps from u_n = u1 (kept in u2, which the scheme does not use
 * otherwise: the state to go back to when a substep fails) */
static int fs_theta_step(NsProblem *ns, double t, double dt, StepCounts *c, int *ok) {
  static const double one_step[3] = {1.0, -1.0, 0.0};
  const double th = 1.0 - sqrt(0.5), a = (1.0 - 2.0 * th) / (1.0 - th), b = 1.0 - a;
  const double len[3] = {th * dt, (1.0 - 2.0 * th) * dt, th * dt}, weight[3] = {a, b, a};
  feast_vec_copy(ns->time.u1, ns->time.u2);
  double ts = t;
  for (int k = 0; k < 3; k++) {
    if (k) feast_vec_copy(ns->iter.v, ns->time.u1);
    FEAST_CALL(substep(ns, ts, len[k], weight[k], one_step, 0.0, c, ok));
    if (!*ok) {
      feast_vec_copy(ns->time.u2, ns->time.u1);
      return 0;
    }
    ts = k == 2 ? t + dt : ts + len[k];
  }
  return 0;
}

/* one time step of the scheme from t to t + dt (dt_prev: the step before, 0 at the first);
 * on entry ns->iter.v is the solution at t; *ok = 0: a nonlinear solve failed, and u1 holds
 * the solution at t */
static int time_step(NsProblem *ns, NsTimeScheme scheme, double t, double dt, double dt_prev, StepCounts *c, int *ok) {
  static const double one_step[3] = {1.0, -1.0, 0.0};
  memset(c, 0, sizeof *c);
  feast_vec_copy(ns->time.u1, ns->time.u2); /* u_n-1 */
  feast_vec_copy(ns->iter.v, ns->time.u1);       /* u_n */
  const double w = dt_prev > 0.0 ? dt / dt_prev : 0.0; /* extrapolation from the step before */
  switch (scheme) {
  case NS_TIME_BACKWARD_EULER: return substep(ns, t, dt, 1.0, one_step, w, c, ok);
  case NS_TIME_CRANK_NICOLSON: return substep(ns, t, dt, 0.5, one_step, w, c, ok);
  case NS_TIME_BDF2: {
    if (dt_prev <= 0.0) return substep(ns, t, dt, 1.0, one_step, 0.0, c, ok);
    const double alpha[3] = {(1.0 + 2.0 * w) / (1.0 + w), -(1.0 + w), w * w / (1.0 + w)};
    return substep(ns, t, dt, 1.0, alpha, w, c, ok);
  }
  case NS_TIME_FS_THETA: return fs_theta_step(ns, t, dt, c, ok);
  default: FEAST_ERROR(FEAST_ERR_ARG, "ns_time_run: time.scheme none is the stationary problem (ns_solve)");
  }
}

/* the start at p->start: initial.u / v, or the stationary solution from there. The
 * stationary solution is that of the stationary problem, with its tau (no time-step term):
 * with the steps' tau the stationary problem is less stabilised, and its linear solves
 * stall (DFG 2D-2 at L4, dt = 0.01 or 0.02: FGMRES flat at a relative defect of 0.29 for 100
 * iterations in every nonlinear step; dt = 0.05 and L3 still converge), while the
 * steps' mass term makes theirs easy. The steps then start with a jump of the
 * discretisation (2D-2 at L3: c_D 3.045 at t = 0, 3.243 and 2.955 after the first two
 * steps), part of the start-up transient: output.series_from leaves it out of the
 * summary's quantities. */
static int initial_state(NsProblem *ns, const NsTimeParams *p) {
  ns->time.on = 0;
  ns->time.t = p->start;
  FEAST_CALL(initial_values(ns, p->start));
  if (!p->initial_stationary) return 0;
  feast_log(1, "  initial state: the stationary solution at t = %g\n", p->start);
  NsResult r;
  const double rate = ns->time.tau_rate;
  ns->time.tau_rate = 0.0;
  int st = ns_solve_step(ns, &r);
  ns->time.tau_rate = rate;
  FEAST_CALL(st);
  FEAST_CHECK(r.converged, FEAST_ERR_NOT_CONVERGED,
              "initial.stationary = true: the stationary solve at t = %g did not converge (reason '%s' after %d "
              "steps, residual %.3e, initial %.3e); start from initial.u / v instead (initial.stationary = false)",
              p->start, ns_status_name(r.reason), r.nonlinear_iterations, r.final_residual, r.initial_residual);
  feast_log(1, "  stationary start: %d nonlinear steps, %ld linear iterations\n", r.nonlinear_iterations,
            r.linear_iterations);
  return 0;
}

/* a step's nonlinear solve failed: the last good state back (u1: the solution at t) */
static void step_failed(NsProblem *ns, long k, double t, double t1, const NsResult *last, NsTimeResult *res) {
  feast_vec_copy(ns->time.u1, ns->iter.v);
  ns->time.t = t;
  res->converged = 0;
  res->reason = NS_TIME_STEP_FAILED;
  res->nonlinear_reason = last->reason;
  feast_log(1, "  time step %ld (t = %.6g -> %.6g) failed: nonlinear solver '%s' (residual %.3e, initial %.3e); "
               "the solution at t = %.6g is kept\n",
            k, t, t1, ns_status_name(last->reason), last->final_residual, last->initial_residual, t);
}

/* after step k: a checkpoint every checkpoint_interval steps; a stop signal on any rank
 * (collective, in *signal_number) writes one too */
static int after_step(NsProblem *ns, const NsTimeParams *p, long k, int *signal_number) {
  FEAST_CALL(feast_signals_agree(ns->dom->comm, signal_number));
  if (p->checkpoint[0] && ((p->checkpoint_interval > 0 && k % p->checkpoint_interval == 0) || *signal_number))
    FEAST_CALL(ns_time_checkpoint_write(ns, p->checkpoint));
  return 0;
}

const char *ns_time_status_name(NsTimeStatus s) {
  static const char *const names[] = {[NS_TIME_CONVERGED] = "converged", [NS_TIME_STEP_FAILED] = "step_failed",
                                      [NS_TIME_INTERRUPTED] = "interrupted"};
  return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "?";
}

int ns_time_run(NsProblem *ns, const NsTimeParams *p, NsStepMonitor monitor, void *ctx, NsTimeResult *res) {
  memset(res, 0, sizeof *res);
  res->reason = NS_TIME_CONVERGED;
  res->converged = 1;
  FEAST_CHECK(p->dt > 0.0 && p->end > p->start, FEAST_ERR_ARG, "ns_time_run: dt = %g, [start, end] = [%g, %g]", p->dt,
              p->start, p->end);
  FEAST_CALL(ns_time_state_create(ns));
  ns->time.tau_rate = p->tau_dt ? 1.0 / p->dt : 0.0; /* one tau for every step and r_old */
  NsTimeTerms *tt = &ns->time;
  if (!tt->restored) { /* a fresh run; else ns_time_restore set the state after step tt->step */
    FEAST_CALL(initial_state(ns, p));
    tt->step = 0, tt->dt_prev = 0.0, tt->nonlinear_iterations = tt->linear_iterations = tt->linear_capped = 0;
  }
  tt->on = 0;
  tt->restored = 0; /* consumed: a later ns_time_run starts afresh */
  res->t = tt->t;
  res->steps = tt->step;
  res->nonlinear_iterations = tt->nonlinear_iterations;
  res->linear_iterations = tt->linear_iterations;
  res->linear_capped = tt->linear_capped;
  long solves, cycles;
  ns_scarc_totals(ns, &res->velocity_vcycles, &solves, &cycles);
  const long n = step_count(p->start, p->end, p->dt);
  FEAST_CHECK(tt->step <= n, FEAST_ERR_ARG, "ns_time_run: restored after step %ld of %ld", tt->step, n);
  double t = tt->t, dt_prev = tt->dt_prev;
  for (long k = tt->step + 1; k <= n; k++) {
    const double t1 = k == n ? p->end : p->start + (double)k * p->dt, dt = t1 - t, w0 = feast_wtime();
    const double ass0 = feast_timer_total(FEAST_T_ASSEMBLY), loc0 = feast_timer_total(FEAST_T_LOCAL_MG);
    StepCounts c;
    int ok;
    FEAST_CALL(time_step(ns, p->scheme, t, dt, dt_prev, &c, &ok));
    res->nonlinear_iterations += c.nonlinear;
    res->linear_iterations += c.linear;
    res->linear_capped += c.capped;
    res->velocity_vcycles = c.last.velocity_vcycles;
    if (!ok) {
      step_failed(ns, k, t, t1, &c.last, res);
      return 0;
    }
    ns->time.t = t1;
    res->steps = k;
    res->t = t1;
    tt->step = k, tt->dt_prev = dt;
    tt->nonlinear_iterations = res->nonlinear_iterations, tt->linear_iterations = res->linear_iterations;
    tt->linear_capped = res->linear_capped;
    const NsStepInfo info = {.step = k, .steps = n, .t = t1, .dt = dt, .nonlinear_steps = c.nonlinear,
                             .linear_iterations = c.linear, .seconds = feast_wtime() - w0,
                             .assembly_seconds = feast_timer_total(FEAST_T_ASSEMBLY) - ass0,
                             .local_seconds = feast_timer_total(FEAST_T_LOCAL_MG) - loc0,
                             .linear_capped = c.capped};
    if (monitor) FEAST_CALL(monitor(ctx, ns, &info));
    int signal_number;
    FEAST_CALL(after_step(ns, p, k, &signal_number));
    if (signal_number && k < n) {
      res->converged = 0;
      res->reason = NS_TIME_INTERRUPTED;
      res->stop_signal = signal_number;
      return 0;
    }
    t = t1;
    dt_prev = dt;
  }
  return 0;
}

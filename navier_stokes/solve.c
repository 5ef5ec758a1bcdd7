/* The Navier-Stokes side of the nonlinear iteration: the callbacks of the generic solver
 * (solvers/nonlinear.h: the defect and assembly, the linear solve of each step, the
 * linearisation switch, the preconditioner's refresh, the stopping test's reference and
 * update size, and the monitor: progress lines, checkpoints, stop signals), the entry
 * points that run it, and the problem's result. */
#include "feast/base/error.h"
#include "feast/base/log.h"
#include "feast/base/signals.h"
#include "navier_stokes/ns_private.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* GROW_MAX: the most linear iterations per step that a stalled FGMRES is given */
enum { GROW_MAX = NS_LINEAR_GROW_MAX };
_Static_assert((int)NS_ANDERSON_MAX <= (int)FEAST_ANDERSON_MAX, "nonlinear.anderson_depth beyond the Anderson history");

/* one solve: the generic solver's parameters and what the callbacks need besides the problem */
typedef struct {
  NsProblem *ns;
  FeastNonlinearParams nl;
  FeastSolveParams linear;
  FeastKrylovMethod krylov;
  char checkpoint[4096]; /* output.checkpoint, "" = none */
  long checkpoint_interval;
  int random_start; /* solver.initial_guess = random: the linear solves start from a hash */
  int grow;         /* fgmres with linear.restart and linear.max_iterations unset: grow them at the cap */
  int inner;        /* one time step: no checkpoints, no signals, progress at verbosity 2 */
  int rhs_reference; /* time steps with nonlinear.step_reference = rhs (stop_reference) */
  int update_test;   /* time steps with nonlinear.step_reference = update (relative_update) */
} Solve;

static void nonlinear_params(NsProblem *ns, Solve *p) {
  const NsNonlinearParams *n = &ns->params.nonlinear;
  const NsLinearParams *l = &ns->params.linear;
  memset(p, 0, sizeof *p);
  p->ns = ns;
  feast_nonlinear_params_defaults(&p->nl);
  p->nl.method = ns->newton_auto ? FEAST_NONLINEAR_AUTO : ns->newton ? FEAST_NONLINEAR_NEWTON : FEAST_NONLINEAR_FIXED_POINT;
  p->nl.rtol = n->rtol;
  p->nl.damping = n->damping;
  p->nl.divergence = n->divergence_factor;
  p->nl.max_steps = n->max_iterations;
  p->nl.line_search = n->line_search == NS_LINE_SEARCH_BACKTRACKING;
  p->nl.linear_rtol = l->rtol;
  p->nl.forcing = l->forcing == NS_FORCING_EISENSTAT_WALKER;
  /* nonlinear.method = auto: Newton from r <= newton_switch r0 */
  p->nl.newton_switch = ns->newton_auto && ns->defaults.newton ? n->newton_switch : -1.0;
  p->krylov = ns_krylov_choice(&ns->params, ns->stokes);
  p->random_start = n->initial_guess == NS_START_RANDOM;
  p->linear.rtol = l->rtol;
  p->linear.max_iterations = ns->defaults.linear_max_iterations;
  p->linear.divergence_factor = p->nl.divergence;
  p->linear.monitor = feast_log_verbosity() >= 2;
  p->linear.label = "linear";
  p->linear.replace_every = l->residual_replacement;
  p->linear.restart = ns->defaults.linear_restart;
  p->linear.single_basis = l->single_basis;
  p->linear.replace_drop = l->residual_replacement_drop;
  p->grow = p->krylov == FEAST_KRYLOV_FGMRES && ns->defaults.grow;
  snprintf(p->checkpoint, sizeof p->checkpoint, "%s", n->checkpoint);
  p->checkpoint_interval = n->checkpoint_interval;
  const int time_step = ns->time.on && !ns->time.pseudo;
  p->rhs_reference = time_step && n->step_reference == NS_STEP_REFERENCE_RHS;
  p->update_test = time_step && n->step_reference == NS_STEP_REFERENCE_UPDATE;
}

/* the saddle-point operator (Newton's: the Jacobian) on the complement of the pressure null space */
static int apply_system(void *ctx, const FeastVec *x, FeastVec *y) {
  NsProblem *ns = ctx;
  FEAST_CALL(ns_jacobian_apply(ns, x, y));
  return ns_project_residual(ns, y);
}

/* d <- h - K x, and its norm */
static int defect(NsProblem *ns, const FeastVec *x, FeastVec *d, double *norm) {
  FEAST_CALL(ns_system_apply(ns, x, d));
  feast_vec_aypx(-1.0, ns->sys.rhs, d);
  FEAST_CALL(ns_project_residual(ns, d));
  return feast_vec_norm(d, norm);
}

/* the defect norm at x: assembled (the system at x and its defect in d, what the next step
 * needs), or (assemble = 0) by the residual evaluation alone, which writes d only (a trial
 * that may be rejected: no blocks assembled for nothing; ns_system_residual: *norm and d
 * are those of an assembled trial up to rounding) */
static int residual(void *ctx, const FeastVec *x, int assemble, FeastVec *d, double *norm) {
  NsProblem *ns = ((Solve *)ctx)->ns;
  if (assemble) {
    FEAST_CALL(ns_system_assemble(ns, x));
    return defect(ns, x, d, norm);
  }
  FEAST_CALL(ns_system_residual(ns, x, x, d));
  return feast_vec_norm(d, norm);
}

/* a linear solve stopped at its cap gives no descent direction and the fixed point stalls
 * (the cavity at Re = 3200: 160-195 unrestarted FGMRES iterations per step): with the two
 * keys at their defaults, double both for the steps that follow, up to GROW_MAX
 * iterations (2 GROW_MAX / 2 + 1 basis vectors) */
static void grow_at_cap(Solve *p, const FeastSolveResult *lin) {
  if (!p->grow || p->inner || lin->converged || lin->reason != FEAST_SOLVE_MAX_ITERATIONS ||
      p->linear.max_iterations >= GROW_MAX)
    return;
  p->linear.max_iterations = 2 * p->linear.max_iterations < GROW_MAX ? 2 * p->linear.max_iterations : GROW_MAX;
  p->linear.restart = p->linear.max_iterations / 2 > p->linear.restart ? p->linear.max_iterations / 2 : p->linear.restart;
  feast_log(1, "  the linear solve stopped at its cap: linear.max_iterations = %d, linear.restart = %d from now on\n",
            p->linear.max_iterations, p->linear.restart);
}

/* c <- approx K^-1 d: the Krylov method right-preconditioned by K_s, from zero or (random
 * start) from the coordinate hash, zero at Dirichlet nodes; from a random start the
 * tolerance is relative to the defect, the residual of c = 0. at_limit: stopped at the
 * largest cap (GROW_MAX where the cap grows, else linear.max_iterations) */
static int linear_solve(void *ctx, const FeastVec *d, FeastVec *c, FeastNonlinearLinearSolve *s) {
  Solve *p = ctx;
  NsProblem *ns = p->ns;
  FeastSolveResult *res = &s->result;
  p->linear.rtol = s->rtol;
  if (p->random_start) {
    p->linear.reference_norm = s->defect_norm;
    feast_vec_fill_hash(c);
    for (int f = 0; f < NS_NFIELDS; f++) feast_vec_zero_fixed(c, f, ns->sys.mask[f]);
  } else {
    feast_vec_zero(c);
  }
  feast_timer_start(FEAST_T_LINEAR);
  int st = ns->iter.krylov_work ? 0 : feast_krylov_work_create(d, &ns->iter.krylov_work);
  if (!st) st = feast_krylov_solve(p->krylov, (FeastLinOp){apply_system, ns}, ns->prec.op, d, c, &p->linear, ns->iter.krylov_work, res);
  feast_timer_stop(FEAST_T_LINEAR);
  if (!st) st = ns_project_solution(ns, c);
  FEAST_CALL(st);
  s->at_limit = res->reason == FEAST_SOLVE_MAX_ITERATIONS && (!p->grow || res->iterations >= GROW_MAX);
  grow_at_cap(p, res);
  if (!p->inner) ns_schur_direct_switch(ns, res->iterations); /* not within a time or pseudo-time step */
  return 0;
}

/* the linearisation of the assembly (and K_s). nonlinear.method = auto's switch to Newton:
 * where the cap grows (p->grow), Newton's solves start at the grown cap: they need 3-4x the
 * fixed point's iterations (the cavity at Re = 1000: 133-174 against 35-54), and one
 * stopped at a smaller cap costs a Newton step (L = 5: 13 steps instead of 12) */
static int set_newton(void *ctx, int on) {
  Solve *p = ctx;
  p->ns->newton = on;
  if (!on || !p->grow || p->inner || p->linear.max_iterations >= GROW_MAX) return 0;
  p->linear.max_iterations = GROW_MAX;
  if (p->linear.restart < GROW_MAX / 2) p->linear.restart = GROW_MAX / 2;
  feast_log(1, "  Newton's linear solves: linear.max_iterations = %d, linear.restart = %d from now on\n",
            p->linear.max_iterations, p->linear.restart);
  return 0;
}

/* the velocity blocks of the last assembly to ScaRC, the Schur approximation refreshed */
static int update_preconditioner(void *ctx) { return ns_schur_update(((Solve *)ctx)->ns); }

/* the reference of the relative stopping test: the first defect r0, and in a time step
 * (rhs_reference) at least ||h_free||, h_free the step's right-hand side without its
 * Dirichlet rows (~ M u_n / dt + f): the step's first defect after the extrapolated start
 * is O(dt^2) and tiny near a periodic or steady state, so relative to it alone every step
 * takes 5-8 nonlinear steps; relative to ||h_free|| the defect bounds the change
 * dt M^-1 r of u relative to u (docs/notes/time-dependent.md, 2026-11-26). ns->iter.scratch is
 * free here (the preconditioner's work vector). */
static int stop_reference(void *ctx, double r0, double *ref) {
  const Solve *p = ctx;
  NsProblem *ns = p->ns;
  *ref = r0;
  if (!p->rhs_reference) return 0;
  double h;
  feast_vec_copy(ns->sys.rhs, ns->iter.scratch);
  for (int f = 0; f < NS_NFIELDS; f++) feast_vec_zero_fixed(ns->iter.scratch, f, ns->sys.mask[f]);
  FEAST_CALL(ns_project_residual(ns, ns->iter.scratch));
  FEAST_CALL(feast_vec_norm(ns->iter.scratch, &h));
  if (h > *ref) *ref = h;
  return 0;
}

/* ||x|| of the velocity blocks u, v */
static int velocity_norm(const FeastVec *x, double *norm) {
  double sum = 0.0, b;
  for (int f = NS_U; f <= NS_V; f++) {
    FeastVec view;
    feast_vec_view(x, f, &view);
    FEAST_CALL(feast_vec_norm(&view, &b));
    sum += b * b;
  }
  *norm = sqrt(sum);
  return 0;
}

/* *change <- ||lambda c|| / ||v|| in the velocity (update_test; else INFINITY) */
static int relative_update(void *ctx, const FeastVec *v, const FeastVec *c, double lambda, double *change) {
  const Solve *p = ctx;
  double cn, vn;
  *change = INFINITY;
  if (!p->update_test) return 0;
  FEAST_CALL(velocity_norm(c, &cn));
  FEAST_CALL(velocity_norm(v, &vn));
  if (vn > 0.0) *change = fabs(lambda) * cn / vn;
  return 0;
}

static void progress(const Solve *p, int step, double r, const FeastNonlinearResult *res, int linear_its, double lambda,
                     double seconds) {
  char step_length[32] = "";
  if (step > 0 && lambda != 1.0) snprintf(step_length, sizeof step_length, "  step length %.4g", lambda);
  feast_log(p->inner ? 2 : 1, "  %sstep %3d  nonlinear residual %.6e  rel %.3e  linear its %3d%s  %.3f s\n",
            p->inner ? "  " : "", step, r,
            res->initial_residual > 0 ? r / res->initial_residual : 0.0, linear_its, step_length, seconds);
}

/* after each step: a checkpoint every checkpoint_interval steps; a stop signal on any
 * rank (collective) writes one too and ends the iteration as "interrupted" (*stop) */
static int after_step(const Solve *p, const FeastNonlinearInfo *in, int *stop) {
  if (p->inner) return 0; /* the time stepper checkpoints and takes signals between time steps */
  NsProblem *ns = p->ns;
  const FeastNonlinearResult *res = in->result;
  const int steps = in->step;
  int signal_number;
  FEAST_CALL(feast_signals_agree(ns->dom->comm, &signal_number));
  if (p->checkpoint[0] && (steps % p->checkpoint_interval == 0 || signal_number)) {
    /* the reference of the stopping test (the first defect but in continuation's last stage,
     * whose reference is the direct attempt's first defect: a restart keeps its test) */
    NsState s = {steps, in->reference, in->residual, in->lambda, res->linear_iterations, 0, 0, 0,
                 res->linear_per_step, res->linear_capped};
    ns_scarc_totals(ns, &s.vcycles, &s.local_solves, &s.local_cycles);
    FEAST_CALL(ns_checkpoint_write(ns, &s, p->checkpoint));
  }
  if (signal_number) progress(p, steps, in->residual, res, (int)res->linear_per_step[steps - 1], in->lambda, 0.0);
  *stop = signal_number;
  return 0;
}

/* the progress line of each step, the messages of nonlinear.method = auto's switches, and
 * after_step */
static int monitor(void *ctx, FeastNonlinearEvent event, const FeastNonlinearInfo *in, int *stop) {
  const Solve *p = ctx;
  const FeastNonlinearResult *res = in->result;
  const int v = p->inner ? 2 : 1, step = in->step;
  const char *indent = p->inner ? "  " : "";
  switch (event) {
  case FEAST_NONLINEAR_STEP:
    progress(p, step, in->residual, res, step ? (int)res->linear_per_step[step - 1] : 0, in->lambda, in->seconds);
    return 0;
  case FEAST_NONLINEAR_NEWTON_ON:
    if (isinf(p->nl.newton_switch))
      feast_log(v, "  %sNewton from step %d on (the start is a coarser level's solution)\n", indent, step);
    else
      feast_log(v, "  %sNewton from step %d on (relative defect %.3e <= nonlinear.newton_switch = %g)\n", indent, step,
                in->residual / res->initial_residual, p->nl.newton_switch);
    return 0;
  case FEAST_NONLINEAR_NEWTON_OFF:
    /* Newton's linear systems are beyond the preconditioner, the fixed point's are not (the
     * cavity at Re = 3200, L = 4: every Newton solve at 400 iterations and the defect stuck
     * at 2e-4 of the first, where the fixed point's solves need 170-195) */
    feast_log(v, "  %sthe fixed point again from step %d on: %d Newton solves in a row stopped at linear.max_iterations = %d\n",
              indent, step + 1, FEAST_NONLINEAR_NEWTON_CAPPED, p->linear.max_iterations);
    return 0;
  case FEAST_NONLINEAR_STEP_DONE:
    return after_step(p, in, stop);
  }
  return 0;
}

static const FeastNonlinearOps ns_nonlinear_ops = {residual, linear_solve, set_newton, update_preconditioner,
                                                   stop_reference, relative_update, monitor};

static NsStatus status_of(FeastNonlinearStatus s) {
  static const NsStatus map[] = {[FEAST_NONLINEAR_CONVERGED] = NS_CONVERGED,
                                 [FEAST_NONLINEAR_MAX_ITERATIONS] = NS_MAX_ITERATIONS,
                                 [FEAST_NONLINEAR_DIVERGED] = NS_DIVERGED,
                                 [FEAST_NONLINEAR_NAN] = NS_NAN,
                                 [FEAST_NONLINEAR_LINEAR_DIVERGED] = NS_LINEAR_DIVERGED,
                                 [FEAST_NONLINEAR_INTERRUPTED] = NS_INTERRUPTED,
                                 [FEAST_NONLINEAR_STALLED] = NS_STALLED};
  return map[s];
}

static int solve(NsProblem *ns, NsResult *res, int inner, const NsAttempt *a) {
  Solve p;
  nonlinear_params(ns, &p);
  p.inner = inner;
  if (a) {
    p.nl.rtol = a->rtol;
    if (a->max_steps > 0) p.nl.max_steps = a->max_steps;
    if (!a->checkpoints) p.checkpoint[0] = 0;
    p.nl.reference = a->reference;
    p.nl.stall_steps = a->stall_steps;
    p.nl.stall_factor = a->stall_factor;
  }
  if (ns->newton_auto && a && a->newton_switch > 0.0) p.nl.newton_switch = a->newton_switch;
  FeastNonlinear *nl = ns->iter.nonlinear;
  feast_nonlinear_set_params(nl, &p.nl);
  feast_nonlinear_set_ops(nl, &ns_nonlinear_ops, &p);
  /* the state of ns_restore, Anderson's history included */
  const NsState *s = &ns->iter.resume;
  const FeastNonlinearState from = {s->steps, s->initial_residual, s->residual, s->lambda,
                                    s->linear_iterations, s->linear_per_step, s->linear_capped};
  FeastNonlinearResult r = {0};
  memset(res, 0, sizeof *res);
  const int st = feast_nonlinear_solve(nl, ns->iter.restored && !inner ? &from : NULL, &r);
  res->converged = r.converged;
  res->reason = status_of(r.reason);
  res->nonlinear_iterations = r.steps;
  res->linear_per_step = r.linear_per_step;
  res->linear_iterations = r.linear_iterations;
  res->reductions_per_iteration = r.reductions_per_iteration;
  res->exchanges_per_iteration = r.exchanges_per_iteration;
  res->initial_residual = r.initial_residual;
  res->final_residual = r.final_residual;
  res->stop_signal = r.stop_signal;
  res->linear_capped = r.linear_capped;
  res->newton_given_up = r.newton_given_up;
  FEAST_CALL(st); /* res: the counters up to the error */
  long solves, cycles;
  ns_scarc_totals(ns, &res->velocity_vcycles, &solves, &cycles);
  res->local_cycles_per_solve = solves ? (double)cycles / solves : 0.0;
  return 0;
}

const char *ns_status_name(NsStatus s) {
  static const char *const names[] = {[NS_CONVERGED] = "converged", [NS_MAX_ITERATIONS] = "max_iterations",
                                      [NS_DIVERGED] = "diverged", [NS_NAN] = "nan",
                                      [NS_LINEAR_DIVERGED] = "linear_diverged", [NS_INTERRUPTED] = "interrupted",
                                      [NS_STALLED] = "stalled", [NS_STAGES_EXHAUSTED] = "stages_exhausted"};
  return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "?";
}

int ns_solve_attempt(NsProblem *ns, const NsAttempt *a, NsResult *res) { return solve(ns, res, 0, a); }
int ns_solve_step(NsProblem *ns, NsResult *res) { return solve(ns, res, 1, NULL); }
int ns_solve_inner_attempt(NsProblem *ns, const NsAttempt *a, NsResult *res) { return solve(ns, res, 1, a); }
/* the largest Re at which a continuation stage converged (0: none) */
static double stages_reached_re(const NsResult *res) {
  double re = 0.0;
  for (int k = 0; k < res->continuation_stages; k++)
    if (res->continuation_reason[k] == NS_CONVERGED && res->continuation_re[k] > re) re = res->continuation_re[k];
  return re;
}

/* the likely cause of a run that stopped without converging, and the key to try first */
void ns_failure_hint(const NsProblem *ns, const NsResult *res, char *buf, size_t size) {
  const NsDefaults *d = &ns->defaults;
  const int fgmres = d->krylov == FEAST_KRYLOV_FGMRES, steps = res->nonlinear_iterations;
  long cap = d->linear_max_iterations, restart = d->linear_restart;
  if (fgmres && d->grow) {
    int grown = 0; /* solve() doubled them at the cap (up to GROW_MAX) */
    for (int k = 0; k < steps; k++) grown |= res->linear_per_step[k] > cap;
    if (grown) cap = GROW_MAX, restart = GROW_MAX / 2;
  }
  /* the linear solves of the last steps ran into their cap */
  int capped = 0;
  for (int k = steps > 3 ? steps - 3 : 0; k < steps; k++) capped += res->linear_per_step[k] >= cap;
  const double rel = res->initial_residual > 0 ? res->final_residual / res->initial_residual : 1.0;
  buf[0] = 0;
  if (res->converged || res->stop_signal) return;
  if (res->reason == NS_STAGES_EXHAUSTED)
    snprintf(buf, size, "the continuation stages reached Re = %.6g of %.6g: try %s%d)", stages_reached_re(res),
             ns->params.physics.re,
             res->continuation_stages < NS_MAX_STAGES ? "more continuation.max_stages (at most "
                                                      : "a finer grid.level (the stages are at their most, ",
             NS_MAX_STAGES);
  else if (res->reason == NS_MAX_ITERATIONS && rel < 1e-3 && !capped)
    snprintf(buf, size, "the defect was still falling (%.1e of the start): try more steps, "
             "nonlinear.max_iterations", rel);
  else if (!ns->stokes && !fgmres)
    snprintf(buf, size, "the linear solves (linear.krylov = %s) %s: try linear.krylov = fgmres", feast_krylov_method_name(d->krylov),
             capped ? "ran into linear.max_iterations" : "broke down or stalled");
  else if (!ns->stokes && !d->pcd && d->pcd_applicable)
    snprintf(buf, size, "the mass Schur approximation is poor at U D / nu = %.3g: try linear.schur = pcd",
             d->re_domain);
  else if (!ns->stokes && !d->upwind && (capped || res->reason == NS_LINEAR_DIVERGED ||
                                          res->reason == NS_NAN))
    snprintf(buf, size, "the velocity multigrid stalls on convection-dominated coarse levels (coarse-mesh Peclet "
             "number %.3g): try solver.coarse_stabilisation = upwind", d->peclet);
  else if (capped && fgmres)
    snprintf(buf, size, "the linear solves ran into their cap (linear.max_iterations = %ld, FGMRES restarted every "
             "%ld iterations): try linear.restart = %ld linear.max_iterations = %ld (memory: 2 restart + 1 vectors)",
             cap, restart, 2 * (restart > cap ? restart : cap), 4 * cap);
  else if (capped)
    snprintf(buf, size, "the linear solves ran into their cap: try linear.max_iterations = %ld", 4 * cap);
  else if (!ns->stokes && (res->reason == NS_DIVERGED || res->reason == NS_MAX_ITERATIONS || res->reason == NS_STALLED))
    snprintf(buf, size, "the nonlinear iteration %s from this start (U D / nu = %.3g): try %s"
             "nonlinear.damping = 0.5, nonlinear.max_iterations, or a finer grid.level",
             res->reason == NS_DIVERGED ? "diverges" : res->reason == NS_STALLED ? "stalls" : "does not settle",
             d->re_domain,
             ns->params.continuation.method == NS_CONTINUATION_OFF ? "continuation.method = auto, "
             : res->continuation_stages ? "more continuation.max_stages, " : "");
  else if (res->reason == NS_NAN)
    snprintf(buf, size, "a NaN in the solution or preconditioner: try solver.local_precision = double");
}

/* acc += the counters of attempt r (its per-step iterations appended) */
void ns_result_add_counters(NsResult *acc, const NsResult *r) {
  const double w0 = (double)acc->linear_iterations, w1 = (double)r->linear_iterations;
  if (w0 + w1 > 0) {
    acc->reductions_per_iteration = (acc->reductions_per_iteration * w0 + r->reductions_per_iteration * w1) / (w0 + w1);
    acc->exchanges_per_iteration = (acc->exchanges_per_iteration * w0 + r->exchanges_per_iteration * w1) / (w0 + w1);
  }
  acc->nonlinear_iterations += r->nonlinear_iterations;
  acc->linear_iterations += r->linear_iterations;
  acc->linear_capped += r->linear_capped;
  acc->newton_given_up += r->newton_given_up;
}

int ns_result_accumulate(NsProblem *ns, NsResult *acc, const NsResult *r) {
  const int n = acc->nonlinear_iterations + r->nonlinear_iterations;
  double *per = realloc(ns->iter.continuation_per_step, (size_t)(n > 0 ? n : 1) * sizeof *per);
  FEAST_CHECK(per, FEAST_ERR_MEM, "continuation: out of memory");
  ns->iter.continuation_per_step = per;
  memcpy(per + acc->nonlinear_iterations, r->linear_per_step, (size_t)r->nonlinear_iterations * sizeof *per);
  ns_result_add_counters(acc, r);
  acc->linear_per_step = per;
  /* the ScaRC counters are cumulative over the problem's life: the last attempt's are all */
  acc->velocity_vcycles = r->velocity_vcycles;
  acc->local_cycles_per_solve = r->local_cycles_per_solve;
  acc->converged = r->converged;
  acc->reason = r->reason;
  acc->final_residual = r->final_residual;
  acc->stop_signal = r->stop_signal;
  return 0;
}

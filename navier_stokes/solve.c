/* The nonlinear iteration (fixed-point defect correction or Newton) and the linear solve
 * of each step, and the problem's life cycle. */
#include "feast/base/error.h"
#include "feast/base/log.h"
#include "feast/base/signals.h"
#include "navier_stokes/ns_private.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* MAX_HALVINGS: of the backtracking line search (the step length goes down to 1/64);
 * GROW_MAX: the most linear iterations per step that a stalled FGMRES is given */
enum { MAX_HALVINGS = 6, GROW_MAX = NS_LINEAR_GROW_MAX };
/* auto: the Newton solves in a row at the largest cap after which the fixed point takes over */
enum { NEWTON_CAPPED = 2 };
/* nonlinear.linear_forcing = eisenstat-walker: choice 2 of Eisenstat & Walker, "Choosing the
 * forcing terms in an inexact Newton method" (SIAM J. Sci. Comput. 17, 1996) */
#define EW_GAMMA 0.9
#define EW_ALPHA 2.0
#define EW_ETA_MAX 0.9
#define EW_SAFEGUARD 0.1 /* the last eta's bound gamma eta^alpha applies above this */

typedef struct {
  double rtol, damping, divergence;
  int max_steps, line_search;
  FeastSolveParams linear;
  FeastKrylovMethod krylov;
  char checkpoint[4096]; /* output.checkpoint, "" = none */
  long checkpoint_interval;
  int random_start; /* solver.initial_guess = random: the linear solves start from a hash */
  int grow;         /* fgmres with linear.restart and linear.max_iterations unset: grow them at the cap */
  int inner;        /* one time step: no checkpoints, no signals, progress at verbosity 2 */
  int rhs_reference; /* time steps with nonlinear.step_reference = rhs (stop_reference) */
  int update_test;   /* time steps with nonlinear.step_reference = update (relative_update) */
  int forcing;       /* nonlinear.linear_forcing = eisenstat-walker (forcing_term) */
  double newton_switch; /* nonlinear.method = auto: Newton from r <= newton_switch r0 (switch_to_newton) */
} NonlinearParams;

static void nonlinear_params(const NsProblem *ns, NonlinearParams *p) {
  const NsNonlinearParams *n = &ns->params.nonlinear;
  const NsLinearParams *l = &ns->params.linear;
  memset(p, 0, sizeof *p);
  p->rtol = n->rtol;
  p->damping = n->damping;
  p->divergence = n->divergence_factor;
  p->max_steps = n->max_iterations;
  p->line_search = n->line_search == NS_LINE_SEARCH_BACKTRACKING;
  p->krylov = ns_krylov_choice(&ns->params, ns->stokes);
  p->random_start = n->initial_guess == NS_START_RANDOM;
  p->linear.rtol = l->rtol;
  p->linear.max_iterations = l->max_iterations;
  p->linear.divergence_factor = p->divergence;
  p->linear.monitor = feast_log_verbosity() >= 2;
  p->linear.label = "linear";
  p->linear.replace_every = l->residual_replacement;
  p->linear.restart = l->restart;
  p->linear.single_basis = l->single_basis;
  p->linear.replace_drop = l->residual_replacement_drop;
  p->grow = p->krylov == FEAST_KRYLOV_FGMRES && l->grow;
  snprintf(p->checkpoint, sizeof p->checkpoint, "%s", n->checkpoint);
  p->checkpoint_interval = n->checkpoint_interval;
  const int time_step = ns->time.on && !ns->time.pseudo;
  p->rhs_reference = time_step && n->step_reference == NS_STEP_REFERENCE_RHS;
  p->update_test = time_step && n->step_reference == NS_STEP_REFERENCE_UPDATE;
  p->forcing = l->forcing == NS_FORCING_EISENSTAT_WALKER;
  p->newton_switch = ns->newton_auto && ns->defaults.newton ? n->newton_switch : -1.0;
}

/* the saddle-point operator (Newton's: the Jacobian) on the complement of the pressure null space */
static int apply_system(void *ctx, const FeastVec *x, FeastVec *y) {
  NsProblem *ns = ctx;
  FEAST_CALL(ns_jacobian_apply(ns, x, y));
  return ns_project_residual(ns, y);
}

/* d <- h - K v, and its norm */
static int defect(NsProblem *ns, double *norm) {
  FEAST_CALL(ns_system_apply(ns, ns->iter.v, ns->iter.defect));
  feast_vec_aypx(-1.0, ns->sys.rhs, ns->iter.defect);
  FEAST_CALL(ns_project_residual(ns, ns->iter.defect));
  return feast_vec_norm(ns->iter.defect, norm);
}

/* c <- approx K^-1 d: the Krylov method right-preconditioned by K_s, from zero or (random
 * start) from the coordinate hash, zero at Dirichlet nodes */
static int linear_solve(NsProblem *ns, const NonlinearParams *p, FeastSolveResult *res) {
  if (p->random_start) {
    feast_vec_fill_hash(ns->iter.correction);
    for (int f = 0; f < NS_NFIELDS; f++) feast_vec_zero_fixed(ns->iter.correction, f, ns->sys.mask[f]);
  } else {
    feast_vec_zero(ns->iter.correction);
  }
  feast_timer_start(FEAST_T_LINEAR);
  int st = ns->iter.krylov_work ? 0 : feast_krylov_work_create(ns->iter.defect, &ns->iter.krylov_work);
  if (!st)
    st = feast_krylov_solve(p->krylov, (FeastLinOp){apply_system, ns}, ns->prec.op, ns->iter.defect, ns->iter.correction, &p->linear, ns->iter.krylov_work,
                            res);
  feast_timer_stop(FEAST_T_LINEAR);
  if (!st) st = ns_project_solution(ns, ns->iter.correction);
  return st;
}

/* nonlinear.method = auto: from fixed point to Newton once r <= newton_switch r0: the
 * system reassembled with Newton's linearisation at the iterate (its defect is the same up
 * to round-off: the Newton terms cancel at the linearisation point), *r refreshed. Where
 * the cap grows (p->grow), Newton's solves start at the grown cap: they need 3-4x the fixed
 * point's iterations (the cavity at Re = 1000: 133-174 against 35-54), and one stopped at a
 * smaller cap costs a Newton step (L = 5: 13 steps instead of 12) */
static int switch_to_newton(NsProblem *ns, NonlinearParams *p, int step, double r0, double *r) {
  if (ns->newton || !(*r <= p->newton_switch * r0)) return 0;
  ns->newton = 1;
  ns_anderson_reset(ns); /* the fixed point's history ends here */
  if (isinf(p->newton_switch))
    feast_log(p->inner ? 2 : 1, "  %sNewton from step %d on (the start is a coarser level's solution)\n",
              p->inner ? "  " : "", step);
  else
    feast_log(p->inner ? 2 : 1, "  %sNewton from step %d on (relative defect %.3e <= nonlinear.newton_switch = %g)\n",
              p->inner ? "  " : "", step, *r / r0, p->newton_switch);
  if (p->grow && !p->inner && p->linear.max_iterations < GROW_MAX) {
    p->linear.max_iterations = GROW_MAX;
    if (p->linear.restart < GROW_MAX / 2) p->linear.restart = GROW_MAX / 2;
    feast_log(1, "  Newton's linear solves: linear.max_iterations = %d, linear.restart = %d from now on\n",
              p->linear.max_iterations, p->linear.restart);
  }
  FEAST_CALL(ns_system_assemble(ns, ns->iter.v));
  return defect(ns, r);
}

/* nonlinear.method = auto: back to the fixed point for the rest of the solve (*given_up)
 * when NEWTON_CAPPED Newton steps in a row stopped at the largest linear cap (GROW_MAX
 * where the cap grows, else linear.max_iterations): Newton's linear systems are then beyond
 * the preconditioner, the fixed point's are not (the cavity at Re = 3200, L = 4: every
 * Newton solve at 400 iterations and the defect stuck at 2e-4 of the first, where the fixed
 * point's solves need 170-195). The step's correction is still taken (line-searched); the
 * system is assembled with the fixed point's linearisation from the update on. 1: given up
 * at this step. */
static int newton_or_back(NsProblem *ns, const NonlinearParams *p, const FeastSolveResult *lin, int step,
                          int *capped, int *given_up) {
  if (!ns->newton_auto || !ns->newton) return 0;
  const int at_top = lin->reason == FEAST_SOLVE_MAX_ITERATIONS && (!p->grow || lin->iterations >= GROW_MAX);
  *capped = at_top ? *capped + 1 : 0;
  if (*capped < NEWTON_CAPPED) return 0;
  ns->newton = 0;
  *given_up = 1;
  feast_log(p->inner ? 2 : 1,
            "  %sthe fixed point again from step %d on: %d Newton solves in a row stopped at linear.max_iterations = %d\n",
            p->inner ? "  " : "", step + 1, NEWTON_CAPPED, p->linear.max_iterations);
  return 1;
}

/* the forcing term of Eisenstat-Walker's choice 2, the linear tolerance of a Newton step at
 * defect r (eta, r_prev: the last step's; r_prev 0 at the first step, which keeps
 * linear.rtol): eta = gamma (r / r_prev)^alpha, not below gamma eta_prev^alpha where that
 * exceeds EW_SAFEGUARD, at most EW_ETA_MAX, and not below 0.5 target / r, so that the
 * last step does not solve past the nonlinear target (Kelley's safeguard) */
static double forcing_term(double r, double r_prev, double target, double eta) {
  if (r_prev <= 0.0) return eta;
  double e = EW_GAMMA * pow(r / r_prev, EW_ALPHA);
  const double guard = EW_GAMMA * pow(eta, EW_ALPHA);
  if (guard > EW_SAFEGUARD && guard > e) e = guard;
  if (e < 0.5 * target / r) e = 0.5 * target / r;
  return e < EW_ETA_MAX ? e : EW_ETA_MAX;
}

/* the reference of the relative stopping test: the first defect r0, and in a time step
 * (rhs_reference) at least ||h_free||, h_free the step's right-hand side without its
 * Dirichlet rows (~ M u_n / dt + f): the step's first defect after the extrapolated start
 * is O(dt^2) and tiny near a periodic or steady state, so relative to it alone every step
 * takes 5-8 nonlinear steps; relative to ||h_free|| the defect bounds the change
 * dt M^-1 r of u relative to u (docs/notes/time-dependent.md, 2026-11-26). ns->iter.scratch is
 * free here (the preconditioner's work vector). */
static int stop_reference(NsProblem *ns, const NonlinearParams *p, double r0, double *ref) {
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
static int relative_update(NsProblem *ns, const NonlinearParams *p, double lambda, double *change) {
  double c, v;
  *change = INFINITY;
  if (!p->update_test) return 0;
  FEAST_CALL(velocity_norm(ns->iter.correction, &c));
  FEAST_CALL(velocity_norm(ns->iter.v, &v));
  if (v > 0.0) *change = fabs(lambda) * c / v;
  return 0;
}

/* the stopping test of the nonlinear iteration at defect norm r after `steps` updates,
 * converged at r <= rtol reference or a relative update `change` <= rtol; 1 with
 * res->reason set when it must stop */
static int stop(const NonlinearParams *p, double r, double reference, double change, int steps, NsResult *res) {
  res->final_residual = r;
  if (!isfinite(r)) res->reason = NS_NAN;
  else if (r <= p->rtol * reference || r == 0.0 || change <= p->rtol)
    res->converged = 1, res->reason = NS_CONVERGED;
  else if (r > p->divergence * res->initial_residual) res->reason = NS_DIVERGED;
  else if (steps >= p->max_steps) res->reason = NS_MAX_ITERATIONS;
  else return 0;
  return 1;
}

static void progress(const NonlinearParams *p, int step, double r, const NsResult *res, int linear_its, double lambda,
                     double seconds) {
  char step_length[32] = "";
  if (step > 0 && lambda != 1.0) snprintf(step_length, sizeof step_length, "  step length %.4g", lambda);
  feast_log(p->inner ? 2 : 1, "  %sstep %3d  nonlinear residual %.6e  rel %.3e  linear its %3d%s  %.3f s\n",
            p->inner ? "  " : "", step, r,
            res->initial_residual > 0 ? r / res->initial_residual : 0.0, linear_its, step_length, seconds);
}

/* the defect norm *r at v = v_old + l c: assembled (the system at v and its defect in
 * ns->iter.defect, what the next step needs), or (full = 0) by the residual evaluation alone, which
 * writes ns->iter.defect only (a trial that may be rejected: no blocks assembled for nothing) */
static int trial(NsProblem *ns, double l, int full, double *r) {
  feast_vec_copy(ns->iter.v_old, ns->iter.v);
  feast_vec_axpy(l, ns->iter.correction, ns->iter.v);
  if (full) {
    FEAST_CALL(ns_system_assemble(ns, ns->iter.v));
    return defect(ns, r);
  }
  FEAST_CALL(ns_system_residual(ns, ns->iter.v, ns->iter.v, ns->iter.defect));
  return feast_vec_norm(ns->iter.defect, r);
}

/* v <- v_old + lambda c, the system assembled at v and its defect norm in *r. Backtracking
 * (line search on): lambda = damping, halved while the defect does not fall to
 * (1 - 1e-4 lambda) times the last one, at most MAX_HALVINGS times; when no length gives
 * that decrease, the one with the smallest defect is taken (divergence then stops the
 * run). The first length is assembled: accepted at once (the usual case), the assembly
 * and defect are those the next step needs anyway. The shorter ones are tried by the
 * residual evaluation alone (ns_system_residual: no blocks written), and only the length
 * taken is assembled, its defect recomputed from the blocks: *r and ns->iter.defect are then
 * bitwise those of an assembled trial, the test saw them up to rounding. */
static int update(NsProblem *ns, const NonlinearParams *p, double *r, double *lambda) {
  const double r0 = *r;
  double best = INFINITY, best_lambda = p->damping, l = p->damping;
  feast_vec_copy(ns->iter.v, ns->iter.v_old);
  for (int k = 0;; k++) {
    FEAST_CALL(trial(ns, l, k == 0, r));
    if (!p->line_search || (isfinite(*r) && *r <= (1.0 - 1e-4 * l) * r0)) {
      if (k > 0) FEAST_CALL(trial(ns, l, 1, r));
      break;
    }
    if (*r < best) best = *r, best_lambda = l;
    if (k == MAX_HALVINGS) { /* no decrease: the best length seen */
      l = best_lambda;
      FEAST_CALL(trial(ns, l, 1, r));
      break;
    }
    l *= 0.5;
  }
  *lambda = l;
  return 0;
}

/* after each step: a checkpoint every checkpoint_interval steps; a stop signal on any
 * rank (collective) writes one too and ends the iteration as "interrupted" */
static int after_step(NsProblem *ns, const NonlinearParams *p, NsResult *res, double r, double lambda,
                      double reference) {
  if (p->inner) return 0; /* the time stepper checkpoints and takes signals between time steps */
  const int steps = res->nonlinear_iterations;
  int signal_number;
  FEAST_CALL(feast_signals_agree(ns->dom->comm, &signal_number));
  if (p->checkpoint[0] && (steps % p->checkpoint_interval == 0 || signal_number)) {
    /* the reference of the stopping test (the first defect but in continuation's last stage,
     * whose reference is the direct attempt's first defect: a restart keeps its test) */
    NsState s = {steps, reference, r, lambda, res->linear_iterations, 0, 0, 0, ns->iter.linear_per_step,
                 res->linear_capped};
    ns_scarc_totals(ns, &s.vcycles, &s.local_solves, &s.local_cycles);
    FEAST_CALL(ns_checkpoint_write(ns, &s, p->checkpoint));
  }
  if (signal_number) {
    progress(p, steps, r, res, (int)ns->iter.linear_per_step[steps - 1], lambda, 0.0);
    res->final_residual = r;
    res->reason = NS_INTERRUPTED;
    res->stop_signal = signal_number;
  }
  return 0;
}

/* the start: step 0 of a fresh run, or the state of a restored one */
static int start(NsProblem *ns, const NonlinearParams *p, NsResult *res, double *r) {
  const NsState *from = ns->iter.restored && !p->inner ? &ns->iter.resume : NULL;
  const int first = from ? from->steps : 0;
  memset(res, 0, sizeof *res);
  res->reason = NS_MAX_ITERATIONS;
  free(ns->iter.linear_per_step);
  FEAST_CALL(FEAST_ALLOC((first > p->max_steps ? first : p->max_steps) + 1, &ns->iter.linear_per_step));
  res->linear_per_step = ns->iter.linear_per_step;
  FEAST_CALL(ns_system_assemble(ns, ns->iter.v));
  FEAST_CALL(defect(ns, r));
  res->initial_residual = from ? from->initial_residual : *r;
  if (!from) return 0;
  if (first) memcpy(ns->iter.linear_per_step, from->linear_per_step, (size_t)first * sizeof *ns->iter.linear_per_step);
  res->nonlinear_iterations = first;
  res->linear_iterations = from->linear_iterations;
  res->linear_capped = (int)from->linear_capped;
  if (*r != from->residual)
    feast_log(1, "  note: the defect at the restored iterate is %.17g, the checkpoint says %.17g\n", *r, from->residual);
  return 0;
}

/* an attempt whose defect r after `done` steps of it exceeds stall_factor times the one
 * stall_steps steps before (hist: the defects of its steps, hist[k] after k steps) */
static int stalled(const NsAttempt *a, const double *hist, int done, double r) {
  return a && a->stall_steps > 0 && done >= a->stall_steps && r > a->stall_factor * hist[done - a->stall_steps];
}

static int solve(NsProblem *ns, NsResult *res, int inner, const NsAttempt *a) {
  NonlinearParams p;
  nonlinear_params(ns, &p);
  p.inner = inner;
  if (a) {
    p.rtol = a->rtol;
    if (a->max_steps > 0) p.max_steps = a->max_steps;
    if (!a->checkpoints) p.checkpoint[0] = 0;
  }
  if (ns->newton_auto) ns->newton = 0; /* every solve starts with the fixed point */
  if (ns->newton_auto && a && a->newton_switch > 0.0) p.newton_switch = a->newton_switch;
  const int resuming = ns->iter.restored && !inner; /* the state of ns_restore, Anderson's history included */
  if (!resuming) ns_anderson_reset(ns);
  double t0 = feast_wtime(), r, lambda = resuming ? ns->iter.resume.lambda : 1.0;
  FEAST_CALL(start(ns, &p, res, &r));
  double reference, change = INFINITY, r_prev = 0.0; /* r_prev: the last step's defect (forcing) */
  const double fixed_rtol = p.linear.rtol;           /* the fixed point's steps under forcing */
  FEAST_CALL(stop_reference(ns, &p, res->initial_residual, &reference));
  if (a && a->reference > 0.0) reference = a->reference;
  const int first = res->nonlinear_iterations;
  double *hist = NULL; /* the defects of this attempt's steps (the stall test; the problem's, so
                         that an error return leaks nothing) */
  if (a && a->stall_steps > 0) {
    free(ns->iter.stall_history);
    ns->iter.stall_history = NULL;
    FEAST_CALL(FEAST_ALLOC(p.max_steps + 1, &ns->iter.stall_history));
    hist = ns->iter.stall_history;
  }
  long its_here = 0; /* linear iterations of this process (a restored run's are in res already) */
  int newton_capped = 0, newton_given_up = 0; /* auto: newton_or_back */
  int stall_from = 0; /* the stall test looks at the steps from this one (of the attempt) on */
  for (int step = first;; step++) {
    progress(&p, step, r, res, step ? (int)ns->iter.linear_per_step[step - 1] : 0, lambda, feast_wtime() - t0);
    if (stop(&p, r, reference, change, step, res)) break;
    if (hist) hist[step - first] = r;
    if (stalled(a, hist + stall_from, step - first - stall_from, r)) {
      res->reason = NS_STALLED;
      break;
    }
    t0 = feast_wtime();
    if (ns->newton_auto && !newton_given_up) FEAST_CALL(switch_to_newton(ns, &p, step, res->initial_residual, &r));
    FEAST_CALL(ns_schur_update(ns));
    FeastSolveResult lin;
    if (p.forcing) /* Newton's steps only; the fixed point's keep linear.rtol */
      p.linear.rtol = ns->newton ? forcing_term(r, r_prev, p.rtol * reference, p.linear.rtol) : fixed_rtol;
    r_prev = r;
    /* from a random start the tolerance is relative to the defect, the residual of c = 0 */
    if (p.random_start) p.linear.reference_norm = r;
    FEAST_CALL(linear_solve(ns, &p, &lin));
    ns->iter.linear_per_step[step] = lin.iterations;
    /* a linear solve stopped at its cap gives no descent direction and the fixed point
     * stalls (the cavity at Re = 3200: 160-195 unrestarted FGMRES iterations per step): with
     * the two keys at their defaults, double both for the steps that follow, up to GROW_MAX
     * iterations (2 GROW_MAX / 2 + 1 basis vectors) */
    if (p.grow && !inner && !lin.converged && lin.reason == FEAST_SOLVE_MAX_ITERATIONS &&
        p.linear.max_iterations < GROW_MAX) {
      p.linear.max_iterations = 2 * p.linear.max_iterations < GROW_MAX ? 2 * p.linear.max_iterations : GROW_MAX;
      p.linear.restart = p.linear.max_iterations / 2 > p.linear.restart ? p.linear.max_iterations / 2 : p.linear.restart;
      feast_log(1, "  the linear solve stopped at its cap: linear.max_iterations = %d, linear.restart = %d from now on\n",
                p.linear.max_iterations, p.linear.restart);
    }
    res->linear_iterations += lin.iterations;
    res->linear_capped += lin.reason == FEAST_SOLVE_MAX_ITERATIONS;
    its_here += lin.iterations;
    res->reductions_per_iteration += lin.reductions_per_iteration * lin.iterations; /* averaged below */
    res->exchanges_per_iteration += lin.exchanges_per_iteration * lin.iterations;
    res->nonlinear_iterations = step + 1;
    if (lin.reason == FEAST_SOLVE_NAN || lin.reason == FEAST_SOLVE_DIVERGED) {
      /* the iterate stays the last one, whose defect r is final_residual */
      res->reason = lin.reason == FEAST_SOLVE_NAN ? NS_NAN : NS_LINEAR_DIVERGED;
      break;
    }
    if (newton_or_back(ns, &p, &lin, step, &newton_capped, &newton_given_up)) {
      stall_from = step + 1 - first; /* the fixed point from Newton's iterate: a new window */
      res->newton_given_up++;
    }
    FEAST_CALL(ns_anderson_mix(ns));
    FEAST_CALL(update(ns, &p, &r, &lambda));
    FEAST_CALL(relative_update(ns, &p, lambda, &change));
    FEAST_CALL(after_step(ns, &p, res, r, lambda, reference));
    if (res->stop_signal) break;
  }
  if (its_here > 0) {
    res->reductions_per_iteration /= its_here;
    res->exchanges_per_iteration /= its_here;
  }
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
  long cap = ns->params.linear.max_iterations, restart = ns->params.linear.restart;
  if (fgmres && ns->params.linear.grow) {
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

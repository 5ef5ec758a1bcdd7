/* The nonlinear solver (nonlinear.h): the loop of steps, its stopping and stall tests, the
 * auto switch between the fixed point and Newton, the forcing terms and the line search. */
#include "solvers/nonlinear.h"
#include "feast/base/error.h"
#include "feast/base/log.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Eisenstat & Walker's choice 2 (nonlinear.h) */
#define EW_GAMMA 0.9
#define EW_ALPHA 2.0
#define EW_ETA_MAX 0.9
#define EW_SAFEGUARD 0.1 /* the last eta's bound gamma eta^alpha applies above this */

struct FeastNonlinear {
  FeastNonlinearParams p;
  FeastNonlinearOps ops;
  void *ctx;
  FeastNonlinearVectors v;
  FeastAnderson *anderson; /* NULL: no mixing */
  double *per_step;        /* the linear iterations of each step (FeastNonlinearResult.linear_per_step) */
  double *history;         /* the defects of the steps of a solve (the stall test) */
  int newton;              /* the assemblies are Newton's */
};

/* the state of one solve besides the result */
typedef struct {
  double reference, lambda, change;
  double r_prev;            /* the last step's defect (forcing; 0 before the first) */
  double eta;               /* the linear tolerance */
  long its_here;            /* linear iterations of this solve (a restored run's are in the result already) */
  int first;                /* the steps of a restored state */
  int capped, given_up;     /* auto: Newton solves at the cap in a row; Newton given up */
  int stall_from;           /* the stall test looks at the steps from this one (of the solve) on */
  int no_descent;           /* Newton's steps in a row whose line search found no decrease */
  int capped_run;           /* steps in a row whose linear solve stopped at its largest cap */
  double capped_from[FEAST_NONLINEAR_CAPPED_STEPS]; /* the defects before the last of them */
} Run;

void feast_nonlinear_params_defaults(FeastNonlinearParams *p) {
  *p = (FeastNonlinearParams){.method = FEAST_NONLINEAR_FIXED_POINT, .rtol = 1e-8, .divergence = 1e4,
                              .max_steps = 50, .damping = 1.0, .line_search = 1, .linear_rtol = 1e-2,
                              .newton_switch = -1.0, .stall_factor = 1.0};
}

int feast_nonlinear_create(const FeastNonlinearVectors *v, int anderson_depth, FeastNonlinear **nlp) {
  FEAST_CHECK(v && v->x && v->d && v->c && v->x_old && nlp, FEAST_ERR_ARG, "feast_nonlinear_create: NULL argument");
  FeastNonlinear *nl;
  FEAST_CALL(FEAST_ALLOC(1, &nl));
  *nlp = nl;
  nl->v = *v;
  feast_nonlinear_params_defaults(&nl->p);
  if (anderson_depth > 0) FEAST_CALL(feast_anderson_create(v->x, anderson_depth, &nl->anderson));
  return 0;
}

void feast_nonlinear_destroy(FeastNonlinear **nlp) {
  FeastNonlinear *nl = *nlp;
  if (!nl) return;
  feast_anderson_destroy(&nl->anderson);
  free(nl->per_step);
  free(nl->history);
  free(nl);
  *nlp = NULL;
}

void feast_nonlinear_set_params(FeastNonlinear *nl, const FeastNonlinearParams *p) { nl->p = *p; }
void feast_nonlinear_set_ops(FeastNonlinear *nl, const FeastNonlinearOps *ops, void *ctx) {
  nl->ops = *ops;
  nl->ctx = ctx;
}
FeastAnderson *feast_nonlinear_anderson(const FeastNonlinear *nl) { return nl ? nl->anderson : NULL; }

const char *feast_nonlinear_status_name(FeastNonlinearStatus s) {
  static const char *const names[] = {[FEAST_NONLINEAR_CONVERGED] = "converged",
                                      [FEAST_NONLINEAR_MAX_ITERATIONS] = "max_iterations",
                                      [FEAST_NONLINEAR_DIVERGED] = "diverged",
                                      [FEAST_NONLINEAR_NAN] = "nan",
                                      [FEAST_NONLINEAR_LINEAR_DIVERGED] = "linear_diverged",
                                      [FEAST_NONLINEAR_INTERRUPTED] = "interrupted",
                                      [FEAST_NONLINEAR_STALLED] = "stalled"};
  return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "?";
}

static int monitor(FeastNonlinear *nl, FeastNonlinearEvent event, const FeastNonlinearInfo *info, int *stop) {
  *stop = 0;
  return nl->ops.monitor ? nl->ops.monitor(nl->ctx, event, info, stop) : 0;
}

static int residual(FeastNonlinear *nl, int assemble, double *r) {
  return nl->ops.residual(nl->ctx, nl->v.x, assemble, nl->v.d, r);
}

/* auto: from the fixed point to Newton once r <= newton_switch r0: the system reassembled
 * with Newton's linearisation at the iterate (its defect is the same up to round-off: the
 * Newton terms cancel at the linearisation point), *r refreshed */
static int switch_to_newton(FeastNonlinear *nl, const FeastNonlinearResult *res, const Run *run, int step, double *r) {
  if (nl->newton || !(*r <= nl->p.newton_switch * res->initial_residual)) return 0;
  nl->newton = 1;
  feast_anderson_reset(nl->anderson); /* the fixed point's history ends here */
  int stop;
  const FeastNonlinearInfo info = {step, *r, run->reference, run->lambda, 0.0, res};
  FEAST_CALL(monitor(nl, FEAST_NONLINEAR_NEWTON_ON, &info, &stop));
  if (nl->ops.set_newton) FEAST_CALL(nl->ops.set_newton(nl->ctx, 1));
  return residual(nl, 1, r);
}

/* auto: back to the fixed point for the rest of the solve when NEWTON_CAPPED Newton solves
 * in a row stopped at the largest cap. The step's correction is still taken
 * (line-searched); the system is assembled with the fixed point's linearisation from the
 * update on. 1: given up at this step. */
static int newton_or_back(FeastNonlinear *nl, const FeastNonlinearLinearSolve *s, Run *run, int step,
                          const FeastNonlinearResult *res, double r, int *back) {
  *back = 0;
  if (nl->p.method != FEAST_NONLINEAR_AUTO || !nl->newton) return 0;
  run->capped = s->at_limit ? run->capped + 1 : 0;
  if (run->capped < FEAST_NONLINEAR_NEWTON_CAPPED) return 0;
  nl->newton = 0;
  run->given_up = 1;
  *back = 1;
  if (nl->ops.set_newton) FEAST_CALL(nl->ops.set_newton(nl->ctx, 0));
  int stop;
  const FeastNonlinearInfo info = {step, r, run->reference, run->lambda, 0.0, res};
  return monitor(nl, FEAST_NONLINEAR_NEWTON_OFF, &info, &stop);
}

/* the forcing term of choice 2 at defect r (eta, r_prev: the last step's; r_prev 0 at the
 * first step, which keeps eta) */
static double forcing_term(double r, double r_prev, double target, double eta) {
  if (r_prev <= 0.0) return eta;
  double e = EW_GAMMA * pow(r / r_prev, EW_ALPHA);
  const double guard = EW_GAMMA * pow(eta, EW_ALPHA);
  if (guard > EW_SAFEGUARD && guard > e) e = guard;
  if (e < 0.5 * target / r) e = 0.5 * target / r;
  return e < EW_ETA_MAX ? e : EW_ETA_MAX;
}

/* the stopping test at defect norm r after `steps` updates; 1 with res->reason set when
 * the solve must stop */
static int stop_test(const FeastNonlinearParams *p, double r, double reference, double change, int steps,
                     FeastNonlinearResult *res) {
  res->final_residual = r;
  if (!isfinite(r)) res->reason = FEAST_NONLINEAR_NAN;
  else if (r <= p->rtol * reference || r == 0.0 || change <= p->rtol)
    res->converged = 1, res->reason = FEAST_NONLINEAR_CONVERGED;
  else if (r > p->divergence * res->initial_residual) res->reason = FEAST_NONLINEAR_DIVERGED;
  else if (steps >= p->max_steps) res->reason = FEAST_NONLINEAR_MAX_ITERATIONS;
  else return 0;
  return 1;
}

/* a defect r after `done` steps that exceeds stall_factor times the one stall_steps steps
 * before (hist[k]: the defect after k steps) */
static int stalled(const FeastNonlinearParams *p, const double *hist, int done, double r) {
  return p->stall_steps > 0 && done >= p->stall_steps && r > p->stall_factor * hist[done - p->stall_steps];
}

/* FEAST_NONLINEAR_CAPPED_STEPS steps in a row whose linear solves stopped at their largest
 * cap and that together reduced the defect r by less than 1 %: the linear solver cannot
 * solve these systems, and more steps would only repeat it (the DFG channel at L = 5 with
 * solver.local_coarse_max_dofs = 25: 14 s per step at a constant defect, for 100 steps) */
static int capped_without_progress(const Run *run, double r) {
  const int k = FEAST_NONLINEAR_CAPPED_STEPS; /* capped_from[capped_run % k]: the defect k steps before */
  return run->capped_run >= k && r > 0.99 * run->capped_from[run->capped_run % k];
}

/* the defect norm *r at x = x_old + l c, with the system assembled (full) or the defect alone */
static int trial(FeastNonlinear *nl, double l, int full, double *r) {
  feast_vec_copy(nl->v.x_old, nl->v.x);
  feast_vec_axpy(l, nl->v.c, nl->v.x);
  return residual(nl, full, r);
}

/* x <- x_old + lambda c, the system assembled at x and its defect norm in *r (the line
 * search of nonlinear.h): the defect and *r of the length taken are those of an assembled
 * trial, which the test saw up to rounding */
static int update(FeastNonlinear *nl, double *r, double *lambda, int *decreased) {
  const FeastNonlinearParams *p = &nl->p;
  *decreased = 1;
  const double r0 = *r;
  double best = INFINITY, best_lambda = p->damping, l = p->damping;
  feast_vec_copy(nl->v.x, nl->v.x_old);
  for (int k = 0;; k++) {
    FEAST_CALL(trial(nl, l, k == 0, r));
    if (!p->line_search || (isfinite(*r) && *r <= (1.0 - 1e-4 * l) * r0)) {
      if (k > 0) FEAST_CALL(trial(nl, l, 1, r));
      break;
    }
    if (*r < best) best = *r, best_lambda = l;
    if (k == FEAST_NONLINEAR_HALVINGS) { /* no decrease: the best length seen */
      *decreased = 0;
      l = best_lambda;
      FEAST_CALL(trial(nl, l, 1, r));
      break;
    }
    l *= 0.5;
  }
  *lambda = l;
  return 0;
}

/* the start: step 0 of a fresh solve, or the state of a restored one; the defect *r at x */
static int start(FeastNonlinear *nl, const FeastNonlinearState *from, FeastNonlinearResult *res, double *r) {
  const int first = from ? from->steps : 0, max_steps = nl->p.max_steps;
  memset(res, 0, sizeof *res);
  res->reason = FEAST_NONLINEAR_MAX_ITERATIONS;
  free(nl->per_step);
  nl->per_step = NULL;
  FEAST_CALL(FEAST_ALLOC((first > max_steps ? first : max_steps) + 1, &nl->per_step));
  res->linear_per_step = nl->per_step;
  FEAST_CALL(residual(nl, 1, r));
  res->initial_residual = from ? from->initial_residual : *r;
  if (!from) return 0;
  if (first) memcpy(nl->per_step, from->linear_per_step, (size_t)first * sizeof *nl->per_step);
  res->steps = first;
  res->linear_iterations = from->linear_iterations;
  res->linear_capped = (int)from->linear_capped;
  if (*r != from->residual)
    feast_log(1, "  note: the defect at the restored iterate is %.17g, the checkpoint says %.17g\n", *r, from->residual);
  return 0;
}

/* the linear solve of step `step` at defect r and its counters; 1 in *failed when it
 * diverged or gave NaN (the solve then stops, its iterate the last one) */
static int linear_step(FeastNonlinear *nl, Run *run, int step, double r, FeastNonlinearResult *res,
                       FeastNonlinearLinearSolve *s, int *failed) {
  const FeastNonlinearParams *p = &nl->p;
  if (nl->ops.update_preconditioner) FEAST_CALL(nl->ops.update_preconditioner(nl->ctx));
  if (p->forcing) /* Newton's steps only; the fixed point's keep linear_rtol */
    run->eta = nl->newton ? forcing_term(r, run->r_prev, p->rtol * run->reference, run->eta) : p->linear_rtol;
  run->r_prev = r;
  memset(s, 0, sizeof *s);
  s->rtol = run->eta;
  s->defect_norm = r;
  FEAST_CALL(nl->ops.linear_solve(nl->ctx, nl->v.d, nl->v.c, s));
  const FeastSolveResult *lin = &s->result;
  nl->per_step[step] = lin->iterations;
  res->linear_iterations += lin->iterations;
  res->linear_capped += lin->reason == FEAST_SOLVE_MAX_ITERATIONS;
  run->its_here += lin->iterations;
  res->reductions_per_iteration += lin->reductions_per_iteration * lin->iterations; /* averaged at the end */
  res->exchanges_per_iteration += lin->exchanges_per_iteration * lin->iterations;
  res->steps = step + 1;
  *failed = lin->reason == FEAST_SOLVE_NAN || lin->reason == FEAST_SOLVE_DIVERGED;
  if (*failed) res->reason = lin->reason == FEAST_SOLVE_NAN ? FEAST_NONLINEAR_NAN : FEAST_NONLINEAR_LINEAR_DIVERGED;
  return 0;
}

/* the defects of this solve's steps, for the stall test (NULL without it) */
static int stall_history(FeastNonlinear *nl, double **hist) {
  *hist = NULL;
  if (nl->p.stall_steps <= 0) return 0;
  free(nl->history);
  nl->history = NULL;
  FEAST_CALL(FEAST_ALLOC(nl->p.max_steps + 1, &nl->history));
  *hist = nl->history;
  return 0;
}

int feast_nonlinear_solve(FeastNonlinear *nl, const FeastNonlinearState *from, FeastNonlinearResult *res) {
  const FeastNonlinearParams *p = &nl->p;
  FEAST_CHECK(nl->ops.residual && nl->ops.linear_solve, FEAST_ERR_ARG, "feast_nonlinear_solve: no residual or linear solve");
  nl->newton = p->method == FEAST_NONLINEAR_NEWTON;
  if (p->method == FEAST_NONLINEAR_AUTO && nl->ops.set_newton) /* every solve starts with the fixed point */
    FEAST_CALL(nl->ops.set_newton(nl->ctx, 0));
  if (!from) feast_anderson_reset(nl->anderson); /* a restored state comes with its history */
  Run run = {.lambda = from ? from->lambda : 1.0, .change = INFINITY, .eta = p->linear_rtol};
  double t0 = feast_wtime(), r;
  FEAST_CALL(start(nl, from, res, &r));
  run.reference = res->initial_residual;
  if (nl->ops.reference) FEAST_CALL(nl->ops.reference(nl->ctx, res->initial_residual, &run.reference));
  if (p->reference > 0.0) run.reference = p->reference;
  run.first = res->steps;
  double *hist;
  FEAST_CALL(stall_history(nl, &hist));
  for (int step = run.first;; step++) {
    int stop;
    FeastNonlinearInfo info = {step, r, run.reference, run.lambda, feast_wtime() - t0, res};
    FEAST_CALL(monitor(nl, FEAST_NONLINEAR_STEP, &info, &stop));
    if (stop_test(p, r, run.reference, run.change, step, res)) break;
    if (hist) hist[step - run.first] = r;
    if (capped_without_progress(&run, r) ||
        (hist && (run.no_descent >= FEAST_NONLINEAR_NO_DESCENT ||
                  stalled(p, hist + run.stall_from, step - run.first - run.stall_from, r)))) {
      res->reason = FEAST_NONLINEAR_STALLED;
      break;
    }
    t0 = feast_wtime();
    if (p->method == FEAST_NONLINEAR_AUTO && !run.given_up) FEAST_CALL(switch_to_newton(nl, res, &run, step, &r));
    FeastNonlinearLinearSolve s;
    int failed, back;
    FEAST_CALL(linear_step(nl, &run, step, r, res, &s, &failed));
    if (failed) break;
    if (!s.at_limit) run.capped_run = 0;
    else run.capped_from[run.capped_run++ % FEAST_NONLINEAR_CAPPED_STEPS] = r;
    FEAST_CALL(newton_or_back(nl, &s, &run, step, res, r, &back));
    if (back) {
      run.stall_from = step + 1 - run.first; /* the fixed point from Newton's iterate: a new window */
      res->newton_given_up++;
    }
    if (!nl->newton) FEAST_CALL(feast_anderson_mix(nl->anderson, nl->v.x, nl->v.c));
    int decreased;
    FEAST_CALL(update(nl, &r, &run.lambda, &decreased));
    run.no_descent = nl->newton && !decreased && p->line_search ? run.no_descent + 1 : 0;
    if (nl->ops.update_size) FEAST_CALL(nl->ops.update_size(nl->ctx, nl->v.x, nl->v.c, run.lambda, &run.change));
    info = (FeastNonlinearInfo){res->steps, r, run.reference, run.lambda, 0.0, res};
    FEAST_CALL(monitor(nl, FEAST_NONLINEAR_STEP_DONE, &info, &stop));
    if (stop) {
      res->final_residual = r;
      res->reason = FEAST_NONLINEAR_INTERRUPTED;
      res->stop_signal = stop;
      break;
    }
  }
  if (run.its_here > 0) {
    res->reductions_per_iteration /= run.its_here;
    res->exchanges_per_iteration /= run.its_here;
  }
  return 0;
}

/* A nonlinear solver on distributed vectors (solvers/nonlinear.c), driven by callbacks:
 * F(x) = 0 by defect correction. Each step takes the defect d = -F(x) at the iterate x,
 * a correction c ~ J^-1 d by the application's linear solve (J the linearisation it
 * assembled at x: a fixed point's, or Newton's Jacobian), and the update
 * x <- x + lambda c (lambda from the backtracking line search, or the damping).
 *
 *   - method: the fixed point, Newton, or auto: the fixed point until the defect is
 *     <= newton_switch x the first, then Newton; back to the fixed point for the rest of
 *     the solve when FEAST_NONLINEAR_NEWTON_CAPPED Newton solves in a row stopped at the
 *     largest iteration cap the linear solve will be given (its Newton systems are then
 *     beyond its preconditioner);
 *   - the linear tolerance: linear_rtol, or in Newton's steps Eisenstat & Walker's choice 2
 *     ("Choosing the forcing terms in an inexact Newton method", SIAM J. Sci. Comput. 17,
 *     1996): eta = 0.9 (r / r_prev)^2, not below 0.9 eta_prev^2 where that exceeds 0.1,
 *     at most 0.9, and not below 0.5 target / r (Kelley's safeguard: the last step does
 *     not solve past the nonlinear target rtol x reference);
 *   - the line search: lambda = damping, halved while the defect does not fall to
 *     (1 - 1e-4 lambda) times the last one, at most FEAST_NONLINEAR_HALVINGS times; when no
 *     length gives that decrease, the one with the smallest defect is taken. The first
 *     length is tried with the system assembled (accepted at once, the usual case, it is
 *     what the next step needs), the shorter ones by the defect alone (residual with
 *     assemble = 0), and only the length taken is assembled;
 *   - Anderson mixing of the fixed point's corrections (solvers/anderson.h; never of
 *     Newton's: the switch to Newton starts the history afresh);
 *   - the stopping test: converged at r <= rtol x reference, r = 0 or a relative update
 *     (the update_size callback) <= rtol; diverged at r > divergence x the first defect;
 *     max_iterations after max_steps steps; nan at a defect not finite; stalled when the
 *     defect exceeds stall_factor x the one stall_steps steps before (a window that starts
 *     afresh where auto gives Newton up), or, where that test is on, after
 *     FEAST_NONLINEAR_NO_DESCENT Newton steps in a row whose line search found no length
 *     that decreases the defect (Newton cannot start from there: the step at Re = 800, L = 3,
 *     took 4 more steps to the window's verdict, its defect growing to 1e3 x the first);
 *     and always after FEAST_NONLINEAR_CAPPED_STEPS steps in a row whose linear solves
 *     stopped at their largest cap (at_limit) and that reduced the defect by less than 1 %
 *     together (the linear solver cannot solve these systems);
 *     linear_diverged when a linear solve diverged or
 *     gave NaN (the iterate stays the last one); interrupted when the monitor says so
 *     after a step (a stop signal).
 * Progress lines, checkpoints and stop signals are the monitor's: the solver prints
 * nothing but a note when a restored defect differs from the one recorded. A solve may
 * continue a restored state (FeastNonlinearState: a checkpoint's counters, with the
 * Anderson history put back by feast_anderson_restore), and then takes the very steps of
 * the uninterrupted run. Nothing here reads a config. */
#ifndef FEAST_NONLINEAR_H
#define FEAST_NONLINEAR_H
#include "solvers/anderson.h"
#include "solvers/krylov.h"

enum { FEAST_NONLINEAR_HALVINGS = 6, FEAST_NONLINEAR_NEWTON_CAPPED = 2, FEAST_NONLINEAR_NO_DESCENT = 2,
       FEAST_NONLINEAR_CAPPED_STEPS = 5 };

typedef enum { FEAST_NONLINEAR_FIXED_POINT, FEAST_NONLINEAR_NEWTON, FEAST_NONLINEAR_AUTO } FeastNonlinearMethod;

/* why a solve stopped */
typedef enum {
  FEAST_NONLINEAR_CONVERGED,
  FEAST_NONLINEAR_MAX_ITERATIONS,
  FEAST_NONLINEAR_DIVERGED,
  FEAST_NONLINEAR_NAN,
  FEAST_NONLINEAR_LINEAR_DIVERGED,
  FEAST_NONLINEAR_INTERRUPTED,
  FEAST_NONLINEAR_STALLED
} FeastNonlinearStatus;

typedef struct {
  FeastNonlinearMethod method;
  double rtol;          /* converged at defect <= rtol x reference */
  double reference;     /* > 0: the reference (else the first defect, or the reference callback's) */
  double divergence;    /* diverged at defect > divergence x the first defect */
  int max_steps;
  double damping;       /* the first step length */
  int line_search;      /* 1: backtracking; 0: every step of length damping */
  double linear_rtol;   /* the linear solves' tolerance (Newton's first step's under forcing) */
  int forcing;          /* 1: Newton's tolerances by Eisenstat-Walker, choice 2 */
  double newton_switch; /* auto: Newton from defect <= newton_switch x the first (INFINITY: from the
                           first step; < 0: never) */
  int stall_steps;      /* > 0: the stall test over this many steps */
  double stall_factor;
} FeastNonlinearParams;
/* fixed point, rtol 1e-8, divergence 1e4, 50 steps, damping 1, backtracking, linear_rtol
 * 1e-2, no forcing, never Newton, no reference, no stall test */
void feast_nonlinear_params_defaults(FeastNonlinearParams *p);

/* the outcome of a solve (counters of a restored state included) */
typedef struct {
  int converged;
  FeastNonlinearStatus reason;
  int steps;                /* nonlinear steps (linear solves) done */
  double *linear_per_step;  /* the linear iterations of each step (the solver's: until its next solve) */
  long linear_iterations;   /* their sum */
  int linear_capped;        /* linear solves stopped at their cap (FEAST_SOLVE_MAX_ITERATIONS) */
  /* of the linear solves of this solve, averaged over their iterations (FeastSolveResult) */
  double reductions_per_iteration, exchanges_per_iteration;
  double initial_residual, final_residual; /* the defect norms */
  int newton_given_up;      /* auto: times Newton was given up for the fixed point */
  int stop_signal;          /* interrupted: the monitor's stop value */
} FeastNonlinearResult;

/* a restored state: the solve continues after `steps` steps */
typedef struct {
  int steps;
  double initial_residual; /* the reference of the divergence test (and of the relative defects) */
  double residual;         /* the defect recorded at the iterate (a note when it differs) */
  double lambda;           /* the last step length (the first progress line's) */
  long linear_iterations;
  const double *linear_per_step; /* steps values */
  long linear_capped;
} FeastNonlinearState;

/* one linear solve of a step */
typedef struct {
  double rtol;             /* in: the relative tolerance */
  double defect_norm;      /* in: ||d|| */
  FeastSolveResult result; /* out */
  int at_limit;            /* out: stopped at the largest iteration cap it will be given (auto) */
} FeastNonlinearLinearSolve;

typedef enum {
  FEAST_NONLINEAR_STEP,       /* at the top of each step (step: the updates done), before the stopping test */
  FEAST_NONLINEAR_NEWTON_ON,  /* auto: Newton from this step on (before set_newton(1)) */
  FEAST_NONLINEAR_NEWTON_OFF, /* auto: the fixed point again from the next step on (after set_newton(0)) */
  FEAST_NONLINEAR_STEP_DONE   /* after the update of step `step` - 1 (step: the steps done) */
} FeastNonlinearEvent;

/* what the monitor sees */
typedef struct {
  int step;
  double residual;  /* the defect norm at the iterate (NEWTON_ON: before the reassembly) */
  double reference; /* of the stopping test */
  double lambda;    /* the last step length (1 before the first) */
  double seconds;   /* STEP: wall time since the last step began (the start, for the first) */
  const FeastNonlinearResult *result; /* the counters so far */
} FeastNonlinearInfo;

/* The application's part; ctx is the one given with them. Only residual and linear_solve
 * are required. */
typedef struct {
  /* d <- the defect at x, *norm its norm; assemble = 1: the system linearised at x for the
   * linear solve that follows (the fixed point's or Newton's, as set_newton last said);
   * 0: the defect alone (a line-search trial that may be rejected) */
  int (*residual)(void *ctx, const FeastVec *x, int assemble, FeastVec *d, double *norm);
  /* c <- approx J^-1 d to s->rtol (c holds nothing on entry) */
  int (*linear_solve)(void *ctx, const FeastVec *d, FeastVec *c, FeastNonlinearLinearSolve *s);
  /* the linearisation of the assemblies from now on: Newton (on = 1) or the fixed point */
  int (*set_newton)(void *ctx, int on);
  /* before each linear solve, after the step's assembly: the preconditioner's numbers */
  int (*update_preconditioner)(void *ctx);
  /* *ref (r0 on entry: the first defect) <- the reference of the stopping test */
  int (*reference)(void *ctx, double r0, double *ref);
  /* *change <- the relative size of the update lambda c at the new iterate x (INFINITY
   * without the callback: no update test) */
  int (*update_size)(void *ctx, const FeastVec *x, const FeastVec *c, double lambda, double *change);
  /* progress, checkpoints, signals; after STEP_DONE a nonzero *stop (0 on entry) ends the
   * solve as interrupted, stop_signal = *stop */
  int (*monitor)(void *ctx, FeastNonlinearEvent event, const FeastNonlinearInfo *info, int *stop);
} FeastNonlinearOps;

/* the vectors of a solve (the application's: x the iterate, the start on entry and the
 * solution on return; d, c, x_old those of the last step: its defect, correction and the
 * iterate before it) */
typedef struct {
  FeastVec *x, *d, *c, *x_old;
} FeastNonlinearVectors;

typedef struct FeastNonlinear FeastNonlinear;
/* anderson_depth > 0: Anderson mixing of the fixed point's last anderson_depth steps
 * (<= FEAST_ANDERSON_MAX) */
int feast_nonlinear_create(const FeastNonlinearVectors *v, int anderson_depth, FeastNonlinear **nl);
void feast_nonlinear_destroy(FeastNonlinear **nl);
void feast_nonlinear_set_params(FeastNonlinear *nl, const FeastNonlinearParams *p);
void feast_nonlinear_set_ops(FeastNonlinear *nl, const FeastNonlinearOps *ops, void *ctx);
/* the Anderson history (checkpoints: feast_anderson_history, feast_anderson_restore); NULL
 * without one */
FeastAnderson *feast_nonlinear_anderson(const FeastNonlinear *nl);
/* the iteration from the iterate in v->x; from: a restored state to continue (its
 * Anderson history restored), or NULL: a fresh solve (the history starts afresh) */
int feast_nonlinear_solve(FeastNonlinear *nl, const FeastNonlinearState *from, FeastNonlinearResult *res);
const char *feast_nonlinear_status_name(FeastNonlinearStatus s);
#endif

/* Continuation in Re for the stationary nonlinear solver (continuation.method = auto): a
 * small driver around the one nonlinear loop of solve.c (ns_solve_attempt), which runs
 * every attempt and stage.
 *
 * Rules (stationary navier-stokes only: stokes has no Re, and a time step's start is the
 * last step's solution):
 *  - the direct attempt at the target Re = problem.re runs as with `off` (bit for bit while
 *    it does not stall), with one test more: stalled when its defect after k steps exceeds
 *    continuation.stall_factor (0.5) x the one after k - continuation.stall_steps
 *    (10). A converged or interrupted direct attempt is the result;
 *  - after one that stopped otherwise (max_iterations, diverged, linear_diverged, nan,
 *    stalled) the stages: the first at Re_1 = Re / q (q = continuation.factor, 4)
 *    from the zero start (the Dirichlet values, as a fresh run), each next one at
 *    min(Re, q Re_last) from the last converged stage's solution. A failed stage goes back
 *    to that solution (a copy) and q <- sqrt(q) (half the step in log Re; given up below
 *    q = 1.05); while no stage has converged a failed one lowers Re_1 by q instead (from
 *    zero again). At most continuation.max_stages stages (failed ones included);
 *  - the last resort: when the stages run out (or q falls below 1.05) and the stall test
 *    stopped an attempt at the target from a converged stage, one more attempt at the
 *    target from the closest converged stage's solution without the stall test (to
 *    nonlinear.max_iterations steps). A plateau is not a failure: the fixed point
 *    with Anderson acceleration on the cavity at Re = 3200, L = 3 converges so, where every
 *    stage at the target stalled;
 *  - stopping tests: a stage below the target stops at defect <= max(continuation.rtol,
 *    nonlinear.rtol) x r0, the last one (at the target) at nonlinear.rtol x
 *    r0, r0 the direct attempt's first defect (at the target Re from the zero start, or
 *    the restored run's): "converged" means what it means for the direct attempt. Each
 *    stage has nonlinear.max_iterations steps and the stall test;
 *  - what depends on nu: ns->nu is set per stage; the assembly (forms, tau), the velocity
 *    ScaRC hierarchies (ns_schur_update, every step) and the Schur approximation's viscous
 *    part nu M_p^-1 (ns_schur_viscous; PCD's N_p and A_p have no nu) follow it. The auto
 *    defaults (linear.schur, linear.krylov, solver.coarse_stabilisation: problem.c) stay
 *    those of the target Re, decided once at creation: the simplest and safest choice
 *    (the stages are easier problems than the target's);
 *  - checkpoints (output.checkpoint) are written by the attempts at the target Re only:
 *    the direct attempt and the last stage (with r0 as its reference, so a restart keeps the
 *    test). A restart continues at the target Re from the checkpoint (from the last stage's
 *    it counts that stage's steps only: the stages before are not in the checkpoint); if
 *    that attempt fails the stages start from zero as in an uninterrupted run. A stop signal ends a stage
 *    below the target without writing one (the last written, if any, stays);
 *  - the result: converged and reason of the last attempt, except that stages which run out
 *    after one converged below the target report NS_STAGES_EXHAUSTED; nonlinear_iterations,
 *    linear_iterations (and per step, concatenated), linear_capped of all of them;
 *    initial_residual r0; the stages' Re, steps and reasons. When the stages give up, the
 *    last attempt's iterate stays and ns->nu is the target's again (the system
 *    reassembled at it). */
#include "feast/base/error.h"
#include "feast/base/log.h"
#include "navier_stokes/ns_private.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const double FACTOR_MIN = 1.05; /* give up when the step factor falls below this */

/* why an attempt of `steps` steps, `capped` of whose linear solves stopped at their cap,
 * failed: the linear solves (at least half at their cap: the preconditioner does not reach
 * the linear tolerance, and the steps are not descent directions), or the nonlinear
 * iteration (its linear solves converged, and still the defect did not fall enough) */
static const char *failure_cause(int steps, int capped) {
  return steps > 0 && 2 * capped >= steps ? "the linear solves: at least half stopped at their cap"
                                          : "the nonlinear iteration: its linear solves converged";
}

/* one stage: Re = re from `good` (the solution at re_good, or the zero start: re_good 0)
 * under attempt a, logged and recorded in res (its Re, steps and reason) */
static int run_stage(NsProblem *ns, NsResult *res, double re, const FeastVec *good, double re_good, const NsAttempt *a,
                     NsResult *r) {
  const int k = res->continuation_stages;
  ns->nu = ns_viscosity_at(&ns->params.physics, re);
  feast_vec_copy(good, ns->iter.v);
  char from[64] = "the zero start";
  if (re_good > 0.0) snprintf(from, sizeof from, "the solution at Re = %.6g", re_good);
  feast_log(1, "  continuation stage %d: Re = %.6g from %s\n", k + 1, re, from);
  FEAST_CALL(ns_solve_attempt(ns, a, r));
  FEAST_CALL(ns_result_accumulate(ns, res, r));
  res->continuation_re[k] = re;
  res->continuation_iterations[k] = r->nonlinear_iterations;
  res->continuation_reason[k] = r->reason;
  res->continuation_stages = k + 1;
  if (r->converged)
    feast_log(1, "  continuation stage %d: Re = %.6g converged in %d steps (%ld linear iterations; defect %.3e <= "
              "%g x %.3e)\n", k + 1, re, r->nonlinear_iterations, r->linear_iterations, r->final_residual, a->rtol,
              a->reference);
  else
    feast_log(1, "  continuation stage %d: Re = %.6g stopped (%s) after %d steps, defect %.3e; the cause: %s (%d of %d)\n",
              k + 1, re, ns_status_name(r->reason), r->nonlinear_iterations, r->final_residual,
              failure_cause(r->nonlinear_iterations, r->linear_capped), r->linear_capped, r->nonlinear_iterations);
  return 0;
}

static int stages(NsProblem *ns, NsResult *res) {
  const NsNonlinearParams *n = &ns->params.nonlinear;
  const NsContinuationParams *c = &ns->params.continuation;
  const double target = ns->params.physics.re, r0 = res->initial_residual;
  const double stage_rtol = c->rtol > n->rtol ? c->rtol : n->rtol;
  const int max_stages = c->max_stages < NS_MAX_STAGES ? c->max_stages : NS_MAX_STAGES;
  double q = c->factor, re_good = 0.0, re = target / q;
  FeastVec *good = NULL;
  FEAST_CALL(feast_vec_create(ns->dom, ns->level, NS_NFIELDS, &good));
  int st = ns_zero_start(ns, good);
  ns->iter.restored = 0; /* the stages start afresh (a restored state was the direct attempt's) */
  int done = 0, target_stalled = 0;
  while (!st && res->continuation_stages < max_stages) {
    const int last = re >= target;
    if (last) re = target;
    const NsAttempt a = {last ? n->rtol : stage_rtol, r0, last, c->stall_steps, c->stall_factor, 0, 0};
    NsResult r;
    st = run_stage(ns, res, re, good, re_good, &a, &r);
    if (st) break;
    if (r.converged) {
      if (last) {
        done = 1;
        break;
      }
      feast_vec_copy(ns->iter.v, good);
      re_good = re;
      re = fmin(target, q * re_good);
      continue;
    }
    if (r.reason == NS_INTERRUPTED) break;
    target_stalled |= last && re_good > 0.0 && r.reason == NS_STALLED;
    if (re_good > 0.0) {
      q = sqrt(q);
      if (q < FACTOR_MIN) break;
      re = fmin(target, q * re_good);
    } else {
      re /= q;
    }
    if (res->continuation_stages < max_stages) {
      feast_log(1, "  continuation: back to %s, next Re = %.6g\n",
                re_good > 0.0 ? "the last converged stage's solution" : "the zero start", re);
    }
  }
  /* the last resort: where the stall test stopped an attempt at the target from a
   * converged stage, its defect was still falling, only slower than the test asks (a
   * plateau: the fixed point with Anderson acceleration at Re = 3200 on the 4 x 2 cavity,
   * L = 3, converges from zero in 62 steps without the test). One more attempt at the
   * target from the closest converged stage, without the stall test, beyond
   * continuation.max_stages */
  if (!st && !done && target_stalled && res->reason != NS_INTERRUPTED) {
    feast_log(1, "  continuation: the last resort, Re = %.6g from the solution at Re = %.6g without the stall test\n",
              target, re_good);
    const NsAttempt a = {n->rtol, r0, 1, 0, c->stall_factor, 0, 0};
    NsResult r;
    st = run_stage(ns, res, target, good, re_good, &a, &r);
    done = !st && r.converged;
  }
  if (!st && !done && res->reason != NS_INTERRUPTED) {
    feast_log(1, "  continuation: gave up after %d stages (last converged Re = %.6g)\n", res->continuation_stages,
              re_good);
    if (res->converged) { /* the last stage converged, below the target: not the target's solution */
      res->converged = 0;
      res->reason = NS_STAGES_EXHAUSTED;
    }
  }
  feast_vec_destroy(&good);
  /* the target's viscosity again; a failed stage below it leaves the system assembled
   * with its own: reassembled at the iterate (outputs, forces) */
  const double nu = ns->nu;
  ns->nu = ns_params_viscosity(&ns->params);
  if (!st && nu != ns->nu) st = ns_system_assemble(ns, ns->iter.v);
  return st;
}

/* pseudo-time steps (pseudo_time.c) from the iterate in ns->iter.v, then the nonlinear solver
 * from theirs to nonlinear.rtol x their first defect (no stall test); res: the
 * counters so far (zero, or a failed direct attempt's from the same start) */
static int pseudo_time_then_solve(NsProblem *ns, NsResult *res) {
  const NsNonlinearParams *n = &ns->params.nonlinear;
  FEAST_CALL(ns_pseudo_time(ns, res));
  if (!isfinite(res->final_residual)) {
    res->reason = NS_NAN;
    return 0;
  }
  const NsAttempt final = {n->rtol, res->initial_residual, 1, 0, 0.0, 0,
                           ns->defaults.newton_after_pseudo_time ? n->newton_switch : 0.0};
  if (final.newton_switch) feast_log(1, "  pseudo-time: the fixed point from here, Newton from nonlinear.newton_switch on\n");
  NsResult r;
  FEAST_CALL(ns_solve_attempt(ns, &final, &r));
  return ns_result_accumulate(ns, res, &r);
}

int ns_solve_level(NsProblem *ns, NsResult *res) {
  const NsNonlinearParams *n = &ns->params.nonlinear;
  const NsContinuationParams *c = &ns->params.continuation;
  if (ns->stokes || c->method == NS_CONTINUATION_OFF) return ns_solve_attempt(ns, NULL, res);
  if (c->method == NS_CONTINUATION_PSEUDO_TIME && !ns->iter.restored) {
    memset(res, 0, sizeof *res);
    return pseudo_time_then_solve(ns, res);
  }
  const NsAttempt direct = {n->rtol, 0.0, 1, c->stall_steps, c->stall_factor, 0, 0};
  FEAST_CALL(ns_solve_attempt(ns, &direct, res));
  res->direct_reason = res->reason;
  res->direct_iterations = res->nonlinear_iterations;
  if (res->converged || res->reason == NS_INTERRUPTED) return 0;
  const int pseudo = ns->defaults.pseudo_time;
  char next[96];
  if (pseudo) snprintf(next, sizeof next, "pseudo-time steps from the zero start (an open flow)");
  else snprintf(next, sizeof next, "stages from Re = %.6g", ns->params.physics.re / c->factor);
  feast_log(1, "  continuation: the direct attempt at Re = %.6g stopped (%s) after %d steps at defect %.3e (%.3e of "
            "the first; the cause: %s, %d of %d); continuation.method = %s: %s\n",
            ns->params.physics.re, ns_status_name(res->reason), res->nonlinear_iterations, res->final_residual,
            res->initial_residual > 0 ? res->final_residual / res->initial_residual : 0.0,
            failure_cause(res->nonlinear_iterations, res->linear_capped), res->linear_capped,
            res->nonlinear_iterations, ns_continuation_name(c->method), next);
  /* the direct attempt's per-step iterations into the problem's concatenated array */
  NsResult direct_res = *res;
  res->nonlinear_iterations = 0;
  res->linear_iterations = 0;
  res->linear_capped = 0;
  res->reductions_per_iteration = res->exchanges_per_iteration = 0.0;
  FEAST_CALL(ns_result_accumulate(ns, res, &direct_res));
  if (!pseudo) return stages(ns, res);
  FEAST_CALL(ns_zero_start(ns, ns->iter.v)); /* as a fresh run's */
  ns->iter.restored = 0;
  return pseudo_time_then_solve(ns, res);
}

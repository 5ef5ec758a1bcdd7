/* Grid sequencing (nested iteration; continuation.grid_sequencing): a stationary
 * navier-stokes solve on level L first solves the same problem on level L - 1 (which in
 * turn starts on L - 2, down to the coarsest level NsDefaults.coarsest_level), then starts
 * on L from the bilinear interpolation of that solution. Where the nonlinear iteration,
 * not the size of the linear systems, is the cost (the backward-facing step at Re = 800:
 * ~90 steps on the finest level, most of them the globalisation's way into Newton's
 * basin), the finer levels then need a few Newton steps each: the coarse solution has the
 * flow's structure (its separation and recirculation zones), which is what the
 * globalisation searches for, at a quarter of the cost per step.
 *
 * Rules:
 *  - where: NsDefaults.sequencing (auto: a stationary open flow; problem.c) on a level above
 *    NsDefaults.coarsest_level; not for a restored run (ns_restore): it continues on its
 *    level from the checkpoint;
 *  - the coarser problem: the same parameters on a view of the same domain with levels
 *    0..L-1 (feast_domain_coarser_view): the same macros, ranks and `auto` defaults
 *    (ns_defaults decides from the parameters and the coarse mesh alone); no checkpoints;
 *    solved by ns_solve (so sequenced itself down to the coarsest level) to
 *    max(nonlinear.rtol, continuation.rtol): its algebraic error need only be small against
 *    the interpolation's; with linear.preconditioner = auto and at most NS_DIRECT_MAX_DOFS
 *    unknowns by the direct preconditioner (coupled_direct.c; Newton throughout): the
 *    globalisation's many steps at one cheap factorisation each (the step at Re = 800,
 *    level 3: 31 steps instead of 87);
 *  - the attempt on L starts from the interpolated solution, the Dirichlet values put back
 *    and the pressure at zero mean where it is free (ns_set_initial_guess); it has the
 *    direct attempt's stall test, and its stopping test is relative to the first defect of
 *    the zero start on L, so "converged" means what it means without sequencing. Where
 *    nonlinear.method = auto uses Newton at all (NsDefaults.newton or
 *    newton_after_pseudo_time), Newton from the first step; otherwise the method's rules;
 *  - fallbacks: a coarser solve that does not converge, or an attempt on L that fails
 *    (not converged, not interrupted), is followed by the level's own strategy
 *    (ns_solve_level: the direct attempt, then continuation.method's) from the zero start;
 *  - a stop signal during a coarser solve stops the run there (reason interrupted; the
 *    iterate on L is the zero start: nothing was checkpointed);
 *  - the result: the counters of level L (the attempt's, and the fallback's after it), and
 *    in res->coarse the coarser levels' steps and iterations. */
#include "feast/base/error.h"
#include "feast/base/log.h"
#include "feast/fem/transfer.h"
#include "navier_stokes/ns_private.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* the solve on level ns->level - 1 of the same domain, its solution interpolated into
 * *start (a vector on ns's level); res: what it took */
static int solve_coarser(const NsProblem *ns, FeastVec *start, NsResult *res) {
  FeastDomain view;
  FEAST_CALL(feast_domain_coarser_view(ns->dom, ns->level - 1, &view));
  NsParams p = ns->params;
  p.nonlinear.checkpoint[0] = 0;
  p.nonlinear.rtol = fmax(p.nonlinear.rtol, p.continuation.rtol);
  const long dofs = NS_NFIELDS * (long)view.levels[view.finest].nglobal;
  const int direct = p.linear.preconditioner == NS_PRECONDITIONER_AUTO && dofs <= NS_DIRECT_MAX_DOFS;
  if (direct) p.linear.preconditioner = NS_PRECONDITIONER_DIRECT;
  NsProblem *coarse = NULL;
  char why[96] = "";
  if (direct) snprintf(why, sizeof why, "; linear.preconditioner = auto: direct, %ld <= %d unknowns", dofs,
                       (int)NS_DIRECT_MAX_DOFS);
  feast_log(1, "grid sequencing: level %d first (to nonlinear.rtol = %g, continuation.rtol's%s)\n", view.finest,
            p.nonlinear.rtol, why);
  int st = ns_create_with_params(&p, &view, ns->stokes, &coarse);
  if (!st) st = ns_solve(coarse, res);
  if (!st) st = feast_vec_prolongate(ns_solution(coarse), start);
  ns_destroy(&coarse);
  return st;
}

/* the first defect of the zero start on ns's level (the reference of the stopping test
 * without sequencing), the zero start built in work */
static int zero_start_defect(NsProblem *ns, FeastVec *work, double *r0) {
  FEAST_CALL(ns_zero_start(ns, work));
  FEAST_CALL(ns_system_residual(ns, work, work, ns->iter.defect));
  return feast_vec_norm(ns->iter.defect, r0);
}

/* what the solve c on the coarser level took, its own coarser levels' included */
static NsCoarseResult coarse_counts(const NsResult *c) {
  return (NsCoarseResult){c->coarse.levels + 1, c->converged && (c->coarse.levels == 0 || c->coarse.converged),
                          c->coarse.nonlinear_iterations + c->nonlinear_iterations,
                          c->coarse.linear_iterations + c->linear_iterations};
}

/* the attempt on ns's level from the interpolated solution in start (the rules above;
 * start is a work vector after it) */
static int attempt_from_coarse(NsProblem *ns, FeastVec *start, NsResult *res) {
  double r0;
  FEAST_CALL(ns_set_initial_guess(ns, start));
  FEAST_CALL(zero_start_defect(ns, start, &r0));
  const NsNonlinearParams *n = &ns->params.nonlinear;
  const int newton = ns->newton_auto;
  const NsContinuationParams *c = &ns->params.continuation;
  const NsAttempt a = {n->rtol, r0, 1, c->stall_steps, c->stall_factor, 0, newton ? INFINITY : 0.0};
  feast_log(1, "grid sequencing: level %d from level %d's solution%s; converged at %.3e (nonlinear.rtol x the "
            "zero start's first defect on level %d)\n", ns->level, ns->level - 1,
            newton ? ", Newton from the first step" : "", n->rtol * r0, ns->level);
  FEAST_CALL(ns_solve_attempt(ns, &a, res));
  if (!res->converged && res->reason != NS_INTERRUPTED)
    feast_log(1, "grid sequencing: level %d from level %d's solution stopped (%s) after %d steps; level %d's own "
              "strategy from the zero start\n", ns->level, ns->level - 1, ns_status_name(res->reason),
              res->nonlinear_iterations, ns->level);
  return 0;
}

/* res <- the level's own strategy from the zero start, after the failed attempt `first`
 * (NULL: none) whose per-step iterations are first_steps: its counters added in front */
static int fall_back(NsProblem *ns, const NsResult *first, const double *first_steps, NsResult *res) {
  FEAST_CALL(ns_zero_start(ns, ns->iter.v));
  FEAST_CALL(ns_solve_level(ns, res));
  if (!first) return 0;
  const int n1 = first->nonlinear_iterations, n = n1 + res->nonlinear_iterations;
  double *per;
  FEAST_CALL(FEAST_ALLOC(n + 1, &per));
  memcpy(per, first_steps, (size_t)n1 * sizeof *per);
  memcpy(per + n1, res->linear_per_step, (size_t)res->nonlinear_iterations * sizeof *per);
  free(ns->iter.sequence_per_step);
  ns->iter.sequence_per_step = res->linear_per_step = per;
  ns_result_add_counters(res, first);
  return 0;
}

static int solve_sequenced(NsProblem *ns, NsResult *res) {
  FeastVec *start = NULL;
  double *first_steps = NULL;
  NsResult c, first;
  FEAST_CALL(feast_vec_create(ns->dom, ns->level, NS_NFIELDS, &start));
  int st = solve_coarser(ns, start, &c);
  if (!st && c.reason == NS_INTERRUPTED) {
    memset(res, 0, sizeof *res);
    res->reason = NS_INTERRUPTED;
    res->stop_signal = c.stop_signal;
  } else if (!st && !c.converged) {
    feast_log(1, "grid sequencing: level %d did not converge (%s); level %d's own strategy from the zero start\n",
              ns->level - 1, ns_status_name(c.reason), ns->level);
    st = fall_back(ns, NULL, NULL, res);
  } else if (!st) {
    st = attempt_from_coarse(ns, start, &first);
    if (!st && !first.converged && first.reason != NS_INTERRUPTED) {
      st = FEAST_ALLOC(first.nonlinear_iterations + 1, &first_steps);
      if (!st) memcpy(first_steps, first.linear_per_step, (size_t)first.nonlinear_iterations * sizeof *first_steps);
      if (!st) st = fall_back(ns, &first, first_steps, res);
    } else if (!st) {
      *res = first;
    }
  }
  free(first_steps);
  feast_vec_destroy(&start);
  if (!st) res->coarse = coarse_counts(&c);
  return st;
}

int ns_solve(NsProblem *ns, NsResult *res) {
  const int sequenced = ns->defaults.sequencing && ns->level > ns->defaults.coarsest_level && !ns->iter.restored &&
                        !ns->iter.start_given;
  FEAST_CALL(sequenced ? solve_sequenced(ns, res) : ns_solve_level(ns, res));
  ns->iter.start_given = 1; /* the next solve starts from this one's iterate */
  return 0;
}

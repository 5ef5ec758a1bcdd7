/* The 3D flow solver's iterations (navier_stokes/ns_hex.h): the callbacks of the generic
 * nonlinear solver (solvers/nonlinear.h: the defect with the assembly at the iterate, the
 * linear solve of each step by FGMRES with the block preconditioner, the preconditioner's
 * refresh, progress lines) and the result. */
#include "feast/base/error.h"
#include "feast/base/log.h"
#include "feast/base/signals.h"
#include "navier_stokes/hex_private.h"
#include <string.h>

/* the linear solves' caps where the keys are auto (linear.max_iterations, linear.restart) */
enum { LINEAR_MAX_ITERATIONS = 200, LINEAR_RESTART = 60 };

/* J on the complement of the pressure's null space */
static int apply_operator(void *ctx, const FeastVec *x, FeastVec *y) {
  NsHex *ns = ctx;
  FEAST_CALL(ns_hex_apply(ns, x, y));
  return ns_hex_project_residual(ns, y);
}

static int apply_preconditioner(void *ctx, const FeastVec *d, FeastVec *c) { return ns_hex_precondition(ctx, d, c); }

/* d <- F - K(x) x at the free rows with the system assembled at x (a line-search trial too: the system then is
 * the trial's, and the nonlinear solver assembles the accepted iterate again) */
static int residual(void *ctx, const FeastVec *x, int assemble, FeastVec *d, double *norm) {
  NsHex *ns = ctx;
  (void)assemble;
  FEAST_CALL(ns_hex_assemble(ns, x));
  FEAST_CALL(ns_hex_apply(ns, x, d));
  feast_vec_aypx(-1.0, ns->rhs, d); /* d <- rhs - K x */
  for (int f = 0; f < NS_HEX_NFIELDS; f++) feast_vec_zero_fixed(d, f, ns->mask[f]);
  FEAST_CALL(ns_hex_project_residual(ns, d));
  return feast_vec_norm(d, norm);
}

static int linear_solve(void *ctx, const FeastVec *d, FeastVec *c, FeastNonlinearLinearSolve *s) {
  NsHex *ns = ctx;
  FeastSolveParams sp = ns->linear_sp;
  sp.rtol = s->rtol;
  feast_vec_zero(c);
  FeastLinOp A = {apply_operator, ns}, M = {apply_preconditioner, ns};
  feast_timer_start(FEAST_T_LINEAR);
  const int st = feast_krylov_solve(FEAST_KRYLOV_FGMRES, A, M, d, c, &sp, ns->krylov_work, &s->result);
  feast_timer_stop(FEAST_T_LINEAR);
  FEAST_CALL(st);
  s->at_limit = s->result.reason == FEAST_SOLVE_MAX_ITERATIONS;
  return ns_hex_project_pressure(ns, c);
}

static int set_newton(void *ctx, int on) {
  (void)ctx;
  FEAST_CHECK(!on, FEAST_ERR_UNSUPPORTED, "Newton on meshes of hexahedra: not yet");
  return 0;
}

static int update_preconditioner(void *ctx) { return ns_hex_preconditioner_update(ctx); }

/* progress lines; after each step a stop signal on any rank (collective) ends the iteration as interrupted */
static int monitor(void *ctx, FeastNonlinearEvent event, const FeastNonlinearInfo *info, int *stop) {
  NsHex *ns = ctx;
  if (event == FEAST_NONLINEAR_STEP_DONE) return feast_signals_agree(ns->dom->comm, stop);
  if (event != FEAST_NONLINEAR_STEP) return 0;
  const FeastNonlinearResult *r = info->result;
  const double its = info->step > 0 && r->linear_per_step ? r->linear_per_step[info->step - 1] : 0.0;
  feast_log(1, "  step %3d: residual %.3e (relative %.3e), step length %.3g, %g linear iterations, %.2f s\n",
            info->step, info->residual, info->residual / info->reference, info->lambda, its, info->seconds);
  return 0;
}

static void solver_params(const NsHex *ns, FeastNonlinearParams *nl, FeastSolveParams *sp) {
  const NsNonlinearParams *n = &ns->params.nonlinear;
  const NsLinearParams *l = &ns->params.linear;
  feast_nonlinear_params_defaults(nl);
  nl->method = FEAST_NONLINEAR_FIXED_POINT;
  nl->rtol = n->rtol;
  nl->damping = n->damping;
  nl->divergence = n->divergence_factor;
  nl->max_steps = n->max_iterations; /* Stokes too: defect correction, each step to linear.rtol */
  nl->line_search = n->line_search == NS_LINE_SEARCH_BACKTRACKING;
  nl->linear_rtol = l->rtol;
  feast_solve_params_defaults(sp);
  sp->rtol = nl->linear_rtol;
  sp->max_iterations = l->max_iterations == FEAST_AUTO ? LINEAR_MAX_ITERATIONS : l->max_iterations;
  sp->restart = l->restart == FEAST_AUTO ? LINEAR_RESTART : l->restart;
  sp->divergence_factor = n->divergence_factor;
  sp->monitor = feast_log_verbosity() >= 2;
  sp->label = "linear";
}

int ns_hex_solve(NsHex *ns, NsHexResult *res) {
  memset(res, 0, sizeof *res);
  FeastNonlinearParams nl;
  solver_params(ns, &nl, &ns->linear_sp);
  if (!ns->nonlinear) {
    const FeastNonlinearVectors v = {ns->x, ns->d, ns->c, ns->x_old};
    FEAST_CALL(feast_nonlinear_create(&v, ns->params.nonlinear.anderson_depth, &ns->nonlinear));
  }
  feast_nonlinear_set_params(ns->nonlinear, &nl);
  const FeastNonlinearOps ops = {.residual = residual,
                                 .linear_solve = linear_solve,
                                 .set_newton = set_newton,
                                 .update_preconditioner = update_preconditioner,
                                 .monitor = monitor};
  feast_nonlinear_set_ops(ns->nonlinear, &ops, ns);
  const long vcycles0 = ns->vcycles;
  FeastNonlinearResult r;
  FEAST_CALL(feast_nonlinear_solve(ns->nonlinear, NULL, &r));
  res->converged = r.converged;
  res->reason = r.reason;
  res->stop_signal = r.stop_signal;
  res->nonlinear_iterations = r.steps;
  res->linear_iterations = r.linear_iterations;
  res->linear_capped = r.linear_capped;
  res->velocity_vcycles = ns->vcycles - vcycles0;
  res->initial_residual = r.initial_residual;
  res->final_residual = r.final_residual;
  return 0;
}

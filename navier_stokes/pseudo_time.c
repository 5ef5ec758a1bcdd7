/* Pseudo-transient continuation (continuation.method = pseudo-time): steady states by
 * implicit pseudo-time steps whose length grows as the defect falls (Kelley & Keyes,
 * SIAM J. Numer. Anal. 35 (1998); switched evolution relaxation: Mulder & van Leer 1985).
 *
 * Step k solves (M / dt_k + K(u_k)) c = d(u_k), u_k+1 = u_k + lambda c: one step of the
 * nonlinear solver (solve.c: its linearisation, Krylov method, block preconditioner, line
 * search) on a backward Euler step of length dt_k from u_k. The step's defect at its
 * start is the stationary one (the mass term M (u - u_k) / dt vanishes at u = u_k), so the
 * iteration converges to the stationary solution of the stationary discretisation: tau
 * is the stationary problem's (no time-step term), the Schur approximation keeps its
 * stationary boundary conditions and adds the mass term (pcd.c). dt_0 =
 * continuation.pseudo_dt L / U, then dt_k+1 = dt_k r_k / r_k+1 (r: the stationary defects): a
 * falling defect lengthens the steps toward Newton's or the fixed point's, a rising one
 * shortens them. The steps stop when r <= continuation.pseudo_switch r_0; the nonlinear solver
 * then runs from there (continuation.c), with r_0 as the reference of its stopping test. */
#include "feast/base/error.h"
#include "feast/base/log.h"
#include "navier_stokes/ns_private.h"
#include <math.h>

static const double DT_MAX = 1e12; /* in units of L / U: a step that long is the stationary solver's */
/* Newton's linearisation (nonlinear.method = newton, or auto with linear.preconditioner =
 * direct) in the steps: a step whose defect grew more than this factor makes the rest
 * fixed-point steps (the cylinder at Re = 40, L = 2, from the zero start: Newton's steps
 * took the defect from 5.4 to 1e7 while dt fell to 1e-7; the step at Re = 800, L = 3:
 * 17 Newton steps, 46 fixed-point ones) */
static const double NEWTON_GROWTH_MAX = 2.0;

/* the time terms of a pseudo-time step of length dt from the iterate ns->iter.v (kept in u1):
 * mass 1 / dt, s = -u1 / dt, theta 1, no explicit part */
static void pseudo_step_terms(NsProblem *ns, double dt) {
  NsTimeTerms *tt = &ns->time;
  feast_vec_copy(ns->iter.v, tt->u1);
  feast_vec_zero(tt->s);
  for (int f = NS_U; f <= NS_V; f++) {
    FeastVec s, u;
    feast_vec_view(tt->s, f, &s);
    feast_vec_view(tt->u1, f, &u);
    feast_vec_axpy(-1.0 / dt, &u, &s);
  }
  tt->on = 1, tt->pseudo = 1;
  tt->theta = 1.0, tt->explicit_weight = 0.0, tt->mass = 1.0 / dt;
}

/* the stationary defect's norm at the iterate (the residual evaluation alone: no blocks) */
static int stationary_defect(NsProblem *ns, double *r) {
  ns->time.on = 0, ns->time.pseudo = 0;
  FEAST_CALL(ns_system_residual(ns, ns->iter.v, ns->iter.v, ns->iter.defect)); /* projected */
  return feast_vec_norm(ns->iter.defect, r);
}

int ns_pseudo_time(NsProblem *ns, NsResult *res) {
  const NsContinuationParams *c = &ns->params.continuation;
  const NsPhysicsParams *ph = &ns->params.physics;
  FEAST_CALL(ns_time_state_create(ns));
  const double rate = ns->time.tau_rate, unit = ph->reference_length / ph->reference_velocity;
  ns->time.tau_rate = 0.0; /* the stationary problem's tau */
  double dt = c->pseudo_dt * unit, r0 = 0.0, r = 0.0;
  const NsAttempt one = {1e-300, 0.0, 0, 0, 0.0, 1, 0};
  const int newton = ns->newton && !ns->newton_auto;
  int st = 0, k;
  for (k = 0; k < c->pseudo_max_steps && !st; k++) {
    double rk;
    if ((st = stationary_defect(ns, &rk))) break;
    if (k == 0) r0 = rk, res->initial_residual = r0;
    else dt = fmin(DT_MAX * unit, dt * r / rk); /* switched evolution relaxation */
    if (k > 0 && ns->newton && newton && rk > NEWTON_GROWTH_MAX * r) {
      ns->newton = 0;
      feast_log(1, "  pseudo-time: the defect grew %.3gx in a Newton step: fixed-point steps from here\n", rk / r);
    }
    r = rk;
    if (!isfinite(r) || r <= c->pseudo_switch * r0) break;
    pseudo_step_terms(ns, dt);
    NsResult step;
    if ((st = ns_solve_inner_attempt(ns, &one, &step))) break;
    if ((st = ns_result_accumulate(ns, res, &step))) break;
    feast_log(1, "  pseudo-time step %3d  defect %.6e  rel %.3e  dt %.3e  linear its %3ld%s\n", k, r,
              r0 > 0.0 ? r / r0 : 0.0, dt, step.linear_iterations, step.reason == NS_NAN ? "  (NaN)" : "");
  }
  ns->time.on = 0, ns->time.pseudo = 0;
  ns->time.tau_rate = rate;
  if (newton) ns->newton = 1;
  FEAST_CALL(st);
  res->final_residual = r;
  res->converged = isfinite(r) && r <= c->pseudo_switch * r0;
  feast_log(1, "  pseudo-time: %s after %d steps (%ld linear iterations), defect %.3e (%.3e of the first)\n",
            res->converged ? "done" : "stopped", k, res->linear_iterations, r,
            r0 > 0.0 ? r / r0 : 0.0);
  return 0;
}

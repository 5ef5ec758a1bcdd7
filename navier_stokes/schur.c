/* The preconditioner K_s = [A 0; BT -S] of the FEAST paper (eq. 2-4), applied to a defect
 * d = (d_u, d_v, d_p):
 *   c_u = A11^-1 d_u, c_v = A22^-1 d_v   approximately, by ScaRC (velocity.* keys)
 *   c_p = S~^-1 (BT1 c_u + BT2 c_v - d_p),  S~ = M_p^L / nu  (lumped pressure mass)
 * The two velocity blocks share one ScaRC when their matrices and Dirichlet parts are the
 * same (fixed point: A11 = A22); Newton's blocks differ and get one each. */
#include "feast/error.h"
#include "feast/log.h"
#include "navier_stokes/ns_private.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

static int apply(void *ctx, const FeastVec *d, FeastVec *c);

/* the name of velocity.scarc_solver: "mg" (the V cycle as a stationary iteration) or the
 * Krylov method's */
static const char *velocity_solver_name(FeastKrylovMethod m) {
  return m == FEAST_KRYLOV_RICHARDSON ? "mg" : feast_krylov_method_name(m);
}

/* the ScaRC V cycle made a linear map for the method named by `key = name` (an explicit
 * adaptive smoother step is refused: ns_schur_check names the keys at input) */
static int make_linear(ScarcParams *p, const char *key, const char *name) {
  FEAST_CHECK(p->smoother_step != SCARC_STEP_ADAPTIVE, FEAST_ERR_ARG,
              "%s = %s needs a linear preconditioner: an adaptive smoother step makes the V cycle a nonlinear map",
              key, name);
  char why[128];
  snprintf(why, sizeof why, "%s = %s", key, name);
  scarc_params_make_linear(p, why);
  return 0;
}

/* linear.krylov = ibicgstab | pipebicgsafe need K_s to be a linear map: velocity solves
 * of a fixed number of multigrid cycles (a Krylov velocity solve, or one stopped at a
 * tolerance, is a nonlinear map of the defect) with a fixed smoother step. The same holds
 * for velocity.scarc_solver = ibicgstab | pipebicgsafe and their V cycle. */
static int linear_preconditioner(NsProblem *ns) {
  const FeastKrylovMethod krylov = ns_krylov_choice(&ns->params, ns->stokes);
  const char *krylov_name = feast_krylov_method_name(krylov);
  if (feast_krylov_needs_linear_preconditioner(ns->velocity_method))
    FEAST_CALL(make_linear(&ns->scarc_params, "velocity.scarc_solver", velocity_solver_name(ns->velocity_method)));
  if (!feast_krylov_needs_linear_preconditioner(krylov)) return 0;
  FEAST_CHECK(ns->velocity_method == FEAST_KRYLOV_RICHARDSON, FEAST_ERR_ARG,
              "velocity.scarc_solver = %s makes the Schur preconditioner a nonlinear map, which linear.krylov = %s "
              "cannot be preconditioned with; use mg", velocity_solver_name(ns->velocity_method), krylov_name);
  FEAST_CALL(make_linear(&ns->scarc_params, "linear.krylov", krylov_name));
  if (ns->velocity_sp.fixed_iterations == 0) {
    ns->velocity_sp.fixed_iterations = 2;
    feast_log(1, "  velocity.fixed_iterations = 0: 2 multigrid cycles per velocity solve, as linear.krylov = %s "
                 "needs a linear preconditioner\n", krylov_name);
  }
  return 0;
}

int ns_schur_create(NsProblem *ns) {
  const NsVelocityParams *vp = &ns->params.velocity;
  ns->velocity_method = vp->method;
  memset(&ns->velocity_sp, 0, sizeof ns->velocity_sp);
  ns->velocity_sp.rtol = vp->rtol;
  ns->velocity_sp.max_iterations = vp->max_iterations;
  ns->velocity_sp.fixed_iterations = vp->fixed_iterations;
  ns->velocity_sp.divergence_factor = ns->params.nonlinear.divergence_factor;
  ns->velocity_sp.label = "velocity";
  /* the test hook debug.inject wraps the whole preconditioner */
  FEAST_CALL(feast_fault_op(&ns->params.fault, ns->dom->rank, (FeastLinOp){apply, ns}, &ns->fault, &ns->precond));
  ns->scarc_params = vp->scarc;
  /* solver.coarse_stabilisation = auto resolved by the problem */
  if (ns->defaults.upwind_auto)
    ns->scarc_params.coarse_stabilisation = ns->defaults.upwind ? SCARC_STABILISATION_UPWIND : SCARC_STABILISATION_NONE;
  FEAST_CALL(linear_preconditioner(ns));
  if (ns->velocity_sp.max_iterations < ns->velocity_sp.fixed_iterations)
    ns->velocity_sp.max_iterations = ns->velocity_sp.fixed_iterations;
  FEAST_CALL(scarc_create(ns->dom, ns->mask[NS_U], &ns->scarc_params, &ns->scarc[0]));
  ns->pcd = ns->defaults.pcd;
  ns->pressure_laplace = ns->pcd || ns->time_dependent;
  if (ns->pressure_laplace) FEAST_CALL(ns_pcd_create(ns));
  if (!ns->newton && feast_mask_same(ns->mask[NS_U], ns->mask[NS_V])) {
    ns->scarc[1] = ns->scarc[0];
    return 0;
  }
  return scarc_create(ns->dom, ns->mask[NS_V], &ns->scarc_params, &ns->scarc[1]);
}

void ns_schur_destroy(NsProblem *ns) {
  if (ns->scarc[1] == ns->scarc[0]) ns->scarc[1] = NULL;
  scarc_destroy(&ns->scarc[0]);
  scarc_destroy(&ns->scarc[1]);
  ns_pcd_destroy(ns);
}

int ns_schur_update(NsProblem *ns) {
  FEAST_CALL(scarc_set_operator(ns->scarc[0], ns->blk[NS_A11]));
  if (ns->scarc[1] != ns->scarc[0]) FEAST_CALL(scarc_set_operator(ns->scarc[1], ns->blk[NS_A22]));
  return ns->pcd ? ns_pcd_update(ns) : 0; /* A_p does not change */
}

/* c_f <- A_ff^-1 d_f by ScaRC from zero; a solver failure (NaN, breakdown) leaves a NaN
 * for the outer Krylov method to report */
static int velocity_solve(NsProblem *ns, int f, const FeastVec *d, FeastVec *c) {
  FeastVec df, cf;
  feast_vec_view(d, f, &df);
  feast_vec_view(c, f, &cf);
  feast_vec_zero(&cf);
  FeastSolveResult res;
  FEAST_CALL(scarc_solve(ns->scarc[f], ns->velocity_method, &ns->velocity_sp, &df, &cf, &res));
  ns->velocity_solves++;

  if (!isfinite(res.final_residual) && cf.nlocal > 0) cf.v[0][0] = NAN;
  return 0;
}

/* c_p <- S~^-1 r, r = BT1 c_u + BT2 c_v - d_p: theta nu r / m (m: lumped mass), plus
 * theta N_p A_p^-1 r / m with linear.schur = pcd, plus mass A_p^-1 r in a time step
 * (Cahouet & Chabard: the velocity block mass M + theta (nu L + N) commuted past the
 * divergence, F_p = mass M_p + theta (nu A_p + N_p)); c_p = d_p at fixed pressure nodes */
static int pressure_update(NsProblem *ns, const FeastVec *d, FeastVec *c) {
  const FeastDomain *dom = ns->dom;
  const long n = (long)c->N * c->N;
  for (int li = 0; li < dom->nlocal; li++) {
    double *cp = feast_vec_block(c, NS_P, li);
    feast_band9_matvec(&ns->blk[NS_BT1][li], feast_vec_block(c, NS_U, li), cp);
    feast_band9_matvec_add(&ns->blk[NS_BT2][li], feast_vec_block(c, NS_V, li), cp);
  }
  FeastVec cp;
  feast_vec_view(c, NS_P, &cp);
  FEAST_CALL(feast_vec_sum(&cp));
  FeastVec dpv;
  feast_vec_view(d, NS_P, &dpv);
  feast_vec_axpy(-1.0, &dpv, &cp); /* r */
  const int laplace = ns->pressure_laplace && (ns->pcd || ns->time.on);
  if (laplace) FEAST_CALL(ns_pcd_apply(ns, &cp, ns->pcd_y));
  const double nu = ns->time.on ? ns->time.theta * ns->nu : ns->nu;
  for (int li = 0; li < dom->nlocal; li++) {
    double *p = feast_vec_block(c, NS_P, li);
    const double *dp = feast_vec_block(d, NS_P, li), *m = ns->mass->v[li], *y = laplace ? ns->pcd_y->v[li] : NULL;
    const unsigned char *fixed = ns->mask[NS_P]->fixed[ns->level][li];
    for (long i = 0; i < n; i++) p[i] = fixed[i] ? dp[i] : (nu * p[i] + (y ? y[i] : 0.0)) / m[i];
  }
  return ns_project_solution(ns, c);
}

/* t_v <- d_v - A21 c_u (Newton's coupling of the velocity components) */
static int coupled_defect(NsProblem *ns, const FeastVec *d, const FeastVec *c, FeastVec *t) {
  FeastVec tv, dv;
  feast_vec_view(t, NS_V, &tv);
  feast_vec_view(d, NS_V, &dv);
  for (int li = 0; li < ns->dom->nlocal; li++)
    feast_band9_matvec(&ns->blk[NS_A21][li], feast_vec_block(c, NS_U, li), tv.v[li]);
  FEAST_CALL(feast_vec_sum(&tv));
  feast_vec_aypx(-1.0, &dv, &tv); /* tv <- dv - tv */
  return 0;
}

static int apply(void *ctx, const FeastVec *d, FeastVec *c) {
  NsProblem *ns = ctx;
  FEAST_CALL(velocity_solve(ns, NS_U, d, c));
  if (ns->newton) { /* block Gauss-Seidel on [A11 0; A21 A22] */
    FEAST_CALL(coupled_defect(ns, d, c, ns->t));
    FEAST_CALL(velocity_solve(ns, NS_V, ns->t, c));
  } else {
    FEAST_CALL(velocity_solve(ns, NS_V, d, c));
  }
  return pressure_update(ns, d, c);
}


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
#include <string.h>

static int apply(void *ctx, const FeastVec *d, FeastVec *c);

/* linear.krylov = ibicgstab | pipebicgsafe need K_s to be a linear map: velocity solves
 * of a fixed number of multigrid cycles (a Krylov velocity solve, or one stopped at a
 * tolerance, is a nonlinear map of the defect) with a fixed smoother step. The same holds
 * for velocity.scarc_solver = ibicgstab | pipebicgsafe and their V cycle. p = NULL: the
 * input-phase check only. */
static int linear_preconditioner(const FeastConfig *cfg, int stokes, ScarcParams *p, FeastSolveParams *sp) {
  const char *krylov, *velocity;
  FeastKrylovMethod krylov_method, velocity_method;
  FEAST_CALL(ns_krylov_choice(cfg, stokes, &krylov));
  FEAST_CALL(feast_config_get_string(cfg, "velocity.scarc_solver", &velocity));
  FEAST_CALL(feast_krylov_method_from_name(krylov, &krylov_method));
  FEAST_CALL(scarc_method_from_name(velocity, &velocity_method));
  if (feast_krylov_needs_linear_preconditioner(velocity_method))
    FEAST_CALL(scarc_linear_required(cfg, "solver.", "velocity.scarc_solver", p));
  if (!feast_krylov_needs_linear_preconditioner(krylov_method)) return 0;
  FEAST_CHECK(strcmp(velocity, "mg") == 0, FEAST_ERR_CONFIG,
              "%s: velocity.scarc_solver = %s makes the Schur preconditioner a nonlinear map (a Krylov "
              "solve depends nonlinearly on its right-hand side), which linear.krylov = %s (%s) cannot be "
              "preconditioned with; use velocity.scarc_solver = mg (a fixed number of cycles, "
              "velocity.fixed_iterations)",
              feast_config_origin(cfg, "velocity.scarc_solver"), velocity, krylov,
              feast_config_origin(cfg, "linear.krylov"));
  FEAST_CALL(scarc_linear_required(cfg, "solver.", "linear.krylov", p));
  if (sp && sp->fixed_iterations == 0) {
    sp->fixed_iterations = 2;
    feast_log(1, "  velocity.fixed_iterations = 0: 2 multigrid cycles per velocity solve, as linear.krylov = %s "
                 "needs a linear preconditioner\n", krylov);
  }
  return 0;
}

int ns_schur_check(const FeastConfig *cfg, int stokes) { return linear_preconditioner(cfg, stokes, NULL, NULL); }

int ns_schur_create(NsProblem *ns) {
  const FeastConfig *cfg = ns->cfg;
  const char *method;
  long maxit;
  FEAST_CALL(feast_config_get_string(cfg, "velocity.scarc_solver", &method));
  FEAST_CALL(scarc_method_from_name(method, &ns->velocity_method));
  memset(&ns->velocity_sp, 0, sizeof ns->velocity_sp);
  FEAST_CALL(feast_config_get_real(cfg, "velocity.rtol", &ns->velocity_sp.rtol));
  FEAST_CALL(feast_config_get_int(cfg, "velocity.max_iterations", &maxit));
  ns->velocity_sp.max_iterations = (int)maxit;
  FEAST_CALL(feast_config_get_int(cfg, "velocity.fixed_iterations", &maxit));
  ns->velocity_sp.fixed_iterations = (int)maxit;
  FEAST_CALL(feast_config_get_real(cfg, "solver.divergence_factor", &ns->velocity_sp.divergence_factor));
  ns->velocity_sp.label = "velocity";
  /* the test hook debug.inject wraps the whole preconditioner */
  FeastFaultParams fault;
  FEAST_CALL(feast_fault_params_from_config(cfg, &fault));
  FEAST_CALL(feast_fault_op(&fault, ns->dom->rank, (FeastLinOp){apply, ns}, &ns->fault, &ns->precond));
  FEAST_CALL(scarc_params_from_config(cfg, "solver.", &ns->scarc_params));
  /* solver.coarse_stabilisation = auto (ScaRC's reading: none) resolved by the problem */
  if (ns->defaults.upwind_auto)
    ns->scarc_params.coarse_stabilisation = ns->defaults.upwind ? SCARC_STABILISATION_UPWIND : SCARC_STABILISATION_NONE;
  FEAST_CALL(linear_preconditioner(cfg, ns->stokes, &ns->scarc_params, &ns->velocity_sp));
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


/* The block preconditioner of the saddle-point system K = [A B; BT C], applied to a defect
 * d = (d_u, d_v, d_p). With the block factorisation K = L D U,
 *   L = [I 0; BT A^-1 I], D = blockdiag(A, -S), U = [I A^-1 B; 0 I],  S = BT A^-1 B - C,
 * linear.factorisation picks the factors it inverts (NsFactorisation):
 *   lower    = L D = K_s = [A 0; BT -S] of the FEAST paper (eq. 2-4), the default:
 *              c_u = A^-1 d_u, then c_p = S~^-1 (BT c_u - d_p);
 *   upper    = D U = [A B; 0 -S]: c_p = -S~^-1 d_p, then c_u = A^-1 (d_u - B c_p);
 *   full     = L D U: lower's c_u and c_p, then c_u = A^-1 (d_u - B c_p) (two velocity solves);
 *   diagonal = D: c_u = A^-1 d_u, c_p = -S~^-1 d_p.
 * The pieces:
 *   A^-1: c_u = A11^-1 ., c_v = A22^-1 . approximately, by ScaRC (velocity.* keys); the two
 *         velocity blocks share one ScaRC when their matrices and Dirichlet parts are the
 *         same (fixed point: A11 = A22); Newton's blocks differ and get one each, and A is
 *         then block Gauss-Seidel on [A11 0; A21 A22], by default of the Jacobian without
 *         its reaction term (velocity.newton_reaction = off: system.c assembles them apart);
 *   S~^-1: an entry of the registry of Schur complement approximations (NsSchurApprox,
 *         chosen by linear.schur): nu M_p^L^-1 (lumped pressure mass, "mass", here) or
 *         the pressure convection-diffusion approximation ("pcd", pcd.c). */
#include "feast/base/error.h"
#include "feast/base/log.h"
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
static int make_linear_one(ScarcParams *p, const char *key, const char *name) {
  FEAST_CHECK(p->smoother_step != SCARC_STEP_ADAPTIVE, FEAST_ERR_ARG,
              "%s = %s needs a linear preconditioner: an adaptive smoother step makes the V cycle a nonlinear map",
              key, name);
  char why[128];
  snprintf(why, sizeof why, "%s = %s", key, name);
  scarc_params_make_linear(p, why);
  return 0;
}

/* the velocity's and, where the [pressure] ScaRC keys differ, the A_p solves' parameters */
static int make_linear(NsProblem *ns, const char *key, const char *name) {
  FEAST_CALL(make_linear_one(&ns->prec.scarc_params, key, name));
  return ns->prec.pressure_own ? make_linear_one(&ns->prec.pressure_scarc_params, key, name) : 0;
}

/* linear.krylov = ibicgstab | pipebicgsafe need K_s to be a linear map: velocity solves
 * of a fixed number of multigrid cycles (a Krylov velocity solve, or one stopped at a
 * tolerance, is a nonlinear map of the defect) with a fixed smoother step. The same holds
 * for velocity.scarc_solver = ibicgstab | pipebicgsafe and their V cycle. */
static int linear_preconditioner(NsProblem *ns) {
  const FeastKrylovMethod krylov = ns_krylov_choice(&ns->params, ns->stokes);
  const char *krylov_name = feast_krylov_method_name(krylov);
  if (feast_krylov_needs_linear_preconditioner(ns->prec.velocity_method))
    FEAST_CALL(make_linear(ns, "velocity.scarc_solver", velocity_solver_name(ns->prec.velocity_method)));
  if (!feast_krylov_needs_linear_preconditioner(krylov)) return 0;
  FEAST_CHECK(ns->prec.velocity_method == FEAST_KRYLOV_RICHARDSON, FEAST_ERR_ARG,
              "velocity.scarc_solver = %s makes the Schur preconditioner a nonlinear map, which linear.krylov = %s "
              "cannot be preconditioned with; use mg", velocity_solver_name(ns->prec.velocity_method), krylov_name);
  FEAST_CALL(make_linear(ns, "linear.krylov", krylov_name));
  if (ns->prec.velocity_sp.fixed_iterations == 0) {
    ns->prec.velocity_sp.fixed_iterations = 2;
    feast_log(1, "  velocity.fixed_iterations = 0: 2 multigrid cycles per velocity solve, as linear.krylov = %s "
                 "needs a linear preconditioner\n", krylov_name);
  }
  return 0;
}

/* the solver of velocity block f (velocity.solver); ns->prec.scarc[f] its ScaRC (counters) */
static int velocity_solver(NsProblem *ns, int f) {
  FEAST_CALL(ns_inner_create(ns->params.velocity.solver, "velocity", ns->dom, ns->level, ns->sys.mask[f], &ns->prec.scarc_params,
                             ns->prec.velocity_method, &ns->prec.velocity_sp, &ns->prec.velocity[f]));
  ns->prec.scarc[f] = ns_inner_scarc(ns->prec.velocity[f]);
  return 0;
}

/* the A_p solves' tolerances (pressure.*); the rest as the velocity solves' (method, fixed
 * iterations, divergence factor) */
static void pressure_solve_params(NsProblem *ns) {
  ns->prec.pressure_sp = ns->prec.velocity_sp;
  ns->prec.pressure_sp.rtol = ns->params.pressure.rtol;
  ns->prec.pressure_sp.max_iterations = ns->params.pressure.max_iterations;
  if (ns->prec.pressure_sp.max_iterations < ns->prec.pressure_sp.fixed_iterations)
    ns->prec.pressure_sp.max_iterations = ns->prec.pressure_sp.fixed_iterations;
  ns->prec.pressure_sp.label = "pressure";
}

/* out <- in with coarse_stabilisation = auto resolved (ns_defaults' coarse-mesh rule) */
static void resolve_upwind(const NsProblem *ns, const ScarcParams *in, ScarcParams *out) {
  *out = *in;
  if (in->coarse_stabilisation == SCARC_STABILISATION_AUTO)
    out->coarse_stabilisation = ns->defaults.upwind ? SCARC_STABILISATION_UPWIND : SCARC_STABILISATION_NONE;
}

/* linear.preconditioner = auto on a stationary navier-stokes solve of at most
 * NS_DIRECT_SWITCH_MAX_DOFS unknowns (grid sequencing's coarser levels ask for direct
 * outright, sequencing.c): the block preconditioner, until the linear solve of one step
 * needs more than NS_DIRECT_SWITCH_ITERATIONS Krylov iterations; from the next step on K
 * factored whole (coupled_direct.c), one iteration per step. The break-even of one
 * factorisation against the block preconditioner's iterations, measured at 75k-375k
 * unknowns, lies at 13
 * (the step at Re = 800) to 47 (the cavity at Re = 1000) iterations per step; the
 * threshold lies above it, so that a switch pays wherever it happens: the step at Re = 800,
 * L = 4, 60-98 iterations per Newton step; the cavity at Re = 3200, L = 6, 54-268; the DFG
 * channels and the cylinder (5-42) keep the block preconditioner
 * (docs/notes/open-flows.md, 2026-12-03). A count, not a clock: every run and rank count
 * decides the same. */
static void init_direct_switch(NsProblem *ns) {
  const long dofs = NS_NFIELDS * (long)ns->dom->levels[ns->level].nglobal;
  ns->prec.direct_on = ns->defaults.direct;
  ns->prec.direct_switch = !ns->defaults.direct && ns->params.linear.preconditioner == NS_PRECONDITIONER_AUTO &&
                           !ns->stokes && !ns->time_dependent && dofs <= NS_DIRECT_SWITCH_MAX_DOFS;
  if (ns->prec.direct_switch)
    feast_log(1, "  linear.preconditioner = auto: block; direct after a step of more than %d linear iterations "
              "(%ld <= %d unknowns)\n", (int)NS_DIRECT_SWITCH_ITERATIONS, dofs, (int)NS_DIRECT_SWITCH_MAX_DOFS);
}

void ns_schur_direct_switch(NsProblem *ns, int iterations) {
  if (!ns->prec.direct_switch || ns->prec.direct_on || iterations <= NS_DIRECT_SWITCH_ITERATIONS) return;
  ns->prec.direct_on = 1;
  feast_log(1, "  linear.preconditioner = auto: direct from the next step on (%d linear iterations > %d)\n",
            iterations, (int)NS_DIRECT_SWITCH_ITERATIONS);
}

int ns_schur_create(NsProblem *ns) {
  const NsVelocityParams *vp = &ns->params.velocity;
  ns->prec.velocity_method = vp->method;
  memset(&ns->prec.velocity_sp, 0, sizeof ns->prec.velocity_sp);
  ns->prec.velocity_sp.rtol = vp->rtol;
  ns->prec.velocity_sp.max_iterations = ns->defaults.velocity_cycles;
  ns->prec.velocity_sp.fixed_iterations = vp->fixed_iterations;
  ns->prec.velocity_sp.divergence_factor = ns->params.nonlinear.divergence_factor;
  ns->prec.velocity_sp.label = "velocity";
  /* the test hook debug.inject wraps the whole preconditioner */
  FEAST_CALL(feast_fault_op(&ns->params.fault, ns->dom->rank, (FeastLinOp){apply, ns}, &ns->prec.fault, &ns->prec.op));
  init_direct_switch(ns);
  if (ns->defaults.direct) return 0; /* K factored whole (coupled_direct.c): no inner solvers */
  /* coarse_stabilisation = auto resolved by the problem; the A_p solves' own parameters where
   * a [pressure] ScaRC key differs from [solver], else the velocity's resolved ones */
  const ScarcParams *pressure = &ns->params.pressure.scarc;
  ns->prec.pressure_own = memcmp(pressure, &vp->scarc, sizeof *pressure) != 0;
  resolve_upwind(ns, &vp->scarc, &ns->prec.scarc_params);
  resolve_upwind(ns, pressure, &ns->prec.pressure_scarc_params);
  FEAST_CALL(linear_preconditioner(ns));
  if (!ns->prec.pressure_own) ns->prec.pressure_scarc_params = ns->prec.scarc_params;
  if (ns->prec.velocity_sp.max_iterations < ns->prec.velocity_sp.fixed_iterations)
    ns->prec.velocity_sp.max_iterations = ns->prec.velocity_sp.fixed_iterations;
  pressure_solve_params(ns);
  FEAST_CALL(velocity_solver(ns, NS_U));
  const NsFactorisation type = ns->params.linear.factorisation;
  if (type == NS_FACTORISATION_UPPER || type == NS_FACTORISATION_FULL)
    FEAST_CALL(feast_vec_create(ns->dom, ns->level, NS_NFIELDS, &ns->prec.upper_rhs));
  ns->prec.pcd = ns->defaults.pcd;
  ns->prec.schur = ns_schur_approx(ns->prec.pcd ? NS_SCHUR_PCD : NS_SCHUR_MASS);
  FEAST_CALL(ns->prec.schur->setup(ns));
  if (!ns->newton && feast_mask_same(ns->sys.mask[NS_U], ns->sys.mask[NS_V])) {
    ns->prec.velocity[1] = ns->prec.velocity[0], ns->prec.scarc[1] = ns->prec.scarc[0];
    return 0;
  }
  return velocity_solver(ns, NS_V);
}

void ns_schur_destroy(NsProblem *ns) {
  ns_direct_destroy(ns);
  if (ns->prec.velocity[1] == ns->prec.velocity[0]) ns->prec.velocity[1] = NULL;
  ns_inner_destroy(&ns->prec.velocity[0]);
  ns_inner_destroy(&ns->prec.velocity[1]);
  ns->prec.scarc[0] = ns->prec.scarc[1] = NULL;
  if (ns->prec.schur) ns->prec.schur->destroy(ns);
  feast_vec_destroy(&ns->prec.upper_rhs);
}

/* The velocity ScaRC copies A11 (A22) into its own finest-level storage at every refresh
 * (scarc_set_operator: copied unless it is the solver's storage). It cannot take the
 * system's blocks in place as Poisson does (scarc_operator_storage): ScaRC turns that
 * storage into its own form of the operator (interface rows summed, ring rows apart,
 * Dirichlet rows of its mask), while the system still needs the raw partial A11 with its
 * rows for K x (the Krylov method, the defect, forces.c). Under the fixed point with the
 * same u and v masks one ScaRC serves both blocks and A22 is A11's storage (system.c),
 * so one copy is made per refresh. */
static FeastBand9 *const *velocity_blocks(const NsProblem *ns) {
  return ns_velocity_blocks_apart(ns) ? ns->sys.vblk : ns->sys.blk;
}

int ns_schur_update(NsProblem *ns) {
  if (ns->prec.direct_on) return ns_direct_update(ns);
  FEAST_CALL(ns_inner_set_operator(ns->prec.velocity[0], velocity_blocks(ns)[NS_A11]));
  if (ns->prec.velocity[1] != ns->prec.velocity[0])
    FEAST_CALL(ns_inner_set_operator(ns->prec.velocity[1], velocity_blocks(ns)[NS_A22]));
  return ns->prec.schur->refresh ? ns->prec.schur->refresh(ns) : 0;
}

/* a velocity solve that failed (NaN, breakdown) leaves a NaN in its result for the outer
 * Krylov method to report */
static void mark_failure(const FeastSolveResult *res, FeastVec *cf) {
  if (!isfinite(res->final_residual)) feast_vec_mark_nan(cf);
}

/* c_f <- A_ff^-1 d_f by the inner solver (velocity.solver) from zero */
static int velocity_solve(NsProblem *ns, int f, const FeastVec *d, FeastVec *c) {
  FeastVec df, cf;
  feast_vec_view(d, f, &df);
  feast_vec_view(c, f, &cf);
  FeastSolveResult res;
  FEAST_CALL(ns_inner_solve(ns->prec.velocity[f], &df, &cf, &res));
  ns->prec.velocity_solves++;
  mark_failure(&res, &cf);
  return 0;
}

/* c_u, c_v <- A^-1 d_u, A^-1 d_v by the one inner solver both blocks share (the fixed
 * point: A22 = A11), together (bitwise as one after the other; ScaRC's V cycles solve
 * their coarse grids for both at once) */
static int velocity_solve_pair(NsProblem *ns, const FeastVec *d, FeastVec *c) {
  FeastVec df[2], cf[2];
  for (int f = NS_U; f <= NS_V; f++) feast_vec_view(d, f, &df[f]), feast_vec_view(c, f, &cf[f]);
  const FeastVec *b[2] = {&df[NS_U], &df[NS_V]};
  FeastVec *x[2] = {&cf[NS_U], &cf[NS_V]};
  FeastSolveResult res[2];
  FEAST_CALL(ns_inner_solve_many(ns->prec.velocity[0], 2, b, x, res));
  ns->prec.velocity_solves += 2;
  for (int f = NS_U; f <= NS_V; f++) mark_failure(&res[f], x[f]);
  return 0;
}

/* r = c_p <- BT1 c_u + BT2 c_v - d_p (consistent): the pressure right-hand side of lower and full */
static int lower_pressure_rhs(NsProblem *ns, const FeastVec *d, FeastVec *c) {
  FeastVec cu, cv, cp, dp;
  feast_vec_view(c, NS_U, &cu);
  feast_vec_view(c, NS_V, &cv);
  feast_vec_view(c, NS_P, &cp);
  feast_vec_matvec(ns->sys.blk[NS_BT1], &cu, &cp);
  feast_vec_matvec_add(ns->sys.blk[NS_BT2], &cv, &cp);
  FEAST_CALL(feast_vec_sum(&cp));
  feast_vec_view(d, NS_P, &dp);
  feast_vec_axpy(-1.0, &dp, &cp);
  return 0;
}

/* r = c_p <- -d_p: the pressure right-hand side of upper and diagonal (no velocity coupling) */
static void uncoupled_pressure_rhs(const FeastVec *d, FeastVec *c) {
  FeastVec cp, dp;
  feast_vec_view(c, NS_P, &cp);
  feast_vec_view(d, NS_P, &dp);
  feast_vec_zero(&cp);
  feast_vec_axpy(-1.0, &dp, &cp);
}

/* c_p <- S~^-1 r (r in c_p); c_p = d_p at fixed pressure nodes; int c_p = 0 with the null
 * space */
static int schur_solve(NsProblem *ns, const FeastVec *d, FeastVec *c) {
  FeastVec cp;
  feast_vec_view(c, NS_P, &cp);
  FEAST_CALL(ns->prec.schur->apply(ns, &cp));
  feast_vec_copy_fixed(d, c, NS_P, ns->sys.mask[NS_P]);
  return ns_project_solution(ns, c);
}

/* ---- linear.schur = mass: S~ = M_p^L / nu (the FEAST paper), in a time step with the
 * Cahouet-Chabard term: the velocity block mass M + theta (nu L + N) commuted past the
 * divergence, S~^-1 = theta nu M_p^-1 + mass A_p^-1 (pcd.c solves A_p; a time run only) ---- */
static int mass_setup(NsProblem *ns) { return ns->time_dependent ? ns_pcd_create(ns) : 0; }

static int mass_apply(NsProblem *ns, FeastVec *r) {
  const int cahouet_chabard = !ns_stationary_operators(ns); /* a time step (the pseudo-time steps: none) */
  if (cahouet_chabard) FEAST_CALL(ns_pcd_apply(ns, r, ns->prec.pcd_ops.y));
  ns_schur_viscous(ns, cahouet_chabard ? ns->prec.pcd_ops.y : NULL, r);
  return 0;
}

static const NsSchurApprox schur_mass = {"mass", mass_setup, NULL, mass_apply, ns_pcd_destroy};

/* the registry: one entry per linear.schur choice but auto */
static const NsSchurApprox *const schur_registry[NS_SCHUR_NCHOICES] = {[NS_SCHUR_MASS] = &schur_mass,
                                                                      [NS_SCHUR_PCD] = &ns_schur_pcd};

const NsSchurApprox *ns_schur_approx(NsSchurChoice c) {
  return (unsigned)c < NS_SCHUR_NCHOICES ? schur_registry[c] : NULL;
}

const char *ns_schur_name(NsSchurChoice c) {
  if (c == NS_SCHUR_AUTO) return "auto";
  const NsSchurApprox *s = ns_schur_approx(c);
  return s ? s->name : "?";
}

/* t_v <- d_v - A21 c_u (Newton's coupling of the velocity components) */
static int coupled_defect(NsProblem *ns, const FeastVec *d, const FeastVec *c, FeastVec *t) {
  FeastVec tv, dv, cu;
  feast_vec_view(t, NS_V, &tv);
  feast_vec_view(d, NS_V, &dv);
  feast_vec_view(c, NS_U, &cu);
  feast_vec_matvec(velocity_blocks(ns)[NS_A21], &cu, &tv);
  FEAST_CALL(feast_vec_sum(&tv));
  feast_vec_aypx(-1.0, &dv, &tv); /* tv <- dv - tv */
  return 0;
}

/* c_u, c_v <- A^-1 (r_u, r_v): one ScaRC solve per block; with Newton block Gauss-Seidel
 * on [A11 0; A21 A22] (r must not be ns->iter.scratch) */
static int velocity_solves(NsProblem *ns, const FeastVec *r, FeastVec *c) {
  if (!ns->newton && ns->prec.velocity[1] == ns->prec.velocity[0]) return velocity_solve_pair(ns, r, c);
  FEAST_CALL(velocity_solve(ns, NS_U, r, c));
  if (!ns->newton) return velocity_solve(ns, NS_V, r, c);
  FEAST_CALL(coupled_defect(ns, r, c, ns->iter.scratch));
  return velocity_solve(ns, NS_V, ns->iter.scratch, c);
}

/* t_u,v <- d_u,v - B c_p (consistent; B's velocity Dirichlet rows are zero, so t = d there):
 * the velocity right-hand side of upper and full */
static int upper_velocity_rhs(NsProblem *ns, const FeastVec *d, const FeastVec *c, FeastVec *t) {
  static const int b_block[2] = {NS_B1, NS_B2};
  FeastVec cp;
  feast_vec_view(c, NS_P, &cp);
  for (int f = NS_U; f <= NS_V; f++) {
    FeastVec tf, df;
    feast_vec_view(t, f, &tf);
    feast_vec_view(d, f, &df);
    feast_vec_matvec(ns->sys.blk[b_block[f]], &cp, &tf);
    FEAST_CALL(feast_vec_sum(&tf));
    feast_vec_aypx(-1.0, &df, &tf); /* tf <- df - tf */
  }
  return 0;
}

/* c <- P^-1 d for the factorisation P of linear.factorisation (see the top of the file) */
static int apply(void *ctx, const FeastVec *d, FeastVec *c) {
  NsProblem *ns = ctx;
  if (ns->prec.direct_on) return ns_direct_apply(ns, d, c);
  const NsFactorisation type = ns->params.linear.factorisation;
  if (type == NS_FACTORISATION_UPPER) {
    uncoupled_pressure_rhs(d, c);
  } else {
    FEAST_CALL(velocity_solves(ns, d, c));
    if (type == NS_FACTORISATION_DIAGONAL) uncoupled_pressure_rhs(d, c);
    else FEAST_CALL(lower_pressure_rhs(ns, d, c));
  }
  FEAST_CALL(schur_solve(ns, d, c));
  if (type == NS_FACTORISATION_LOWER || type == NS_FACTORISATION_DIAGONAL) return 0;
  FEAST_CALL(upper_velocity_rhs(ns, d, c, ns->prec.upper_rhs));
  return velocity_solves(ns, ns->prec.upper_rhs, c);
}

/* the ScaRC counters of all steps: this process's and those of a restored run */
void ns_scarc_totals(const NsProblem *ns, long *vcycles, long *solves, long *cycles) {
  ScarcStats st[2];
  scarc_stats(ns->prec.scarc[0], &st[0]);
  scarc_stats(ns->prec.scarc[1], &st[1]);
  const int shared = ns->prec.scarc[1] == ns->prec.scarc[0];
  *vcycles = ns->iter.resume.vcycles + st[0].vcycles + (shared ? 0 : st[1].vcycles);
  *solves = ns->iter.resume.local_solves + st[0].local_solves + (shared ? 0 : st[1].local_solves);
  *cycles = ns->iter.resume.local_cycles + st[0].local_cycles + (shared ? 0 : st[1].local_cycles);
}

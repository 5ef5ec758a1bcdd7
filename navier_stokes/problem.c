/* The problem's life cycle from its parameters: boundary conditions, masks, the
 * problem-dependent defaults. */
#include "feast/base/error.h"
#include "feast/base/log.h"
#include "navier_stokes/ns_keys.h"
#include "navier_stokes/ns_private.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const ns_field_names[NS_NFIELDS] = {"u", "v", "p"};

int ns_optional_expr(const char *text, const char *what, int zero_is_null, FeastExpr **e) {
  *e = NULL;
  if (!text) return 0;
  FEAST_CALL(feast_expr_create(text, what, e));
  double v;
  if (zero_is_null && feast_expr_is_constant(*e) && !feast_expr_eval(*e, 0.0, 0.0, &v) && v == 0.0)
    feast_expr_destroy(e);
  return 0;
}

int ns_velocity_given(FeastBC *const *velocity, int ncomp, int nparts) {
  for (int q = 0; q < nparts; q++)
    for (int d = 0; d < ncomp; d++)
      if (feast_bc_parts(velocity[d])[q]) return 1;
  return 0;
}

int ns_pressure_free(FeastBC *const *velocity, int ncomp, const FeastBC *pressure, int nparts) {
  for (int q = 0; q < nparts; q++) {
    if (feast_bc_parts(pressure)[q]) return 0;
    for (int d = 0; d < ncomp; d++)
      if (!feast_bc_parts(velocity[d])[q]) return 0;
  }
  return 1;
}

/* ---- the problem-dependent defaults (linear.schur, linear.krylov,
 * solver.coarse_stabilisation = auto; docs/notes/ns-linear-solver.md, "Robust defaults") ----
 * - linear.schur = auto: pcd where PCD applies (an inflow part, or an enclosed flow) and
 *   the domain Reynolds number U D / nu >= 200 (D: the larger side of the mesh's bounding
 *   box); mass below. The mass approximation nu M_p^-1 degrades with the Reynolds number
 *   of the flow, not with the mesh: on the cavity PCD is 40 % slower at Re = 100, as fast
 *   at Re = 250 and 1.4x faster at Re = 400; on the DFG channel (D = 2.2, U D / nu = 440
 *   at Re = 20) mass needs 100 iterations per step.
 * - linear.krylov = auto: fgmres for stationary navier-stokes (2.8x faster than BiCGStab on
 *   the cavity at Re = 400, and BiCGStab breaks down on the DFG channel at Re = 100);
 *   bicgstab (the paper's) for stokes and time steps.
 * - solver.coarse_stabilisation = auto: upwind where the Peclet number of the coarse mesh,
 *   U H / (2 nu) with H its longest macro edge, is >= 90; none below. The Galerkin coarse
 *   levels keep the finest level's streamline diffusion, so the coarsest ones (of the
 *   global and the local multigrids, the same levels whatever L) are central-difference
 *   operators at mesh Peclet numbers far above 2, and the Jacobi-smoothed multigrid stalls
 *   on them when the flow is convection-dominated at the macros' scale. The finest level's
 *   Peclet number does not separate the measured cases (the cavity at Re = 400, L = 5:
 *   3.1, converges without and upwind costs 10 % of the V cycles; at Re = 1000, L = 7:
 *   1.95, the velocity solves stall without it); the coarse mesh's does: the cavity
 *   (H = 0.5) at Re = 400 has 100 (with the fixed point upwind cost 10-16 % of the V
 *   cycles at L = 5, 6, so the threshold was 150 until 2026-11-27 (90: 100 is not a
 *   rounding away from none); with Newton's defaults
 *   it costs 0-5 % there, and at L = 7 the second fixed-point step stalls at the linear
 *   cap without it: 33 s instead of 64 s), at Re = 1000 250 (needed from L = 6), the DFG
 *   channel (H = 0.6) at Re = 100 300 (needed at L = 6, 1.8x faster at L = 5), at Re = 20
 *   60 (converges without); the graded 4 x 4 cavity (H = 0.354) at Re = 400 71. */
enum { RE_PCD = 200 };
static const double PECLET_UPWIND = 90.0;
/* grid sequencing's coarsest level: the first from SEQUENCE_LEVEL_MIN on whose cell Peclet
 * number is <= PECLET_SEQUENCE (ns_defaults) */
static const double PECLET_SEQUENCE = 32.0;
enum { SEQUENCE_LEVEL_MIN = 2 };

/* an int member that may be FEAST_AUTO (its key unset): the value, or the key's default
 * (the row of navier_stokes/ns_keys.c; test_params_table holds the rows to their defaults) */
static int or_default(int value, const char *key) {
  int v = 0;
  if (value != FEAST_AUTO) return value;
  if (feast_key_default(ns_config_keys(), key, FEAST_FIELD_INT, &v)) feast_warn("%s", feast_error_message());
  return v;
}

/* linear.max_iterations and linear.restart resolved: their values, unset their defaults; the
 * caps grow where both are unset (solve.c: a stationary fgmres run's, at its cap) */
static int linear_caps(const NsParams *p, int *max_iterations, int *restart) {
  *max_iterations = or_default(p->linear.max_iterations, "linear.max_iterations");
  *restart = or_default(p->linear.restart, "linear.restart");
  return p->linear.max_iterations == FEAST_AUTO && p->linear.restart == FEAST_AUTO;
}

int ns_linear_restart_bound(const NsParams *p, int stokes) {
  int cap, restart;
  const int grows = linear_caps(p, &cap, &restart) && ns_krylov_choice(p, stokes) == FEAST_KRYLOV_FGMRES &&
                    !stokes && p->time.scheme == NS_TIME_NONE && p->nonlinear.method != NS_NONLINEAR_FIXED_POINT;
  return grows && restart < NS_LINEAR_GROW_MAX / 2 ? NS_LINEAR_GROW_MAX / 2 : restart;
}

/* the larger side of the coarse mesh's bounding box, and its longest edge */
static void mesh_sizes(const FeastMesh *mesh, double *extent, double *edge) {
  double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
  for (int i = 0; i < mesh->nvertices; i++)
    for (int k = 0; k < 2; k++) {
      lo[k] = fmin(lo[k], mesh->xy[2 * i + k]);
      hi[k] = fmax(hi[k], mesh->xy[2 * i + k]);
    }
  *extent = fmax(hi[0] - lo[0], hi[1] - lo[1]);
  *edge = 0.0;
  for (int m = 0; m < mesh->nmacros; m++)
    for (int k = 0; k < 4; k++) {
      const double *a = &mesh->xy[2 * mesh->quads[4 * m + k]], *b = &mesh->xy[2 * mesh->quads[4 * m + (k + 1) % 4]];
      *edge = fmax(*edge, hypot(b[0] - a[0], b[1] - a[1]));
    }
}

/* (the rules hold for every level: measured at L = 4-7) */
int ns_defaults(const NsParams *p, const FeastMesh *mesh, int stokes, int enclosed, NsDefaults *d) {
  memset(d, 0, sizeof *d);
  double extent, edge;
  const double U = p->physics.reference_velocity, nu = ns_params_viscosity(p);
  mesh_sizes(mesh, &extent, &edge);
  const int time_dependent = p->time.scheme != NS_TIME_NONE, paper = stokes || time_dependent;
  const char *what = stokes ? "a stokes problem" : "a time-dependent run";
  d->re_domain = U * extent / nu;
  d->peclet = U * edge / (2.0 * nu);
  int count = 0;
  if (!enclosed) {
    unsigned char *inflow;
    FEAST_CALL(FEAST_ALLOC(mesh->nparts + 1, &inflow));
    const int st = ns_pcd_inflow_parts(p, mesh, inflow, &count);
    free(inflow);
    FEAST_CALL(st);
  }
  d->pcd_applicable = enclosed || count > 0;

  d->was_auto.schur = p->linear.schur == NS_SCHUR_AUTO;
  if (!d->was_auto.schur) d->pcd = p->linear.schur == NS_SCHUR_PCD;
  else if (paper) snprintf(d->why.schur, sizeof d->why.schur, "%s", what);
  else if (!d->pcd_applicable)
    snprintf(d->why.schur, sizeof d->why.schur, "no inflow part and not enclosed: PCD has no boundary conditions");
  else {
    d->pcd = d->re_domain >= RE_PCD;
    snprintf(d->why.schur, sizeof d->why.schur, "%s, U D / nu = %.4g %s %d", enclosed ? "enclosed flow" : "inflow",
             d->re_domain, d->pcd ? ">=" : "<", RE_PCD);
  }

  /* the rotation term (pcd.c): an enclosed flow (A_p with Neumann conditions) or one with
   * Elman & Tuminaro's inflow conditions (Robin PCD, A_p zero on the outflow; not with
   * linear.pcd_inflow_dirichlet, whose A_p is zero on the inflow) */
  const int robin = count > 0 && !p->linear.pcd_inflow_dirichlet;
  d->rotation = d->pcd && (enclosed || robin) && p->linear.pcd_rotation > 0.0;
  snprintf(d->why.rotation, sizeof d->why.rotation, "%s",
           d->rotation ? (enclosed ? "on (an enclosed flow)" : "on (an open flow, Robin PCD: its recirculation zones)")
           : p->linear.pcd_rotation > 0.0 ? "off (linear.pcd_boundary = inflow-dirichlet)"
                                          : "off (linear.pcd_rotation = 0)");
  /* linear.preconditioner = direct: the linear solves are exact, so nothing speaks for the
   * fixed point (choose_nonlinear: Newton from the first step) */
  d->direct = p->linear.preconditioner == NS_PRECONDITIONER_DIRECT;
  d->was_auto.nonlinear = !stokes && p->nonlinear.method == NS_NONLINEAR_AUTO;
  d->newton = d->was_auto.nonlinear && !time_dependent && (d->direct || (d->rotation && enclosed));
  if (d->was_auto.nonlinear)
    snprintf(d->why.nonlinear, sizeof d->why.nonlinear, "%s",
             d->newton && d->direct ? "linear.preconditioner = direct: exact linear solves"
             : d->newton       ? "a stationary enclosed flow with PCD and its rotation term"
             : time_dependent ? "a time-dependent run"
             : !enclosed      ? "an open flow: Newton's basin is reached by pseudo-time steps or a coarser level"
                              : "no PCD rotation term: Newton's linear systems would need far more iterations");

  /* velocity.max_iterations unset: one V cycle per velocity solve where the rotation term is
   * on in a stationary enclosed flow, whose outer iterations follow the Schur approximation
   * (a second cycle saves at most 13 % of them and costs more: 0-22 % faster with one, 7
   * cases at Re = 400-3200, L = 4-6), two elsewhere (the channel: 45 % more iterations with
   * one, 3-14 % slower; docs/notes/ns-linear-solver.md, "One velocity V cycle where the
   * rotation term is on") */
  d->was_auto.velocity_cycles = p->velocity.max_iterations == FEAST_AUTO && d->rotation && enclosed && !time_dependent;
  d->velocity_cycles = d->was_auto.velocity_cycles ? 1 : or_default(p->velocity.max_iterations, "velocity.max_iterations");
  d->grow = linear_caps(p, &d->linear_max_iterations, &d->linear_restart);

  /* continuation.method = auto: where the direct attempt fails, pseudo-time steps in an open
   * flow (the backward-facing step at Re = 800, L = 4: 77 s against 1,364 s by continuation
   * in Re, whose stages at the target stalled again and again), continuation in Re in an
   * enclosed one (the cavity: its stages converge; docs/notes/ns-nonlinear.md) */
  d->pseudo_time = !stokes && !time_dependent && !enclosed && p->continuation.method == NS_CONTINUATION_AUTO;
  /* nonlinear.method = auto after pseudo-time steps (PCD without the rotation term): the
   * attempt that follows them switches from the fixed point to Newton at
   * nonlinear.newton_switch x its first defect (the step at Re = 800, L = 4: 31 fixed-point
   * and 11 Newton steps where the fixed point alone takes 91; Newton from the attempt's
   * first step crawls: 83 steps); the direct attempt keeps the fixed point throughout (the
   * DFG channel at Re = 100: Newton 12 % slower) */
  d->newton_after_pseudo_time = d->was_auto.nonlinear && !time_dependent && d->pcd && !d->newton &&
                                (d->pseudo_time || p->continuation.method == NS_CONTINUATION_PSEUDO_TIME);

  /* continuation.grid_sequencing (sequencing.c): auto = on in a stationary open flow, where
   * the nonlinear iteration's way into Newton's basin is the cost (the step at Re = 800, L =
   * 5: 4 Newton steps on L = 5 after L = 3 and 4, 148 s against 265 s), off in an enclosed
   * one (the cavity at Re = 1000, L = 6: the same time, 9 fixed-point and Newton steps
   * either way). The coarsest level: the first from SEQUENCE_LEVEL_MIN on whose cell
   * Peclet number U h / (2 nu), h = H / 2^l, is <= PECLET_SEQUENCE (the step, H = 0.5: level
   * 3 at 25; level 2, at 50, does not converge in 100 steps) */
  const NsGridSequencing gs = p->continuation.grid_sequencing;
  d->sequencing = !stokes && !time_dependent && (gs == NS_SEQUENCING_ON || (gs == NS_SEQUENCING_AUTO && !enclosed));
  d->coarsest_level = SEQUENCE_LEVEL_MIN;
  while (d->coarsest_level < 30 && d->peclet / (double)(1 << d->coarsest_level) > PECLET_SEQUENCE) d->coarsest_level++;
  if (d->sequencing)
    snprintf(d->why.sequencing, sizeof d->why.sequencing, "%s; from level %d, cell Peclet number %.3g <= %g",
             gs == NS_SEQUENCING_ON ? "on" : "an open flow", d->coarsest_level,
             d->peclet / (double)(1 << d->coarsest_level), PECLET_SEQUENCE);

  d->was_auto.krylov = p->linear.krylov == NS_KRYLOV_AUTO;
  d->krylov = ns_krylov_choice(p, stokes);
  if (d->was_auto.krylov)
    snprintf(d->why.krylov, sizeof d->why.krylov, "%s", paper ? what : "stationary navier-stokes");

  d->was_auto.upwind = p->velocity.scarc.coarse_stabilisation == SCARC_STABILISATION_AUTO;
  if (!d->was_auto.upwind) d->upwind = p->velocity.scarc.coarse_stabilisation == SCARC_STABILISATION_UPWIND;
  else if (paper) snprintf(d->why.upwind, sizeof d->why.upwind, "%s", what);
  else {
    d->upwind = d->peclet >= PECLET_UPWIND;
    snprintf(d->why.upwind, sizeof d->why.upwind,
             "coarse-mesh Peclet number U H / (2 nu) = %.4g %s %g, H = %.3g the longest macro edge",
             d->peclet, d->upwind ? ">=" : "<", PECLET_UPWIND, edge);
  }
  return 0;
}

static void log_defaults(const NsDefaults *d) {
  if (d->was_auto.schur) feast_log(1, "  linear.schur = auto: %s (%s)\n", d->pcd ? "pcd" : "mass", d->why.schur);
  if (d->pcd) feast_log(1, "  linear.pcd_rotation: the rotation term %s\n", d->why.rotation);
  if (d->was_auto.nonlinear)
    feast_log(1, "  nonlinear.method = auto: %s (%s)\n",
              d->newton && d->direct        ? "Newton"
              : d->newton                   ? "fixed point, then Newton"
              : d->newton_after_pseudo_time ? "fixed point; after pseudo-time steps, then Newton"
                                            : "fixed point",
              d->why.nonlinear);
  if (d->pseudo_time)
    feast_log(1, "  continuation.method = auto: pseudo-time steps where the direct attempt fails (an open flow)\n");
  if (d->sequencing) feast_log(1, "  continuation.grid_sequencing: on (%s)\n", d->why.sequencing);
  if (d->direct) feast_log(1, "  linear.preconditioner: direct (the whole linearised system factored by UMFPACK)\n");
  if (d->was_auto.velocity_cycles)
    feast_log(1, "  velocity.max_iterations: 1 (unset; an enclosed flow with the rotation term: its outer "
                 "iterations follow the Schur approximation)\n");
  if (d->was_auto.krylov) feast_log(1, "  linear.krylov = auto: %s (%s)\n", feast_krylov_method_name(d->krylov), d->why.krylov);
  if (d->was_auto.upwind)
    feast_log(1, "  solver.coarse_stabilisation = auto: %s (%s)\n", d->upwind ? "upwind" : "none", d->why.upwind);
}

/* Newton or the fixed point, from nonlinear.method and what ns_defaults resolved auto to:
 * auto that switches has Newton's structures (blocks A12, A21, the second velocity solver)
 * from the start, its linearisation from the switch on (solve.c) */
static void choose_nonlinear(NsProblem *ns) {
  const NsNonlinearMethod m = ns->params.nonlinear.method;
  const NsDefaults *d = &ns->defaults;
  const int exact = m == NS_NONLINEAR_AUTO && d->newton && d->direct; /* Newton throughout */
  ns->newton_auto = m == NS_NONLINEAR_AUTO && !exact && (d->newton || d->newton_after_pseudo_time);
  ns->newton = !ns->stokes && (m == NS_NONLINEAR_NEWTON || exact || ns->newton_auto);
}

static int read_params(NsProblem *ns) {
  const NsParams *p = &ns->params;
  ns->nu = ns_params_viscosity(p);
  ns->time_dependent = p->time.scheme != NS_TIME_NONE;
  FEAST_CALL(ns_optional_expr(p->physics.force[0], "problem.force_x", 1, &ns->sys.force[0]));
  FEAST_CALL(ns_optional_expr(p->physics.force[1], "problem.force_y", 1, &ns->sys.force[1]));
  const char *exact[NS_NFIELDS] = {"problem.exact_u", "problem.exact_v", "problem.exact_p"};
  for (int f = 0; f < NS_NFIELDS; f++) FEAST_CALL(ns_optional_expr(p->physics.exact[f], exact[f], 0, &ns->sys.exact[f]));
  if (!ns->time_dependent) return 0;
  FEAST_CALL(ns_optional_expr(p->physics.initial[0] ? p->physics.initial[0] : "0", "initial.u", 0, &ns->initial[0]));
  return ns_optional_expr(p->physics.initial[1] ? p->physics.initial[1] : "0", "initial.v", 0, &ns->initial[1]);
}

/* the texts of ns->params (expressions, part names) copied into one block that the problem
 * owns, so that the parameters stay whole after the caller's strings are gone (a coarser
 * level's problem is made from them: sequencing.c) */
static int own_strings(NsProblem *ns) {
  NsPhysicsParams *ph = &ns->params.physics;
  const char **texts[3 + 3 + 2 + 2 + 5 * NS_MAX_BOUNDARY];
  int n = 0;
  for (int i = 0; i < 2; i++) texts[n++] = &ph->force[i];
  for (int i = 0; i < 3; i++) texts[n++] = &ph->exact[i];
  for (int i = 0; i < 2; i++) texts[n++] = &ph->initial[i];
  texts[n++] = &ph->force_z, texts[n++] = &ph->exact_w;
  for (int i = 0; i < ph->nboundary; i++) {
    NsBoundaryValues *b = &ph->boundary[i];
    texts[n++] = &b->part, texts[n++] = &b->u, texts[n++] = &b->v, texts[n++] = &b->p, texts[n++] = &b->w;
  }
  size_t size = 1;
  for (int i = 0; i < n; i++) size += *texts[i] ? strlen(*texts[i]) + 1 : 0;
  FEAST_CALL(FEAST_ALLOC(size, &ns->strings));
  char *at = ns->strings;
  for (int i = 0; i < n; i++) {
    if (!*texts[i]) continue;
    const size_t len = strlen(*texts[i]) + 1;
    memcpy(at, *texts[i], len);
    *texts[i] = at;
    at += len;
  }
  return 0;
}

int ns_create_with_params(const NsParams *p, const FeastDomain *dom, int stokes, NsProblem **nsp) {
  FEAST_CHECK(p && dom && nsp, FEAST_ERR_ARG, "ns_create_with_params: NULL argument");
  NsProblem *ns;
  FEAST_CALL(FEAST_ALLOC(1, &ns));
  *nsp = ns;
  ns->params = *p;
  FEAST_CALL(own_strings(ns));
  ns->dom = dom;
  ns->level = dom->finest;
  ns->stokes = stokes;
  FEAST_CALL(read_params(ns));
  for (int f = 0; f < NS_NFIELDS; f++) {
    FEAST_CALL(ns_params_bc(&ns->params, dom->mesh, ns_field_names[f], &ns->sys.bc[f]));
    FEAST_CALL(feast_mask_create(dom, feast_bc_parts(ns->sys.bc[f]), &ns->sys.mask[f]));
  }
  ns->nullspace = ns_pressure_free(ns->sys.bc, 2, ns->sys.bc[NS_P], dom->mesh->nparts);
  /* the time t of every expression: time.start until a time step sets another */
  ns->time.t = p->time.start;
  ns_set_time(ns, p->time.start);
  FEAST_CALL(ns_defaults(p, dom->mesh, stokes, ns->nullspace, &ns->defaults));
  log_defaults(&ns->defaults);
  choose_nonlinear(ns);
  FEAST_CALL(ns_system_create(ns));
  /* the nonlinear solver (solve.c drives it). Anderson mixing of the fixed point
   * (solvers/anderson.h) improves the Picard iteration's linear rate (Pollock, Rebholz &
   * Xiao, SIAM J. Numer. Anal. 57, 2019: the cavity at Re = 1000, L = 6 converges in 21
   * instead of 31 steps, docs/notes/ns-nonlinear.md); its history lives for one solve (a continuation
   * stage and the switch to Newton start it afresh) and a checkpoint holds it
   * (checkpoint.c). Stationary runs only: a time step's fixed point converges in 2-3 steps
   * from the last solution, too few for a history (DFG 2D-3, L = 4, 30 steps: 61 nonlinear
   * steps and 337 iterations mixed, 60 and 335 not) */
  const FeastNonlinearVectors it = {ns->iter.v, ns->iter.defect, ns->iter.correction, ns->iter.v_old};
  FEAST_CALL(feast_nonlinear_create(&it, ns->time_dependent ? 0 : ns->params.nonlinear.anderson_depth, &ns->iter.nonlinear));
  return ns_schur_create(ns);
}

void ns_destroy(NsProblem **nsp) {
  NsProblem *ns = *nsp;
  if (!ns) return;
  ns_schur_destroy(ns);
  feast_nonlinear_destroy(&ns->iter.nonlinear);
  ns_system_destroy(ns);
  feast_krylov_work_destroy(&ns->iter.krylov_work);
  for (int f = 0; f < NS_NFIELDS; f++) {
    feast_bc_destroy(&ns->sys.bc[f]);
    feast_mask_destroy(&ns->sys.mask[f]);
    feast_expr_destroy(&ns->sys.exact[f]);
  }
  feast_expr_destroy(&ns->initial[0]);
  feast_expr_destroy(&ns->initial[1]);
  feast_expr_destroy(&ns->sys.force[0]);
  feast_expr_destroy(&ns->sys.force[1]);
  free(ns->iter.continuation_per_step);
  free(ns->iter.sequence_per_step);
  free(ns->iter.resume.linear_per_step);
  free(ns->strings);
  feast_free(nsp);
}

int ns_pressure_nullspace(const NsProblem *ns) { return ns->nullspace; }
double ns_viscosity(const NsProblem *ns) { return ns->nu; }
const char *ns_local_precision(const NsProblem *ns) { return scarc_params_precision(&ns->prec.scarc_params); }

const FeastVec *ns_solution(const NsProblem *ns) { return ns->iter.v; }
int ns_level(const NsProblem *ns) { return ns->level; }

int ns_set_initial_guess(NsProblem *ns, const FeastVec *x) {
  FEAST_CHECK(ns && x, FEAST_ERR_ARG, "ns_set_initial_guess: NULL argument");
  FEAST_CHECK(x->dom == ns->dom && x->level == ns->level && x->nb == NS_NFIELDS, FEAST_ERR_ARG,
              "ns_set_initial_guess: a vector of %d blocks on level %d%s; the problem's has %d blocks on level %d "
              "of its own domain", x->nb, x->level, x->dom == ns->dom ? "" : " of another domain", NS_NFIELDS,
              ns->level);
  feast_vec_copy(x, ns->iter.v);
  FEAST_CALL(ns_boundary_values(ns, ns->iter.v));
  FEAST_CALL(ns_project_solution(ns, ns->iter.v));
  ns->iter.restored = 0; /* a fresh start: not the state of ns_restore / ns_time_restore */
  ns->iter.start_given = 1;
  ns->time.restored = 0;
  return 0;
}

/* the vectors of a time run (made once: nothing is allocated per step) */
int ns_time_state_create(NsProblem *ns) {
  FeastVec **vecs[] = {&ns->time.s, &ns->time.r_old, &ns->time.u1, &ns->time.u2};
  for (size_t i = 0; i < sizeof vecs / sizeof vecs[0]; i++)
    if (!*vecs[i]) FEAST_CALL(feast_vec_create(ns->dom, ns->level, NS_NFIELDS, vecs[i]));
  return 0;
}

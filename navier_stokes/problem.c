/* The problem's life cycle: configuration, boundary conditions, masks, and the checks
 * of the input phase. */
#include "feast/error.h"
#include "feast/log.h"
#include "navier_stokes/ns_private.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const field_names[NS_NFIELDS] = {"u", "v", "p"};

/* an optional expression key: NULL when unset, or (zero_is_null) when it is the constant 0 */
static int optional_expr(const FeastConfig *cfg, const char *key, int zero_is_null, FeastExpr **e) {
  *e = NULL;
  if (!feast_config_is_set(cfg, key) && !zero_is_null) return 0;
  FEAST_CALL(feast_expr_from_config(cfg, key, e));
  double v;
  if (zero_is_null && feast_expr_is_constant(*e) && !feast_expr_eval(*e, 0.0, 0.0, &v) && v == 0.0)
    feast_expr_destroy(e);
  return 0;
}

static int velocity_given(const FeastBC *u, const FeastBC *v, int nparts) {
  for (int q = 0; q < nparts; q++)
    if (feast_bc_parts(u)[q] || feast_bc_parts(v)[q]) return 1;
  return 0;
}

/* the pressure is fixed only up to a constant when no part fixes it and the velocity is
 * prescribed (both components) on every part: no natural outflow sets its level */
static int pressure_free(FeastBC *const bc[NS_NFIELDS], int nparts) {
  for (int q = 0; q < nparts; q++)
    if (feast_bc_parts(bc[NS_P])[q] || !feast_bc_parts(bc[NS_U])[q] || !feast_bc_parts(bc[NS_V])[q]) return 0;
  return 1;
}

int ns_check(const FeastConfig *cfg, const FeastMesh *mesh, int stokes) {
  FEAST_CHECK(!feast_config_is_set(cfg, "grid.dirichlet"), FEAST_ERR_CONFIG,
              "grid.dirichlet (%s) applies to problem.type = poisson; stokes and navier-stokes take their "
              "boundary conditions per field from [boundary.NAME] u = ..., v = ..., p = ...",
              feast_config_origin(cfg, "grid.dirichlet"));
  FEAST_CALL(feast_bc_check_sections(cfg, mesh));
  FeastBC *bc[NS_NFIELDS] = {NULL};
  int st = 0;
  for (int f = 0; f < NS_NFIELDS && !st; f++) st = feast_bc_create(cfg, mesh, field_names[f], &bc[f]);
  char known[512];
  if (!st && !velocity_given(bc[NS_U], bc[NS_V], mesh->nparts))
    st = feast_error_set(FEAST_ERR_CONFIG, __FILE__, __LINE__,
                         "%s: no boundary part has a velocity value (boundary.NAME.u / boundary.NAME.v), so the "
                         "velocity is not determined (mesh %s has the parts %s)",
                         feast_config_path(cfg), mesh->source, feast_mesh_part_names(mesh, known, sizeof known));
  const int enclosed = !st && pressure_free(bc, mesh->nparts);
  for (int f = 0; f < NS_NFIELDS; f++) feast_bc_destroy(&bc[f]);
  FEAST_CALL(st);
  const char *keys[] = {"problem.force_x", "problem.force_y", "problem.exact_u", "problem.exact_v", "problem.exact_p"};
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
    FeastExpr *e;
    FEAST_CALL(optional_expr(cfg, keys[i], 0, &e));
    feast_expr_destroy(&e);
  }
  FEAST_CALL(ns_schur_check(cfg, stokes));
  FEAST_CALL(ns_time_check(cfg));
  FEAST_CALL(ns_pcd_check(cfg, mesh, enclosed));
  long level;
  NsDefaults d;
  FEAST_CALL(feast_config_get_int(cfg, "grid.level", &level));
  return ns_defaults(cfg, mesh, stokes, (int)level, enclosed, &d);
}

/* ---- the problem-dependent defaults (linear.schur, linear.krylov,
 * solver.coarse_stabilisation = auto; BENCHMARKS.md, "Robust defaults") ----
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
 *   U H / (2 nu) with H its longest macro edge, is >= 150; none below. The Galerkin coarse
 *   levels keep the finest level's streamline diffusion, so the coarsest ones (of the
 *   global and the local multigrids, the same levels whatever L) are central-difference
 *   operators at mesh Peclet numbers far above 2, and the Jacobi-smoothed multigrid stalls
 *   on them when the flow is convection-dominated at the macros' scale. The finest level's
 *   Peclet number does not separate the measured cases (the cavity at Re = 400, L = 5:
 *   3.1, converges without and upwind costs 10 % of the V cycles; at Re = 1000, L = 7:
 *   1.95, the velocity solves stall without it); the coarse mesh's does: the cavity
 *   (H = 0.5) at Re = 400 has 100 (upwind costs 10-16 % of the V cycles at L = 5, 6), at
 *   Re = 1000 250 (needed from L = 6), the DFG channel (H = 0.6) at Re = 100 300 (needed
 *   at L = 6, 1.8x faster at L = 5), at Re = 20 60 (converges without). */
enum { RE_PCD = 200 };
static const double PECLET_UPWIND = 150.0;

int ns_krylov_choice(const FeastConfig *cfg, int stokes, const char **name) {
  FEAST_CALL(feast_config_get_string(cfg, "linear.krylov", name));
  if (strcmp(*name, "auto") == 0) *name = stokes || ns_time_dependent(cfg) ? "bicgstab" : "fgmres";
  return 0;
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

int ns_defaults(const FeastConfig *cfg, const FeastMesh *mesh, int stokes, int level, int enclosed, NsDefaults *d) {
  memset(d, 0, sizeof *d);
  double re, U, L, extent, edge;
  FEAST_CALL(feast_config_get_real(cfg, "problem.re", &re));
  FEAST_CALL(feast_config_get_real(cfg, "problem.reference_velocity", &U));
  FEAST_CALL(feast_config_get_real(cfg, "problem.reference_length", &L));
  mesh_sizes(mesh, &extent, &edge);
  const double nu = U * L / re;
  (void)level; /* the rules hold for every level (measured at L = 4-7) */
  const int time_dependent = ns_time_dependent(cfg), paper = stokes || time_dependent;
  const char *what = stokes ? "a stokes problem" : "a time-dependent run";
  d->re_domain = U * extent / nu;
  d->peclet = U * edge / (2.0 * nu);
  int count = 0;
  if (!enclosed) {
    unsigned char *inflow;
    FEAST_CALL(FEAST_ALLOC(mesh->nparts + 1, &inflow));
    const int st = ns_pcd_inflow_parts(cfg, mesh, inflow, &count);
    free(inflow);
    FEAST_CALL(st);
  }
  d->pcd_applicable = enclosed || count > 0;

  const char *s;
  FEAST_CALL(feast_config_get_string(cfg, "linear.schur", &s));
  d->schur_auto = strcmp(s, "auto") == 0;
  if (!d->schur_auto) d->pcd = strcmp(s, "pcd") == 0;
  else if (paper) snprintf(d->schur_why, sizeof d->schur_why, "%s", what);
  else if (!d->pcd_applicable)
    snprintf(d->schur_why, sizeof d->schur_why, "no inflow part and not enclosed: PCD has no boundary conditions");
  else {
    d->pcd = d->re_domain >= RE_PCD;
    snprintf(d->schur_why, sizeof d->schur_why, "%s, U D / nu = %.4g %s %d", enclosed ? "enclosed flow" : "inflow",
             d->re_domain, d->pcd ? ">=" : "<", RE_PCD);
  }

  FEAST_CALL(feast_config_get_string(cfg, "linear.krylov", &s));
  d->krylov_auto = strcmp(s, "auto") == 0;
  FEAST_CALL(ns_krylov_choice(cfg, stokes, &d->krylov));
  if (d->krylov_auto)
    snprintf(d->krylov_why, sizeof d->krylov_why, "%s", paper ? what : "stationary navier-stokes");

  FEAST_CALL(feast_config_get_string(cfg, "solver.coarse_stabilisation", &s));
  d->upwind_auto = strcmp(s, "auto") == 0;
  if (!d->upwind_auto) d->upwind = strcmp(s, "upwind") == 0;
  else if (paper) snprintf(d->upwind_why, sizeof d->upwind_why, "%s", what);
  else {
    d->upwind = d->peclet >= PECLET_UPWIND;
    snprintf(d->upwind_why, sizeof d->upwind_why,
             "coarse-mesh Peclet number U H / (2 nu) = %.4g %s %g, H = %.3g the longest macro edge",
             d->peclet, d->upwind ? ">=" : "<", PECLET_UPWIND, edge);
  }
  return 0;
}

static void log_defaults(const NsDefaults *d) {
  if (d->schur_auto) feast_log(1, "  linear.schur = auto: %s (%s)\n", d->pcd ? "pcd" : "mass", d->schur_why);
  if (d->krylov_auto) feast_log(1, "  linear.krylov = auto: %s (%s)\n", d->krylov, d->krylov_why);
  if (d->upwind_auto)
    feast_log(1, "  solver.coarse_stabilisation = auto: %s (%s)\n", d->upwind ? "upwind" : "none", d->upwind_why);
}

static int read_params(NsProblem *ns) {
  const FeastConfig *cfg = ns->cfg;
  double re, U, L;
  int nonlinear;
  FEAST_CALL(feast_config_get_real(cfg, "problem.re", &re));
  FEAST_CALL(feast_config_get_real(cfg, "problem.reference_velocity", &U));
  FEAST_CALL(feast_config_get_real(cfg, "problem.reference_length", &L));
  FEAST_CALL(feast_config_get_enum(cfg, "solver.nonlinear", &nonlinear));
  ns->nu = U * L / re;
  ns->newton = !ns->stokes && nonlinear == 1;
  ns->time_dependent = ns_time_dependent(cfg);
  FEAST_CALL(optional_expr(cfg, "problem.force_x", 1, &ns->force[0]));
  FEAST_CALL(optional_expr(cfg, "problem.force_y", 1, &ns->force[1]));
  const char *exact[NS_NFIELDS] = {"problem.exact_u", "problem.exact_v", "problem.exact_p"};
  for (int f = 0; f < NS_NFIELDS; f++) FEAST_CALL(optional_expr(cfg, exact[f], 0, &ns->exact[f]));
  return 0;
}

int ns_create(const FeastConfig *cfg, const FeastDomain *dom, int stokes, NsProblem **nsp) {
  NsProblem *ns;
  FEAST_CALL(FEAST_ALLOC(1, &ns));
  *nsp = ns;
  ns->cfg = cfg;
  ns->dom = dom;
  ns->level = dom->finest;
  ns->stokes = stokes;
  FEAST_CALL(read_params(ns));
  for (int f = 0; f < NS_NFIELDS; f++) {
    FEAST_CALL(feast_bc_create(cfg, dom->mesh, field_names[f], &ns->bc[f]));
    FEAST_CALL(feast_mask_create(dom, feast_bc_parts(ns->bc[f]), &ns->mask[f]));
  }
  ns->nullspace = pressure_free(ns->bc, dom->mesh->nparts);
  double start; /* the time t of every expression: time.start until a time step sets another */
  FEAST_CALL(feast_config_get_real(cfg, "time.start", &start));
  ns->time.t = start;
  ns_set_time(ns, start);
  FEAST_CALL(ns_defaults(cfg, dom->mesh, stokes, ns->level, ns->nullspace, &ns->defaults));
  log_defaults(&ns->defaults);
  FEAST_CALL(ns_system_create(ns));
  return ns_schur_create(ns);
}

void ns_destroy(NsProblem **nsp) {
  NsProblem *ns = *nsp;
  if (!ns) return;
  ns_schur_destroy(ns);
  ns_system_destroy(ns);
  feast_krylov_work_destroy(&ns->work);
  for (int f = 0; f < NS_NFIELDS; f++) {
    feast_bc_destroy(&ns->bc[f]);
    feast_mask_destroy(&ns->mask[f]);
    feast_expr_destroy(&ns->exact[f]);
  }
  feast_expr_destroy(&ns->force[0]);
  feast_expr_destroy(&ns->force[1]);
  free(ns->linear_per_step);
  free(ns->resume.linear_per_step);
  feast_free(nsp);
}

int ns_pressure_nullspace(const NsProblem *ns) { return ns->nullspace; }
double ns_viscosity(const NsProblem *ns) { return ns->nu; }

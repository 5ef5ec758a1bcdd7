/* The config front end of navier_stokes/: the only file of the layer that reads a
 * FeastConfig. ns_params_defaults and ns_params_from_config fill the typed parameters
 * (navier_stokes/ns.h) from the key tables (navier_stokes/ns_keys.c, scarc/scarc_keys.c:
 * every row that names a member, by feast_params_defaults / feast_params_from_config), then
 * by the rules of the keys that are not plain key -> member; ns_create is
 * ns_create_with_params on them; the checks of the input phase report bad values with the
 * file and line of their key. */
#include "feast/fem/bc.h"
#include "feast/base/error.h"
#include "feast/config/expr.h"
#include "feast/base/log.h"
#include "feast/la/mask.h"
#include "navier_stokes/ns_config.h"
#include "navier_stokes/ns_hex.h"
#include "navier_stokes/ns_keys.h"
#include "scarc/scarc_keys.h"
#include "navier_stokes/ns_private.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the input phase checks the points on the mesh refined to min(grid.level, CHECK_MAX_LEVEL) */
enum { CHECK_MAX_LEVEL = 8 };

static int get_int(const FeastConfig *cfg, const char *key, int *v) {
  long l;
  FEAST_CALL(feast_config_get_int(cfg, key, &l));
  *v = (int)l;
  return 0;
}

/* an expression key: NULL when unset (the library's default: 0, or unknown) */
static int get_expr(const FeastConfig *cfg, const char *key, const char **text) {
  *text = NULL;
  return feast_config_is_set(cfg, key) ? feast_config_get_string(cfg, key, text) : 0;
}

/* the expression of key compiles (messages name the key and its file and line); dim 2 refuses z */
static int check_expr_dim(const FeastConfig *cfg, const char *key, int dim) {
  FeastExpr *e = NULL;
  if (feast_config_is_set(cfg, key)) FEAST_CALL(feast_expr_from_config(cfg, key, &e));
  const int z = feast_expr_uses_z(e);
  feast_expr_destroy(&e);
  FEAST_CHECK(dim == 3 || !z, FEAST_ERR_CONFIG, "%s: %s names z: the 2D flow problems have expressions in x, y and t",
              feast_config_origin(cfg, key), key);
  return 0;
}
static int check_expr(const FeastConfig *cfg, const char *key) { return check_expr_dim(cfg, key, 2); }

/* the expressions (NULL where unset: 0, or unknown) */
static int physics_from_config(const FeastConfig *cfg, NsPhysicsParams *p) {
  const char *force[2] = {"problem.force_x", "problem.force_y"};
  const char *exact[3] = {"problem.exact_u", "problem.exact_v", "problem.exact_p"};
  const char *initial[2] = {"initial.u", "initial.v"};
  for (int k = 0; k < 2; k++) FEAST_CALL(get_expr(cfg, force[k], &p->force[k]));
  for (int k = 0; k < 3; k++) FEAST_CALL(get_expr(cfg, exact[k], &p->exact[k]));
  for (int k = 0; k < 2; k++) FEAST_CALL(get_expr(cfg, initial[k], &p->initial[k]));
  FEAST_CALL(get_expr(cfg, "problem.force_z", &p->force_z));
  FEAST_CALL(get_expr(cfg, "problem.exact_w", &p->exact_w));
  return 0;
}

/* every [boundary.NAME] section with a field value: its u, v, p, w (meshes of hexahedra) and priority */
static int boundary_from_config(const FeastConfig *cfg, NsParams *p) {
  int n;
  const char *const *names;
  FEAST_CALL(feast_config_sections(cfg, "boundary.", &n, &names));
  for (int i = 0; i < n; i++) {
    const char *fields[4] = {NULL, NULL, NULL, NULL}, *field_keys[4] = {"u", "v", "p", "w"};
    char key[160];
    int any = 0, priority;
    for (int f = 0; f < 4; f++) {
      snprintf(key, sizeof key, "%s.%s", names[i], field_keys[f]);
      if (!feast_config_is_set(cfg, key)) continue;
      FEAST_CALL(feast_config_get_string(cfg, key, &fields[f]));
      any = 1;
    }
    if (!any) continue;
    snprintf(key, sizeof key, "%s.priority", names[i]);
    FEAST_CALL(get_int(cfg, key, &priority));
    FEAST_CALL(ns_params_boundary3(p, names[i] + strlen("boundary."), fields[0], fields[1], fields[3], fields[2],
                                   priority));
  }
  return 0;
}

/* the members a key's text gives by a rule, not as its value: linear.krylov (auto or a
 * method), linear.fgmres_basis (single|double), velocity.scarc_solver (mg or a method) */
static int derived_members(NsParams *p, const char *krylov, int basis, const char *scarc_solver) {
  p->linear.krylov = NS_KRYLOV_AUTO;
  if (strcmp(krylov, "auto") != 0) FEAST_CALL(feast_krylov_method_from_name(krylov, &p->linear.krylov));
  p->linear.single_basis = basis == 0;
  return scarc_method_from_name(scarc_solver, &p->velocity.method);
}

/* the defaults: the rows of the table with a member (navier_stokes/ns_keys.c), the [solver]
 * keys of ScaRC's table that the nonlinear and linear solves take, the members a key gives
 * by a rule, the time run's checkpoint interval the stationary one's (an `auto` is a value:
 * NS_KRYLOV_AUTO, an enum's AUTO, FEAST_AUTO from the rows) */
static int defaults(NsParams *p) {
  const FeastKeyTable *ns = ns_config_keys(), *scarc = scarc_config_keys();
  const char *krylov, *scarc_solver;
  int basis;
  memset(p, 0, sizeof *p);
  FEAST_CALL(feast_params_defaults(ns, p));
  FEAST_CALL(feast_key_default(scarc, "solver.divergence_factor", FEAST_FIELD_DOUBLE, &p->nonlinear.divergence_factor));
  FEAST_CALL(feast_key_default(scarc, "solver.initial_guess", FEAST_FIELD_INT, &p->nonlinear.initial_guess));
  FEAST_CALL(feast_key_default(scarc, "solver.residual_replacement", FEAST_FIELD_INT, &p->linear.residual_replacement));
  FEAST_CALL(feast_key_default(scarc, "solver.residual_replacement_drop", FEAST_FIELD_DOUBLE,
                               &p->linear.residual_replacement_drop));
  FEAST_CALL(feast_key_default(ns, "linear.krylov", FEAST_FIELD_STRING, &krylov));
  FEAST_CALL(feast_key_default(ns, "linear.fgmres_basis", FEAST_FIELD_INT, &basis));
  FEAST_CALL(feast_key_default(ns, "velocity.scarc_solver", FEAST_FIELD_STRING, &scarc_solver));
  FEAST_CALL(derived_members(p, krylov, basis, scarc_solver));
  scarc_params_defaults(&p->velocity.scarc);
  scarc_params_defaults(&p->pressure.scarc);
  p->time.checkpoint_interval = p->nonlinear.checkpoint_interval;
  return 0;
}

void ns_params_defaults(NsParams *p) {
  if (defaults(p)) feast_warn("ns_params_defaults: %s", feast_error_message()); /* a table's error (test_params_table) */
}

void ns_time_params_defaults(NsTimeParams *p) {
  NsParams d;
  ns_params_defaults(&d);
  *p = d.time;
}

/* the keys that are not plain key -> member: ScaRC's [solver] keys the solves take, the
 * members a key's text gives by a rule */
static int rules_from_config(const FeastConfig *cfg, NsParams *p) {
  const char *krylov, *scarc_solver;
  int v;
  FEAST_CALL(feast_config_get_real(cfg, "solver.divergence_factor", &p->nonlinear.divergence_factor));
  FEAST_CALL(feast_config_get_enum(cfg, "solver.initial_guess", &v));
  p->nonlinear.initial_guess = (NsInitialGuess)v;
  FEAST_CALL(get_int(cfg, "solver.residual_replacement", &p->linear.residual_replacement));
  FEAST_CALL(feast_config_get_real(cfg, "solver.residual_replacement_drop", &p->linear.residual_replacement_drop));
  FEAST_CALL(feast_config_get_string(cfg, "linear.krylov", &krylov));
  FEAST_CALL(feast_config_get_enum(cfg, "linear.fgmres_basis", &v));
  FEAST_CALL(feast_config_get_string(cfg, "velocity.scarc_solver", &scarc_solver));
  FEAST_CALL(derived_members(p, krylov, v, scarc_solver));
  FEAST_CALL(scarc_params_from_config(cfg, "solver.", &p->velocity.scarc));
  return scarc_params_from_config(cfg, "pressure.", &p->pressure.scarc);
}

int ns_params_from_config(const FeastConfig *cfg, NsParams *p) {
  FEAST_CHECK(cfg && p, FEAST_ERR_ARG, "ns_params_from_config: NULL argument");
  ns_params_defaults(p);
  FEAST_CALL(feast_params_from_config(cfg, ns_config_keys(), NULL, p)); /* the keys with a member */
  FEAST_CALL(physics_from_config(cfg, &p->physics));
  FEAST_CALL(boundary_from_config(cfg, p));
  FEAST_CALL(rules_from_config(cfg, p));
  FEAST_CALL(ns_time_params_from_config(cfg, &p->time));
  return feast_fault_params_from_config(cfg, &p->fault);
}

int ns_create(const FeastConfig *cfg, const FeastDomain *dom, int stokes, NsProblem **ns) {
  NsParams p;
  *ns = NULL;
  FEAST_CALL(ns_params_from_config(cfg, &p));
  FEAST_CALL(ns_create_with_params(&p, dom, stokes, ns));
  (*ns)->describe = cfg;
  return 0;
}

/* ---- time runs ---- */

int ns_time_dependent(const FeastConfig *cfg) {
  int scheme = NS_TIME_NONE;
  if (feast_config_get_enum(cfg, "time.scheme", &scheme)) return 0;
  return scheme != NS_TIME_NONE;
}

int ns_time_params_from_config(const FeastConfig *cfg, NsTimeParams *p) {
  ns_time_params_defaults(p);
  int v;
  FEAST_CALL(feast_config_get_enum(cfg, "time.scheme", &v));
  p->scheme = (NsTimeScheme)v;
  FEAST_CALL(feast_config_get_real(cfg, "time.start", &p->start));
  if (p->scheme == NS_TIME_NONE) return 0;
  FEAST_CALL(feast_config_get_real(cfg, "time.dt", &p->dt));
  FEAST_CALL(feast_config_get_real(cfg, "time.end", &p->end));
  FEAST_CALL(feast_config_get_int(cfg, "time.steps_max", &p->steps_max));
  FEAST_CALL(feast_config_get_enum(cfg, "initial.stationary", &v));
  p->initial_stationary = v == 1;
  FEAST_CALL(feast_config_get_enum(cfg, "time.tau_dt", &v));
  p->tau_dt = v == 1;
  FEAST_CALL(feast_config_get_path(cfg, "output.checkpoint", p->checkpoint, sizeof p->checkpoint));
  return feast_config_get_int(cfg, "output.checkpoint_interval", &p->checkpoint_interval);
}

int ns_time_check(const FeastConfig *cfg) {
  if (!ns_time_dependent(cfg)) return 0;
  NsTimeParams p;
  FEAST_CALL(ns_time_params_from_config(cfg, &p));
  FEAST_CHECK(p.end > p.start, FEAST_ERR_CONFIG, "time.end = %g (%s) must be greater than time.start = %g (%s)", p.end,
              feast_config_origin(cfg, "time.end"), p.start, feast_config_origin(cfg, "time.start"));
  const double n = (p.end - p.start) / p.dt;
  FEAST_CHECK(n <= (double)p.steps_max && ns_time_step_count(&p) <= p.steps_max, FEAST_ERR_CONFIG,
              "time.dt = %g (%s) from time.start = %g to time.end = %g takes %.0f steps, more than time.steps_max = %ld "
              "(%s); raise time.steps_max or time.dt",
              p.dt, feast_config_origin(cfg, "time.dt"), p.start, p.end, ceil(n), p.steps_max,
              feast_config_origin(cfg, "time.steps_max"));
  const char *keys[] = {"initial.u", "initial.v"};
  for (int k = 0; k < 2; k++) FEAST_CALL(check_expr(cfg, keys[k]));
  return 0;
}

/* ---- the checks of the input phase ---- */

/* a key of meshes of hexahedra set on a 2D mesh: an error naming it, not ignored */
static int refuse_3d_key(const FeastConfig *cfg, const FeastMesh *mesh, const char *key) {
  FEAST_CHECK(!feast_config_is_set(cfg, key), FEAST_ERR_CONFIG,
              "%s (%s): a key of meshes of hexahedra (3D); grid.file = %s is a mesh of quadrilaterals (2D)", key,
              feast_config_origin(cfg, key), mesh->source);
  return 0;
}

static int no_3d_keys(const FeastConfig *cfg, const FeastMesh *mesh) {
  FEAST_CALL(refuse_3d_key(cfg, mesh, "problem.force_z"));
  FEAST_CALL(refuse_3d_key(cfg, mesh, "problem.exact_w"));
  int n;
  const char *const *names;
  FEAST_CALL(feast_config_sections(cfg, "boundary.", &n, &names));
  for (int i = 0; i < n; i++) {
    char key[160];
    snprintf(key, sizeof key, "%s.w", names[i]);
    FEAST_CALL(refuse_3d_key(cfg, mesh, key));
  }
  return 0;
}

/* The boundary conditions of the velocity components `velocity[d]`, d < ncomp, and of the
 * pressure compile and agree where parts meet, some part gives the velocity (`given` names
 * its keys in the message), and *enclosed <- the pressure free up to a constant. grid.dirichlet
 * (the Poisson problem's) is refused. */
static int check_boundary(const FeastConfig *cfg, const FeastMesh *mesh, const char *const *velocity, int ncomp,
                          const char *given, int *enclosed) {
  FEAST_CHECK(!feast_config_is_set(cfg, "grid.dirichlet"), FEAST_ERR_CONFIG,
              "grid.dirichlet (%s) applies to problem.type = poisson; stokes and navier-stokes take their "
              "boundary conditions per field from [boundary.NAME] u = ..., v = ..., p = ...",
              feast_config_origin(cfg, "grid.dirichlet"));
  FEAST_CALL(feast_bc_check_sections(cfg, mesh));
  FeastBC *bc[4] = {NULL}; /* the velocity's components, then the pressure */
  int st = 0;
  for (int f = 0; f < ncomp && !st; f++) st = feast_bc_create(cfg, mesh, velocity[f], &bc[f]);
  if (!st) st = feast_bc_create(cfg, mesh, "p", &bc[ncomp]);
  char known[512];
  if (!st && !ns_velocity_given(bc, ncomp, mesh->nparts))
    st = feast_error_set(FEAST_ERR_CONFIG, __FILE__, __LINE__,
                         "%s: no boundary part has a velocity value (%s), so the velocity is not determined (mesh %s "
                         "has the parts %s)",
                         feast_config_path(cfg), given, mesh->source, feast_mesh_part_names(mesh, known, sizeof known));
  *enclosed = !st && ns_pressure_free(bc, ncomp, bc[ncomp], mesh->nparts);
  for (int f = 0; f <= ncomp; f++) feast_bc_destroy(&bc[f]);
  return st;
}

int ns_hex_check(const FeastConfig *cfg, const FeastMesh *mesh, int stokes) {
  const char *velocity[3] = {"u", "v", "w"};
  int enclosed;
  FEAST_CALL(check_boundary(cfg, mesh, velocity, 3, "boundary.NAME.u / boundary.NAME.v / boundary.NAME.w",
                            &enclosed));
  const char *keys[] = {"problem.force_x", "problem.force_y", "problem.force_z", "problem.exact_u",
                        "problem.exact_v", "problem.exact_w", "problem.exact_p"};
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) FEAST_CALL(check_expr_dim(cfg, keys[i], 3));
  NsParams p;
  FEAST_CALL(ns_params_from_config(cfg, &p));
  return ns_hex_check_params(&p, stokes);
}

int ns_check(const FeastConfig *cfg, const FeastMesh *mesh, int stokes) {
  FEAST_CALL(no_3d_keys(cfg, mesh));
  const char *velocity[2] = {"u", "v"};
  int enclosed;
  FEAST_CALL(check_boundary(cfg, mesh, velocity, 2, "boundary.NAME.u / boundary.NAME.v", &enclosed));
  const char *keys[] = {"problem.force_x", "problem.force_y", "problem.exact_u", "problem.exact_v", "problem.exact_p"};
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) FEAST_CALL(check_expr(cfg, keys[i]));
  FEAST_CALL(ns_schur_check(cfg, stokes));
  FEAST_CALL(ns_time_check(cfg));
  FEAST_CALL(ns_pcd_check(cfg, mesh, enclosed));
  NsParams p;
  NsDefaults d;
  FEAST_CALL(ns_params_from_config(cfg, &p));
  return ns_defaults(&p, mesh, stokes, enclosed, &d);
}

/* the velocity's and the A_p solves' V cycles can be made linear for the method of key
 * (no adaptive smoother step under [solver] or [pressure]) */
static int linear_required(const FeastConfig *cfg, const char *key) {
  FEAST_CALL(scarc_linear_required(cfg, "solver.", key, NULL));
  return scarc_linear_required(cfg, "pressure.", key, NULL);
}

/* linear.krylov = ibicgstab | pipebicgsafe need K_s to be a linear map (schur.c): velocity
 * solves of a fixed number of multigrid cycles, a fixed smoother step */
int ns_schur_check(const FeastConfig *cfg, int stokes) {
  NsParams p;
  FEAST_CALL(ns_params_from_config(cfg, &p));
  const FeastKrylovMethod krylov = ns_krylov_choice(&p, stokes);
  const char *velocity;
  FEAST_CALL(feast_config_get_string(cfg, "velocity.scarc_solver", &velocity));
  if (feast_krylov_needs_linear_preconditioner(p.velocity.method))
    FEAST_CALL(linear_required(cfg, "velocity.scarc_solver"));
  if (!feast_krylov_needs_linear_preconditioner(krylov)) return 0;
  FEAST_CHECK(p.velocity.method == FEAST_KRYLOV_RICHARDSON, FEAST_ERR_CONFIG,
              "%s: velocity.scarc_solver = %s makes the Schur preconditioner a nonlinear map (a Krylov "
              "solve depends nonlinearly on its right-hand side), which linear.krylov = %s (%s) cannot be "
              "preconditioned with; use velocity.scarc_solver = mg (a fixed number of cycles, "
              "velocity.fixed_iterations)",
              feast_config_origin(cfg, "velocity.scarc_solver"), velocity, feast_krylov_method_name(krylov),
              feast_config_origin(cfg, "linear.krylov"));
  return linear_required(cfg, "linear.krylov");
}

int ns_pcd_check(const FeastConfig *cfg, const FeastMesh *mesh, int enclosed) {
  int count;
  NsParams p; /* linear.schur = auto takes pcd only where it applies */
  FEAST_CALL(ns_params_from_config(cfg, &p));
  const int schur = p.linear.schur == NS_SCHUR_PCD, time_run = p.time.scheme != NS_TIME_NONE;
  const int stationary_start = time_run && p.time.initial_stationary;
  /* the stationary A_p (a time step's has its Dirichlet values where the velocity is free) */
  if (!schur || (time_run && !stationary_start) || enclosed) return 0;
  unsigned char *inflow;
  FEAST_CALL(FEAST_ALLOC(mesh->nparts + 1, &inflow));
  int st = ns_pcd_inflow_parts(&p, mesh, inflow, &count);
  free(inflow);
  FEAST_CALL(st);
  char names[512];
  FEAST_CHECK(count > 0, FEAST_ERR_CONFIG,
              "%s (%s) needs an inflow, a boundary part whose Dirichlet velocity "
              "(boundary.NAME.u, v) flows into the domain, int u.n < 0, or an enclosed flow (the velocity "
              "given on every part, the pressure nowhere), for the pressure Laplacian A_p of its Schur "
              "complement approximation; mesh %s has the parts %s, none an inflow, and one "
              "of them has no velocity or a pressure value; use linear.schur = mass",
              stationary_start ? "linear.schur = pcd with initial.stationary = true" : "linear.schur = pcd",
              feast_config_origin(cfg, "linear.schur"), mesh->source, feast_mesh_part_names(mesh, names, sizeof names));
  return 0;
}

static int check_point(const FeastConfig *cfg, const FeastMesh *mesh, int level, const char *key) {
  double p[2];
  int found;
  FEAST_CALL(feast_config_get_real2(cfg, key, p));
  FEAST_CALL(ns_mesh_contains(mesh, level, p, &found));
  FEAST_CHECK(found, FEAST_ERR_CONFIG, "%s = %g %g (%s): the point lies outside the domain of mesh %s", key, p[0],
              p[1], feast_config_origin(cfg, key), mesh->source);
  return 0;
}

/* output.centerlines: nodes on the lines x = 0.5 and y = 0.5 at grid.level (up to
 * CHECK_MAX_LEVEL; finer levels are reported by the run, after the solve) */
static int check_centerlines(const FeastConfig *cfg, const FeastMesh *mesh, int level) {
  char prefix[4096];
  FEAST_CALL(feast_config_get_path(cfg, "output.centerlines", prefix, sizeof prefix));
  for (int axis = 0; prefix[0] && axis < 2; axis++) {
    int found;
    FEAST_CALL(ns_mesh_line_nodes(mesh, level, axis, 0.5, &found));
    FEAST_CHECK(found, FEAST_ERR_CONFIG,
                "output.centerlines (%s): no node of mesh %s at grid.level %d lies on the line %s = 0.5 (the "
                "cavity's centre line): nothing to write",
                feast_config_origin(cfg, "output.centerlines"), mesh->source, level, axis == 0 ? "x" : "y");
  }
  return 0;
}

/* output.wall_shear_zeros_on: every name a part of the mesh */
static int check_wall_parts(const FeastConfig *cfg, const FeastMesh *mesh) {
  const char *list;
  unsigned char *parts;
  FEAST_CALL(feast_config_get_string(cfg, "output.wall_shear_zeros_on", &list));
  FEAST_CALL(FEAST_ALLOC(mesh->nparts + 1, &parts));
  const int st = feast_mask_parse_parts(mesh, list, "output.wall_shear_zeros_on", parts);
  free(parts);
  return st;
}

int ns_check_benchmark(const FeastConfig *cfg, const FeastMesh *mesh) {
  const char *part;
  char names[512];
  FEAST_CALL(feast_config_get_string(cfg, "output.forces_on", &part));
  if (part[0]) {
    FEAST_CHECK(feast_mesh_part_index(mesh, part) >= 0, FEAST_ERR_CONFIG,
                "output.forces_on = %s (%s): mesh %s has no boundary part '%s' (it has %s)", part,
                feast_config_origin(cfg, "output.forces_on"), mesh->source, part,
                feast_mesh_part_names(mesh, names, sizeof names));
    char ku[128], kv[128];
    snprintf(ku, sizeof ku, "boundary.%s.u", part);
    snprintf(kv, sizeof kv, "boundary.%s.v", part);
    FEAST_CHECK(feast_config_is_set(cfg, ku) && feast_config_is_set(cfg, kv), FEAST_ERR_CONFIG,
                "output.forces_on = %s (%s): the force is the residual of the momentum equations at the part's "
                "nodes, which needs a Dirichlet velocity there (%s and %s)",
                part, feast_config_origin(cfg, "output.forces_on"), ku, kv);
  }
  const int a = feast_config_is_set(cfg, "output.pressure_point_a"), b = feast_config_is_set(cfg, "output.pressure_point_b");
  FEAST_CHECK(a == b, FEAST_ERR_CONFIG,
              "%s (%s) needs %s as well: pressure_difference = p(pressure_point_a) - p(pressure_point_b)",
              a ? "output.pressure_point_a" : "output.pressure_point_b",
              feast_config_origin(cfg, a ? "output.pressure_point_a" : "output.pressure_point_b"),
              a ? "output.pressure_point_b" : "output.pressure_point_a");
  long level;
  FEAST_CALL(feast_config_get_int(cfg, "grid.level", &level));
  /* the refined boundary moves with the level; a coarser check level keeps the input phase
   * cheap, and a point that drops out between it and grid.level is reported by the run */
  const int check_level = level < CHECK_MAX_LEVEL ? (int)level : CHECK_MAX_LEVEL;
  if (a) {
    FEAST_CALL(check_point(cfg, mesh, check_level, "output.pressure_point_a"));
    FEAST_CALL(check_point(cfg, mesh, check_level, "output.pressure_point_b"));
  }
  if (feast_config_is_set(cfg, "output.recirculation_from"))
    FEAST_CALL(check_point(cfg, mesh, check_level, "output.recirculation_from"));
  FEAST_CALL(check_wall_parts(cfg, mesh));
  return level <= CHECK_MAX_LEVEL ? check_centerlines(cfg, mesh, check_level) : 0;
}

/* a header value that must be the config's (the same trajectory) */
static int match_time_value(const FeastCheckpoint *ck, const FeastConfig *cfg, const char *key, const char *want) {
  const char *have = feast_checkpoint_get(ck, key);
  FEAST_CHECK(have && strcmp(have, want) == 0, FEAST_ERR_CONFIG,
              "--restart %s: %s = %s (%s), but the checkpoint was written with %s: the time steps of another run",
              feast_checkpoint_path(ck), key, want, feast_config_origin(cfg, key), have ? have : "(none)");
  return 0;
}

int ns_checkpoint_check(const FeastCheckpoint *ck, const FeastConfig *cfg) {
  NsTimeParams p;
  FEAST_CALL(ns_time_params_from_config(cfg, &p));
  const int time_run = p.scheme != NS_TIME_NONE;
  const char *scheme = ns_time_scheme_name(p.scheme);
  if (!ns_is_time_checkpoint(ck)) {
    FEAST_CHECK(!time_run, FEAST_ERR_CONFIG,
                "--restart %s: the checkpoint is of a stationary run (time.scheme = none), this run is "
                "time-dependent (time.scheme = %s, %s): a stationary checkpoint cannot continue a time run",
                feast_checkpoint_path(ck), scheme, feast_config_origin(cfg, "time.scheme"));
    return 0;
  }
  char stored_scheme[256];
  const char *text = feast_checkpoint_get(ck, "time.scheme");
  snprintf(stored_scheme, sizeof stored_scheme, "%s", text ? text : "(none)");
  FEAST_CHECK(time_run, FEAST_ERR_CONFIG,
              "--restart %s: the checkpoint is of a time-dependent run (time.scheme = %s), this run is stationary "
              "(time.scheme = none, %s): a time run's checkpoint cannot continue a stationary run",
              feast_checkpoint_path(ck), stored_scheme, feast_config_origin(cfg, "time.scheme"));
  char want[64];
  FEAST_CALL(match_time_value(ck, cfg, "time.scheme", scheme));
  snprintf(want, sizeof want, "%.17g", p.dt);
  FEAST_CALL(match_time_value(ck, cfg, "time.dt", want));
  snprintf(want, sizeof want, "%.17g", p.start);
  FEAST_CALL(match_time_value(ck, cfg, "time.start", want));
  snprintf(want, sizeof want, "%d", p.tau_dt);
  FEAST_CALL(match_time_value(ck, cfg, "time.tau_dt", want));
  /* its time is the one this run reaches after the same number of steps */
  long step;
  double t;
  FEAST_CALL(ns_time_checkpoint_step(ck, &step));
  FEAST_CALL(feast_checkpoint_get_real(ck, "time.t", &t));
  const long n = ns_time_step_count(&p);
  const double tk = step == n ? p.end : p.start + (double)step * p.dt;
  FEAST_CHECK(step <= n && fabs(t - tk) <= 1e-9 * p.dt, FEAST_ERR_CONFIG,
              "--restart %s: the checkpoint is at time step %ld, t = %.17g, which is not a time of this run's steps "
              "(time.end = %.17g, %s: %ld steps)",
              feast_checkpoint_path(ck), step, t, p.end, feast_config_origin(cfg, "time.end"), n);
  if (t != tk) /* a run continued past the end of a shortened last step */
    feast_warn("--restart %s: the checkpoint's t = %.17g after time step %ld, this run's steps reach %.17g there "
               "(time.end = %.17g, %s): the continued run is not the same as an uninterrupted one",
               feast_checkpoint_path(ck), t, step, tk, p.end, feast_config_origin(cfg, "time.end"));
  return 0;
}


/* The problem's life cycle: configuration, boundary conditions, masks, and the checks
 * of the input phase. */
#include "feast/error.h"
#include "feast/log.h"
#include "navier_stokes/ns_private.h"
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
  FEAST_CALL(ns_schur_check(cfg));
  FEAST_CALL(ns_time_check(cfg));
  return ns_pcd_check(cfg, mesh, enclosed);
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

/* The 3D flow solver (navier_stokes/ns_hex.h): what it takes of NsParams, its creation
 * (boundary conditions and masks of the four fields, the expressions, the system, the
 * velocity solvers) and its accessors. */
#include "feast/base/error.h"
#include "feast/base/log.h"
#include "navier_stokes/hex_private.h"
#include "navier_stokes/ns_private.h"
#include <stdlib.h>
#include <string.h>

static const char *const field_names[NS_HEX_NFIELDS] = {"u", "v", "w", "p"};

/* a feature of the 2D solver that the 3D one does not have yet */
#define NOT_YET(cond, ...) FEAST_CHECK(!(cond), FEAST_ERR_UNSUPPORTED, __VA_ARGS__)

int ns_hex_check_params(const NsParams *p, int stokes) {
  (void)stokes;
  const char *on_hex = "on a mesh of hexahedra (3D) not yet; the 3D flow solver is stationary, fixed point, "
                       "FGMRES with the lumped-mass Schur complement (navier_stokes/ns_hex.h)";
  NOT_YET(p->time.scheme != NS_TIME_NONE, "time.scheme = %s: time steps %s", ns_time_scheme_name(p->time.scheme), on_hex);
  NOT_YET(p->nonlinear.method == NS_NONLINEAR_NEWTON, "nonlinear.method = newton: Newton %s", on_hex);
  NOT_YET(p->nonlinear.checkpoint[0], "output.checkpoint = %s: checkpoints %s", p->nonlinear.checkpoint, on_hex);
  NOT_YET(p->continuation.method == NS_CONTINUATION_RE || p->continuation.method == NS_CONTINUATION_PSEUDO_TIME,
          "continuation.method = %s: continuation %s", ns_continuation_name(p->continuation.method), on_hex);
  NOT_YET(p->continuation.grid_sequencing == NS_SEQUENCING_ON, "continuation.grid_sequencing = on: %s", on_hex);
  NOT_YET(p->linear.krylov != NS_KRYLOV_AUTO && p->linear.krylov != FEAST_KRYLOV_FGMRES, "linear.krylov = %s: %s",
          feast_krylov_method_name(p->linear.krylov), on_hex);
  NOT_YET(p->linear.schur == NS_SCHUR_PCD, "linear.schur = pcd: PCD %s", on_hex);
  NOT_YET(p->linear.preconditioner == NS_PRECONDITIONER_DIRECT, "linear.preconditioner = direct: %s", on_hex);
  NOT_YET(p->linear.factorisation != NS_FACTORISATION_LOWER, "linear.factorisation = %s: only lower %s",
          ns_factorisation_name(p->linear.factorisation), on_hex);
  NOT_YET(p->stabilisation.viscous_residual, "stabilisation.viscous_residual = on: %s", on_hex);
  NOT_YET(p->velocity.solver != NS_INNER_SCARC, "velocity.solver = %s: %s", ns_inner_solver_name(p->velocity.solver),
          on_hex);
  NOT_YET(p->velocity.scarc.target != SCARC_TARGET_CPU,
          "solver.target = %s: the local multigrids of hexahedral macros run on the CPU only so far",
          scarc_target_name(p->velocity.scarc.target));
  return 0;
}

/* the conditions and masks of the four fields */
static int create_fields(NsHex *ns) {
  const FeastMesh *mesh = ns->dom->mesh;
  for (int f = 0; f < NS_HEX_NFIELDS; f++) {
    FEAST_CALL(ns_params_bc(&ns->params, mesh, field_names[f], &ns->bc[f]));
    FEAST_CALL(feast_mask_create(ns->dom, feast_bc_parts(ns->bc[f]), &ns->mask[f]));
  }
  char known[512];
  FEAST_CHECK(ns_velocity_given(ns->bc, 3, mesh->nparts), FEAST_ERR_CONFIG,
              "no boundary part has a velocity value (boundary.NAME.u / v / w), so the velocity is not determined "
              "(mesh %s has the parts %s)",
              mesh->source, feast_mesh_part_names(mesh, known, sizeof known));
  ns->nullspace = ns_pressure_free(ns->bc, 3, ns->bc[NS_HEX_P], mesh->nparts);
  return 0;
}

static int create_expressions(NsHex *ns) {
  const NsPhysicsParams *ph = &ns->params.physics;
  FEAST_CALL(ns_optional_expr(ph->force[0], "problem.force_x", 1, &ns->force[0]));
  FEAST_CALL(ns_optional_expr(ph->force[1], "problem.force_y", 1, &ns->force[1]));
  FEAST_CALL(ns_optional_expr(ph->force_z, "problem.force_z", 1, &ns->force[2]));
  const char *exact[NS_HEX_NFIELDS] = {ph->exact[0], ph->exact[1], ph->exact_w, ph->exact[2]};
  const char *keys[NS_HEX_NFIELDS] = {"problem.exact_u", "problem.exact_v", "problem.exact_w", "problem.exact_p"};
  for (int f = 0; f < NS_HEX_NFIELDS; f++) FEAST_CALL(ns_optional_expr(exact[f], keys[f], 0, &ns->exact[f]));
  return 0;
}

/* one ScaRC per velocity component, shared by the components of the same Dirichlet parts */
static int create_velocity_solvers(NsHex *ns) {
  for (int d = 0; d < 3; d++) {
    for (int e = 0; e < d && !ns->velocity[d]; e++)
      if (feast_mask_same(ns->mask[d], ns->mask[e])) ns->velocity[d] = ns->velocity[e];
    if (!ns->velocity[d]) FEAST_CALL(scarc_hex_create(ns->dom, ns->mask[d], &ns->params.velocity.scarc, &ns->velocity[d]));
  }
  return 0;
}

/* the iterate's start: zero with the boundary values */
static int start(NsHex *ns) {
  feast_vec_zero(ns->x);
  for (int f = 0; f < NS_HEX_NFIELDS; f++)
    FEAST_CALL(feast_bc_values(ns->bc[f], ns->dom, ns->mask[f], feast_vec_blocks(ns->x, f)));
  return 0;
}

static int create(NsHex *ns, const NsParams *p, const FeastDomain *dom, int stokes) {
  FEAST_CHECK(dom->mesh->dim == 3, FEAST_ERR_ARG, "ns_hex_create: mesh %s is not a mesh of hexahedra",
              dom->mesh->source);
  FEAST_CALL(ns_hex_check_params(p, stokes));
  ns->params = *p;
  ns->dom = dom;
  ns->level = dom->finest;
  ns->stokes = stokes;
  ns->nu = ns_params_viscosity(p);
  FEAST_CALL(create_fields(ns));
  FEAST_CALL(create_expressions(ns));
  FEAST_CALL(ns_hex_system_create(ns));
  FEAST_CALL(create_velocity_solvers(ns));
  FEAST_CALL(feast_krylov_work_create(ns->x, &ns->krylov_work));
  FEAST_CALL(start(ns));
  feast_log(1, "3D %s: %lld unknowns at level %d, nu = %g, pressure %s\n", stokes ? "stokes" : "navier-stokes",
            (long long)(NS_HEX_NFIELDS * dom->levels[ns->level].nglobal), ns->level, ns->nu,
            ns->nullspace ? "free up to a constant (zero mean)" : "fixed by the boundary");
  return 0;
}

int ns_hex_create(const NsParams *p, const FeastDomain *dom, int stokes, NsHex **nsp) {
  *nsp = NULL;
  NsHex *ns;
  FEAST_CALL(FEAST_ALLOC(1, &ns));
  const int st = create(ns, p, dom, stokes);
  if (st) {
    ns_hex_destroy(&ns);
    return st;
  }
  *nsp = ns;
  return 0;
}

void ns_hex_destroy(NsHex **nsp) {
  NsHex *ns = *nsp;
  if (!ns) return;
  feast_nonlinear_destroy(&ns->nonlinear);
  feast_krylov_work_destroy(&ns->krylov_work);
  for (int d = 2; d >= 0; d--)
    if (ns_hex_velocity_owner(ns, d)) scarc_hex_destroy(&ns->velocity[d]);
  if (ns->dom) ns_hex_system_destroy(ns);
  for (int f = 0; f < NS_HEX_NFIELDS; f++) {
    feast_bc_destroy(&ns->bc[f]);
    feast_mask_destroy(&ns->mask[f]);
    feast_expr_destroy(&ns->exact[f]);
  }
  for (int d = 0; d < 3; d++) feast_expr_destroy(&ns->force[d]);
  feast_free(nsp);
}

const FeastVec *ns_hex_solution(const NsHex *ns) { return ns->x; }
double ns_hex_viscosity(const NsHex *ns) { return ns->nu; }
int ns_hex_pressure_nullspace(const NsHex *ns) { return ns->nullspace; }

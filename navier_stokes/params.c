/* The typed parameters of the Navier-Stokes library: the one name table of every choice,
 * from which the schema's allowed values are built, the boundary parts and the viscosity
 * (their defaults: ns_params_defaults in navier_stokes/ns_config.c, from the key table). */
#include "feast/base/error.h"
#include "navier_stokes/ns_private.h"
#include <stdlib.h>
#include <string.h>

static const char *const nonlinear_names[] = {[NS_NONLINEAR_FIXED_POINT] = "fixed-point",
                                              [NS_NONLINEAR_NEWTON] = "newton", [NS_NONLINEAR_AUTO] = "auto"};
static const char *const line_search_names[] = {[NS_LINE_SEARCH_BACKTRACKING] = "backtracking",
                                                [NS_LINE_SEARCH_NONE] = "none"};
static const char *const time_scheme_names[] = {[NS_TIME_NONE] = "none", [NS_TIME_BACKWARD_EULER] = "backward-euler",
                                                [NS_TIME_CRANK_NICOLSON] = "crank-nicolson",
                                                [NS_TIME_FS_THETA] = "fs-theta", [NS_TIME_BDF2] = "bdf2"};
static const char *const factorisation_names[] = {[NS_FACTORISATION_LOWER] = "lower", [NS_FACTORISATION_UPPER] = "upper",
                                                  [NS_FACTORISATION_FULL] = "full",
                                                  [NS_FACTORISATION_DIAGONAL] = "diagonal"};
_Static_assert(sizeof factorisation_names / sizeof factorisation_names[0] == NS_FACTORISATION_NCHOICES,
               "one name per factorisation");
static const char *const step_reference_names[] = {[NS_STEP_REFERENCE_RHS] = "rhs",
                                                   [NS_STEP_REFERENCE_FIRST_DEFECT] = "first-defect",
                                                   [NS_STEP_REFERENCE_UPDATE] = "update"};
_Static_assert(sizeof step_reference_names / sizeof step_reference_names[0] == NS_STEP_REFERENCE_NCHOICES,
               "one name per choice");
static const char *const forcing_names[] = {[NS_FORCING_FIXED] = "fixed",
                                            [NS_FORCING_EISENSTAT_WALKER] = "eisenstat-walker"};
_Static_assert(sizeof forcing_names / sizeof forcing_names[0] == NS_FORCING_NCHOICES, "one name per choice");
static const char *const continuation_names[] = {[NS_CONTINUATION_AUTO] = "auto", [NS_CONTINUATION_OFF] = "off",
                                                 [NS_CONTINUATION_RE] = "re",
                                                 [NS_CONTINUATION_PSEUDO_TIME] = "pseudo-time"};
_Static_assert(sizeof continuation_names / sizeof continuation_names[0] == NS_CONTINUATION_NCHOICES,
               "one name per choice");
_Static_assert(sizeof nonlinear_names / sizeof nonlinear_names[0] == NS_NONLINEAR_NCHOICES, "one name per choice");
_Static_assert(sizeof time_scheme_names / sizeof time_scheme_names[0] == NS_TIME_NSCHEMES, "one name per scheme");
_Static_assert(sizeof line_search_names / sizeof line_search_names[0] == NS_LINE_SEARCH_NCHOICES, "one name per choice");

#define NAME_OF(table, i) ((unsigned)(i) < sizeof(table) / sizeof(table)[0] ? (table)[i] : "?")
const char *ns_nonlinear_name(NsNonlinearMethod m) { return NAME_OF(nonlinear_names, m); }
const char *ns_line_search_name(NsLineSearch l) { return NAME_OF(line_search_names, l); }
const char *ns_continuation_name(NsContinuation c) { return NAME_OF(continuation_names, c); }
static const char *const grid_sequencing_names[] = {[NS_SEQUENCING_AUTO] = "auto", [NS_SEQUENCING_ON] = "on",
                                                    [NS_SEQUENCING_OFF] = "off"};
_Static_assert(sizeof grid_sequencing_names / sizeof grid_sequencing_names[0] == NS_SEQUENCING_NCHOICES,
               "one name per choice");
const char *ns_grid_sequencing_name(NsGridSequencing s) { return NAME_OF(grid_sequencing_names, s); }
const char *ns_time_scheme_name(NsTimeScheme s) { return NAME_OF(time_scheme_names, s); }
const char *ns_factorisation_name(NsFactorisation f) { return NAME_OF(factorisation_names, f); }
static const char *const inner_solver_names[] = {[NS_INNER_SCARC] = "scarc", [NS_INNER_DIRECT] = "direct",
                                                 [NS_INNER_JACOBI] = "jacobi"};
_Static_assert(sizeof inner_solver_names / sizeof inner_solver_names[0] == NS_INNER_NCHOICES, "one name per solver");
const char *ns_inner_solver_name(NsInnerSolver s) { return NAME_OF(inner_solver_names, s); }
const char *ns_step_reference_name(NsStepReference r) { return NAME_OF(step_reference_names, r); }
const char *ns_linear_forcing_name(NsLinearForcing f) { return NAME_OF(forcing_names, f); }

int ns_params_boundary3(NsParams *p, const char *part, const char *u, const char *v, const char *w,
                        const char *p_value, int priority) {
  FEAST_CHECK(p && part, FEAST_ERR_ARG, "ns_params_boundary: NULL argument");
  FEAST_CHECK(p->physics.nboundary < NS_MAX_BOUNDARY, FEAST_ERR_ARG, "ns_params_boundary: more than %d parts",
              NS_MAX_BOUNDARY);
  p->physics.boundary[p->physics.nboundary++] = (NsBoundaryValues){part, u, v, p_value, priority, w};
  return 0;
}

int ns_params_boundary(NsParams *p, const char *part, const char *u, const char *v, const char *p_value, int priority) {
  return ns_params_boundary3(p, part, u, v, NULL, p_value, priority);
}

/* the text of field `field` of a part's values (NULL: natural there) */
static const char *boundary_text(const NsBoundaryValues *b, const char *field) {
  switch (field[0]) {
  case 'u': return b->u;
  case 'v': return b->v;
  case 'w': return b->w;
  default: return b->p;
  }
}

int ns_params_bc(const NsParams *p, const FeastMesh *mesh, const char *field, FeastBC **bc) {
  *bc = NULL;
  FeastBCPart *parts;
  FEAST_CALL(FEAST_ALLOC(mesh->nparts + 1, &parts));
  int st = 0;
  for (int i = 0; i < p->physics.nboundary && !st; i++) {
    const NsBoundaryValues *b = &p->physics.boundary[i];
    const int q = feast_mesh_part_index(mesh, b->part);
    char names[512];
    if (q < 0)
      st = feast_error_set(FEAST_ERR_ARG, __FILE__, __LINE__, "boundary values for part '%s': mesh %s has the parts %s",
                           b->part, mesh->source, feast_mesh_part_names(mesh, names, sizeof names));
    else
      parts[q] = (FeastBCPart){boundary_text(b, field), b->priority, NULL};
  }
  if (!st) st = feast_bc_create_from_parts(mesh, field, parts, bc);
  free(parts);
  return st;
}

const NsBoundaryValues *ns_params_part(const NsParams *p, const char *name) {
  for (int i = 0; i < p->physics.nboundary; i++)
    if (strcmp(p->physics.boundary[i].part, name) == 0) return &p->physics.boundary[i];
  return NULL;
}

double ns_viscosity_at(const NsPhysicsParams *p, double re) {
  return p->reference_velocity * p->reference_length / re;
}

double ns_params_viscosity(const NsParams *p) { return ns_viscosity_at(&p->physics, p->physics.re); }

FeastKrylovMethod ns_krylov_choice(const NsParams *p, int stokes) {
  if (p->linear.krylov != NS_KRYLOV_AUTO) return p->linear.krylov;
  return stokes || p->time.scheme != NS_TIME_NONE ? FEAST_KRYLOV_BICGSTAB : FEAST_KRYLOV_FGMRES;
}

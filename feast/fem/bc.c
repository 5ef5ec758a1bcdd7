#include "feast/fem/bc.h"
#include "feast/base/error.h"
#include "feast/config/expr.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct FeastBC {
  char field[16];
  const FeastMesh *mesh;
  int nparts;
  unsigned char *parts;  /* Dirichlet flags */
  FeastExpr **value;     /* per part: the value expression, NULL if natural */
  int *vertex_part;      /* per mesh vertex: the part whose value it takes, -1 if none */
};

/* "run.ini:12" of the first key set in section sec (a section is only listed when it
 * holds a key) */
static const char *section_origin(const FeastConfig *cfg, const char *sec) {
  for (int k = 0; k < feast_config_key_count(cfg); k++) {
    char key[256];
    if (strcmp(feast_config_key_spec(cfg, k)->section, "boundary.*") != 0) continue;
    snprintf(key, sizeof key, "%s.%s", sec, feast_config_key_spec(cfg, k)->key);
    if (feast_config_is_set(cfg, key)) return feast_config_origin(cfg, key);
  }
  return feast_config_path(cfg);
}

int feast_bc_check_sections(const FeastConfig *cfg, const FeastMesh *mesh) {
  int n;
  const char *const *names;
  FEAST_CALL(feast_config_sections(cfg, "boundary.", &n, &names));
  for (int i = 0; i < n; i++) {
    const char *part = names[i] + strlen("boundary.");
    if (feast_mesh_part_index(mesh, part) >= 0) continue;
    char known[512];
    FEAST_ERROR(FEAST_ERR_CONFIG, "%s: [%s]: mesh %s has no boundary part '%s' (it has: %s)",
                section_origin(cfg, names[i]), names[i], mesh->source, part,
                feast_mesh_part_names(mesh, known, sizeof known));
  }
  return 0;
}

static void key_of(const FeastMesh *mesh, int part, const char *what, char *buf, size_t size) {
  snprintf(buf, size, "boundary.%s.%s", mesh->parts[part].name, what);
}

/* the part that sets the value at vertex v: the highest priority among the Dirichlet
 * parts through v; parts of equal priority must agree there */
static int resolve_vertex(FeastBC *bc, const FeastBCPart *parts, int v) {
  const FeastMesh *mesh = bc->mesh;
  const double x = mesh->xy[2 * v], y = mesh->xy[2 * v + 1];
  int best = -1;
  double best_value = 0.0;
  for (int q = 0; q < mesh->nparts; q++) {
    if (!bc->parts[q] || !feast_mesh_vertex_on_part(mesh, v, q)) continue;
    double value;
    FEAST_CALL(feast_expr_eval(bc->value[q], x, y, &value));
    if (best >= 0 && parts[q].priority == parts[best].priority &&
        fabs(value - best_value) > 1e-12 * (1.0 + fabs(value) + fabs(best_value))) {
      char ka[160], kb[160];
      key_of(mesh, best, bc->field, ka, sizeof ka);
      key_of(mesh, q, bc->field, kb, sizeof kb);
      FEAST_ERROR(FEAST_ERR_CONFIG,
                  "%s = '%s' (%s) and %s = '%s' (%s) differ at the mesh vertex (%g, %g) where the parts "
                  "meet (%g and %g); give one part the higher boundary.NAME.priority", ka,
                  feast_expr_text(bc->value[best]), parts[best].origin ? parts[best].origin : "given", kb,
                  feast_expr_text(bc->value[q]), parts[q].origin ? parts[q].origin : "given", x, y, best_value, value);
    }
    if (best < 0 || parts[q].priority > parts[best].priority) {
      best = q;
      best_value = value;
    }
  }
  bc->vertex_part[v] = best;
  return 0;
}

/* the expression of every part with a value, named as feast_expr_from_config names it */
static int compile_parts(FeastBC *bc, const FeastBCPart *parts) {
  for (int q = 0; q < bc->mesh->nparts; q++) {
    if (!parts[q].value) continue;
    char key[160], what[512];
    key_of(bc->mesh, q, bc->field, key, sizeof key);
    if (parts[q].origin) snprintf(what, sizeof what, "%s: %s", parts[q].origin, key);
    else snprintf(what, sizeof what, "%s", key);
    FEAST_CALL(feast_expr_create(parts[q].value, what, &bc->value[q]));
    bc->parts[q] = 1;
  }
  return 0;
}

int feast_bc_create_from_parts(const FeastMesh *mesh, const char *field, const FeastBCPart *parts, FeastBC **bcp) {
  FeastBC *bc;
  FEAST_CALL(FEAST_ALLOC(1, &bc));
  *bcp = bc;
  snprintf(bc->field, sizeof bc->field, "%s", field);
  bc->mesh = mesh;
  bc->nparts = mesh->nparts;
  FEAST_CALL(FEAST_ALLOC(mesh->nparts + 1, &bc->parts));
  FEAST_CALL(FEAST_ALLOC(mesh->nparts + 1, &bc->value));
  FEAST_CALL(FEAST_ALLOC(mesh->nvertices + 1, &bc->vertex_part));
  FEAST_CALL(compile_parts(bc, parts));
  for (int v = 0; v < mesh->nvertices; v++) FEAST_CALL(resolve_vertex(bc, parts, v));
  return 0;
}

/* the config's boundary.NAME.<field> and boundary.NAME.priority of every part */
static int read_parts(const FeastConfig *cfg, const FeastMesh *mesh, const char *field, FeastBCPart *parts) {
  for (int q = 0; q < mesh->nparts; q++) {
    char key[160];
    key_of(mesh, q, field, key, sizeof key);
    if (!feast_config_is_set(cfg, key)) continue;
    FEAST_CALL(feast_config_get_string(cfg, key, &parts[q].value));
    parts[q].origin = feast_config_origin(cfg, key);
    long pr;
    key_of(mesh, q, "priority", key, sizeof key);
    FEAST_CALL(feast_config_get_int(cfg, key, &pr));
    parts[q].priority = (int)pr;
  }
  return 0;
}

int feast_bc_create(const FeastConfig *cfg, const FeastMesh *mesh, const char *field, FeastBC **bcp) {
  *bcp = NULL;
  FeastBCPart *parts;
  FEAST_CALL(FEAST_ALLOC(mesh->nparts + 1, &parts));
  int st = read_parts(cfg, mesh, field, parts);
  if (!st) st = feast_bc_create_from_parts(mesh, field, parts, bcp);
  free(parts);
  return st;
}

void feast_bc_destroy(FeastBC **bcp) {
  FeastBC *bc = *bcp;
  if (!bc) return;
  for (int q = 0; bc->value && q < bc->nparts; q++) feast_expr_destroy(&bc->value[q]);
  free(bc->value);
  free(bc->parts);
  free(bc->vertex_part);
  feast_free(bcp);
}

const char *feast_bc_field(const FeastBC *bc) { return bc->field; }

void feast_bc_set_time(FeastBC *bc, double t) {
  for (int q = 0; q < bc->nparts; q++) feast_expr_set_time(bc->value[q], t);
}

int feast_bc_time_dependent(const FeastBC *bc) {
  for (int q = 0; q < bc->nparts; q++)
    if (feast_expr_uses_time(bc->value[q])) return 1;
  return 0;
}
const unsigned char *feast_bc_parts(const FeastBC *bc) { return bc->parts; }

/* the part that sets the value at node (i,j) of macro m: a corner takes its vertex's
 * part, an edge node its edge's part */
static int node_part(const FeastBC *bc, int m, int i, int j, int N) {
  const FeastMesh *mesh = bc->mesh;
  const int ci = i == 0 ? 0 : i == N - 1 ? 1 : -1, cj = j == 0 ? 0 : j == N - 1 ? 1 : -1;
  if (ci >= 0 && cj >= 0) {
    static const int corner[2][2] = {{0, 3}, {1, 2}}; /* corner[ci][cj]: (0,0) v0, (1,0) v1, (1,1) v2, (0,1) v3 */
    return bc->vertex_part[mesh->quads[4 * m + corner[ci][cj]]];
  }
  const int le = cj == 0 ? 0 : ci == 1 ? 1 : cj == 1 ? 2 : 3;
  return mesh->edge_part[mesh->macro_edges[4 * m + le]];
}

int feast_bc_values(FeastBC *bc, const FeastDomain *dom, const FeastMask *mask, double *const *v) {
  const FeastLevel *lev = &dom->levels[dom->finest];
  const int N = lev->N;
  for (int li = 0; li < dom->nlocal; li++) {
    const unsigned char *fixed = mask->fixed[dom->finest][li];
    for (int j = 0; j < N; j++)
      for (int i = 0; i < N; i++) {
        const long k = (long)j * N + i;
        if (!fixed[k]) continue;
        const int part = node_part(bc, dom->local[li], i, j, N);
        FEAST_CHECK(part >= 0 && bc->value[part], FEAST_ERR_INTERNAL,
                    "field %s: fixed node (%d,%d) of macro %d has no Dirichlet part", bc->field, i, j,
                    dom->local[li]);
        FEAST_CALL(feast_expr_eval(bc->value[part], lev->xy[li][2 * k], lev->xy[li][2 * k + 1], &v[li][k]));
      }
  }
  return 0;
}

/* Boundary conditions of one field (feast/fem/bc.h). At create every part with a value
 * gets its compiled expression, and the places where Dirichlet parts meet get the one part
 * whose value they take, chosen from global mesh data only (vertex_part, and in 3D
 * edge_part): mesh vertices, and in 3D mesh edges, where equal-priority values are also
 * checked to agree (at the vertex; at the edge's midpoint). feast_bc_values then finds the
 * part of each fixed node of a macro by where it lies in the macro (a corner: its vertex's;
 * inside an edge: its edge's; inside a face (3D): the face's part), so every copy of a
 * shared node evaluates the same expression at the same (bitwise equal) coordinates. */
#include "feast/fem/bc.h"
#include "feast/base/error.h"
#include "feast/config/expr.h"
#include "feast/mesh/hex.h"
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
  int *edge_part;        /* 3D: per mesh edge: the part whose value its inner nodes take, -1 if
                          * none (2D: mesh->edge_part, one part per boundary edge) */
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

/* the value of part q at point p: feast_expr_eval at (x, y) in 2D (as before z existed),
 * feast_expr_eval3 at (x, y, z) in 3D */
static int eval_part(const FeastBC *bc, int q, const double p[3], double *value) {
  if (bc->mesh->dim == 3) return feast_expr_eval3(bc->value[q], p[0], p[1], p[2], value);
  return feast_expr_eval(bc->value[q], p[0], p[1], value);
}

/* *best <- the part that sets the value where the Dirichlet parts cand[0..n) (ascending)
 * meet at point p (`where` names it: "the mesh vertex (x, y)"): the highest priority, the
 * first in part order among equals; a part of the same priority as the one chosen so far
 * must agree with it there (FEAST_ERR_CONFIG naming both keys and the point) */
static int pick_part(const FeastBC *bc, const FeastBCPart *parts, const int *cand, int n, const double p[3],
                     const char *where, int *best) {
  const FeastMesh *mesh = bc->mesh;
  double best_value = 0.0;
  *best = -1;
  for (int c = 0; c < n; c++) {
    const int q = cand[c], b = *best;
    double value;
    FEAST_CALL(eval_part(bc, q, p, &value));
    if (b >= 0 && parts[q].priority == parts[b].priority &&
        fabs(value - best_value) > 1e-12 * (1.0 + fabs(value) + fabs(best_value))) {
      char ka[160], kb[160];
      key_of(mesh, b, bc->field, ka, sizeof ka);
      key_of(mesh, q, bc->field, kb, sizeof kb);
      FEAST_ERROR(FEAST_ERR_CONFIG,
                  "%s = '%s' (%s) and %s = '%s' (%s) differ at %s where the parts "
                  "meet (%g and %g); give one part the higher boundary.NAME.priority", ka,
                  feast_expr_text(bc->value[b]), parts[b].origin ? parts[b].origin : "given", kb,
                  feast_expr_text(bc->value[q]), parts[q].origin ? parts[q].origin : "given", where, best_value, value);
    }
    if (b < 0 || parts[q].priority > parts[b].priority) {
      *best = q;
      best_value = value;
    }
  }
  return 0;
}

/* the part that sets the value at mesh vertex v: pick_part among the Dirichlet parts
 * through v (cand: scratch for nparts ids) */
static int resolve_vertex(FeastBC *bc, const FeastBCPart *parts, int v, int *cand) {
  const FeastMesh *mesh = bc->mesh;
  const int dim = mesh->dim == 3 ? 3 : 2;
  const double p[3] = {mesh->xy[dim * v], mesh->xy[dim * v + 1], dim == 3 ? mesh->xy[3 * v + 2] : 0.0};
  int n = 0;
  for (int q = 0; q < mesh->nparts; q++)
    if (bc->parts[q] && feast_mesh_vertex_on_part(mesh, v, q)) cand[n++] = q;
  char where[128];
  if (dim == 3) snprintf(where, sizeof where, "the mesh vertex (%g, %g, %g)", p[0], p[1], p[2]);
  else snprintf(where, sizeof where, "the mesh vertex (%g, %g)", p[0], p[1]);
  return pick_part(bc, parts, cand, n, p, where, &bc->vertex_part[v]);
}

/* 3D: two[2 e + s] <- the Dirichlet parts of the (at most two: feast_hex_check_watertight)
 * boundary faces through mesh edge e, -1 where none */
static int edge_face_parts(const FeastBC *bc, int *two) {
  const FeastMesh *mesh = bc->mesh;
  for (int e = 0; e < 2 * mesh->nedges; e++) two[e] = -1;
  for (int f = 0; f < mesh->nfaces; f++) {
    const int q = mesh->face_part[f], *g = mesh->face_vertices + 4 * f;
    if (q < 0 || !bc->parts[q]) continue;
    for (int k = 0; k < 4; k++) {
      const int e = feast_hex_macro_edge(mesh, mesh->face_macros[2 * f], g[k], g[(k + 1) % 4]);
      FEAST_CHECK(e >= 0 && two[2 * e + 1] < 0, FEAST_ERR_INTERNAL,
                  "field %s: face %d: edge %d-%d not found or on more than two boundary faces", bc->field, f, g[k],
                  g[(k + 1) % 4]);
      two[2 * e + (two[2 * e] >= 0)] = q;
    }
  }
  return 0;
}

/* 3D: p <- the midpoint node of mesh edge e as refinement places it (on a curved part's
 * surface), from the first macro holding the edge: the same point whoever asks */
static int edge_midpoint(const FeastMesh *mesh, int e, double p[3]) {
  const int m = mesh->edge_macro_ids[mesh->edge_macro_ptr[e]];
  double xyz[3 * 27];
  FEAST_CALL(feast_mesh_macro_coords(mesh, m, 1, xyz));
  int le = 0;
  while (le < 12 && mesh->macro_edges[12 * m + le] != e) le++;
  FEAST_CHECK(le < 12, FEAST_ERR_INTERNAL, "mesh edge %d is not an edge of its macro %d", e, m);
  const long r = feast_hex_lattice_node(3, feast_macro_hex.edge[le][0], feast_macro_hex.edge[le][1], 0, 1, 0);
  for (int d = 0; d < 3; d++) p[d] = xyz[3 * r + d];
  return 0;
}

/* 3D: the part that sets the values inside mesh edge e (bc->edge_part[e]): the one
 * Dirichlet part of its boundary faces, or where two meet, pick_part checked at the
 * edge's midpoint; -1 on no Dirichlet face */
static int resolve_edge(FeastBC *bc, const FeastBCPart *parts, int e, const int *two) {
  int a = two[2 * e], b = two[2 * e + 1];
  if (b == a) b = -1;
  bc->edge_part[e] = a;
  if (b < 0) return 0;
  const int cand[2] = {a < b ? a : b, a < b ? b : a};
  double p[3] = {0.0, 0.0, 0.0};
  FEAST_CALL(edge_midpoint(bc->mesh, e, p));
  char where[160];
  snprintf(where, sizeof where, "the midpoint (%g, %g, %g) of the mesh edge %d-%d", p[0], p[1], p[2],
           bc->mesh->edge_vertices[2 * e], bc->mesh->edge_vertices[2 * e + 1]);
  return pick_part(bc, parts, cand, 2, p, where, &bc->edge_part[e]);
}

/* the part of every mesh vertex and, in 3D, of every mesh edge */
static int resolve(FeastBC *bc, const FeastBCPart *parts) {
  const FeastMesh *mesh = bc->mesh;
  int *cand, *two = NULL;
  FEAST_CALL(FEAST_ALLOC(mesh->nparts + 1, &cand));
  int st = 0;
  for (int v = 0; v < mesh->nvertices && !st; v++) st = resolve_vertex(bc, parts, v, cand);
  if (!st && mesh->dim == 3) st = FEAST_ALLOC(mesh->nedges + 1, &bc->edge_part);
  if (!st && mesh->dim == 3) st = FEAST_ALLOC(2 * (size_t)mesh->nedges + 1, &two);
  if (!st && mesh->dim == 3) st = edge_face_parts(bc, two);
  for (int e = 0; mesh->dim == 3 && e < mesh->nedges && !st; e++) st = resolve_edge(bc, parts, e, two);
  free(cand), free(two);
  return st;
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
    FEAST_CHECK(bc->mesh->dim == 3 || !feast_expr_uses_z(bc->value[q]), FEAST_ERR_CONFIG,
                "%s = '%s': names z, but mesh %s is two-dimensional (expressions in x, y and t)", what, parts[q].value,
                bc->mesh->source);
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
  return resolve(bc, parts);
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
  free(bc->edge_part);
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

/* the corner of a hexahedral macro at lattice point p (every p[d] 0 or N - 1) */
static int lattice_corner(const long p[3], int N) {
  int c = 0;
  while (c < 7 && !((feast_macro_hex.at[c][0] != 0) == (p[0] == N - 1) &&
                    (feast_macro_hex.at[c][1] != 0) == (p[1] == N - 1) &&
                    (feast_macro_hex.at[c][2] != 0) == (p[2] == N - 1)))
    c++;
  return c;
}

/* 3D: the part that sets the value at lattice point p of macro m: a corner takes its
 * mesh vertex's part, a node inside a macro edge the mesh edge's, a node inside a face
 * the face's; all three chosen from global mesh data only, so every macro holding the
 * node chooses alike. -1 inside the macro. */
static int node_part3(const FeastBC *bc, int m, const long p[3], int N) {
  const FeastMesh *mesh = bc->mesh;
  int nb = 0, lf = -1, free_d = -1;
  for (int d = 0; d < 3; d++) {
    if (p[d] == 0 || p[d] == N - 1) nb++, lf = 2 * d + (p[d] != 0);
    else free_d = d;
  }
  if (nb == 3) return bc->vertex_part[mesh->quads[8 * m + lattice_corner(p, N)]];
  if (nb == 1) return mesh->face_part[mesh->macro_faces[6 * m + lf]];
  if (nb == 0) return -1;
  long a[3] = {p[0], p[1], p[2]}, b[3] = {p[0], p[1], p[2]}; /* the edge's ends */
  a[free_d] = 0, b[free_d] = N - 1;
  const int e = feast_hex_macro_edge(mesh, m, mesh->quads[8 * m + lattice_corner(a, N)],
                                     mesh->quads[8 * m + lattice_corner(b, N)]);
  return e >= 0 ? bc->edge_part[e] : -1;
}

/* feast_bc_values on quadrilateral macros */
static int values2(FeastBC *bc, const FeastDomain *dom, const FeastMask *mask, double *const *v) {
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

/* feast_bc_values on hexahedral macros: node (i,j,k) at (k N + j) N + i, at
 * lev->xy[li][3 r .. 3 r + 2] */
static int values3(FeastBC *bc, const FeastDomain *dom, const FeastMask *mask, double *const *v) {
  const FeastLevel *lev = &dom->levels[dom->finest];
  const int N = lev->N;
  for (int li = 0; li < dom->nlocal; li++) {
    const unsigned char *fixed = mask->fixed[dom->finest][li];
    const double *x = lev->xy[li];
    for (long r = 0; r < lev->nodes_per_macro; r++) {
      if (!fixed[r]) continue;
      const long p[3] = {r % N, r / N % N, r / ((long)N * N)};
      const int part = node_part3(bc, dom->local[li], p, N);
      FEAST_CHECK(part >= 0 && bc->value[part], FEAST_ERR_INTERNAL,
                  "field %s: fixed node (%ld,%ld,%ld) of macro %d has no Dirichlet part", bc->field, p[0], p[1], p[2],
                  dom->local[li]);
      FEAST_CALL(feast_expr_eval3(bc->value[part], x[3 * r], x[3 * r + 1], x[3 * r + 2], &v[li][r]));
    }
  }
  return 0;
}

int feast_bc_values(FeastBC *bc, const FeastDomain *dom, const FeastMask *mask, double *const *v) {
  return dom->mesh->dim == 3 ? values3(bc, dom, mask, v) : values2(bc, dom, mask, v);
}

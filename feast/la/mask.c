#include "feast/la/mask.h"
#include "feast/base/error.h"
#include "feast/mesh/hex.h"
#include <stdlib.h>
#include <string.h>

int feast_mask_parse_parts(const FeastMesh *mesh, const char *spec, const char *key, unsigned char *parts) {
  memset(parts, 0, (size_t)mesh->nparts);
  if (spec && strcmp(spec, "all") == 0) {
    memset(parts, 1, (size_t)mesh->nparts);
    return 0;
  }
  for (const char *p = spec ? spec : ""; *p;) {
    p += strspn(p, " ,\t");
    if (!*p) break;
    const size_t len = strcspn(p, " ,\t");
    char name[64];
    FEAST_CHECK(len < sizeof name, FEAST_ERR_CONFIG, "%s: part name '%.40s...' too long", key, p);
    memcpy(name, p, len);
    name[len] = 0;
    const int part = feast_mesh_part_index(mesh, name);
    if (part < 0) {
      char known[512];
      FEAST_ERROR(FEAST_ERR_CONFIG, "%s = '%s': mesh %s has no boundary part '%s' (it has: %s)", key, spec,
                  mesh->source, name, feast_mesh_part_names(mesh, known, sizeof known));
    }
    parts[part] = 1;
    p += len;
  }
  return 0;
}

/* 3D: the vertices and edges on a boundary face of a flagged part */
typedef struct {
  unsigned char *vertex, *edge;
} FixedEntities;

static int fixed_entities(const FeastMesh *mesh, const unsigned char *parts, FixedEntities *fe) {
  FEAST_CALL(FEAST_ALLOC(mesh->nvertices, &fe->vertex));
  FEAST_CALL(FEAST_ALLOC(mesh->nedges, &fe->edge));
  for (int f = 0; f < mesh->nfaces; f++) {
    const int p = mesh->face_part[f];
    if (p < 0 || !parts[p]) continue;
    const int *g = mesh->face_vertices + 4 * f;
    for (int k = 0; k < 4; k++) {
      fe->vertex[g[k]] = 1;
      fe->edge[feast_hex_macro_edge(mesh, mesh->face_macros[2 * f], g[k], g[(k + 1) % 4])] = 1;
    }
  }
  return 0;
}

/* 3D: the nodes of local macro li on the flagged parts' faces, edges and vertices (a macro
 * may touch a part along an edge or at a vertex only) */
static void mark_fixed3(const FeastDomain *dom, const unsigned char *parts, const FixedEntities *fe, int N, int li,
                        unsigned char *fixed) {
  const FeastMesh *mesh = dom->mesh;
  const int m = dom->local[li];
  unsigned faces = 0;
  for (int lf = 0; lf < 6; lf++) {
    const int f = mesh->macro_faces[6 * m + lf], p = mesh->face_part[f];
    if (p >= 0 && parts[p]) faces |= (unsigned)FEAST_HEX_FACE_X0 << lf;
  }
  feast_hex_face_nodes(N, faces, fixed);
  for (int le = 0; le < 12; le++)
    if (fe->edge[mesh->macro_edges[12 * m + le]])
      for (int s = 0; s < N; s++)
        fixed[feast_hex_lattice_node(N, feast_macro_hex.edge[le][0], feast_macro_hex.edge[le][1], 0, s, 0)] = 1;
  for (int c = 0; c < 8; c++)
    if (fe->vertex[mesh->quads[8 * m + c]]) fixed[feast_hex_corner_node(c, N)] = 1;
}

static void mark_fixed(const FeastDomain *dom, const unsigned char *parts, int N, int li, unsigned char *fixed) {
  const FeastMesh *mesh = dom->mesh;
  const int m = dom->local[li];
  for (int le = 0; le < 4; le++) {
    const int e = mesh->macro_edges[4 * m + le], part = mesh->edge_part[e];
    if (part >= 0 && parts[part])
      for (int p = 0; p < N; p++) fixed[feast_edge_node(le, p, N)] = 1;
    const int v = mesh->quads[4 * m + le];
    for (int q = 0; q < mesh->nparts; q++)
      if (parts[q] && feast_mesh_vertex_on_part(mesh, v, q)) fixed[feast_corner_node(le, N)] = 1;
  }
}

/* m->nfixed: the fixed nodes of the finest level, counted at their owners, summed over
 * the macros (no double counting of shared nodes) */
static int count_fixed(const FeastDomain *dom, FeastMask *m) {
  const FeastLevel *lev = &dom->levels[dom->finest];
  double *count;
  FEAST_CALL(FEAST_ALLOC(m->nlocal + 1, &count));
  for (int li = 0; li < m->nlocal; li++)
    for (long i = 0; i < lev->nodes_per_macro; i++) count[li] += m->fixed[m->finest][li][i] && lev->owned[li][i];
  double total = 0;
  const int st = feast_domain_sum_macros(dom, 1, count, &total);
  free(count);
  m->nfixed = (int64_t)total;
  return st;
}

int feast_mask_create(const FeastDomain *dom, const unsigned char *parts, FeastMask **mp) {
  FeastMask *m;
  FEAST_CALL(FEAST_ALLOC(1, &m));
  *mp = m;
  m->finest = dom->finest;
  m->nlocal = dom->nlocal;
  m->nparts = dom->mesh->nparts;
  FEAST_CALL(FEAST_ALLOC(m->nparts + 1, &m->parts));
  if (parts) memcpy(m->parts, parts, (size_t)m->nparts);
  FEAST_CALL(FEAST_ALLOC(m->finest + 1, &m->fixed));
  FixedEntities fe = {NULL, NULL};
  int st = dom->mesh->dim == 3 ? fixed_entities(dom->mesh, m->parts, &fe) : 0;
  for (int l = 0; l <= m->finest && !st; l++) {
    const int N = dom->levels[l].N;
    st = FEAST_ALLOC(m->nlocal + 1, &m->fixed[l]);
    for (int li = 0; li < m->nlocal && !st; li++) {
      st = FEAST_ALLOC(dom->levels[l].nodes_per_macro, &m->fixed[l][li]);
      if (st) break;
      if (dom->mesh->dim == 3) mark_fixed3(dom, m->parts, &fe, N, li, m->fixed[l][li]);
      else mark_fixed(dom, m->parts, N, li, m->fixed[l][li]);
    }
  }
  free(fe.vertex), free(fe.edge);
  FEAST_CALL(st);
  m->pinned = -1;
  return count_fixed(dom, m);
}

int feast_mask_pin(const FeastDomain *dom, int vertex, FeastMask *m) {
  const FeastMesh *mesh = dom->mesh;
  FEAST_CHECK(vertex >= 0 && vertex < mesh->nvertices, FEAST_ERR_ARG, "mask: no vertex %d to pin (mesh %s has %d)",
              vertex, mesh->source, mesh->nvertices);
  FEAST_CHECK(m->pinned < 0, FEAST_ERR_ARG, "mask: pins vertex %d already (one pin per mask)", m->pinned);
  m->pinned = vertex;
  const int corners = feast_mesh_cell(mesh)->corners;
  for (int li = 0; li < m->nlocal; li++)
    for (int k = 0; k < corners; k++)
      if (mesh->quads[corners * dom->local[li] + k] == vertex)
        for (int l = 0; l <= m->finest; l++) {
          const int N = dom->levels[l].N;
          m->fixed[l][li][mesh->dim == 3 ? feast_hex_corner_node(k, N) : feast_corner_node(k, N)] = 1;
        }
  return count_fixed(dom, m);
}

void feast_mask_destroy(FeastMask **mp) {
  FeastMask *m = *mp;
  if (!m) return;
  for (int l = 0; m->fixed && l <= m->finest; l++) {
    for (int li = 0; m->fixed[l] && li < m->nlocal; li++) free(m->fixed[l][li]);
    free(m->fixed[l]);
  }
  free(m->fixed);
  free(m->parts);
  feast_free(mp);
}

int feast_mask_same(const FeastMask *a, const FeastMask *b) {
  return a->nparts == b->nparts && memcmp(a->parts, b->parts, (size_t)a->nparts) == 0 && a->pinned == b->pinned;
}

/* The derived topology of a coarse mesh (the FeastMesh fields after nparts): edges
 * numbered by first occurrence, each shared by at most two quads in opposite directions
 * (else the mesh is not conforming), their boundary parts (filled by mesh_validate.c),
 * macro -> edges, the vertex -> macros CSR (every vertex a corner of some quad), and
 * the lookup of an edge by its vertices. */
#include "feast/base/error.h"
#include "feast/mesh/mesh_private.h"
#include <stdlib.h>

void feast_mesh_free_topology(FeastMesh *m) {
  feast_free(&m->edge_vertices);
  feast_free(&m->edge_macros);
  feast_free(&m->edge_part);
  feast_free(&m->macro_edges);
  feast_free(&m->vertex_macro_ptr);
  feast_free(&m->vertex_macros);
  feast_free(&m->face_vertices);
  feast_free(&m->face_macros);
  feast_free(&m->face_part);
  feast_free(&m->macro_faces);
  feast_free(&m->edge_macro_ptr);
  feast_free(&m->edge_macro_ids);
  m->nedges = m->nfaces = 0;
}

static int cmp_edgeref(const void *pa, const void *pb) {
  const FeastMeshEdgeRef *a = pa, *b = pb;
  if (a->key != b->key) return a->key < b->key ? -1 : 1;
  return (a->idx > b->idx) - (a->idx < b->idx);
}

/* edge occurrence idx = edges * macro + local edge (the macro's reference cell): its
 * macro, and the vertex it starts (end 0) or ends (end 1) at */
static int edge_macro(const FeastMesh *m, int idx) { return idx / feast_mesh_cell(m)->edges; }
static int edge_corner(const FeastMesh *m, int idx, int end) {
  const FeastMacroCell *c = feast_mesh_cell(m);
  return m->quads[c->corners * (idx / c->edges) + c->edge[idx % c->edges][end]];
}
static int edge_from(const FeastMesh *m, int idx) { return edge_corner(m, idx, 0); }
static int edge_to(const FeastMesh *m, int idx) { return edge_corner(m, idx, 1); }

/* a shared edge: at most two quads, traversed in opposite directions */
static int check_edge_group(const FeastMesh *m, const FeastMeshLines *ln, const FeastMeshEdgeRef *g, int n) {
  const int *ql = ln ? ln->quad : NULL;
  int a = edge_from(m, g[0].idx), b = edge_to(m, g[0].idx);
  FEAST_CHECK(n <= 2, FEAST_ERR_MESH,
              "%s: quad %d: edge %d-%d is already shared by quads %d and %d: the mesh is not conforming "
              "(an edge belongs to at most two quads)",
              feast_mesh_loc(m, ql, edge_macro(m, g[2].idx)).s, edge_macro(m, g[2].idx), a < b ? a : b, a < b ? b : a,
              edge_macro(m, g[0].idx), edge_macro(m, g[1].idx));
  if (n == 2)
    FEAST_CHECK(edge_from(m, g[1].idx) != a, FEAST_ERR_MESH,
                "%s: quad %d overlaps quad %d: both run through their shared edge %d-%d in the same "
                "direction",
                feast_mesh_loc(m, ql, edge_macro(m, g[1].idx)).s, edge_macro(m, g[1].idx), edge_macro(m, g[0].idx),
                a, b);
  return 0;
}

/* edges numbered by first occurrence (macro order, local edge order); *keys = per edge
 * (key, edge id) sorted by key, for lookups */
int feast_mesh_build_edges(FeastMesh *m, const FeastMeshLines *ln, FeastMeshEdgeRef **keys) {
  const int n = feast_mesh_cell(m)->edges * m->nmacros;
  const int64_t nv = m->nvertices;
  FeastMeshEdgeRef *ref;
  *keys = NULL;
  FEAST_CALL(FEAST_ALLOC(n, &ref));
  for (int i = 0; i < n; i++) {
    int64_t a = edge_from(m, i), b = edge_to(m, i);
    ref[i].key = a < b ? a * nv + b : b * nv + a;
    ref[i].idx = i;
  }
  if (n) qsort(ref, (size_t)n, sizeof *ref, cmp_edgeref);
  int status = FEAST_ALLOC(n, &m->macro_edges);
  int *first = NULL;
  if (!status) status = FEAST_ALLOC(n, &first);
  int ngroups = 0;
  for (int i = 0; i < n && !status;) {
    int j = i;
    while (j < n && ref[j].key == ref[i].key) j++;
    status = check_edge_group(m, ln, ref + i, j - i);
    for (int k = i; k < j; k++) first[ref[k].idx] = ref[i].idx;
    ref[ngroups++] = (FeastMeshEdgeRef){ref[i].key, ref[i].idx}; /* compacted: one entry per edge */
    i = j;
  }
  if (!status) status = FEAST_ALLOC(2 * (size_t)ngroups, &m->edge_vertices);
  if (!status) status = FEAST_ALLOC(2 * (size_t)ngroups, &m->edge_macros);
  if (!status) status = FEAST_ALLOC(ngroups, &m->edge_part);
  if (status) {
    free(ref);
    free(first);
    return status;
  }
  m->nedges = 0;
  for (int i = 0; i < n; i++) {
    if (first[i] == i) {
      int e = m->nedges++, a = edge_from(m, i), b = edge_to(m, i);
      m->edge_vertices[2 * e] = a < b ? a : b;
      m->edge_vertices[2 * e + 1] = a < b ? b : a;
      m->edge_macros[2 * e] = edge_macro(m, i);
      m->edge_macros[2 * e + 1] = -1;
      m->edge_part[e] = -1;
      m->macro_edges[i] = e;
    } else {
      int e = m->macro_edges[first[i]];
      m->macro_edges[i] = e;
      m->edge_macros[2 * e + 1] = edge_macro(m, i);
    }
  }
  for (int g = 0; g < ngroups; g++) ref[g].idx = m->macro_edges[ref[g].idx]; /* idx -> edge id */
  free(first);
  *keys = ref;
  return 0;
}

/* CSR vertex -> macros (ascending, as macros are visited in order); unused vertices are errors */
int feast_mesh_build_vertex_macros(FeastMesh *m, const FeastMeshLines *ln) {
  FEAST_CALL(FEAST_ALLOC(m->nvertices + 1, &m->vertex_macro_ptr));
  const int corners = feast_mesh_cell(m)->corners;
  FEAST_CALL(FEAST_ALLOC((size_t)corners * m->nmacros, &m->vertex_macros));
  int *ptr = m->vertex_macro_ptr;
  for (int i = 0; i < corners * m->nmacros; i++) ptr[m->quads[i] + 1]++;
  for (int v = 0; v < m->nvertices; v++) {
    FEAST_CHECK(ptr[v + 1] > 0, FEAST_ERR_MESH, "%s: vertex %d is not a corner of any %s",
                feast_mesh_loc(m, ln ? ln->vertex : NULL, v).s, v, m->dim == 3 ? "hexahedron" : "quad");
    ptr[v + 1] += ptr[v];
  }
  for (int c = 0; c < m->nmacros; c++)
    for (int k = 0; k < corners; k++) {
      int v = m->quads[corners * c + k];
      m->vertex_macros[ptr[v]++] = c;
    }
  for (int v = m->nvertices; v > 0; v--) ptr[v] = ptr[v - 1];
  ptr[0] = 0;
  return 0;
}

int feast_mesh_find_edge(const FeastMesh *m, const FeastMeshEdgeRef *keys, int a, int b) {
  int64_t lo = a < b ? a : b, hi = a < b ? b : a, key = lo * m->nvertices + hi;
  int l = 0, r = m->nedges - 1;
  while (l <= r) {
    int mid = l + (r - l) / 2;
    if (keys[mid].key == key) return keys[mid].idx;
    if (keys[mid].key < key)
      l = mid + 1;
    else
      r = mid - 1;
  }
  return -1;
}


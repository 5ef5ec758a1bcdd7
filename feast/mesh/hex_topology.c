/* The derived topology of a mesh of hexahedra (the 3D fields of FeastMesh, part of
 * feast_mesh_finish): faces numbered by first occurrence, each shared by at most two
 * hexahedra that see it in opposite orientations (else the mesh is not conforming), the
 * macro -> faces map, edges numbered by first occurrence with the CSR edge -> macros
 * (an edge may be shared by any number of hexahedra), and the check that the boundary
 * faces close up (every edge of a boundary face borders exactly two of them). */
#include "feast/base/error.h"
#include "feast/mesh/hex_mesh.h"
#include <stdlib.h>
#include <string.h>

/* ---- faces */

typedef struct {
  int key[4]; /* the face's vertex ids, ascending */
  int idx;    /* 6 * macro + local face */
} FaceRef;

static int cmp4(const int *a, const int *b) {
  for (int k = 0; k < 4; k++)
    if (a[k] != b[k]) return a[k] < b[k] ? -1 : 1;
  return 0;
}

static int cmp_faceref(const void *pa, const void *pb) {
  const FaceRef *a = pa, *b = pb;
  const int c = cmp4(a->key, b->key);
  return c ? c : (a->idx > b->idx) - (a->idx < b->idx);
}

static void sort4(int *v) {
  for (int i = 1; i < 4; i++)
    for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
      const int t = v[j];
      v[j] = v[j - 1], v[j - 1] = t;
    }
}

void feast_hex_face_corners(const FeastMesh *m, int macro, int lf, int g[4]) {
  for (int k = 0; k < 4; k++) g[k] = m->quads[8 * macro + feast_macro_hex.face[lf][k]];
}

void feast_hex_face_canonical(const int g[4], int *start, int *dir) {
  int r = 0;
  for (int k = 1; k < 4; k++)
    if (g[k] < g[r]) r = k;
  *start = r;
  *dir = g[(r + 1) % 4] < g[(r + 3) % 4] ? 1 : -1;
}

void feast_hex_face_local_corners(const FeastMesh *m, int macro, int lf, int c[4]) {
  int g[4], r, dir;
  feast_hex_face_corners(m, macro, lf, g);
  feast_hex_face_canonical(g, &r, &dir);
  for (int k = 0; k < 4; k++) c[k] = feast_macro_hex.face[lf][((r + dir * k) % 4 + 4) % 4];
}

/* the face's corners from the canonical start in the canonical direction */
static void canonical_cycle(const int g[4], int c[4], int *dir) {
  int r;
  feast_hex_face_canonical(g, &r, dir);
  for (int k = 0; k < 4; k++) c[k] = g[((r + *dir * k) % 4 + 4) % 4];
}

/* two occurrences of one vertex set: the same cycle, seen in opposite orientations */
static int check_face_pair(const FeastMesh *m, const FeastMeshLines *ln, const FaceRef *a, const FaceRef *b) {
  int ga[4], gb[4], ca[4], cb[4], da, db;
  feast_hex_face_corners(m, a->idx / 6, a->idx % 6, ga);
  feast_hex_face_corners(m, b->idx / 6, b->idx % 6, gb);
  canonical_cycle(ga, ca, &da);
  canonical_cycle(gb, cb, &db);
  const int ha = a->idx / 6, hb = b->idx / 6;
  FEAST_CHECK(cmp4(ca, cb) == 0, FEAST_ERR_MESH,
              "%s: hexahedron %d: its face %d %d %d %d has the corners of a face of hexahedron %d (%d %d %d %d) in "
              "another order: the mesh is not conforming",
              feast_mesh_loc(m, ln ? ln->quad : NULL, hb).s, hb, gb[0], gb[1], gb[2], gb[3], ha, ga[0], ga[1], ga[2],
              ga[3]);
  FEAST_CHECK(da != db, FEAST_ERR_MESH,
              "%s: hexahedron %d overlaps hexahedron %d: both see their shared face %d %d %d %d in the same "
              "orientation",
              feast_mesh_loc(m, ln ? ln->quad : NULL, hb).s, hb, ha, ca[0], ca[1], ca[2], ca[3]);
  return 0;
}

/* occurrences sorted by vertex set; groups of at most two, checked */
static int face_refs(const FeastMesh *m, const FeastMeshLines *ln, FaceRef **refs) {
  const int n = 6 * m->nmacros;
  FaceRef *ref;
  FEAST_CALL(FEAST_ALLOC(n, &ref));
  *refs = ref;
  for (int i = 0; i < n; i++) {
    feast_hex_face_corners(m, i / 6, i % 6, ref[i].key);
    sort4(ref[i].key);
    ref[i].idx = i;
  }
  qsort(ref, (size_t)n, sizeof *ref, cmp_faceref);
  for (int i = 0; i < n;) {
    int j = i + 1;
    while (j < n && cmp4(ref[j].key, ref[i].key) == 0) j++;
    FEAST_CHECK(j - i <= 2, FEAST_ERR_MESH,
                "%s: hexahedron %d: face %d %d %d %d is already shared by hexahedra %d and %d: the mesh is not "
                "conforming (a face belongs to at most two hexahedra)",
                feast_mesh_loc(m, ln ? ln->quad : NULL, ref[i + 2].idx / 6).s, ref[i + 2].idx / 6, ref[i].key[0],
                ref[i].key[1], ref[i].key[2], ref[i].key[3], ref[i].idx / 6, ref[i + 1].idx / 6);
    if (j - i == 2) FEAST_CALL(check_face_pair(m, ln, &ref[i], &ref[i + 1]));
    i = j;
  }
  return 0;
}

/* faces numbered by first occurrence (macro order, local face order) */
static int number_faces(FeastMesh *m, const FaceRef *ref) {
  const int n = 6 * m->nmacros;
  int *first;
  FEAST_CALL(FEAST_ALLOC(n, &first));
  for (int i = 0; i < n; i++) first[ref[i].idx] = i > 0 && cmp4(ref[i].key, ref[i - 1].key) == 0
                                                      ? first[ref[i - 1].idx]
                                                      : ref[i].idx;
  int st = FEAST_ALLOC(n, &m->macro_faces);
  m->nfaces = 0;
  for (int i = 0; i < n; i++) m->nfaces += first[i] == i;
  if (!st) st = FEAST_ALLOC(4 * (size_t)m->nfaces, &m->face_vertices);
  if (!st) st = FEAST_ALLOC(2 * (size_t)m->nfaces, &m->face_macros);
  if (!st) st = FEAST_ALLOC(m->nfaces, &m->face_part);
  for (int i = 0, f = 0; i < n && !st; i++) {
    if (first[i] == i) {
      int g[4], dir;
      feast_hex_face_corners(m, i / 6, i % 6, g);
      canonical_cycle(g, m->face_vertices + 4 * f, &dir);
      m->face_macros[2 * f] = i / 6, m->face_macros[2 * f + 1] = -1;
      m->face_part[f] = -1;
      m->macro_faces[i] = f++;
    } else {
      const int f = m->macro_faces[first[i]];
      m->macro_faces[i] = f;
      m->face_macros[2 * f + 1] = i / 6;
    }
  }
  free(first);
  return st;
}

int feast_hex_build_faces(FeastMesh *m, const FeastMeshLines *ln, FeastHexFaceKeys *keys) {
  FaceRef *ref = NULL;
  int st = face_refs(m, ln, &ref);
  if (!st) st = number_faces(m, ref);
  if (!st) st = FEAST_ALLOC(5 * (size_t)m->nfaces, &keys->key);
  /* the lookup table: per face its sorted vertex ids and its id, sorted */
  for (int i = 0, f = 0; i < 6 * m->nmacros && !st; i++) {
    if (i > 0 && cmp4(ref[i].key, ref[i - 1].key) == 0) continue;
    memcpy(keys->key + 5 * f, ref[i].key, sizeof ref[i].key);
    keys->key[5 * f + 4] = m->macro_faces[ref[i].idx];
    f++;
  }
  keys->n = m->nfaces;
  free(ref);
  return st;
}

int feast_hex_find_face(const FeastHexFaceKeys *keys, const int g[4]) {
  int s[4] = {g[0], g[1], g[2], g[3]};
  sort4(s);
  int lo = 0, hi = keys->n - 1;
  while (lo <= hi) {
    const int mid = lo + (hi - lo) / 2, *k = keys->key + 5 * mid;
    const int c = cmp4(k, s);
    if (c == 0) return k[4];
    if (c < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

int feast_hex_same_cycle(const int a[4], const int b[4]) {
  int ca[4], cb[4], da, db;
  canonical_cycle(a, ca, &da);
  canonical_cycle(b, cb, &db);
  return cmp4(ca, cb) == 0;
}

/* ---- edges */

typedef struct {
  int64_t key; /* smaller * nv + larger vertex id */
  int idx;     /* 12 * macro + local edge */
} EdgeRef;

static int cmp_edgeref(const void *pa, const void *pb) {
  const EdgeRef *a = pa, *b = pb;
  if (a->key != b->key) return a->key < b->key ? -1 : 1;
  return (a->idx > b->idx) - (a->idx < b->idx);
}

static int64_t edge_key(const FeastMesh *m, int a, int b) {
  return a < b ? (int64_t)a * m->nvertices + b : (int64_t)b * m->nvertices + a;
}

static int local_edge_corner(const FeastMesh *m, int idx, int end) {
  return m->quads[8 * (idx / 12) + feast_macro_hex.edge[idx % 12][end]];
}

/* edges by first occurrence; CSR edge -> macros, ascending (occurrences sorted by index) */
static int number_edges(FeastMesh *m, const EdgeRef *ref, int n) {
  int *first;
  FEAST_CALL(FEAST_ALLOC(n, &first));
  for (int i = 0; i < n; i++) first[ref[i].idx] = i > 0 && ref[i].key == ref[i - 1].key ? first[ref[i - 1].idx] : ref[i].idx;
  m->nedges = 0;
  for (int i = 0; i < n; i++) m->nedges += first[i] == i;
  int st = FEAST_ALLOC(n, &m->macro_edges);
  if (!st) st = FEAST_ALLOC(2 * (size_t)m->nedges, &m->edge_vertices);
  if (!st) st = FEAST_ALLOC(m->nedges, &m->edge_part);
  if (!st) st = FEAST_ALLOC(m->nedges + 1, &m->edge_macro_ptr);
  if (!st) st = FEAST_ALLOC(n, &m->edge_macro_ids);
  for (int i = 0, e = 0; i < n && !st; i++) {
    if (first[i] == i) {
      const int a = local_edge_corner(m, i, 0), b = local_edge_corner(m, i, 1);
      m->edge_vertices[2 * e] = a < b ? a : b, m->edge_vertices[2 * e + 1] = a < b ? b : a;
      m->edge_part[e] = -1;
      m->macro_edges[i] = e++;
    } else
      m->macro_edges[i] = m->macro_edges[first[i]];
  }
  /* the groups in sorted order hold their macros ascending; edge ids differ from the
   * group order, so count first, then fill */
  for (int i = 0; i < n && !st; i++) m->edge_macro_ptr[m->macro_edges[ref[i].idx] + 1]++;
  for (int e = 0; e < m->nedges && !st; e++) m->edge_macro_ptr[e + 1] += m->edge_macro_ptr[e];
  int *fill = NULL;
  if (!st) st = FEAST_ALLOC(m->nedges + 1, &fill);
  for (int i = 0; i < n && !st; i++) {
    const int e = m->macro_edges[ref[i].idx];
    m->edge_macro_ids[m->edge_macro_ptr[e] + fill[e]++] = ref[i].idx / 12;
  }
  free(fill);
  free(first);
  return st;
}

int feast_hex_build_edges(FeastMesh *m) {
  const int n = 12 * m->nmacros;
  EdgeRef *ref;
  FEAST_CALL(FEAST_ALLOC(n, &ref));
  for (int i = 0; i < n; i++) ref[i].key = edge_key(m, local_edge_corner(m, i, 0), local_edge_corner(m, i, 1)), ref[i].idx = i;
  qsort(ref, (size_t)n, sizeof *ref, cmp_edgeref);
  const int st = number_edges(m, ref, n);
  free(ref);
  return st;
}

int feast_hex_macro_edge(const FeastMesh *m, int macro, int a, int b) {
  for (int le = 0; le < 12; le++) {
    const int e = m->macro_edges[12 * macro + le], *v = m->edge_vertices + 2 * e;
    if ((v[0] == a && v[1] == b) || (v[0] == b && v[1] == a)) return e;
  }
  return -1;
}

/* ---- the boundary is a surface */

/* Every edge borders an even number of boundary faces (each hexahedron around it
 * contributes two faces, each shared face removes two), so the boundary of conforming
 * hexahedra is closed; an edge with four or more is where hexahedra touch along the edge
 * only. Gaps and cracks show as coinciding vertices (hex_conform.c). */
int feast_hex_check_watertight(const FeastMesh *m, const FeastMeshLines *ln) {
  int *count;
  FEAST_CALL(FEAST_ALLOC(m->nedges + 1, &count));
  for (int f = 0; f < m->nfaces; f++) {
    if (m->face_macros[2 * f + 1] >= 0) continue;
    const int *c = m->face_vertices + 4 * f;
    for (int k = 0; k < 4; k++) count[feast_hex_macro_edge(m, m->face_macros[2 * f], c[k], c[(k + 1) % 4])]++;
  }
  int bad = -1;
  for (int e = 0; e < m->nedges && bad < 0; e++)
    if (count[e] > 2) bad = e;
  const int n = bad >= 0 ? count[bad] : 0;
  free(count);
  if (bad < 0) return 0;
  const int a = m->edge_vertices[2 * bad], b = m->edge_vertices[2 * bad + 1];
  const int h = m->edge_macro_ids[m->edge_macro_ptr[bad]];
  FEAST_ERROR(FEAST_ERR_MESH,
              "%s: hexahedron %d: edge %d-%d borders %d boundary faces: hexahedra touch along an edge only "
              "(the boundary is not a surface there)",
              feast_mesh_loc(m, ln ? ln->quad : NULL, h).s, h, a, b, n);
}

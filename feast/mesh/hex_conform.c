/* The conformity check of the boundary of a mesh of hexahedra (part of
 * feast_mesh_finish): no boundary vertex coincides with another vertex or lies inside a
 * boundary edge (a duplicate vertex, a crack, or the hanging vertex of a face split on
 * one side only). The boundary edges are binned in a uniform grid over their bounding
 * box, made coarser until the bins hold about linear work, so the check costs about
 * linear time in the number of boundary edges. */
#include "feast/base/error.h"
#include "feast/mesh/hex_mesh.h"
#include <math.h>
#include <stdlib.h>

typedef struct {
  int G;
  double lo[3], w[3];
  int *ptr, *items; /* CSR bin -> boundary edges (indices into the list) */
} Grid;

static int bin_of(double v, double v0, double w, int G) {
  const double c = floor((v - v0) / w);
  return c < 0 ? 0 : c >= G ? G - 1 : (int)c;
}

static double dist(const double *a, const double *b) {
  return sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
}

static double edge_tol(const FeastMesh *m, int e) {
  const int *v = m->edge_vertices + 2 * e;
  return 1e-9 * dist(m->xy + 3 * v[0], m->xy + 3 * v[1]);
}

/* bins r[2d], r[2d+1] along axis d covered by edge e's bounding box widened by its tolerance */
static void edge_bins(const FeastMesh *m, const Grid *g, int e, int r[6]) {
  const int *v = m->edge_vertices + 2 * e;
  const double *a = m->xy + 3 * v[0], *b = m->xy + 3 * v[1], tol = edge_tol(m, e);
  for (int d = 0; d < 3; d++) {
    r[2 * d] = bin_of(fmin(a[d], b[d]) - tol, g->lo[d], g->w[d], g->G);
    r[2 * d + 1] = bin_of(fmax(a[d], b[d]) + tol, g->lo[d], g->w[d], g->G);
  }
}

static int64_t bins_covered(const FeastMesh *m, const Grid *g, const int *be, int nb) {
  int64_t total = 0;
  for (int k = 0; k < nb; k++) {
    int r[6];
    edge_bins(m, g, be[k], r);
    total += (int64_t)(r[1] - r[0] + 1) * (r[3] - r[2] + 1) * (r[5] - r[4] + 1);
  }
  return total;
}

static int grid_build(const FeastMesh *m, const int *be, int nb, Grid *g) {
  double hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
  for (int d = 0; d < 3; d++) g->lo[d] = HUGE_VAL;
  for (int k = 0; k < 2 * nb; k++)
    for (int d = 0; d < 3; d++) {
      const double x = m->xy[3 * m->edge_vertices[2 * be[k / 2] + k % 2] + d];
      g->lo[d] = fmin(g->lo[d], x), hi[d] = fmax(hi[d], x);
    }
  int64_t total = 0;
  for (g->G = (int)fmin(128, ceil(cbrt((double)nb))); g->G >= 1; g->G /= 2) {
    for (int d = 0; d < 3; d++) g->w[d] = hi[d] > g->lo[d] ? (hi[d] - g->lo[d]) / g->G : 1;
    total = bins_covered(m, g, be, nb);
    if (total <= 16 * (int64_t)nb + 4096 || g->G == 1) break;
  }
  FEAST_CHECK(total < INT32_MAX, FEAST_ERR_LIMIT, "%s: too many boundary edges to check (%d)", m->source, nb);
  const int64_t cells = (int64_t)g->G * g->G * g->G;
  FEAST_CALL(FEAST_ALLOC(cells + 1, &g->ptr));
  FEAST_CALL(FEAST_ALLOC(total + 1, &g->items));
  for (int pass = 0; pass < 2; pass++) {
    for (int k = 0; k < nb; k++) {
      int r[6];
      edge_bins(m, g, be[k], r);
      for (int z = r[4]; z <= r[5]; z++)
        for (int y = r[2]; y <= r[3]; y++)
          for (int x = r[0]; x <= r[1]; x++) {
            const int64_t c = ((int64_t)z * g->G + y) * g->G + x;
            if (pass) g->items[g->ptr[c]++] = k;
            else g->ptr[c + 1]++;
          }
    }
    if (pass) {
      for (int64_t c = cells; c > 0; c--) g->ptr[c] = g->ptr[c - 1];
      g->ptr[0] = 0;
    } else
      for (int64_t c = 0; c < cells; c++) g->ptr[c + 1] += g->ptr[c];
  }
  return 0;
}

/* vertex v against boundary edge e: a duplicate of an end, or inside the edge */
static int check_vertex_edge(const FeastMesh *m, const FeastMeshLines *ln, int v, int e) {
  const int *ev = m->edge_vertices + 2 * e;
  if (v == ev[0] || v == ev[1]) return 0;
  const double *p = m->xy + 3 * v, *a = m->xy + 3 * ev[0], *b = m->xy + 3 * ev[1], tol = edge_tol(m, e);
  const char *at = feast_mesh_loc(m, ln ? ln->vertex : NULL, v).s;
  for (int k = 0; k < 2; k++)
    FEAST_CHECK(dist(p, m->xy + 3 * ev[k]) > tol, FEAST_ERR_MESH,
                "%s: boundary vertex %d coincides with vertex %d: the mesh is not conforming (merge them)", at, v,
                ev[k]);
  double ab[3], ap[3], t = 0.0, l2 = 0.0;
  for (int d = 0; d < 3; d++) ab[d] = b[d] - a[d], ap[d] = p[d] - a[d], t += ab[d] * ap[d], l2 += ab[d] * ab[d];
  t /= l2;
  if (t <= 0.0 || t >= 1.0) return 0;
  double q[3];
  for (int d = 0; d < 3; d++) q[d] = a[d] + t * ab[d];
  FEAST_CHECK(dist(p, q) > tol, FEAST_ERR_MESH,
              "%s: boundary vertex %d lies inside boundary edge %d-%d: a hanging vertex or a crack (the faces on "
              "both sides must share their corners)",
              at, v, ev[0], ev[1]);
  return 0;
}

int feast_hex_check_conforming(const FeastMesh *m, const FeastMeshLines *ln) {
  int *be = NULL, nb = 0, st = FEAST_ALLOC(m->nedges + 1, &be);
  unsigned char *on = NULL; /* boundary vertices */
  if (!st) st = FEAST_ALLOC(m->nvertices, &on);
  for (int f = 0; f < m->nfaces && !st; f++)
    if (m->face_macros[2 * f + 1] < 0)
      for (int k = 0; k < 4; k++) on[m->face_vertices[4 * f + k]] = 1;
  for (int e = 0; e < m->nedges && !st; e++)
    if (on[m->edge_vertices[2 * e]] && on[m->edge_vertices[2 * e + 1]]) be[nb++] = e;
  Grid g = {0};
  if (!st && nb) st = grid_build(m, be, nb, &g);
  for (int v = 0; v < m->nvertices && !st && nb; v++) {
    if (!on[v]) continue;
    const double *p = m->xy + 3 * v;
    const int64_t c =
        ((int64_t)bin_of(p[2], g.lo[2], g.w[2], g.G) * g.G + bin_of(p[1], g.lo[1], g.w[1], g.G)) * g.G +
        bin_of(p[0], g.lo[0], g.w[0], g.G);
    for (int i = g.ptr[c]; i < g.ptr[c + 1] && !st; i++) st = check_vertex_edge(m, ln, v, be[g.items[i]]);
  }
  free(g.ptr), free(g.items), free(be), free(on);
  return st;
}

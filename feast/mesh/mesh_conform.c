/* The conformity check of a coarse mesh's boundary (part of feast_mesh_finish): no
 * boundary vertex coincides with or lies on another boundary edge (duplicate vertex,
 * crack, hanging vertex) and no two boundary edges cross (overlapping quads). The
 * boundary edges are binned in a uniform grid over their bounding box, so the check
 * costs about linear time in the number of boundary edges. */
#include "feast/base/error.h"
#include "feast/mesh/mesh_private.h"
#include <limits.h>
#include <math.h>
#include <stdlib.h>

typedef struct {
  int G;
  double x0, y0, cw, ch;
  int *ptr, *items; /* CSR cell -> boundary edges (indices into the list) */
} Grid;

static int cell_of(double v, double v0, double w, int G) {
  double c = floor((v - v0) / w);
  return c < 0 ? 0 : c >= G ? G - 1 : (int)c;
}

/* cells [i0,i1] x [j0,j1] covered by the bounding box of edge (a,b), widened by tol */
static void edge_cells(const Grid *g, const double *a, const double *b, double tol, int r[4]) {
  r[0] = cell_of(fmin(a[0], b[0]) - tol, g->x0, g->cw, g->G);
  r[1] = cell_of(fmax(a[0], b[0]) + tol, g->x0, g->cw, g->G);
  r[2] = cell_of(fmin(a[1], b[1]) - tol, g->y0, g->ch, g->G);
  r[3] = cell_of(fmax(a[1], b[1]) + tol, g->y0, g->ch, g->G);
}

static double edge_tol(const double *a, const double *b) { return 1e-9 * hypot(b[0] - a[0], b[1] - a[1]); }

static int64_t grid_count(const FeastMesh *m, Grid *g, const int *be, int nb) {
  int64_t total = 0;
  for (int k = 0; k < nb; k++) {
    const int *ev = m->edge_vertices + 2 * be[k];
    const double *a = m->xy + 2 * ev[0], *b = m->xy + 2 * ev[1];
    int r[4];
    edge_cells(g, a, b, edge_tol(a, b), r);
    total += (int64_t)(r[1] - r[0] + 1) * (r[3] - r[2] + 1);
  }
  return total;
}

static int grid_build(const FeastMesh *m, const int *be, int nb, Grid *g) {
  double x1 = -HUGE_VAL, y1 = -HUGE_VAL;
  g->x0 = g->y0 = HUGE_VAL;
  for (int k = 0; k < 2 * nb; k++) {
    const double *p = m->xy + 2 * m->edge_vertices[2 * be[k / 2] + k % 2];
    g->x0 = fmin(g->x0, p[0]);
    g->y0 = fmin(g->y0, p[1]);
    x1 = fmax(x1, p[0]);
    y1 = fmax(y1, p[1]);
  }
  int64_t total = 0;
  for (g->G = (int)fmin(1024, ceil(sqrt((double)nb))); g->G >= 1; g->G /= 2) {
    g->cw = x1 > g->x0 ? (x1 - g->x0) / g->G : 1;
    g->ch = y1 > g->y0 ? (y1 - g->y0) / g->G : 1;
    total = grid_count(m, g, be, nb);
    if (total <= 16 * (int64_t)nb + 4096 || g->G == 1) break;
  }
  FEAST_CHECK(total <= INT_MAX, FEAST_ERR_LIMIT, "%s: boundary too large to check", m->source);
  FEAST_CALL(FEAST_ALLOC((size_t)g->G * g->G + 1, &g->ptr));
  FEAST_CALL(FEAST_ALLOC(total, &g->items));
  for (int pass = 0; pass < 2; pass++) {
    for (int k = 0; k < nb; k++) {
      const int *ev = m->edge_vertices + 2 * be[k];
      const double *a = m->xy + 2 * ev[0], *b = m->xy + 2 * ev[1];
      int r[4];
      edge_cells(g, a, b, edge_tol(a, b), r);
      for (int j = r[2]; j <= r[3]; j++)
        for (int i = r[0]; i <= r[1]; i++) {
          int cell = j * g->G + i;
          if (pass == 0)
            g->ptr[cell + 1]++;
          else
            g->items[g->ptr[cell]++] = k;
        }
    }
    if (pass == 0)
      for (int c = 0; c < g->G * g->G; c++) g->ptr[c + 1] += g->ptr[c];
    else {
      for (int c = g->G * g->G; c > 0; c--) g->ptr[c] = g->ptr[c - 1];
      g->ptr[0] = 0;
    }
  }
  return 0;
}

/* vertex w against boundary edge (a,b): 1 lies on it, 2 coincides with a, 3 with b */
static int touches(const double *w, const double *a, const double *b) {
  double dx = b[0] - a[0], dy = b[1] - a[1], len2 = dx * dx + dy * dy, tol = edge_tol(a, b);
  double t = ((w[0] - a[0]) * dx + (w[1] - a[1]) * dy) / len2;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  double ex = a[0] + t * dx - w[0], ey = a[1] + t * dy - w[1];
  if (ex * ex + ey * ey > tol * tol) return 0;
  if (hypot(w[0] - a[0], w[1] - a[1]) <= tol) return 2;
  if (hypot(w[0] - b[0], w[1] - b[1]) <= tol) return 3;
  return 1;
}

static double orient(const double *a, const double *b, const double *c) {
  return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
}

static int proper_cross(const double *a, const double *b, const double *c, const double *d) {
  double o1 = orient(a, b, c), o2 = orient(a, b, d), o3 = orient(c, d, a), o4 = orient(c, d, b);
  return ((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0));
}

static int check_vertex_cells(const FeastMesh *m, const FeastMeshLines *ln, const Grid *g, const int *be, int w) {
  const double *pw = m->xy + 2 * w;
  int cell = cell_of(pw[1], g->y0, g->ch, g->G) * g->G + cell_of(pw[0], g->x0, g->cw, g->G);
  for (int p = g->ptr[cell]; p < g->ptr[cell + 1]; p++) {
    const int *ev = m->edge_vertices + 2 * be[g->items[p]];
    if (ev[0] == w || ev[1] == w) continue;
    int t = touches(pw, m->xy + 2 * ev[0], m->xy + 2 * ev[1]);
    if (t >= 2)
      FEAST_ERROR(FEAST_ERR_MESH,
                  "%s: vertex %d (%g, %g) coincides with vertex %d on the boundary: the mesh "
                  "is not conforming (duplicate vertex or crack)",
                  feast_mesh_loc(m, ln ? ln->vertex : NULL, w).s, w, pw[0], pw[1], ev[t - 2]);
    FEAST_CHECK(t == 0, FEAST_ERR_MESH,
                "%s: vertex %d (%g, %g) lies on boundary edge %d-%d: the mesh is "
                "not conforming (hanging vertex)",
                feast_mesh_loc(m, ln ? ln->vertex : NULL, w).s, w, pw[0], pw[1], ev[0], ev[1]);
  }
  return 0;
}

static int check_edge_cells(const FeastMesh *m, const FeastMeshLines *ln, const Grid *g, const int *be, int k) {
  const int *ev = m->edge_vertices + 2 * be[k];
  const double *a = m->xy + 2 * ev[0], *b = m->xy + 2 * ev[1];
  int r[4];
  edge_cells(g, a, b, edge_tol(a, b), r);
  for (int j = r[2]; j <= r[3]; j++)
    for (int i = r[0]; i <= r[1]; i++)
      for (int p = g->ptr[j * g->G + i]; p < g->ptr[j * g->G + i + 1]; p++) {
        if (g->items[p] <= k) continue;
        const int *fv = m->edge_vertices + 2 * be[g->items[p]];
        if (fv[0] == ev[0] || fv[0] == ev[1] || fv[1] == ev[0] || fv[1] == ev[1]) continue;
        int c = m->edge_macros[2 * be[k]];
        FEAST_CHECK(!proper_cross(a, b, m->xy + 2 * fv[0], m->xy + 2 * fv[1]), FEAST_ERR_MESH,
                    "%s: boundary edge %d-%d of quad %d crosses boundary edge %d-%d: quads overlap",
                    feast_mesh_loc(m, ln ? ln->quad : NULL, c).s, ev[0], ev[1], c, fv[0], fv[1]);
      }
  return 0;
}

static int check_conforming_grid(const FeastMesh *m, const FeastMeshLines *ln, const int *be, int nb,
                                 const unsigned char *onb, Grid *g) {
  FEAST_CALL(grid_build(m, be, nb, g));
  for (int w = 0; w < m->nvertices; w++)
    if (onb[w]) FEAST_CALL(check_vertex_cells(m, ln, g, be, w));
  for (int k = 0; k < nb; k++) FEAST_CALL(check_edge_cells(m, ln, g, be, k));
  return 0;
}

int feast_mesh_check_conforming(const FeastMesh *m, const FeastMeshLines *ln) {
  int nb = 0, *be = NULL;
  unsigned char *onb = NULL;
  for (int e = 0; e < m->nedges; e++) nb += feast_mesh_edge_is_boundary(m, e);
  if (nb == 0) return 0;
  int status = FEAST_ALLOC(nb, &be);
  if (!status) status = FEAST_ALLOC(m->nvertices, &onb);
  Grid g = {0};
  if (!status) {
    for (int e = 0, k = 0; e < m->nedges; e++)
      if (feast_mesh_edge_is_boundary(m, e)) {
        be[k++] = e;
        onb[m->edge_vertices[2 * e]] = onb[m->edge_vertices[2 * e + 1]] = 1;
      }
    status = check_conforming_grid(m, ln, be, nb, onb, &g);
  }
  free(g.ptr);
  free(g.items);
  free(be);
  free(onb);
  return status;
}

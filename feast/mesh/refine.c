/* Regular refinement of the coarse mesh: node counts, refined coordinates (edge nodes on
 * the boundary curves, interior nodes by transfinite interpolation), global node ids
 * and the smallest Jacobian of the refined cells.
 *
 * Every edge node is computed from the canonical edge direction (smaller vertex id
 * first) by the same expression, whichever macro asks, so the copies of a node on two
 * macros are bitwise identical; the corners are the coarse vertices themselves. */
#include "feast/base/error.h"
#include "feast/mesh/hex_mesh.h"
#include <math.h>
#include <stdlib.h>

/* the four edge curves of one macro, sampled at N nodes in the direction of the
 * local edge (corner k -> corner k+1) */
typedef struct {
  int N;
  double *edge[4]; /* 2*N each */
} Frame;

static int check_level(int level) {
  FEAST_CHECK(level >= 0 && level <= FEAST_MAX_LEVEL, FEAST_ERR_LIMIT,
              "refinement level %d is outside the supported range 0..%d", level, FEAST_MAX_LEVEL);
  return 0;
}

static int check_topology(const FeastMesh *mesh) {
  FEAST_CHECK(mesh != NULL, FEAST_ERR_ARG, "mesh is NULL");
  FEAST_CHECK(mesh->macro_edges && mesh->edge_vertices && mesh->edge_part && mesh->quads && mesh->xy,
              FEAST_ERR_ARG, "mesh %s has no topology (feast_mesh_finish was not called)", mesh->source);
  return 0;
}

static int check_macro(const FeastMesh *mesh, int macro, int level) {
  FEAST_CALL(check_topology(mesh));
  FEAST_CALL(check_level(level));
  FEAST_CHECK(macro >= 0 && macro < mesh->nmacros, FEAST_ERR_ARG, "mesh %s: macro %d out of range 0..%d",
              mesh->source, macro, mesh->nmacros - 1);
  return 0;
}

int feast_mesh_count_nodes(const FeastMesh *mesh, int level, int64_t *nodes) {
  FEAST_CHECK(mesh != NULL && nodes != NULL, FEAST_ERR_ARG, "count nodes: NULL argument");
  FEAST_CALL(check_level(level));
  FEAST_CHECK(mesh->nvertices >= 0 && mesh->nedges >= 0 && mesh->nmacros >= 0, FEAST_ERR_ARG,
              "mesh %s: negative entity counts", mesh->source);
  const int64_t inner = feast_level_n(level) - 2; /* interior nodes per edge */
  int64_t edge_nodes, cell_nodes, sq, total, face_nodes = 0, cube;
  /* V + E (N-2) + M (N-2)^2, in 3D V + E (N-2) + F (N-2)^2 + M (N-2)^3 */
  int ok = feast_mul_i64(mesh->nedges, inner, &edge_nodes) == 0 && feast_mul_i64(inner, inner, &sq) == 0;
  if (ok && mesh->dim == 3)
    ok = feast_mul_i64(mesh->nfaces, sq, &face_nodes) == 0 && feast_mul_i64(sq, inner, &cube) == 0 &&
         feast_mul_i64(mesh->nmacros, cube, &cell_nodes) == 0;
  else if (ok)
    ok = feast_mul_i64(mesh->nmacros, sq, &cell_nodes) == 0;
  ok = ok && feast_add_i64(mesh->nvertices, edge_nodes, &total) == 0 && feast_add_i64(total, face_nodes, &total) == 0 &&
       feast_add_i64(total, cell_nodes, &total) == 0;
  FEAST_CHECK(ok, FEAST_ERR_LIMIT, "refinement level %d: the node count of mesh %s overflows 64 bits", level,
              mesh->source);
  *nodes = total;
  return 0;
}

/* circle arc of edge e from vertex a to b (canonical): angles theta_a + t dtheta on the
 * short arc, radius blended from |a-c| to |b-c| around the part's radius (= the radius
 * when the vertices lie on the circle; the curve always ends in the vertices) */
static int arc_points(const FeastMesh *mesh, const FeastBoundaryPart *part, int a, int b, int N,
                      double *pts) {
  const double cx = part->center[0], cy = part->center[1], R = part->radius;
  const double ax = mesh->xy[2 * a] - cx, ay = mesh->xy[2 * a + 1] - cy;
  const double bx = mesh->xy[2 * b] - cx, by = mesh->xy[2 * b + 1] - cy;
  const double ra = hypot(ax, ay), rb = hypot(bx, by);
  FEAST_CHECK(isfinite(R) && R > 0 && ra > 0 && rb > 0, FEAST_ERR_MESH,
              "mesh %s: edge %d-%d of circle part '%s' (radius %g) has an endpoint at the centre", mesh->source,
              a, b, part->name, R);
  const double ta = atan2(ay, ax);
  double dt = atan2(by, bx) - ta; /* wrap to (-pi, pi]: the short arc */
  if (dt > M_PI) dt -= 2 * M_PI;
  if (dt <= -M_PI) dt += 2 * M_PI;
  FEAST_CHECK(fabs(dt) < M_PI - 1e-9, FEAST_ERR_MESH,
              "mesh %s: edge %d-%d of circle part '%s' spans half the circle or more (short arc ambiguous)",
              mesh->source, a, b, part->name);
  for (int q = 1; q < N - 1; q++) {
    double t = (double)q / (N - 1), th = ta + t * dt;
    double r = R + (1 - t) * (ra - R) + t * (rb - R);
    pts[2 * q] = cx + r * cos(th);
    pts[2 * q + 1] = cy + r * sin(th);
  }
  return 0;
}

/* points q = 0..N-1 of edge e in canonical direction: the vertices at both ends, the
 * straight line (1-t) a + t b or the circle arc in between */
static int edge_points(const FeastMesh *mesh, int e, int N, double *pts) {
  const int a = mesh->edge_vertices[2 * e], b = mesh->edge_vertices[2 * e + 1];
  const int p = mesh->edge_part[e];
  for (int d = 0; d < 2; d++) {
    pts[d] = mesh->xy[2 * a + d];
    pts[2 * (N - 1) + d] = mesh->xy[2 * b + d];
  }
  if (p >= 0 && p < mesh->nparts && mesh->parts[p].type == FEAST_PART_CIRCLE)
    return arc_points(mesh, &mesh->parts[p], a, b, N, pts);
  for (int q = 1; q < N - 1; q++) {
    double t = (double)q / (N - 1);
    for (int d = 0; d < 2; d++) pts[2 * q + d] = (1 - t) * mesh->xy[2 * a + d] + t * mesh->xy[2 * b + d];
  }
  return 0;
}

static void frame_free(Frame *f) {
  free(f->edge[0]);
  f->edge[0] = NULL;
}

/* the four edges of macro m, each reoriented from canonical to local direction */
static int frame_build(const FeastMesh *mesh, int m, int N, Frame *f) {
  double *all, *canon;
  f->N = N;
  FEAST_CALL(FEAST_ALLOC(10 * (size_t)N, &all));
  f->edge[0] = all;
  canon = all + 8 * (size_t)N;
  for (int k = 0; k < 4; k++) {
    f->edge[k] = all + 2 * (size_t)N * k;
    int e = mesh->macro_edges[4 * m + k];
    if (e < 0 || e >= mesh->nedges) {
      frame_free(f);
      FEAST_ERROR(FEAST_ERR_INTERNAL, "mesh %s: macro %d has no valid local edge %d", mesh->source, m, k);
    }
    int st = edge_points(mesh, e, N, canon);
    if (st) {
      frame_free(f);
      return st;
    }
    int aligned = mesh->quads[4 * m + k] == mesh->edge_vertices[2 * e];
    for (int p = 0; p < N; p++) {
      int q = aligned ? p : N - 1 - p;
      f->edge[k][2 * p] = canon[2 * q];
      f->edge[k][2 * p + 1] = canon[2 * q + 1];
    }
  }
  return 0;
}

/* row j of the refined macro (2*N values). Boundary nodes are the edge points; interior
 * nodes the Coons patch, s = i/(N-1), t = j/(N-1):
 *   P = (1-t) B(s) + t T(s) + (1-s) L(t) + s R(t)
 *       - [(1-s)(1-t) P0 + s(1-t) P1 + s t P2 + (1-s) t P3]
 * with B = edge 0, R = edge 1, T = edge 2 reversed, L = edge 3 reversed. */
static void frame_row(const Frame *f, int j, double *row) {
  const int N = f->N;
  const double *B = f->edge[0], *R = f->edge[1], *T = f->edge[2], *L = f->edge[3];
  if (j == 0 || j == N - 1) {
    const double *E = j == 0 ? B : T;
    for (int i = 0; i < N; i++) {
      int p = j == 0 ? i : N - 1 - i;
      row[2 * i] = E[2 * p];
      row[2 * i + 1] = E[2 * p + 1];
    }
    return;
  }
  const double t = (double)j / (N - 1);
  const double *P0 = B, *P1 = R, *P2 = T, *P3 = L;
  const double *Lt = L + 2 * (N - 1 - j), *Rt = R + 2 * j;
  for (int d = 0; d < 2; d++) {
    row[d] = Lt[d];
    row[2 * (N - 1) + d] = Rt[d];
  }
  for (int i = 1; i < N - 1; i++) {
    const double s = (double)i / (N - 1);
    const double *Bs = B + 2 * i, *Ts = T + 2 * (N - 1 - i);
    for (int d = 0; d < 2; d++)
      row[2 * i + d] = (1 - t) * Bs[d] + t * Ts[d] + (1 - s) * Lt[d] + s * Rt[d] -
                       ((1 - s) * (1 - t) * P0[d] + s * (1 - t) * P1[d] + s * t * P2[d] + (1 - s) * t * P3[d]);
  }
}

int feast_mesh_macro_coords(const FeastMesh *mesh, int macro, int level, double *xy) {
  FEAST_CALL(check_macro(mesh, macro, level));
  FEAST_CHECK(xy != NULL, FEAST_ERR_ARG, "macro coordinates: output is NULL");
  const int N = feast_level_n(level);
  if (mesh->dim == 3) return feast_hex_mesh_macro_coords(mesh, macro, N, xy);
  Frame f;
  FEAST_CALL(frame_build(mesh, macro, N, &f));
  for (int j = 0; j < N; j++) frame_row(&f, j, xy + 2 * (size_t)N * j);
  frame_free(&f);
  return 0;
}

int64_t feast_mesh_node_gid(const FeastMesh *mesh, int level, int macro, int i, int j) {
  if (!mesh || mesh->dim == 3 || !mesh->macro_edges || level < 0 || level > FEAST_MAX_LEVEL || macro < 0 ||
      macro >= mesh->nmacros)
    return -1; /* hexahedra: feast_hex_mesh_node_gid */
  const int N = feast_level_n(level);
  if (i < 0 || j < 0 || i >= N || j >= N) return -1;
  const int64_t V = mesh->nvertices, E = mesh->nedges, n = N - 2;
  const int *corner = mesh->quads + 4 * (size_t)macro;
  const int top = N - 1;
  /* corners: the coarse vertex */
  if ((i == 0 || i == top) && (j == 0 || j == top)) return corner[j == 0 ? (i == 0 ? 0 : 1) : (i == 0 ? 3 : 2)];
  /* edges: local edge k, position p along it (corner k -> corner k+1), canonical q */
  int k = -1, p = 0;
  if (j == 0) k = 0, p = i;
  else if (i == top) k = 1, p = j;
  else if (j == top) k = 2, p = top - i;
  else if (i == 0) k = 3, p = top - j;
  if (k >= 0) {
    int e = mesh->macro_edges[4 * macro + k];
    int q = corner[k] == mesh->edge_vertices[2 * e] ? p : top - p;
    return V + e * n + q - 1;
  }
  /* interior: tensor-product numbering after all edge nodes */
  return V + E * n + macro * n * n + (int64_t)(j - 1) * n + (i - 1);
}

int64_t feast_mesh_gid(const FeastMesh *mesh, int level, int macro, long node) {
  const int N = feast_level_n(level);
  if (mesh->dim == 3) return feast_hex_mesh_node_gid(mesh, N, macro, node);
  return feast_mesh_node_gid(mesh, level, macro, (int)(node % N), (int)(node / N));
}

/* smallest det J over the cells between two rows, at the cell corners: at corner k the
 * bilinear map of the cell [0,1]^2 has det J = (P_{k+1} - P_k) x (P_{k-1} - P_k) */
static double rows_min_jacobian(int N, const double *lo, const double *hi) {
  double mj = INFINITY;
  for (int i = 0; i < N - 1; i++) {
    const double *P[4] = {lo + 2 * i, lo + 2 * i + 2, hi + 2 * i + 2, hi + 2 * i};
    for (int k = 0; k < 4; k++) {
      const double *c = P[k], *n = P[(k + 1) % 4], *p = P[(k + 3) % 4];
      double det = (n[0] - c[0]) * (p[1] - c[1]) - (n[1] - c[1]) * (p[0] - c[0]);
      if (!(det >= mj)) mj = det; /* NaN propagates */
    }
  }
  return mj;
}

int feast_mesh_min_jacobian(const FeastMesh *mesh, int level, double *minjac) {
  FEAST_CALL(check_topology(mesh));
  FEAST_CHECK(mesh->dim != 3, FEAST_ERR_ARG, "min Jacobian: mesh %s is of hexahedra (quadrilaterals only)", mesh->source);
  FEAST_CALL(check_level(level));
  FEAST_CHECK(minjac != NULL, FEAST_ERR_ARG, "min Jacobian: output is NULL");
  const int N = feast_level_n(level);
  double *rows, mj = INFINITY; /* two rows at a time: O(N) memory at any level */
  FEAST_CALL(FEAST_ALLOC(4 * (size_t)N, &rows));
  for (int m = 0; m < mesh->nmacros; m++) {
    Frame f;
    int st = frame_build(mesh, m, N, &f);
    if (st) {
      free(rows);
      return st;
    }
    double *lo = rows, *hi = rows + 2 * (size_t)N;
    frame_row(&f, 0, lo);
    for (int j = 0; j + 1 < N; j++) {
      frame_row(&f, j + 1, hi);
      double r = rows_min_jacobian(N, lo, hi);
      if (!(r >= mj)) mj = r;
      double *tmp = lo;
      lo = hi, hi = tmp;
    }
    frame_free(&f);
  }
  free(rows);
  *minjac = mj;
  return 0;
}

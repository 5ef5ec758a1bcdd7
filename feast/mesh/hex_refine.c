/* Regular refinement of a mesh of hexahedra: the refined coordinates of a macro and the
 * global node ids. Every node shared by several macros is computed from the canonical
 * orientation of its vertex, edge or face (hex.h) by the same expression, whichever macro
 * asks, so its copies are bitwise identical:
 *  - corners: the coarse vertices;
 *  - edge nodes: the straight line (1 - t) a + t b from the edge's smaller vertex id, or
 *    on a cylinder part the curve of linearly blended angle, height and radius;
 *  - face nodes: the transfinite (Coons) patch of the face's four edges in its canonical
 *    (s, t), projected onto the cylinder for faces of a cylinder part;
 *  - interior nodes: the transfinite interpolation of the six faces (the trilinear map
 *    for a macro with straight edges and bilinear faces). */
#include "feast/base/error.h"
#include "feast/mesh/hex_mesh.h"
#include <math.h>
#include <stdlib.h>

/* the frame of cylinder part p around point a: height along the axis, radius and the unit
 * radial direction u (*ok = 0 where a lies on the axis) */
static void cylinder_coords(const FeastBoundaryPart *p, const double *a, double *height, double *radius, double u[3],
                            int *ok) {
  double r[3];
  *height = 0.0;
  for (int d = 0; d < 3; d++) r[d] = a[d] - p->center[d], *height += r[d] * p->axis[d];
  for (int d = 0; d < 3; d++) u[d] = r[d] - *height * p->axis[d];
  *radius = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
  *ok = *radius > 0;
  for (int d = 0; d < 3 && *ok; d++) u[d] /= *radius;
}

static void cross(const double *a, const double *b, double *c) {
  c[0] = a[1] * b[2] - a[2] * b[1], c[1] = a[2] * b[0] - a[0] * b[2], c[2] = a[0] * b[1] - a[1] * b[0];
}

/* points q = 1..N-2 of edge a -> b on cylinder part p (3 per point, pts[3 q]) */
static int cylinder_edge(const FeastMesh *m, const FeastBoundaryPart *p, int a, int b, int N, double *pts) {
  double ha, hb, ra, rb, ua[3], ub[3], w[3];
  int oka, okb;
  cylinder_coords(p, m->xy + 3 * a, &ha, &ra, ua, &oka);
  cylinder_coords(p, m->xy + 3 * b, &hb, &rb, ub, &okb);
  FEAST_CHECK(oka && okb, FEAST_ERR_MESH, "mesh %s: edge %d-%d of cylinder part '%s' has an end on the axis",
              m->source, a, b, p->name);
  cross(p->axis, ua, w);
  const double cb = ua[0] * ub[0] + ua[1] * ub[1] + ua[2] * ub[2], sb = w[0] * ub[0] + w[1] * ub[1] + w[2] * ub[2];
  const double dt = atan2(sb, cb);
  FEAST_CHECK(fabs(dt) < M_PI - 1e-9, FEAST_ERR_MESH,
              "mesh %s: edge %d-%d of cylinder part '%s' spans half the cylinder or more (split it)", m->source, a, b,
              p->name);
  for (int q = 1; q < N - 1; q++) {
    const double t = (double)q / (N - 1), th = t * dt, h = (1 - t) * ha + t * hb;
    const double r = p->radius + (1 - t) * (ra - p->radius) + t * (rb - p->radius), c = cos(th), s = sin(th);
    for (int d = 0; d < 3; d++) pts[3 * q + d] = p->center[d] + h * p->axis[d] + r * (c * ua[d] + s * w[d]);
  }
  return 0;
}

/* x moved radially onto the surface of cylinder part p */
static void project_cylinder(const FeastBoundaryPart *p, double *x) {
  double h, r, u[3];
  int ok;
  cylinder_coords(p, x, &h, &r, u, &ok);
  if (!ok) return;
  for (int d = 0; d < 3; d++) x[d] = p->center[d] + h * p->axis[d] + p->radius * u[d];
}

static const FeastBoundaryPart *curved_part(const FeastMesh *m, int part) {
  return part >= 0 && m->parts[part].type == FEAST_PART_CYLINDER ? &m->parts[part] : NULL;
}

/* local edge le of the macro: its nodes from the canonical edge, placed in the grid */
static int place_edge(const FeastMesh *m, int macro, int le, int N, double *xyz, double *canon) {
  const int e = m->macro_edges[12 * macro + le], a = m->edge_vertices[2 * e], b = m->edge_vertices[2 * e + 1];
  const FeastBoundaryPart *p = curved_part(m, m->edge_part[e]);
  if (p) FEAST_CALL(cylinder_edge(m, p, a, b, N, canon));
  else
    for (int q = 1; q < N - 1; q++) {
      const double t = (double)q / (N - 1);
      for (int d = 0; d < 3; d++) canon[3 * q + d] = (1 - t) * m->xy[3 * a + d] + t * m->xy[3 * b + d];
    }
  const int c0 = feast_macro_hex.edge[le][0], c1 = feast_macro_hex.edge[le][1];
  const int aligned = m->quads[8 * macro + c0] == a;
  for (int q = 1; q < N - 1; q++) {
    const long n = feast_hex_lattice_node(N, c0, c1, c0, aligned ? q : N - 1 - q, 0);
    for (int d = 0; d < 3; d++) xyz[3 * n + d] = canon[3 * q + d];
  }
  return 0;
}

/* local face lf: its interior nodes by the Coons patch of its edges in canonical (s, t),
 * u = s / (N-1), v = t / (N-1):
 *   X = (1-v) B(s) + v T(s) + (1-u) L(t) + u R(t) - [(1-u)(1-v) X0 + u(1-v) X1 + uv X2 + (1-u)v X3]
 * B: corners 0 -> 1, T: 3 -> 2, L: 0 -> 3, R: 1 -> 2 of the canonical cycle */
static void place_face(const FeastMesh *m, int macro, int lf, int N, double *xyz) {
  int c[4];
  feast_hex_face_local_corners(m, macro, lf, c);
  const int f = m->macro_faces[6 * macro + lf];
  const FeastBoundaryPart *p = m->face_macros[2 * f + 1] < 0 ? curved_part(m, m->face_part[f]) : NULL;
  const int top = N - 1;
#define X(s, t) (xyz + 3 * feast_hex_lattice_node(N, c[0], c[1], c[3], (s), (t)))
  const double *X0 = X(0, 0), *X1 = X(top, 0), *X2 = X(top, top), *X3 = X(0, top);
  for (int t = 1; t < top; t++)
    for (int s = 1; s < top; s++) {
      const double u = (double)s / top, v = (double)t / top;
      const double *B = X(s, 0), *T = X(s, top), *L = X(0, t), *R = X(top, t);
      double *x = X(s, t);
      for (int d = 0; d < 3; d++)
        x[d] = (1 - v) * B[d] + v * T[d] + (1 - u) * L[d] + u * R[d] -
               ((1 - u) * (1 - v) * X0[d] + u * (1 - v) * X1[d] + u * v * X2[d] + (1 - u) * v * X3[d]);
      if (p) project_cylinder(p, x);
    }
#undef X
}

/* the interior nodes: faces blended linearly, minus the edges bilinearly, plus the
 * corners trilinearly (the transfinite interpolation of the macro's boundary) */
static void place_interior(int N, double *xyz) {
  const int t = N - 1;
#define X(i, j, k) (xyz + 3 * (((long)(k) * N + (j)) * N + (i)))
  for (int k = 1; k < t; k++)
    for (int j = 1; j < t; j++)
      for (int i = 1; i < t; i++) {
        const double u[2] = {1.0 - (double)i / t, (double)i / t}, v[2] = {1.0 - (double)j / t, (double)j / t};
        const double w[2] = {1.0 - (double)k / t, (double)k / t};
        const int I[2] = {0, t}, J[2] = {0, t}, K[2] = {0, t};
        double *x = X(i, j, k);
        for (int d = 0; d < 3; d++) {
          double faces = 0.0, edges = 0.0, corners = 0.0;
          for (int a = 0; a < 2; a++)
            faces += u[a] * X(I[a], j, k)[d] + v[a] * X(i, J[a], k)[d] + w[a] * X(i, j, K[a])[d];
          for (int a = 0; a < 2; a++)
            for (int b = 0; b < 2; b++)
              edges += u[a] * v[b] * X(I[a], J[b], k)[d] + u[a] * w[b] * X(I[a], j, K[b])[d] +
                       v[a] * w[b] * X(i, J[a], K[b])[d];
          for (int a = 0; a < 2; a++)
            for (int b = 0; b < 2; b++)
              for (int c = 0; c < 2; c++) corners += u[a] * v[b] * w[c] * X(I[a], J[b], K[c])[d];
          x[d] = faces - edges + corners;
        }
      }
#undef X
}

int feast_hex_mesh_macro_coords(const FeastMesh *m, int macro, int N, double *xyz) {
  for (int c = 0; c < 8; c++) {
    long p[3];
    feast_hex_corner_lattice(c, N, p);
    for (int d = 0; d < 3; d++) xyz[3 * feast_hex_node(p, N) + d] = m->xy[3 * m->quads[8 * macro + c] + d];
  }
  double *canon;
  FEAST_CALL(FEAST_ALLOC(3 * (size_t)N, &canon));
  int st = 0;
  for (int le = 0; le < 12 && !st; le++) st = place_edge(m, macro, le, N, xyz, canon);
  free(canon);
  FEAST_CALL(st);
  for (int lf = 0; lf < 6; lf++) place_face(m, macro, lf, N, xyz);
  place_interior(N, xyz);
  return 0;
}

/* the position of local node n on the macro's boundary entities: the corner, or the local
 * edge and its parameter, or the local face and its canonical (s, t); -1 for the interior */
int64_t feast_hex_mesh_node_gid(const FeastMesh *m, int N, int macro, long n) {
  const long i = n % N, j = n / N % N, k = n / ((long)N * N), top = N - 1;
  const int64_t V = m->nvertices, E = m->nedges, F = m->nfaces, q = N - 2;
  const int on[3] = {i == 0 || i == top, j == 0 || j == top, k == 0 || k == top};
  const int bounds = on[0] + on[1] + on[2];
  if (bounds == 3)
    for (int c = 0; c < 8; c++) {
      long p[3];
      feast_hex_corner_lattice(c, N, p);
      if (p[0] == i && p[1] == j && p[2] == k) return m->quads[8 * macro + c];
    }
  if (bounds == 2)
    for (int le = 0; le < 12; le++) {
      const int c0 = feast_macro_hex.edge[le][0], c1 = feast_macro_hex.edge[le][1], e = m->macro_edges[12 * macro + le];
      const int aligned = m->quads[8 * macro + c0] == m->edge_vertices[2 * e];
      for (int s = 1; s < top; s++)
        if (feast_hex_lattice_node(N, c0, c1, c0, s, 0) == n) return V + e * q + (aligned ? s : top - s) - 1;
    }
  if (bounds == 1)
    for (int lf = 0; lf < 6; lf++) {
      int c[4];
      feast_hex_face_local_corners(m, macro, lf, c);
      long p0[3], p1[3], p3[3];
      feast_hex_corner_lattice(c[0], N, p0), feast_hex_corner_lattice(c[1], N, p1), feast_hex_corner_lattice(c[3], N, p3);
      const long at[3] = {i, j, k};
      long s = -1, t = -1;
      int inside = 1;
      for (int d = 0; d < 3; d++) {
        if (p1[d] != p0[d]) s = p1[d] > p0[d] ? at[d] : top - at[d];
        else if (p3[d] != p0[d]) t = p3[d] > p0[d] ? at[d] : top - at[d];
        else inside &= at[d] == p0[d];
      }
      if (inside) return V + E * q + (int64_t)m->macro_faces[6 * macro + lf] * q * q + (t - 1) * q + (s - 1);
    }
  return V + E * q + F * q * q + (int64_t)macro * q * q * q + ((k - 1) * q + (j - 1)) * q + (i - 1);
}

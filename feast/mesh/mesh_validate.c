/* Validation of a coarse mesh and the driver feast_mesh_finish_lines: sizes, finite
 * vertex coordinates, quads (vertex ids in range, counter-clockwise, strictly convex),
 * boundary parts (valid unique names, known shapes, every edge a boundary edge of the
 * quads in exactly one part, circle parts' vertices on their circle) and every boundary
 * edge in a part. The topology is built (mesh_topology.c) and checked for conformity
 * (mesh_conform.c) between the quad and the part checks. Messages name file:line of the
 * offending item where the reader recorded it (FeastMeshLines). */
#include "feast/base/error.h"
#include "feast/mesh/mesh_io.h"
#include "feast/mesh/hex_mesh.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CONVEX_EPS 1e-8 /* sine of the smallest turning angle of a strictly convex quad */

static int check_sizes(const FeastMesh *m) {
  FEAST_CHECK(m->nvertices >= 4 && m->nvertices <= FEAST_MESH_MAX_ITEMS, FEAST_ERR_MESH,
              "%s: %d vertices (4 to %d allowed)", m->source, m->nvertices, FEAST_MESH_MAX_ITEMS);
  FEAST_CHECK(m->nmacros >= 1 && m->nmacros <= FEAST_MESH_MAX_ITEMS, FEAST_ERR_MESH, "%s: %d quads (1 to %d allowed)",
              m->source, m->nmacros, FEAST_MESH_MAX_ITEMS);
  FEAST_CHECK(m->nparts >= 0 && m->nparts <= FEAST_MESH_MAX_PARTS, FEAST_ERR_MESH,
              "%s: %d boundary parts (0 to %d allowed)", m->source, m->nparts, FEAST_MESH_MAX_PARTS);
  FEAST_CHECK(m->xy && m->quads && (m->nparts == 0 || m->parts), FEAST_ERR_ARG,
              "mesh_finish: %s: vertex, quad or part array missing", m->source);
  return 0;
}

enum { QUAD_OK, QUAD_CLOCKWISE, QUAD_DEGENERATE, QUAD_NONCONVEX };

/* classify a quad; *corner = the first offending corner (0..3) */
static int quad_shape(const double *xy, const int *q, int *corner) {
  double s[4], scale = 0, area = 0;
  int pos = 0, neg = 0;
  *corner = 0;
  for (int k = 0; k < 4; k++) {
    const double *p0 = xy + 2 * q[(k + 3) % 4], *p1 = xy + 2 * q[k], *p2 = xy + 2 * q[(k + 1) % 4];
    double ax = p1[0] - p0[0], ay = p1[1] - p0[1], bx = p2[0] - p1[0], by = p2[1] - p1[1];
    double la = hypot(ax, ay), lb = hypot(bx, by);
    if (!(la > 0 && lb > 0)) {
      *corner = k;
      return QUAD_DEGENERATE;
    }
    s[k] = (ax * by - ay * bx) / (la * lb);
    pos += s[k] > CONVEX_EPS;
    neg += s[k] < -CONVEX_EPS;
    scale = fmax(scale, lb * lb);
    area += p1[0] * p2[1] - p2[0] * p1[1];
  }
  if (pos == 4) return QUAD_OK;
  if (neg == 4) return QUAD_CLOCKWISE;
  if (fabs(area) <= CONVEX_EPS * scale) return QUAD_DEGENERATE;
  for (int k = 0; k < 4; k++)
    if (area > 0 ? s[k] <= CONVEX_EPS : s[k] >= -CONVEX_EPS) {
      *corner = k;
      break;
    }
  return QUAD_NONCONVEX;
}

static int check_quad(const FeastMesh *m, const FeastMeshLines *ln, int c) {
  const int *q = m->quads + 4 * c;
#define AT feast_mesh_loc(m, ln ? ln->quad : NULL, c).s
  for (int k = 0; k < 4; k++)
    FEAST_CHECK(q[k] >= 0 && q[k] < m->nvertices, FEAST_ERR_MESH, "%s: quad %d: vertex index %d out of range [0, %d]",
                AT, c, q[k], m->nvertices - 1);
  for (int k = 0; k < 4; k++)
    for (int l = k + 1; l < 4; l++)
      FEAST_CHECK(q[k] != q[l], FEAST_ERR_MESH, "%s: quad %d (%d %d %d %d) repeats vertex %d", AT, c, q[0], q[1], q[2],
                  q[3], q[k]);
  int corner, shape = quad_shape(m->xy, q, &corner);
  FEAST_CHECK(shape != QUAD_CLOCKWISE, FEAST_ERR_MESH,
              "%s: quad %d (%d %d %d %d) is clockwise: list the vertices counter-clockwise", AT, c, q[0], q[1], q[2],
              q[3]);
  FEAST_CHECK(shape != QUAD_DEGENERATE, FEAST_ERR_MESH,
              "%s: quad %d (%d %d %d %d) is degenerate (zero area or coincident corners)", AT, c, q[0], q[1], q[2],
              q[3]);
  FEAST_CHECK(shape != QUAD_NONCONVEX, FEAST_ERR_MESH,
              "%s: quad %d (%d %d %d %d) is not strictly convex: its angle at vertex %d is 180 degrees "
              "or more (or the quad intersects itself)",
              AT, c, q[0], q[1], q[2], q[3], q[corner]);
  return 0;
}
#undef AT

/* ---- boundary parts */

static int check_part_shape(const FeastMesh *m, const FeastMeshLines *ln, int p) {
  const FeastBoundaryPart *part = &m->parts[p];
  FeastMeshLoc at = feast_mesh_loc(m, ln ? ln->part : NULL, p);
  FEAST_CHECK(part->type == FEAST_PART_LINE || part->type == FEAST_PART_CIRCLE, FEAST_ERR_MESH,
              "%s: boundary part '%s' has unknown type %d", at.s, part->name, (int)part->type);
  FEAST_CHECK(part->nedges >= 1 && part->nedges <= FEAST_MESH_MAX_ITEMS && part->edges, FEAST_ERR_MESH,
              "%s: boundary part '%s' has %d edges (1 to %d allowed)", at.s, part->name, part->nedges,
              FEAST_MESH_MAX_ITEMS);
  if (part->type == FEAST_PART_CIRCLE)
    FEAST_CHECK(isfinite(part->center[0]) && isfinite(part->center[1]) && isfinite(part->radius) && part->radius > 0 &&
                    fabs(part->center[0]) <= FEAST_MESH_COORD_MAX && fabs(part->center[1]) <= FEAST_MESH_COORD_MAX &&
                    part->radius <= FEAST_MESH_COORD_MAX,
                FEAST_ERR_MESH, "%s: circle part '%s': centre (%g, %g) and radius %g must be finite, radius > 0", at.s,
                part->name, part->center[0], part->center[1], part->radius);
  return 0;
}

/* where part edge k of part p was read (offset = its index over all parts' edges) */
static FeastMeshLoc part_edge_loc(const FeastMesh *m, const FeastMeshLines *ln, int p, int64_t offset) {
  if (ln && ln->part_edge) return feast_mesh_loc(m, ln->part_edge, (long)offset);
  return feast_mesh_loc(m, ln ? ln->part : NULL, p);
}
#define AT part_edge_loc(m, ln, p, offset).s

/* a vertex of a circle part lies on the circle; the edge spans less than half of it */
static int check_circle_edge(const FeastMesh *m, const FeastMeshLines *ln, int p, int64_t offset, int a, int b) {
  const FeastBoundaryPart *part = &m->parts[p];
  const double cx = part->center[0], cy = part->center[1], R = part->radius;
  const int v[2] = {a, b};
  for (int k = 0; k < 2; k++) {
    double d = hypot(m->xy[2 * v[k]] - cx, m->xy[2 * v[k] + 1] - cy);
    FEAST_CHECK(fabs(d - R) <= 1e-6 * R, FEAST_ERR_MESH,
                "%s: vertex %d of circle part '%s' is at distance %.10g from the centre (%g, %g), not on the "
                "radius %.10g",
                AT, v[k], part->name, d, cx, cy, R);
  }
  double t = atan2(m->xy[2 * b + 1] - cy, m->xy[2 * b] - cx) - atan2(m->xy[2 * a + 1] - cy, m->xy[2 * a] - cx);
  if (t > M_PI) t -= 2 * M_PI;
  if (t <= -M_PI) t += 2 * M_PI;
  FEAST_CHECK(fabs(t) < M_PI - 1e-6, FEAST_ERR_MESH,
              "%s: edge %d-%d of circle part '%s' spans half the circle or more (split it)", AT, a, b, part->name);
  return 0;
}

/* edge k of part p: a boundary edge of the quads, in no other part */
static int assign_part_edge(FeastMesh *m, const FeastMeshLines *ln, const FeastMeshEdgeRef *keys, int p, int k,
                            int64_t offset) {
  const FeastBoundaryPart *part = &m->parts[p];
  int a = part->edges[2 * k], b = part->edges[2 * k + 1];
  FEAST_CHECK(a >= 0 && a < m->nvertices && b >= 0 && b < m->nvertices, FEAST_ERR_MESH,
              "%s: boundary part '%s': edge %d-%d: vertex index out of range [0, %d]", AT, part->name, a, b,
              m->nvertices - 1);
  int e = feast_mesh_find_edge(m, keys, a, b);
  FEAST_CHECK(e >= 0, FEAST_ERR_MESH, "%s: boundary part '%s': %d-%d is not an edge of any quad", AT, part->name, a, b);
  FEAST_CHECK(feast_mesh_edge_is_boundary(m, e), FEAST_ERR_MESH,
              "%s: boundary part '%s': edge %d-%d is not a boundary edge (it is shared by quads %d and %d)", AT,
              part->name, a, b, m->edge_macros[2 * e], m->edge_macros[2 * e + 1]);
  int q = m->edge_part[e];
  FEAST_CHECK(q != p, FEAST_ERR_MESH, "%s: boundary part '%s' lists edge %d-%d twice", AT, part->name, a, b);
  FEAST_CHECK(q < 0, FEAST_ERR_MESH,
              "%s: edge %d-%d is in boundary parts '%s' and '%s' (each boundary edge belongs to exactly one)", AT, a, b,
              m->parts[q].name, part->name);
  if (part->type == FEAST_PART_CIRCLE) FEAST_CALL(check_circle_edge(m, ln, p, offset, a, b));
  m->edge_part[e] = p;
  return 0;
}
#undef AT

static int check_parts(FeastMesh *m, const FeastMeshLines *ln, const FeastMeshEdgeRef *keys) {
  FEAST_CALL(feast_mesh_check_part_names(m, ln));
  int64_t offset = 0;
  for (int p = 0; p < m->nparts; p++) {
    FEAST_CALL(check_part_shape(m, ln, p));
    for (int k = 0; k < m->parts[p].nedges; k++, offset++) FEAST_CALL(assign_part_edge(m, ln, keys, p, k, offset));
  }
  for (int e = 0; e < m->nedges; e++) {
    int c = m->edge_macros[2 * e];
    FEAST_CHECK(!feast_mesh_edge_is_boundary(m, e) || m->edge_part[e] >= 0, FEAST_ERR_MESH,
                "%s: boundary edge %d-%d of quad %d belongs to no boundary part",
                feast_mesh_loc(m, ln ? ln->quad : NULL, c).s, m->edge_vertices[2 * e], m->edge_vertices[2 * e + 1], c);
  }
  return 0;
}

int feast_mesh_finish_lines(FeastMesh *m, const FeastMeshLines *ln) {
  FEAST_CHECK(m, FEAST_ERR_ARG, "mesh_finish: NULL mesh");
  feast_mesh_free_topology(m);
  if (m->dim == 3) return feast_hex_mesh_finish(m, ln);
  FEAST_CALL(check_sizes(m));
  FEAST_CALL(feast_mesh_check_vertices(m, ln));
  for (int c = 0; c < m->nmacros; c++) FEAST_CALL(check_quad(m, ln, c));
  FeastMeshEdgeRef *keys;
  FEAST_CALL(feast_mesh_build_edges(m, ln, &keys));
  int status = feast_mesh_build_vertex_macros(m, ln);
  if (!status) status = feast_mesh_check_conforming(m, ln);
  if (!status) status = check_parts(m, ln, keys);
  free(keys);
  if (status) feast_mesh_free_topology(m);
  return status;
}

int feast_mesh_finish(FeastMesh *mesh) { return feast_mesh_finish_lines(mesh, NULL); }


/* Validation of a mesh of hexahedra (feast_mesh_finish of a mesh with dim = 3; the
 * format is in docs/mesh_format.md): sizes, finite coordinates, hexahedra (vertex ids
 * distinct, a positive Jacobian of the trilinear map at every corner: not inverted, not
 * twisted, not degenerate), the topology (hex_topology.c: conforming faces, a watertight
 * boundary), no duplicate or hanging boundary vertices (hex_conform.c), and the boundary
 * parts (valid unique names, flat or cylinder, every face a boundary face in exactly one
 * part, every boundary face in a part, cylinder vertices on the cylinder). Last, each
 * edge learns the part whose shape its refined nodes follow. Messages name file:line of
 * the offending item where the reader recorded it. */
#include "feast/base/error.h"
#include "feast/mesh/hex_mesh.h"
#include <math.h>
#include <stdlib.h>

#define JACOBIAN_EPS 1e-8 /* smallest corner Jacobian relative to the product of its edges */
#define ON_CYLINDER_TOL 1e-6 /* relative distance of a cylinder part's vertex from the surface */

static int check_sizes(const FeastMesh *m) {
  FEAST_CHECK(m->nvertices >= 8 && m->nvertices <= FEAST_MESH_MAX_ITEMS, FEAST_ERR_MESH,
              "%s: %d vertices (8 to %d allowed)", m->source, m->nvertices, FEAST_MESH_MAX_ITEMS);
  FEAST_CHECK(m->nmacros >= 1 && m->nmacros <= FEAST_MESH_MAX_ITEMS, FEAST_ERR_MESH,
              "%s: %d hexahedra (1 to %d allowed)", m->source, m->nmacros, FEAST_MESH_MAX_ITEMS);
  FEAST_CHECK(m->nparts >= 0 && m->nparts <= FEAST_MESH_MAX_PARTS, FEAST_ERR_MESH,
              "%s: %d boundary parts (0 to %d allowed)", m->source, m->nparts, FEAST_MESH_MAX_PARTS);
  FEAST_CHECK(m->xy && m->quads && (m->nparts == 0 || m->parts), FEAST_ERR_ARG,
              "mesh_finish: %s: vertex, hexahedron or part array missing", m->source);
  return 0;
}

/* the Jacobian of the trilinear map at corner c relative to its three edges' lengths:
 * the edges towards the neighbours along each reference axis, taken in the axis'
 * direction */
static double corner_jacobian(const FeastMesh *m, const int *h, int c) {
  const signed char(*at)[3] = feast_macro_hex.at;
  double e[3][3], len = 1.0;
  for (int d = 0; d < 3; d++) {
    int nb = 0;
    while (nb < 8 && !(at[nb][d] != at[c][d] && at[nb][(d + 1) % 3] == at[c][(d + 1) % 3] &&
                       at[nb][(d + 2) % 3] == at[c][(d + 2) % 3]))
      nb++;
    const double *p = m->xy + 3 * h[c], *q = m->xy + 3 * h[nb], sign = at[c][d] ? -1.0 : 1.0;
    for (int k = 0; k < 3; k++) e[d][k] = sign * (q[k] - p[k]);
    len *= sqrt(e[d][0] * e[d][0] + e[d][1] * e[d][1] + e[d][2] * e[d][2]);
  }
  const double det = e[0][0] * (e[1][1] * e[2][2] - e[1][2] * e[2][1]) - e[0][1] * (e[1][0] * e[2][2] - e[1][2] * e[2][0]) +
                     e[0][2] * (e[1][0] * e[2][1] - e[1][1] * e[2][0]);
  return len > 0 ? det / len : 0.0;
}

static int check_hex(const FeastMesh *m, const FeastMeshLines *ln, int c) {
  const int *h = m->quads + 8 * c;
#define AT feast_mesh_loc(m, ln ? ln->quad : NULL, c).s
  for (int k = 0; k < 8; k++)
    for (int l = k + 1; l < 8; l++)
      FEAST_CHECK(h[k] != h[l], FEAST_ERR_MESH, "%s: hexahedron %d repeats vertex %d", AT, c, h[k]);
  int negative = 0, bad = -1;
  for (int k = 0; k < 8; k++) {
    const double j = corner_jacobian(m, h, k);
    negative += j < -JACOBIAN_EPS;
    if (bad < 0 && !(j > JACOBIAN_EPS)) bad = k;
  }
  FEAST_CHECK(negative < 8, FEAST_ERR_MESH,
              "%s: hexahedron %d is inverted (negative volume): list its corners as a VTK hexahedron, the bottom "
              "face counter-clockwise seen from the top, then the top face in the same order",
              AT, c);
  FEAST_CHECK(bad < 0, FEAST_ERR_MESH,
              "%s: hexahedron %d is degenerate or not convex: the Jacobian of its trilinear map is not positive at "
              "vertex %d (corner %d)",
              AT, c, h[bad], bad);
  return 0;
#undef AT
}

/* ---- boundary parts */

static int check_part_shape(FeastMesh *m, const FeastMeshLines *ln, int p) {
  FeastBoundaryPart *part = &m->parts[p];
  FeastMeshLoc at = feast_mesh_loc(m, ln ? ln->part : NULL, p);
  FEAST_CHECK(part->type == FEAST_PART_LINE || part->type == FEAST_PART_CYLINDER, FEAST_ERR_MESH,
              "%s: boundary part '%s' of a 3D mesh has type %d (flat or cylinder expected)", at.s, part->name,
              (int)part->type);
  FEAST_CHECK(part->nfaces >= 1 && part->nfaces <= FEAST_MESH_MAX_ITEMS && part->faces && part->nedges == 0,
              FEAST_ERR_MESH, "%s: boundary part '%s' has %d faces (1 to %d allowed)", at.s, part->name, part->nfaces,
              FEAST_MESH_MAX_ITEMS);
  if (part->type != FEAST_PART_CYLINDER) return 0;
  double *a = part->axis, len = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
  int ok = isfinite(len) && len > 0 && isfinite(part->radius) && part->radius > 0 && part->radius <= FEAST_MESH_COORD_MAX;
  for (int d = 0; d < 3; d++) ok &= isfinite(part->center[d]) && fabs(part->center[d]) <= FEAST_MESH_COORD_MAX;
  FEAST_CHECK(ok, FEAST_ERR_MESH,
              "%s: cylinder part '%s': axis point (%g, %g, %g), direction (%g, %g, %g) and radius %g must be finite, "
              "the direction nonzero, the radius > 0",
              at.s, part->name, part->center[0], part->center[1], part->center[2], a[0], a[1], a[2], part->radius);
  for (int d = 0; d < 3; d++) a[d] /= len;
  return 0;
}

/* rad <- the component of x - center normal to the axis; its length */
static double radial(const FeastBoundaryPart *part, const double *x, double rad[3]) {
  double along = 0.0;
  for (int d = 0; d < 3; d++) rad[d] = x[d] - part->center[d], along += rad[d] * part->axis[d];
  for (int d = 0; d < 3; d++) rad[d] -= along * part->axis[d];
  return sqrt(rad[0] * rad[0] + rad[1] * rad[1] + rad[2] * rad[2]);
}

double feast_hex_axis_distance(const FeastBoundaryPart *part, const double *x) {
  double rad[3];
  return radial(part, x, rad);
}

#define AT feast_mesh_loc(m, ln ? ln->part_edge : NULL, (long)offset).s
static int check_on_cylinder(const FeastMesh *m, const FeastMeshLines *ln, int p, int64_t offset, const int *g) {
  const FeastBoundaryPart *part = &m->parts[p];
  for (int k = 0; k < 4; k++) {
    const double r = feast_hex_axis_distance(part, m->xy + 3 * g[k]);
    FEAST_CHECK(fabs(r - part->radius) <= ON_CYLINDER_TOL * part->radius, FEAST_ERR_MESH,
                "%s: vertex %d of cylinder part '%s' is at distance %.10g from the axis, not on the radius %.10g", AT,
                g[k], part->name, r, part->radius);
  }
  for (int k = 0; k < 4; k++) { /* each edge less than half way round */
    double a[3], b[3], dot = 0.0;
    const double ra = radial(part, m->xy + 3 * g[k], a), rb = radial(part, m->xy + 3 * g[(k + 1) % 4], b);
    for (int d = 0; d < 3; d++) dot += a[d] * b[d];
    FEAST_CHECK(dot > -(1.0 - 1e-12) * ra * rb, FEAST_ERR_MESH,
                "%s: edge %d-%d of cylinder part '%s' spans half the cylinder or more (split it)", AT, g[k],
                g[(k + 1) % 4], part->name);
  }
  return 0;
}

/* face k of part p: a boundary face of the hexahedra, in no other part */
static int assign_part_face(FeastMesh *m, const FeastMeshLines *ln, const FeastHexFaceKeys *keys, int p, int k,
                            int64_t offset) {
  const FeastBoundaryPart *part = &m->parts[p];
  const int *g = part->faces + 4 * k;
  for (int i = 0; i < 4; i++)
    FEAST_CHECK(g[i] >= 0 && g[i] < m->nvertices, FEAST_ERR_MESH,
                "%s: boundary part '%s': face %d %d %d %d: vertex index out of range [0, %d]", AT, part->name, g[0],
                g[1], g[2], g[3], m->nvertices - 1);
  const int f = feast_hex_find_face(keys, g);
  FEAST_CHECK(f >= 0 && feast_hex_same_cycle(g, m->face_vertices + 4 * f), FEAST_ERR_MESH,
              "%s: boundary part '%s': %d %d %d %d is not a face of any hexahedron", AT, part->name, g[0], g[1], g[2],
              g[3]);
  FEAST_CHECK(m->face_macros[2 * f + 1] < 0, FEAST_ERR_MESH,
              "%s: boundary part '%s': face %d %d %d %d is not a boundary face (it is shared by hexahedra %d and %d)",
              AT, part->name, g[0], g[1], g[2], g[3], m->face_macros[2 * f], m->face_macros[2 * f + 1]);
  const int q = m->face_part[f];
  FEAST_CHECK(q != p, FEAST_ERR_MESH, "%s: boundary part '%s' lists face %d %d %d %d twice", AT, part->name, g[0], g[1],
              g[2], g[3]);
  FEAST_CHECK(q < 0, FEAST_ERR_MESH,
              "%s: face %d %d %d %d is in boundary parts '%s' and '%s' (each boundary face belongs to exactly one)", AT,
              g[0], g[1], g[2], g[3], m->parts[q].name, part->name);
  if (part->type == FEAST_PART_CYLINDER) FEAST_CALL(check_on_cylinder(m, ln, p, offset, g));
  m->face_part[f] = p;
  return 0;
}
#undef AT

static int check_parts(FeastMesh *m, const FeastMeshLines *ln, const FeastHexFaceKeys *keys) {
  FEAST_CALL(feast_mesh_check_part_names(m, ln));
  int64_t offset = 0;
  for (int p = 0; p < m->nparts; p++) {
    FEAST_CALL(check_part_shape(m, ln, p));
    for (int k = 0; k < m->parts[p].nfaces; k++, offset++) FEAST_CALL(assign_part_face(m, ln, keys, p, k, offset));
  }
  for (int f = 0; f < m->nfaces; f++) {
    const int c = m->face_macros[2 * f], *g = m->face_vertices + 4 * f;
    FEAST_CHECK(m->face_macros[2 * f + 1] >= 0 || m->face_part[f] >= 0, FEAST_ERR_MESH,
                "%s: boundary face %d %d %d %d of hexahedron %d belongs to no boundary part",
                feast_mesh_loc(m, ln ? ln->quad : NULL, c).s, g[0], g[1], g[2], g[3], c);
  }
  return 0;
}

/* each edge on the boundary follows a curved part among its boundary faces' if there is
 * one (the lowest face id's), else the part of its lowest boundary face */
static void assign_edge_parts(FeastMesh *m) {
  for (int f = 0; f < m->nfaces; f++) {
    const int p = m->face_part[f];
    if (p < 0) continue;
    const int *g = m->face_vertices + 4 * f;
    for (int k = 0; k < 4; k++) {
      const int e = feast_hex_macro_edge(m, m->face_macros[2 * f], g[k], g[(k + 1) % 4]), q = m->edge_part[e];
      if (q < 0 || (m->parts[q].type == FEAST_PART_LINE && m->parts[p].type != FEAST_PART_LINE)) m->edge_part[e] = p;
    }
  }
}

int feast_hex_mesh_finish(FeastMesh *m, const FeastMeshLines *ln) {
  FEAST_CALL(check_sizes(m));
  FEAST_CALL(feast_mesh_check_vertices(m, ln));
  for (int c = 0; c < m->nmacros; c++) FEAST_CALL(check_hex(m, ln, c));
  FeastHexFaceKeys keys = {0, NULL};
  int st = feast_hex_build_faces(m, ln, &keys);
  if (!st) st = feast_hex_build_edges(m);
  if (!st) st = feast_mesh_build_vertex_macros(m, ln);
  if (!st) st = feast_hex_check_watertight(m, ln);
  if (!st) st = feast_hex_check_conforming(m, ln);
  if (!st) st = check_parts(m, ln, &keys);
  if (!st) assign_edge_parts(m);
  free(keys.key);
  if (st) feast_mesh_free_topology(m);
  return st;
}

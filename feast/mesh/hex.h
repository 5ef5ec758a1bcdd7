/* Hexahedral macros (issue #47): the reference cell and the regular refinement of a
 * macro with straight edges. Corners in the order of a VTK hexahedron: the bottom face
 * counter-clockwise seen from above (0..3 at the reference z = 0), then the top face in
 * the same order (4..7 at z = 1); corner c at the reference point feast_macro_hex.at[c]
 * (feast/mesh/mesh.h; the nodes of Q1's cell, feast_q1_hex, in the same order). Refined to level L a macro has N = 2^L + 1 nodes per side, node
 * (i, j, k) at index (k N + j) N + i, i along edge 0 (corner 0 -> 1), j along 0 -> 3,
 * k along 0 -> 4. */
#ifndef FEAST_HEX_H
#define FEAST_HEX_H
#include "feast/mesh/mesh.h"


/* xyz[3 r + d] <- coordinate d of node r of the macro with the given corners refined to N
 * nodes per side: the trilinear interpolation of the corners (straight edges, and faces
 * that are bilinear patches) */
void feast_hex_macro_coords(int N, const double corner[8][3], double *xyz);
/* the faces of a hexahedral macro as bits: i = 0, i = N - 1, j = 0, j = N - 1, k = 0,
 * k = N - 1 (the reference planes x, y, z = 0, 1) */
enum {
  FEAST_HEX_FACE_X0 = 1, FEAST_HEX_FACE_X1 = 2, FEAST_HEX_FACE_Y0 = 4, FEAST_HEX_FACE_Y1 = 8,
  FEAST_HEX_FACE_Z0 = 16, FEAST_HEX_FACE_Z1 = 32, FEAST_HEX_FACES = 63
};
/* mask[r] <- 1 for the nodes of the N^3 grid on one of the faces in the bit set faces,
 * else 0 (the Dirichlet nodes of a macro, e.g. FEAST_HEX_FACES: its whole boundary) */
void feast_hex_face_nodes(int N, unsigned faces, unsigned char *mask);

/* ---- a mesh of hexahedral macros (FeastMesh with dim = 3) ---- */
/* g <- the global vertex ids of local face lf of the macro (feast_macro_hex.face order) */
void feast_hex_face_corners(const FeastMesh *m, int macro, int lf, int g[4]);
/* the canonical orientation of a face whose corners are g (in some cyclic order): it
 * starts at the smallest id, g[*start], and runs in direction *dir (+1 or -1 through g)
 * towards the smaller of that corner's two neighbours. Every macro holding the face
 * finds the same canonical corners, so the face's nodes are numbered and placed alike. */
void feast_hex_face_canonical(const int g[4], int *start, int *dir);
/* c <- the local corners (feast_macro_hex numbering) of local face lf of the macro in the
 * face's canonical cycle: the face's canonical (s, t) runs from c[0] towards c[1] and c[3] */
void feast_hex_face_local_corners(const FeastMesh *m, int macro, int lf, int c[4]);
/* the global id of node n ((k N + j) N + i) of the macro refined to N nodes per side:
 * vertices [0, V), then edge e's interior nodes (1..N-2 from its smaller vertex id) at
 * V + e (N-2) + q - 1, then face f's at V + E (N-2) + f (N-2)^2 in its canonical (s, t),
 * then the macros' interiors; feast_mesh_count_nodes of them in all */
int64_t feast_hex_mesh_node_gid(const FeastMesh *m, int N, int macro, long n);
/* the distance of point x from the axis of cylinder part `part` */
double feast_hex_axis_distance(const FeastBoundaryPart *part, const double *x);
/* the global edge of the macro joining vertices a and b, -1 if none */
int feast_hex_macro_edge(const FeastMesh *m, int macro, int a, int b);
/* the lattice position (i, j, k) of corner c of a macro of N nodes per side */
static inline void feast_hex_corner_lattice(int c, int N, long p[3]) {
  for (int d = 0; d < 3; d++) p[d] = feast_macro_hex.at[c][d] ? N - 1 : 0;
}
/* the node index (k N + j) N + i of lattice point p */
static inline long feast_hex_node(const long p[3], int N) { return (p[2] * N + p[1]) * N + p[0]; }
/* the node of corner c */
static inline long feast_hex_corner_node(int c, int N) {
  long p[3];
  feast_hex_corner_lattice(c, N, p);
  return feast_hex_node(p, N);
}
/* the lattice point s steps from corner c0 towards corner c1 (neighbours along an edge)
 * and t steps from c0 towards c3 (for faces; t = 0 on an edge) */
static inline void feast_hex_lattice_point(int N, int c0, int c1, int c3, int s, int t, long p[3]) {
  long p0[3], p1[3], p3[3];
  feast_hex_corner_lattice(c0, N, p0), feast_hex_corner_lattice(c1, N, p1), feast_hex_corner_lattice(c3, N, p3);
  for (int d = 0; d < 3; d++) p[d] = p0[d] + s * (p1[d] - p0[d]) / (N - 1) + t * (p3[d] - p0[d]) / (N - 1);
}
/* its node index */
static inline long feast_hex_lattice_node(int N, int c0, int c1, int c3, int s, int t) {
  long p[3];
  feast_hex_lattice_point(N, c0, c1, c3, s, t, p);
  return feast_hex_node(p, N);
}
#endif

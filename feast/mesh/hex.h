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
#endif

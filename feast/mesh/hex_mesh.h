/* Private to the mesh floor's 3D part (feast/mesh/hex_mesh.c, hex_topology.c,
 * hex_conform.c, hex_refine.c): the steps of feast_mesh_finish for a mesh of hexahedra
 * and the face lookup they share. The public 3D functions are in feast/mesh/hex.h. */
#ifndef FEAST_HEX_MESH_H
#define FEAST_HEX_MESH_H
#include "feast/mesh/hex.h"
#include "feast/mesh/mesh_private.h"

/* per face its sorted vertex ids and its id (5 ints), sorted: the lookup of a face by
 * its corners (feast_hex_find_face) */
typedef struct {
  int n;
  int *key;
} FeastHexFaceKeys;

/* ---- hex_topology.c */
/* faces numbered by first occurrence (macro order, local face order), each shared by at
 * most two hexahedra seeing it in opposite orientations; keys->key is allocated here
 * (the caller frees it) */
int feast_hex_build_faces(FeastMesh *m, const FeastMeshLines *ln, FeastHexFaceKeys *keys);
/* the face with corners g (any order), -1 if no hexahedron has it */
int feast_hex_find_face(const FeastHexFaceKeys *keys, const int g[4]);
/* 1 if the cycles a and b are the same quadrilateral (any start, either direction) */
int feast_hex_same_cycle(const int a[4], const int b[4]);
/* edges numbered by first occurrence, with the CSR edge -> macros */
int feast_hex_build_edges(FeastMesh *m);
/* no edge borders more than two boundary faces (hexahedra touching along an edge only) */
int feast_hex_check_watertight(const FeastMesh *m, const FeastMeshLines *ln);

/* ---- hex_conform.c */
/* no boundary vertex coincides with another or lies inside a boundary edge (a duplicate
 * vertex, a crack or a hanging vertex) */
int feast_hex_check_conforming(const FeastMesh *m, const FeastMeshLines *ln);

/* ---- hex_refine.c */
/* xyz (3 N^3) <- the coordinates of the macro refined to N nodes per side */
int feast_hex_mesh_macro_coords(const FeastMesh *m, int macro, int N, double *xyz);

/* ---- hex_mesh.c */
/* feast_mesh_finish_lines of a mesh with dim = 3 */
int feast_hex_mesh_finish(FeastMesh *m, const FeastMeshLines *ln);
#endif

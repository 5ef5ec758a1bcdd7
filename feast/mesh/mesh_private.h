/* Private to the coarse mesh's validation and topology (feast/mesh/mesh.c, mesh_validate.c,
 * mesh_topology.c, mesh_conform.c): the "file:line" of an item for messages, the edge
 * lookup keys, and the steps of feast_mesh_finish_lines that live in other files. */
#ifndef FEAST_MESH_PRIVATE_H
#define FEAST_MESH_PRIVATE_H
#include <stdio.h>
#include "feast/mesh/mesh_io.h"
#include <stdint.h>

/* "file:line" of item i when the line is known, else "file" (mesh_validate.c) */
typedef struct {
  char s[600];
} FeastMeshLoc;
/* "file:line" of item i when the line is known, else "file" (for messages) */
static inline FeastMeshLoc feast_mesh_loc(const FeastMesh *m, const int *lines, long i) {
  FeastMeshLoc l;
  if (lines && lines[i] > 0)
    snprintf(l.s, sizeof l.s, "%s:%d", m->source, lines[i]);
  else
    snprintf(l.s, sizeof l.s, "%s", m->source);
  return l;
}

/* an edge occurrence: key = smaller*nv + larger vertex id, idx = edges*macro + local edge
 * (edges per macro: feast_mesh_cell) */
typedef struct {
  int64_t key;
  int idx;
} FeastMeshEdgeRef;

static inline int feast_mesh_edge_is_boundary(const FeastMesh *m, int e) { return m->edge_macros[2 * e + 1] < 0; }

#define FEAST_MESH_COORD_MAX 1e100 /* |x|, |y|, |z| bound: products of coordinates stay finite */

/* ---- mesh_checks.c */
/* finite coordinates of magnitude at most FEAST_MESH_COORD_MAX, dim per vertex */
int feast_mesh_check_vertices(const FeastMesh *m, const FeastMeshLines *ln);
/* valid, unique part names */
int feast_mesh_check_part_names(const FeastMesh *m, const FeastMeshLines *ln);

/* ---- mesh_topology.c */
/* frees the topology arrays, nedges = 0 */
void feast_mesh_free_topology(FeastMesh *m);
/* edges numbered by first occurrence (macro order, local edge order), each shared by at
 * most two quads in opposite directions; *keys = per edge (key, edge id) sorted by key,
 * for feast_mesh_find_edge (the caller frees it) */
int feast_mesh_build_edges(FeastMesh *m, const FeastMeshLines *ln, FeastMeshEdgeRef **keys);
/* CSR vertex -> macros (ascending, as macros are visited in order); unused vertices are errors */
int feast_mesh_build_vertex_macros(FeastMesh *m, const FeastMeshLines *ln);
/* edge id of edge a-b (either direction), -1 if no quad has it */
int feast_mesh_find_edge(const FeastMesh *m, const FeastMeshEdgeRef *keys, int a, int b);

/* ---- mesh_conform.c */
/* no boundary vertex on another boundary edge, no boundary edges crossing */
int feast_mesh_check_conforming(const FeastMesh *m, const FeastMeshLines *ln);
#endif

/* Coarse mesh of macros (quadrilaterals, counter-clockwise, or hexahedra) with named
 * boundary parts and their parametrisation, plus the derived topology. Readers: the
 * native format (docs/mesh_format.md; its 3D variant for hexahedra) and Gmsh ASCII .msh
 * 2.2/4.1 (quadrilaterals). Every mesh is validated: positive areas (strictly convex
 * quads) or corner Jacobians (hexahedra), conforming edges and faces, every boundary edge
 * (face) in a part. */
#ifndef FEAST_MESH_H
#define FEAST_MESH_H
#include "feast/config/config.h"
#include <stdint.h>

/* The shape of a boundary part: refined boundary nodes are put on it. LINE: straight
 * edges (2D) or bilinear faces (3D, the native format's "flat"); CIRCLE (2D): an arc of
 * the circle (center, radius); CYLINDER (3D): the surface of the cylinder of that radius
 * around the axis through center along axis (a unit vector). */
typedef enum { FEAST_PART_LINE = 0, FEAST_PART_CIRCLE = 1, FEAST_PART_CYLINDER = 2 } FeastPartType;

typedef struct {
  char name[64];
  FeastPartType type;
  double center[3], axis[3], radius; /* CIRCLE: center[0..1], radius; CYLINDER: all */
  int nedges;
  int *edges;               /* 2D: 2*nedges vertex ids */
  int nfaces;
  int *faces;               /* 3D: 4*nfaces vertex ids, each face's corners in cyclic order */
} FeastBoundaryPart;

/* The reference cell of a macro as data: the corners, edges and faces each macro has in
 * FeastMesh's per-macro arrays, the corners each local edge joins and each face has. A
 * FeastMesh of dim 2 is of quadrilaterals (feast_macro_quad), of dim 3 of hexahedra
 * (feast_macro_hex, 8 corners, 12 edges, 6 faces): the cell feast_mesh_cell returns. */
enum { FEAST_CELL_MAX_EDGES = 12, FEAST_CELL_MAX_FACES = 6 };
typedef struct {
  int dim;     /* space dimension */
  int corners; /* vertices per macro: FeastMesh.quads holds corners ids per macro */
  int edges;   /* edges per macro: FeastMesh.macro_edges holds edges ids per macro */
  int faces;   /* faces per macro: 0 in 2D (the edges bound the cell), 6 on a hexahedron */
  signed char edge[FEAST_CELL_MAX_EDGES][2]; /* local edge k: corner edge[k][0] -> edge[k][1] */
  signed char at[8][3]; /* corner c at the reference point at[c] (components from dim on 0) */
  /* local face f: its corners counter-clockwise seen from outside the cell; on the
   * hexahedron faces 0..5 are the reference planes x = 0, x = 1, y = 0, y = 1, z = 0,
   * z = 1 (the bits FEAST_HEX_FACE_X0 << f of feast/mesh/hex.h) */
  signed char face[FEAST_CELL_MAX_FACES][4];
} FeastMacroCell;
/* the quadrilateral: corners counter-clockwise, local edge k from corner k to (k+1) % 4 */
extern const FeastMacroCell feast_macro_quad;
/* the hexahedron (feast/mesh/hex.h): corners in the order of a VTK hexahedron */
extern const FeastMacroCell feast_macro_hex;

/* Local numbering of a macro: corners v0..v3 counter-clockwise; local edge k runs from
 * corner k to corner (k+1)%4. Refined to level L it has N = 2^L+1 nodes per side,
 * node (i,j) at index j*N+i, i along edge 0 (v0->v1), j along edge 3 reversed (v0->v3). */
typedef struct {
  int dim;          /* 2: quadrilateral macros (feast_macro_quad), 3: hexahedra (feast_macro_hex) */
  int nvertices;
  double *xy;       /* dim*nvertices coordinates, vertex by vertex */
  int nmacros;
  int *quads;       /* corners*nmacros vertex ids (feast_mesh_cell): counter-clockwise quads
                     * or hexahedra in VTK order */
  int nparts;
  FeastBoundaryPart *parts;
  char source[512]; /* file it was read from */

  /* topology, built and checked by feast_mesh_finish() */
  int nedges;
  int *edge_vertices; /* 2*nedges, canonical direction: smaller vertex id first */
  int *edge_macros;   /* 2D: 2*nedges, [1] = -1 on the boundary (3D: NULL, edge_macro_ptr) */
  int *edge_part;     /* nedges, part index of boundary edges, -1 for interior; 3D: the
                       * part whose shape the edge's nodes follow (a curved part among its
                       * boundary faces' if any, else the first) */
  int *macro_edges;   /* edges*nmacros, global edge of local edge k */
  int *vertex_macro_ptr, *vertex_macros; /* CSR vertex -> macros (ascending ids) */

  /* 3D only (feast/mesh/hex_topology.c): faces numbered by first occurrence, edges -> macros */
  int nfaces;
  int *face_vertices; /* 4*nfaces: canonical cycle, smallest id first, then its smaller neighbour */
  int *face_macros;   /* 2*nfaces, [1] = -1 on the boundary */
  int *face_part;     /* nfaces: part index of boundary faces, -1 for interior */
  int *macro_faces;   /* 6*nmacros, global face of local face f */
  int *edge_macro_ptr, *edge_macro_ids; /* CSR edge -> macros (ascending ids) */
} FeastMesh;

/* the reference cell of the mesh's macros: feast_macro_quad or feast_macro_hex */
static inline const FeastMacroCell *feast_mesh_cell(const FeastMesh *mesh) {
  return mesh && mesh->dim == 3 ? &feast_macro_hex : &feast_macro_quad;
}

/* Read by extension: ".msh" -> Gmsh (curved parts from cfg sections [boundary.NAME]),
 * anything else -> native. cfg may be NULL. Validates and builds the topology. */
int feast_mesh_read(const char *path, const FeastConfig *cfg, FeastMesh **mesh);
int feast_mesh_read_native(const char *path, FeastMesh **mesh);
int feast_mesh_read_gmsh(const char *path, const FeastConfig *cfg, FeastMesh **mesh);
/* validate geometry and build topology of a mesh whose vertices/quads/parts are filled */
int feast_mesh_finish(FeastMesh *mesh);
void feast_mesh_destroy(FeastMesh **mesh);
/* FNV-1a 64 of vertices, macros and boundary parts (names, shapes, edges): equal for the
 * same mesh read again, whatever its file name (checkpoints name the mesh by it) */
uint64_t feast_mesh_fingerprint(const FeastMesh *mesh);
int feast_mesh_part_index(const FeastMesh *mesh, const char *name); /* -1 if absent */
/* "bottom, right, top, left": the part names for messages (cut to fit size) */
const char *feast_mesh_part_names(const FeastMesh *mesh, char *buf, size_t size);
/* 1 if vertex v is an endpoint of a boundary edge of part p */
int feast_mesh_vertex_on_part(const FeastMesh *mesh, int v, int p);

/* ---- refinement (feast/mesh/refine.c) ---- */
#define FEAST_MAX_LEVEL 16
/* nodes per side of a macro at level L: 2^L + 1 */
static inline int feast_level_n(int level) { return (1 << level) + 1; }
/* global node count V + E(N-2) + M(N-2)^2 (3D: V + E(N-2) + F(N-2)^2 + M(N-2)^3),
 * overflow-checked (FEAST_ERR_LIMIT) */
int feast_mesh_count_nodes(const FeastMesh *mesh, int level, int64_t *nodes);
/* coordinates (2*N*N, interleaved x,y) of macro m refined to level L (3D: 3*N^3, x,y,z
 * by node; feast/mesh/hex_refine.c): edge nodes are
 * placed on the edge's curve (line or circle arc, evaluated from the canonical edge
 * direction so shared nodes are bitwise identical), interior nodes by transfinite
 * (Coons) interpolation of the four edge curves */
int feast_mesh_macro_coords(const FeastMesh *mesh, int macro, int level, double *xy);
/* global node id of local node (i,j) of macro m at level L:
 * vertices [0,V), then edge e interior node k (1..N-2 from the canonical start) at
 * V + e(N-2) + k-1, then macro interiors V + E(N-2) + m(N-2)^2 + (j-1)(N-2) + (i-1) */
int64_t feast_mesh_node_gid(const FeastMesh *mesh, int level, int macro, int i, int j);
/* the same for node index `node` of the macro's grid (j N + i; on hexahedra (k N + j) N + i,
 * feast_hex_mesh_node_gid): the global id on either kind of mesh */
int64_t feast_mesh_gid(const FeastMesh *mesh, int level, int macro, long node);
/* smallest Jacobian determinant of the bilinear map over all cells (at cell corners) */
int feast_mesh_min_jacobian(const FeastMesh *mesh, int level, double *minjac);
#endif

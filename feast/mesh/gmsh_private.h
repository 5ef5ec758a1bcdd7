/* Private to the Gmsh reader (feast/mesh/gmsh_parse.c reads the file, feast/mesh/gmsh.c
 * builds the mesh): the record of what a .msh file holds, as read, with the line of each
 * item for messages. */
#ifndef FEAST_GMSH_PRIVATE_H
#define FEAST_GMSH_PRIVATE_H
#include "feast/mesh/mesh_io.h"

/* a node of $Nodes */
typedef struct {
  long long tag;
  double x, y;
  int line;
} GmshNode;

/* a 4-node quadrangle (element type 3): a macro */
typedef struct {
  long long tag, node[4];
  int line;
} GmshQuad;

/* a 2-node line element (type 1): a boundary part edge if in a physical group */
typedef struct {
  long long tag, node[2];
  long long group; /* physical tag (2.2) or curve entity tag (4.1), resolved to a physical tag */
  int line;
} GmshLine;

/* an entry of $PhysicalNames; valid: the name can name a boundary part */
typedef struct {
  int dim, line, valid;
  long long tag;
  char name[64];
} GmshName;

/* a curve entity of $Entities (4.1): its first physical tag and how many it has */
typedef struct {
  long long tag, phys;
  int nphys, line;
} GmshCurve;

/* what the file holds, as read (r: the open file) */
typedef struct {
  FeastMeshReader *r;
  int version; /* 2 or 4 */
  GmshNode *nodes;
  long long nnodes;
  GmshQuad *quads;
  long long nquads, capquads;
  GmshLine *lines;
  long long nlines, caplines;
  GmshName *names;
  long long nnames;
  GmshCurve *curves;
  long long ncurves;
  int seen_names, seen_entities, seen_nodes, seen_elements;
} Gmsh;

/* $MeshFormat first, then the sections up to the end of the file into g (g->r open);
 * at least $Nodes, $Elements and one quadrangle (gmsh_parse.c) */
int feast_gmsh_read_sections(Gmsh *g);
#endif

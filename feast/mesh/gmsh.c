/* Gmsh ASCII .msh reader, formats 2.2 and 4.1.
 *
 * - Macros are the 4-node quadrangles (element type 3) of any entity. Gmsh writes quads
 *   in either orientation (it follows the surface normal), so a clockwise quad is
 *   reoriented to counter-clockwise (v0 v3 v2 v1) here; all other checks (convexity,
 *   conformity, ...) are the shared ones of feast_mesh_finish.
 * - Boundary parts are the physical groups of dimension 1 that hold 2-node line elements
 *   (type 1), ordered by physical tag, named by $PhysicalNames (a group without a name
 *   is named by its tag, e.g. "3"). In 4.1 a line element belongs to the physical
 *   group(s) of its curve entity ($Entities). Line elements in no physical group are
 *   ignored; a curve in several physical groups is an error.
 * - Nodes that no quad uses (geometry points such as a circle centre) are dropped; the
 *   others keep their order in the file. Only planar meshes (z = 0) are accepted.
 * - Point elements (type 15) are ignored; any other element type is an error.
 * - Unknown sections ($Comments, $NodeData, ...) are skipped.
 * - A part is straight unless the config has a section [boundary.NAME] with
 *   type = circle, center = "x y", radius = r (cfg may be NULL: all parts straight). */
#include "feast/config/config.h"
#include "feast/base/error.h"
#include "feast/mesh/mesh.h"
#include "feast/mesh/mesh_io.h"
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TAG_MAX (1LL << 62)
#define MAX_ELEMENTS (5LL * FEAST_MESH_MAX_ITEMS)

typedef struct {
  long long tag;
  double x, y;
  int line;
} Node;

typedef struct {
  long long tag, node[4];
  int line;
} QuadEl;

typedef struct {
  long long tag, node[2];
  long long group; /* physical tag (2.2) or curve entity tag (4.1), resolved to a physical tag */
  int line;
} LineEl;

typedef struct {
  int dim, line, valid;
  long long tag;
  char name[64];
} PhysName;

typedef struct {
  long long tag, phys;
  int nphys, line;
} Curve;

typedef struct {
  FeastMeshReader *r;
  int version; /* 2 or 4 */
  Node *nodes;
  long long nnodes;
  QuadEl *quads;
  long long nquads, capquads;
  LineEl *lines;
  long long nlines, caplines;
  PhysName *names;
  long long nnames;
  Curve *curves;
  long long ncurves;
  int seen_names, seen_entities, seen_nodes, seen_elements;
} Gmsh;

static void gmsh_free(Gmsh *g) {
  free(g->nodes);
  free(g->quads);
  free(g->lines);
  free(g->names);
  free(g->curves);
}

/* grow *array (of `size` bytes per item) to hold need items */
static int grow(void *array, long long *cap, long long need, size_t size) {
  if (need <= *cap) return 0;
  long long n = *cap ? 2 * *cap : 256;
  while (n < need) n *= 2;
  void **p = (void **)array;
  void *q = realloc(*p, (size_t)n * size);
  FEAST_CHECK(q, FEAST_ERR_MEM, "out of memory reading a Gmsh file (%lld items)", n);
  *p = q;
  *cap = n;
  return 0;
}

/* the current line must be exactly `end` */
static int expect_end(FeastMeshReader *r, const char *end) {
  char what[64];
  snprintf(what, sizeof what, "'%s'", end);
  FEAST_CALL(feast_mesh_reader_expect(r, what));
  FEAST_CHECK(strcmp(r->tok[0], end) == 0 && r->ntok == 1, FEAST_ERR_MESH, "%s:%d: expected '%s', found '%.40s'",
              r->path, r->line, end, r->tok[0]);
  return 0;
}

/* one count alone on a line: "number of NOUN", each item at least min_bytes long */
static int read_single_count(FeastMeshReader *r, long long max, int min_bytes, const char *noun, long long *n) {
  char what[64];
  snprintf(what, sizeof what, "number of %s", noun);
  FEAST_CALL(feast_mesh_reader_expect(r, what));
  FEAST_CALL(feast_mesh_reader_ntok(r, 1, what));
  FEAST_CALL(feast_mesh_tok_int(r, 0, 0, max, what, n));
  return feast_mesh_reader_fits(r, *n, min_bytes, noun);
}

static int read_format(Gmsh *g) {
  FeastMeshReader *r = g->r;
  FEAST_CALL(feast_mesh_reader_expect(r, "'$MeshFormat'"));
  FEAST_CHECK(strcmp(r->tok[0], "$MeshFormat") == 0, FEAST_ERR_MESH,
              "%s:%d: not a Gmsh mesh file: expected '$MeshFormat', found '%.40s'", r->path, r->line, r->tok[0]);
  FEAST_CALL(feast_mesh_reader_expect(r, "'VERSION FILE-TYPE DATA-SIZE'"));
  FEAST_CALL(feast_mesh_reader_ntok(r, 3, "VERSION FILE-TYPE DATA-SIZE"));
  const char *v = r->tok[0];
  if (strcmp(v, "4.1") == 0)
    g->version = 4;
  else if (strcmp(v, "2.2") == 0 || strcmp(v, "2.1") == 0 || strcmp(v, "2.0") == 0 || strcmp(v, "2") == 0)
    g->version = 2;
  else
    FEAST_ERROR(FEAST_ERR_MESH, "%s:%d: Gmsh format version '%.40s' is not supported: save as 2.2 or 4.1 ASCII",
                r->path, r->line, v);
  long long type, size;
  FEAST_CALL(feast_mesh_tok_int(r, 1, 0, 1, "file type", &type));
  FEAST_CHECK(type == 0, FEAST_ERR_MESH,
              "%s:%d: binary .msh files are not supported: save as ASCII (Gmsh: Mesh.Binary = 0)", r->path, r->line);
  FEAST_CALL(feast_mesh_tok_int(r, 2, 1, 16, "data size", &size));
  return expect_end(r, "$EndMeshFormat");
}

static int skip_section(FeastMeshReader *r) {
  char end[80];
  FEAST_CHECK(strlen(r->tok[0]) < 60, FEAST_ERR_MESH, "%s:%d: section name '%.40s...' too long", r->path, r->line,
              r->tok[0]);
  snprintf(end, sizeof end, "$End%s", r->tok[0] + 1);
  int start = r->line, eof;
  for (;;) {
    FEAST_CALL(feast_mesh_reader_next(r, &eof));
    FEAST_CHECK(!eof, FEAST_ERR_MESH, "%s:%d: section started on line %d is not closed by '%s'", r->path, r->line,
                start, end);
    if (strcmp(r->tok[0], end) == 0) return 0;
  }
}

/* ---------------------------------------------------------------- $PhysicalNames */

static int parse_name(Gmsh *g, PhysName *pn) {
  FeastMeshReader *r = g->r;
  long long dim, tag;
  FEAST_CHECK(r->ntok >= 3, FEAST_ERR_MESH, "%s:%d: expected 'DIM TAG \"NAME\"'", r->path, r->line);
  FEAST_CALL(feast_mesh_tok_int(r, 0, 0, 3, "physical dimension", &dim));
  FEAST_CALL(feast_mesh_tok_int(r, 1, 1, INT_MAX, "physical tag", &tag));
  const char *open = strchr(r->raw, '"'), *close = strrchr(r->raw, '"');
  FEAST_CHECK(open && close > open, FEAST_ERR_MESH, "%s:%d: physical name must be quoted: DIM TAG \"NAME\"", r->path,
              r->line);
  for (const char *c = close + 1; *c; c++)
    FEAST_CHECK(*c == ' ' || *c == '\t' || *c == '\r', FEAST_ERR_MESH, "%s:%d: unexpected text after the physical name",
                r->path, r->line);
  size_t len = (size_t)(close - open - 1);
  pn->dim = (int)dim;
  pn->tag = tag;
  pn->line = r->line;
  snprintf(pn->name, sizeof pn->name, "%.*s", (int)(len < 63 ? len : 63), open + 1);
  pn->valid = len <= 63 && feast_mesh_name_ok(pn->name);
  for (long long k = 0; k < g->nnames; k++)
    FEAST_CHECK(g->names[k].dim != pn->dim || g->names[k].tag != tag, FEAST_ERR_MESH,
                "%s:%d: physical group (%lld, %lld) is named twice (also on line %d)", r->path, r->line, dim, tag,
                g->names[k].line);
  return 0;
}

static int read_names(Gmsh *g) {
  FeastMeshReader *r = g->r;
  long long n;
  FEAST_CHECK(!g->seen_names, FEAST_ERR_MESH, "%s:%d: second $PhysicalNames section", r->path, r->line);
  g->seen_names = 1;
  FEAST_CALL(read_single_count(r, FEAST_MESH_MAX_PARTS, 8, "physical names", &n));
  FEAST_CALL(FEAST_ALLOC(n, &g->names));
  for (g->nnames = 0; g->nnames < n; g->nnames++) {
    FEAST_CALL(feast_mesh_reader_expect(r, "a physical name 'DIM TAG \"NAME\"'"));
    FEAST_CALL(parse_name(g, &g->names[g->nnames]));
  }
  return expect_end(r, "$EndPhysicalNames");
}

/* ---------------------------------------------------------------- $Entities (4.1) */

static int read_curve(Gmsh *g, Curve *c) {
  FeastMeshReader *r = g->r;
  long long nphys = 0;
  FEAST_CALL(feast_mesh_tok_int(r, 0, 1, INT_MAX, "curve tag", &c->tag));
  for (int k = 1; k <= 6; k++) {
    double bound;
    FEAST_CALL(feast_mesh_tok_real(r, k, "curve bounding box", &bound));
  }
  FEAST_CALL(feast_mesh_tok_int(r, 7, 0, FEAST_MESH_MAX_PARTS, "number of physical tags", &nphys));
  c->nphys = (int)nphys;
  c->phys = 0;
  c->line = r->line;
  if (nphys > 0) FEAST_CALL(feast_mesh_tok_int(r, 8, 1, INT_MAX, "physical tag", &c->phys));
  return 0;
}

static int read_entities(Gmsh *g) {
  FeastMeshReader *r = g->r;
  long long n[4];
  FEAST_CHECK(!g->seen_entities, FEAST_ERR_MESH, "%s:%d: second $Entities section", r->path, r->line);
  g->seen_entities = 1;
  FEAST_CALL(feast_mesh_reader_expect(r, "'POINTS CURVES SURFACES VOLUMES'"));
  FEAST_CALL(feast_mesh_reader_ntok(r, 4, "numbers of points, curves, surfaces, volumes"));
  for (int d = 0; d < 4; d++) {
    FEAST_CALL(feast_mesh_tok_int(r, d, 0, FEAST_MESH_MAX_ITEMS, "number of entities", &n[d]));
    FEAST_CALL(feast_mesh_reader_fits(r, n[d], 8, "entities"));
  }
  FEAST_CALL(FEAST_ALLOC(n[1], &g->curves));
  for (int d = 0; d < 4; d++)
    for (long long k = 0; k < n[d]; k++) {
      FEAST_CALL(feast_mesh_reader_expect(r, "an entity"));
      if (d == 1) FEAST_CALL(read_curve(g, &g->curves[g->ncurves++]));
    }
  return expect_end(r, "$EndEntities");
}

/* ---------------------------------------------------------------- $Nodes */

static int node_coords(FeastMeshReader *r, int first, Node *node) {
  double z;
  FEAST_CALL(feast_mesh_tok_real(r, first, "node x", &node->x));
  FEAST_CALL(feast_mesh_tok_real(r, first + 1, "node y", &node->y));
  FEAST_CALL(feast_mesh_tok_real(r, first + 2, "node z", &z));
  FEAST_CHECK(fabs(z) <= 1e-9 * fmax(1, fmax(fabs(node->x), fabs(node->y))), FEAST_ERR_MESH,
              "%s:%d: node has z = %.40s: only planar meshes in z = 0 are supported", r->path, r->line,
              r->tok[first + 2]);
  node->line = r->line;
  return 0;
}

static int read_nodes_v2(Gmsh *g) {
  FeastMeshReader *r = g->r;
  long long n;
  FEAST_CALL(read_single_count(r, FEAST_MESH_MAX_ITEMS, 8, "nodes", &n));
  FEAST_CALL(FEAST_ALLOC(n, &g->nodes));
  for (g->nnodes = 0; g->nnodes < n; g->nnodes++) {
    Node *node = &g->nodes[g->nnodes];
    FEAST_CALL(feast_mesh_reader_expect(r, "a node 'TAG X Y Z'"));
    FEAST_CALL(feast_mesh_reader_ntok(r, 4, "node TAG X Y Z"));
    FEAST_CALL(feast_mesh_tok_int(r, 0, 1, TAG_MAX, "node tag", &node->tag));
    FEAST_CALL(node_coords(r, 1, node));
  }
  return 0;
}

static int read_node_block(Gmsh *g, long long total) {
  FeastMeshReader *r = g->r;
  long long dim, entity, parametric, n;
  FEAST_CALL(feast_mesh_reader_expect(r, "a node block 'DIM TAG PARAMETRIC COUNT'"));
  FEAST_CALL(feast_mesh_reader_ntok(r, 4, "node block DIM TAG PARAMETRIC COUNT"));
  FEAST_CALL(feast_mesh_tok_int(r, 0, 0, 3, "entity dimension", &dim));
  FEAST_CALL(feast_mesh_tok_int(r, 1, -INT_MAX, INT_MAX, "entity tag", &entity));
  FEAST_CALL(feast_mesh_tok_int(r, 2, 0, 1, "parametric flag", &parametric));
  FEAST_CALL(feast_mesh_tok_int(r, 3, 0, total - g->nnodes, "number of nodes in the block", &n));
  /* indexed from g->nodes: with no nodes at all it is NULL, and NULL + 0 is undefined */
  const long long first = g->nnodes;
  for (long long k = 0; k < n; k++) {
    FEAST_CALL(feast_mesh_reader_expect(r, "a node tag"));
    FEAST_CALL(feast_mesh_reader_ntok(r, 1, "node TAG"));
    FEAST_CALL(feast_mesh_tok_int(r, 0, 1, TAG_MAX, "node tag", &g->nodes[first + k].tag));
  }
  int ncoord = 3 + (parametric ? (int)dim : 0);
  for (long long k = 0; k < n; k++) {
    FEAST_CALL(feast_mesh_reader_expect(r, "node coordinates 'X Y Z'"));
    FEAST_CALL(feast_mesh_reader_ntok(r, ncoord, parametric ? "node X Y Z and parameters" : "node X Y Z"));
    FEAST_CALL(node_coords(r, 0, &g->nodes[first + k]));
  }
  g->nnodes += n;
  return 0;
}

static int read_nodes_v4(Gmsh *g) {
  FeastMeshReader *r = g->r;
  long long nblocks, n, tag;
  FEAST_CALL(feast_mesh_reader_expect(r, "'BLOCKS NODES MIN-TAG MAX-TAG'"));
  FEAST_CALL(feast_mesh_reader_ntok(r, 4, "numbers of node blocks and nodes, min and max node tags"));
  FEAST_CALL(feast_mesh_tok_int(r, 0, 0, FEAST_MESH_MAX_ITEMS, "number of node blocks", &nblocks));
  FEAST_CALL(feast_mesh_tok_int(r, 1, 0, FEAST_MESH_MAX_ITEMS, "number of nodes", &n));
  FEAST_CALL(feast_mesh_tok_int(r, 2, 0, TAG_MAX, "minimum node tag", &tag));
  FEAST_CALL(feast_mesh_tok_int(r, 3, 0, TAG_MAX, "maximum node tag", &tag));
  FEAST_CALL(feast_mesh_reader_fits(r, nblocks, 8, "node blocks"));
  FEAST_CALL(feast_mesh_reader_fits(r, n, 8, "nodes"));
  FEAST_CALL(FEAST_ALLOC(n, &g->nodes));
  for (long long b = 0; b < nblocks; b++) FEAST_CALL(read_node_block(g, n));
  FEAST_CHECK(g->nnodes == n, FEAST_ERR_MESH, "%s:%d: $Nodes declares %lld nodes, its blocks hold %lld", r->path,
              r->line, n, g->nnodes);
  return 0;
}

static int read_nodes(Gmsh *g) {
  FEAST_CHECK(!g->seen_nodes, FEAST_ERR_MESH, "%s:%d: second $Nodes section", g->r->path, g->r->line);
  g->seen_nodes = 1;
  FEAST_CALL(g->version == 2 ? read_nodes_v2(g) : read_nodes_v4(g));
  return expect_end(g->r, "$EndNodes");
}

/* ---------------------------------------------------------------- $Elements */

/* nodes (*nn) and dimension (*dim) of a supported element type, or an error naming it */
static int element_nodes(const FeastMeshReader *r, long long type, int *nn, int *dim) {
  switch (type) {
  case 1: *nn = 2, *dim = 1; return 0;
  case 3: *nn = 4, *dim = 2; return 0;
  case 15: *nn = 1, *dim = 0; return 0;
  default: break;
  }
  static const char *names[] = {"",      "line",    "triangle",    "quadrangle",      "tetrahedron",      "hexahedron",
                                "prism", "pyramid", "3-node line", "6-node triangle", "9-node quadrangle"};
  const char *name = type >= 0 && type <= 10 ? names[type] : type == 16 ? "8-node quadrangle" : "other";
  FEAST_ERROR(FEAST_ERR_MESH,
              "%s:%d: element type %lld (%s) is not supported: feastc reads first-order quadrangles (3), "
              "lines (1) and points (15); recombine the mesh into quadrangles",
              r->path, r->line, type, name);
}

static int add_element(Gmsh *g, long long tag, long long type, long long group, int first) {
  FeastMeshReader *r = g->r;
  if (type == 3) {
    FEAST_CHECK(g->nquads < FEAST_MESH_MAX_ITEMS, FEAST_ERR_MESH, "%s:%d: more than %d quadrangles", r->path, r->line,
                FEAST_MESH_MAX_ITEMS);
    FEAST_CALL(grow(&g->quads, &g->capquads, g->nquads + 1, sizeof *g->quads));
    QuadEl *q = &g->quads[g->nquads++];
    q->tag = tag;
    q->line = r->line;
    for (int k = 0; k < 4; k++) FEAST_CALL(feast_mesh_tok_int(r, first + k, 1, TAG_MAX, "node tag", &q->node[k]));
  } else if (type == 1) {
    FEAST_CHECK(g->nlines < FEAST_MESH_MAX_ITEMS, FEAST_ERR_MESH, "%s:%d: more than %d line elements", r->path, r->line,
                FEAST_MESH_MAX_ITEMS);
    FEAST_CALL(grow(&g->lines, &g->caplines, g->nlines + 1, sizeof *g->lines));
    LineEl *l = &g->lines[g->nlines++];
    l->tag = tag;
    l->group = group;
    l->line = r->line;
    for (int k = 0; k < 2; k++) FEAST_CALL(feast_mesh_tok_int(r, first + k, 1, TAG_MAX, "node tag", &l->node[k]));
  } else {
    long long node;
    FEAST_CALL(feast_mesh_tok_int(r, first, 1, TAG_MAX, "node tag", &node));
  }
  return 0;
}

/* 2.2: TAG TYPE NTAGS PHYSICAL ELEMENTARY ... NODES... */
static int read_element_v2(Gmsh *g) {
  FeastMeshReader *r = g->r;
  long long tag, type, ntags, phys = 0, other;
  int dim = 0;
  FEAST_CALL(feast_mesh_reader_expect(r, "an element 'TAG TYPE NTAGS TAGS... NODES...'"));
  FEAST_CALL(feast_mesh_tok_int(r, 0, 1, TAG_MAX, "element tag", &tag));
  FEAST_CALL(feast_mesh_tok_int(r, 1, 0, INT_MAX, "element type", &type));
  FEAST_CALL(feast_mesh_tok_int(r, 2, 0, 32, "number of element tags", &ntags));
  int nn = 0;
  FEAST_CALL(element_nodes(r, type, &nn, &dim));
  FEAST_CALL(feast_mesh_reader_ntok(r, 3 + (int)ntags + nn, "element TAG TYPE NTAGS TAGS... NODES..."));
  for (int k = 0; k < ntags; k++)
    FEAST_CALL(feast_mesh_tok_int(r, 3 + k, -TAG_MAX, TAG_MAX, "element tag", k == 0 ? &phys : &other));
  FEAST_CHECK(phys >= 0 && phys <= INT_MAX, FEAST_ERR_MESH, "%s:%d: physical tag %lld out of range", r->path, r->line,
              phys);
  return add_element(g, tag, type, phys, 3 + (int)ntags);
}

static int read_elements_v2(Gmsh *g) {
  long long n;
  FEAST_CALL(read_single_count(g->r, MAX_ELEMENTS, 8, "elements", &n));
  for (long long k = 0; k < n; k++) FEAST_CALL(read_element_v2(g));
  return 0;
}

/* 4.1: a block header DIM ENTITY TYPE COUNT, then COUNT lines TAG NODES... */
static int read_element_block(Gmsh *g, long long *left) {
  FeastMeshReader *r = g->r;
  long long dim, entity, type, n, tag;
  int tdim = 0;
  FEAST_CALL(feast_mesh_reader_expect(r, "an element block 'DIM TAG TYPE COUNT'"));
  FEAST_CALL(feast_mesh_reader_ntok(r, 4, "element block DIM TAG TYPE COUNT"));
  FEAST_CALL(feast_mesh_tok_int(r, 0, 0, 3, "entity dimension", &dim));
  FEAST_CALL(feast_mesh_tok_int(r, 1, -INT_MAX, INT_MAX, "entity tag", &entity));
  FEAST_CALL(feast_mesh_tok_int(r, 2, 0, INT_MAX, "element type", &type));
  FEAST_CALL(feast_mesh_tok_int(r, 3, 0, *left, "number of elements in the block", &n));
  int nn = 0;
  FEAST_CALL(element_nodes(r, type, &nn, &tdim));
  FEAST_CHECK(tdim == dim, FEAST_ERR_MESH, "%s:%d: element type %lld has dimension %d, its block says %lld", r->path,
              r->line, type, tdim, dim);
  for (long long k = 0; k < n; k++) {
    FEAST_CALL(feast_mesh_reader_expect(r, "an element 'TAG NODES...'"));
    FEAST_CALL(feast_mesh_reader_ntok(r, 1 + nn, "element TAG NODES..."));
    FEAST_CALL(feast_mesh_tok_int(r, 0, 1, TAG_MAX, "element tag", &tag));
    FEAST_CALL(add_element(g, tag, type, entity, 1));
  }
  *left -= n;
  return 0;
}

static int read_elements_v4(Gmsh *g) {
  FeastMeshReader *r = g->r;
  long long nblocks, n, tag;
  FEAST_CALL(feast_mesh_reader_expect(r, "'BLOCKS ELEMENTS MIN-TAG MAX-TAG'"));
  FEAST_CALL(feast_mesh_reader_ntok(r, 4, "numbers of element blocks and elements, min and max element tags"));
  FEAST_CALL(feast_mesh_tok_int(r, 0, 0, MAX_ELEMENTS, "number of element blocks", &nblocks));
  FEAST_CALL(feast_mesh_tok_int(r, 1, 0, MAX_ELEMENTS, "number of elements", &n));
  FEAST_CALL(feast_mesh_tok_int(r, 2, 0, TAG_MAX, "minimum element tag", &tag));
  FEAST_CALL(feast_mesh_tok_int(r, 3, 0, TAG_MAX, "maximum element tag", &tag));
  FEAST_CALL(feast_mesh_reader_fits(r, nblocks, 8, "element blocks"));
  FEAST_CALL(feast_mesh_reader_fits(r, n, 4, "elements"));
  long long left = n;
  for (long long b = 0; b < nblocks; b++) FEAST_CALL(read_element_block(g, &left));
  FEAST_CHECK(left == 0, FEAST_ERR_MESH, "%s:%d: $Elements declares %lld elements, its blocks hold %lld", r->path,
              r->line, n, n - left);
  return 0;
}

static int read_elements(Gmsh *g) {
  FEAST_CHECK(!g->seen_elements, FEAST_ERR_MESH, "%s:%d: second $Elements section", g->r->path, g->r->line);
  g->seen_elements = 1;
  FEAST_CALL(g->version == 2 ? read_elements_v2(g) : read_elements_v4(g));
  return expect_end(g->r, "$EndElements");
}

/* ---------------------------------------------------------------- file */

static int read_sections(Gmsh *g) {
  FeastMeshReader *r = g->r;
  int eof;
  FEAST_CALL(read_format(g));
  for (;;) {
    FEAST_CALL(feast_mesh_reader_next(r, &eof));
    if (eof) break;
    const char *s = r->tok[0];
    FEAST_CHECK(s[0] == '$' && r->ntok == 1, FEAST_ERR_MESH, "%s:%d: expected a section '$Name', found '%.40s'",
                r->path, r->line, s);
    FEAST_CHECK(strcmp(s, "$MeshFormat") != 0, FEAST_ERR_MESH, "%s:%d: second $MeshFormat section", r->path, r->line);
    if (strcmp(s, "$PhysicalNames") == 0)
      FEAST_CALL(read_names(g));
    else if (strcmp(s, "$Entities") == 0 && g->version == 4)
      FEAST_CALL(read_entities(g));
    else if (strcmp(s, "$Nodes") == 0)
      FEAST_CALL(read_nodes(g));
    else if (strcmp(s, "$Elements") == 0)
      FEAST_CALL(read_elements(g));
    else
      FEAST_CALL(skip_section(r));
  }
  FEAST_CHECK(g->seen_nodes && g->seen_elements, FEAST_ERR_MESH, "%s:%d: end of file: no %s section", r->path, r->line,
              g->seen_nodes ? "$Elements" : "$Nodes");
  FEAST_CHECK(g->nquads > 0, FEAST_ERR_MESH,
              "%s:%d: end of file: no quadrangles (element type 3); feastc needs an all-quadrilateral mesh", r->path,
              r->line);
  return 0;
}

/* ---------------------------------------------------------------- building the mesh */

typedef struct {
  long long tag;
  int index;
} TagIndex;

static int cmp_tag(const void *pa, const void *pb) {
  const TagIndex *a = pa, *b = pb;
  if (a->tag != b->tag) return a->tag < b->tag ? -1 : 1;
  return (a->index > b->index) - (a->index < b->index);
}

static int lookup(const TagIndex *map, long long n, long long tag) {
  long long lo = 0, hi = n - 1;
  while (lo <= hi) {
    long long mid = lo + (hi - lo) / 2;
    if (map[mid].tag == tag) return map[mid].index;
    if (map[mid].tag < tag)
      lo = mid + 1;
    else
      hi = mid - 1;
  }
  return -1;
}

/* what the mesh is built from: node tag -> node, node -> vertex, physical tags of parts */
typedef struct {
  TagIndex *node_map; /* sorted by tag */
  int *vertex_of;     /* node -> vertex, -1 if unused */
  int *vertex_node;   /* vertex -> node */
  long long *groups;  /* physical tags of the parts, ascending */
  int nv, np;
  int *line_part; /* line element -> part, -1 if in no part */
} Build;

static void build_free(Build *b) {
  free(b->node_map);
  free(b->vertex_of);
  free(b->vertex_node);
  free(b->groups);
  free(b->line_part);
}

static int map_nodes(const Gmsh *g, Build *b) {
  FEAST_CALL(FEAST_ALLOC(g->nnodes, &b->node_map));
  for (long long k = 0; k < g->nnodes; k++) b->node_map[k] = (TagIndex){g->nodes[k].tag, (int)k};
  if (g->nnodes) qsort(b->node_map, (size_t)g->nnodes, sizeof *b->node_map, cmp_tag);
  for (long long k = 1; k < g->nnodes; k++)
    FEAST_CHECK(b->node_map[k].tag != b->node_map[k - 1].tag, FEAST_ERR_MESH,
                "%s:%d: node tag %lld defined twice (also on line %d)", g->r->path, g->nodes[b->node_map[k].index].line,
                b->node_map[k].tag, g->nodes[b->node_map[k - 1].index].line);
  return 0;
}

static int node_index(const Gmsh *g, const Build *b, long long tag, long long element, int line, int *k) {
  *k = lookup(b->node_map, g->nnodes, tag);
  FEAST_CHECK(*k >= 0, FEAST_ERR_MESH, "%s:%d: element %lld refers to node %lld, which $Nodes does not define",
              g->r->path, line, element, tag);
  return 0;
}

/* vertices = nodes used by quads, in file order */
static int number_vertices(const Gmsh *g, Build *b) {
  FEAST_CALL(FEAST_ALLOC(g->nnodes, &b->vertex_of));
  FEAST_CALL(FEAST_ALLOC(g->nnodes, &b->vertex_node));
  for (long long k = 0; k < g->nnodes; k++) b->vertex_of[k] = -1;
  for (long long q = 0; q < g->nquads; q++)
    for (int k = 0; k < 4; k++) {
      int n;
      FEAST_CALL(node_index(g, b, g->quads[q].node[k], g->quads[q].tag, g->quads[q].line, &n));
      b->vertex_of[n] = 0;
    }
  b->nv = 0;
  for (long long k = 0; k < g->nnodes; k++)
    if (b->vertex_of[k] == 0) {
      b->vertex_node[b->nv] = (int)k;
      b->vertex_of[k] = b->nv++;
    }
  return 0;
}

static int cmp_ll(const void *pa, const void *pb) {
  long long a = *(const long long *)pa, b = *(const long long *)pb;
  return (a > b) - (a < b);
}

/* 4.1: curve entity tag -> physical tag (0: none) */
static int resolve_groups(Gmsh *g) {
  if (g->version != 4) return 0;
  TagIndex *map = NULL;
  FEAST_CALL(FEAST_ALLOC(g->ncurves, &map));
  for (long long k = 0; k < g->ncurves; k++) map[k] = (TagIndex){g->curves[k].tag, (int)k};
  if (g->ncurves) qsort(map, (size_t)g->ncurves, sizeof *map, cmp_tag);
  int status = 0;
  for (long long k = 0; k < g->nlines && !status; k++) {
    LineEl *l = &g->lines[k];
    int c = g->ncurves ? lookup(map, g->ncurves, l->group < 0 ? -l->group : l->group) : -1;
    const Curve *curve = c >= 0 ? &g->curves[c] : NULL;
    if (curve && curve->nphys > 1)
      status = feast_error_set(FEAST_ERR_MESH, __FILE__, __LINE__,
                               "%s:%d: curve %lld is in %d physical groups: a boundary edge belongs to exactly "
                               "one part",
                               g->r->path, curve->line, curve->tag, curve->nphys);
    l->group = curve ? curve->phys : 0;
  }
  free(map);
  return status;
}

/* parts = distinct physical tags of line elements, ascending */
static int collect_parts(const Gmsh *g, Build *b) {
  FEAST_CALL(FEAST_ALLOC(g->nlines, &b->groups));
  FEAST_CALL(FEAST_ALLOC(g->nlines, &b->line_part));
  long long n = 0;
  for (long long k = 0; k < g->nlines; k++)
    if (g->lines[k].group > 0) b->groups[n++] = g->lines[k].group;
  if (n) qsort(b->groups, (size_t)n, sizeof *b->groups, cmp_ll);
  long long u = 0;
  for (long long k = 0; k < n; k++)
    if (u == 0 || b->groups[k] != b->groups[u - 1]) b->groups[u++] = b->groups[k];
  FEAST_CHECK(u <= FEAST_MESH_MAX_PARTS, FEAST_ERR_MESH, "%s: %lld boundary parts (physical curve groups), at most %d",
              g->r->path, u, FEAST_MESH_MAX_PARTS);
  b->np = (int)u;
  for (long long k = 0; k < g->nlines; k++) {
    b->line_part[k] = -1;
    long long tag = g->lines[k].group;
    if (tag <= 0) continue;
    long long lo = 0, hi = u - 1;
    while (lo <= hi) {
      long long mid = lo + (hi - lo) / 2;
      if (b->groups[mid] == tag) {
        b->line_part[k] = (int)mid;
        break;
      }
      if (b->groups[mid] < tag)
        lo = mid + 1;
      else
        hi = mid - 1;
    }
  }
  return 0;
}

static const PhysName *find_name(const Gmsh *g, int dim, long long tag) {
  for (long long k = 0; k < g->nnames; k++)
    if (g->names[k].dim == dim && g->names[k].tag == tag) return &g->names[k];
  return NULL;
}

/* lines for messages, filled while building */
typedef struct {
  int *vertex, *quad, *part, *part_edge;
} Lines;

static int fill_vertices_quads(const Gmsh *g, const Build *b, FeastMesh *m, Lines *ln) {
  for (int v = 0; v < b->nv; v++) {
    const Node *node = &g->nodes[b->vertex_node[v]];
    m->xy[2 * v] = node->x;
    m->xy[2 * v + 1] = node->y;
    ln->vertex[v] = node->line;
  }
  for (int c = 0; c < m->nmacros; c++) {
    int *q = m->quads + 4 * c;
    for (int k = 0; k < 4; k++) q[k] = b->vertex_of[lookup(b->node_map, g->nnodes, g->quads[c].node[k])];
    ln->quad[c] = g->quads[c].line;
    double area = 0; /* shoelace: Gmsh writes either orientation, feastc wants counter-clockwise */
    for (int k = 0; k < 4; k++) {
      const double *p = m->xy + 2 * q[k], *s = m->xy + 2 * q[(k + 1) % 4];
      area += p[0] * s[1] - s[0] * p[1];
    }
    if (area < 0) {
      int t = q[1];
      q[1] = q[3];
      q[3] = t;
    }
  }
  return 0;
}

static int part_edge_vertex(const Gmsh *g, const Build *b, const LineEl *l, int k, int *v) {
  int n;
  FEAST_CALL(node_index(g, b, l->node[k], l->tag, l->line, &n));
  *v = b->vertex_of[n];
  FEAST_CHECK(*v >= 0, FEAST_ERR_MESH, "%s:%d: line element %lld: node %lld is not a corner of any quadrangle",
              g->r->path, l->line, l->tag, l->node[k]);
  return 0;
}

static int fill_parts(const Gmsh *g, const Build *b, FeastMesh *m, Lines *ln) {
  int *fill = NULL, *start = NULL;
  FEAST_CALL(FEAST_ALLOC(b->np + 1, &start));
  int status = FEAST_ALLOC(b->np, &fill);
  for (long long k = 0; k < g->nlines && !status; k++)
    if (b->line_part[k] >= 0) start[b->line_part[k] + 1]++;
  for (int p = 0; p < b->np && !status; p++) {
    FeastBoundaryPart *part = &m->parts[p];
    const PhysName *pn = find_name(g, 1, b->groups[p]);
    part->type = FEAST_PART_LINE;
    part->nedges = start[p + 1];
    start[p + 1] += start[p];
    if (pn && !pn->valid)
      status = feast_error_set(FEAST_ERR_MESH, __FILE__, __LINE__,
                               "%s:%d: physical group name '%s' cannot name a boundary part (1 to 63 letters, "
                               "digits, '_' or '-')",
                               g->r->path, pn->line, pn->name);
    if (pn)
      snprintf(part->name, sizeof part->name, "%s", pn->name);
    else
      snprintf(part->name, sizeof part->name, "%lld", b->groups[p]);
    ln->part[p] = pn ? pn->line : 0;
    if (!status) status = FEAST_ALLOC(2 * (size_t)part->nedges, &part->edges);
  }
  for (long long k = 0; k < g->nlines && !status; k++) {
    int p = b->line_part[k];
    if (p < 0) continue;
    int e = fill[p]++;
    if (!ln->part[p]) ln->part[p] = g->lines[k].line;
    ln->part_edge[start[p] + e] = g->lines[k].line;
    for (int d = 0; d < 2 && !status; d++)
      status = part_edge_vertex(g, b, &g->lines[k], d, &m->parts[p].edges[2 * e + d]);
  }
  free(fill);
  free(start);
  return status;
}

/* ---------------------------------------------------------------- config: curved parts */

/* name of choice `index` of the enum key boundary.*.type ("line", "circle") */
static const char *type_choice(int index, char *buf, size_t size) {
  for (int k = 0; k < feast_core_keys.nkeys; k++) {
    const FeastKeySpec *s = &feast_core_keys.keys[k];
    if (strcmp(s->section, "boundary.*") || strcmp(s->key, "type") || !s->choices) continue;
    const char *c = s->choices;
    for (int i = 0; i < index && c; i++) {
      c = strchr(c, '|');
      if (c) c++;
    }
    if (!c) return "";
    snprintf(buf, size, "%.*s", (int)strcspn(c, "|"), c);
    return buf;
  }
  return "";
}

static int part_names_list(const FeastMesh *m, char *buf, size_t size) {
  buf[0] = 0;
  for (int p = 0; p < m->nparts && strlen(buf) + 70 < size; p++)
    snprintf(buf + strlen(buf), size - strlen(buf), "%s%s", p ? ", " : "", m->parts[p].name);
  return 0;
}

static int configure_part(const FeastConfig *cfg, const char *section, FeastBoundaryPart *part) {
  char key[160], center[160], radius[160], buf[32];
  int index;
  snprintf(key, sizeof key, "%s.type", section);
  snprintf(center, sizeof center, "%s.center", section);
  snprintf(radius, sizeof radius, "%s.radius", section);
  FEAST_CALL(feast_config_get_enum(cfg, key, &index));
  const char *type = type_choice(index, buf, sizeof buf);
  if (strcmp(type, "line") == 0) {
    FEAST_CHECK(!feast_config_is_set(cfg, center) && !feast_config_is_set(cfg, radius), FEAST_ERR_CONFIG,
                "%s: [%s] has center/radius but type = line (set type = circle)", feast_config_origin(cfg, key),
                section);
    part->type = FEAST_PART_LINE;
    return 0;
  }
  FEAST_CHECK(strcmp(type, "circle") == 0, FEAST_ERR_INTERNAL, "[%s] type choice %d unknown to the mesh reader",
              section, index);
  FEAST_CHECK(feast_config_is_set(cfg, center) && feast_config_is_set(cfg, radius), FEAST_ERR_CONFIG,
              "%s: [%s] type = circle needs center = \"x y\" and radius", feast_config_origin(cfg, key), section);
  part->type = FEAST_PART_CIRCLE;
  FEAST_CALL(feast_config_get_real2(cfg, center, part->center));
  return feast_config_get_real(cfg, radius, &part->radius);
}

/* "run.ini:12" of a key set in section [boundary.NAME], else the config file */
static const char *section_origin(const FeastConfig *cfg, const char *section) {
  static const char *keys[] = {"type", "center", "radius"};
  char key[160];
  for (int k = 0; k < 3; k++) {
    snprintf(key, sizeof key, "%s.%s", section, keys[k]);
    if (feast_config_is_set(cfg, key)) return feast_config_origin(cfg, key);
  }
  return feast_config_path(cfg);
}

static int apply_config(FeastMesh *m, const FeastConfig *cfg) {
  if (!cfg) return 0;
  int n;
  const char *const *sections;
  const size_t prefix = strlen("boundary.");
  FEAST_CALL(feast_config_sections(cfg, "boundary.", &n, &sections));
  for (int s = 0; s < n; s++) {
    int p = feast_mesh_part_index(m, sections[s] + prefix);
    if (p < 0) {
      char known[512];
      part_names_list(m, known, sizeof known);
      FEAST_ERROR(FEAST_ERR_CONFIG, "%s: section [%.80s]: mesh %s has no boundary part '%.63s' (it has: %s)",
                  section_origin(cfg, sections[s]), sections[s], m->source, sections[s] + prefix, known);
    }
    FEAST_CALL(configure_part(cfg, sections[s], &m->parts[p]));
  }
  return 0;
}

/* ---------------------------------------------------------------- entry point */

static int build_mesh(Gmsh *g, const FeastConfig *cfg, FeastMesh **mesh) {
  Build b = {0};
  Lines ln = {0};
  FeastMesh *m = NULL;
  int status = map_nodes(g, &b);
  if (!status) status = number_vertices(g, &b);
  if (!status) status = resolve_groups(g);
  if (!status) status = collect_parts(g, &b);
  if (!status) status = feast_mesh_alloc(g->r->path, b.nv, (int)g->nquads, b.np, &m);
  if (!status) status = FEAST_ALLOC(b.nv, &ln.vertex);
  if (!status) status = FEAST_ALLOC(g->nquads, &ln.quad);
  if (!status) status = FEAST_ALLOC(b.np, &ln.part);
  if (!status) status = FEAST_ALLOC(g->nlines, &ln.part_edge);
  if (!status) status = fill_vertices_quads(g, &b, m, &ln);
  if (!status) status = fill_parts(g, &b, m, &ln);
  if (!status) status = apply_config(m, cfg);
  if (!status) {
    FeastMeshLines lines = {ln.vertex, ln.quad, ln.part, ln.part_edge};
    status = feast_mesh_finish_lines(m, &lines);
  }
  build_free(&b);
  free(ln.vertex);
  free(ln.quad);
  free(ln.part);
  free(ln.part_edge);
  if (status) feast_mesh_destroy(&m);
  *mesh = m;
  return status;
}

int feast_mesh_read_gmsh(const char *path, const FeastConfig *cfg, FeastMesh **mesh) {
  FEAST_CHECK(path && mesh, FEAST_ERR_ARG, "mesh_read_gmsh: NULL argument");
  *mesh = NULL;
  FeastMeshReader r;
  Gmsh g = {0};
  g.r = &r;
  int status = feast_mesh_reader_open(&r, path, 0);
  if (!status) status = read_sections(&g);
  if (!status) status = build_mesh(&g, cfg, mesh);
  feast_mesh_reader_close(&r);
  gmsh_free(&g);
  return status;
}

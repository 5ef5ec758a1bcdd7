/* The Gmsh .msh tokenizer and section reader (formats 2.2 and 4.1 ASCII): $MeshFormat,
 * $PhysicalNames, $Entities (4.1: the physical groups of curves), $Nodes and $Elements
 * (points, 2-node lines and 4-node quadrangles kept, any other element type an error),
 * unknown sections skipped; fills the Gmsh record of gmsh_private.h with what was read
 * and the line each item was read from. Turning it into a FeastMesh is gmsh.c's. */
#include "feast/base/error.h"
#include "feast/mesh/gmsh_private.h"
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TAG_MAX (1LL << 62)
#define MAX_ELEMENTS (5LL * FEAST_MESH_MAX_ITEMS)

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

static int parse_name(Gmsh *g, GmshName *pn) {
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

static int read_curve(Gmsh *g, GmshCurve *c) {
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

static int node_coords(FeastMeshReader *r, int first, GmshNode *node) {
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
    GmshNode *node = &g->nodes[g->nnodes];
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
    GmshQuad *q = &g->quads[g->nquads++];
    q->tag = tag;
    q->line = r->line;
    for (int k = 0; k < 4; k++) FEAST_CALL(feast_mesh_tok_int(r, first + k, 1, TAG_MAX, "node tag", &q->node[k]));
  } else if (type == 1) {
    FEAST_CHECK(g->nlines < FEAST_MESH_MAX_ITEMS, FEAST_ERR_MESH, "%s:%d: more than %d line elements", r->path, r->line,
                FEAST_MESH_MAX_ITEMS);
    FEAST_CALL(grow(&g->lines, &g->caplines, g->nlines + 1, sizeof *g->lines));
    GmshLine *l = &g->lines[g->nlines++];
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

int feast_gmsh_read_sections(Gmsh *g) {
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

/* The native mesh format reader (feast_mesh_read_native; the format is documented in
 * docs/mesh_format.md): header 'feast-mesh 1', 'dimension 3' for a mesh of hexahedra,
 * vertices, quads (or hexahedra) and boundary parts ('part NAME line COUNT' or
 * 'part NAME circle CX CY RADIUS COUNT' and their edges; in 3D 'flat' or 'cylinder' parts
 * and their faces),
 * '#' comments. Every byte is treated as hostile: counts are bounded and checked
 * against the file size before anything is allocated, every error names file:line and
 * the offending token; the source line of each item is kept for the messages of
 * feast_mesh_finish_lines. */
#include "feast/base/error.h"
#include "feast/mesh/mesh_io.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* source lines collected while reading */
typedef struct {
  int *vertex, *quad, *part, *part_edge;
  int64_t npart_edges, cap_part_edges;
} Lines;

static void lines_free(Lines *l) {
  free(l->vertex);
  free(l->quad);
  free(l->part);
  free(l->part_edge);
}

/* the current line is "KEYWORD COUNT" with COUNT in [min, max], each item at least
 * min_bytes long */
static int parse_count(FeastMeshReader *r, const char *keyword, long long min, long long max, int min_bytes,
                       long long *n) {
  char what[64];
  snprintf(what, sizeof what, "'%s COUNT'", keyword);
  FEAST_CHECK(strcmp(r->tok[0], keyword) == 0, FEAST_ERR_MESH, "%s:%d: expected %s, found '%.40s'", r->path, r->line,
              what, r->tok[0]);
  FEAST_CALL(feast_mesh_reader_ntok(r, 2, what));
  snprintf(what, sizeof what, "number of %s", keyword);
  FEAST_CALL(feast_mesh_tok_int(r, 1, min, max, what, n));
  return feast_mesh_reader_fits(r, *n, min_bytes, keyword);
}

/* the next line is "KEYWORD COUNT" (parse_count) */
static int read_count(FeastMeshReader *r, const char *keyword, long long min, long long max, int min_bytes,
                      long long *n) {
  char what[64];
  snprintf(what, sizeof what, "'%s COUNT'", keyword);
  FEAST_CALL(feast_mesh_reader_expect(r, what));
  return parse_count(r, keyword, min, max, min_bytes, n);
}

/* the optional "dimension 2|3" after the header; the line after it is read */
static int read_dimension(FeastMeshReader *r, FeastMesh *m) {
  FEAST_CALL(feast_mesh_reader_expect(r, "'dimension 2|3' or 'vertices COUNT'"));
  if (strcmp(r->tok[0], "dimension") != 0) return 0;
  long long dim;
  FEAST_CALL(feast_mesh_reader_ntok(r, 2, "dimension 2|3"));
  FEAST_CALL(feast_mesh_tok_int(r, 1, 2, 3, "dimension", &dim));
  m->dim = (int)dim;
  return feast_mesh_reader_expect(r, "'vertices COUNT'");
}

static int read_header(FeastMeshReader *r) {
  FEAST_CALL(feast_mesh_reader_expect(r, "'feast-mesh 1'"));
  FEAST_CHECK(strcmp(r->tok[0], "feast-mesh") == 0, FEAST_ERR_MESH,
              "%s:%d: not a feastc mesh file: expected 'feast-mesh 1', found '%.40s'", r->path, r->line, r->tok[0]);
  FEAST_CALL(feast_mesh_reader_ntok(r, 2, "feast-mesh VERSION"));
  long long version;
  FEAST_CALL(feast_mesh_tok_int(r, 1, 0, INT_MAX, "format version", &version));
  FEAST_CHECK(version == 1, FEAST_ERR_MESH, "%s:%d: unsupported format version %lld (this feastc reads version 1)",
              r->path, r->line, version);
  return 0;
}

/* the current line is "vertices COUNT"; dim coordinates per vertex */
static int read_vertices(FeastMeshReader *r, FeastMesh *m, Lines *ln) {
  static const char *const axis[3] = {"x coordinate", "y coordinate", "z coordinate"};
  const int dim = m->dim;
  long long n;
  FEAST_CALL(parse_count(r, "vertices", dim == 3 ? 8 : 4, FEAST_MESH_MAX_ITEMS, 2 * dim, &n));
  m->nvertices = (int)n;
  FEAST_CALL(FEAST_ALLOC(dim * n, &m->xy));
  FEAST_CALL(FEAST_ALLOC(n, &ln->vertex));
  for (int v = 0; v < m->nvertices; v++) {
    FEAST_CALL(feast_mesh_reader_expect(r, dim == 3 ? "a vertex 'X Y Z'" : "a vertex 'X Y'"));
    FEAST_CALL(feast_mesh_reader_ntok(r, dim, dim == 3 ? "vertex coordinates X Y Z" : "vertex coordinates X Y"));
    for (int d = 0; d < dim; d++) FEAST_CALL(feast_mesh_tok_real(r, d, axis[d], &m->xy[dim * v + d]));
    ln->vertex[v] = r->line;
  }
  return 0;
}

/* "quads COUNT" and 4 corners each, or in 3D "hexahedra COUNT" and 8 */
static int read_macros(FeastMeshReader *r, FeastMesh *m, Lines *ln) {
  const int corners = feast_mesh_cell(m)->corners;
  const char *keyword = m->dim == 3 ? "hexahedra" : "quads";
  const char *item = m->dim == 3 ? "a hexahedron 'V0 ... V7'" : "a quad 'V0 V1 V2 V3'";
  long long n, id;
  FEAST_CALL(read_count(r, keyword, 1, FEAST_MESH_MAX_ITEMS, 2 * corners, &n));
  m->nmacros = (int)n;
  FEAST_CALL(FEAST_ALLOC(corners * n, &m->quads));
  FEAST_CALL(FEAST_ALLOC(n, &ln->quad));
  for (int c = 0; c < m->nmacros; c++) {
    FEAST_CALL(feast_mesh_reader_expect(r, item));
    FEAST_CALL(feast_mesh_reader_ntok(r, corners, m->dim == 3 ? "hexahedron vertices V0 ... V7" : "quad vertices V0 V1 V2 V3"));
    for (int k = 0; k < corners; k++) {
      FEAST_CALL(feast_mesh_tok_int(r, k, 0, m->nvertices - 1, "vertex index", &id));
      m->quads[corners * c + k] = (int)id;
    }
    ln->quad[c] = r->line;
  }
  return 0;
}

static int grow_lines(Lines *ln, int64_t need) {
  if (need <= ln->cap_part_edges) return 0;
  int64_t cap = ln->cap_part_edges ? 2 * ln->cap_part_edges : 64;
  while (cap < need) cap *= 2;
  int *p = realloc(ln->part_edge, (size_t)cap * sizeof *p);
  FEAST_CHECK(p, FEAST_ERR_MEM, "out of memory reading boundary parts");
  ln->part_edge = p;
  ln->cap_part_edges = cap;
  return 0;
}

/* tokens from `first` on as n reals */
static int tok_reals(FeastMeshReader *r, int first, int n, const char *what, double *x) {
  for (int k = 0; k < n; k++) FEAST_CALL(feast_mesh_tok_real(r, first + k, what, &x[k]));
  return 0;
}

/* 3D: "part NAME flat COUNT" or "part NAME cylinder PX PY PZ AX AY AZ RADIUS COUNT" */
static int read_part_type_3d(FeastMeshReader *r, FeastBoundaryPart *part) {
  const char *type = r->tok[2];
  if (strcmp(type, "flat") == 0) {
    part->type = FEAST_PART_LINE;
    return feast_mesh_reader_ntok(r, 4, "part NAME flat COUNT");
  }
  FEAST_CHECK(strcmp(type, "cylinder") == 0, FEAST_ERR_MESH,
              "%s:%d: part '%s': unknown type '%.40s' of a 3D mesh (expected flat or cylinder)", r->path, r->line,
              part->name, type);
  part->type = FEAST_PART_CYLINDER;
  FEAST_CALL(feast_mesh_reader_ntok(r, 11, "part NAME cylinder PX PY PZ AX AY AZ RADIUS COUNT"));
  FEAST_CALL(tok_reals(r, 3, 3, "cylinder axis point", part->center));
  FEAST_CALL(tok_reals(r, 6, 3, "cylinder axis direction", part->axis));
  return feast_mesh_tok_real(r, 9, "cylinder radius", &part->radius);
}

/* "part NAME line COUNT" or "part NAME circle CX CY RADIUS COUNT"; in 3D read_part_type_3d */
static int read_part_header(FeastMeshReader *r, int dim, FeastBoundaryPart *part, long long *count) {
  FEAST_CALL(feast_mesh_reader_expect(r, "'part NAME TYPE ... COUNT'"));
  FEAST_CHECK(strcmp(r->tok[0], "part") == 0, FEAST_ERR_MESH,
              "%s:%d: expected 'part NAME TYPE ... COUNT', found '%.40s'", r->path, r->line, r->tok[0]);
  FEAST_CHECK(r->ntok >= 3, FEAST_ERR_MESH, "%s:%d: expected 'part NAME TYPE ... COUNT'", r->path, r->line);
  FEAST_CHECK(feast_mesh_name_ok(r->tok[1]), FEAST_ERR_MESH,
              "%s:%d: part name '%.40s' is invalid (1 to 63 letters, digits, '_' or '-')", r->path, r->line, r->tok[1]);
  snprintf(part->name, sizeof part->name, "%s", r->tok[1]);
  const char *type = r->tok[2];
  if (dim == 3) {
    FEAST_CALL(read_part_type_3d(r, part));
  } else if (strcmp(type, "line") == 0) {
    part->type = FEAST_PART_LINE;
    FEAST_CALL(feast_mesh_reader_ntok(r, 4, "part NAME line COUNT"));
  } else if (strcmp(type, "circle") == 0) {
    part->type = FEAST_PART_CIRCLE;
    FEAST_CALL(feast_mesh_reader_ntok(r, 7, "part NAME circle CX CY RADIUS COUNT"));
    FEAST_CALL(feast_mesh_tok_real(r, 3, "circle centre x", &part->center[0]));
    FEAST_CALL(feast_mesh_tok_real(r, 4, "circle centre y", &part->center[1]));
    FEAST_CALL(feast_mesh_tok_real(r, 5, "circle radius", &part->radius));
    FEAST_CHECK(part->radius > 0, FEAST_ERR_MESH, "%s:%d: circle radius %.40s must be > 0", r->path, r->line,
                r->tok[5]);
  } else
    FEAST_ERROR(FEAST_ERR_MESH, "%s:%d: part '%s': unknown type '%.40s' (expected line or circle)", r->path, r->line,
                part->name, type);
  FEAST_CALL(feast_mesh_tok_int(r, r->ntok - 1, 1, FEAST_MESH_MAX_ITEMS, dim == 3 ? "number of part faces" : "number of part edges", count));
  return feast_mesh_reader_fits(r, *count, 2 * (dim == 3 ? 4 : 2), dim == 3 ? "part faces" : "part edges");
}

/* a part and its items: edges 'A B' (2D) or faces 'A B C D' (3D) */
static int read_part(FeastMeshReader *r, FeastMesh *m, Lines *ln, int p) {
  FeastBoundaryPart *part = &m->parts[p];
  const int per = m->dim == 3 ? 4 : 2;
  long long n, id;
  FEAST_CALL(read_part_header(r, m->dim, part, &n));
  ln->part[p] = r->line;
  FEAST_CHECK(ln->npart_edges + n <= FEAST_MESH_MAX_ITEMS, FEAST_ERR_MESH, "%s:%d: more than %d part %s in all",
              r->path, r->line, FEAST_MESH_MAX_ITEMS, per == 4 ? "faces" : "edges");
  FEAST_CALL(grow_lines(ln, ln->npart_edges + n));
  int *items;
  FEAST_CALL(FEAST_ALLOC(per * n, &items));
  if (per == 4) part->faces = items, part->nfaces = (int)n;
  else part->edges = items, part->nedges = (int)n;
  for (long long k = 0; k < n; k++) {
    FEAST_CALL(feast_mesh_reader_expect(r, per == 4 ? "a part face 'A B C D'" : "a part edge 'A B'"));
    FEAST_CALL(feast_mesh_reader_ntok(r, per, per == 4 ? "part face vertices A B C D" : "part edge vertices A B"));
    for (int d = 0; d < per; d++) {
      FEAST_CALL(feast_mesh_tok_int(r, d, 0, m->nvertices - 1, "vertex index", &id));
      items[per * k + d] = (int)id;
    }
    ln->part_edge[ln->npart_edges++] = r->line;
  }
  return 0;
}

static int read_native_body(FeastMeshReader *r, FeastMesh *m, Lines *ln) {
  long long n;
  FEAST_CALL(read_header(r));
  FEAST_CALL(read_dimension(r, m));
  FEAST_CALL(read_vertices(r, m, ln));
  FEAST_CALL(read_macros(r, m, ln));
  FEAST_CALL(read_count(r, "parts", 1, FEAST_MESH_MAX_PARTS, 8, &n));
  FEAST_CALL(FEAST_ALLOC(n, &m->parts));
  FEAST_CALL(FEAST_ALLOC(n, &ln->part));
  m->nparts = (int)n;
  for (int p = 0; p < m->nparts; p++) FEAST_CALL(read_part(r, m, ln, p));
  int eof;
  FEAST_CALL(feast_mesh_reader_next(r, &eof));
  FEAST_CHECK(eof, FEAST_ERR_MESH, "%s:%d: unexpected '%.40s' after the last part", r->path, r->line, r->tok[0]);
  return 0;
}

int feast_mesh_read_native(const char *path, FeastMesh **mesh) {
  FEAST_CHECK(path && mesh, FEAST_ERR_ARG, "mesh_read_native: NULL argument");
  *mesh = NULL;
  FeastMesh *m = NULL;
  FeastMeshReader r;
  Lines ln = {0};
  int status = feast_mesh_reader_open(&r, path, 1);
  if (!status) status = feast_mesh_alloc(path, 2, 0, 0, 0, &m);
  if (!status) status = read_native_body(&r, m, &ln);
  feast_mesh_reader_close(&r);
  if (!status) {
    FeastMeshLines lines = {ln.vertex, ln.quad, ln.part, ln.part_edge};
    status = feast_mesh_finish_lines(m, &lines);
  }
  lines_free(&ln);
  if (status) {
    feast_mesh_destroy(&m);
    return status;
  }
  *mesh = m;
  return 0;
}

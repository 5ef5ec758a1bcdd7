/* The native mesh format reader (feast_mesh_read_native; the format is documented in
 * docs/mesh_format.md): header 'feast-mesh 1', vertices, quads and boundary parts
 * ('part NAME line COUNT' or 'part NAME circle CX CY RADIUS COUNT' and their edges),
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

/* "KEYWORD COUNT" with COUNT in [min, max], each item at least min_bytes long */
static int read_count(FeastMeshReader *r, const char *keyword, long long min, long long max, int min_bytes,
                      long long *n) {
  char what[64];
  snprintf(what, sizeof what, "'%s COUNT'", keyword);
  FEAST_CALL(feast_mesh_reader_expect(r, what));
  FEAST_CHECK(strcmp(r->tok[0], keyword) == 0, FEAST_ERR_MESH, "%s:%d: expected %s, found '%.40s'", r->path, r->line,
              what, r->tok[0]);
  FEAST_CALL(feast_mesh_reader_ntok(r, 2, what));
  snprintf(what, sizeof what, "number of %s", keyword);
  FEAST_CALL(feast_mesh_tok_int(r, 1, min, max, what, n));
  return feast_mesh_reader_fits(r, *n, min_bytes, keyword);
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

static int read_vertices(FeastMeshReader *r, FeastMesh *m, Lines *ln) {
  long long n;
  FEAST_CALL(read_count(r, "vertices", 4, FEAST_MESH_MAX_ITEMS, 4, &n));
  m->nvertices = (int)n;
  FEAST_CALL(FEAST_ALLOC(2 * n, &m->xy));
  FEAST_CALL(FEAST_ALLOC(n, &ln->vertex));
  for (int v = 0; v < m->nvertices; v++) {
    FEAST_CALL(feast_mesh_reader_expect(r, "a vertex 'X Y'"));
    FEAST_CALL(feast_mesh_reader_ntok(r, 2, "vertex coordinates X Y"));
    FEAST_CALL(feast_mesh_tok_real(r, 0, "x coordinate", &m->xy[2 * v]));
    FEAST_CALL(feast_mesh_tok_real(r, 1, "y coordinate", &m->xy[2 * v + 1]));
    ln->vertex[v] = r->line;
  }
  return 0;
}

static int read_quads(FeastMeshReader *r, FeastMesh *m, Lines *ln) {
  long long n, id;
  FEAST_CALL(read_count(r, "quads", 1, FEAST_MESH_MAX_ITEMS, 8, &n));
  m->nmacros = (int)n;
  FEAST_CALL(FEAST_ALLOC(4 * n, &m->quads));
  FEAST_CALL(FEAST_ALLOC(n, &ln->quad));
  for (int c = 0; c < m->nmacros; c++) {
    FEAST_CALL(feast_mesh_reader_expect(r, "a quad 'V0 V1 V2 V3'"));
    FEAST_CALL(feast_mesh_reader_ntok(r, 4, "quad vertices V0 V1 V2 V3"));
    for (int k = 0; k < 4; k++) {
      FEAST_CALL(feast_mesh_tok_int(r, k, 0, m->nvertices - 1, "vertex index", &id));
      m->quads[4 * c + k] = (int)id;
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

/* "part NAME line COUNT" or "part NAME circle CX CY RADIUS COUNT" */
static int read_part_header(FeastMeshReader *r, FeastBoundaryPart *part, long long *count) {
  FEAST_CALL(feast_mesh_reader_expect(r, "'part NAME TYPE ... COUNT'"));
  FEAST_CHECK(strcmp(r->tok[0], "part") == 0, FEAST_ERR_MESH,
              "%s:%d: expected 'part NAME TYPE ... COUNT', found '%.40s'", r->path, r->line, r->tok[0]);
  FEAST_CHECK(r->ntok >= 3, FEAST_ERR_MESH, "%s:%d: expected 'part NAME TYPE ... COUNT'", r->path, r->line);
  FEAST_CHECK(feast_mesh_name_ok(r->tok[1]), FEAST_ERR_MESH,
              "%s:%d: part name '%.40s' is invalid (1 to 63 letters, digits, '_' or '-')", r->path, r->line, r->tok[1]);
  snprintf(part->name, sizeof part->name, "%s", r->tok[1]);
  const char *type = r->tok[2];
  if (strcmp(type, "line") == 0) {
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
  FEAST_CALL(feast_mesh_tok_int(r, r->ntok - 1, 1, FEAST_MESH_MAX_ITEMS, "number of part edges", count));
  return feast_mesh_reader_fits(r, *count, 4, "part edges");
}

static int read_part(FeastMeshReader *r, FeastMesh *m, Lines *ln, int p) {
  FeastBoundaryPart *part = &m->parts[p];
  long long n, id;
  FEAST_CALL(read_part_header(r, part, &n));
  ln->part[p] = r->line;
  FEAST_CHECK(ln->npart_edges + n <= FEAST_MESH_MAX_ITEMS, FEAST_ERR_MESH, "%s:%d: more than %d part edges in all",
              r->path, r->line, FEAST_MESH_MAX_ITEMS);
  FEAST_CALL(grow_lines(ln, ln->npart_edges + n));
  FEAST_CALL(FEAST_ALLOC(2 * n, &part->edges));
  part->nedges = (int)n;
  for (int k = 0; k < part->nedges; k++) {
    FEAST_CALL(feast_mesh_reader_expect(r, "a part edge 'A B'"));
    FEAST_CALL(feast_mesh_reader_ntok(r, 2, "part edge vertices A B"));
    for (int d = 0; d < 2; d++) {
      FEAST_CALL(feast_mesh_tok_int(r, d, 0, m->nvertices - 1, "vertex index", &id));
      part->edges[2 * k + d] = (int)id;
    }
    ln->part_edge[ln->npart_edges++] = r->line;
  }
  return 0;
}

static int read_native_body(FeastMeshReader *r, FeastMesh *m, Lines *ln) {
  long long n;
  FEAST_CALL(read_header(r));
  FEAST_CALL(read_vertices(r, m, ln));
  FEAST_CALL(read_quads(r, m, ln));
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
  if (!status) status = feast_mesh_alloc(path, 0, 0, 0, &m);
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

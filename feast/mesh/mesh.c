/* Coarse mesh: the bounded line reader shared by both readers, the native format reader,
 * validation and topology (feast_mesh_finish), and small queries. The native format is
 * documented in docs/mesh_format.md; every byte of a mesh file is treated as hostile:
 * sizes are bounded and checked against the file size before anything is allocated,
 * and every error names file:line and the offending token or item. */
#include "feast/mesh/mesh.h"
#include "feast/base/hash.h"
#include "feast/base/error.h"
#include "feast/mesh/mesh_io.h"
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/* ================================================================ line reader */

int feast_mesh_reader_open(FeastMeshReader *r, const char *path, int hash_comments) {
  memset(r, 0, sizeof *r);
  r->path = path;
  r->hash_comments = hash_comments;
  errno = 0;
  r->f = fopen(path, "rb");
  FEAST_CHECK(r->f, FEAST_ERR_FILE, "%s: cannot open mesh file: %s", path, strerror(errno));
  struct stat st;
  FEAST_CHECK(fstat(fileno(r->f), &st) == 0 && S_ISREG(st.st_mode), FEAST_ERR_FILE,
              "%s: not a regular file (a mesh file is expected)", path);
  r->size = (long long)st.st_size;
  FEAST_CALL(FEAST_ALLOC(FEAST_MESH_MAX_LINE + 1, &r->raw));
  FEAST_CALL(FEAST_ALLOC(FEAST_MESH_MAX_LINE + 1, &r->buf));
  return 0;
}

void feast_mesh_reader_close(FeastMeshReader *r) {
  if (r->f) fclose(r->f);
  r->f = NULL;
  feast_free(&r->raw);
  feast_free(&r->buf);
}

/* one physical line into r->raw; control bytes (other than tab and CR) are rejected */
static int read_line(FeastMeshReader *r, int *eof) {
  size_t n = 0;
  int c = 0;
  *eof = 0;
  FEAST_CHECK(r->line < INT_MAX, FEAST_ERR_MESH, "%s: more than %d lines", r->path, INT_MAX - 1);
  r->line++;
  while ((c = getc(r->f)) != EOF) {
    r->offset++;
    if (c == '\n') break;
    if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7f)
      FEAST_ERROR(FEAST_ERR_MESH, "%s:%d: control byte 0x%02x in column %zu: not a text mesh file", r->path, r->line,
                  (unsigned)c, n + 1);
    FEAST_CHECK(n < FEAST_MESH_MAX_LINE, FEAST_ERR_MESH, "%s:%d: line longer than %d bytes", r->path, r->line,
                FEAST_MESH_MAX_LINE);
    r->raw[n++] = (char)c;
  }
  r->raw[n] = 0;
  if (c == EOF) {
    FEAST_CHECK(!ferror(r->f), FEAST_ERR_FILE, "%s:%d: read error: %s", r->path, r->line, strerror(errno));
    if (n == 0) *eof = 1;
  }
  return 0;
}

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

static void tokenize(FeastMeshReader *r) {
  memcpy(r->buf, r->raw, strlen(r->raw) + 1);
  if (r->hash_comments) {
    char *hash = strchr(r->buf, '#');
    if (hash) *hash = 0;
  }
  r->ntok = 0;
  r->overflow = 0;
  char *p = r->buf;
  for (;;) {
    while (is_blank(*p)) p++;
    if (!*p) break;
    if (r->ntok == FEAST_MESH_MAX_TOKENS) {
      r->overflow = 1;
      break;
    }
    r->tok[r->ntok++] = p;
    while (*p && !is_blank(*p)) p++;
    if (*p) *p++ = 0;
  }
}

int feast_mesh_reader_next(FeastMeshReader *r, int *eof) {
  do {
    FEAST_CALL(read_line(r, eof));
    if (*eof) return 0;
    tokenize(r);
  } while (r->ntok == 0);
  return 0;
}

int feast_mesh_reader_expect(FeastMeshReader *r, const char *what) {
  int eof;
  FEAST_CALL(feast_mesh_reader_next(r, &eof));
  FEAST_CHECK(!eof, FEAST_ERR_MESH, "%s:%d: unexpected end of file: expected %s", r->path, r->line, what);
  return 0;
}

int feast_mesh_reader_ntok(const FeastMeshReader *r, int n, const char *what) {
  FEAST_CHECK(r->ntok == n && !r->overflow, FEAST_ERR_MESH, "%s:%d: expected %d field%s (%s), found %s%d", r->path,
              r->line, n, n == 1 ? "" : "s", what, r->overflow ? "more than " : "", r->ntok);
  return 0;
}

int feast_mesh_tok_int(const FeastMeshReader *r, int i, long long min, long long max, const char *what,
                       long long *value) {
  FEAST_CHECK(i < r->ntok, FEAST_ERR_MESH, "%s:%d: missing %s", r->path, r->line, what);
  const char *s = r->tok[i];
  char *end;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  FEAST_CHECK(end != s && !*end, FEAST_ERR_MESH, "%s:%d: %s '%.40s' is not an integer", r->path, r->line, what, s);
  FEAST_CHECK(errno != ERANGE && v >= min && v <= max, FEAST_ERR_MESH, "%s:%d: %s %.40s is out of range [%lld, %lld]",
              r->path, r->line, what, s, min, max);
  *value = v;
  return 0;
}

int feast_mesh_tok_real(const FeastMeshReader *r, int i, const char *what, double *value) {
  FEAST_CHECK(i < r->ntok, FEAST_ERR_MESH, "%s:%d: missing %s", r->path, r->line, what);
  const char *s = r->tok[i];
  char *end;
  double v = strtod(s, &end);
  FEAST_CHECK(end != s && !*end, FEAST_ERR_MESH, "%s:%d: %s '%.40s' is not a number", r->path, r->line, what, s);
  FEAST_CHECK(isfinite(v), FEAST_ERR_MESH, "%s:%d: %s '%.40s' is not a finite number", r->path, r->line, what, s);
  *value = v;
  return 0;
}

int feast_mesh_reader_fits(const FeastMeshReader *r, long long count, int min_bytes, const char *what) {
  long long left = r->size - r->offset;
  FEAST_CHECK(count <= left / min_bytes, FEAST_ERR_MESH,
              "%s:%d: %lld %s cannot fit in the remaining %lld bytes of the file (truncated file or "
              "corrupt count)",
              r->path, r->line, count, what, left);
  return 0;
}

int feast_mesh_name_ok(const char *s) {
  size_t n = 0;
  for (; s[n]; n++) {
    char c = s[n];
    int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    if (!ok || n >= 63) return 0;
  }
  return n > 0;
}

/* ================================================================ object */

int feast_mesh_alloc(const char *path, int nv, int nq, int np, FeastMesh **mesh) {
  FEAST_CHECK(mesh && nv >= 0 && nq >= 0 && np >= 0, FEAST_ERR_ARG, "mesh_alloc: bad argument");
  FeastMesh *m;
  *mesh = NULL;
  FEAST_CALL(FEAST_ALLOC(1, &m));
  *mesh = m; /* the caller destroys it if an allocation below fails */
  snprintf(m->source, sizeof m->source, "%s", path ? path : "");
  m->nvertices = nv;
  m->nmacros = nq;
  m->nparts = np;
  FEAST_CALL(FEAST_ALLOC(2 * (size_t)nv, &m->xy));
  FEAST_CALL(FEAST_ALLOC(4 * (size_t)nq, &m->quads));
  FEAST_CALL(FEAST_ALLOC(np, &m->parts));
  return 0;
}

static void free_topology(FeastMesh *m) {
  feast_free(&m->edge_vertices);
  feast_free(&m->edge_macros);
  feast_free(&m->edge_part);
  feast_free(&m->macro_edges);
  feast_free(&m->vertex_macro_ptr);
  feast_free(&m->vertex_macros);
  m->nedges = 0;
}

void feast_mesh_destroy(FeastMesh **mesh) {
  if (!mesh || !*mesh) return;
  FeastMesh *m = *mesh;
  free_topology(m);
  for (int p = 0; m->parts && p < m->nparts; p++) feast_free(&m->parts[p].edges);
  feast_free(&m->parts);
  feast_free(&m->xy);
  feast_free(&m->quads);
  feast_free(mesh);
}

const char *feast_mesh_part_names(const FeastMesh *mesh, char *buf, size_t size) {
  buf[0] = 0;
  for (int q = 0; q < mesh->nparts && strlen(buf) + 70 < size; q++)
    snprintf(buf + strlen(buf), size - strlen(buf), "%s%s", q ? ", " : "", mesh->parts[q].name);
  return buf;
}

int feast_mesh_part_index(const FeastMesh *mesh, const char *name) {
  if (!mesh || !name) return -1;
  for (int p = 0; p < mesh->nparts; p++)
    if (strncmp(mesh->parts[p].name, name, sizeof mesh->parts[p].name) == 0) return p;
  return -1;
}

int feast_mesh_vertex_on_part(const FeastMesh *mesh, int v, int p) {
  if (!mesh || p < 0 || p >= mesh->nparts || v < 0 || v >= mesh->nvertices) return 0;
  const FeastBoundaryPart *part = &mesh->parts[p];
  for (int k = 0; k < 2 * part->nedges; k++)
    if (part->edges[k] == v) return 1;
  return 0;
}

/* ================================================================ validation */

/* "file:line" of item i when the line is known, else "file" */
typedef struct {
  char s[600];
} Loc;

static Loc loc(const FeastMesh *m, const int *lines, long i) {
  Loc l;
  if (lines && lines[i] > 0)
    snprintf(l.s, sizeof l.s, "%s:%d", m->source, lines[i]);
  else
    snprintf(l.s, sizeof l.s, "%s", m->source);
  return l;
}

#define COORD_MAX 1e100 /* |x|, |y| bound: products of coordinates stay finite */
#define CONVEX_EPS 1e-8 /* sine of the smallest turning angle of a strictly convex quad */

static int check_sizes(const FeastMesh *m) {
  FEAST_CHECK(m->nvertices >= 4 && m->nvertices <= FEAST_MESH_MAX_ITEMS, FEAST_ERR_MESH,
              "%s: %d vertices (4 to %d allowed)", m->source, m->nvertices, FEAST_MESH_MAX_ITEMS);
  FEAST_CHECK(m->nmacros >= 1 && m->nmacros <= FEAST_MESH_MAX_ITEMS, FEAST_ERR_MESH, "%s: %d quads (1 to %d allowed)",
              m->source, m->nmacros, FEAST_MESH_MAX_ITEMS);
  FEAST_CHECK(m->nparts >= 0 && m->nparts <= FEAST_MESH_MAX_PARTS, FEAST_ERR_MESH,
              "%s: %d boundary parts (0 to %d allowed)", m->source, m->nparts, FEAST_MESH_MAX_PARTS);
  FEAST_CHECK(m->xy && m->quads && (m->nparts == 0 || m->parts), FEAST_ERR_ARG,
              "mesh_finish: %s: vertex, quad or part array missing", m->source);
  return 0;
}

static int check_vertices(const FeastMesh *m, const FeastMeshLines *ln) {
  for (int v = 0; v < m->nvertices; v++) {
    double x = m->xy[2 * v], y = m->xy[2 * v + 1];
    FEAST_CHECK(isfinite(x) && isfinite(y) && fabs(x) <= COORD_MAX && fabs(y) <= COORD_MAX, FEAST_ERR_MESH,
                "%s: vertex %d has coordinates (%g, %g): finite values of magnitude <= %g expected",
                loc(m, ln ? ln->vertex : NULL, v).s, v, x, y, COORD_MAX);
  }
  return 0;
}

enum { QUAD_OK, QUAD_CLOCKWISE, QUAD_DEGENERATE, QUAD_NONCONVEX };

/* classify a quad; *corner = the first offending corner (0..3) */
static int quad_shape(const double *xy, const int *q, int *corner) {
  double s[4], scale = 0, area = 0;
  int pos = 0, neg = 0;
  *corner = 0;
  for (int k = 0; k < 4; k++) {
    const double *p0 = xy + 2 * q[(k + 3) % 4], *p1 = xy + 2 * q[k], *p2 = xy + 2 * q[(k + 1) % 4];
    double ax = p1[0] - p0[0], ay = p1[1] - p0[1], bx = p2[0] - p1[0], by = p2[1] - p1[1];
    double la = hypot(ax, ay), lb = hypot(bx, by);
    if (!(la > 0 && lb > 0)) {
      *corner = k;
      return QUAD_DEGENERATE;
    }
    s[k] = (ax * by - ay * bx) / (la * lb);
    pos += s[k] > CONVEX_EPS;
    neg += s[k] < -CONVEX_EPS;
    scale = fmax(scale, lb * lb);
    area += p1[0] * p2[1] - p2[0] * p1[1];
  }
  if (pos == 4) return QUAD_OK;
  if (neg == 4) return QUAD_CLOCKWISE;
  if (fabs(area) <= CONVEX_EPS * scale) return QUAD_DEGENERATE;
  for (int k = 0; k < 4; k++)
    if (area > 0 ? s[k] <= CONVEX_EPS : s[k] >= -CONVEX_EPS) {
      *corner = k;
      break;
    }
  return QUAD_NONCONVEX;
}

static int check_quad(const FeastMesh *m, const FeastMeshLines *ln, int c) {
  const int *q = m->quads + 4 * c;
#define AT loc(m, ln ? ln->quad : NULL, c).s
  for (int k = 0; k < 4; k++)
    FEAST_CHECK(q[k] >= 0 && q[k] < m->nvertices, FEAST_ERR_MESH, "%s: quad %d: vertex index %d out of range [0, %d]",
                AT, c, q[k], m->nvertices - 1);
  for (int k = 0; k < 4; k++)
    for (int l = k + 1; l < 4; l++)
      FEAST_CHECK(q[k] != q[l], FEAST_ERR_MESH, "%s: quad %d (%d %d %d %d) repeats vertex %d", AT, c, q[0], q[1], q[2],
                  q[3], q[k]);
  int corner, shape = quad_shape(m->xy, q, &corner);
  FEAST_CHECK(shape != QUAD_CLOCKWISE, FEAST_ERR_MESH,
              "%s: quad %d (%d %d %d %d) is clockwise: list the vertices counter-clockwise", AT, c, q[0], q[1], q[2],
              q[3]);
  FEAST_CHECK(shape != QUAD_DEGENERATE, FEAST_ERR_MESH,
              "%s: quad %d (%d %d %d %d) is degenerate (zero area or coincident corners)", AT, c, q[0], q[1], q[2],
              q[3]);
  FEAST_CHECK(shape != QUAD_NONCONVEX, FEAST_ERR_MESH,
              "%s: quad %d (%d %d %d %d) is not strictly convex: its angle at vertex %d is 180 degrees "
              "or more (or the quad intersects itself)",
              AT, c, q[0], q[1], q[2], q[3], q[corner]);
  return 0;
}
#undef AT

/* an edge occurrence: key = smaller*nv + larger vertex id, idx = 4*macro + local edge */
typedef struct {
  int64_t key;
  int idx;
} EdgeRef;

static int cmp_edgeref(const void *pa, const void *pb) {
  const EdgeRef *a = pa, *b = pb;
  if (a->key != b->key) return a->key < b->key ? -1 : 1;
  return (a->idx > b->idx) - (a->idx < b->idx);
}

static int edge_from(const FeastMesh *m, int idx) { return m->quads[idx]; }
static int edge_to(const FeastMesh *m, int idx) { return m->quads[4 * (idx / 4) + (idx % 4 + 1) % 4]; }

/* a shared edge: at most two quads, traversed in opposite directions */
static int check_edge_group(const FeastMesh *m, const FeastMeshLines *ln, const EdgeRef *g, int n) {
  const int *ql = ln ? ln->quad : NULL;
  int a = edge_from(m, g[0].idx), b = edge_to(m, g[0].idx);
  FEAST_CHECK(n <= 2, FEAST_ERR_MESH,
              "%s: quad %d: edge %d-%d is already shared by quads %d and %d: the mesh is not conforming "
              "(an edge belongs to at most two quads)",
              loc(m, ql, g[2].idx / 4).s, g[2].idx / 4, a < b ? a : b, a < b ? b : a, g[0].idx / 4, g[1].idx / 4);
  if (n == 2)
    FEAST_CHECK(edge_from(m, g[1].idx) != a, FEAST_ERR_MESH,
                "%s: quad %d overlaps quad %d: both run through their shared edge %d-%d in the same "
                "direction",
                loc(m, ql, g[1].idx / 4).s, g[1].idx / 4, g[0].idx / 4, a, b);
  return 0;
}

/* edges numbered by first occurrence (macro order, local edge order); *keys = per edge
 * (key, edge id) sorted by key, for lookups */
static int build_edges(FeastMesh *m, const FeastMeshLines *ln, EdgeRef **keys) {
  const int n = 4 * m->nmacros;
  const int64_t nv = m->nvertices;
  EdgeRef *ref;
  *keys = NULL;
  FEAST_CALL(FEAST_ALLOC(n, &ref));
  for (int i = 0; i < n; i++) {
    int64_t a = edge_from(m, i), b = edge_to(m, i);
    ref[i].key = a < b ? a * nv + b : b * nv + a;
    ref[i].idx = i;
  }
  if (n) qsort(ref, (size_t)n, sizeof *ref, cmp_edgeref);
  int status = FEAST_ALLOC(n, &m->macro_edges);
  int *first = NULL;
  if (!status) status = FEAST_ALLOC(n, &first);
  int ngroups = 0;
  for (int i = 0; i < n && !status;) {
    int j = i;
    while (j < n && ref[j].key == ref[i].key) j++;
    status = check_edge_group(m, ln, ref + i, j - i);
    for (int k = i; k < j; k++) first[ref[k].idx] = ref[i].idx;
    ref[ngroups++] = (EdgeRef){ref[i].key, ref[i].idx}; /* compacted: one entry per edge */
    i = j;
  }
  if (!status) status = FEAST_ALLOC(2 * (size_t)ngroups, &m->edge_vertices);
  if (!status) status = FEAST_ALLOC(2 * (size_t)ngroups, &m->edge_macros);
  if (!status) status = FEAST_ALLOC(ngroups, &m->edge_part);
  if (status) {
    free(ref);
    free(first);
    return status;
  }
  m->nedges = 0;
  for (int i = 0; i < n; i++) {
    if (first[i] == i) {
      int e = m->nedges++, a = edge_from(m, i), b = edge_to(m, i);
      m->edge_vertices[2 * e] = a < b ? a : b;
      m->edge_vertices[2 * e + 1] = a < b ? b : a;
      m->edge_macros[2 * e] = i / 4;
      m->edge_macros[2 * e + 1] = -1;
      m->edge_part[e] = -1;
      m->macro_edges[i] = e;
    } else {
      int e = m->macro_edges[first[i]];
      m->macro_edges[i] = e;
      m->edge_macros[2 * e + 1] = i / 4;
    }
  }
  for (int g = 0; g < ngroups; g++) ref[g].idx = m->macro_edges[ref[g].idx]; /* idx -> edge id */
  free(first);
  *keys = ref;
  return 0;
}

static int is_boundary(const FeastMesh *m, int e) { return m->edge_macros[2 * e + 1] < 0; }

/* CSR vertex -> macros (ascending, as macros are visited in order); unused vertices are errors */
static int build_vertex_macros(FeastMesh *m, const FeastMeshLines *ln) {
  FEAST_CALL(FEAST_ALLOC(m->nvertices + 1, &m->vertex_macro_ptr));
  FEAST_CALL(FEAST_ALLOC(4 * (size_t)m->nmacros, &m->vertex_macros));
  int *ptr = m->vertex_macro_ptr;
  for (int i = 0; i < 4 * m->nmacros; i++) ptr[m->quads[i] + 1]++;
  for (int v = 0; v < m->nvertices; v++) {
    FEAST_CHECK(ptr[v + 1] > 0, FEAST_ERR_MESH, "%s: vertex %d is not a corner of any quad",
                loc(m, ln ? ln->vertex : NULL, v).s, v);
    ptr[v + 1] += ptr[v];
  }
  for (int c = 0; c < m->nmacros; c++)
    for (int k = 0; k < 4; k++) {
      int v = m->quads[4 * c + k];
      m->vertex_macros[ptr[v]++] = c;
    }
  for (int v = m->nvertices; v > 0; v--) ptr[v] = ptr[v - 1];
  ptr[0] = 0;
  return 0;
}

/* ---- conformity: no boundary vertex on another boundary edge, no boundary edges crossing */

typedef struct {
  int G;
  double x0, y0, cw, ch;
  int *ptr, *items; /* CSR cell -> boundary edges (indices into the list) */
} Grid;

static int cell_of(double v, double v0, double w, int G) {
  double c = floor((v - v0) / w);
  return c < 0 ? 0 : c >= G ? G - 1 : (int)c;
}

/* cells [i0,i1] x [j0,j1] covered by the bounding box of edge (a,b), widened by tol */
static void edge_cells(const Grid *g, const double *a, const double *b, double tol, int r[4]) {
  r[0] = cell_of(fmin(a[0], b[0]) - tol, g->x0, g->cw, g->G);
  r[1] = cell_of(fmax(a[0], b[0]) + tol, g->x0, g->cw, g->G);
  r[2] = cell_of(fmin(a[1], b[1]) - tol, g->y0, g->ch, g->G);
  r[3] = cell_of(fmax(a[1], b[1]) + tol, g->y0, g->ch, g->G);
}

static double edge_tol(const double *a, const double *b) { return 1e-9 * hypot(b[0] - a[0], b[1] - a[1]); }

static int64_t grid_count(const FeastMesh *m, Grid *g, const int *be, int nb) {
  int64_t total = 0;
  for (int k = 0; k < nb; k++) {
    const int *ev = m->edge_vertices + 2 * be[k];
    const double *a = m->xy + 2 * ev[0], *b = m->xy + 2 * ev[1];
    int r[4];
    edge_cells(g, a, b, edge_tol(a, b), r);
    total += (int64_t)(r[1] - r[0] + 1) * (r[3] - r[2] + 1);
  }
  return total;
}

static int grid_build(const FeastMesh *m, const int *be, int nb, Grid *g) {
  double x1 = -HUGE_VAL, y1 = -HUGE_VAL;
  g->x0 = g->y0 = HUGE_VAL;
  for (int k = 0; k < 2 * nb; k++) {
    const double *p = m->xy + 2 * m->edge_vertices[2 * be[k / 2] + k % 2];
    g->x0 = fmin(g->x0, p[0]);
    g->y0 = fmin(g->y0, p[1]);
    x1 = fmax(x1, p[0]);
    y1 = fmax(y1, p[1]);
  }
  int64_t total = 0;
  for (g->G = (int)fmin(1024, ceil(sqrt((double)nb))); g->G >= 1; g->G /= 2) {
    g->cw = x1 > g->x0 ? (x1 - g->x0) / g->G : 1;
    g->ch = y1 > g->y0 ? (y1 - g->y0) / g->G : 1;
    total = grid_count(m, g, be, nb);
    if (total <= 16 * (int64_t)nb + 4096 || g->G == 1) break;
  }
  FEAST_CHECK(total <= INT_MAX, FEAST_ERR_LIMIT, "%s: boundary too large to check", m->source);
  FEAST_CALL(FEAST_ALLOC((size_t)g->G * g->G + 1, &g->ptr));
  FEAST_CALL(FEAST_ALLOC(total, &g->items));
  for (int pass = 0; pass < 2; pass++) {
    for (int k = 0; k < nb; k++) {
      const int *ev = m->edge_vertices + 2 * be[k];
      const double *a = m->xy + 2 * ev[0], *b = m->xy + 2 * ev[1];
      int r[4];
      edge_cells(g, a, b, edge_tol(a, b), r);
      for (int j = r[2]; j <= r[3]; j++)
        for (int i = r[0]; i <= r[1]; i++) {
          int cell = j * g->G + i;
          if (pass == 0)
            g->ptr[cell + 1]++;
          else
            g->items[g->ptr[cell]++] = k;
        }
    }
    if (pass == 0)
      for (int c = 0; c < g->G * g->G; c++) g->ptr[c + 1] += g->ptr[c];
    else {
      for (int c = g->G * g->G; c > 0; c--) g->ptr[c] = g->ptr[c - 1];
      g->ptr[0] = 0;
    }
  }
  return 0;
}

/* vertex w against boundary edge (a,b): 1 lies on it, 2 coincides with a, 3 with b */
static int touches(const double *w, const double *a, const double *b) {
  double dx = b[0] - a[0], dy = b[1] - a[1], len2 = dx * dx + dy * dy, tol = edge_tol(a, b);
  double t = ((w[0] - a[0]) * dx + (w[1] - a[1]) * dy) / len2;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  double ex = a[0] + t * dx - w[0], ey = a[1] + t * dy - w[1];
  if (ex * ex + ey * ey > tol * tol) return 0;
  if (hypot(w[0] - a[0], w[1] - a[1]) <= tol) return 2;
  if (hypot(w[0] - b[0], w[1] - b[1]) <= tol) return 3;
  return 1;
}

static double orient(const double *a, const double *b, const double *c) {
  return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
}

static int proper_cross(const double *a, const double *b, const double *c, const double *d) {
  double o1 = orient(a, b, c), o2 = orient(a, b, d), o3 = orient(c, d, a), o4 = orient(c, d, b);
  return ((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0));
}

static int check_vertex_cells(const FeastMesh *m, const FeastMeshLines *ln, const Grid *g, const int *be, int w) {
  const double *pw = m->xy + 2 * w;
  int cell = cell_of(pw[1], g->y0, g->ch, g->G) * g->G + cell_of(pw[0], g->x0, g->cw, g->G);
  for (int p = g->ptr[cell]; p < g->ptr[cell + 1]; p++) {
    const int *ev = m->edge_vertices + 2 * be[g->items[p]];
    if (ev[0] == w || ev[1] == w) continue;
    int t = touches(pw, m->xy + 2 * ev[0], m->xy + 2 * ev[1]);
    if (t >= 2)
      FEAST_ERROR(FEAST_ERR_MESH,
                  "%s: vertex %d (%g, %g) coincides with vertex %d on the boundary: the mesh "
                  "is not conforming (duplicate vertex or crack)",
                  loc(m, ln ? ln->vertex : NULL, w).s, w, pw[0], pw[1], ev[t - 2]);
    FEAST_CHECK(t == 0, FEAST_ERR_MESH,
                "%s: vertex %d (%g, %g) lies on boundary edge %d-%d: the mesh is "
                "not conforming (hanging vertex)",
                loc(m, ln ? ln->vertex : NULL, w).s, w, pw[0], pw[1], ev[0], ev[1]);
  }
  return 0;
}

static int check_edge_cells(const FeastMesh *m, const FeastMeshLines *ln, const Grid *g, const int *be, int k) {
  const int *ev = m->edge_vertices + 2 * be[k];
  const double *a = m->xy + 2 * ev[0], *b = m->xy + 2 * ev[1];
  int r[4];
  edge_cells(g, a, b, edge_tol(a, b), r);
  for (int j = r[2]; j <= r[3]; j++)
    for (int i = r[0]; i <= r[1]; i++)
      for (int p = g->ptr[j * g->G + i]; p < g->ptr[j * g->G + i + 1]; p++) {
        if (g->items[p] <= k) continue;
        const int *fv = m->edge_vertices + 2 * be[g->items[p]];
        if (fv[0] == ev[0] || fv[0] == ev[1] || fv[1] == ev[0] || fv[1] == ev[1]) continue;
        int c = m->edge_macros[2 * be[k]];
        FEAST_CHECK(!proper_cross(a, b, m->xy + 2 * fv[0], m->xy + 2 * fv[1]), FEAST_ERR_MESH,
                    "%s: boundary edge %d-%d of quad %d crosses boundary edge %d-%d: quads overlap",
                    loc(m, ln ? ln->quad : NULL, c).s, ev[0], ev[1], c, fv[0], fv[1]);
      }
  return 0;
}

static int check_conforming_grid(const FeastMesh *m, const FeastMeshLines *ln, const int *be, int nb,
                                 const unsigned char *onb, Grid *g) {
  FEAST_CALL(grid_build(m, be, nb, g));
  for (int w = 0; w < m->nvertices; w++)
    if (onb[w]) FEAST_CALL(check_vertex_cells(m, ln, g, be, w));
  for (int k = 0; k < nb; k++) FEAST_CALL(check_edge_cells(m, ln, g, be, k));
  return 0;
}

static int check_conforming(const FeastMesh *m, const FeastMeshLines *ln) {
  int nb = 0, *be = NULL;
  unsigned char *onb = NULL;
  for (int e = 0; e < m->nedges; e++) nb += is_boundary(m, e);
  if (nb == 0) return 0;
  int status = FEAST_ALLOC(nb, &be);
  if (!status) status = FEAST_ALLOC(m->nvertices, &onb);
  Grid g = {0};
  if (!status) {
    for (int e = 0, k = 0; e < m->nedges; e++)
      if (is_boundary(m, e)) {
        be[k++] = e;
        onb[m->edge_vertices[2 * e]] = onb[m->edge_vertices[2 * e + 1]] = 1;
      }
    status = check_conforming_grid(m, ln, be, nb, onb, &g);
  }
  free(g.ptr);
  free(g.items);
  free(be);
  free(onb);
  return status;
}

/* ---- boundary parts */

static int cmp_name(const void *pa, const void *pb) {
  const FeastBoundaryPart *a = *(const FeastBoundaryPart *const *)pa, *b = *(const FeastBoundaryPart *const *)pb;
  return strcmp(a->name, b->name);
}

static int check_part_names(const FeastMesh *m, const FeastMeshLines *ln) {
  const int *pl = ln ? ln->part : NULL;
  for (int p = 0; p < m->nparts; p++) {
    const char *name = m->parts[p].name;
    FEAST_CHECK(memchr(name, 0, sizeof m->parts[p].name) && feast_mesh_name_ok(name), FEAST_ERR_MESH,
                "%s: boundary part %d: name '%.63s' is invalid (1 to 63 letters, digits, '_' or '-')", loc(m, pl, p).s,
                p, name);
  }
  if (m->nparts < 2) return 0;
  const FeastBoundaryPart **sorted;
  FEAST_CALL(FEAST_ALLOC(m->nparts, &sorted));
  for (int p = 0; p < m->nparts; p++) sorted[p] = &m->parts[p];
  if (m->nparts) qsort(sorted, (size_t)m->nparts, sizeof *sorted, cmp_name);
  int dup = -1;
  for (int p = 1; p < m->nparts && dup < 0; p++)
    if (strcmp(sorted[p]->name, sorted[p - 1]->name) == 0) dup = (int)(sorted[p] - m->parts);
  free(sorted);
  if (dup >= 0) {
    int later = dup;
    for (int p = 0; p < m->nparts; p++)
      if (strcmp(m->parts[p].name, m->parts[dup].name) == 0) later = p; /* report the last one */
    FEAST_ERROR(FEAST_ERR_MESH, "%s: duplicate boundary part name '%s'", loc(m, pl, later).s, m->parts[dup].name);
  }
  return 0;
}

static int check_part_shape(const FeastMesh *m, const FeastMeshLines *ln, int p) {
  const FeastBoundaryPart *part = &m->parts[p];
  Loc at = loc(m, ln ? ln->part : NULL, p);
  FEAST_CHECK(part->type == FEAST_PART_LINE || part->type == FEAST_PART_CIRCLE, FEAST_ERR_MESH,
              "%s: boundary part '%s' has unknown type %d", at.s, part->name, (int)part->type);
  FEAST_CHECK(part->nedges >= 1 && part->nedges <= FEAST_MESH_MAX_ITEMS && part->edges, FEAST_ERR_MESH,
              "%s: boundary part '%s' has %d edges (1 to %d allowed)", at.s, part->name, part->nedges,
              FEAST_MESH_MAX_ITEMS);
  if (part->type == FEAST_PART_CIRCLE)
    FEAST_CHECK(isfinite(part->center[0]) && isfinite(part->center[1]) && isfinite(part->radius) && part->radius > 0 &&
                    fabs(part->center[0]) <= COORD_MAX && fabs(part->center[1]) <= COORD_MAX &&
                    part->radius <= COORD_MAX,
                FEAST_ERR_MESH, "%s: circle part '%s': centre (%g, %g) and radius %g must be finite, radius > 0", at.s,
                part->name, part->center[0], part->center[1], part->radius);
  return 0;
}

/* where part edge k of part p was read (offset = its index over all parts' edges) */
static Loc part_edge_loc(const FeastMesh *m, const FeastMeshLines *ln, int p, int64_t offset) {
  if (ln && ln->part_edge) return loc(m, ln->part_edge, (long)offset);
  return loc(m, ln ? ln->part : NULL, p);
}
#define AT part_edge_loc(m, ln, p, offset).s

/* a vertex of a circle part lies on the circle; the edge spans less than half of it */
static int check_circle_edge(const FeastMesh *m, const FeastMeshLines *ln, int p, int64_t offset, int a, int b) {
  const FeastBoundaryPart *part = &m->parts[p];
  const double cx = part->center[0], cy = part->center[1], R = part->radius;
  const int v[2] = {a, b};
  for (int k = 0; k < 2; k++) {
    double d = hypot(m->xy[2 * v[k]] - cx, m->xy[2 * v[k] + 1] - cy);
    FEAST_CHECK(fabs(d - R) <= 1e-6 * R, FEAST_ERR_MESH,
                "%s: vertex %d of circle part '%s' is at distance %.10g from the centre (%g, %g), not on the "
                "radius %.10g",
                AT, v[k], part->name, d, cx, cy, R);
  }
  double t = atan2(m->xy[2 * b + 1] - cy, m->xy[2 * b] - cx) - atan2(m->xy[2 * a + 1] - cy, m->xy[2 * a] - cx);
  if (t > M_PI) t -= 2 * M_PI;
  if (t <= -M_PI) t += 2 * M_PI;
  FEAST_CHECK(fabs(t) < M_PI - 1e-6, FEAST_ERR_MESH,
              "%s: edge %d-%d of circle part '%s' spans half the circle or more (split it)", AT, a, b, part->name);
  return 0;
}

static int find_edge(const FeastMesh *m, const EdgeRef *keys, int a, int b) {
  int64_t lo = a < b ? a : b, hi = a < b ? b : a, key = lo * m->nvertices + hi;
  int l = 0, r = m->nedges - 1;
  while (l <= r) {
    int mid = l + (r - l) / 2;
    if (keys[mid].key == key) return keys[mid].idx;
    if (keys[mid].key < key)
      l = mid + 1;
    else
      r = mid - 1;
  }
  return -1;
}

/* edge k of part p: a boundary edge of the quads, in no other part */
static int assign_part_edge(FeastMesh *m, const FeastMeshLines *ln, const EdgeRef *keys, int p, int k, int64_t offset) {
  const FeastBoundaryPart *part = &m->parts[p];
  int a = part->edges[2 * k], b = part->edges[2 * k + 1];
  FEAST_CHECK(a >= 0 && a < m->nvertices && b >= 0 && b < m->nvertices, FEAST_ERR_MESH,
              "%s: boundary part '%s': edge %d-%d: vertex index out of range [0, %d]", AT, part->name, a, b,
              m->nvertices - 1);
  int e = find_edge(m, keys, a, b);
  FEAST_CHECK(e >= 0, FEAST_ERR_MESH, "%s: boundary part '%s': %d-%d is not an edge of any quad", AT, part->name, a, b);
  FEAST_CHECK(is_boundary(m, e), FEAST_ERR_MESH,
              "%s: boundary part '%s': edge %d-%d is not a boundary edge (it is shared by quads %d and %d)", AT,
              part->name, a, b, m->edge_macros[2 * e], m->edge_macros[2 * e + 1]);
  int q = m->edge_part[e];
  FEAST_CHECK(q != p, FEAST_ERR_MESH, "%s: boundary part '%s' lists edge %d-%d twice", AT, part->name, a, b);
  FEAST_CHECK(q < 0, FEAST_ERR_MESH,
              "%s: edge %d-%d is in boundary parts '%s' and '%s' (each boundary edge belongs to exactly one)", AT, a, b,
              m->parts[q].name, part->name);
  if (part->type == FEAST_PART_CIRCLE) FEAST_CALL(check_circle_edge(m, ln, p, offset, a, b));
  m->edge_part[e] = p;
  return 0;
}
#undef AT

static int check_parts(FeastMesh *m, const FeastMeshLines *ln, const EdgeRef *keys) {
  FEAST_CALL(check_part_names(m, ln));
  int64_t offset = 0;
  for (int p = 0; p < m->nparts; p++) {
    FEAST_CALL(check_part_shape(m, ln, p));
    for (int k = 0; k < m->parts[p].nedges; k++, offset++) FEAST_CALL(assign_part_edge(m, ln, keys, p, k, offset));
  }
  for (int e = 0; e < m->nedges; e++) {
    int c = m->edge_macros[2 * e];
    FEAST_CHECK(!is_boundary(m, e) || m->edge_part[e] >= 0, FEAST_ERR_MESH,
                "%s: boundary edge %d-%d of quad %d belongs to no boundary part", loc(m, ln ? ln->quad : NULL, c).s,
                m->edge_vertices[2 * e], m->edge_vertices[2 * e + 1], c);
  }
  return 0;
}

int feast_mesh_finish_lines(FeastMesh *m, const FeastMeshLines *ln) {
  FEAST_CHECK(m, FEAST_ERR_ARG, "mesh_finish: NULL mesh");
  free_topology(m);
  FEAST_CALL(check_sizes(m));
  FEAST_CALL(check_vertices(m, ln));
  for (int c = 0; c < m->nmacros; c++) FEAST_CALL(check_quad(m, ln, c));
  EdgeRef *keys;
  FEAST_CALL(build_edges(m, ln, &keys));
  int status = build_vertex_macros(m, ln);
  if (!status) status = check_conforming(m, ln);
  if (!status) status = check_parts(m, ln, keys);
  free(keys);
  if (status) free_topology(m);
  return status;
}

int feast_mesh_finish(FeastMesh *mesh) { return feast_mesh_finish_lines(mesh, NULL); }

/* ================================================================ native reader */

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

int feast_mesh_read(const char *path, const FeastConfig *cfg, FeastMesh **mesh) {
  FEAST_CHECK(path && mesh, FEAST_ERR_ARG, "mesh_read: NULL argument");
  size_t n = strlen(path);
  if (n >= 4 && strcasecmp(path + n - 4, ".msh") == 0) return feast_mesh_read_gmsh(path, cfg, mesh);
  return feast_mesh_read_native(path, mesh);
}

uint64_t feast_mesh_fingerprint(const FeastMesh *mesh) {
  uint64_t h = feast_fnv1a64(FEAST_FNV_OFFSET, &mesh->nvertices, sizeof mesh->nvertices);
  h = feast_fnv1a64(h, mesh->xy, 2 * (size_t)mesh->nvertices * sizeof *mesh->xy);
  h = feast_fnv1a64(h, &mesh->nmacros, sizeof mesh->nmacros);
  h = feast_fnv1a64(h, mesh->quads, 4 * (size_t)mesh->nmacros * sizeof *mesh->quads);
  for (int k = 0; k < mesh->nparts; k++) {
    const FeastBoundaryPart *part = &mesh->parts[k];
    h = feast_fnv1a64(h, part->name, strlen(part->name) + 1);
    h = feast_fnv1a64(h, &part->type, sizeof part->type);
    if (part->type == FEAST_PART_CIRCLE) {
      h = feast_fnv1a64(h, part->center, sizeof part->center);
      h = feast_fnv1a64(h, &part->radius, sizeof part->radius);
    }
    h = feast_fnv1a64(h, part->edges, 2 * (size_t)part->nedges * sizeof *part->edges);
  }
  return h;
}

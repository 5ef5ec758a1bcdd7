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
 *   type = circle, center = "x y", radius = r (cfg may be NULL: all parts straight).
 *
 * This file turns what gmsh_parse.c read into a FeastMesh: vertices, macros, parts from
 * physical groups, curved parts from the config, and holds the entry point. */
#include "feast/config/config.h"
#include "feast/base/error.h"
#include "feast/mesh/mesh.h"
#include "feast/mesh/gmsh_private.h"
#include <stdlib.h>
#include <string.h>

static void gmsh_free(Gmsh *g) {
  free(g->nodes);
  free(g->quads);
  free(g->lines);
  free(g->names);
  free(g->curves);
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
    GmshLine *l = &g->lines[k];
    int c = g->ncurves ? lookup(map, g->ncurves, l->group < 0 ? -l->group : l->group) : -1;
    const GmshCurve *curve = c >= 0 ? &g->curves[c] : NULL;
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

static const GmshName *find_name(const Gmsh *g, int dim, long long tag) {
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
    const GmshNode *node = &g->nodes[b->vertex_node[v]];
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

static int part_edge_vertex(const Gmsh *g, const Build *b, const GmshLine *l, int k, int *v) {
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
    const GmshName *pn = find_name(g, 1, b->groups[p]);
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
  if (!status) status = feast_mesh_alloc(g->r->path, 2, b.nv, (int)g->nquads, b.np, &m);
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
  if (!status) status = feast_gmsh_read_sections(&g);
  if (!status) status = build_mesh(&g, cfg, mesh);
  feast_mesh_reader_close(&r);
  gmsh_free(&g);
  return status;
}

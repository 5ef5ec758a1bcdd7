/* Coarse mesh: the grids read natively and from Gmsh 2.2 / 4.1 give the same mesh and
 * topology; curved parts from the config; in-memory meshes through feast_mesh_finish;
 * and every malformed input is an error naming file:line (and the offending token),
 * never a crash. Run from the source tree (ctest does). */
#include "feast/config/config.h"
#include "feast/base/error.h"
#include "feast/mesh/mesh.h"
#include "feast_test.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DATA "tests/data/mesh/"

/* ---------------------------------------------------------------- topology */

/* invariants of the derived topology, and the expected counts */
static void check_topology(const FeastMesh *m, int nv, int nm, int ne, int nb) {
  CHECK(m->nvertices == nv && m->nmacros == nm && m->nedges == ne);
  int boundary = 0, bad = 0;
  for (int e = 0; e < m->nedges; e++) {
    const int *ev = m->edge_vertices + 2 * e, *em = m->edge_macros + 2 * e;
    bad += !(ev[0] < ev[1]); /* canonical: smaller id first */
    bad += !(em[0] >= 0 && (em[1] == -1 || em[1] > em[0]));
    bad += (em[1] == -1) != (m->edge_part[e] >= 0); /* part iff boundary */
    boundary += em[1] == -1;
  }
  CHECK(boundary == nb);
  for (int c = 0; c < m->nmacros; c++)
    for (int k = 0; k < 4; k++) {
      int e = m->macro_edges[4 * c + k], a = m->quads[4 * c + k], b = m->quads[4 * c + (k + 1) % 4];
      int lo = a < b ? a : b, hi = a < b ? b : a;
      bad += !(e >= 0 && e < m->nedges && m->edge_vertices[2 * e] == lo && m->edge_vertices[2 * e + 1] == hi);
      bad += !(m->edge_macros[2 * e] == c || m->edge_macros[2 * e + 1] == c);
    }
  CHECK(m->vertex_macro_ptr[0] == 0 && m->vertex_macro_ptr[m->nvertices] == 4 * m->nmacros);
  for (int v = 0; v < m->nvertices; v++)
    for (int p = m->vertex_macro_ptr[v]; p < m->vertex_macro_ptr[v + 1]; p++) {
      int c = m->vertex_macros[p], has = 0;
      for (int k = 0; k < 4; k++) has |= m->quads[4 * c + k] == v;
      bad += !has || (p > m->vertex_macro_ptr[v] && m->vertex_macros[p - 1] >= c);
    }
  CHECK(bad == 0);
}

static int64_t nodes_at(const FeastMesh *m, int level) {
  int64_t n = feast_level_n(level) - 2;
  return m->nvertices + m->nedges * n + m->nmacros * n * n;
}

static int part_edges_on(const FeastMesh *m, const char *name) {
  int p = feast_mesh_part_index(m, name);
  return p < 0 ? -1 : m->parts[p].nedges;
}

static void check_unitsquare8(const FeastMesh *m) {
  check_topology(m, 15, 8, 22, 12);
  CHECK(m->nparts == 4);
  CHECK(part_edges_on(m, "bottom") == 4 && part_edges_on(m, "right") == 2);
  CHECK(part_edges_on(m, "top") == 4 && part_edges_on(m, "left") == 2);
  CHECK(nodes_at(m, 7) == 131841);
  int64_t n = 0;
  CHECK_OK(feast_mesh_count_nodes(m, 7, &n));
  CHECK(n == 131841);
  /* every macro is 0.25 x 0.5 */
  int bad = 0;
  for (int c = 0; c < m->nmacros; c++) {
    const double *p0 = m->xy + 2 * m->quads[4 * c], *p2 = m->xy + 2 * m->quads[4 * c + 2];
    bad += p2[0] - p0[0] != 0.25 || p2[1] - p0[1] != 0.5;
  }
  CHECK(bad == 0);
}

static void check_dfg24(const FeastMesh *m, int curved) {
  check_topology(m, 35, 24, 59, 22);
  CHECK(m->nparts == 4);
  CHECK(part_edges_on(m, "inflow") == 2 && part_edges_on(m, "outflow") == 2);
  CHECK(part_edges_on(m, "wall") == 10 && part_edges_on(m, "cylinder") == 8);
  CHECK(nodes_at(m, 9) == 6297088);
  int64_t n = 0;
  CHECK_OK(feast_mesh_count_nodes(m, 9, &n));
  CHECK(n == 6297088);
  int cyl = feast_mesh_part_index(m, "cylinder");
  if (cyl < 0) return;
  const FeastBoundaryPart *c = &m->parts[cyl];
  CHECK(c->type == (curved ? FEAST_PART_CIRCLE : FEAST_PART_LINE));
  if (curved) CHECK(c->center[0] == 0.2 && c->center[1] == 0.2 && c->radius == 0.05);
  /* parts where they belong: inflow x = 0, outflow x = 2.2, walls y = 0 or 0.41 */
  int bad = 0;
  for (int p = 0; p < m->nparts; p++)
    for (int k = 0; k < 2 * m->parts[p].nedges; k++) {
      const double *xy = m->xy + 2 * m->parts[p].edges[k];
      const char *name = m->parts[p].name;
      if (!strcmp(name, "inflow")) bad += xy[0] != 0;
      if (!strcmp(name, "outflow")) bad += xy[0] != 2.2;
      if (!strcmp(name, "wall")) bad += xy[1] != 0 && xy[1] != 0.41;
    }
  CHECK(bad == 0);
  /* refined macros stay valid, also with the cylinder edges bulging */
  for (int level = 0; level <= 4; level++) {
    double minjac = 0;
    CHECK_OK(feast_mesh_min_jacobian(m, level, &minjac));
    CHECK(minjac > 0);
  }
}

/* the same vertices, macros, parts and topology (bitwise) */
static void check_same(const FeastMesh *a, const FeastMesh *b) {
  CHECK(a->nvertices == b->nvertices && a->nmacros == b->nmacros && a->nparts == b->nparts && a->nedges == b->nedges);
  if (a->nvertices != b->nvertices || a->nmacros != b->nmacros || a->nparts != b->nparts || a->nedges != b->nedges)
    return;
  CHECK(!memcmp(a->xy, b->xy, 2 * sizeof(double) * a->nvertices));
  CHECK(!memcmp(a->quads, b->quads, 4 * sizeof(int) * a->nmacros));
  CHECK(!memcmp(a->edge_vertices, b->edge_vertices, 2 * sizeof(int) * a->nedges));
  CHECK(!memcmp(a->edge_macros, b->edge_macros, 2 * sizeof(int) * a->nedges));
  CHECK(!memcmp(a->edge_part, b->edge_part, sizeof(int) * a->nedges));
  CHECK(!memcmp(a->macro_edges, b->macro_edges, 4 * sizeof(int) * a->nmacros));
  for (int p = 0; p < a->nparts; p++) {
    const FeastBoundaryPart *pa = &a->parts[p], *pb = &b->parts[p];
    CHECK(!strcmp(pa->name, pb->name) && pa->type == pb->type && pa->nedges == pb->nedges);
    if (pa->nedges == pb->nedges) CHECK(!memcmp(pa->edges, pb->edges, 2 * sizeof(int) * pa->nedges));
    if (pa->type == FEAST_PART_CIRCLE && pb->type == FEAST_PART_CIRCLE)
      CHECK(pa->center[0] == pb->center[0] && pa->center[1] == pb->center[1] && pa->radius == pb->radius);
  }
}

/* the same mesh up to the numbering of vertices and macros (a mesh that Gmsh wrote) */
static void check_same_geometry(const FeastMesh *a, const FeastMesh *b) {
  CHECK(a->nvertices == b->nvertices && a->nmacros == b->nmacros && a->nedges == b->nedges && a->nparts == b->nparts);
  if (a->nvertices != b->nvertices || a->nmacros != b->nmacros || a->nparts != b->nparts) return;
  int *map = malloc(sizeof(int) * a->nvertices), bad = 0; /* vertex of a -> vertex of b */
  for (int v = 0; v < a->nvertices; v++) {
    map[v] = -1;
    for (int w = 0; w < b->nvertices; w++)
      if (fabs(a->xy[2 * v] - b->xy[2 * w]) <= 1e-12 && fabs(a->xy[2 * v + 1] - b->xy[2 * w + 1]) <= 1e-12) map[v] = w;
    bad += map[v] < 0;
  }
  for (int c = 0; c < a->nmacros && !bad; c++) { /* some macro of b: a rotation of it */
    int found = 0;
    for (int d = 0; d < b->nmacros && !found; d++)
      for (int r = 0; r < 4 && !found; r++) {
        int same = 1;
        for (int k = 0; k < 4; k++) same &= map[a->quads[4 * c + k]] == b->quads[4 * d + (k + r) % 4];
        found = same;
      }
    bad += !found;
  }
  for (int p = 0; p < a->nparts && !bad; p++) {
    const FeastBoundaryPart *pa = &a->parts[p], *pb = &b->parts[p];
    bad += strcmp(pa->name, pb->name) || pa->type != pb->type || pa->nedges != pb->nedges;
    for (int k = 0; k < pa->nedges && !bad; k++) {
      int x = map[pa->edges[2 * k]], y = map[pa->edges[2 * k + 1]], found = 0;
      for (int l = 0; l < pb->nedges; l++)
        found |= (pb->edges[2 * l] == x && pb->edges[2 * l + 1] == y) ||
                 (pb->edges[2 * l] == y && pb->edges[2 * l + 1] == x);
      bad += !found;
    }
  }
  CHECK(bad == 0);
  free(map);
}

static void test_grids(void) {
  FeastMesh *native = NULL, *msh = NULL;
  FeastConfig *cfg = NULL;
  CHECK_OK(feast_mesh_read("grids/unitsquare8.feast", NULL, &native));
  if (native) check_unitsquare8(native);
  const char *square[] = {"grids/unitsquare8.msh", DATA "unitsquare8_v22.msh"};
  for (int k = 0; k < 2 && native; k++) {
    CHECK_OK(feast_mesh_read(square[k], NULL, &msh));
    if (msh) check_same(native, msh);
    feast_mesh_destroy(&msh);
  }
  feast_mesh_destroy(&native);
  CHECK(native == NULL);

  CHECK_OK(feast_mesh_read("grids/dfg24.feast", NULL, &native));
  if (native) check_dfg24(native, 1);
  CHECK_OK(feast_config_create(&cfg));
  CHECK_OK(feast_config_read(cfg, DATA "dfg24_circle.ini"));
  const char *dfg[] = {"grids/dfg24.msh", DATA "dfg24_v22.msh"};
  for (int k = 0; k < 2 && native; k++) {
    CHECK_OK(feast_mesh_read(dfg[k], cfg, &msh)); /* cylinder: a circle from the config */
    if (msh) check_same(native, msh);
    feast_mesh_destroy(&msh);
    CHECK_OK(feast_mesh_read(dfg[k], NULL, &msh)); /* without: all parts straight */
    if (msh) check_dfg24(msh, 0);
    feast_mesh_destroy(&msh);
  }
  /* written by Gmsh 4.8.4 from grids/dfg24.geo: other numbering, same mesh */
  const char *gmsh[] = {DATA "dfg24_gmsh_v41.msh", DATA "dfg24_gmsh_v22.msh"};
  for (int k = 0; k < 2 && native; k++) {
    CHECK_OK(feast_mesh_read(gmsh[k], cfg, &msh));
    if (msh) check_same_geometry(native, msh);
    if (msh) check_dfg24(msh, 1);
    feast_mesh_destroy(&msh);
  }
  feast_mesh_destroy(&native);
  feast_config_destroy(&cfg);
}

/* ---------------------------------------------------------------- small valid inputs */

static void test_small(void) {
  FeastMesh *a = NULL, *b = NULL;
  CHECK_OK(feast_mesh_read_native(DATA "good_square2.feast", &a));
  if (!a) return;
  check_topology(a, 6, 2, 7, 6);
  CHECK(feast_mesh_part_index(a, "boundary") == 0 && feast_mesh_part_index(a, "nope") == -1);
  CHECK(feast_mesh_vertex_on_part(a, 4, 0) == 1 && feast_mesh_vertex_on_part(a, 99, 0) == 0);
  CHECK(feast_mesh_vertex_on_part(a, 0, 1) == 0 && feast_mesh_vertex_on_part(a, -1, 0) == 0);
  CHECK(a->vertex_macro_ptr[2] - a->vertex_macro_ptr[1] == 2); /* vertex 1 in both macros */
  const char *same[] = {DATA "good_square2_v22.msh", DATA "good_square2_v41.msh"};
  for (int k = 0; k < 2; k++) {
    CHECK_OK(feast_mesh_read_gmsh(same[k], NULL, &b));
    if (b) {
      CHECK(!strcmp(b->parts[0].name, "wall"));
      snprintf(b->parts[0].name, sizeof b->parts[0].name, "boundary");
      check_same(a, b);
    }
    feast_mesh_destroy(&b);
  }
  /* clockwise quads reoriented, a $Comments section skipped, a point element and an
   * unused node ignored, an unnamed physical group named by its tag, a line element in
   * no group ignored */
  CHECK_OK(feast_mesh_read(DATA "good_square2_cw.msh", NULL, &b));
  if (b) {
    check_topology(b, 6, 2, 7, 6);
    CHECK(b->nparts == 1 && !strcmp(b->parts[0].name, "7"));
    CHECK(b->quads[0] == 0 && b->quads[1] == 1 && b->quads[2] == 4 && b->quads[3] == 3);
  }
  feast_mesh_destroy(&b);
  feast_mesh_destroy(&a);
  feast_mesh_destroy(&a); /* destroying NULL is a no-op */
}

/* a 2 x 1 grid built in memory and validated by feast_mesh_finish */
static FeastMesh *memory_mesh(void) {
  static const double xy[] = {0, 0, 1, 0, 2, 0, 0, 1, 1, 1, 2, 1};
  static const int quads[] = {0, 1, 4, 3, 1, 2, 5, 4}, edges[] = {0, 1, 1, 2, 2, 5, 5, 4, 4, 3, 3, 0};
  FeastMesh *m = calloc(1, sizeof *m);
  m->nvertices = 6;
  m->nmacros = 2;
  m->nparts = 1;
  m->xy = malloc(sizeof xy);
  m->quads = malloc(sizeof quads);
  m->parts = calloc(1, sizeof *m->parts);
  memcpy(m->xy, xy, sizeof xy);
  memcpy(m->quads, quads, sizeof quads);
  snprintf(m->source, sizeof m->source, "memory");
  snprintf(m->parts[0].name, sizeof m->parts[0].name, "all");
  m->parts[0].nedges = 6;
  m->parts[0].edges = malloc(sizeof edges);
  memcpy(m->parts[0].edges, edges, sizeof edges);
  return m;
}

static void test_finish(void) {
  FeastMesh *m = memory_mesh();
  CHECK_OK(feast_mesh_finish(m));
  CHECK_OK(feast_mesh_finish(m)); /* again: the topology is rebuilt, not leaked */
  check_topology(m, 6, 2, 7, 6);
  m->quads[1] = 3, m->quads[3] = 1; /* quad 0 clockwise */
  CHECK(feast_mesh_finish(m) == FEAST_ERR_MESH);
  CHECK(strstr(feast_error_message(), "memory") && strstr(feast_error_message(), "quad 0"));
  CHECK(m->edge_vertices == NULL && m->nedges == 0); /* no half-built topology */
  feast_error_clear();
  m->quads[1] = 1, m->quads[3] = 3;
  m->parts[0].type = FEAST_PART_CIRCLE; /* circle with radius 0 */
  CHECK_FAILS(feast_mesh_finish(m));
  m->parts[0].type = (FeastPartType)7;
  CHECK_FAILS(feast_mesh_finish(m));
  m->parts[0].type = FEAST_PART_LINE;
  memset(m->parts[0].name, 'x', sizeof m->parts[0].name); /* not terminated */
  CHECK_FAILS(feast_mesh_finish(m));
  feast_mesh_destroy(&m);
  CHECK(m == NULL);
  CHECK(feast_mesh_finish(NULL) == FEAST_ERR_ARG);
  feast_error_clear();
  CHECK(feast_mesh_read(NULL, NULL, &m) == FEAST_ERR_ARG);
  feast_error_clear();
}

/* ---------------------------------------------------------------- config */

static void test_config(void) {
  static const struct {
    const char *ini, *expect;
  } cases[] = {
      {DATA "cfg_circle_no_radius.ini", "cfg_circle_no_radius.ini:6"},
      {DATA "cfg_line_with_radius.ini", "cfg_line_with_radius.ini:6"},
      {DATA "cfg_unknown_part.ini", "cfg_unknown_part.ini:6"},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    FeastConfig *cfg = NULL;
    FeastMesh *m = NULL;
    CHECK_OK(feast_config_create(&cfg));
    CHECK_OK(feast_config_read(cfg, cases[k].ini));
    int st = feast_mesh_read("grids/dfg24.msh", cfg, &m);
    CHECK(st == FEAST_ERR_CONFIG && m == NULL);
    if (!strstr(feast_error_message(), cases[k].expect)) {
      feast_test_failures++;
      fprintf(stderr, "%s: message '%s' lacks '%s'\n", cases[k].ini, feast_error_message(), cases[k].expect);
    }
    feast_error_clear();
    feast_config_destroy(&cfg);
  }
}

/* ---------------------------------------------------------------- malformed input */

typedef struct {
  const char *file;  /* under tests/data/mesh/ */
  const char *where; /* file:line expected in the message */
  const char *what;  /* and this (a token, a word), or NULL */
} Bad;

static const Bad bad_cases[] = {
    /* native: reading */
    {"bad_empty.feast", "bad_empty.feast:1", "end of file"},
    {"bad_comments_only.feast", "bad_comments_only.feast:4", "feast-mesh"},
    {"bad_magic.feast", "bad_magic.feast:1", "hello"},
    {"bad_version.feast", "bad_version.feast:1", "version 2"},
    {"bad_truncated.feast", "bad_truncated.feast:2", "6 vertices"},
    {"bad_binary.feast", "bad_binary.feast:2", "0x00"},
    {"bad_garbage_coord.feast", "bad_garbage_coord.feast:4", "abc"},
    {"bad_index_range.feast", "bad_index_range.feast:10", "9"},
    {"bad_index_negative.feast", "bad_index_negative.feast:10", "-1"},
    {"bad_count_huge.feast", "bad_count_huge.feast:2", "99999999999"},
    {"bad_count_large.feast", "bad_count_large.feast:2", "9999999"},
    {"bad_count_negative.feast", "bad_count_negative.feast:9", "-2"},
    {"bad_count_text.feast", "bad_count_text.feast:12", "many"},
    {"bad_coord_nan.feast", "bad_coord_nan.feast:3", "nan"},
    {"bad_coord_inf.feast", "bad_coord_inf.feast:5", "1e999"},
    {"bad_coord_huge.feast", "bad_coord_huge.feast:5", "vertex 2"},
    {"bad_extra_field.feast", "bad_extra_field.feast:3", "found 3"},
    {"bad_quad_short.feast", "bad_quad_short.feast:11", "found 3"},
    {"bad_trailing.feast", "bad_trailing.feast:20", "extra"},
    {"bad_long_line.feast", "bad_long_line.feast:3", "longer"},
    {"bad_no_parts.feast", "bad_no_parts.feast:12", "parts"},
    {"bad_part_type.feast", "bad_part_type.feast:13", "spline"},
    {"bad_circle_no_radius.feast", "bad_circle_no_radius.feast:13", "RADIUS"},
    {"bad_circle_radius.feast", "bad_circle_radius.feast:13", "-1"},
    {"bad_part_name.feast", "bad_part_name.feast:13", "bad!name"},
    /* native: geometry and topology (feast_mesh_finish) */
    {"bad_clockwise.feast", "bad_clockwise.feast:10", "clockwise"},
    {"bad_degenerate.feast", "bad_degenerate.feast:8", "degenerate"},
    {"bad_nonconvex.feast", "bad_nonconvex.feast:10", "convex"},
    {"bad_repeat_vertex.feast", "bad_repeat_vertex.feast:10", "repeats"},
    {"bad_edge_three_quads.feast", "bad_edge_three_quads.feast:14", "1-4"},
    {"bad_hanging_vertex.feast", "bad_hanging_vertex.feast:11", "hanging"},
    {"bad_crack.feast", "bad_crack.feast:5", "coincides"},
    {"bad_overlap.feast", "bad_overlap.feast:12", "overlaps"},
    {"bad_boundary_cross.feast", "bad_boundary_cross.feast:13", "crosses"},
    {"bad_unused_vertex.feast", "bad_unused_vertex.feast:9", "vertex 6"},
    {"bad_edge_no_part.feast", "bad_edge_no_part.feast:10", "no boundary part"},
    {"bad_part_interior_edge.feast", "bad_part_interior_edge.feast:20", "not a boundary edge"},
    {"bad_part_not_edge.feast", "bad_part_not_edge.feast:20", "0-4"},
    {"bad_part_degenerate_edge.feast", "bad_part_degenerate_edge.feast:20", "2-2"},
    {"bad_part_dup_name.feast", "bad_part_dup_name.feast:17", "side"},
    {"bad_part_two_parts.feast", "bad_part_two_parts.feast:21", "again"},
    {"bad_part_dup_edge.feast", "bad_part_dup_edge.feast:20", "twice"},
    {"bad_circle_off.feast", "bad_circle_off.feast:14", "radius 5"},
    /* Gmsh */
    {"bad_msh_empty.msh", "bad_msh_empty.msh:1", "$MeshFormat"},
    {"bad_msh_garbage.msh", "bad_msh_garbage.msh:1", "this"},
    {"bad_msh_binary.msh", "bad_msh_binary.msh:5", "0x00"},
    {"bad_msh_binary_flag.msh", "bad_msh_binary_flag.msh:2", "binary"},
    {"bad_msh_version.msh", "bad_msh_version.msh:2", "3.0"},
    {"bad_msh_truncated.msh", "bad_msh_truncated.msh:10", "6 nodes"},
    {"bad_msh_count_huge.msh", "bad_msh_count_huge.msh:10", "99999999999"},
    {"bad_msh_count_negative.msh", "bad_msh_count_negative.msh:19", "-8"},
    {"bad_msh_nan.msh", "bad_msh_nan.msh:13", "nan"},
    {"bad_msh_z.msh", "bad_msh_z.msh:13", "z = 1"},
    {"bad_msh_dup_node.msh", "bad_msh_dup_node.msh:13", "tag 2"},
    {"bad_msh_node_missing.msh", "bad_msh_node_missing.msh:27", "node 60"},
    {"bad_msh41_node_missing.msh", "bad_msh41_node_missing.msh:40", "node 60"},
    {"bad_msh_triangle.msh", "bad_msh_triangle.msh:27", "triangle"},
    {"bad_msh_second_order.msh", "bad_msh_second_order.msh:27", "9-node"},
    {"bad_msh_elem_fields.msh", "bad_msh_elem_fields.msh:26", "found 8"},
    {"bad_msh_unclosed.msh", "bad_msh_unclosed.msh:31", "$EndComments"},
    {"bad_msh_names_unquoted.msh", "bad_msh_names_unquoted.msh:6", "quoted"},
    {"bad_msh_name_invalid.msh", "bad_msh_name_invalid.msh:6", "inlet wall"},
    {"bad_msh_no_group.msh", "bad_msh_no_group.msh:26", "no boundary part"},
    {"bad_msh_missing_line.msh", "bad_msh_missing_line.msh:25", "no boundary part"},
    {"bad_msh_no_quads.msh", "bad_msh_no_quads.msh:", "quadrangles"},
    {"bad_msh41_block_count.msh", "bad_msh41_block_count.msh:16", "7"},
    {"bad_msh41_two_groups.msh", "bad_msh41_two_groups.msh:11", "2 physical groups"},
    {"bad_msh41_dim.msh", "bad_msh41_dim.msh:32", "dimension"},
};

static void test_bad(void) {
  int n = (int)(sizeof bad_cases / sizeof bad_cases[0]);
  for (int k = 0; k < n; k++) {
    char path[256];
    snprintf(path, sizeof path, DATA "%s", bad_cases[k].file);
    FeastMesh *m = (FeastMesh *)&m; /* must be reset to NULL */
    feast_error_clear();
    int st = feast_mesh_read(path, NULL, &m);
    const char *msg = feast_error_message();
    int ok = st == FEAST_ERR_MESH && m == NULL && strstr(msg, bad_cases[k].where) &&
             (!bad_cases[k].what || strstr(msg, bad_cases[k].what)) && !strchr(msg, '\n');
    feast_test_checks++;
    if (!ok) {
      feast_test_failures++;
      fprintf(stderr, "%s: status %d, message '%s' (want '%s' and '%s')\n", path, st, msg, bad_cases[k].where,
              bad_cases[k].what ? bad_cases[k].what : "");
    }
    if (st == 0) feast_mesh_destroy(&m);
  }
  printf("test_mesh: %d malformed meshes rejected with file:line\n", n);
  /* file errors: missing, a directory */
  FeastMesh *m = NULL;
  feast_error_clear();
  CHECK(feast_mesh_read(DATA "no_such_mesh.feast", NULL, &m) == FEAST_ERR_FILE && !m);
  CHECK(strstr(feast_error_message(), "no_such_mesh.feast") != NULL);
  feast_error_clear();
  CHECK(feast_mesh_read(DATA "no_such_mesh.msh", NULL, &m) == FEAST_ERR_FILE && !m);
  CHECK(strstr(feast_error_message(), "no_such_mesh.msh") != NULL);
  feast_error_clear();
  CHECK(feast_mesh_read("tests/data", NULL, &m) == FEAST_ERR_FILE && !m);
  CHECK(strstr(feast_error_message(), "tests/data") != NULL);
  feast_error_clear();
}

/* every prefix of a valid file is rejected cleanly or (the whole file) accepted */
static void test_truncations(const char *path) {
  FILE *f = fopen(path, "rb");
  CHECK(f != NULL);
  if (!f) return;
  static char text[1 << 16];
  size_t len = fread(text, 1, sizeof text, f);
  fclose(f);
  const char *ext = strstr(path, ".msh") ? ".msh" : ".feast";
  char tmp[128];
  snprintf(tmp, sizeof tmp, "/tmp/feast_test_mesh_%d%s", (int)getpid(), ext);
  int bad = 0;
  for (size_t cut = 0; cut < len; cut += 1 + cut / 64) {
    f = fopen(tmp, "wb");
    if (!f) break;
    fwrite(text, 1, cut, f);
    fclose(f);
    FeastMesh *m = NULL;
    feast_error_clear();
    int st = feast_mesh_read(tmp, NULL, &m);
    /* dropping only the last newline(s) keeps the file valid */
    int whole = strspn(text + cut, "\n") == len - cut;
    bad += whole ? st != 0 : !(st == FEAST_ERR_MESH && m == NULL && strstr(feast_error_message(), tmp));
    feast_mesh_destroy(&m);
  }
  remove(tmp);
  feast_error_clear();
  CHECK(bad == 0);
}

static int run(void) {
  test_grids();
  test_small();
  test_finish();
  test_config();
  test_bad();
  test_truncations("grids/unitsquare8.feast");
  test_truncations(DATA "good_square2_v22.msh");
  test_truncations(DATA "good_square2_v41.msh");
  return 0;
}

FEAST_TEST_MAIN(run)

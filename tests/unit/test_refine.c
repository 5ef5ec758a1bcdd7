/* Refinement: node counts and their limits, refined coordinates (shared nodes bitwise
 * identical, curved boundary nodes on the circle, uniform grids exact), global node ids
 * (a bijection onto [0, nodes), same id = same point) and positive Jacobians. */
#include "feast/base/error.h"
#include "feast/mesh/mesh.h"
#include "feast_test.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>

static double *coords(const FeastMesh *mesh, int m, int level) {
  int N = feast_level_n(level);
  double *xy = malloc(2 * sizeof(double) * N * N);
  CHECK_OK(feast_mesh_macro_coords(mesh, m, level, xy));
  return xy;
}

/* 4 trapezoids between the square [-1,1]^2 and a circular hole of radius 0.5 (90 degree
 * arcs); vertex ids mixed so that edges run both ways relative to their macros */
static FeastMesh *annulus_mesh(void) {
  FeastMesh *m = calloc(1, sizeof *m);
  const double s = 0.5 * sqrt(0.5);
  const double v[8][2] = {{1, -1}, {-s, s}, {1, 1}, {s, -s}, {-1, 1}, {s, s}, {-1, -1}, {-s, -s}};
  /* outer corners 0 (1,-1), 2 (1,1), 4 (-1,1), 6 (-1,-1); inner 3, 5, 1, 7 at 315..225 deg */
  const int q[4][4] = {{3, 0, 2, 5}, {5, 2, 4, 1}, {1, 4, 6, 7}, {7, 6, 0, 3}};
  m->nvertices = 8;
  m->xy = malloc(sizeof(double) * 16);
  memcpy(m->xy, v, sizeof v);
  m->nmacros = 4;
  m->quads = malloc(sizeof(int) * 16);
  memcpy(m->quads, q, sizeof q);
  m->nparts = 2;
  m->parts = calloc(2, sizeof *m->parts);
  strcpy(m->parts[0].name, "outer");
  m->parts[0].type = FEAST_PART_LINE;
  strcpy(m->parts[1].name, "hole");
  m->parts[1].type = FEAST_PART_CIRCLE;
  m->parts[1].radius = 0.5;
  const int outer[8] = {0, 2, 2, 4, 4, 6, 6, 0}, hole[8] = {3, 5, 5, 1, 1, 7, 7, 3};
  for (int p = 0; p < 2; p++) {
    m->parts[p].nedges = 4;
    m->parts[p].edges = malloc(sizeof(int) * 8);
    memcpy(m->parts[p].edges, p ? hole : outer, sizeof outer);
  }
  strcpy(m->source, "annulus (built in test_refine)");
  return m;
}

/* every node of every macro by gid: the ids cover [0, nodes) exactly, and all copies of
 * a node have bitwise identical coordinates */
static void check_gids(const FeastMesh *mesh, int level) {
  int64_t nodes;
  CHECK_OK(feast_mesh_count_nodes(mesh, level, &nodes));
  const int N = feast_level_n(level);
  double *seen = malloc(2 * sizeof(double) * nodes);
  int *hits = calloc((size_t)nodes, sizeof(int));
  int bad_range = 0, bad_point = 0, bad_local = 0;
  for (int m = 0; m < mesh->nmacros; m++) {
    double *xy = coords(mesh, m, level);
    int64_t *mine = malloc(sizeof(int64_t) * N * N);
    for (int j = 0; j < N; j++)
      for (int i = 0; i < N; i++) {
        int64_t g = feast_mesh_node_gid(mesh, level, m, i, j);
        mine[j * N + i] = g;
        if (g < 0 || g >= nodes) {
          bad_range++;
          continue;
        }
        if (hits[g]++) bad_point += memcmp(&seen[2 * g], &xy[2 * (j * N + i)], 2 * sizeof(double)) != 0;
        else memcpy(&seen[2 * g], &xy[2 * (j * N + i)], 2 * sizeof(double));
      }
    for (int a = 0; a < N * N; a++) /* distinct within a macro */
      for (int b = a + 1; b < N * N && N <= 17; b++) bad_local += mine[a] == mine[b];
    free(mine);
    free(xy);
  }
  int missing = 0;
  for (int64_t g = 0; g < nodes; g++) missing += hits[g] == 0;
  CHECK(bad_range == 0);
  CHECK(bad_point == 0);
  CHECK(bad_local == 0);
  CHECK(missing == 0);
  free(seen);
  free(hits);
}

/* along every interior edge the two macros hold bitwise identical points, found through
 * the local edge numbering (feast_edge_node convention) */
static int local_edge(const FeastMesh *mesh, int m, int e) {
  for (int k = 0; k < 4; k++)
    if (mesh->macro_edges[4 * m + k] == e) return k;
  return -1;
}

static long edge_node(int k, int p, int N) {
  switch (k) {
  case 0: return p;
  case 1: return (long)p * N + (N - 1);
  case 2: return (long)(N - 1) * N + (N - 1 - p);
  default: return (long)(N - 1 - p) * N;
  }
}

static void check_shared_edges(const FeastMesh *mesh, int level) {
  const int N = feast_level_n(level);
  int shared = 0, differ = 0;
  for (int e = 0; e < mesh->nedges; e++) {
    int m0 = mesh->edge_macros[2 * e], m1 = mesh->edge_macros[2 * e + 1];
    if (m1 < 0) continue;
    double *a = coords(mesh, m0, level), *b = coords(mesh, m1, level);
    int k0 = local_edge(mesh, m0, e), k1 = local_edge(mesh, m1, e);
    int al0 = mesh->quads[4 * m0 + k0] == mesh->edge_vertices[2 * e];
    int al1 = mesh->quads[4 * m1 + k1] == mesh->edge_vertices[2 * e];
    for (int q = 0; q < N; q++) {
      long n0 = edge_node(k0, al0 ? q : N - 1 - q, N), n1 = edge_node(k1, al1 ? q : N - 1 - q, N);
      differ += memcmp(&a[2 * n0], &b[2 * n1], 2 * sizeof(double)) != 0;
      shared++;
    }
    free(a);
    free(b);
  }
  CHECK(shared > 0);
  CHECK(differ == 0);
}

/* max | |x - c| - R | over the nodes of the edges of a circle part */
static double circle_deviation(const FeastMesh *mesh, int part, int level) {
  const FeastBoundaryPart *P = &mesh->parts[part];
  const int N = feast_level_n(level);
  double worst = 0.0;
  int edges = 0;
  for (int e = 0; e < mesh->nedges; e++) {
    if (mesh->edge_part[e] != part) continue;
    int m = mesh->edge_macros[2 * e], k = local_edge(mesh, m, e);
    double *xy = coords(mesh, m, level);
    for (int p = 0; p < N; p++) {
      long n = edge_node(k, p, N);
      double r = hypot(xy[2 * n] - P->center[0], xy[2 * n + 1] - P->center[1]);
      worst = fmax(worst, fabs(r - P->radius));
    }
    free(xy);
    edges++;
  }
  CHECK(edges == P->nedges);
  return worst;
}

static void test_annulus(void) {
  FeastMesh *mesh = annulus_mesh();
  CHECK_OK(feast_mesh_finish(mesh));
  CHECK(mesh->nedges == 12);
  for (int L = 0; L <= 5; L++) {
    int64_t nodes, n = feast_level_n(L) - 2;
    CHECK_OK(feast_mesh_count_nodes(mesh, L, &nodes));
    CHECK(nodes == 8 + 12 * n + 4 * n * n);
    check_gids(mesh, L);
    check_shared_edges(mesh, L);
    CHECK(circle_deviation(mesh, 1, L) < 1e-15);
    double mj;
    CHECK_OK(feast_mesh_min_jacobian(mesh, L, &mj));
    CHECK(mj > 0);
  }
  /* corners are the coarse vertices, bitwise; an arc node at its angle */
  const int L = 2, N = feast_level_n(L);
  double *xy = coords(mesh, 0, L); /* corners 3 (315 deg), 0, 2, 5 (45 deg) */
  CHECK(memcmp(&xy[0], &mesh->xy[2 * 3], 2 * sizeof(double)) == 0);
  CHECK(memcmp(&xy[2 * (N - 1)], &mesh->xy[0], 2 * sizeof(double)) == 0);
  CHECK(memcmp(&xy[2 * (N * N - 1)], &mesh->xy[2 * 2], 2 * sizeof(double)) == 0);
  CHECK(memcmp(&xy[2 * (N - 1) * N], &mesh->xy[2 * 5], 2 * sizeof(double)) == 0);
  /* local edge 3 runs from vertex 5 (45 deg) to vertex 3 (-45 deg): its midpoint is (0.5, 0) */
  long mid = edge_node(3, N / 2, N);
  CHECK(fabs(xy[2 * mid] - 0.5) < 1e-15 && fabs(xy[2 * mid + 1]) < 1e-15);
  /* the quarter point at 22.5 deg: node (0, 3) at level 2 */
  CHECK(fabs(xy[2 * (3 * N)] - 0.5 * cos(M_PI / 8)) < 1e-15);
  CHECK(fabs(xy[2 * (3 * N) + 1] - 0.5 * sin(M_PI / 8)) < 1e-15);
  free(xy);
  feast_mesh_destroy(&mesh);
  CHECK(mesh == NULL);
}

/* one straight, non-parallelogram macro: the Coons patch of straight edges is the
 * bilinear map of the corners */
static void test_bilinear_macro(void) {
  FeastMesh *mesh = calloc(1, sizeof *mesh);
  const double v[4][2] = {{0, 0}, {2, 0.2}, {1.7, 1.5}, {0.3, 1.1}};
  mesh->nvertices = 4;
  mesh->xy = malloc(sizeof v);
  memcpy(mesh->xy, v, sizeof v);
  mesh->nmacros = 1;
  mesh->quads = malloc(4 * sizeof(int));
  for (int k = 0; k < 4; k++) mesh->quads[k] = k;
  mesh->nparts = 1;
  mesh->parts = calloc(1, sizeof *mesh->parts);
  strcpy(mesh->parts[0].name, "boundary");
  mesh->parts[0].nedges = 4;
  mesh->parts[0].edges = malloc(8 * sizeof(int));
  const int e[8] = {0, 1, 1, 2, 2, 3, 3, 0};
  memcpy(mesh->parts[0].edges, e, sizeof e);
  CHECK_OK(feast_mesh_finish(mesh));
  const int L = 4, N = feast_level_n(L);
  double *xy = coords(mesh, 0, L), worst = 0.0;
  for (int j = 0; j < N; j++)
    for (int i = 0; i < N; i++) {
      double s = (double)i / (N - 1), t = (double)j / (N - 1);
      for (int d = 0; d < 2; d++) {
        double want = (1 - s) * (1 - t) * v[0][d] + s * (1 - t) * v[1][d] + s * t * v[2][d] + (1 - s) * t * v[3][d];
        worst = fmax(worst, fabs(xy[2 * (j * N + i) + d] - want));
      }
    }
  CHECK(worst < 1e-15);
  /* min det J at cell corners on [0,1]^2: compare with a direct evaluation */
  double mj, direct = INFINITY;
  CHECK_OK(feast_mesh_min_jacobian(mesh, L, &mj));
  for (int j = 0; j + 1 < N; j++)
    for (int i = 0; i + 1 < N; i++) {
      const double *P[4] = {&xy[2 * (j * N + i)], &xy[2 * (j * N + i + 1)], &xy[2 * ((j + 1) * N + i + 1)],
                            &xy[2 * ((j + 1) * N + i)]};
      for (int k = 0; k < 4; k++) {
        const double *c = P[k], *n = P[(k + 1) % 4], *p = P[(k + 3) % 4];
        direct = fmin(direct, (n[0] - c[0]) * (p[1] - c[1]) - (n[1] - c[1]) * (p[0] - c[0]));
      }
    }
  CHECK(mj == direct && mj > 0);
  /* bad arguments */
  CHECK(feast_mesh_macro_coords(mesh, 1, L, xy) == FEAST_ERR_ARG);
  feast_error_clear();
  CHECK(feast_mesh_macro_coords(mesh, -1, L, xy) == FEAST_ERR_ARG);
  feast_error_clear();
  CHECK(feast_mesh_macro_coords(mesh, 0, FEAST_MAX_LEVEL + 1, xy) == FEAST_ERR_LIMIT);
  feast_error_clear();
  CHECK(feast_mesh_min_jacobian(mesh, -1, &mj) == FEAST_ERR_LIMIT);
  feast_error_clear();
  CHECK(feast_mesh_node_gid(mesh, L, 0, N, 0) == -1);
  CHECK(feast_mesh_node_gid(mesh, L, 0, 0, -1) == -1);
  CHECK(feast_mesh_node_gid(mesh, L, 1, 0, 0) == -1);
  CHECK(feast_mesh_node_gid(mesh, 40, 0, 0, 0) == -1);
  free(xy);
  feast_mesh_destroy(&mesh);
}

static void test_count_limits(void) {
  FeastMesh big;
  memset(&big, 0, sizeof big);
  strcpy(big.source, "big");
  big.nvertices = big.nedges = big.nmacros = INT_MAX;
  int64_t nodes;
  CHECK_OK(feast_mesh_count_nodes(&big, 0, &nodes));
  CHECK(nodes == INT_MAX);
  CHECK_OK(feast_mesh_count_nodes(&big, FEAST_MAX_LEVEL, &nodes)); /* fits in 64 bits */
  CHECK(nodes > 0);
  const int absurd[] = {FEAST_MAX_LEVEL + 1, 31, 32, 63, 64, 1000, INT_MAX, -1, INT_MIN};
  for (size_t k = 0; k < sizeof absurd / sizeof *absurd; k++) {
    CHECK(feast_mesh_count_nodes(&big, absurd[k], &nodes) == FEAST_ERR_LIMIT);
    char want[32];
    snprintf(want, sizeof want, "level %d", absurd[k]);
    CHECK(strstr(feast_error_message(), want) != NULL);
    feast_error_clear();
  }
}

static FeastMesh *read_grid(const char *path) {
  FeastMesh *mesh = NULL;
  CHECK_OK(feast_mesh_read(path, NULL, &mesh));
  if (!mesh) feast_error_clear();
  return mesh;
}

static void test_unitsquare(void) {
  FeastMesh *mesh = read_grid("grids/unitsquare8.feast");
  if (!mesh) return;
  int64_t nodes;
  CHECK_OK(feast_mesh_count_nodes(mesh, 7, &nodes));
  CHECK(nodes == 131841);
  CHECK(feast_mesh_count_nodes(mesh, 17, &nodes) == FEAST_ERR_LIMIT);
  feast_error_clear();
  for (int L = 0; L <= 3; L++) {
    check_gids(mesh, L);
    check_shared_edges(mesh, L);
  }
  /* rectangular macros: x = P0 + s (P1 - P0) + t (P3 - P0), the uniform grid */
  const int L = 7, N = feast_level_n(L);
  double worst = 0.0;
  for (int m = 0; m < mesh->nmacros; m++) {
    double *xy = coords(mesh, m, L);
    const double *P0 = &mesh->xy[2 * mesh->quads[4 * m]], *P1 = &mesh->xy[2 * mesh->quads[4 * m + 1]];
    const double *P3 = &mesh->xy[2 * mesh->quads[4 * m + 3]];
    for (int j = 0; j < N; j++)
      for (int i = 0; i < N; i++)
        for (int d = 0; d < 2; d++) {
          double want = P0[d] + (double)i / (N - 1) * (P1[d] - P0[d]) + (double)j / (N - 1) * (P3[d] - P0[d]);
          worst = fmax(worst, fabs(xy[2 * (j * N + i) + d] - want));
        }
    free(xy);
  }
  /* the global grid of 4 x 2 macros: x = I / (4 2^L), y = J / (2 2^L) */
  const double nx = 4.0 * (N - 1), ny = 2.0 * (N - 1);
  for (int m = 0; m < mesh->nmacros; m++) {
    double *xy = coords(mesh, m, L);
    for (int n = 0; n < N * N; n++) {
      worst = fmax(worst, fabs(xy[2 * n] - round(xy[2 * n] * nx) / nx));
      worst = fmax(worst, fabs(xy[2 * n + 1] - round(xy[2 * n + 1] * ny) / ny));
    }
    free(xy);
  }
  printf("  unitsquare8 L=7: max deviation from the uniform grid %.3g\n", worst);
  CHECK(worst <= 1e-15);
  double mj;
  CHECK_OK(feast_mesh_min_jacobian(mesh, L, &mj));
  CHECK(mj > 0);
  feast_mesh_destroy(&mesh);
}

static void test_dfg(void) {
  FeastMesh *mesh = read_grid("grids/dfg24.feast");
  if (!mesh) return;
  int64_t nodes;
  CHECK_OK(feast_mesh_count_nodes(mesh, 9, &nodes));
  CHECK(nodes == 6297088);
  for (int L = 0; L <= 3; L++) {
    check_gids(mesh, L);
    check_shared_edges(mesh, L);
  }
  int cyl = feast_mesh_part_index(mesh, "cylinder");
  CHECK(cyl >= 0);
  if (cyl >= 0) {
    CHECK(mesh->parts[cyl].type == FEAST_PART_CIRCLE);
    CHECK(fabs(mesh->parts[cyl].radius - 0.05) < 1e-15);
    for (int L = 1; L <= 6; L++) {
      double dev = circle_deviation(mesh, cyl, L);
      CHECK(dev < 1e-12);
      if (L == 6) printf("  dfg24: max | |x - c| - 0.05 | on the cylinder, L=1..6: %.3g\n", dev);
    }
  }
  for (int L = 0; L <= 8; L++) {
    double mj;
    CHECK_OK(feast_mesh_min_jacobian(mesh, L, &mj));
    printf("  dfg24 L=%d: min det J = %.6e (x 4^L = %.6e)\n", L, mj, mj * (double)(1 << (2 * L)));
    CHECK(mj > 0);
  }
  feast_mesh_destroy(&mesh);
}

static int run(void) {
  test_count_limits();
  test_bilinear_macro();
  test_annulus();
  test_unitsquare();
  test_dfg();
  return 0;
}

FEAST_TEST_MAIN(run)

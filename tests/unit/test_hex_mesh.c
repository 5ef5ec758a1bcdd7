/* Meshes of hexahedral macros (feast/mesh/hex_*.c, the native format's 3D variant; issue
 * #47):
 *  - two boxes side by side: the counts of vertices, edges, faces, the shared face and
 *    the edges' macros, the parts;
 *  - the refined macros of a 2 x 2 x 2 cube and of a distorted 3 x 2 x 2 box: every node
 *    that several macros hold has bitwise the same coordinates on each (keyed by its
 *    global id), the global ids are exactly 0 .. count - 1, the cube's nodes are the
 *    lattice, the distorted box's the trilinear map of each macro (straight edges);
 *  - an annulus with two cylinder parts: refined boundary nodes on their cylinders, the
 *    volume of the refined cells converging to pi (1 - 1/4) with order 2;
 *  - the fingerprint: the same for the same mesh, another for one vertex moved;
 *  - malformed meshes: one error each naming file:line and the fault, nothing returned. */
#include "feast/base/error.h"
#include "feast/fem/q1_hex.h"
#include "feast/mesh/hex.h"
#include "feast_test.h"
#include <stdlib.h>
#include <string.h>

#define DATA "tests/data/mesh/"

static FeastMesh *read_mesh(const char *path) {
  FeastMesh *m = NULL;
  CHECK_OK(feast_mesh_read(path, NULL, &m));
  return m;
}

static void test_two_boxes(void) {
  FeastMesh *m = read_mesh(DATA "good_hex2.feast");
  if (!m) return;
  CHECK(m->dim == 3 && feast_mesh_cell(m) == &feast_macro_hex);
  CHECK(m->nvertices == 12 && m->nmacros == 2 && m->nfaces == 11 && m->nedges == 20 && m->nparts == 1);
  int boundary = 0, shared = -1;
  for (int f = 0; f < m->nfaces; f++) {
    if (m->face_macros[2 * f + 1] < 0) {
      boundary++;
      CHECK(m->face_part[f] == 0);
    } else {
      shared = f;
      CHECK(m->face_part[f] == -1);
    }
  }
  CHECK(boundary == 10 && shared >= 0);
  if (shared >= 0) { /* vertices 1 4 10 7, canonical: from 1 towards its smaller neighbour 4 */
    const int *c = m->face_vertices + 4 * shared;
    CHECK(c[0] == 1 && c[1] == 4 && c[2] == 10 && c[3] == 7);
    CHECK(m->face_macros[2 * shared] == 0 && m->face_macros[2 * shared + 1] == 1);
    CHECK(m->macro_faces[6 * 0 + 1] == shared && m->macro_faces[6 * 1 + 0] == shared); /* x = 1 of 0, x = 0 of 1 */
  }
  int two = 0;
  for (int e = 0; e < m->nedges; e++) {
    const int n = m->edge_macro_ptr[e + 1] - m->edge_macro_ptr[e];
    CHECK(n == 1 || n == 2);
    if (n == 2) {
      two++;
      CHECK(m->edge_macro_ids[m->edge_macro_ptr[e]] == 0 && m->edge_macro_ids[m->edge_macro_ptr[e] + 1] == 1);
    }
    CHECK(m->edge_part[e] == 0); /* every edge of two boxes lies on the boundary */
  }
  CHECK(two == 4);
  int64_t nodes;
  CHECK_OK(feast_mesh_count_nodes(m, 2, &nodes));
  CHECK(nodes == 9 * 5 * 5);
  feast_mesh_destroy(&m);
}

/* every macro's nodes at level L: ids 0..count-1, each hit, the same coordinates (bits)
 * on every macro holding it; *xyz_out the macros' coordinates (3 N^3 each) */
static void check_shared_nodes(const FeastMesh *m, int L, double **xyz_out) {
  const int N = feast_level_n(L);
  const long n = (long)N * N * N;
  int64_t count;
  CHECK_OK(feast_mesh_count_nodes(m, L, &count));
  double *xyz = malloc(sizeof(double) * 3 * n * m->nmacros), *at = malloc(sizeof(double) * 3 * count);
  unsigned char *seen = calloc((size_t)count, 1);
  int bad_id = 0, differs = 0;
  for (int c = 0; c < m->nmacros; c++) {
    double *x = xyz + 3 * n * c;
    CHECK_OK(feast_mesh_macro_coords(m, c, L, x));
    for (long r = 0; r < n; r++) {
      const int64_t g = feast_hex_mesh_node_gid(m, N, c, r);
      if (g < 0 || g >= count) {
        bad_id++;
        continue;
      }
      if (seen[g]) differs += memcmp(at + 3 * g, x + 3 * r, 3 * sizeof(double)) != 0;
      else memcpy(at + 3 * g, x + 3 * r, 3 * sizeof(double)), seen[g] = 1;
    }
  }
  long hit = 0;
  for (int64_t g = 0; g < count; g++) hit += seen[g];
  CHECK(bad_id == 0 && differs == 0 && hit == count);
  if (bad_id || differs || hit != count)
    fprintf(stderr, "%s L%d: %d ids out of range, %d shared nodes differ, %ld of %lld ids hit\n", m->source, L, bad_id,
            differs, hit, (long long)count);
  free(at), free(seen);
  *xyz_out = xyz;
}

static void test_refined_cube(void) {
  FeastMesh *m = read_mesh("grids/cube2x2x2.feast");
  if (!m) return;
  for (int L = 1; L <= 3; L++) {
    const int N = feast_level_n(L);
    double *xyz, err = 0.0;
    check_shared_nodes(m, L, &xyz);
    for (int c = 0; c < m->nmacros; c++) /* macro (a, b, d) of the 2 x 2 x 2 lattice */
      for (long r = 0; r < (long)N * N * N; r++) {
        const long ijk[3] = {r % N + (c % 2) * (N - 1), r / N % N + (c / 2 % 2) * (N - 1), r / ((long)N * N) + (c / 4) * (N - 1)};
        for (int d = 0; d < 3; d++) err = fmax(err, fabs(xyz[3 * ((long)N * N * N * c + r) + d] - ijk[d] / (2.0 * (N - 1))));
      }
    CHECK(err < 1e-15);
    free(xyz);
  }
  feast_mesh_destroy(&m);
}

static void test_refined_distorted(void) {
  FeastMesh *m = read_mesh("grids/box3x2x2_distorted.feast");
  if (!m) return;
  const int L = 3, N = feast_level_n(L);
  const long n = (long)N * N * N;
  double *xyz, *tri = malloc(sizeof(double) * 3 * n), err = 0.0;
  check_shared_nodes(m, L, &xyz);
  for (int c = 0; c < m->nmacros; c++) {
    double corner[8][3];
    for (int k = 0; k < 8; k++)
      for (int d = 0; d < 3; d++) corner[k][d] = m->xy[3 * m->quads[8 * c + k] + d];
    feast_hex_macro_coords(N, corner, tri);
    for (long r = 0; r < 3 * n; r++) err = fmax(err, fabs(xyz[3 * n * c + r] - tri[r]));
  }
  CHECK(err < 1e-14);
  free(xyz), free(tri);
  feast_mesh_destroy(&m);
}

/* the volume of the refined cells (the lumped mass summed) at level L */
static double refined_volume(const FeastMesh *m, int L, double *radius_err) {
  const int N = feast_level_n(L);
  const long n = (long)N * N * N;
  double *xyz, vol = 0.0;
  check_shared_nodes(m, L, &xyz);
  double *lm = malloc(sizeof(double) * n);
  *radius_err = 0.0;
  for (int c = 0; c < m->nmacros; c++) {
    const double *x = xyz + 3 * n * c;
    memset(lm, 0, sizeof(double) * n); /* the lumped mass adds to lm */
    CHECK_OK(feast_q1_hex_lumped_mass(N, x, c, lm));
    for (long r = 0; r < n; r++) vol += lm[r];
    /* the macro's faces on the cylinders: local face x = 0 (radius 0.5) and x = 1 (1) */
    for (long r = 0; r < n; r++) {
      const long i = r % N;
      if (i != 0 && i != N - 1) continue;
      const double R = i == 0 ? 0.5 : 1.0, rad = hypot(x[3 * r], x[3 * r + 1]);
      *radius_err = fmax(*radius_err, fabs(rad - R));
    }
  }
  free(xyz), free(lm);
  return vol;
}

static void test_cylinders(void) {
  FeastMesh *m = read_mesh(DATA "good_annulus3d.feast");
  if (!m) return;
  CHECK(m->parts[0].type == FEAST_PART_CYLINDER && fabs(m->parts[0].axis[2] - 1.0) < 1e-15); /* normalised */
  const double exact = M_PI * 0.75;
  double e[4], rerr;
  for (int L = 1; L <= 3; L++) {
    e[L] = fabs(refined_volume(m, L, &rerr) - exact) / exact;
    CHECK(rerr < 1e-14);
  }
  printf("test_hex_mesh: annulus volume relative errors L1-3 %.3e %.3e %.3e, orders %.2f %.2f\n", e[1], e[2], e[3],
         log2(e[1] / e[2]), log2(e[2] / e[3]));
  CHECK(e[3] < 2e-3 && log2(e[2] / e[3]) > 1.9 && log2(e[1] / e[2]) > 1.9);
  feast_mesh_destroy(&m);
}

static void test_fingerprint(void) {
  FeastMesh *a = read_mesh("grids/box3x2x2_distorted.feast"), *b = read_mesh("grids/box3x2x2_distorted.feast");
  if (!a || !b) return;
  CHECK(feast_mesh_fingerprint(a) == feast_mesh_fingerprint(b));
  b->xy[3 * 20 + 2] += 1e-12;
  CHECK(feast_mesh_fingerprint(a) != feast_mesh_fingerprint(b));
  feast_mesh_destroy(&a), feast_mesh_destroy(&b);
}

typedef struct {
  const char *file, *where, *what;
} Bad;

static const Bad bad_cases[] = {
    {"bad_hex_dimension.feast", "bad_hex_dimension.feast:3", "4"},
    {"bad_hex_vertex_2d.feast", "bad_hex_vertex_2d.feast:7", "found 2"},
    {"bad_hex_short.feast", "bad_hex_short.feast:19", "found 4"},
    {"bad_hex_part_type.feast", "bad_hex_part_type.feast:21", "'line' of a 3D mesh"},
    {"bad_hex_inverted.feast", "bad_hex_inverted.feast:18", "inverted"},
    {"bad_hex_repeat_vertex.feast", "bad_hex_repeat_vertex.feast:19", "repeats vertex"},
    {"bad_hex_nonconvex.feast", "bad_hex_nonconvex.feast:18", "not convex"},
    {"bad_hex_overlap.feast", "bad_hex_overlap.feast:19", "overlaps"},
    {"bad_hex_hanging_vertex.feast", "bad_hex_hanging_vertex.feast:", "hanging"},
    {"bad_hex_crack.feast", "bad_hex_crack.feast:", "coincides"},
    {"bad_hex_edge_touch.feast", "bad_hex_edge_touch.feast:", "touch along an edge"},
    {"bad_hex_face_no_part.feast", "bad_hex_face_no_part.feast:", "no boundary part"},
    {"bad_hex_part_interior_face.feast", "bad_hex_part_interior_face.feast:32", "not a boundary face"},
    {"bad_hex_part_not_face.feast", "bad_hex_part_not_face.feast:32", "not a face"},
    {"bad_hex_part_dup_face.feast", "bad_hex_part_dup_face.feast:32", "twice"},
    {"bad_hex_cylinder_off.feast", "bad_hex_cylinder_off.feast:", "not on the radius 1"},
};

static void test_bad(void) {
  const int n = (int)(sizeof bad_cases / sizeof bad_cases[0]);
  for (int k = 0; k < n; k++) {
    char path[256];
    snprintf(path, sizeof path, DATA "%s", bad_cases[k].file);
    FeastMesh *m = (FeastMesh *)&m; /* must be reset to NULL */
    feast_error_clear();
    const int st = feast_mesh_read(path, NULL, &m);
    const char *msg = feast_error_message();
    const int ok = st == FEAST_ERR_MESH && m == NULL && strstr(msg, bad_cases[k].where) && strstr(msg, bad_cases[k].what) &&
                   !strchr(msg, '\n');
    feast_test_checks++;
    if (!ok) {
      feast_test_failures++;
      fprintf(stderr, "%s: status %d, message '%s' (want '%s' and '%s')\n", path, st, msg, bad_cases[k].where,
              bad_cases[k].what);
    }
    if (st == 0) feast_mesh_destroy(&m);
  }
  feast_error_clear();
  printf("test_hex_mesh: %d malformed meshes rejected with file:line\n", n);
}

static int run(void) {
  test_two_boxes();
  test_refined_cube();
  test_refined_distorted();
  test_cylinders();
  test_fingerprint();
  test_bad();
  return 0;
}

FEAST_TEST_MAIN(run)

/* Partition: contiguous split sizes, METIS validity and determinism, input errors. */
#include "feast/base/error.h"
#include "feast/mesh/partition.h"
#include "feast_test.h"
#include <stdlib.h>
#include <string.h>

/* nx x ny unit-square macros with just the topology the partitioner reads */
static FeastMesh grid_mesh(int nx, int ny) {
  FeastMesh m;
  memset(&m, 0, sizeof m);
  m.nmacros = nx * ny;
  m.nvertices = (nx + 1) * (ny + 1);
  m.xy = calloc(2 * (size_t)m.nvertices, sizeof(double));
  m.quads = calloc(4 * (size_t)m.nmacros, sizeof(int));
  m.nedges = nx * (ny + 1) + ny * (nx + 1);
  m.edge_macros = malloc(2 * (size_t)m.nedges * sizeof(int));
  for (int j = 0; j <= ny; j++)
    for (int i = 0; i <= nx; i++) {
      m.xy[2 * (j * (nx + 1) + i)] = i;
      m.xy[2 * (j * (nx + 1) + i) + 1] = j;
    }
  int e = 0;
  for (int j = 0; j <= ny; j++) /* horizontal edges: macros below and above */
    for (int i = 0; i < nx; i++, e++) {
      int below = j > 0 ? (j - 1) * nx + i : -1, above = j < ny ? j * nx + i : -1;
      m.edge_macros[2 * e] = below >= 0 ? below : above;
      m.edge_macros[2 * e + 1] = below >= 0 ? above : -1;
    }
  for (int j = 0; j < ny; j++) /* vertical edges: macros left and right */
    for (int i = 0; i <= nx; i++, e++) {
      int left = i > 0 ? j * nx + i - 1 : -1, right = i < nx ? j * nx + i : -1;
      m.edge_macros[2 * e] = left >= 0 ? left : right;
      m.edge_macros[2 * e + 1] = left >= 0 ? right : -1;
    }
  return m;
}

static void free_mesh(FeastMesh *m) {
  free(m->xy);
  free(m->quads);
  free(m->edge_macros);
}

static void test_contiguous(void) {
  int owner[10];
  CHECK_OK(feast_partition_contiguous(10, 3, owner));
  int count[3] = {0, 0, 0};
  for (int m = 0; m < 10; m++) count[owner[m]]++;
  CHECK(count[0] == 3 && count[1] == 3 && count[2] == 4);
  for (int m = 1; m < 10; m++) CHECK(owner[m] >= owner[m - 1]);

  FeastMesh mesh = grid_mesh(5, 1);
  CHECK_OK(feast_partition_macros(&mesh, 2, owner));
  CHECK(owner[0] == 0 && owner[1] == 0 && owner[2] == 1 && owner[3] == 1 && owner[4] == 1);
  CHECK_OK(feast_partition_macros(&mesh, 1, owner));
  for (int m = 0; m < 5; m++) CHECK(owner[m] == 0);
  free_mesh(&mesh);
}

static void check_metis(FeastMesh *mesh, int nparts) {
  int owner[16], again[16], count[16] = {0};
  CHECK_OK(feast_partition_macros(mesh, nparts, owner));
  CHECK_OK(feast_partition_macros(mesh, nparts, again));
  for (int m = 0; m < mesh->nmacros; m++) {
    CHECK(owner[m] >= 0 && owner[m] < nparts);
    CHECK(owner[m] == again[m]);
    if (owner[m] >= 0 && owner[m] < nparts) count[owner[m]]++;
  }
  for (int r = 0; r < nparts; r++) CHECK(count[r] > 0);
  /* balanced: 16 macros over nparts ranks, METIS's default 3% imbalance rounds up */
  for (int r = 0; r < nparts; r++) CHECK(count[r] <= 16 / nparts + 2);

  int nlocal = 0, *ids = NULL, total = 0;
  for (int r = 0; r < nparts; r++) {
    CHECK_OK(feast_partition_local(owner, mesh->nmacros, r, &nlocal, &ids));
    CHECK(nlocal == count[r]);
    for (int k = 0; k < nlocal; k++) CHECK(owner[ids[k]] == r && (k == 0 || ids[k] > ids[k - 1]));
    total += nlocal;
    feast_free(&ids);
  }
  CHECK(total == mesh->nmacros);
}

static void test_errors(void) {
  FeastMesh mesh = grid_mesh(2, 2);
  int owner[4];
  CHECK(feast_partition_macros(&mesh, 5, owner) == FEAST_ERR_CONFIG);
  CHECK(strstr(feast_error_message(), "cannot run on 5 MPI ranks") != NULL);
  CHECK(strstr(feast_error_message(), "only 4 macros (use at most 4 ranks)") != NULL);
  feast_error_clear();
  CHECK_FAILS(feast_partition_macros(&mesh, 0, owner));
  CHECK_FAILS(feast_partition_macros(NULL, 2, owner));
  /* exactly one macro per rank is allowed */
  CHECK_OK(feast_partition_macros(&mesh, 4, owner));
  int seen[4] = {0};
  for (int m = 0; m < 4; m++) seen[owner[m]]++;
  CHECK(seen[0] == 1 && seen[1] == 1 && seen[2] == 1 && seen[3] == 1);
  free_mesh(&mesh);

  int nlocal = -1, *ids = (int *)&nlocal;
  CHECK_OK(feast_partition_local(owner, 4, 7, &nlocal, &ids));
  CHECK(nlocal == 0 && ids == NULL);
}

static int run(void) {
  test_contiguous();
  FeastMesh mesh = grid_mesh(4, 4);
  check_metis(&mesh, 4);
  check_metis(&mesh, 3);
  check_metis(&mesh, 16);
  free_mesh(&mesh);
  FeastMesh strip = grid_mesh(16, 1);
  check_metis(&strip, 9); /* k-way path */
  free_mesh(&strip);
  /* a graph without edges (separate macros) must still give a valid partition */
  FeastMesh apart = grid_mesh(3, 1);
  for (int e = 0; e < apart.nedges; e++) apart.edge_macros[2 * e + 1] = -1;
  int owner[3] = {-1, -1, -1};
  CHECK_OK(feast_partition_macros(&apart, 3, owner));
  CHECK(owner[0] + owner[1] + owner[2] == 3 && owner[0] != owner[1] && owner[1] != owner[2]);
  free_mesh(&apart);
  test_errors();
  return 0;
}

FEAST_TEST_MAIN(run)

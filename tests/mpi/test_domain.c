/* Distributed data on unitsquare8 and dfg24: interface sums, ownership, global ids,
 * reductions; the same answers on every number of ranks. */
#include "feast/parallel/domain.h"
#include "feast/base/error.h"
#include "feast/la/mask.h"
#include "feast/mesh/mesh.h"
#include "feast/la/vector.h"
#include "feast_test.h"
#include <stdlib.h>

/* feast_vec_dots of k pairs gives each feast_vec_dot bitwise (its four-at-a-time kernel
 * sums in the same order), feast_vec_maxpy the sequence of feast_vec_axpy calls bitwise */
static void check_batched(const FeastDomain *dom, int level) {
  enum { K = 7 };
  FeastVec *x[K] = {NULL}, *y = NULL, *z = NULL;
  for (int j = 0; j < K; j++) {
    CHECK_OK(feast_vec_create(dom, level, 2, &x[j]));
    feast_vec_fill_hash(x[j]);
    for (int a = 0; a < x[j]->nb * x[j]->nlocal; a++)
      for (long i = 0; i < (long)x[j]->N * x[j]->N; i++) {
        const double h = x[j]->host[a][i];
        x[j]->host[a][i] = h * (j + 1) + 0.37 * j * h * h; /* a function of consistent values: consistent */
      }
  }
  CHECK_OK(feast_vec_create(dom, level, 2, &y));
  CHECK_OK(feast_vec_create(dom, level, 2, &z));
  feast_vec_fill_hash(y);
  const FeastVec *ys[K];
  for (int j = 0; j < K; j++) ys[j] = y;
  double batched[K], a[K];
  CHECK_OK(feast_vec_dots(K, (const FeastVec *const *)x, ys, batched));
  int bad = 0;
  for (int j = 0; j < K; j++) {
    double one;
    CHECK_OK(feast_vec_dot(x[j], y, &one));
    bad += one != batched[j];
    a[j] = 0.3 - 0.11 * j;
  }
  CHECK(bad == 0);
  feast_vec_copy(y, z);
  for (int j = 0; j < K; j++) feast_vec_axpy(a[j], x[j], z);
  feast_vec_maxpy(K, a, (const FeastVec *const *)x, y);
  bad = 0;
  for (int b = 0; b < y->nb * y->nlocal; b++)
    for (long i = 0; i < (long)y->N * y->N; i++) bad += y->host[b][i] != z->host[b][i];
  CHECK(bad == 0);
  for (int j = 0; j < K; j++) feast_vec_destroy(&x[j]);
  feast_vec_destroy(&y);
  feast_vec_destroy(&z);
}

static void check_grid(const char *path, int level) {
  FeastMesh *mesh = NULL;
  FeastDomain *dom = NULL;
  FeastVec *x = NULL, *y = NULL;
  CHECK_OK(feast_mesh_read(path, NULL, &mesh));
  if (!mesh) return;
  CHECK_OK(feast_domain_create(mesh, level, MPI_COMM_WORLD, &dom));
  if (!dom) return;
  const FeastLevel *lev = &dom->levels[level];
  const int N = lev->N;
  CHECK_OK(feast_vec_create(dom, level, 1, &x));
  CHECK_OK(feast_vec_create(dom, level, 1, &y));
  /* partial ones summed = number of macros holding each node = 1/weight */
  for (int li = 0; li < dom->nlocal; li++)
    for (int i = 0; i < N * N; i++) x->host[li][i] = 1.0;
  CHECK_OK(feast_vec_sum(x));
  int bad = 0;
  for (int li = 0; li < dom->nlocal; li++)
    for (int i = 0; i < N * N; i++) bad += x->host[li][i] * lev->weight[li][i] != 1.0;
  CHECK(bad == 0);
  /* gid kept only at the owner, summed, gives the gid on every copy */
  bad = 0;
  for (int li = 0; li < dom->nlocal; li++)
    for (int j = 0; j < N; j++)
      for (int i = 0; i < N; i++)
        y->host[li][j * N + i] = (double)feast_mesh_node_gid(mesh, level, dom->local[li], i, j);
  feast_vec_copy(y, x);
  feast_vec_to_partial(x);
  CHECK_OK(feast_vec_sum(x));
  for (int li = 0; li < dom->nlocal; li++)
    for (int i = 0; i < N * N; i++) bad += x->host[li][i] != y->host[li][i];
  CHECK(bad == 0);
  /* <1,1> counts every global node once */
  for (int li = 0; li < dom->nlocal; li++)
    for (int i = 0; i < N * N; i++) x->host[li][i] = 1.0;
  double d;
  CHECK_OK(feast_vec_dot(x, x, &d));
  CHECK(d == (double)lev->nglobal);
  /* sum of gids = n(n-1)/2: every gid owned exactly once */
  CHECK_OK(feast_vec_dot(x, y, &d));
  CHECK(d == (double)lev->nglobal * (lev->nglobal - 1) / 2);
  check_batched(dom, level);
  feast_vec_destroy(&x);
  feast_vec_destroy(&y);
  feast_domain_destroy(&dom);
  feast_mesh_destroy(&mesh);
}

static int vertex_at(const FeastMesh *mesh, double x, double y) {
  for (int v = 0; v < mesh->nvertices; v++)
    if (mesh->xy[2 * v] == x && mesh->xy[2 * v + 1] == y) return v;
  return -1;
}

/* the same parts with the inner vertex (0.5, 0.5) pinned: fixed there too, on every
 * level and on each of the four macros around it, counted once; masks with different
 * pins differ; a second pin and a bad vertex are errors; a vertex on the fixed parts
 * adds nothing */
static void check_pinned(const FeastMesh *mesh, const FeastDomain *dom, const unsigned char *parts,
                         const FeastMask *unpinned) {
  FeastMask *mask = NULL;
  CHECK_OK(feast_mask_create(dom, parts, &mask));
  if (!mask || !unpinned) return;
  CHECK(mask->pinned == -1 && feast_mask_same(mask, unpinned));
  CHECK_OK(feast_mask_pin(dom, vertex_at(mesh, 0.5, 0.5), mask));
  int bad = 0;
  for (int l = 0; l <= 2; l++)
    for (int li = 0; li < dom->nlocal; li++)
      for (long i = 0; i < (long)dom->levels[l].N * dom->levels[l].N; i++) {
        const double *p = &dom->levels[l].xy[li][2 * i];
        bad += mask->fixed[l][li][i] != (p[0] == 0.0 || p[1] == 0.0 || (p[0] == 0.5 && p[1] == 0.5));
      }
  CHECK(bad == 0);
  CHECK(mask->nfixed == 17 + 9 - 1 + 1);
  CHECK(!feast_mask_same(mask, unpinned));
  CHECK_FAILS(feast_mask_pin(dom, vertex_at(mesh, 0.0, 0.0), mask)); /* one pin per mask */
  feast_mask_destroy(&mask);
  CHECK_OK(feast_mask_create(dom, parts, &mask));
  CHECK_FAILS(feast_mask_pin(dom, mesh->nvertices, mask));
  CHECK_OK(feast_mask_pin(dom, vertex_at(mesh, 0.0, 0.0), mask)); /* fixed already: nothing new */
  CHECK(mask && mask->nfixed == 17 + 9 - 1);
  feast_mask_destroy(&mask);
}

static int run(void) {
  check_grid("grids/unitsquare8.feast", 3);
  check_grid("grids/dfg24.feast", 2);
  check_grid("grids/dfg24.feast", 0);
  FeastMesh *mesh = NULL;
  FeastDomain *dom = NULL;
  FeastMask *mask = NULL;
  CHECK_OK(feast_mesh_read("grids/unitsquare8.feast", NULL, &mesh));
  unsigned char parts[8];
  CHECK_FAILS(feast_mask_parse_parts(mesh, "bottom nosuchpart", "grid.dirichlet", parts));
  /* a mask on parts bottom and left: fixed exactly on x = 0 or y = 0, counted once */
  CHECK_OK(feast_mask_parse_parts(mesh, "bottom, left", "grid.dirichlet", parts));
  CHECK_OK(feast_domain_create(mesh, 2, MPI_COMM_WORLD, &dom));
  CHECK_OK(feast_mask_create(dom, parts, &mask));
  if (mask) {
    int bad = 0;
    for (int l = 0; l <= 2; l++)
      for (int li = 0; li < dom->nlocal; li++)
        for (long i = 0; i < (long)dom->levels[l].N * dom->levels[l].N; i++) {
          const double *p = &dom->levels[l].xy[li][2 * i];
          bad += mask->fixed[l][li][i] != (p[0] == 0.0 || p[1] == 0.0);
        }
    CHECK(bad == 0);
    CHECK(mask->nfixed == 17 + 9 - 1); /* level 2: 17 x 9 nodes */
  }
  check_pinned(mesh, dom, parts, mask);
  feast_mask_destroy(&mask);
  feast_domain_destroy(&dom);
  feast_mesh_destroy(&mesh);
  return 0;
}

FEAST_TEST_MAIN(run)

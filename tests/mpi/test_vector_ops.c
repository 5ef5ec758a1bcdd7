/* The vector operations of feast/la/vector_ops.c, feast_vec_restrict and the gathers of
 * one block, on unitsquare8 at level 3 (white-box: the results are compared bitwise with
 * loops over FeastVec.host, the expressions the floors above had before they called
 * these): pointwise, masked and per-node operations, the per-macro matrices, the grid
 * transfer of whole vectors, gather and scatter. The same on every number of ranks. */
#include "feast/base/error.h"
#include "feast/fem/transfer.h"
#include "feast/la/gather.h"
#include "feast/la/vector.h"
#include "feast/mesh/mesh.h"
#include "feast_test.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { LEVEL = 3, NB = 2 };

/* the values of x and y differ nowhere (bit for bit) */
static int same(const FeastVec *x, const FeastVec *y) {
  int bad = 0;
  for (int a = 0; a < x->nb * x->nlocal; a++)
    bad += memcmp(x->host[a], y->host[a], sizeof(double) * (size_t)x->N * x->N) != 0;
  return bad == 0;
}

/* x <- a hash-filled vector shifted to [1 + s, 3 + s) (no zeros: a divisor) */
static void fill(FeastVec *x, double s) {
  feast_vec_fill_hash(x);
  for (int a = 0; a < x->nb * x->nlocal; a++)
    for (long i = 0; i < (long)x->N * x->N; i++) x->host[a][i] += 2.0 + s;
}

/* value <- x - 2 y at the node; the calls counted in *ctx, an error from the 5th on */
static int node_fn(void *ctx, double x, double y, double *value) {
  *value = x - 2.0 * y;
  return ++*(int *)ctx >= 5 ? FEAST_ERR_ARG : 0;
}

/* operation op of check_pointwise at one value: x, y, d the inputs' values, wt the weight */
static double expected(int op, double a, double x, double y, double d, double wt) {
  switch (op) {
  case 0: return a;
  case 1: return x * y;
  case 2: return x / y;
  case 3: return y + a * x * d;
  case 4: return a * x + y;
  case 5: return (a * y + x) / d;
  default: return y * wt;
  }
}

/* each operation on w = y against its expression; in place where w is an input */
static void check_pointwise(FeastVec *const *v, FeastVec *w, FeastVec *ref) {
  const FeastVec *x = v[0], *y = v[1], *d = v[2];
  const long n = (long)x->N * x->N;
  const double a = 0.37;
  for (int op = 0; op < 7; op++) {
    feast_vec_copy(y, w);
    for (int k = 0; k < x->nb * x->nlocal; k++) {
      const double *wt = x->dom->levels[LEVEL].weight[k % x->nlocal];
      for (long i = 0; i < n; i++)
        ref->host[k][i] = expected(op, a, x->host[k][i], y->host[k][i], d->host[k][i], wt[i]);
    }
    if (op == 0) feast_vec_set(w, a);
    if (op == 1) feast_vec_pointwise_mult(x, y, w);
    if (op == 2) feast_vec_pointwise_divide(x, w, w); /* in place */
    if (op == 3) feast_vec_pointwise_mult_add(a, x, d, w);
    if (op == 4) feast_vec_waxpy(a, x, y, w);
    if (op == 5) feast_vec_scale_add_divide(a, x, d, w);
    if (op == 6) feast_vec_scale_weights(w);
    CHECK(same(w, ref));
  }
  feast_vec_copy(y, w);
  feast_vec_scale_add_divide(a, NULL, d, w); /* (a w + 0) / d */
  feast_vec_copy(y, ref);
  feast_vec_scale(a, ref);
  feast_vec_pointwise_divide(ref, d, ref);
  CHECK(same(w, ref));
  feast_vec_mark_nan(w);
  CHECK(x->nlocal == 0 || isnan(w->host[0][0]));
}

/* the masked and per-node operations touch block b at the fixed nodes only */
static void check_masked(FeastVec *const *v, const FeastMask *mask, FeastVec *w, FeastVec *ref) {
  const FeastVec *x = v[0], *y = v[1];
  const long n = (long)x->N * x->N;
  for (int op = 0; op < 4; op++) {
    feast_vec_copy(y, w);
    feast_vec_copy(y, ref);
    for (int li = 0; li < x->nlocal; li++)
      for (long i = 0; i < n; i++) {
        const double *xy = &x->dom->levels[LEVEL].xy[li][2 * i];
        double *r = &ref->host[x->nlocal + li][i];
        if (mask->fixed[LEVEL][li][i])
          *r = op == 0 ? 0.0 : op == 1 ? x->host[x->nlocal + li][i] : op == 2 ? *r - x->host[x->nlocal + li][i]
             : xy[0] - 2.0 * xy[1];
      }
    int calls = -1000000;
    if (op == 0) feast_vec_zero_fixed(w, 1, mask);
    if (op == 1) feast_vec_copy_fixed(x, w, 1, mask);
    if (op == 2) feast_vec_sub_fixed(x, w, 1, mask);
    if (op == 3) CHECK_OK(feast_vec_set_nodes(w, 1, mask, node_fn, &calls));
    CHECK(same(w, ref));
  }
  int calls = 0; /* an error stops the fill at the 5th node */
  feast_vec_zero(w);
  CHECK(x->nlocal == 0 || feast_vec_set_nodes(w, 0, NULL, node_fn, &calls) == FEAST_ERR_ARG);
  CHECK(x->nlocal == 0 || (calls == 5 && w->host[0][5] == 0.0));
  feast_error_clear();
}

/* matvec, matvec_add and diagonal against the per-macro kernels, on views of block 1 */
static void check_matrices(FeastVec *const *v, const FeastMask *mask, FeastVec *w, FeastVec *ref) {
  const FeastVec *x = v[0];
  FeastBand9 *A = calloc((size_t)x->nlocal + 1, sizeof *A);
  for (int li = 0; li < x->nlocal; li++) {
    CHECK_OK(feast_band9_create(x->N, &A[li]));
    feast_test_stencil(&A[li], mask->fixed[LEVEL][li], 0.3 + li, -0.2, 1.5);
  }
  FeastVec x1, w1, r1;
  feast_vec_view(x, 1, &x1);
  feast_vec_view(w, 1, &w1);
  feast_vec_view(ref, 1, &r1);
  feast_vec_copy(v[1], w);
  feast_vec_copy(v[1], ref);
  feast_vec_matvec_add(A, &x1, &w1);
  for (int li = 0; li < x->nlocal; li++) feast_band9_matvec_add(&A[li], x1.host[li], r1.host[li]);
  CHECK(same(w, ref));
  feast_vec_matvec(A, &x1, &w1);
  for (int li = 0; li < x->nlocal; li++) feast_band9_matvec(&A[li], x1.host[li], r1.host[li]);
  CHECK(same(w, ref));
  feast_vec_diagonal(A, &w1);
  for (int li = 0; li < x->nlocal; li++)
    memcpy(r1.host[li], A[li].band[feast_band_index(0, 0)], sizeof(double) * (size_t)x->N * x->N);
  CHECK(same(w, ref));
  for (int li = 0; li < x->nlocal; li++) feast_band9_destroy(&A[li]);
  free(A);
}

/* restriction of whole vectors as macro by macro; gather and scatter of one block */
static void check_transfer_gather(const FeastDomain *dom, FeastVec *const *v, FeastVec *w) {
  FeastVec *c = NULL, *r = NULL;
  CHECK_OK(feast_vec_create(dom, LEVEL - 1, NB, &c));
  CHECK_OK(feast_vec_create(dom, LEVEL - 1, NB, &r));
  CHECK_OK(feast_vec_restrict(v[0], c));
  for (int a = 0; a < NB * dom->nlocal; a++) feast_grid_restrict(v[0]->N, v[0]->host[a], r->host[a]);
  CHECK(same(c, r));
  CHECK_FAILS(feast_vec_restrict(c, w)); /* the wrong way round */
  const long ng = dom->levels[LEVEL].nglobal;
  double *g = calloc((size_t)ng + 1, sizeof *g);
  feast_vec_fill_hash(w); /* consistent */
  CHECK_OK(feast_vec_gather_block(w, 1, 0, g));
  feast_vec_zero(v[2]);
  CHECK_OK(feast_vec_scatter_block(g, 0, v[2], 1));
  FeastVec w1, back;
  feast_vec_view(w, 1, &w1);
  feast_vec_view(v[2], 1, &back);
  CHECK(same(&w1, &back));
  free(g);
  feast_vec_destroy(&c);
  feast_vec_destroy(&r);
}

static int run(void) {
  FeastMesh *mesh = NULL;
  FeastDomain *dom = NULL;
  FeastMask *mask = NULL;
  FeastVec *v[3] = {NULL}, *w = NULL, *ref = NULL;
  unsigned char parts[8];
  CHECK_OK(feast_mesh_read("grids/unitsquare8.feast", NULL, &mesh));
  if (!mesh) return 0;
  CHECK_OK(feast_mask_parse_parts(mesh, "bottom, left", "grid.dirichlet", parts));
  CHECK_OK(feast_domain_create(mesh, LEVEL, MPI_COMM_WORLD, &dom));
  if (!dom) return 0;
  CHECK_OK(feast_mask_create(dom, parts, &mask));
  for (int k = 0; k < 3; k++) CHECK_OK(feast_vec_create(dom, LEVEL, NB, &v[k]));
  CHECK_OK(feast_vec_create(dom, LEVEL, NB, &w));
  CHECK_OK(feast_vec_create(dom, LEVEL, NB, &ref));
  if (!mask || !ref) return 0;
  for (int k = 0; k < 3; k++) fill(v[k], 0.5 * k);
  check_pointwise(v, w, ref);
  check_masked(v, mask, w, ref);
  check_matrices(v, mask, w, ref);
  check_transfer_gather(dom, v, w);
  for (int k = 0; k < 3; k++) feast_vec_destroy(&v[k]);
  feast_vec_destroy(&w);
  feast_vec_destroy(&ref);
  feast_mask_destroy(&mask);
  feast_domain_destroy(&dom);
  feast_mesh_destroy(&mesh);
  return 0;
}

FEAST_TEST_MAIN(run)

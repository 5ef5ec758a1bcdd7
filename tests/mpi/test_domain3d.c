/* The distributed discretisation on hexahedral macros (feast/parallel/domain.c in 3D,
 * feast/la/mask.c; issue #47), on a 2 x 2 x 2 cube, a distorted 3 x 2 x 2 box and an
 * annulus with cylinder parts:
 *  - every node's copies: ones summed give 1 / weight; a value kept at the owner and
 *    summed reaches every copy bitwise (the global ids, the coordinates); each global
 *    node is owned once (the count and the sum of the ids);
 *  - vectors (FeastVec) of N^3 values per macro: dots count each node once, hashed values
 *    agree on every copy;
 *  - the Laplace operator assembled macro by macro and summed over the interfaces
 *    annihilates a linear function at every node off the boundary (a missed or doubled
 *    interface item leaves a residual there), and gives bitwise the same vector as the
 *    same product on MPI_COMM_SELF with every macro on one rank;
 *  - the local matrices made consistent (feast_band_make_consistent: the node and link
 *    exchanges) are the global matrix restricted to each macro, entry by entry, and
 *    bitwise those made on one rank, at levels 0-2;
 *  - masks: on the cube the part x0 fixes exactly the nodes with x = 0, counted once; on
 *    the annulus the part inner exactly the nodes at radius 0.5 (a macro touching the
 *    part along an edge only included). */
#include "feast/base/error.h"
#include "feast/fem/q1_hex.h"
#include "feast/la/mask.h"
#include "feast/la/vector.h"
#include "feast/mesh/hex.h"
#include "feast/parallel/domain.h"
#include "feast_test.h"
#include <stdlib.h>
#include <string.h>

enum { LEVEL = 2 };

static void check_copies(const FeastDomain *dom, int level) {
  const FeastLevel *lev = &dom->levels[level];
  const long n = lev->nodes_per_macro;
  const int nl = dom->nlocal;
  double **v = malloc(sizeof(double *) * (nl + 1)), **ref = malloc(sizeof(double *) * (nl + 1));
  for (int li = 0; li < nl; li++) v[li] = malloc(sizeof(double) * n), ref[li] = malloc(sizeof(double) * n);
  int bad = 0;
  for (int li = 0; li < nl; li++)
    for (long r = 0; r < n; r++) v[li][r] = 1.0;
  CHECK_OK(feast_domain_sum(dom, level, v));
  for (int li = 0; li < nl; li++)
    for (long r = 0; r < n; r++) bad += v[li][r] * lev->weight[li][r] != 1.0;
  CHECK(bad == 0);
  /* the global ids, then each coordinate, kept at the owner and summed */
  double *count_sum = calloc(2 * (size_t)nl + 2, sizeof(double)), totals[2];
  for (int what = 0; what < 4; what++) {
    for (int li = 0; li < nl; li++)
      for (long r = 0; r < n; r++) {
        ref[li][r] = what == 0 ? (double)feast_hex_mesh_node_gid(dom->mesh, lev->N, dom->local[li], r)
                               : lev->xy[li][3 * r + what - 1];
        v[li][r] = lev->owned[li][r] ? ref[li][r] : 0.0;
        if (what == 0 && lev->owned[li][r]) count_sum[li] += 1.0, count_sum[nl + li] += ref[li][r];
      }
    CHECK_OK(feast_domain_sum(dom, level, v));
    bad = 0;
    for (int li = 0; li < nl; li++) bad += memcmp(v[li], ref[li], sizeof(double) * n) != 0;
    CHECK(bad == 0);
  }
  CHECK_OK(feast_domain_sum_macros(dom, 2, count_sum, totals));
  CHECK(totals[0] == (double)lev->nglobal && totals[1] == (double)lev->nglobal * (lev->nglobal - 1) / 2);
  for (int li = 0; li < nl; li++) free(v[li]), free(ref[li]);
  free(v), free(ref), free(count_sum);
}

/* FeastVec on N^3 grids: <1, 1> counts every node once; the hash of a node's coordinates
 * is the same on every copy (kept at the owner and summed, it comes back bitwise) */
static void check_vectors(const FeastDomain *dom, int level) {
  FeastVec *x = NULL, *y = NULL;
  CHECK_OK(feast_vec_create(dom, level, 2, &x));
  CHECK_OK(feast_vec_create(dom, level, 2, &y));
  if (!x || !y) return;
  CHECK(x->n == dom->levels[level].nodes_per_macro);
  feast_vec_set(x, 1.0);
  double d;
  CHECK_OK(feast_vec_dot(x, x, &d));
  CHECK(d == 2.0 * (double)dom->levels[level].nglobal);
  feast_vec_fill_hash(x);
  feast_vec_copy(x, y);
  feast_vec_to_partial(y);
  CHECK_OK(feast_vec_sum(y));
  int bad = 0;
  for (int b = 0; b < 2; b++)
    for (int li = 0; li < dom->nlocal; li++)
      bad += memcmp(feast_vec_block_read(x, b, li), feast_vec_block_read(y, b, li), sizeof(double) * x->n) != 0;
  CHECK(bad == 0 && feast_vec_finite(x));
  feast_vec_destroy(&x), feast_vec_destroy(&y);
}

/* y = A u summed over the interfaces, u = 1 + x - 2y + 3z, gathered into the global
 * numbering (*global, nglobal values); *interior_max = max |y| off the boundary */
static void laplace_product(const FeastDomain *dom, const FeastMask *boundary, double **global, double *interior_max) {
  const FeastLevel *lev = &dom->levels[LEVEL];
  const long n = lev->nodes_per_macro;
  const int N = lev->N, nl = dom->nlocal;
  double **y = calloc((size_t)nl + 1, sizeof(double *));
  *global = calloc((size_t)lev->nglobal, sizeof(double));
  for (int li = 0; li < nl; li++) {
    FeastBand A;
    double *u = NULL;
    CHECK_OK(feast_band_create(&feast_stencil_q1_3d, N, &A));
    CHECK_OK(feast_q1_hex_assemble(N, lev->xy[li], dom->local[li], feast_q1_hex_form_laplace, NULL, 2, &A));
    CHECK_OK(feast_band_vec_alloc(&A, &u));
    y[li] = malloc(sizeof(double) * n);
    for (long r = 0; r < n; r++) {
      const double *x = lev->xy[li] + 3 * r;
      u[r] = 1.0 + x[0] - 2.0 * x[1] + 3.0 * x[2];
    }
    feast_band_apply(&A, u, y[li]);
    feast_band_vec_free(&A, &u);
    feast_band_destroy(&A);
  }
  CHECK_OK(feast_domain_sum(dom, LEVEL, y));
  double mx = 0.0;
  for (int li = 0; li < nl; li++)
    for (long r = 0; r < n; r++) {
      if (!boundary->fixed[LEVEL][li][r]) mx = fmax(mx, fabs(y[li][r]));
      if (lev->owned[li][r]) (*global)[feast_hex_mesh_node_gid(dom->mesh, N, dom->local[li], r)] = y[li][r];
    }
  MPI_Allreduce(MPI_IN_PLACE, *global, (int)lev->nglobal, MPI_DOUBLE, MPI_SUM, dom->comm); /* one contributor each */
  MPI_Allreduce(&mx, interior_max, 1, MPI_DOUBLE, MPI_MAX, dom->comm);
  for (int li = 0; li < nl; li++) free(y[li]);
  free(y);
}

static void check_laplace(const FeastMesh *mesh, const FeastDomain *dom) {
  unsigned char *all = malloc(mesh->nparts);
  memset(all, 1, mesh->nparts);
  FeastMask *boundary = NULL, *self_boundary = NULL;
  FeastDomain *self = NULL;
  CHECK_OK(feast_mask_create(dom, all, &boundary));
  CHECK_OK(feast_domain_create(mesh, LEVEL, MPI_COMM_SELF, &self));
  CHECK_OK(feast_mask_create(self, all, &self_boundary));
  if (boundary && self && self_boundary) {
    double *g, *gs, mx, mxs;
    laplace_product(dom, boundary, &g, &mx);
    laplace_product(self, self_boundary, &gs, &mxs);
    CHECK(mx < 1e-13 && mxs < 1e-13);
    CHECK(memcmp(g, gs, sizeof(double) * dom->levels[LEVEL].nglobal) == 0);
    if (feast_test_rank() == 0)
      printf("test_domain3d: %s L%d: %lld nodes, A u of a linear u off the boundary at most %.1e, the same bits as on "
             "one rank: %s\n",
             mesh->source, LEVEL, (long long)dom->levels[LEVEL].nglobal, mx,
             memcmp(g, gs, sizeof(double) * dom->levels[LEVEL].nglobal) == 0 ? "yes" : "no");
    free(g), free(gs);
  }
  feast_mask_destroy(&boundary), feast_mask_destroy(&self_boundary);
  feast_domain_destroy(&self);
  free(all);
}

/* ---- consistent local matrices */

typedef struct {
  int64_t row, col;
  double value;
} Entry;

static int cmp_entry(const void *pa, const void *pb) {
  const Entry *a = pa, *b = pb;
  if (a->row != b->row) return a->row < b->row ? -1 : 1;
  return (a->col > b->col) - (a->col < b->col);
}

/* the partial Laplace matrices of the level's local macros (the caller destroys them) */
static FeastBand *partial_laplace(const FeastDomain *dom, int level) {
  const FeastLevel *lev = &dom->levels[level];
  FeastBand *A = calloc((size_t)dom->nlocal + 1, sizeof *A);
  for (int li = 0; li < dom->nlocal; li++) {
    CHECK_OK(feast_band_create(&feast_stencil_q1_3d, lev->N, &A[li]));
    CHECK_OK(feast_q1_hex_assemble(lev->N, lev->xy[li], dom->local[li], feast_q1_hex_form_laplace, NULL, 2, &A[li]));
  }
  return A;
}

/* every coupling of every macro with its global ids and value, sorted; duplicates summed
 * when `sum` (the global matrix from the partial ones) */
static Entry *entries(const FeastDomain *dom, int level, const FeastBand *A, int sum, long *count) {
  const FeastLevel *lev = &dom->levels[level];
  const int N = lev->N;
  const long n = lev->nodes_per_macro;
  Entry *e = malloc(sizeof(Entry) * (size_t)(dom->nlocal * n * 27 + 1));
  long k = 0;
  for (int li = 0; li < dom->nlocal; li++)
    for (long r = 0; r < n; r++) {
      long p[3], q[3];
      feast_stencil_point(&feast_stencil_q1_3d, N, r, p);
      for (int b = 0; b < 27; b++) {
        if (!feast_stencil_neighbour(&feast_stencil_q1_3d, b, N, p, q)) continue;
        e[k++] = (Entry){feast_hex_mesh_node_gid(dom->mesh, N, dom->local[li], r),
                         feast_hex_mesh_node_gid(dom->mesh, N, dom->local[li], feast_hex_node(q, N)), A[li].band[b][r]};
      }
    }
  qsort(e, (size_t)k, sizeof *e, cmp_entry);
  if (sum) {
    long w = 0;
    for (long i = 0; i < k; i++)
      if (w > 0 && e[w - 1].row == e[i].row && e[w - 1].col == e[i].col) e[w - 1].value += e[i].value;
      else e[w++] = e[i];
    k = w;
  }
  *count = k;
  return e;
}

/* made consistent, every macro's coupling equals the global matrix's (assembled on this
 * rank from all macros' partial matrices on MPI_COMM_SELF), and the matrices are bitwise
 * those made consistent on MPI_COMM_SELF */
static void check_consistent(const FeastMesh *mesh, const FeastDomain *dom, int level) {
  FeastDomain *self = NULL;
  CHECK_OK(feast_domain_create(mesh, level, MPI_COMM_SELF, &self));
  if (!self) return;
  FeastBand *A = partial_laplace(dom, level), *S = partial_laplace(self, level);
  long ng, nd;
  Entry *global = entries(self, level, S, 1, &ng);
  CHECK_OK(feast_band_make_consistent(dom, level, A));
  CHECK_OK(feast_band_make_consistent(self, level, S));
  Entry *mine = entries(dom, level, A, 0, &nd);
  double err = 0.0;
  int missing = 0;
  for (long i = 0; i < nd; i++) {
    const Entry *g = bsearch(&mine[i], global, (size_t)ng, sizeof *global, cmp_entry);
    if (!g) missing++;
    else err = fmax(err, fabs(mine[i].value - g->value));
  }
  CHECK(missing == 0 && err < 1e-13);
  int same = 1;
  for (int li = 0; li < dom->nlocal; li++)
    for (int b = 0; b < 27; b++)
      same &= memcmp(A[li].band[b], S[dom->local[li]].band[b], sizeof(double) * dom->levels[level].nodes_per_macro) == 0;
  CHECK(same);
  if (feast_test_rank() == 0)
    printf("test_domain3d: %s L%d: consistent local matrices against the global one: max difference %.1e, the same "
           "bits as on one rank: %s\n",
           mesh->source, level, err, same ? "yes" : "no");
  for (int li = 0; li < dom->nlocal; li++) feast_band_destroy(&A[li]);
  for (int li = 0; li < self->nlocal; li++) feast_band_destroy(&S[li]);
  free(A), free(S), free(global), free(mine);
  feast_domain_destroy(&self);
}

/* the mask of one part against a predicate on the coordinates */
static void check_mask(const FeastDomain *dom, const char *part, int (*on)(const double *x), int64_t expect) {
  const FeastMesh *mesh = dom->mesh;
  unsigned char *flags = calloc(mesh->nparts, 1);
  flags[feast_mesh_part_index(mesh, part)] = 1;
  FeastMask *mask = NULL;
  CHECK_OK(feast_mask_create(dom, flags, &mask));
  free(flags);
  if (!mask) return;
  int bad = 0;
  for (int l = 0; l <= dom->finest; l++)
    for (int li = 0; li < dom->nlocal; li++)
      for (long r = 0; r < dom->levels[l].nodes_per_macro; r++) bad += mask->fixed[l][li][r] != on(dom->levels[l].xy[li] + 3 * r);
  CHECK(bad == 0);
  CHECK(mask->nfixed == expect);
  feast_mask_destroy(&mask);
}

static int on_x0(const double *x) { return x[0] == 0.0; }
static int on_inner(const double *x) { return fabs(hypot(x[0], x[1]) - 0.5) < 1e-12; }

static void check_mesh(const char *path, const char *part, int (*on)(const double *x), int64_t expect) {
  FeastMesh *mesh = NULL;
  FeastDomain *dom = NULL;
  CHECK_OK(feast_mesh_read(path, NULL, &mesh));
  if (mesh) CHECK_OK(feast_domain_create(mesh, LEVEL, MPI_COMM_WORLD, &dom));
  if (dom) {
    int64_t nodes;
    CHECK_OK(feast_mesh_count_nodes(mesh, LEVEL, &nodes));
    CHECK(dom->levels[LEVEL].nglobal == nodes && dom->levels[LEVEL].nodes_per_macro == 125);
    for (int l = 0; l <= LEVEL; l++) check_copies(dom, l), check_vectors(dom, l);
    check_laplace(mesh, dom);
    for (int l = 0; l <= LEVEL; l++) check_consistent(mesh, dom, l);
    if (part) check_mask(dom, part, on, expect);
  }
  feast_domain_destroy(&dom);
  feast_mesh_destroy(&mesh);
}

static int run(void) {
  check_mesh("grids/cube2x2x2.feast", "x0", on_x0, 9 * 9);
  check_mesh("grids/box3x2x2_distorted.feast", NULL, NULL, 0);
  check_mesh("tests/data/mesh/good_annulus3d.feast", "inner", on_inner, (8 * 4) * 5);
  return 0;
}

FEAST_TEST_MAIN(run)

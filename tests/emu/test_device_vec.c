/* Vectors in device memory (feast/la/device.h, solver.residency = device; issue #46) on
 * the CUDA host emulator, on unitsquare8 at level 3, white-box (FeastVec.host and
 * .valid are looked at): the same operations on a host domain's vectors and on a device
 * domain's give the same values, bit for bit for the BLAS-1 operations and the staged
 * host operations, the host's dot products within rounding and the same bits on every
 * rank count; vectors already on the device stay there through BLAS-1 and dot products
 * (no value crosses), a host read brings exactly its arrays back, a host write makes
 * the device copy stale, and a host copy the device made stale is NaN (poisoned). The
 * operations beyond BLAS-1 (the per-macro matrices' products, the partial operators
 * with a boundary ring, the interface sum, the pointwise and masked operations, the
 * grid transfers, a single-precision basis) give the host's values bit for bit (the
 * single basis's dot products within rounding) and move no vector value between the
 * memories; a changed matrix is copied again after feast_vec_matrices_changed. */
#include "coproc/coproc.h"
#include "feast/base/error.h"
#include "feast/fem/transfer.h"
#include "feast/la/mask.h"
#include "feast/la/vector.h"
#include "feast/mesh/mesh.h"
#include "feast_test.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { LEVEL = 3, NB = 3 };

/* the values of x and y (each read through the accessors) differ nowhere, bit for bit */
static int same(const FeastVec *x, const FeastVec *y) {
  int bad = 0;
  for (int b = 0; b < x->nb; b++)
    for (int li = 0; li < x->nlocal; li++)
      bad += memcmp(feast_vec_block_read(x, b, li), feast_vec_block_read(y, b, li), sizeof(double) * x->n) != 0;
  return bad == 0;
}

static double bytes_crossed(const FeastDevice *d) { return d->counts.bytes_to_device + d->counts.bytes_to_host; }

/* the operations of the la floor in one sequence on x, y, z of one domain */
static void sequence(FeastVec *x, FeastVec *y, FeastVec *z, double *dots) {
  feast_vec_fill_hash(x);
  feast_vec_copy(x, y);
  feast_vec_scale(0.75, y);
  feast_vec_axpy(-1.25, x, y);
  feast_vec_aypx(0.5, x, y);
  const double a[3] = {0.3, -0.7, 1.1};
  const FeastVec *xs[3] = {x, y, x};
  feast_vec_set(z, 0.125);
  feast_vec_maxpy(3, a, xs, z);
  feast_vec_waxpy(2.0, x, y, z);   /* z <- 2 x + y */
  feast_vec_waxpy(-0.5, z, x, z);  /* z <- -0.5 z + x: w = x */
  feast_vec_waxpy(0.25, x, z, z);  /* w = y */
  feast_vec_pointwise_mult(x, y, y); /* a host operation: staged */
  feast_vec_axpy(1.0, y, z);
  const FeastVec *l[3] = {x, y, z}, *r[3] = {y, z, z};
  CHECK_OK(feast_vec_dots(3, l, r, dots));
  CHECK_OK(feast_vec_norm(z, &dots[3]));
}

/* matrices of level l on every local macro: values from a hash of (macro, band, row, seed) */
static FeastBand9 *matrices(const FeastDomain *dom, int l, unsigned seed, void **block) {
  const int N = dom->levels[l].N;
  FeastBand9 *A = calloc((size_t)dom->nlocal + 1, sizeof *A);
  if (!A || feast_band9_create_batch(dom->nlocal, N, A, block)) return NULL;
  for (int li = 0; li < dom->nlocal; li++)
    for (int k = 0; k < FEAST_NBANDS; k++)
      for (long i = 0; i < (long)N * N; i++) {
        const unsigned h = (unsigned)(dom->local[li] * 7919 + k * 104729 + i * 31 + seed) * 2654435761u;
        A[li].band[k][i] = (double)(h >> 8) / (double)(1u << 24) - 0.5 + (k == FEAST_BAND_DIAG ? 4.0 : 0.0);
      }
  return A;
}

/* the operators' sequence on the 3-block vectors x (its values given), y, z and the 1-block
 * vectors c (one level below) and u, v of one domain, with the matrices A, B and the
 * ring R of level LEVEL, the mask m; dots: 3 products of a single-precision basis */
static void operators(const FeastBand9 *A, const FeastBand9 *B, const FeastBand9Ring *R, const FeastMask *m,
                      FeastVec *x, FeastVec *y, FeastVec *z, FeastVec *c, FeastVec *u, FeastVec *v, double *dots) {
  FeastVec xb[NB], yb;
  const FeastVec *cols[NB];
  for (int b = 0; b < NB; b++) feast_vec_view(x, b, &xb[b]), cols[b] = &xb[b];
  feast_vec_view(x, 0, &xb[0]);
  feast_vec_matvec(A, &xb[0], u);
  feast_vec_matvec_add(B, &xb[1], u);
  const FeastBand9 *row[NB] = {A, NULL, B};
  feast_vec_view(y, 1, &yb);
  feast_vec_matvec_row(NB, row, cols, &yb);
  feast_vec_matvec_ring(B, R, u, v);
  CHECK_OK(feast_vec_sum(v));
  feast_vec_pointwise_mult(x, y, z); /* y's block 1 from the block row, 0 and 2 zero */
  CHECK_OK(feast_vec_sum(z));
  feast_vec_to_partial(z);
  feast_vec_set(y, 2.0);
  feast_vec_pointwise_mult_add(1.0, x, x, y); /* y >= 2 */
  feast_vec_scale_weights(y);
  feast_vec_pointwise_divide(z, y, z);
  feast_vec_scale_add_divide(1.5, x, y, z);
  feast_vec_scale_add_divide(0.5, NULL, y, z);
  feast_vec_zero_fixed(z, 1, m);
  feast_vec_copy_fixed(x, z, 2, m);
  feast_vec_sub_fixed(y, z, 0, m);
  CHECK_OK(feast_vec_restrict(v, c));
  CHECK_OK(feast_vec_prolongate(c, u));
  FeastVecSingle *s[3];
  for (int i = 0; i < 3; i++) CHECK_OK(feast_vec_single_create(x->dom, x->level, NB, &s[i]));
  feast_vec_single_store(x, s[0]);
  feast_vec_single_store(y, s[1]);
  feast_vec_single_store(z, s[2]);
  CHECK_OK(feast_vec_single_dots(3, (const FeastVecSingle *const *)s, y, dots));
  const double a[3] = {0.25, -1.5, 0.75};
  feast_vec_single_maxpy(3, a, (const FeastVecSingle *const *)s, z);
  for (int i = 0; i < 3; i++) feast_vec_single_destroy(&s[i]);
}

/* operators() on a host and a device domain: the same values, no vector value crossing
 * on the device; on the device domain of this rank alone (one) the same bits of the dot
 * products as on all ranks */
static int operators_agree(FeastDomain *hdom, FeastDomain *ddom, FeastDomain *one, FeastDevice *dev) {
  const FeastDomain *dom[3] = {hdom, ddom, one};
  FeastVec *x[3], *y[3], *z[3], *c[3], *u[3], *v[3];
  FeastBand9 *A[3], *B[3];
  FeastBand9Ring *R[3];
  void *blocks[6];
  FeastMask *m[3];
  double dots[3][3];
  unsigned char parts[64];
  memset(parts, 1, sizeof parts);
  for (int k = 0; k < 3; k++) {
    FeastVec **set[] = {&x[k], &y[k], &z[k]}, **one[] = {&u[k], &v[k]};
    CHECK_OK(feast_vec_create_set(dom[k], LEVEL, NB, 3, set));
    CHECK_OK(feast_vec_create_set(dom[k], LEVEL, 1, 2, one));
    CHECK_OK(feast_vec_create(dom[k], LEVEL - 1, 1, &c[k]));
    A[k] = matrices(dom[k], LEVEL, 1, &blocks[2 * k]);
    B[k] = matrices(dom[k], LEVEL, 2, &blocks[2 * k + 1]);
    CHECK(A[k] && B[k]);
    R[k] = calloc((size_t)dom[k]->nlocal + 1, sizeof *R[k]);
    for (int li = 0; li < dom[k]->nlocal; li++) {
      CHECK_OK(feast_band9_ring_create(A[k][li].N, &R[k][li]));
      feast_band9_ring_get(&A[k][li], &R[k][li]);
    }
    CHECK_OK(feast_mask_create(dom[k], parts, &m[k]));
  }
  feast_vec_fill_hash(x[0]);
  operators(A[0], B[0], R[0], m[0], x[0], y[0], z[0], c[0], u[0], v[0], dots[0]);
  feast_vec_fill_hash(x[1]);
  feast_vec_scale(1.0, x[1]); /* on the device (exactly) before the sequence */
  const double before = dev->counts.bytes_to_device + dev->counts.bytes_to_host;
  operators(A[1], B[1], R[1], m[1], x[1], y[1], z[1], c[1], u[1], v[1], dots[1]);
  CHECK(dev->counts.bytes_to_device + dev->counts.bytes_to_host == before);
  int ranks;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  /* interface values cross only for the nodes shared with another rank's macros */
  CHECK(dev->counts.bytes_matrices > 0 && (dev->counts.bytes_interface > 0) == (ranks > 1) && dev->status == 0);
  CHECK(same(x[0], x[1]));
  CHECK(same(y[0], y[1]));
  CHECK(same(z[0], z[1]));
  CHECK(same(c[0], c[1]));
  CHECK(same(u[0], u[1]));
  CHECK(same(v[0], v[1]));
  for (int i = 0; i < 3; i++) CHECK_CLOSE(dots[1][i], dots[0][i], 1e-12);
  if (feast_test_rank() == 0) printf("device single dots: %.17g %.17g %.17g\n", dots[1][0], dots[1][1], dots[1][2]);
  /* a changed matrix: copied again after feast_vec_matrices_changed, not before */
  for (int k = 0; k < 2; k++) A[k][0].band[FEAST_BAND_DIAG][0] += 1.0;
  const double mb = dev->counts.bytes_matrices;
  feast_vec_matvec(A[1], v[1], u[1]);
  CHECK(dev->counts.bytes_matrices == mb);
  feast_vec_matrices_changed(ddom, A[1]);
  feast_vec_matvec(A[0], v[0], u[0]);
  feast_vec_matvec(A[1], v[1], u[1]);
  CHECK(dev->counts.bytes_matrices > mb && same(u[0], u[1]));
  feast_vec_fill_hash(x[2]);
  operators(A[2], B[2], R[2], m[2], x[2], y[2], z[2], c[2], u[2], v[2], dots[2]);
  for (int i = 0; i < 3; i++) CHECK(dots[2][i] == dots[1][i]);
  for (int k = 0; k < 3; k++) {
    feast_vec_matrices_changed(dom[k], A[k]);
    feast_vec_matrices_changed(dom[k], B[k]);
    feast_vec_matrices_changed(dom[k], R[k]);
    FeastVec **all[] = {&x[k], &y[k], &z[k], &c[k], &u[k], &v[k]};
    for (int i = 0; i < 6; i++) feast_vec_destroy(all[i]);
    for (int li = 0; li < dom[k]->nlocal; li++) feast_band9_ring_destroy(&R[k][li]);
    free(R[k]);
    free(A[k]);
    free(B[k]);
    feast_free_coloured(blocks[2 * k]);
    feast_free_coloured(blocks[2 * k + 1]);
    feast_mask_destroy(&m[k]);
  }
  return 0;
}

static int run(void) {
  FeastMesh *mesh = NULL;
  CHECK_OK(feast_mesh_read("grids/unitsquare8.feast", NULL, &mesh));
  FeastDomain *hdom = NULL, *ddom = NULL;
  CHECK_OK(feast_domain_create(mesh, LEVEL, MPI_COMM_WORLD, &hdom));
  CHECK_OK(feast_domain_create(mesh, LEVEL, MPI_COMM_WORLD, &ddom));
  FeastDevice *dev = NULL;
  CHECK_OK(feast_coproc_device_create(&dev));
  if (!dev) return 1;
  CHECK(dev->poison == 1);
  ddom->device = dev;

  FeastVec *hx, *hy, *hz, *dx, *dy, *dz;
  FeastVec **hv[] = {&hx, &hy, &hz}, **dv[] = {&dx, &dy, &dz};
  CHECK_OK(feast_vec_create_set(hdom, LEVEL, NB, 3, hv));
  CHECK_OK(feast_vec_create_set(ddom, LEVEL, NB, 3, dv));
  CHECK(hx->device == NULL && dx->device == dev && dx->valid && dx->dev);
  const int arrays = NB * dx->nlocal;

  /* the same values, bit for bit; the dot products within rounding */
  double hd[4], dd[4];
  sequence(hx, hy, hz, hd);
  sequence(dx, dy, dz, dd);
  CHECK(same(hx, dx) && same(hy, dy) && same(hz, dz));
  for (int k = 0; k < 4; k++) CHECK_CLOSE(dd[k], hd[k], 1e-13);
  CHECK(dev->status == 0 && dev->counts.launches > 0);

  /* on the device already: BLAS-1 and dot products move no values */
  feast_vec_copy(dx, dy); /* every array of x and y current on the device */
  feast_vec_copy(dx, dz);
  const double before = bytes_crossed(dev);
  const long scalars = dev->counts.scalars_to_host;
  feast_vec_axpy(0.5, dx, dy);
  feast_vec_scale(2.0, dz);
  feast_vec_aypx(-1.0, dy, dz);
  double d;
  CHECK_OK(feast_vec_dot(dy, dz, &d));
  CHECK(bytes_crossed(dev) == before);
  CHECK(dev->counts.scalars_to_host == scalars + arrays); /* one sum per array */
  /* the host copy the device made stale is poisoned; a host read brings exactly z back */
  CHECK(dz->valid[0] == FEAST_VEC_ON_DEVICE && isnan(dz->host[0][0]));
  const double down = dev->counts.bytes_to_host;
  double s = 0;
  for (int b = 0; b < NB; b++)
    for (int li = 0; li < dz->nlocal; li++) s += feast_vec_block_read(dz, b, li)[0];
  CHECK(!isnan(s));
  CHECK(dev->counts.bytes_to_host == down + (double)arrays * dz->n * sizeof(double));
  CHECK(dz->valid[0] == (FEAST_VEC_ON_HOST | FEAST_VEC_ON_DEVICE));
  /* a host write makes the device copy stale: the next kernel uploads it */
  feast_vec_block(dz, 0, 0)[0] = 3.0;
  CHECK(dz->valid[0] == FEAST_VEC_ON_HOST);
  CHECK(feast_vec_finite(dz)); /* a host read of a host-only array leaves the device copy stale */
  CHECK(dz->valid[0] == FEAST_VEC_ON_HOST);
  const double up = dev->counts.bytes_to_device;
  feast_vec_scale(2.0, dz);
  CHECK(dev->counts.bytes_to_device == up + (double)dz->n * sizeof(double));
  CHECK(feast_vec_block_read(dz, 0, 0)[0] == 6.0);
  /* a view shares its parent's copies and record */
  FeastVec view;
  feast_vec_view(dz, 1, &view);
  feast_vec_set(&view, 1.5);
  CHECK(dz->valid[dz->nlocal] == FEAST_VEC_ON_DEVICE && feast_vec_block_read(dz, 1, 0)[0] == 1.5);

  /* the same bits on every rank count: the dot products of the fixed sequence, printed
   * by every run (1 and 2 ranks) and compared with the values of one rank */
  if (feast_test_rank() == 0) printf("device dots: %.17g %.17g %.17g %.17g\n", dd[0], dd[1], dd[2], dd[3]);
  FeastDomain *one = NULL;
  CHECK_OK(feast_domain_create(mesh, LEVEL, MPI_COMM_SELF, &one));
  one->device = dev;
  FeastVec *ox, *oy, *oz;
  FeastVec **ov[] = {&ox, &oy, &oz};
  CHECK_OK(feast_vec_create_set(one, LEVEL, NB, 3, ov));
  double od[4];
  sequence(ox, oy, oz, od);
  for (int k = 0; k < 4; k++) CHECK(od[k] == dd[k]);
  CHECK(operators_agree(hdom, ddom, one, dev) == 0);

  for (int i = 0; i < 3; i++) {
    feast_vec_destroy(hv[i]);
    feast_vec_destroy(dv[i]);
    feast_vec_destroy(ov[i]);
  }
  CHECK(dev->status == 0);
  feast_domain_destroy(&one);
  feast_domain_destroy(&hdom);
  feast_domain_destroy(&ddom);
  feast_coproc_device_destroy(&dev);
  feast_mesh_destroy(&mesh);
  return 0;
}

FEAST_TEST_MAIN(run)

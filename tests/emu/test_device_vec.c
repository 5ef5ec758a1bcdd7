/* Vectors in device memory (feast/la/device.h, solver.residency = device; issue #46) on
 * the CUDA host emulator, on unitsquare8 at level 3, white-box (FeastVec.host and
 * .valid are looked at): the same operations on a host domain's vectors and on a device
 * domain's give the same values, bit for bit for the BLAS-1 operations and the staged
 * host operations, the host's dot products within rounding and the same bits on every
 * rank count; vectors already on the device stay there through BLAS-1 and dot products
 * (no value crosses), a host read brings exactly its arrays back, a host write makes
 * the device copy stale, and a host copy the device made stale is NaN (poisoned). */
#include "coproc/coproc.h"
#include "feast/base/error.h"
#include "feast/la/vector.h"
#include "feast/mesh/mesh.h"
#include "feast_test.h"
#include <math.h>
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

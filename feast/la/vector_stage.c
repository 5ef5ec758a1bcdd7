/* Vectors of a domain with a device (feast/la/device.h): their device copies, and the
 * staging that keeps the host and the device copy of every array current where it is
 * used, with what crossed counted in the device's record. */
#include "feast/la/vector.h"
#include "feast/la/vector_private.h"
#include "feast/base/error.h"
#include <math.h>
#include <stdlib.h>

int feast_vec_device_create_set(int count, FeastVec **const *vecs) {
  FeastVec *first = *vecs[0];
  FeastDevice *d = first->dom->device;
  const int arrays = first->nb * first->nlocal;
  const size_t bytes = sizeof(double) * (size_t)first->n * (size_t)arrays * (size_t)count;
  /* one allocation for the set (as on the host): the emulator's cost per copy and launch
   * grows with the number of live allocations */
  FEAST_CALL(feast_device_fail(d, d->ops->alloc(d->ctx, bytes, &first->dblock)));
  double *next = first->dblock;
  for (int i = 0; i < count; i++) {
    FeastVec *x = *vecs[i];
    x->device = d;
    FEAST_CALL(FEAST_ALLOC(arrays + 1, &x->dev));
    FEAST_CALL(FEAST_ALLOC(arrays + 1, &x->valid));
    for (int a = 0; a < arrays; a++, next += x->n) {
      x->dev[a] = next;
      x->valid[a] = FEAST_VEC_ON_HOST | FEAST_VEC_ON_DEVICE; /* both zero */
    }
  }
  return 0;
}

void feast_vec_device_destroy(FeastVec *x) {
  if (!x->device) return;
  x->device->ops->release(x->device->ctx, x->dblock);
  free(x->dev);
  free(x->valid);
  x->dev = NULL;
  x->valid = NULL;
  x->dblock = NULL;
}

void feast_vec_stage_host(const FeastVec *x, int a, int write) {
  FeastDevice *d = x->device;
  if (!(x->valid[a] & FEAST_VEC_ON_HOST)) {
    const size_t bytes = sizeof(double) * (size_t)x->n;
    if (!feast_device_fail(d, d->ops->to_host(d->ctx, x->host[a], x->dev[a], bytes))) {
      d->counts.bytes_to_host += (double)bytes;
      d->counts.copies_to_host++;
    }
  }
  x->valid[a] = write ? FEAST_VEC_ON_HOST : x->valid[a] | FEAST_VEC_ON_HOST; /* a read leaves the device copy as it was */
}

void feast_vec_on_host(const FeastVec *x, int access) {
  if (!x->valid) return;
  for (int a = 0; a < x->nb * x->nlocal; a++) {
    if (access == FEAST_STAGE_OVERWRITE) x->valid[a] = FEAST_VEC_ON_HOST;
    else if (access == FEAST_STAGE_READ ? !(x->valid[a] & FEAST_VEC_ON_HOST) : x->valid[a] != FEAST_VEC_ON_HOST)
      feast_vec_stage_host(x, a, access != FEAST_STAGE_READ);
  }
}

/* array a of x current on the device (feast_vec_on_device) */
static int array_on_device(const FeastVec *x, int a, int access) {
  FeastDevice *d = x->device;
  if (access != FEAST_STAGE_OVERWRITE && !(x->valid[a] & FEAST_VEC_ON_DEVICE)) {
    const size_t bytes = sizeof(double) * (size_t)x->n;
    FEAST_CALL(feast_device_fail(d, d->ops->to_device(d->ctx, x->dev[a], x->host[a], bytes)));
    d->counts.bytes_to_device += (double)bytes;
    d->counts.copies_to_device++;
  }
  if (access == FEAST_STAGE_READ) {
    x->valid[a] |= FEAST_VEC_ON_DEVICE;
    return 0;
  }
  if (d->poison && (x->valid[a] & FEAST_VEC_ON_HOST))
    for (long i = 0; i < x->n; i++) x->host[a][i] = NAN; /* a stale host copy read unstaged shows */
  x->valid[a] = FEAST_VEC_ON_DEVICE;
  return 0;
}

int feast_vec_on_device(const FeastVec *x, int access) {
  for (int a = 0; a < x->nb * x->nlocal; a++) FEAST_CALL(array_on_device(x, a, access));
  return 0;
}

int feast_vec_on_one_device(int k, const FeastVec *const *v) {
  for (int i = 0; i < k; i++)
    if (!v[i]->device || v[i]->device != v[0]->device) return 0;
  return 1;
}

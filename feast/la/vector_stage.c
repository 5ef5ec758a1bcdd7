/* Vectors of a domain with a device (feast/la/device.h): their device copies, and the
 * staging that keeps the host and the device copy of every array current where it is
 * used, with what crossed counted in the device's record. */
#include "feast/la/vector.h"
#include "feast/la/vector_private.h"
#include "feast/base/error.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

/* arrays a0 .. a1-1 of x (adjacent on the device) to the host (down) or to the device in
 * one copy, through a host buffer where there are several (the host arrays are padded
 * apart); counted in the device's record */
static int copy_run(const FeastVec *x, int a0, int a1, int down) {
  FeastDevice *d = x->device;
  const size_t n = (size_t)x->n, bytes = sizeof(double) * n * (size_t)(a1 - a0);
  double *buf = x->host[a0];
  if (a1 - a0 > 1) FEAST_CALL(feast_device_fail(d, FEAST_ALLOC(n * (size_t)(a1 - a0), &buf)));
  for (int a = a0; !down && a1 - a0 > 1 && a < a1; a++) memcpy(buf + n * (size_t)(a - a0), x->host[a], sizeof(double) * n);
  const int st = feast_device_fail(d, down ? d->ops->to_host(d->ctx, buf, x->dev[a0], bytes)
                                           : d->ops->to_device(d->ctx, x->dev[a0], buf, bytes));
  for (int a = a0; !st && down && a1 - a0 > 1 && a < a1; a++) memcpy(x->host[a], buf + n * (size_t)(a - a0), sizeof(double) * n);
  if (a1 - a0 > 1) free(buf);
  if (st) return st;
  if (down) d->counts.bytes_to_host += (double)bytes, d->counts.copies_to_host++, d->counts.round_trips++;
  else d->counts.bytes_to_device += (double)bytes, d->counts.copies_to_device++;
  return 0;
}

/* every run of adjacent arrays among first .. last-1 of x whose copy on the side `where`
 * is not current, copied there (a failure recorded in the device: the loop goes on) */
static int copy_stale(const FeastVec *x, int first, int last, unsigned char where) {
  int st = 0;
  for (int a0 = first; a0 < last;) {
    if (x->valid[a0] & where) {
      a0++;
      continue;
    }
    int a1 = a0 + 1;
    while (a1 < last && !(x->valid[a1] & where)) a1++;
    const int rst = copy_run(x, a0, a1, where == FEAST_VEC_ON_HOST);
    if (!st) st = rst;
    a0 = a1;
  }
  return st;
}

/* arrays first .. last-1 of x current on the host for an access (FEAST_STAGE_*): a read
 * leaves the device copies as they were, a use that may write makes them stale */
static void range_on_host(const FeastVec *x, int first, int last, int access) {
  if (access != FEAST_STAGE_OVERWRITE) copy_stale(x, first, last, FEAST_VEC_ON_HOST);
  for (int a = first; a < last; a++)
    x->valid[a] = access == FEAST_STAGE_READ ? x->valid[a] | FEAST_VEC_ON_HOST : FEAST_VEC_ON_HOST;
}

void feast_vec_stage_host(const FeastVec *x, int a, int write) {
  range_on_host(x, a, a + 1, write ? FEAST_STAGE_UPDATE : FEAST_STAGE_READ);
}

void feast_vec_stage_block_host(const FeastVec *x, int b, int write) {
  range_on_host(x, b * x->nlocal, (b + 1) * x->nlocal, write ? FEAST_STAGE_UPDATE : FEAST_STAGE_READ);
}

void feast_vec_on_host(const FeastVec *x, int access) {
  if (x->valid) range_on_host(x, 0, x->nb * x->nlocal, access);
}

int feast_vec_on_device(const FeastVec *x, int access) {
  FeastDevice *d = x->device;
  if (access != FEAST_STAGE_OVERWRITE) FEAST_CALL(copy_stale(x, 0, x->nb * x->nlocal, FEAST_VEC_ON_DEVICE));
  for (int a = 0; a < x->nb * x->nlocal; a++) {
    if (access == FEAST_STAGE_READ) {
      x->valid[a] |= FEAST_VEC_ON_DEVICE;
      continue;
    }
    if (d->poison && (x->valid[a] & FEAST_VEC_ON_HOST))
      for (long i = 0; i < x->n; i++) x->host[a][i] = NAN; /* a stale host copy read unstaged shows */
    x->valid[a] = FEAST_VEC_ON_DEVICE;
  }
  return 0;
}

int feast_vec_on_one_device(int k, const FeastVec *const *v) {
  for (int i = 0; i < k; i++)
    if (!v[i]->device || v[i]->device != v[0]->device) return 0;
  return 1;
}

const double *feast_vec_device_read(const FeastVec *x) {
  return x->device && !feast_vec_on_device(x, FEAST_STAGE_READ) ? x->dev[0] : NULL;
}

double *feast_vec_device_write(FeastVec *x) {
  return x->device && !feast_vec_on_device(x, FEAST_STAGE_OVERWRITE) ? x->dev[0] : NULL;
}

int feast_vec_transfer_on_device(const FeastVec *from, FeastVec *to, int upward, int *status) {
  const FeastVec *v[] = {from, to};
  *status = 0;
  if (!feast_vec_on_one_device(2, v)) return 0;
  FeastDevice *d = to->device;
  const int arrays = from->nb * from->nlocal;
  *status = feast_vec_on_device(from, FEAST_STAGE_READ);
  if (!*status) *status = feast_vec_on_device(to, FEAST_STAGE_OVERWRITE);
  if (!*status && arrays) *status = feast_device_fail(d, d->ops->transfer(d->ctx, upward, arrays, from->N, from->dev[0], to->dev[0]));
  if (!*status && arrays) d->counts.launches++;
  return 1;
}

/* The device record, its counts and its copies of constant host data (feast/la/device.h) */
#include "feast/la/device.h"
#include "feast/base/error.h"
#include "feast/mesh/macro_grid.h"
#include <stdlib.h>
#include <string.h>

struct FeastDeviceConst {
  const void *host;
  void *copy;
  void *aux; /* host data of the copy's user (feast_device_set_aux) */
  size_t bytes;
  FeastDeviceConst *next;
};

int feast_device_create(const FeastDeviceOps *ops, void *ctx, FeastDevice **devp) {
  FEAST_CHECK(ops && ops->alloc && ops->release && ops->to_host && ops->to_device && ops->fill && ops->axpby &&
                  ops->dots && ops->band9_apply && ops->pointwise && ops->masked && ops->gather && ops->scatter &&
                  ops->to_single && ops->dots_single && ops->maxpy_single && ops->transfer &&
                  ops->item_sums,
              FEAST_ERR_ARG, "feast_device_create: an incomplete table of device operations");
  FeastDevice *dev;
  FEAST_CALL(FEAST_ALLOC(1, &dev));
  dev->ops = ops;
  dev->ctx = ctx;
  *devp = dev;
  return 0;
}

void feast_device_destroy(FeastDevice **devp) {
  FeastDevice *dev = *devp;
  if (!dev) return;
  for (FeastDeviceConst *c = dev->consts, *next; c; c = next) {
    next = c->next;
    dev->ops->release(dev->ctx, c->copy);
    free(c->aux);
    free(c);
  }
  feast_free(devp);
}

/* the device copy of key (the concatenation of the parts), made on the first request
 * and its bytes added to *counter */
static int const_copy(FeastDevice *dev, const void *key, const void *const *parts, int nparts, size_t part_bytes,
                      double *counter, const void **copy) {
  const size_t bytes = part_bytes * (size_t)nparts;
  for (FeastDeviceConst *c = dev->consts; c; c = c->next)
    if (c->host == key && c->bytes == bytes) {
      *copy = c->copy;
      return 0;
    }
  FeastDeviceConst *c;
  unsigned char *all = NULL;
  FEAST_CALL(FEAST_ALLOC(1, &c));
  int st = FEAST_ALLOC(bytes + 1, &all);
  for (int i = 0; !st && i < nparts; i++) memcpy(all + part_bytes * i, parts[i], part_bytes);
  if (!st) st = dev->ops->alloc(dev->ctx, bytes, &c->copy);
  if (!st) st = dev->ops->to_device(dev->ctx, c->copy, all, bytes);
  free(all);
  if (st) {
    dev->ops->release(dev->ctx, c->copy);
    free(c);
    return feast_device_fail(dev, st);
  }
  c->host = key;
  c->bytes = bytes;
  c->next = dev->consts;
  dev->consts = c;
  *counter += (double)bytes;
  *copy = c->copy;
  return 0;
}

int feast_device_const(FeastDevice *dev, const void *key, const void *const *parts, int nparts, size_t part_bytes,
                       const void **copy) {
  return const_copy(dev, key, parts, nparts, part_bytes, &dev->counts.bytes_const, copy);
}

int feast_device_matrices(FeastDevice *dev, const void *key, int nmat, long N, const double *const *bands,
                          const void **copy) {
  return const_copy(dev, key, (const void *const *)bands, nmat * FEAST_NBANDS, sizeof(double) * (size_t)(N * N),
                    &dev->counts.bytes_matrices, copy);
}

void feast_device_set_aux(FeastDevice *dev, const void *key, void *aux) {
  for (FeastDeviceConst *c = dev->consts; c; c = c->next)
    if (c->host == key) {
      free(c->aux);
      c->aux = aux;
      return;
    }
  free(aux);
}

void *feast_device_aux(const FeastDevice *dev, const void *key) {
  for (const FeastDeviceConst *c = dev->consts; c; c = c->next)
    if (c->host == key) return c->aux;
  return NULL;
}

const void *feast_device_find(const FeastDevice *dev, const void *key) {
  for (const FeastDeviceConst *c = dev->consts; c; c = c->next)
    if (c->host == key) return c->copy;
  return NULL;
}

void feast_device_drop(FeastDevice *dev, const void *key) {
  if (!dev) return;
  for (FeastDeviceConst **p = &dev->consts; *p;) {
    FeastDeviceConst *c = *p;
    if (c->host != key) {
      p = &c->next;
      continue;
    }
    *p = c->next;
    dev->ops->release(dev->ctx, c->copy);
    free(c->aux);
    free(c);
  }
}

int feast_device_fail(FeastDevice *dev, int st) {
  if (st && dev && !dev->status) dev->status = st;
  return st;
}

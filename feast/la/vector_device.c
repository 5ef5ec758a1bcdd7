/* The device paths of the la floor's operations beyond BLAS-1 and the dot products
 * (issue #46): the per-macro matrices' products, the pointwise and masked operations and
 * the interface sum of device vectors, with the constant data they read (masks, weights,
 * exchange slots, matrices) copied to the device once (feast_device_const,
 * feast_device_matrices). Each returns 1 when it ran on the device (a failure recorded
 * in the device's status, as every device operation's), 0 when an operand is not on the
 * device and the caller's host loop must run. Every kernel rounds as the host loop it
 * replaces (feast/la/device.h), so a result does not depend on where it was computed. */
#include "feast/la/vector.h"
#include "feast/la/vector_private.h"
#include "feast/base/error.h"
#include "feast/parallel/exchange.h"
#include <stdlib.h>
#include <string.h>

/* st of a kernel launch into the device's record */
static void launched(FeastDevice *d, int st) {
  if (!feast_device_fail(d, st)) d->counts.launches++;
}

/* the device copy of nlocal per-macro host arrays of elem bytes per value (n values each),
 * keyed by the array table */
static const void *per_macro_const(const FeastVec *x, const void *const *arrays, size_t elem) {
  const void *copy = NULL;
  if (feast_device_const(x->device, arrays, arrays, x->nlocal, elem * (size_t)x->n, &copy)) return NULL;
  return copy;
}

static long values_of(const FeastVec *x) { return x->n * x->nb * x->nlocal; }

int feast_vec_device_pointwise(int form, double a, const FeastVec *x, const FeastVec *y, FeastVec *w) {
  const FeastVec *v[] = {w, y, x};
  if (!feast_vec_on_one_device(x ? 3 : 2, v)) return 0;
  FeastDevice *d = w->device;
  const int reads_w = form == FEAST_DEVICE_MULT_ADD || form == FEAST_DEVICE_SCALE_ADD_DIVIDE || w == x || w == y;
  if ((x && feast_vec_on_device(x, FEAST_STAGE_READ)) || feast_vec_on_device(y, FEAST_STAGE_READ) ||
      feast_vec_on_device(w, reads_w ? FEAST_STAGE_UPDATE : FEAST_STAGE_OVERWRITE))
    return 1;
  if (values_of(w))
    launched(d, d->ops->pointwise(d->ctx, form, values_of(w), a, x ? x->dev[0] : NULL, y->dev[0], values_of(w),
                                  w->dev[0]));
  return 1;
}

int feast_vec_device_scale_weights(FeastVec *x) {
  if (!x->device) return 0;
  FeastDevice *d = x->device;
  const double *w = per_macro_const(x, (const void *const *)x->dom->levels[x->level].weight, sizeof(double));
  if (!w || feast_vec_on_device(x, FEAST_STAGE_UPDATE)) return 1;
  if (values_of(x))
    launched(d, d->ops->pointwise(d->ctx, FEAST_DEVICE_MULT, values_of(x), 0.0, x->dev[0], w, x->n * x->nlocal,
                                  x->dev[0]));
  return 1;
}

int feast_vec_device_masked(int form, unsigned char *const *m, int select, const FeastVec *x, FeastVec *y) {
  const FeastVec *v[] = {y, x};
  if (!feast_vec_on_one_device(x ? 2 : 1, v)) return 0;
  FeastDevice *d = y->device;
  const unsigned char *mask = per_macro_const(y, (const void *const *)m, 1);
  if (!mask || (x && feast_vec_on_device(x, FEAST_STAGE_READ)) || feast_vec_on_device(y, FEAST_STAGE_UPDATE))
    return 1;
  if (values_of(y))
    launched(d, d->ops->masked(d->ctx, form, values_of(y), mask, y->n * y->nlocal, select, x ? x->dev[0] : NULL,
                               y->dev[0]));
  return 1;
}

/* the device copy of the matrices A[li] (key: A), or of the partial operators A[li] with
 * the ring rows R[li] (R not NULL; key: R) */
static const double *device_matrices(const FeastBand9 *A, const FeastBand9Ring *R, const FeastVec *x) {
  FeastDevice *d = x->device;
  const int nlocal = x->nlocal;
  const long N = x->N;
  const void *key = R ? (const void *)R : A;
  const void *copy = feast_device_find(d, key);
  if (copy) return copy;
  const double **bands = NULL;
  FeastBand9 *whole = NULL;
  void *block = NULL;
  int st = FEAST_ALLOC((size_t)nlocal * FEAST_NBANDS + 1, &bands);
  if (!st && R) st = FEAST_ALLOC(nlocal + 1, &whole);
  if (!st && R && nlocal) st = feast_band9_create_batch(nlocal, (int)N, whole, &block);
  for (int li = 0; !st && li < nlocal; li++) {
    const FeastBand9 *M = &A[li];
    if (R) { /* A inside, R on the ring: the operator feast_vec_matvec_ring applies */
      for (int k = 0; k < FEAST_NBANDS; k++) memcpy(whole[li].band[k], A[li].band[k], sizeof(double) * N * N);
      feast_band9_ring_put(&R[li], &whole[li]);
      M = &whole[li];
    }
    for (int k = 0; k < FEAST_NBANDS; k++) bands[li * FEAST_NBANDS + k] = M->band[k];
  }
  if (!st) st = feast_device_matrices(d, key, nlocal, N, bands, &copy);
  else feast_device_fail(d, st);
  feast_free_coloured(block);
  free(whole);
  free(bands);
  return st ? NULL : copy;
}

int feast_vec_device_matvec(const FeastBand9 *A, const FeastBand9Ring *R, const FeastVec *x, FeastVec *y, int add) {
  const FeastVec *v[] = {y, x};
  if (!feast_vec_on_one_device(2, v)) return 0;
  FeastDevice *d = y->device;
  const double *bands = x->nlocal ? device_matrices(A, R, x) : NULL;
  if (!x->nlocal || !bands || feast_vec_on_device(x, FEAST_STAGE_READ) ||
      feast_vec_on_device(y, add ? FEAST_STAGE_UPDATE : FEAST_STAGE_OVERWRITE))
    return 1;
  launched(d, d->ops->band9_apply(d->ctx, x->nlocal, x->N, bands, x->dev[0], y->dev[0], add));
  return 1;
}

/* How the interface sums of an exchange run on a device, made at the first sum on a level
 * (the device's constant of key ex, this plan its aux): the items held by this rank's
 * macros alone summed there (item_sums on ptr, offs), those with a holder on another rank
 * through the host exchange with only their local slots' values crossing (the slots at
 * pos[] of the exchange's local slot order, offsets offr). The device copy holds ptr,
 * offs, offr one after the other; offsets are into a block of a level's device vector
 * (local macro li's array at li n). */
typedef struct {
  int items, slots, remote; /* local-only items, their slots; the other local slots */
  int count;                /* the exchange's local slots */
  int *pos;                 /* remote: their positions among the exchange's local slots */
} SumPlan;

static int make_plan(FeastDevice *d, FeastExchange *ex, long n, const SumPlan **plan) {
  const int count = feast_exchange_local_slots(ex, NULL, NULL);
  int *array = NULL, *item = NULL;
  long *index = NULL, *dev = NULL;
  unsigned char *remote = NULL;
  SumPlan *p = NULL;
  int st = FEAST_ALLOC(count + 1, &array);
  if (!st) st = FEAST_ALLOC(count + 1, &item);
  if (!st) st = FEAST_ALLOC(count + 1, &index);
  if (!st) st = FEAST_ALLOC(count + 1, &remote);
  if (!st) st = FEAST_ALLOC(2 * (size_t)count + 2, &dev); /* ptr, local offsets, remote offsets */
  if (!st) st = FEAST_ALLOC(1, &p);
  if (!st) st = FEAST_ALLOC(count + 1, &p->pos);
  if (!st) {
    feast_exchange_local_slots(ex, array, index);
    feast_exchange_local_items(ex, item, remote);
    p->count = count;
    for (int t = 0; t < count; t++) p->slots += !remote[t];
    for (int t = 0; t < count; t++) p->items += !remote[t] && (t == 0 || item[t - 1] != item[t] || remote[t - 1]);
    long *ptr = dev, *offs = dev + p->items + 1, *offr = offs + p->slots;
    int i = 0, s = 0;
    for (int t = 0; t < count; t++) {
      const long off = index[t] + array[t] * n;
      if (remote[t]) {
        p->pos[p->remote] = t;
        offr[p->remote++] = off;
        continue;
      }
      if (t == 0 || item[t - 1] != item[t] || remote[t - 1]) ptr[i++] = s;
      offs[s++] = off;
    }
    ptr[i] = s;
    const void *parts[] = {dev};
    const void *copy;
    st = feast_device_const(d, ex, parts, 1, sizeof(long) * (size_t)(p->items + 1 + count), &copy);
  }
  if (!st) feast_device_set_aux(d, ex, p), *plan = p, p = NULL;
  if (p) free(p->pos);
  free(p);
  free(array);
  free(item);
  free(index);
  free(remote);
  free(dev);
  return feast_device_fail(d, st);
}

int feast_vec_device_sum(FeastVec *x, int *status) {
  *status = 0;
  if (!x->device) return 0;
  FeastDevice *d = x->device;
  FeastExchange *ex = x->dom->levels[x->level].nodes;
  const SumPlan *p = feast_device_aux(d, ex);
  if (!p && (*status = make_plan(d, ex, x->n, &p))) return 1;
  const long *ptr = feast_device_find(d, ex), *offs = ptr + p->items + 1, *offr = offs + p->slots;
  const long stride = x->n * x->nlocal;
  const int nb = x->nb, r = p->remote;
  double *values = NULL, *compact = NULL; /* the exchange's local slots, the remote ones */
  if (r && (*status = feast_device_fail(d, FEAST_ALLOC((size_t)p->count * nb, &values)))) return 1;
  if (r && (*status = feast_device_fail(d, FEAST_ALLOC((size_t)r * nb, &compact)))) return free(values), 1;
  int st = feast_device_status(d);
  if (!st) st = feast_vec_on_device(x, FEAST_STAGE_UPDATE);
  if (!st && p->items) {
    st = feast_device_fail(d, d->ops->item_sums(d->ctx, p->items, nb, stride, ptr, offs, x->dev[0]));
    if (!st) d->counts.launches++;
  }
  /* the items shared with other ranks: every rank takes part in every exchange (one whose
   * device failed with zeros); a rank without such items has no neighbour to meet */
  if (r) {
    if (!st) st = feast_device_fail(d, d->ops->gather(d->ctx, r, nb, stride, offr, x->dev[0], compact));
    for (int b = 0; b < nb; b++) {
      for (int t = 0; t < r; t++) values[(size_t)b * p->count + p->pos[t]] = compact[(size_t)b * r + t];
      const int ex_st = feast_exchange_sum_values(ex, values + (size_t)b * p->count);
      if (ex_st && !st) st = ex_st;
      for (int t = 0; t < r; t++) compact[(size_t)b * r + t] = values[(size_t)b * p->count + p->pos[t]];
    }
    if (!st) st = feast_device_fail(d, d->ops->scatter(d->ctx, r, nb, stride, offr, compact, x->dev[0]));
    if (!st) {
      d->counts.launches += 2;
      d->counts.bytes_interface += 2.0 * sizeof(double) * (double)r * nb;
      d->counts.round_trips++; /* the gather's copy back waits for the device */
    }
  }
  free(values);
  free(compact);
  *status = st;
  return 1;
}

/* the dot products of feast_vec_device_dot_partials: x[i] (or xs[i]) with y[i * ystep] */
static int dot_partials(int k, const FeastVec *const *x, const FeastVecSingle *const *xs, const FeastVec *const *y,
                        int ystep, double *part) {
  const FeastVec *y0 = y[0];
  FeastDevice *d = y0->device;
  const int nlocal = y0->nlocal, nb = y0->nb, arrays = nb * nlocal;
  const long n = y0->n;
  if (!arrays) return 0;
  const void *own = per_macro_const(y0, (const void *const *)y0->dom->levels[y0->level].owned, 1);
  double *s = NULL;
  int st = own ? FEAST_ALLOC((size_t)FEAST_DEVICE_DOTS_MAX * arrays, &s) : feast_device_status(d);
  for (int j = 0; j < k && !st; j += FEAST_DEVICE_DOTS_MAX) {
    const int nk = k - j < FEAST_DEVICE_DOTS_MAX ? k - j : FEAST_DEVICE_DOTS_MAX;
    const double *xb[FEAST_DEVICE_DOTS_MAX], *yb[FEAST_DEVICE_DOTS_MAX];
    const float *xf[FEAST_DEVICE_DOTS_MAX];
    for (int i = 0; i < nk && !st; i++) {
      if (x) st = feast_vec_on_device(x[j + i], FEAST_STAGE_READ);
      if (!st) st = feast_vec_on_device(y[(j + i) * ystep], FEAST_STAGE_READ);
      if (x) xb[i] = x[j + i]->dev[0];
      else xf[i] = xs[j + i]->dev;
      yb[i] = y[(j + i) * ystep]->dev[0];
    }
    if (!st)
      st = feast_device_fail(d, x ? d->ops->dots(d->ctx, nk, arrays, nlocal, n, xb, yb, own, s)
                                  : d->ops->dots_single(d->ctx, nk, arrays, nlocal, n, xf, yb[0], own, s));
    if (st) break;
    d->counts.launches++;
    d->counts.scalars_to_host += (long)nk * arrays;
    d->counts.round_trips++;
    for (int i = 0; i < nk; i++) /* per macro its arrays' sums in block order */
      for (int li = 0; li < nlocal; li++) {
        double sum = s[(size_t)i * arrays + li];
        for (int b = 1; b < nb; b++) sum += s[(size_t)i * arrays + b * nlocal + li];
        part[(j + i) * nlocal + li] = sum;
      }
  }
  free(s);
  return st;
}

int feast_vec_device_dot_partials(int k, const FeastVec *const *x, const FeastVec *const *y, double *part) {
  return dot_partials(k, x, NULL, y, 1, part);
}

int feast_vec_device_single_dot_partials(int k, const FeastVecSingle *const *x, const FeastVec *y, double *part) {
  return dot_partials(k, NULL, x, &y, 0, part);
}

int feast_vec_device_single_store(const FeastVec *x, FeastVecSingle *y) {
  if (!y->device) return 0;
  FeastDevice *d = y->device;
  if (x->device != d) return feast_device_fail(d, FEAST_ERR_ARG), 1; /* never: one domain, one device */
  if (!feast_vec_on_device(x, FEAST_STAGE_READ) && values_of(x))
    launched(d, d->ops->to_single(d->ctx, values_of(x), x->dev[0], y->dev));
  return 1;
}

int feast_vec_device_single_maxpy(int k, const double *a, const FeastVecSingle *const *x, FeastVec *y) {
  if (k <= 0 || !x[0]->device) return 0;
  FeastDevice *d = x[0]->device;
  if (y->device != d) return feast_device_fail(d, FEAST_ERR_ARG), 1; /* never: one domain, one device */
  const float **table = NULL;
  if (feast_device_fail(d, FEAST_ALLOC(k, &table)) || feast_vec_on_device(y, FEAST_STAGE_UPDATE)) {
    free(table);
    return 1;
  }
  for (int j = 0; j < k; j++) table[j] = x[j]->dev;
  if (values_of(y)) {
    launched(d, d->ops->maxpy_single(d->ctx, k, values_of(y), a, table, y->dev[0]));
    d->counts.scalars_to_device += k;
  }
  free(table);
  return 1;
}

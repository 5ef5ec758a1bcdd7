/* The pointwise, masked and per-node operations on vectors and the per-macro matrices
 * applied to them (feast/la/vector.h): the loops over the storage that the floors above
 * would otherwise write again. */
#include "feast/la/vector.h"
#include "feast/la/vector_private.h"
#include "feast/base/error.h"
#include <math.h>
#include <string.h>

/* before a host loop that writes every value of w from x and y (w may be x or y) */
static void host_inputs_output(const FeastVec *x, const FeastVec *y, FeastVec *w) {
  if (x) feast_vec_on_host(x, FEAST_STAGE_READ);
  if (y) feast_vec_on_host(y, FEAST_STAGE_READ);
  feast_vec_on_host(w, w == x || w == y ? FEAST_STAGE_UPDATE : FEAST_STAGE_OVERWRITE);
}

void feast_vec_set(FeastVec *x, double a) {
  if (x->device) {
    feast_vec_device_fill(a, x);
    return;
  }
  FOR_ARRAYS(x, {
    double *xs = x->host[a_];
    for (long i = 0; i < n_; i++) xs[i] = a;
  });
}

void feast_vec_pointwise_mult(const FeastVec *x, const FeastVec *y, FeastVec *w) {
  if (feast_vec_device_pointwise(FEAST_DEVICE_MULT, 0.0, x, y, w)) return;
  host_inputs_output(x, y, w);
  FOR_ARRAYS(w, {
    const double *xs = x->host[a_], *ys = y->host[a_];
    double *ws = w->host[a_];
    for (long i = 0; i < n_; i++) ws[i] = xs[i] * ys[i];
  });
}

void feast_vec_pointwise_divide(const FeastVec *x, const FeastVec *y, FeastVec *w) {
  if (feast_vec_device_pointwise(FEAST_DEVICE_DIVIDE, 0.0, x, y, w)) return;
  host_inputs_output(x, y, w);
  FOR_ARRAYS(w, {
    const double *xs = x->host[a_], *ys = y->host[a_];
    double *ws = w->host[a_];
    for (long i = 0; i < n_; i++) ws[i] = xs[i] / ys[i];
  });
}

void feast_vec_pointwise_mult_add(double a, const FeastVec *x, const FeastVec *y, FeastVec *w) {
  if (feast_vec_device_pointwise(FEAST_DEVICE_MULT_ADD, a, x, y, w)) return;
  feast_vec_on_host(x, FEAST_STAGE_READ);
  feast_vec_on_host(y, FEAST_STAGE_READ);
  feast_vec_on_host(w, FEAST_STAGE_UPDATE);
  FOR_ARRAYS(w, {
    const double *xs = x->host[a_], *ys = y->host[a_];
    double *ws = w->host[a_];
    for (long i = 0; i < n_; i++) ws[i] += a * xs[i] * ys[i];
  });
}

void feast_vec_waxpy(double a, const FeastVec *x, const FeastVec *y, FeastVec *w) {
  const FeastVec *v[] = {x, y, w};
  if (feast_vec_on_one_device(3, v)) { /* the host's a x + y, value by value */
    if (w == x) {
      feast_vec_aypx(a, y, w); /* y + a x */
      return;
    }
    if (w != y) feast_vec_copy(y, w);
    feast_vec_axpy(a, x, w);
    return;
  }
  host_inputs_output(x, y, w);
  FOR_ARRAYS(w, {
    const double *xs = x->host[a_], *ys = y->host[a_];
    double *ws = w->host[a_];
    for (long i = 0; i < n_; i++) ws[i] = a * xs[i] + ys[i];
  });
}

void feast_vec_scale_add_divide(double a, const FeastVec *y, const FeastVec *d, FeastVec *x) {
  if (feast_vec_device_pointwise(FEAST_DEVICE_SCALE_ADD_DIVIDE, a, y, d, x)) return;
  if (y) feast_vec_on_host(y, FEAST_STAGE_READ);
  feast_vec_on_host(d, FEAST_STAGE_READ);
  feast_vec_on_host(x, FEAST_STAGE_UPDATE);
  FOR_ARRAYS(x, {
    const double *ys = y ? y->host[a_] : NULL, *ds = d->host[a_];
    double *xs = x->host[a_];
    for (long i = 0; i < n_; i++) xs[i] = (a * xs[i] + (ys ? ys[i] : 0.0)) / ds[i];
  });
}

void feast_vec_scale_weights(FeastVec *x) {
  if (feast_vec_device_scale_weights(x)) return;
  const FeastLevel *lev = &x->dom->levels[x->level];
  feast_vec_on_host(x, FEAST_STAGE_UPDATE);
  FOR_ARRAYS(x, {
    const double *ws = lev->weight[a_ % x->nlocal];
    double *xs = x->host[a_];
    for (long i = 0; i < n_; i++) xs[i] *= ws[i];
  });
}

void feast_vec_mark_nan(FeastVec *x) {
  if (x->nlocal > 0) feast_vec_block(x, 0, 0)[0] = NAN;
}

/* body for every fixed node i of mask in block b on local macro li (xs: x's values there) */
#define FOR_FIXED(x, b, mask, body)                                                            \
  for (int li = 0; li < (x)->nlocal; li++) {                                                   \
    const unsigned char *fix = (mask)->fixed[(x)->level][li];                                  \
    double *xs = feast_vec_block(x, b, li);                                                    \
    for (long i = 0; i < (x)->n; i++)                                                          \
      if (fix[i]) {                                                                            \
        body                                                                                   \
      }                                                                                        \
  }

/* y_b <- form(x_b, y_b) at the fixed nodes of mask on the device; 0 if not there */
static int device_fixed(int form, const FeastVec *x, FeastVec *y, int b, const FeastMask *mask) {
  FeastVec xb, yb;
  if (x) feast_vec_view(x, b, &xb);
  feast_vec_view(y, b, &yb);
  return feast_vec_device_masked(form, mask->fixed[y->level], 1, x ? &xb : NULL, &yb);
}

void feast_vec_zero_fixed(FeastVec *x, int b, const FeastMask *mask) {
  if (device_fixed(FEAST_DEVICE_ZERO, NULL, x, b, mask)) return;
  FOR_FIXED(x, b, mask, xs[i] = 0.0;)
}

void feast_vec_copy_fixed(const FeastVec *x, FeastVec *y, int b, const FeastMask *mask) {
  if (device_fixed(FEAST_DEVICE_COPY, x, y, b, mask)) return;
  FOR_FIXED(y, b, mask, xs[i] = feast_vec_block_read(x, b, li)[i];)
}

void feast_vec_sub_fixed(const FeastVec *x, FeastVec *y, int b, const FeastMask *mask) {
  if (device_fixed(FEAST_DEVICE_SUB, x, y, b, mask)) return;
  FOR_FIXED(y, b, mask, xs[i] = xs[i] - feast_vec_block_read(x, b, li)[i];)
}

int feast_vec_set_nodes(FeastVec *x, int b, const FeastMask *mask, FeastNodeFn fn, void *ctx) {
  const FeastLevel *lev = &x->dom->levels[x->level];
  const long n = x->n;
  FEAST_CHECK(x->dom->mesh->dim != 3, FEAST_ERR_ARG, "feast_vec_set_nodes: a function of (x, y) on a 3D mesh");
  for (int li = 0; li < x->nlocal; li++) {
    const unsigned char *fix = mask ? mask->fixed[x->level][li] : NULL;
    const double *xy = lev->xy[li];
    double *xs = feast_vec_block(x, b, li);
    for (long i = 0; i < n; i++) {
      const int st = !fix || fix[i] ? fn(ctx, xy[2 * i], xy[2 * i + 1], &xs[i]) : 0;
      if (st) return st;
    }
  }
  return 0;
}

void feast_vec_matvec(const FeastBand9 *A, const FeastVec *x, FeastVec *y) {
  if (feast_vec_device_matvec(A, NULL, x, y, 0)) return;
  host_inputs_output(x, NULL, y);
  for (int li = 0; li < x->nlocal; li++) feast_band9_matvec(&A[li], x->host[li], y->host[li]);
}

void feast_vec_matvec_ring(const FeastBand9 *A, const FeastBand9Ring *R, const FeastVec *x, FeastVec *y) {
  if (feast_vec_device_matvec(A, R, x, y, 0)) return;
  host_inputs_output(x, NULL, y);
  for (int li = 0; li < x->nlocal; li++) {
    if (!R) {
      feast_band9_matvec(&A[li], x->host[li], y->host[li]);
      continue;
    }
    feast_band9_ring_matvec(&R[li], x->host[li], y->host[li]);
    feast_band9_matvec_part(&A[li], x->host[li], y->host[li], 1);
  }
}

void feast_vec_matvec_row(int ncols, const FeastBand9 *const *A, const FeastVec *const *x, FeastVec *y) {
  int device = y->device != NULL;
  for (int c = 0; c < ncols && device; c++) device = !A[c] || feast_vec_on_one_device(2, (const FeastVec *[]){y, x[c]});
  if (device) {
    feast_vec_zero(y);
    for (int c = 0; c < ncols; c++)
      if (A[c]) feast_vec_matvec_add(A[c], x[c], y);
    return;
  }
  for (int c = 0; c < ncols; c++)
    if (A[c]) feast_vec_on_host(x[c], FEAST_STAGE_READ);
  feast_vec_on_host(y, FEAST_STAGE_OVERWRITE);
  for (int li = 0; li < y->nlocal; li++) { /* macro by macro: y's array stays in the cache */
    memset(y->host[li], 0, sizeof(double) * y->n);
    for (int c = 0; c < ncols; c++)
      if (A[c]) feast_band9_matvec_add(&A[c][li], x[c]->host[li], y->host[li]);
  }
}

void feast_vec_matrices_changed(const FeastDomain *dom, const void *A) { feast_device_drop(dom->device, A); }

void feast_vec_matvec_add(const FeastBand9 *A, const FeastVec *x, FeastVec *y) {
  if (feast_vec_device_matvec(A, NULL, x, y, 1)) return;
  feast_vec_on_host(x, FEAST_STAGE_READ);
  feast_vec_on_host(y, FEAST_STAGE_UPDATE);
  for (int li = 0; li < x->nlocal; li++) feast_band9_matvec_add(&A[li], x->host[li], y->host[li]);
}

void feast_vec_diagonal(const FeastBand9 *A, FeastVec *d) {
  const int centre = feast_band_index(0, 0);
  feast_vec_on_host(d, FEAST_STAGE_OVERWRITE);
  for (int li = 0; li < d->nlocal; li++)
    memcpy(d->host[li], A[li].band[centre], sizeof(double) * A[li].N * A[li].N);
}

#include "feast/la/vector.h"
#include "feast/la/vector_private.h"
#include "feast/la/band9.h"
#include "feast/base/error.h"
#include "feast/base/log.h"
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* the record of a vector without its storage */
static int vec_record(const FeastDomain *dom, int level, int nb, FeastVec **xp) {
  FeastVec *x;
  FEAST_CALL(FEAST_ALLOC(1, &x));
  *xp = x;
  x->dom = dom;
  x->level = level;
  x->N = dom->levels[level].N;
  x->n = dom->levels[level].nodes_per_macro;
  x->nb = nb;
  x->nlocal = dom->nlocal;
  return FEAST_ALLOC(nb * dom->nlocal + 1, &x->host);
}

int feast_vec_create_set(const FeastDomain *dom, int level, int nb, int count, FeastVec **const *vecs) {
  for (int i = 0; i < count; i++) FEAST_CALL(vec_record(dom, level, nb, vecs[i]));
  const int arrays = nb * dom->nlocal;
  if (!arrays || count < 1) return 0;
  /* one zeroed block for all arrays (huge pages once it reaches 2 MiB: one page fault per
   * 2 MiB instead of one per 4 KiB), each padded like feast_grid_alloc and starting on
   * the colour after the nine (27, modulo 16) bands of a matrix (feast_alloc_coloured) */
  char **all;
  FEAST_CALL(FEAST_ALLOC((size_t)count * arrays, &all));
  const int N = dom->levels[level].N, hex = dom->mesh->dim == 3;
  const size_t pad = (size_t)(hex ? feast_stencil_pad(&feast_stencil_q1_3d, N) : FEAST_PAD(N));
  const int rc = feast_alloc_coloured_groups(count * arrays, 1, (size_t)dom->levels[level].nodes_per_macro + 2 * pad,
                                             sizeof(double), pad, hex ? FEAST_STENCIL_BANDS(3) % 16 : FEAST_NBANDS, all,
                                             &(*vecs[0])->block);
  for (int i = 0; i < count && !rc; i++) memcpy((*vecs[i])->host, all + (size_t)i * arrays, sizeof(char *) * arrays);
  free(all);
  if (!rc && dom->device) FEAST_CALL(feast_vec_device_create_set(count, vecs));
  return rc;
}

int feast_vec_create(const FeastDomain *dom, int level, int nb, FeastVec **xp) {
  FeastVec **one[] = {xp};
  return feast_vec_create_set(dom, level, nb, 1, one);
}

void feast_vec_destroy(FeastVec **xp) {
  FeastVec *x = *xp;
  if (!x) return;
  if (x->view) {
    *xp = NULL;
    return;
  }
  feast_vec_device_destroy(x);
  feast_free_coloured(x->block);
  free(x->host);
  feast_free(xp);
}

void feast_vec_view(const FeastVec *x, int b, FeastVec *view) {
  *view = *x;
  view->nb = 1;
  view->host = x->host + (long)b * x->nlocal;
  view->view = 1;
  if (x->device) {
    view->dev = x->dev + (long)b * x->nlocal;
    view->valid = x->valid + (long)b * x->nlocal;
  }
}

/* ---- the BLAS-1 operations on the device (every operand there) ----
 * A device vector's arrays lie one after the other (feast_vec_device_create_set), those
 * of a view too: a kernel covers all of them in one launch, from dev[0]. */

/* y <- a x + b y in the exact forms of FeastDeviceOps.axpby (x NULL: b y) */
static void device_axpby(double a, const FeastVec *x, double b, FeastVec *y) {
  FeastDevice *d = y->device;
  const int access = x && b == 0.0 ? FEAST_STAGE_OVERWRITE : FEAST_STAGE_UPDATE;
  const int arrays = y->nb * y->nlocal;
  if ((x && feast_vec_on_device(x, FEAST_STAGE_READ)) || feast_vec_on_device(y, access)) return;
  if (!arrays || feast_device_fail(d, d->ops->axpby(d->ctx, y->n * arrays, a, x ? x->dev[0] : NULL, b, y->dev[0])))
    return;
  d->counts.launches++;
}

void feast_vec_device_fill(double a, FeastVec *x) {
  FeastDevice *d = x->device;
  const int arrays = x->nb * x->nlocal;
  if (feast_vec_on_device(x, FEAST_STAGE_OVERWRITE)) return;
  if (!arrays || feast_device_fail(d, d->ops->fill(d->ctx, x->n * arrays, a, x->dev[0]))) return;
  d->counts.launches++;
}

static int on_device2(const FeastVec *x, const FeastVec *y) {
  const FeastVec *v[] = {x, y};
  return feast_vec_on_one_device(2, v);
}


void feast_vec_zero(FeastVec *x) {
  if (x->device) {
    feast_vec_device_fill(0.0, x);
    return;
  }
  FOR_ARRAYS(x, memset(x->host[a_], 0, sizeof(double) * n_););
}

void feast_vec_copy(const FeastVec *x, FeastVec *y) {
  if (on_device2(x, y)) {
    device_axpby(1.0, x, 0.0, y);
    return;
  }
  feast_vec_on_host(x, FEAST_STAGE_READ);
  feast_vec_on_host(y, x == y ? FEAST_STAGE_UPDATE : FEAST_STAGE_OVERWRITE);
  FOR_ARRAYS(x, memcpy(y->host[a_], x->host[a_], sizeof(double) * n_););
}

void feast_vec_axpy(double a, const FeastVec *x, FeastVec *y) {
  if (on_device2(x, y)) {
    device_axpby(a, x, 1.0, y);
    return;
  }
  feast_vec_on_host(x, FEAST_STAGE_READ);
  feast_vec_on_host(y, FEAST_STAGE_UPDATE);
  FOR_ARRAYS(x, {
    const double *restrict xs = x->host[a_];
    double *restrict ys = y->host[a_];
    for (long i = 0; i < n_; i++) ys[i] += a * xs[i];
  });
}

/* chunks of this many values: y's chunk stays in L1 while every x_i passes over it */
enum { MAXPY_CHUNK = 512 };

void feast_vec_maxpy(int k, const double *a, const FeastVec *const *x, FeastVec *y) {
  int device = y->device != NULL;
  for (int j = 0; j < k && device; j++) device = on_device2(x[j], y);
  if (device) { /* k passes over y: the same sums, value by value (see vector.h) */
    for (int j = 0; j < k; j++) device_axpby(a[j], x[j], 1.0, y);
    return;
  }
  for (int j = 0; j < k; j++) feast_vec_on_host(x[j], FEAST_STAGE_READ);
  feast_vec_on_host(y, FEAST_STAGE_UPDATE);
  FOR_ARRAYS(y, {
    double *restrict ys = y->host[a_];
    for (long c = 0; c < n_; c += MAXPY_CHUNK) {
      const long end = c + MAXPY_CHUNK < n_ ? c + MAXPY_CHUNK : n_;
      for (int j = 0; j < k; j++) {
        const double *restrict xs = x[j]->host[a_];
        const double aj = a[j];
        for (long i = c; i < end; i++) ys[i] += aj * xs[i];
      }
    }
  });
}

void feast_vec_aypx(double a, const FeastVec *x, FeastVec *y) {
  if (on_device2(x, y)) {
    device_axpby(1.0, x, a, y);
    return;
  }
  feast_vec_on_host(x, FEAST_STAGE_READ);
  feast_vec_on_host(y, FEAST_STAGE_UPDATE);
  FOR_ARRAYS(x, {
    const double *restrict xs = x->host[a_];
    double *restrict ys = y->host[a_];
    for (long i = 0; i < n_; i++) ys[i] = xs[i] + a * ys[i];
  });
}

void feast_vec_scale(double a, FeastVec *x) {
  if (x->device) {
    device_axpby(0.0, NULL, a, x);
    return;
  }
  FOR_ARRAYS(x, {
    double *restrict xs = x->host[a_];
    for (long i = 0; i < n_; i++) xs[i] *= a;
  });
}

/* The products of a macro's owned nodes are summed in DOT_LANES interleaved partial sums
 * (node i of a block into sum i mod DOT_LANES, the blocks one after the other) that a fixed
 * tree then adds: an order set by the macro alone, so the same at every rank count, and
 * SIMD-wide (AVX-512 where the compiler targets it, the same sums in plain C elsewhere).
 * Summed in node order, one chain per product, the adder's latency bounded the loop
 * (FGMRES's Gram-Schmidt: 10 % of the graded cavity at Re = 400,
 * docs/notes/krylov-methods.md). */
enum { DOT_LANES = 8, DOT_MAX = 4 };
#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512VL__)
#include <immintrin.h>
#define DOT_AVX512 1
#else
#define DOT_AVX512 0
#endif

/* s[k][l] += x_k y_k over the owned nodes i < n of one block with i mod DOT_LANES = l, k < nk */
static inline void dot_lanes(int nk, const double *const *x, const double *const *y, const unsigned char *own,
                             long n, double (*s)[DOT_LANES]) {
  long i = 0;
#if DOT_AVX512
  __m512d acc[DOT_MAX];
  for (int k = 0; k < nk; k++) acc[k] = _mm512_loadu_pd(s[k]);
  for (; i + DOT_LANES <= n; i += DOT_LANES) {
    const __m128i o = _mm_loadl_epi64((const __m128i *)(own + i));
    const __mmask8 m = (__mmask8)_mm_test_epi8_mask(o, o);
    for (int k = 0; k < nk; k++) {
      const __m512d p = _mm512_mul_pd(_mm512_loadu_pd(x[k] + i), _mm512_loadu_pd(y[k] + i));
      acc[k] = _mm512_mask_add_pd(acc[k], m, acc[k], p);
    }
  }
  for (int k = 0; k < nk; k++) _mm512_storeu_pd(s[k], acc[k]);
#else
  for (; i + DOT_LANES <= n; i += DOT_LANES)
    for (int l = 0; l < DOT_LANES; l++)
      if (own[i + l])
        for (int k = 0; k < nk; k++) s[k][l] += x[k][i + l] * y[k][i + l];
#endif
  for (int l = 0; i < n; i++, l++)
    if (own[i])
      for (int k = 0; k < nk; k++) s[k][l] += x[k][i] * y[k][i];
}

/* the lanes' partial sums added by the fixed tree */
static inline double lanes_sum(const double s[DOT_LANES]) {
  return ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
}

/* nk <= DOT_MAX sums <x_k, y_k> over the owned nodes of local macro li (n nodes per block) */
static void dot_macro(int nk, const FeastVec *const *x, const FeastVec *const *y, int li, long n,
                      const unsigned char *own, double *out) {
  double s[DOT_MAX][DOT_LANES] = {{0}};
  for (int b = 0; b < x[0]->nb; b++) {
    const double *xb[DOT_MAX], *yb[DOT_MAX];
    for (int k = 0; k < nk; k++) xb[k] = feast_vec_block_read(x[k], b, li), yb[k] = feast_vec_block_read(y[k], b, li);
    if (nk == DOT_MAX) dot_lanes(DOT_MAX, xb, yb, own, n, s); /* inlined with the count known */
    else dot_lanes(nk, xb, yb, own, n, s);
  }
  for (int k = 0; k < nk; k++) out[k] = lanes_sum(s[k]);
}

/* how many pairs from j on (at most DOT_MAX) have x[j]'s block count */
static int alike(int k, const FeastVec *const *x, int j) {
  int m = 1;
  while (m < DOT_MAX && j + m < k && x[j + m]->nb == x[j]->nb) m++;
  return m;
}

/* 1 if the k products' vectors all live on one device and have one block count */
static int dots_on_device(int k, const FeastVec *const *x, const FeastVec *const *y) {
  for (int i = 0; i < k; i++)
    if (!on_device2(x[i], x[0]) || !on_device2(y[i], x[0]) || x[i]->nb != x[0]->nb || y[i]->nb != x[0]->nb)
      return 0;
  return k > 0;
}

/* per macro and product: sum over owned nodes (summed over macros in order by the caller);
 * DOT_MAX products of the same block count at a time (one pass over the mask) */
static void dot_partials(int k, const FeastVec *const *x, const FeastVec *const *y, double *part) {
  const FeastDomain *dom = x[0]->dom;
  const FeastLevel *lev = &dom->levels[x[0]->level];
  const long n = x[0]->n;
  for (int li = 0; li < dom->nlocal; li++)
    for (int j = 0; j < k;) {
      const int nk = alike(k, x, j);
      double s[DOT_MAX];
      dot_macro(nk, x + j, y + j, li, n, lev->owned[li], s);
      for (int i = 0; i < nk; i++) part[(j + i) * dom->nlocal + li] = s[i];
      j += nk;
    }
}

int feast_vec_dots_begin(int k, const FeastVec *const *x, const FeastVec *const *y, int blocking, FeastMacroSum *r) {
  const FeastDomain *dom = x[0]->dom;
  double *part;
  FEAST_CALL(FEAST_ALLOC((size_t)k * dom->nlocal + 1, &part));
  int st = 0;
  if (dots_on_device(k, x, y)) st = feast_vec_device_dot_partials(k, x, y, part);
  else dot_partials(k, x, y, part);
  /* a failed device sum: NaN into the reduction (every rank takes part), the failure
   * recorded in the device (feast_device_status) */
  for (int i = 0; st && i < k * dom->nlocal; i++) part[i] = NAN;
  st = feast_domain_sum_macros_begin(dom, k, part, blocking, r);
  free(part);
  return st;
}

int feast_vec_dots_end(FeastMacroSum *r, double *out) { return feast_domain_sum_macros_end(r, out); }

int feast_vec_dots(int k, const FeastVec *const *x, const FeastVec *const *y, double *out) {
  FeastMacroSum r;
  FEAST_CALL(feast_vec_dots_begin(k, x, y, 1, &r));
  return feast_vec_dots_end(&r, out);
}

/* ---- single-precision copies (FeastVecSingle) ---- */

int feast_vec_single_create(const FeastDomain *dom, int level, int nb, FeastVecSingle **xp) {
  FeastVecSingle *x;
  FEAST_CALL(FEAST_ALLOC(1, &x));
  *xp = x;
  *x = (FeastVecSingle){dom, level, dom->levels[level].N, nb, dom->nlocal, NULL, NULL, NULL, NULL};
  const long n = dom->levels[level].nodes_per_macro, stride = (n + 15) / 16 * 16; /* 64-byte multiples */
  const int arrays = nb * dom->nlocal;
  if (dom->device) { /* in device memory only, the arrays one after the other */
    FeastDevice *d = dom->device;
    x->device = d;
    return feast_device_fail(d, d->ops->alloc(d->ctx, sizeof(float) * (size_t)n * (size_t)arrays, (void **)&x->dev));
  }
  FEAST_CALL(FEAST_ALLOC(arrays + 1, &x->host));
  float *block;
  FEAST_CALL(FEAST_ALLOC((size_t)arrays * stride + 1, &block));
  x->block = block;
  for (int a = 0; a < arrays; a++) x->host[a] = block + (size_t)a * stride;
  return 0;
}

void feast_vec_single_destroy(FeastVecSingle **xp) {
  if (!*xp) return;
  if ((*xp)->device) (*xp)->device->ops->release((*xp)->device->ctx, (*xp)->dev);
  free((*xp)->block);
  free((*xp)->host);
  feast_free(xp);
}

void feast_vec_single_store(const FeastVec *x, FeastVecSingle *y) {
  if (feast_vec_device_single_store(x, y)) return;
  feast_vec_on_host(x, FEAST_STAGE_READ);
  FOR_ARRAYS(x, {
    const double *restrict xs = x->host[a_];
    float *restrict ys = y->host[a_];
    for (long i = 0; i < n_; i++) ys[i] = (float)xs[i];
  });
}

/* s[k][l] += x_k y over the owned nodes i < n of one block with i mod DOT_LANES = l, k <
 * nk (x_k single, widened exactly): dot_lanes' sums for the pairs (x_k, y) */
static inline void dot_lanes_single(int nk, const float *const *x, const double *y, const unsigned char *own, long n,
                                    double (*s)[DOT_LANES]) {
  long i = 0;
#if DOT_AVX512
  __m512d acc[DOT_MAX];
  for (int k = 0; k < nk; k++) acc[k] = _mm512_loadu_pd(s[k]);
  for (; i + DOT_LANES <= n; i += DOT_LANES) {
    const __m128i o = _mm_loadl_epi64((const __m128i *)(own + i));
    const __mmask8 m = (__mmask8)_mm_test_epi8_mask(o, o);
    const __m512d yv = _mm512_loadu_pd(y + i);
    for (int k = 0; k < nk; k++) {
      const __m512d p = _mm512_mul_pd(_mm512_cvtps_pd(_mm256_loadu_ps(x[k] + i)), yv);
      acc[k] = _mm512_mask_add_pd(acc[k], m, acc[k], p);
    }
  }
  for (int k = 0; k < nk; k++) _mm512_storeu_pd(s[k], acc[k]);
#else
  for (; i + DOT_LANES <= n; i += DOT_LANES)
    for (int l = 0; l < DOT_LANES; l++)
      if (own[i + l])
        for (int k = 0; k < nk; k++) s[k][l] += (double)x[k][i + l] * y[i + l];
#endif
  for (int l = 0; i < n; i++, l++)
    if (own[i])
      for (int k = 0; k < nk; k++) s[k][l] += (double)x[k][i] * y[i];
}

int feast_vec_single_dots(int k, const FeastVecSingle *const *x, const FeastVec *y, double *out) {
  const FeastDomain *dom = y->dom;
  const FeastLevel *lev = &dom->levels[y->level];
  const long n = y->n;
  double *part;
  FEAST_CALL(FEAST_ALLOC((size_t)k * dom->nlocal + 1, &part));
  const int device = k > 0 && x[0]->device;
  if (device && feast_vec_device_single_dot_partials(k, x, y, part))
    for (int i = 0; i < k * dom->nlocal; i++) part[i] = NAN; /* a failure, as in feast_vec_dots_begin */
  for (int li = 0; li < dom->nlocal && !device; li++)
    for (int j = 0; j < k; j += DOT_MAX) {
      const int nk = k - j < DOT_MAX ? k - j : DOT_MAX;
      double s[DOT_MAX][DOT_LANES] = {{0}};
      for (int b = 0; b < y->nb; b++) {
        const float *xb[DOT_MAX];
        for (int i = 0; i < nk; i++) xb[i] = x[j + i]->host[b * y->nlocal + li];
        dot_lanes_single(nk, xb, feast_vec_block_read(y, b, li), lev->owned[li], n, s);
      }
      for (int i = 0; i < nk; i++) part[(j + i) * dom->nlocal + li] = lanes_sum(s[i]);
    }
  FeastMacroSum r;
  int st = feast_domain_sum_macros_begin(dom, k, part, 1, &r);
  free(part);
  return st ? st : feast_domain_sum_macros_end(&r, out);
}

void feast_vec_single_maxpy(int k, const double *a, const FeastVecSingle *const *x, FeastVec *y) {
  if (feast_vec_device_single_maxpy(k, a, x, y)) return;
  feast_vec_on_host(y, FEAST_STAGE_UPDATE);
  FOR_ARRAYS(y, {
    double *restrict ys = y->host[a_];
    for (long c = 0; c < n_; c += MAXPY_CHUNK) {
      const long end = c + MAXPY_CHUNK < n_ ? c + MAXPY_CHUNK : n_;
      for (int j = 0; j < k; j++) {
        const float *restrict xs = x[j]->host[a_];
        const double aj = a[j];
        for (long i = c; i < end; i++) ys[i] += aj * (double)xs[i];
      }
    }
  });
}

int feast_vec_dot(const FeastVec *x, const FeastVec *y, double *out) {
  return feast_vec_dots(1, &x, &y, out);
}

int feast_vec_norm(const FeastVec *x, double *out) {
  double d;
  FEAST_CALL(feast_vec_dot(x, x, &d));
  *out = sqrt(d);
  return 0;
}

int feast_vec_sum(FeastVec *x) {
  int st;
  if (feast_vec_device_sum(x, &st)) return st;
  feast_vec_on_host(x, FEAST_STAGE_UPDATE);
  for (int b = 0; b < x->nb; b++)
    FEAST_CALL(feast_domain_sum(x->dom, x->level, x->host + b * x->nlocal));
  return 0;
}

void feast_vec_to_partial(FeastVec *x) {
  const FeastLevel *lev = &x->dom->levels[x->level];
  if (feast_vec_device_masked(FEAST_DEVICE_ZERO, lev->owned, 0, NULL, x)) return;
  feast_vec_on_host(x, FEAST_STAGE_UPDATE);
  FOR_ARRAYS(x, {
    const unsigned char *own = lev->owned[a_ % x->nlocal];
    double *xs = x->host[a_];
    for (long i = 0; i < n_; i++)
      if (!own[i]) xs[i] = 0.0;
  });
}

int feast_vec_finite(const FeastVec *x) {
  int ok = 1;
  feast_vec_on_host(x, FEAST_STAGE_READ);
  FOR_ARRAYS(x, {
    const double *xs = x->host[a_];
    for (long i = 0; i < n_; i++) ok &= isfinite(xs[i]);
  });
  return ok;
}

/* splitmix64's finaliser */
static uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/* the coordinate rounded to 2^-30 as an integer */
static uint64_t hash_coord(double c) { return (uint64_t)(int64_t)llround(c * 1073741824.0); }

void feast_vec_fill_hash(FeastVec *x) {
  const FeastLevel *lev = &x->dom->levels[x->level];
  const int dim = x->dom->mesh->dim == 3 ? 3 : 2;
  feast_vec_on_host(x, FEAST_STAGE_OVERWRITE);
  for (int b = 0; b < x->nb; b++)
    for (int li = 0; li < x->nlocal; li++) {
      double *v = feast_vec_block(x, b, li);
      const double *xy = lev->xy[li];
      for (long i = 0; i < x->n; i++) {
        const double *p = xy + dim * i;
        uint64_t h = mix64(mix64(hash_coord(p[0]) + 0x9e3779b97f4a7c15ULL) ^ hash_coord(p[1]));
        if (dim == 3) h = mix64(h ^ hash_coord(p[2]));
        h = mix64(h ^ (uint64_t)b);
        v[i] = (double)(h >> 11) * 0x1.0p-52 - 1.0;
      }
    }
}

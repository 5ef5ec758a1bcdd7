/* A memory space apart from the host's, for vectors that live in it (issue #46,
 * solver.residency = device): what the la floor needs of a device, as a table of
 * operations a backend provides (coproc/cuda/device_vec.cu for CUDA and its host
 * emulator), and what crossed between the two memories, counted.
 *
 * A domain with a device (FeastDomain.device) creates its vectors there: every array
 * (block b on local macro li, n values) has a device copy and a host copy, and a record of
 * which of them is current (FeastVec.valid). The la floor's BLAS-1 operations and dot
 * products run on the device when every operand lives there (feast/la/vector.c); every
 * other use of the values, the accessors feast_vec_block* included, brings the host copy
 * up to date first and, when it may write, marks the device copy stale (staging). So
 * results never depend on where a value was computed, only the counts do: the bytes that
 * crossed, per direction, are what a device-resident run still owes to the host.
 *
 * The kernels' arithmetic is the host's value by value (y + a x, x + a y, a x: the same
 * roundings); the dot products are summed per array in the backend's fixed order and per
 * macro in block order, then over the macros in global macro order as on the host: the
 * same bits at any number of ranks, and the host's sums within rounding. */
#ifndef FEAST_DEVICE_H
#define FEAST_DEVICE_H
#include <stddef.h>

enum { FEAST_DEVICE_DOTS_MAX = 4 }; /* products of one FeastDeviceOps.dots call */

typedef struct {
  const char *name; /* e.g. "cuda", "cuda-emulator" */
  /* device memory of bytes, zeroed; release(NULL) does nothing */
  int (*alloc)(void *ctx, size_t bytes, void **ptr);
  void (*release)(void *ctx, void *ptr);
  int (*to_host)(void *ctx, void *host, const void *dev, size_t bytes);
  int (*to_device)(void *ctx, void *dev, const void *host, size_t bytes);
  /* y[i] <- a for i < n */
  int (*fill)(void *ctx, long n, double a, double *y);
  /* y[i] <- a x[i] + b y[i] for i < n, with these exact forms: b = 0: a x (y not read;
   * a = 1: a copy), x NULL: b y, a = 1: x + b y, b = 1: y + a x */
  int (*axpby)(void *ctx, long n, double a, const double *x, double b, double *y);
  /* arrays of n values one after the other (array a at a n), array a on local macro
   * a mod nlocal: out[k arrays + a] <- the sum of x_k[i] y_k[i] over the values i of
   * array a whose node its macro owns (own[(a mod nlocal) n + i] != 0), for k < count <=
   * FEAST_DEVICE_DOTS_MAX (x, y, own device pointers; out on the host), each sum in the
   * backend's fixed order */
  int (*dots)(void *ctx, int count, int arrays, int nlocal, long n, const double *const *x,
              const double *const *y, const unsigned char *own, double *out);
  /* y <- A x (add 0) or y + A x (add 1) for nmat 9-band matrices of N x N nodes (feast/la/
   * band9.h): matrix m's band k at bands[(9 m + k) N N], x and y nmat arrays of N N values
   * one after the other (array m at m N N), x != y; per row feast_band9_row's sum, a
   * neighbour outside array m read as the host's zero padding */
  int (*band9_apply)(void *ctx, int nmat, long N, const double *bands, const double *x, double *y, int add);
  /* w[i] <- form(a, x[i], y[i mod period], w[i]) for i < n (FeastDevicePointwise; x may be
   * NULL where the form does not read it, w may be x) */
  int (*pointwise)(void *ctx, int form, long n, double a, const double *x, const double *y, long period, double *w);
  /* where (m[i mod period] != 0) == select, for i < n: y[i] <- form(x[i], y[i])
   * (FeastDeviceMasked; x NULL for FEAST_DEVICE_ZERO) */
  int (*masked)(void *ctx, int form, long n, const unsigned char *m, long period, int select, const double *x,
                double *y);
  /* the interface values of an exchange on blocks blocks (block b of x at b stride):
   * out[b count + s] <- x[b stride + off[s]] for s < count (gather; off and x on the
   * device, out on the host), x[b stride + off[s]] <- in[b count + s] (scatter; in on the
   * host): one copy each way */
  int (*gather)(void *ctx, long count, int blocks, long stride, const long *off, const double *x, double *out);
  int (*scatter)(void *ctx, long count, int blocks, long stride, const long *off, const double *in, double *x);
  /* a FGMRES basis in single precision (FeastVecSingle): y[i] <- x[i] rounded to float for
   * i < n; dots as above with x_k single (widened exactly) and one y; y[i] <- y[i] + a_0
   * x_0[i] + ... + a_{k-1} x_{k-1}[i] left to right for i < n (a and the table x on the
   * host, the arrays x[j] and y on the device) */
  int (*to_single)(void *ctx, long n, const double *x, float *y);
  int (*dots_single)(void *ctx, int count, int arrays, int nlocal, long n, const float *const *x, const double *y,
                     const unsigned char *own, double *out);
  int (*maxpy_single)(void *ctx, int k, long n, const double *a, const float *const *x, double *y);
  /* the interface sums of items whose holders are all on this rank, on the device: for
   * item i < nitems and block b < blocks, the values x[b stride + off[s]] for ptr[i] <= s <
   * ptr[i+1] summed in that order from 0 and written back to each (ptr, off device
   * arrays; the host exchange's sum, bitwise) */
  int (*item_sums)(void *ctx, long nitems, int blocks, long stride, const long *ptr, const long *off, double *x);
  /* grid transfer between the levels of arrays macros (from's arrays of Nfrom^2 values one
   * after the other, to's of Nto^2): upward 1 the bilinear prolongation (Nto = 2 Nfrom -
   * 1), 0 the restriction, its transpose (Nto = (Nfrom + 1) / 2), per node as the host
   * (feast_prolongate_point_d, feast_restrict_point_d) */
  int (*transfer)(void *ctx, int upward, int arrays, int Nfrom, const double *from, double *to);
} FeastDeviceOps;

/* the forms of FeastDeviceOps.pointwise, each rounded as the host's loop rounds it */
enum {
  FEAST_DEVICE_MULT,            /* w <- x y */
  FEAST_DEVICE_DIVIDE,          /* w <- x / y */
  FEAST_DEVICE_MULT_ADD,        /* w <- w + a x y */
  FEAST_DEVICE_SCALE_ADD_DIVIDE /* w <- (a w + x) / y, x NULL: (a w + 0) / y */
};
/* the forms of FeastDeviceOps.masked */
enum { FEAST_DEVICE_ZERO, FEAST_DEVICE_COPY, FEAST_DEVICE_SUB /* y <- 0, x, y - x */ };

typedef struct {
  double bytes_to_device, bytes_to_host; /* values of vectors, staged */
  long copies_to_device, copies_to_host; /* of vectors' arrays */
  double bytes_const;                    /* constant data (masks, weights, exchange slots), once each */
  double bytes_matrices;                 /* matrices, once after each change (assembly) */
  double bytes_interface;                /* interface values of exchanges, both ways */
  long launches;                         /* kernels run on vectors */
  long scalars_to_host;                  /* results of reductions */
  long scalars_to_device;                /* coefficients of combinations (FGMRES's Gram-Schmidt) */
  long round_trips;                      /* waits of the host for the device's results (copies back, reductions) */
} FeastDeviceCounts;

typedef struct FeastDeviceConst FeastDeviceConst; /* device.c */

typedef struct FeastDevice {
  const FeastDeviceOps *ops;
  void *ctx;
  FeastDeviceCounts counts;
  int status;      /* the first failure (sticky): the error of a void operation */
  int poison;      /* 1: a host copy that becomes stale is filled with NaN (tests) */
  FeastDeviceConst *consts; /* device copies of constant host arrays */
} FeastDevice;

/* a device on ops/ctx (ops->name names it), counts zero */
int feast_device_create(const FeastDeviceOps *ops, void *ctx, FeastDevice **dev);
/* frees the constant copies (before the backend's context goes) */
void feast_device_destroy(FeastDevice **dev);
/* the device copy of bytes of constant host data (the concatenation of the parts
 * arrays of part_bytes each at parts[0..]), found by key, made on the first request
 * (counted in bytes_const) and kept until feast_device_destroy */
int feast_device_const(FeastDevice *dev, const void *key, const void *const *parts, int nparts, size_t part_bytes,
                       const void **copy);
/* the device copy of nmat 9-band matrices of N x N nodes (band k of matrix m: bands[9 m +
 * k], host arrays), found by key or made (counted in bytes_matrices) and kept until
 * feast_device_drop(key): the layout FeastDeviceOps.band9_apply reads */
int feast_device_matrices(FeastDevice *dev, const void *key, int nmat, long N, const double *const *bands,
                          const void **copy);
/* host data that belongs with key's device copy (a plan of how to use it): aux (from
 * malloc) is the entry's from now on, freed with it; feast_device_aux gives it back
 * (NULL if none) */
void feast_device_set_aux(FeastDevice *dev, const void *key, void *aux);
void *feast_device_aux(const FeastDevice *dev, const void *key);
/* the device copy made for key (feast_device_const, feast_device_matrices), NULL if none */
const void *feast_device_find(const FeastDevice *dev, const void *key);
/* the device copy made for key (feast_device_const, feast_device_matrices) goes, if there
 * is one: after the host data changed, before it is freed */
void feast_device_drop(FeastDevice *dev, const void *key);
/* record st (nonzero) as the device's failure unless one is recorded; returns st */
int feast_device_fail(FeastDevice *dev, int st);
/* the recorded failure: 0 or the status of the first failed operation (its message is
 * feast_error_message's at the time) */
static inline int feast_device_status(const FeastDevice *dev) { return dev ? dev->status : 0; }
#endif

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
   * 4 (x, y, own device pointers; out on the host), each sum in the backend's fixed order */
  int (*dots)(void *ctx, int count, int arrays, int nlocal, long n, const double *const *x,
              const double *const *y, const unsigned char *own, double *out);
} FeastDeviceOps;

typedef struct {
  double bytes_to_device, bytes_to_host; /* values of vectors, staged */
  long copies_to_device, copies_to_host; /* of vectors' arrays */
  double bytes_const;                    /* constant data (ownership masks), once each */
  long launches;                         /* kernels run on vectors */
  long scalars_to_host;                  /* results of reductions */
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
/* record st (nonzero) as the device's failure unless one is recorded; returns st */
int feast_device_fail(FeastDevice *dev, int st);
/* the recorded failure: 0 or the status of the first failed operation (its message is
 * feast_error_message's at the time) */
static inline int feast_device_status(const FeastDevice *dev) { return dev ? dev->status : 0; }
#endif

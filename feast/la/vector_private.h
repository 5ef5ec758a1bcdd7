/* Private to feast/la's vector files (vector.c, vector_ops.c, vector_stage.c): the loop
 * over every array of a vector, and the staging of device vectors (feast/la/device.h). */
#ifndef FEAST_VECTOR_PRIVATE_H
#define FEAST_VECTOR_PRIVATE_H
#include "feast/la/vector.h"

/* The loop of feast/la's vector functions over every array of a vector (a_ = b * nlocal +
 * li, n_ values each; the body may hold commas). */
#define FOR_ARRAYS(x, ...)                                                                     \
  do {                                                                                         \
    const long n_ = (x)->n;                                                                    \
    for (int a_ = 0; a_ < (x)->nb * (x)->nlocal; a_++) {                                       \
      __VA_ARGS__                                                                              \
    }                                                                                          \
  } while (0)

/* how an operation uses a vector's values: reads them, reads and writes them, or writes
 * every value without reading one */
enum { FEAST_STAGE_READ, FEAST_STAGE_UPDATE, FEAST_STAGE_OVERWRITE };
/* with the domain's device: the device copies of a set of count vectors (zero, as the
 * host's), in one allocation that belongs to *vecs[0] */
int feast_vec_device_create_set(int count, FeastVec **const *vecs);
void feast_vec_device_destroy(FeastVec *x);
/* before a host loop: every array of x current on the host (a no-op for host vectors);
 * after an UPDATE or OVERWRITE the device copies are stale */
void feast_vec_on_host(const FeastVec *x, int access);
/* before a kernel: every array of device vector x current on the device; after an UPDATE
 * or OVERWRITE the host copies are stale (filled with NaN when the device poisons) */
int feast_vec_on_device(const FeastVec *x, int access);
/* x <- a on the device (x a device vector) */
void feast_vec_device_fill(double a, FeastVec *x);
/* 1 if all k vectors live on one device (the device kernels apply), 0 otherwise */
int feast_vec_on_one_device(int k, const FeastVec *const *v);
/* the device paths of feast/la/vector_device.c: 1 if it ran on the device, 0 if an
 * operand is not there (the host loop's turn) */
/* w <- form(a, x, y, w) (FeastDeviceOps.pointwise; x may be NULL where form allows) */
int feast_vec_device_pointwise(int form, double a, const FeastVec *x, const FeastVec *y, FeastVec *w);
int feast_vec_device_scale_weights(FeastVec *x);
/* y <- form(x, y) where (m[li][i] != 0) == select, on every block of y (y, x views for one) */
int feast_vec_device_masked(int form, unsigned char *const *m, int select, const FeastVec *x, FeastVec *y);
/* y <- A x (add: y + A x), A[li] with the ring rows R[li] where R is not NULL */
int feast_vec_device_matvec(const FeastBand9 *A, const FeastBand9Ring *R, const FeastVec *x, FeastVec *y, int add);
/* per product i and local macro li the device's sum of x[i] y[i] (y for the single ones)
 * over the owned nodes into part[i nlocal + li]: per array in the backend's fixed order,
 * the arrays of a macro in block order; 0 or the failure */
int feast_vec_device_dot_partials(int k, const FeastVec *const *x, const FeastVec *const *y, double *part);
int feast_vec_device_single_dot_partials(int k, const FeastVecSingle *const *x, const FeastVec *y, double *part);
int feast_vec_device_single_store(const FeastVec *x, FeastVecSingle *y);
int feast_vec_device_single_maxpy(int k, const double *a, const FeastVecSingle *const *x, FeastVec *y);
/* the interface sum on the device; *status: the failure, 0 if none */
int feast_vec_device_sum(FeastVec *x, int *status);
#endif

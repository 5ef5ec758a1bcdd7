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
#endif

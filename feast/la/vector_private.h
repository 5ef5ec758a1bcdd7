/* The loop of feast/la's vector functions over every array of a vector (a_ = b * nlocal +
 * li, n_ values each; the body may hold commas): vector.c and vector_ops.c only. */
#ifndef FEAST_VECTOR_PRIVATE_H
#define FEAST_VECTOR_PRIVATE_H
#define FOR_ARRAYS(x, ...)                                                                     \
  do {                                                                                         \
    const long n_ = (x)->n;                                                     \
    for (int a_ = 0; a_ < (x)->nb * (x)->nlocal; a_++) {                                       \
      __VA_ARGS__                                                                              \
    }                                                                                          \
  } while (0)
#endif

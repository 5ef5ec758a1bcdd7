/* Vectorised sin and cos for loops over points (a FeastQ1Function, feast/fem/q1.h). glibc's
 * vector math library (libmvec) has SIMD versions of both (at most 4 ulp from the scalar
 * ones), but its <math.h> declares them only under -ffast-math. Declared here, GCC
 * vectorises a loop that calls sin or cos without any other change to the floating-point
 * rules: two sines per point cost 1.2 ns instead of 19.5 ns on one core of this VM
 * (2026-11-25). Elsewhere (no libmvec, other compilers) the scalar functions are called. */
#ifndef FEAST_VECMATH_H
#define FEAST_VECMATH_H
#include <math.h>
#if defined(FEAST_HAVE_MVEC) && defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
extern double sin(double) __attribute__((simd("notinbranch")));
extern double cos(double) __attribute__((simd("notinbranch")));
#endif
#endif

/* FEAST_HD marks per-point math that is compiled for host and device alike, so the CPU
 * single-precision backend runs exactly the arithmetic of the CUDA kernels. */
#ifndef FEAST_HD_H
#define FEAST_HD_H
#ifdef __CUDACC__
#define FEAST_HD __host__ __device__ __forceinline__
#else
#define FEAST_HD static inline
#endif
#endif

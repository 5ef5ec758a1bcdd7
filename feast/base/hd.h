/* FEAST_HD marks per-point math that is compiled for host and device alike, so the CPU
 * single-precision backend runs exactly the arithmetic of the CUDA kernels. */
#ifndef FEAST_HD_H
#define FEAST_HD_H
#ifdef __CUDACC__
#define FEAST_HD __host__ __device__ __forceinline__
#else
#define FEAST_HD static inline
#endif

/* FEAST_IVDEP before a loop over grid points: its iterations are independent (every
 * output is a restrict pointer no input aliases), so the compiler may vectorise it
 * without run-time overlap checks */
#if defined(__clang__)
#define FEAST_IVDEP _Pragma("clang loop vectorize(assume_safety)")
#elif defined(__GNUC__)
#define FEAST_IVDEP _Pragma("GCC ivdep")
#else
#define FEAST_IVDEP
#endif
#endif

/* Shared by the CUDA translation units of coproc/cuda (C++ only, never included by C):
 * CUDA headers (or the host emulator), C headers with C linkage, the status macros for
 * CUDA calls and kernel launches, and the block size. */
#ifndef FEAST_CUDA_COMMON_CUH
#define FEAST_CUDA_COMMON_CUH

#ifdef FEAST_CUDA_EMU
#include "coproc/cuda/cuda_emu.cuh" /* host emulation: checks indexing without a GPU */
#else
#include <cuda_runtime.h>
#endif
#include <stddef.h>
#include <stdlib.h>

extern "C" {
#include "coproc/backend.h"
#include "feast/base/error.h"
}
#include "feast/la/band9_kernels.h"

/* threads per block of every kernel (a power of two: the block reductions halve it) */
#ifndef FEAST_CUDA_BLOCK
#define FEAST_CUDA_BLOCK 256
#endif
/* at most this many blocks per macro in the reduction kernels (grid-stride loops) */
#define FEAST_CUDA_MAX_RED_BLOCKS 1024
/* levels lc..L kept on the device (L <= FEAST_CUDA_MAX_LEVEL) */
#define FEAST_CUDA_MAX_LEVEL 15

/* a CUDA runtime call: on failure raise FEAST_ERR_CUDA with the call and the CUDA message
 * (feast_error_set keeps file:line) and return it; the sticky last error is cleared */
#define FEAST_CUDA_CALL(expr)                                                                  \
  do {                                                                                         \
    cudaError_t feast_cuda_err_ = (expr);                                                      \
    if (feast_cuda_err_ != cudaSuccess) {                                                      \
      (void)cudaGetLastError();                                                                \
      FEAST_ERROR(FEAST_ERR_CUDA, "CUDA error %d (%s) in %s at %s:%d", (int)feast_cuda_err_,   \
                  cudaGetErrorString(feast_cuda_err_), #expr, __FILE__, __LINE__);             \
    }                                                                                          \
  } while (0)

/* The device memory a run uses: the free memory when the device was made (the first
 * feast_cuda_note_use) and its lowest value after any allocation since (cudaMemGetInfo:
 * other processes on the device included). FEAST_CUDA_MALLOC is cudaMalloc noted. */
struct FeastCudaMemoryUse {
  size_t first_free, min_free, total;
  int seen;
};
inline FeastCudaMemoryUse feast_cuda_memory_use = {0, 0, 0, 0};
static inline void feast_cuda_note_use(void) {
  size_t f = 0, t = 0;
  if (cudaMemGetInfo(&f, &t) != cudaSuccess) {
    (void)cudaGetLastError();
    return;
  }
  FeastCudaMemoryUse &u = feast_cuda_memory_use;
  if (!u.seen) u.first_free = u.min_free = f, u.total = t, u.seen = 1;
  else if (f < u.min_free) u.min_free = f;
}
#define FEAST_CUDA_MALLOC(ptr, bytes)                                                          \
  do {                                                                                         \
    FEAST_CUDA_CALL(cudaMalloc((ptr), (bytes)));                                               \
    feast_cuda_note_use();                                                                     \
  } while (0)

/* a shared-memory array of the block: T name[n] (the emulator hands out a per-block
 * buffer filled with garbage; it rejects a bare __shared__) */
#ifdef FEAST_CUDA_EMU
#define FEAST_SHARED(T, name, n) T *const name = feast_emu_shared<T>((size_t)(n))
#else
#define FEAST_SHARED(T, name, n) __shared__ T name[n]
#endif

/* FEAST_CUDA_LAUNCH_CHECK=1 in the environment (0 turns it off; default on in builds
 * without NDEBUG, i.e. Debug): after every launch outside a graph capture, wait for the
 * kernel, so that a fault (illegal address, __trap) is reported with the kernel's name
 * instead of at some later synchronisation. bench/gpu_check.sh sets it for the tests. */
#ifdef NDEBUG
#define FEAST_CUDA_LAUNCH_CHECK_DEFAULT 0
#else
#define FEAST_CUDA_LAUNCH_CHECK_DEFAULT 1
#endif
static int feast_cuda_launch_check = -1; /* -1: not yet read from the environment */
static inline int feast_cuda_launch_check_on(void) {
  if (feast_cuda_launch_check < 0) {
    const char *e = getenv("FEAST_CUDA_LAUNCH_CHECK");
    feast_cuda_launch_check = e && e[0] ? e[0] == '1' : FEAST_CUDA_LAUNCH_CHECK_DEFAULT;
  }
  return feast_cuda_launch_check;
}
/* tests: the launch check on or off whatever the environment says */
static inline void feast_cuda_set_launch_check(int on) { feast_cuda_launch_check = on; }

/* after the launch of `name` on `stream` at file:line: the launch error, and with the launch
 * check the kernel's own fault, as FEAST_ERR_CUDA naming the kernel */
static inline int feast_cuda_after_launch(const char *name, cudaStream_t stream, const char *file, int line) {
  cudaError_t e = cudaGetLastError();
  const char *when = "at the launch of";
  if (e == cudaSuccess && feast_cuda_launch_check_on()) {
    cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
    e = cudaStreamIsCapturing(stream, &capture);
    if (e == cudaSuccess && capture == cudaStreamCaptureStatusNone) e = cudaStreamSynchronize(stream);
    when = "in kernel";
  }
  if (e == cudaSuccess) return 0;
  (void)cudaGetLastError();
  return feast_error_set(FEAST_ERR_CUDA, file, line, "CUDA error %d (%s) %s %s", (int)e, cudaGetErrorString(e), when,
                         name);
}
#define FEAST_CUDA_AFTER_LAUNCH(name, stream) FEAST_CALL(feast_cuda_after_launch(name, stream, __FILE__, __LINE__))

/* launch a kernel on a stream and check the launch (configuration errors, earlier
 * asynchronous faults; with FEAST_CUDA_LAUNCH_CHECK its own faults); FEAST_LAUNCH_SYNC
 * marks kernels that call __syncthreads (the emulator runs each thread of their blocks as
 * a fiber that stops at every barrier, the others thread after thread; see cuda_emu.cuh) */
#ifdef FEAST_CUDA_EMU
#define FEAST_LAUNCH(kernel, grid, block, stream, ...)                                         \
  do {                                                                                         \
    feast_emu_launch(0, #kernel, (grid), (block), (stream), [=]() { kernel(__VA_ARGS__); },     \
                     __VA_ARGS__);                                                             \
    FEAST_CUDA_AFTER_LAUNCH(#kernel, (stream));                                                \
  } while (0)
#define FEAST_LAUNCH_SYNC(kernel, grid, block, stream, ...)                                    \
  do {                                                                                         \
    feast_emu_launch(1, #kernel, (grid), (block), (stream), [=]() { kernel(__VA_ARGS__); },     \
                     __VA_ARGS__);                                                             \
    FEAST_CUDA_AFTER_LAUNCH(#kernel, (stream));                                                \
  } while (0)
#else
#define FEAST_LAUNCH(kernel, grid, block, stream, ...)                                         \
  do {                                                                                         \
    kernel<<<(grid), (block), 0, (stream)>>>(__VA_ARGS__);                                     \
    FEAST_CUDA_AFTER_LAUNCH(#kernel, (stream));                                                \
  } while (0)
#define FEAST_LAUNCH_SYNC FEAST_LAUNCH
#endif

#endif

/* Host emulation of the CUDA subset coproc/cuda uses, to run the kernels' indexing,
 * padding, reductions, barriers and graph replay on a machine without a GPU. Not part of
 * the build: compile the .cu files of this folder as C++20 with -DFEAST_CUDA_EMU, link
 * them with C objects built with -DFEAST_HAVE_CUDA=1 (so coproc.c registers the "gpu"
 * tables) and run tests/unit/test_coproc_gpu, e.g. (MPI include flags omitted)
 *   g++ -std=c++20 -x c++ -DFEAST_CUDA_EMU -DFEAST_HAVE_CUDA=1 -DFEAST_CUDA_BLOCK=32 -I.
 *       -fsanitize=address,undefined -c coproc/cuda/local_mg.cu   (and cuda_bench.cu)
 *   FEAST_TEST_MAX_LEVEL=6 ./test_coproc_gpu
 * With AddressSanitizer every device buffer is a heap block, so an index outside a
 * padded vector, a band or a mask is reported where it happens. A smaller block size
 * (32) keeps the threaded launches fast; the reductions work for any power of two.
 * Kernels launched with FEAST_LAUNCH run their threads one after another (a call of
 * __syncthreads aborts); FEAST_LAUNCH_SYNC runs blockDim.x real threads per block with a
 * barrier for __syncthreads, so a non-uniform barrier deadlocks as it would on a GPU.
 * Device memory comes filled with 0xff bytes (NaN) to expose reads of unset values.
 * FEAST_EMU_DEVICES=0 in the environment emulates a machine without a device. */
#ifndef FEAST_CUDA_EMU_CUH
#define FEAST_CUDA_EMU_CUH
#include <barrier>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <thread>
#include <vector>
#include <math.h>

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __shared__ static

struct dim3 {
  unsigned x, y, z;
  dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {}
};
inline thread_local dim3 threadIdx(0, 0, 0), blockIdx(0, 0, 0), blockDim, gridDim;

typedef enum {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorNoDevice = 100
} cudaError_t;
enum cudaMemcpyKind {
  cudaMemcpyHostToHost,
  cudaMemcpyHostToDevice,
  cudaMemcpyDeviceToHost,
  cudaMemcpyDeviceToDevice
};
enum cudaStreamCaptureMode { cudaStreamCaptureModeThreadLocal };
#define cudaStreamNonBlocking 1u

struct feast_emu_graph {
  std::vector<std::function<void()>> ops;
};
struct feast_emu_stream {
  feast_emu_graph *capture; /* non-null while capturing */
};
struct feast_emu_event {
  std::chrono::steady_clock::time_point t;
};
typedef feast_emu_stream *cudaStream_t;
typedef feast_emu_event *cudaEvent_t;
typedef feast_emu_graph *cudaGraph_t;
typedef feast_emu_graph *cudaGraphExec_t;
struct cudaDeviceProp {
  char name[256];
};

inline cudaError_t feast_emu_last = cudaSuccess;
inline feast_emu_graph *feast_emu_capturing = nullptr; /* one capturing stream at a time */
inline std::barrier<> *feast_emu_bar = nullptr;        /* __syncthreads of a sync launch */
inline thread_local int feast_emu_sync_ok = 0;

static inline cudaError_t feast_emu_fail(cudaError_t e) {
  feast_emu_last = e;
  return e;
}
static inline const char *cudaGetErrorString(cudaError_t e) {
  switch (e) {
  case cudaSuccess: return "no error";
  case cudaErrorInvalidValue: return "invalid argument";
  case cudaErrorMemoryAllocation: return "out of memory";
  case cudaErrorInvalidConfiguration: return "invalid configuration argument";
  case cudaErrorNoDevice: return "no CUDA-capable device is detected";
  }
  return "unknown error";
}
static inline cudaError_t cudaGetLastError(void) {
  cudaError_t e = feast_emu_last;
  feast_emu_last = cudaSuccess;
  return e;
}
static inline cudaError_t cudaGetDeviceCount(int *n) {
  const char *env = getenv("FEAST_EMU_DEVICES");
  *n = env ? atoi(env) : 1;
  return *n ? cudaSuccess : feast_emu_fail(cudaErrorNoDevice);
}
static inline cudaError_t cudaSetDevice(int d) { return d == 0 ? cudaSuccess : feast_emu_fail(cudaErrorInvalidValue); }
static inline cudaError_t cudaGetDevice(int *d) { *d = 0; return cudaSuccess; }
static inline cudaError_t cudaGetDeviceProperties(cudaDeviceProp *p, int) {
  snprintf(p->name, sizeof p->name, "host emulator");
  return cudaSuccess;
}

/* memory */
static inline cudaError_t cudaMalloc(void **p, size_t bytes) {
  *p = malloc(bytes ? bytes : 1);
  if (!*p) return feast_emu_fail(cudaErrorMemoryAllocation);
  memset(*p, 0xff, bytes);
  return cudaSuccess;
}
static inline cudaError_t cudaFree(void *p) { free(p); return cudaSuccess; }
static inline cudaError_t cudaMallocHost(void **p, size_t bytes) { return cudaMalloc(p, bytes); }
static inline cudaError_t cudaFreeHost(void *p) { return cudaFree(p); }
static inline cudaError_t cudaMemset(void *p, int v, size_t bytes) { memset(p, v, bytes); return cudaSuccess; }
static inline cudaError_t cudaMemcpy(void *d, const void *s, size_t bytes, cudaMemcpyKind) {
  memcpy(d, s, bytes);
  return cudaSuccess;
}
/* an operation on a stream: recorded while capturing, else run now */
template <class F> inline cudaError_t feast_emu_op(cudaStream_t s, F f) {
  if (s && s->capture) s->capture->ops.push_back(f);
  else f();
  return cudaSuccess;
}
static inline cudaError_t cudaMemsetAsync(void *p, int v, size_t bytes, cudaStream_t s = 0) {
  return feast_emu_op(s, [=]() { memset(p, v, bytes); });
}
static inline cudaError_t cudaMemcpyAsync(void *d, const void *src, size_t bytes, cudaMemcpyKind,
                                          cudaStream_t s = 0) {
  return feast_emu_op(s, [=]() { memcpy(d, src, bytes); });
}
static inline cudaError_t cudaMemcpy2DAsync(void *d, size_t dp, const void *src, size_t sp,
                                            size_t w, size_t h, cudaMemcpyKind,
                                            cudaStream_t s = 0) {
  if (w > dp || w > sp) return feast_emu_fail(cudaErrorInvalidValue);
  return feast_emu_op(s, [=]() {
    for (size_t r = 0; r < h; r++) memcpy((char *)d + r * dp, (const char *)src + r * sp, w);
  });
}

/* streams, events, graphs */
static inline cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned) {
  *s = new feast_emu_stream{nullptr};
  return cudaSuccess;
}
static inline cudaError_t cudaStreamDestroy(cudaStream_t s) { delete s; return cudaSuccess; }
static inline cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaSuccess; }
static inline cudaError_t cudaDeviceSynchronize(void) { return cudaSuccess; }
static inline cudaError_t cudaStreamBeginCapture(cudaStream_t s, cudaStreamCaptureMode) {
  if (s->capture || feast_emu_capturing) return feast_emu_fail(cudaErrorInvalidValue);
  feast_emu_capturing = s->capture = new feast_emu_graph;
  return cudaSuccess;
}
static inline cudaError_t cudaStreamEndCapture(cudaStream_t s, cudaGraph_t *g) {
  *g = s->capture;
  s->capture = feast_emu_capturing = nullptr;
  return *g ? cudaSuccess : feast_emu_fail(cudaErrorInvalidValue);
}
static inline cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *e, cudaGraph_t g,
                                                        unsigned long long) {
  *e = new feast_emu_graph(*g);
  return cudaSuccess;
}
static inline cudaError_t cudaGraphLaunch(cudaGraphExec_t e, cudaStream_t s) {
  if (s && s->capture) return feast_emu_fail(cudaErrorInvalidValue);
  for (auto &op : e->ops) op();
  return cudaSuccess;
}
static inline cudaError_t cudaGraphDestroy(cudaGraph_t g) { delete g; return cudaSuccess; }
static inline cudaError_t cudaGraphExecDestroy(cudaGraphExec_t g) { delete g; return cudaSuccess; }
static inline cudaError_t cudaEventCreate(cudaEvent_t *e) { *e = new feast_emu_event; return cudaSuccess; }
static inline cudaError_t cudaEventDestroy(cudaEvent_t e) { delete e; return cudaSuccess; }
static inline cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s = 0) {
  return feast_emu_op(s, [=]() { e->t = std::chrono::steady_clock::now(); });
}
static inline cudaError_t cudaEventSynchronize(cudaEvent_t) { return cudaSuccess; }
static inline cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b) {
  *ms = std::chrono::duration<float, std::milli>(b->t - a->t).count();
  return cudaSuccess;
}

/* device functions */
static inline void __syncthreads(void) {
  if (!feast_emu_sync_ok) {
    fprintf(stderr, "emulator: __syncthreads in a kernel launched with FEAST_LAUNCH\n");
    abort();
  }
  feast_emu_bar->arrive_and_wait();
}
static inline int atomicExch(int *p, int v) { return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST); }

/* run a kernel body over the grid (the launch captures the arguments by value) */
template <class F> inline void feast_emu_run(int sync, dim3 grid, dim3 block, F f) {
  if (block.x < 1 || block.x > 1024 || block.y != 1 || block.z != 1 || grid.x < 1 ||
      grid.y < 1 || grid.y > 65535 || grid.z != 1) {
    feast_emu_fail(cudaErrorInvalidConfiguration);
    return;
  }
  auto set = [&](unsigned bx, unsigned by, unsigned tx) {
    gridDim = grid;
    blockDim = block;
    blockIdx = dim3(bx, by, 0);
    threadIdx = dim3(tx, 0, 0);
  };
  if (!sync) {
    for (unsigned by = 0; by < grid.y; by++)
      for (unsigned bx = 0; bx < grid.x; bx++)
        for (unsigned tx = 0; tx < block.x; tx++) {
          set(bx, by, tx);
          f();
        }
    return;
  }
  std::barrier<> bar(block.x), done(block.x);
  feast_emu_bar = &bar;
  std::vector<std::thread> th;
  for (unsigned tx = 0; tx < block.x; tx++)
    th.emplace_back([&, tx]() {
      feast_emu_sync_ok = 1;
      for (unsigned by = 0; by < grid.y; by++)
        for (unsigned bx = 0; bx < grid.x; bx++) {
          set(bx, by, tx);
          f();
          done.arrive_and_wait(); /* the block ends: shared memory is reused */
        }
    });
  for (auto &t : th) t.join();
  feast_emu_bar = nullptr;
}

template <class F> inline void feast_emu_launch(int sync, dim3 grid, dim3 block, F f) {
  if (feast_emu_capturing) {
    feast_emu_capturing->ops.push_back([=]() { feast_emu_run(sync, grid, block, f); });
    return;
  }
  feast_emu_run(sync, grid, block, f);
}
#endif

/* Host emulator (see coproc/cuda/cuda_emu.cuh), part 1: what cuda_runtime.h declares and
 * device code sees. The qualifiers (__global__ ...; __shared__ refused: FEAST_SHARED),
 * dim3 and the index variables threadIdx, blockIdx, blockDim, gridDim, the runtime API's
 * error codes and their messages, its enums, and the stream, event and graph handles. */
#ifndef FEAST_CUDA_EMU_TYPES_CUH
#define FEAST_CUDA_EMU_TYPES_CUH
#include <chrono>
#include <functional>
#include <vector>
#include <math.h>

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
/* kernels declare shared memory with FEAST_SHARED (cuda_common.cuh), not __shared__ */
#define __shared__ FEAST_EMU_declare_shared_memory_with_FEAST_SHARED

struct dim3 {
  unsigned x, y, z;
  constexpr dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {}
};
/* one OS thread runs every emulated thread (fibers): plain globals */
inline dim3 threadIdx(0, 0, 0), blockIdx(0, 0, 0), blockDim, gridDim;

typedef enum {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidDevicePointer = 17,
  cudaErrorInvalidMemcpyDirection = 21,
  cudaErrorNoDevice = 100,
  cudaErrorLaunchFailure = 719,
  cudaErrorNotSupported = 801
} cudaError_t;
enum cudaMemcpyKind {
  cudaMemcpyHostToHost,
  cudaMemcpyHostToDevice,
  cudaMemcpyDeviceToHost,
  cudaMemcpyDeviceToDevice
};
enum cudaStreamCaptureMode { cudaStreamCaptureModeThreadLocal };
enum cudaStreamCaptureStatus { cudaStreamCaptureStatusNone = 0, cudaStreamCaptureStatusActive = 1 };
enum cudaDeviceAttr { cudaDevAttrMaxPitch = 11 };
#define cudaStreamNonBlocking 1u

struct feast_emu_graph {
  std::vector<std::function<void()>> ops;
};
struct feast_emu_stream {
  feast_emu_graph *capture;                 /* non-null while capturing */
  std::vector<std::function<void()>> queue; /* enqueued, not yet run */
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

static inline const char *cudaGetErrorString(cudaError_t e) {
  switch (e) {
  case cudaSuccess: return "no error";
  case cudaErrorInvalidValue: return "invalid argument";
  case cudaErrorMemoryAllocation: return "out of memory";
  case cudaErrorInvalidConfiguration: return "invalid configuration argument";
  case cudaErrorInvalidDevicePointer: return "invalid device pointer";
  case cudaErrorInvalidMemcpyDirection: return "invalid copy direction for memcpy";
  case cudaErrorNoDevice: return "no CUDA-capable device is detected";
  case cudaErrorLaunchFailure: return "unspecified launch failure";
  case cudaErrorNotSupported: return "operation not supported";
  }
  return "unknown error";
}
#endif

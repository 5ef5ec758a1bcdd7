/* Host emulation of the CUDA subset coproc/cuda uses, stricter than a GPU, to run the
 * kernels and the batched solver on a machine without one. Not part of the real build:
 * the .cu files of this folder are compiled as C++20 with -DFEAST_CUDA_EMU and linked
 * with C objects built with -DFEAST_HAVE_CUDA=1 (tests/CMakeLists.txt: feast_emu,
 * test_coproc_gpu_emu, feastc_emu, test_cuda_emu). What it enforces:
 *  - Order. The blocks of a launch run in an order chosen per launch and the threads of a
 *    block in an order chosen per block (FEAST_LAUNCH) or per phase between two
 *    __syncthreads (FEAST_LAUNCH_SYNC: every thread is a fiber on its own stack, run up
 *    to its next barrier, one after another; a block whose threads do not all reach the
 *    same barrier aborts). FEAST_EMU_ORDER = ordered | reverse | shuffled (default), the
 *    shuffles drawn from FEAST_EMU_SEED (default: time and pid; feast_emu_seed() gives
 *    it, test_coproc_gpu prints it on failure). A kernel whose result depends on the
 *    order of blocks or threads gives different results under two orders.
 *  - Uninitialised memory. Shared arrays (FEAST_SHARED: the k-th declaration a thread
 *    reaches is the k-th array of its block's buffer) start as 0xff bytes (NaN in float
 *    and double, -1 in int) in every block; cudaMalloc fills with 0xff too.
 *  - Host and device memory apart. cudaMalloc returns memory of an arena the emulator
 *    tracks (a registry of allocations, each ending at a page boundary before a guard
 *    page); the arena is readable only while a kernel, copy or memset runs, so a device
 *    pointer dereferenced on the host faults (SIGSEGV, reported with the allocation) and
 *    so does a kernel's access past the end of an allocation. cudaMemcpy*, cudaMemset*
 *    and launches check every pointer against the registry and the copy direction
 *    (host pointer where device memory is expected, or the reverse: cudaErrorInvalidValue
 *    with a message on stderr). Kernel arguments that are structs with device pointers
 *    are checked through an overload of feast_emu_device_args found by ADL.
 *  - Streams. Work on a stream (launches, async copies, memsets, events, graph launches,
 *    and cudaMemset on the legacy stream) is queued and runs only when the host waits
 *    for it (cudaStreamSynchronize, cudaEventSynchronize, cudaDeviceSynchronize,
 *    cudaFree, a synchronous copy waits for the legacy stream only), so a missing
 *    synchronisation reads stale host values, or device memory a memset has not set.
 * Kernels launched with FEAST_LAUNCH must not call __syncthreads (abort).
 * FEAST_EMU_DEVICES=0 in the environment emulates a machine without a device,
 * FEAST_EMU_GRAPH_FAIL=1 one whose graph instantiation fails (cudaErrorNotSupported),
 * FEAST_EMU_MAX_PITCH=bytes one with that cudaDevAttrMaxPitch (2D copies above it fail).
 * Fibers switch with 6 saved registers on x86-64, with ucontext elsewhere (or with
 * -DFEAST_EMU_UCONTEXT; slower: a syscall per switch). The emulator runs under
 * -fsanitize=address,undefined (fiber stacks are unpoisoned when reused); every host
 * buffer is then checked by ASan, every device buffer by its guard page. */
#ifndef FEAST_CUDA_EMU_CUH
#define FEAST_CUDA_EMU_CUH
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <set>
#include <signal.h>
#include <sys/mman.h>
#include <type_traits>
#include <unistd.h>
#include <vector>
#include <math.h>
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define FEAST_EMU_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define FEAST_EMU_UNPOISON(p, n) ((void)(p), (void)(n))
#endif
#if !defined(__x86_64__) || defined(FEAST_EMU_UCONTEXT)
#include <ucontext.h>
#define FEAST_EMU_USE_UCONTEXT 1
#endif

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

/* ------------------------------------------------------------------ state */

enum { FEAST_EMU_ORDERED = 0, FEAST_EMU_REVERSE = 1, FEAST_EMU_SHUFFLED = 2 };

struct feast_emu_alloc {
  size_t bytes;        /* as asked */
  uintptr_t lo, hi;    /* pages it owns: [lo, hi), the guard page at hi not included */
};

struct feast_emu_state_t {
  int init = 0;
  unsigned long long seed = 0, rng = 0;
  int order = FEAST_EMU_SHUFFLED;
  cudaError_t last = cudaSuccess;
  cudaError_t sticky = cudaSuccess;     /* a kernel fault (__trap): every later synchronisation returns it */
  feast_emu_graph *capturing = nullptr; /* one capturing stream at a time */
  feast_emu_stream legacy{nullptr, {}}; /* stream 0 */
  std::set<feast_emu_stream *> streams;
  /* device arena */
  char *arena = nullptr;
  size_t arena_bytes = 0, page = 4096;
  std::map<uintptr_t, feast_emu_alloc> live; /* by start address */
  std::map<uintptr_t, size_t> free_pages;    /* free ranges by start: length in bytes */
  std::set<const void *> pinned;
  int open = 0; /* nesting of "the device is running": arena readable */
  struct sigaction old_segv;
};
inline feast_emu_state_t feast_emu_S;

static inline unsigned long long feast_emu_next(void) { /* splitmix64 */
  unsigned long long z = (feast_emu_S.rng += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static inline void feast_emu_segv(int sig, siginfo_t *si, void *ctx);

static inline void feast_emu_init(void) {
  feast_emu_state_t &S = feast_emu_S;
  if (S.init) return;
  S.init = 1;
  const char *s = getenv("FEAST_EMU_SEED");
  S.seed = s && *s ? strtoull(s, nullptr, 0)
                   : (unsigned long long)std::chrono::steady_clock::now().time_since_epoch().count() ^
                         ((unsigned long long)getpid() << 32);
  S.rng = S.seed;
  const char *o = getenv("FEAST_EMU_ORDER");
  if (o && !strcmp(o, "ordered")) S.order = FEAST_EMU_ORDERED;
  else if (o && !strcmp(o, "reverse")) S.order = FEAST_EMU_REVERSE;
  S.page = (size_t)sysconf(_SC_PAGESIZE);
  const char *mb = getenv("FEAST_EMU_DEVICE_MB");
  S.arena_bytes = (size_t)(mb && *mb ? atol(mb) : 8192) << 20;
  void *a = mmap(nullptr, S.arena_bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (a == MAP_FAILED) {
    fprintf(stderr, "emulator: cannot reserve %zu MB of device arena\n", S.arena_bytes >> 20);
    abort();
  }
  S.arena = (char *)a;
  S.free_pages[(uintptr_t)a] = S.arena_bytes;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = feast_emu_segv;
  sa.sa_flags = SA_SIGINFO;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGSEGV, &sa, &S.old_segv);
}

/* the allocation holding [p, p + bytes), or null */
static inline const feast_emu_alloc *feast_emu_find(const void *p, size_t bytes = 1) {
  feast_emu_init();
  const uintptr_t a = (uintptr_t)p;
  auto it = feast_emu_S.live.upper_bound(a);
  if (it == feast_emu_S.live.begin()) return nullptr;
  --it;
  const uintptr_t start = it->first;
  if (a < start || a + (bytes ? bytes : 1) > start + it->second.bytes) return nullptr;
  return &it->second;
}
static inline int feast_emu_in_arena(const void *p) {
  feast_emu_init();
  return (const char *)p >= feast_emu_S.arena && (const char *)p < feast_emu_S.arena + feast_emu_S.arena_bytes;
}

static inline void feast_emu_segv(int sig, siginfo_t *si, void *ctx) {
  feast_emu_state_t &S = feast_emu_S;
  const char *a = (const char *)si->si_addr;
  if (a >= S.arena && a < S.arena + S.arena_bytes) {
    const feast_emu_alloc *al = nullptr;
    for (auto &kv : S.live)
      if ((uintptr_t)a >= kv.second.lo && (uintptr_t)a <= kv.second.hi) al = &kv.second;
    if (S.open)
      fprintf(stderr, "emulator: device access at %p outside every allocation (past the end of "
                      "one or freed) (seed %llu)\n", si->si_addr, S.seed);
    else
      fprintf(stderr, "emulator: host access to device memory at %p%s (seed %llu)\n", si->si_addr,
              al ? " (a live cudaMalloc allocation)" : "", S.seed);
    signal(SIGABRT, SIG_DFL);
    abort();
  }
  /* not ours: hand it to the previous handler by re-faulting with it installed */
  sigaction(SIGSEGV, &S.old_segv, nullptr);
  (void)sig;
  (void)ctx;
}

/* the arena readable while the "device" runs (nested) */
static inline void feast_emu_protect(int prot) {
  for (auto &kv : feast_emu_S.live) mprotect((void *)kv.second.lo, kv.second.hi - kv.second.lo, prot);
}
static inline void feast_emu_open(void) {
  feast_emu_init();
  if (feast_emu_S.open++ == 0) feast_emu_protect(PROT_READ | PROT_WRITE);
}
static inline void feast_emu_close(void) {
  if (--feast_emu_S.open == 0) feast_emu_protect(PROT_NONE);
}

static inline cudaError_t feast_emu_fail(cudaError_t e) {
  feast_emu_S.last = e;
  return e;
}
static inline cudaError_t feast_emu_misuse(cudaError_t e, const char *fmt, const void *p, const char *what) {
  fprintf(stderr, "emulator: ");
  fprintf(stderr, fmt, p, what);
  fprintf(stderr, " (seed %llu)\n", feast_emu_S.seed);
  return feast_emu_fail(e);
}

/* the seed of this run and the order of blocks and threads (for tests) */
static inline unsigned long long feast_emu_seed(void) {
  feast_emu_init();
  return feast_emu_S.seed;
}
static inline void feast_emu_set_order(int order) {
  feast_emu_init();
  feast_emu_S.order = order;
}

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
static inline cudaError_t cudaGetLastError(void) {
  cudaError_t e = feast_emu_S.last;
  feast_emu_S.last = cudaSuccess;
  return e;
}
static inline cudaError_t cudaGetDeviceCount(int *n) {
  const char *env = getenv("FEAST_EMU_DEVICES");
  *n = env ? atoi(env) : 1;
  return *n ? cudaSuccess : feast_emu_fail(cudaErrorNoDevice);
}
static inline cudaError_t cudaSetDevice(int d) { return d == 0 ? cudaSuccess : feast_emu_fail(cudaErrorInvalidValue); }
static inline cudaError_t cudaGetDevice(int *d) { *d = 0; return cudaSuccess; }
/* the largest pitch of a 2D copy: FEAST_EMU_MAX_PITCH bytes (default 2^31 - 1, a GPU's) */
static inline int feast_emu_max_pitch(void) {
  const char *v = getenv("FEAST_EMU_MAX_PITCH");
  return v && *v ? atoi(v) : 2147483647;
}
static inline cudaError_t cudaDeviceGetAttribute(int *v, cudaDeviceAttr a, int) {
  if (a != cudaDevAttrMaxPitch) return feast_emu_fail(cudaErrorInvalidValue);
  *v = feast_emu_max_pitch();
  return cudaSuccess;
}
static inline cudaError_t cudaGetDeviceProperties(cudaDeviceProp *p, int) {
  snprintf(p->name, sizeof p->name, "host emulator");
  return cudaSuccess;
}

/* ----------------------------------------------------------------- streams */

static inline feast_emu_stream *feast_emu_stream_of(cudaStream_t s) { return s ? s : &feast_emu_S.legacy; }

/* run what a stream has queued (the device catches up with the host) */
static inline void feast_emu_drain(feast_emu_stream *s) {
  if (s->queue.empty()) return;
  std::vector<std::function<void()>> q;
  q.swap(s->queue);
  feast_emu_open();
  for (auto &op : q) op();
  feast_emu_close();
}
static inline void feast_emu_drain_all(void) {
  feast_emu_init();
  feast_emu_drain(&feast_emu_S.legacy);
  for (feast_emu_stream *s : feast_emu_S.streams) feast_emu_drain(s);
}

/* an operation on a stream: recorded while capturing, else queued */
template <class F> inline cudaError_t feast_emu_op(cudaStream_t s, F f) {
  feast_emu_init();
  feast_emu_stream *st = feast_emu_stream_of(s);
  if (st->capture) st->capture->ops.push_back(f);
  else st->queue.push_back(f);
  return cudaSuccess;
}

/* ------------------------------------------------------------------ memory */

static inline cudaError_t cudaMalloc(void **p, size_t bytes) {
  feast_emu_init();
  feast_emu_state_t &S = feast_emu_S;
  *p = nullptr;
  const size_t span = (bytes + 255) / 256 * 256;
  const size_t need = (span + S.page - 1) / S.page * S.page + S.page; /* + guard page */
  for (auto it = S.free_pages.begin(); it != S.free_pages.end(); ++it) {
    if (it->second < need) continue;
    const uintptr_t lo = it->first;
    const size_t rest = it->second - need;
    S.free_pages.erase(it);
    if (rest) S.free_pages[lo + need] = rest;
    const uintptr_t hi = lo + need - S.page; /* the guard page stays PROT_NONE */
    const uintptr_t start = hi - span;       /* ends at the page end: overruns fault */
    S.live[start] = feast_emu_alloc{bytes, lo, hi};
    feast_emu_open();
    memset((void *)lo, 0xff, hi - lo); /* fresh device memory is garbage (NaN) */
    feast_emu_close();
    *p = (void *)start;
    return cudaSuccess;
  }
  return feast_emu_fail(cudaErrorMemoryAllocation);
}
static inline cudaError_t cudaFree(void *p) {
  if (!p) return cudaSuccess;
  feast_emu_drain_all(); /* cudaFree waits for the device */
  feast_emu_state_t &S = feast_emu_S;
  auto it = S.live.find((uintptr_t)p);
  if (it == S.live.end())
    return feast_emu_misuse(cudaErrorInvalidDevicePointer, "cudaFree(%p)%s: not a cudaMalloc pointer", p, "");
  const uintptr_t lo = it->second.lo, len = it->second.hi - lo + S.page;
  if (S.open) mprotect((void *)lo, len, PROT_NONE);
  madvise((void *)lo, len, MADV_DONTNEED);
  S.live.erase(it);
  /* back to the free ranges, merged with its neighbours */
  uintptr_t a = lo, n = len;
  auto nx = S.free_pages.lower_bound(a);
  if (nx != S.free_pages.end() && nx->first == a + n) {
    n += nx->second;
    nx = S.free_pages.erase(nx);
  }
  if (nx != S.free_pages.begin()) {
    auto pv = std::prev(nx);
    if (pv->first + pv->second == a) {
      a = pv->first;
      n += pv->second;
      S.free_pages.erase(pv);
    }
  }
  S.free_pages[a] = n;
  return cudaSuccess;
}
static inline cudaError_t cudaMallocHost(void **p, size_t bytes) {
  feast_emu_init();
  *p = malloc(bytes ? bytes : 1);
  if (!*p) return feast_emu_fail(cudaErrorMemoryAllocation);
  memset(*p, 0xff, bytes);
  feast_emu_S.pinned.insert(*p);
  return cudaSuccess;
}
static inline cudaError_t cudaFreeHost(void *p) {
  feast_emu_drain_all();
  if (p && !feast_emu_S.pinned.erase(p))
    return feast_emu_misuse(cudaErrorInvalidValue, "cudaFreeHost(%p)%s: not a cudaMallocHost pointer", p, "");
  free(p);
  return cudaSuccess;
}

/* [p, p + bytes) must be device memory (dev = 1) or host memory (dev = 0) */
static inline cudaError_t feast_emu_check(const void *p, size_t bytes, int dev, const char *what) {
  if (dev && !feast_emu_find(p, bytes))
    return feast_emu_misuse(cudaErrorInvalidValue, "%p is not device memory (%s)", p, what);
  if (!dev && feast_emu_in_arena(p))
    return feast_emu_misuse(cudaErrorInvalidValue, "%p is device memory where host memory is expected (%s)", p, what);
  return cudaSuccess;
}
static inline cudaError_t feast_emu_check_copy(void *d, const void *s, size_t dbytes, size_t sbytes,
                                               cudaMemcpyKind k, const char *what) {
  const int ddev = k == cudaMemcpyHostToDevice || k == cudaMemcpyDeviceToDevice;
  const int sdev = k == cudaMemcpyDeviceToHost || k == cudaMemcpyDeviceToDevice;
  cudaError_t e = feast_emu_check(d, dbytes, ddev, what);
  if (e == cudaSuccess) e = feast_emu_check(s, sbytes, sdev, what);
  return e;
}

/* asynchronous to the host for device memory, as on a GPU: queued on the legacy stream,
 * which non-blocking streams do not wait for */
static inline cudaError_t cudaMemset(void *p, int v, size_t bytes) {
  if (cudaError_t e = feast_emu_check(p, bytes, 1, "cudaMemset")) return e;
  return feast_emu_op(0, [=]() { memset(p, v, bytes); });
}
static inline cudaError_t cudaMemcpy(void *d, const void *s, size_t bytes, cudaMemcpyKind k) {
  if (cudaError_t e = feast_emu_check_copy(d, s, bytes, bytes, k, "cudaMemcpy")) return e;
  feast_emu_drain(&feast_emu_S.legacy); /* the legacy stream only: not the non-blocking ones */
  feast_emu_open();
  memcpy(d, s, bytes);
  feast_emu_close();
  return cudaSuccess;
}
static inline cudaError_t cudaMemsetAsync(void *p, int v, size_t bytes, cudaStream_t s = 0) {
  if (cudaError_t e = feast_emu_check(p, bytes, 1, "cudaMemsetAsync")) return e;
  return feast_emu_op(s, [=]() { memset(p, v, bytes); });
}
static inline cudaError_t cudaMemcpyAsync(void *d, const void *src, size_t bytes, cudaMemcpyKind k,
                                          cudaStream_t s = 0) {
  if (cudaError_t e = feast_emu_check_copy(d, src, bytes, bytes, k, "cudaMemcpyAsync")) return e;
  return feast_emu_op(s, [=]() { memcpy(d, src, bytes); });
}
static inline cudaError_t cudaMemcpy2DAsync(void *d, size_t dp, const void *src, size_t sp,
                                            size_t w, size_t h, cudaMemcpyKind k,
                                            cudaStream_t s = 0) {
  const size_t maxp = (size_t)feast_emu_max_pitch();
  if (w > dp || w > sp || h == 0 || dp > maxp || sp > maxp) return feast_emu_fail(cudaErrorInvalidValue);
  if (cudaError_t e = feast_emu_check_copy(d, src, dp * (h - 1) + w, sp * (h - 1) + w, k, "cudaMemcpy2DAsync"))
    return e;
  return feast_emu_op(s, [=]() {
    for (size_t r = 0; r < h; r++) memcpy((char *)d + r * dp, (const char *)src + r * sp, w);
  });
}

/* ------------------------------------------------- streams, events, graphs */

static inline cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned) {
  feast_emu_init();
  *s = new feast_emu_stream{nullptr, {}};
  feast_emu_S.streams.insert(*s);
  return cudaSuccess;
}
static inline cudaError_t cudaStreamDestroy(cudaStream_t s) {
  feast_emu_drain(s); /* its work completes */
  feast_emu_S.streams.erase(s);
  delete s;
  return cudaSuccess;
}
static inline cudaError_t cudaStreamSynchronize(cudaStream_t s) {
  feast_emu_init();
  feast_emu_drain(feast_emu_stream_of(s));
  return feast_emu_S.sticky;
}
static inline cudaError_t cudaDeviceSynchronize(void) {
  feast_emu_drain_all();
  return feast_emu_S.sticky;
}
static inline cudaError_t cudaStreamIsCapturing(cudaStream_t s, cudaStreamCaptureStatus *status) {
  feast_emu_init();
  *status = feast_emu_stream_of(s)->capture ? cudaStreamCaptureStatusActive : cudaStreamCaptureStatusNone;
  return cudaSuccess;
}
/* a kernel's fault (a GPU's __trap, an illegal address): the emulator lets the kernel run on
 * and makes the context's error sticky, as a GPU reports it: at the next synchronisation,
 * not at the launch (tests only: feast_emu_clear_fault starts afresh) */
static inline void __trap(void) { feast_emu_S.sticky = feast_emu_S.last = cudaErrorLaunchFailure; }
static inline void feast_emu_clear_fault(void) { feast_emu_S.sticky = feast_emu_S.last = cudaSuccess; }
static inline cudaError_t cudaStreamBeginCapture(cudaStream_t s, cudaStreamCaptureMode) {
  feast_emu_init();
  if (!s || s->capture || feast_emu_S.capturing) return feast_emu_fail(cudaErrorInvalidValue);
  feast_emu_S.capturing = s->capture = new feast_emu_graph;
  return cudaSuccess;
}
static inline cudaError_t cudaStreamEndCapture(cudaStream_t s, cudaGraph_t *g) {
  *g = s->capture;
  s->capture = feast_emu_S.capturing = nullptr;
  return *g ? cudaSuccess : feast_emu_fail(cudaErrorInvalidValue);
}
static inline cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *e, cudaGraph_t g,
                                                        unsigned long long) {
  const char *fail = getenv("FEAST_EMU_GRAPH_FAIL"); /* a device that cannot run graphs */
  *e = nullptr;
  if (fail && fail[0] == '1') return feast_emu_fail(cudaErrorNotSupported);
  *e = new feast_emu_graph(*g);
  return cudaSuccess;
}
static inline cudaError_t cudaGraphLaunch(cudaGraphExec_t e, cudaStream_t s) {
  if (s && s->capture) return feast_emu_fail(cudaErrorInvalidValue);
  return feast_emu_op(s, [e]() {
    for (auto &op : e->ops) op();
  });
}
static inline cudaError_t cudaGraphDestroy(cudaGraph_t g) { delete g; return cudaSuccess; }
static inline cudaError_t cudaGraphExecDestroy(cudaGraphExec_t g) {
  feast_emu_drain_all(); /* a queued launch of it must not outlive it */
  delete g;
  return cudaSuccess;
}
static inline cudaError_t cudaEventCreate(cudaEvent_t *e) { *e = new feast_emu_event; return cudaSuccess; }
static inline cudaError_t cudaEventDestroy(cudaEvent_t e) { delete e; return cudaSuccess; }
static inline cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s = 0) {
  return feast_emu_op(s, [=]() { e->t = std::chrono::steady_clock::now(); });
}
static inline cudaError_t cudaEventSynchronize(cudaEvent_t) {
  feast_emu_drain_all();
  return cudaSuccess;
}
static inline cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b) {
  *ms = std::chrono::duration<float, std::milli>(b->t - a->t).count();
  return cudaSuccess;
}

/* ------------------------------------------------------------------ fibers */

/* One fiber per thread of a block of a synchronising launch; __syncthreads switches back
 * to the scheduler. x86-64: a 6-register switch (feast_emu_switch); elsewhere ucontext. */
#ifndef FEAST_EMU_USE_UCONTEXT
extern "C" void feast_emu_switch(void **save_sp, void *to_sp);
asm(".pushsection .text\n"
    ".weak feast_emu_switch\n"
    ".type feast_emu_switch,@function\n"
    "feast_emu_switch:\n"
    "  pushq %rbp\n  pushq %rbx\n  pushq %r12\n  pushq %r13\n  pushq %r14\n  pushq %r15\n"
    "  movq %rsp, (%rdi)\n  movq %rsi, %rsp\n"
    "  popq %r15\n  popq %r14\n  popq %r13\n  popq %r12\n  popq %rbx\n  popq %rbp\n"
    "  ret\n"
    ".size feast_emu_switch, .-feast_emu_switch\n"
    ".popsection\n");
#endif

enum { FEAST_EMU_MAX_THREADS = 1024, FEAST_EMU_STACK = 64 * 1024 };
struct feast_emu_fibers_t {
  char *stacks = nullptr;
  int cur = -1;         /* the running fiber, -1: the scheduler or a plain launch */
  const unsigned *order = nullptr; /* of the running phase */
  unsigned pos = 0, n = 0;         /* order[pos] runs; n threads */
  void (*body)(void *) = nullptr;
  void *arg = nullptr;
  std::vector<int> state; /* 0 runnable, 1 at a barrier, 2 done */
#ifdef FEAST_EMU_USE_UCONTEXT
  ucontext_t sched;
  std::vector<ucontext_t> ctx;
#else
  void *sched_sp = nullptr;
  std::vector<void *> sp;
#endif
};
inline feast_emu_fibers_t feast_emu_F;

/* the running fiber stops (at a barrier or done): on to the next one of the phase's
 * order, or back to the scheduler after the last */
static inline void feast_emu_yield(void) {
  feast_emu_fibers_t &F = feast_emu_F;
  const int old = F.cur;
  if (++F.pos < F.n) {
    const int next = (int)F.order[F.pos];
    F.cur = next;
    threadIdx = dim3((unsigned)next, 0, 0);
#ifdef FEAST_EMU_USE_UCONTEXT
    swapcontext(&F.ctx[old], &F.ctx[next]);
#else
    feast_emu_switch(&F.sp[old], F.sp[next]);
#endif
    return;
  }
#ifdef FEAST_EMU_USE_UCONTEXT
  swapcontext(&F.ctx[old], &F.sched);
#else
  feast_emu_switch(&F.sp[old], F.sched_sp);
#endif
}
static inline void feast_emu_fiber_main(void) {
  feast_emu_fibers_t &F = feast_emu_F;
  F.body(F.arg);
  F.state[F.cur] = 2;
  feast_emu_yield(); /* never resumed */
  abort();
}
static inline void feast_emu_fiber_start(int t) {
  feast_emu_fibers_t &F = feast_emu_F;
  /* tops staggered by 208 bytes: 64 KiB apart they would share the same cache sets */
  char *top = F.stacks + (size_t)(t + 1) * FEAST_EMU_STACK - (size_t)(t % 19) * 208;
  /* frames left by the fiber's last run (it never returns) keep their redzones */
  FEAST_EMU_UNPOISON(F.stacks + (size_t)t * FEAST_EMU_STACK, FEAST_EMU_STACK);
#ifdef FEAST_EMU_USE_UCONTEXT
  getcontext(&F.ctx[t]);
  F.ctx[t].uc_stack.ss_sp = F.stacks + (size_t)t * FEAST_EMU_STACK + 4096; /* own region */
  F.ctx[t].uc_stack.ss_size = (size_t)(top - F.stacks) - (size_t)t * FEAST_EMU_STACK - 4096;
  F.ctx[t].uc_link = nullptr;
  makecontext(&F.ctx[t], feast_emu_fiber_main, 0);
#else
  void **s = (void **)top; /* 16-aligned */
  *--s = nullptr;                          /* fake return address of fiber_main */
  *--s = (void *)&feast_emu_fiber_main;    /* where the first switch "returns" */
  for (int r = 0; r < 6; r++) *--s = nullptr; /* rbp rbx r12..r15 */
  F.sp[t] = (void *)s;
#endif
  F.state[t] = 0;
}
/* run every fiber of the block once, in `order`, each up to its next barrier or its end */
static inline void feast_emu_phase(const std::vector<unsigned> &order) {
  feast_emu_fibers_t &F = feast_emu_F;
  F.order = order.data();
  F.n = (unsigned)order.size();
  F.pos = 0;
  F.cur = (int)order[0];
  threadIdx = dim3(order[0], 0, 0);
#ifdef FEAST_EMU_USE_UCONTEXT
  swapcontext(&F.sched, &F.ctx[F.cur]);
#else
  feast_emu_switch(&F.sched_sp, F.sp[F.cur]);
#endif
  F.cur = -1;
}

/* ----------------------------------------------------------------- kernels */

static inline void __syncthreads(void) {
  feast_emu_fibers_t &F = feast_emu_F;
  if (F.cur < 0) {
    fprintf(stderr, "emulator: __syncthreads in a kernel launched with FEAST_LAUNCH\n");
    abort();
  }
  F.state[F.cur] = 1;
  feast_emu_yield();
}
static inline int atomicExch(int *p, int v) {
  const int old = *p;
  *p = v;
  return old;
}
static inline int atomicAdd(int *p, int v) {
  const int old = *p;
  *p += v;
  return old;
}

/* order[0..n) <- 0..n-1 in the emulator's order */
static inline void feast_emu_order(std::vector<unsigned> &order, unsigned n) {
  order.resize(n);
  for (unsigned i = 0; i < n; i++) order[i] = feast_emu_S.order == FEAST_EMU_REVERSE ? n - 1 - i : i;
  if (feast_emu_S.order == FEAST_EMU_SHUFFLED)
    for (unsigned i = n; i > 1; i--) {
      const unsigned j = (unsigned)(feast_emu_next() % i);
      const unsigned t = order[i - 1];
      order[i - 1] = order[j];
      order[j] = t;
    }
}
/* the shared memory of the running block: arrays in the order of their declarations */
struct feast_emu_shared_t {
  alignas(64) char buf[64 * 1024];
  size_t used = 0, dirty = 0;
  std::vector<size_t> off, bytes; /* of the k-th array */
  int next[FEAST_EMU_MAX_THREADS] = {0}; /* the next declaration a thread reaches */
};
inline feast_emu_shared_t feast_emu_sh;
static inline void feast_emu_new_block(void) {
  feast_emu_shared_t &B = feast_emu_sh;
  if (B.used > B.dirty) B.dirty = B.used;
  memset(B.buf, 0xff, B.dirty); /* garbage, as a GPU leaves it */
  B.used = 0;
  B.off.clear();
  B.bytes.clear();
  memset(B.next, 0, sizeof B.next);
}
template <typename T> inline T *feast_emu_shared(size_t n) {
  feast_emu_shared_t &B = feast_emu_sh;
  const unsigned t = threadIdx.x;
  const size_t k = (size_t)B.next[t]++, bytes = sizeof(T) * n;
  if (k == B.off.size()) { /* the first thread to get here places it */
    const size_t o = (B.used + 15) / 16 * 16;
    if (o + bytes > sizeof B.buf) {
      fprintf(stderr, "emulator: more than %zu bytes of shared memory in a block\n", sizeof B.buf);
      abort();
    }
    B.off.push_back(o);
    B.bytes.push_back(bytes);
    B.used = o + bytes;
  } else if (B.bytes[k] != bytes) {
    fprintf(stderr, "emulator: thread %u declares shared array %zu with %zu bytes, another with %zu\n",
            t, k, bytes, B.bytes[k]);
    abort();
  }
  return (T *)(B.buf + B.off[k]);
}

/* one block of a synchronising launch: every thread a fiber, run phase by phase */
template <class F> inline void feast_emu_sync_block(const char *name, unsigned nt, F &f) {
  feast_emu_fibers_t &Fb = feast_emu_F;
  if (!Fb.stacks) {
    void *st = mmap(nullptr, (size_t)FEAST_EMU_MAX_THREADS * FEAST_EMU_STACK, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (st == MAP_FAILED) {
      fprintf(stderr, "emulator: no memory for the fiber stacks\n");
      abort();
    }
    Fb.stacks = (char *)st;
    Fb.state.resize(FEAST_EMU_MAX_THREADS);
#ifdef FEAST_EMU_USE_UCONTEXT
    Fb.ctx.resize(FEAST_EMU_MAX_THREADS);
#else
    Fb.sp.resize(FEAST_EMU_MAX_THREADS);
#endif
  }
  Fb.body = [](void *p) { (*(F *)p)(); };
  Fb.arg = &f;
  for (unsigned t = 0; t < nt; t++) feast_emu_fiber_start((int)t);
  std::vector<unsigned> order;
  for (int phase = 0;; phase++) {
    feast_emu_order(order, nt);
    feast_emu_phase(order);
    unsigned done = 0;
    for (unsigned t = 0; t < nt; t++) done += Fb.state[t] == 2;
    if (done == nt) return;
    if (done) {
      fprintf(stderr, "emulator: kernel %s, block (%u, %u): %u of %u threads returned while the "
                      "others wait at __syncthreads %d (seed %llu)\n",
              name, blockIdx.x, blockIdx.y, done, nt, phase + 1, feast_emu_S.seed);
      abort();
    }
    for (unsigned t = 0; t < nt; t++) Fb.state[t] = 0;
  }
}

/* run a kernel body over the grid */
template <class F> inline void feast_emu_run(int sync, const char *name, dim3 grid, dim3 block, F &f) {
  gridDim = grid;
  blockDim = block;
  const unsigned nb = grid.x * grid.y;
  std::vector<unsigned> border, torder;
  feast_emu_order(border, nb);
  for (unsigned b : border) {
    blockIdx = dim3(b % grid.x, b / grid.x, 0);
    feast_emu_new_block();
    if (sync) {
      feast_emu_sync_block(name, block.x, f);
      continue;
    }
    feast_emu_order(torder, block.x);
    for (unsigned t : torder) {
      threadIdx = dim3(t, 0, 0);
      f();
    }
  }
}

inline const void *feast_emu_not_device(const void *p) { return p && !feast_emu_find(p) ? p : nullptr; }

/* kernel arguments: a pointer must be null or device memory; a struct is checked by an
 * overload feast_emu_device_args(const S &) (found by ADL) returning the first bad
 * pointer or null */
template <class A> inline const void *feast_emu_bad_arg(const A &a) {
  if constexpr (std::is_pointer_v<A>) {
    return feast_emu_not_device((const void *)a);
  } else if constexpr (requires { feast_emu_device_args(a); }) {
    return feast_emu_device_args(a);
  } else {
    return nullptr;
  }
}

template <class F, class... A>
inline void feast_emu_launch(int sync, const char *name, dim3 grid, dim3 block, cudaStream_t s, F f,
                             const A &...args) {
  feast_emu_init();
  if (block.x < 1 || block.x > FEAST_EMU_MAX_THREADS || block.y != 1 || block.z != 1 || grid.x < 1 ||
      grid.y < 1 || grid.y > 65535 || grid.z != 1) {
    feast_emu_fail(cudaErrorInvalidConfiguration);
    return;
  }
  const void *bads[] = {nullptr, feast_emu_bad_arg(args)...};
  for (size_t i = 1; i < sizeof bads / sizeof bads[0]; i++) {
    if (const void *bad = bads[i]) {
      fprintf(stderr, "emulator: kernel %s, argument %zu: %p is not device memory (seed %llu)\n", name, i,
              bad, feast_emu_S.seed);
      feast_emu_fail(cudaErrorInvalidValue);
      return;
    }
  }
  feast_emu_op(s, [=]() mutable {
    feast_emu_open();
    feast_emu_run(sync, name, grid, block, f);
    feast_emu_close();
  });
}
#endif

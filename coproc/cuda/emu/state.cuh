/* Host emulator (see coproc/cuda/cuda_emu.cuh), part 2: its global state and what every
 * later part builds on. The settings read from the environment at the first call
 * (FEAST_EMU_SEED, FEAST_EMU_ORDER, FEAST_EMU_DEVICE_MB), the splitmix64 generator of the
 * shuffles, the device arena (its reservation, the registry of allocations and lookups in
 * it, the SIGSEGV handler that reports a stray access, the protection lifted while the
 * device runs), error reporting (the last error, misuse messages) and the device queries
 * (FEAST_EMU_DEVICES, FEAST_EMU_MAX_PITCH). */
#ifndef FEAST_CUDA_EMU_STATE_CUH
#define FEAST_CUDA_EMU_STATE_CUH
#include "coproc/cuda/emu/types.cuh"
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

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
  size_t live_bytes = 0; /* of the allocations (as asked, in 256-byte units): cudaMemGetInfo */
  std::map<uintptr_t, feast_emu_alloc> live; /* by start address */
  std::map<uintptr_t, size_t> free_pages;    /* free ranges by start: length in bytes */
  std::set<const void *> pinned;
  int open = 0; /* nesting of "the device is running": arena readable */
  /* FEAST_EMU_FAULT=KERNEL[:N]: the N-th launch (default the first) of KERNEL faults */
  char fault_kernel[128] = {0};
  long fault_countdown = 0;
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
  if (const char *f = getenv("FEAST_EMU_FAULT")) {
    snprintf(S.fault_kernel, sizeof S.fault_kernel, "%s", f);
    char *colon = strchr(S.fault_kernel, ':');
    S.fault_countdown = colon ? atol(colon + 1) : 1;
    if (colon) *colon = 0;
  }
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
#endif

/* Host emulator (see coproc/cuda/cuda_emu.cuh), part 4: the memory API. cudaMalloc places
 * each allocation in the arena to end at a guard page and fills it with 0xff bytes
 * (garbage, NaN); cudaFree returns its pages to the free ranges; cudaMemGetInfo reports
 * the arena as the device's memory; cudaMallocHost and
 * cudaFreeHost keep the pinned buffers; memsets and copies check every pointer against
 * the registry and the copy direction, and run on the stream queues (streams.cuh). */
#ifndef FEAST_CUDA_EMU_MEMORY_CUH
#define FEAST_CUDA_EMU_MEMORY_CUH
#include "coproc/cuda/emu/state.cuh"
#include "coproc/cuda/emu/streams.cuh"
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <sys/mman.h>

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
    S.live_bytes += span;
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
  S.live_bytes -= (it->second.bytes + 255) / 256 * 256;
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
/* the arena (FEAST_EMU_DEVICE_MB, default 8 GiB) is the device's memory: free is what
 * its allocations leave of it */
static inline cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes) {
  feast_emu_init();
  *total_bytes = feast_emu_S.arena_bytes;
  *free_bytes = feast_emu_S.arena_bytes - feast_emu_S.live_bytes;
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
  /* only the allocations the copy touches made readable (one or two mprotects, not one per live
   * allocation: solver.residency = device stages thousands of small arrays) */
  const feast_emu_alloc *al[2] = {nullptr, nullptr};
  if (!feast_emu_S.open) al[0] = feast_emu_find(d, bytes), al[1] = feast_emu_find(s, bytes);
  if (al[1] == al[0]) al[1] = nullptr;
  if (!al[0] && !al[1]) {
    feast_emu_open();
    memcpy(d, s, bytes);
    feast_emu_close();
    return cudaSuccess;
  }
  for (const feast_emu_alloc *a : al)
    if (a) mprotect((void *)a->lo, a->hi - a->lo, PROT_READ | PROT_WRITE);
  memcpy(d, s, bytes);
  for (const feast_emu_alloc *a : al)
    if (a) mprotect((void *)a->lo, a->hi - a->lo, PROT_NONE);
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

#endif

/* Zeroed allocations (FEAST_ALLOC, feast_calloc; error.h) with their fresh pages faulted
 * in at once and the time that takes charged to the running timers as first touch
 * (feast/base/log.h), and feast_free. Apart from error.c so that the errors need no
 * logging (log.c reports its errors through error.c). */
#include "feast/base/error.h"
#include "feast/base/log.h"
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

int feast_calloc(size_t count, size_t size, void *ptr) {
  void **out = (void **)ptr;
  *out = NULL;
  if (count == 0 || size == 0) return 0;
  if (count > SIZE_MAX / size)
    return feast_error_set(FEAST_ERR_LIMIT, __FILE__, __LINE__,
                           "allocation of %zu x %zu bytes overflows", count, size);
  *out = calloc(count, size);
  if (!*out)
    return feast_error_set(FEAST_ERR_MEM, __FILE__, __LINE__,
                           "out of memory allocating %.3g MB", (double)count * size / 1e6);
  feast_prefault(*out, count * size);
  return 0;
}

/* Blocks from 128 KiB on (where glibc maps fresh pages) are faulted in by the kernel in
 * one call: in this project's virtual machines a first-touch page fault costs about
 * 13 us, 4x the in-kernel population (measured: 64 MB in 4 KiB pages, 208 ms touched
 * page by page, 60 ms by MADV_POPULATE_WRITE), and a solver touches every page of its
 * vectors and matrices anyway. The content stays zero; kernels without the advice
 * (before Linux 5.14) ignore it. The time it takes is charged to the running timers as
 * first touch (feast_timer_charge_first_touch): nearly all fresh memory of a run passes
 * here, so the reports can tell the host's backing of fresh pages from the work. */
void feast_prefault(void *block, size_t bytes) {
#ifdef MADV_POPULATE_WRITE
  enum { PAGE = 4096 };
  if (bytes < ((size_t)128 << 10)) return;
  const uintptr_t begin = ((uintptr_t)block + PAGE - 1) & ~(uintptr_t)(PAGE - 1);
  const uintptr_t end = ((uintptr_t)block + bytes) & ~(uintptr_t)(PAGE - 1);
  if (end <= begin) return;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  (void)madvise((void *)begin, end - begin, MADV_POPULATE_WRITE);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  feast_timer_charge_first_touch((double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec),
                                 (double)(end - begin));
#else
  (void)block, (void)bytes;
#endif
}

void feast_free(void *ptr) {
  void **p = (void **)ptr;
  free(*p);
  *p = NULL;
}

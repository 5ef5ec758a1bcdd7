#include "feast/base/error.h"
#include "feast/base/log.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/mman.h>
#include <time.h>

static struct {
  int code;
  char message[1024];
  char where[256];
} error_state;

int feast_error_set(int code, const char *file, int line, const char *fmt, ...) {
  if (error_state.code) return code; /* keep the first, most specific message */
  error_state.code = code;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(error_state.message, sizeof error_state.message, fmt, ap);
  va_end(ap);
  /* one line only: input-derived text must not break the message */
  for (char *c = error_state.message; *c; c++)
    if (*c == '\n' || *c == '\r') *c = ' ';
  snprintf(error_state.where, sizeof error_state.where, "%s:%d", file, line);
  return code;
}

const char *feast_error_message(void) { return error_state.message; }
const char *feast_error_where(void) { return error_state.where; }
int feast_error_code(void) { return error_state.code; }
void feast_error_clear(void) { memset(&error_state, 0, sizeof error_state); }

int feast_exit_code(int status) {
  switch (status) {
  case FEAST_SUCCESS: return FEAST_EXIT_OK;
  case FEAST_ERR_USAGE:
  case FEAST_ERR_FILE:
  case FEAST_ERR_CONFIG:
  case FEAST_ERR_MESH: return FEAST_EXIT_INPUT;
  case FEAST_ERR_NOT_CONVERGED: return FEAST_EXIT_NOT_CONVERGED;
  case FEAST_ERR_LIMIT: return FEAST_EXIT_LIMIT;
  case FEAST_ERR_UNSUPPORTED: return FEAST_EXIT_UNSUPPORTED;
  case FEAST_ERR_INTERRUPTED: return FEAST_EXIT_INTERRUPTED;
  default: return FEAST_EXIT_RUNTIME;
  }
}

const char *feast_status_name(int status) {
  static const char *names[] = {"success", "argument", "usage",         "file",
                                "config",  "mesh",     "memory",        "limit",
                                "not converged", "solver", "mpi",       "cuda",
                                "unsupported",   "internal",   "interrupted"};
  if (status < 0 || status >= (int)(sizeof names / sizeof names[0])) return "unknown";
  return names[status];
}

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

int feast_mul_i64(int64_t a, int64_t b, int64_t *out) {
  if (a < 0 || b < 0 || (a != 0 && b > INT64_MAX / a)) return -1;
  *out = a * b;
  return 0;
}

int feast_add_i64(int64_t a, int64_t b, int64_t *out) {
  if (a < 0 || b < 0 || a > INT64_MAX - b) return -1;
  *out = a + b;
  return 0;
}

#include "feast/base/error.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>

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

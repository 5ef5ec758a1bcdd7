/* Shared helpers of the libFuzzer harnesses: the readers under test take a path, so
 * every input is written to a private temporary file first. */
#ifndef FEAST_FUZZ_COMMON_H
#define FEAST_FUZZ_COMMON_H
#include "feast/base/error.h"
#include "feast/base/log.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* one temp file per process, named with the extension the reader dispatches on */
static const char *fuzz_temp_path(const char *ext) {
  static char path[256];
  if (!path[0]) {
    const char *dir = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/feast_fuzz_%ld%s", dir && *dir ? dir : "/tmp", (long)getpid(), ext);
  }
  return path;
}

static int fuzz_write(const char *path, const uint8_t *data, size_t size) {
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  if (size && fwrite(data, 1, size, f) != size) {
    fclose(f);
    return -1;
  }
  return fclose(f) == 0 ? 0 : -1;
}

/* quiet: warnings print on rank 0 only, so pretend to be rank 1 */
static void fuzz_quiet(void) { feast_log_init(1, 0); }

/* the error state keeps the first message: start every input clean, and check that a
 * failing call left a one-line, non-empty message (what feastc prints) */
static void fuzz_check_error(int status) {
  if (!status) return;
  const char *msg = feast_error_message();
  if (!msg[0] || strchr(msg, '\n')) {
    fprintf(stderr, "fuzz: status %d with bad message '%s' [%s]\n", status, msg, feast_error_where());
    abort();
  }
  if (feast_exit_code(status) == FEAST_EXIT_RUNTIME && status != FEAST_ERR_MEM) {
    /* a malformed input must be an input error (1), a limit (3) or unsupported (5) */
    fprintf(stderr, "fuzz: input gave runtime/internal status %d (%s): %s [%s]\n", status,
            feast_status_name(status), msg, feast_error_where());
    abort();
  }
}
#endif

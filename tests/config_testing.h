/* Helpers of the config reader's tests (tests/unit/test_config*.c): a private folder
 * under /tmp for the files a test writes, writing a file there, and expecting an error
 * whose one-line message holds given parts. Header only (static functions and the one
 * folder of the including test program): tests/ builds every tests/unit/test_*.c as
 * its own program. */
#ifndef FEAST_CONFIG_TESTING_H
#define FEAST_CONFIG_TESTING_H
#include "feast/config/config.h"
#include "feast/base/error.h"
#include "feast_test.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char tmpdir[64]; /* a private folder for the files of this test */

/* make tmpdir (a new folder /tmp/feast_test_config_XXXXXX): 0 on success */
static inline int config_test_mkdir(void) {
  snprintf(tmpdir, sizeof tmpdir, "/tmp/feast_test_config_XXXXXX");
  if (!mkdtemp(tmpdir)) {
    perror("mkdtemp");
    return 1;
  }
  return 0;
}

/* write len bytes to a new file in tmpdir (name NULL: a unique one); path out */
static inline void write_file(const char *name, const char *data, size_t len, char *path, size_t size) {
  if (name) {
    snprintf(path, size, "%s/%s", tmpdir, name);
  } else {
    snprintf(path, size, "%s/cfg_XXXXXX.ini", tmpdir);
    int fd = mkstemps(path, 4);
    if (fd < 0) {
      perror("mkstemps");
      exit(1);
    }
    close(fd);
  }
  FILE *f = fopen(path, "wb");
  if (!f || (len && fwrite(data, 1, len, f) != len) || fclose(f)) {
    perror(path);
    exit(1);
  }
}

/* status must be code, and the message must contain every needle (each "@" stands for
 * the file's path); clears the error */
static inline void expect_error(int status, int code, const char *path, const char *const *needles, const char *what) {
  CHECK(status == code);
  const char *msg = feast_error_message();
  CHECK(msg[0] && !strchr(msg, '\n'));
  for (int i = 0; needles[i]; i++) {
    char want[1024];
    size_t w = 0;
    for (const char *c = needles[i]; *c && w + 1 < sizeof want; c++) /* every '@' replaced */
      w += (size_t)snprintf(want + w, sizeof want - w, "%s", *c == '@' ? path : (char[]){*c, 0});
    want[w < sizeof want ? w : sizeof want - 1] = 0;
    feast_test_checks++;
    if (!strstr(msg, want)) {
      feast_test_failures++;
      fprintf(stderr, "%s: message lacks '%s': %s\n", what, want, msg);
    }
  }
  if (status != code) fprintf(stderr, "%s: status %d, want %d: %s\n", what, status, code, msg);
  feast_error_clear();
}

/* the needles of expect_error: N("a", "b") */
#define N(...) ((const char *const[]){__VA_ARGS__, NULL})

#endif

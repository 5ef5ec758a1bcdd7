#include "feast/base/atomic.h"
#include "feast/base/error.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* write len bytes to path; FEAST_ERR_FILE naming shown */
static int write_bytes(const char *path, const char *shown, const char *what, const char *text, size_t len) {
  FILE *f = fopen(path, "wb");
  FEAST_CHECK(f, FEAST_ERR_FILE, "cannot write the %s %s: %s", what, shown, strerror(errno));
  int bad = fwrite(text, 1, len, f) != len || fflush(f) != 0 || fsync(fileno(f)) != 0;
  int err = errno;
  if (fclose(f) != 0 && !bad) bad = 1, err = errno;
  if (bad) remove(path);
  FEAST_CHECK(!bad, FEAST_ERR_FILE, "cannot write the %s %s: %s", what, shown, strerror(err));
  return 0;
}

/* the rename made durable: fsync of the folder holding path (best effort: some file
 * systems cannot sync a folder, and the file itself is complete either way) */
static void sync_folder(const char *path) {
  const char *slash = strrchr(path, '/');
  char dir[4096];
  snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) + (slash == path) : 1, slash ? path : ".");
  FILE *d = fopen(dir, "r");
  if (!d) return;
  (void)fsync(fileno(d));
  fclose(d);
}

int feast_commit_atomic(const char *tmp, const char *path, const char *what) {
  if (rename(tmp, path) != 0) {
    const int err = errno;
    remove(tmp);
    FEAST_ERROR(FEAST_ERR_FILE, "cannot write the %s %s: %s", what, path, strerror(err));
  }
  sync_folder(path);
  return 0;
}

int feast_write_atomic(const char *path, const char *what, const char *text, size_t len) {
  FEAST_CHECK(path && *path && text, FEAST_ERR_ARG, "write_atomic: empty path or no text");
  const size_t n = strlen(path) + sizeof FEAST_ATOMIC_SUFFIX;
  char *tmp;
  FEAST_CALL(FEAST_ALLOC(n, &tmp));
  snprintf(tmp, n, "%s%s", path, FEAST_ATOMIC_SUFFIX);
  int status = write_bytes(tmp, path, what, text, len);
  if (!status) status = feast_commit_atomic(tmp, path, what);
  free(tmp);
  return status;
}

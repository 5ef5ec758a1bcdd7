#include "feast/base/paths.h"
#include "feast/base/atomic.h"
#include "feast/base/error.h"
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

typedef struct {
  char *key, *path;
  const char *replaceable_by; /* inputs only */
  int input;
  int exists;
  dev_t dev;
  ino_t ino;
  char canon[PATH_MAX + 256]; /* for names that do not exist (yet) */
} Named;

struct FeastPaths {
  Named *items;
  int count, cap;
};

int feast_paths_create(FeastPaths **paths) { return FEAST_ALLOC(1, paths); }

void feast_paths_destroy(FeastPaths **paths) {
  if (!paths || !*paths) return;
  for (int i = 0; i < (*paths)->count; i++) free((*paths)->items[i].key), free((*paths)->items[i].path);
  free((*paths)->items);
  feast_free(paths);
}

/* canonical parent folder + last component of a name that does not exist; the name as
 * given when the folder does not exist either (writing there fails later anyway) */
static void canonical_name(const char *path, char *out, size_t size) {
  const char *slash = strrchr(path, '/');
  const char *name = slash ? slash + 1 : path;
  char dir[PATH_MAX], real[PATH_MAX];
  if (!slash) snprintf(dir, sizeof dir, ".");
  else if (slash == path) snprintf(dir, sizeof dir, "/");
  else snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
  if (realpath(dir, real)) snprintf(out, size, "%s/%s", strcmp(real, "/") == 0 ? "" : real, name);
  else snprintf(out, size, "%s", path);
}

static void identify(Named *n) {
  struct stat st;
  n->exists = stat(n->path, &st) == 0;
  if (n->exists) n->dev = st.st_dev, n->ino = st.st_ino;
  else canonical_name(n->path, n->canon, sizeof n->canon);
}

static int same_file(const Named *a, const Named *b) {
  if (a->exists != b->exists) return 0;
  if (a->exists) return a->dev == b->dev && a->ino == b->ino;
  return strcmp(a->canon, b->canon) == 0;
}

static int add(FeastPaths *p, int input, const char *key, const char *path, const char *replaceable_by) {
  FEAST_CHECK(p && key && path && path[0], FEAST_ERR_ARG, "paths_add: NULL or empty argument");
  if (p->count == p->cap) {
    int cap = p->cap ? 2 * p->cap : 16;
    Named *items = realloc(p->items, (size_t)cap * sizeof *items);
    FEAST_CHECK(items, FEAST_ERR_MEM, "out of memory registering the file %s", path);
    p->items = items, p->cap = cap;
  }
  Named *n = &p->items[p->count];
  memset(n, 0, sizeof *n);
  n->key = strdup(key);
  n->path = strdup(path);
  if (!n->key || !n->path) {
    free(n->key), free(n->path);
    FEAST_ERROR(FEAST_ERR_MEM, "out of memory registering the file %s", path);
  }
  n->input = input;
  n->replaceable_by = replaceable_by;
  identify(n);
  p->count++;
  return 0;
}

int feast_paths_add_input(FeastPaths *paths, const char *key, const char *path, const char *replaceable_by) {
  return add(paths, 1, key, path, replaceable_by);
}

int feast_paths_add_output(FeastPaths *paths, const char *key, const char *path) {
  return add(paths, 0, key, path, NULL);
}

int feast_paths_add_atomic_output(FeastPaths *paths, const char *key, const char *path) {
  char tmp[PATH_MAX + 8];
  FEAST_CALL(add(paths, 0, key, path, NULL));
  FEAST_CHECK(snprintf(tmp, sizeof tmp, "%s%s", path, FEAST_ATOMIC_SUFFIX) < (int)sizeof tmp, FEAST_ERR_CONFIG,
              "%s = %s: path too long", key, path);
  return add(paths, 0, key, tmp, NULL);
}

static int clash(const Named *out, const Named *other) {
  if (other->input)
    FEAST_ERROR(FEAST_ERR_CONFIG,
                "%s = %s would overwrite the input %s (%s): both name the same file; choose another output path",
                out->key, out->path, other->path, other->key);
  FEAST_ERROR(FEAST_ERR_CONFIG, "%s (%s) and %s (%s) name the same file: one output would overwrite the other",
              other->key, other->path, out->key, out->path);
}

int feast_paths_check(const FeastPaths *paths) {
  FEAST_CHECK(paths, FEAST_ERR_ARG, "paths_check: NULL argument");
  for (int i = 0; i < paths->count; i++) {
    const Named *out = &paths->items[i];
    if (out->input) continue;
    for (int j = 0; j < paths->count; j++) {
      const Named *other = &paths->items[j];
      if (j == i || (!other->input && j > i) || !same_file(out, other)) continue;
      if (other->input && other->replaceable_by && strcmp(other->replaceable_by, out->key) == 0) continue;
      return clash(out, other);
    }
  }
  return 0;
}

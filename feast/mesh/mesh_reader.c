/* The bounded line reader both mesh readers (mesh_native.c, gmsh_parse.c) read their
 * untrusted text files with: lines of at most FEAST_MESH_MAX_LINE bytes, control bytes
 * rejected, tokens split on blanks; integer and real tokens parsed with errors that name
 * file:line and the token; counts checked against the bytes left in the file; part
 * names checked (see mesh_io.h). */
#include "feast/base/error.h"
#include "feast/mesh/mesh_io.h"
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int feast_mesh_reader_open(FeastMeshReader *r, const char *path, int hash_comments) {
  memset(r, 0, sizeof *r);
  r->path = path;
  r->hash_comments = hash_comments;
  errno = 0;
  r->f = fopen(path, "rb");
  FEAST_CHECK(r->f, FEAST_ERR_FILE, "%s: cannot open mesh file: %s", path, strerror(errno));
  struct stat st;
  FEAST_CHECK(fstat(fileno(r->f), &st) == 0 && S_ISREG(st.st_mode), FEAST_ERR_FILE,
              "%s: not a regular file (a mesh file is expected)", path);
  r->size = (long long)st.st_size;
  FEAST_CALL(FEAST_ALLOC(FEAST_MESH_MAX_LINE + 1, &r->raw));
  FEAST_CALL(FEAST_ALLOC(FEAST_MESH_MAX_LINE + 1, &r->buf));
  return 0;
}

void feast_mesh_reader_close(FeastMeshReader *r) {
  if (r->f) fclose(r->f);
  r->f = NULL;
  feast_free(&r->raw);
  feast_free(&r->buf);
}

/* one physical line into r->raw; control bytes (other than tab and CR) are rejected */
static int read_line(FeastMeshReader *r, int *eof) {
  size_t n = 0;
  int c = 0;
  *eof = 0;
  FEAST_CHECK(r->line < INT_MAX, FEAST_ERR_MESH, "%s: more than %d lines", r->path, INT_MAX - 1);
  r->line++;
  while ((c = getc(r->f)) != EOF) {
    r->offset++;
    if (c == '\n') break;
    if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7f)
      FEAST_ERROR(FEAST_ERR_MESH, "%s:%d: control byte 0x%02x in column %zu: not a text mesh file", r->path, r->line,
                  (unsigned)c, n + 1);
    FEAST_CHECK(n < FEAST_MESH_MAX_LINE, FEAST_ERR_MESH, "%s:%d: line longer than %d bytes", r->path, r->line,
                FEAST_MESH_MAX_LINE);
    r->raw[n++] = (char)c;
  }
  r->raw[n] = 0;
  if (c == EOF) {
    FEAST_CHECK(!ferror(r->f), FEAST_ERR_FILE, "%s:%d: read error: %s", r->path, r->line, strerror(errno));
    if (n == 0) *eof = 1;
  }
  return 0;
}

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

static void tokenize(FeastMeshReader *r) {
  memcpy(r->buf, r->raw, strlen(r->raw) + 1);
  if (r->hash_comments) {
    char *hash = strchr(r->buf, '#');
    if (hash) *hash = 0;
  }
  r->ntok = 0;
  r->overflow = 0;
  char *p = r->buf;
  for (;;) {
    while (is_blank(*p)) p++;
    if (!*p) break;
    if (r->ntok == FEAST_MESH_MAX_TOKENS) {
      r->overflow = 1;
      break;
    }
    r->tok[r->ntok++] = p;
    while (*p && !is_blank(*p)) p++;
    if (*p) *p++ = 0;
  }
}

int feast_mesh_reader_next(FeastMeshReader *r, int *eof) {
  do {
    FEAST_CALL(read_line(r, eof));
    if (*eof) return 0;
    tokenize(r);
  } while (r->ntok == 0);
  return 0;
}

int feast_mesh_reader_expect(FeastMeshReader *r, const char *what) {
  int eof;
  FEAST_CALL(feast_mesh_reader_next(r, &eof));
  FEAST_CHECK(!eof, FEAST_ERR_MESH, "%s:%d: unexpected end of file: expected %s", r->path, r->line, what);
  return 0;
}

int feast_mesh_reader_ntok(const FeastMeshReader *r, int n, const char *what) {
  FEAST_CHECK(r->ntok == n && !r->overflow, FEAST_ERR_MESH, "%s:%d: expected %d field%s (%s), found %s%d", r->path,
              r->line, n, n == 1 ? "" : "s", what, r->overflow ? "more than " : "", r->ntok);
  return 0;
}

int feast_mesh_tok_int(const FeastMeshReader *r, int i, long long min, long long max, const char *what,
                       long long *value) {
  FEAST_CHECK(i < r->ntok, FEAST_ERR_MESH, "%s:%d: missing %s", r->path, r->line, what);
  const char *s = r->tok[i];
  char *end;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  FEAST_CHECK(end != s && !*end, FEAST_ERR_MESH, "%s:%d: %s '%.40s' is not an integer", r->path, r->line, what, s);
  FEAST_CHECK(errno != ERANGE && v >= min && v <= max, FEAST_ERR_MESH, "%s:%d: %s %.40s is out of range [%lld, %lld]",
              r->path, r->line, what, s, min, max);
  *value = v;
  return 0;
}

int feast_mesh_tok_real(const FeastMeshReader *r, int i, const char *what, double *value) {
  FEAST_CHECK(i < r->ntok, FEAST_ERR_MESH, "%s:%d: missing %s", r->path, r->line, what);
  const char *s = r->tok[i];
  char *end;
  double v = strtod(s, &end);
  FEAST_CHECK(end != s && !*end, FEAST_ERR_MESH, "%s:%d: %s '%.40s' is not a number", r->path, r->line, what, s);
  FEAST_CHECK(isfinite(v), FEAST_ERR_MESH, "%s:%d: %s '%.40s' is not a finite number", r->path, r->line, what, s);
  *value = v;
  return 0;
}

int feast_mesh_reader_fits(const FeastMeshReader *r, long long count, int min_bytes, const char *what) {
  long long left = r->size - r->offset;
  FEAST_CHECK(count <= left / min_bytes, FEAST_ERR_MESH,
              "%s:%d: %lld %s cannot fit in the remaining %lld bytes of the file (truncated file or "
              "corrupt count)",
              r->path, r->line, count, what, left);
  return 0;
}

int feast_mesh_name_ok(const char *s) {
  size_t n = 0;
  for (; s[n]; n++) {
    char c = s[n];
    int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    if (!ok || n >= 63) return 0;
  }
  return n > 0;
}

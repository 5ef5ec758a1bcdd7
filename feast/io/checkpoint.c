#include "feast/io/checkpoint.h"
#include "feast/base/atomic.h"
#include "feast/base/error.h"
#include "feast/base/hash.h"
#include "feast/base/log.h"
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAGIC "feastc-checkpoint 1\n"
enum {
  TRAILER_LEN = 26, /* "checksum " + 16 hex digits + "\n" */
  MAX_LINE = 4096,  /* of a header line */
  MAX_NAME = 64     /* of an array name */
};

typedef struct {
  char name[MAX_NAME];
  int64_t n;
  double *x;
} Array;

struct FeastCheckpoint {
  char *header; /* "key value\n" lines */
  size_t header_len, header_cap;
  Array *arrays;
  int narrays;
  char *path; /* the file read */
};

static const char *byte_order(void) {
  const uint16_t one = 1;
  return *(const unsigned char *)&one ? "little" : "big";
}

int feast_checkpoint_create(FeastCheckpoint **ck) { return FEAST_ALLOC(1, ck); }

void feast_checkpoint_destroy(FeastCheckpoint **ck) {
  if (!ck || !*ck) return;
  for (int i = 0; i < (*ck)->narrays; i++) free((*ck)->arrays[i].x);
  free((*ck)->arrays);
  free((*ck)->header);
  free((*ck)->path);
  feast_free(ck);
}

/* append one "key value\n" line */
static int append_line(FeastCheckpoint *ck, const char *key, const char *value) {
  const size_t need = ck->header_len + strlen(key) + strlen(value) + 3;
  FEAST_CHECK(strlen(key) + strlen(value) + 2 < MAX_LINE && !strpbrk(key, " \t\n") && !strchr(value, '\n'),
              FEAST_ERR_ARG, "checkpoint header line '%s %s': too long or not one line", key, value);
  if (need > ck->header_cap) {
    size_t cap = need > 2 * ck->header_cap ? need : 2 * ck->header_cap;
    char *h = realloc(ck->header, cap);
    FEAST_CHECK(h, FEAST_ERR_MEM, "out of memory building a checkpoint header");
    ck->header = h, ck->header_cap = cap;
  }
  ck->header_len += (size_t)sprintf(ck->header + ck->header_len, "%s %s\n", key, value);
  return 0;
}

int feast_checkpoint_set(FeastCheckpoint *ck, const char *key, const char *fmt, ...) {
  char value[MAX_LINE];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(value, sizeof value, fmt, ap);
  va_end(ap);
  FEAST_CHECK(n >= 0 && n < (int)sizeof value, FEAST_ERR_ARG, "checkpoint header value of %s too long", key);
  return append_line(ck, key, value);
}

static int push_array(FeastCheckpoint *ck, const char *name, int64_t n, double **x) {
  FEAST_CHECK(strlen(name) < MAX_NAME && !strpbrk(name, " \t\n") && n >= 0, FEAST_ERR_ARG,
              "checkpoint array '%s': bad name or size", name);
  Array *a = realloc(ck->arrays, (size_t)(ck->narrays + 1) * sizeof *a);
  FEAST_CHECK(a, FEAST_ERR_MEM, "out of memory building a checkpoint");
  ck->arrays = a;
  Array *new_array = &a[ck->narrays];
  memset(new_array, 0, sizeof *new_array);
  snprintf(new_array->name, sizeof new_array->name, "%s", name);
  new_array->n = n;
  FEAST_CALL(FEAST_ALLOC(n > 0 ? n : 1, &new_array->x));
  ck->narrays++;
  *x = new_array->x;
  return 0;
}

int feast_checkpoint_add_array(FeastCheckpoint *ck, const char *name, const double *x, int64_t n) {
  double *copy;
  FEAST_CALL(push_array(ck, name, n, &copy));
  if (n > 0) memcpy(copy, x, (size_t)n * sizeof *x);
  return 0;
}

/* ------------------------------------------------------------------------ writing */

/* the header part: magic, byte order, key lines, array lines, "data" */
static int build_head(const FeastCheckpoint *ck, char **text, size_t *len) {
  size_t cap = strlen(MAGIC) + 32 + ck->header_len + (size_t)ck->narrays * (MAX_NAME + 40) + 8;
  FEAST_CALL(FEAST_ALLOC(cap, text));
  size_t n = (size_t)snprintf(*text, cap, "%sbyte_order %s\n", MAGIC, byte_order());
  if (ck->header_len) memcpy(*text + n, ck->header, ck->header_len), n += ck->header_len;
  for (int i = 0; i < ck->narrays; i++)
    n += (size_t)snprintf(*text + n, cap - n, "array %s %" PRId64 "\n", ck->arrays[i].name, ck->arrays[i].n);
  n += (size_t)snprintf(*text + n, cap - n, "data\n");
  *len = n;
  return 0;
}

int feast_checkpoint_write(const FeastCheckpoint *ck, const char *path) {
  char *head = NULL, *file = NULL;
  size_t head_len, total;
  FEAST_CALL(build_head(ck, &head, &head_len));
  total = head_len + TRAILER_LEN + 1;
  for (int i = 0; i < ck->narrays; i++) total += (size_t)ck->arrays[i].n * sizeof(double);
  int st = FEAST_ALLOC(total, &file);
  if (!st) {
    memcpy(file, head, head_len);
    size_t n = head_len;
    for (int i = 0; i < ck->narrays; i++) {
      memcpy(file + n, ck->arrays[i].x, (size_t)ck->arrays[i].n * sizeof(double));
      n += (size_t)ck->arrays[i].n * sizeof(double);
    }
    n += (size_t)snprintf(file + n, total - n, "checksum %016" PRIx64 "\n", feast_fnv1a64(FEAST_FNV_OFFSET, file, n));
    st = feast_write_atomic(path, "checkpoint", file, n);
  }
  free(file);
  free(head);
  return st;
}

/* ------------------------------------------------------------------------ reading */

static int read_all(const char *path, const char *shown, char **buf, size_t *len) {
  FILE *f = fopen(path, "rb");
  FEAST_CHECK(f, FEAST_ERR_FILE, "%s %s: cannot open the checkpoint: %s", shown, path, strerror(errno));
  struct stat st_file;
  long size = -1;
  if (fstat(fileno(f), &st_file) == 0 && S_ISREG(st_file.st_mode) && fseek(f, 0, SEEK_END) == 0) size = ftell(f);
  if (size < 0 || fseek(f, 0, SEEK_SET) != 0) {
    fclose(f);
    FEAST_ERROR(FEAST_ERR_FILE, "%s %s: cannot read the checkpoint (not a regular file)", shown, path);
  }
  int st = FEAST_ALLOC((size_t)size + 1, buf);
  if (!st && fread(*buf, 1, (size_t)size, f) != (size_t)size)
    st = feast_error_set(FEAST_ERR_FILE, __FILE__, __LINE__, "%s %s: cannot read the checkpoint: %s", shown, path,
                         strerror(errno));
  fclose(f);
  *len = (size_t)size;
  return st;
}

/* the magic line and the checksum trailer over all bytes before it */
static int verify(const char *buf, size_t len, const char *shown, const char *path) {
  FEAST_CHECK(len >= strlen(MAGIC) && memcmp(buf, MAGIC, strlen(MAGIC)) == 0, FEAST_ERR_FILE,
              "%s %s: not a feastc checkpoint (it does not start with '%.*s')", shown, path,
              (int)strlen(MAGIC) - 1, MAGIC);
  const char *trailer = buf + len - TRAILER_LEN;
  uint64_t stored = 0;
  int ok = len >= strlen(MAGIC) + TRAILER_LEN && memcmp(trailer, "checksum ", 9) == 0 && trailer[TRAILER_LEN - 1] == '\n';
  char hex[17];
  if (ok) {
    memcpy(hex, trailer + 9, 16), hex[16] = 0;
    char *end;
    stored = strtoull(hex, &end, 16);
    ok = end == hex + 16;
  }
  FEAST_CHECK(ok, FEAST_ERR_FILE, "%s %s: the checkpoint is truncated or damaged (no checksum at its end)", shown,
              path);
  const uint64_t computed = feast_fnv1a64(FEAST_FNV_OFFSET, buf, len - TRAILER_LEN);
  FEAST_CHECK(computed == stored, FEAST_ERR_FILE,
              "%s %s: the checkpoint is damaged: checksum %016" PRIx64 " stored, %016" PRIx64 " computed", shown,
              path, stored, computed);
  return 0;
}

/* the next line of [*pos, end) without its newline, into line (MAX_LINE) */
static int next_line(const char *buf, size_t end, size_t *pos, char *line, const char *path) {
  const char *nl = memchr(buf + *pos, '\n', end - *pos);
  FEAST_CHECK(nl && (size_t)(nl - (buf + *pos)) < MAX_LINE, FEAST_ERR_FILE,
              "checkpoint %s: malformed header (no 'data' line)", path);
  size_t n = (size_t)(nl - (buf + *pos));
  memcpy(line, buf + *pos, n);
  line[n] = 0;
  *pos += n + 1;
  return 0;
}

/* "array NAME COUNT" */
static int parse_array_line(FeastCheckpoint *ck, const char *line, const char *path) {
  char name[MAX_NAME];
  long long n;
  char extra;
  FEAST_CHECK(sscanf(line, "array %63s %lld %c", name, &n, &extra) == 2 && n >= 0 && n < (1LL << 40), FEAST_ERR_FILE,
              "checkpoint %s: malformed line '%.80s'", path, line);
  double *x;
  return push_array(ck, name, n, &x);
}

/* header lines up to "data"; *pos then points at the data */
static int parse_header(FeastCheckpoint *ck, const char *buf, size_t end, size_t *pos) {
  char line[MAX_LINE];
  *pos = strlen(MAGIC);
  for (;;) {
    FEAST_CALL(next_line(buf, end, pos, line, ck->path));
    if (strcmp(line, "data") == 0) return 0;
    if (strncmp(line, "array ", 6) == 0) {
      FEAST_CALL(parse_array_line(ck, line, ck->path));
      continue;
    }
    char *sp = strchr(line, ' ');
    FEAST_CHECK(sp && sp != line, FEAST_ERR_FILE, "checkpoint %s: malformed header line '%.80s'", ck->path, line);
    *sp = 0;
    FEAST_CALL(append_line(ck, line, sp + 1));
  }
}

/* the arrays' values from buf[pos, end), which must hold exactly them */
static int read_arrays(FeastCheckpoint *ck, const char *buf, size_t pos, size_t end) {
  size_t need = 0;
  for (int i = 0; i < ck->narrays; i++) need += (size_t)ck->arrays[i].n * sizeof(double);
  FEAST_CHECK(need == end - pos, FEAST_ERR_FILE, "checkpoint %s: %zu bytes of data, the header declares %zu",
              ck->path, end - pos, need);
  for (int i = 0; i < ck->narrays; i++) {
    memcpy(ck->arrays[i].x, buf + pos, (size_t)ck->arrays[i].n * sizeof(double));
    pos += (size_t)ck->arrays[i].n * sizeof(double);
  }
  return 0;
}

static int parse(FeastCheckpoint *ck, const char *buf, size_t len) {
  size_t pos;
  FEAST_CALL(parse_header(ck, buf, len - TRAILER_LEN, &pos));
  const char *order = feast_checkpoint_get(ck, "byte_order");
  FEAST_CHECK(order && strcmp(order, byte_order()) == 0, FEAST_ERR_FILE,
              "checkpoint %s: byte order %s, this machine's is %s", ck->path, order ? order : "(none)", byte_order());
  return read_arrays(ck, buf, pos, len - TRAILER_LEN);
}

int feast_checkpoint_read(const char *path, const char *shown, FeastCheckpoint **ck) {
  char *buf = NULL;
  size_t len = 0;
  *ck = NULL;
  int st = read_all(path, shown, &buf, &len);
  if (!st) st = verify(buf, len, shown, path);
  if (!st) st = feast_checkpoint_create(ck);
  if (!st) {
    (*ck)->path = strdup(path);
    st = (*ck)->path ? parse(*ck, buf, len) : feast_error_set(FEAST_ERR_MEM, __FILE__, __LINE__, "out of memory");
  }
  free(buf);
  if (st) feast_checkpoint_destroy(ck);
  return st;
}

/* ------------------------------------------------------------------------ access */

const char *feast_checkpoint_path(const FeastCheckpoint *ck) { return ck && ck->path ? ck->path : ""; }

const char *feast_checkpoint_get(const FeastCheckpoint *ck, const char *key) {
  const size_t n = strlen(key);
  for (const char *line = ck->header; line && line < ck->header + ck->header_len;) {
    const char *nl = memchr(line, '\n', (size_t)(ck->header + ck->header_len - line));
    if (strncmp(line, key, n) == 0 && line[n] == ' ') {
      static char value[MAX_LINE];
      snprintf(value, sizeof value, "%.*s", (int)(nl - line - (ptrdiff_t)n - 1), line + n + 1);
      return value;
    }
    line = nl + 1;
  }
  return NULL;
}

int feast_checkpoint_get_long(const FeastCheckpoint *ck, const char *key, long *value) {
  const char *text = feast_checkpoint_get(ck, key);
  char *end = NULL;
  errno = 0;
  if (text) *value = strtol(text, &end, 10);
  FEAST_CHECK(text && end != text && !*end && !errno, FEAST_ERR_FILE, "checkpoint %s: no integer '%s' in its header",
              feast_checkpoint_path(ck), key);
  return 0;
}

int feast_checkpoint_get_real(const FeastCheckpoint *ck, const char *key, double *value) {
  const char *text = feast_checkpoint_get(ck, key);
  char *end = NULL;
  if (text) *value = strtod(text, &end);
  FEAST_CHECK(text && end != text && !*end, FEAST_ERR_FILE, "checkpoint %s: no number '%s' in its header",
              feast_checkpoint_path(ck), key);
  return 0;
}

int feast_checkpoint_array(const FeastCheckpoint *ck, const char *name, int64_t n, const double **x) {
  for (int i = 0; i < ck->narrays; i++)
    if (strcmp(ck->arrays[i].name, name) == 0) {
      FEAST_CHECK(ck->arrays[i].n == n, FEAST_ERR_FILE, "checkpoint %s: array %s has %" PRId64 " values, expected %" PRId64,
                  feast_checkpoint_path(ck), name, ck->arrays[i].n, n);
      *x = ck->arrays[i].x;
      return 0;
    }
  FEAST_ERROR(FEAST_ERR_FILE, "checkpoint %s: no array '%s'", feast_checkpoint_path(ck), name);
}

/* ------------------------------------------------------------------------ the run */

/* the keys a checkpoint records: their role is data of the schema (FeastKeySpec.flags),
 * set in the key table of the layer that declares them */
enum { RUN_KEYS = FEAST_KEY_DISCRETE | FEAST_KEY_RECORDED, VALUE_LEN = 1024 };

/* the value in force as canonical text: numbers with 17 digits (1e2 and 100 agree) */
static int canonical_value(const FeastConfig *cfg, const char *name, const FeastKeySpec *spec, char *out) {
  double r[2];
  long i;
  const char *text;
  if (!feast_config_is_set(cfg, name) && !spec->default_value) return snprintf(out, VALUE_LEN, "(unset)"), 0;
  switch (spec->type) {
  case FEAST_KEY_INT: FEAST_CALL(feast_config_get_int(cfg, name, &i)); snprintf(out, VALUE_LEN, "%ld", i); break;
  case FEAST_KEY_REAL: FEAST_CALL(feast_config_get_real(cfg, name, r)); snprintf(out, VALUE_LEN, "%.17g", r[0]); break;
  case FEAST_KEY_REAL2:
    FEAST_CALL(feast_config_get_real2(cfg, name, r));
    snprintf(out, VALUE_LEN, "%.17g %.17g", r[0], r[1]);
    break;
  default: FEAST_CALL(feast_config_get_string(cfg, name, &text)); snprintf(out, VALUE_LEN, "%s", text);
  }
  return 0;
}

typedef int (*KeyVisitor)(const char *name, const char *value, int problem, void *ctx);

/* key spec in section `section` (its own, or one of its pattern's) */
static int visit_key(const FeastConfig *cfg, const FeastKeySpec *spec, const char *section, KeyVisitor fn, void *ctx) {
  char name[256], value[VALUE_LEN];
  snprintf(name, sizeof name, "%s.%s", section, spec->key);
  FEAST_CALL(canonical_value(cfg, name, spec, value));
  return fn(name, value, (spec->flags & FEAST_KEY_DISCRETE) != 0, ctx);
}

/* every key with a role (RUN_KEYS), a pattern section's in every section of it present */
static int visit_run_keys(const FeastConfig *cfg, KeyVisitor fn, void *ctx) {
  for (int k = 0; k < feast_config_key_count(cfg); k++) {
    const FeastKeySpec *spec = feast_config_key_spec(cfg, k);
    const size_t n = strlen(spec->section);
    if (!(spec->flags & RUN_KEYS)) continue;
    if (n < 2 || strcmp(spec->section + n - 2, ".*") != 0) {
      FEAST_CALL(visit_key(cfg, spec, spec->section, fn, ctx));
      continue;
    }
    char prefix[256];
    int count;
    const char *const *names;
    snprintf(prefix, sizeof prefix, "%.*s", (int)(n - 1), spec->section); /* "boundary." */
    FEAST_CALL(feast_config_sections(cfg, prefix, &count, &names));
    for (int b = 0; b < count; b++) FEAST_CALL(visit_key(cfg, spec, names[b], fn, ctx));
  }
  return 0;
}

/* the key that names the problem (FEAST_KEY_PROBLEM_TYPE): its name and value */
static int problem_type(const FeastConfig *cfg, char name[256], const char **type) {
  for (int k = 0; k < feast_config_key_count(cfg); k++) {
    const FeastKeySpec *spec = feast_config_key_spec(cfg, k);
    if (!(spec->flags & FEAST_KEY_PROBLEM_TYPE)) continue;
    snprintf(name, 256, "%s.%s", spec->section, spec->key);
    return feast_config_get_string(cfg, name, type);
  }
  FEAST_ERROR(FEAST_ERR_ARG, "checkpoint: the config's schema has no key that names the problem");
}

static int describe_key(const char *name, const char *value, int problem, void *ctx) {
  (void)problem;
  return feast_checkpoint_set(ctx, "config", "%s %s", name, value);
}

int feast_checkpoint_describe(FeastCheckpoint *ck, const FeastConfig *cfg, const FeastMesh *mesh, int level,
                              int nranks, int fields) {
  const char *type;
  char key[256];
  FEAST_CALL(problem_type(cfg, key, &type));
  FEAST_CALL(feast_checkpoint_set(ck, "problem", "%s", type));
  FEAST_CALL(feast_checkpoint_set(ck, "mesh", "%s", mesh->source));
  FEAST_CALL(feast_checkpoint_set(ck, "mesh_fingerprint", "%016" PRIx64, feast_mesh_fingerprint(mesh)));
  FEAST_CALL(feast_checkpoint_set(ck, "level", "%d", level));
  FEAST_CALL(feast_checkpoint_set(ck, "fields", "%d", fields));
  FEAST_CALL(feast_checkpoint_set(ck, "ranks", "%d", nranks));
  return visit_run_keys(cfg, describe_key, ck);
}

typedef struct {
  const FeastCheckpoint *ck;
  const FeastConfig *cfg;
  int problem_keys;
} MatchCtx;

/* the value "config NAME VALUE" of the checkpoint, NULL if absent */
static const char *stored_value(const FeastCheckpoint *ck, const char *name) {
  const size_t n = strlen(name);
  for (const char *line = ck->header; line && line < ck->header + ck->header_len; line = strchr(line, '\n') + 1)
    if (strncmp(line, "config ", 7) == 0 && strncmp(line + 7, name, n) == 0 && line[7 + n] == ' ') {
      static char value[MAX_LINE];
      snprintf(value, sizeof value, "%.*s", (int)(strchr(line, '\n') - line - 8 - (ptrdiff_t)n), line + 8 + n);
      return value;
    }
  return NULL;
}

static int match_key(const char *name, const char *value, int problem, void *ctx) {
  MatchCtx *m = ctx;
  const char *stored = stored_value(m->ck, name);
  const char *former = stored ? NULL : feast_config_former_name(m->cfg, name);
  if (former) stored = stored_value(m->ck, former); /* written before the key moved */
  m->problem_keys += problem;
  if (stored && strcmp(stored, value) == 0) return 0;
  FEAST_CHECK(!problem, FEAST_ERR_CONFIG,
              "--restart %s: %s = %s (%s), but the checkpoint was written with %s: it is the state of another "
              "problem",
              feast_checkpoint_path(m->ck), name, value, feast_config_origin(m->cfg, name), stored ? stored : "(no such key)");
  feast_warn("--restart %s: %s = %s (%s), the checkpoint was written with %s: the continued run is not the same as "
             "an uninterrupted one",
             feast_checkpoint_path(m->ck), name, value, feast_config_origin(m->cfg, name), stored ? stored : "(no such key)");
  return 0;
}

/* the number of the checkpoint's values that define the problem (by the role of their key
 * in this run's schema; a name it no longer has is not counted) */
static int stored_problem_keys(const FeastCheckpoint *ck, const FeastConfig *cfg) {
  int count = 0;
  for (const char *line = ck->header; line && line < ck->header + ck->header_len; line = strchr(line, '\n') + 1) {
    if (strncmp(line, "config ", 7) != 0) continue;
    char name[256];
    const size_t n = strcspn(line + 7, " \n");
    if (n >= sizeof name) continue;
    snprintf(name, sizeof name, "%.*s", (int)n, line + 7);
    const FeastKeySpec *spec = feast_config_find_key(cfg, name);
    count += spec && (spec->flags & FEAST_KEY_DISCRETE);
  }
  return count;
}

static int match_header(const FeastCheckpoint *ck, const char *key, const char *want, const char *what) {
  const char *have = feast_checkpoint_get(ck, key);
  FEAST_CHECK(have && strcmp(have, want) == 0, FEAST_ERR_CONFIG, "--restart %s: the checkpoint is of %s %s, this run's is %s",
              feast_checkpoint_path(ck), what, have ? have : "(none)", want);
  return 0;
}

int feast_checkpoint_match(const FeastCheckpoint *ck, const FeastConfig *cfg, const FeastMesh *mesh, int level,
                           int fields) {
  char want[64];
  const char *type;
  char key[256];
  FEAST_CALL(problem_type(cfg, key, &type));
  FEAST_CALL(match_header(ck, "problem", type, key));
  snprintf(want, sizeof want, "%016" PRIx64, feast_mesh_fingerprint(mesh));
  const char *stored_mesh = feast_checkpoint_get(ck, "mesh");
  char stored_name[600];
  snprintf(stored_name, sizeof stored_name, "%s", stored_mesh ? stored_mesh : "(none)");
  const char *fingerprint = feast_checkpoint_get(ck, "mesh_fingerprint");
  FEAST_CHECK(fingerprint && strcmp(fingerprint, want) == 0, FEAST_ERR_CONFIG,
              "--restart %s: the checkpoint is of the mesh %s (fingerprint %s), this run's mesh %s (fingerprint %s) "
              "is another one",
              feast_checkpoint_path(ck), stored_name, fingerprint ? fingerprint : "(none)", mesh->source, want);
  snprintf(want, sizeof want, "%d", level);
  FEAST_CALL(match_header(ck, "level", want, "grid.level"));
  snprintf(want, sizeof want, "%d", fields);
  FEAST_CALL(match_header(ck, "fields", want, "fields per node"));
  MatchCtx m = {ck, cfg, 0};
  FEAST_CALL(visit_run_keys(cfg, match_key, &m));
  const int stored = stored_problem_keys(ck, cfg);
  FEAST_CHECK(stored == m.problem_keys, FEAST_ERR_CONFIG,
              "--restart %s: the checkpoint's problem has %d config values, this run's %d (a [boundary.NAME] "
              "section added or removed?): it is the state of another problem",
              feast_checkpoint_path(ck), stored, m.problem_keys);
  return 0;
}

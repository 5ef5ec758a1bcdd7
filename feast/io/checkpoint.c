#include "feast/io/checkpoint_private.h"
#include "feast/base/error.h"
#include "feast/base/log.h"
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int feast_checkpoint_create(FeastCheckpoint **ck) { return FEAST_ALLOC(1, ck); }

void feast_checkpoint_destroy(FeastCheckpoint **ck) {
  if (!ck || !*ck) return;
  for (int i = 0; i < (*ck)->narrays; i++) free((*ck)->arrays[i].x), free((*ck)->arrays[i].gid);
  free((*ck)->arrays);
  free((*ck)->header);
  free((*ck)->path);
  feast_free(ck);
}

/* append one "key value\n" line */
int ck_append_line(FeastCheckpoint *ck, const char *key, const char *value) {
  const size_t need = ck->header_len + strlen(key) + strlen(value) + 3;
  FEAST_CHECK(strlen(key) + strlen(value) + 2 < CK_MAX_LINE && !strpbrk(key, " \t\n") && !strchr(value, '\n'),
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
  char value[CK_MAX_LINE];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(value, sizeof value, fmt, ap);
  va_end(ap);
  FEAST_CHECK(n >= 0 && n < (int)sizeof value, FEAST_ERR_ARG, "checkpoint header value of %s too long", key);
  return ck_append_line(ck, key, value);
}

int ck_push_array(FeastCheckpoint *ck, const char *name, int64_t n, int field, CkArray **out) {
  FEAST_CHECK(strlen(name) < CK_MAX_NAME && !strpbrk(name, " \t\n") && n >= 0, FEAST_ERR_ARG,
              "checkpoint array '%s': bad name or size", name);
  for (int i = 0; i < ck->narrays; i++)
    FEAST_CHECK(strcmp(ck->arrays[i].name, name) != 0, FEAST_ERR_ARG, "checkpoint array '%s' twice", name);
  CkArray *a = realloc(ck->arrays, (size_t)(ck->narrays + 1) * sizeof *a);
  FEAST_CHECK(a, FEAST_ERR_MEM, "out of memory building a checkpoint");
  ck->arrays = a;
  CkArray *new_array = &a[ck->narrays];
  memset(new_array, 0, sizeof *new_array);
  snprintf(new_array->name, sizeof new_array->name, "%s", name);
  new_array->n = n;
  new_array->field = field;
  if (!field) FEAST_CALL(FEAST_ALLOC(n > 0 ? n : 1, &new_array->x));
  ck->narrays++;
  *out = new_array;
  return 0;
}

int feast_checkpoint_add_array(FeastCheckpoint *ck, const char *name, const double *x, int64_t n) {
  CkArray *a;
  FEAST_CALL(ck_push_array(ck, name, n, 0, &a));
  if (n > 0) memcpy(a->x, x, (size_t)n * sizeof *x);
  return 0;
}

/* the (global id, value) pairs of a field part, ascending in the id */
typedef struct {
  int64_t gid;
  double x;
} Entry;

static int by_gid(const void *a, const void *b) {
  const int64_t p = ((const Entry *)a)->gid, q = ((const Entry *)b)->gid;
  return (p > q) - (p < q);
}

int feast_checkpoint_add_field(FeastCheckpoint *ck, const char *name, int64_t nglobal, int64_t count,
                               const int64_t *gid, const double *x) {
  CkArray *a;
  FEAST_CHECK(count >= 0 && count <= nglobal, FEAST_ERR_ARG, "checkpoint field '%s': %" PRId64 " of %" PRId64 " values",
              name, count, nglobal);
  FEAST_CALL(ck_push_array(ck, name, nglobal, 1, &a));
  Entry *e;
  FEAST_CALL(FEAST_ALLOC(count + 1, &e));
  for (int64_t k = 0; k < count; k++) e[k] = (Entry){gid[k], x[k]};
  qsort(e, (size_t)count, sizeof *e, by_gid);
  int st = FEAST_ALLOC(count + 1, &a->gid);
  if (!st) st = FEAST_ALLOC(count + 1, &a->x);
  for (int64_t k = 0; !st && k < count; k++) {
    st = e[k].gid < 0 || e[k].gid >= nglobal || (k > 0 && e[k].gid == e[k - 1].gid);
    if (st)
      st = feast_error_set(FEAST_ERR_ARG, __FILE__, __LINE__, "checkpoint field '%s': global id %" PRId64
                           " out of range or twice", name, e[k].gid);
    else a->gid[k] = e[k].gid, a->x[k] = e[k].x;
  }
  a->count = count;
  free(e);
  return st;
}

/* ------------------------------------------------------------------------ access */

const char *feast_checkpoint_path(const FeastCheckpoint *ck) { return ck && ck->path ? ck->path : ""; }

const char *feast_checkpoint_get(const FeastCheckpoint *ck, const char *key) {
  const size_t n = strlen(key);
  for (const char *line = ck->header; line && line < ck->header + ck->header_len;) {
    const char *nl = memchr(line, '\n', (size_t)(ck->header + ck->header_len - line));
    if (strncmp(line, key, n) == 0 && line[n] == ' ') {
      static char value[CK_MAX_LINE];
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
      FEAST_CHECK(!ck->arrays[i].field, FEAST_ERR_ARG, "checkpoint %s: %s is a field (feast_checkpoint_field)",
                  feast_checkpoint_path(ck), name);
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
      static char value[CK_MAX_LINE];
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

/* INI run configuration with schema validation (see feast/config/config.h). An own parser, so
 * that every message names file:line, duplicate keys are found, and hostile bytes
 * (binary, NUL, overlong lines, huge numbers) are an error message, never undefined
 * behaviour. Input is bounded (file size, line length, lines, names, values) and is
 * never used as a format string. */
#include "feast/config/config.h"
#include "feast/base/error.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum {
  MAX_FILE = 1 << 20,   /* bytes of a config file */
  MAX_LINE = 4096,      /* characters of a line, without the line break */
  MAX_LINES = 100000,   /* lines of a config file */
  MAX_NAME = 128,       /* characters of a section or key name */
  MAX_SECTIONS = 1024,  /* distinct sections */
  MAX_ENTRIES = 16384,  /* values set by the file and the command line together */
  MAX_DEPTH = 16,       /* nesting of included files */
  MAX_FILES = 256,      /* files read for one config (the file and its includes) */
  MAX_TABLES = 16,      /* key tables of a schema (the core's and one per layer) */
  CLIP = 80,            /* characters of user text quoted in a message */
  DIST_LEN = 48         /* characters compared for "did you mean" */
};

static const char *const CMDLINE = "command line";

typedef struct {
  long i;      /* INT */
  double r[2]; /* REAL (r[0]), REAL2 */
  int e;       /* ENUM: index in choices */
} Value;

/* one assignment; a later one (command line, or the including file) supersedes it */
typedef struct {
  int spec;         /* index in the schema (spec_at) */
  int section;      /* index in cfg->sections */
  int file;         /* which file read set it (0 = the file, 1.. its includes); -1: command line */
  int line;         /* line in the file; 0 for the command line */
  int superseded;   /* replaced by a later override */
  char *value;      /* the trimmed text */
  char *origin;     /* "run.ini:12" or "command line" */
  const char *base; /* folder relative paths resolve against; "" = as given */
  Value v;
} Entry;

/* result buffer of feast_config_sections */
typedef struct {
  const char **names;
  int cap;
} Listing;

struct FeastConfig {
  char *path; /* the file read, NULL if none */
  char *base; /* its folder ("" when it has none: paths stay relative to the cwd) */
  char **bases; /* the folders of the included files (entries point into them) */
  int nfiles, capbases; /* files read (the file and its includes); nfiles - 1 bases */
  const FeastKeyTable *tables[MAX_TABLES]; /* the schema: the core's keys, then each layer's */
  int ntables, nkeys;
  Entry *entries;
  int nentries, capentries;
  char **sections; /* in order of first appearance */
  int nsections, capsections;
  Listing *listing;
};

/* key k of the schema: the core's keys, then those of each table added */
static const FeastKeySpec *spec_at(const FeastConfig *cfg, int k) {
  for (int t = 0; t < cfg->ntables; t++) {
    if (k < cfg->tables[t]->nkeys) return &cfg->tables[t]->keys[k];
    k -= cfg->tables[t]->nkeys;
  }
  return NULL;
}

/* where a value comes from while it is being set */
typedef struct {
  const char *where; /* "run.ini:12" or "command line" */
  int file;          /* as Entry.file */
  int line;          /* 0 for the command line */
  const char *base;
} Origin;

/* user text quoted in a message, cut to CLIP characters */
typedef struct {
  char s[CLIP + 4];
} Clip;

/* ---------------------------------------------------------------- small helpers */

static int is_blank(int c) { return c == ' ' || c == '\t'; }

/* s without leading and trailing blanks (in place) */
static char *trim(char *s) {
  while (is_blank((unsigned char)*s)) s++;
  size_t n = strlen(s);
  while (n && is_blank((unsigned char)s[n - 1])) s[--n] = 0;
  return s;
}

/* s for a message: at most CLIP characters, "..." where cut */
static const char *clip(const char *s, Clip *c) {
  size_t n = strnlen(s, CLIP + 1);
  memcpy(c->s, s, n > CLIP ? CLIP : n);
  strcpy(c->s + (n > CLIP ? CLIP : n), n > CLIP ? "..." : "");
  return c->s;
}

/* a path for a message: its last CLIP characters, "..." where cut (the file name
 * matters most) */
static const char *clip_path(const char *s, Clip *c) {
  size_t n = strlen(s);
  if (n <= CLIP) return clip(s, c);
  snprintf(c->s, sizeof c->s, "...%s", s + n - (CLIP - 3));
  return c->s;
}

/* a number as a person writes it: the shortest exact form (1e-16, 0.7, 1e300), integer
 * ranges in plain digits (20000) */
static const char *fmt_num(double x, int integer, char buf[32]) {
  char tmp[32];
  if (integer) {
    snprintf(buf, 32, "%.0f", x);
    return buf;
  }
  for (int p = 1; p <= 17; p++) {
    snprintf(tmp, sizeof tmp, "%.*g", p, x);
    if (strtod(tmp, NULL) == x) break;
  }
  char *o = buf;
  for (const char *p = tmp; *p; p++) { /* 1e+08 -> 1e8, 1e-06 -> 1e-6 */
    *o++ = *p;
    if (*p != 'e') continue;
    if (p[1] == '+') p++;
    else if (p[1] == '-') *o++ = *++p;
    while (p[1] == '0' && p[2]) p++;
  }
  *o = 0;
  return buf;
}

/* Damerau (optimal string alignment) edit distance of the first DIST_LEN characters,
 * with three rolling rows: r2 = row i-2, r1 = row i-1, r0 = row i */
static int distance(const char *a, const char *b) {
  int n = (int)strnlen(a, DIST_LEN), m = (int)strnlen(b, DIST_LEN);
  int rows[3][DIST_LEN + 1], *r2 = rows[0], *r1 = rows[1], *r0 = rows[2];
  for (int j = 0; j <= m; j++) r1[j] = j;
  for (int i = 1; i <= n; i++) {
    r0[0] = i;
    for (int j = 1; j <= m; j++) {
      int best = r1[j - 1] + (a[i - 1] != b[j - 1]);
      if (r1[j] + 1 < best) best = r1[j] + 1;
      if (r0[j - 1] + 1 < best) best = r0[j - 1] + 1;
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && r2[j - 2] + 1 < best)
        best = r2[j - 2] + 1;
      r0[j] = best;
    }
    int *t = r2;
    r2 = r1, r1 = r0, r0 = t;
  }
  return r1[m];
}

/* grow *array (of elem bytes each) to hold need elements */
static int grow(void *array, int *cap, int need, size_t elem) {
  if (need <= *cap) return 0;
  int cap2 = *cap ? 2 * *cap : 16;
  while (cap2 < need) cap2 *= 2;
  void *p = realloc(*(void **)array, (size_t)cap2 * elem);
  FEAST_CHECK(p, FEAST_ERR_MEM, "out of memory in the config reader");
  *(void **)array = p;
  *cap = cap2;
  return 0;
}

/* a heap copy of s */
static int dup_string(const char *s, char **out) {
  size_t n = strlen(s) + 1;
  FEAST_CALL(FEAST_ALLOC(n, out));
  memcpy(*out, s, n);
  return 0;
}

/* ---------------------------------------------------------------- the schema */

/* 1 if s is a boundary part name: letters, digits, '_', '-' */
static int valid_part_name(const char *s) {
  if (!*s) return 0;
  for (; *s; s++) {
    char c = *s;
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-'))
      return 0;
  }
  return 1;
}

/* length of the prefix "boundary." of a pattern section "boundary.*", 0 if none */
static size_t pattern_prefix(const char *pattern) {
  size_t n = strlen(pattern);
  return n >= 2 && pattern[n - 1] == '*' && pattern[n - 2] == '.' ? n - 1 : 0;
}

/* 1 if section name s matches the schema section pattern */
static int section_matches(const char *pattern, const char *s) {
  size_t p = pattern_prefix(pattern);
  if (p) return strncmp(pattern, s, p) == 0 && valid_part_name(s + p);
  return strcmp(pattern, s) == 0;
}

static int section_known(const FeastConfig *cfg, const char *s) {
  for (int k = 0; k < cfg->nkeys; k++)
    if (section_matches(spec_at(cfg, k)->section, s)) return 1;
  return 0;
}

/* index of section.key in the schema, -1 if none */
static int find_spec(const FeastConfig *cfg, const char *section, const char *key) {
  for (int k = 0; k < cfg->nkeys; k++)
    if (strcmp(spec_at(cfg, k)->key, key) == 0 && section_matches(spec_at(cfg, k)->section, section))
      return k;
  return -1;
}

/* "section.key" of schema key k, in section s where it matches, else as documented */
static const char *spec_name(const FeastConfig *cfg, int k, const char *s, char *buf, size_t n) {
  const FeastKeySpec *spec = spec_at(cfg, k);
  size_t p = pattern_prefix(spec->section);
  if (s && section_matches(spec->section, s)) snprintf(buf, n, "%s.%s", s, spec->key);
  else if (p) snprintf(buf, n, "%.*sNAME.%s", (int)p, spec->section, spec->key);
  else snprintf(buf, n, "%s.%s", spec->section, spec->key);
  return buf;
}

/* 1 if b is closer to a than *bestd edits (then *bestd = that distance); the length
 * difference is a lower bound that skips most candidates cheaply */
static int closer(const char *a, const char *b, int *bestd) {
  int la = (int)strnlen(a, DIST_LEN), lb = (int)strnlen(b, DIST_LEN);
  if (abs(la - lb) >= *bestd) return 0;
  int d = distance(a, b);
  if (d >= *bestd) return 0;
  *bestd = d;
  return 1;
}

/* the valid key closest to section.key (section NULL: outside any section); in a known
 * section, its own keys first, else the very key in another section */
static const char *suggest_key(const FeastConfig *cfg, const char *section, const char *key, char *buf, size_t n) {
  int best = 0, bestd = 1 << 30, known = section && section_known(cfg, section);
  char full[2 * MAX_NAME + 4], cand[2 * MAX_NAME + 4];
  snprintf(full, sizeof full, "%s.%s", section ? section : "", key);
  for (int k = 0; k < cfg->nkeys; k++) {
    const FeastKeySpec *spec = spec_at(cfg, k);
    int hit;
    if (!known && section) hit = closer(full, spec_name(cfg, k, NULL, cand, sizeof cand), &bestd);
    else if (!known || section_matches(spec->section, section)) hit = closer(key, spec->key, &bestd);
    else if ((hit = strcmp(key, spec->key) == 0 && bestd > 1)) bestd = 1; /* counts as one edit */
    if (hit) best = k;
  }
  return spec_name(cfg, best, known ? section : NULL, buf, n);
}

/* the valid section name closest to s */
static const char *suggest_section(const FeastConfig *cfg, const char *s, char *buf, size_t n) {
  int bestd = 1 << 30;
  char cand[2 * MAX_NAME + 4];
  const char *dot = strchr(s, '.');
  snprintf(buf, n, "%s", spec_at(cfg, 0)->section);
  for (int k = 0; k < cfg->nkeys; k++) {
    const char *pattern = spec_at(cfg, k)->section;
    size_t p = pattern_prefix(pattern);
    if (p) snprintf(cand, sizeof cand, "%.*s%s", (int)p, pattern, dot && valid_part_name(dot + 1) ? dot + 1 : "NAME");
    else snprintf(cand, sizeof cand, "%s", pattern);
    if (closer(s, cand, &bestd)) snprintf(buf, n, "%s", cand);
  }
  return buf;
}

static const char *type_name(FeastKeyType t) {
  static const char *names[] = {"int", "real", "string", "enum", "path", "real2"};
  return (unsigned)t < sizeof names / sizeof names[0] ? names[t] : "?";
}

/* what key k accepts, for messages */
static const char *allowed(const FeastKeySpec *k, char *buf, size_t n) {
  char lo[32], hi[32];
  switch (k->type) {
  case FEAST_KEY_INT:
    snprintf(buf, n, "an integer in [%s, %s]", fmt_num(k->min, 1, lo), fmt_num(k->max, 1, hi));
    break;
  case FEAST_KEY_REAL:
    snprintf(buf, n, "a real number in [%s, %s]", fmt_num(k->min, 0, lo), fmt_num(k->max, 0, hi));
    break;
  case FEAST_KEY_ENUM: snprintf(buf, n, "one of %s", k->choices); break;
  case FEAST_KEY_REAL2: snprintf(buf, n, "two finite reals \"x y\" or \"x, y\""); break;
  case FEAST_KEY_PATH: snprintf(buf, n, "a file path, empty = unset"); break;
  default: snprintf(buf, n, "any text"); break;
  }
  return buf;
}

/* ---------------------------------------------------------------- values */

/* NULL, or why t is not an integer */
static const char *parse_int(const char *t, long *out) {
  if (!*t) return "empty value";
  for (const char *p = t; *p; p++)
    if (!((*p >= '0' && *p <= '9') || ((*p == '-' || *p == '+') && p == t))) return "not an integer";
  char *end;
  errno = 0;
  *out = strtol(t, &end, 10);
  if (end == t || *end) return "not an integer";
  if (errno == ERANGE) return "integer too large";
  return NULL;
}

/* NULL, or why t is not a finite real (decimal notation only: no nan, inf, hex) */
static const char *parse_real(const char *t, double *out) {
  if (!*t) return "empty value";
  for (const char *p = t; *p; p++)
    if (!((*p >= '0' && *p <= '9') || *p == '.' || *p == 'e' || *p == 'E' || *p == '+' || *p == '-'))
      return "not a finite real number";
  char *end;
  errno = 0;
  *out = strtod(t, &end);
  if (end == t || *end) return "not a real number";
  if (errno == ERANGE || !isfinite(*out)) return "not representable as a double (overflow or underflow)";
  return NULL;
}

/* NULL, or why t is not "x y" / "x, y" */
static const char *parse_real2(const char *t, double out[2]) {
  char buf[MAX_LINE + 1], *tok[3];
  int n = 0, commas = 0;
  snprintf(buf, sizeof buf, "%s", t);
  for (char *p = buf; *p; p++)
    if (*p == ',') *p = ' ', commas++;
  if (commas > 1) return "expected two reals \"x y\" or \"x, y\"";
  for (char *p = buf; *p && n < 3;) {
    while (is_blank((unsigned char)*p)) p++;
    if (!*p) break;
    tok[n++] = p;
    while (*p && !is_blank((unsigned char)*p)) p++;
    if (*p) *p++ = 0;
  }
  if (n != 2) return n ? "expected two reals \"x y\" or \"x, y\"" : "empty value";
  for (int i = 0; i < 2; i++) {
    const char *why = parse_real(tok[i], &out[i]);
    if (why) return why;
  }
  return NULL;
}

/* index of t in "a|b|c", -1 if none */
static int enum_index(const char *choices, const char *t) {
  size_t n = strlen(t);
  int i = 0;
  for (const char *c = choices; *c; i++) {
    size_t len = strcspn(c, "|");
    if (len == n && memcmp(c, t, n) == 0) return i;
    c += len + (c[len] == '|');
  }
  return -1;
}

/* NULL, or why text is not a valid value of key k */
static const char *parse_value(const FeastKeySpec *k, const char *text, Value *v) {
  const char *why = NULL;
  memset(v, 0, sizeof *v);
  switch (k->type) {
  case FEAST_KEY_INT:
    why = parse_int(text, &v->i);
    if (!why && !((double)v->i >= k->min && (double)v->i <= k->max)) why = "out of range";
    break;
  case FEAST_KEY_REAL:
    why = parse_real(text, &v->r[0]);
    if (!why && !(v->r[0] >= k->min && v->r[0] <= k->max)) why = "out of range";
    break;
  case FEAST_KEY_REAL2:
    why = parse_real2(text, v->r);
    if (!why && k->min < k->max)
      for (int i = 0; i < 2; i++)
        if (!(v->r[i] >= k->min && v->r[i] <= k->max)) why = "out of range";
    break;
  case FEAST_KEY_ENUM:
    v->e = enum_index(k->choices, text);
    if (v->e < 0) why = *text ? "not one of the choices" : "empty value";
    break;
  default: break; /* STRING, PATH: any text */
  }
  return why;
}

/* ---------------------------------------------------------------- storage */

static int find_section(const FeastConfig *cfg, const char *name) {
  for (int s = 0; s < cfg->nsections; s++)
    if (strcmp(cfg->sections[s], name) == 0) return s;
  return -1;
}

/* index of section name, appended when new */
static int add_section(FeastConfig *cfg, const char *name, int *index) {
  *index = find_section(cfg, name);
  if (*index >= 0) return 0;
  FEAST_CHECK(cfg->nsections < MAX_SECTIONS, FEAST_ERR_CONFIG, "config has more than %d sections", MAX_SECTIONS);
  FEAST_CALL(grow(&cfg->sections, &cfg->capsections, cfg->nsections + 1, sizeof *cfg->sections));
  FEAST_CALL(dup_string(name, &cfg->sections[cfg->nsections]));
  *index = cfg->nsections++;
  return 0;
}

/* the value in force for key spec in section s, NULL if none */
static const Entry *current(const FeastConfig *cfg, int s, int spec) {
  for (int i = cfg->nentries - 1; i >= 0; i--) {
    const Entry *e = &cfg->entries[i];
    if (e->section == s && e->spec == spec && !e->superseded) return e;
  }
  return NULL;
}

/* the assignment of key spec in section s made by file read `file`, NULL if none */
static const Entry *from_file(const FeastConfig *cfg, int s, int spec, int file) {
  for (int i = 0; i < cfg->nentries; i++) {
    const Entry *e = &cfg->entries[i];
    if (e->section == s && e->spec == spec && e->file == file) return e;
  }
  return NULL;
}

/* append an assignment */
static int store(FeastConfig *cfg, int s, int spec, const char *text, const Value *v, const Origin *o,
                 int superseded) {
  FEAST_CHECK(cfg->nentries < MAX_ENTRIES, FEAST_ERR_CONFIG, "%s: more than %d config values", o->where,
              MAX_ENTRIES);
  FEAST_CALL(grow(&cfg->entries, &cfg->capentries, cfg->nentries + 1, sizeof *cfg->entries));
  Entry *e = &cfg->entries[cfg->nentries];
  memset(e, 0, sizeof *e);
  FEAST_CALL(dup_string(text, &e->value));
  int st = dup_string(o->where, &e->origin);
  if (st) {
    free(e->value);
    return st;
  }
  e->spec = spec, e->section = s, e->file = o->file, e->line = o->line, e->base = o->base, e->v = *v;
  e->superseded = superseded;
  cfg->nentries++;
  return 0;
}

/* validate and set section.key = text; a key may appear once per section of a file, a
 * file's value replaces one from a file it includes, a command-line value any earlier
 * one (and is not replaced by a file read later) */
static int set_value(FeastConfig *cfg, const char *section, const char *key, const char *text,
                     const Origin *o) {
  Clip c1, c2;
  char name[2 * MAX_NAME + 4], why_buf[160];
  FEAST_CHECK(strlen(key) <= MAX_NAME, FEAST_ERR_CONFIG, "%s: key name '%s' is longer than %d characters",
              o->where, clip(key, &c1), MAX_NAME);
  int k = find_spec(cfg, section, key);
  if (k < 0)
    FEAST_ERROR(FEAST_ERR_CONFIG, "%s: unknown key '%s.%s' (did you mean '%s'?)", o->where, section,
                clip(key, &c1), suggest_key(cfg, section, key, name, sizeof name));
  const FeastKeySpec *spec = spec_at(cfg, k);
  Value v;
  const char *why = parse_value(spec, text, &v);
  if (why)
    FEAST_ERROR(FEAST_ERR_CONFIG, "%s: %s.%s = '%s': %s (allowed: %s)", o->where, section, key, clip(text, &c2),
                why, allowed(spec, why_buf, sizeof why_buf));
  int s;
  FEAST_CALL(add_section(cfg, section, &s));
  const Entry *old = current(cfg, s, k);
  if (o->file >= 0) {
    const Entry *dup = from_file(cfg, s, k, o->file);
    if (dup)
      FEAST_ERROR(FEAST_ERR_CONFIG, "%s: duplicate key '%s.%s' (already set at line %d; a key may appear once)",
                  o->where, section, key, dup->line);
    if (old && old->file < 0) return store(cfg, s, k, text, &v, o, 1); /* an earlier override wins */
  }
  if (old) cfg->entries[old - cfg->entries].superseded = 1;
  return store(cfg, s, k, text, &v, o, 0);
}

/* ---------------------------------------------------------------- the parser */

/* reject overlong lines and control characters (binary files, NUL bytes) */
static int check_text(const char *where, const char *s, size_t n) {
  FEAST_CHECK(n <= MAX_LINE, FEAST_ERR_CONFIG, "%s: line longer than %d characters", where, MAX_LINE);
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (!c) FEAST_ERROR(FEAST_ERR_CONFIG, "%s: NUL byte in column %zu (a config file is plain text)", where, i + 1);
    if ((c < 0x20 && c != '\t') || c == 0x7f)
      FEAST_ERROR(FEAST_ERR_CONFIG, "%s: control character 0x%02x in column %zu (a config file is plain text)",
                  where, c, i + 1);
  }
  return 0;
}

/* the first '#' or ';' that starts a comment (at s or after a blank), NULL if none */
static char *comment_start(char *s) {
  for (char *c = s; *c; c++)
    if ((*c == '#' || *c == ';') && (c == s || is_blank((unsigned char)c[-1]))) return c;
  return NULL;
}

/* the value after '=': optionally "quoted", then an optional comment */
static int split_value(const char *where, char *rest, char **value) {
  char *s = rest;
  while (is_blank((unsigned char)*s)) s++;
  if (*s == '"') {
    char *q = strchr(s + 1, '"');
    FEAST_CHECK(q, FEAST_ERR_CONFIG, "%s: unterminated quoted value (missing closing '\"')", where);
    char *after = q + 1;
    while (is_blank((unsigned char)*after)) after++;
    FEAST_CHECK(!*after || *after == '#' || *after == ';', FEAST_ERR_CONFIG,
                "%s: unexpected text after the closing quote", where);
    *q = 0;
    *value = s + 1;
    return 0;
  }
  char *c = comment_start(s);
  if (c) *c = 0;
  *value = trim(s);
  return 0;
}

/* the NAME of a section "boundary.NAME": letters, digits, '_', '-' */
static int check_part_name(const FeastConfig *cfg, const char *where, const char *section) {
  Clip c1;
  for (int k = 0; k < cfg->nkeys; k++) {
    const char *pattern = spec_at(cfg, k)->section;
    size_t p = pattern_prefix(pattern);
    if (p && strncmp(pattern, section, p) == 0 && !valid_part_name(section + p))
      FEAST_ERROR(FEAST_ERR_CONFIG, "%s: invalid name '%s' in section [%s] (use letters, digits, '_' and '-')",
                  where, section + p, clip(section, &c1));
  }
  return 0;
}

/* "[section]" (line is trimmed and starts with '[') */
static int parse_header(FeastConfig *cfg, const char *where, char *line, int *section) {
  Clip c1;
  char near[2 * MAX_NAME + 4];
  char *close = strchr(line, ']');
  FEAST_CHECK(close, FEAST_ERR_CONFIG, "%s: section header '%s' without closing ']'", where, clip(line, &c1));
  char *after = close + 1;
  while (is_blank((unsigned char)*after)) after++;
  FEAST_CHECK(!*after || *after == '#' || *after == ';', FEAST_ERR_CONFIG,
              "%s: unexpected text '%s' after the section header", where, clip(after, &c1));
  *close = 0;
  char *name = trim(line + 1);
  FEAST_CHECK(*name, FEAST_ERR_CONFIG, "%s: empty section name '[]'", where);
  FEAST_CHECK(strlen(name) <= MAX_NAME, FEAST_ERR_CONFIG, "%s: section name '%s' is longer than %d characters",
              where, clip(name, &c1), MAX_NAME);
  FEAST_CALL(check_part_name(cfg, where, name));
  if (!section_known(cfg, name))
    FEAST_ERROR(FEAST_ERR_CONFIG, "%s: unknown section '[%s]' (did you mean '[%s]'?)", where, name,
                suggest_section(cfg, name, near, sizeof near));
  return add_section(cfg, name, section);
}

/* one file being read: where its values come from, and the chain of includes above it */
typedef struct Source {
  const char *path; /* as opened: an include joined to the including file's folder */
  const char *base; /* its folder */
  int file;         /* Entry.file of its values */
  dev_t dev;        /* its identity, to find include cycles */
  ino_t ino;
  int depth; /* 0: the file given to feast_config_read */
  const struct Source *parent;
} Source;

static int parse_buffer(FeastConfig *cfg, const Source *src, const char *buf, size_t len);
static int include_file(FeastConfig *cfg, const Source *src, const Origin *o, const char *name);

/* one line of a config file (control characters already rejected) */
static int parse_line(FeastConfig *cfg, const Source *src, const Origin *o, char *line, int *section) {
  Clip c1;
  char near[2 * MAX_NAME + 4];
  char *s = trim(line);
  if (!*s || *s == '#' || *s == ';') return 0;
  if (*s == '[') return parse_header(cfg, o->where, s, section);
  char *eq = strchr(s, '='), *comment = comment_start(s);
  if (!eq || (comment && comment < eq))
    FEAST_ERROR(FEAST_ERR_CONFIG, "%s: expected 'key = value' or '[section]', found '%s'", o->where,
                clip(s, &c1));
  *eq = 0;
  char *key = trim(s), *value = NULL;
  FEAST_CHECK(*key, FEAST_ERR_CONFIG, "%s: empty key before '='", o->where);
  if (strcmp(key, "include") == 0) {
    FEAST_CHECK(*section < 0, FEAST_ERR_CONFIG,
                "%s: 'include' must come before the first [section] of a file (here it follows [%s])", o->where,
                clip(cfg->sections[*section], &c1));
    FEAST_CALL(split_value(o->where, eq + 1, &value));
    return include_file(cfg, src, o, value);
  }
  if (*section < 0)
    FEAST_ERROR(FEAST_ERR_CONFIG, "%s: key '%s' outside any [section] (did you mean '%s'?)", o->where,
                clip(key, &c1), suggest_key(cfg, NULL, key, near, sizeof near));
  FEAST_CALL(split_value(o->where, eq + 1, &value));
  return set_value(cfg, cfg->sections[*section], key, value, o);
}

/* all lines of a file's contents */
static int parse_buffer(FeastConfig *cfg, const Source *src, const char *buf, size_t len) {
  char line[MAX_LINE + 1], where[CLIP + 32];
  Clip cp;
  const char *path = clip_path(src->path, &cp);
  int section = -1, lineno = 0;
  size_t pos = len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0; /* UTF-8 byte order mark */
  while (pos < len) {
    const char *end = memchr(buf + pos, '\n', len - pos);
    size_t n = end ? (size_t)(end - (buf + pos)) : len - pos;
    size_t next = pos + n + 1;
    if (n && buf[pos + n - 1] == '\r') n--; /* CRLF */
    snprintf(where, sizeof where, "%s:%d", path, ++lineno);
    FEAST_CHECK(lineno <= MAX_LINES, FEAST_ERR_CONFIG, "%s: config file has more than %d lines", where, MAX_LINES);
    FEAST_CALL(check_text(where, buf + pos, n));
    memcpy(line, buf + pos, n);
    line[n] = 0;
    Origin o = {where, src->file, lineno, src->base};
    FEAST_CALL(parse_line(cfg, src, &o, line, &section));
    pos = next;
  }
  return 0;
}

/* read up to MAX_FILE + 1 bytes of f into a buffer grown as needed (hint: the size) */
static int read_stream(FILE *f, size_t hint, char **buf, size_t *len) {
  size_t cap = hint < MAX_FILE ? hint + 1 : MAX_FILE + 1;
  *len = 0;
  FEAST_CALL(FEAST_ALLOC(cap, buf));
  for (;;) {
    *len += fread(*buf + *len, 1, cap - *len, f);
    if (*len < cap || cap == MAX_FILE + 1) return 0; /* end of file, error, or too large */
    size_t cap2 = 2 * cap < MAX_FILE + 1 ? 2 * cap : MAX_FILE + 1;
    char *p = realloc(*buf, cap2);
    FEAST_CHECK(p, FEAST_ERR_MEM, "out of memory reading the config file");
    *buf = p;
    cap = cap2;
  }
}

/* the whole file, at most MAX_FILE bytes, and its identity (*id zero if unknown); messages
 * start with at ("" or "a.ini:3: ") and call it what ("config file", "included file") */
static int read_file(const char *at, const char *what, const char *path, char **buf, size_t *len,
                     struct stat *id) {
  Clip cp;
  *buf = NULL;
  memset(id, 0, sizeof *id);
  FILE *f = fopen(path, "rb");
  FEAST_CHECK(f, FEAST_ERR_FILE, "%scannot open %s %s: %s", at, what, clip_path(path, &cp), strerror(errno));
  struct stat st;
  int have = fstat(fileno(f), &st) == 0;
  if (have && S_ISDIR(st.st_mode)) {
    fclose(f);
    FEAST_ERROR(FEAST_ERR_FILE, "%s%s %s is a directory", at, what, clip_path(path, &cp));
  }
  if (have) *id = st;
  size_t hint = have && S_ISREG(st.st_mode) && st.st_size >= 0 ? (size_t)st.st_size : 4096;
  int status = read_stream(f, hint, buf, len);
  int failed = !status && ferror(f), err = errno;
  fclose(f);
  if (status || failed || *len > MAX_FILE) feast_free(buf);
  if (status) return status;
  FEAST_CHECK(!failed, FEAST_ERR_FILE, "%scannot read %s %s: %s", at, what, clip_path(path, &cp), strerror(err));
  FEAST_CHECK(*len <= MAX_FILE, FEAST_ERR_CONFIG, "%s%s %s is larger than %d bytes", at, what,
              clip_path(path, &cp), MAX_FILE);
  return 0;
}

/* the folder of path: "" when it has none, "/" for the root */
static int folder_of(const char *path, char **base) {
  const char *slash = strrchr(path, '/');
  size_t n = !slash ? 0 : slash == path ? 1 : (size_t)(slash - path);
  FEAST_CALL(FEAST_ALLOC(n + 1, base));
  memcpy(*base, path, n);
  return 0;
}

/* an error raised while reading a file included at `where`: the message gets
 * " (included from a.ini:3)", or ", a.ini:3" added to that list (the source location
 * stays that of the error) */
static int included_from(int status, const char *where) {
  static const char tag[] = " (included from ";
  char msg[1024], src[256];
  int code = feast_error_code();
  if (!code) return status;
  snprintf(msg, sizeof msg, "%s", feast_error_message());
  snprintf(src, sizeof src, "%s", feast_error_where());
  char *colon = strrchr(src, ':');
  int line = colon ? atoi(colon + 1) : 0;
  if (colon) *colon = 0;
  size_t n = strlen(msg);
  int more = n && msg[n - 1] == ')' && strstr(msg, tag);
  if (more) msg[n - 1] = 0;
  feast_error_clear();
  feast_error_set(code, src, line, "%s%s%s)", msg, more ? ", " : tag, where);
  return status;
}

/* "a.ini -> b.ini -> ... -> src" (the chain of includes down to src) */
static const char *chain_text(const Source *src, char *buf, size_t size) {
  const Source *chain[MAX_DEPTH + 1];
  int n = 0;
  for (const Source *s = src; s && n <= MAX_DEPTH; s = s->parent) chain[n++] = s;
  size_t used = 0;
  buf[0] = 0;
  for (int i = n - 1; i >= 0 && used < size; i--) {
    Clip cp;
    int w = snprintf(buf + used, size - used, "%s%s", i == n - 1 ? "" : " -> ", clip_path(chain[i]->path, &cp));
    used += w > 0 ? (size_t)w : 0;
  }
  return buf;
}

/* "include = name" at o in file src: read name (relative to src's folder) first, so
 * that the including file's own values replace the included ones */
static int include_file(FeastConfig *cfg, const Source *src, const Origin *o, const char *name) {
  Clip c1, cp;
  char chain[2048], at[CLIP + 40];
  FEAST_CHECK(*name, FEAST_ERR_CONFIG, "%s: include without a file name (include = FILE)", o->where);
  FEAST_CHECK(src->depth < MAX_DEPTH, FEAST_ERR_CONFIG, "%s: include = '%s': includes nested deeper than %d files",
              o->where, clip(name, &c1), MAX_DEPTH);
  FEAST_CHECK(cfg->nfiles < MAX_FILES, FEAST_ERR_CONFIG, "%s: include = '%s': more than %d files included",
              o->where, clip(name, &c1), MAX_FILES);
  int join = name[0] != '/' && src->base[0];
  const char *sep = join && strcmp(src->base, "/") != 0 ? "/" : "";
  size_t n = (join ? strlen(src->base) + strlen(sep) : 0) + strlen(name);
  char *path = NULL, *buf = NULL, *base = NULL;
  FEAST_CALL(FEAST_ALLOC(n + 1, &path));
  snprintf(path, n + 1, "%s%s%s", join ? src->base : "", sep, name);
  /* stat first: a FIFO or device would block or never end */
  struct stat st;
  int err = stat(path, &st) ? errno : 0, status = 0;
  if (err)
    status = feast_error_set(FEAST_ERR_FILE, __FILE__, __LINE__, "%s: cannot open included file %s: %s", o->where,
                             clip_path(path, &cp), strerror(err));
  else if (S_ISDIR(st.st_mode))
    status = feast_error_set(FEAST_ERR_FILE, __FILE__, __LINE__, "%s: included file %s is a directory", o->where,
                             clip_path(path, &cp));
  else if (!S_ISREG(st.st_mode))
    status = feast_error_set(FEAST_ERR_FILE, __FILE__, __LINE__, "%s: included file %s is not a regular file",
                             o->where, clip_path(path, &cp));
  for (const Source *s = src; !status && s; s = s->parent)
    if (s->dev == st.st_dev && s->ino == st.st_ino)
      status = feast_error_set(FEAST_ERR_CONFIG, __FILE__, __LINE__, "%s: include cycle: %s -> %s", o->where,
                               chain_text(src, chain, sizeof chain), clip_path(path, &cp));
  size_t len = 0;
  snprintf(at, sizeof at, "%s: ", o->where);
  if (!status) status = read_file(at, "included file", path, &buf, &len, &st);
  if (!status) status = folder_of(path, &base);
  if (!status) status = grow(&cfg->bases, &cfg->capbases, cfg->nfiles, sizeof *cfg->bases);
  if (!status) {
    cfg->bases[cfg->nfiles - 1] = base; /* owned by cfg from here */
    Source inc = {path, base, cfg->nfiles++, st.st_dev, st.st_ino, src->depth + 1, src};
    status = parse_buffer(cfg, &inc, buf, len);
    if (status) included_from(status, o->where);
  } else {
    free(base);
  }
  free(buf);
  free(path);
  return status;
}

/* ---------------------------------------------------------------- public: set up */

int feast_config_create(FeastConfig **cfg) {
  FEAST_CHECK(cfg, FEAST_ERR_ARG, "config_create: NULL output pointer");
  FEAST_CALL(FEAST_ALLOC(1, cfg));
  int st = FEAST_ALLOC(1, &(*cfg)->listing);
  if (st) feast_free(cfg);
  else (*cfg)->tables[0] = &feast_core_keys, (*cfg)->ntables = 1, (*cfg)->nkeys = feast_core_keys.nkeys;
  return st;
}

int feast_config_add_keys(FeastConfig *cfg, const FeastKeyTable *table) {
  FEAST_CHECK(cfg && table && (table->keys || !table->nkeys) && table->nkeys >= 0, FEAST_ERR_ARG,
              "config_add_keys: NULL or empty argument");
  const char *layer = table->layer ? table->layer : "?";
  for (int t = 0; t < cfg->ntables; t++)
    if (cfg->tables[t] == table) return 0;
  FEAST_CHECK(!cfg->path && !cfg->nentries, FEAST_ERR_ARG,
              "config_add_keys: the keys of %s added after values were read or set (add every table first)", layer);
  FEAST_CHECK(cfg->ntables < MAX_TABLES, FEAST_ERR_ARG, "config_add_keys: more than %d key tables", MAX_TABLES);
  for (int i = 0; i < table->nkeys; i++) {
    const FeastKeySpec *a = &table->keys[i];
    FEAST_CHECK(a->section && a->key && a->help, FEAST_ERR_ARG, "config_add_keys: key %d of %s incomplete", i, layer);
    for (int j = 0; j < cfg->nkeys + i; j++) {
      const FeastKeySpec *b = j < cfg->nkeys ? spec_at(cfg, j) : &table->keys[j - cfg->nkeys];
      if (strcmp(a->section, b->section) != 0 || strcmp(a->key, b->key) != 0) continue;
      const char *other = layer;
      for (int t = 0, n = 0; j < cfg->nkeys && t < cfg->ntables; n += cfg->tables[t++]->nkeys)
        if (j >= n && j < n + cfg->tables[t]->nkeys) other = cfg->tables[t]->layer ? cfg->tables[t]->layer : "?";
      FEAST_ERROR(FEAST_ERR_ARG, "config_add_keys: key %s.%s of %s is already declared by %s", a->section, a->key,
                  layer, other);
    }
  }
  cfg->tables[cfg->ntables++] = table;
  cfg->nkeys += table->nkeys;
  return 0;
}

int feast_config_key_count(const FeastConfig *cfg) { return cfg ? cfg->nkeys : 0; }

const FeastKeySpec *feast_config_key_spec(const FeastConfig *cfg, int k) {
  return cfg && k >= 0 && k < cfg->nkeys ? spec_at(cfg, k) : NULL;
}

void feast_config_destroy(FeastConfig **cfg) {
  if (!cfg || !*cfg) return;
  FeastConfig *c = *cfg;
  for (int i = 0; i < c->nentries; i++) {
    free(c->entries[i].value);
    free(c->entries[i].origin);
  }
  for (int s = 0; s < c->nsections; s++) free(c->sections[s]);
  for (int f = 0; f + 1 < c->nfiles; f++) free(c->bases[f]);
  free(c->entries);
  free(c->sections);
  free(c->bases);
  free(c->listing->names);
  free(c->listing);
  free(c->path);
  free(c->base);
  feast_free(cfg);
}

int feast_config_read(FeastConfig *cfg, const char *path) {
  FEAST_CHECK(cfg && path, FEAST_ERR_ARG, "config_read: NULL argument");
  FEAST_CHECK(!cfg->path, FEAST_ERR_ARG, "config_read: a config object reads one file (already read %s)",
              cfg->path);
  char *buf = NULL;
  size_t len = 0;
  struct stat id;
  FEAST_CALL(read_file("", "config file", path, &buf, &len, &id));
  int st = dup_string(path, &cfg->path);
  if (!st) st = folder_of(path, &cfg->base);
  if (!st) {
    Source top = {path, cfg->base, cfg->nfiles++, id.st_dev, id.st_ino, 0, NULL};
    st = parse_buffer(cfg, &top, buf, len);
  }
  free(buf);
  return st;
}

int feast_config_override(FeastConfig *cfg, const char *assignment) {
  FEAST_CHECK(cfg && assignment, FEAST_ERR_ARG, "config_override: NULL argument");
  Clip c1;
  char buf[MAX_LINE + 1], near[2 * MAX_NAME + 4];
  size_t n = strnlen(assignment, MAX_LINE + 1);
  FEAST_CHECK(n <= MAX_LINE, FEAST_ERR_CONFIG, "%s: override '%s' is longer than %d characters", CMDLINE,
              clip(assignment, &c1), MAX_LINE);
  FEAST_CALL(check_text(CMDLINE, assignment, n));
  memcpy(buf, assignment, n);
  buf[n] = 0;
  char *eq = strchr(buf, '=');
  FEAST_CHECK(eq, FEAST_ERR_CONFIG, "%s: '%s' is not section.key=value", CMDLINE, clip(assignment, &c1));
  *eq = 0;
  char *name = trim(buf), *value = trim(eq + 1);
  size_t vn = strlen(value);
  if (vn >= 2 && value[0] == '"' && value[vn - 1] == '"') value[vn - 1] = 0, value++;
  FEAST_CHECK(*name, FEAST_ERR_CONFIG, "%s: '%s' has no key before '=' (expected section.key=value)", CMDLINE,
              clip(assignment, &c1));
  char *dot = strrchr(name, '.');
  if (!dot || dot == name || !dot[1])
    FEAST_ERROR(FEAST_ERR_CONFIG, "%s: '%s' is not section.key=value (did you mean '%s'?)", CMDLINE,
                clip(assignment, &c1), suggest_key(cfg, NULL, dot && dot[1] ? dot + 1 : name, near, sizeof near));
  *dot = 0;
  FEAST_CHECK(strlen(name) <= MAX_NAME, FEAST_ERR_CONFIG, "%s: section name in '%s' is longer than %d characters",
              CMDLINE, clip(assignment, &c1), MAX_NAME);
  FEAST_CALL(check_part_name(cfg, CMDLINE, name));
  if (!section_known(cfg, name))
    FEAST_ERROR(FEAST_ERR_CONFIG, "%s: unknown key '%s.%s' (did you mean '%s'?)", CMDLINE, name, clip(dot + 1, &c1),
                suggest_key(cfg, name, dot + 1, near, sizeof near));
  Origin o = {CMDLINE, -1, 0, ""};
  return set_value(cfg, name, dot + 1, value, &o);
}

/* ---------------------------------------------------------------- public: getters */

/* a key asked for by name: its schema entry and the assignment in force */
typedef struct {
  char section[MAX_NAME + 1];
  const FeastKeySpec *spec;
  const Entry *entry; /* NULL: never set */
} Key;

/* find "section.key" without raising an error: 0, or -1 if the schema lacks it */
static int lookup(const FeastConfig *cfg, const char *name, Key *key) {
  const char *dot = name ? strrchr(name, '.') : NULL;
  if (!cfg || !dot || dot == name || (size_t)(dot - name) > MAX_NAME) return -1;
  memcpy(key->section, name, (size_t)(dot - name));
  key->section[dot - name] = 0;
  int k = find_spec(cfg, key->section, dot + 1);
  if (k < 0) return -1;
  key->spec = spec_at(cfg, k);
  int s = find_section(cfg, key->section);
  key->entry = s >= 0 ? current(cfg, s, k) : NULL;
  return 0;
}

/* lookup that names an unknown key or a wrong type (want < 0: any type) */
static int resolve(const FeastConfig *cfg, const char *name, int want, Key *key) {
  Clip c1;
  char near[2 * MAX_NAME + 4];
  FEAST_CHECK(cfg && name, FEAST_ERR_ARG, "config getter: NULL argument");
  if (lookup(cfg, name, key)) {
    const char *dot = strrchr(name, '.');
    char section[MAX_NAME + 1] = "";
    if (dot && (size_t)(dot - name) <= MAX_NAME) memcpy(section, name, (size_t)(dot - name)), section[dot - name] = 0;
    FEAST_ERROR(FEAST_ERR_ARG, "no config key '%s' in the schema (did you mean '%s'?)", clip(name, &c1),
                suggest_key(cfg, section[0] ? section : NULL, dot ? dot + 1 : name, near, sizeof near));
  }
  FEAST_CHECK(want < 0 || (int)key->spec->type == want, FEAST_ERR_ARG,
              "config key %s is of type %s, not %s", name, type_name(key->spec->type), type_name((FeastKeyType)want));
  return 0;
}

/* the value in force: the assignment, else the default, else an error (required) */
static int value_of(const FeastConfig *cfg, const char *name, const Key *key, Value *v, const char **text) {
  const Entry *e = key->entry;
  if (e && !(key->spec->type == FEAST_KEY_PATH && !e->value[0])) {
    *v = e->v;
    *text = e->value;
    return 0;
  }
  if (key->spec->default_value) {
    const char *why = parse_value(key->spec, key->spec->default_value, v);
    FEAST_CHECK(!why, FEAST_ERR_INTERNAL, "schema default of %s '%s': %s", name, key->spec->default_value, why);
    *text = key->spec->default_value;
    return 0;
  }
  Clip cp;
  FEAST_CHECK(!e, FEAST_ERR_CONFIG, "%s: required key %s is empty", e->origin, name);
  FEAST_ERROR(FEAST_ERR_CONFIG, "required config key %s is not set (add '%s = ...' to section [%s] of %s, or "
              "give %s=... on the command line)", name, key->spec->key, key->section,
              cfg->path ? clip_path(cfg->path, &cp) : "the config file", name);
}

/* resolve + value_of */
static int get(const FeastConfig *cfg, const char *name, int want, Key *key, Value *v, const char **text) {
  FEAST_CALL(resolve(cfg, name, want, key));
  return value_of(cfg, name, key, v, text);
}

int feast_config_get_int(const FeastConfig *cfg, const char *name, long *value) {
  Key key;
  Value v;
  const char *text = "";
  FEAST_CHECK(value, FEAST_ERR_ARG, "config_get_int: NULL output pointer");
  FEAST_CALL(get(cfg, name, FEAST_KEY_INT, &key, &v, &text));
  *value = v.i;
  return 0;
}

int feast_config_get_real(const FeastConfig *cfg, const char *name, double *value) {
  Key key;
  Value v;
  const char *text = "";
  FEAST_CHECK(value, FEAST_ERR_ARG, "config_get_real: NULL output pointer");
  FEAST_CALL(get(cfg, name, FEAST_KEY_REAL, &key, &v, &text));
  *value = v.r[0];
  return 0;
}

int feast_config_get_string(const FeastConfig *cfg, const char *name, const char **value) {
  Key key;
  Value v;
  FEAST_CHECK(value, FEAST_ERR_ARG, "config_get_string: NULL output pointer");
  return get(cfg, name, -1, &key, &v, value);
}

int feast_config_get_enum(const FeastConfig *cfg, const char *name, int *index) {
  Key key;
  Value v;
  const char *text = "";
  FEAST_CHECK(index, FEAST_ERR_ARG, "config_get_enum: NULL output pointer");
  FEAST_CALL(get(cfg, name, FEAST_KEY_ENUM, &key, &v, &text));
  *index = v.e;
  return 0;
}

int feast_config_get_real2(const FeastConfig *cfg, const char *name, double value[2]) {
  Key key;
  Value v;
  const char *text = "";
  FEAST_CHECK(value, FEAST_ERR_ARG, "config_get_real2: NULL output pointer");
  FEAST_CALL(get(cfg, name, FEAST_KEY_REAL2, &key, &v, &text));
  value[0] = v.r[0], value[1] = v.r[1];
  return 0;
}

/* the path, relative ones joined to the folder of the file that set it */
int feast_config_get_path(const FeastConfig *cfg, const char *name, char *buf, size_t size) {
  Key key;
  Value v;
  const char *text = "";
  Clip c1;
  FEAST_CHECK(buf && size > 0, FEAST_ERR_ARG, "config_get_path: no output buffer");
  buf[0] = 0;
  FEAST_CALL(get(cfg, name, FEAST_KEY_PATH, &key, &v, &text));
  const char *base = key.entry && text == key.entry->value ? key.entry->base : "";
  int join = text[0] && text[0] != '/' && base[0];
  const char *sep = join && strcmp(base, "/") != 0 ? "/" : "";
  size_t n = (join ? strlen(base) + strlen(sep) : 0) + strlen(text);
  FEAST_CHECK(n < size, FEAST_ERR_CONFIG, "%s: %s = '%s': path longer than %zu characters",
              feast_config_origin(cfg, name), name, clip(text, &c1), size - 1);
  snprintf(buf, size, "%s%s%s", join ? base : "", sep, text);
  return 0;
}

int feast_config_is_set(const FeastConfig *cfg, const char *name) {
  Key key;
  if (lookup(cfg, name, &key) || !key.entry) return 0;
  return !(key.spec->type == FEAST_KEY_PATH && !key.entry->value[0]);
}

const char *feast_config_origin(const FeastConfig *cfg, const char *name) {
  Key key;
  if (lookup(cfg, name, &key)) return "unknown key";
  return key.entry ? key.entry->origin : "default";
}

int feast_config_sections(const FeastConfig *cfg, const char *prefix, int *count, const char *const **names) {
  FEAST_CHECK(cfg && prefix && count && names, FEAST_ERR_ARG, "config_sections: NULL argument");
  Listing *l = cfg->listing;
  size_t n = strlen(prefix);
  *count = 0;
  *names = NULL;
  FEAST_CALL(grow(&l->names, &l->cap, cfg->nsections + 1, sizeof *l->names));
  for (int s = 0; s < cfg->nsections; s++)
    if (strncmp(cfg->sections[s], prefix, n) == 0) l->names[(*count)++] = cfg->sections[s];
  *names = l->names;
  return 0;
}

const char *feast_config_path(const FeastConfig *cfg) { return cfg && cfg->path ? cfg->path : ""; }

int feast_config_write_values(const FeastConfig *cfg, FILE *out) {
  FEAST_CHECK(cfg && out, FEAST_ERR_ARG, "config_write_values: NULL argument");
  char name[2 * MAX_NAME + 4], path[4096];
  for (int s = 0; s < cfg->nsections; s++)
    for (int k = 0; k < cfg->nkeys; k++) {
      const Entry *e = section_matches(spec_at(cfg, k)->section, cfg->sections[s]) ? current(cfg, s, k) : NULL;
      if (!e) continue;
      snprintf(name, sizeof name, "%s.%s", cfg->sections[s], spec_at(cfg, k)->key);
      const char *text = e->value;
      if (spec_at(cfg, k)->type == FEAST_KEY_PATH && e->value[0]) {
        FEAST_CALL(feast_config_get_path(cfg, name, path, sizeof path));
        text = path;
      }
      fprintf(out, "%s = %s  (%s)\n", name, text, e->origin);
    }
  return 0;
}

/* ---------------------------------------------------------------- Markdown */

/* text for a table cell: '|' escaped */
static void cell(FILE *out, const char *s) {
  for (; *s; s++) {
    if (*s == '|') fputc('\\', out);
    fputc(*s, out);
  }
}

/* the "allowed" column of key k */
static void allowed_cell(FILE *out, const FeastKeySpec *k) {
  char lo[32], hi[32];
  switch (k->type) {
  case FEAST_KEY_INT:
  case FEAST_KEY_REAL: {
    int integer = k->type == FEAST_KEY_INT;
    fprintf(out, "[%s, %s]", fmt_num(k->min, integer, lo), fmt_num(k->max, integer, hi));
    break;
  }
  case FEAST_KEY_ENUM:
    for (const char *c = k->choices; *c;) {
      size_t len = strcspn(c, "|");
      fprintf(out, "%s`%.*s`", c == k->choices ? "" : ", ", (int)len, c);
      c += len + (c[len] == '|');
    }
    break;
  case FEAST_KEY_PATH: fputs("file path, relative to the config file's folder", out); break;
  case FEAST_KEY_REAL2: fputs("two reals `x y`", out); break;
  default: fputs("text", out); break;
  }
}

/* 1 if key k's section appears in an earlier key */
static int section_seen(const FeastConfig *cfg, int k) {
  for (int j = 0; j < k; j++)
    if (strcmp(spec_at(cfg, j)->section, spec_at(cfg, k)->section) == 0) return 1;
  return 0;
}

void feast_config_write_markdown(const FeastConfig *cfg, FILE *out) {
  char name[2 * MAX_NAME + 4];
  if (!cfg || !out) return;
  fputs("| key | type | default | allowed | meaning |\n| --- | --- | --- | --- | --- |\n", out);
  for (int first = 0; first < cfg->nkeys; first++)
    for (int k = first; k < cfg->nkeys && !section_seen(cfg, first); k++) {
      const FeastKeySpec *spec = spec_at(cfg, k);
      if (strcmp(spec->section, spec_at(cfg, first)->section) != 0) continue;
      fprintf(out, "| `%s` | %s | ", spec_name(cfg, k, NULL, name, sizeof name), type_name(spec->type));
      if (!spec->default_value) fputs("(none)", out);
      else if (!spec->default_value[0]) fputs("(unset)", out);
      else fprintf(out, "`%s`", spec->default_value);
      fputs(" | ", out);
      allowed_cell(out, spec);
      fputs(" | ", out);
      cell(out, spec->help);
      fputs(" |\n", out);
    }
}

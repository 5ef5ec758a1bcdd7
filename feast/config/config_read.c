/* The INI reader (see feast/config/config.h): a config file line by line ([section],
 * key = value, comments, quoted values), its includes (nesting, cycles, "included from"
 * in messages), the limits on hostile input (size, line length, control bytes), and the
 * command-line overrides "section.key=value". Its own parser, so that every message names
 * file:line, duplicate keys are found, and hostile bytes (binary, NUL, overlong lines,
 * huge numbers) are an error message, never undefined behaviour. Input is bounded (file
 * size, line length, lines, names, values) and is never used as a format string. Values
 * are stored by config_values.c. */
#include "feast/config/config_private.h"
#include "feast/base/error.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *const CMDLINE = "command line";

/* ---------------------------------------------------------------- the parser */

/* s without leading and trailing blanks (in place) */
static char *trim(char *s) {
  while (is_blank((unsigned char)*s)) s++;
  size_t n = strlen(s);
  while (n && is_blank((unsigned char)s[n - 1])) s[--n] = 0;
  return s;
}

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
    size_t p = config_pattern_prefix(pattern);
    if (p && strncmp(pattern, section, p) == 0 && !config_valid_part_name(section + p))
      FEAST_ERROR(FEAST_ERR_CONFIG, "%s: invalid name '%s' in section [%s] (use letters, digits, '_' and '-')",
                  where, section + p, config_clip(section, &c1));
  }
  return 0;
}

/* "[section]" (line is trimmed and starts with '[') */
static int parse_header(FeastConfig *cfg, const char *where, char *line, int *section) {
  Clip c1;
  char near[2 * MAX_NAME + 4];
  char *close = strchr(line, ']');
  FEAST_CHECK(close, FEAST_ERR_CONFIG, "%s: section header '%s' without closing ']'", where, config_clip(line, &c1));
  char *after = close + 1;
  while (is_blank((unsigned char)*after)) after++;
  FEAST_CHECK(!*after || *after == '#' || *after == ';', FEAST_ERR_CONFIG,
              "%s: unexpected text '%s' after the section header", where, config_clip(after, &c1));
  *close = 0;
  char *name = trim(line + 1);
  FEAST_CHECK(*name, FEAST_ERR_CONFIG, "%s: empty section name '[]'", where);
  FEAST_CHECK(strlen(name) <= MAX_NAME, FEAST_ERR_CONFIG, "%s: section name '%s' is longer than %d characters",
              where, config_clip(name, &c1), MAX_NAME);
  FEAST_CALL(check_part_name(cfg, where, name));
  if (!config_section_known(cfg, name))
    FEAST_ERROR(FEAST_ERR_CONFIG, "%s: unknown section '[%s]' (did you mean '[%s]'?)", where, name,
                config_suggest_section(cfg, name, near, sizeof near));
  return config_add_section(cfg, name, section);
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
                config_clip(s, &c1));
  *eq = 0;
  char *key = trim(s), *value = NULL;
  FEAST_CHECK(*key, FEAST_ERR_CONFIG, "%s: empty key before '='", o->where);
  if (strcmp(key, "include") == 0) {
    FEAST_CHECK(*section < 0, FEAST_ERR_CONFIG,
                "%s: 'include' must come before the first [section] of a file (here it follows [%s])", o->where,
                config_clip(cfg->sections[*section], &c1));
    FEAST_CALL(split_value(o->where, eq + 1, &value));
    return include_file(cfg, src, o, value);
  }
  if (*section < 0)
    FEAST_ERROR(FEAST_ERR_CONFIG, "%s: key '%s' outside any [section] (did you mean '%s'?)", o->where,
                config_clip(key, &c1), config_suggest_key(cfg, NULL, key, near, sizeof near));
  FEAST_CALL(split_value(o->where, eq + 1, &value));
  return config_set_value(cfg, cfg->sections[*section], key, value, o);
}

/* all lines of a file's contents */
static int parse_buffer(FeastConfig *cfg, const Source *src, const char *buf, size_t len) {
  char line[MAX_LINE + 1], where[CLIP + 32];
  Clip cp;
  const char *path = config_clip_path(src->path, &cp);
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
  FEAST_CHECK(f, FEAST_ERR_FILE, "%scannot open %s %s: %s", at, what, config_clip_path(path, &cp), strerror(errno));
  struct stat st;
  int have = fstat(fileno(f), &st) == 0;
  if (have && S_ISDIR(st.st_mode)) {
    fclose(f);
    FEAST_ERROR(FEAST_ERR_FILE, "%s%s %s is a directory", at, what, config_clip_path(path, &cp));
  }
  if (have) *id = st;
  size_t hint = have && S_ISREG(st.st_mode) && st.st_size >= 0 ? (size_t)st.st_size : 4096;
  int status = read_stream(f, hint, buf, len);
  int failed = !status && ferror(f), err = errno;
  fclose(f);
  if (status || failed || *len > MAX_FILE) feast_free(buf);
  if (status) return status;
  FEAST_CHECK(!failed, FEAST_ERR_FILE, "%scannot read %s %s: %s", at, what, config_clip_path(path, &cp),
              strerror(err));
  FEAST_CHECK(*len <= MAX_FILE, FEAST_ERR_CONFIG, "%s%s %s is larger than %d bytes", at, what,
              config_clip_path(path, &cp), MAX_FILE);
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
    int w = snprintf(buf + used, size - used, "%s%s", i == n - 1 ? "" : " -> ",
                     config_clip_path(chain[i]->path, &cp));
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
              o->where, config_clip(name, &c1), MAX_DEPTH);
  FEAST_CHECK(cfg->nfiles < MAX_FILES, FEAST_ERR_CONFIG, "%s: include = '%s': more than %d files included",
              o->where, config_clip(name, &c1), MAX_FILES);
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
                             config_clip_path(path, &cp), strerror(err));
  else if (S_ISDIR(st.st_mode))
    status = feast_error_set(FEAST_ERR_FILE, __FILE__, __LINE__, "%s: included file %s is a directory", o->where,
                             config_clip_path(path, &cp));
  else if (!S_ISREG(st.st_mode))
    status = feast_error_set(FEAST_ERR_FILE, __FILE__, __LINE__, "%s: included file %s is not a regular file",
                             o->where, config_clip_path(path, &cp));
  for (const Source *s = src; !status && s; s = s->parent)
    if (s->dev == st.st_dev && s->ino == st.st_ino)
      status = feast_error_set(FEAST_ERR_CONFIG, __FILE__, __LINE__, "%s: include cycle: %s -> %s", o->where,
                               chain_text(src, chain, sizeof chain), config_clip_path(path, &cp));
  size_t len = 0;
  snprintf(at, sizeof at, "%s: ", o->where);
  if (!status) status = read_file(at, "included file", path, &buf, &len, &st);
  if (!status) status = folder_of(path, &base);
  if (!status) status = config_grow(&cfg->bases, &cfg->capbases, cfg->nfiles, sizeof *cfg->bases);
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

/* ---------------------------------------------------------------- public: read, override */

int feast_config_read(FeastConfig *cfg, const char *path) {
  FEAST_CHECK(cfg && path, FEAST_ERR_ARG, "config_read: NULL argument");
  FEAST_CHECK(!cfg->path, FEAST_ERR_ARG, "config_read: a config object reads one file (already read %s)",
              cfg->path);
  char *buf = NULL;
  size_t len = 0;
  struct stat id;
  FEAST_CALL(read_file("", "config file", path, &buf, &len, &id));
  int st = config_dup_string(path, &cfg->path);
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
              config_clip(assignment, &c1), MAX_LINE);
  FEAST_CALL(check_text(CMDLINE, assignment, n));
  memcpy(buf, assignment, n);
  buf[n] = 0;
  char *eq = strchr(buf, '=');
  FEAST_CHECK(eq, FEAST_ERR_CONFIG, "%s: '%s' is not section.key=value", CMDLINE, config_clip(assignment, &c1));
  *eq = 0;
  char *name = trim(buf), *value = trim(eq + 1);
  size_t vn = strlen(value);
  if (vn >= 2 && value[0] == '"' && value[vn - 1] == '"') value[vn - 1] = 0, value++;
  FEAST_CHECK(*name, FEAST_ERR_CONFIG, "%s: '%s' has no key before '=' (expected section.key=value)", CMDLINE,
              config_clip(assignment, &c1));
  char *dot = strrchr(name, '.');
  if (!dot || dot == name || !dot[1])
    FEAST_ERROR(FEAST_ERR_CONFIG, "%s: '%s' is not section.key=value (did you mean '%s'?)", CMDLINE,
                config_clip(assignment, &c1),
                config_suggest_key(cfg, NULL, dot && dot[1] ? dot + 1 : name, near, sizeof near));
  *dot = 0;
  FEAST_CHECK(strlen(name) <= MAX_NAME, FEAST_ERR_CONFIG, "%s: section name in '%s' is longer than %d characters",
              CMDLINE, config_clip(assignment, &c1), MAX_NAME);
  FEAST_CALL(check_part_name(cfg, CMDLINE, name));
  if (!config_section_known(cfg, name))
    FEAST_ERROR(FEAST_ERR_CONFIG, "%s: unknown key '%s.%s' (did you mean '%s'?)", CMDLINE, name,
                config_clip(dot + 1, &c1), config_suggest_key(cfg, name, dot + 1, near, sizeof near));
  Origin o = {CMDLINE, -1, 0, ""};
  return config_set_value(cfg, name, dot + 1, value, &o);
}

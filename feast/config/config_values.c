/* The values of a config: storing an assignment (validated, duplicates found, a file's
 * value replacing an included one, command-line overrides winning), and reading values
 * back by "section.key" through the typed getters, with the schema default where unset;
 * also where a value came from and the sections present. */
#include "feast/config/config_private.h"
#include "feast/base/error.h"
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- storage */

static int find_section(const FeastConfig *cfg, const char *name) {
  for (int s = 0; s < cfg->nsections; s++)
    if (strcmp(cfg->sections[s], name) == 0) return s;
  return -1;
}

/* index of section name, appended when new */
int config_add_section(FeastConfig *cfg, const char *name, int *index) {
  *index = find_section(cfg, name);
  if (*index >= 0) return 0;
  FEAST_CHECK(cfg->nsections < MAX_SECTIONS, FEAST_ERR_CONFIG, "config has more than %d sections", MAX_SECTIONS);
  FEAST_CALL(config_grow(&cfg->sections, &cfg->capsections, cfg->nsections + 1, sizeof *cfg->sections));
  FEAST_CALL(config_dup_string(name, &cfg->sections[cfg->nsections]));
  *index = cfg->nsections++;
  return 0;
}

/* the value in force for key spec in section s, NULL if none */
const Entry *config_current(const FeastConfig *cfg, int s, int spec) {
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
  FEAST_CALL(config_grow(&cfg->entries, &cfg->capentries, cfg->nentries + 1, sizeof *cfg->entries));
  Entry *e = &cfg->entries[cfg->nentries];
  memset(e, 0, sizeof *e);
  FEAST_CALL(config_dup_string(text, &e->value));
  int st = config_dup_string(o->where, &e->origin);
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
int config_set_value(FeastConfig *cfg, const char *section, const char *key, const char *text,
                     const Origin *o) {
  Clip c1, c2;
  char name[2 * MAX_NAME + 4], why_buf[160];
  FEAST_CHECK(strlen(key) <= MAX_NAME, FEAST_ERR_CONFIG, "%s: key name '%s' is longer than %d characters",
              o->where, config_clip(key, &c1), MAX_NAME);
  int k = config_find_spec(cfg, section, key);
  const char *moved = k < 0 ? config_moved_to(cfg, section, key) : NULL;
  if (moved)
    FEAST_ERROR(FEAST_ERR_CONFIG, "%s: the key '%s.%s' has moved: it is '%s' now (section [%.*s])", o->where,
                section, key, moved, (int)(strchr(moved, '.') - moved), moved);
  if (k < 0)
    FEAST_ERROR(FEAST_ERR_CONFIG, "%s: unknown key '%s.%s' (did you mean '%s'?)", o->where, section,
                config_clip(key, &c1), config_suggest_key(cfg, section, key, name, sizeof name));
  const FeastKeySpec *spec = spec_at(cfg, k);
  Value v;
  const char *why = config_parse_value(spec, text, &v);
  if (why)
    FEAST_ERROR(FEAST_ERR_CONFIG, "%s: %s.%s = '%s': %s (allowed: %s)", o->where, section, key,
                config_clip(text, &c2), why, config_allowed(spec, why_buf, sizeof why_buf));
  int s;
  FEAST_CALL(config_add_section(cfg, section, &s));
  const Entry *old = config_current(cfg, s, k);
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
  int k = config_find_spec(cfg, key->section, dot + 1);
  if (k < 0) return -1;
  key->spec = spec_at(cfg, k);
  int s = find_section(cfg, key->section);
  key->entry = s >= 0 ? config_current(cfg, s, k) : NULL;
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
    FEAST_ERROR(FEAST_ERR_ARG, "no config key '%s' in the schema (did you mean '%s'?)", config_clip(name, &c1),
                config_suggest_key(cfg, section[0] ? section : NULL, dot ? dot + 1 : name, near, sizeof near));
  }
  FEAST_CHECK(want < 0 || (int)key->spec->type == want, FEAST_ERR_ARG,
              "config key %s is of type %s, not %s", name, config_type_name(key->spec->type),
              config_type_name((FeastKeyType)want));
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
    const char *why = config_parse_value(key->spec, key->spec->default_value, v);
    FEAST_CHECK(!why, FEAST_ERR_INTERNAL, "schema default of %s '%s': %s", name, key->spec->default_value, why);
    *text = key->spec->default_value;
    return 0;
  }
  Clip cp;
  FEAST_CHECK(!e, FEAST_ERR_CONFIG, "%s: required key %s is empty", e->origin, name);
  FEAST_ERROR(FEAST_ERR_CONFIG, "required config key %s is not set (add '%s = ...' to section [%s] of %s, or "
              "give %s=... on the command line)", name, key->spec->key, key->section,
              cfg->path ? config_clip_path(cfg->path, &cp) : "the config file", name);
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
              feast_config_origin(cfg, name), name, config_clip(text, &c1), size - 1);
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
  FEAST_CALL(config_grow(&l->names, &l->cap, cfg->nsections + 1, sizeof *l->names));
  for (int s = 0; s < cfg->nsections; s++)
    if (strncmp(cfg->sections[s], prefix, n) == 0) l->names[(*count)++] = cfg->sections[s];
  *names = l->names;
  return 0;
}

const char *feast_config_path(const FeastConfig *cfg) { return cfg && cfg->path ? cfg->path : ""; }

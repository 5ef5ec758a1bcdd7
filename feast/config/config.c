/* The config object and its schema (see feast/config/config.h): creating and destroying
 * it, adding the key tables of the layers, looking a section.key up in the schema
 * ("boundary.*" patterns included), a key's type and allowed values in words (for
 * messages), and the small text helpers the config's files share
 * (quoting user text in messages, growing arrays, copying strings). The reader of INI
 * files is config_read.c, the values held config_values.c. */
#include "feast/config/config_private.h"
#include "feast/base/error.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- small helpers */

/* s for a message: at most CLIP characters, "..." where cut */
const char *config_clip(const char *s, Clip *c) {
  size_t n = strnlen(s, CLIP + 1);
  memcpy(c->s, s, n > CLIP ? CLIP : n);
  strcpy(c->s + (n > CLIP ? CLIP : n), n > CLIP ? "..." : "");
  return c->s;
}

/* a path for a message: its last CLIP characters, "..." where cut (the file name
 * matters most) */
const char *config_clip_path(const char *s, Clip *c) {
  size_t n = strlen(s);
  if (n <= CLIP) return config_clip(s, c);
  snprintf(c->s, sizeof c->s, "...%s", s + n - (CLIP - 3));
  return c->s;
}

/* grow *array (of elem bytes each) to hold need elements */
int config_grow(void *array, int *cap, int need, size_t elem) {
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
int config_dup_string(const char *s, char **out) {
  size_t n = strlen(s) + 1;
  FEAST_CALL(FEAST_ALLOC(n, out));
  memcpy(*out, s, n);
  return 0;
}

/* ---------------------------------------------------------------- the schema */

/* 1 if s is a boundary part name: letters, digits, '_', '-' */
int config_valid_part_name(const char *s) {
  if (!*s) return 0;
  for (; *s; s++) {
    char c = *s;
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-'))
      return 0;
  }
  return 1;
}

/* length of the prefix "boundary." of a pattern section "boundary.*", 0 if none */
size_t config_pattern_prefix(const char *pattern) {
  size_t n = strlen(pattern);
  return n >= 2 && pattern[n - 1] == '*' && pattern[n - 2] == '.' ? n - 1 : 0;
}

/* 1 if section name s matches the schema section pattern */
int config_section_matches(const char *pattern, const char *s) {
  size_t p = config_pattern_prefix(pattern);
  if (p) return strncmp(pattern, s, p) == 0 && config_valid_part_name(s + p);
  return strcmp(pattern, s) == 0;
}

int config_section_known(const FeastConfig *cfg, const char *s) {
  for (int k = 0; k < cfg->nkeys; k++)
    if (config_section_matches(spec_at(cfg, k)->section, s)) return 1;
  return 0;
}

/* index of section.key in the schema, -1 if none */
int config_find_spec(const FeastConfig *cfg, const char *section, const char *key) {
  for (int k = 0; k < cfg->nkeys; k++)
    if (strcmp(spec_at(cfg, k)->key, key) == 0 && config_section_matches(spec_at(cfg, k)->section, section))
      return k;
  return -1;
}

/* "section.key" of schema key k, in section s where it matches, else as documented */
const char *config_spec_name(const FeastConfig *cfg, int k, const char *s, char *buf, size_t n) {
  const FeastKeySpec *spec = spec_at(cfg, k);
  size_t p = config_pattern_prefix(spec->section);
  if (s && config_section_matches(spec->section, s)) snprintf(buf, n, "%s.%s", s, spec->key);
  else if (p) snprintf(buf, n, "%.*sNAME.%s", (int)p, spec->section, spec->key);
  else snprintf(buf, n, "%s.%s", spec->section, spec->key);
  return buf;
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

/* the moved-key entry (FeastKeyTable.moved) whose new name (new_name = 1) or former name
 * is name, or NULL */
static const FeastMovedKey *moved_entry(const FeastConfig *cfg, const char *name, int new_name) {
  for (int t = 0; cfg && name && t < cfg->ntables; t++)
    for (int i = 0; i < cfg->tables[t]->nmoved; i++) {
      const FeastMovedKey *m = &cfg->tables[t]->moved[i];
      if (strcmp(new_name ? m->to : m->from, name) == 0) return m;
    }
  return NULL;
}

const char *config_moved_to(const FeastConfig *cfg, const char *section, const char *key) {
  char name[2 * MAX_NAME + 4];
  snprintf(name, sizeof name, "%s.%s", section, key);
  const FeastMovedKey *m = moved_entry(cfg, name, 0);
  return m ? m->to : NULL;
}

const char *feast_config_former_name(const FeastConfig *cfg, const char *name) {
  const FeastMovedKey *m = moved_entry(cfg, name, 1);
  return m ? m->from : NULL;
}

int feast_config_key_count(const FeastConfig *cfg) { return cfg ? cfg->nkeys : 0; }

const FeastKeySpec *feast_config_key_spec(const FeastConfig *cfg, int k) {
  return cfg && k >= 0 && k < cfg->nkeys ? spec_at(cfg, k) : NULL;
}

const FeastKeySpec *feast_config_find_key(const FeastConfig *cfg, const char *name) {
  const FeastMovedKey *m = moved_entry(cfg, name, 0);
  const char *full = m ? m->to : name, *dot = name ? strrchr(full, '.') : NULL;
  char section[MAX_NAME];
  if (!dot || dot - full >= (ptrdiff_t)sizeof section) return NULL;
  snprintf(section, sizeof section, "%.*s", (int)(dot - full), full);
  const int k = config_find_spec(cfg, section, dot + 1);
  return k < 0 ? NULL : spec_at(cfg, k);
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

/* a number as a person writes it: the shortest exact form (1e-16, 0.7, 1e300), integer
 * ranges in plain digits (20000) */
const char *config_fmt_num(double x, int integer, char buf[32]) {
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

const char *config_type_name(FeastKeyType t) {
  static const char *names[] = {"int", "real", "string", "enum", "path", "real2"};
  return (unsigned)t < sizeof names / sizeof names[0] ? names[t] : "?";
}

/* what key k accepts, for messages */
const char *config_allowed(const FeastKeySpec *k, char *buf, size_t n) {
  char lo[32], hi[32];
  switch (k->type) {
  case FEAST_KEY_INT:
    snprintf(buf, n, "an integer in [%s, %s]", config_fmt_num(k->min, 1, lo), config_fmt_num(k->max, 1, hi));
    break;
  case FEAST_KEY_REAL:
    snprintf(buf, n, "a real number in [%s, %s]", config_fmt_num(k->min, 0, lo), config_fmt_num(k->max, 0, hi));
    break;
  case FEAST_KEY_ENUM: snprintf(buf, n, "one of %s", k->choices); break;
  case FEAST_KEY_REAL2: snprintf(buf, n, "two finite reals \"x y\" or \"x, y\""); break;
  case FEAST_KEY_PATH: snprintf(buf, n, "a file path, empty = unset"); break;
  default: snprintf(buf, n, "any text"); break;
  }
  return buf;
}

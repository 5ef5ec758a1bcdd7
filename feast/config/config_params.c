/* Typed parameters from a key table (feast/config/config.h: FeastKeySpec.field): the
 * defaults of a layer's struct and the config's values in it, so that a key's default,
 * type and member are written once, in its row. A key flagged FEAST_KEY_UNSET_AUTO
 * holds FEAST_AUTO while unset. */
#include "feast/config/config_private.h"
#include "feast/base/error.h"
#include <stdio.h>
#include <string.h>

/* the member of spec in params, checked against its kind */
static int member(const FeastKeySpec *spec, void *params, void **at) {
  static const size_t sizes[] = {[FEAST_FIELD_INT] = sizeof(int), [FEAST_FIELD_LONG] = sizeof(long),
                                 [FEAST_FIELD_DOUBLE] = sizeof(double), [FEAST_FIELD_STRING] = sizeof(char *)};
  const FeastField *f = &spec->field;
  FEAST_CHECK(f->kind == FEAST_FIELD_CHARS ? f->size > 0 : (unsigned)f->kind < 5 && f->size == sizes[f->kind],
              FEAST_ERR_ARG, "key %s.%s: a member of %zu bytes cannot hold a value of kind %d", spec->section,
              spec->key, f->size, (int)f->kind);
  *at = (char *)params + f->offset;
  return 0;
}

/* *at (of kind) <- a parsed value v of spec, text its text */
static void store(FeastFieldKind kind, size_t size, const FeastKeySpec *spec, const Value *v, const char *text,
                  void *at) {
  const int e = spec->type == FEAST_KEY_ENUM ? v->e : (int)v->i;
  switch (kind) {
  case FEAST_FIELD_INT: memcpy(at, &e, sizeof e); break;
  case FEAST_FIELD_LONG: memcpy(at, &v->i, sizeof v->i); break;
  case FEAST_FIELD_DOUBLE: memcpy(at, &v->r[0], sizeof v->r[0]); break;
  case FEAST_FIELD_STRING: memcpy(at, &text, sizeof text); break;
  default: snprintf(at, size, "%s", text); break;
  }
}

/* *at <- FEAST_AUTO, spec's member being an int or a long */
static void store_auto(const FeastKeySpec *spec, void *at) {
  const Value v = {.i = FEAST_AUTO};
  store(spec->field.kind, spec->field.size, spec, &v, "", at);
}

/* *at (of kind) <- the default of spec */
static int store_default(const FeastKeySpec *spec, FeastFieldKind kind, size_t size, void *at) {
  Value v;
  const char *why = config_parse_value(spec, spec->default_value, &v);
  FEAST_CHECK(!why, FEAST_ERR_ARG, "key %s.%s: its default '%s' is %s", spec->section, spec->key,
              spec->default_value, why);
  store(kind, size, spec, &v, spec->default_value, at);
  return 0;
}

int feast_params_defaults(const FeastKeyTable *table, void *params) {
  FEAST_CHECK(table && params, FEAST_ERR_ARG, "feast_params_defaults: NULL argument");
  for (int k = 0; k < table->nkeys; k++) {
    const FeastKeySpec *spec = &table->keys[k];
    void *at = NULL;
    if (spec->field.kind == FEAST_FIELD_NONE || !spec->default_value) continue;
    FEAST_CALL(member(spec, params, &at));
    if (spec->flags & FEAST_KEY_UNSET_AUTO) store_auto(spec, at);
    else FEAST_CALL(store_default(spec, spec->field.kind, spec->field.size, at));
  }
  return 0;
}

int feast_key_default(const FeastKeyTable *table, const char *name, FeastFieldKind kind, void *out) {
  char full[2 * MAX_NAME + 4];
  for (int k = 0; table && name && k < table->nkeys; k++) {
    const FeastKeySpec *spec = &table->keys[k];
    snprintf(full, sizeof full, "%s.%s", spec->section, spec->key);
    if (strcmp(full, name) != 0 || !spec->default_value || kind == FEAST_FIELD_CHARS) continue;
    return store_default(spec, kind, 0, out);
  }
  FEAST_ERROR(FEAST_ERR_ARG, "feast_key_default: no key %s with a default (of a kind other than chars)", name ? name : "(null)");
}

/* *at <- the value in force of key name, read as spec's member */
static int read_value(const FeastConfig *cfg, const char *name, const FeastKeySpec *spec, void *at) {
  Value v = {0};
  const char *text = NULL;
  long l;
  switch (spec->type) {
  case FEAST_KEY_INT: FEAST_CALL(feast_config_get_int(cfg, name, &l)); v.i = l; break;
  case FEAST_KEY_REAL: FEAST_CALL(feast_config_get_real(cfg, name, &v.r[0])); break;
  case FEAST_KEY_ENUM: FEAST_CALL(feast_config_get_enum(cfg, name, &v.e)); break;
  case FEAST_KEY_PATH: return feast_config_get_path(cfg, name, at, spec->field.size);
  case FEAST_KEY_STRING: FEAST_CALL(feast_config_get_string(cfg, name, &text)); break;
  default: FEAST_ERROR(FEAST_ERR_ARG, "key %s: a %s key has no member kind", name, config_type_name(spec->type));
  }
  store(spec->field.kind, spec->field.size, spec, &v, text, at);
  return 0;
}

int feast_params_from_config(const FeastConfig *cfg, const FeastKeyTable *table, const char *prefix, void *params) {
  FEAST_CHECK(cfg && table && params, FEAST_ERR_ARG, "feast_params_from_config: NULL argument");
  char name[2 * MAX_NAME + 4];
  for (int k = 0; k < table->nkeys; k++) {
    const FeastKeySpec *spec = &table->keys[k];
    void *at = NULL;
    if (spec->field.kind == FEAST_FIELD_NONE) continue;
    snprintf(name, sizeof name, "%s%s", prefix ? prefix : "", spec->key);
    if (!prefix || !feast_config_is_set(cfg, name)) snprintf(name, sizeof name, "%s.%s", spec->section, spec->key);
    const int set = feast_config_is_set(cfg, name);
    if (!spec->default_value && !set) continue;
    FEAST_CALL(member(spec, params, &at));
    if (!set && (spec->flags & FEAST_KEY_UNSET_AUTO)) store_auto(spec, at);
    else FEAST_CALL(read_value(cfg, name, spec, at));
  }
  return 0;
}

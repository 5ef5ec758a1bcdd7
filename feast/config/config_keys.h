/* Rows of a key table (feast/config/config.h: FeastKeySpec); included only by the files that
 * define one (feast/config/config_keys.c, scarc/scarc_keys.c, navier_stokes/ns_keys.c,
 * apps/app_keys.c). A NULL default means "required where used". */
#ifndef FEAST_CONFIG_KEYS_H
#define FEAST_CONFIG_KEYS_H
#include "feast/config/config.h"
#include <stddef.h>

/* each row: ROW_KEY(section, key, default, ..., help[, .flags = ...]) */
#define INT_KEY(sec, k, def, lo, hi, h, ...) \
  {.section = sec, .key = k, .type = FEAST_KEY_INT, .default_value = def, .min = lo, .max = hi, .help = h, __VA_ARGS__}
#define REAL_KEY(sec, k, def, lo, hi, h, ...) \
  {.section = sec, .key = k, .type = FEAST_KEY_REAL, .default_value = def, .min = lo, .max = hi, .help = h, __VA_ARGS__}
#define ENUM_KEY(sec, k, def, ch, h, ...) \
  {.section = sec, .key = k, .type = FEAST_KEY_ENUM, .default_value = def, .choices = ch, .help = h, __VA_ARGS__}
#define PATH_KEY(sec, k, def, h, ...) \
  {.section = sec, .key = k, .type = FEAST_KEY_PATH, .default_value = def, .help = h, __VA_ARGS__}
#define STRING_KEY(sec, k, def, h, ...) \
  {.section = sec, .key = k, .type = FEAST_KEY_STRING, .default_value = def, .help = h, __VA_ARGS__}
#define REAL2_KEY(sec, k, def, h, ...) \
  {.section = sec, .key = k, .type = FEAST_KEY_REAL2, .default_value = def, .help = h, __VA_ARGS__}
/* the roles (feast/config/config.h), as the last argument of a row */
#define DISCRETE .flags = FEAST_KEY_DISCRETE
#define RECORDED .flags = FEAST_KEY_RECORDED
#define RECORDED_UNSET_AUTO .flags = FEAST_KEY_RECORDED | FEAST_KEY_UNSET_AUTO
/* the member m of the layer's parameter struct T that holds the key's value, as the last
 * argument of a row (its kind from its C type: an enum is stored as an int) */
#define FEAST_FIELD_KIND(x)                                                                          \
  _Generic((x), int: FEAST_FIELD_INT, long: FEAST_FIELD_LONG, double: FEAST_FIELD_DOUBLE,           \
           const char *: FEAST_FIELD_STRING, char *: FEAST_FIELD_CHARS, default: FEAST_FIELD_INT)
#define FEAST_AT(T, m) .field = {offsetof(T, m), sizeof(((T *)0)->m), FEAST_FIELD_KIND(((T *)0)->m)}
#define FEAST_NKEYS(table) ((int)(sizeof(table) / sizeof((table)[0])))

/* an enum key's allowed values from the name table of its setting: buf <- "first|a|b..."
 * (first NULL: none) with name(0 .. n-1), the names of the enum values in order */
const char *feast_key_choices(const char *first, const char *(*name)(int), int n, char *buf, size_t size);
/* table[k].choices <- choices for the row section.key (which must exist) */
void feast_key_set_choices(FeastKeySpec *table, int nkeys, const char *section, const char *key, const char *choices);
#endif

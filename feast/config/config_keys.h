/* Rows of a key table (feast/config/config.h: FeastKeySpec); included only by the files that
 * define one (feast/config/config_keys.c, scarc/scarc_keys.c, navier_stokes/ns_keys.c,
 * apps/app_keys.c). A NULL default means "required where used". */
#ifndef FEAST_CONFIG_KEYS_H
#define FEAST_CONFIG_KEYS_H
#include "feast/config/config.h"

#define INT_KEY(sec, key, def, lo, hi, help) {sec, key, FEAST_KEY_INT, def, lo, hi, NULL, help}
#define REAL_KEY(sec, key, def, lo, hi, help) {sec, key, FEAST_KEY_REAL, def, lo, hi, NULL, help}
#define ENUM_KEY(sec, key, def, choices, help) {sec, key, FEAST_KEY_ENUM, def, 0, 0, choices, help}
#define PATH_KEY(sec, key, def, help) {sec, key, FEAST_KEY_PATH, def, 0, 0, NULL, help}
#define STRING_KEY(sec, key, def, help) {sec, key, FEAST_KEY_STRING, def, 0, 0, NULL, help}
#define REAL2_KEY(sec, key, def, help) {sec, key, FEAST_KEY_REAL2, def, 0, 0, NULL, help}
#define FEAST_NKEYS(table) ((int)(sizeof(table) / sizeof((table)[0])))

/* an enum key's allowed values from the name table of its setting: buf <- "first|a|b..."
 * (first NULL: none) with name(0 .. n-1), the names of the enum values in order */
const char *feast_key_choices(const char *first, const char *(*name)(int), int n, char *buf, size_t size);
/* table[k].choices <- choices for the row section.key (which must exist) */
void feast_key_set_choices(FeastKeySpec *table, int nkeys, const char *section, const char *key, const char *choices);
#endif

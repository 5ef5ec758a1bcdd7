/* Run configuration: INI files ([section] key = value, '#' or ';' comments) plus
 * command-line overrides "section.key=value". Every key is declared once in the schema
 * (a key table of the layer that reads it, see FeastKeyTable) with its type, default,
 * range and help text; reading a file
 * rejects unknown sections/keys (naming the closest valid one, or the new name of a key
 * that moved: FeastMovedKey), duplicate keys, and
 * values of the wrong type or out of range, always naming file:line, key and value.
 *
 * Includes: lines "include = FILE" before the first [section] of a file read FILE
 * (relative to the including file's folder) at that point, so the including file's own
 * values replace the included ones (no duplicate error; a key twice in one file still
 * is one). Includes nest (at most 16 deep); a cycle, or a file that cannot be read, is
 * an error naming the include line (and the chain); an error inside an included file
 * names that file:line and "(included from a.ini:1)"; relative PATH values resolve
 * against the folder of the file that set them. Command-line overrides win over all. */
#ifndef FEAST_CONFIG_H
#define FEAST_CONFIG_H
#include <stddef.h>
#include <stdio.h>

typedef enum {
  FEAST_KEY_INT,    /* integer in [min, max] */
  FEAST_KEY_REAL,   /* finite real in [min, max] */
  FEAST_KEY_STRING, /* free text (may be empty) */
  FEAST_KEY_ENUM,   /* one of choices "a|b|c" */
  FEAST_KEY_PATH,   /* file path; relative paths resolve against the folder of the config
                       file that set it (the working directory for command-line overrides);
                       "" = unset */
  FEAST_KEY_REAL2   /* two finite reals "x y" or "x, y" */
} FeastKeyType;

/* the role of a key (FeastKeySpec.flags), data the core acts on without knowing the key:
 * feast/io/checkpoint.c records the DISCRETE and RECORDED keys in a checkpoint and compares
 * them at a restart; --help-config shows the role */
enum {
  FEAST_KEY_DISCRETE = 1, /* defines the discrete problem: a restart refuses a change */
  FEAST_KEY_RECORDED = 2, /* a solver setting: recorded, a change at a restart is reported */
  FEAST_KEY_PROBLEM_TYPE = 4, /* names the problem solved (one key of a schema): the
                                 checkpoint's `problem` line */
  FEAST_KEY_UNSET_AUTO = 8   /* an int key whose `auto` is "unset": its member holds FEAST_AUTO
                                until the layer resolves it (the default: what auto gives
                                where no rule of the layer applies) */
};
/* the member of a FEAST_KEY_UNSET_AUTO key (int or long) while the key is unset; every
 * other key that may be auto has `auto` among its choices and an AUTO enum member */
enum { FEAST_AUTO = -1 };

/* where a key's value lives in the typed parameters of the layer that declares it
 * (FeastKeySpec.field): a member of the layer's struct, at offset, of size bytes, stored
 * as kind (INT: an int or an enum, an ENUM key's index in its choices; CHARS: a char
 * array, a PATH key resolved; STRING: a pointer to the config's text or the default's).
 * Kind NONE: no member (the layer's adapter code reads the key). feast_params_defaults and
 * feast_params_from_config (below) fill a struct from the table by these. */
typedef enum {
  FEAST_FIELD_NONE,
  FEAST_FIELD_INT,
  FEAST_FIELD_LONG,
  FEAST_FIELD_DOUBLE,
  FEAST_FIELD_STRING,
  FEAST_FIELD_CHARS
} FeastFieldKind;
typedef struct {
  size_t offset, size;
  FeastFieldKind kind;
} FeastField;

typedef struct {
  const char *section;       /* "solver"; "boundary.*" matches any "boundary.<name>" */
  const char *key;
  FeastKeyType type;
  const char *default_value; /* NULL: no default (required where it is used) */
  double min, max;           /* INT/REAL range, inclusive */
  const char *choices;       /* ENUM: "cpu|gpu" */
  const char *help;
  unsigned flags;            /* FEAST_KEY_DISCRETE | ...: 0 = none */
  FeastField field;          /* its member in the layer's parameters (kind NONE: none) */
} FeastKeySpec;

/* The schema is composed per config object from key tables: the core's own keys
 * (feast/config/config_keys.c: grid, boundary shapes, output, run, debug) are always there;
 * each layer above declares its keys in a table in its own folder (scarc/scarc_keys.c,
 * navier_stokes/ns_keys.c, apps/app_keys.c), and whoever creates the config adds the
 * tables of the layers it uses (feastc: feast_app_config_create in apps/app.h) before
 * reading. No global state: two configs may have different schemas. */
/* a key that moved: a file or override that sets `from` is one error naming `to` */
typedef struct {
  const char *from; /* "nonlinear.rtol" */
  const char *to;   /* "nonlinear.rtol" */
} FeastMovedKey;
typedef struct {
  const char *layer; /* "feast", "scarc", ...: for messages */
  const FeastKeySpec *keys;
  int nkeys;
  const FeastMovedKey *moved; /* the table's keys that had another name (NULL: none) */
  int nmoved;
} FeastKeyTable;

extern const FeastKeyTable feast_core_keys;

typedef struct FeastConfig FeastConfig;

/* a config whose schema holds the core's keys */
int feast_config_create(FeastConfig **cfg);
void feast_config_destroy(FeastConfig **cfg);
/* add a layer's keys to the schema, before any value is read or set; adding a table
 * again does nothing; a key (or a section.key pattern) that the schema already has
 * from another table is an error */
int feast_config_add_keys(FeastConfig *cfg, const FeastKeyTable *table);
/* the name "section.key" had before it moved (FeastKeyTable.moved), or NULL */
const char *feast_config_former_name(const FeastConfig *cfg, const char *name);
/* the schema: keys 0 .. count-1 (the core's first, then each table's in order added) */
int feast_config_key_count(const FeastConfig *cfg);
const FeastKeySpec *feast_config_key_spec(const FeastConfig *cfg, int k); /* NULL if out of range */
/* the key "section.key" (a section of a "boundary.*" pattern, or a name the key had before
 * it moved) in the schema, NULL if none */
const FeastKeySpec *feast_config_find_key(const FeastConfig *cfg, const char *name);
/* parse and validate a file (and the files it includes); once per config object */
int feast_config_read(FeastConfig *cfg, const char *path);
/* "section.key=value" from the command line; replaces a value read from the file */
int feast_config_override(FeastConfig *cfg, const char *assignment);

/* Getters take "section.key". An unset key gives the schema default; asking for a key
 * the schema lacks, or one without default that is unset, is an error naming it. */
int feast_config_get_int(const FeastConfig *cfg, const char *name, long *value);
int feast_config_get_real(const FeastConfig *cfg, const char *name, double *value);
int feast_config_get_string(const FeastConfig *cfg, const char *name, const char **value);
int feast_config_get_enum(const FeastConfig *cfg, const char *name, int *index); /* index in choices */
int feast_config_get_path(const FeastConfig *cfg, const char *name, char *buf, size_t size);
int feast_config_get_real2(const FeastConfig *cfg, const char *name, double value[2]);
int feast_config_is_set(const FeastConfig *cfg, const char *name); /* 1 if file/override set it */
/* where a value came from, for messages: "run.ini:12" or "command line" or "default" */
const char *feast_config_origin(const FeastConfig *cfg, const char *name);
/* names of the sections present that start with prefix (e.g. "boundary."), in file order */
int feast_config_sections(const FeastConfig *cfg, const char *prefix, int *count,
                          const char *const **names);
const char *feast_config_path(const FeastConfig *cfg); /* the file read, "" if none */

/* The typed parameters from a key table (FeastKeySpec.field): params, a struct of the
 * table's layer, <- the default of every key with a member (its default text parsed as
 * the config would; a key without default leaves its member; FEAST_KEY_UNSET_AUTO:
 * FEAST_AUTO), or <- the config's value of every such key (unset: the default, FEAST_AUTO
 * for FEAST_KEY_UNSET_AUTO; one without default unset leaves its member). With
 * prefix (e.g. "pressure."), a key of section S is read as "<prefix><key>" where that is
 * set, else as "S.<key>" (ScaRC's inheritance, scarc/scarc_config.h). FEAST_ERR_ARG for a
 * member whose size does not fit its kind. */
int feast_params_defaults(const FeastKeyTable *table, void *params);
int feast_params_from_config(const FeastConfig *cfg, const FeastKeyTable *table, const char *prefix, void *params);
/* *out <- the default of key "section.key" of table as kind (as feast_params_defaults would
 * store it); FEAST_ERR_ARG if the table has no such key or it has no default */
int feast_key_default(const FeastKeyTable *table, const char *name, FeastFieldKind kind, void *out);

/* the values set (by the files or the command line), one "section.key = value  (origin)"
 * line each, sections in file order; PATH values resolved (feastc --dry-run at verbosity 2) */
int feast_config_write_values(const FeastConfig *cfg, FILE *out);

/* the schema as a Markdown table (README), grouped by section in order of first appearance */
void feast_config_write_markdown(const FeastConfig *cfg, FILE *out);
#endif

/* Private to feast/config/: the config object (struct FeastConfig) and the assignments it
 * holds, the limits on its input, and the helpers that the files of the config reader
 * share. config.c: the object, its schema and text helpers; config_read.c: the INI files,
 * their includes and the command-line overrides; config_values.c: storing values and the
 * typed getters; config_validate.c: checking a value against its key and the "did you
 * mean" suggestions; config_print.c: keys and values in words (messages, --dry-run, the
 * Markdown table). */
#ifndef FEAST_CONFIG_PRIVATE_H
#define FEAST_CONFIG_PRIVATE_H
#include "feast/config/config.h"
#include <stddef.h>

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
static inline const FeastKeySpec *spec_at(const FeastConfig *cfg, int k) {
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

/* a blank inside a line: ' ' or tab */
static inline int is_blank(int c) { return c == ' ' || c == '\t'; }

/* ---- config.c: text helpers and the schema */
/* s for a message: at most CLIP characters, "..." where cut */
const char *config_clip(const char *s, Clip *c);
/* a path for a message: its last CLIP characters, "..." where cut */
const char *config_clip_path(const char *s, Clip *c);
/* grow *array (of elem bytes each) to hold need elements */
int config_grow(void *array, int *cap, int need, size_t elem);
/* a heap copy of s */
int config_dup_string(const char *s, char **out);
/* 1 if s is a boundary part name: letters, digits, '_', '-' */
int config_valid_part_name(const char *s);
/* length of the prefix "boundary." of a pattern section "boundary.*", 0 if none */
size_t config_pattern_prefix(const char *pattern);
/* 1 if section name s matches the schema section pattern */
int config_section_matches(const char *pattern, const char *s);
/* 1 if some key of the schema is in section s */
int config_section_known(const FeastConfig *cfg, const char *s);
/* index of section.key in the schema, -1 if none */
int config_find_spec(const FeastConfig *cfg, const char *section, const char *key);
/* "section.key" of schema key k, in section s where it matches, else as documented */
const char *config_spec_name(const FeastConfig *cfg, int k, const char *s, char *buf, size_t n);

/* ---- config_validate.c: values against their keys, and suggestions */
/* NULL, or why text is not a valid value of key k */
const char *config_parse_value(const FeastKeySpec *k, const char *text, Value *v);
/* the valid key closest to section.key (section NULL: outside any section) */
const char *config_suggest_key(const FeastConfig *cfg, const char *section, const char *key, char *buf, size_t n);
/* the valid section name closest to s */
const char *config_suggest_section(const FeastConfig *cfg, const char *s, char *buf, size_t n);

/* ---- config_print.c: keys in words */
/* "int", "real", ... */
/* the new name of the key section.key if a table says it moved, else NULL */
const char *config_moved_to(const FeastConfig *cfg, const char *section, const char *key);
/* a number as a person writes it: the shortest exact form (1e-16, 0.7, 1e300), integer
 * ranges in plain digits (20000) */
const char *config_fmt_num(double x, int integer, char buf[32]);
const char *config_type_name(FeastKeyType t);
/* what key k accepts, for messages */
const char *config_allowed(const FeastKeySpec *k, char *buf, size_t n);

/* ---- config_values.c: the assignments */
/* index of section name, appended when new */
int config_add_section(FeastConfig *cfg, const char *name, int *index);
/* the value in force for key spec in section s, NULL if none */
const Entry *config_current(const FeastConfig *cfg, int s, int spec);
/* validate and set section.key = text: a key may appear once per section of a file, a
 * file's value replaces one from a file it includes, a command-line value any earlier one */
int config_set_value(FeastConfig *cfg, const char *section, const char *key, const char *text, const Origin *o);
#endif

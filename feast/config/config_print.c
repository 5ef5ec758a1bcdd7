/* Keys and values in words: numbers as a person writes them, the type and the allowed
 * values of a key (for messages), the values set with their origins (feastc --dry-run)
 * and the schema as a Markdown table (README, --help-config). */
#include "feast/config/config_private.h"
#include "feast/base/error.h"
#include <stdlib.h>
#include <string.h>

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

const char *config_type_name(FeastKeyType t) {
  static const char *names[] = {"int", "real", "string", "enum", "path", "real2"};
  return (unsigned)t < sizeof names / sizeof names[0] ? names[t] : "?";
}

/* what key k accepts, for messages */
const char *config_allowed(const FeastKeySpec *k, char *buf, size_t n) {
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

/* ---------------------------------------------------------------- the values set */

int feast_config_write_values(const FeastConfig *cfg, FILE *out) {
  FEAST_CHECK(cfg && out, FEAST_ERR_ARG, "config_write_values: NULL argument");
  char name[2 * MAX_NAME + 4], path[4096];
  for (int s = 0; s < cfg->nsections; s++)
    for (int k = 0; k < cfg->nkeys; k++) {
      const Entry *e =
          config_section_matches(spec_at(cfg, k)->section, cfg->sections[s]) ? config_current(cfg, s, k) : NULL;
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
      fprintf(out, "| `%s` | %s | ", config_spec_name(cfg, k, NULL, name, sizeof name), config_type_name(spec->type));
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

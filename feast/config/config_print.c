/* Keys and values in words: the values set with their origins (feastc --dry-run) and the
 * schema as a Markdown table (README, --help-config; its role column: "discrete" = defines
 * the discrete problem, a restart refuses a change; "recorded" = a solver setting, a change
 * at a restart is reported). */
#include "feast/config/config_private.h"
#include "feast/base/error.h"
#include <stdlib.h>
#include <string.h>

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
    fprintf(out, "[%s, %s]", config_fmt_num(k->min, integer, lo), config_fmt_num(k->max, integer, hi));
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

/* the "role" column (FeastKeySpec.flags): what a restart does with a changed value */
static const char *role_name(unsigned flags) {
  if (flags & FEAST_KEY_DISCRETE) return "discrete";
  return flags & FEAST_KEY_RECORDED ? "recorded" : "";
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
  fputs("| key | type | default | allowed | role | meaning |\n| --- | --- | --- | --- | --- | --- |\n", out);
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
      fprintf(out, " | %s | ", role_name(spec->flags));
      cell(out, spec->help);
      fputs(" |\n", out);
    }
}

/* Checking a value against its key (feast/config/config.h: FeastKeyType): integers, finite
 * reals, pairs of reals, enum choices, in range; and the "did you mean" suggestion for an
 * unknown key or section, by edit distance to the schema's names. */
#include "feast/config/config_private.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- values */

/* NULL, or why t is not an integer */
static const char *parse_int(const char *t, long *out) {
  if (!*t) return "empty value";
  for (const char *p = t; *p; p++)
    if (!((*p >= '0' && *p <= '9') || ((*p == '-' || *p == '+') && p == t))) return "not an integer";
  char *end;
  errno = 0;
  *out = strtol(t, &end, 10);
  if (end == t || *end) return "not an integer";
  if (errno == ERANGE) return "integer too large";
  return NULL;
}

/* NULL, or why t is not a finite real (decimal notation only: no nan, inf, hex) */
static const char *parse_real(const char *t, double *out) {
  if (!*t) return "empty value";
  for (const char *p = t; *p; p++)
    if (!((*p >= '0' && *p <= '9') || *p == '.' || *p == 'e' || *p == 'E' || *p == '+' || *p == '-'))
      return "not a finite real number";
  char *end;
  errno = 0;
  *out = strtod(t, &end);
  if (end == t || *end) return "not a real number";
  if (errno == ERANGE || !isfinite(*out)) return "not representable as a double (overflow or underflow)";
  return NULL;
}

/* NULL, or why t is not "x y" / "x, y" */
static const char *parse_real2(const char *t, double out[2]) {
  char buf[MAX_LINE + 1], *tok[3];
  int n = 0, commas = 0;
  snprintf(buf, sizeof buf, "%s", t);
  for (char *p = buf; *p; p++)
    if (*p == ',') *p = ' ', commas++;
  if (commas > 1) return "expected two reals \"x y\" or \"x, y\"";
  for (char *p = buf; *p && n < 3;) {
    while (is_blank((unsigned char)*p)) p++;
    if (!*p) break;
    tok[n++] = p;
    while (*p && !is_blank((unsigned char)*p)) p++;
    if (*p) *p++ = 0;
  }
  if (n != 2) return n ? "expected two reals \"x y\" or \"x, y\"" : "empty value";
  for (int i = 0; i < 2; i++) {
    const char *why = parse_real(tok[i], &out[i]);
    if (why) return why;
  }
  return NULL;
}

/* index of t in "a|b|c", -1 if none */
static int enum_index(const char *choices, const char *t) {
  size_t n = strlen(t);
  int i = 0;
  for (const char *c = choices; *c; i++) {
    size_t len = strcspn(c, "|");
    if (len == n && memcmp(c, t, n) == 0) return i;
    c += len + (c[len] == '|');
  }
  return -1;
}

/* NULL, or why text is not a valid value of key k */
const char *config_parse_value(const FeastKeySpec *k, const char *text, Value *v) {
  const char *why = NULL;
  memset(v, 0, sizeof *v);
  switch (k->type) {
  case FEAST_KEY_INT:
    why = parse_int(text, &v->i);
    if (!why && !((double)v->i >= k->min && (double)v->i <= k->max)) why = "out of range";
    break;
  case FEAST_KEY_REAL:
    why = parse_real(text, &v->r[0]);
    if (!why && !(v->r[0] >= k->min && v->r[0] <= k->max)) why = "out of range";
    break;
  case FEAST_KEY_REAL2:
    why = parse_real2(text, v->r);
    if (!why && k->min < k->max)
      for (int i = 0; i < 2; i++)
        if (!(v->r[i] >= k->min && v->r[i] <= k->max)) why = "out of range";
    break;
  case FEAST_KEY_ENUM:
    v->e = enum_index(k->choices, text);
    if (v->e < 0) why = *text ? "not one of the choices" : "empty value";
    break;
  default: break; /* STRING, PATH: any text */
  }
  return why;
}

/* ---------------------------------------------------------------- suggestions */

/* Damerau (optimal string alignment) edit distance of the first DIST_LEN characters,
 * with three rolling rows: r2 = row i-2, r1 = row i-1, r0 = row i */
static int distance(const char *a, const char *b) {
  int n = (int)strnlen(a, DIST_LEN), m = (int)strnlen(b, DIST_LEN);
  int rows[3][DIST_LEN + 1], *r2 = rows[0], *r1 = rows[1], *r0 = rows[2];
  for (int j = 0; j <= m; j++) r1[j] = j;
  for (int i = 1; i <= n; i++) {
    r0[0] = i;
    for (int j = 1; j <= m; j++) {
      int best = r1[j - 1] + (a[i - 1] != b[j - 1]);
      if (r1[j] + 1 < best) best = r1[j] + 1;
      if (r0[j - 1] + 1 < best) best = r0[j - 1] + 1;
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && r2[j - 2] + 1 < best)
        best = r2[j - 2] + 1;
      r0[j] = best;
    }
    int *t = r2;
    r2 = r1, r1 = r0, r0 = t;
  }
  return r1[m];
}

/* 1 if b is closer to a than *bestd edits (then *bestd = that distance); the length
 * difference is a lower bound that skips most candidates cheaply */
static int closer(const char *a, const char *b, int *bestd) {
  int la = (int)strnlen(a, DIST_LEN), lb = (int)strnlen(b, DIST_LEN);
  if (abs(la - lb) >= *bestd) return 0;
  int d = distance(a, b);
  if (d >= *bestd) return 0;
  *bestd = d;
  return 1;
}

/* the valid key closest to section.key (section NULL: outside any section); in a known
 * section, its own keys first, else the very key in another section */
const char *config_suggest_key(const FeastConfig *cfg, const char *section, const char *key, char *buf, size_t n) {
  int best = 0, bestd = 1 << 30, known = section && config_section_known(cfg, section);
  char full[2 * MAX_NAME + 4], cand[2 * MAX_NAME + 4];
  snprintf(full, sizeof full, "%s.%s", section ? section : "", key);
  for (int k = 0; k < cfg->nkeys; k++) {
    const FeastKeySpec *spec = spec_at(cfg, k);
    int hit;
    if (!known && section) hit = closer(full, config_spec_name(cfg, k, NULL, cand, sizeof cand), &bestd);
    else if (!known || config_section_matches(spec->section, section)) hit = closer(key, spec->key, &bestd);
    else if ((hit = strcmp(key, spec->key) == 0 && bestd > 1)) bestd = 1; /* counts as one edit */
    if (hit) best = k;
  }
  return config_spec_name(cfg, best, known ? section : NULL, buf, n);
}

/* the valid section name closest to s */
const char *config_suggest_section(const FeastConfig *cfg, const char *s, char *buf, size_t n) {
  int bestd = 1 << 30;
  char cand[2 * MAX_NAME + 4];
  const char *dot = strchr(s, '.');
  snprintf(buf, n, "%s", spec_at(cfg, 0)->section);
  for (int k = 0; k < cfg->nkeys; k++) {
    const char *pattern = spec_at(cfg, k)->section;
    size_t p = config_pattern_prefix(pattern);
    if (p)
      snprintf(cand, sizeof cand, "%.*s%s", (int)p, pattern,
               dot && config_valid_part_name(dot + 1) ? dot + 1 : "NAME");
    else snprintf(cand, sizeof cand, "%s", pattern);
    if (closer(s, cand, &bestd)) snprintf(buf, n, "%s", cand);
  }
  return buf;
}

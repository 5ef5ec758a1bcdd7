/* Scalar expressions f(x, y, z) on muparser's C API (see feast/config/expr.h).
 *
 * muparser is C++; its C API catches every exception and keeps it in the handle: a failed
 * call returns 0 / does nothing, mupError() then reports it once (reading the flag clears
 * it), and mupGetErrorMsg/Pos/Token describe it. So every call here is followed by
 * mupError(). Two traps of that API (2.3.3): mupGetErrorMsg and mupGetErrorToken return
 * the same static buffer (copy the message before asking for the token), and they fill it
 * with sprintf, so a message quoting a long rest of the text overflows it (hence
 * FEAST_EXPR_MAX_LEN). Only mupCreate (operator new) could still throw, when out of memory.
 *
 * Compiling: mupSetExpr only stores the text. mupGetExprVarNum parses it with undefined
 * names allowed and lists every name used as a variable (syntax errors surface here); any
 * name but x, y, z and t is refused, and an expression with none is a constant. mupEvalMulti
 * then builds the bytecode and counts the results ("1, 2" has two). After that mupEval runs
 * the bytecode on the bound x, y and z without allocating. An expression that does not name
 * z has the bytecode it had before z was defined, so feast_expr_eval (z = 0) gives 2D
 * values bitwise as before. */
#include "feast/config/expr.h"
#include "feast/base/error.h"
#include <ctype.h>
#include <math.h>
#include <muParserDLL.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
  CLIP = 80,    /* characters of the expression quoted in a message */
  TOK_CLIP = 24 /* characters of an offending token quoted in a message */
};

struct FeastExpr {
  muParserHandle_t mu;
  double x, y, z, t; /* muparser's variables x, y, z and t point here */
  int constant;    /* uses none of x, y, z, t */
  int uses_time;   /* names t */
  int uses_z;      /* names z */
  double value; /* the value when constant */
  char *text;
  char *what;
};

/* the text for a message: at most CLIP characters, "..." where cut */
static const char *clip(const char *s, char buf[CLIP + 4]) {
  size_t n = strnlen(s, CLIP + 1);
  snprintf(buf, CLIP + 4, "%.*s%s", CLIP, s, n > CLIP ? "..." : "");
  return buf;
}

static int dup_string(const char *s, char **out) {
  size_t n = strlen(s) + 1;
  FEAST_CALL(FEAST_ALLOC(n, out));
  memcpy(*out, s, n);
  return 0;
}

/* 1-based position in text of muparser's 0-based error position, -1 if none; muparser
 * parses the text with a blank appended, so "one past the end" can be len + 1 there */
static int position(const char *text, int mupos) {
  int len = (int)strlen(text);
  if (mupos < 0) return -1;
  return mupos + 1 > len + 1 ? len + 1 : mupos + 1;
}

/* " at position N" or "" */
static const char *at(int pos, char buf[32]) {
  if (pos > 0) snprintf(buf, 32, " at position %d", pos);
  else buf[0] = 0;
  return buf;
}

/* muparser's last error as one short reason: its message with the quoted token clipped and
 * its own (0-based) position removed, the token appended where the message lacks it
 * ("Missing parenthesis" -> "missing parenthesis ')'"); *pos = the 1-based position */
static void mu_reason(muParserHandle_t mu, const char *text, char *out, size_t size, int *pos) {
  char msg[2048 + 8], tok[2048 + 8], ctok[TOK_CLIP + 4], quoted[2048 + 16];
  snprintf(msg, sizeof msg, "%s", mupGetErrorMsg(mu)); /* before the token: same buffer */
  *pos = position(text, mupGetErrorPos(mu));
  snprintf(tok, sizeof tok, "%s", mupGetErrorToken(mu));
  snprintf(quoted, sizeof quoted, "\"%s\"", tok);
  size_t n = strlen(tok);
  while (n && isspace((unsigned char)tok[n - 1])) tok[--n] = 0;
  snprintf(ctok, sizeof ctok, "%.*s%s", TOK_CLIP, tok, n > TOK_CLIP ? "..." : "");

  /* the message with "TOKEN" -> 'CLIPPED' */
  char *q = tok[0] ? strstr(msg, quoted) : NULL;
  if (q) snprintf(out, size, "%.*s'%s'%s", (int)(q - msg), msg, ctok, q + strlen(quoted));
  else snprintf(out, size, "%s", msg);
  /* without muparser's position, trailing '.' and blanks */
  static const char *const posfrag[] = {" found at position", " at expression position", " at position",
                                        " (position:"};
  for (size_t i = 0; i < sizeof posfrag / sizeof posfrag[0]; i++) {
    char *p = strstr(out, posfrag[i]);
    if (p) *p = 0;
  }
  n = strlen(out);
  while (n && (out[n - 1] == '.' || out[n - 1] == '!' || isspace((unsigned char)out[n - 1]))) out[--n] = 0;
  if (isupper((unsigned char)out[0]) && islower((unsigned char)out[1])) out[0] = (char)tolower(out[0]);
  if (!q && tok[0] && !strstr(out, tok)) snprintf(out + n, size - n, " '%s'", ctok);
  if (!out[0]) snprintf(out, size, "invalid expression");
}

/* FEAST_ERR_CONFIG for the pending muparser error of e */
static int mu_error(const FeastExpr *e, const char *doing) {
  char reason[2048 + 64], c[CLIP + 4], p[32];
  int pos;
  mu_reason(e->mu, e->text, reason, sizeof reason, &pos);
  FEAST_ERROR(FEAST_ERR_CONFIG, "%s = '%s': %s%s%s", e->what, clip(e->text, c), reason, at(pos, p), doing);
}

/* 1 if name is a variable an expression may use */
static int known_variable(const char *name) {
  return strcmp(name, "x") == 0 || strcmp(name, "y") == 0 || strcmp(name, "z") == 0 || strcmp(name, "t") == 0;
}

/* an error naming the first unknown variable (in the text, with its position, when
 * evaluating reports it; else the one muparser listed) */
static int unknown_variable(FeastExpr *e, const char *listed) {
  char name[TOK_CLIP + 4], c[CLIP + 4], p[32];
  int pos = -1;
  snprintf(name, sizeof name, "%.*s%s", TOK_CLIP, listed, strlen(listed) > TOK_CLIP ? "..." : "");
  mupEval(e->mu); /* undefined names are errors here, with their position */
  if (mupError(e->mu)) {
    const char *tok = mupGetErrorToken(e->mu);
    char first[TOK_CLIP + 4];
    size_t n = 0;
    while (tok[n] && (isalnum((unsigned char)tok[n]) || tok[n] == '_')) n++;
    snprintf(first, sizeof first, "%.*s", (int)n, tok);
    if (n && n <= TOK_CLIP && !known_variable(first)) {
      snprintf(name, sizeof name, "%s", first);
      pos = position(e->text, mupGetErrorPos(e->mu));
    }
  }
  FEAST_ERROR(FEAST_ERR_CONFIG, "%s = '%s': unknown variable '%s'%s (an expression may use x, y, z, t and pi)", e->what,
              clip(e->text, c), name, at(pos, p));
}

/* for muparser's "unexpected parenthesis '('" after a name other than x, y, z, t, pi (that
 * muparser took for a variable): "unknown function 'NAME'"; else the general message */
static int parse_error(const FeastExpr *e) {
  int pos = mupGetErrorPos(e->mu); /* 0-based, of the '(' */
  const char *t = e->text;
  if (strcmp(mupGetErrorToken(e->mu), "(") == 0 && pos > 0 && pos < (int)strlen(t) && t[pos] == '(') {
    int b = pos;
    while (b > 0 && (isalnum((unsigned char)t[b - 1]) || t[b - 1] == '_')) b--;
    char name[TOK_CLIP + 4], c[CLIP + 4];
    snprintf(name, sizeof name, "%.*s", pos - b, t + b);
    if (b < pos && pos - b <= TOK_CLIP && !known_variable(name) && strcmp(name, "pi") != 0)
      FEAST_ERROR(FEAST_ERR_CONFIG,
                  "%s = '%s': unknown function '%s' at position %d (see feast/config/expr.h for the functions)", e->what,
                  clip(e->text, c), name, b + 1);
  }
  return mu_error(e, "");
}

/* refuse muparser's assignment operator: "x = 1" would write x (comparisons "==" "<="
 * ">=" "!=" stay) */
static int check_no_assignment(const FeastExpr *e) {
  const char *t = e->text;
  for (size_t i = 0; t[i]; i++) {
    if (t[i] != '=') continue;
    if (t[i + 1] == '=') {
      i++;
      continue;
    }
    if (i > 0 && strchr("<>!", t[i - 1])) continue;
    char c[CLIP + 4];
    FEAST_ERROR(FEAST_ERR_CONFIG, "%s = '%s': assignment '=' at position %zu is not allowed (compare with '==')",
                e->what, clip(e->text, c), i + 1);
  }
  return 0;
}

/* the checks and the compilation of a created e */
static int compile(FeastExpr *e) {
  char c[CLIP + 4];
  const char *t = e->text;
  while (isspace((unsigned char)*t)) t++;
  FEAST_CHECK(*t, FEAST_ERR_CONFIG, "%s = '%s': empty expression", e->what, clip(e->text, c));
  FEAST_CHECK(strlen(e->text) <= FEAST_EXPR_MAX_LEN, FEAST_ERR_CONFIG,
              "%s = '%s': expression longer than %d characters", e->what, clip(e->text, c), FEAST_EXPR_MAX_LEN);
  FEAST_CALL(check_no_assignment(e));

  mupDefineVar(e->mu, "x", &e->x);
  if (mupError(e->mu)) return mu_error(e, " (defining x)");
  mupDefineVar(e->mu, "y", &e->y);
  if (mupError(e->mu)) return mu_error(e, " (defining y)");
  mupDefineVar(e->mu, "z", &e->z);
  if (mupError(e->mu)) return mu_error(e, " (defining z)");
  mupDefineVar(e->mu, "t", &e->t);
  if (mupError(e->mu)) return mu_error(e, " (defining t)");
  mupDefineConst(e->mu, "pi", M_PI);
  if (mupError(e->mu)) return mu_error(e, " (defining pi)");
  mupSetExpr(e->mu, e->text);
  if (mupError(e->mu)) return mu_error(e, "");

  /* names used as variables (parses; undefined names are listed, not errors) */
  int nvar = mupGetExprVarNum(e->mu);
  if (mupError(e->mu)) return parse_error(e);
  for (int i = 0; i < nvar; i++) {
    const char *name = NULL; /* muparser's static buffer */
    double *var = NULL;
    mupGetExprVar(e->mu, (unsigned)i, &name, &var);
    if (mupError(e->mu)) return mu_error(e, "");
    FEAST_CHECK(name, FEAST_ERR_INTERNAL, "%s: muparser lists no name for variable %d of %d", e->what, i, nvar);
    if (!known_variable(name)) return unknown_variable(e, name);
    if (strcmp(name, "t") == 0) e->uses_time = 1;
    if (strcmp(name, "z") == 0) e->uses_z = 1;
  }
  e->constant = nvar == 0;

  /* bytecode, and the number of results (at x = y = z = 0; values do not matter here) */
  int nresults = 0;
  double *results = mupEvalMulti(e->mu, &nresults);
  if (mupError(e->mu)) return mu_error(e, "");
  FEAST_CHECK(nresults == 1 && results, FEAST_ERR_CONFIG,
              "%s = '%s': %d comma-separated results, expected a single expression", e->what, clip(e->text, c),
              nresults);
  if (e->constant) {
    e->value = results[0];
    FEAST_CHECK(isfinite(e->value), FEAST_ERR_CONFIG, "%s = '%s': value is not finite (%g)", e->what,
                clip(e->text, c), e->value);
  }
  return 0;
}

int feast_expr_create(const char *text, const char *what, FeastExpr **e) {
  FEAST_CHECK(e, FEAST_ERR_ARG, "expr_create: NULL output pointer");
  *e = NULL;
  FEAST_CHECK(text, FEAST_ERR_ARG, "expr_create: NULL text");
  FeastExpr *ex;
  FEAST_CALL(FEAST_ALLOC(1, &ex));
  int st = dup_string(text, &ex->text);
  if (!st) st = dup_string(what && *what ? what : "expression", &ex->what);
  if (!st) {
    ex->mu = mupCreate(muBASETYPE_FLOAT);
    if (!ex->mu) st = feast_error_set(FEAST_ERR_MEM, __FILE__, __LINE__, "%s: cannot create a muparser parser", ex->what);
  }
  if (!st) st = compile(ex);
  if (st) {
    feast_expr_destroy(&ex);
    return st;
  }
  *e = ex;
  return 0;
}

/* FEAST_ERR_CONFIG for the non-finite value v at the point (x, y), or (x, y, z) when dim
 * is 3, and the time where the expression names t */
static int not_finite(const FeastExpr *e, double v, double x, double y, double z, int dim) {
  char c[CLIP + 4], pt[128], tm[48] = "";
  if (dim == 3) snprintf(pt, sizeof pt, "(x, y, z) = (%.9g, %.9g, %.9g)", x, y, z);
  else snprintf(pt, sizeof pt, "(x, y) = (%.9g, %.9g)", x, y);
  if (e->uses_time) snprintf(tm, sizeof tm, ", t = %.9g", e->t);
  FEAST_ERROR(FEAST_ERR_CONFIG, "%s = '%s': value is not finite (%g) at %s%s", e->what, clip(e->text, c), v, pt, tm);
}

/* the value at (x, y, z); dim (2 or 3) only chooses how a message names the point */
static int eval_point(FeastExpr *e, double x, double y, double z, int dim, double *value) {
  FEAST_CHECK(e && value, FEAST_ERR_ARG, "expr_eval: NULL argument");
  if (e->constant) {
    *value = e->value;
    return 0;
  }
  e->x = x, e->y = y, e->z = z;
  double v = mupEval(e->mu);
  if (mupError(e->mu)) return mu_error(e, "");
  if (!isfinite(v)) return not_finite(e, v, x, y, z, dim);
  *value = v;
  return 0;
}

int feast_expr_eval(FeastExpr *e, double x, double y, double *value) { return eval_point(e, x, y, 0.0, 2, value); }

int feast_expr_eval3(FeastExpr *e, double x, double y, double z, double *value) {
  return eval_point(e, x, y, z, 3, value);
}

int feast_expr_is_constant(const FeastExpr *e) { return e && e->constant; }

int feast_expr_uses_time(const FeastExpr *e) { return e && e->uses_time; }
int feast_expr_uses_z(const FeastExpr *e) { return e && e->uses_z; }

void feast_expr_set_time(FeastExpr *e, double t) {
  if (e) e->t = t;
}

const char *feast_expr_text(const FeastExpr *e) { return e ? e->text : ""; }

void feast_expr_destroy(FeastExpr **e) {
  if (!e || !*e) return;
  FeastExpr *x = *e;
  if (x->mu) mupRelease(x->mu);
  free(x->text);
  free(x->what);
  free(x);
  *e = NULL;
}

int feast_expr_from_config(const FeastConfig *cfg, const char *name, FeastExpr **e) {
  FEAST_CHECK(e, FEAST_ERR_ARG, "expr_from_config: NULL output pointer");
  *e = NULL;
  FEAST_CHECK(cfg && name, FEAST_ERR_ARG, "expr_from_config: NULL argument");
  const char *text;
  FEAST_CALL(feast_config_get_string(cfg, name, &text));
  const char *origin = feast_config_origin(cfg, name);
  char what[512];
  if (strcmp(origin, "default") == 0) snprintf(what, sizeof what, "%s (default)", name);
  else snprintf(what, sizeof what, "%s: %s", origin, name);
  return feast_expr_create(text, what, e);
}

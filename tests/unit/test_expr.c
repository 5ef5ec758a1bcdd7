/* Expressions f(x, y, z) (feast/config/expr.h, muparser): values against C math, constants,
 * every error class with its message (what, text, reason, position), non-finite values, the
 * config origin file:line in messages; the variable z (feast_expr_eval3 against C, z counts
 * as a variable, feast_expr_eval is z = 0 and bitwise feast_expr_eval3 there). */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include "feast/config/config.h"
#include "feast/base/error.h"
#include "feast/config/expr.h"
#include "feast_test.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef double (*Fn)(double x, double y);
static double f_dfg(double x, double y) { return 4 * 0.3 * y * (0.41 - y) / (0.41 * 0.41); }
static double f_sincos(double x, double y) { return sin(M_PI * x) * cos(M_PI * y); }
static double f_ternary(double x, double y) { return x < 0.5 ? 1.0 + y : -2.0 * x; }
static double f_pow(double x, double y) { return pow(x, 3) - pow(2, pow(3, 2)) * y; }
static double f_negpow(double x, double y) { return -(x * x); }
static double f_funcs(double x, double y) {
  return exp(-x) + log(2 + y) + sqrt(1 + x * x) + fabs(x - y) + tan(0.3 * x) + fmin(fmin(x, y), 0.25) +
         fmax(x, y);
}
static double f_logic(double x, double y) { return (x <= 0.5 && y >= 0.2) ? 3 : (x != y) * 7.0; }
static double f_x(double x, double y) { return x; }
static double f_y(double x, double y) { return y; }

/* text -> value at a set of points, against C */
static void test_values(void) {
  static const struct {
    const char *text;
    Fn f;
  } cases[] = {
      {"4*0.3*y*(0.41-y)/0.41^2", f_dfg},
      {"sin(pi*x)*cos(pi*y)", f_sincos},
      {"x < 0.5 ? 1 + y : -2*x", f_ternary},
      {"x^3 - 2^3^2*y", f_pow}, /* ^ is right-associative: 2^9 */
      {"-x^2", f_negpow},       /* ^ binds tighter than unary minus */
      {"exp(-x) + ln(2+y) + sqrt(1+x^2) + abs(x-y) + tan(0.3*x) + min(x, y, 0.25) + max(x, y)", f_funcs},
      {"(x <= 0.5 && y >= 0.2) ? 3 : (x != y)*7", f_logic},
      {"x", f_x}, /* a single-token expression (muparser's shortcut path) */
      {" y ", f_y},
  };
  static const double pts[][2] = {{0, 0}, {0.25, 0.2}, {0.5, 0.41}, {0.75, -0.3}, {2.2, 0.1}, {-1.5, 3}};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    FeastExpr *e = NULL;
    CHECK_OK(feast_expr_create(cases[c].text, "test", &e));
    if (!e) continue;
    CHECK(!feast_expr_is_constant(e));
    CHECK(strcmp(feast_expr_text(e), cases[c].text) == 0);
    for (size_t p = 0; p < sizeof pts / sizeof pts[0]; p++) {
      double v = NAN, x = pts[p][0], y = pts[p][1];
      CHECK_OK(feast_expr_eval(e, x, y, &v));
      CHECK_CLOSE(v, cases[c].f(x, y), 1e-14);
    }
    feast_expr_destroy(&e);
    CHECK(e == NULL);
  }
}

static void test_constants(void) {
  static const struct {
    const char *text;
    double value;
  } cases[] = {{"pi", M_PI}, {"2*pi/3", 2 * M_PI / 3}, {"1e-3 + 2", 2.001}, {"sqrt(2)^2 == 2 ? 1 : 0", 0},
               {"max(1, 4, 2)", 4}, {"0.3", 0.3}};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    FeastExpr *e = NULL;
    double v = NAN;
    CHECK_OK(feast_expr_create(cases[c].text, "const", &e));
    CHECK(feast_expr_is_constant(e));
    CHECK_OK(feast_expr_eval(e, 1e300, -7, &v)); /* the point does not matter */
    CHECK(v == cases[c].value);
    feast_expr_destroy(&e);
  }
  /* a name counts as used even where it cancels */
  FeastExpr *e = NULL;
  CHECK_OK(feast_expr_create("0*x + 1", "c", &e));
  CHECK(!feast_expr_is_constant(e));
  feast_expr_destroy(&e);
  CHECK_OK(feast_expr_create("y - y", "c", &e));
  CHECK(!feast_expr_is_constant(e));
  feast_expr_destroy(&e);
  CHECK(!feast_expr_is_constant(NULL));
  feast_expr_destroy(&e); /* NULL-safe */
  feast_expr_destroy(NULL);
}

/* create must fail with FEAST_ERR_CONFIG and a message containing every needle */
static void expect_error(const char *text, const char *const needles[]) {
  FeastExpr *e = (FeastExpr *)1;
  int st = feast_expr_create(text, "run.ini:7: grid.dirichlet", &e);
  CHECK(st == FEAST_ERR_CONFIG);
  CHECK(e == NULL);
  const char *m = feast_error_message();
  CHECK(strchr(m, '\n') == NULL);
  for (int i = 0; needles[i]; i++)
    if (!strstr(m, needles[i])) {
      CHECK(strstr(m, needles[i]) != NULL);
      fprintf(stderr, "  expression '%s': message lacks \"%s\": %s\n", text, needles[i], m);
    }
  feast_error_clear();
}
#define EXPECT_ERROR(text, ...) expect_error(text, (const char *const[]){__VA_ARGS__, NULL})

static void test_errors(void) {
  const char *w = "run.ini:7: grid.dirichlet = ";
  /* syntax: muparser's reason, our 1-based position */
  EXPECT_ERROR("sin(x", w, "'sin(x'", "missing parenthesis ')' at position 6");
  EXPECT_ERROR("sin(x))", "'sin(x))'", "unexpected parenthesis ')' at position 7");
  EXPECT_ERROR("x +* 2", "unexpected operator '*' at position 4");
  EXPECT_ERROR("3x", "unexpected variable 'x' at position 2");
  EXPECT_ERROR("sin(1, 2)", "too many parameters for function 'sin' at position");
  EXPECT_ERROR("x > 0 ? 1", "if-then-else operator is missing an else clause");
  EXPECT_ERROR("x;y", "unexpected token ';y' at position 2");
  EXPECT_ERROR("foo(x)", "'foo(x)'", "unknown function 'foo' at position 1");
  EXPECT_ERROR("2*Sin(x)", "unknown function 'Sin' at position 3");
  EXPECT_ERROR("x(1)", "unexpected parenthesis '(' at position 2");
  /* unknown names, with the position of the first in the text */
  EXPECT_ERROR("x + w", w, "unknown variable 'w' at position 5 (an expression may use x, y, z, t and pi)");
  EXPECT_ERROR("b*t + a", "unknown variable 'b' at position 1");
  EXPECT_ERROR("nan", "unknown variable 'nan'");
  EXPECT_ERROR("sin", "unknown variable 'sin'");
  /* empty, several results, assignment, too long */
  EXPECT_ERROR("", w, "''", "empty expression");
  EXPECT_ERROR("   ", "empty expression");
  EXPECT_ERROR("1, 2", "'1, 2'", "2 comma-separated results, expected a single expression");
  EXPECT_ERROR("x, y, 3", "3 comma-separated results");
  EXPECT_ERROR("x<1 ? 2 : 3, 4", "2 comma-separated results");
  EXPECT_ERROR("(1, 2)", "function arguments used without a function at position 7");
  EXPECT_ERROR("x = 3", "assignment '=' at position 3 is not allowed");
  EXPECT_ERROR("(y=1)+x", "assignment '=' at position 3");
  /* a long rest of the text in muparser's message is clipped, and so is the text */
  char text[FEAST_EXPR_MAX_LEN + 2];
  memset(text, 'a', sizeof text - 1);
  text[sizeof text - 1] = 0;
  EXPECT_ERROR(text, "expression longer than 1000 characters", "aaa...'");
  text[FEAST_EXPR_MAX_LEN] = 0;
  text[0] = '$';
  EXPECT_ERROR(text, "unexpected token '$aaaaaaaaaaaaaaaaaaaaaaa...' at position 1");
  /* a constant that is not finite is found at create */
  EXPECT_ERROR("1/0", "'1/0'", "value is not finite (inf)");
  EXPECT_ERROR("sqrt(-1)", "value is not finite");
  /* arguments */
  FeastExpr *e = NULL;
  double v;
  CHECK(feast_expr_create(NULL, "w", &e) == FEAST_ERR_ARG);
  feast_error_clear();
  CHECK(feast_expr_create("x", "w", NULL) == FEAST_ERR_ARG);
  feast_error_clear();
  CHECK(feast_expr_eval(NULL, 0, 0, &v) == FEAST_ERR_ARG);
  feast_error_clear();
  CHECK_OK(feast_expr_create("x", NULL, &e)); /* what defaults to "expression" */
  CHECK(feast_expr_eval(e, 0, 0, NULL) == FEAST_ERR_ARG);
  feast_error_clear();
  feast_expr_destroy(&e);
}

/* a value that is not finite at a point names what, the text and the point; the object
 * stays usable */
static void test_not_finite(void) {
  FeastExpr *e = NULL;
  double v = 0;
  CHECK_OK(feast_expr_create("1/x", "bc.ini:3: boundary.lid.u", &e));
  CHECK_OK(feast_expr_eval(e, 4, 0, &v));
  CHECK(v == 0.25);
  v = 42;
  CHECK(feast_expr_eval(e, 0, 0.5, &v) == FEAST_ERR_CONFIG);
  CHECK(v == 42); /* untouched */
  CHECK(strstr(feast_error_message(),
               "bc.ini:3: boundary.lid.u = '1/x': value is not finite (inf) at (x, y) = (0, 0.5)") != NULL);
  feast_error_clear();
  CHECK_OK(feast_expr_eval(e, -2, 0, &v));
  CHECK(v == -0.5);
  feast_expr_destroy(&e);

  CHECK_OK(feast_expr_create("log(x) + y", "f", &e));
  CHECK(feast_expr_eval(e, -1, 0.25, &v) == FEAST_ERR_CONFIG);
  CHECK(strstr(feast_error_message(), "f = 'log(x) + y': value is not finite") != NULL);
  CHECK(strstr(feast_error_message(), "at (x, y) = (-1, 0.25)") != NULL);
  feast_error_clear();
  CHECK_OK(feast_expr_eval(e, 1, 0.25, &v));
  CHECK(v == 0.25);
  feast_expr_destroy(&e);

  CHECK_OK(feast_expr_create("exp(x)", "f", &e));
  CHECK(feast_expr_eval(e, 1000, 0, &v) == FEAST_ERR_CONFIG); /* overflow */
  feast_error_clear();
  feast_expr_destroy(&e);
}

/* feast_expr_from_config: the value of a STRING key, messages with file:line and key */
static void test_config(void) {
  char dir[] = "/tmp/feast_expr_XXXXXX", path[256], where[300];
  CHECK(mkdtemp(dir) != NULL);
  snprintf(path, sizeof path, "%s/run.ini", dir);
  const char *bodies[] = {"# expressions\n[grid]\nlevel = 2\ndirichlet = 4*0.3*y*(0.41-y)/0.41^2\n",
                          "[grid]\n\n\ndirichlet = sin(x\n", "[grid]\ndirichlet = x + w\n"};
  for (int b = 0; b < 3; b++) {
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f) break;
    fputs(bodies[b], f);
    fclose(f);
    FeastConfig *cfg = NULL;
    FeastExpr *e = NULL;
    CHECK_OK(feast_config_create(&cfg));
    CHECK_OK(feast_config_read(cfg, path));
    int st = feast_expr_from_config(cfg, "grid.dirichlet", &e);
    if (b == 0) {
      double v = 0;
      CHECK(st == 0);
      CHECK_OK(feast_expr_eval(e, 0, 0.205, &v));
      CHECK_CLOSE(v, 0.3, 1e-14);
      /* a command-line override */
      CHECK_OK(feast_config_override(cfg, "grid.dirichlet=x*("));
      feast_expr_destroy(&e);
      CHECK(feast_expr_from_config(cfg, "grid.dirichlet", &e) == FEAST_ERR_CONFIG);
      CHECK(strstr(feast_error_message(), "command line: grid.dirichlet = 'x*(': ") != NULL);
      feast_error_clear();
    } else {
      CHECK(st == FEAST_ERR_CONFIG);
      snprintf(where, sizeof where, "%s:%d: grid.dirichlet = '%s'", path, b == 1 ? 4 : 2,
               b == 1 ? "sin(x" : "x + w");
      CHECK(strstr(feast_error_message(), where) != NULL);
      CHECK(strstr(feast_error_message(), b == 1 ? "at position 6" : "unknown variable 'w' at position 5"));
      if (!strstr(feast_error_message(), where)) fprintf(stderr, "  want \"%s\" in: %s\n", where, feast_error_message());
      feast_error_clear();
    }
    CHECK(e == NULL);
    feast_config_destroy(&cfg);
  }
  /* the schema default of grid.dirichlet is "all": not an expression */
  FeastConfig *cfg = NULL;
  FeastExpr *e = NULL;
  CHECK_OK(feast_config_create(&cfg));
  CHECK(feast_expr_from_config(cfg, "grid.dirichlet", &e) == FEAST_ERR_CONFIG);
  CHECK(strstr(feast_error_message(), "grid.dirichlet (default) = 'all': unknown variable 'all'") != NULL);
  feast_error_clear();
  CHECK(feast_expr_from_config(cfg, "grid.no_such_key", &e) != 0); /* the config's error */
  feast_error_clear();
  feast_config_destroy(&cfg);
  remove(path);
  rmdir(dir);
}

/* many evaluations (the per-quadrature-point use) agree with C */
/* the time t: 0 until set, then the value set; the DFG 2D-3 inflow; a t-only expression
 * is not constant; a non-finite value names t */
static void test_time(void) {
  FeastExpr *e = NULL, *c = NULL;
  CHECK_OK(feast_expr_create("4*1.5*sin(pi*t/8)*y*(0.41-y)/0.41^2", "inflow", &e));
  CHECK_OK(feast_expr_create("x + y", "steady", &c));
  if (!e || !c) return;
  CHECK(feast_expr_uses_time(e) && !feast_expr_is_constant(e));
  CHECK(!feast_expr_uses_time(c));
  double v = -1;
  CHECK_OK(feast_expr_eval(e, 0.0, 0.2, &v));
  CHECK(v == 0.0);
  for (double t = 0.5; t <= 8.0; t += 1.25) {
    feast_expr_set_time(e, t);
    CHECK_OK(feast_expr_eval(e, 0.0, 0.2, &v));
    CHECK_CLOSE(v, 4 * 1.5 * sin(M_PI * t / 8) * 0.2 * 0.21 / (0.41 * 0.41), 1e-14);
  }
  feast_expr_destroy(&e);
  feast_expr_destroy(&c);
  CHECK_OK(feast_expr_create("t", "t alone", &e));
  if (e) {
    CHECK(!feast_expr_is_constant(e) && feast_expr_uses_time(e));
    feast_expr_set_time(e, 2.5);
    CHECK_OK(feast_expr_eval(e, 7, 7, &v));
    CHECK(v == 2.5);
    feast_expr_destroy(&e);
  }
  CHECK_OK(feast_expr_create("1/(t-1)", "pole", &e));
  if (e) {
    feast_expr_set_time(e, 1.0);
    CHECK(feast_expr_eval(e, 0, 0, &v) == FEAST_ERR_CONFIG);
    CHECK(strstr(feast_error_message(), "t = 1") != NULL);
    feast_error_clear();
    feast_expr_destroy(&e);
  }
}

static void test_many(void) {
  FeastExpr *e = NULL;
  CHECK_OK(feast_expr_create("sin(pi*x)*cos(pi*y)", "many", &e));
  if (!e) return;
  double err = 0;
  for (int i = 0; i < 200000; i++) {
    double x = i * 1e-5, y = 1 - x, v = 0;
    if (feast_expr_eval(e, x, y, &v)) break;
    err = fmax(err, fabs(v - f_sincos(x, y)));
  }
  CHECK(err <= 1e-15);
  feast_expr_destroy(&e);
}

/* the variable z: values of feast_expr_eval3 against C; z counts as a variable for
 * is_constant; feast_expr_eval is z = 0 (also after an eval3 at another z), bitwise
 * feast_expr_eval3 at z = 0 for every 2D case above; a non-finite value names (x, y, z) */
static double f_lid3(double x, double y, double z) {
  (void)y;
  return 16 * x * (1 - x) * z * (1 - z);
}
static double f_mix3(double x, double y, double z) { return sin(M_PI * x) * cos(M_PI * y) * exp(-z) + pow(z, 3); }
static void test_z(void) {
  static const struct {
    const char *text;
    double (*f)(double, double, double);
  } cases[] = {{"16*x*(1-x)*z*(1-z)", f_lid3}, {"sin(pi*x)*cos(pi*y)*exp(-z) + z^3", f_mix3}};
  static const double pts[][3] = {{0.5, 0.25, 0.5}, {0.25, 1, 0.75}, {1, 0, 0.125}, {-0.3, 2.2, -1.5}};
  FeastExpr *e = NULL;
  double v = NAN, w = NAN;
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    CHECK_OK(feast_expr_create(cases[c].text, "z", &e));
    if (!e) continue;
    CHECK(!feast_expr_is_constant(e) && !feast_expr_uses_time(e));
    for (size_t p = 0; p < sizeof pts / sizeof pts[0]; p++) {
      CHECK_OK(feast_expr_eval3(e, pts[p][0], pts[p][1], pts[p][2], &v));
      CHECK_CLOSE(v, cases[c].f(pts[p][0], pts[p][1], pts[p][2]), 1e-14);
    }
    if (c == 0) {
      CHECK_OK(feast_expr_eval3(e, 0.5, 0.9, 0.5, &v));
      CHECK(v == 1.0); /* the lid's centre, exactly */
    }
    feast_expr_destroy(&e);
  }
  /* z alone, 0*z: variables; eval after eval3 at z = 5 is z = 0 again */
  CHECK_OK(feast_expr_create("0*z + 1", "c", &e));
  CHECK(e && !feast_expr_is_constant(e));
  feast_expr_destroy(&e);
  CHECK_OK(feast_expr_create("z", "z alone", &e));
  if (e) {
    CHECK(!feast_expr_is_constant(e));
    CHECK_OK(feast_expr_eval3(e, 1, 2, 5, &v));
    CHECK(v == 5.0);
    CHECK_OK(feast_expr_eval(e, 1, 2, &v));
    CHECK(v == 0.0);
    feast_expr_destroy(&e);
  }
  /* every 2D case: eval and eval3 at z = 0 give the same bits, z elsewhere changes nothing */
  static const char *const texts[] = {"4*0.3*y*(0.41-y)/0.41^2", "sin(pi*x)*cos(pi*y)", "x < 0.5 ? 1 + y : -2*x",
                                      "x^3 - 2^3^2*y", "exp(-x) + ln(2+y) + sqrt(1+x^2) + abs(x-y) + tan(0.3*x)", "x"};
  int differ = 0;
  for (size_t c = 0; c < sizeof texts / sizeof texts[0]; c++) {
    CHECK_OK(feast_expr_create(texts[c], "2d", &e));
    if (!e) continue;
    for (int i = 0; i < 1000; i++) {
      const double x = -1 + 0.00317 * i, y = 2 - 0.003 * i;
      double a = 0, b = 1, d = 2;
      CHECK_OK(feast_expr_eval(e, x, y, &a));
      CHECK_OK(feast_expr_eval3(e, x, y, 0.0, &b));
      CHECK_OK(feast_expr_eval3(e, x, y, 0.7 * i, &d));
      differ += memcmp(&a, &b, sizeof a) != 0 || memcmp(&a, &d, sizeof a) != 0;
    }
    feast_expr_destroy(&e);
  }
  CHECK(differ == 0);
  /* a z-dependent expression differs between eval and eval3 at z != 0 (the test can fail) */
  CHECK_OK(feast_expr_create("x + y*z", "xyz", &e));
  if (e) {
    CHECK_OK(feast_expr_eval(e, 1, 2, &v));
    CHECK_OK(feast_expr_eval3(e, 1, 2, 3, &w));
    CHECK(v == 1.0 && w == 7.0);
    feast_expr_destroy(&e);
  }
  /* non-finite: the point (x, y, z), with t where named; eval names (x, y) */
  CHECK_OK(feast_expr_create("1/z", "box.ini:4: boundary.lid.w", &e));
  if (e) {
    v = 42;
    CHECK(feast_expr_eval3(e, 0.5, 0.25, 0, &v) == FEAST_ERR_CONFIG && v == 42);
    CHECK(strstr(feast_error_message(), "box.ini:4: boundary.lid.w = '1/z': value is not finite (inf) at (x, y, z) = "
                                        "(0.5, 0.25, 0)") != NULL);
    feast_error_clear();
    CHECK(feast_expr_eval(e, 0.5, 0.25, &v) == FEAST_ERR_CONFIG);
    CHECK(strstr(feast_error_message(), "at (x, y) = (0.5, 0.25)") != NULL);
    feast_error_clear();
    CHECK_OK(feast_expr_eval3(e, 0, 0, 4, &v));
    CHECK(v == 0.25);
    feast_expr_destroy(&e);
  }
  CHECK_OK(feast_expr_create("t/(z-1)", "tz", &e));
  if (e) {
    feast_expr_set_time(e, 2);
    CHECK(feast_expr_eval3(e, 0, 0, 1, &v) == FEAST_ERR_CONFIG);
    CHECK(strstr(feast_error_message(), "at (x, y, z) = (0, 0, 1), t = 2") != NULL);
    feast_error_clear();
    feast_expr_destroy(&e);
  }
  CHECK(feast_expr_eval3(NULL, 0, 0, 0, &v) == FEAST_ERR_ARG);
  feast_error_clear();
}

static int run(void) {
  test_values();
  test_constants();
  test_errors();
  test_not_finite();
  test_config();
  test_time();
  test_many();
  test_z();
  return 0;
}

FEAST_TEST_MAIN(run)

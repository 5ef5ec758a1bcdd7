/* Config schema and malformed input: feastc's schema table (every key unique,
 * documented, with a sane range and a default its own typed getter accepts), the schema
 * composed per config from each layer's key table, the Markdown table of the keys; and
 * malformed files, overrides and getter calls, each with its error code and a one-line
 * message naming file:line, key and value (out of range, wrong type, not a choice,
 * syntax errors, unknown keys and sections with a "did you mean" suggestion).
 * Well-formed input: test_config.c; includes: test_config_include.c. Temporary files
 * live under /tmp. */
#include "apps/app.h"
#include "apps/problem.h"
#include "navier_stokes/ns_keys.h"
#include "solvers/krylov.h"
#include "scarc/scarc.h"
#include "scarc/scarc_keys.h"
#include "scarc/scarc_config.h"
#include "config_testing.h"

/* read text as a config file and expect an error */
static void bad_file(const char *text, size_t len, int code, const char *const *needles) {
  char path[256];
  write_file(NULL, text, len, path, sizeof path);
  FeastConfig *cfg = NULL;
  CHECK_OK(feast_app_config_create(&cfg));
  expect_error(feast_config_read(cfg, path), code, path, needles, text);
  feast_config_destroy(&cfg);
  unlink(path);
}

/* apply an override to a fresh config and expect an error */
static void bad_override(const char *assignment, int code, const char *const *needles) {
  FeastConfig *cfg = NULL;
  CHECK_OK(feast_app_config_create(&cfg));
  expect_error(feast_config_override(cfg, assignment), code, "", needles, assignment);
  feast_config_destroy(&cfg);
}

/* ---------------------------------------------------------------- the schema */

static FeastConfig *schema; /* feastc's: every layer's keys */

static const FeastKeySpec *key_spec(int k) { return feast_config_key_spec(schema, k); }

static int find_key(const char *section, const char *key) {
  for (int k = 0; k < feast_config_key_count(schema); k++)
    if (!strcmp(key_spec(k)->section, section) && !strcmp(key_spec(k)->key, key)) return k;
  return -1;
}

/* every key: unique, documented, sane range, a default that its own getter accepts */
static void test_schema(void) {
  CHECK(feast_config_key_count(schema) == 141); /* 140 + run.max_device_memory; 139 + solver.residency; 136 + the 3D flow keys boundary.NAME.w, problem.force_z, exact_w; 18 [pressure] ScaRC keys + 117: continuation.grid_sequencing + 116: linear.pcd_supg + 115: linear.pcd_boundary, continuation.pseudo_dt, pseudo_switch, pseudo_max_steps, output.wall_shear_zeros_on + 110: linear.pcd_viscous_scale, pcd_rotation + 108: linear.fgmres_basis + 107: nonlinear.anderson_depth + 106: velocity.newton_reaction + 105: stabilisation.supg_scale, pspg_scale, viscous_residual + 102: continuation.method, continuation_stall_steps, _stall_factor, _factor, _rtol, _max_stages + 96: nonlinear.step_reference, linear_forcing, nonlinear_switch + 93: velocity.solver, pressure.solver, rtol, max_iterations, linear.factorisation + 88: 75 + solver.local_gpu_min_nodes + the time-dependent run: time.scheme, dt, start, end, tau_dt, steps_max, initial.u, v, stationary, output.timeseries, vtk_every, series_from; 75 = main's 55 + solver.coarse_solver, linear.schur, linear.restart, the four DFG output keys, output.checkpoint(_interval), solver.residual_replacement(_drop), solver.smoother_step, debug.reduction_latency_us, solver.local_fixed_cycles, velocity.fixed_iterations, solver.initial_guess, problem.convection, solver.overlap, solver.local_framed_min_nodes, solver.coarse_stabilisation */
  FeastConfig *cfg = NULL;
  CHECK_OK(feast_app_config_create(&cfg));
  for (int k = 0; k < feast_config_key_count(schema); k++) {
    const FeastKeySpec *s = key_spec(k);
    char name[256];
    CHECK(find_key(s->section, s->key) == k); /* no duplicates */
    CHECK(s->help && strlen(s->help) > 10);
    CHECK(s->min <= s->max);
    CHECK((s->type == FEAST_KEY_ENUM) == (s->choices != NULL));
    snprintf(name, sizeof name, "%s.%s", strcmp(s->section, "boundary.*") ? s->section : "boundary.x", s->key);
    const char *text = NULL;
    if (!s->default_value) {
      CHECK(feast_config_get_string(cfg, name, &text) == FEAST_ERR_CONFIG);
      feast_error_clear();
      continue;
    }
    CHECK_OK(feast_config_get_string(cfg, name, &text));
    CHECK(text && !strcmp(text, s->default_value));
    long i;
    double r, r2[2];
    int e;
    char buf[64];
    switch (s->type) {
    case FEAST_KEY_INT: CHECK_OK(feast_config_get_int(cfg, name, &i)); CHECK(i >= s->min && i <= s->max); break;
    case FEAST_KEY_REAL: CHECK_OK(feast_config_get_real(cfg, name, &r)); CHECK(r >= s->min && r <= s->max); break;
    case FEAST_KEY_ENUM: CHECK_OK(feast_config_get_enum(cfg, name, &e)); CHECK(e >= 0); break;
    case FEAST_KEY_PATH: CHECK_OK(feast_config_get_path(cfg, name, buf, sizeof buf)); break;
    case FEAST_KEY_REAL2: CHECK_OK(feast_config_get_real2(cfg, name, r2)); break;
    default: break;
    }
    CHECK(!strcmp(feast_config_origin(cfg, name), "default"));
    CHECK(!feast_config_is_set(cfg, name));
  }
  /* the keys other modules read, with the types they read them as */
  const struct {
    const char *section, *key;
    FeastKeyType type;
  } used[] = {{"problem", "type", FEAST_KEY_ENUM},          {"problem", "re", FEAST_KEY_REAL},
              {"grid", "file", FEAST_KEY_PATH},             {"grid", "level", FEAST_KEY_INT},
              {"grid", "dirichlet", FEAST_KEY_STRING},      {"boundary.*", "type", FEAST_KEY_ENUM},
              {"boundary.*", "center", FEAST_KEY_REAL2},    {"boundary.*", "radius", FEAST_KEY_REAL},
              {"solver", "coarse_max_dofs", FEAST_KEY_INT}, {"solver", "local_rtol", FEAST_KEY_REAL},
              {"output", "summary", FEAST_KEY_PATH},        {"run", "max_memory", FEAST_KEY_REAL},
              {"debug", "inject", FEAST_KEY_ENUM},          {"debug", "inject_rank", FEAST_KEY_INT}};
  for (size_t u = 0; u < sizeof used / sizeof used[0]; u++) {
    int k = find_key(used[u].section, used[u].key);
    CHECK(k >= 0 && key_spec(k)->type == used[u].type);
  }
  int k = find_key("solver", "rtol");
  CHECK(k >= 0 && key_spec(k)->min == 1e-16 && key_spec(k)->max == 1);
  k = find_key("grid", "file");
  CHECK(k >= 0 && key_spec(k)->default_value == NULL);
  feast_config_destroy(&cfg);
  CHECK(cfg == NULL);
}

/* the schema is composed per config: the core's keys, then each layer's table */
static void test_layers(void) {
  /* the core alone knows only its own keys */
  FeastConfig *cfg = NULL;
  CHECK_OK(feast_config_create(&cfg));
  CHECK(feast_config_key_count(cfg) == feast_core_keys.nkeys);
  for (int k = 0; k < feast_config_key_count(cfg); k++) {
    const char *sec = feast_config_key_spec(cfg, k)->section;
    CHECK(!strcmp(sec, "grid") || !strcmp(sec, "boundary.*") || !strcmp(sec, "output") || !strcmp(sec, "run") ||
          !strcmp(sec, "debug"));
  }
  CHECK(feast_config_key_spec(cfg, -1) == NULL && feast_config_key_spec(cfg, feast_core_keys.nkeys) == NULL);
  long i;
  CHECK_OK(feast_config_override(cfg, "grid.level=3"));
  expect_error(feast_config_override(cfg, "solver.rtol=1e-3"), FEAST_ERR_CONFIG, "",
               N("command line", "solver.rtol"), "core: no solver keys");
  expect_error(feast_config_get_int(cfg, "linear.max_iterations", &i), FEAST_ERR_ARG, "", N("linear.max_iterations"),
               "core: no linear keys");
  /* tables are added before any value is set */
  expect_error(feast_config_add_keys(cfg, scarc_config_keys()), FEAST_ERR_ARG, "", N("scarc", "after values"), "late table");
  feast_config_destroy(&cfg);
  /* each layer's table adds its keys; adding one again does nothing */
  CHECK_OK(feast_config_create(&cfg));
  CHECK_OK(feast_config_add_keys(cfg, scarc_config_keys()));
  CHECK_OK(feast_config_add_keys(cfg, scarc_config_keys()));
  CHECK(feast_config_key_count(cfg) == feast_core_keys.nkeys + scarc_config_keys()->nkeys);
  CHECK_OK(feast_config_override(cfg, "solver.rtol=1e-3"));
  expect_error(feast_config_override(cfg, "nonlinear.method=newton"), FEAST_ERR_CONFIG, "",
               N("nonlinear.method"), "scarc: no nonlinear keys");
  feast_config_destroy(&cfg);
  /* a key two tables declare is an error naming both */
  static const FeastKeySpec again[] = {
      {.section = "grid", .key = "level", .type = FEAST_KEY_INT, .default_value = "4", .max = 16,
       .help = "the core's grid.level declared a second time"}};
  static const FeastKeyTable twice = {"test", again, 1, NULL, 0};
  CHECK_OK(feast_config_create(&cfg));
  expect_error(feast_config_add_keys(cfg, &twice), FEAST_ERR_ARG, "", N("grid.level", "test", "feast"), "dup key");
  CHECK(feast_config_key_count(cfg) == feast_core_keys.nkeys);
  feast_config_destroy(&cfg);
  /* every layer's keys are in the application's schema, in the folder that reads them */
  const FeastKeyTable *tables[] = {&feast_core_keys, feast_app_keys(), scarc_config_keys(), ns_config_keys(),
                                   ns_pressure_scarc_keys()};
  int total = 0;
  for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++) {
    for (int k = 0; k < tables[t]->nkeys; k++) CHECK(find_key(tables[t]->keys[k].section, tables[t]->keys[k].key) >= 0);
    total += tables[t]->nkeys;
  }
  CHECK(total == feast_config_key_count(schema));
  CHECK(find_key("grid", "level") < feast_core_keys.nkeys && find_key("problem", "type") == feast_core_keys.nkeys);
  CHECK(find_key("problem", "re") >= feast_core_keys.nkeys + feast_app_keys()->nkeys + scarc_config_keys()->nkeys);
  /* problem.type's choices are the problem registry's names */
  const FeastKeySpec *type = key_spec(find_key("problem", "type"));
  char want[256];
  snprintf(want, sizeof want, "%s", feast_problem_names());
  for (char *c = want; *c; c++)
    if (*c == ' ') *c = '|';
  CHECK(type && type->choices && !strcmp(type->choices, want));
  CHECK(!strcmp(want, "poisson|stokes|navier-stokes"));
  /* the Krylov choices are methods of solvers/krylov.c's registry (ScaRC's "mg" is its
   * richardson: scarc_method_from_name; linear.krylov's auto the problem resolves); the tables
   * keep the subsets each place supports */
  const char *krylov_keys[][2] = {{"solver", "scarc_solver"}, {"velocity", "scarc_solver"}, {"linear", "krylov"}};
  for (int q = 0; q < 3; q++) {
    const FeastKeySpec *k = key_spec(find_key(krylov_keys[q][0], krylov_keys[q][1]));
    CHECK(k && k->choices);
    for (const char *c = k ? k->choices : ""; *c;) {
      char method[32], padded[160], all[160];
      size_t len = strcspn(c, "|");
      snprintf(method, sizeof method, "%.*s", (int)len, c);
      FeastKrylovMethod m = FEAST_KRYLOV_RICHARDSON;
      const int known = scarc_method_from_name(method, &m) == 0;
      feast_error_clear();
      snprintf(padded, sizeof padded, " %s ", known ? feast_krylov_method_name(m) : method);
      snprintf(all, sizeof all, " %s ", feast_krylov_methods());
      feast_test_checks++;
      /* linear.krylov = auto: resolved to a method by the problem (ns_krylov_choice) */
      if (!strstr(all, padded) && strcmp(method, "auto") != 0) {
        feast_test_failures++;
        fprintf(stderr, "%s.%s: choice '%s' is no method of solvers/krylov.c (%s)\n", k->section, k->key, method,
                feast_krylov_methods());
      }
      c += len + (c[len] == '|');
    }
  }
}

/* ---------------------------------------------------------------- bad input */

static void test_bad_files(void) {
  const struct {
    const char *text;
    int code;
    const char *const *needles;
  } cases[] = {
      {"[grid]\nfile = m\nlevel = 3\nlevel = 4\n", FEAST_ERR_CONFIG, N("@:4:", "duplicate", "grid.level", "line 3")},
      /* keys that moved out of [solver] (2026-12-02): one error naming the new place */
      {"[solver]\nnonlinear_rtol = 1e-6\n", FEAST_ERR_CONFIG,
       N("@:2:", "'solver.nonlinear_rtol' has moved", "'nonlinear.rtol'", "[nonlinear]")},
      {"[solver]\ntarget = cpu\ncontinuation = off\n", FEAST_ERR_CONFIG,
       N("@:3:", "'solver.continuation' has moved", "'continuation.method'", "[continuation]")},
      {"[solver]\nrtol = 1e-6\n[grid]\nlevel = 2\n[solver]\nrtol = 1e-7\n", FEAST_ERR_CONFIG,
       N("@:6:", "solver.rtol", "line 2")},
      {"[grid]\nlevle = 3\n", FEAST_ERR_CONFIG, N("@:2:", "'grid.levle'", "did you mean 'grid.level'")},
      {"[solver]\nrtoll = 1e-6\n", FEAST_ERR_CONFIG,
       N("@:2: unknown key 'solver.rtoll' (did you mean 'solver.rtol'?)")},
      {"[solver]\nmax_iteration = 5\n", FEAST_ERR_CONFIG, N("@:2:", "'solver.max_iterations'")},
      {"[solver]\nlevel = 5\n", FEAST_ERR_CONFIG, N("@:2:", "solver.level", "'grid.level'")},
      {"[grid]\nfile = m\n\n[solvr]\nrtol = 1\n", FEAST_ERR_CONFIG, N("@:4:", "[solvr]", "did you mean '[solver]'")},
      {"[Grid]\n", FEAST_ERR_CONFIG, N("@:1:", "'[grid]'")},
      {"[boundry.cyl]\n", FEAST_ERR_CONFIG, N("@:1:", "'[boundary.cyl]'")},
      {"[boundary.c yl]\n", FEAST_ERR_CONFIG, N("@:1:", "c yl")},
      {"[boundary.]\n", FEAST_ERR_CONFIG, N("@:1:", "boundary.")},
      {"[grid\nlevel = 3\n", FEAST_ERR_CONFIG, N("@:1:", "']'")},
      {"[]\nlevel = 3\n", FEAST_ERR_CONFIG, N("@:1:", "empty section")},
      {"[grid] level = 3\n", FEAST_ERR_CONFIG, N("@:1:", "after the section header")},
      {"level = 3\n[grid]\n", FEAST_ERR_CONFIG, N("@:1:", "'level'", "outside", "grid.level")},
      {"[grid]\nlevel 3\n", FEAST_ERR_CONFIG, N("@:2:", "level 3")},
      {"[grid]\nlevel # = 3\n", FEAST_ERR_CONFIG, N("@:2:", "key = value")},
      {"[grid]\n = 3\n", FEAST_ERR_CONFIG, N("@:2:", "empty key")},
      {"[grid]\nlevel = 17\n", FEAST_ERR_CONFIG, N("@:2:", "grid.level", "'17'", "[0, 16]")},
      {"[grid]\nlevel = -3\n", FEAST_ERR_CONFIG, N("@:2:", "grid.level", "-3")},
      {"[grid]\nlevel = 4.5\n", FEAST_ERR_CONFIG, N("@:2:", "grid.level", "4.5", "not an integer")},
      {"[grid]\nlevel = seven\n", FEAST_ERR_CONFIG, N("@:2:", "grid.level", "seven")},
      {"[grid]\nlevel = 5abc\n", FEAST_ERR_CONFIG, N("@:2:", "grid.level", "5abc")},
      {"[grid]\nlevel = 0x4\n", FEAST_ERR_CONFIG, N("@:2:", "0x4")},
      {"[grid]\nlevel = 3 4\n", FEAST_ERR_CONFIG, N("@:2:", "3 4")},
      {"[grid]\nlevel = 99999999999999999999\n", FEAST_ERR_CONFIG, N("@:2:", "grid.level", "99999999999999999999")},
      {"[grid]\nlevel =\n", FEAST_ERR_CONFIG, N("@:2:", "grid.level", "empty")},
      {"[grid]\nlevel = # nothing\n", FEAST_ERR_CONFIG, N("@:2:", "grid.level", "empty")},
      {"[solver]\nrtol = nan\n", FEAST_ERR_CONFIG, N("@:2:", "solver.rtol", "'nan'")},
      {"[solver]\nrtol = inf\n", FEAST_ERR_CONFIG, N("@:2:", "solver.rtol", "'inf'")},
      {"[solver]\nrtol = -infinity\n", FEAST_ERR_CONFIG, N("@:2:", "solver.rtol")},
      {"[solver]\nrtol = 1e999\n", FEAST_ERR_CONFIG, N("@:2:", "solver.rtol", "1e999")},
      {"[solver]\nrtol = 1e-400\n", FEAST_ERR_CONFIG, N("@:2:", "solver.rtol", "1e-400")},
      {"[solver]\nrtol = 0x1p-3\n", FEAST_ERR_CONFIG, N("@:2:", "solver.rtol", "0x1p-3")},
      {"[solver]\nrtol = 2\n", FEAST_ERR_CONFIG, N("@:2:", "solver.rtol", "[1e-16, 1]")},
      {"[solver]\nrtol = -1e-8\n", FEAST_ERR_CONFIG, N("@:2:", "-1e-8")},
      {"[solver]\nrtol = 1e-8.5\n", FEAST_ERR_CONFIG, N("@:2:", "1e-8.5")},
      {"[solver]\nmax_iterations = 0\n", FEAST_ERR_CONFIG, N("@:2:", "solver.max_iterations", "'0'")},
      {"[solver]\nmax_iterations = 1,000\n", FEAST_ERR_CONFIG, N("@:2:", "1,000")},
      {"[solver]\ndivergence_factor = 0.5\n", FEAST_ERR_CONFIG, N("@:2:", "solver.divergence_factor", "0.5")},
      {"[solver]\ntarget = tpu\n", FEAST_ERR_CONFIG, N("@:2:", "solver.target", "'tpu'", "cpu|gpu")},
      {"[solver]\ntarget =\n", FEAST_ERR_CONFIG, N("@:2:", "solver.target", "empty")},
      {"[solver]\nscarc_solver = gmres\n", FEAST_ERR_CONFIG, N("@:2:", "solver.scarc_solver", "gmres")},
      {"[problem]\ntype = Poisson\n", FEAST_ERR_CONFIG, N("@:2:", "problem.type", "Poisson")},
      {"[problem]\nre = 0\n", FEAST_ERR_CONFIG, N("@:2:", "problem.re", "[1e-6, 1e8]")},
      {"[output]\nverbosity = 3\n", FEAST_ERR_CONFIG, N("@:2:", "output.verbosity")},
      {"[debug]\ninject = maybe\n", FEAST_ERR_CONFIG, N("@:2:", "debug.inject", "maybe")},
      {"[run]\nmax_memory = -1\n", FEAST_ERR_CONFIG, N("@:2:", "run.max_memory")},
      {"[run]\nmax_memory = 1e-400\n", FEAST_ERR_CONFIG, N("@:2:", "run.max_memory", "1e-400")},
      {"[run]\nmax_memory = 1e400\n", FEAST_ERR_CONFIG, N("@:2:", "run.max_memory", "1e400")},
      {"[boundary.cyl]\nradius = 0\n", FEAST_ERR_CONFIG, N("@:2:", "boundary.cyl.radius", "'0'")},
      {"[boundary.cyl]\ncenter = 1\n", FEAST_ERR_CONFIG, N("@:2:", "boundary.cyl.center", "two")},
      {"[boundary.cyl]\ncenter = 1, 2, 3\n", FEAST_ERR_CONFIG, N("@:2:", "boundary.cyl.center")},
      {"[boundary.cyl]\ncenter = 1,,2\n", FEAST_ERR_CONFIG, N("@:2:", "boundary.cyl.center")},
      {"[boundary.cyl]\ncenter = nan 2\n", FEAST_ERR_CONFIG, N("@:2:", "boundary.cyl.center")},
      {"[boundary.cyl]\ntype = square\n", FEAST_ERR_CONFIG, N("@:2:", "boundary.cyl.type", "square")},
      {"[boundary.cyl]\ncolour = red\n", FEAST_ERR_CONFIG, N("@:2:", "boundary.cyl.colour")},
      {"[grid]\nfile = \"m.feast\n", FEAST_ERR_CONFIG, N("@:2:", "quote")},
      {"[grid]\nfile = \"m.feast\" x\n", FEAST_ERR_CONFIG, N("@:2:", "quote")},
      {"[grid]\nlevel = 3\x01\n", FEAST_ERR_CONFIG, N("@:2:", "control character", "0x01")},
      {"[grid]\nlevel = 3\r4\n", FEAST_ERR_CONFIG, N("@:2:", "control character")},
      {"\x7f" "ELF\x02\x01\x01\n", FEAST_ERR_CONFIG, N("@:1:")},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
    bad_file(cases[c].text, strlen(cases[c].text), cases[c].code, cases[c].needles);

  /* bytes strlen cannot carry: a NUL byte on line 3 */
  static const char nul[] = "[grid]\nfile = m\nlevel = 3\0 junk\n";
  bad_file(nul, sizeof nul - 1, FEAST_ERR_CONFIG, N("@:3:", "NUL"));
  /* an overlong line 3 */
  size_t big = 6000;
  char *longline = malloc(big + 32);
  strcpy(longline, "[grid]\nfile = m\n# ");
  size_t n = strlen(longline);
  memset(longline + n, 'x', big);
  strcpy(longline + n + big, "\nlevel = 3\n");
  bad_file(longline, strlen(longline), FEAST_ERR_CONFIG, N("@:3:", "longer than 4096"));
  /* a file over the size limit */
  char *huge = malloc((1 << 20) + 100);
  for (size_t i = 0; i < (1 << 20) + 100; i++) huge[i] = i % 64 == 63 ? '\n' : '#';
  bad_file(huge, (1 << 20) + 100, FEAST_ERR_CONFIG, N("@", "larger than"));
  free(huge);
  free(longline);

  /* files that cannot be read: FEAST_ERR_FILE naming the path */
  FeastConfig *cfg = NULL;
  char missing[300];
  snprintf(missing, sizeof missing, "%s/no_such_config.ini", tmpdir);
  CHECK_OK(feast_app_config_create(&cfg));
  expect_error(feast_config_read(cfg, missing), FEAST_ERR_FILE, missing, N("@"), "missing file");
  feast_config_destroy(&cfg);
  CHECK_OK(feast_app_config_create(&cfg));
  expect_error(feast_config_read(cfg, tmpdir), FEAST_ERR_FILE, tmpdir, N("@", "directory"), "directory");
  feast_config_destroy(&cfg);
  /* an empty file is fine until a required key is asked for */
  char path[256], buf[64];
  write_file("empty.ini", "", 0, path, sizeof path);
  CHECK_OK(feast_app_config_create(&cfg));
  CHECK_OK(feast_config_read(cfg, path));
  expect_error(feast_config_get_path(cfg, "grid.file", buf, sizeof buf), FEAST_ERR_CONFIG, path,
               N("grid.file", "not set", "@"), "required grid.file");
  feast_config_destroy(&cfg);
  unlink(path);
}

static void test_bad_overrides(void) {
  bad_override("grid.levle=5", FEAST_ERR_CONFIG, N("command line", "'grid.levle'", "did you mean 'grid.level'"));
  bad_override("solver.pseudo_dt=2", FEAST_ERR_CONFIG, N("command line", "'solver.pseudo_dt' has moved", "'continuation.pseudo_dt'"));
  bad_override("solver.nonlinear=newton", FEAST_ERR_CONFIG, N("command line", "'nonlinear.method'"));
  bad_override("nosuch.level=5", FEAST_ERR_CONFIG, N("command line", "nosuch.level", "'grid.level'"));
  bad_override("=5", FEAST_ERR_CONFIG, N("command line", "=5"));
  bad_override("level=5", FEAST_ERR_CONFIG, N("'level=5'", "grid.level"));
  bad_override("grid.level", FEAST_ERR_CONFIG, N("grid.level", "section.key=value"));
  bad_override("grid.level=", FEAST_ERR_CONFIG, N("grid.level", "empty"));
  bad_override("grid.level=abc", FEAST_ERR_CONFIG, N("command line: grid.level = 'abc'"));
  bad_override("solver.rtol=nan", FEAST_ERR_CONFIG, N("solver.rtol", "nan"));
  bad_override("solver.target=tpu", FEAST_ERR_CONFIG, N("solver.target", "tpu"));
  bad_override(".level=3", FEAST_ERR_CONFIG, N(".level=3"));
  bad_override("grid.=3", FEAST_ERR_CONFIG, N("grid.=3"));
  bad_override("boundary.c!x.radius=1", FEAST_ERR_CONFIG, N("command line", "[boundary.c!x]"));
  bad_override("boundary.cyl.radius=-1", FEAST_ERR_CONFIG, N("boundary.cyl.radius", "-1"));
  bad_override("grid.level=3\x01", FEAST_ERR_CONFIG, N("command line", "control character"));
  char *longarg = malloc(5001);
  memset(longarg, 'x', 5000);
  memcpy(longarg, "grid.file=", 10);
  longarg[5000] = 0;
  bad_override(longarg, FEAST_ERR_CONFIG, N("command line", "longer than"));
  free(longarg);
}

/* getters: unknown names and wrong types are programming errors (FEAST_ERR_ARG) */
static void test_bad_getters(void) {
  FeastConfig *cfg = NULL;
  CHECK_OK(feast_app_config_create(&cfg));
  long i;
  double r;
  const char *s;
  int e;
  expect_error(feast_config_get_int(cfg, "solver.rtoll", &i), FEAST_ERR_ARG, "",
               N("'solver.rtoll'", "'solver.rtol'"), "unknown key");
  expect_error(feast_config_get_string(cfg, "nodot", &s), FEAST_ERR_ARG, "", N("nodot"), "no dot");
  expect_error(feast_config_get_int(cfg, "solver.rtol", &i), FEAST_ERR_ARG, "", N("solver.rtol", "real"), "type");
  expect_error(feast_config_get_real(cfg, "grid.level", &r), FEAST_ERR_ARG, "", N("grid.level", "int"), "type");
  expect_error(feast_config_get_enum(cfg, "grid.dirichlet", &e), FEAST_ERR_ARG, "", N("grid.dirichlet"), "type");
  expect_error(feast_config_get_real(cfg, "boundary.a b.radius", &r), FEAST_ERR_ARG, "", N("boundary.a b.radius"),
               "bad part name");
  expect_error(feast_config_get_int(cfg, "grid.level", NULL), FEAST_ERR_ARG, "", N("NULL"), "NULL");
  expect_error(feast_config_sections(cfg, NULL, &e, NULL), FEAST_ERR_ARG, "", N("NULL"), "NULL");
  feast_config_destroy(&cfg);
}

/* ---------------------------------------------------------------- Markdown */

static void test_markdown(void) {
  char *text = NULL;
  size_t size = 0;
  FILE *f = open_memstream(&text, &size);
  if (!f) {
    CHECK(0);
    return;
  }
  feast_config_write_markdown(schema, f);
  fclose(f);
  CHECK(!strncmp(text, "| key | type | default | allowed | role | meaning |\n| --- |", 57));
  /* the role column: a key that defines the discrete problem, a recorded solver setting, none */
  CHECK(strstr(text, "| `stabilisation.supg_scale` | real | `1` | [1e-6, 1e6] | discrete |"));
  CHECK(strstr(text, "| `solver.rtol` | real | `1e-8` | [1e-16, 1] | recorded |"));
  CHECK(strstr(text, "| `output.verbosity` | int | `1` | [0, 2] |  |"));
  CHECK(strstr(text, "| `solver.rtol` | real | `1e-8` | [1e-16, 1] |"));
  CHECK(strstr(text, "| `grid.file` | path | (none) |"));
  CHECK(strstr(text, "`boundary.NAME.radius`"));
  CHECK(strstr(text, "`cpu`, `gpu`"));
  CHECK(strstr(text, "| `output.summary` | path | (unset) |"));
  int rows = 0, ok = 1;
  for (char *line = text; line && *line;) {
    char *nl = strchr(line, '\n');
    int pipes = 0;
    for (char *c = line; c < (nl ? nl : line + strlen(line)); c++)
      if (*c == '|' && (c == line || c[-1] != '\\')) pipes++;
    ok &= pipes == 7;
    rows++;
    line = nl ? nl + 1 : NULL;
  }
  CHECK(ok);
  CHECK(rows == feast_config_key_count(schema) + 2);
  free(text);
  feast_config_write_markdown(schema, NULL); /* harmless */
  feast_config_write_markdown(NULL, stdout);
}

static int run(void) {
  if (config_test_mkdir()) return 1;
  CHECK_OK(feast_app_config_create(&schema));
  test_schema();
  test_layers();
  test_bad_files();
  test_bad_overrides();
  test_bad_getters();
  test_markdown();
  feast_config_destroy(&schema);
  rmdir(tmpdir);
  return 0;
}

FEAST_TEST_MAIN(run)

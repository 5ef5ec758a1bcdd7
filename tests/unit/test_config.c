/* Config reader: values, defaults, overrides, relative paths, sections, the schema
 * table, the Markdown table, and malformed input (each with its error code and a
 * message naming file:line, key and value). Temporary files live under /tmp. */
#include "apps/app.h"
#include "apps/problem.h"
#include "navier_stokes/ns_keys.h"
#include "solvers/krylov.h"
#include "scarc/scarc.h"
#include "scarc/scarc_keys.h"
#include "feast/config/config.h"
#include "feast/base/error.h"
#include "feast_test.h"
#include "scarc/scarc_config.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---------------------------------------------------------------- helpers */

static char tmpdir[64]; /* a private folder for the files of this test */

/* write len bytes to a new file in tmpdir (name NULL: a unique one); path out */
static void write_file(const char *name, const char *data, size_t len, char *path, size_t size) {
  if (name) {
    snprintf(path, size, "%s/%s", tmpdir, name);
  } else {
    snprintf(path, size, "%s/cfg_XXXXXX.ini", tmpdir);
    int fd = mkstemps(path, 4);
    if (fd < 0) {
      perror("mkstemps");
      exit(1);
    }
    close(fd);
  }
  FILE *f = fopen(path, "wb");
  if (!f || (len && fwrite(data, 1, len, f) != len) || fclose(f)) {
    perror(path);
    exit(1);
  }
}

/* status must be code, and the message must contain every needle (each "@" stands for
 * the file's path); clears the error */
static void expect_error(int status, int code, const char *path, const char *const *needles, const char *what) {
  CHECK(status == code);
  const char *msg = feast_error_message();
  CHECK(msg[0] && !strchr(msg, '\n'));
  for (int i = 0; needles[i]; i++) {
    char want[1024];
    size_t w = 0;
    for (const char *c = needles[i]; *c && w + 1 < sizeof want; c++) /* every '@' replaced */
      w += (size_t)snprintf(want + w, sizeof want - w, "%s", *c == '@' ? path : (char[]){*c, 0});
    want[w < sizeof want ? w : sizeof want - 1] = 0;
    feast_test_checks++;
    if (!strstr(msg, want)) {
      feast_test_failures++;
      fprintf(stderr, "%s: message lacks '%s': %s\n", what, want, msg);
    }
  }
  if (status != code) fprintf(stderr, "%s: status %d, want %d: %s\n", what, status, code, msg);
  feast_error_clear();
}

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

#define N(...) ((const char *const[]){__VA_ARGS__, NULL})

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
  CHECK(feast_config_key_count(schema) == 116); /* linear.pcd_supg + 115: linear.pcd_boundary, solver.pseudo_dt, pseudo_switch, pseudo_max_steps, output.wall_shear_zeros_on + 110: linear.pcd_viscous_scale, pcd_rotation + 108: linear.fgmres_basis + 107: solver.anderson_depth + 106: velocity.newton_reaction + 105: stabilisation.supg_scale, pspg_scale, viscous_residual + 102: solver.continuation, continuation_stall_steps, _stall_factor, _factor, _rtol, _max_stages + 96: solver.nonlinear_step_reference, linear_forcing, nonlinear_switch + 93: velocity.solver, pressure.solver, rtol, max_iterations, linear.factorisation + 88: 75 + solver.local_gpu_min_nodes + the time-dependent run: time.scheme, dt, start, end, tau_dt, steps_max, initial.u, v, stationary, output.timeseries, vtk_every, series_from; 75 = main's 55 + solver.coarse_solver, linear.schur, linear.restart, the four DFG output keys, output.checkpoint(_interval), solver.residual_replacement(_drop), solver.smoother_step, debug.reduction_latency_us, solver.local_fixed_cycles, velocity.fixed_iterations, solver.initial_guess, problem.convection, solver.overlap, solver.local_framed_min_nodes, solver.coarse_stabilisation */
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
  expect_error(feast_config_override(cfg, "solver.nonlinear=newton"), FEAST_ERR_CONFIG, "",
               N("solver.nonlinear"), "scarc: no nonlinear keys");
  feast_config_destroy(&cfg);
  /* a key two tables declare is an error naming both */
  static const FeastKeySpec again[] = {
      {"grid", "level", FEAST_KEY_INT, "4", 0, 16, NULL, "the core's grid.level declared a second time"}};
  static const FeastKeyTable twice = {"test", again, 1};
  CHECK_OK(feast_config_create(&cfg));
  expect_error(feast_config_add_keys(cfg, &twice), FEAST_ERR_ARG, "", N("grid.level", "test", "feast"), "dup key");
  CHECK(feast_config_key_count(cfg) == feast_core_keys.nkeys);
  feast_config_destroy(&cfg);
  /* every layer's keys are in the application's schema, in the folder that reads them */
  const FeastKeyTable *tables[] = {&feast_core_keys, feast_app_keys(), scarc_config_keys(), ns_config_keys()};
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

/* ---------------------------------------------------------------- good input */

static const char good[] =
    "\xEF\xBB\xBF# a full configuration; every syntax feature once\r\n"
    "[problem]\r\n"
    "type = navier-stokes   # inline comment\n"
    "re=100\n"
    "\n"
    "  [ grid ]  ; comment after a header\n"
    "file = mesh.feast\n"
    "\tlevel\t=\t6\t\n"
    "dirichlet = in#out\n"
    "[solver]\n"
    "target = gpu\n"
    "rtol = 1e-10 ; comment\n"
    "[boundary.cylinder]\n"
    "type = circle\n"
    "center = 0.2, 0.25\n"
    "radius = 5e-2\n"
    "[boundary.in-flow_2]\n"
    "center = \"-1 2.5\"\n"
    "[solver]\n"
    "max_iterations = +250\n"
    "scarc_solver = bicgstab\n"
    "[output]\n"
    "summary = \"/abs/run.json\"\n"
    "vtk = out/sol\n"
    "matrix_market =\n"
    "verbosity = 0\n"
    "[run]\n"
    "max_memory = 1.5\n"
    "[debug]\n"
    "inject = fail\n"
    "inject_rank = 3\n";

static void test_values(void) {
  char path[256], buf[512], want[512];
  write_file("good.ini", good, sizeof good - 1, path, sizeof path);
  FeastConfig *cfg = NULL;
  CHECK_OK(feast_app_config_create(&cfg));
  CHECK(!strcmp(feast_config_path(cfg), ""));
  CHECK_OK(feast_config_read(cfg, path));
  CHECK(!strcmp(feast_config_path(cfg), path));
  long i;
  double r, r2[2];
  int e;
  const char *s;
  CHECK_OK(feast_config_get_enum(cfg, "problem.type", &e));
  CHECK(e == 2);
  CHECK_OK(feast_config_get_string(cfg, "problem.type", &s));
  CHECK(!strcmp(s, "navier-stokes"));
  CHECK_OK(feast_config_get_real(cfg, "problem.re", &r));
  CHECK(r == 100);
  CHECK_OK(feast_config_get_int(cfg, "grid.level", &i));
  CHECK(i == 6);
  CHECK_OK(feast_config_get_string(cfg, "grid.level", &s));
  CHECK(!strcmp(s, "6"));
  CHECK_OK(feast_config_get_string(cfg, "grid.dirichlet", &s));
  CHECK(!strcmp(s, "in#out")); /* '#' starts a comment only after a blank */
  /* relative paths in a file: against the file's folder; absolute ones unchanged */
  CHECK_OK(feast_config_get_path(cfg, "grid.file", buf, sizeof buf));
  snprintf(want, sizeof want, "%s/mesh.feast", tmpdir);
  CHECK(!strcmp(buf, want));
  CHECK_OK(feast_config_get_string(cfg, "grid.file", &s));
  CHECK(!strcmp(s, "mesh.feast"));
  CHECK_OK(feast_config_get_path(cfg, "output.summary", buf, sizeof buf));
  CHECK(!strcmp(buf, "/abs/run.json"));
  CHECK_OK(feast_config_get_path(cfg, "output.vtk", buf, sizeof buf));
  snprintf(want, sizeof want, "%s/out/sol", tmpdir);
  CHECK(!strcmp(buf, want));
  CHECK_OK(feast_config_get_path(cfg, "output.matrix_market", buf, sizeof buf));
  CHECK(!strcmp(buf, "")); /* empty = unset */
  CHECK(!feast_config_is_set(cfg, "output.matrix_market"));
  CHECK(feast_config_get_path(cfg, "output.vtk", buf, 8) == FEAST_ERR_CONFIG); /* buffer too small */
  CHECK(buf[0] == 0);
  feast_error_clear();
  /* [solver] appears twice: merged */
  CHECK_OK(feast_config_get_enum(cfg, "solver.target", &e));
  CHECK(e == 1);
  CHECK_OK(feast_config_get_real(cfg, "solver.rtol", &r));
  CHECK(r == 1e-10);
  CHECK_OK(feast_config_get_int(cfg, "solver.max_iterations", &i));
  CHECK(i == 250);
  CHECK_OK(feast_config_get_enum(cfg, "solver.scarc_solver", &e));
  CHECK(e == 2);
  /* defaults of keys the file does not set */
  CHECK_OK(feast_config_get_real(cfg, "solver.local_jacobi_damping", &r));
  CHECK(r == 0.7);
  CHECK_OK(feast_config_get_int(cfg, "solver.coarse_max_dofs", &i));
  CHECK(i == 2500);
  CHECK_OK(feast_config_get_enum(cfg, "solver.local_precision", &e));
  CHECK(e == 0);
  CHECK(!strcmp(feast_config_origin(cfg, "solver.local_precision"), "default"));
  CHECK(!feast_config_is_set(cfg, "solver.local_precision"));
  /* origins */
  snprintf(want, sizeof want, "%s:8", path);
  CHECK(!strcmp(feast_config_origin(cfg, "grid.level"), want));
  CHECK(feast_config_is_set(cfg, "grid.level"));
  CHECK(!strcmp(feast_config_origin(cfg, "no.such"), "unknown key"));
  CHECK(!feast_config_is_set(cfg, "no.such"));
  CHECK_OK(feast_config_get_int(cfg, "output.verbosity", &i));
  CHECK(i == 0);
  CHECK_OK(feast_config_get_real(cfg, "run.max_memory", &r));
  CHECK(r == 1.5);
  CHECK_OK(feast_config_get_enum(cfg, "debug.inject", &e));
  CHECK(e == 2);
  CHECK_OK(feast_config_get_int(cfg, "debug.inject_rank", &i));
  CHECK(i == 3);
  /* boundary sections: listed in file order, keys read per section */
  int count = -1;
  const char *const *names = NULL;
  CHECK_OK(feast_config_sections(cfg, "boundary.", &count, &names));
  CHECK(count == 2);
  if (count == 2) CHECK(!strcmp(names[0], "boundary.cylinder") && !strcmp(names[1], "boundary.in-flow_2"));
  CHECK_OK(feast_config_sections(cfg, "", &count, &names));
  CHECK(count == 8); /* problem grid solver 2x boundary output run debug */
  CHECK_OK(feast_config_get_enum(cfg, "boundary.cylinder.type", &e));
  CHECK(e == 1);
  CHECK_OK(feast_config_get_real2(cfg, "boundary.cylinder.center", r2));
  CHECK(r2[0] == 0.2 && r2[1] == 0.25);
  CHECK_OK(feast_config_get_real(cfg, "boundary.cylinder.radius", &r));
  CHECK(r == 0.05);
  CHECK_OK(feast_config_get_real2(cfg, "boundary.in-flow_2.center", r2));
  CHECK(r2[0] == -1 && r2[1] == 2.5);
  CHECK_OK(feast_config_get_string(cfg, "boundary.in-flow_2.type", &s));
  CHECK(!strcmp(s, "line"));
  /* a key without default that is not set: an error naming it */
  expect_error(feast_config_get_real(cfg, "boundary.in-flow_2.radius", &r), FEAST_ERR_CONFIG, path,
               N("boundary.in-flow_2.radius", "not set"), "unset radius");
  expect_error(feast_config_get_real(cfg, "boundary.absent.radius", &r), FEAST_ERR_CONFIG, path,
               N("boundary.absent.radius"), "absent section");
  /* a config object reads one file */
  expect_error(feast_config_read(cfg, path), FEAST_ERR_ARG, path, N("already"), "read twice");
  feast_config_destroy(&cfg);
  CHECK(cfg == NULL);
  feast_config_destroy(&cfg); /* harmless on NULL */
  feast_config_destroy(NULL);
  unlink(path);
}

/* command-line overrides replace file values; the last one wins; paths stay as given */
static void test_overrides(void) {
  char path[256], buf[512], want[512];
  const char text[] = "[grid]\nfile = m.feast\nlevel = 3\n[solver]\ntarget = gpu\n[output]\nsummary = s.json\n";
  write_file("ovr.ini", text, sizeof text - 1, path, sizeof path);
  FeastConfig *cfg = NULL;
  CHECK_OK(feast_app_config_create(&cfg));
  CHECK_OK(feast_config_read(cfg, path));
  long i;
  const char *s, *before;
  CHECK_OK(feast_config_override(cfg, "grid.level=5"));
  CHECK_OK(feast_config_get_int(cfg, "grid.level", &i));
  CHECK(i == 5);
  CHECK(!strcmp(feast_config_origin(cfg, "grid.level"), "command line"));
  CHECK_OK(feast_config_override(cfg, " grid.level = 7 "));
  CHECK_OK(feast_config_get_int(cfg, "grid.level", &i));
  CHECK(i == 7);
  /* a getter's string stays valid after an override replaces the value */
  CHECK_OK(feast_config_get_string(cfg, "solver.target", &before));
  CHECK_OK(feast_config_override(cfg, "solver.target=cpu"));
  CHECK_OK(feast_config_get_string(cfg, "solver.target", &s));
  CHECK(!strcmp(before, "gpu") && !strcmp(s, "cpu"));
  /* relative paths on the command line stay relative to the working directory */
  CHECK_OK(feast_config_get_path(cfg, "grid.file", buf, sizeof buf));
  snprintf(want, sizeof want, "%s/m.feast", tmpdir);
  CHECK(!strcmp(buf, want));
  CHECK_OK(feast_config_override(cfg, "grid.file=rel/m.feast"));
  CHECK_OK(feast_config_get_path(cfg, "grid.file", buf, sizeof buf));
  CHECK(!strcmp(buf, "rel/m.feast"));
  CHECK_OK(feast_config_override(cfg, "grid.file=\"/a b/m.feast\""));
  CHECK_OK(feast_config_get_path(cfg, "grid.file", buf, sizeof buf));
  CHECK(!strcmp(buf, "/a b/m.feast"));
  /* an empty path on the command line unsets the file's value */
  CHECK(feast_config_is_set(cfg, "output.summary"));
  CHECK_OK(feast_config_override(cfg, "output.summary="));
  CHECK(!feast_config_is_set(cfg, "output.summary"));
  CHECK_OK(feast_config_get_path(cfg, "output.summary", buf, sizeof buf));
  CHECK(!strcmp(buf, ""));
  /* clearing a required path makes it missing, with the origin in the message */
  CHECK_OK(feast_config_override(cfg, "grid.file="));
  expect_error(feast_config_get_path(cfg, "grid.file", buf, sizeof buf), FEAST_ERR_CONFIG, path,
               N("grid.file", "command line"), "cleared grid.file");
  /* overrides may add boundary sections */
  CHECK_OK(feast_config_override(cfg, "boundary.outlet.radius=2"));
  int count = 0;
  const char *const *names = NULL;
  CHECK_OK(feast_config_sections(cfg, "boundary.", &count, &names));
  CHECK(count == 1 && !strcmp(names[0], "boundary.outlet"));
  /* a failed override changes nothing */
  CHECK(feast_config_override(cfg, "grid.level=99") == FEAST_ERR_CONFIG);
  feast_error_clear();
  CHECK_OK(feast_config_get_int(cfg, "grid.level", &i));
  CHECK(i == 7);
  feast_config_destroy(&cfg);

  /* an override given before the file is read still wins, and is no duplicate */
  CHECK_OK(feast_app_config_create(&cfg));
  CHECK_OK(feast_config_override(cfg, "grid.level=2"));
  CHECK_OK(feast_config_read(cfg, path));
  CHECK_OK(feast_config_get_int(cfg, "grid.level", &i));
  CHECK(i == 2);
  CHECK(!strcmp(feast_config_origin(cfg, "grid.level"), "command line"));
  feast_config_destroy(&cfg);
  unlink(path);
}

/* a config path without a folder: relative values stay as given */
static void test_no_folder(void) {
  char cwd[PATH_MAX], path[256], buf[256];
  const char text[] = "[grid]\nfile = m.feast\n";
  write_file("plain.ini", text, sizeof text - 1, path, sizeof path);
  if (!getcwd(cwd, sizeof cwd) || chdir(tmpdir)) {
    CHECK(0);
    return;
  }
  FeastConfig *cfg = NULL;
  CHECK_OK(feast_app_config_create(&cfg));
  CHECK_OK(feast_config_read(cfg, "plain.ini"));
  CHECK_OK(feast_config_get_path(cfg, "grid.file", buf, sizeof buf));
  CHECK(!strcmp(buf, "m.feast"));
  CHECK(!strcmp(feast_config_origin(cfg, "grid.file"), "plain.ini:2"));
  feast_config_destroy(&cfg);
  CHECK(chdir(cwd) == 0);
  unlink(path);
}

/* ---------------------------------------------------------------- includes */

/* write text to tmpdir/name, making its folder; path out */
static void write_text(const char *name, const char *text, char *path, size_t size) {
  char dir[512];
  snprintf(dir, sizeof dir, "%s/%s", tmpdir, name);
  char *slash = strrchr(dir, '/');
  *slash = 0;
  if (strcmp(dir, tmpdir) != 0) {
    char cmd[600];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
    if (system(cmd) != 0) exit(1);
  }
  write_file(name, text, strlen(text), path, size);
}

/* read tmpdir/name into a new config: its status */
static int read_named(const char *name, FeastConfig **cfg) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", tmpdir, name);
  CHECK_OK(feast_app_config_create(cfg));
  return feast_config_read(*cfg, path);
}

/* the origin of key must be tmpdir/where ("file:line") */
static void expect_origin(const FeastConfig *cfg, const char *key, const char *where) {
  char want[512];
  snprintf(want, sizeof want, "%s/%s", tmpdir, where);
  feast_test_checks++;
  if (strcmp(feast_config_origin(cfg, key), want) != 0) {
    feast_test_failures++;
    fprintf(stderr, "origin of %s: %s, want %s\n", key, feast_config_origin(cfg, key), want);
  }
}

/* reading tmpdir/name fails with code and a message holding every needle, where "@"
 * stands for tmpdir */
static void bad_include(const char *name, int code, const char *const *needles) {
  FeastConfig *cfg = NULL;
  expect_error(read_named(name, &cfg), code, tmpdir, needles, name);
  feast_config_destroy(&cfg);
}

/* include = FILE: override order, origins, relative paths from another folder, nesting */
static void test_includes(void) {
  char path[512], buf[512], want[512];
  long i;
  double r;
  const char *s;
  /* an included file in another folder: its relative paths resolve against its folder */
  write_text("shared/base.ini",
             "# the common part\n[grid]\nfile = ../grids/m.feast\nlevel = 3\n[solver]\ntarget = cpu\nrtol = 1e-6\n"
             "[output]\nvtk = out/sol\n",
             path, sizeof path);
  write_text("runs/run.ini", "# a run\ninclude = ../shared/base.ini\n\n[solver]\ntarget = gpu\n[grid]\nlevel = 5\n",
             path, sizeof path);
  FeastConfig *cfg = NULL;
  CHECK_OK(read_named("runs/run.ini", &cfg));
  CHECK(!strcmp(feast_config_path(cfg), path)); /* the file given, not the included one */
  /* the including file's values win over the included ones, wherever they stand */
  CHECK_OK(feast_config_get_int(cfg, "grid.level", &i));
  CHECK(i == 5);
  expect_origin(cfg, "grid.level", "runs/run.ini:7");
  CHECK_OK(feast_config_get_string(cfg, "solver.target", &s));
  CHECK(!strcmp(s, "gpu"));
  expect_origin(cfg, "solver.target", "runs/run.ini:5");
  /* values only the included file sets */
  CHECK_OK(feast_config_get_real(cfg, "solver.rtol", &r));
  CHECK(r == 1e-6);
  expect_origin(cfg, "solver.rtol", "runs/../shared/base.ini:7");
  CHECK_OK(feast_config_get_path(cfg, "grid.file", buf, sizeof buf));
  snprintf(want, sizeof want, "%s/runs/../shared/../grids/m.feast", tmpdir);
  CHECK(!strcmp(buf, want));
  CHECK_OK(feast_config_get_path(cfg, "output.vtk", buf, sizeof buf));
  snprintf(want, sizeof want, "%s/runs/../shared/out/sol", tmpdir);
  CHECK(!strcmp(buf, want));
  /* sections in the order read: the included file's first */
  int count = 0;
  const char *const *names = NULL;
  CHECK_OK(feast_config_sections(cfg, "", &count, &names));
  CHECK(count == 3 && !strcmp(names[0], "grid") && !strcmp(names[1], "solver") && !strcmp(names[2], "output"));
  /* the command line wins over both */
  CHECK_OK(feast_config_override(cfg, "solver.rtol=1e-9"));
  CHECK_OK(feast_config_get_real(cfg, "solver.rtol", &r));
  CHECK(r == 1e-9 && !strcmp(feast_config_origin(cfg, "solver.rtol"), "command line"));
  feast_config_destroy(&cfg);
  /* ... also when given before the file is read */
  CHECK_OK(feast_app_config_create(&cfg));
  CHECK_OK(feast_config_override(cfg, "grid.level=2"));
  CHECK_OK(feast_config_override(cfg, "solver.rtol=1e-3"));
  CHECK_OK(feast_config_read(cfg, path));
  CHECK_OK(feast_config_get_int(cfg, "grid.level", &i));
  CHECK(i == 2 && !strcmp(feast_config_origin(cfg, "grid.level"), "command line"));
  CHECK_OK(feast_config_get_real(cfg, "solver.rtol", &r));
  CHECK(r == 1e-3);
  feast_config_destroy(&cfg);

  /* nested: top includes mid/mid.ini, which includes low/low.ini (relative to mid/), and
   * then alt.ini; later includes win over earlier ones, each file over its includes; the
   * same file may be included twice (a diamond is no cycle) */
  write_text("nest/mid/low/low.ini", "[grid]\nlevel = 1\nfile = low.feast\n[problem]\nre = 10\n", path, sizeof path);
  write_text("nest/mid/alt.ini", "include = low/low.ini\n[problem]\nre = 20\n", path, sizeof path);
  write_text("nest/mid/mid.ini", "include = low/low.ini\ninclude = alt.ini\n[grid]\nlevel = 2\n", path, sizeof path);
  write_text("nest/top.ini", "; top\ninclude = \"mid/mid.ini\"  # quoted, with a comment\n[solver]\nrtol = 1e-5\n",
             path, sizeof path);
  CHECK_OK(read_named("nest/top.ini", &cfg));
  CHECK_OK(feast_config_get_int(cfg, "grid.level", &i));
  CHECK(i == 2);
  expect_origin(cfg, "grid.level", "nest/mid/mid.ini:4");
  CHECK_OK(feast_config_get_real(cfg, "problem.re", &r));
  CHECK(r == 20);
  expect_origin(cfg, "problem.re", "nest/mid/alt.ini:3");
  CHECK_OK(feast_config_get_path(cfg, "grid.file", buf, sizeof buf));
  snprintf(want, sizeof want, "%s/nest/mid/low/low.feast", tmpdir);
  CHECK(!strcmp(buf, want));
  expect_origin(cfg, "grid.file", "nest/mid/low/low.ini:3");
  CHECK_OK(feast_config_get_real(cfg, "solver.rtol", &r));
  CHECK(r == 1e-5);
  feast_config_destroy(&cfg);

  /* a config path without a folder: the include and its paths relative to the cwd */
  char cwd[PATH_MAX];
  if (getcwd(cwd, sizeof cwd) && chdir(tmpdir) == 0) {
    write_text("plain_inc.ini", "include = shared/base.ini\n", path, sizeof path);
    CHECK_OK(feast_app_config_create(&cfg));
    CHECK_OK(feast_config_read(cfg, "plain_inc.ini"));
    CHECK_OK(feast_config_get_path(cfg, "grid.file", buf, sizeof buf));
    CHECK(!strcmp(buf, "shared/../grids/m.feast"));
    CHECK(!strcmp(feast_config_origin(cfg, "grid.level"), "shared/base.ini:4"));
    feast_config_destroy(&cfg);
    CHECK(chdir(cwd) == 0);
  } else {
    CHECK(0);
  }

  /* errors in an included file name that file and line, and where it was included */
  write_text("err/sub/bad_level.ini", "[grid]\nfile = m\nlevel = 99\n", path, sizeof path);
  write_text("err/one.ini", "include = sub/bad_level.ini\n", path, sizeof path);
  bad_include("err/one.ini", FEAST_ERR_CONFIG,
              N("@/err/sub/bad_level.ini:3:", "grid.level", "'99'", "(included from @/err/one.ini:1)"));
  write_text("err/two.ini", "# twice removed\ninclude = one.ini\n", path, sizeof path);
  bad_include("err/two.ini", FEAST_ERR_CONFIG,
              N("@/err/sub/bad_level.ini:3:", "(included from @/err/one.ini:1, @/err/two.ini:2)"));
  /* a key twice in the included file is a duplicate there; twice in the including file too */
  write_text("err/dup_inc.ini", "[grid]\nlevel = 3\nlevel = 4\n", path, sizeof path);
  write_text("err/dup_top.ini", "include = dup_inc.ini\n", path, sizeof path);
  bad_include("err/dup_top.ini", FEAST_ERR_CONFIG, N("@/err/dup_inc.ini:3:", "duplicate", "grid.level", "line 2"));
  write_text("err/dup_own.ini", "include = ../shared/base.ini\n[grid]\nlevel = 4\n[solver]\n[grid]\nlevel = 5\n", path,
             sizeof path);
  bad_include("err/dup_own.ini", FEAST_ERR_CONFIG, N("@/err/dup_own.ini:6:", "duplicate", "grid.level", "line 3"));
  /* cycles: a file including itself (spelt differently), two files including each other */
  write_text("cyc/self.ini", "[solver]\n", path, sizeof path);
  write_text("cyc/self.ini", "# me\ninclude = ./self.ini\n", path, sizeof path);
  bad_include("cyc/self.ini", FEAST_ERR_CONFIG,
              N("@/cyc/self.ini:2: include cycle: @/cyc/self.ini -> @/cyc/./self.ini"));
  write_text("cyc/a.ini", "include = b/b.ini\n[grid]\nlevel = 1\n", path, sizeof path);
  write_text("cyc/b/b.ini", "include = ../a.ini\n", path, sizeof path);
  bad_include("cyc/a.ini", FEAST_ERR_CONFIG,
              N("@/cyc/b/b.ini:1: include cycle: @/cyc/a.ini -> @/cyc/b/b.ini -> @/cyc/b/../a.ini"));
  /* the included file missing, a folder, or not named: the include line */
  write_text("miss/top.ini", "\n\ninclude = no_such.ini\n", path, sizeof path);
  bad_include("miss/top.ini", FEAST_ERR_FILE, N("@/miss/top.ini:3:", "cannot open included file @/miss/no_such.ini"));
  write_text("miss/dir.ini", "include = ../miss\n", path, sizeof path);
  bad_include("miss/dir.ini", FEAST_ERR_FILE, N("@/miss/dir.ini:1:", "directory"));
  write_text("miss/empty.ini", "include =   # nothing\n", path, sizeof path);
  bad_include("miss/empty.ini", FEAST_ERR_CONFIG, N("@/miss/empty.ini:1:", "include without a file name"));
  write_text("miss/nested.ini", "include = top.ini\n", path, sizeof path);
  bad_include("miss/nested.ini", FEAST_ERR_FILE,
              N("@/miss/top.ini:3:", "no_such.ini", "(included from @/miss/nested.ini:1)"));
  /* include belongs before the first section */
  write_text("late.ini", "[grid]\nlevel = 3\ninclude = shared/base.ini\n", path, sizeof path);
  bad_include("late.ini", FEAST_ERR_CONFIG, N("@/late.ini:3:", "'include' must come before the first [section]", "[grid]"));
  /* nesting is bounded: deep/d0 includes d1 ... includes d17 */
  for (int d = 0; d <= 17; d++) {
    char name[64], text[64] = "[grid]\nlevel = 2\n";
    snprintf(name, sizeof name, "deep/d%d.ini", d);
    if (d < 17) snprintf(text, sizeof text, "include = d%d.ini\n", d + 1);
    write_text(name, text, path, sizeof path);
  }
  bad_include("deep/d0.ini", FEAST_ERR_CONFIG, N("@/deep/d16.ini:1:", "nested deeper than 16"));
  CHECK_OK(read_named("deep/d1.ini", &cfg)); /* 16 levels are fine */
  CHECK_OK(feast_config_get_int(cfg, "grid.level", &i));
  CHECK(i == 2);
  expect_origin(cfg, "grid.level", "deep/d17.ini:2");
  feast_config_destroy(&cfg);
  char cmd[512];
  snprintf(cmd, sizeof cmd, "cd '%s' && rm -rf shared runs nest err cyc miss deep late.ini plain_inc.ini", tmpdir);
  CHECK(system(cmd) == 0);
}

/* config/X_gpu.ini: config/X.ini included plus solver.target = gpu; every value the same
 * as that file's with solver.target=gpu on the command line (run in the source tree) */
static void test_gpu_twins(void) {
  const char *twins[] = {"cavity", "dfg", "poisson"};
  for (size_t t = 0; t < sizeof twins / sizeof twins[0]; t++) {
    char gpu[128], cpu[128];
    snprintf(gpu, sizeof gpu, "config/%s_gpu.ini", twins[t]);
    snprintf(cpu, sizeof cpu, "config/%s.ini", twins[t]);
    FeastConfig *a = NULL, *b = NULL;
    CHECK_OK(feast_app_config_create(&a));
    CHECK_OK(feast_app_config_create(&b));
    CHECK_OK(feast_config_read(a, gpu));
    CHECK_OK(feast_config_read(b, cpu));
    CHECK_OK(feast_config_override(b, "solver.target=gpu"));
    int na = 0, nb = 0, set = 0;
    const char *const *sa = NULL, *const *sb = NULL;
    CHECK_OK(feast_config_sections(a, "", &na, &sa));
    const char *first = na ? sa[0] : NULL;
    CHECK_OK(feast_config_sections(b, "", &nb, &sb));
    CHECK(na == nb && first && !strcmp(first, sb[0]));
    for (int s = 0; s < nb; s++)
      for (int k = 0; k < feast_config_key_count(schema); k++) {
        const FeastKeySpec *spec = key_spec(k);
        size_t pl = strlen(spec->section);
        int pattern = pl >= 2 && !strcmp(spec->section + pl - 2, ".*");
        if (pattern ? strncmp(sb[s], spec->section, pl - 1) != 0 : strcmp(sb[s], spec->section) != 0) continue;
        char name[256], pa[1024] = "", pb[1024] = "";
        const char *va = NULL, *vb = NULL;
        snprintf(name, sizeof name, "%s.%s", sb[s], spec->key);
        CHECK(feast_config_is_set(a, name) == feast_config_is_set(b, name));
        if (!feast_config_is_set(b, name)) continue;
        set++;
        CHECK_OK(feast_config_get_string(a, name, &va));
        CHECK_OK(feast_config_get_string(b, name, &vb));
        if (spec->type == FEAST_KEY_PATH) {
          CHECK_OK(feast_config_get_path(a, name, pa, sizeof pa));
          CHECK_OK(feast_config_get_path(b, name, pb, sizeof pb));
        }
        feast_test_checks++;
        if (!va || !vb || strcmp(va, vb) || strcmp(pa, pb)) {
          feast_test_failures++;
          fprintf(stderr, "%s: %s = '%s' (%s), '%s' in %s\n", gpu, name, va ? va : "", pa, vb ? vb : "", cpu);
        }
      }
    CHECK(set > 5);
    char want[160];
    snprintf(want, sizeof want, "%s:", gpu);
    CHECK(!strncmp(feast_config_origin(a, "solver.target"), want, strlen(want)));
    feast_config_destroy(&a);
    feast_config_destroy(&b);
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
  CHECK(!strncmp(text, "| key | type | default | allowed | meaning |\n| --- |", 50));
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
    ok &= pipes == 6;
    rows++;
    line = nl ? nl + 1 : NULL;
  }
  CHECK(ok);
  CHECK(rows == feast_config_key_count(schema) + 2);
  free(text);
  feast_config_write_markdown(schema, NULL); /* harmless */
  feast_config_write_markdown(NULL, stdout);
}

/* ---------------------------------------------------------------- robustness */

/* random bytes and random mutations of a good file: an error or success, never a
 * crash (run under the sanitizers), and a one-line message on error */
static void test_garbage(void) {
  char path[256];
  unsigned state = 12345;
  char data[600];
  int errors = 0, bad_messages = 0;
  for (int t = 0; t < 600; t++) {
    size_t len;
    if (t % 2) {
      len = sizeof good - 1 < sizeof data ? sizeof good - 1 : sizeof data;
      memcpy(data, good, len);
      for (int m = 0; m < 1 + t % 5; m++) {
        state = state * 1103515245u + 12345u;
        size_t at = (state >> 8) % len;
        state = state * 1103515245u + 12345u;
        data[at] = (char)((state >> 16) & 0xff);
      }
    } else {
      state = state * 1103515245u + 12345u;
      len = (state >> 8) % sizeof data;
      for (size_t i = 0; i < len; i++) {
        state = state * 1103515245u + 12345u;
        const char alphabet[] = "[]=#;\n .-_\"abcdefgilmnoprstuvy0123456789e+";
        data[i] = t % 4 == 0 ? (char)(state >> 16) : alphabet[(state >> 16) % (sizeof alphabet - 1)];
      }
    }
    write_file("garbage.ini", data, len, path, sizeof path);
    FeastConfig *cfg = NULL;
    CHECK_OK(feast_app_config_create(&cfg));
    int st = feast_config_read(cfg, path);
    if (st) {
      errors++;
      const char *msg = feast_error_message();
      if (st != FEAST_ERR_CONFIG || !msg[0] || strchr(msg, '\n') || !strstr(msg, path)) bad_messages++;
    }
    feast_error_clear();
    char buf[16];
    (void)feast_config_get_path(cfg, "grid.file", buf, sizeof buf);
    feast_error_clear();
    feast_config_destroy(&cfg);
  }
  CHECK(errors > 300);
  CHECK(bad_messages == 0);
  unlink(path);
}

static int run(void) {
  snprintf(tmpdir, sizeof tmpdir, "/tmp/feast_test_config_XXXXXX");
  if (!mkdtemp(tmpdir)) {
    perror("mkdtemp");
    return 1;
  }
  CHECK_OK(feast_app_config_create(&schema));
  test_schema();
  test_layers();
  test_values();
  test_overrides();
  test_no_folder();
  test_includes();
  test_gpu_twins();
  test_bad_files();
  test_bad_overrides();
  test_bad_getters();
  test_markdown();
  test_garbage();
  feast_config_destroy(&schema);
  rmdir(tmpdir);
  return 0;
}

FEAST_TEST_MAIN(run)

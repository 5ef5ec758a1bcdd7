/* Config reader on well-formed input: every syntax feature of a full file once (BOM, CRLF,
 * comments, blanks, quotes, a section twice), the values, defaults and origins it gives,
 * relative paths against the file's folder, boundary sections in file order;
 * command-line overrides (the last one wins, before or after the file, paths as given,
 * an empty value unsets); a config path without a folder; and random bytes and random
 * mutations of the full file (an error or success, never a crash, one-line messages).
 * Includes: test_config_include.c; the schema and malformed input: test_config_schema.c.
 * Temporary files live under /tmp. */
#include "apps/app.h"
#include "config_testing.h"
#include <limits.h>

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
  if (config_test_mkdir()) return 1;
  test_values();
  test_overrides();
  test_no_folder();
  test_garbage();
  rmdir(tmpdir);
  return 0;
}

FEAST_TEST_MAIN(run)

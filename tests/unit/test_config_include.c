/* Config reader, include = FILE: the including file's values win over the included
 * ones and the command line over both (given before or after the file), origins name
 * the file and line that set a value, relative paths resolve against the folder of the
 * file that holds them, nesting (a diamond is no cycle, at most 16 levels); errors in
 * or of includes (duplicates, cycles, missing files, a late include) name the file, the
 * line and the chain of includes. And config/X_gpu.ini: config/X.ini included plus
 * solver.target = gpu. Temporary files live under /tmp. */
#include "apps/app.h"
#include "config_testing.h"
#include <limits.h>

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
    for (int s = 0; s < nb; s++) /* every key of feastc's schema (b's) in the section */
      for (int k = 0; k < feast_config_key_count(b); k++) {
        const FeastKeySpec *spec = feast_config_key_spec(b, k);
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

static int run(void) {
  if (config_test_mkdir()) return 1;
  test_includes();
  test_gpu_twins();
  rmdir(tmpdir);
  return 0;
}

FEAST_TEST_MAIN(run)

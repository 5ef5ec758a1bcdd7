/* JSON summary: values round-trip through a file, non-finite reals become null,
 * sections and replacement, unwritable paths are errors that name the path. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include "feast/base/error.h"
#include "feast/io/summary.h"
#include "feast_test.h"
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static cJSON *read_json(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) return NULL;
  static char buf[1 << 16];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  buf[n] = 0;
  fclose(f);
  return cJSON_Parse(buf);
}

static void fill(FeastSummary *s) {
  CHECK_OK(feast_summary_set_string(s, "problem", "poisson"));
  CHECK_OK(feast_summary_set_string(s, "target", "cpu"));
  CHECK_OK(feast_summary_set_int(s, "ranks", 2));
  CHECK_OK(feast_summary_set_int(s, "dofs", 4202496L));
  CHECK_OK(feast_summary_set_int(s, "level", 3));
  CHECK_OK(feast_summary_set_int(s, "level", 7)); /* replaced */
  CHECK_OK(feast_summary_set_real(s, "residual", 1.25e-9));
  CHECK_OK(feast_summary_set_real(s, "bad", NAN));
  CHECK_OK(feast_summary_set_real(s, "worse", -INFINITY));
  CHECK_OK(feast_summary_set_bool(s, "converged", 1));
  CHECK_OK(feast_summary_set_timing(s, "total", 3.5));
  CHECK_OK(feast_summary_set_timing(s, "linear_solve", 2.0));
  CHECK_OK(feast_summary_set_section_int(s, "solver", "iterations", 12));
  CHECK_OK(feast_summary_set_section_real(s, "solver", "rate", 0.0625));
  CHECK_OK(feast_summary_set_section_string(s, "solver", "reason", "rtol"));
  CHECK_OK(feast_summary_set_section_bool(s, "solver", "single", 0));
  CHECK_OK(feast_summary_set_section_real(s, "solver", "nan_rate", NAN));
  CHECK_OK(feast_summary_set_section_real(s, "solver.nested", "t", 0.5)); /* solver.nested.t */
  CHECK_OK(feast_summary_set_section_real(s, "solver.nested", "u", 1.5));
}

static void check_values(const cJSON *j) {
  CHECK(cJSON_IsObject(j));
  CHECK(!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(j, "problem")), "poisson"));
  CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(j, "ranks")) == 2);
  CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(j, "dofs")) == 4202496.0);
  CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(j, "level")) == 7);
  CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(j, "residual")) == 1.25e-9);
  CHECK(cJSON_IsNull(cJSON_GetObjectItem(j, "bad")));
  CHECK(cJSON_IsNull(cJSON_GetObjectItem(j, "worse")));
  CHECK(cJSON_IsTrue(cJSON_GetObjectItem(j, "converged")));
  const cJSON *t = cJSON_GetObjectItem(j, "timings"), *sv = cJSON_GetObjectItem(j, "solver");
  CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(t, "total")) == 3.5);
  CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(t, "linear_solve")) == 2.0);
  CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(sv, "iterations")) == 12);
  CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(sv, "rate")) == 0.0625);
  CHECK(!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(sv, "reason")), "rtol"));
  CHECK(cJSON_IsFalse(cJSON_GetObjectItem(sv, "single")));
  CHECK(cJSON_IsNull(cJSON_GetObjectItem(sv, "nan_rate")));
  const cJSON *nested = cJSON_GetObjectItem(sv, "nested");
  CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(nested, "t")) == 0.5);
  CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(nested, "u")) == 1.5);
  CHECK(cJSON_GetArraySize(sv) == 6);
  CHECK(cJSON_GetArraySize(j) == 11); /* level not duplicated */
}

static void test_errors(FeastSummary *s) {
  const char *bad = "/nonexistent_feast_dir/summary.json";
  CHECK(feast_summary_write(s, bad) == FEAST_ERR_FILE);
  CHECK(strstr(feast_error_message(), bad) != NULL);
  feast_error_clear();
  /* "problem" is a value, not a section */
  CHECK(feast_summary_set_section_int(s, "problem", "x", 1) == FEAST_ERR_ARG);
  CHECK(strstr(feast_error_message(), "\"problem\"") != NULL);
  feast_error_clear();
  CHECK(feast_summary_set_section_int(s, "solver.rate", "x", 1) == FEAST_ERR_ARG); /* a value */
  feast_error_clear();
  CHECK_FAILS(feast_summary_set_section_int(s, "solver.", "x", 1));
  CHECK_FAILS(feast_summary_set_section_int(s, ".solver", "x", 1));
  CHECK_FAILS(feast_summary_set_int(s, "", 1));
  CHECK_FAILS(feast_summary_set_int(NULL, "x", 1));
  CHECK_FAILS(feast_summary_write(s, ""));
}

static int run(void) {
  FeastSummary *s = NULL;
  CHECK_OK(feast_summary_create(&s));
  if (!s) return 1;
  fill(s);
  char dir[] = "/tmp/feast_summary_XXXXXX", path[256], tmp[300];
  CHECK(mkdtemp(dir) != NULL);
  snprintf(path, sizeof path, "%s/run.json", dir);
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  CHECK_OK(feast_summary_write(s, path));
  CHECK(access(tmp, F_OK) != 0); /* renamed away */
  cJSON *j = read_json(path);
  CHECK(j != NULL);
  if (j) check_values(j);
  cJSON_Delete(j);
  test_errors(s);
  feast_summary_destroy(&s);
  CHECK(s == NULL);
  feast_summary_destroy(&s); /* harmless */
  remove(path);
  rmdir(dir);
  return 0;
}

FEAST_TEST_MAIN(run)

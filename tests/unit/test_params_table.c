/* Typed parameters from the key tables (feast/config/config_params.c, FeastKeySpec.field):
 * the defaults that ns_params_defaults and scarc_params_defaults fill from the tables'
 * default strings equal what ns_params_from_config and scarc_params_from_config read
 * from an empty config; every row with a member round-trips (a value other than its
 * default, set on the command line, lands in its member and nowhere else, as the typed
 * getter reads it); a prefix inherits the keys it does not set; a member whose size does
 * not fit its kind is refused. */
#include "apps/app.h"
#include "navier_stokes/ns.h"
#include "navier_stokes/ns_config.h"
#include "navier_stokes/ns_keys.h"
#include "scarc/scarc_config.h"
#include "scarc/scarc_keys.h"
#include "feast/config/config_keys.h"
#include "feast/base/error.h"
#include "feast_test.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static FeastConfig *empty_config(void) {
  FeastConfig *cfg = NULL;
  CHECK_OK(feast_app_config_create(&cfg));
  return cfg;
}

/* the defaults from the tables are the values of an empty config, to the byte */
static void test_defaults(void) {
  static NsParams from_table, from_config;
  ScarcParams s_table, s_config;
  FeastConfig *cfg = empty_config();
  ns_params_defaults(&from_table);
  CHECK_OK(ns_params_from_config(cfg, &from_config));
  CHECK(memcmp(&from_table, &from_config, sizeof from_table) == 0);
  scarc_params_defaults(&s_table);
  CHECK_OK(scarc_params_from_config(cfg, "solver.", &s_config));
  CHECK(memcmp(&s_table, &s_config, sizeof s_table) == 0);
  /* a few defaults by name: the rows' strings */
  CHECK(from_table.nonlinear.rtol == 1e-8 && from_table.linear.restart == FEAST_AUTO &&
        from_table.velocity.max_iterations == FEAST_AUTO && from_table.linear.krylov == NS_KRYLOV_AUTO);
  CHECK(from_table.velocity.scarc.coarse_stabilisation == SCARC_STABILISATION_AUTO);
  CHECK(from_table.nonlinear.method == NS_NONLINEAR_AUTO && from_table.linear.factorisation == NS_FACTORISATION_LOWER);
  CHECK(from_table.time.steps_max == 100000 && from_table.time.tau_dt == 1 && from_table.time.checkpoint_interval == 1);
  CHECK(from_table.linear.residual_replacement_drop == 1.4901161193847656e-08 && from_table.nonlinear.divergence_factor == 1e4);
  CHECK(s_table.coarse_max_dofs == 2500 && s_table.local_jacobi_damping == 0.7 && s_table.local_gpu_min_nodes == 17);
  NsTimeParams t;
  ns_time_params_defaults(&t);
  CHECK(memcmp(&t, &from_table.time, sizeof t) == 0);
  feast_config_destroy(&cfg);
}

/* the text of a value of spec other than its default: the range's other end, the last (or
 * first) choice, a file name */
static const char *other_value(const FeastKeySpec *spec, char *buf, size_t size) {
  const double d = spec->default_value ? strtod(spec->default_value, NULL) : spec->min;
  switch (spec->type) {
  case FEAST_KEY_INT: snprintf(buf, size, "%.0f", d == spec->max ? spec->min : spec->max); break;
  case FEAST_KEY_REAL: snprintf(buf, size, "%.17g", d == spec->max ? spec->min : spec->max); break;
  case FEAST_KEY_ENUM: {
    const char *last = strrchr(spec->choices, '|');
    if (spec->default_value && strcmp(last + 1, spec->default_value) == 0)
      snprintf(buf, size, "%.*s", (int)strcspn(spec->choices, "|"), spec->choices);
    else snprintf(buf, size, "%s", last + 1);
    break;
  }
  default: snprintf(buf, size, "round-trip.ckpt"); break;
  }
  return buf;
}

/* 1 if the member of spec in p holds the value of name in cfg, as its getter reads it */
static int holds(const FeastConfig *cfg, const char *name, const FeastKeySpec *spec, const void *p) {
  const char *at = (const char *)p + spec->field.offset;
  long l = 0;
  double r = 0;
  int e = 0;
  char path[4096];
  switch (spec->type) {
  case FEAST_KEY_INT:
    CHECK_OK(feast_config_get_int(cfg, name, &l));
    if (spec->field.kind == FEAST_FIELD_LONG) return memcmp(at, &l, sizeof l) == 0;
    e = (int)l;
    return memcmp(at, &e, sizeof e) == 0;
  case FEAST_KEY_REAL: CHECK_OK(feast_config_get_real(cfg, name, &r)); return memcmp(at, &r, sizeof r) == 0;
  case FEAST_KEY_ENUM: CHECK_OK(feast_config_get_enum(cfg, name, &e)); return memcmp(at, &e, sizeof e) == 0;
  case FEAST_KEY_PATH: CHECK_OK(feast_config_get_path(cfg, name, path, sizeof path)); return strcmp(at, path) == 0;
  default: return 0;
  }
}

/* every row of table with a member: another value set lands in it and nowhere else */
static void round_trip(const FeastKeyTable *table, size_t size) {
  char *base = calloc(1, size), *got = calloc(1, size), name[256], value[256], assignment[600];
  int rows = 0;
  CHECK_OK(feast_params_defaults(table, base));
  for (int k = 0; k < table->nkeys; k++) {
    const FeastKeySpec *spec = &table->keys[k];
    if (spec->field.kind == FEAST_FIELD_NONE) continue;
    rows++;
    CHECK(spec->field.offset + spec->field.size <= size);
    snprintf(name, sizeof name, "%s.%s", spec->section, spec->key);
    snprintf(assignment, sizeof assignment, "%s=%s", name, other_value(spec, value, sizeof value));
    FeastConfig *cfg = empty_config();
    CHECK_OK(feast_config_override(cfg, assignment));
    memcpy(got, base, size);
    CHECK_OK(feast_params_from_config(cfg, table, NULL, got));
    int ok = holds(cfg, name, spec, got) && memcmp(got + spec->field.offset, base + spec->field.offset, spec->field.size);
    for (size_t i = 0; i < size; i++)
      if (got[i] != base[i] && (i < spec->field.offset || i >= spec->field.offset + spec->field.size)) ok = 0;
    if (!ok) printf("%s: not round-tripped\n", assignment);
    CHECK(ok);
    feast_config_destroy(&cfg);
  }
  printf("%s: %d rows with a member round-trip\n", table->layer, rows);
  CHECK(rows >= 18);
  free(base);
  free(got);
}

/* a prefix reads its own key where set, else the [solver] one: the A_p solves' [pressure]
 * ScaRC keys */
static void test_prefix(void) {
  FeastConfig *cfg = empty_config();
  ScarcParams p;
  static NsParams ns;
  CHECK_OK(feast_config_override(cfg, "solver.mg_pre_smooth=3"));
  CHECK_OK(feast_params_from_config(cfg, scarc_config_keys(), "velocity.", &p));
  CHECK(p.mg_pre_smooth == 3);
  CHECK_OK(feast_config_override(cfg, "pressure.local_max_cycles=5"));
  CHECK_OK(feast_config_override(cfg, "solver.target=gpu"));
  CHECK_OK(ns_params_from_config(cfg, &ns));
  CHECK(ns.pressure.scarc.mg_pre_smooth == 3 && ns.velocity.scarc.mg_pre_smooth == 3);
  CHECK(ns.pressure.scarc.local_max_cycles == 5 && ns.velocity.scarc.local_max_cycles == 16);
  CHECK(ns.pressure.scarc.target == SCARC_TARGET_GPU && ns.velocity.scarc.target == SCARC_TARGET_GPU);
  CHECK_FAILS(feast_config_override(cfg, "pressure.target=cpu")); /* the run's one switch: solver.target */
  feast_config_destroy(&cfg);
}

/* a member whose size does not fit its kind, a default that does not parse: refused */
typedef struct {
  double x;
  int i;
} Toy;
static void test_bad_rows(void) {
  FeastKeySpec rows[] = {{.section = "toy", .key = "x", .type = FEAST_KEY_INT, .default_value = "1", .max = 9,
                          .help = "toy", .field = {offsetof(Toy, x), sizeof(double), FEAST_FIELD_INT}}};
  FeastKeyTable table = {"toy", rows, 1, NULL, 0};
  Toy t;
  CHECK_FAILS(feast_params_defaults(&table, &t));
  rows[0].field = (FeastField){offsetof(Toy, i), sizeof(int), FEAST_FIELD_INT};
  CHECK_OK(feast_params_defaults(&table, &t));
  CHECK(t.i == 1);
  rows[0].default_value = "12";
  CHECK_FAILS(feast_params_defaults(&table, &t));
  int v = 0;
  CHECK_FAILS(feast_key_default(&table, "toy.y", FEAST_FIELD_INT, &v));
}

static int run(void) {
  test_defaults();
  round_trip(ns_config_keys(), sizeof(NsParams));
  round_trip(scarc_config_keys(), sizeof(ScarcParams));
  test_prefix();
  test_bad_rows();
  return 0;
}

FEAST_TEST_MAIN(run)

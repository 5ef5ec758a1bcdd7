/* The config adapter of scarc/: the only file of the layer that reads a FeastConfig
 * (scarc/scarc_config.h). */
#include "scarc/scarc_config.h"
#include "scarc/scarc_keys.h"
#include "feast/base/commstat.h"
#include "feast/base/error.h"
#include <stdio.h>
#include <string.h>

enum { KEY_MAX = 96 };

/* buf <- the key that holds ScaRC setting `key` under prefix: "<prefix><key>" where set,
 * else "solver.<key>" (see scarc_config.h) */
static const char *key_name(const FeastConfig *cfg, const char *prefix, const char *key, char buf[KEY_MAX]) {
  snprintf(buf, KEY_MAX, "%s%s", prefix, key);
  if (strcmp(prefix, "solver.") != 0 && !feast_config_is_set(cfg, buf)) snprintf(buf, KEY_MAX, "solver.%s", key);
  return buf;
}

int scarc_params_from_config(const FeastConfig *cfg, const char *prefix, ScarcParams *p) {
  FEAST_CHECK(cfg && prefix && p, FEAST_ERR_ARG, "scarc_params_from_config: NULL argument");
  scarc_params_defaults(p);
  FEAST_CALL(feast_params_from_config(cfg, scarc_config_keys(), prefix, p)); /* the keys with a member */
  /* the benchmark knob acts on every reduction of the run; every solver run reads its
   * solver parameters here, so this is where it is set */
  double latency_us;
  FEAST_CALL(feast_config_get_real(cfg, "debug.reduction_latency_us", &latency_us));
  feast_comm_set_reduction_latency(latency_us * 1e-6);
  return 0;
}

int scarc_linear_required(const FeastConfig *cfg, const char *prefix, const char *key, ScarcParams *p) {
  char step_key[KEY_MAX];
  const char *step, *method;
  FEAST_CALL(feast_config_get_string(cfg, key_name(cfg, prefix, "smoother_step", step_key), &step));
  FEAST_CALL(feast_config_get_string(cfg, key, &method));
  FEAST_CHECK(strcmp(step, "adaptive") != 0, FEAST_ERR_CONFIG,
              "%s: %s = adaptive makes the ScaRC V cycle a nonlinear map, which %s = %s (%s) "
              "cannot be preconditioned with (its recurrences assume a linear preconditioner: it would stall or "
              "diverge); set %s = fixed, or auto (the default)",
              feast_config_origin(cfg, step_key), step_key, key, method, feast_config_origin(cfg, key), step_key);
  if (p) {
    char why[2 * KEY_MAX];
    snprintf(why, sizeof why, "%s = %s", key, method);
    scarc_params_make_linear(p, why);
  }
  return 0;
}

int scarc_method_from_name(const char *scarc_solver, FeastKrylovMethod *m) {
  if (scarc_solver && strcmp(scarc_solver, "mg") == 0) {
    *m = FEAST_KRYLOV_RICHARDSON;
    return 0;
  }
  return feast_krylov_method_from_name(scarc_solver, m);
}

int feast_fault_params_from_config(const FeastConfig *cfg, FeastFaultParams *fp) {
  static const char *const modes[] = {[FEAST_FAULT_NONE] = "none", [FEAST_FAULT_NAN] = "nan",
                                      [FEAST_FAULT_FAIL] = "fail"};
  const char *mode;
  long rank;
  FEAST_CALL(feast_config_get_string(cfg, "debug.inject", &mode));
  FEAST_CALL(feast_config_get_int(cfg, "debug.inject_rank", &rank));
  fp->mode = FEAST_FAULT_NONE;
  for (int i = 0; i < (int)(sizeof modes / sizeof modes[0]); i++)
    if (strcmp(mode, modes[i]) == 0) fp->mode = (FeastFaultMode)i;
  fp->rank = (int)rank;
  return 0;
}

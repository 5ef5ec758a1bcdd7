/* The config front end of scarc/ (the one file of the layer that reads a FeastConfig,
 * scarc/scarc_config.c): typed parameters from the config's keys, and the checks of
 * combinations that are config errors naming the keys. The library itself
 * (scarc/scarc.h, solvers/krylov.h) takes only parameters.
 *
 * Prefixes, as PETSc's options prefixes: scarc_params_from_config(cfg, "velocity.", p)
 * reads each ScaRC key K as velocity.K where that key is set (in the file or on the
 * command line), and as solver.K otherwise (its value there, or the schema default). So
 * "solver." gives exactly the [solver] section, and an inner solver with its own prefix
 * inherits every [solver] setting it does not override: once the schema declares e.g.
 * pressure.mg_pre_smooth, a config can tune that solver apart without touching the code. */
#ifndef FEAST_SCARC_CONFIG_H
#define FEAST_SCARC_CONFIG_H
#include "feast/config/config.h"
#include "solvers/krylov.h"
#include "scarc/scarc.h"

/* *p <- the ScaRC parameters under prefix ("solver.", "velocity.", ...; see above).
 * Also sets the process-wide benchmark knob debug.reduction_latency_us
 * (feast_comm_set_reduction_latency): every solver run reads its parameters here. */
int scarc_params_from_config(const FeastConfig *cfg, const char *prefix, ScarcParams *p);

/* The method named by config key `key` (solver.scarc_solver, linear.krylov, ...) needs a
 * linear preconditioner (feast_krylov_needs_linear_preconditioner) made of the ScaRC V
 * cycle with the parameters of prefix: an explicit <prefix>smoother_step = adaptive is a
 * config error naming both keys; otherwise scarc_params_make_linear(p) (auto becomes
 * fixed, local cycles fixed; logged once). p = NULL only checks (the input phase). */
int scarc_linear_required(const FeastConfig *cfg, const char *prefix, const char *key, ScarcParams *p);

/* the value of a scarc_solver key ("mg" | a Krylov method's name) as the method
 * scarc_solve runs: "mg" is FEAST_KRYLOV_RICHARDSON (the V cycle as a stationary
 * iteration), the others the Krylov method of that name preconditioned by the V cycle */
int scarc_method_from_name(const char *scarc_solver, FeastKrylovMethod *m);

/* the test hook's parameters: debug.inject (none|nan|fail), debug.inject_rank */
int feast_fault_params_from_config(const FeastConfig *cfg, FeastFaultParams *fp);
#endif

/* problem.type = stokes | navier-stokes: the solver of navier_stokes/ns.h, its outputs
 * and the summary. */
#include "apps/navier_stokes3d.h"
#include "apps/navier_stokes_time.h"
#include "apps/problem.h"
#include "feast/base/error.h"
#include "feast/base/log.h"
#include "feast/la/mask.h"
#include "feast/base/signals.h"
#include "navier_stokes/ns_config.h"
#include "solvers/krylov.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int outputs(const FeastProblemContext *app, NsProblem *ns, int vtk) {
  char path[4096];
  FEAST_CALL(feast_config_get_path(app->cfg, "output.vtk", path, sizeof path));
  if (path[0] && vtk) {
    FEAST_CALL(ns_write_vtk(ns, path));
    feast_log(1, "  vtk: %s.pvtu\n", path);
  }
  FEAST_CALL(feast_config_get_path(app->cfg, "output.centerlines", path, sizeof path));
  if (path[0]) FEAST_CALL(ns_write_centerlines(ns, path));
  return 0;
}

/* the benchmark quantities the config asks for (output.forces_on, output.pressure_point_a
 * and _b, output.recirculation_from) */
static int report_benchmark(const FeastProblemContext *app, const NsProblem *ns) {
  FeastSummary *s = app->summary;
  const char *part;
  FEAST_CALL(feast_config_get_string(app->cfg, "output.forces_on", &part));
  if (part[0]) {
    double c[2];
    FEAST_CALL(ns_force_coefficients(ns, part, c));
    feast_summary_set_real(s, "drag_coefficient", c[0]);
    feast_summary_set_real(s, "lift_coefficient", c[1]);
    feast_log(1, "  %s: drag coefficient %.10f, lift coefficient %.10f\n", part, c[0], c[1]);
  }
  if (feast_config_is_set(app->cfg, "output.pressure_point_a")) {
    double a[2], b[2], dp;
    FEAST_CALL(feast_config_get_real2(app->cfg, "output.pressure_point_a", a));
    FEAST_CALL(feast_config_get_real2(app->cfg, "output.pressure_point_b", b));
    FEAST_CALL(ns_pressure_difference(ns, a, b, &dp));
    feast_summary_set_real(s, "pressure_difference", dp);
    feast_log(1, "  pressure difference p(%g, %g) - p(%g, %g) = %.10f\n", a[0], a[1], b[0], b[1], dp);
  }
  if (feast_config_is_set(app->cfg, "output.recirculation_from")) {
    double from[2], len;
    FEAST_CALL(feast_config_get_real2(app->cfg, "output.recirculation_from", from));
    FEAST_CALL(ns_recirculation(ns, from, &len));
    feast_summary_set_real(s, "recirculation_length", len);
    feast_log(1, "  recirculation length behind (%g, %g): %.10f\n", from[0], from[1], len);
  }
  return 0;
}

/* the separation and reattachment points of boundary part q (output.wall_shear_zeros_on) */
static int report_wall_zeros(const FeastProblemContext *app, const NsProblem *ns, const char *part) {
  enum { MAX_POINTS = 64 };
  double xy[2 * MAX_POINTS], x[MAX_POINTS];
  int n;
  FEAST_CALL(ns_wall_shear_zeros(ns, part, xy, MAX_POINTS, &n));
  if (n > MAX_POINTS) n = MAX_POINTS;
  feast_log(1, "  %s: the wall shear stress changes sign at %d point%s", part, n, n == 1 ? "" : "s");
  for (int k = 0; k < n; k++) {
    x[k] = xy[2 * k];
    feast_log(1, "%s(%.6g, %.6g)", k ? ", " : " ", xy[2 * k], xy[2 * k + 1]);
  }
  feast_log(1, "\n");
  char key[160];
  snprintf(key, sizeof key, "wall_shear_zeros_%s", part);
  return feast_summary_set_real_array(app->summary, key, x, n);
}

static int report_walls(const FeastProblemContext *app, const NsProblem *ns) {
  const FeastMesh *mesh = app->mesh;
  const char *list;
  unsigned char *parts;
  FEAST_CALL(feast_config_get_string(app->cfg, "output.wall_shear_zeros_on", &list));
  FEAST_CALL(FEAST_ALLOC(mesh->nparts + 1, &parts));
  int st = feast_mask_parse_parts(mesh, list, "output.wall_shear_zeros_on", parts);
  for (int q = 0; q < mesh->nparts && !st; q++)
    if (parts[q]) st = report_wall_zeros(app, ns, mesh->parts[q].name);
  free(parts);
  return st;
}

static int report(const FeastProblemContext *app, const NsProblem *ns, const NsResult *r) {
  FeastSummary *s = app->summary;
  double ke, eu, ep;
  FEAST_CALL(ns_kinetic_energy(ns, &ke));
  FEAST_CALL(ns_errors(ns, &eu, &ep));
  feast_summary_set_bool(s, "converged", r->converged);
  feast_summary_set_string(s, "reason", ns_status_name(r->reason));
  double re;
  FEAST_CALL(feast_config_get_real(app->cfg, "problem.re", &re));
  feast_summary_set_real(s, "re", re);
  feast_summary_set_real(s, "viscosity", ns_viscosity(ns));
  feast_summary_set_bool(s, "pressure_mean_zero", ns_pressure_nullspace(ns));
  feast_summary_set_int(s, "nonlinear_iterations", r->nonlinear_iterations);
  feast_summary_set_int(s, "linear_iterations", r->linear_iterations);
  feast_summary_set_int(s, "linear_capped", r->linear_capped);
  feast_summary_set_int(s, "newton_given_up", r->newton_given_up);
  feast_summary_set_real(s, "reductions_per_iteration", r->reductions_per_iteration);
  feast_summary_set_real(s, "exchanges_per_iteration", r->exchanges_per_iteration);
  feast_summary_set_real_array(s, "linear_iterations_per_step", r->linear_per_step, r->nonlinear_iterations);
  feast_summary_set_int(s, "global_mg_iterations", r->velocity_vcycles);
  feast_summary_set_real(s, "local_mg_cycles_per_solve", r->local_cycles_per_solve);
  feast_summary_set_real(s, "initial_residual", r->initial_residual);
  feast_summary_set_real(s, "nonlinear_residual", r->final_residual);
  /* continuation.method = auto: the stages after a direct attempt that failed or stalled */
  feast_summary_set_int(s, "continuation_stages", r->continuation_stages);
  if (r->continuation_stages) {
    feast_summary_set_string(s, "continuation_direct_reason", ns_status_name(r->direct_reason));
    feast_summary_set_int(s, "continuation_direct_iterations", r->direct_iterations);
    feast_summary_set_real_array(s, "continuation_re", r->continuation_re, r->continuation_stages);
    double steps[NS_MAX_STAGES + 1];
    for (int k = 0; k < r->continuation_stages; k++) steps[k] = r->continuation_iterations[k];
    feast_summary_set_real_array(s, "continuation_stage_iterations", steps, r->continuation_stages);
  }
  /* grid sequencing: what the coarser levels took (the counters above are the finest's) */
  if (r->coarse.levels) {
    feast_summary_set_int(s, "coarse_levels", r->coarse.levels);
    feast_summary_set_bool(s, "coarse_converged", r->coarse.converged);
    feast_summary_set_int(s, "coarse_nonlinear_iterations", r->coarse.nonlinear_iterations);
    feast_summary_set_int(s, "coarse_linear_iterations", r->coarse.linear_iterations);
  }
  feast_summary_set_real(s, "kinetic_energy", ke);
  if (!isnan(eu)) feast_summary_set_real(s, "velocity_l2_error", eu);
  if (!isnan(ep)) feast_summary_set_real(s, "pressure_l2_error", ep);
  feast_log(1, "  %s after %d nonlinear steps (%ld linear iterations, %ld velocity V cycles): residual %.3e "
            "(initial %.3e), kinetic energy %.10e\n",
            r->converged ? "converged" : r->stop_signal ? "interrupted" : "NOT converged", r->nonlinear_iterations, r->linear_iterations,
            r->velocity_vcycles, r->final_residual, r->initial_residual, ke);
  if (!isnan(eu) || !isnan(ep)) feast_log(1, "  l2 errors: velocity %.6e, pressure %.6e\n", eu, ep);
  if (r->linear_capped)
    feast_log(1, "  %d of %d linear solves stopped at their cap without converging\n", r->linear_capped,
              r->nonlinear_iterations);
  return 0;
}

/* stopped by a signal: the run ends soon (the scheduler's grace period), so only the
 * summary follows; the checkpoint (if configured) was written */
static int interrupted(const FeastProblemContext *app, const NsResult *res) {
  char path[4096];
  FEAST_CALL(feast_config_get_path(app->cfg, "output.checkpoint", path, sizeof path));
  return feast_error_set(FEAST_ERR_INTERRUPTED, __FILE__, __LINE__,
                         "stopped by %s after nonlinear step %d (residual %.3e, initial %.3e): %s%s%s",
                         feast_signal_name(res->stop_signal), res->nonlinear_iterations, res->final_residual,
                         res->initial_residual, path[0] ? "checkpoint written to " : "no checkpoint (output.checkpoint is not set)",
                         path, path[0] ? "; continue with --restart and that file" : "");
}

/* time.scheme set: the time steps, then the outputs of the last (good) state */
static int run_time(const FeastProblemContext *app, NsProblem *ns) {
  int final_vtk;
  const int st = ns_app_time_run(app, ns, &final_vtk);
  /* stopped by a signal: only the summary follows (as in the stationary run) */
  if (st && st != FEAST_ERR_NOT_CONVERGED) return st;
  const int out = outputs(app, ns, final_vtk);
  return out ? out : st;
}

static int run(const FeastProblemContext *app, int stokes) {
  if (app->dom->mesh->dim == 3) return ns_app_hex_run(app, stokes);
  NsProblem *ns = NULL;
  NsResult res;
  int st = ns_create(app->cfg, app->dom, stokes, &ns);
  if (!st) st = feast_summary_set_string(app->summary, "local_precision", ns_local_precision(ns));
  if (!st && ns_time_dependent(app->cfg)) {
    st = run_time(app, ns);
    ns_destroy(&ns);
    return st;
  }
  if (!st && app->restart) st = ns_restore(ns, app->restart);
  if (!st) st = ns_solve(ns, &res);
  if (!st) st = report(app, ns, &res);
  if (!st && res.stop_signal) {
    st = interrupted(app, &res);
    ns_destroy(&ns);
    return st;
  }
  if (!st) st = report_benchmark(app, ns);
  if (!st) st = report_walls(app, ns);
  if (!st) st = outputs(app, ns, 1); /* the last iterate is written also when not converged */
  if (!st && !res.converged) {
    char hint[512];
    ns_failure_hint(ns, &res, hint, sizeof hint);
    st = feast_error_set(FEAST_ERR_NOT_CONVERGED, __FILE__, __LINE__,
                         "the nonlinear solver stopped without converging: reason '%s' after %d steps "
                         "(nonlinear residual %.3e, initial %.3e)%s%s",
                         ns_status_name(res.reason), res.nonlinear_iterations, res.final_residual, res.initial_residual,
                         hint[0] ? "; " : "", hint);
  }
  ns_destroy(&ns);
  return st;
}

/* the files beside summary, VTK and checkpoint: the centre lines */
static int output_files(const FeastConfig *cfg, FeastPaths *paths) {
  char prefix[4096], file[4200];
  FEAST_CALL(feast_config_get_path(cfg, "output.timeseries", file, sizeof file));
  if (file[0]) FEAST_CALL(feast_paths_add_output(paths, "output.timeseries", file));
  FEAST_CALL(feast_config_get_path(cfg, "output.vtk", prefix, sizeof prefix));
  if (prefix[0] && feast_config_is_set(cfg, "output.vtk_every")) {
    snprintf(file, sizeof file, "%s.pvd", prefix);
    FEAST_CALL(feast_paths_add_atomic_output(paths, "output.vtk", file));
  }
  FEAST_CALL(feast_config_get_path(cfg, "output.centerlines", prefix, sizeof prefix));
  for (int k = 0; prefix[0] && k < 2; k++) {
    FEAST_CALL(ns_centerline_file_name(prefix, k, file, sizeof file));
    FEAST_CALL(feast_paths_add_atomic_output(paths, "output.centerlines", file));
  }
  return 0;
}

static int check(const FeastConfig *cfg, const FeastMesh *mesh, int stokes) {
  if (mesh->dim == 3) return ns_app_hex_check(cfg, mesh, stokes);
  FEAST_CALL(ns_check(cfg, mesh, stokes));
  FEAST_CALL(ns_app_time_check(cfg));
  return ns_check_benchmark(cfg, mesh);
}
static int stokes_check(const FeastConfig *cfg, const FeastMesh *mesh) { return check(cfg, mesh, 1); }
static int navier_stokes_check(const FeastConfig *cfg, const FeastMesh *mesh) { return check(cfg, mesh, 0); }
static int stokes_run(const FeastProblemContext *app) { return run(app, 1); }
static int navier_stokes_run(const FeastProblemContext *app) { return run(app, 0); }

/* the basis vectors of linear.krylov (fgmres: 2 restart + 1, 1.5 restart + 2.5 with the
 * single-precision basis, with the restart a Newton run grows to, ns_linear_restart_bound;
 * auto as the problem resolves it) of the 3 fields */
static double krylov_bytes(const FeastConfig *cfg, int stokes) {
  NsParams p;
  if (ns_params_from_config(cfg, &p)) return 0.0;
  const int restart = ns_linear_restart_bound(&p, stokes);
  const int stationary = p.time.scheme == NS_TIME_NONE; /* Anderson: stationary runs only (problem.c) */
  const int anderson = stationary && p.nonlinear.anderson_depth > 0 ? 2 * p.nonlinear.anderson_depth + 2 : 0;
  return (feast_krylov_basis_vectors(ns_krylov_choice(&p, stokes), restart, p.linear.single_basis) + anderson) * 3 *
         sizeof(double);
}
static double stokes_krylov_bytes(const FeastConfig *cfg) { return krylov_bytes(cfg, 1); }
static double navier_stokes_krylov_bytes(const FeastConfig *cfg) { return krylov_bytes(cfg, 0); }

/* measured: 1,620 bytes per node for fixed point at L = 7 on unitsquare8 (peak resident
 * set, one rank), Newton 2,320 (two more blocks and a second ScaRC; the preconditioner's
 * three velocity blocks add 216); the Krylov basis and Anderson's history apart
 * (krylov_bytes). On hexahedra (4 fields, 27 bands) the estimate is scaled by 4/3: the
 * 3D cavity at L = 4 (35,937 nodes) peaked at 4,900 bytes per node, half the estimate. */
/* device memory with solver.residency = device besides the Krylov basis and Anderson's
 * history (krylov_bytes): the emulator's peak was 1,900-4,500 bytes per node in all
 * (cavity L4-L6, DFG 2D-1 L3-L5, docs/benchmarks.md), the estimate with the basis at its
 * bound 2-5x that */
#define NS_DEVICE_BYTES_PER_NODE 2000.0
const FeastProblem feast_problem_stokes = {"stokes", 3, 2000.0, stokes_check, stokes_run, 0, output_files, 1,
                                           stokes_krylov_bytes, ns_checkpoint_check, 4, NS_DEVICE_BYTES_PER_NODE};
const FeastProblem feast_problem_navier_stokes = {"navier-stokes",   3, 2600.0, navier_stokes_check,
                                                  navier_stokes_run, 1, output_files, 1, navier_stokes_krylov_bytes,
                                                  ns_checkpoint_check, 4, NS_DEVICE_BYTES_PER_NODE};

/* problem.type = stokes | navier-stokes on a mesh of hexahedra (issue #47): the 3D flow
 * solver of navier_stokes/ns_hex.h from the config, its outputs and the summary. The keys
 * of the 2D solver that the 3D one does not have yet are errors in the input phase (one
 * message naming the key), never ignored. */
#include "apps/navier_stokes3d.h"
#include "feast/base/error.h"
#include "feast/base/log.h"
#include "feast/base/signals.h"
#include "navier_stokes/ns_config.h"
#include "navier_stokes/ns_hex.h"
#include <math.h>
#include <string.h>

/* outputs of the 2D flow problems that the 3D run does not write yet */
static const char *const not_yet_keys[] = {"output.forces_on",      "output.pressure_point_a", "output.pressure_point_b",
                                           "output.recirculation_from", "output.wall_shear_zeros_on",
                                           "output.timeseries",     "output.vtk_every",        "output.series_from",
                                           "output.matrix_market"};

int ns_app_hex_check(const FeastConfig *cfg, const FeastMesh *mesh, int stokes) {
  for (size_t i = 0; i < sizeof not_yet_keys / sizeof not_yet_keys[0]; i++)
    FEAST_CHECK(!feast_config_is_set(cfg, not_yet_keys[i]), FEAST_ERR_UNSUPPORTED,
                "%s (%s): not available for the flow problems on a mesh of hexahedra (3D) yet", not_yet_keys[i],
                feast_config_origin(cfg, not_yet_keys[i]));
  return ns_hex_check(cfg, mesh, stokes);
}

static int report(const FeastProblemContext *app, const NsHex *ns, const NsHexResult *r) {
  FeastSummary *s = app->summary;
  double ke, eu, ep;
  FEAST_CALL(ns_hex_kinetic_energy(ns, &ke));
  FEAST_CALL(ns_hex_errors(ns, &eu, &ep));
  feast_summary_set_bool(s, "converged", r->converged);
  feast_summary_set_string(s, "reason", feast_nonlinear_status_name(r->reason));
  feast_summary_set_real(s, "viscosity", ns_hex_viscosity(ns));
  feast_summary_set_bool(s, "pressure_mean_zero", ns_hex_pressure_nullspace(ns));
  feast_summary_set_int(s, "nonlinear_iterations", r->nonlinear_iterations);
  feast_summary_set_int(s, "linear_iterations", r->linear_iterations);
  feast_summary_set_int(s, "linear_capped", r->linear_capped);
  feast_summary_set_int(s, "global_mg_iterations", r->velocity_vcycles);
  feast_summary_set_real(s, "initial_residual", r->initial_residual);
  feast_summary_set_real(s, "nonlinear_residual", r->final_residual);
  feast_summary_set_real(s, "kinetic_energy", ke);
  if (!isnan(eu)) feast_summary_set_real(s, "velocity_l2_error", eu);
  if (!isnan(ep)) feast_summary_set_real(s, "pressure_l2_error", ep);
  feast_log(1, "  %s after %d nonlinear steps (%ld linear iterations, %ld velocity V cycles): residual %.3e "
            "(initial %.3e), kinetic energy %.10e\n",
            r->converged ? "converged" : r->stop_signal ? "interrupted" : "NOT converged", r->nonlinear_iterations,
            r->linear_iterations,
            r->velocity_vcycles, r->final_residual, r->initial_residual, ke);
  if (!isnan(eu) || !isnan(ep)) feast_log(1, "  l2 errors: velocity %.6e, pressure %.6e\n", eu, ep);
  return 0;
}

static int outputs(const FeastProblemContext *app, const NsHex *ns) {
  char path[4096];
  FEAST_CALL(feast_config_get_path(app->cfg, "output.vtk", path, sizeof path));
  if (path[0]) {
    FEAST_CALL(ns_hex_write_vtk(ns, path));
    feast_log(1, "  vtk: %s.pvtu\n", path);
  }
  FEAST_CALL(feast_config_get_path(app->cfg, "output.centerlines", path, sizeof path));
  return path[0] ? ns_hex_write_centerlines(ns, path) : 0;
}

int ns_app_hex_run(const FeastProblemContext *app, int stokes) {
  FEAST_CHECK(!app->restart, FEAST_ERR_UNSUPPORTED,
              "--restart: checkpoints of the flow problems on a mesh of hexahedra (3D) are not written or read yet");
  NsParams p;
  FEAST_CALL(ns_params_from_config(app->cfg, &p));
  NsHex *ns = NULL;
  NsHexResult res;
  int st = ns_hex_create(&p, app->dom, stokes, &ns);
  if (!st) st = ns_hex_solve(ns, &res);
  if (!st) st = report(app, ns, &res);
  if (!st && res.stop_signal) /* the run ends soon (the scheduler's grace period): only the summary follows */
    st = feast_error_set(FEAST_ERR_INTERRUPTED, __FILE__, __LINE__,
                         "stopped by %s after nonlinear step %d (residual %.3e, initial %.3e): no checkpoint (not "
                         "written on meshes of hexahedra yet)",
                         feast_signal_name(res.stop_signal), res.nonlinear_iterations, res.final_residual,
                         res.initial_residual);
  if (!st) st = outputs(app, ns); /* the last iterate also when not converged */
  if (!st && !res.converged)
    st = feast_error_set(FEAST_ERR_NOT_CONVERGED, __FILE__, __LINE__,
                         "the nonlinear solver stopped without converging: reason '%s' after %d steps "
                         "(nonlinear residual %.3e, initial %.3e)",
                         feast_nonlinear_status_name(res.reason), res.nonlinear_iterations, res.final_residual,
                         res.initial_residual);
  ns_hex_destroy(&ns);
  return st;
}

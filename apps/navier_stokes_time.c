/* A time-dependent navier-stokes run (time.scheme set): the time steps of
 * navier_stokes/ns.h (ns_time_run) with what the application does after each step:
 * the benchmark quantities (drag and lift coefficients, pressure difference), one CSV
 * line (output.timeseries), VTK snapshots with a ParaView collection (output.vtk,
 * output.vtk_every), a progress line with the time left; and at the end the summary's
 * benchmark quantities (navier_stokes/series.h).
 * Checkpoints (output.checkpoint) of a time run carry the monitor's series of all steps
 * so far (t, dt, c_D, c_L, dp, the counts and seconds of each step: "series.*" arrays):
 * a run continued with --restart rewrites output.timeseries from them, so the file is the
 * uninterrupted run's also when the killed run had written lines after its last
 * checkpoint, and the summary's series quantities (extrema, Strouhal number) are computed
 * from all steps, with or without output.timeseries. */
#include "apps/navier_stokes_time.h"
#include "feast/base/error.h"
#include "feast/base/log.h"
#include "feast/base/signals.h"
#include "feast/io/vtk.h"
#include "navier_stokes/ns_config.h"
#include "navier_stokes/series.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PATH_MAX_LEN = 4096 };

typedef struct {
  const FeastProblemContext *app;
  const char *forces_on;             /* output.forces_on, "" = none */
  int pressure_points;               /* output.pressure_point_a and _b set */
  double pa[2], pb[2];
  FILE *csv;                         /* output.timeseries (rank 0) */
  char csv_path[PATH_MAX_LEN];
  char vtk[PATH_MAX_LEN];            /* output.vtk with output.vtk_every, "" = no snapshots */
  long vtk_every;
  long n;                            /* samples so far */
  long n0;                           /* of them restored from the checkpoint */
  double *t, *cd, *cl, *dp, *sec;    /* the series, one value per step */
  double *dt, *nonlinear, *linear;   /* the other columns of the CSV */
  double *ass, *loc;                 /* T_ass and T_loc of each step (max over the ranks) */
  long nsnap;
  char **snap_files;
  double *snap_t;
  double started;                    /* wall time of the first step's start */
} Monitor;

/* the drag/lift coefficients and the pressure difference of the current solution (NaN
 * where not asked for) */
static int quantities(Monitor *m, const NsProblem *ns, double *cd, double *cl, double *dp) {
  *cd = *cl = *dp = NAN;
  if (m->forces_on[0]) {
    double c[2];
    FEAST_CALL(ns_force_coefficients(ns, m->forces_on, c));
    *cd = c[0], *cl = c[1];
  }
  if (m->pressure_points) FEAST_CALL(ns_pressure_difference(ns, m->pa, m->pb, dp));
  return 0;
}

/* "P_000012" for snapshot step k of prefix P, and its ParaView index name relative to P's folder */
static int snapshot(Monitor *m, const NsProblem *ns, long k, double t) {
  char base[PATH_MAX_LEN + 16], file[PATH_MAX_LEN + 32];
  snprintf(base, sizeof base, "%s_%06ld", m->vtk, k);
  FEAST_CALL(ns_write_vtk(ns, base));
  if (m->app->rank != 0) return 0;
  FEAST_CALL(feast_vtk_file_name(base, -1, file, sizeof file));
  const char *slash = strrchr(file, '/');
  const char *rel = slash ? slash + 1 : file;
  FEAST_CALL(FEAST_ALLOC(strlen(rel) + 1, &m->snap_files[m->nsnap]));
  memcpy(m->snap_files[m->nsnap], rel, strlen(rel) + 1);
  m->snap_t[m->nsnap++] = t;
  char pvd[PATH_MAX_LEN + 8];
  snprintf(pvd, sizeof pvd, "%s.pvd", m->vtk);
  return feast_vtk_write_pvd(pvd, (int)m->nsnap, (const char *const *)m->snap_files, m->snap_t);
}

static void time_left(double seconds, char *buf, size_t size) {
  if (seconds < 120) snprintf(buf, size, "%.0f s", seconds);
  else if (seconds < 7200) snprintf(buf, size, "%.1f min", seconds / 60);
  else snprintf(buf, size, "%.1f h", seconds / 3600);
}

/* the series' arrays for the whole run (steps values), once */
static int monitor_alloc(Monitor *m, long steps) {
  if (m->t) return 0;
  const long n = steps + 1;
  double **series[] = {&m->t, &m->cd, &m->cl, &m->dp, &m->sec, &m->dt, &m->nonlinear, &m->linear, &m->ass, &m->loc,
                       &m->snap_t};
  for (size_t k = 0; k < sizeof series / sizeof series[0]; k++) FEAST_CALL(FEAST_ALLOC(n, series[k]));
  return FEAST_ALLOC(n, &m->snap_files);
}

/* line i of output.timeseries */
static int csv_line(Monitor *m, long i) {
  if (!m->csv) return 0;
  fprintf(m->csv, "%.17g,%.17g,%.17g,%.17g,%.17g,%d,%ld,%.6f,%.6f,%.6f\n", m->t[i], m->dt[i], m->cd[i], m->cl[i],
          m->dp[i], (int)m->nonlinear[i], (long)m->linear[i], m->sec[i], m->ass[i], m->loc[i]);
  FEAST_CHECK(fflush(m->csv) == 0, FEAST_ERR_FILE, "output.timeseries %s: cannot write: %s", m->csv_path,
              strerror(errno));
  return 0;
}

static int after_step(void *ctx, const NsProblem *ns, const NsStepInfo *s) {
  Monitor *m = ctx;
  if (!m->started) m->started = feast_wtime() - s->seconds;
  FEAST_CALL(monitor_alloc(m, s->steps));
  double cd, cl, dp;
  FEAST_CALL(quantities(m, ns, &cd, &cl, &dp));
  const long i = m->n++;
  m->t[i] = s->t, m->cd[i] = cd, m->cl[i] = cl, m->dp[i] = dp, m->sec[i] = s->seconds;
  m->dt[i] = s->dt, m->nonlinear[i] = s->nonlinear_steps, m->linear[i] = (double)s->linear_iterations;
  double phases[2] = {s->assembly_seconds, s->local_seconds};
  FEAST_MPI_CALL(MPI_Allreduce(MPI_IN_PLACE, phases, 2, MPI_DOUBLE, MPI_MAX, m->app->dom->comm));
  m->ass[i] = phases[0], m->loc[i] = phases[1];
  FEAST_CALL(csv_line(m, i));
  if (m->vtk[0] && (s->step % m->vtk_every == 0 || s->step == s->steps)) FEAST_CALL(snapshot(m, ns, s->step, s->t));
  const double spent = feast_wtime() - m->started;
  char left[32];
  time_left(spent / (double)(s->step - m->n0) * (double)(s->steps - s->step), left, sizeof left);
  feast_log(1, "  step %6ld/%ld  t %-10.6g c_D %-12.8g c_L %-12.8g dp %-12.8g nonlinear %d  linear %3ld  %6.3f s  (%s left)\n",
            s->step, s->steps, s->t, cd, cl, dp, s->nonlinear_steps, s->linear_iterations, s->seconds, left);
  return 0;
}

static int monitor_open(const FeastProblemContext *app, Monitor *m) {
  memset(m, 0, sizeof *m);
  m->app = app;
  const FeastConfig *cfg = app->cfg;
  FEAST_CALL(feast_config_get_string(cfg, "output.forces_on", &m->forces_on));
  m->pressure_points = feast_config_is_set(cfg, "output.pressure_point_a");
  if (m->pressure_points) {
    FEAST_CALL(feast_config_get_real2(cfg, "output.pressure_point_a", m->pa));
    FEAST_CALL(feast_config_get_real2(cfg, "output.pressure_point_b", m->pb));
  }
  if (feast_config_is_set(cfg, "output.vtk_every")) {
    FEAST_CALL(feast_config_get_path(cfg, "output.vtk", m->vtk, sizeof m->vtk));
    FEAST_CALL(feast_config_get_int(cfg, "output.vtk_every", &m->vtk_every));
  }
  FEAST_CALL(feast_config_get_path(cfg, "output.timeseries", m->csv_path, sizeof m->csv_path));
  if (!m->csv_path[0] || app->rank != 0) return 0;
  m->csv = fopen(m->csv_path, "w");
  FEAST_CHECK(m->csv, FEAST_ERR_FILE, "output.timeseries = %s (%s): cannot write: %s", m->csv_path,
              feast_config_origin(cfg, "output.timeseries"), strerror(errno));
  fprintf(m->csv, "t,dt,drag_coefficient,lift_coefficient,pressure_difference,nonlinear_steps,linear_iterations,seconds,"
                  "assembly_seconds,local_mg_seconds\n");
  return 0;
}

/* the series in a checkpoint (ns.h's hook, rank 0) */
static const char *const series_names[] = {"series.t",       "series.dt",       "series.drag",     "series.lift",
                                           "series.dp",      "series.nonlinear", "series.linear",   "series.seconds",
                                           "series.assembly", "series.local_mg"};
enum { NSERIES = sizeof series_names / sizeof series_names[0] };
static void series_arrays(Monitor *m, double **x) {
  double *a[NSERIES] = {m->t, m->dt, m->cd, m->cl, m->dp, m->nonlinear, m->linear, m->sec, m->ass, m->loc};
  memcpy(x, a, sizeof a);
}

static int monitor_save(void *ctx, FeastCheckpoint *ck) {
  Monitor *m = ctx;
  double *x[NSERIES];
  series_arrays(m, x);
  FEAST_CALL(feast_checkpoint_set(ck, "series.count", "%ld", m->n));
  for (int k = 0; k < NSERIES; k++) FEAST_CALL(feast_checkpoint_add_array(ck, series_names[k], x[k], m->n));
  return 0;
}

/* --restart: the series of the steps done, output.timeseries rewritten with their lines,
 * the snapshots written so far back in the ParaView collection */
static int monitor_restore(Monitor *m, const FeastCheckpoint *ck, long steps) {
  long done, count;
  FEAST_CALL(ns_time_checkpoint_step(ck, &done));
  FEAST_CALL(feast_checkpoint_get_long(ck, "series.count", &count));
  FEAST_CHECK(count == done && done <= steps, FEAST_ERR_FILE,
              "checkpoint %s: %ld values of the series after time step %ld (of %ld)", feast_checkpoint_path(ck), count,
              done, steps);
  FEAST_CALL(monitor_alloc(m, steps));
  double *x[NSERIES];
  series_arrays(m, x);
  for (int k = 0; k < NSERIES; k++) {
    const double *stored;
    FEAST_CALL(feast_checkpoint_array(ck, series_names[k], count, &stored));
    if (count) memcpy(x[k], stored, (size_t)count * sizeof *stored);
  }
  m->n = m->n0 = count;
  for (long i = 0; i < count; i++) FEAST_CALL(csv_line(m, i));
  for (long j = 1; m->vtk[0] && m->app->rank == 0 && j <= count; j++) {
    if (j % m->vtk_every != 0 && j != steps) continue;
    char base[PATH_MAX_LEN + 32], file[PATH_MAX_LEN + 48];
    snprintf(base, sizeof base, "%s_%06ld", m->vtk, j);
    FEAST_CALL(feast_vtk_file_name(base, -1, file, sizeof file));
    const char *slash = strrchr(file, '/');
    const char *rel = slash ? slash + 1 : file;
    FEAST_CALL(FEAST_ALLOC(strlen(rel) + 1, &m->snap_files[m->nsnap]));
    memcpy(m->snap_files[m->nsnap], rel, strlen(rel) + 1);
    m->snap_t[m->nsnap++] = m->t[j - 1];
  }
  return 0;
}

static void monitor_close(Monitor *m) {
  if (m->csv) fclose(m->csv);
  for (long k = 0; k < m->nsnap; k++) free(m->snap_files[k]);
  void *arrays[] = {m->t,      m->cd,  m->cl,  m->dp,         m->sec,   m->dt, m->nonlinear,
                    m->linear, m->ass, m->loc, m->snap_files, m->snap_t};
  for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; k++) free(arrays[k]);
}

int ns_app_time_check(const FeastConfig *cfg) {
  const char *keys[] = {"output.vtk_every", "output.series_from"};
  for (int k = 0; k < 2; k++)
    FEAST_CHECK(ns_time_dependent(cfg) || !feast_config_is_set(cfg, keys[k]), FEAST_ERR_CONFIG,
                "%s (%s) needs a time-dependent run (time.scheme)", keys[k], feast_config_origin(cfg, keys[k]));
  if (!feast_config_is_set(cfg, "output.series_from")) return 0;
  double from, start, end;
  FEAST_CALL(feast_config_get_real(cfg, "output.series_from", &from));
  FEAST_CALL(feast_config_get_real(cfg, "time.start", &start));
  FEAST_CALL(feast_config_get_real(cfg, "time.end", &end));
  FEAST_CHECK(from >= start && from < end, FEAST_ERR_CONFIG,
              "output.series_from = %g (%s) must lie in [time.start, time.end) = [%g, %g)", from,
              feast_config_origin(cfg, "output.series_from"), start, end);
  return 0;
}

/* the steps of the series the summary's quantities are taken from (output.series_from) */
typedef struct {
  const double *t, *cd, *cl, *dp;
  long n;
  int pressure_points;
} Series;

static int series_window(const FeastConfig *cfg, const Monitor *m, Series *w) {
  long k = 0;
  if (feast_config_is_set(cfg, "output.series_from")) {
    double from;
    FEAST_CALL(feast_config_get_real(cfg, "output.series_from", &from));
    while (k < m->n - 1 && m->t[k] < from) k++; /* from < time.end (ns_app_time_check) */
    feast_log(1, "  series quantities from t = %.6g (output.series_from): %ld of %ld steps\n", m->t[k], m->n - k,
              m->n);
  }
  *w = (Series){m->t + k, m->cd + k, m->cl + k, m->dp + k, m->n - k, m->pressure_points};
  return 0;
}

/* summary key PREFIX_max / _min with their times */
static void extrema(FeastSummary *s, const char *prefix, const Series *m, const double *y) {
  char key[96], key_time[104];
  for (int sign = 1; sign >= -1; sign -= 2) {
    const NsSeriesPoint p = ns_series_extremum(m->t, y, m->n, sign);
    snprintf(key, sizeof key, "%s_%s", prefix, sign > 0 ? "max" : "min");
    snprintf(key_time, sizeof key_time, "%s_time", key);
    feast_summary_set_real(s, key, p.value);
    feast_summary_set_real(s, key_time, p.time);
    feast_log(1, "  %-24s %.10f at t = %.6f\n", key, p.value, p.time);
  }
}

/* the Strouhal number D f / U of the lift and the pressure difference half a period after
 * the last lift maximum (DFG 2D-2) */
static int periodic(const FeastProblemContext *app, const Series *m) {
  long periods;
  const double f = ns_series_frequency(m->t, m->cl, m->n, &periods);
  if (f <= 0.0) {
    feast_log(1, "  no periodic lift signal (fewer than 3 maxima in the second half of the run): no Strouhal number\n");
    return 0;
  }
  double U, D;
  FEAST_CALL(feast_config_get_real(app->cfg, "problem.reference_velocity", &U));
  FEAST_CALL(feast_config_get_real(app->cfg, "problem.reference_length", &D));
  feast_summary_set_real(app->summary, "strouhal_number", D * f / U);
  feast_summary_set_int(app->summary, "strouhal_periods", periods);
  feast_log(1, "  strouhal_number %.8f (frequency %.8f over %ld periods)\n", D * f / U, f, periods);
  if (!m->pressure_points) return 0;
  NsSeriesPoint last; /* the last lift maximum whose half period ends within the run */
  if (!ns_series_last_maximum(m->t, m->cl, m->n, 0.5 / f, &last)) return 0;
  const double s = last.time + 0.5 / f, dp = ns_series_at(m->t, m->dp, m->n, s);
  feast_summary_set_real(app->summary, "pressure_difference_at_lift_half_period", dp);
  feast_summary_set_real(app->summary, "pressure_difference_at_lift_half_period_time", s);
  feast_log(1, "  pressure_difference_at_lift_half_period %.10f at t = %.6f\n", dp, s);
  return 0;
}

/* the mean wall time per step over the first and the last quarter of the steps: a run
 * whose work or memory grows from step to step shows it here; and where a step's time
 * goes: its assembly (not accelerable) and local multigrids (accelerable), the Amdahl
 * fractions of the steps alone (the summary's amdahl object has the whole run's) */
static void step_times(FeastSummary *s, const Monitor *m) {
  const long q = m->n >= 4 ? m->n / 4 : 1;
  double first = 0.0, last = 0.0, all = 0.0, ass = 0.0, loc = 0.0;
  for (long k = 0; k < m->n; k++) all += m->sec[k], ass += m->ass[k], loc += m->loc[k];
  feast_summary_set_real(s, "assembly_seconds_per_step", ass / (double)m->n);
  feast_summary_set_real(s, "local_mg_seconds_per_step", loc / (double)m->n);
  feast_log(1, "  per step: T_ass %.4f s (R_ass %.3f, not accelerable), T_loc %.4f s (R_acc %.3f)\n", ass / (double)m->n,
            all > 0.0 ? ass / all : 0.0, loc / (double)m->n, all > 0.0 ? loc / all : 0.0);
  for (long k = 0; k < q; k++) first += m->sec[k], last += m->sec[m->n - 1 - k];
  feast_summary_set_real(s, "seconds_per_step", all / (double)m->n);
  feast_summary_set_real(s, "seconds_per_step_first_quarter", first / (double)q);
  feast_summary_set_real(s, "seconds_per_step_last_quarter", last / (double)q);
  feast_log(1, "  seconds per step: %.4f (first quarter of the steps %.4f, last quarter %.4f)\n", all / (double)m->n,
            first / (double)q, last / (double)q);
}

static int report(const FeastProblemContext *app, const NsProblem *ns, const NsTimeParams *p, const NsTimeResult *r,
                  const Monitor *m) {
  FeastSummary *s = app->summary;
  feast_summary_set_bool(s, "converged", r->converged);
  feast_summary_set_string(s, "reason", ns_time_status_name(r->reason));
  if (r->reason == NS_TIME_STEP_FAILED) feast_summary_set_string(s, "nonlinear_reason", ns_status_name(r->nonlinear_reason));
  double re, ke;
  FEAST_CALL(feast_config_get_real(app->cfg, "problem.re", &re));
  FEAST_CALL(ns_kinetic_energy(ns, &ke));
  feast_summary_set_real(s, "re", re);
  feast_summary_set_real(s, "viscosity", ns_viscosity(ns));
  feast_summary_set_int(s, "time_steps", r->steps);
  feast_summary_set_real(s, "time", r->t);
  feast_summary_set_real(s, "time_step", p->dt);
  feast_summary_set_int(s, "nonlinear_iterations", r->nonlinear_iterations);
  feast_summary_set_int(s, "linear_iterations", r->linear_iterations);
  feast_summary_set_int(s, "linear_capped", r->linear_capped);
  feast_summary_set_int(s, "global_mg_iterations", r->velocity_vcycles);
  feast_summary_set_real(s, "kinetic_energy", ke);
  double eu, ep;
  FEAST_CALL(ns_errors(ns, &eu, &ep));
  if (!isnan(eu)) feast_summary_set_real(s, "velocity_l2_error", eu);
  if (!isnan(ep)) feast_summary_set_real(s, "pressure_l2_error", ep);
  feast_log(1, "  %ld time steps to t = %.6g: %ld nonlinear steps, %ld linear iterations, kinetic energy %.10e\n",
            r->steps, r->t, r->nonlinear_iterations, r->linear_iterations, ke);
  if (r->linear_capped)
    feast_log(1, "  %ld of %ld linear solves stopped at their cap without converging\n", r->linear_capped,
              r->nonlinear_iterations);
  if (!isnan(eu) || !isnan(ep)) feast_log(1, "  l2 errors at t = %.6g: velocity %.6e, pressure %.6e\n", r->t, eu, ep);
  if (m->n == 0) return 0;
  step_times(s, m);
  if (m->forces_on[0]) {
    Series w = {0}; /* the window of the summary's series quantities */
    FEAST_CALL(series_window(app->cfg, m, &w));
    extrema(s, "drag_coefficient", &w, w.cd);
    extrema(s, "lift_coefficient", &w, w.cl);
    feast_summary_set_real(s, "drag_coefficient", m->cd[m->n - 1]);
    feast_summary_set_real(s, "lift_coefficient", m->cl[m->n - 1]);
    FEAST_CALL(periodic(app, &w));
  }
  if (m->pressure_points) {
    feast_summary_set_real(s, "pressure_difference_final", m->dp[m->n - 1]);
    feast_summary_set_real(s, "pressure_difference", m->dp[m->n - 1]);
    feast_log(1, "  pressure_difference_final %.10f at t = %.6f\n", m->dp[m->n - 1], m->t[m->n - 1]);
  }
  return 0;
}

/* the end of a run that did not reach time.end: a failed step (exit 2) or a signal (6) */
static int unfinished(const NsTimeParams *p, const NsTimeResult *r) {
  if (r->stop_signal)
    return feast_error_set(FEAST_ERR_INTERRUPTED, __FILE__, __LINE__, "stopped by %s after time step %ld (t = %.6g): %s%s%s",
                           feast_signal_name(r->stop_signal), r->steps, r->t,
                           p->checkpoint[0] ? "checkpoint written to " : "no checkpoint (output.checkpoint is not set)",
                           p->checkpoint, p->checkpoint[0] ? "; continue with --restart and that file" : "");
  return feast_error_set(FEAST_ERR_NOT_CONVERGED, __FILE__, __LINE__,
                         "time step %ld failed (the nonlinear solver stopped: '%s'); the outputs hold the last good "
                         "state, t = %.6g; try a smaller time.dt%s",
                         r->steps + 1, ns_status_name(r->nonlinear_reason), r->t,
                         r->nonlinear_reason == NS_MAX_ITERATIONS
                             ? " or a larger nonlinear.max_iterations"
                             : "");
}

int ns_app_time_run(const FeastProblemContext *app, NsProblem *ns, int *final_vtk) {
  NsTimeParams p;
  FEAST_CALL(ns_time_params_from_config(app->cfg, &p));
  Monitor m;
  NsTimeResult r = {0};
  int st = monitor_open(app, &m);
  if (!st && app->restart) st = ns_time_restore(ns, app->restart);
  if (!st && app->restart) st = monitor_restore(&m, app->restart, ns_time_step_count(&p));
  ns_time_set_checkpoint_hook(ns, monitor_save, &m);
  if (!st) st = ns_time_run(ns, &p, after_step, &m, &r);
  ns_time_set_checkpoint_hook(ns, NULL, NULL);
  if (!st) st = report(app, ns, &p, &r, &m);
  /* output.vtk at the end: without snapshots, or the last good state of a failed run */
  *final_vtk = !r.stop_signal && (!m.vtk[0] || !r.converged);
  monitor_close(&m);
  if (!st && !r.converged) st = unfinished(&p, &r);
  return st;
}

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

/* what the monitor computes and writes after each step: the benchmark quantities and
 * the output files with their settings */
typedef struct {
  const char *forces_on;             /* output.forces_on, "" = none */
  int pressure_points;               /* output.pressure_point_a and _b set */
  double pa[2], pb[2];               /* the two points of the pressure difference p(pa) - p(pb) */
  FILE *csv;                         /* output.timeseries (rank 0) */
  char csv_path[PATH_MAX_LEN];
  char vtk[PATH_MAX_LEN];            /* output.vtk with output.vtk_every, "" = no snapshots */
  long vtk_every;
} Outputs;

/* the series of the time steps, one value per step (the arrays for the whole run) */
typedef struct {
  long n;                            /* samples so far */
  long n0;                           /* of them restored from the checkpoint */
  double *t, *cd, *cl, *dp, *sec;    /* the series, one value per step */
  double *dt, *nonlinear, *linear;   /* the other columns of the CSV */
  double *ass, *loc;                 /* T_ass and T_loc of each step (max over the ranks) */
} StepSeries;

/* the VTK snapshots written so far: the ParaView collection's list (rank 0) */
typedef struct {
  long count;                        /* snapshots in the list */
  char **files;                      /* each one's index file, relative to output.vtk's folder */
  double *t;                         /* each one's time */
} Snapshots;

typedef struct {
  const FeastProblemContext *app;
  Outputs out;
  StepSeries series;
  Snapshots snapshots;
  double started;                    /* wall time of the first step's start */
} Monitor;

/* the drag/lift coefficients and the pressure difference of the current solution (NaN
 * where not asked for) */
static int quantities(const Outputs *out, const NsProblem *ns, double *cd, double *cl, double *dp) {
  *cd = *cl = *dp = NAN;
  if (out->forces_on[0]) {
    double c[2];
    FEAST_CALL(ns_force_coefficients(ns, out->forces_on, c));
    *cd = c[0], *cl = c[1];
  }
  if (out->pressure_points) FEAST_CALL(ns_pressure_difference(ns, out->pa, out->pb, dp));
  return 0;
}

/* "P_000012": the prefix of the files of snapshot step k of output.vtk = P */
static void snapshot_base(const char *vtk, long k, char *base, size_t size) {
  snprintf(base, size, "%s_%06ld", vtk, k);
}

/* snapshot step k (at time t) added to the ParaView collection's list: the name of its
 * index file relative to output.vtk's folder */
static int snapshot_add(Snapshots *snaps, const char *vtk, long k, double t) {
  char base[PATH_MAX_LEN + 32], file[PATH_MAX_LEN + 48];
  snapshot_base(vtk, k, base, sizeof base);
  FEAST_CALL(feast_vtk_file_name(base, -1, file, sizeof file));
  const char *slash = strrchr(file, '/');
  const char *rel = slash ? slash + 1 : file;
  FEAST_CALL(FEAST_ALLOC(strlen(rel) + 1, &snaps->files[snaps->count]));
  memcpy(snaps->files[snaps->count], rel, strlen(rel) + 1);
  snaps->t[snaps->count++] = t;
  return 0;
}

/* snapshot step k at time t: its VTK files, and on rank 0 the ParaView collection P.pvd
 * with it */
static int snapshot(Monitor *m, const NsProblem *ns, long k, double t) {
  char base[PATH_MAX_LEN + 32];
  snapshot_base(m->out.vtk, k, base, sizeof base);
  FEAST_CALL(ns_write_vtk(ns, base));
  if (m->app->rank != 0) return 0;
  Snapshots *snaps = &m->snapshots;
  FEAST_CALL(snapshot_add(snaps, m->out.vtk, k, t));
  char pvd[PATH_MAX_LEN + 8];
  snprintf(pvd, sizeof pvd, "%s.pvd", m->out.vtk);
  return feast_vtk_write_pvd(pvd, (int)snaps->count, (const char *const *)snaps->files, snaps->t);
}

static void time_left(double seconds, char *buf, size_t size) {
  if (seconds < 120) snprintf(buf, size, "%.0f s", seconds);
  else if (seconds < 7200) snprintf(buf, size, "%.1f min", seconds / 60);
  else snprintf(buf, size, "%.1f h", seconds / 3600);
}

/* the series' and the snapshots' arrays for the whole run (steps values), once */
static int monitor_alloc(Monitor *m, long steps) {
  StepSeries *series = &m->series;
  if (series->t) return 0;
  const long n = steps + 1;
  double **arrays[] = {&series->t, &series->cd, &series->cl, &series->dp, &series->sec, &series->dt,
                       &series->nonlinear, &series->linear, &series->ass, &series->loc, &m->snapshots.t};
  for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; k++) FEAST_CALL(FEAST_ALLOC(n, arrays[k]));
  return FEAST_ALLOC(n, &m->snapshots.files);
}

/* line i of output.timeseries */
static int csv_line(const Outputs *out, const StepSeries *series, long i) {
  if (!out->csv) return 0;
  fprintf(out->csv, "%.17g,%.17g,%.17g,%.17g,%.17g,%d,%ld,%.6f,%.6f,%.6f\n", series->t[i], series->dt[i],
          series->cd[i], series->cl[i], series->dp[i], (int)series->nonlinear[i], (long)series->linear[i],
          series->sec[i], series->ass[i], series->loc[i]);
  FEAST_CHECK(fflush(out->csv) == 0, FEAST_ERR_FILE, "output.timeseries %s: cannot write: %s", out->csv_path,
              strerror(errno));
  return 0;
}

/* sample i of the series: step s with its quantities cd, cl, dp; T_ass and T_loc are the
 * maximum over the ranks of comm */
static int series_record(StepSeries *series, long i, const NsStepInfo *s, double cd, double cl, double dp,
                         MPI_Comm comm) {
  series->t[i] = s->t, series->cd[i] = cd, series->cl[i] = cl, series->dp[i] = dp;
  series->sec[i] = s->seconds, series->dt[i] = s->dt;
  series->nonlinear[i] = s->nonlinear_steps, series->linear[i] = (double)s->linear_iterations;
  double phases[2] = {s->assembly_seconds, s->local_seconds};
  FEAST_MPI_CALL(MPI_Allreduce(MPI_IN_PLACE, phases, 2, MPI_DOUBLE, MPI_MAX, comm));
  series->ass[i] = phases[0], series->loc[i] = phases[1];
  return 0;
}

/* the progress line of step s, with the time left estimated from the steps of this run */
static void progress(const Monitor *m, const NsStepInfo *s, double cd, double cl, double dp) {
  const double spent = feast_wtime() - m->started;
  char left[32];
  time_left(spent / (double)(s->step - m->series.n0) * (double)(s->steps - s->step), left, sizeof left);
  feast_log(1, "  step %6ld/%ld  t %-10.6g c_D %-12.8g c_L %-12.8g dp %-12.8g nonlinear %d  linear %3ld  %6.3f s  (%s left)\n",
            s->step, s->steps, s->t, cd, cl, dp, s->nonlinear_steps, s->linear_iterations, s->seconds, left);
}

static int after_step(void *ctx, const NsProblem *ns, const NsStepInfo *s) {
  Monitor *m = ctx;
  if (!m->started) m->started = feast_wtime() - s->seconds;
  FEAST_CALL(monitor_alloc(m, s->steps));
  double cd, cl, dp;
  FEAST_CALL(quantities(&m->out, ns, &cd, &cl, &dp));
  const long i = m->series.n++;
  FEAST_CALL(series_record(&m->series, i, s, cd, cl, dp, m->app->dom->comm));
  FEAST_CALL(csv_line(&m->out, &m->series, i));
  if (m->out.vtk[0] && (s->step % m->out.vtk_every == 0 || s->step == s->steps))
    FEAST_CALL(snapshot(m, ns, s->step, s->t));
  progress(m, s, cd, cl, dp);
  return 0;
}

static int monitor_open(const FeastProblemContext *app, Monitor *m) {
  memset(m, 0, sizeof *m);
  m->app = app;
  const FeastConfig *cfg = app->cfg;
  Outputs *out = &m->out;
  FEAST_CALL(feast_config_get_string(cfg, "output.forces_on", &out->forces_on));
  out->pressure_points = feast_config_is_set(cfg, "output.pressure_point_a");
  if (out->pressure_points) {
    FEAST_CALL(feast_config_get_real2(cfg, "output.pressure_point_a", out->pa));
    FEAST_CALL(feast_config_get_real2(cfg, "output.pressure_point_b", out->pb));
  }
  if (feast_config_is_set(cfg, "output.vtk_every")) {
    FEAST_CALL(feast_config_get_path(cfg, "output.vtk", out->vtk, sizeof out->vtk));
    FEAST_CALL(feast_config_get_int(cfg, "output.vtk_every", &out->vtk_every));
  }
  FEAST_CALL(feast_config_get_path(cfg, "output.timeseries", out->csv_path, sizeof out->csv_path));
  if (!out->csv_path[0] || app->rank != 0) return 0;
  out->csv = fopen(out->csv_path, "w");
  FEAST_CHECK(out->csv, FEAST_ERR_FILE, "output.timeseries = %s (%s): cannot write: %s", out->csv_path,
              feast_config_origin(cfg, "output.timeseries"), strerror(errno));
  fprintf(out->csv, "t,dt,drag_coefficient,lift_coefficient,pressure_difference,nonlinear_steps,linear_iterations,seconds,"
                    "assembly_seconds,local_mg_seconds\n");
  return 0;
}

/* the series in a checkpoint (ns.h's hook, rank 0) */
static const char *const series_names[] = {"series.t",       "series.dt",       "series.drag",     "series.lift",
                                           "series.dp",      "series.nonlinear", "series.linear",   "series.seconds",
                                           "series.assembly", "series.local_mg"};
enum { NSERIES = sizeof series_names / sizeof series_names[0] };
static void series_arrays(const StepSeries *series, double **x) {
  double *a[NSERIES] = {series->t,         series->dt,     series->cd,  series->cl,  series->dp,
                        series->nonlinear, series->linear, series->sec, series->ass, series->loc};
  memcpy(x, a, sizeof a);
}

static int monitor_save(void *ctx, FeastCheckpoint *ck) {
  const StepSeries *series = &((Monitor *)ctx)->series;
  double *x[NSERIES];
  series_arrays(series, x);
  FEAST_CALL(feast_checkpoint_set(ck, "series.count", "%ld", series->n));
  for (int k = 0; k < NSERIES; k++) FEAST_CALL(feast_checkpoint_add_array(ck, series_names[k], x[k], series->n));
  return 0;
}

/* the snapshots of the first count of the steps back in the ParaView collection's list
 * (rank 0; the files are there from the run that wrote the checkpoint) */
static int restore_snapshots(Monitor *m, long count, long steps) {
  const Outputs *out = &m->out;
  for (long j = 1; out->vtk[0] && m->app->rank == 0 && j <= count; j++) {
    if (j % out->vtk_every != 0 && j != steps) continue;
    FEAST_CALL(snapshot_add(&m->snapshots, out->vtk, j, m->series.t[j - 1]));
  }
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
  StepSeries *series = &m->series;
  double *x[NSERIES];
  series_arrays(series, x);
  for (int k = 0; k < NSERIES; k++) {
    const double *stored;
    FEAST_CALL(feast_checkpoint_array(ck, series_names[k], count, &stored));
    if (count) memcpy(x[k], stored, (size_t)count * sizeof *stored);
  }
  series->n = series->n0 = count;
  for (long i = 0; i < count; i++) FEAST_CALL(csv_line(&m->out, series, i));
  return restore_snapshots(m, count, steps);
}

static void monitor_close(Monitor *m) {
  if (m->out.csv) fclose(m->out.csv);
  const StepSeries *series = &m->series;
  const Snapshots *snaps = &m->snapshots;
  for (long k = 0; k < snaps->count; k++) free(snaps->files[k]);
  void *arrays[] = {series->t, series->cd, series->cl, series->dp, series->sec, series->dt,
                    series->nonlinear, series->linear, series->ass, series->loc, snaps->files, snaps->t};
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
} SeriesWindow;

static int series_window(const FeastConfig *cfg, const Monitor *m, SeriesWindow *w) {
  const StepSeries *series = &m->series;
  long k = 0;
  if (feast_config_is_set(cfg, "output.series_from")) {
    double from;
    FEAST_CALL(feast_config_get_real(cfg, "output.series_from", &from));
    while (k < series->n - 1 && series->t[k] < from) k++; /* from < time.end (ns_app_time_check) */
    feast_log(1, "  series quantities from t = %.6g (output.series_from): %ld of %ld steps\n", series->t[k],
              series->n - k, series->n);
  }
  *w = (SeriesWindow){series->t + k, series->cd + k, series->cl + k, series->dp + k, series->n - k,
                      m->out.pressure_points};
  return 0;
}

/* summary key PREFIX_max / _min with their times */
static void extrema(FeastSummary *s, const char *prefix, const SeriesWindow *w, const double *y) {
  char key[96], key_time[104];
  for (int sign = 1; sign >= -1; sign -= 2) {
    const NsSeriesPoint p = ns_series_extremum(w->t, y, w->n, sign);
    snprintf(key, sizeof key, "%s_%s", prefix, sign > 0 ? "max" : "min");
    snprintf(key_time, sizeof key_time, "%s_time", key);
    feast_summary_set_real(s, key, p.value);
    feast_summary_set_real(s, key_time, p.time);
    feast_log(1, "  %-24s %.10f at t = %.6f\n", key, p.value, p.time);
  }
}

/* the Strouhal number D f / U of the lift and the pressure difference half a period after
 * the last lift maximum (DFG 2D-2) */
static int periodic(const FeastProblemContext *app, const SeriesWindow *w) {
  long periods;
  const double f = ns_series_frequency(w->t, w->cl, w->n, &periods);
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
  if (!w->pressure_points) return 0;
  NsSeriesPoint last; /* the last lift maximum whose half period ends within the run */
  if (!ns_series_last_maximum(w->t, w->cl, w->n, 0.5 / f, &last)) return 0;
  const double s = last.time + 0.5 / f, dp = ns_series_at(w->t, w->dp, w->n, s);
  feast_summary_set_real(app->summary, "pressure_difference_at_lift_half_period", dp);
  feast_summary_set_real(app->summary, "pressure_difference_at_lift_half_period_time", s);
  feast_log(1, "  pressure_difference_at_lift_half_period %.10f at t = %.6f\n", dp, s);
  return 0;
}

/* the mean wall time per step over the first and the last quarter of the steps: a run
 * whose work or memory grows from step to step shows it here; and where a step's time
 * goes: its assembly (not accelerable) and local multigrids (accelerable), the Amdahl
 * fractions of the steps alone (the summary's amdahl object has the whole run's) */
static void step_times(FeastSummary *s, const StepSeries *series) {
  const long q = series->n >= 4 ? series->n / 4 : 1;
  double first = 0.0, last = 0.0, all = 0.0, ass = 0.0, loc = 0.0;
  for (long k = 0; k < series->n; k++) all += series->sec[k], ass += series->ass[k], loc += series->loc[k];
  feast_summary_set_real(s, "assembly_seconds_per_step", ass / (double)series->n);
  feast_summary_set_real(s, "local_mg_seconds_per_step", loc / (double)series->n);
  feast_log(1, "  per step: T_ass %.4f s (R_ass %.3f, not accelerable), T_loc %.4f s (R_acc %.3f)\n",
            ass / (double)series->n, all > 0.0 ? ass / all : 0.0, loc / (double)series->n, all > 0.0 ? loc / all : 0.0);
  for (long k = 0; k < q; k++) first += series->sec[k], last += series->sec[series->n - 1 - k];
  feast_summary_set_real(s, "seconds_per_step", all / (double)series->n);
  feast_summary_set_real(s, "seconds_per_step_first_quarter", first / (double)q);
  feast_summary_set_real(s, "seconds_per_step_last_quarter", last / (double)q);
  feast_log(1, "  seconds per step: %.4f (first quarter of the steps %.4f, last quarter %.4f)\n",
            all / (double)series->n, first / (double)q, last / (double)q);
}

/* the summary's quantities of the series (none without steps): the step times, the last
 * values, and the extrema and the periodic quantities of the window output.series_from */
static int report_series(const FeastProblemContext *app, const Monitor *m) {
  FeastSummary *s = app->summary;
  const StepSeries *series = &m->series;
  if (series->n == 0) return 0;
  step_times(s, series);
  const long last = series->n - 1;
  if (m->out.forces_on[0]) {
    SeriesWindow w = {0}; /* the window of the summary's series quantities */
    FEAST_CALL(series_window(app->cfg, m, &w));
    extrema(s, "drag_coefficient", &w, w.cd);
    extrema(s, "lift_coefficient", &w, w.cl);
    feast_summary_set_real(s, "drag_coefficient", series->cd[last]);
    feast_summary_set_real(s, "lift_coefficient", series->cl[last]);
    FEAST_CALL(periodic(app, &w));
  }
  if (m->out.pressure_points) {
    feast_summary_set_real(s, "pressure_difference_final", series->dp[last]);
    feast_summary_set_real(s, "pressure_difference", series->dp[last]);
    feast_log(1, "  pressure_difference_final %.10f at t = %.6f\n", series->dp[last], series->t[last]);
  }
  return 0;
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
  return report_series(app, m);
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
  *final_vtk = !r.stop_signal && (!m.out.vtk[0] || !r.converged);
  monitor_close(&m);
  if (!st && !r.converged) st = unfinished(&p, &r);
  return st;
}

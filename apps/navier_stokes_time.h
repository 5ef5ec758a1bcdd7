/* The time-dependent navier-stokes run of the feastc application (apps/navier_stokes_time.c). */
#ifndef FEAST_APPS_NAVIER_STOKES_TIME_H
#define FEAST_APPS_NAVIER_STOKES_TIME_H
#include "apps/problem.h"
#include "navier_stokes/ns.h"

/* the time steps of ns (created, time.scheme set) with the step outputs and the summary;
 * FEAST_ERR_NOT_CONVERGED (a failed step: ns holds the last good state) or
 * FEAST_ERR_INTERRUPTED with the message set; *final_vtk: output.vtk is still to be
 * written (no snapshots were asked for, or the run failed) */
/* input phase: the outputs of a time run (output.vtk_every, output.series_from: a time run's
 * keys, series_from within [time.start, time.end)) */
int ns_app_time_check(const FeastConfig *cfg);
int ns_app_time_run(const FeastProblemContext *app, NsProblem *ns, int *final_vtk);
#endif

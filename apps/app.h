/* The feastc application layer: one run = config -> mesh -> domain -> problem ->
 * outputs. Problems (poisson, later stokes / navier-stokes) plug in by name. */
#ifndef FEAST_APP_H
#define FEAST_APP_H
#include "feast/config.h"
#include "feast/domain.h"
#include "feast/mesh.h"
#include "feast/summary.h"

typedef struct {
  FeastConfig *cfg;
  FeastMesh *mesh;
  FeastDomain *dom;
  FeastSummary *summary;
  int rank, size;
  int level;
  const char *problem;   /* problem.type */
  int fields;            /* unknowns per node: 1 (poisson) or 3 (u1, u2, p) */
  int exit_status;       /* status the run ends with (non-convergence is FEAST_ERR_NOT_CONVERGED) */
} FeastApp;

/* the whole program: returns the process exit code */
int feast_app_main(int argc, char **argv);

/* Test hooks (debug.inject = nan | fail, debug.inject_rank): wraps a preconditioner so
 * that its second application puts a NaN into the result, or fails on one rank. */
#include "scarc/krylov.h"
typedef struct {
  FeastLinOp inner;
  int mode; /* 0 none, 1 nan, 2 fail */
  int on_this_rank;
  long calls;
} FeastInjectOp;
int feast_app_inject(FeastApp *app, FeastLinOp inner, FeastInjectOp *hook, FeastLinOp *wrapped);

/* problems */
int feast_poisson_run(FeastApp *app);

/* wall time when the run started (MPI_Wtime) */
double feast_app_start_time(void);

/* estimated bytes the run needs on all ranks together */
double feast_app_memory_estimate(const FeastMesh *mesh, int level, int fields);
#endif

/* What a problem (poisson, stokes, navier-stokes) gets from the feastc framework, and the
 * registry entry it provides (PETSc's XXXRegister pattern). A problem sees the framework
 * only through this header, so no problem library depends back on apps/app.c, and
 * adding a problem is a new file plus one line in apps/problems.c. */
#ifndef FEAST_APPS_PROBLEM_H
#define FEAST_APPS_PROBLEM_H
#include "feast/config.h"
#include "feast/domain.h"
#include "feast/mesh.h"
#include "feast/summary.h"

typedef struct {
  const FeastConfig *cfg;
  const FeastMesh *mesh;
  const FeastDomain *dom;
  FeastSummary *summary;
  int rank, size;
  double start_time; /* wall time when the run started (MPI_Wtime) */
  /* The framework prints the timings and the Amdahl figures (feast/amdahl.h) after the
   * run and writes them to the summary; a problem brackets its phases with the standard
   * timers (feast/log.h: assembly, linear_solve; ScaRC times solver_setup, local_mg). */
} FeastProblemContext;

typedef struct {
  const char *name; /* the value of problem.type */
  int fields;       /* unknowns per node */
  /* bytes of memory per node of the finest level, all levels and work vectors included
   * (an upper estimate measured on this code: the check before allocating uses it) */
  double bytes_per_node;
  /* input phase, on every rank before the domain exists: validate the problem's config
   * keys against the mesh, so that bad input ends in one message and exit 1 */
  int (*check)(const FeastConfig *cfg, const FeastMesh *mesh);
  /* the run: returns FEAST_ERR_NOT_CONVERGED (with its message set) when the solver
   * stopped without converging, after writing its results */
  int (*run)(const FeastProblemContext *ctx);
  /* 1: a nonlinear run, whose accelerable fraction R_acc is T_loc / T_tot (the FEAST
   * paper's Tables 3 and 4); 0: a linear problem, R_acc = T_loc / T_lin (Table 2) */
  int nonlinear;
} FeastProblem;

/* the registered problem of that name, or NULL */
const FeastProblem *feast_problem_find(const char *name);
/* "poisson stokes navier-stokes" */
const char *feast_problem_names(void);
#endif

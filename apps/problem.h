/* What a problem (poisson, stokes, navier-stokes) gets from the feastc framework, and the
 * registry entry it provides (PETSc's XXXRegister pattern). A problem sees the framework
 * only through this header, so no problem library depends back on apps/app.c, and
 * adding a problem is a new file plus one line in apps/problems.c. */
#ifndef FEAST_APPS_PROBLEM_H
#define FEAST_APPS_PROBLEM_H
#include "feast/io/checkpoint.h"
#include "feast/config/config.h"
#include "feast/parallel/domain.h"
#include "feast/mesh/mesh.h"
#include "feast/base/paths.h"
#include "feast/io/summary.h"

typedef struct {
  const FeastConfig *cfg;
  const FeastMesh *mesh;
  const FeastDomain *dom;
  FeastSummary *summary;
  int rank, size;
  double start_time; /* wall time when the run started (MPI_Wtime) */
  /* --restart FILE: the checkpoint, read, verified and matched against config and mesh
   * in the input phase (feast/io/checkpoint.h); NULL for a fresh run */
  const FeastCheckpoint *restart;
  /* The framework prints the timings and the Amdahl figures (feast/io/amdahl.h) after the
   * run and writes them to the summary; a problem brackets its phases with the standard
   * timers (feast/base/log.h: assembly, linear_solve; ScaRC times solver_setup, local_mg). */
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
  /* the files the problem writes besides the summary, output.vtk and output.checkpoint
   * (which the framework registers), registered for the clobber check of the input
   * phase (feast/base/paths.h); NULL: none */
  int (*outputs)(const FeastConfig *cfg, FeastPaths *paths);
  /* 1: the problem writes output.checkpoint, continues from --restart and stops at a
   * safe point on SIGTERM/SIGINT (FEAST_ERR_INTERRUPTED); 0: it rejects both */
  int restartable;
  /* bytes per node that the configuration adds to bytes_per_node (a Krylov method with a
   * basis: fgmres), for the memory check; NULL: none */
  double (*config_bytes_per_node)(const FeastConfig *cfg);
  /* input phase, --restart: whether the checkpoint (read and matched against config and
   * mesh) can continue this run (e.g. its kind: stationary or time-dependent); NULL: any */
  int (*restart_check)(const FeastCheckpoint *ck, const FeastConfig *cfg);
  /* > 0: it also runs on meshes of hexahedra (3D), with this many unknowns per node (the
   * memory estimate scales bytes_per_node by it over `fields`); 0: quadrilaterals only, a
   * 3D mesh is refused in the input phase */
  int hexahedra;
  /* bytes of device memory per node of the finest level with solver.residency = device
   * (vectors, matrices of every level, the local multigrids; config_bytes_per_node's
   * vectors added): an upper estimate measured on this code for the check before any
   * solve */
  double device_bytes_per_node;
} FeastProblem;

/* the registered problem of that name, or NULL */
const FeastProblem *feast_problem_find(const char *name);
/* "poisson stokes navier-stokes" */
const char *feast_problem_names(void);
#endif

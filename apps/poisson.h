/* Private to the Poisson problem (apps/poisson.c, its 3D part apps/poisson3d.c): what a
 * run takes from the config and what it gives back for the report. */
#ifndef FEAST_APPS_POISSON_H
#define FEAST_APPS_POISSON_H
#include "apps/problem.h"
#include "feast/la/mask.h"
#include "scarc/scarc.h"
#include "solvers/krylov.h"

typedef struct {
  /* in: solver.scarc_solver, the [solver] tolerances, solver.initial_guess = random */
  FeastKrylovMethod method;
  FeastSolveParams solve_params;
  int random_start;
  /* out */
  FeastSolveResult res;
  double l2_error;
  int coarse_level;
} FeastPoissonRun;

/* output.vtk (if set): u on the finest level, quadrilaterals or hexahedra */
int feast_poisson_write_vtk(const FeastProblemContext *app, const FeastVec *x);
/* the run on a mesh of hexahedra (apps/poisson3d.c): ScaRC on hexahedra with parameters
 * p, the Dirichlet nodes of mask, output.vtk written */
int feast_poisson3d_run(const FeastProblemContext *app, const FeastMask *mask, const ScarcParams *p, FeastPoissonRun *r);
#endif

/* The stokes and navier-stokes runs of the feastc application on meshes of hexahedra
 * (apps/navier_stokes3d.c, the solver of navier_stokes/ns_hex.h). */
#ifndef FEAST_APPS_NAVIER_STOKES3D_H
#define FEAST_APPS_NAVIER_STOKES3D_H
#include "apps/problem.h"

/* input phase: the keys the 3D run takes (the 2D ones it does not have yet are errors) */
int ns_app_hex_check(const FeastConfig *cfg, const FeastMesh *mesh, int stokes);
/* the stationary solve, its summary and outputs; FEAST_ERR_NOT_CONVERGED with the message set */
int ns_app_hex_run(const FeastProblemContext *app, int stokes);
#endif

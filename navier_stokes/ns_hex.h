/* The stationary Stokes and Navier-Stokes equations on meshes of hexahedral macros (issue
 * #47, first version): Q1/Q1 with SUPG/PSPG (navier_stokes/hex_forms.h), the fixed point
 * (defect correction with the convection linearised at the last iterate) by the nonlinear
 * solver of solvers/nonlinear.h, each step's linear system by FGMRES preconditioned with
 * the block-triangular K_s = [A 0; BT -S~] of the FEAST paper: one V cycle of two-layer
 * ScaRC on hexahedra (scarc/scarc_hex.h) per velocity component, S~ = M_p^L / nu (the
 * lumped pressure mass). The parameters are the 2D solver's NsParams (navier_stokes/ns.h)
 * with the third velocity component (NsBoundaryValues.w, NsPhysicsParams.force_z,
 * exact_w); what the 3D solver does not have yet (Newton, time steps, continuation, PCD,
 * the GPU) is refused by ns_hex_check_params with one message.
 *
 * The unknowns are u, v, w, p at the nodes of the finest level (four blocks of one
 * FeastVec). The iterate carries the Dirichlet values at the fixed nodes; defects and
 * corrections are zero there, so the blocks need no Dirichlet rows: the product K x is
 * taken on the free rows only. Where the velocity is prescribed on the whole boundary and
 * the pressure nowhere, the pressure is fixed up to a constant and kept at zero mean
 * (weighted by the lumped mass). Results are bitwise the same on any number of ranks (the
 * sums of feast/parallel in macro order). This object and the 2D NsProblem become one when
 * FeastBand9 and FeastBand do (docs/architecture.md, "Where 3D plugs in"). */
#ifndef FEAST_NS_HEX_H
#define FEAST_NS_HEX_H
#include "feast/la/vector.h"
#include "navier_stokes/ns.h"
#include "solvers/nonlinear.h"

typedef struct NsHex NsHex;
enum { NS_HEX_U, NS_HEX_V, NS_HEX_W, NS_HEX_P, NS_HEX_NFIELDS };

typedef struct {
  int converged;
  FeastNonlinearStatus reason;
  int nonlinear_iterations;
  long linear_iterations;       /* FGMRES iterations of all steps */
  int linear_capped;            /* linear solves stopped at their cap */
  long velocity_vcycles;        /* ScaRC V cycles of the velocity blocks (one per component and application) */
  double initial_residual, final_residual;
  int stop_signal;              /* reason interrupted: the signal (SIGTERM, SIGINT) that stopped it after a step */
} NsHexResult;

/* the parameters the 3D solver takes: FEAST_ERR_CONFIG (UNSUPPORTED for features it lacks) naming the first one
 * it does not have, with what to do (key names as in the config) */
int ns_hex_check_params(const NsParams *p, int stokes);
/* the problem on dom (a domain of hexahedral macros) at its finest level; stokes = 1: no convection. The
 * parameters are copied; their texts are compiled here and not kept */
int ns_hex_create(const NsParams *p, const FeastDomain *dom, int stokes, NsHex **ns);
/* the nonlinear solve from the zero start with the boundary values; a stop signal (feast/base/signals.h) ends it
 * after the step it arrives in (reason interrupted) */
int ns_hex_solve(NsHex *ns, NsHexResult *res);
/* the iterate: blocks NS_HEX_U .. NS_HEX_P */
const FeastVec *ns_hex_solution(const NsHex *ns);
double ns_hex_viscosity(const NsHex *ns);
int ns_hex_pressure_nullspace(const NsHex *ns); /* 1: the pressure is reported with zero mean */
/* 1/2 int |u|^2 (3x3x3 Gauss) */
int ns_hex_kinetic_energy(const NsHex *ns, double *ke);
/* L2 errors of the velocity (all three components together) and the pressure against the exact solution
 * (problem.exact_*; the pressure's mean removed where it is free); NaN where not given */
int ns_hex_errors(const NsHex *ns, double *eu, double *ep);
/* output.vtk: velocity (3 components) and pressure on the finest level's hexahedra */
int ns_hex_write_vtk(const NsHex *ns, const char *prefix);
/* output.centerlines: u along y through (0.5, y, 0.5), v along x through (x, 0.5, 0.5), the nodes on them (the 2D
 * files' names: ns_centerline_file_name) */
int ns_hex_write_centerlines(const NsHex *ns, const char *prefix);
void ns_hex_destroy(NsHex **ns);
#endif

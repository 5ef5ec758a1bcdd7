/* The config front end of navier_stokes/ (the one file of the layer that reads a
 * FeastConfig, navier_stokes/ns_config.c): the typed parameters (navier_stokes/ns.h) from
 * the config's keys, the problem made from them, and the checks of the input phase, whose
 * messages name the keys with their file and line. The library itself takes parameters. */
#ifndef FEAST_NS_CONFIG_H
#define FEAST_NS_CONFIG_H
#include "feast/config/config.h"
#include "navier_stokes/ns.h"

/* the adapter : every key of the problem, [boundary.*], the nonlinear and
 * linear solvers, [velocity], the ScaRC keys, [time], [initial] and debug.inject. The
 * strings point into cfg (alive while p is used) */
int ns_params_from_config(const FeastConfig *cfg, NsParams *p);

/* input phase (every rank, before the domain exists): the keys of the problem, boundary
 * expressions and parts,  checked against the mesh */
int ns_check(const FeastConfig *cfg, const FeastMesh *mesh, int stokes);
/* the same for a mesh of hexahedra (the 3D solver, navier_stokes/ns_hex.h): the boundary values of u, v, w and p,
 * the expressions in x, y, z, and what the parameters ask of it (ns_hex_check_params) */
int ns_hex_check(const FeastConfig *cfg, const FeastMesh *mesh, int stokes);
/* linear.schur = pcd: some part must have an inflow, or the flow must be enclosed (the
 * velocity given on every part, the pressure nowhere) */
int ns_pcd_check(const FeastConfig *cfg, const FeastMesh *mesh, int enclosed);
/* the Krylov method / preconditioner combination (linear.krylov, velocity.*, solver.smoother_step) */
int ns_schur_check(const FeastConfig *cfg, int stokes);

/* the config front end (ns_config.c): ns_params_from_config, ns_create_with_params, and
 * the config described in the problem's checkpoints */
int ns_create(const FeastConfig *cfg, const FeastDomain *dom, int stokes, NsProblem **ns);

/* 1 if the config asks for a time-dependent run (time.scheme != none) */
int ns_time_dependent(const FeastConfig *cfg);
/* input phase: the time keys (dt > 0, end > start, the steps within steps_max) */
int ns_time_check(const FeastConfig *cfg);
/* the [time] keys, initial.stationary and the checkpoint keys (ns_config.c) */
int ns_time_params_from_config(const FeastConfig *cfg, NsTimeParams *p);

/* input phase: the checkpoint's kind (stationary or time) is the config's, and for a time
 * run the scheme, dt, start and tau_dt are the config's and its time lies on this
 * config's steps; FEAST_ERR_CONFIG with one message otherwise */
int ns_checkpoint_check(const FeastCheckpoint *ck, const FeastConfig *cfg);

/* input phase: output.forces_on names a part with a Dirichlet velocity, the points
 * output.pressure_point_a / _b (both or neither) and output.recirculation_from lie in the
 * domain (refined to min(grid.level, 8)) */
int ns_check_benchmark(const FeastConfig *cfg, const FeastMesh *mesh);
#endif

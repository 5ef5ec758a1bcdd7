/* The coproc interface: local multigrid solvers for a batch of macros, the inner layer
 * of two-layer ScaRC and the only part a config flag moves to an accelerator.
 * A backend is looked up by name ("cpu", "gpu") and precision ("double", "single") in a
 * registry; it implements setup (take the level hierarchy of every macro in the batch:
 * the CPU double backend uses it in place, the others copy/convert it), update (new
 * values), solve (double defect in, double correction out, converted at the boundary)
 * and destroy. The front end (coproc/coproc.c) checks arguments once, builds the coarse
 * levels (Galerkin products, stencil formulas) and the dense inverses of the coarsest
 * ones into storage made once per setup; backends compute. */
#ifndef FEAST_COPROC_H
#define FEAST_COPROC_H
#include "feast/la/band9.h"
#include "feast/la/device.h"

/* the coarsest local level is solved with a dense inverse (n^2 values per macro): at
 * most this many nodes (33 x 33, level 5) */
#define FEAST_LOCAL_COARSE_MAX_NODES 1089

/* one macro's local problem */
typedef struct {
  int level;                         /* finest local level L (N = 2^L+1) */
  const FeastBand9 *A;               /* the consistent local matrix on level `level` (only the
                                        finest). Kept by reference: it must live as long as
                                        the solver, and new values in it take effect with
                                        feast_local_update (the CPU double backend sweeps
                                        it in place) */
  const unsigned char *const *fixed; /* fixed[l][node] = 1: Dirichlet node, correction 0,
                                        l = 0..level; must live as long as the solver */
  const FeastBand9 *const *inside;   /* optional (NULL, or NULL entries): inside[l], l < level,
                                        a matrix of level l whose rows and columns two or
                                        more nodes inside the macro are those of the
                                        Galerkin level l. Where every macro of the batch
                                        gives one (and N >= 5), level l keeps only its own
                                        frame and reads the inside there, in place
                                        (feast_band9_galerkin_frame): it must live as long
                                        as the solver, and new values in it take effect
                                        with feast_local_update */
} FeastLocalProblem;

typedef struct {
  int pre_smooth, post_smooth;   /* Jacobi steps per V cycle (4, 4) */
  double jacobi_damping;         /* omega of damped Jacobi (0.7) */
  double rtol;                   /* stop when ||d_k|| <= rtol ||d_0|| (0.1: one digit) */
  int max_cycles;                /* at most this many V cycles */
  int coarse_max_dofs;           /* coarsest local level: the finest with <= this many nodes
                                    (200), solved exactly; at most FEAST_LOCAL_COARSE_MAX_NODES */
  int framed_min_nodes;          /* a level whose problems give its inside keeps only its frame
                                    if it has at least this many nodes per side (and 5);
                                    0: every such level. Framed sweeps compute the frame's
                                    columns twice: on levels that stay in cache (N <= 65)
                                    that is a large part of a sweep (every level framed:
                                    local multigrid 5 % slower at Poisson L = 8, ~15 % in
                                    the cavity at L = 7, docs/notes/scarc-poisson.md);
                                    ScaRC: solver.local_framed_min_nodes (129) */
  int coarse_upwind;             /* levels below the finest stabilised by feast_band9_upwind
                                    (solver.coarse_stabilisation = upwind) */
  int gpu_min_nodes;             /* target gpu: a batch whose macros have fewer nodes per
                                    side runs on the CPU backend of the same precision (a
                                    GPU cycle is launch latency there); 0: always the GPU;
                                    ScaRC: solver.local_gpu_min_nodes (17) */
} FeastLocalMGParams;

typedef struct {
  long cycles;                   /* V cycles over all macros of the last solve */
  int max_cycles_hit;            /* macros that stopped at max_cycles */
  int nonfinite;                 /* macros whose result was NaN/Inf (result zeroed) */
} FeastLocalMGStats;

typedef struct FeastLocalSolver FeastLocalSolver;

/* target "cpu" | "gpu", precision "double" | "single" */
int feast_local_create(const char *target, const char *precision, FeastLocalSolver **ls);
/* Structures and values: the Galerkin levels lc..L, the coarse inverses, the backend's
 * storage. Errors: FEAST_ERR_CONFIG for coarse_max_dofs above the cap, FEAST_ERR_SOLVER
 * for a singular coarsest matrix. */
int feast_local_setup(FeastLocalSolver *ls, int nmacros, const FeastLocalProblem *problems,
                      const FeastLocalMGParams *params);
/* New matrix values, same structure (the per-nonlinear-step refresh): the same number of
 * macros, levels, sizes, matrices and fixed masks (the same pointers) as the last setup
 * (FEAST_ERR_ARG otherwise). Recomputes the Galerkin levels and coarse inverses into the
 * existing storage and copies the values into the backend's where it keeps copies;
 * the front end and the CPU backends allocate nothing (no fresh page is touched; the
 * CUDA backend converts through a host staging buffer). Solves after it are bitwise
 * those of a fresh setup with the same matrices. */
int feast_local_update(FeastLocalSolver *ls, const FeastLocalProblem *problems);
/* c[m] <- approx A_m^{-1} d[m] for every macro m of the batch (padded grid vectors of
 * the finest level); fixed nodes of c are zero */
int feast_local_solve(FeastLocalSolver *ls, const double *const *d, double *const *c,
                      FeastLocalMGStats *stats);
/* 1 if the batch's backend solves in the device memory of solver.residency = device
 * (the CUDA one), 0 if it computes on the host */
int feast_local_solves_on_device(const FeastLocalSolver *ls);
/* feast_local_solve there: d and c device memory, nmacros arrays of N^2 values one after
 * the other (the device copy of a FeastVec's block); FEAST_ERR_UNSUPPORTED where the
 * batch computes on the host */
int feast_local_solve_device(FeastLocalSolver *ls, const double *d, double *c, FeastLocalMGStats *stats);
void feast_local_destroy(FeastLocalSolver **ls);
/* "cpu(double,single) gpu(single,double)" : what this build offers */
const char *feast_local_backends(void);
/* 1 if the named target can run here (gpu: a device is present) */
int feast_local_available(const char *target);
/* why the named target cannot run here (gpu: the CUDA runtime's message, e.g. "CUDA driver
 * version is insufficient for CUDA runtime version"), "" if it can */
const char *feast_local_unavailable_reason(const char *target);
const char *feast_local_resolve_precision(const char *precision);
const char *feast_local_precision(const FeastLocalSolver *ls);
/* where the last setup put the batch: "cpu" or "gpu" (target gpu: "cpu" below
 * params->gpu_min_nodes) */
const char *feast_local_target(const FeastLocalSolver *ls);

/* The device that the vectors of solver.residency = device live on (issue #46; attach it
 * to a domain before its vectors are made: FeastDomain.device): the CUDA device of this
 * build, or its host emulator in the _emu builds. FEAST_ERR_UNSUPPORTED (naming the key)
 * in a build without CUDA or on a machine without a device. */
int feast_coproc_device_create(FeastDevice **dev);
void feast_coproc_device_destroy(FeastDevice **dev); /* after every vector on it */
/* the memory of this rank's device (after feast_coproc_device_create): its index on this
 * node, the bytes free when it was made and in total, and the run's peak use so far (how
 * far its free memory fell since: other processes on the device included) */
typedef struct {
  int index;
  double free_bytes, total_bytes, peak_bytes;
} FeastDeviceMemory;
int feast_coproc_device_memory(FeastDeviceMemory *m);
#endif

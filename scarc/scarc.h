/* Two-layer ScaRC: a global multigrid over the level hierarchy whose smoother is an
 * additive Schwarz step over the macros (every macro solves its local problem with the
 * fully assembled interface rows by a local multigrid; the corrections at shared nodes
 * are averaged and damped), with the global coarse grid solved directly (UMFPACK). It
 * solves one scalar field: a problem with several fields (the velocity components of
 * Navier-Stokes) uses one ScaRC per field on block views of its vectors.
 * This header is all an application sees of the solver, and it knows no config file: the
 * solver is driven by ScarcParams (scarc_params_defaults, then set what differs);
 * scarc/scarc_config.h fills them from a config ([solver] keys, or another prefix). */
#ifndef FEAST_SCARC_H
#define FEAST_SCARC_H
#include "feast/la/band9.h"
#include "feast/parallel/domain.h"
#include "feast/la/mask.h"
#include "feast/la/vector.h"
#include "solvers/direct.h"
#include "solvers/krylov.h"

/* The parameters of one ScaRC solver: a plain struct; scarc_params_defaults gives the
 * defaults, the default strings of the config schema's [solver] rows (scarc/scarc_keys.c,
 * each naming its member: the field mg_pre_smooth is solver.mg_pre_smooth). Choices are enums, their values in the
 * schema's order. The solver copies them at scarc_create. */
typedef enum { SCARC_STEP_AUTO, SCARC_STEP_ADAPTIVE, SCARC_STEP_FIXED, SCARC_STEP_NCHOICES } ScarcSmootherStep;
                                                                      /* auto|adaptive|fixed */
typedef enum { SCARC_TARGET_CPU, SCARC_TARGET_GPU, SCARC_TARGET_NCHOICES } ScarcTarget; /* cpu|gpu */
typedef enum {
  SCARC_PRECISION_AUTO, SCARC_PRECISION_DOUBLE, SCARC_PRECISION_SINGLE, SCARC_PRECISION_NCHOICES
} ScarcPrecision;                                                     /* auto|double|single */
typedef enum {
  SCARC_STABILISATION_AUTO, SCARC_STABILISATION_NONE, SCARC_STABILISATION_UPWIND, SCARC_STABILISATION_NCHOICES
} ScarcCoarseStabilisation; /* auto|none|upwind (auto: the problem decides; ScaRC alone: none) */
typedef struct {
  /* the global multigrid */
  int mg_pre_smooth, mg_post_smooth; /* additive Schwarz steps per level before / after the
                                        coarse-grid correction */
  double smoother_damping;           /* damping of the Schwarz correction (the fixed step; the
                                        adaptive one is at most twice it) */
  ScarcSmootherStep smoother_step;   /* AUTO: adaptive (minimises the residual along the step,
                                        a nonlinear V cycle) until scarc_params_make_linear
                                        makes it FIXED; ADAPTIVE, FIXED: as named */
  int overlap;                       /* 1: matvec interiors while the interface exchange runs
                                        (bitwise the same results) */
  long coarse_max_dofs;              /* global coarse level: the finest with fewer unknowns */
  FeastDirectSolver coarse_solver;   /* its direct solver */
  ScarcCoarseStabilisation coarse_stabilisation; /* levels below the finest (global and
                                        local): NONE (plain Galerkin products) or UPWIND;
                                        AUTO: the problem resolves it (none here) */
  /* the local multigrids of the macros */
  ScarcTarget target;                /* where they run: CPU (GPU: scarc_target_available) */
  ScarcPrecision local_precision;    /* AUTO: single (double where the V cycle must be linear:
                                        scarc_params_make_linear) */
  int local_pre_smooth, local_post_smooth; /* damped Jacobi steps per level */
  double local_jacobi_damping;
  double local_rtol;                 /* stop a local solve at this residual reduction */
  int local_max_cycles;              /* at most this many V cycles per local solve */
  int local_fixed_cycles;            /* > 0: exactly this many V cycles per local solve (no
                                        tolerance test: a linear map); 0: local_rtol */
  int local_coarse_max_dofs;         /* coarsest local level: the finest with at most this
                                        many unknowns, solved exactly */
  int local_framed_min_nodes;        /* levels with at least this many nodes per side keep only
                                        their frame (the same results) */
  int local_gpu_min_nodes;           /* target gpu: levels with fewer nodes per side run on
                                        the CPU backend of the same precision */
} ScarcParams;
void scarc_params_defaults(ScarcParams *p);
/* Makes the V cycle a linear map of the right-hand side, as the methods with
 * feast_krylov_needs_linear_preconditioner need: smoother_step AUTO becomes FIXED and
 * local_fixed_cycles 0 becomes 2 (each change logged once, naming `why`, e.g.
 * "solver.scarc_solver = ibicgstab"). An ADAPTIVE step becomes FIXED too: a caller that
 * must refuse it checks before (scarc_linear_required does, for a config). */
void scarc_params_make_linear(ScarcParams *p, const char *why);
/* the names of the choices ("cpu", "single", ...), as the config spells them: the one name
 * table of each, which the schema's allowed values (scarc_keys.c) and the config adapter
 * (scarc_config.c) are built from; "?" outside the enum */
const char *scarc_target_name(ScarcTarget t);
const char *scarc_precision_name(ScarcPrecision p);
const char *scarc_step_name(ScarcSmootherStep s);
const char *scarc_stabilisation_name(ScarcCoarseStabilisation s);

typedef struct Scarc Scarc;
/* a solver for the field whose Dirichlet nodes are mask (kept by reference) */
int scarc_create(const FeastDomain *dom, const FeastMask *mask, const ScarcParams *p, Scarc **s);
void scarc_destroy(Scarc **s);
/* The operator, given on the finest level: per local macro the raw partial matrix (the
 * macro's own cells, no boundary conditions); copied, unless A is the solver's own
 * storage (scarc_operator_storage), which is taken in place. Coarser levels are Galerkin products
 * P^T A P computed macro by macro (the bilinear prolongation is macro-local, so the sum of
 * the macros' products is the global product), and the Dirichlet rows become identity
 * rows. The first call builds every structure (local multigrids and their backends, the
 * coarse LU with its symbolic analysis); later calls with new values of the same
 * structure refresh the numbers only (what a nonlinear step needs). Timed as
 * solver_setup. */
int scarc_set_operator(Scarc *s, const FeastBand9 *A);
/* *A <- the solver's own storage of the finest level's matrices (one per local macro),
 * zeroed, for the application to assemble the raw partial matrices into:
 * scarc_set_operator(s, *A) then takes them in place instead of copying them (one full
 * pass and the solver's copy of the finest matrices saved). Until that call the solver
 * has no operator (scarc_set_operator turns the storage into its own form of the
 * operator; a later call here zeroes it again for the next assembly). The memory is
 * made at the first call, not in scarc_create: it is the assembly's, as it would be in
 * a matrix the application made itself. */
int scarc_operator_storage(Scarc *s, FeastBand9 **A);
int scarc_coarse_level(const Scarc *s);
/* y <- A x on the finest level (x, y consistent one-block vectors) */
int scarc_matvec(Scarc *s, const FeastVec *x, FeastVec *y);
/* x <- one V cycle for A x = b starting from x = 0 (the preconditioner) */
int scarc_precondition(Scarc *s, const FeastVec *b, FeastVec *x);
/* x_k <- one V cycle for A x_k = b_k from zero, k < nrhs <= SCARC_MAX_RHS: bitwise what
 * nrhs calls of scarc_precondition give, with one coarse-grid solve for all of them at
 * the bottom (the second right-hand side's level vectors are made at its first use) */
enum { SCARC_MAX_RHS = FEAST_KRYLOV_MAX_SYSTEMS };
_Static_assert((int)SCARC_MAX_RHS <= (int)FEAST_DIRECT_MAX_RHS, "one coarse solve for all right-hand sides");
int scarc_precondition_many(Scarc *s, int nrhs, const FeastVec *const *b, FeastVec *const *x);
/* the operator and the V cycle as linear operators for solvers/krylov.h */
FeastLinOp scarc_operator(Scarc *s);
FeastLinOp scarc_preconditioner(Scarc *s);
/* the solve with a Krylov method and the V cycle as its preconditioner (RICHARDSON: the
 * V cycle as a stationary iteration, standalone multigrid: scarc_solver = mg); x holds
 * the start on entry. A nonzero status is a failure; not converging is
 * res->converged = 0 with res->reason. */
int scarc_solve(Scarc *s, FeastKrylovMethod method, const FeastSolveParams *sp, const FeastVec *b, FeastVec *x,
                FeastSolveResult *res);
/* n <= SCARC_MAX_RHS systems with this operator, A x_k = b_k, each by RICHARDSON (mg) with
 * its own stopping test as scarc_solve would (bitwise), run in lockstep with paired V
 * cycles (scarc_precondition_many: one coarse-grid solve for all per cycle) */
int scarc_solve_mg_many(Scarc *s, int n, const FeastSolveParams *sp, const FeastVec *const *b, FeastVec *const *x,
                        FeastSolveResult *res);
/* *A <- the partial matrices of the finest level with their Dirichlet rows (for export;
 * assembled into storage of the solver at the first call, valid until the next call
 * or scarc_set_operator) */
int scarc_matrices(Scarc *s, const FeastBand9 **A);
/* consistent local matrix of local macro li on a level (what its local solver sees) */
const FeastBand9 *scarc_local_matrix(const Scarc *s, int level, int li);
/* statistics since creation: local solves (macro solves), their V cycles, non-finite
 * local results, and the global V cycles run */
typedef struct {
  long local_solves, local_cycles, local_nonfinite, vcycles;
} ScarcStats;
void scarc_stats(const Scarc *s, ScarcStats *st); /* s NULL: zeros */

/* what this build offers, for --version and messages: "cpu(double,single) gpu(single)" */
const char *scarc_backends(void);
/* 1 if target ("cpu", "gpu") can run here (gpu: a CUDA backend and a device) */
int scarc_target_available(const char *target);
/* why it cannot (the CUDA runtime's message for gpu), "" if it can */
const char *scarc_target_unavailable_reason(const char *target);
/* the precision the local multigrids run in for a local precision (names; auto: single on
 * every target) */
const char *scarc_resolve_precision(const char *precision);
/* the precision the local multigrids of solvers made with p run in */
const char *scarc_params_precision(const ScarcParams *p);
#endif

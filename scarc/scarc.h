/* Two-layer ScaRC: a global multigrid over the level hierarchy whose smoother is an
 * additive Schwarz step over the macros (every macro solves its local problem with the
 * fully assembled interface rows by a local multigrid; the corrections at shared nodes
 * are averaged and damped), with the global coarse grid solved directly (UMFPACK). It
 * solves one scalar field: a problem with several fields (the velocity components of
 * Navier-Stokes) uses one ScaRC per field on block views of its vectors.
 * This header is all an application sees of the solver: where the local multigrids run
 * (solver.target) is set in the config and never visible here. */
#ifndef FEAST_SCARC_H
#define FEAST_SCARC_H
#include "feast/band9.h"
#include "feast/config.h"
#include "feast/domain.h"
#include "feast/mask.h"
#include "feast/vector.h"
#include "scarc/krylov.h"

typedef struct ScarcParams ScarcParams; /* from the [solver] section of the config */
int scarc_params_create(const FeastConfig *cfg, ScarcParams **p);
void scarc_params_destroy(ScarcParams **p);
/* The method named by config key `key` (solver.scarc_solver, linear.krylov, ...) needs a
 * linear preconditioner (feast_krylov_needs_linear_preconditioner): an explicit
 * solver.smoother_step = adaptive is a config error naming both keys; auto becomes fixed
 * in p (logged once); p = NULL only checks (the input phase). */
int scarc_linear_required(const FeastConfig *cfg, const char *key, ScarcParams *p);

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
/* the operator and the V cycle as linear operators for scarc/krylov.h */
FeastLinOp scarc_operator(Scarc *s);
FeastLinOp scarc_preconditioner(Scarc *s);
/* solver.scarc_solver -> the Krylov method: "mg" runs the V cycle as a stationary
 * iteration ("richardson"), "cg" / "bicgstab" use it as preconditioner */
const char *scarc_krylov_method(const char *scarc_solver);
/* the solve with one of those methods; x holds the start on entry. A nonzero status is a
 * failure; not converging is res->converged = 0 with res->reason. */
int scarc_solve(Scarc *s, const char *method, const FeastSolveParams *sp, const FeastVec *b, FeastVec *x,
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
void scarc_stats(const Scarc *s, ScarcStats *st);

/* what this build offers, for --version and messages: "cpu(double,single) gpu(single)" */
const char *scarc_backends(void);
/* 1 if solver.target = target can run here (gpu: a CUDA backend and a device) */
int scarc_target_available(const char *target);
/* why it cannot (the CUDA runtime's message for gpu), "" if it can */
const char *scarc_target_unavailable_reason(const char *target);
/* the precision the local multigrids run in for a target and solver.local_precision */
const char *scarc_resolve_precision(const char *target, const char *precision);
#endif

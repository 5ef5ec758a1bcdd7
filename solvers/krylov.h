/* Iterative solvers on distributed vectors, each usable with any preconditioner:
 * "richardson" (x += M(b - Ax): with the ScaRC V cycle as M this is standalone
 * multigrid), "cg", "bicgstab", and the communication-reducing BiCGStab variants
 * "ibicgstab" (one fused global reduction per iteration) and "pipebicgsafe" (one
 * non-blocking reduction per iteration, overlapped with the preconditioner and the
 * matrix-vector product), and "fgmres" (flexible restarted GMRES: a residual that never
 * grows, for preconditioners that change between applications); all right-preconditioned.
 * Methods are C enums (FeastKrylovMethod) with one registry (enum, name, properties) that
 * the by-name lookup of the config adapters and feast_krylov_methods() are built from.
 * Every method checks for NaN/Inf, divergence and its iteration limit and stops with a
 * reason. Nothing here reads a config: the adapters are in scarc/scarc_config.h. */
#ifndef FEAST_KRYLOV_H
#define FEAST_KRYLOV_H
#include "feast/la/vector.h"

/* the methods, in the order of the registry */
typedef enum {
  FEAST_KRYLOV_RICHARDSON,   /* "richardson" */
  FEAST_KRYLOV_CG,           /* "cg" */
  FEAST_KRYLOV_BICGSTAB,     /* "bicgstab" */
  FEAST_KRYLOV_IBICGSTAB,    /* "ibicgstab" */
  FEAST_KRYLOV_PIPEBICGSAFE, /* "pipebicgsafe" */
  FEAST_KRYLOV_FGMRES,       /* "fgmres" */
  FEAST_KRYLOV_NMETHODS
} FeastKrylovMethod;
/* the registry's name of m ("bicgstab"); "?" for a value outside the enum */
const char *feast_krylov_method_name(FeastKrylovMethod m);
/* *m <- the method called name; FEAST_ERR_CONFIG naming the known ones otherwise */
int feast_krylov_method_from_name(const char *name, FeastKrylovMethod *m);

typedef struct {
  int (*apply)(void *ctx, const FeastVec *x, FeastVec *y); /* y <- Op(x) */
  void *ctx;
} FeastLinOp;

typedef struct {
  double rtol;              /* ||r_k|| <= rtol ||r_0|| */
  int max_iterations;
  double divergence_factor; /* stop when ||r_k|| > factor ||r_0|| */
  int monitor;              /* print a line per iteration (rank 0) */
  const char *label;        /* for the monitor: "poisson" */
  int replace_every;        /* ibicgstab, pipebicgsafe: restart from the true residual every
                               this many iterations (0: never; the true residual is always
                               checked at a converged exit) */
  double replace_drop;      /* ibicgstab, pipebicgsafe: also restart from the true residual when
                               the recurrence residual norm falls below replace_drop times its
                               largest value since the last (re)start (0: never;
                               solver.residual_replacement_drop, default sqrt(eps)) */
  double reference_norm;    /* > 0: stop at ||r_k|| <= rtol reference_norm (e.g. ||b||: a start
                               far from the solution then does not loosen the tolerance) */
  int fixed_iterations;     /* > 0: run exactly this many iterations, no rtol test (richardson
                               from x = 0 with a linear M is then a linear operator of b) */
  int restart;              /* fgmres: iterations per cycle (basis size m; 0: 30) */
  int single_basis;         /* fgmres: 1 = the orthonormal basis V stored in single precision
                               (Gram-Schmidt reads half the memory; Z, the Hessenberg matrix,
                               the update and the preconditioner's input stay double): 0 */
} FeastSolveParams;
/* the [solver] schema's defaults: rtol 1e-8, max_iterations 100, divergence_factor 1e4,
 * replace_drop sqrt(eps); everything else 0 (no monitor, no label, no replacement every
 * k iterations, no reference norm, no fixed iteration count, fgmres restart 30) */
void feast_solve_params_defaults(FeastSolveParams *p);

/* why a Krylov solve stopped */
typedef enum {
  FEAST_SOLVE_CONVERGED,      /* "converged": the tolerance (or the fixed iteration count) reached */
  FEAST_SOLVE_MAX_ITERATIONS, /* "max_iterations" */
  FEAST_SOLVE_DIVERGED,       /* "diverged": the residual grew past divergence_factor */
  FEAST_SOLVE_NAN,            /* "nan": a residual or coefficient not finite */
  FEAST_SOLVE_BREAKDOWN       /* "breakdown": a zero denominator of the recurrences */
} FeastSolveStatus;
/* the name printed in summaries and messages ("max_iterations"); "?" outside the enum */
const char *feast_solve_status_name(FeastSolveStatus s);

typedef struct {
  int converged;
  FeastSolveStatus reason;
  int iterations;
  double initial_residual, final_residual;
  double rate;              /* average convergence rate per iteration */
  /* communication per iteration of the loop, counted where the MPI calls are issued
   * (feast/base/commstat.h): the method's own global reductions (not those inside the operator
   * or the preconditioner), those inside the operator (the pressure projection of
   * Navier-Stokes), and the interface exchanges of the operator and method (not the
   * preconditioner's). Iterations that stop half-way count as one. */
  double reductions_per_iteration, operator_reductions_per_iteration, exchanges_per_iteration;
} FeastSolveResult;

/* Test hook: wraps an operator so that its second application on rank fp->rank puts a NaN
 * into the result (FEAST_FAULT_NAN) or fails (FEAST_FAULT_FAIL), to test the failure
 * paths; with FEAST_FAULT_NONE (or fp = NULL), *wrapped = inner. `rank` is this process's.
 * Config: debug.inject, debug.inject_rank (feast_fault_params_from_config). */
typedef enum { FEAST_FAULT_NONE, FEAST_FAULT_NAN, FEAST_FAULT_FAIL } FeastFaultMode;
typedef struct {
  FeastFaultMode mode; /* FEAST_FAULT_NONE */
  int rank;            /* the rank it acts on: 0 */
} FeastFaultParams;
typedef struct {
  FeastLinOp inner;
  FeastFaultMode mode;
  int on_this_rank;
  long calls;
} FeastFaultOp;
int feast_fault_op(const FeastFaultParams *fp, int rank, FeastLinOp inner, FeastFaultOp *hook, FeastLinOp *wrapped);

/* the work vectors of the methods, for solves with vectors shaped like `like` (domain,
 * level, blocks); a solver called many times (inside a preconditioner) keeps one, so
 * that no solve allocates */
typedef struct FeastKrylovWork FeastKrylovWork;
int feast_krylov_work_create(const FeastVec *like, FeastKrylovWork **work);
void feast_krylov_work_destroy(FeastKrylovWork **work);

/* x <- approx A^-1 b by method, preconditioned (right) by M; x holds the start. work:
 * from feast_krylov_work_create for vectors shaped like b, or NULL (allocated here) */
int feast_krylov_solve(FeastKrylovMethod method, FeastLinOp A, FeastLinOp M, const FeastVec *b,
                       FeastVec *x, const FeastSolveParams *p, FeastKrylovWork *work, FeastSolveResult *res);

/* Several systems with one operator, A x_k = b_k (k < n <= FEAST_KRYLOV_MAX_SYSTEMS), each
 * by RICHARDSON with its own stopping test, in lockstep: every iteration applies M to the
 * residuals of the systems still running in one call, so that M can share work between
 * them (ScaRC's V cycle: one coarse-grid solve for all). Each x_k, res[k] is bitwise what
 * feast_krylov_solve(FEAST_KRYLOV_RICHARDSON, A, M_1, b_k, ...) gives when M applied to
 * several vectors gives what it gives to each alone. The results carry no communication
 * counts (their windows would overlap). work[k]: as for feast_krylov_solve, or NULL. */
enum { FEAST_KRYLOV_MAX_SYSTEMS = 2 };
typedef struct {
  int (*apply)(void *ctx, int n, const FeastVec *const *x, FeastVec *const *y); /* y_k <- Op(x_k) */
  void *ctx;
} FeastLinOpMany;
int feast_krylov_richardson_many(int n, FeastLinOp A, FeastLinOpMany M, const FeastVec *const *b, FeastVec *const *x,
                                 const FeastSolveParams *p, FeastKrylovWork *const *work, FeastSolveResult *res);
/* 1 for the methods whose recurrences assume a linear (fixed) preconditioner: ibicgstab
 * and pipebicgsafe; a nonlinear one (adaptive smoother step, inner solves to a tolerance)
 * makes them stall or diverge. classical bicgstab and the flexible cg tolerate one. */
int feast_krylov_needs_linear_preconditioner(FeastKrylovMethod method);
/* the basis vectors a method keeps besides the common work vectors, in double-precision
 * vectors' worth of memory, for a solve with FeastSolveParams.restart = restart and
 * .single_basis = single_basis (fgmres: 2 m + 1; with the single-precision basis m + 2
 * double vectors and m + 1 single ones, 1.5 m + 2.5; the others: 0). The most they hold:
 * fgmres makes its vectors as its iterations first need them. */
double feast_krylov_basis_vectors(FeastKrylovMethod method, int restart, int single_basis);
/* what a method serves for (a column of the registry; the schema's allowed values of the
 * keys that name methods come from it) */
enum {
  FEAST_KRYLOV_FOR_SADDLE = 1, /* nonsymmetric indefinite systems (the Navier-Stokes saddle point) */
  FEAST_KRYLOV_FOR_SCARC = 2   /* ScaRC's solver around its V cycle (richardson: "mg", named by scarc/) */
};
/* buf <- "first|name|name..." (first NULL: none): the methods for use, in registry order */
const char *feast_krylov_choices(unsigned use, const char *first, char *buf, size_t size);
/* "richardson cg bicgstab ibicgstab pipebicgsafe fgmres" (the registry's names) */
const char *feast_krylov_methods(void);
#endif

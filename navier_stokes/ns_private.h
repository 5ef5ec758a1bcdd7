/* Private to navier_stokes/: the problem object shared by its files (system.c: the block
 * operator; schur.c: the preconditioner; solve.c: the nonlinear and linear iterations;
 * post.c: quantities and outputs). */
#ifndef FEAST_NS_PRIVATE_H
#define FEAST_NS_PRIVATE_H
#include "feast/fem/bc.h"
#include "feast/config/expr.h"
#include "navier_stokes/forms.h"
#include "navier_stokes/ns.h"
#include "solvers/krylov.h"
#include "solvers/nonlinear.h"
#include "scarc/scarc.h"
#include "scarc/scarc_config.h"


/* what the nonlinear iteration carries from step to step besides the iterate: with the
 * iterate it is the whole state of the run (checkpoint.c), so a continued run takes the
 * very steps of an uninterrupted one (the line search starts every step afresh at
 * nonlinear.damping; its last length is kept for the progress line only) */
typedef struct {
  int steps;                    /* nonlinear steps done */
  double initial_residual;      /* the reference of the relative stopping test */
  double residual;              /* the defect norm at the iterate */
  double lambda;                /* the last step length */
  long linear_iterations;       /* Krylov iterations of all steps */
  long vcycles, local_solves, local_cycles; /* ScaRC counters of all steps */
  double *linear_per_step;      /* Krylov iterations of each step (steps values) */
  long linear_capped;           /* linear solves stopped at their cap */
} NsState;

/* the terms a time step adds to the stationary system (timestep.c sets them; on = 0: the
 * stationary problem). With du/dt ~ mass u + s the momentum rows of the step are
 *   mass M u + s + theta [A(u) u - f(t_new)] + B p + explicit_weight r_old = 0
 * (M with SUPG weights, forms.h), the continuity rows those of the stationary system at
 * t_new with du/dt in the PSPG residual */
typedef struct {
  int on;
  int pseudo;             /* a pseudo-time step (pseudo_time.c): the stationary residual's operators */
  double t;               /* the time of the new level (of the boundary values and forces) */
  double theta;           /* weight of the implicit momentum terms */
  double explicit_weight; /* 1 - theta: weight of r_old (0: r_old unused) */
  double mass;            /* alpha_0 / dt */
  double tau_rate;        /* the rate in tau of every assembly of the steps (forms.h): 1 / time.dt
                             with time.tau_dt = on, else 0 */
  FeastVec *s;            /* the known part of du/dt: u, v blocks */
  FeastVec *r_old;        /* the momentum residual A(u_old) u_old - f(t_old) without pressure */
  FeastVec *u1, *u2;      /* the solutions at the start of the (sub)step and one step before */
  /* checkpoints (checkpoint.c): the caller's part, and the state of a restored run */
  NsCheckpointHook hook;
  void *hook_ctx;
  int restored;           /* ns_time_restore: ns->iter.v and u1 hold the state after step `step` */
  long step;              /* time steps done */
  double dt_prev;         /* the last step's length (0 before the first) */
  long nonlinear_iterations, linear_iterations; /* of all steps done */
  long linear_capped;     /* linear solves of all steps done stopped at their cap */
} NsTimeTerms;

/* The PCD Schur approximation's operators (pcd.c), with linear.schur = pcd; a
 * time-dependent run always has A_p (Cahouet-Chabard: mass A_p^-1 in the pressure step),
 * N_p only with pcd */
typedef struct {
  FeastMask *mask;              /* zero Dirichlet values of the stationary A_p: the outflow (or the inflow) */
  unsigned char *robin;         /* per part: an inflow whose Robin term N_p carries (NULL: none) */
  FeastBand9 *lap, *conv;       /* A_p, N_p per local macro */
  struct NsInner *solver;       /* A_p^-1, stationary variant (Dirichlet on the inflow; pressure.solver) */
  FeastMask *time_mask;         /* a time step's A_p: Dirichlet where the velocity is free */
  struct NsInner *time_solver;  /* its solver (== solver in an enclosed flow) */
  FeastVec *r, *z, *y;          /* one-block work vectors */
  FeastVec *rot, *s;            /* linear.pcd_rotation > 0: the lumped mass weighted by max(0, det grad w), work */
} NsPcdOperators;

/* The block preconditioner K_s of the saddle-point system (schur.c): velocity solves
 * (inner.c) and a Schur approximation S~ (the registry in schur.c: mass, pcd.c) */
typedef struct {
  FeastLinOp op;                /* K_s (wrapped by the debug.inject hook) */
  FeastFaultOp fault;           /* that hook */
  /* the velocity blocks: ScaRC (or the solver velocity.solver names) per block */
  ScarcParams scarc_params;
  ScarcParams pressure_scarc_params; /* the A_p solves' (pcd.c): the velocity's unless a [pressure]
                                   ScaRC key differs (pressure_own) */
  int pressure_own;
  Scarc *scarc[2];              /* velocity blocks; scarc[1] == scarc[0] when shared */
  FeastKrylovMethod velocity_method;
  FeastSolveParams velocity_sp;
  struct NsInner *velocity[2];  /* the inner solvers (inner.c): velocity[1] == velocity[0] when shared */
  long velocity_solves;
  FeastVec *upper_rhs;          /* d_u,v - B c_p, the right-hand side of their velocity solves
                                   (linear.factorisation = upper | full) */
  /* the Schur approximation */
  const struct NsSchurApprox *schur; /* S~ (linear.schur resolved) */
  int pcd;                      /* linear.schur = pcd (a time-dependent run always has A_p:
                                   Cahouet-Chabard, mass A_p^-1 in the pressure step; N_p only with pcd) */
  NsPcdOperators pcd_ops;       /* A_p, N_p, their masks, solvers and work (pcd.c) */
  FeastSolveParams pressure_sp; /* A_p solves with pressure.solver = scarc */
  struct FeastDirect *direct;   /* linear.preconditioner = direct (coupled_direct.c): K factored; the
                                   velocity solvers and S~ above are then not made */
  int direct_on;                /* K^-1 is applied: linear.preconditioner = direct, or auto after the switch */
  int direct_switch;            /* linear.preconditioner = auto may switch to direct (ns_schur_direct_switch) */
} NsPreconditioner;

/* The discrete system (system.c): per field its boundary values and Dirichlet mask, the
 * force and the exact solution, the blocks of the linearised saddle-point system per
 * local macro, the right-hand side, and the pressure's lumped mass */
typedef struct {
  FeastBC *bc[NS_NFIELDS];
  FeastMask *mask[NS_NFIELDS];
  FeastExpr *force[2], *exact[NS_NFIELDS];
  FeastBand9 *blk[NS_NBLOCKS];  /* blk[k][li]; A12, A21 only with Newton; A22 A11's storage where ns_a22_shared */
  FeastBand9 *vblk[NS_NBLOCKS]; /* ns_velocity_blocks_apart: the preconditioner's A11, A21, A22 */
  NsViscousCell **viscous_cells; /* ns_viscous_derivative_on: per local macro, the cells of the lagged viscous
                                    residual's derivative in Newton's operator */
  FeastVec *rhs;                /* right-hand side, consistent, Dirichlet values at fixed nodes */
  FeastVec *mass;               /* lumped pressure mass, consistent (one block) */
  FeastVec *ones;               /* 1 everywhere (one block) */
} NsSystem;

/* The nonlinear iteration's vectors and history (solve.c, continuation.c, checkpoint.c) */
typedef struct {
  FeastVec *v;                  /* the iterate (u, v, p) */
  FeastVec *defect, *correction; /* of the current step */
  FeastVec *scratch;            /* work of the preconditioner */
  FeastVec *v_old;              /* the last iterate (line search) */
  FeastNonlinear *nonlinear;    /* the solver (solvers/nonlinear.h) on v, defect, correction, v_old: its
                                   per-step counters, stall history and Anderson history */
  FeastKrylovWork *krylov_work; /* of the linear solver */
  double *continuation_per_step; /* continuation.c: Krylov iterations of every step of every attempt */
  double *sequence_per_step;    /* sequencing.c: the failed attempt's and the fallback's steps' iterations */
  /* --restart: the state the iteration continues from (ns_restore); counters of ScaRC
   * objects of this process are added to it */
  int restored;
  NsState resume;
  int start_given;              /* the iterate is a start of its own (ns_set_initial_guess's, or a solve's):
                                   ns_solve starts from it, without grid sequencing */
} NsIteration;

struct NsProblem {
  NsParams params;              /* as given to ns_create_with_params, its strings in `strings` */
  char *strings;                /* the parameters' expression and part texts (own_strings: problem.c) */
  const FeastConfig *describe;  /* the config front end's config, described in checkpoints (NULL: none) */
  FeastExpr *initial[2];        /* time runs: the initial u, v */
  const FeastDomain *dom;
  int level;
  int stokes, newton, nullspace; /* newton: the linearisation of the assembly (and K_s) now */
  int newton_auto;              /* nonlinear.method = auto: newton switched on by solve.c */
  int time_dependent;           /* time.scheme is set: a run of time steps (timestep.c) */
  NsTimeTerms time;
  double nu;
  NsSystem sys;                 /* the discrete system (system.c) */
  NsIteration iter;             /* the nonlinear iteration's vectors and history (solve.c) */
  NsPreconditioner prec;        /* K_s: the block preconditioner and its parts (schur.c) */
  NsDefaults defaults;          /* the auto values resolved (problem.c) */
};

/* params.c: the boundary conditions of field `field` ("u", "v", "w" or "p") from the parameters' boundary values
 * (every part named must be one of the mesh's) */
int ns_params_bc(const NsParams *p, const FeastMesh *mesh, const char *field, FeastBC **bc);

/* ---- inner.c: an approximate inverse of one scalar block operator, by name ---- */
typedef struct NsInner NsInner;
/* structures of solver `kind` on the nodes of `level` with the Dirichlet rows of mask;
 * prefix names the keys in messages; scarc: the [solver] structure, method and tolerances
 * (sp must outlive the solver) */
int ns_inner_create(NsInnerSolver kind, const char *prefix, const FeastDomain *dom, int level, const FeastMask *mask,
                    const ScarcParams *scarc, FeastKrylovMethod method, const FeastSolveParams *sp, NsInner **s);
/* the operator's values (per local macro; structures once, then values only) */
int ns_inner_set_operator(NsInner *s, const FeastBand9 *A);
/* x <- approx A^-1 b from zero (consistent one-block vectors) */
int ns_inner_solve(NsInner *s, const FeastVec *b, FeastVec *x, FeastSolveResult *res);
/* ns_inner_solve with scarc's cycles capped at max_iterations (<= 0, or above the solver's
 * own cap: uncapped, what ns_inner_solve does) */
int ns_inner_solve_capped(NsInner *s, int max_iterations, const FeastVec *b, FeastVec *x, FeastSolveResult *res);
/* x_k <- approx A^-1 b_k, k < n, bitwise as n calls of ns_inner_solve; scarc with mg:
 * in lockstep with one coarse-grid solve per V cycle for all (scarc_solve_mg_many) */
int ns_inner_solve_many(NsInner *s, int n, const FeastVec *const *b, FeastVec *const *x, FeastSolveResult *res);
/* the ScaRC solver inside (its counters), NULL for the others */
Scarc *ns_inner_scarc(const NsInner *s);
void ns_inner_destroy(NsInner **s);

/* linear.preconditioner = auto: direct from the next step on where the linear solve of a
 * stationary solve's step took `iterations` > NS_DIRECT_SWITCH_ITERATIONS (schur.c states
 * the rule; logged when it switches) */
void ns_schur_direct_switch(NsProblem *ns, int iterations);

/* ---- coupled_direct.c: linear.preconditioner = direct ---- */
/* K of the last assembly factored (created at the first call, refactored after) */
int ns_direct_update(NsProblem *ns);
/* c <- K^-1 d (consistent three-field vectors) */
int ns_direct_apply(NsProblem *ns, const FeastVec *d, FeastVec *c);
void ns_direct_destroy(NsProblem *ns);
/* system.c: block (row field, column field) of K per local macro (NULL: a zero block) */
const FeastBand9 *ns_system_block(const NsProblem *ns, int row, int col);

/* ---- the Schur complement approximations S~ of the block preconditioner: one registry
 * (schur.c: mass there, pcd in pcd.c), indexed by linear.schur's choice; their names are
 * the key's allowed values (ns_schur_name) ---- */
typedef struct NsSchurApprox {
  const char *name;                                /* linear.schur's value */
  int (*setup)(NsProblem *ns);                     /* structures, and the numbers that never change */
  int (*refresh)(NsProblem *ns);                   /* numbers at the last assembly's iterate (NULL: none) */
  int (*apply)(NsProblem *ns, FeastVec *r);        /* r <- S~^-1 r (consistent one-block vector) */
  void (*destroy)(NsProblem *ns);
} NsSchurApprox;
/* the approximation of choice c; NULL for NS_SCHUR_AUTO (resolved by ns_defaults) */
const NsSchurApprox *ns_schur_approx(NsSchurChoice c);
extern const NsSchurApprox ns_schur_pcd; /* pcd.c */
/* pcd.c: r <- (nu' r + y) / m (y NULL: 0), m the lumped pressure mass, nu' = theta nu in a
 * time step: the viscous part every approximation shares */
void ns_schur_viscous(const NsProblem *ns, const FeastVec *y, FeastVec *r);

/* params.c: the boundary values of part `name`, NULL if it has none */
const NsBoundaryValues *ns_params_part(const NsParams *p, const char *name);
/* problem.c, for 2D (ncomp 2) and 3D (ncomp 3): 1 if some part has a value of some velocity
 * component velocity[d], d < ncomp; 1 if the pressure is fixed only up to a constant (no part
 * fixes it, and every part gives every velocity component: no natural outflow sets its level) */
int ns_velocity_given(FeastBC *const *velocity, int ncomp, int nparts);
int ns_pressure_free(FeastBC *const *velocity, int ncomp, const FeastBC *pressure, int nparts);
/* post.c: the centre lines of 2D and 3D. A point of a line: its position along it and the field's value there */
typedef struct {
  double s, value;
} NsLinePoint;
/* every rank's points mine[0..nmine) (each node once: its owner's) gathered on rank 0 (*out, *count; NULL and 0
 * on the others) and sorted by position; collective */
int ns_line_gather(const FeastDomain *dom, const NsLinePoint *mine, int nmine, NsLinePoint **out, int *count);
/* rank 0 writes centre-line file k (0: u along y, "_u.csv"; 1: v along x, "_v.csv") of output.centerlines =
 * prefix from rank 0's pts (an error naming `line`, e.g. "x = 0.5", where it has none); collective: every rank
 * returns rank 0's status */
int ns_centerline_write(const FeastDomain *dom, const char *prefix, int k, const char *line, const NsLinePoint *pts,
                        int count);
/* problem.c: an optional expression: NULL when text is NULL, or (zero_is_null) when it is the constant 0 */
int ns_optional_expr(const char *text, const char *what, int zero_is_null, FeastExpr **e);
/* checkpoint.c: 1 for a time run's checkpoint ("kind time"), 0 for a stationary one (also
 * without kind) */
int ns_is_time_checkpoint(const FeastCheckpoint *ck);
/* forces.c: *found <- 1 if point p lies in the mesh refined to `level` */
int ns_mesh_contains(const FeastMesh *mesh, int level, const double p[2], int *found);
/* *found = 1 if a node of the mesh refined to level lies on the line coordinate axis = at
 * (post.c; the input phase's check of output.centerlines) */
int ns_mesh_line_nodes(const FeastMesh *mesh, int level, int axis, double at, int *found);
/* solve.c: the nonlinear iteration of one time step (no checkpoints or signals, progress
 * at verbosity 2), from the iterate in ns->iter.v */
int ns_solve_step(NsProblem *ns, NsResult *res);
/* what the continuation driver (continuation.c) changes in one stationary attempt */
typedef struct {
  double rtol;      /* converged at defect <= rtol x reference */
  double reference; /* > 0: the reference instead of the attempt's first defect */
  int checkpoints;  /* 0: none written (a stage below the target Re; a stop signal still stops) */
  int stall_steps;  /* > 0: reason NS_STALLED when the defect exceeds stall_factor x the one */
  double stall_factor; /* stall_steps steps of this attempt before */
  int max_steps;    /* > 0: at most this many steps (else nonlinear.max_iterations) */
  double newton_switch; /* > 0, nonlinear.method = auto with Newton's structures: the fixed point switches to
                           Newton at this x the attempt's first defect (where ns_defaults does not already switch
                           every attempt); INFINITY: Newton from the first step; 0: ns_defaults' rule */
} NsAttempt;
/* solve.c: the stationary nonlinear iteration at ns->nu from the iterate in ns->iter.v (a
 * restored state first, ns->iter.restored); a NULL attempt: the parameters' own tests (what
 * continuation.method = off runs) */
int ns_solve_attempt(NsProblem *ns, const NsAttempt *a, NsResult *res);
/* the same as an inner solve (no checkpoints or signals, progress at verbosity 2): a
 * pseudo-time step's (pseudo_time.c) */
int ns_solve_inner_attempt(NsProblem *ns, const NsAttempt *a, NsResult *res);
/* continuation.c: the stationary solve on the problem's own level (ns_solve without grid
 * sequencing): the direct attempt, then continuation.method's fallbacks */
int ns_solve_level(NsProblem *ns, NsResult *res);
/* pseudo_time.c: pseudo-time steps from the iterate in ns->iter.v until its defect is <=
 * continuation.pseudo_switch x the first (or the steps run out); res counts them */
int ns_pseudo_time(NsProblem *ns, NsResult *res);
/* solve.c: acc += the counters of the attempt r (its per-step iterations appended) */
int ns_result_accumulate(NsProblem *ns, NsResult *acc, const NsResult *r);
/* acc's step and iteration counts += r's, the averages per Krylov iteration weighted by
 * the iterations (the per-step array and the outcome aside) */
void ns_result_add_counters(NsResult *acc, const NsResult *r);
/* the operators of the stationary problem: not in a (real) time step */
static inline int ns_stationary_operators(const NsProblem *ns) { return !ns->time.on || ns->time.pseudo; }

/* checkpoint.c: the state and the iterate (global node order, so any rank count can
 * continue it) into a checkpoint file, atomically; collective */
int ns_checkpoint_write(const NsProblem *ns, const NsState *state, const char *path);
/* the state of a time run after ns->time.step steps (ns->time.t, dt_prev, counters in
 * ns->time; ns->iter.v = u_n, ns->time.u1 = u_n-1), and the hook's part; collective */
int ns_time_checkpoint_write(const NsProblem *ns, const char *path);
/* problem.c: the vectors of a time run (once) */
int ns_time_state_create(NsProblem *ns);
/* schur.c: the ScaRC counters of all steps: this process's and those of a restored run
 * (ns->iter.resume) */
void ns_scarc_totals(const NsProblem *ns, long *vcycles, long *solves, long *cycles);

/* system.c */
/* the cell form of local macro li linearised at w (3-block vector), with the time terms */
NsForm ns_form_at(const NsProblem *ns, const FeastVec *w, int li);
/* the time of every expression: boundary values, forces, exact solutions */
void ns_set_time(NsProblem *ns, double t);
/* v <- the Dirichlet values of every field at the time set (ns_set_time); other nodes
 * are not touched */
int ns_boundary_values(NsProblem *ns, FeastVec *v);
/* v <- the zero start: zero with the Dirichlet values of every field (a fresh problem's
 * first iterate) */
int ns_zero_start(NsProblem *ns, FeastVec *v);
/* blocks (A12, A21 with Newton only; A22 a view of A11's storage on the macros where
 * ns_a22_shared), vectors, the first iterate */
int ns_system_create(NsProblem *ns);
/* 1 if A22 is A11's storage on local macro li (no Newton terms, the same u and v
 * Dirichlet rows there): one matrix assembled and stored for both */
int ns_a22_shared(const NsProblem *ns, int li);
/* 1 if the preconditioner's velocity blocks are apart from the system's (vblk: Newton with
 * velocity.newton_reaction = off; ns_system_assemble assembles them with the system) */
int ns_velocity_blocks_apart(const NsProblem *ns);
void ns_system_destroy(NsProblem *ns);
/* blocks and right-hand side at the linearisation velocity w (3-block vector), with the
 * Dirichlet rows and values of every field */
int ns_system_assemble(NsProblem *ns, const FeastVec *w);
/* d <- h(w) - K(w) x, with the pressure mode removed (ns_project_residual), without
 * assembling: no block or h is written (ns_form_residual cell by cell). At x = w the
 * defect of the nonlinear system (the line search's trials). What ns_system_assemble(w)
 * and ns_system_apply(x) give, up to rounding; timed as assembly */
int ns_system_residual(NsProblem *ns, const FeastVec *w, const FeastVec *x, FeastVec *d);
/* y <- K x (x, y consistent 3-block vectors) */
int ns_system_apply(NsProblem *ns, const FeastVec *x, FeastVec *y);
/* 1 if Newton's operator has a part beyond the blocks: the derivative of the lagged
 * viscous residual (Newton with stabilisation.viscous_residual = on; forms.h) */
int ns_viscous_derivative_on(const NsProblem *ns);
/* y <- J x, the linear solve's operator: K x, and with ns_viscous_derivative_on the
 * viscous residual's derivative (matrix-free, ns_viscous_derivative_apply) */
int ns_jacobian_apply(NsProblem *ns, const FeastVec *x, FeastVec *y);
/* p <- p - (sum_i p_i / n) 1: a consistent one-block pressure vector of zero sum */
int ns_zero_sum(const NsProblem *ns, FeastVec *p);
/* remove the constant pressure mode: from a residual (Euclidean mean of the continuity
 * rows) or from a solution (lumped-mass mean, i.e. int p = 0) */
int ns_project_residual(const NsProblem *ns, FeastVec *r);
int ns_project_solution(const NsProblem *ns, FeastVec *x);

/* schur.c */
int ns_schur_create(NsProblem *ns);
void ns_schur_destroy(NsProblem *ns);
/* hand the velocity blocks of the last assembly to ScaRC (structures once, then values) */
int ns_schur_update(NsProblem *ns);

/* pcd.c: S^-1 ~ nu M_p^-1 + M_p^-1 N_p A_p^-1 (see there) */
int ns_pcd_create(NsProblem *ns);
/* flags of the inflow parts (Dirichlet velocity with int u.n ds < 0) and their number */
int ns_pcd_inflow_parts(const NsParams *p, const FeastMesh *mesh, unsigned char *inflow, int *count);
void ns_pcd_destroy(NsProblem *ns);
/* N_p at the current iterate */
int ns_pcd_update(NsProblem *ns);
/* y <- theta N_p A_p^-1 r + mass M_p A_p^-1 r (consistent one-block vectors; N_p with
 * linear.schur = pcd, the mass term in a time step) */
int ns_pcd_apply(NsProblem *ns, const FeastVec *r, FeastVec *y);
#endif

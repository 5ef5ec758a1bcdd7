/* The stationary incompressible (Navier-)Stokes solver of the FEAST paper (Goeddeke,
 * Buijssen, Wobker, Turek, section 4): Q1/Q1 with SUPG/PSPG stabilisation
 * (navier_stokes/forms.h), fixed-point defect correction or Newton, and in every
 * nonlinear step BiCGStab on the saddle-point system, right-preconditioned by the lower
 * block-triangular pressure Schur complement preconditioner
 *   K_s = [A 0; BT -S],  S ~ M_p / nu (lumped pressure mass),
 * whose velocity blocks are solved approximately by two-layer ScaRC (scarc/scarc.h:
 * where its local multigrids run is a config matter this library never sees).
 * Fields: u, v (velocity) and p, equation-wise blocks of one 3-block vector. Boundary
 * conditions per field from the config (boundary.NAME.u / v / p, feast/fem/bc.h); where the
 * velocity is prescribed on the whole boundary and the pressure nowhere, the pressure is
 * fixed up to a constant: the Krylov method then works on the complement of that null
 * space and the pressure is reported with zero mean. Nothing here reads a config: the
 * config front end is navier_stokes/ns_config.h. */
#ifndef FEAST_NS_H
#define FEAST_NS_H
#include "feast/io/checkpoint.h"
#include "feast/parallel/domain.h"
#include "feast/mesh/mesh.h"
#include "solvers/krylov.h"
#include "scarc/scarc.h"

typedef struct NsProblem NsProblem;

typedef enum {
  NS_TIME_NONE,           /* the stationary problem */
  NS_TIME_BACKWARD_EULER, /* order 1 */
  NS_TIME_CRANK_NICOLSON, /* theta = 1/2, order 2 */
  NS_TIME_FS_THETA,       /* fractional-step theta (Glowinski; FEATFLOW), three substeps, order 2 */
  NS_TIME_BDF2,           /* the first step backward Euler, order 2 */
  NS_TIME_NSCHEMES
} NsTimeScheme;

typedef struct {
  NsTimeScheme scheme;
  double dt, start, end;   /* the step, shortened at the last step to end exactly at `end` */
  long steps_max;          /* a run needing more steps is refused (ns_time_check) */
  int initial_stationary;  /* start from the stationary solution at `start` */
  int tau_dt;              /* the SUPG/PSPG parameter has the 2/dt term (forms.h) */
  char checkpoint[4096];   /* output.checkpoint, "" = none: written after every */
  long checkpoint_interval; /* output.checkpoint_interval time steps and on SIGTERM/SIGINT */
} NsTimeParams;
const char *ns_time_scheme_name(NsTimeScheme s); /* none|backward-euler|crank-nicolson|fs-theta|bdf2 */

/* ---- typed parameters: the library takes these (ns_create_with_params); the config is
 * one front end, navier_stokes/ns_config.c (ns_params_from_config, ns_create). A member's
 * default is written once, in its key's row (navier_stokes/ns_keys.c: default, range, help
 * and the member, FEAST_AT); ns_params_defaults fills them from there ---- */

/* the choices of the settings; each has one name table (ns_*_name), which the schema's
 * allowed values are built from (ns_keys.c) */
typedef enum { NS_SCHUR_AUTO, NS_SCHUR_MASS, NS_SCHUR_PCD, NS_SCHUR_NCHOICES } NsSchurChoice; /* auto|mass|pcd */
/* auto: fixed point until the defect has fallen below nonlinear.newton_switch times the
 * first one, then Newton (solve.c), where ns_defaults finds Newton suited (NsDefaults.newton);
 * elsewhere the fixed point throughout */
typedef enum { NS_NONLINEAR_FIXED_POINT, NS_NONLINEAR_NEWTON, NS_NONLINEAR_AUTO, NS_NONLINEAR_NCHOICES } NsNonlinearMethod; /* fixed-point|newton|auto */
typedef enum { NS_LINE_SEARCH_BACKTRACKING, NS_LINE_SEARCH_NONE, NS_LINE_SEARCH_NCHOICES } NsLineSearch; /* backtracking|none */
/* continuation.method (continuation.c): auto = a stationary navier-stokes solve whose direct
 * attempt at the target Re fails or stalls is done again by continuation in Re; off = the
 * direct attempt is the result */
typedef enum {
  NS_CONTINUATION_AUTO,
  NS_CONTINUATION_OFF,
  NS_CONTINUATION_RE,
  NS_CONTINUATION_PSEUDO_TIME,
  NS_CONTINUATION_NCHOICES
} NsContinuation; /* auto|off|re|pseudo-time */
/* continuation.grid_sequencing (sequencing.c): auto = on for a stationary open flow (not
 * enclosed), off otherwise; on = every stationary navier-stokes solve; the coarsest level
 * solved first is NsDefaults.coarsest_level */
typedef enum { NS_SEQUENCING_AUTO, NS_SEQUENCING_ON, NS_SEQUENCING_OFF, NS_SEQUENCING_NCHOICES } NsGridSequencing; /* auto|on|off */
/* linear.preconditioner: block = the block-triangular Schur complement preconditioner
 * (schur.c), direct = the whole linearised system factored (coupled_direct.c); auto =
 * direct on grid sequencing's coarser levels of at most NS_DIRECT_MAX_DOFS unknowns
 * (sequencing.c); block elsewhere, switched to direct in a stationary solve of at most
 * NS_DIRECT_SWITCH_MAX_DOFS unknowns after a step of more than NS_DIRECT_SWITCH_ITERATIONS linear
 * iterations (schur.c) */
typedef enum { NS_PRECONDITIONER_AUTO, NS_PRECONDITIONER_BLOCK, NS_PRECONDITIONER_DIRECT, NS_PRECONDITIONER_NCHOICES } NsPreconditionerChoice; /* auto|block|direct */
enum { NS_DIRECT_MAX_DOFS = 100000, NS_DIRECT_SWITCH_MAX_DOFS = 400000, NS_DIRECT_SWITCH_ITERATIONS = 50 };
typedef enum { NS_START_ZERO, NS_START_RANDOM } NsInitialGuess; /* ScaRC's solver.initial_guess: zero|random */
const char *ns_schur_name(NsSchurChoice c);
const char *ns_nonlinear_name(NsNonlinearMethod m);
const char *ns_line_search_name(NsLineSearch l);
const char *ns_continuation_name(NsContinuation c);
const char *ns_grid_sequencing_name(NsGridSequencing s);
/* linear.factorisation: which block factors of K = [A B; BT C] = L D U the preconditioner
 * applies (schur.c), with D = blockdiag(A, -S):
 *   lower = L D = [A 0; BT -S] (the FEAST paper's K_s), upper = D U = [A B; 0 -S],
 *   full = L D U (two velocity solves), diagonal = D */
typedef enum {
  NS_FACTORISATION_LOWER,
  NS_FACTORISATION_UPPER,
  NS_FACTORISATION_FULL,
  NS_FACTORISATION_DIAGONAL,
  NS_FACTORISATION_NCHOICES
} NsFactorisation; /* lower|upper|full|diagonal */
const char *ns_factorisation_name(NsFactorisation f);
/* velocity.solver, pressure.solver: the inner solvers of the block preconditioner
 * (navier_stokes/inner.c); the pressure Laplacian takes the first NS_PRESSURE_SOLVERS */
typedef enum { NS_INNER_SCARC, NS_INNER_DIRECT, NS_INNER_JACOBI, NS_INNER_NCHOICES } NsInnerSolver; /* scarc|direct|jacobi */
enum { NS_PRESSURE_SOLVERS = NS_INNER_JACOBI, NS_DIRECT_MAX_NODES = 100000 };
const char *ns_inner_solver_name(NsInnerSolver s);
/* a time step's stopping test (solve.c): rhs = defect <= rtol max(first defect, ||h_free||),
 * h_free the step's right-hand side without its Dirichlet rows (~ M u_n / dt); first-defect
 * = defect <= rtol first defect; update = that, or the last update lambda c of the velocity
 * <= rtol ||u||. Stationary solves: always first-defect */
typedef enum {
  NS_STEP_REFERENCE_RHS,
  NS_STEP_REFERENCE_FIRST_DEFECT,
  NS_STEP_REFERENCE_UPDATE,
  NS_STEP_REFERENCE_NCHOICES
} NsStepReference; /* rhs|first-defect|update */
const char *ns_step_reference_name(NsStepReference r);
/* the linear tolerance of each nonlinear step (solve.c): fixed = linear.rtol;
 * eisenstat-walker = in Newton's steps choice 2 of Eisenstat & Walker (1996), gamma 0.9,
 * alpha 2, with their safeguard, eta_max 0.9, eta_0 = linear.rtol, and no oversolving of
 * the last step; the fixed point's steps (auto's first ones) keep linear.rtol */
typedef enum { NS_FORCING_FIXED, NS_FORCING_EISENSTAT_WALKER, NS_FORCING_NCHOICES } NsLinearForcing; /* fixed|eisenstat-walker */
const char *ns_linear_forcing_name(NsLinearForcing f);

/* the values of the fields on one boundary part: expression texts in x, y, t (muparser; z too on hexahedra),
 * NULL where the field is natural there (do-nothing; the pressure free) */
typedef struct {
  const char *part;          /* the mesh's name of the part */
  const char *u, *v, *p;
  int priority;              /* where parts meet at a vertex, the higher one sets the value */
  const char *w;             /* meshes of hexahedra: the third velocity component (expressions in x, y, z, t) */
} NsBoundaryValues;
enum { NS_MAX_BOUNDARY = 64 };

typedef struct {
  double re;                 /* Reynolds number: nu = reference_velocity reference_length / re */
  double reference_velocity, reference_length; /* U and L (also of the force coefficients) */
  const char *force[2];      /* body force f_x, f_y (expressions): NULL = 0 */
  const char *exact[3];      /* exact u, v, p (ns_errors): NULL = unknown */
  const char *initial[2];    /* time runs: the initial u, v: NULL = 0 */
  const char *force_z, *exact_w; /* meshes of hexahedra: f_z and the exact w (NULL: 0, unknown) */
  int nboundary;             /* parts with values (the others: natural for every field) */
  NsBoundaryValues boundary[NS_MAX_BOUNDARY];
} NsPhysicsParams;

/* the SUPG/PSPG stabilisation of navier_stokes/forms.h (issue #26, docs/notes/cavity-accuracy.md
 * "Accuracy per unknown"): tau of ns_tau times a factor per term family, and the viscous term of
 * the residuals; per problem (ns_form_at puts them in every form it builds) */
typedef struct {
  double supg_scale;         /* the SUPG terms use supg_scale x tau */
  double pspg_scale;         /* the PSPG terms use pspg_scale x tau */
  int viscous_residual;      /* 1: the residuals of both terms include -nu Laplace of the
                                linearisation velocity, reconstructed per cell */
} NsStabilisationParams;

enum { NS_ANDERSON_MAX = 10 }; /* nonlinear.anderson_depth at most */

typedef struct {
  NsNonlinearMethod method;  /* Newton: navier-stokes only; ns_defaults decides where auto switches */
  double rtol;               /* stop at this reduction of the nonlinear defect */
  int max_iterations;
  double damping;            /* the first step length tried */
  NsLineSearch line_search;
  double divergence_factor;  /* of the nonlinear defect, the Krylov and the velocity solves */
  NsInitialGuess initial_guess; /* of the linear solves */
  char checkpoint[4096];     /* stationary runs: a checkpoint file, "" = none */
  long checkpoint_interval;  /* written every this many steps */
  NsStepReference step_reference; /* time steps' stopping test */
  double newton_switch;      /* method auto: Newton from defect <= this x the first */
  int anderson_depth;        /* stationary fixed-point steps mixed by Anderson acceleration over
                                this many last steps, at most NS_ANDERSON_MAX (solvers/anderson.c); 0:
                                off */
} NsNonlinearParams;

/* the drivers above the nonlinear solver, the [continuation] keys: continuation in Re and
 * the fallbacks after a failed direct attempt (continuation.c), pseudo-time steps
 * (pseudo_time.c), grid sequencing (sequencing.c); each file states its rules */
typedef struct {
  NsContinuation method;
  int stall_steps;           /* method auto: an attempt whose defect has not fallen below */
  double stall_factor;       /* stall_factor x the defect stall_steps steps before is stalled */
  double factor;             /* the first stage at Re / factor, each next one factor x the last */
  double rtol;               /* the stages below the target, and grid sequencing's coarser levels:
                                defect <= this x the direct attempt's first */
  int max_stages;            /* stages tried (failed ones included), at most NS_MAX_STAGES */
  double pseudo_dt;          /* the first pseudo-time step in units of reference_length / reference_velocity */
  double pseudo_switch;      /* pseudo-time steps until the defect <= this x the first, then the nonlinear solver */
  int pseudo_max_steps;      /* pseudo-time steps at most */
  NsGridSequencing grid_sequencing;
} NsContinuationParams;

/* `auto` one way: a key that may be auto has an AUTO member (an enum's, or NS_KRYLOV_AUTO),
 * or, an int key whose auto is "unset", holds FEAST_AUTO (feast/config/config.h) in its
 * member; ns_defaults resolves every one (problem.c states the rules; the reasons logged) */
#define NS_KRYLOV_AUTO FEAST_KRYLOV_NMETHODS /* linear.krylov = auto (ns_krylov_choice) */
typedef struct {
  FeastKrylovMethod krylov;  /* NS_KRYLOV_AUTO: fgmres for stationary navier-stokes, else bicgstab */
  NsSchurChoice schur;       /* auto: ns_defaults states the rule */
  double rtol;               /* per nonlinear step */
  int max_iterations;        /* FEAST_AUTO: the key's default, and where restart is FEAST_AUTO too a
                                stationary fgmres run stopped at its cap doubles both for the steps
                                after it, up to NS_LINEAR_GROW_MAX (NsDefaults.grow) */
  int restart;               /* fgmres; FEAST_AUTO: the key's default (see max_iterations) */
  int single_basis;          /* fgmres: the basis stored in single precision (FeastSolveParams) */
  int residual_replacement;  /* ibicgstab, pipebicgsafe: every this many iterations (0: never) */
  double residual_replacement_drop;
  NsPreconditionerChoice preconditioner; /* of the Krylov method */
  NsFactorisation factorisation; /* of the block preconditioner */
  NsLinearForcing forcing;   /* the tolerance per nonlinear step (in Newton's steps) */
  double pcd_viscous_scale;  /* linear.schur = pcd, stationary: the factor of nu M_p^-1 (pcd.c) */
  double pcd_rotation;       /* linear.schur = pcd, stationary, enclosed or Robin PCD: sigma of the rotation term (pcd.c), 0 = off */
  int pcd_inflow_dirichlet;  /* linear.schur = pcd, stationary, with an inflow: 1 = A_p zero on the inflow (Kay, Loghin
                                & Wathen), 0 = zero on the outflow and N_p with the inflow's Robin term (Elman &
                                Tuminaro 2009; pcd.c) */
  int pcd_supg;              /* linear.schur = pcd: 1 = F_p = nu A_p + N_p with the velocity's SUPG streamline
                                diffusion tau_s (w . grad psi_b, w . grad psi_a) (pcd.c), 0 = without */
} NsLinearParams;

typedef struct {
  FeastKrylovMethod method;  /* ScaRC's solver of a velocity block: richardson = global multigrid (mg) */
  double rtol;
  int max_iterations;        /* FEAST_AUTO: 1 cycle where pcd's rotation term is on in a stationary
                                enclosed flow, else the key's default (ns_defaults) */
  int fixed_iterations;      /* > 0: exactly this many cycles */
  ScarcParams scarc;         /* the [solver] keys (scarc_params_defaults); coarse_stabilisation
                                AUTO: from the coarse-mesh Peclet number (ns_defaults) */
  NsInnerSolver solver;      /* velocity.solver */
  int newton_reaction;       /* 1: Newton's velocity blocks in the preconditioner keep the reaction term
                                (u . grad) w of the Jacobian; 0: without it (ScaRC converges) */
} NsVelocityParams;

/* the pressure Laplacian A_p's solves (PCD, and the time steps' Cahouet-Chabard term):
 * the ScaRC method and fixed iterations are the velocity's */
typedef struct {
  NsInnerSolver solver;      /* scarc or direct */
  double rtol;
  int max_iterations;
  ScarcParams scarc;         /* the [pressure] ScaRC keys, each unset one the [solver] key's (the
                                velocity's target); equal to velocity.scarc, the A_p solves take the
                                velocity's resolved parameters (coarse_stabilisation, linear V cycle) */
} NsPressureParams;

typedef struct {
  NsPhysicsParams physics;
  NsStabilisationParams stabilisation;
  NsNonlinearParams nonlinear;
  NsContinuationParams continuation;
  NsLinearParams linear;
  NsVelocityParams velocity;
  NsPressureParams pressure;
  NsTimeParams time;         /* time.scheme none: stationary; time.start: the t of every expression */
  FeastFaultParams fault;    /* the test hook around the preconditioner */
} NsParams;

/* the defaults of every member: the default strings of the keys' rows in
 * navier_stokes/ns_keys.c (each row names its member, FEAST_AT), ScaRC's [solver] rows in
 * scarc/scarc_keys.c, and the `auto` flags set (the keys' own defaults) */
void ns_params_defaults(NsParams *p);
/* ns_params_defaults' time (the [time] rows; dt and end have no default: required with a
 * scheme) */
void ns_time_params_defaults(NsTimeParams *p);
/* nu = reference_velocity reference_length / re */
double ns_params_viscosity(const NsParams *p);
/* nu = U L / re at another Reynolds number (continuation's stages) */
double ns_viscosity_at(const NsPhysicsParams *p, double re);
/* part `name` with u, v, p (NULL: natural): sets the next boundary entry */
int ns_params_boundary(NsParams *p, const char *part, const char *u, const char *v, const char *p_value, int priority);
/* the same with the third velocity component w (meshes of hexahedra) */
int ns_params_boundary3(NsParams *p, const char *part, const char *u, const char *v, const char *w,
                        const char *p_value, int priority);

/* why each `auto` value was chosen (the log's and the summary's words) */
typedef struct {
  char schur[160], krylov[160], upwind[160], nonlinear[160], rotation[160], sequencing[160];
} NsDefaultsWhy;

/* which settings of NsDefaults were auto (their key unset or "auto"), so that the log
 * states the rule's choice and reason for those only */
typedef struct {
  int schur;           /* linear.schur */
  int krylov;          /* linear.krylov */
  int upwind;          /* solver.coarse_stabilisation */
  int nonlinear;       /* nonlinear.method (navier-stokes) */
  int velocity_cycles; /* velocity_cycles is the rule's 1 (velocity.max_iterations unset) */
} NsDefaultsAuto;

/* The problem-dependent defaults: the `auto` values of linear.schur, linear.krylov,
 * solver.coarse_stabilisation, nonlinear.method and continuation.grid_sequencing (and whether pcd's rotation term applies,
 * and velocity.max_iterations, linear.max_iterations and linear.restart where unset) resolved from the parameters and the coarse mesh alone (every
 * rank, rank count and phase decides the same; problem.c states the rules). Stokes and
 * time-dependent runs resolve to the paper's choices (mass, bicgstab, none). */
typedef struct {
  int pcd;                      /* linear.schur: 1 = pcd, 0 = mass */
  int rotation;                 /* pcd's rotation term on: linear.pcd_rotation > 0, an enclosed flow or Robin PCD */
  int newton;                   /* nonlinear.method = auto switches to Newton: a stationary run with the
                                   rotation term (else the fixed point throughout) */
  int velocity_cycles;          /* velocity.max_iterations: 1 where unset and the rotation term is on in a
                                   stationary run, else the key's value (unset: its default) */
  int linear_max_iterations, linear_restart; /* linear.max_iterations, linear.restart (unset: their
                                   defaults) */
  int grow;                     /* 1: both unset, a stationary fgmres run's caps grow (solve.c) */
  FeastKrylovMethod krylov;     /* linear.krylov */
  int upwind;                   /* solver.coarse_stabilisation: 1 = upwind */
  NsDefaultsAuto was_auto;      /* which of them the rules chose (logged with their reasons) */
  int pcd_applicable;           /* an inflow part or an enclosed flow */
  int newton_after_pseudo_time; /* nonlinear.method = auto: the attempt after pseudo-time steps switches
                                   to Newton (an open flow with pcd; the fixed point before them) */
  int pseudo_time;              /* continuation.method = auto: after a failed direct attempt pseudo-time
                                   steps (an open flow: not enclosed), else continuation in Re */
  double re_domain;             /* U D / nu, D the larger side of the mesh's bounding box */
  double peclet;                /* U H / (2 nu), H the longest edge of the coarse mesh */
  int sequencing;                /* continuation.grid_sequencing resolved: 1 = on */
  int direct;                   /* linear.preconditioner resolved: 1 = direct (auto: block; sequencing.c
                                   asks for direct on the coarser levels) */
  int coarsest_level;           /* with sequencing: the level solved first (problem.c states the rule) */
  NsDefaultsWhy why;
} NsDefaults;
/* enclosed: the velocity given on every part, the pressure nowhere */
int ns_defaults(const NsParams *p, const FeastMesh *mesh, int stokes, int enclosed, NsDefaults *d);
/* linear.krylov resolved (auto: fgmres for a stationary navier-stokes run, else bicgstab) */
FeastKrylovMethod ns_krylov_choice(const NsParams *p, int stokes);
/* the most linear iterations per step of a stationary FGMRES run whose cap grows
 * (NsDefaults.grow; the restart grows to half of it) */
enum { NS_LINEAR_GROW_MAX = 400 };
/* the longest FGMRES restart a run reaches for certain: NS_LINEAR_GROW_MAX / 2 where the cap
 * grows and Newton runs (nonlinear.method = newton | auto: Newton's solves start there),
 * else linear.restart (the fixed point's grow only where a solve stops at its cap) */
int ns_linear_restart_bound(const NsParams *p, int stokes);
/* the problem from parameters alone (no config): p is copied, and its strings are
 * compiled here (they need not outlive the call) */
int ns_create_with_params(const NsParams *p, const FeastDomain *dom, int stokes, NsProblem **ns);
void ns_destroy(NsProblem **ns);

/* why the nonlinear iteration stopped (ns_status_name: the name in summaries and messages) */
typedef enum {
  NS_CONVERGED,       /* "converged" */
  NS_MAX_ITERATIONS,  /* "max_iterations" */
  NS_DIVERGED,        /* "diverged": the defect grew past solver.divergence_factor */
  NS_NAN,             /* "nan": a defect or a linear solve not finite */
  NS_LINEAR_DIVERGED, /* "linear_diverged": the Krylov solve of a step diverged */
  NS_INTERRUPTED,     /* "interrupted": a stop signal (stop_signal) */
  NS_STALLED,         /* "stalled": (continuation.method = auto only) the defect has not fallen below
                         continuation.stall_factor x the one continuation.stall_steps before */
  NS_STAGES_EXHAUSTED /* "stages_exhausted": (continuation.method = auto only) continuation.max_stages
                         stages ran before one at the target Re converged (the last may have converged
                         below it: the iterate is that Re's solution, not the target's) */
} NsStatus;
enum { NS_MAX_STAGES = 16 };
const char *ns_status_name(NsStatus s);

/* grid sequencing (continuation.grid_sequencing, sequencing.c): what the solves on the
 * coarser levels took; the other counters of NsResult are the finest level's */
typedef struct {
  int levels;                  /* coarser levels solved (0: none) */
  int converged;               /* 1: the coarsest of them and each after it converged */
  long nonlinear_iterations;   /* their nonlinear steps (continuation's and pseudo-time's included) */
  long linear_iterations;      /* their Krylov iterations */
} NsCoarseResult;

typedef struct {
  int converged;
  NsStatus reason;
  int nonlinear_iterations;    /* linear solves (nonlinear steps) done */
  double *linear_per_step;     /* Krylov iterations of each step (owned by the problem) */
  long linear_iterations;      /* their sum */
  /* of the outer Krylov method, averaged over all its iterations (FeastSolveResult) */
  double reductions_per_iteration, exchanges_per_iteration;
  double initial_residual, final_residual; /* nonlinear defect norms */
  long velocity_vcycles;       /* global ScaRC V cycles of all velocity solves */
  double local_cycles_per_solve;
  int stop_signal;             /* reason "interrupted": the signal (SIGTERM, SIGINT) */
  int linear_capped;           /* linear solves stopped at their cap (linear.max_iterations) without
                                  converging (a restored run's included) */
  int newton_given_up;         /* nonlinear.method = auto: times Newton was given up for the fixed point
                                  (its linear solves at the largest cap twice in a row; per attempt) */
  /* continuation.method = auto: the stages run after the direct attempt at the target Re
   * failed or stalled (the counters above are those of the attempt and every stage) */
  int continuation_stages;     /* 0: the direct attempt is the result */
  NsStatus direct_reason;      /* why the direct attempt stopped */
  int direct_iterations;       /* its nonlinear steps */
  /* each stage's Reynolds number, nonlinear steps and reason (NS_CONVERGED: it reached its
   * tolerance); one more than the stages allowed: the last resort (continuation.c) */
  double continuation_re[NS_MAX_STAGES + 1];
  int continuation_iterations[NS_MAX_STAGES + 1];
  NsStatus continuation_reason[NS_MAX_STAGES + 1];
  NsCoarseResult coarse;       /* grid sequencing: the coarser levels' solves */
} NsResult;

/* continue from a checkpoint (verified and matched by feast_checkpoint_match): the
 * iterate and the state of the nonlinear iteration; ns_solve then goes on from there.
 * Collective. */
int ns_restore(NsProblem *ns, const FeastCheckpoint *ck);

/* the nonlinear iteration, one progress line per step on stdout (rank 0); the last
 * iterate stays in the problem also when it did not converge. With continuation.method =
 * auto (stationary navier-stokes) a direct attempt that fails or stalls is followed by
 * continuation in Re or pseudo-time steps (continuation.c); with grid sequencing
 * (continuation.grid_sequencing, auto: a stationary open flow) a fresh problem's first
 * solve starts on a coarser level of the same mesh (sequencing.c) */
int ns_solve(NsProblem *ns, NsResult *res);
/* buf <- for a run that did not converge: its likely cause and the key to try (one
 * clause, no newline); "" when converged */
void ns_failure_hint(const NsProblem *ns, const NsResult *res, char *buf, size_t size);

/* ---- the solution and the start (problem.c) ----
 * The problem holds one iterate: a 3-block FeastVec (feast/la/vector.h) on level
 * ns_level(ns) of the domain the problem was made on. Block 0 is u, 1 is v, 2 is p
 * (feast_vec_block(x, b, li): local macro li's N x N values, N = 2^level + 1, numbered
 * linewise, at the coordinates dom->levels[level].xy[li]); a node on a macro edge or
 * corner is stored on every macro that holds it, with the same value (consistent), so a
 * reduction over nodes counts each once at its owner (dom->levels[level].owned). */
/* the iterate, owned by the problem (valid until ns_destroy; every solve changes it): the
 * start before ns_solve (zero with the Dirichlet values, or ns_set_initial_guess's); after
 * it the last iterate (the solution where NsResult.converged); during and after
 * ns_time_run the solution at ns_time(ns) (what a step monitor sees). Where the pressure
 * is fixed only up to a constant (ns_pressure_nullspace) it has zero mean. */
const FeastVec *ns_solution(const NsProblem *ns);
/* the blocks of the iterate (and of every 3-block vector of the problem) */
enum { NS_U, NS_V, NS_P, NS_NFIELDS };
extern const char *const ns_field_names[NS_NFIELDS]; /* "u", "v", "p" (problem.c) */
/* the level of the problem's vectors: the domain's finest (FeastDomain.finest) */
int ns_level(const NsProblem *ns);
/* the start of the next ns_solve: the iterate <- x (3 blocks on ns_level(ns) of the
 * problem's own domain, consistent), then the Dirichlet values of every field at the
 * problem's current time and, where the pressure is fixed only up to a constant, the
 * pressure shifted to zero mean; a state restored by ns_restore or ns_time_restore is
 * dropped (ns_solve starts afresh, Anderson's history empty). Without it ns_solve starts
 * from the iterate the problem holds: after ns_create_with_params zero with the Dirichlet
 * values, after a solve its last iterate; grid sequencing (continuation.grid_sequencing)
 * starts only a fresh problem's first solve, from its coarsest level, not one from a given
 * guess or a solve's iterate. ns_solve's direct attempt starts from it
 * (continuation.method = pseudo-time: its pseudo-time steps); continuation's fallbacks
 * after a failed direct attempt (the stages in Re, or pseudo-time steps) start from the
 * zero start, and ns_time_run from initial.u / v (it ignores the guess). FEAST_ERR_ARG
 * for a vector of another domain, level or block count. Collective. */
int ns_set_initial_guess(NsProblem *ns, const FeastVec *x);
/* 1/2 int |u|^2 */
int ns_kinetic_energy(const NsProblem *ns, double *ke);
/* L2 errors against problem.exact_u/v (velocity) and exact_p (pressure, both with zero
 * mean when the pressure is fixed only up to a constant); NaN where not given */
int ns_errors(const NsProblem *ns, double *velocity, double *pressure);
int ns_pressure_nullspace(const NsProblem *ns);
double ns_viscosity(const NsProblem *ns);
/* the precision the ScaRC local multigrids run in ("double" or "single") */
const char *ns_local_precision(const NsProblem *ns);
/* VTK: u (vector), p, vorticity; collective */
int ns_write_vtk(const NsProblem *ns, const char *base);
/* PREFIX_u.csv (y,u on x = 0.5) and PREFIX_v.csv (x,v on y = 0.5); collective */
int ns_write_centerlines(const NsProblem *ns, const char *prefix);
/* the file of centre line k (0: PREFIX_u.csv, 1: PREFIX_v.csv) */
int ns_centerline_file_name(const char *prefix, int k, char *buf, size_t size);

/* ---- time-dependent runs (timestep.c) ---- */

/* after each time step: what the caller's monitor sees */
typedef struct {
  long step;               /* 1, 2, ... */
  long steps;              /* of the whole run */
  double t, dt;            /* the time reached, the step taken */
  int nonlinear_steps;     /* nonlinear steps of this time step (all substeps) */
  long linear_iterations;  /* Krylov iterations of this time step */
  double seconds;          /* wall time of this time step */
  /* this rank's time in the step's assembly (FEAST_T_ASSEMBLY: each nonlinear step's
   * convection, not accelerable) and local multigrids (FEAST_T_LOCAL_MG: accelerable) */
  double assembly_seconds, local_seconds;
  int linear_capped;       /* its linear solves stopped at their cap */
} NsStepInfo;

/* called on every rank after every time step (ns_solution(ns) is the new solution); a
 * nonzero status stops the run with that status */
typedef int (*NsStepMonitor)(void *ctx, const NsProblem *ns, const NsStepInfo *info);

/* why a time run stopped (ns_time_status_name: the name in summaries) */
typedef enum {
  NS_TIME_CONVERGED,   /* "converged": every step's nonlinear solve converged, the end reached */
  NS_TIME_STEP_FAILED, /* "step_failed": a step's nonlinear solve failed (nonlinear_reason) */
  NS_TIME_INTERRUPTED  /* "interrupted": a stop signal (stop_signal) */
} NsTimeStatus;
const char *ns_time_status_name(NsTimeStatus s);

typedef struct {
  int converged;           /* every step's nonlinear solve converged, end reached */
  NsTimeStatus reason;
  NsStatus nonlinear_reason; /* with NS_TIME_STEP_FAILED: the failed step's */
  long steps;              /* time steps done */
  double t;                /* the time of ns_solution(ns) (the last good one) */
  long nonlinear_iterations, linear_iterations; /* of all steps */
  long velocity_vcycles;
  int stop_signal;
  long linear_capped;      /* linear solves of all steps stopped at their cap */
} NsTimeResult;

/* the initial state (initial.u / v, or the stationary solution) and the time steps to
 * p->end; collective. A step whose nonlinear solve fails (NaN, divergence, no
 * convergence) ends the run with ns_solution(ns) the last good solution. After
 * ns_time_restore it starts after the checkpoint's step instead. With p->checkpoint: a
 * checkpoint after every p->checkpoint_interval steps (after the monitor, so the hook
 * sees the step) and when a stop signal (SIGTERM/SIGINT) arrived on any rank, which then
 * ends the run at the end of that step with reason "interrupted". */
int ns_time_run(NsProblem *ns, const NsTimeParams *p, NsStepMonitor monitor, void *ctx, NsTimeResult *res);
/* the time of ns_solution(ns) */
double ns_time(const NsProblem *ns);
/* the number of time steps from p->start to p->end */
long ns_time_step_count(const NsTimeParams *p);

/* ---- checkpoints of time runs (checkpoint.c) ----
 * A time run's checkpoint ("kind time") holds what the scheme carries from one step to
 * the next: the step number, t, the previous step (variable-step BDF2), u_n (ns_solution,
 * with the pressure: the next step's first iterate) and the solution one step before
 * (ns->time.u1: u_n-1 of BDF2), in global node order (any rank count continues it), the
 * counters of all steps, and what the caller adds with the hook (its monitor's series). */
/* called on rank 0 while a time checkpoint is built: add the caller's state (header
 * lines, arrays) */
typedef int (*NsCheckpointHook)(void *ctx, FeastCheckpoint *ck);
void ns_time_set_checkpoint_hook(NsProblem *ns, NsCheckpointHook hook, void *ctx);
/* continue a time run from its checkpoint: ns_time_run then starts after its step
 * (collective) */
int ns_time_restore(NsProblem *ns, const FeastCheckpoint *ck);
/* the time step after which a time checkpoint was written */
int ns_time_checkpoint_step(const FeastCheckpoint *ck, long *step);

/* ---- benchmark quantities (forces.c): the DFG flow around a cylinder and the like ---- */
/* p(a) - p(b) (ns_pressure_at: the config keys output.pressure_point_a / _b name the
 * points in messages); collective */
int ns_pressure_difference(const NsProblem *ns, const double a[2], const double b[2], double *dp);
/* force (F_x, F_y) of the flow on boundary part `part` (density 1), by the volume
 * integral of the discrete momentum residual; collective, rank-independent */
int ns_force(const NsProblem *ns, const char *part, double force[2]);
/* drag and lift coefficients 2 F / (U^2 D), U = problem.reference_velocity,
 * D = problem.reference_length */
int ns_force_coefficients(const NsProblem *ns, const char *part, double coeff[2]);
/* the pressure at point p (collective): the value in the lowest macro holding it;
 * FEAST_ERR_CONFIG naming `what` (the config key) if no macro does */
int ns_pressure_at(const NsProblem *ns, const double p[2], const char *what, double *value);
/* from `from` along +x: the distance to the first point where the velocity u changes
 * sign from negative to >= 0 (the end of a recirculation zone behind a body), along the
 * finite element solution; 0 if there is none (collective) */
int ns_recirculation(const NsProblem *ns, const double from[2], double *length);
/* the points of boundary part `part` where the wall shear stress changes sign (separation
 * and reattachment points of a no-slip wall): its normal derivative of u.t, one-sided to
 * second order along the grid lines into the macro ((4 w_1 - w_2 - 3 w_0) / (2 h), w_k the
 * tangential velocity k cells off the part), changes sign between two neighbouring wall
 * nodes, at the linear interpolation of that change along the wall. xy[2 k], xy[2 k + 1] of point k, sorted by
 * x (then y); at most max points, *count of them found (possibly more than max: only the
 * first max stored); collective, rank-independent; FEAST_ERR_CONFIG if the mesh has no
 * such part */
int ns_wall_shear_zeros(const NsProblem *ns, const char *part, double *xy, int max, int *count);
#endif

/* The config schema: every key feastc reads, with its type, default, range and help.
 * Adding a key is one row here; the parser, the getters and `feastc --help-config`
 * (the README table) all read this table. A NULL default means "required where used". */
#include "feast/config.h"

#define INT_KEY(sec, key, def, lo, hi, help) {sec, key, FEAST_KEY_INT, def, lo, hi, NULL, help}
#define REAL_KEY(sec, key, def, lo, hi, help) {sec, key, FEAST_KEY_REAL, def, lo, hi, NULL, help}
#define ENUM_KEY(sec, key, def, choices, help) {sec, key, FEAST_KEY_ENUM, def, 0, 0, choices, help}
#define PATH_KEY(sec, key, def, help) {sec, key, FEAST_KEY_PATH, def, 0, 0, NULL, help}
#define STRING_KEY(sec, key, def, help) {sec, key, FEAST_KEY_STRING, def, 0, 0, NULL, help}
#define REAL2_KEY(sec, key, def, help) {sec, key, FEAST_KEY_REAL2, def, 0, 0, NULL, help}

const FeastKeySpec feast_config_keys[] = {
    /* ---- what is solved ---- */
    ENUM_KEY("problem", "type", "poisson", "poisson|stokes|navier-stokes",
             "the PDE: Poisson model problem (-Laplace u = f), Stokes, or incompressible "
             "Navier-Stokes (Q1/Q1 SUPG/PSPG)"),
    REAL_KEY("problem", "re", "1", 1e-6, 1e8,
             "Reynolds number of stokes/navier-stokes problems (the viscosity follows from it "
             "and the benchmark's reference velocity and length)"),

    /* ---- the grid ---- */
    PATH_KEY("grid", "file", NULL,
             "coarse mesh: native .feast or Gmsh .msh file (required)"),
    INT_KEY("grid", "level", "4", 0, 16,
            "refinement level L: each macro becomes 2^L x 2^L cells, (2^L+1)^2 nodes"),
    STRING_KEY("grid", "dirichlet", "all",
               "boundary parts with Dirichlet conditions, names separated by spaces or "
               "commas; 'all' = every part, empty = none"),

    /* ---- curved boundary parts, one section [boundary.NAME] per mesh part NAME ---- */
    ENUM_KEY("boundary.*", "type", "line", "line|circle",
             "shape of boundary part NAME: straight edges, or an arc of a circle onto which "
             "refined boundary nodes are projected"),
    REAL2_KEY("boundary.*", "center", NULL, "circle centre \"x y\" (required for type = circle)"),
    REAL_KEY("boundary.*", "radius", NULL, 1e-300, 1e300,
             "circle radius, > 0 (required for type = circle)"),

    /* ---- the solver ---- */
    ENUM_KEY("solver", "target", "cpu", "cpu|gpu",
             "where the local subdomain multigrid runs: the CPU or the CUDA GPU backend "
             "(nothing else changes)"),
    ENUM_KEY("solver", "local_precision", "auto", "auto|double|single",
             "floating point precision of the local multigrid; auto = double on cpu, "
             "single on gpu (mixed precision: the outer solver stays double)"),
    ENUM_KEY("solver", "gpu_fallback", "none", "none|cpu",
             "target = gpu without a usable GPU: none = stop with an error, cpu = warn and "
             "run the local multigrid on the CPU"),
    ENUM_KEY("solver", "scarc_solver", "mg", "mg|cg|bicgstab",
             "outer ScaRC solver: global multigrid, or CG / BiCGStab preconditioned by one "
             "global multigrid cycle"),
    REAL_KEY("solver", "rtol", "1e-8", 1e-16, 1,
             "stop when the residual norm is reduced by this factor (relative tolerance)"),
    INT_KEY("solver", "max_iterations", "100", 1, 1000000,
            "maximum outer iterations; stopping there is reported as not converged (exit 2)"),
    REAL_KEY("solver", "divergence_factor", "1e4", 1, 1e300,
             "stop as diverged when the residual norm grows beyond this factor times the "
             "initial one"),
    INT_KEY("solver", "mg_pre_smooth", "1", 0, 64,
            "global multigrid: pre-smoothing steps (additive Schwarz over macros) per level"),
    INT_KEY("solver", "mg_post_smooth", "0", 0, 64,
            "global multigrid: post-smoothing steps per level"),
    REAL_KEY("solver", "smoother_damping", "1", 0.01, 2,
             "damping of the additive Schwarz correction of the global smoother"),
    INT_KEY("solver", "coarse_max_dofs", "20000", 1, 100000000,
            "global coarse grid: the finest level with fewer unknowns than this, solved "
            "directly (UMFPACK) on rank 0"),
    INT_KEY("solver", "local_pre_smooth", "4", 0, 64,
            "local multigrid: damped Jacobi pre-smoothing steps per level"),
    INT_KEY("solver", "local_post_smooth", "4", 0, 64,
            "local multigrid: damped Jacobi post-smoothing steps per level"),
    REAL_KEY("solver", "local_jacobi_damping", "0.7", 0.01, 2,
             "local multigrid: damping factor of the Jacobi smoother"),
    REAL_KEY("solver", "local_rtol", "0.1", 1e-12, 1,
             "local multigrid: stop after reducing the local residual by this factor "
             "(0.1 = one digit)"),
    INT_KEY("solver", "local_max_cycles", "16", 1, 10000,
            "local multigrid: maximum V cycles per local solve"),
    INT_KEY("solver", "local_coarse_max_dofs", "200", 4, 1000000,
            "local multigrid: coarsest level = first with fewer unknowns than this, "
            "solved by CG"),

    /* ---- outputs ---- */
    PATH_KEY("output", "summary", "",
             "JSON run summary (sizes, iterations, residuals, timings); empty = none"),
    PATH_KEY("output", "vtk", "",
             "VTK XML output prefix P: `P_rN.vtu` per rank N and `P.pvtu` for ParaView; "
             "empty = none"),
    PATH_KEY("output", "matrix_market", "",
             "Matrix Market file for the assembled global matrix (`A.mtx` also writes "
             "`A_rhs.mtx`, the right-hand side); empty = none"),
    INT_KEY("output", "verbosity", "1", 0, 2, "0 = errors and warnings only, 1 = normal, 2 = verbose"),

    /* ---- resources ---- */
    REAL_KEY("run", "max_memory", "0", 0, 1e9,
             "memory limit in GiB for the estimated need of the run (checked before "
             "allocating); 0 = the machine's physical memory"),

    /* ---- test hooks ---- */
    ENUM_KEY("debug", "inject", "none", "none|nan|fail",
             "test hook: the second preconditioner application on rank debug.inject_rank "
             "returns a NaN (nan) or fails (fail), to test the failure paths"),
    INT_KEY("debug", "inject_rank", "0", 0, 1000000, "MPI rank on which debug.inject acts"),
};

const int feast_config_nkeys = (int)(sizeof feast_config_keys / sizeof feast_config_keys[0]);

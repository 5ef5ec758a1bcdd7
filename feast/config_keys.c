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
             "Reynolds number Re of stokes/navier-stokes problems: the kinematic viscosity is "
             "nu = reference_velocity * reference_length / Re"),
    REAL_KEY("problem", "reference_velocity", "1", 1e-300, 1e300,
             "reference velocity U of Re = U L / nu (cavity: the lid speed; DFG: the mean inflow "
             "velocity 0.2)"),
    REAL_KEY("problem", "reference_length", "1", 1e-300, 1e300,
             "reference length L of Re = U L / nu (cavity: the side; DFG: the cylinder diameter 0.1)"),
    REAL2_KEY("problem", "convection", "0 0",
              "poisson: constant convection field \"bx by\": solves -Laplace u + b.grad u = f (Galerkin Q1, "
              "nonsymmetric) for the same exact solution u = sin(pi x) sin(pi y)"),
    STRING_KEY("problem", "force_x", "0",
               "stokes/navier-stokes: body force f_x(x, y), an expression (muparser: + - * / ^, "
               "sin exp sqrt ..., pi, c ? a : b)"),
    STRING_KEY("problem", "force_y", "0", "stokes/navier-stokes: body force f_y(x, y), an expression"),
    STRING_KEY("problem", "exact_u", NULL,
               "stokes/navier-stokes: exact velocity u(x, y) if known (manufactured solutions); "
               "the summary then has velocity_l2_error"),
    STRING_KEY("problem", "exact_v", NULL, "stokes/navier-stokes: exact velocity v(x, y) if known"),
    STRING_KEY("problem", "exact_p", NULL,
               "stokes/navier-stokes: exact pressure p(x, y) if known (pressure_l2_error; compared "
               "with zero mean when the pressure is only fixed up to a constant)"),

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
    STRING_KEY("boundary.*", "u", NULL,
               "stokes/navier-stokes: Dirichlet value of the velocity u on part NAME, an expression "
               "in x, y; unset (for u and v): natural (do-nothing) outflow"),
    STRING_KEY("boundary.*", "v", NULL, "stokes/navier-stokes: Dirichlet value of the velocity v on part NAME"),
    STRING_KEY("boundary.*", "p", NULL,
               "stokes/navier-stokes: Dirichlet value of the pressure on part NAME (rarely wanted; "
               "unset: the pressure is free there)"),
    INT_KEY("boundary.*", "priority", "0", -1000000, 1000000,
            "where parts meet (a mesh vertex on two parts with Dirichlet values of one field), the "
            "part with the higher priority sets the value; equal priorities must agree"),

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
    ENUM_KEY("solver", "scarc_solver", "mg", "mg|cg|bicgstab|ibicgstab|pipebicgsafe",
             "poisson: outer ScaRC solver: global multigrid, or CG / BiCGStab preconditioned by one "
             "global multigrid cycle; ibicgstab = BiCGStab with one fused global reduction per "
             "iteration, pipebicgsafe = pipelined BiCGSafe (one non-blocking reduction per iteration, "
             "overlapped with the preconditioner and matrix-vector product)"),
    INT_KEY("solver", "residual_replacement", "0", 0, 1000000,
            "ibicgstab, pipebicgsafe (outer solvers): restart the recurrences from the true residual "
            "b - A x every this many iterations; 0 = never (the true residual is checked at every "
            "converged exit anyway)"),
    REAL_KEY("solver", "residual_replacement_drop", "1.4901161193847656e-08", 0, 1,
             "ibicgstab, pipebicgsafe (outer solvers): also restart from the true residual when the "
             "recurrence residual has fallen below this fraction of its largest value since the last "
             "(re)start (their rounding errors scale with that value); default sqrt(eps); 0 = never"),
    ENUM_KEY("solver", "initial_guess", "zero", "zero|random",
             "start of the linear solves (poisson: of the solve, at the free nodes; stokes/navier-stokes: of "
             "every linear solve for the correction): zero, or random = a hash of the node coordinates in "
             "[-1, 1) (reproducible, the same for every rank count)"),
    REAL_KEY("solver", "rtol", "1e-8", 1e-16, 1,
             "poisson: stop when the residual norm is reduced by this factor (relative tolerance)"),
    INT_KEY("solver", "max_iterations", "100", 1, 1000000,
            "poisson: maximum outer iterations; stopping there is reported as not converged (exit 2)"),
    REAL_KEY("solver", "divergence_factor", "1e4", 1, 1e300,
             "stop as diverged when the residual norm grows beyond this factor times the "
             "initial one (poisson solve, nonlinear iteration of stokes/navier-stokes)"),
    ENUM_KEY("solver", "nonlinear", "fixed-point", "fixed-point|newton",
             "navier-stokes: fixed-point defect correction (the convection linearised at the last "
             "iterate) or Newton (adds the derivative of the Galerkin convection; the "
             "stabilisation is linearised as in fixed point)"),
    REAL_KEY("solver", "nonlinear_rtol", "1e-8", 1e-16, 1,
             "stokes/navier-stokes: stop when the nonlinear defect is reduced by this factor"),
    INT_KEY("solver", "nonlinear_max_iterations", "50", 1, 100000,
            "stokes/navier-stokes: maximum nonlinear steps; stopping there is not converged (exit 2)"),
    REAL_KEY("solver", "nonlinear_damping", "1", 0.01, 1,
             "stokes/navier-stokes: damping omega of the nonlinear update v <- v + omega c (the "
             "first step length the line search tries)"),
    ENUM_KEY("solver", "nonlinear_line_search", "backtracking", "backtracking|none",
             "stokes/navier-stokes: backtracking halves the step length (at most 6 times) until the "
             "nonlinear defect falls (sufficient decrease 1 - 1e-4 x length); none takes every step whole"),
    INT_KEY("solver", "mg_pre_smooth", "1", 0, 64,
            "global multigrid: pre-smoothing steps (additive Schwarz over macros) per level"),
    INT_KEY("solver", "mg_post_smooth", "0", 0, 64,
            "global multigrid: post-smoothing steps per level"),
    REAL_KEY("solver", "smoother_damping", "1", 0.01, 2,
             "damping of the additive Schwarz correction of the global smoother"),
    ENUM_KEY("solver", "smoother_step", "auto", "auto|adaptive|fixed",
             "length of the additive Schwarz step: adaptive = minimise the residual along it (at most "
             "2 x smoother_damping; robust, but makes the V cycle a nonlinear map), fixed = "
             "smoother_damping (with solver.local_fixed_cycles a linear V cycle: what ibicgstab and pipebicgsafe assume); auto = fixed "
             "where the V cycle preconditions ibicgstab or pipebicgsafe (solver.scarc_solver, "
             "velocity.scarc_solver or linear.krylov), adaptive elsewhere. adaptive with those methods "
             "is an error"),
    ENUM_KEY("solver", "overlap", "off", "off|on",
             "ScaRC matrix-vector product: on = compute the macros' boundary rows, start the interface "
             "exchange, compute the interior rows meanwhile, then finish it (bitwise the same result as "
             "off)"),
    INT_KEY("solver", "coarse_max_dofs", "5000", 1, 100000000,
            "global coarse grid: the finest level with fewer unknowns than this, solved "
            "directly (solver.coarse_solver) on rank 0"),
    ENUM_KEY("solver", "coarse_stabilisation", "none", "none|upwind",
             "multigrid levels below the finest (global and local): none = plain Galerkin products "
             "P^T A P; upwind = every pair of coupled nodes of a coarse matrix gets the diffusion "
             "min(|a_ij - a_ji|/2, max(0, a_ij, a_ji)) (discrete upwinding of the convective, "
             "skew-symmetric part; symmetric matrices are unchanged), for convection-dominated "
             "velocity blocks whose Galerkin coarse levels lose the fine grid's SUPG (the cavity at "
             "Re = 1000 from L = 6 needs it; at Re = 400 it costs iterations, BENCHMARKS.md)"),
    ENUM_KEY("solver", "coarse_solver", "klu", "klu|umfpack",
             "direct solver of the global coarse grid (SuiteSparse; both analyse the pattern "
             "once): klu = sparse LU with AMD ordering, refactored in place with the first "
             "factorisation's pivot order when the values change (a nonlinear step), afresh "
             "when that loses accuracy (rcond estimate below 1e-3 of the full factorisation's); "
             "umfpack = multifrontal LU (BLAS, the FEAST paper's choice), a new numeric "
             "factorisation at every change"),
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
    INT_KEY("solver", "local_fixed_cycles", "0", 0, 10000,
            "local multigrid: N > 0 = exactly N V cycles per local solve (no tolerance test: a linear "
            "map); 0 = stop at local_rtol, except where the V cycle must be linear (it preconditions "
            "ibicgstab or pipebicgsafe): 2 there (logged)"),
    INT_KEY("solver", "local_coarse_max_dofs", "200", 4, 1089,
            "local multigrid: coarsest level = the finest with at most this many unknowns, "
            "solved exactly (dense inverse, n^2 values per macro)"),
    INT_KEY("solver", "local_framed_min_nodes", "129", 0, 1000000,
            "local multigrid: levels with at least this many nodes per side keep only their two outer "
            "rings of nodes and read the rest from ScaRC's global matrices (less memory and setup; "
            "their sweeps redo the frame's columns); 0 = every level, 1000000 = none; the same results (bitwise; with "
            "solver.coarse_stabilisation = upwind to solver tolerance)"),

    /* ---- stokes / navier-stokes: the linear solver of every nonlinear step ---- */
    ENUM_KEY("linear", "krylov", "bicgstab", "bicgstab|ibicgstab|pipebicgsafe|fgmres",
             "Krylov method on the saddle-point system, right-preconditioned by the lower "
             "block-triangular pressure Schur complement preconditioner: classical BiCGStab, "
             "ibicgstab (one fused global reduction per iteration), pipebicgsafe (pipelined "
             "BiCGSafe: one non-blocking reduction per iteration, overlapped with the "
             "preconditioner and matrix-vector product) or fgmres (flexible restarted GMRES: "
             "the residual never grows, robust where BiCGStab's spikes, e.g. DFG at L = 8; "
             "3 reductions per iteration, 2 linear.restart + 1 vectors)"),
    INT_KEY("linear", "restart", "30", 1, 1000,
            "linear.krylov = fgmres: iterations per restart cycle (memory: 2 restart + 1 "
            "vectors of the saddle-point system)"),
    ENUM_KEY("linear", "schur", "mass", "mass|pcd",
             "pressure Schur complement approximation of the preconditioner: mass = nu M_p^-1 (the "
             "FEAST paper; good when viscosity dominates), pcd = pressure convection-diffusion, "
             "nu M_p^-1 + M_p^-1 N_p A_p^-1 (one more scalar ScaRC solve; for higher cell Reynolds "
             "numbers; needs a part where the flow enters, where A_p is zero, or an enclosed flow, where "
             "A_p has Neumann conditions and one pinned node)"),
    REAL_KEY("linear", "rtol", "1e-2", 1e-16, 1,
             "stop the linear solve of a nonlinear step when its residual is reduced by this factor"),
    INT_KEY("linear", "max_iterations", "100", 1, 100000,
            "maximum Krylov iterations per nonlinear step (the step then goes on with that iterate)"),

    /* ---- stokes / navier-stokes: the velocity blocks, solved by ScaRC ([solver] structure) ---- */
    ENUM_KEY("velocity", "scarc_solver", "mg", "mg|cg|bicgstab|ibicgstab|pipebicgsafe",
             "ScaRC solver of each velocity block inside the preconditioner (mg: global multigrid)"),
    REAL_KEY("velocity", "rtol", "0.1", 1e-16, 1,
             "relative tolerance of a velocity block solve (0.1: one digit, the FEAST paper's choice)"),
    INT_KEY("velocity", "max_iterations", "8", 1, 100000,
            "maximum ScaRC iterations of a velocity block solve"),
    INT_KEY("velocity", "fixed_iterations", "0", 0, 1000,
            "N > 0: every velocity block solve runs exactly N global multigrid cycles from zero "
            "(velocity.scarc_solver = mg; with a fixed smoother step a linear preconditioner); 0 = stop "
            "at velocity.rtol, except under linear.krylov = ibicgstab | pipebicgsafe, which need a linear "
            "preconditioner and use 2 (logged)"),

    /* ---- stokes / navier-stokes: time-dependent runs (navier_stokes/timestep.c) ---- */
    ENUM_KEY("time", "scheme", "none", "none|backward-euler|crank-nicolson|fs-theta|bdf2",
             "navier-stokes: none = the stationary problem; else a run of time steps from time.start to "
             "time.end, each a nonlinear problem solved as the stationary one: backward-euler (order 1), "
             "crank-nicolson (theta = 1/2), fs-theta (fractional-step theta, three substeps per step, "
             "FEATFLOW's scheme), bdf2 (the first step backward Euler); consistent mass matrix, the "
             "pressure fully implicit"),
    REAL_KEY("time", "dt", NULL, 1e-300, 1e300, "the time step (required with time.scheme; > 0)"),
    REAL_KEY("time", "start", "0", -1e300, 1e300,
             "the initial time (also the time t of every expression of a stationary run)"),
    REAL_KEY("time", "end", NULL, -1e300, 1e300,
             "the final time (required with time.scheme; > time.start); the last step ends there exactly "
             "(the number of steps is (end - start) / dt rounded up, the step shortened to fit)"),
    ENUM_KEY("time", "tau_dt", "on", "off|on",
             "on = the SUPG/PSPG parameter tau has Tezduyar's time-step term, tau = ((2 alpha_0/dt)^2 + "
             "(2|u|/h)^2 + (4 nu/h^2)^2)^(-1/2): less stabilisation at small dt, and a spatial discretisation "
             "that changes with dt; off = tau of the stationary problem (the discretisation in space the same "
             "for every dt: what temporal convergence studies need)"),
    INT_KEY("time", "steps_max", "100000", 1, 1000000000,
            "the most time steps a run may take: a run that would need more is refused at input"),
    STRING_KEY("initial", "u", "0", "navier-stokes, time-dependent: the initial velocity u(x, y) at time.start"),
    STRING_KEY("initial", "v", "0", "navier-stokes, time-dependent: the initial velocity v(x, y) at time.start"),
    ENUM_KEY("initial", "stationary", "false", "false|true",
             "navier-stokes, time-dependent: true = start from the stationary solution at time.start "
             "(initial.u / v are its first iterate)"),

    /* ---- outputs ---- */
    PATH_KEY("output", "summary", "",
             "JSON run summary (sizes, iterations, residuals, timings); empty = none"),
    PATH_KEY("output", "vtk", "",
             "VTK XML output prefix P: `P_rN.vtu` per rank N and `P.pvtu` for ParaView; "
             "empty = none"),
    PATH_KEY("output", "centerlines", "",
             "stokes/navier-stokes: prefix P of `P_u.csv` (y,u along x = 0.5) and `P_v.csv` (x,v "
             "along y = 0.5), every node on those lines (the cavity's centre lines); empty = none"),
    STRING_KEY("output", "forces_on", "",
               "stokes/navier-stokes: boundary part NAME (with a Dirichlet velocity) whose drag and lift "
               "coefficients 2 F / (U^2 D) go into the summary (drag_coefficient, lift_coefficient; U, D: "
               "problem.reference_velocity, reference_length; F by the volume integral of the momentum "
               "residual); empty = none"),
    REAL2_KEY("output", "pressure_point_a", NULL,
              "stokes/navier-stokes: point \"x y\" of pressure_difference = p(a) - p(b) in the summary "
              "(with pressure_point_b)"),
    REAL2_KEY("output", "pressure_point_b", NULL, "stokes/navier-stokes: point \"x y\" b of pressure_difference"),
    REAL2_KEY("output", "recirculation_from", NULL,
              "stokes/navier-stokes: point \"x y\" (the rear end of a body): recirculation_length in the summary "
              "is the distance along +x to where u changes sign from negative to >= 0 (0: no recirculation)"),
    PATH_KEY("output", "timeseries", "",
             "navier-stokes, time-dependent: CSV file, one line per time step: t, dt, drag and lift "
             "coefficients and pressure difference (with output.forces_on / pressure_point_a, b), nonlinear "
             "steps, linear iterations, seconds; empty = none"),
    INT_KEY("output", "vtk_every", NULL, 1, 1000000000,
            "navier-stokes, time-dependent: with output.vtk = P, a snapshot P_NNNNNN.pvtu every this many "
            "steps (and the last) and P.pvd, the collection with their times, for ParaView; unset: P.pvtu "
            "at the end only"),
    PATH_KEY("output", "matrix_market", "",
             "Matrix Market file for the assembled global matrix (`A.mtx` also writes "
             "`A_rhs.mtx`, the right-hand side); empty = none"),
    PATH_KEY("output", "checkpoint", "",
             "stokes/navier-stokes: checkpoint of the nonlinear solver (iterate in global node order, "
             "step and iteration counters, initial residual), written atomically every "
             "output.checkpoint_interval steps and on SIGTERM/SIGINT; continue with "
             "`feastc CONFIG --restart FILE` on any number of ranks; empty = none"),
    INT_KEY("output", "checkpoint_interval", "1", 1, 1000000,
            "stokes/navier-stokes: nonlinear steps between two checkpoints (output.checkpoint)"),
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
    REAL_KEY("debug", "reduction_latency_us", "0", 0, 1e6,
             "benchmark knob: every global reduction completes no earlier than this many microseconds "
             "after it started (busy wait; a non-blocking reduction hides it behind the work done "
             "meanwhile), to emulate a high-latency network"),
};

const int feast_config_nkeys = (int)(sizeof feast_config_keys / sizeof feast_config_keys[0]);

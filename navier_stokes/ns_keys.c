/* The Navier-Stokes library's config keys: the physics ([problem] re, reference scales,
 * body force, exact solutions), the field values on boundary parts ([boundary.NAME] u, v,
 * p), the nonlinear solver, the linear solver of each nonlinear step ([linear]), the
 * velocity block solves ([velocity]) and the flow outputs (benchmark quantities, centre
 * lines, checkpoints). The application adds this table to the schema (feast/config/config.h). */
#include "navier_stokes/ns_keys.h"
#include "feast/config/config_keys.h"
#include "navier_stokes/ns.h"
#include "scarc/scarc_keys.h"

/* the member of NsParams that holds a key's value (ns_params_defaults and
 * ns_params_from_config fill them from this table) */
#define AT(member) FEAST_AT(NsParams, member)

static FeastKeySpec keys[] = {
    /* ---- the problem ---- */
    REAL_KEY("problem", "re", "1", 1e-6, 1e8,
             "Reynolds number Re of stokes/navier-stokes problems: the kinematic viscosity is "
             "nu = reference_velocity * reference_length / Re", DISCRETE, AT(physics.re)),
    REAL_KEY("problem", "reference_velocity", "1", 1e-300, 1e300,
             "reference velocity U of Re = U L / nu (cavity: the lid speed; DFG: the mean inflow "
             "velocity 0.2)", DISCRETE, AT(physics.reference_velocity)),
    REAL_KEY("problem", "reference_length", "1", 1e-300, 1e300,
             "reference length L of Re = U L / nu (cavity: the side; DFG: the cylinder diameter 0.1)", DISCRETE, AT(physics.reference_length)),
    STRING_KEY("problem", "force_x", "0",
               "stokes/navier-stokes: body force f_x(x, y), an expression (muparser: + - * / ^, "
               "sin exp sqrt ..., pi, c ? a : b)", DISCRETE),
    STRING_KEY("problem", "force_y", "0", "stokes/navier-stokes: body force f_y(x, y), an expression", DISCRETE),
    STRING_KEY("problem", "force_z", NULL,
               "stokes/navier-stokes on a mesh of hexahedra: body force f_z(x, y, z) (unset: 0); a 2D mesh refuses it",
               DISCRETE),
    STRING_KEY("problem", "exact_u", NULL,
               "stokes/navier-stokes: exact velocity u(x, y) if known (manufactured solutions); "
               "the summary then has velocity_l2_error", DISCRETE),
    STRING_KEY("problem", "exact_v", NULL, "stokes/navier-stokes: exact velocity v(x, y) if known", DISCRETE),
    STRING_KEY("problem", "exact_w", NULL,
               "stokes/navier-stokes on a mesh of hexahedra: exact velocity w(x, y, z) if known; a 2D mesh refuses it",
               DISCRETE),
    STRING_KEY("problem", "exact_p", NULL,
               "stokes/navier-stokes: exact pressure p(x, y) if known (pressure_l2_error; compared "
               "with zero mean when the pressure is only fixed up to a constant)", DISCRETE),

    /* ---- the SUPG/PSPG stabilisation (navier_stokes/forms.h) ---- */
    REAL_KEY("stabilisation", "supg_scale", "1", 1e-6, 1e6,
             "stokes/navier-stokes: the SUPG terms (streamline diffusion, the SUPG of grad p and f) use this "
             "factor times tau (ns_tau: Tezduyar-Osawa with the Apel-Knopp-Lube lengths)", DISCRETE, AT(stabilisation.supg_scale)),
    REAL_KEY("stabilisation", "pspg_scale", "1", 1e-6, 1e6,
             "stokes/navier-stokes: the PSPG terms (the pressure Laplacian C, the PSPG of the convection and of "
             "f) use this factor times tau; their O(tau nu Laplace u) consistency error scales with it "
             "(docs/notes/cavity-accuracy.md, issue #26)", DISCRETE, AT(stabilisation.pspg_scale)),
    ENUM_KEY("stabilisation", "viscous_residual", "off", "off|on",
             "stokes/navier-stokes: on = the SUPG and PSPG residuals include -nu Laplace u, reconstructed per "
             "cell from second differences of the linearisation velocity on its macro (lagged: consistent at "
             "the converged nonlinear solution); off = dropped (Q1's own Laplacian vanishes on rectangles). On "
             "the cavity (rectangular macros) it removes the O(tau nu Laplace u) consistency error that makes "
             "the extrema converge at first order at Re = 1000 (3x smaller errors at L = 6 on 4 x 4 macros); "
             "on curved macros the reconstruction misses the mapping's curvature (DFG: delta p worse). "
             "docs/notes/cavity-accuracy.md, issue #26", DISCRETE, AT(stabilisation.viscous_residual)),

    /* ---- the fields' values on boundary part NAME ---- */
    STRING_KEY("boundary.*", "u", NULL,
               "stokes/navier-stokes: Dirichlet value of the velocity u on part NAME, an expression "
               "in x, y; unset (for u and v): natural (do-nothing) outflow", DISCRETE),
    STRING_KEY("boundary.*", "v", NULL, "stokes/navier-stokes: Dirichlet value of the velocity v on part NAME", DISCRETE),
    STRING_KEY("boundary.*", "w", NULL,
               "navier-stokes on a mesh of hexahedra: Dirichlet value of the velocity w (z component) on part NAME, "
               "an expression in x, y, z; a 2D mesh refuses it", DISCRETE),
    STRING_KEY("boundary.*", "p", NULL,
               "stokes/navier-stokes: Dirichlet value of the pressure on part NAME (rarely wanted; "
               "unset: the pressure is free there)", DISCRETE),

    /* ---- the nonlinear solver ---- */
    ENUM_KEY("nonlinear", "method", "auto", NULL /* ns_nonlinear_name */,
             "navier-stokes: fixed-point defect correction (the convection linearised at the last "
             "iterate) or Newton (the derivative of every term: the convection, the SUPG/PSPG terms, "
             "tau, the viscous residual; navier_stokes/forms.h); auto = fixed point until the defect "
             "falls below nonlinear.newton_switch times the first one, then Newton, where Newton's "
             "linear systems suit the preconditioner: a stationary enclosed flow with PCD and its "
             "rotation term (linear.pcd_rotation; the cavity at Re = 1000, L = 6 1.8x faster than the "
             "fixed point); elsewhere the fixed point throughout (the DFG channel at Re = 100: Newton's "
             "steps need twice the iterations, 2.5x slower); printed at verbosity 1", RECORDED, AT(nonlinear.method)),
    REAL_KEY("nonlinear", "newton_switch", "1e-2", 1e-16, 1,
             "navier-stokes, nonlinear.method = auto: the relative nonlinear defect at which the "
             "fixed point hands over to Newton (logged)", RECORDED, AT(nonlinear.newton_switch)),
    ENUM_KEY("continuation", "method", "auto", NULL /* ns_continuation_name */,
             "navier-stokes, stationary: auto = when the direct attempt at problem.re fails (max_iterations, "
             "diverged, linear_diverged, nan) or stalls (continuation.stall_steps / _stall_factor), "
             "solve again by continuation in Re: a first stage at Re / continuation.factor from the "
             "zero start, each next one from the last converged stage at factor x its Re, up to problem.re; "
             "a failed stage goes back to the last converged solution and takes the square root of the "
             "factor (a lower first stage while none converged); when the stages run out and the stall "
             "test stopped an attempt at problem.re from a converged stage, a last resort: problem.re from "
             "the closest converged stage without the stall test (the cavity at Re = 3200, L = 3); stages "
             "logged and in the summary (continuation_stages, continuation_re); off = the direct attempt is "
             "the result", RECORDED, AT(continuation.method)),
    INT_KEY("continuation", "stall_steps", "10", 1, 100000,
            "navier-stokes, continuation.method = auto: an attempt is stalled (reason stalled) when its "
            "defect is above continuation.stall_factor x its defect this many steps before", RECORDED, AT(continuation.stall_steps)),
    REAL_KEY("continuation", "stall_factor", "0.5", 1e-16, 1,
             "navier-stokes, continuation.method = auto: see continuation.stall_steps (0.5 in 10 "
             "steps: the fixed point on the cavity at Re = 3200, L = 4, falls 10x or more every 10 steps)", RECORDED, AT(continuation.stall_factor)),
    REAL_KEY("continuation", "factor", "4", 1.1, 1e6,
             "navier-stokes, continuation.method = auto: the Reynolds number of the first stage is "
             "problem.re / this, of each next one this x the last converged one's", RECORDED, AT(continuation.factor)),
    REAL_KEY("continuation", "rtol", "1e-4", 1e-16, 1,
             "navier-stokes, continuation.method = auto: the stages below problem.re stop at a defect <= this "
             "x the direct attempt's first (at least nonlinear.rtol); the last one at nonlinear.rtol "
             "x that first defect, the direct attempt's own test. The coarser levels of "
             "continuation.grid_sequencing stop at this x their first defect (at least nonlinear.rtol)", RECORDED, AT(continuation.rtol)),
    INT_KEY("continuation", "max_stages", "8", 1, NS_MAX_STAGES,
            "navier-stokes, continuation.method = auto: stages tried at most (failed ones included)", RECORDED, AT(continuation.max_stages)),
    REAL_KEY("continuation", "pseudo_dt", "1", 1e-6, 1e6,
             "navier-stokes, continuation.method = pseudo-time: the first pseudo-time step in units of "
             "problem.reference_length / problem.reference_velocity; the next ones by switched evolution "
             "relaxation, dt_k+1 = dt_k r_k / r_k+1 (navier_stokes/pseudo_time.c)", RECORDED, AT(continuation.pseudo_dt)),
    REAL_KEY("continuation", "pseudo_switch", "1e-2", 1e-16, 1,
             "navier-stokes, continuation.method = pseudo-time: pseudo-time steps until the defect is <= this x "
             "the first, then the nonlinear solver (nonlinear.method) from there", RECORDED, AT(continuation.pseudo_switch)),
    INT_KEY("continuation", "pseudo_max_steps", "200", 1, 100000,
            "navier-stokes, continuation.method = pseudo-time: pseudo-time steps at most", RECORDED, AT(continuation.pseudo_max_steps)),
    ENUM_KEY("continuation", "grid_sequencing", "auto", NULL /* ns_grid_sequencing_name */,
             "stationary navier-stokes: grid sequencing (nested iteration): the problem is solved first on "
             "coarser levels of the same mesh, from the coarsest (the first from level 2 on whose cell Peclet "
             "number U h / (2 nu) is <= 32) up, each from the interpolated solution of the one below and "
             "to continuation.rtol, the finest to nonlinear.rtol x its zero start's first defect, with Newton "
             "from the first step where nonlinear.method = auto uses Newton (navier_stokes/sequencing.c); "
             "auto = on for an open flow (an inflow or outflow), off for an enclosed one; the summary's "
             "coarse_* entries count the coarser levels' steps", RECORDED, AT(continuation.grid_sequencing)),
    REAL_KEY("nonlinear", "rtol", "1e-8", 1e-16, 1,
             "stokes/navier-stokes: stop when the nonlinear defect is reduced by this factor", RECORDED, AT(nonlinear.rtol)),
    INT_KEY("nonlinear", "max_iterations", "100", 1, 100000,
            "stokes/navier-stokes: maximum nonlinear steps; stopping there is not converged (exit 2) "
            "(100: the fixed point on the cavity at Re = 3200, L = 5 needs 64)", RECORDED, AT(nonlinear.max_iterations)),
    REAL_KEY("nonlinear", "damping", "1", 0.01, 1,
             "stokes/navier-stokes: damping omega of the nonlinear update v <- v + omega c (the "
             "first step length the line search tries)", RECORDED, AT(nonlinear.damping)),
    INT_KEY("nonlinear", "anderson_depth", "5", 0, NS_ANDERSON_MAX,
            "stationary stokes/navier-stokes: m > 0 = Anderson acceleration of the fixed-point steps over the "
            "last m (2 m + 2 extra vectors, also in checkpoints; the cavity at Re = 1000, L = 6 with 5: 21 "
            "steps instead of 31, 1.5x faster; time steps are not mixed); 0 = off (the plain fixed point)", RECORDED, AT(nonlinear.anderson_depth)),
    ENUM_KEY("nonlinear", "line_search", "backtracking", NULL /* ns_line_search_name */,
             "stokes/navier-stokes: backtracking halves the step length (at most 6 times) until the "
             "nonlinear defect falls (sufficient decrease 1 - 1e-4 x length); none takes every step whole", RECORDED, AT(nonlinear.line_search)),

    /* ---- the nonlinear solver of a time step (solve.c) ---- */
    ENUM_KEY("nonlinear", "step_reference", "rhs", NULL /* ns_step_reference_name */,
             "navier-stokes, time-dependent: the stopping test of a time step's nonlinear solve: rhs = "
             "defect <= nonlinear.rtol x max(the step's first defect, the norm of its right-hand "
             "side without the Dirichlet rows, ~ M u_n / dt); first-defect = defect <= rtol x the step's "
             "first defect (tiny after the extrapolated start); update = first-defect, or the last update "
             "of the velocity <= rtol x its norm. Stationary runs: first-defect", RECORDED, AT(nonlinear.step_reference)),

    ENUM_KEY("nonlinear", "linear_forcing", "eisenstat-walker", NULL /* ns_linear_forcing_name */,
             "stokes/navier-stokes: the tolerance of each nonlinear step's linear solve: fixed = "
             "linear.rtol; eisenstat-walker = in Newton's steps (nonlinear.method = newton, and auto "
             "after its switch) Eisenstat & Walker's choice 2, eta_k = 0.9 (r_k / r_k-1)^2 with their "
             "safeguard (not below 0.9 eta_k-1^2 when that exceeds 0.1), at most 0.9, linear.rtol in "
             "the first step, and not below 0.5 x the nonlinear target / r_k (no oversolving in the "
             "last step); the fixed point's steps keep linear.rtol (with them it stalled at Re = 1000; "
             "auto at Re = 1000, L = 6: 33 s instead of 46 s with fixed; docs/notes/ns-nonlinear.md)", RECORDED, AT(linear.forcing)),

    /* ---- the linear solver of every nonlinear step ---- */
    ENUM_KEY("linear", "krylov", "auto", NULL /* auto, the Krylov registry's saddle-point methods */,
             "Krylov method on the saddle-point system, right-preconditioned by the lower "
             "block-triangular pressure Schur complement preconditioner: auto = fgmres for stationary "
             "navier-stokes, bicgstab for stokes and time-dependent runs (printed at verbosity 1); classical BiCGStab (the FEAST paper's), "
             "ibicgstab (one fused global reduction per iteration), pipebicgsafe (pipelined "
             "BiCGSafe: one non-blocking reduction per iteration, overlapped with the "
             "preconditioner and matrix-vector product) or fgmres (flexible restarted GMRES: "
             "the residual never grows, robust where BiCGStab's spikes, e.g. DFG at L = 8; "
             "3 reductions per iteration, 2 linear.restart + 1 vectors)", RECORDED),
    INT_KEY("linear", "restart", "60", 1, 1000,
            "linear.krylov = fgmres: iterations per restart cycle (memory: 2 restart + 1 "
            "vectors of the saddle-point system, 1.5 restart + 2.5 with linear.fgmres_basis = single; 60: the cavity at Re = 1000 needs 2.1x fewer "
            "iterations than with 30, and converges at L = 4, docs/notes/krylov-methods.md)", RECORDED_UNSET_AUTO, AT(linear.restart)),
    ENUM_KEY("linear", "fgmres_basis", "single", "single|double",
             "linear.krylov = fgmres: the precision the orthonormal basis is stored in; single halves "
             "the memory its Gram-Schmidt reads (the Krylov vectors' orthogonality to 1e-7, far below "
             "linear.rtol; the preconditioned vectors, the update and the residuals stay double; "
             "Gram-Schmidt 14.5 % -> 8.6 % of the graded cavity's cycles at Re = 400, Newton's runs ~17 % "
             "faster, the same iterations: docs/notes/krylov-methods.md); double = the basis in double precision", RECORDED),
    ENUM_KEY("linear", "schur", "auto", NULL /* ns_schur_name */,
             "pressure Schur complement approximation of the preconditioner: auto = pcd for stationary "
             "navier-stokes where PCD applies (an inflow or an enclosed flow) and the domain Reynolds "
             "number U D / nu >= 200 (D: the larger side of the mesh's bounding box), mass otherwise "
             "(printed at verbosity 1); mass = nu M_p^-1 (the "
             "FEAST paper; good when viscosity dominates), pcd = pressure convection-diffusion, "
             "nu M_p^-1 + M_p^-1 N_p A_p^-1 (one more scalar ScaRC solve; for higher cell Reynolds "
             "numbers; needs a part where the flow enters, where A_p is zero, or an enclosed flow, where "
             "A_p has Neumann conditions and one pinned node)", RECORDED, AT(linear.schur)),
    REAL_KEY("linear", "pcd_viscous_scale", "1", 1e-3, 1e3,
             "linear.schur = pcd, stationary solves: S^-1 ~ s nu M_p^-1 + M_p^-1 N_p A_p^-1 with this s "
             "(the rotation term adds one more nu M_p^-1; navier_stokes/pcd.c)", RECORDED, AT(linear.pcd_viscous_scale)),
    ENUM_KEY("linear", "pcd_supg", "on", "off|on",
             "linear.schur = pcd: on = PCD's pressure convection-diffusion operator F_p = nu A_p + N_p "
             "carries the streamline diffusion of the velocity's SUPG terms, tau_s (w.grad psi_b, w.grad "
             "psi_a) with the velocity's own tau_s per cell (the discrete F_p then matches the discrete "
             "F it stands for; navier_stokes/pcd.c): the backward-facing step at Re = 800, L = 3 near "
             "the solution 116-126 FGMRES iterations to 1e-6 instead of 384-413 (fixed point), 210-234 "
             "instead of 467-538 (Newton); off = N_p alone (feastc's choice until 2026-12-02)", RECORDED, AT(linear.pcd_supg)),
    ENUM_KEY("linear", "pcd_boundary", "robin", "robin|inflow-dirichlet",
             "linear.schur = pcd, stationary solves of a flow with an inflow: the boundary conditions of "
             "PCD's pressure operators (navier_stokes/pcd.c): robin = A_p zero on the outflow (the parts "
             "where the velocity is free; Neumann elsewhere) and N_p with the inflow's Robin term "
             "-(w.n) p q ds (Elman & Tuminaro 2009: the commutator holds at the boundary; fit for "
             "Newton's Jacobian); inflow-dirichlet = A_p zero on the inflow (Kay, Loghin & Wathen 2002; "
             "feastc's choice until 2026-11-29)", RECORDED, AT(linear.pcd_inflow_dirichlet)),
    REAL_KEY("linear", "pcd_rotation", "0.3", 0, 1e3,
             "linear.schur = pcd, stationary solves of an enclosed flow (A_p with Neumann conditions) and of "
             "an open flow with linear.pcd_boundary = robin (A_p zero on the outflow; not in pseudo-time steps; "
             "off with inflow-dirichlet): sigma > 0 adds the rotation "
             "term nu M_p^-1 + sigma / nu A_p^-1 M_rot A_p^-1 to S~^-1, M_rot the lumped mass weighted by "
             "max(0, det grad w) (the squared rotation rate of a vortex, 0 in a shear): the Schur "
             "complement of an Oseen operator rotating at rate Omega has S^-1 = nu + Omega^2 / (nu k^2) on "
             "pressures constant along closed streamlines, which N_p misses; its A_p solve runs at most 2 "
             "cycles (navier_stokes/pcd.c). The cavity at Re = 1000, L = 6: 615 instead of 955 FGMRES "
             "iterations, and Newton's Jacobian fits it (nonlinear.method = auto); the step at Re = 800, L = 4: "
             "Newton's steps after level 3 375 instead of 719 FGMRES iterations; 0 = off (printed at "
             "verbosity 1)", RECORDED, AT(linear.pcd_rotation)),
    ENUM_KEY("linear", "preconditioner", "auto", "auto|block|direct",
             "the preconditioner of the Krylov method on the linearised saddle-point system: block = the "
             "block-triangular Schur complement preconditioner (linear.schur, linear.factorisation; its velocity "
             "and pressure solves by ScaRC); direct = the whole system factored by UMFPACK, gathered on rank 0 "
             "(one Krylov iteration per nonlinear step; memory and time grow faster than the unknowns: small "
             "systems); auto = direct on grid sequencing's coarser levels of at most 100,000 unknowns (their "
             "globalisation's many steps at one cheap factorisation each: the backward-facing step at "
             "Re = 800, L = 4, its level 3 in 31 steps instead of 87, the run 20 s instead of 38 s), block "
             "elsewhere, switched to direct from the next step on in a stationary solve of at most 400,000 "
             "unknowns after a step of more than 50 Krylov iterations (the break-even of a factorisation "
             "lies at 13-47 iterations per step: the step at L = 4 then runs in 12 s instead of 25 s, the "
             "cavity at Re = 3200, L = 6, in 14 s instead of 39 s; memory: about 5 kB per unknown on rank "
             "0; printed at verbosity 1)", RECORDED, AT(linear.preconditioner)),
    ENUM_KEY("linear", "factorisation", "lower", NULL /* ns_factorisation_name */,
             "block factors of K = [A B; BT C] = L D U, D = blockdiag(A, -S), that the preconditioner applies: "
             "lower = [A 0; BT -S] (the FEAST paper's), upper = [A B; 0 -S], full = L D U (two velocity "
             "solves per application), diagonal = blockdiag(A, -S) (with linear.krylov = fgmres; S: linear.schur)", RECORDED, AT(linear.factorisation)),
    REAL_KEY("linear", "rtol", "1e-2", 1e-16, 1,
             "stop the linear solve of a nonlinear step when its residual is reduced by this factor", RECORDED, AT(linear.rtol)),
    INT_KEY("linear", "max_iterations", "100", 1, 100000,
            "maximum Krylov iterations per nonlinear step (the step then goes on with that iterate); "
            "stationary navier-stokes with linear.krylov = fgmres and neither this key nor linear.restart "
            "set: a step stopped here doubles both for the steps after it, up to 400 iterations and a "
            "restart of 200 (logged; the cavity at Re = 3200 needs it)", RECORDED_UNSET_AUTO, AT(linear.max_iterations)),

    /* ---- the velocity blocks, solved by ScaRC ([solver] structure) ---- */
    ENUM_KEY("velocity", "scarc_solver", "mg", NULL /* scarc_solver_choices() */,
             "ScaRC solver of each velocity block inside the preconditioner (mg: global multigrid)", RECORDED),
    REAL_KEY("velocity", "rtol", "0.1", 1e-16, 1,
             "relative tolerance of a velocity block solve (0.1: one digit, the FEAST paper's choice)", RECORDED, AT(velocity.rtol)),
    INT_KEY("velocity", "max_iterations", "2", 1, 100000,
            "maximum ScaRC iterations of a velocity block solve (2: more cycles toward velocity.rtol cost "
            "more than the outer iterations they save; stationary cavity and channel 1.2-1.4x faster "
            "than with 8, time steps unchanged: docs/notes/ns-linear-solver.md); unset, a stationary enclosed flow with "
            "PCD's rotation term takes 1 (its outer iterations follow the Schur approximation: 0-22 % "
            "faster; logged)", RECORDED_UNSET_AUTO, AT(velocity.max_iterations)),
    INT_KEY("velocity", "fixed_iterations", "0", 0, 1000,
            "N > 0: every velocity block solve runs exactly N global multigrid cycles from zero "
            "(velocity.scarc_solver = mg; with a fixed smoother step a linear preconditioner); 0 = stop "
            "at velocity.rtol, except under linear.krylov = ibicgstab | pipebicgsafe, which need a linear "
            "preconditioner and use 2 (logged)", RECORDED, AT(velocity.fixed_iterations)),

    ENUM_KEY("velocity", "solver", "scarc", NULL /* ns_inner_solver_name */,
             "inner solver of each velocity block: scarc (ScaRC multigrid to velocity.rtol), direct (the global "
             "sparse matrix factored by solver.coarse_solver on rank 0: exact; small systems and tests, refused "
             "above 100000 unknowns) or jacobi (one step of the assembled diagonal)", RECORDED, AT(velocity.solver)),
    ENUM_KEY("velocity", "newton_reaction", "off", "off|on",
             "navier-stokes, Newton steps (nonlinear.method = newton | auto): the velocity blocks the "
             "preconditioner solves (A11, A22 and the block Gauss-Seidel coupling A21): off = the Jacobian's without its reaction term (u . grad) w (assembled apart; "
             "ScaRC's multigrid converges on them: the cavity at Re = 1000, L = 6-7 takes 133-168 FGMRES "
             "iterations per Newton step), on = the Jacobian's own (ScaRC does not converge on them from "
             "L = 6 at Re = 1000: 678-1000 iterations)", RECORDED, AT(velocity.newton_reaction)),
    /* ---- the pressure Laplacian A_p (PCD; the Cahouet-Chabard term of time steps) ---- */
    ENUM_KEY("pressure", "solver", "scarc", NULL /* ns_inner_solver_name, the first two */,
             "inner solver of the pressure Laplacian A_p (linear.schur = pcd, time steps): scarc (the method and "
             "fixed iterations of the velocity solves, the ScaRC settings of [solver] but those set under "
             "[pressure], e.g. pressure.local_rtol) or direct (as velocity.solver)", AT(pressure.solver)),
    REAL_KEY("pressure", "rtol", "0.1", 1e-16, 1, "relative tolerance of an A_p solve with pressure.solver = scarc", AT(pressure.rtol)),
    INT_KEY("pressure", "max_iterations", "8", 1, 100000,
            "maximum ScaRC iterations of an A_p solve with pressure.solver = scarc", AT(pressure.max_iterations)),

    /* ---- outputs ---- */
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
    STRING_KEY("output", "wall_shear_zeros_on", "",
               "stokes/navier-stokes: boundary parts (no-slip walls; names separated by spaces) whose separation "
               "and reattachment points, where the wall shear stress changes sign, go into the summary "
               "(wall_shear_zeros_NAME: their x coordinates, ascending) and the log (x, y); empty = none"),
    PATH_KEY("output", "checkpoint", "",
             "stokes/navier-stokes: checkpoint of the nonlinear solver (iterate in global node order, "
             "step and iteration counters, initial residual; of a time-dependent run: t, step, u_n and "
             "u_n-1, the series of the summary), written atomically every "
             "output.checkpoint_interval steps and on SIGTERM/SIGINT; continue with "
             "`feastc CONFIG --restart FILE` on any number of ranks; empty = none", AT(nonlinear.checkpoint)),
    INT_KEY("output", "checkpoint_interval", "1", 1, 1000000,
            "stokes/navier-stokes: nonlinear steps (time steps of a time-dependent run) between two "
            "checkpoints (output.checkpoint)", AT(nonlinear.checkpoint_interval)),
    /* ---- stokes / navier-stokes: time-dependent runs (navier_stokes/timestep.c) ---- */
    ENUM_KEY("time", "scheme", "none", NULL /* ns_time_scheme_name */,
             "navier-stokes: none = the stationary problem; else a run of time steps from time.start to "
             "time.end, each a nonlinear problem solved as the stationary one: backward-euler (order 1), "
             "crank-nicolson (theta = 1/2), fs-theta (fractional-step theta, three substeps per step, "
             "FEATFLOW's scheme), bdf2 (the first step backward Euler); consistent mass matrix, the "
             "pressure fully implicit", AT(time.scheme)),
    REAL_KEY("time", "dt", NULL, 1e-300, 1e300, "the time step (required with time.scheme; > 0)", AT(time.dt)),
    REAL_KEY("time", "start", "0", -1e300, 1e300,
             "the initial time (also the time t of every expression of a stationary run)", AT(time.start)),
    REAL_KEY("time", "end", NULL, -1e300, 1e300,
             "the final time (required with time.scheme; > time.start); the last step ends there exactly "
             "(the number of steps is (end - start) / dt rounded up, the step shortened to fit)", AT(time.end)),
    ENUM_KEY("time", "tau_dt", "on", "off|on",
             "on = the SUPG/PSPG parameter tau has Tezduyar's time-step term, tau = ((2/dt)^2 + "
             "(2|u|/h)^2 + (4 nu/h^2)^2)^(-1/2): less stabilisation at small dt, and a spatial discretisation "
             "that changes with dt; off = tau of the stationary problem (the discretisation in space the same "
             "for every dt: what temporal convergence studies need)", AT(time.tau_dt)),
    INT_KEY("time", "steps_max", "100000", 1, 1000000000,
            "the most time steps a run may take: a run that would need more is refused at input", AT(time.steps_max)),
    STRING_KEY("initial", "u", "0", "navier-stokes, time-dependent: the initial velocity u(x, y) at time.start"),
    STRING_KEY("initial", "v", "0", "navier-stokes, time-dependent: the initial velocity v(x, y) at time.start"),
    ENUM_KEY("initial", "stationary", "false", "false|true",
             "navier-stokes, time-dependent: true = start from the stationary solution at time.start "
             "(initial.u / v are its first iterate)", AT(time.initial_stationary)),
    /* ---- outputs of time-dependent runs ---- */
    PATH_KEY("output", "timeseries", "",
             "navier-stokes, time-dependent: CSV file, one line per time step: t, dt, drag and lift "
             "coefficients and pressure difference (with output.forces_on / pressure_point_a, b), nonlinear "
             "steps, linear iterations, seconds; empty = none"),
    REAL_KEY("output", "series_from", NULL, -1e300, 1e300,
             "navier-stokes, time-dependent: the summary's extrema (drag/lift_coefficient_max/min), "
             "Strouhal number and half-period pressure difference from the steps at t >= this only (DFG "
             "2D-2: the periodic regime, without the start-up); unset: all steps"),
    INT_KEY("output", "vtk_every", NULL, 1, 1000000000,
            "navier-stokes, time-dependent: with output.vtk = P, a snapshot P_NNNNNN.pvtu every this many "
            "steps (and the last) and P.pvd, the collection with their times, for ParaView; unset: P.pvtu "
            "at the end only"),
};

static const char *schur_name(int i) { return ns_schur_name((NsSchurChoice)i); }
static const char *nonlinear_name(int i) { return ns_nonlinear_name((NsNonlinearMethod)i); }
static const char *line_search_name(int i) { return ns_line_search_name((NsLineSearch)i); }
static const char *continuation_name(int i) { return ns_continuation_name((NsContinuation)i); }
static const char *grid_sequencing_name(int i) { return ns_grid_sequencing_name((NsGridSequencing)i); }
static const char *time_scheme_name(int i) { return ns_time_scheme_name((NsTimeScheme)i); }
static const char *factorisation_name(int i) { return ns_factorisation_name((NsFactorisation)i); }
static const char *inner_solver_name(int i) { return ns_inner_solver_name((NsInnerSolver)i); }
static const char *step_reference_name(int i) { return ns_step_reference_name((NsStepReference)i); }
static const char *linear_forcing_name(int i) { return ns_linear_forcing_name((NsLinearForcing)i); }

#define SET_CHOICES(section, key, choices) feast_key_set_choices(keys, FEAST_NKEYS(keys), section, key, choices)

/* the allowed values of the enum keys from the name tables of their settings (ns.h) and the
 * Krylov registry: one list per choice */
/* the keys that moved out of [solver] into sections of their own (2026-12-02, issue #45):
 * setting an old name is one error naming the new one */
static const FeastMovedKey moved[] = {
    {"solver.nonlinear", "nonlinear.method"},
    {"solver.nonlinear_switch", "nonlinear.newton_switch"},
    {"solver.nonlinear_rtol", "nonlinear.rtol"},
    {"solver.nonlinear_max_iterations", "nonlinear.max_iterations"},
    {"solver.nonlinear_damping", "nonlinear.damping"},
    {"solver.nonlinear_line_search", "nonlinear.line_search"},
    {"solver.nonlinear_step_reference", "nonlinear.step_reference"},
    {"solver.anderson_depth", "nonlinear.anderson_depth"},
    {"solver.linear_forcing", "nonlinear.linear_forcing"},
    {"solver.continuation", "continuation.method"},
    {"solver.continuation_stall_steps", "continuation.stall_steps"},
    {"solver.continuation_stall_factor", "continuation.stall_factor"},
    {"solver.continuation_factor", "continuation.factor"},
    {"solver.continuation_rtol", "continuation.rtol"},
    {"solver.continuation_max_stages", "continuation.max_stages"},
    {"solver.pseudo_dt", "continuation.pseudo_dt"},
    {"solver.pseudo_switch", "continuation.pseudo_switch"},
    {"solver.pseudo_max_steps", "continuation.pseudo_max_steps"},
};

const FeastKeyTable *ns_config_keys(void) {
  static const FeastKeyTable table = {"navier_stokes", keys, FEAST_NKEYS(keys), moved, FEAST_NKEYS(moved)};
  static char schur[64], nonlinear[64], line_search[64], time_scheme[128], krylov[128];
  static char step_reference[64], linear_forcing[64], continuation[64], grid_sequencing[64];
  if (!schur[0]) {
    SET_CHOICES("linear", "schur", feast_key_choices(NULL, schur_name, NS_SCHUR_NCHOICES, schur, sizeof schur));
    SET_CHOICES("nonlinear", "method",
                feast_key_choices(NULL, nonlinear_name, NS_NONLINEAR_NCHOICES, nonlinear, sizeof nonlinear));
    SET_CHOICES("nonlinear", "line_search",
                feast_key_choices(NULL, line_search_name, NS_LINE_SEARCH_NCHOICES, line_search, sizeof line_search));
    SET_CHOICES("nonlinear", "step_reference",
                feast_key_choices(NULL, step_reference_name, NS_STEP_REFERENCE_NCHOICES, step_reference,
                                  sizeof step_reference));
    SET_CHOICES("continuation", "method",
                feast_key_choices(NULL, continuation_name, NS_CONTINUATION_NCHOICES, continuation, sizeof continuation));
    SET_CHOICES("continuation", "grid_sequencing",
                feast_key_choices(NULL, grid_sequencing_name, NS_SEQUENCING_NCHOICES, grid_sequencing,
                                  sizeof grid_sequencing));
    SET_CHOICES("nonlinear", "linear_forcing",
                feast_key_choices(NULL, linear_forcing_name, NS_FORCING_NCHOICES, linear_forcing,
                                  sizeof linear_forcing));
    SET_CHOICES("time", "scheme",
                feast_key_choices(NULL, time_scheme_name, NS_TIME_NSCHEMES, time_scheme, sizeof time_scheme));
    SET_CHOICES("linear", "krylov", feast_krylov_choices(FEAST_KRYLOV_FOR_SADDLE, "auto", krylov, sizeof krylov));
    SET_CHOICES("velocity", "scarc_solver", scarc_solver_choices());
  }
  static char factorisation[64];
  if (!factorisation[0])
    SET_CHOICES("linear", "factorisation",
                feast_key_choices(NULL, factorisation_name, NS_FACTORISATION_NCHOICES, factorisation, sizeof factorisation));
  static char velocity_solver[64], pressure_solver[64];
  if (!velocity_solver[0]) {
    SET_CHOICES("velocity", "solver",
                feast_key_choices(NULL, inner_solver_name, NS_INNER_NCHOICES, velocity_solver, sizeof velocity_solver));
    SET_CHOICES("pressure", "solver",
                feast_key_choices(NULL, inner_solver_name, NS_PRESSURE_SOLVERS, pressure_solver, sizeof pressure_solver));
  }
  return &table;
}

/* the [pressure] ScaRC keys: the A_p solves' own ScaRC settings, each unset one inherited
 * from [solver] (NsPressureParams.scarc; scarc_params_from_config with prefix "pressure.") */
const FeastKeyTable *ns_pressure_scarc_keys(void) {
  static FeastKeySpec rows[SCARC_PREFIX_KEYS];
  static char help[SCARC_PREFIX_KEYS][SCARC_HELP_LEN];
  static FeastKeyTable table = {"navier_stokes (pressure)", rows, 0, NULL, 0};
  if (!table.nkeys)
    table.nkeys = scarc_prefix_keys("pressure", "the ScaRC solves of the pressure Laplacian A_p (pressure.solver = scarc)", rows, help, SCARC_PREFIX_KEYS);
  return &table;
}

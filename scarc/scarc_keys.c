/* ScaRC's config keys ([solver]): the backend switch, the outer ScaRC solver and its
 * Krylov settings (shared by the problems' linear solves), the global multigrid, the
 * additive Schwarz smoother, the coarse grid solver and the local multigrids. The
 * application adds this table to the schema (feast/config/config.h); scarc/ reads the keys. */
#include "scarc/scarc_keys.h"
#include "feast/config/config_keys.h"
#include "solvers/krylov.h"
#include "scarc/scarc.h"
#include "feast/base/error.h"
#include "feast/base/log.h"
#include <stdio.h>
#include <string.h>

/* the member of ScarcParams that holds a key's value (scarc_params_defaults and
 * scarc_params_from_config fill them from this table) */
#define AT(member) FEAST_AT(ScarcParams, member)

static FeastKeySpec keys[] = {
    ENUM_KEY("solver", "target", "cpu", NULL /* scarc_target_name */,
             "where the local subdomain multigrid runs: the CPU or the CUDA GPU backend "
             "(nothing else changes)", RECORDED, AT(target)),
    ENUM_KEY("solver", "local_precision", "auto", NULL /* scarc_precision_name */,
             "floating point precision of the local multigrid; auto = single on cpu and gpu "
             "(mixed precision: the outer solver stays double; on the CPU single takes 4-28 % "
             "less time than double with the same iteration counts, docs/notes/ns-linear-solver.md), double where "
             "the V cycle must be a linear map (ibicgstab, pipebicgsafe: they stagnate with "
             "single-precision local solves; logged)", RECORDED, AT(local_precision)),
    ENUM_KEY("solver", "scarc_solver", "mg", NULL /* scarc_solver_choices() */,
             "poisson: outer ScaRC solver: global multigrid, or CG / BiCGStab preconditioned by one "
             "global multigrid cycle; ibicgstab = BiCGStab with one fused global reduction per "
             "iteration, pipebicgsafe = pipelined BiCGSafe (one non-blocking reduction per iteration, "
             "overlapped with the preconditioner and matrix-vector product)", RECORDED),
    INT_KEY("solver", "residual_replacement", "0", 0, 1000000,
            "ibicgstab, pipebicgsafe (outer solvers): restart the recurrences from the true residual "
            "b - A x every this many iterations; 0 = never (the true residual is checked at every "
            "converged exit anyway)", RECORDED),
    REAL_KEY("solver", "residual_replacement_drop", "1.4901161193847656e-08", 0, 1,
             "ibicgstab, pipebicgsafe (outer solvers): also restart from the true residual when the "
             "recurrence residual has fallen below this fraction of its largest value since the last "
             "(re)start (their rounding errors scale with that value); default sqrt(eps); 0 = never", RECORDED),
    ENUM_KEY("solver", "initial_guess", "zero", "zero|random",
             "start of the linear solves (poisson: of the solve, at the free nodes; stokes/navier-stokes: of "
             "every linear solve for the correction): zero, or random = a hash of the node coordinates in "
             "[-1, 1) (reproducible, the same for every rank count)", RECORDED),
    REAL_KEY("solver", "rtol", "1e-8", 1e-16, 1,
             "poisson: stop when the residual norm is reduced by this factor (relative tolerance)", RECORDED),
    INT_KEY("solver", "max_iterations", "100", 1, 1000000,
            "poisson: maximum outer iterations; stopping there is reported as not converged (exit 2)", RECORDED),
    REAL_KEY("solver", "divergence_factor", "1e4", 1, 1e300,
             "stop as diverged when the residual norm grows beyond this factor times the "
             "initial one (poisson solve, nonlinear iteration of stokes/navier-stokes)", RECORDED),
    INT_KEY("solver", "mg_pre_smooth", "1", 0, 64,
            "global multigrid: pre-smoothing steps (additive Schwarz over macros) per level", RECORDED, AT(mg_pre_smooth)),
    INT_KEY("solver", "mg_post_smooth", "0", 0, 64,
            "global multigrid: post-smoothing steps per level", RECORDED, AT(mg_post_smooth)),
    REAL_KEY("solver", "smoother_damping", "1", 0.01, 2,
             "damping of the additive Schwarz correction of the global smoother", RECORDED, AT(smoother_damping)),
    ENUM_KEY("solver", "smoother_step", "auto", NULL /* scarc_step_name */,
             "length of the additive Schwarz step: adaptive = minimise the residual along it (at most "
             "2 x smoother_damping; robust, but makes the V cycle a nonlinear map), fixed = "
             "smoother_damping (with solver.local_fixed_cycles a linear V cycle: what ibicgstab and pipebicgsafe assume); auto = fixed "
             "where the V cycle preconditions ibicgstab or pipebicgsafe (solver.scarc_solver, "
             "velocity.scarc_solver or linear.krylov), adaptive elsewhere. adaptive with those methods "
             "is an error", RECORDED, AT(smoother_step)),
    ENUM_KEY("solver", "overlap", "off", "off|on",
             "ScaRC matrix-vector product: on = compute the macros' boundary rows, start the interface "
             "exchange, compute the interior rows meanwhile, then finish it (bitwise the same result as "
             "off)", RECORDED, AT(overlap)),
    INT_KEY("solver", "coarse_max_dofs", "2500", 1, 100000000,
            "global coarse grid: the finest level with fewer unknowns (nodes of one field) than "
            "this, solved directly (solver.coarse_solver) on rank 0 (2500: 4 x 4 macros' 4,225 "
            "nodes at L = 4 made an L = 5 run two-level, its direct solves 23 % of the run; "
            "docs/notes/ns-linear-solver.md)", RECORDED, AT(coarse_max_dofs)),
    ENUM_KEY("solver", "coarse_stabilisation", "auto", NULL /* scarc_stabilisation_name */,
             "multigrid levels below the finest (global and local): auto = none, except where the "
             "problem decides (stationary navier-stokes: upwind when the coarse mesh's Peclet number "
             "U H / (2 nu), H its longest edge, is >= 90; printed at verbosity 1); none = plain Galerkin products "
             "P^T A P; upwind = every pair of coupled nodes of a coarse matrix gets the diffusion "
             "min(|a_ij - a_ji|/2, max(0, a_ij, a_ji)) (discrete upwinding of the convective, "
             "skew-symmetric part; symmetric matrices are unchanged), for convection-dominated "
             "velocity blocks whose Galerkin coarse levels lose the fine grid's SUPG (the cavity at "
             "Re = 1000 from L = 6 needs it; at Re = 400, L = 6 it costs 14 % time, docs/notes/ns-linear-solver.md)", RECORDED, AT(coarse_stabilisation)),
    ENUM_KEY("solver", "coarse_solver", "klu", NULL /* feast_direct_solver_name */,
             "direct solver of the global coarse grid (SuiteSparse; both analyse the pattern "
             "once): klu = sparse LU with AMD ordering, refactored in place with the first "
             "factorisation's pivot order when the values change (a nonlinear step), afresh "
             "when that loses accuracy (rcond estimate below 1e-3 of the full factorisation's); "
             "umfpack = multifrontal LU (BLAS, the FEAST paper's choice), a new numeric "
             "factorisation at every change", RECORDED, AT(coarse_solver)),
    INT_KEY("solver", "local_pre_smooth", "4", 0, 64,
            "local multigrid: damped Jacobi pre-smoothing steps per level", RECORDED, AT(local_pre_smooth)),
    INT_KEY("solver", "local_post_smooth", "4", 0, 64,
            "local multigrid: damped Jacobi post-smoothing steps per level", RECORDED, AT(local_post_smooth)),
    REAL_KEY("solver", "local_jacobi_damping", "0.7", 0.01, 2,
             "local multigrid: damping factor of the Jacobi smoother", RECORDED, AT(local_jacobi_damping)),
    REAL_KEY("solver", "local_rtol", "0.1", 1e-12, 1,
             "local multigrid: stop after reducing the local residual by this factor "
             "(0.1 = one digit)", RECORDED, AT(local_rtol)),
    INT_KEY("solver", "local_max_cycles", "16", 1, 10000,
            "local multigrid: maximum V cycles per local solve", RECORDED, AT(local_max_cycles)),
    INT_KEY("solver", "local_fixed_cycles", "0", 0, 10000,
            "local multigrid: N > 0 = exactly N V cycles per local solve (no tolerance test: a linear "
            "map); 0 = stop at local_rtol, except where the V cycle must be linear (it preconditions "
            "ibicgstab or pipebicgsafe): 2 there (logged)", RECORDED, AT(local_fixed_cycles)),
    INT_KEY("solver", "local_coarse_max_dofs", "200", 4, 1089,
            "local multigrid: coarsest level = the finest with at most this many unknowns, "
            "solved exactly (dense inverse, n^2 values per macro)", RECORDED, AT(local_coarse_max_dofs)),
    INT_KEY("solver", "local_framed_min_nodes", "129", 0, 1000000,
            "local multigrid: levels with at least this many nodes per side keep only their two outer "
            "rings of nodes and read the rest from ScaRC's global matrices (less memory and setup; "
            "their sweeps redo the frame's columns); 0 = every level, 1000000 = none; the same results (bitwise; with "
            "solver.coarse_stabilisation = upwind to solver tolerance)", RECORDED, AT(local_framed_min_nodes)),
    INT_KEY("solver", "local_gpu_min_nodes", "17", 0, 1000000,
            "local multigrid, target = gpu: levels with fewer nodes per side run on the CPU backend of "
            "the same precision (a GPU V cycle costs ~10 launches per level whatever the size); 17 = "
            "levels of 9 x 9 nodes and less on the CPU (measured on an H200 with 8-24 macros per rank, "
            "docs/notes/gpu-and-amdahl.md; its small-batch bench: with ~5 or fewer macros per rank 33 is faster); "
            "0 = every level on the GPU", RECORDED, AT(local_gpu_min_nodes)),
};

const char *scarc_solver_choices(void) {
  static char choices[128];
  if (!choices[0]) feast_krylov_choices(FEAST_KRYLOV_FOR_SCARC, "mg", choices, sizeof choices);
  return choices;
}

static const char *target_name(int i) { return scarc_target_name((ScarcTarget)i); }
static const char *precision_name(int i) { return scarc_precision_name((ScarcPrecision)i); }
static const char *step_name(int i) { return scarc_step_name((ScarcSmootherStep)i); }
static const char *stabilisation_name(int i) { return scarc_stabilisation_name((ScarcCoarseStabilisation)i); }
static const char *coarse_solver_name(int i) { return feast_direct_solver_name((FeastDirectSolver)i); }

#define SET_CHOICES(key, choices) feast_key_set_choices(keys, FEAST_NKEYS(keys), "solver", key, choices)

/* the allowed values of the enum keys from the name tables of their settings (scarc.h) and
 * the Krylov registry: one list per choice (scarc_config.c reads a value as its index) */
const FeastKeyTable *scarc_config_keys(void) {
  static const FeastKeyTable table = {"scarc", keys, FEAST_NKEYS(keys), NULL, 0};
  static char target[32], precision[32], step[32], stabilisation[32], coarse_solver[32];
  if (!target[0]) {
    SET_CHOICES("target", feast_key_choices(NULL, target_name, SCARC_TARGET_NCHOICES, target, sizeof target));
    SET_CHOICES("local_precision",
                feast_key_choices(NULL, precision_name, SCARC_PRECISION_NCHOICES, precision, sizeof precision));
    SET_CHOICES("smoother_step", feast_key_choices(NULL, step_name, SCARC_STEP_NCHOICES, step, sizeof step));
    SET_CHOICES("coarse_stabilisation", feast_key_choices(NULL, stabilisation_name, SCARC_STABILISATION_NCHOICES,
                                                          stabilisation, sizeof stabilisation));
    SET_CHOICES("coarse_solver",
                feast_key_choices(NULL, coarse_solver_name, FEAST_DIRECT_NCHOICES, coarse_solver, sizeof coarse_solver));
    SET_CHOICES("scarc_solver", scarc_solver_choices());
  }
  return &table;
}

int scarc_prefix_keys(const char *section, const char *solves, FeastKeySpec *rows, char (*help)[SCARC_HELP_LEN],
                      int max) {
  const FeastKeyTable *t = scarc_config_keys();
  int n = 0;
  for (int k = 0; k < t->nkeys && n < max; k++) {
    const FeastKeySpec *s = &t->keys[k];
    if (s->field.kind == FEAST_FIELD_NONE || strcmp(s->key, "target") == 0) continue;
    snprintf(help[n], SCARC_HELP_LEN, "%s: solver.%s for them alone (unset: solver.%s's value)", solves, s->key, s->key);
    rows[n] = *s;
    rows[n].section = section, rows[n].default_value = NULL, rows[n].help = help[n];
    rows[n].flags = 0, rows[n].field = (FeastField){0, 0, FEAST_FIELD_NONE};
    n++;
  }
  return n;
}

/* the defaults of the [solver] keys with a member (the table's rows) */
void scarc_params_defaults(ScarcParams *p) {
  memset(p, 0, sizeof *p);
  if (feast_params_defaults(scarc_config_keys(), p)) feast_warn("scarc_params_defaults: %s", feast_error_message());
}

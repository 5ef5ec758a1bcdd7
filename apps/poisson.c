/* Poisson model problem: -Laplace u + b.grad u = f with u = sin(pi x) sin(pi y) exact
 * (on a mesh of hexahedra: apps/poisson3d.c)
 * (b = problem.convection, constant; b = 0 by default: the Laplace matrix alone, b != 0:
 * a nonsymmetric convection-diffusion test), Dirichlet values from the exact solution, solved by ScaRC (standalone MG or as preconditioner
 * of CG/BiCGStab). Reports iterations, residuals and the L2 error. */
#include "apps/poisson.h"
#include "feast/base/error.h"
#include "feast/la/gather.h"
#include "feast/base/log.h"
#include "feast/io/mtx.h"
#include "feast/fem/q1.h"
#include "feast/base/vecmath.h"
#include "solvers/krylov.h"
#include "scarc/scarc.h"
#include "scarc/scarc_config.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static double u_exact(double x, double y) { return sin(M_PI * x) * sin(M_PI * y); }

/* u_exact at a node (FeastNodeFn) */
static int exact_at_node(void *ctx, double x, double y, double *value) {
  *value = u_exact(x, y);
  return 0;
}

/* the exact solution as a Q1 function */
static void exact(long n, const double *x, const double *y, void *ctx, double *u) {
  for (long k = 0; k < n; k++) u[k] = u_exact(x[k], y[k]);
}

/* f = -Laplace u + b.grad u; ctx: b (b = 0: without the cosines, which would double the
 * cost of the right-hand side) */
static void source(long n, const double *x, const double *y, void *ctx, double *f) {
  const double *b = ctx;
  if (b[0] == 0.0 && b[1] == 0.0) {
    for (long k = 0; k < n; k++) f[k] = 2.0 * M_PI * M_PI * u_exact(x[k], y[k]);
    return;
  }
  for (long k = 0; k < n; k++)
    f[k] = 2.0 * M_PI * M_PI * u_exact(x[k], y[k]) +
           M_PI * (b[0] * cos(M_PI * x[k]) * sin(M_PI * y[k]) + b[1] * sin(M_PI * x[k]) * cos(M_PI * y[k]));
}

/* grad phi_a . grad phi_b + phi_a (b . grad phi_b); ctx: b */
static void form_convection_diffusion(const FeastQ1Point *p, void *ctx, double Aloc[4][4]) {
  const double *b = ctx;
  feast_q1_form_laplace(p, NULL, Aloc);
  for (int a = 0; a < 4; a++)
    for (int c = 0; c < 4; c++)
      Aloc[a][c] += p->phi[a] * (b[0] * p->dphi[c][0] + b[1] * p->dphi[c][1]) * p->weight;
}

/* the raw partial matrices of the finest level (one per local macro): Laplace, plus the
 * convection when b != 0; assembled into the solver's storage (scarc_operator_storage) */
static int assemble_matrix(const FeastDomain *dom, const double *conv, Scarc *scarc, FeastBand9 **A) {
  const FeastLevel *lev = &dom->levels[dom->finest];
  feast_timer_start(FEAST_T_ASSEMBLY);
  int st = scarc_operator_storage(scarc, A);
  for (int li = 0; li < dom->nlocal && !st; li++) {
    if (conv[0] == 0.0 && conv[1] == 0.0)
      st = feast_q1_assemble(lev->N, lev->xy[li], dom->local[li], feast_q1_form_laplace, NULL, 2, &(*A)[li]);
    else
      st = feast_q1_assemble(lev->N, lev->xy[li], dom->local[li], form_convection_diffusion, (void *)conv, 2,
                             &(*A)[li]);
  }
  feast_timer_stop(FEAST_T_ASSEMBLY);
  return st;
}

/* b = int f phi (consistent), Dirichlet nodes carry the boundary values; x likewise, and
 * zero or (random_start) the coordinate hash at the free nodes */
static int rhs_values(const FeastDomain *dom, const FeastMask *mask, const double *conv, int random_start,
                      FeastVec *b, FeastVec *x) {
  const FeastLevel *lev = &dom->levels[dom->finest];
  feast_vec_zero(b);
  if (random_start)
    feast_vec_fill_hash(x);
  else
    feast_vec_zero(x);
  for (int li = 0; li < dom->nlocal; li++)
    FEAST_CALL(feast_q1_assemble_rhs(lev->N, lev->xy[li], dom->local[li], source, (void *)conv, 2,
                                     feast_vec_block(b, 0, li)));
  FEAST_CALL(feast_vec_sum(b));
  FEAST_CALL(feast_vec_set_nodes(b, 0, mask, exact_at_node, NULL));
  return feast_vec_set_nodes(x, 0, mask, exact_at_node, NULL);
}

/* the right-hand side b and the start x, made and filled (rhs_values), timed as assembly */
static int assemble_rhs(const FeastDomain *dom, const FeastMask *mask, const double *conv, int random_start,
                        FeastVec **b, FeastVec **x) {
  feast_timer_start(FEAST_T_ASSEMBLY);
  int st = feast_vec_create(dom, dom->finest, 1, b);
  if (!st) st = feast_vec_create(dom, dom->finest, 1, x);
  if (!st) st = rhs_values(dom, mask, conv, random_start, *b, *x);
  feast_timer_stop(FEAST_T_ASSEMBLY);
  return st;
}

static int l2_error(const FeastDomain *dom, const FeastVec *x, double *err) {
  const FeastLevel *lev = &dom->levels[dom->finest];
  double *part;
  FEAST_CALL(FEAST_ALLOC(2 * dom->nlocal + 2, &part));
  for (int li = 0; li < dom->nlocal; li++)
    FEAST_CALL(feast_q1_l2_error(lev->N, lev->xy[li], feast_vec_block_read(x, 0, li), exact, NULL, 3, &part[li],
                                 &part[dom->nlocal + li]));
  double sums[2];
  int st = feast_domain_sum_macros(dom, 2, part, sums);
  free(part);
  *err = sqrt(sums[0]);
  return st;
}

static int export_matrix(const FeastProblemContext *app, Scarc *scarc, const FeastVec *b) {
  char path[4096];
  FEAST_CALL(feast_config_get_path(app->cfg, "output.matrix_market", path, sizeof path));
  if (!path[0]) return 0;
  const FeastDomain *dom = app->dom;
  FeastTriplets t;
  const FeastBand9 *A;
  FEAST_CALL(scarc_matrices(scarc, &A));
  FEAST_CALL(feast_gather_matrix(dom, dom->finest, A, 0, 0, &t));
  double *g = NULL;
  if (app->rank == 0) FEAST_CALL(FEAST_ALLOC(dom->levels[dom->finest].nglobal, &g));
  FEAST_CALL(feast_vec_gather_block(b, 0, 0, g));
  int st = 0;
  if (app->rank == 0) {
    char rhs[4200];
    st = feast_mtx_rhs_name(path, rhs, sizeof rhs);
    if (!st) st = feast_mtx_write_coordinate(path, t.n, t.nnz, t.row, t.col, t.val);
    if (!st) st = feast_mtx_write_array(rhs, t.n, g);
    if (!st) feast_log(1, "  matrix market: %s (%lld x %lld, %lld nonzeros), %s\n", path, (long long)t.n,
                       (long long)t.n, (long long)t.nnz, rhs);
  }
  free(g);
  feast_triplets_free(&t);
  return st;
}


/* the Krylov method and its parameters from [solver] */
static int solve_settings(const FeastConfig *cfg, FeastKrylovMethod *method, FeastSolveParams *sp) {
  const char *name;
  long maxit;
  memset(sp, 0, sizeof *sp);
  FEAST_CALL(feast_config_get_string(cfg, "solver.scarc_solver", &name));
  FEAST_CALL(scarc_method_from_name(name, method));
  FEAST_CALL(feast_config_get_real(cfg, "solver.rtol", &sp->rtol));
  FEAST_CALL(feast_config_get_int(cfg, "solver.max_iterations", &maxit));
  FEAST_CALL(feast_config_get_real(cfg, "solver.divergence_factor", &sp->divergence_factor));
  sp->max_iterations = (int)maxit;
  FEAST_CALL(feast_config_get_int(cfg, "solver.residual_replacement", &maxit));
  sp->replace_every = (int)maxit;
  FEAST_CALL(feast_config_get_real(cfg, "solver.residual_replacement_drop", &sp->replace_drop));
  sp->monitor = feast_log_verbosity() >= 2 || (feast_log_verbosity() >= 1 && feast_stdout_is_tty());
  sp->label = "scarc";
  return 0;
}

static int solve(const FeastProblemContext *app, Scarc *scarc, const FeastVec *b, FeastVec *x, FeastSolveResult *res) {
  FeastSolveParams sp;
  FeastKrylovMethod method;
  FEAST_CALL(solve_settings(app->cfg, &method, &sp));
  FeastLinOp M;
  FeastFaultOp hook;
  FeastFaultParams fault;
  FEAST_CALL(feast_fault_params_from_config(app->cfg, &fault));
  FEAST_CALL(feast_fault_op(&fault, app->rank, scarc_preconditioner(scarc), &hook, &M));
  feast_timer_start(FEAST_T_LINEAR);
  int st = feast_krylov_solve(method, scarc_operator(scarc), M, b, x, &sp, NULL, res);
  feast_timer_stop(FEAST_T_LINEAR);
  return st;
}

/* the summary and the last line; cycles: local multigrid cycles per local solve (< 0:
 * not counted) */
static void report(const FeastProblemContext *app, int coarse, double cycles, const FeastSolveResult *res, double err) {
  FeastSummary *s = app->summary;
  feast_summary_set_bool(s, "converged", res->converged);
  feast_summary_set_string(s, "reason", feast_solve_status_name(res->reason));
  feast_summary_set_int(s, "global_mg_iterations", res->iterations);
  feast_summary_set_real(s, "initial_residual", res->initial_residual);
  feast_summary_set_real(s, "final_residual", res->final_residual);
  feast_summary_set_real(s, "convergence_rate", res->rate);
  feast_summary_set_real(s, "reductions_per_iteration", res->reductions_per_iteration);
  feast_summary_set_real(s, "operator_reductions_per_iteration", res->operator_reductions_per_iteration);
  feast_summary_set_real(s, "exchanges_per_iteration", res->exchanges_per_iteration);
  feast_summary_set_real(s, "l2_error", err);
  feast_summary_set_int(s, "coarse_level", coarse);
  feast_summary_set_int(s, "coarse_dofs", app->dom->levels[coarse].nglobal);
  if (cycles >= 0) feast_summary_set_real(s, "local_mg_cycles_per_solve", cycles);
  feast_log(1, "  %s after %d iterations: residual %.3e (initial %.3e, rate %.3f), l2_error %.6e\n",
            res->converged ? "converged" : "NOT converged", res->iterations, res->final_residual,
            res->initial_residual, res->rate, err);
}

/* ibicgstab and pipebicgsafe need the V cycle to be a linear map (scarc_linear_required) */
static int linear_v_cycle(const FeastConfig *cfg, ScarcParams *p) {
  const char *name;
  FeastKrylovMethod method;
  FEAST_CALL(feast_config_get_string(cfg, "solver.scarc_solver", &name));
  FEAST_CALL(scarc_method_from_name(name, &method));
  if (!feast_krylov_needs_linear_preconditioner(method)) return 0;
  return scarc_linear_required(cfg, "solver.", "solver.scarc_solver", p);
}

/* a mesh of hexahedra: the keys the 3D run does not have yet are errors, not ignored */
static int check_3d(const FeastConfig *cfg) {
  double conv[2];
  const char *target;
  FEAST_CALL(feast_config_get_real2(cfg, "problem.convection", conv));
  FEAST_CHECK(conv[0] == 0.0 && conv[1] == 0.0, FEAST_ERR_CONFIG,
              "problem.convection = %g %g (%s): a 2D key; on a mesh of hexahedra the Poisson problem is -Laplace u = f",
              conv[0], conv[1], feast_config_origin(cfg, "problem.convection"));
  FEAST_CALL(feast_config_get_string(cfg, "solver.target", &target));
  FEAST_CHECK(strcmp(target, "cpu") == 0, FEAST_ERR_UNSUPPORTED,
              "solver.target = %s (%s): the local multigrids of hexahedral macros run on the CPU only so far", target,
              feast_config_origin(cfg, "solver.target"));
  FEAST_CHECK(!feast_config_is_set(cfg, "output.matrix_market"), FEAST_ERR_UNSUPPORTED,
              "output.matrix_market (%s): not written for meshes of hexahedra yet (bench/bench_scarc3d --mtx is)",
              feast_config_origin(cfg, "output.matrix_market"));
  return 0;
}

/* input phase: grid.dirichlet names parts of the mesh; the solver combination */
static int poisson_check(const FeastConfig *cfg, const FeastMesh *mesh) {
  const char *dirichlet;
  unsigned char *parts;
  FEAST_CALL(feast_config_get_string(cfg, "grid.dirichlet", &dirichlet));
  FEAST_CALL(FEAST_ALLOC(mesh->nparts + 1, &parts));
  const int st = feast_mask_parse_parts(mesh, dirichlet, "grid.dirichlet", parts);
  free(parts);
  FEAST_CALL(st);
  if (mesh->dim == 3) FEAST_CALL(check_3d(cfg));
  return linear_v_cycle(cfg, NULL);
}

static int create_mask(const FeastProblemContext *app, FeastMask **mask) {
  const char *dirichlet;
  unsigned char *parts;
  FEAST_CALL(feast_config_get_string(app->cfg, "grid.dirichlet", &dirichlet));
  FEAST_CALL(FEAST_ALLOC(app->mesh->nparts + 1, &parts));
  int st = feast_mask_parse_parts(app->mesh, dirichlet, "grid.dirichlet", parts);
  if (!st) st = feast_mask_create(app->dom, parts, mask);
  free(parts);
  return st;
}

/* 0 if the solve converged, else FEAST_ERR_NOT_CONVERGED with its message */
static int converged_or_error(const FeastSolveResult *res) {
  FEAST_CHECK(res->converged, FEAST_ERR_NOT_CONVERGED,
              "the solver stopped without converging: reason '%s' after %d iterations (relative residual %.3e)",
              feast_solve_status_name(res->reason), res->iterations,
              res->initial_residual > 0 ? res->final_residual / res->initial_residual : 0.0);
  return 0;
}

/* the run on a mesh of hexahedra (apps/poisson3d.c) */
static int run_3d(const FeastProblemContext *app, const FeastMask *mask, const ScarcParams *p, int random_start) {
  FeastPoissonRun r = {0};
  r.random_start = random_start;
  FEAST_CALL(solve_settings(app->cfg, &r.method, &r.solve_params));
  FEAST_CALL(feast_poisson3d_run(app, mask, p, &r));
  report(app, r.coarse_level, -1.0, &r.res, r.l2_error);
  return converged_or_error(&r.res);
}

static int poisson_run(const FeastProblemContext *app) {
  const FeastDomain *dom = app->dom;
  ScarcParams p;
  FeastMask *mask = NULL;
  FeastBand9 *A = NULL;
  Scarc *scarc = NULL;
  FeastVec *b = NULL, *x = NULL;
  FeastSolveResult res;
  double err = NAN, conv[2];
  int start;
  FEAST_CALL(feast_config_get_real2(app->cfg, "problem.convection", conv));
  FEAST_CALL(feast_config_get_enum(app->cfg, "solver.initial_guess", &start));
  int st = create_mask(app, &mask);
  if (!st) st = scarc_params_from_config(app->cfg, "solver.", &p);
  if (!st) st = linear_v_cycle(app->cfg, &p);
  if (!st) st = feast_summary_set_string(app->summary, "local_precision", scarc_params_precision(&p));
  if (!st && dom->mesh->dim == 3) {
    st = run_3d(app, mask, &p, start == 1);
    feast_mask_destroy(&mask);
    return st;
  }
  if (!st) st = scarc_create(dom, mask, &p, &scarc);
  if (!st) st = assemble_matrix(dom, conv, scarc, &A);
  if (!st) st = scarc_set_operator(scarc, A);
  if (!st) st = assemble_rhs(dom, mask, conv, start == 1, &b, &x);
  if (!st) st = export_matrix(app, scarc, b);
  if (!st) st = solve(app, scarc, b, x, &res);
  if (!st) st = l2_error(dom, x, &err);
  ScarcStats stats;
  scarc_stats(scarc, &stats);
  const double cycles = stats.local_solves ? (double)stats.local_cycles / stats.local_solves : 0.0;
  if (!st) report(app, scarc_coarse_level(scarc), cycles, &res, err);
  if (!st) st = feast_poisson_write_vtk(app, x); /* the last iterate is written also when not converged */
  if (!st) st = converged_or_error(&res);
  feast_vec_destroy(&b);
  feast_vec_destroy(&x);
  scarc_destroy(&scarc);
  feast_mask_destroy(&mask);
  return st;
}

/* measured: 600 bytes per node at L = 8 on unitsquare8 (peak resident set, one rank) */
/* the Matrix Market pair */
static int output_files(const FeastConfig *cfg, FeastPaths *paths) {
  char path[4096], rhs[4200];
  FEAST_CALL(feast_config_get_path(cfg, "output.matrix_market", path, sizeof path));
  if (!path[0]) return 0;
  FEAST_CALL(feast_mtx_rhs_name(path, rhs, sizeof rhs));
  FEAST_CALL(feast_paths_add_output(paths, "output.matrix_market", path));
  return feast_paths_add_output(paths, "output.matrix_market", rhs);
}

/* device memory with solver.residency = device: 305 bytes per node at L6 (the emulator's peak) */
#define POISSON_DEVICE_BYTES_PER_NODE 600.0
const FeastProblem feast_problem_poisson = {"poisson", 1, 700.0, poisson_check, poisson_run, 0, output_files, 0, NULL, NULL, 1,
                                            POISSON_DEVICE_BYTES_PER_NODE};

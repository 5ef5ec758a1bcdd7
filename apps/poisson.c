/* Poisson model problem: -Laplace u = f with u = sin(pi x) sin(pi y) exact, Dirichlet
 * values from the exact solution, solved by ScaRC (standalone MG or as preconditioner
 * of CG/BiCGStab). Reports iterations, residuals and the L2 error. */
#include "apps/app.h"
#include "feast/error.h"
#include "feast/gather.h"
#include "feast/log.h"
#include "feast/mtx.h"
#include "feast/q1.h"
#include "feast/vtk.h"
#include "scarc/krylov.h"
#include "scarc/scarc.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static double exact(double x, double y, void *ctx) { return sin(M_PI * x) * sin(M_PI * y); }
static double source(double x, double y, void *ctx) { return 2.0 * M_PI * M_PI * exact(x, y, ctx); }

static int assemble_laplace(void *ctx, const FeastDomain *dom, int level, int li, FeastBand9 *A) {
  const FeastLevel *lev = &dom->levels[level];
  return feast_q1_assemble(lev->N, lev->xy[li], dom->local[li], feast_q1_form_laplace, NULL, 2, A);
}

/* b = int f phi (consistent), Dirichlet nodes carry the boundary values; x likewise */
static int assemble_rhs(const FeastDomain *dom, FeastVec *b, FeastVec *x) {
  const FeastLevel *lev = &dom->levels[dom->finest];
  const long n = (long)lev->N * lev->N;
  feast_vec_zero(b);
  feast_vec_zero(x);
  for (int li = 0; li < dom->nlocal; li++)
    FEAST_CALL(feast_q1_assemble_rhs(lev->N, lev->xy[li], dom->local[li], source, NULL, 3, b->v[li]));
  FEAST_CALL(feast_vec_sum(b));
  for (int li = 0; li < dom->nlocal; li++)
    for (long i = 0; i < n; i++)
      if (lev->fixed[li][i]) {
        double g = exact(lev->xy[li][2 * i], lev->xy[li][2 * i + 1], NULL);
        b->v[li][i] = g;
        x->v[li][i] = g;
      }
  return 0;
}

static int apply_matrix(void *ctx, const FeastVec *x, FeastVec *y) { return scarc_matvec(ctx, x, y); }
static int apply_scarc(void *ctx, const FeastVec *x, FeastVec *y) {
  return scarc_precondition(ctx, x, y);
}

static int l2_error(const FeastDomain *dom, const FeastVec *x, double *err) {
  const FeastLevel *lev = &dom->levels[dom->finest];
  double *part;
  FEAST_CALL(FEAST_ALLOC(2 * dom->nlocal + 2, &part));
  for (int li = 0; li < dom->nlocal; li++)
    FEAST_CALL(feast_q1_l2_error(lev->N, lev->xy[li], x->v[li], exact, NULL, 3, &part[li],
                                 &part[dom->nlocal + li]));
  double sums[2];
  int st = feast_domain_sum_macros(dom, 2, part, sums);
  free(part);
  *err = sqrt(sums[0]);
  return st;
}

static int export_matrix(FeastApp *app, Scarc *scarc, const FeastVec *b) {
  char path[4096];
  FEAST_CALL(feast_config_get_path(app->cfg, "output.matrix_market", path, sizeof path));
  if (!path[0]) return 0;
  const FeastDomain *dom = app->dom;
  FeastTriplets t;
  FEAST_CALL(feast_gather_matrix(dom, dom->finest, scarc_matrices(scarc, dom->finest), 0, &t));
  double *g = NULL;
  if (app->rank == 0) FEAST_CALL(FEAST_ALLOC(dom->levels[dom->finest].nglobal, &g));
  FEAST_CALL(feast_gather_vector(dom, dom->finest, b->v, 0, g));
  int st = 0;
  if (app->rank == 0) {
    char rhs[4200];
    size_t len = strlen(path);
    snprintf(rhs, sizeof rhs, "%.*s_rhs.mtx", (int)(len > 4 && strcmp(path + len - 4, ".mtx") == 0 ? len - 4 : len), path);
    st = feast_mtx_write_coordinate(path, t.n, t.nnz, t.row, t.col, t.val);
    if (!st) st = feast_mtx_write_array(rhs, t.n, g);
    if (!st) feast_log(1, "  matrix market: %s (%lld x %lld, %lld nonzeros), %s\n", path, (long long)t.n,
                       (long long)t.n, (long long)t.nnz, rhs);
  }
  free(g);
  feast_triplets_free(&t);
  return st;
}

static int write_vtk(FeastApp *app, const FeastVec *x) {
  char path[4096];
  FEAST_CALL(feast_config_get_path(app->cfg, "output.vtk", path, sizeof path));
  if (!path[0]) return 0;
  const FeastDomain *dom = app->dom;
  const FeastLevel *lev = &dom->levels[dom->finest];
  FeastVtkField f = {"u", 1, (const double *const *)x->v};
  FEAST_CALL(feast_vtk_write(path, dom->finest, dom->nlocal, dom->local, (const double *const *)lev->xy,
                             1, &f, dom->comm));
  feast_log(1, "  vtk: %s.pvtu\n", path);
  return 0;
}

static int solve(FeastApp *app, Scarc *scarc, const FeastVec *b, FeastVec *x, FeastSolveResult *res) {
  const char *method;
  long maxit;
  FeastSolveParams sp = {0};
  FEAST_CALL(feast_config_get_string(app->cfg, "solver.scarc_solver", &method));
  FEAST_CALL(feast_config_get_real(app->cfg, "solver.rtol", &sp.rtol));
  FEAST_CALL(feast_config_get_int(app->cfg, "solver.max_iterations", &maxit));
  FEAST_CALL(feast_config_get_real(app->cfg, "solver.divergence_factor", &sp.divergence_factor));
  sp.max_iterations = (int)maxit;
  sp.monitor = feast_log_verbosity() >= 2 || (feast_log_verbosity() >= 1 && feast_stdout_is_tty());
  sp.label = "scarc";
  FeastLinOp A = {apply_matrix, scarc}, M;
  FeastInjectOp hook;
  FEAST_CALL(feast_app_inject(app, (FeastLinOp){apply_scarc, scarc}, &hook, &M));
  feast_timer_start(FEAST_T_LINEAR);
  int st = feast_krylov_solve(strcmp(method, "mg") == 0 ? "richardson" : method, A, M, b, x, &sp, res);
  feast_timer_stop(FEAST_T_LINEAR);
  return st;
}

static void report(FeastApp *app, const Scarc *scarc, const FeastSolveResult *res, double err) {
  FeastSummary *s = app->summary;
  long solves, cycles, nonfinite;
  scarc_local_stats(scarc, &solves, &cycles, &nonfinite);
  int coarse = scarc_coarse_level(scarc);
  feast_summary_set_bool(s, "converged", res->converged);
  feast_summary_set_string(s, "reason", res->reason);
  feast_summary_set_int(s, "global_mg_iterations", res->iterations);
  feast_summary_set_real(s, "initial_residual", res->initial_residual);
  feast_summary_set_real(s, "final_residual", res->final_residual);
  feast_summary_set_real(s, "convergence_rate", res->rate);
  feast_summary_set_real(s, "l2_error", err);
  feast_summary_set_int(s, "coarse_level", coarse);
  feast_summary_set_int(s, "coarse_dofs", app->dom->levels[coarse].nglobal);
  feast_summary_set_real(s, "local_mg_cycles_per_solve", solves ? (double)cycles / solves : 0.0);
  feast_log(1, "  %s after %d iterations: residual %.3e (initial %.3e, rate %.3f), l2_error %.6e\n",
            res->converged ? "converged" : "NOT converged", res->iterations, res->final_residual,
            res->initial_residual, res->rate, err);
  feast_log(1,
            "  timings: total %.3f s, assembly %.3f s, solver setup %.3f s, linear solve %.3f s, local MG %.3f s, "
            "coarse %.3f s\n",
            feast_wtime() - feast_app_start_time(), feast_timer_total(FEAST_T_ASSEMBLY),
            feast_timer_total(FEAST_T_SOLVER_SETUP), feast_timer_total(FEAST_T_LINEAR),
            feast_timer_total(FEAST_T_LOCAL_MG), feast_timer_total(FEAST_T_COARSE));
}

int feast_poisson_run(FeastApp *app) {
  const FeastDomain *dom = app->dom;
  ScarcParams p;
  Scarc *scarc = NULL;
  FeastVec *b = NULL, *x = NULL;
  FeastSolveResult res;
  double err = NAN;
  int st = scarc_params_from_config(app->cfg, &p);
  if (!st) st = scarc_create(dom, &p, &scarc);
  if (!st) st = scarc_set_operator(scarc, assemble_laplace, NULL);
  if (!st) st = feast_vec_create(dom, dom->finest, 1, &b);
  if (!st) st = feast_vec_create(dom, dom->finest, 1, &x);
  if (!st) st = assemble_rhs(dom, b, x);
  if (!st) st = export_matrix(app, scarc, b);
  if (!st) st = solve(app, scarc, b, x, &res);
  if (!st) st = l2_error(dom, x, &err);
  if (!st) report(app, scarc, &res, err);
  if (!st) st = write_vtk(app, x); /* the last iterate is written also when not converged */
  if (!st && !res.converged)
    st = feast_error_set(FEAST_ERR_NOT_CONVERGED, __FILE__, __LINE__,
                         "the solver stopped without converging: reason '%s' after %d iterations "
                         "(relative residual %.3e)", res.reason, res.iterations,
                         res.initial_residual > 0 ? res.final_residual / res.initial_residual : 0.0);
  feast_vec_destroy(&b);
  feast_vec_destroy(&x);
  scarc_destroy(&scarc);
  return st;
}

/* The Poisson problem solved by two-layer ScaRC from C, with no config file.
 *
 *   -Laplace u = 2 pi^2 sin(pi x) sin(pi y) in the unit square, u = 0 on its boundary,
 *
 * whose solution is u = sin(pi x) sin(pi y). The unit square is the coarse mesh
 * grids/unitsquare8.feast (4 x 2 macros), each macro refined to level 5 (8,385 unknowns);
 * the Q1 matrix and right-hand side are assembled macro by macro with the core's
 * functions (feast/fem/q1.h), and ScaRC (scarc/scarc.h) solves the system as a standalone
 * global multigrid whose smoother runs a local multigrid on every macro.
 *
 * Build and run (from the source tree):
 *   cmake --build build --target example_poisson
 *   mpiexec -np 2 build/bin/example_poisson [MESH [LEVEL]]  (defaults grids/unitsquare8.feast 5)
 *
 * It prints the size, the multigrid's iterations and residuals, and the L2 error against
 * the exact solution, and exits 1 unless the solve converged within 20 iterations (ScaRC's
 * counts do not grow with the level) and the error is that of Q1 at this level
 * (<= 0.1 h^2, h = 2^-LEVEL: measured 0.080 h^2 at levels 3-6 on unitsquare8). ctest runs it as
 * example_poisson (examples/CMakeLists.txt). */
#include "feast/parallel/domain.h"
#include "feast/base/error.h"
#include "feast/base/log.h"
#include "feast/la/mask.h"
#include "feast/mesh/mesh.h"
#include "feast/fem/q1.h"
#include "feast/la/vector.h"
#include "scarc/scarc.h"
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static double u_exact(double x, double y) { return sin(M_PI * x) * sin(M_PI * y); }

/* the exact solution and the source term as the core's point functions (n points at once) */
static void exact(long n, const double *x, const double *y, void *ctx, double *u) {
  (void)ctx;
  for (long k = 0; k < n; k++) u[k] = u_exact(x[k], y[k]);
}
static void source(long n, const double *x, const double *y, void *ctx, double *f) {
  (void)ctx;
  for (long k = 0; k < n; k++) f[k] = 2.0 * M_PI * M_PI * u_exact(x[k], y[k]);
}

typedef struct {
  long unknowns;
  FeastSolveResult solve;
  double l2_error;
} Outcome;

/* everything between MPI_Init and MPI_Finalize; every call's status is checked: the first
 * failure stops the chain (if (!st) st = ...), and what was made is destroyed either way */
static int run(const char *mesh_path, int level, Outcome *out) {
  FeastMesh *mesh = NULL;
  FeastDomain *dom = NULL;
  FeastMask *mask = NULL;
  Scarc *scarc = NULL;
  FeastBand9 *A = NULL;
  FeastVec *b = NULL, *x = NULL;
  unsigned char *parts = NULL;
  double *err = NULL;

  /* the coarse mesh, and the domain: this rank's macros refined to levels 0..level */
  int st = feast_mesh_read(mesh_path, NULL, &mesh);
  if (!st) st = feast_domain_create(mesh, level, MPI_COMM_WORLD, &dom);
  /* the Dirichlet nodes: every boundary part */
  if (!st) st = FEAST_ALLOC(mesh->nparts + 1, &parts);
  if (!st) st = feast_mask_parse_parts(mesh, "all", "the Dirichlet boundary", parts);
  if (!st) st = feast_mask_create(dom, parts, &mask);

  /* the solver with its documented defaults (scarc_params_defaults), then the operator:
   * per local macro the raw Laplace matrix of its own cells, assembled into the solver's
   * storage; scarc_set_operator adds the Dirichlet rows and builds the hierarchy */
  ScarcParams params;
  scarc_params_defaults(&params);
  if (!st) st = scarc_create(dom, mask, &params, &scarc);
  if (!st) st = scarc_operator_storage(scarc, &A);
  const FeastLevel *lev = st ? NULL : &dom->levels[level];
  for (int li = 0; !st && li < dom->nlocal; li++)
    st = feast_q1_assemble(lev->N, lev->xy[li], dom->local[li], feast_q1_form_laplace, NULL, 2, &A[li]);
  if (!st) st = scarc_set_operator(scarc, A);

  /* b = int f phi: partial sums per macro made consistent across the macros
   * (feast_vec_sum), then the boundary value 0 at the Dirichlet nodes; x = 0 the start */
  if (!st) st = feast_vec_create(dom, level, 1, &b);
  if (!st) st = feast_vec_create(dom, level, 1, &x);
  for (int li = 0; !st && li < dom->nlocal; li++)
    st = feast_q1_assemble_rhs(lev->N, lev->xy[li], dom->local[li], source, NULL, 2, feast_vec_block(b, 0, li));
  if (!st) st = feast_vec_sum(b);
  if (!st) feast_vec_zero_fixed(b, 0, mask);

  /* the solve: FEAST_KRYLOV_RICHARDSON with the V cycle is standalone multigrid (mg);
   * the [solver] defaults: rtol 1e-8, at most 100 iterations */
  FeastSolveParams sp;
  feast_solve_params_defaults(&sp);
  if (!st) st = scarc_solve(scarc, FEAST_KRYLOV_RICHARDSON, &sp, b, x, &out->solve);

  /* the L2 error: per macro, summed over all macros in global macro order (the same
   * result on any number of ranks) */
  if (!st) st = FEAST_ALLOC(2 * dom->nlocal + 2, &err);
  for (int li = 0; !st && li < dom->nlocal; li++)
    st = feast_q1_l2_error(lev->N, lev->xy[li], feast_vec_block_read(x, 0, li), exact, NULL, 3, &err[li],
                           &err[dom->nlocal + li]);
  double sums[2] = {NAN, NAN}; /* int (u_h - u)^2, int u^2 */
  if (!st) st = feast_domain_sum_macros(dom, 2, err, sums);
  if (!st) {
    out->unknowns = (long)lev->nglobal;
    out->l2_error = sqrt(sums[0]);
  }

  free(err);
  free(parts);
  feast_vec_destroy(&b);
  feast_vec_destroy(&x);
  scarc_destroy(&scarc);
  feast_mask_destroy(&mask);
  feast_domain_destroy(&dom);
  feast_mesh_destroy(&mesh);
  return st;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  feast_log_init(rank, 0); /* the library quiet; rank 0 prints what follows */
  const char *mesh = argc > 1 ? argv[1] : "grids/unitsquare8.feast";
  const int level = argc > 2 ? atoi(argv[2]) : 5;
  Outcome o;
  const int st = run(mesh, level, &o);
  if (st) { /* the library's message names the file, key or value at fault */
    fprintf(stderr, "example_poisson: %s (%s)\n", feast_error_message(), feast_error_where());
    MPI_Abort(MPI_COMM_WORLD, feast_exit_code(st)); /* the other ranks may wait in a collective */
  }
  const double h = ldexp(1.0, -level), bound = 0.1 * h * h;
  const int ok = o.solve.converged && o.solve.iterations <= 20 && o.l2_error <= bound;
  if (rank == 0) {
    printf("poisson on %s, level %d: %ld unknowns\n", mesh, level, o.unknowns);
    printf("scarc (mg): %s after %d iterations, residual %.3e -> %.3e (rate %.3f)\n",
           feast_solve_status_name(o.solve.reason), o.solve.iterations, o.solve.initial_residual,
           o.solve.final_residual, o.solve.rate);
    printf("L2 error %.4e = %.4f h^2 (bound %.2f h^2): %s\n", o.l2_error, o.l2_error / (h * h), bound / (h * h),
           ok ? "ok" : "FAILED");
  }
  MPI_Finalize();
  return ok ? 0 : 1;
}

/* The pieces of a line-search trial of the Navier-Stokes solver, timed apart at one
 * iterate (issue #26, items 3 and 5): the full assembly of the blocks and h
 * (ns_system_assemble) plus the defect h - K v by the blocks (ns_system_apply), against
 * the residual evaluation without matrices (ns_system_residual, what a rejected trial
 * costs now); the refresh of the preconditioner (ns_schur_update); and the bytes of the
 * system's matrices (A22 stored once where it is A11's). The iterate: after `steps`
 * nonlinear steps of the configured solver (nonlinear.max_iterations). Each time
 * is the smallest of `reps` repetitions (a loaded machine: the minimum is the cost).
 * usage: bench_ns_residual CONFIG.ini [section.key=value ...]
 *   env BENCH_REPS (default 10), BENCH_STEPS (default 3)
 * Prints one line per quantity. Built with -DBENCH_NO_RESIDUAL for a tree without
 * ns_system_residual (the "before" column). */
#include "apps/app.h"
#include "feast/config/config.h"
#include "feast/parallel/domain.h"
#include "feast/base/error.h"
#include "feast/base/log.h"
#include "feast/mesh/mesh.h"
#include "feast/fem/q1.h"
#include "navier_stokes/ns_config.h"
#include "navier_stokes/ns_private.h"
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TRY(call)                                                                                                    \
  do {                                                                                                               \
    if (call) {                                                                                                      \
      fprintf(stderr, "bench_ns_residual: %s [%s]\n", feast_error_message(), feast_error_where());                  \
      MPI_Abort(MPI_COMM_WORLD, 1);                                                                                  \
    }                                                                                                                \
  } while (0)

static double defect_norm(NsProblem *ns) {
  TRY(ns_system_apply(ns, ns->iter.v, ns->iter.defect));
  feast_vec_aypx(-1.0, ns->sys.rhs, ns->iter.defect);
  TRY(ns_project_residual(ns, ns->iter.defect));
  double r;
  TRY(feast_vec_norm(ns->iter.defect, &r));
  return r;
}

/* the cell loop alone: the cells' quadrature points and gradients, a form that does nothing */
static void no_form(const FeastQ1Cell *c, void *ctx, double (*A)[4][4], double (*b)[4]) {
  (void)c, (void)ctx, (void)A, (void)b;
}

static void cell_loop(const NsProblem *ns) {
  const FeastLevel *lev = &ns->dom->levels[ns->level];
  for (int li = 0; li < ns->dom->nlocal; li++)
    TRY(feast_q1_assemble_cells(lev->N, lev->xy[li], ns->dom->local[li], no_form, NULL, 3, 0, NULL, 0, NULL));
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  if (argc < 2) {
    fprintf(stderr, "usage: bench_ns_residual CONFIG.ini [section.key=value ...]\n");
    return 1;
  }
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  feast_log_init(rank, 0);
  const int reps = getenv("BENCH_REPS") ? atoi(getenv("BENCH_REPS")) : 10;
  const char *steps = getenv("BENCH_STEPS") ? getenv("BENCH_STEPS") : "3";
  FeastConfig *cfg;
  FeastMesh *mesh;
  FeastDomain *dom;
  NsProblem *ns;
  TRY(feast_app_config_create(&cfg));
  TRY(feast_config_read(cfg, argv[1]));
  for (int i = 2; i < argc; i++) TRY(feast_config_override(cfg, argv[i]));
  char set[64];
  snprintf(set, sizeof set, "nonlinear.max_iterations=%s", steps);
  TRY(feast_config_override(cfg, set));
  TRY(feast_config_override(cfg, "output.verbosity=0"));
  char path[4096];
  long lvl;
  TRY(feast_config_get_path(cfg, "grid.file", path, sizeof path));
  TRY(feast_config_get_int(cfg, "grid.level", &lvl));
  const int level = (int)lvl;
  TRY(feast_mesh_read(path, cfg, &mesh));
  TRY(ns_check(cfg, mesh, 0));
  TRY(feast_domain_create(mesh, level, MPI_COMM_WORLD, &dom));
  TRY(ns_create(cfg, dom, 0, &ns));
  NsResult res;
  TRY(ns_solve(ns, &res));
  double t_asm = INFINITY, t_def = INFINITY, t_res = INFINITY, t_ref = INFINITY, t_loop = INFINITY, r_asm = 0.0,
         r_res = NAN;
  for (int k = 0; k < reps; k++) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double tl = feast_wtime();
    cell_loop(ns);
    t_loop = fmin(t_loop, feast_wtime() - tl);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = feast_wtime();
    TRY(ns_system_assemble(ns, ns->iter.v));
    double t1 = feast_wtime();
    r_asm = defect_norm(ns);
    double t2 = feast_wtime();
    t_asm = fmin(t_asm, t1 - t0), t_def = fmin(t_def, t2 - t1);
#ifndef BENCH_NO_RESIDUAL
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = feast_wtime();
    TRY(ns_system_residual(ns, ns->iter.v, ns->iter.v, ns->iter.scratch));
    TRY(feast_vec_norm(ns->iter.scratch, &r_res));
    t_res = fmin(t_res, feast_wtime() - t0);
#endif
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = feast_wtime();
    TRY(ns_schur_update(ns));
    t_ref = fmin(t_ref, feast_wtime() - t0);
  }
  /* the bytes of the system's matrices: distinct storage only */
  long stored = 0, shared = 0;
  const double per = (double)FEAST_NBANDS * dom->levels[level].N * dom->levels[level].N * sizeof(double);
  for (int k = 0; k < NS_NBLOCKS; k++)
    for (int li = 0; ns->sys.blk[k] && li < dom->nlocal; li++) {
#ifndef BENCH_NO_RESIDUAL
      if (k == NS_A22 && ns_a22_shared(ns, li)) {
        shared++;
        continue;
      }
#endif
      stored++;
    }
  long g[2] = {stored, shared}, gs[2];
  MPI_Reduce(g, gs, 2, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  double t[5] = {t_asm, t_def, t_res, t_ref, t_loop}, tm[5];
  MPI_Reduce(t, tm, 5, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("%s level %d, %d macros, after %d nonlinear steps (%s), %d repetitions (min):\n", argv[1], level,
           mesh->nmacros, res.nonlinear_iterations, ns->newton ? "newton" : "fixed point", reps);
    printf("  assembly                 %.4f s\n", tm[0]);
    printf("  defect by the blocks     %.4f s\n", tm[1]);
    printf("  assembly + defect        %.4f s\n", tm[0] + tm[1]);
    if (isfinite(tm[2]))
      printf("  residual evaluation      %.4f s  (%.2f of assembly + defect; defect %.15e vs %.15e, rel %.1e)\n", tm[2],
             tm[2] / (tm[0] + tm[1]), r_res, r_asm, fabs(r_res - r_asm) / r_asm);
    printf("  cell loop, no form       %.4f s  (the floor of both: quadrature points and gradients)\n", tm[4]);
    printf("  preconditioner refresh   %.4f s\n", tm[3]);
    printf("  system matrices          %ld stored (%ld A22 views of A11), %.2f MB\n", gs[0], gs[1], gs[0] * per / 1e6);
  }
  ns_destroy(&ns);
  feast_domain_destroy(&dom);
  feast_mesh_destroy(&mesh);
  feast_config_destroy(&cfg);
  MPI_Finalize();
  return 0;
}

/* The lid-driven cavity at Re = 100 solved from C, with no config file: the stationary
 * incompressible Navier-Stokes equations in the unit square, the lid y = 1 moving with
 * u = 1, the other walls at rest (the problem of config/cavity.ini and tools/cavity.sh).
 * The coarse mesh grids/unitsquare8.feast (4 x 2 macros) is refined to level 4 (2,145
 * nodes, 6,435 unknowns); the library's defaults do the rest (Q1/Q1 with SUPG/PSPG, the
 * nonlinear solver and the linear solver chosen by their `auto` rules, ScaRC for the
 * velocity blocks).
 *
 * Build and run (from the source tree):
 *   cmake --build build --target example_cavity
 *   mpiexec -np 2 build/bin/example_cavity [MESH [LEVEL [RE]]]  (defaults grids/unitsquare8.feast 4 100)
 *
 * It prints the solver's progress (one line per nonlinear step), then the outcome, the
 * kinetic energy, and the minimum of u on the vertical centre line x = 0.5 (from the
 * parabola through the smallest nodal value and its two neighbours) against Botella &
 * Peyret's spectral value -0.2140424 at y = 0.4581 (Ghia et al.'s table: -0.21090 at
 * y = 0.4531). At Re = 100 it exits 1 unless the solve converged and u_min is within 1 % of
 * Botella & Peyret's value (measured at level 4: -0.04 %). ctest runs it as example_cavity
 * (examples/CMakeLists.txt). */
#include "feast/parallel/domain.h"
#include "feast/base/error.h"
#include "feast/base/log.h"
#include "feast/mesh/mesh.h"
#include "feast/la/vector.h"
#include "navier_stokes/ns.h"
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { FIELD_U = 0 }; /* the blocks of ns_solution: 0 u, 1 v, 2 p */

typedef struct {
  double y, u;
} Point;

static int by_y(const void *a, const void *b) {
  const double d = ((const Point *)a)->y - ((const Point *)b)->y;
  return (d > 0) - (d < 0);
}

/* the minimum of u on x = 0.5 and where it is: the nodes on the line, each taken once at
 * the macro that owns it (FeastLevel.owned), gathered on rank 0, sorted by y; the
 * parabola through the smallest value and its neighbours; the result on every rank */
static int centreline_minimum(const NsProblem *ns, const FeastDomain *dom, double *u_min, double *y_min) {
  const FeastVec *sol = ns_solution(ns);
  const FeastLevel *lev = &dom->levels[ns_level(ns)];
  const long nn = (long)lev->N * lev->N;
  int n = 0, size, rank, total = 0;
  MPI_Comm_size(dom->comm, &size);
  MPI_Comm_rank(dom->comm, &rank);
  Point *mine = NULL, *all = NULL;
  int *counts = NULL, *offsets = NULL;
  FEAST_CALL(FEAST_ALLOC(dom->nlocal * lev->N + 1, &mine));
  for (int li = 0; li < dom->nlocal; li++) {
    const double *u = feast_vec_block_read(sol, FIELD_U, li), *xy = lev->xy[li];
    for (long i = 0; i < nn; i++)
      if (lev->owned[li][i] && fabs(xy[2 * i] - 0.5) < 1e-9) mine[n++] = (Point){xy[2 * i + 1], u[i]};
  }
  double result[2] = {NAN, NAN};
  int st = FEAST_ALLOC(size, &counts);
  if (!st) st = FEAST_ALLOC(size, &offsets);
  const int bytes = n * (int)sizeof(Point);
  if (!st) FEAST_MPI_CALL(MPI_Gather(&bytes, 1, MPI_INT, counts, 1, MPI_INT, 0, dom->comm));
  for (int r = 0; !st && r < size; r++) offsets[r] = total, total += counts[r];
  if (!st) st = FEAST_ALLOC(total / (int)sizeof(Point) + 1, &all);
  if (!st) FEAST_MPI_CALL(MPI_Gatherv(mine, bytes, MPI_BYTE, all, counts, offsets, MPI_BYTE, 0, dom->comm));
  const int m = total / (int)sizeof(Point);
  if (!st && rank == 0 && m >= 3) {
    qsort(all, (size_t)m, sizeof *all, by_y);
    int k = 1;
    for (int i = 1; i + 1 < m; i++)
      if (all[i].u < all[k].u) k = i;
    /* the parabola through (y, u) at k - 1, k, k + 1 and its vertex */
    const double y0 = all[k - 1].y, y1 = all[k].y, y2 = all[k + 1].y;
    const double u0 = all[k - 1].u, u1 = all[k].u, u2 = all[k + 1].u;
    const double d01 = (u1 - u0) / (y1 - y0), d12 = (u2 - u1) / (y2 - y1), a = (d12 - d01) / (y2 - y0);
    const double b = d01 - a * (y0 + y1); /* u = a y^2 + b y + c */
    result[1] = a > 0 ? -b / (2 * a) : y1;
    result[0] = a > 0 ? u1 + (result[1] - y1) * (d01 + a * (result[1] - y0)) : u1;
  }
  if (!st) FEAST_MPI_CALL(MPI_Bcast(result, 2, MPI_DOUBLE, 0, dom->comm));
  *u_min = result[0], *y_min = result[1];
  free(mine);
  free(all);
  free(counts);
  free(offsets);
  return st;
}

typedef struct {
  NsResult res;
  double energy, u_min, y_min;
} Outcome;

static int run(const char *mesh_path, int level, double re, Outcome *out) {
  FeastMesh *mesh = NULL;
  FeastDomain *dom = NULL;
  NsProblem *ns = NULL;
  NsParams p;
  ns_params_defaults(&p); /* every default is stated in navier_stokes/ns.h */
  p.physics.re = re;      /* nu = U L / Re with U = 1 (the lid) and L = 1 (the side) */
  /* per boundary part: u, v, p (NULL: natural; the pressure is then fixed up to a
   * constant and reported with zero mean), and the priority where parts meet: the side
   * walls own the upper corners, so the lid moves only between them */
  int st = ns_params_boundary(&p, "top", "1", "0", NULL, 0);
  if (!st) st = ns_params_boundary(&p, "bottom", "0", "0", NULL, 0);
  if (!st) st = ns_params_boundary(&p, "left", "0", "0", NULL, 1);
  if (!st) st = ns_params_boundary(&p, "right", "0", "0", NULL, 1);
  if (!st) st = feast_mesh_read(mesh_path, NULL, &mesh);
  if (!st) st = feast_domain_create(mesh, level, MPI_COMM_WORLD, &dom);
  if (!st) st = ns_create_with_params(&p, dom, 0 /* navier-stokes; 1: stokes */, &ns);
  if (!st) st = ns_solve(ns, &out->res); /* not converging is a result (res.reason), not an error */
  /* the solution: ns_solution(ns), 3 blocks u, v, p on level ns_level(ns) */
  if (!st) st = ns_kinetic_energy(ns, &out->energy);
  if (!st) st = centreline_minimum(ns, dom, &out->u_min, &out->y_min);
  ns_destroy(&ns);
  feast_domain_destroy(&dom);
  feast_mesh_destroy(&mesh);
  return st;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  feast_log_init(rank, 1); /* rank 0 prints the library's lines: the auto choices, one per step */
  const char *mesh = argc > 1 ? argv[1] : "grids/unitsquare8.feast";
  const int level = argc > 2 ? atoi(argv[2]) : 4;
  const double re = argc > 3 ? atof(argv[3]) : 100.0;
  Outcome o;
  const int st = run(mesh, level, re, &o);
  if (st) { /* the library's message names the file, key or value at fault */
    fprintf(stderr, "example_cavity: %s (%s)\n", feast_error_message(), feast_error_where());
    MPI_Abort(MPI_COMM_WORLD, feast_exit_code(st)); /* the other ranks may wait in a collective */
  }
  const double botella = -0.2140424, error = (o.u_min - botella) / fabs(botella);
  const int ok = o.res.converged && (re != 100.0 || fabs(error) <= 0.01);
  if (rank == 0) {
    printf("cavity at Re = %g, level %d: %s after %d nonlinear steps (%ld linear iterations)\n", re, level,
           ns_status_name(o.res.reason), o.res.nonlinear_iterations, o.res.linear_iterations);
    printf("kinetic energy %.6e\n", o.energy);
    printf("u_min on x = 0.5: %+.6f at y = %.4f", o.u_min, o.y_min);
    if (re == 100.0)
      printf(" (Botella-Peyret -0.2140424 at y = 0.4581: %+.3f %%; Ghia -0.21090 at y = 0.4531): %s", 100 * error,
             ok ? "ok" : "FAILED");
    printf("\n");
  }
  MPI_Finalize();
  return ok ? 0 : 1;
}

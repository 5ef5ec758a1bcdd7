/* A time-dependent channel flow solved from C, with no config file: the start of the DFG
 * benchmark 2D-3 (Schaefer & Turek 1996, "flow around a cylinder"; config/dfg2d3.ini).
 * The channel [0, 2.2] x [0, 0.41] with a cylinder of diameter D = 0.1 at (0.2, 0.2)
 * (grids/dfg24.feast, 24 macros), at rest at t = 0, then driven by the inflow
 *
 *   u(0, y, t) = 4 U(t) y (0.41 - y) / 0.41^2,  U(t) = 1.5 sin(pi t / 8),
 *
 * walls and cylinder at rest, a natural outflow; nu = 1e-3, so Re(t) = U_mean(t) D / nu
 * rises from 0 towards 100. Time scheme BDF2 with dt = 0.25 from t = 0 to t = 4 (16 steps;
 * the benchmark itself runs to t = 8 with dt <= 0.01 at level 4 and more: see
 * docs/user-guide/time-dependent.md), level 3 (1,624 nodes, 4,872 unknowns).
 *
 * Build and run (from the source tree):
 *   cmake --build build --target example_channel_unsteady
 *   mpiexec -np 2 build/bin/example_channel_unsteady [MESH [LEVEL [DT]]]  (defaults grids/dfg24.feast 3 0.25)
 *
 * After every time step the step monitor (NsStepMonitor) prints t, the drag and lift
 * coefficients on the cylinder (c_D, c_L: 2 F / (U_ref^2 D), U_ref = 1), the pressure
 * difference p(0.15, 0.2) - p(0.25, 0.2) in front of and behind it, the maximum velocity
 * of the solution (ns_solution) and the step's nonlinear steps and linear iterations.
 * It exits 1 unless every step converged and c_D at t = 4 is within 5 % of John's (2004)
 * c_D,max = 2.950921575 (at t = 3.93625): measured 3.0511 (+3.4 %) at level 3 and dt = 0.25
 * in 1.7 s on one core; level 2 is too coarse (+19 %), and at level 4 dt = 0.25 is too long
 * (step 15's nonlinear solve does not converge). ctest runs it as example_channel_unsteady
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

/* what the monitor keeps between steps */
typedef struct {
  int rank;
  long steps;        /* of the whole run */
  double cd, cl, dp; /* of the last step */
} Monitor;

/* the largest |u| at the nodes of the solution (every rank: one reduction) */
static int max_speed(const NsProblem *ns, double *speed) {
  const FeastVec *sol = ns_solution(ns); /* blocks 0 u, 1 v, 2 p */
  const long n = (long)sol->N * sol->N;
  double m = 0.0;
  for (int li = 0; li < sol->nlocal; li++) {
    const double *u = feast_vec_block_read(sol, 0, li), *v = feast_vec_block_read(sol, 1, li);
    for (long i = 0; i < n; i++) m = fmax(m, hypot(u[i], v[i]));
  }
  FEAST_MPI_CALL(MPI_Allreduce(&m, speed, 1, MPI_DOUBLE, MPI_MAX, sol->dom->comm));
  return 0;
}

/* called on every rank after every time step: ns_solution(ns) is the solution at info->t.
 * The quantities are collective; a nonzero status would stop the run with it. */
static int after_step(void *ctx, const NsProblem *ns, const NsStepInfo *info) {
  Monitor *m = ctx;
  const double a[2] = {0.15, 0.2}, b[2] = {0.25, 0.2};
  double coeff[2], speed;
  FEAST_CALL(ns_force_coefficients(ns, "cylinder", coeff));
  FEAST_CALL(ns_pressure_difference(ns, a, b, &m->dp));
  FEAST_CALL(max_speed(ns, &speed));
  m->cd = coeff[0], m->cl = coeff[1];
  m->steps = info->steps;
  if (m->rank == 0)
    printf("step %2ld/%ld  t %5.2f  c_D %9.5f  c_L %+9.5f  dp %8.5f  max |u| %7.4f  nonlinear %d  linear %3ld\n",
           info->step, info->steps, info->t, m->cd, m->cl, m->dp, speed, info->nonlinear_steps,
           info->linear_iterations);
  return 0;
}

static int run(const char *mesh_path, int level, double dt, Monitor *mon, NsTimeResult *res) {
  FeastMesh *mesh = NULL;
  FeastDomain *dom = NULL;
  NsProblem *ns = NULL;
  NsParams p;
  ns_params_defaults(&p);
  p.physics.re = 100.0;                 /* nu = U L / Re = 1e-3 with */
  p.physics.reference_velocity = 1.0;   /* U = the mean inflow at its peak, and */
  p.physics.reference_length = 0.1;     /* L = D (also of the force coefficients) */
  /* boundary values may depend on t; "outflow" is not named: natural (do-nothing) */
  int st = ns_params_boundary(&p, "inflow", "4*1.5*sin(pi*t/8)*y*(0.41-y)/0.41^2", "0", NULL, 0);
  if (!st) st = ns_params_boundary(&p, "wall", "0", "0", NULL, 0);
  if (!st) st = ns_params_boundary(&p, "cylinder", "0", "0", NULL, 0);
  /* the time steps; the problem is made for them (a scheme in p.time), starting from
   * physics.initial (NULL: at rest) */
  p.time.scheme = NS_TIME_BDF2;
  p.time.start = 0.0;
  p.time.dt = dt;
  p.time.end = 4.0;
  /* the stopping test of config/dfg2d3.ini: each step's defect reduced by 1e-4 from its
   * extrapolated start (the linear solver: the defaults of time runs) */
  p.nonlinear.rtol = 1e-4;
  p.nonlinear.step_reference = NS_STEP_REFERENCE_FIRST_DEFECT;
  if (!st) st = feast_mesh_read(mesh_path, NULL, &mesh); /* the cylinder is a circle part of the mesh */
  if (!st) st = feast_domain_create(mesh, level, MPI_COMM_WORLD, &dom);
  if (!st) st = ns_create_with_params(&p, dom, 0, &ns);
  /* the run: the initial state, then the steps, with the monitor after each */
  if (!st) st = ns_time_run(ns, &p.time, after_step, mon, res);
  ns_destroy(&ns);
  feast_domain_destroy(&dom);
  feast_mesh_destroy(&mesh);
  return st;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  feast_log_init(rank, 0); /* the library quiet: the monitor prints one line per step */
  const char *mesh = argc > 1 ? argv[1] : "grids/dfg24.feast";
  const int level = argc > 2 ? atoi(argv[2]) : 3;
  const double dt = argc > 3 ? atof(argv[3]) : 0.25;
  Monitor mon = {rank, -1, NAN, NAN, NAN};
  NsTimeResult res;
  const int st = run(mesh, level, dt, &mon, &res);
  if (st) { /* the library's message names the file, key or value at fault */
    fprintf(stderr, "example_channel_unsteady: %s (%s)\n", feast_error_message(), feast_error_where());
    MPI_Abort(MPI_COMM_WORLD, feast_exit_code(st)); /* the other ranks may wait in a collective */
  }
  const double john = 2.950921575, error = (mon.cd - john) / john;
  const int ok = res.converged && res.steps == mon.steps && fabs(error) <= 0.05;
  if (rank == 0)
    printf("%s: %ld steps to t = %g, %ld nonlinear steps, %ld linear iterations; c_D(4) %.5f, %+.2f %% from "
           "John's c_D,max %.5f: %s\n",
           ns_time_status_name(res.reason), res.steps, res.t, res.nonlinear_iterations, res.linear_iterations, mon.cd,
           100 * error, john, ok ? "ok" : "FAILED");
  MPI_Finalize();
  return ok ? 0 : 1;
}

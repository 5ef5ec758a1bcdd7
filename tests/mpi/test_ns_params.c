/* The Navier-Stokes library driven from C, with no config (navier_stokes/ns.h: NsParams,
 * ns_params_defaults, ns_create_with_params):
 *  - a config with nothing but a boundary value gives ns_params_defaults (the documented defaults are the schema's);
 *  - Poiseuille flow in the unit square at level 3 (test_ns_poiseuille's problem, Re = 5,
 *    fixed point) made from parameters set in C is bitwise the run made from the same
 *    settings as a config text (the config front end, ns_create): the same steps, linear
 *    iterations, residuals and every value of the solution; and it is close to the exact
 *    profile u = 4 y (1 - y);
 *  - ns_set_initial_guess: a zero guess is the fresh start bit for bit; the guess gets the
 *    Dirichlet values (the cavity's lid), a free pressure zero mean (a constant becomes 0),
 *    and a vector of another level is refused;
 *  - the failure reasons are enums with the names the summaries print;
 *  - the schema's allowed values of the enum keys come from the name tables and the Krylov
 *    registry. */
#include "navier_stokes/ns_keys.h"
#include "ns_testing.h"

static const char *poiseuille_ini =
    "[problem]\nre = 5\n"
    "[boundary.left]\nu = 4*y*(1-y)\nv = 0\n[boundary.bottom]\nu = 0\nv = 0\npriority = 1\n"
    "[boundary.top]\nu = 0\nv = 0\npriority = 1\n"
    "[nonlinear]\nmethod = fixed-point\nrtol = 1e-12\nmax_iterations = 30\n"
    "[linear]\nrtol = 1e-6\n";

/* the same problem as parameters */
static void poiseuille_params(NsParams *p) {
  ns_params_defaults(p);
  p->physics.re = 5.0;
  CHECK_OK(ns_params_boundary(p, "left", "4*y*(1-y)", "0", NULL, 0));
  CHECK_OK(ns_params_boundary(p, "bottom", "0", "0", NULL, 1));
  CHECK_OK(ns_params_boundary(p, "top", "0", "0", NULL, 1));
  p->nonlinear.method = NS_NONLINEAR_FIXED_POINT;
  p->nonlinear.rtol = 1e-12;
  p->nonlinear.max_iterations = 30;
  p->linear.rtol = 1e-6;
}

static void check_defaults(void) {
  NsCase c;
  if (ns_case_create("unitsquare8.feast", 2, "[boundary.top]\nu = 1\nv = 0\n", 0, MPI_COMM_WORLD, &c)) {
    CHECK(0);
    return;
  }
  NsParams d, p;
  ns_params_defaults(&d);
  CHECK_OK(ns_params_from_config(c.cfg, &p));
  CHECK(p.physics.re == d.physics.re && p.physics.reference_velocity == d.physics.reference_velocity &&
        p.physics.reference_length == d.physics.reference_length && p.physics.nboundary == 1);
  CHECK(!p.physics.force[0] && !p.physics.exact[0] && !p.physics.initial[0]);
  const NsNonlinearParams *pn = &p.nonlinear, *dn = &d.nonlinear;
  CHECK(pn->method == dn->method && pn->rtol == dn->rtol && pn->max_iterations == dn->max_iterations &&
        pn->damping == dn->damping && pn->line_search == dn->line_search &&
        pn->divergence_factor == dn->divergence_factor && pn->initial_guess == dn->initial_guess &&
        !strcmp(pn->checkpoint, dn->checkpoint) && pn->checkpoint_interval == dn->checkpoint_interval);
  const NsContinuationParams *pc = &p.continuation, *dc = &d.continuation;
  CHECK(pc->grid_sequencing == dc->grid_sequencing && pc->grid_sequencing == NS_SEQUENCING_AUTO);
  CHECK(pc->method == dc->method && pc->method == NS_CONTINUATION_AUTO &&
        pc->stall_steps == dc->stall_steps && pc->stall_factor == dc->stall_factor &&
        pc->factor == dc->factor && pc->rtol == dc->rtol &&
        pc->max_stages == dc->max_stages);
  CHECK(pc->pseudo_dt == dc->pseudo_dt && pc->pseudo_dt == 1.0 && pc->pseudo_switch == dc->pseudo_switch &&
        pc->pseudo_max_steps == dc->pseudo_max_steps);
  CHECK(p.linear.pcd_inflow_dirichlet == d.linear.pcd_inflow_dirichlet && !p.linear.pcd_inflow_dirichlet);
  CHECK(p.linear.pcd_supg == d.linear.pcd_supg && p.linear.pcd_supg == 1);
  const NsLinearParams *pl = &p.linear, *dl = &d.linear;
  CHECK(pl->krylov == dl->krylov && pl->krylov == NS_KRYLOV_AUTO && pl->schur == dl->schur && pl->rtol == dl->rtol &&
        pl->max_iterations == dl->max_iterations && pl->max_iterations == FEAST_AUTO && pl->restart == dl->restart &&
        pl->residual_replacement == dl->residual_replacement &&
        pl->residual_replacement_drop == dl->residual_replacement_drop);
  CHECK(p.time.scheme == d.time.scheme && p.time.start == d.time.start && p.time.steps_max == d.time.steps_max &&
        p.time.tau_dt == d.time.tau_dt && p.time.checkpoint_interval == d.time.checkpoint_interval);
  CHECK(p.velocity.method == d.velocity.method && p.velocity.rtol == d.velocity.rtol &&
        p.velocity.max_iterations == d.velocity.max_iterations &&
        p.velocity.fixed_iterations == d.velocity.fixed_iterations && p.velocity.max_iterations == FEAST_AUTO);
  CHECK(p.velocity.scarc.mg_pre_smooth == d.velocity.scarc.mg_pre_smooth &&
        p.velocity.scarc.local_pre_smooth == d.velocity.scarc.local_pre_smooth &&
        p.velocity.scarc.coarse_stabilisation == d.velocity.scarc.coarse_stabilisation &&
        p.velocity.scarc.coarse_stabilisation == SCARC_STABILISATION_AUTO);
  CHECK(p.fault.mode == d.fault.mode && p.fault.rank == d.fault.rank);
  ns_case_destroy(&c);
}

static double profile(double x, double y) { return (void)x, 4.0 * y * (1.0 - y); }

/* unitsquare8 at `level` and the problem made from p, no config (what failed stays NULL) */
static int create_from_params(const NsParams *p, int level, FeastMesh **mesh, FeastDomain **dom, NsProblem **ns) {
  char src[4096], path[4200];
  const char *env = getenv("FEAST_SRC");
  *mesh = NULL, *dom = NULL, *ns = NULL;
  if (!realpath(env ? env : ".", src)) return FEAST_ERR_FILE;
  snprintf(path, sizeof path, "%s/grids/unitsquare8.feast", src);
  FEAST_CALL(feast_mesh_read(path, NULL, mesh));
  FEAST_CALL(feast_domain_create(*mesh, level, MPI_COMM_WORLD, dom));
  return ns_create_with_params(p, *dom, 0, ns);
}

static void destroy_all(FeastMesh **mesh, FeastDomain **dom, NsProblem **ns) {
  ns_destroy(ns);
  feast_domain_destroy(dom);
  feast_mesh_destroy(mesh);
}

static void check_poiseuille(void) {
  enum { LEVEL = 3 };
  /* the config front end */
  NsCase c;
  if (ns_case_create("unitsquare8.feast", LEVEL, poiseuille_ini, 0, MPI_COMM_WORLD, &c)) {
    CHECK(0);
    return;
  }
  NsResult rc;
  CHECK_OK(ns_solve(c.ns, &rc));
  /* from C: mesh, domain, parameters, problem */
  FeastMesh *mesh;
  FeastDomain *dom;
  NsProblem *ns;
  NsParams p;
  poiseuille_params(&p);
  CHECK_OK(create_from_params(&p, LEVEL, &mesh, &dom, &ns));
  NsResult r;
  if (ns) CHECK_OK(ns_solve(ns, &r));
  if (ns) {
    CHECK(r.converged && r.reason == NS_CONVERGED && rc.reason == NS_CONVERGED);
    CHECK(r.nonlinear_iterations == rc.nonlinear_iterations && r.linear_iterations == rc.linear_iterations);
    CHECK(r.final_residual == rc.final_residual && r.initial_residual == rc.initial_residual);
    for (int f = 0; f < NS_NFIELDS; f++) CHECK(ns_count_bit_differences(ns_solution(ns), ns_solution(c.ns), f) == 0);
    /* the exact profile, to the discretisation error of level 3 (test_ns_poiseuille: second order) */
    FeastVec *exact = NULL;
    CHECK_OK(feast_vec_create(dom, LEVEL, NS_NFIELDS, &exact));
    if (exact) {
      ns_interpolate(exact, profile, NULL, NULL);
      const double err = ns_max_diff(ns_solution(ns), exact, NS_U);
      if (!(err < 4e-3)) fprintf(stderr, "max nodal error of u: %.3e\n", err);
      CHECK(err < 4e-3); /* measured 2.9e-3 */
    }
    feast_vec_destroy(&exact);
  }
  destroy_all(&mesh, &dom, &ns);
  ns_case_destroy(&c);
}

/* ns_set_initial_guess: a zero guess is the fresh start (the same steps and solution bit
 * for bit; grid sequencing off, which starts a fresh problem's first solve on a coarser
 * level and never a given guess: test_ns_sequencing); the guess gets the Dirichlet values, and where the pressure is fixed only up
 * to a constant (the cavity) a constant pressure becomes zero; a vector of another level
 * is refused */
static void check_initial_guess(void) {
  FeastMesh *mesh;
  FeastDomain *dom;
  NsProblem *ns;
  NsParams p;
  poiseuille_params(&p);
  p.continuation.grid_sequencing = NS_SEQUENCING_OFF;
  CHECK_OK(create_from_params(&p, 3, &mesh, &dom, &ns));
  FeastVec *x = NULL, *ref = NULL, *other = NULL;
  NsResult r1, r2;
  if (ns) {
    CHECK_OK(ns_solve(ns, &r1));
    CHECK_OK(feast_vec_create(dom, ns_level(ns), NS_NFIELDS, &ref));
    CHECK_OK(feast_vec_create(dom, ns_level(ns), NS_NFIELDS, &x)); /* zero */
  }
  if (ref && x) {
    feast_vec_copy(ns_solution(ns), ref);
    CHECK_OK(ns_set_initial_guess(ns, x));
    CHECK_OK(ns_solve(ns, &r2));
    CHECK(r2.nonlinear_iterations == r1.nonlinear_iterations && r2.linear_iterations == r1.linear_iterations);
    for (int f = 0; f < NS_NFIELDS; f++) CHECK(ns_count_bit_differences(ns_solution(ns), ref, f) == 0);
    CHECK_OK(feast_vec_create(dom, ns_level(ns) - 1, NS_NFIELDS, &other));
    if (other) CHECK(ns_set_initial_guess(ns, other) == FEAST_ERR_ARG);
    feast_error_clear();
  }
  feast_vec_destroy(&x);
  feast_vec_destroy(&ref);
  feast_vec_destroy(&other);
  destroy_all(&mesh, &dom, &ns);
  /* the cavity: the velocity given everywhere, the pressure free */
  ns_params_defaults(&p);
  CHECK_OK(ns_params_boundary(&p, "top", "1", "0", NULL, 0));
  CHECK_OK(ns_params_boundary(&p, "bottom", "0", "0", NULL, 0));
  CHECK_OK(ns_params_boundary(&p, "left", "0", "0", NULL, 1));
  CHECK_OK(ns_params_boundary(&p, "right", "0", "0", NULL, 1));
  CHECK_OK(create_from_params(&p, 2, &mesh, &dom, &ns));
  if (ns) CHECK_OK(feast_vec_create(dom, ns_level(ns), NS_NFIELDS, &x));
  if (x) {
    CHECK(ns_pressure_nullspace(ns));
    const FeastLevel *lev = &dom->levels[ns_level(ns)];
    const long n = (long)lev->N * lev->N;
    for (int li = 0; li < dom->nlocal; li++)
      for (long i = 0; i < n; i++) feast_vec_block(x, NS_P, li)[i] = 1.0;
    CHECK_OK(ns_set_initial_guess(ns, x));
    long lid = 0, bad = 0;
    for (int li = 0; li < dom->nlocal; li++) {
      const double *u = feast_vec_block(ns_solution(ns), NS_U, li), *pr = feast_vec_block(ns_solution(ns), NS_P, li);
      for (long i = 0; i < n; i++) {
        const double px = lev->xy[li][2 * i], py = lev->xy[li][2 * i + 1];
        if (py == 1.0 && px > 0.0 && px < 1.0) lid++, bad += u[i] != 1.0;
        bad += pr[i] != 0.0;
      }
    }
    long counts[2] = {lid, bad};
    MPI_Allreduce(MPI_IN_PLACE, counts, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    CHECK(counts[0] > 0 && counts[1] == 0);
  }
  feast_vec_destroy(&x);
  destroy_all(&mesh, &dom, &ns);
}

/* a part the mesh does not have is an argument error naming it */
static void check_unknown_part(void) {
  FeastMesh *mesh;
  FeastDomain *dom;
  NsProblem *ns;
  NsParams p;
  poiseuille_params(&p);
  CHECK_OK(ns_params_boundary(&p, "inlet", "1", "0", NULL, 0));
  CHECK(create_from_params(&p, 2, &mesh, &dom, &ns) == FEAST_ERR_ARG);
  if (!strstr(feast_error_message(), "'inlet'")) fprintf(stderr, "message: %s\n", feast_error_message());
  CHECK(strstr(feast_error_message(), "'inlet'") != NULL);
  destroy_all(&mesh, &dom, &ns);
}

static void check_names(void) {
  CHECK(!strcmp(ns_status_name(NS_CONVERGED), "converged"));
  CHECK(!strcmp(ns_status_name(NS_MAX_ITERATIONS), "max_iterations"));
  CHECK(!strcmp(ns_status_name(NS_LINEAR_DIVERGED), "linear_diverged"));
  CHECK(!strcmp(ns_status_name(NS_INTERRUPTED), "interrupted"));
  CHECK(!strcmp(ns_status_name(NS_STALLED), "stalled"));
  CHECK(!strcmp(ns_continuation_name(NS_CONTINUATION_OFF), "off"));
  CHECK(!strcmp(ns_time_status_name(NS_TIME_STEP_FAILED), "step_failed"));
  CHECK(!strcmp(feast_solve_status_name(FEAST_SOLVE_BREAKDOWN), "breakdown"));
  CHECK(!strcmp(feast_solve_status_name((FeastSolveStatus)99), "?"));
  const FeastKeyTable *t = ns_config_keys();
  const struct {
    const char *section, *key, *choices;
  } want[] = {{"linear", "schur", "auto|mass|pcd"},
              {"linear", "krylov", "auto|bicgstab|ibicgstab|pipebicgsafe|fgmres"},
              {"nonlinear", "method", "fixed-point|newton|auto"},
              {"nonlinear", "linear_forcing", "fixed|eisenstat-walker"},
              {"continuation", "method", "auto|off|re|pseudo-time"},
              {"linear", "pcd_boundary", "robin|inflow-dirichlet"},
              {"linear", "pcd_supg", "off|on"},
              {"nonlinear", "step_reference", "rhs|first-defect|update"},
              {"nonlinear", "line_search", "backtracking|none"},
              {"velocity", "scarc_solver", "mg|cg|bicgstab|ibicgstab|pipebicgsafe"},
              {"time", "scheme", "none|backward-euler|crank-nicolson|fs-theta|bdf2"}};
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    int found = 0;
    for (int k = 0; k < t->nkeys; k++)
      if (!strcmp(t->keys[k].section, want[i].section) && !strcmp(t->keys[k].key, want[i].key)) {
        found = 1;
        if (strcmp(t->keys[k].choices, want[i].choices))
          fprintf(stderr, "%s.%s: %s\n", want[i].section, want[i].key, t->keys[k].choices);
        CHECK(!strcmp(t->keys[k].choices, want[i].choices));
      }
    CHECK(found);
  }
}

static int run(void) {
  check_names();
  check_defaults();
  check_poiseuille();
  check_initial_guess();
  check_unknown_part();
  return 0;
}

FEAST_TEST_MAIN(run)

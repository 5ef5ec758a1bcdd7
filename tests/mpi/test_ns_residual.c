/* The residual evaluation without matrices (ns_system_residual, the line search's
 * trials) against the assembled system: d = h(w) - K(w) x from ns_system_assemble(w) +
 * ns_system_apply(x), and from the cells' residual vectors (ns_form_residual), at x = w
 * (the defect of the nonlinear problem: what the line search evaluates) and at x != w
 * (the Newton terms of A and h no longer cancel), for
 *  - the lid-driven cavity on unitsquare8 (the pressure null space: the projection of the
 *    continuity rows), fixed point and Newton, with a body force, stationary and as a
 *    time step (theta = 0.5: the mass and tau rate in the form, s, the explicit part
 *    (1 - theta) r_old);
 *  - the cavity with a slip lid (v = 0 only there: the u and v masks differ on the top
 *    macros, where A22 is a matrix of its own, and agree on the others, where it is A11's
 *    storage: ns_a22_shared checked on every macro of every case), fixed point;
 *  - the DFG channel on dfg24 (curved cells, a do-nothing outflow: no null space),
 *    fixed point stationary and Newton in a time step;
 *  - the cavity with the stabilisation keys off their defaults (SUPG and PSPG factors
 *    0.5 and 2, the viscous term in the residuals), Newton in a time step and the fixed
 *    point;
 * each at an x with the Dirichlet values set and one without (the Dirichlet rows
 * d_i = g_i - x_i). Checked: ||d_res - d_asm|| <= 1e-12 ||d_asm|| per field (rounding:
 * the sums run in another order), the Dirichlet rows bitwise equal, and the residual
 * evaluation writes no block and no right-hand side (bitwise unchanged). At 1, 2, 4
 * ranks (the interface sums). */
/* white-box (ns_testing_private.h): checks ns_system_residual against the assembled blocks */
#include "ns_testing_private.h"

#define CAVITY                                                                                                 \
  "[problem]\nre = 400\nforce_x = sin(3*x)*y\nforce_y = x*x - y\n"                                             \
  "[boundary.bottom]\nu = 0\nv = 0\n[boundary.top]\nu = 1\nv = 0\n"                                             \
  "[boundary.left]\nu = 0\nv = 0\npriority = 1\n[boundary.right]\nu = 0\nv = 0\npriority = 1\n"                 \
  "[nonlinear]\nmethod = %s\n"
static const char *cavity = CAVITY;
/* the same with other SUPG and PSPG factors and the viscous term in the residuals */
static const char *cavity_stabilised = CAVITY "[stabilisation]\nsupg_scale = 0.5\npspg_scale = 2\nviscous_residual = on\n";
/* the lid as a slip wall (v = 0 only): the u and v masks differ on the macros at the top,
 * so A22 is A11's storage on the others only */
static const char *slip = "[problem]\nre = 100\n"
                          "[boundary.bottom]\nu = 0\nv = 0\n[boundary.top]\nv = 0\n"
                          "[boundary.left]\nu = 0.1*y\nv = 0\npriority = 1\n[boundary.right]\nu = 0.1*y\nv = 0\n"
                          "priority = 1\n[nonlinear]\nmethod = %s\n";
static const char *dfg = "[problem]\nre = 100\nreference_velocity = 1\nreference_length = 0.1\n"
                         "[boundary.inflow]\nu = 4*1.5*y*(0.41-y)/0.41^2\nv = 0\n"
                         "[boundary.wall]\nu = 0\nv = 0\n"
                         "[boundary.cylinder]\ntype = circle\ncenter = 0.2 0.2\nradius = 0.05\nu = 0\nv = 0\n"
                         "[nonlinear]\nmethod = %s\n";

static double fu(double x, double y) { return 1.3 * sin(3.0 * x + 0.5) * cos(2.0 * y) + 0.2 * y; }
static double fv(double x, double y) { return -0.9 * cos(2.5 * x) * sin(3.0 * y + 0.3) + 0.1 * x * y; }
static double fp(double x, double y) { return x * x - 0.7 * y + 0.3 * sin(4.0 * x * y); }
static double gu(double x, double y) { return 0.4 * x * (1.0 - y) + 0.2 * cos(5.0 * y); }
static double gv(double x, double y) { return 0.3 * sin(2.0 * x) * y; }
static double gp(double x, double y) { return 0.5 * x - y * y; }

/* ||x_f|| of field f */
static double field_norm(const FeastVec *x, int f) {
  FeastVec view;
  feast_vec_view((FeastVec *)x, f, &view);
  double n;
  CHECK_OK(feast_vec_norm(&view, &n));
  return n;
}

/* the number of Dirichlet rows of field f where a and b differ in any bit (collective) */
static long fixed_row_differences(const NsProblem *ns, const FeastVec *a, const FeastVec *b, int f) {
  long d = 0, g;
  for (int li = 0; li < ns->dom->nlocal; li++) {
    const unsigned char *fixed = ns->sys.mask[f]->fixed[ns->level][li];
    const double *x = feast_vec_block(a, f, li), *y = feast_vec_block(b, f, li);
    for (long i = 0; i < (long)a->N * a->N; i++) d += fixed[i] && memcmp(&x[i], &y[i], sizeof(double)) != 0;
  }
  MPI_Allreduce(&d, &g, 1, MPI_LONG, MPI_SUM, ns->dom->comm);
  return g;
}

/* the blocks and h bitwise as in the copy (one 3-block vector per block row: its bands
 * summed would not do; compare the bands themselves) */
typedef struct {
  double *bands;
  long n;
} Snapshot;

static void snapshot(const NsProblem *ns, Snapshot *s) {
  const long nn = (long)ns->sys.rhs->N * ns->sys.rhs->N;
  s->n = 0;
  for (int k = 0; k < NS_NBLOCKS; k++)
    if (ns->sys.blk[k]) s->n += (long)ns->dom->nlocal * FEAST_NBANDS * nn;
  s->n += (long)ns->dom->nlocal * NS_NFIELDS * nn;
  s->bands = malloc(sizeof(double) * (size_t)(s->n + 1));
  long at = 0;
  for (int k = 0; k < NS_NBLOCKS; k++)
    for (int li = 0; ns->sys.blk[k] && li < ns->dom->nlocal; li++)
      for (int b = 0; b < FEAST_NBANDS; b++, at += nn) memcpy(s->bands + at, ns->sys.blk[k][li].band[b], sizeof(double) * nn);
  for (int f = 0; f < NS_NFIELDS; f++)
    for (int li = 0; li < ns->dom->nlocal; li++, at += nn) memcpy(s->bands + at, feast_vec_block(ns->sys.rhs, f, li), sizeof(double) * nn);
}

static int same_snapshot(const NsProblem *ns, const Snapshot *s) {
  Snapshot t;
  snapshot(ns, &t);
  int same = t.n == s->n && memcmp(t.bands, s->bands, sizeof(double) * (size_t)s->n) == 0, all;
  free(t.bands);
  MPI_Allreduce(&same, &all, 1, MPI_INT, MPI_MIN, ns->dom->comm);
  return all;
}

/* the time terms of a theta step (theta = 0.5, dt = 0.05) with s and r_old from fields */
static void time_terms(NsProblem *ns) {
  CHECK_OK(ns_time_state_create(ns));
  ns->time.on = 1;
  ns->time.theta = 0.5;
  ns->time.explicit_weight = 0.5;
  ns->time.mass = 20.0;
  ns->time.tau_rate = 20.0;
  ns_interpolate(ns->time.s, gv, gu, NULL);
  feast_vec_scale(-20.0, ns->time.s);
  ns_interpolate(ns->time.r_old, fv, gp, fu);
}

static double worst = 0.0;

static void check_case(const char *mesh, int level, const char *text, const char *method, int timestep) {
  char cfg[2048];
  snprintf(cfg, sizeof cfg, text, method);
  NsCase c;
  if (ns_case_create(mesh, level, cfg, 0, MPI_COMM_WORLD, &c)) {
    CHECK(0);
    return;
  }
  NsProblem *ns = c.ns;
  if (timestep) time_terms(ns);
  /* A22 is A11's storage exactly where there are no Newton terms and the u and v masks
   * agree on the macro; count the macros of each kind */
  long macros[2] = {0, 0}, all[2];
  for (int li = 0; li < c.dom->nlocal; li++) {
    const long n = (long)c.dom->levels[ns->level].N * c.dom->levels[ns->level].N;
    const int same = memcmp(ns->sys.mask[NS_U]->fixed[ns->level][li], ns->sys.mask[NS_V]->fixed[ns->level][li], (size_t)n) == 0;
    CHECK(ns_a22_shared(ns, li) == (same && strcmp(method, "fixed-point") == 0));
    macros[ns_a22_shared(ns, li)]++;
  }
  MPI_Allreduce(macros, all, 2, MPI_LONG, MPI_SUM, c.dom->comm);
  if (feast_test_rank() == 0) printf("%s %s: A22 is A11's storage on %ld of %ld macros\n", mesh, method, all[1], all[0] + all[1]);
  if (text == slip && strcmp(method, "fixed-point") == 0) CHECK(all[0] > 0 && all[1] > 0);
  FeastVec *x = NULL, *w = NULL, *z = NULL, *ref = NULL, *res = NULL;
  FeastVec **vecs[] = {&x, &w, &z, &ref, &res};
  for (int i = 0; i < 5; i++) CHECK_OK(feast_vec_create(c.dom, ns->level, NS_NFIELDS, vecs[i]));
  ns_interpolate(w, gu, gv, gp); /* another linearisation point */
  ns_interpolate(z, gv, gu, fp); /* where the blocks are left assembled */
  for (int bc = 0; bc <= 1; bc++)
    for (int at_x = 1; at_x >= 0; at_x--) {
      ns_interpolate(x, fu, fv, fp);
      if (bc) CHECK_OK(ns_boundary_values(ns, x));
      const FeastVec *lin = at_x ? x : w;
      /* the assembled defect h(lin) - K(lin) x */
      CHECK_OK(ns_system_assemble(ns, lin));
      CHECK_OK(ns_system_apply(ns, x, ref));
      feast_vec_aypx(-1.0, ns->sys.rhs, ref);
      CHECK_OK(ns_project_residual(ns, ref));
      double r_asm;
      CHECK_OK(feast_vec_norm(ref, &r_asm));
      /* the system at a third point: the residual evaluation must not touch it */
      CHECK_OK(ns_system_assemble(ns, z));
      Snapshot s;
      snapshot(ns, &s);
      CHECK_OK(ns_system_residual(ns, lin, x, res));
      CHECK(same_snapshot(ns, &s));
      free(s.bands);
      double r_res;
      CHECK_OK(feast_vec_norm(res, &r_res));
      if (feast_test_rank() == 0)
        printf("%-17s %-11s %s %s %s: ||d|| %.6e, residual evaluation %.6e", mesh, method,
               timestep ? "time step " : "stationary", at_x ? "w = x " : "w != x", bc ? "g at Dirichlet" : "x arbitrary ",
               r_asm, r_res);
      for (int f = 0; f < NS_NFIELDS; f++) {
        const double nf = field_norm(ref, f);
        feast_vec_axpy(-1.0, ref, res); /* res - ref, all fields; compared per field below */
        const double diff = field_norm(res, f);
        feast_vec_axpy(1.0, ref, res);
        const double rel = nf > 0.0 ? diff / nf : diff;
        worst = fmax(worst, rel);
        CHECK(rel <= 1e-12);
        CHECK(fixed_row_differences(ns, ref, res, f) == 0);
        if (feast_test_rank() == 0) printf("  %s %.1e", ns_field_names[f], rel);
      }
      if (feast_test_rank() == 0) printf("\n");
    }
  for (int i = 0; i < 5; i++) feast_vec_destroy(vecs[i]);
  ns_case_destroy(&c);
}

static int run(void) {
  for (int t = 0; t <= 1; t++) {
    check_case("unitsquare8.feast", 3, cavity, "fixed-point", t);
    check_case("unitsquare8.feast", 3, cavity, "newton", t);
  }
  check_case("unitsquare8.feast", 3, slip, "fixed-point", 0);
  check_case("unitsquare8.feast", 3, cavity_stabilised, "newton", 1);
  check_case("unitsquare8.feast", 3, cavity_stabilised, "fixed-point", 0);
  check_case("dfg24.feast", 2, dfg, "fixed-point", 0);
  check_case("dfg24.feast", 2, dfg, "newton", 1);
  if (feast_test_rank() == 0) printf("largest relative difference of a field: %.2e\n", worst);
  return 0;
}

FEAST_TEST_MAIN(run)

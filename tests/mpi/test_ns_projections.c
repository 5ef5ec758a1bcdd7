/* The pressure projections of system.c on the distorted 4 x 4 macros (level 3), the
 * velocity given on the whole boundary (pressure fixed up to a constant):
 *  - the continuity rows of K sum to zero on vectors that vanish at the velocity
 *    Dirichlet nodes (what makes ns_project_residual the right projection for a
 *    residual): sum_i (K x)_p,i <= 1e-13 |K x| for a hash x, Dirichlet values zeroed;
 *  - ns_project_residual: the Euclidean sum of the pressure block is zero (<= 1e-13 of
 *    the sum of |p_i|), the velocity blocks keep their bits, the change is one constant
 *    (spread <= 1e-15), and a second projection changes nothing beyond 1e-15 |p|_max;
 *  - ns_project_solution: int p = sum_i m_i p_i = 0 with the lumped mass (<= 1e-14),
 *    the same other properties; for p = x (in Q1 on any macro) it gives x - 1/2 to
 *    1e-14, since int_(unit square) x = 1/2 and the lumped-mass sum of a Q1 field is its
 *    integral;
 *  - with a natural outflow (no null space) both leave the vector's bits alone;
 *  - on 1, 2, 4 ranks the projected vectors are the bits of the same projection of the
 *    same problem on MPI_COMM_SELF. */
/* white-box (ns_testing_private.h): checks system.c's pressure projections */
#include "ns_testing_private.h"

static const char *enclosed = "[problem]\nre = 10\n"
                              "[boundary.bottom]\nu = 0\nv = 0\n[boundary.top]\nu = 1\nv = 0\n"
                              "[boundary.left]\nu = 0\nv = 0\npriority = 1\n[boundary.right]\nu = 0\nv = 0\npriority = 1\n";
static const char *outflow = "[problem]\nre = 10\n"
                             "[boundary.bottom]\nu = 0\nv = 0\n[boundary.top]\nu = 0\nv = 0\n"
                             "[boundary.left]\nu = 4*y*(1-y)\nv = 0\n";

enum { LEVEL = 3 };
#define MESH "distorted4x4.feast"

static double x_only(double x, double y) { return (void)y, x; }
static double x_minus_half(double x, double y) { return (void)y, x - 0.5; }

/* a hash vector with a pressure offset (so the projections have something to remove) */
static void fill(NsProblem *ns, FeastVec *x) {
  feast_vec_fill_hash(x);
  FeastVec p;
  feast_vec_view(x, NS_P, &p);
  feast_vec_axpy(3.25, ns->sys.ones, &p);
}

/* sum_i p_i, sum_i |p_i| (global nodes once), int p (lumped mass), max |p_i| */
static void pressure_sums(const NsProblem *ns, const FeastVec *x, double *sum, double *abssum, double *integral,
                          double *pmax) {
  FeastVec p;
  feast_vec_view(x, NS_P, &p);
  CHECK_OK(feast_vec_dot(&p, ns->sys.ones, sum));
  CHECK_OK(feast_vec_dot(&p, ns->sys.mass, integral));
  FeastVec *abs_p = NULL;
  CHECK_OK(feast_vec_create(ns->dom, ns->level, 1, &abs_p));
  double m = 0.0;
  for (int li = 0; li < ns->dom->nlocal; li++)
    for (long i = 0; i < (long)x->N * x->N; i++) {
      abs_p->host[li][i] = fabs(p.host[li][i]);
      m = fmax(m, abs_p->host[li][i]);
    }
  CHECK_OK(feast_vec_dot(abs_p, ns->sys.ones, abssum));
  MPI_Allreduce(&m, pmax, 1, MPI_DOUBLE, MPI_MAX, ns->dom->comm);
  feast_vec_destroy(&abs_p);
}

/* max - min over all nodes of (x_p - y_p) */
static double spread(const FeastVec *x, const FeastVec *y) {
  double lo = HUGE_VAL, hi = -HUGE_VAL, g[2];
  for (int li = 0; li < x->nlocal; li++) {
    const double *a = feast_vec_block(x, NS_P, li), *b = feast_vec_block(y, NS_P, li);
    for (long i = 0; i < (long)x->N * x->N; i++) lo = fmin(lo, a[i] - b[i]), hi = fmax(hi, a[i] - b[i]);
  }
  double l[2] = {-lo, hi};
  MPI_Allreduce(l, g, 2, MPI_DOUBLE, MPI_MAX, x->dom->comm);
  return g[1] + g[0];
}

static long velocity_bits_changed(const FeastVec *x, const FeastVec *y) {
  long d = 0, g;
  for (int f = NS_U; f <= NS_V; f++)
    for (int li = 0; li < x->nlocal; li++)
      d += memcmp(feast_vec_block(x, f, li), feast_vec_block(y, f, li), sizeof(double) * (size_t)x->N * x->N) != 0;
  MPI_Allreduce(&d, &g, 1, MPI_LONG, MPI_SUM, x->dom->comm);
  return g;
}

typedef int (*Projection)(const NsProblem *, FeastVec *);

/* one projection: its defining sum zero, velocity untouched, a constant shift, idempotent */
static void check_projection(NsProblem *ns, Projection project, int solution, FeastVec *x, FeastVec *y) {
  fill(ns, x);
  feast_vec_copy(x, y);
  CHECK_OK(project(ns, y));
  double sum, abssum, integral, pmax;
  pressure_sums(ns, y, &sum, &abssum, &integral, &pmax);
  if (solution) CHECK(fabs(integral) <= 1e-14);
  else CHECK(fabs(sum) <= 1e-13 * abssum);
  CHECK(velocity_bits_changed(x, y) == 0);
  CHECK(spread(x, y) <= 1e-15);
  feast_vec_copy(y, x);
  CHECK_OK(project(ns, y));
  const double moved = ns_max_diff(x, y, NS_P);
  CHECK(moved <= 1e-15 * pmax); /* a few units in the last place */
  if (feast_test_rank() == 0)
    printf("%s: sum %.2e (sum |p| %.2e), int p %.2e, second projection moves %.2e (max |p| %.2e)\n",
           solution ? "ns_project_solution" : "ns_project_residual", sum, abssum, integral, moved, pmax);
}

static void check_enclosed(void) {
  NsCase c, s;
  if (ns_case_create(MESH, LEVEL, enclosed, 0, MPI_COMM_WORLD, &c)) {
    CHECK(0);
    return;
  }
  NsProblem *ns = c.ns;
  CHECK(ns_pressure_nullspace(ns));
  FeastVec *x = NULL, *y = NULL, *kx = NULL;
  CHECK_OK(feast_vec_create(c.dom, ns->level, NS_NFIELDS, &x));
  CHECK_OK(feast_vec_create(c.dom, ns->level, NS_NFIELDS, &y));
  CHECK_OK(feast_vec_create(c.dom, ns->level, NS_NFIELDS, &kx));
  /* the continuity rows sum to zero on x with zero Dirichlet values (assembled at a hash w) */
  fill(ns, x);
  CHECK_OK(ns_system_assemble(ns, x));
  for (int f = NS_U; f <= NS_V; f++) feast_vec_zero_fixed(x, f, ns->sys.mask[f]);
  CHECK_OK(ns_system_apply(ns, x, kx));
  double sum, abssum, integral, pmax, knorm;
  pressure_sums(ns, kx, &sum, &abssum, &integral, &pmax);
  CHECK_OK(feast_vec_norm(kx, &knorm));
  CHECK(fabs(sum) <= 1e-13 * knorm);
  if (feast_test_rank() == 0) printf("continuity rows of K x: sum %.2e, |K x| %.2e\n", sum, knorm);
  check_projection(ns, ns_project_residual, 0, x, y);
  check_projection(ns, ns_project_solution, 1, x, y);
  /* int x = 1/2 */
  ns_interpolate(x, NULL, NULL, x_only);
  ns_interpolate(y, NULL, NULL, x_minus_half);
  CHECK_OK(ns_project_solution(ns, x));
  CHECK(ns_max_diff(x, y, NS_P) <= 1e-14);
  /* the same bits as on one rank */
  if (!ns_case_create(MESH, LEVEL, enclosed, 0, MPI_COMM_SELF, &s)) {
    FeastVec *z = NULL;
    CHECK_OK(feast_vec_create(s.dom, s.ns->level, NS_NFIELDS, &z));
    Projection pr[2] = {ns_project_residual, ns_project_solution};
    for (int k = 0; k < 2; k++) {
      fill(ns, x);
      fill(s.ns, z);
      CHECK(ns_count_bit_differences(x, z, NS_P) == 0); /* the hash is partition-independent */
      CHECK_OK(pr[k](ns, x));
      CHECK_OK(pr[k](s.ns, z));
      CHECK(ns_count_bit_differences(x, z, NS_P) == 0);
    }
    feast_vec_destroy(&z);
  } else {
    CHECK(0);
  }
  ns_case_destroy(&s);
  feast_vec_destroy(&x);
  feast_vec_destroy(&y);
  feast_vec_destroy(&kx);
  ns_case_destroy(&c);
}

static void check_outflow(void) {
  NsCase c;
  if (ns_case_create(MESH, LEVEL, outflow, 0, MPI_COMM_WORLD, &c)) {
    CHECK(0);
    return;
  }
  NsProblem *ns = c.ns;
  CHECK(!ns_pressure_nullspace(ns));
  FeastVec *x = NULL, *y = NULL;
  CHECK_OK(feast_vec_create(c.dom, ns->level, NS_NFIELDS, &x));
  CHECK_OK(feast_vec_create(c.dom, ns->level, NS_NFIELDS, &y));
  fill(ns, x);
  feast_vec_copy(x, y);
  CHECK_OK(ns_project_residual(ns, y));
  CHECK_OK(ns_project_solution(ns, y));
  long d = velocity_bits_changed(x, y);
  for (int li = 0; li < x->nlocal; li++)
    d += memcmp(feast_vec_block(x, NS_P, li), feast_vec_block(y, NS_P, li), sizeof(double) * (size_t)x->N * x->N) != 0;
  CHECK(d == 0);
  feast_vec_destroy(&x);
  feast_vec_destroy(&y);
  ns_case_destroy(&c);
}

static int run(void) {
  check_enclosed();
  check_outflow();
  return 0;
}

FEAST_TEST_MAIN(run)

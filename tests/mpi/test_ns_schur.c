/* The block preconditioner of schur.c with exact inner solves is the inverse of the
 * lower block-triangular factor
 *   K_s = [A11 0 0; A21 A22 0; BT1 BT2 -S~],  S~ = M_p^L / nu  (A21 = 0 in fixed point),
 * on the distorted 4 x 4 macros at level 3 (1089 nodes), the system assembled at a hash
 * velocity (Re = 10), the velocity blocks solved by ScaRC to velocity.rtol = 1e-13
 * (effectively exact). For c = K_s^-1 d (the problem's precond operator, as the Krylov
 * method applies it) and a hash defect d (zero at the velocity Dirichlet rows):
 *  - row 1: |A11 c_u - d_u| <= 1e-10 |d|;
 *  - row 2: |A21 c_u + A22 c_v - d_v| <= 1e-10 |d| (Newton: block Gauss-Seidel with the
 *    coupling A21 of the Newton matrix; fixed point: A21 = 0);
 *  - row 3: BT1 c_u + BT2 c_v - (m / nu) c_p - d_p = 0 to 1e-12 |d| with an outflow (no
 *    null space); with the velocity given everywhere (null space) it is (m / nu) kappa,
 *    kappa one constant (the projection to int c_p = 0; d's pressure block is not
 *    projected, so kappa != 0): r_i nu / m_i has spread <= 1e-10 |d| and int c_p = 0.
 * Together these determine c uniquely (A11, A22 regular): the inverse of the factor.
 * With linear.schur = pcd (pcd.c) the pressure step is S~^-1 = nu M_p^-1 + M_p^-1 N_p A_p^-1:
 *  - m c_p - nu r = N_p z (+ m kappa with the null space) to 1e-12 |d| (1e-10 enclosed),
 *    with N_p = (w . grad psi_b, psi_a) assembled here anew (3 x 3 Gauss; pcd.c uses
 *    2 x 2, exact too), z the PCD solver's A_p^-1 r';
 *  - |A_p z - r'| <= 1e-10 |r| off the fixed nodes and z = 0 on them (r' = r zero-summed
 *    for the enclosed flow, whose A_p is pinned at one vertex; the inflow nodes of the
 *    channel).
 * K_s is checked on the operator blocks the problem assembled (ns_system_apply), so a
 * dense copy is not needed. */
#include "feast/q1.h"
#include "ns_testing.h"

static const char *outflow = "[problem]\nre = 10\n"
                             "[boundary.bottom]\nu = 0\nv = 0\n[boundary.top]\nu = 0\nv = 0\n"
                             "[boundary.left]\nu = 4*y*(1-y)\nv = 0\n"
                             "[solver]\nnonlinear = %s\n[linear]\nschur = %s\n"
                             "[velocity]\nrtol = 1e-13\nmax_iterations = 200\n";
static const char *enclosed = "[problem]\nre = 10\n"
                              "[boundary.bottom]\nu = 0\nv = 0\n[boundary.top]\nu = 1\nv = 0\n"
                              "[boundary.left]\nu = 0\nv = 0\npriority = 1\n[boundary.right]\nu = 0\nv = 0\npriority = 1\n"
                              "[solver]\nnonlinear = %s\n[linear]\nschur = %s\n"
                              "[velocity]\nrtol = 1e-13\nmax_iterations = 200\n";

enum { LEVEL = 3 };
#define MESH "distorted4x4.feast"

/* y <- K (x restricted to field f) */
static void apply_column(NsProblem *ns, const FeastVec *x, int f, FeastVec *tmp, FeastVec *y) {
  feast_vec_zero(tmp);
  FeastVec src, dst;
  feast_vec_view(x, f, &src);
  feast_vec_view(tmp, f, &dst);
  feast_vec_copy(&src, &dst);
  CHECK_OK(ns_system_apply(ns, tmp, y));
}

static double block_norm(const FeastVec *x, int f) {
  FeastVec b;
  feast_vec_view(x, f, &b);
  double n;
  CHECK_OK(feast_vec_norm(&b, &n));
  return n;
}

/* N_p, written again: (w . grad psi_b, psi_a) at 3 x 3 Gauss points (pcd.c: 2 x 2, exact
 * as well for bilinear w on bilinear cells) */
static void convection(const FeastQ1Cell *c, void *ctx, double (*A)[4][4], double (*b)[4]) {
  const double *const *w = ctx;
  (void)b;
  for (int q = 0; q < c->nq; q++) {
    const FeastQ1Point *p = &c->q[q];
    double w1 = 0.0, w2 = 0.0;
    for (int a = 0; a < 4; a++) w1 += w[0][c->node[a]] * p->phi[a], w2 += w[1][c->node[a]] * p->phi[a];
    for (int a = 0; a < 4; a++)
      for (int k = 0; k < 4; k++) A[0][a][k] += p->weight * p->phi[a] * (w1 * p->dphi[k][0] + w2 * p->dphi[k][1]);
  }
}

/* PCD: with r = BT c - d_p, m c_p = nu r + N_p z (+ m kappa with the null space), where
 * A_p z = r' (r' = r, zero-summed for an enclosed flow, zero at the inflow nodes; z = 0
 * there); z is the PCD solver's own (pcd_z), checked against A_p, and N_p assembled here.
 * Returns the spread and the maximum of |(m c_p - nu r - N_p z) / m| and |A_p z - r'| / |r|. */
static void check_pcd(NsProblem *ns, const FeastVec *ku, const FeastVec *kv, const FeastVec *d, const FeastVec *x,
                      double *spread, double *emax, double *lap_res) {
  const FeastDomain *dom = ns->dom;
  const FeastLevel *lev = &dom->levels[ns->level];
  const long n = (long)lev->N * lev->N;
  FeastVec *r = NULL, *nz = NULL, *az = NULL;
  CHECK_OK(feast_vec_create(dom, ns->level, 1, &r));
  CHECK_OK(feast_vec_create(dom, ns->level, 1, &nz));
  CHECK_OK(feast_vec_create(dom, ns->level, 1, &az));
  for (int li = 0; li < dom->nlocal; li++) {
    const double *bu = feast_vec_block(ku, NS_P, li), *bv = feast_vec_block(kv, NS_P, li), *dp = feast_vec_block(d, NS_P, li);
    for (long i = 0; i < n; i++) r->v[li][i] = bu[i] + bv[i] - dp[i];
    FeastBand9 N;
    CHECK_OK(feast_band9_create(lev->N, &N));
    const double *w[2] = {feast_vec_block(ns->v, NS_U, li), feast_vec_block(ns->v, NS_V, li)};
    FeastBand9 *A[1] = {&N};
    CHECK_OK(feast_q1_assemble_cells(lev->N, lev->xy[li], dom->local[li], convection, (void *)w, 3, 1, A, 0, NULL));
    feast_band9_matvec(&N, ns->pcd_z->v[li], nz->v[li]);
    feast_band9_matvec(&ns->pcd_lap[li], ns->pcd_z->v[li], az->v[li]);
    feast_band9_destroy(&N);
  }
  CHECK_OK(feast_vec_sum(nz));
  CHECK_OK(feast_vec_sum(az));
  /* r' and A_p z - r' off the fixed nodes, z = 0 on them */
  FeastVec *rp = NULL;
  CHECK_OK(feast_vec_create(dom, ns->level, 1, &rp));
  feast_vec_copy(r, rp);
  if (ns->pcd_mask->pinned >= 0) CHECK_OK(ns_zero_sum(ns, rp));
  double lo = HUGE_VAL, hi = -HUGE_VAL, amax = 0.0, rmax = 0.0, zfixed = 0.0;
  for (int li = 0; li < dom->nlocal; li++) {
    const unsigned char *fixed = ns->pcd_mask->fixed[ns->level][li];
    const double *cp = feast_vec_block(x, NS_P, li), *m = ns->mass->v[li];
    for (long i = 0; i < n; i++) {
      const double e = (m[i] * cp[i] - ns->nu * r->v[li][i] - nz->v[li][i]) / m[i];
      lo = fmin(lo, e), hi = fmax(hi, e);
      rmax = fmax(rmax, fabs(r->v[li][i]));
      if (fixed[i]) zfixed = fmax(zfixed, fabs(ns->pcd_z->v[li][i]));
      else amax = fmax(amax, fabs(az->v[li][i] - rp->v[li][i]));
    }
  }
  double l[5] = {-lo, hi, amax, rmax, zfixed}, g[5];
  MPI_Allreduce(l, g, 5, MPI_DOUBLE, MPI_MAX, dom->comm);
  CHECK(g[4] == 0.0);
  *spread = g[0] + g[1];
  *emax = fmax(g[0], g[1]);
  *lap_res = g[2] / g[3];
  feast_vec_destroy(&r);
  feast_vec_destroy(&nz);
  feast_vec_destroy(&az);
  feast_vec_destroy(&rp);
}

static void check_case(const char *fmt, const char *nonlinear, const char *schur) {
  char text[1024];
  snprintf(text, sizeof text, fmt, nonlinear, schur);
  NsCase c;
  if (ns_case_create(MESH, LEVEL, text, 0, MPI_COMM_WORLD, &c)) {
    CHECK(0);
    return;
  }
  NsProblem *ns = c.ns;
  const int nullspace = ns_pressure_nullspace(ns), newton = ns->newton;
  CHECK(newton == (strcmp(nonlinear, "newton") == 0));
  FeastVec *d = NULL, *x = NULL, *tmp = NULL, *ku = NULL, *kv = NULL;
  FeastVec **vecs[] = {&d, &x, &tmp, &ku, &kv};
  for (int k = 0; k < 5; k++) CHECK_OK(feast_vec_create(c.dom, ns->level, NS_NFIELDS, vecs[k]));
  /* the linearisation point: a hash velocity with the boundary values */
  feast_vec_fill_hash(ns->v);
  for (int f = 0; f < NS_NFIELDS; f++)
    CHECK_OK(feast_bc_values(ns->bc[f], c.dom, ns->mask[f], ns->v->v + (long)f * c.dom->nlocal));
  CHECK_OK(ns_system_assemble(ns, ns->v));
  CHECK_OK(ns_schur_update(ns));
  /* the defect */
  feast_vec_fill_hash(d);
  feast_vec_scale(0.5, d);
  for (int f = 0; f < NS_NFIELDS; f++) feast_vec_zero_fixed(d, f, ns->mask[f]);
  /* not projected: with the null space, K_s's projection of c_p then has work to do */
  double dnorm;
  CHECK_OK(feast_vec_norm(d, &dnorm));
  CHECK_OK(ns->precond.apply(ns->precond.ctx, d, x));
  /* K times the velocity columns of c */
  apply_column(ns, x, NS_U, tmp, ku);
  apply_column(ns, x, NS_V, tmp, kv);
  /* row 1: A11 c_u - d_u; row 2: A21 c_u + A22 c_v - d_v */
  double r1, r2;
  {
    FeastVec a, b;
    feast_vec_view(ku, NS_U, &a);
    feast_vec_view(d, NS_U, &b);
    feast_vec_axpy(-1.0, &b, &a);
    r1 = block_norm(ku, NS_U);
    feast_vec_view(ku, NS_V, &a);
    feast_vec_view(kv, NS_V, &b);
    feast_vec_axpy(1.0, &b, &a);
    feast_vec_view(d, NS_V, &b);
    feast_vec_axpy(-1.0, &b, &a);
    r2 = block_norm(ku, NS_V);
  }
  CHECK(r1 <= 1e-10 * dnorm);
  CHECK(r2 <= 1e-10 * dnorm);
  /* row 3: r = BT1 c_u + BT2 c_v - (m / nu) c_p - d_p, and r nu / m */
  const double nu = ns_viscosity(ns);
  double lo = HUGE_VAL, hi = -HUGE_VAL, rmax = 0.0;
  for (int li = 0; li < c.dom->nlocal; li++) {
    const double *bu = feast_vec_block(ku, NS_P, li), *bv = feast_vec_block(kv, NS_P, li);
    const double *cp = feast_vec_block(x, NS_P, li), *dp = feast_vec_block(d, NS_P, li), *m = ns->mass->v[li];
    for (long i = 0; i < (long)x->N * x->N; i++) {
      const double r = bu[i] + bv[i] - m[i] / nu * cp[i] - dp[i];
      rmax = fmax(rmax, fabs(r));
      lo = fmin(lo, r * nu / m[i]), hi = fmax(hi, r * nu / m[i]);
    }
  }
  double g[3], l[3] = {rmax, -lo, hi};
  MPI_Allreduce(l, g, 3, MPI_DOUBLE, MPI_MAX, c.dom->comm);
  rmax = g[0], lo = -g[1], hi = g[2];
  double integral = 0.0;
  {
    FeastVec p;
    feast_vec_view(x, NS_P, &p);
    CHECK_OK(feast_vec_dot(&p, ns->mass, &integral));
  }
  const int pcd = strcmp(schur, "pcd") == 0;
  CHECK(ns->pcd == pcd);
  if (pcd) {
    double sp, emax, lap;
    check_pcd(ns, ku, kv, d, x, &sp, &emax, &lap);
    if (nullspace) CHECK(sp <= 1e-10 * dnorm);
    else CHECK(emax <= 1e-12 * dnorm);
    CHECK(lap <= 1e-10);
    if (nullspace) CHECK(fabs(integral) <= 1e-13 * block_norm(x, NS_P));
    if (feast_test_rank() == 0)
      printf("%-8s %-11s pcd : |d| %.3e, row 1 %.2e, row 2 %.2e, (m c_p - nu r - N_p z)/m spread %.2e, |A_p z - r'|/|r| "
             "%.2e, int c_p %.2e\n",
             nullspace ? "enclosed" : "outflow", nonlinear, dnorm, r1, r2, sp, lap, integral);
  } else {
    if (nullspace) {
      CHECK(hi - lo <= 1e-10 * dnorm);
      CHECK(fabs(lo) > 1e-3); /* kappa != 0: the projection acted */
      CHECK(fabs(integral) <= 1e-13 * block_norm(x, NS_P));
    } else {
      CHECK(rmax <= 1e-12 * dnorm);
    }
    if (feast_test_rank() == 0)
      printf("%-8s %-11s mass: |d| %.3e, row 1 %.2e, row 2 %.2e, row 3 max %.2e (nu r/m in [%.6e, %.6e]), int c_p %.2e\n",
             nullspace ? "enclosed" : "outflow", nonlinear, dnorm, r1, r2, rmax, lo, hi, integral);
  }
  for (int k = 0; k < 5; k++) feast_vec_destroy(vecs[k]);
  ns_case_destroy(&c);
}

static int run(void) {
  check_case(outflow, "fixed-point", "mass");
  check_case(outflow, "newton", "mass");
  check_case(enclosed, "fixed-point", "mass");
  check_case(enclosed, "newton", "mass");
  check_case(outflow, "fixed-point", "pcd");
  check_case(outflow, "newton", "pcd");
  check_case(enclosed, "fixed-point", "pcd");
  return 0;
}

FEAST_TEST_MAIN(run)

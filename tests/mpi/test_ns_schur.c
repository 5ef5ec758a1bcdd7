/* The block preconditioner of schur.c with exact inner solves is the inverse of the
 * lower block-triangular factor
 *   K_s = [A11 0 0; A21 A22 0; BT1 BT2 -S~],  S~ = M_p^L / nu  (A21 = 0 in fixed point),
 * on the distorted 4 x 4 macros at level 3 (1089 nodes), the system assembled at a hash
 * velocity (Re = 10), the velocity blocks solved by ScaRC to velocity.rtol = 1e-13
 * (effectively exact). For c = K_s^-1 d (the problem's precond operator, as the Krylov
 * method applies it) and a hash defect d (zero at the velocity Dirichlet rows):
 *  - row 1: |A11 c_u - d_u| <= 1e-10 |d|;
 *  - row 2: |A21 c_u + A22 c_v - d_v| <= 1e-10 |d| (Newton: block Gauss-Seidel with the
 *    coupling A21 of the Newton matrix; fixed point: A21 = 0). Newton's A11, A21, A22 here
 *    are the preconditioner's (velocity.newton_reaction = off: the Jacobian's without the
 *    reaction term, test_ns_jacobian check 4), the other blocks the system's;
 *  - row 3: BT1 c_u + BT2 c_v - (m / nu) c_p - d_p = 0 to 1e-12 |d| with an outflow (no
 *    null space); with the velocity given everywhere (null space) it is (m / nu) kappa,
 *    kappa one constant (the projection to int c_p = 0; d's pressure block is not
 *    projected, so kappa != 0): r_i nu / m_i has spread <= 1e-10 |d| and int c_p = 0.
 * Together these determine c uniquely (A11, A22 regular): the inverse of the factor.
 * With linear.schur = pcd (pcd.c) the pressure step is S~^-1 = nu M_p^-1 + M_p^-1 N_p A_p^-1
 * (the enclosed flow without the rotation term: linear.pcd_rotation = 0):
 *  - m c_p - nu r = N_p z (+ m kappa with the null space) to 1e-12 |d| (1e-10 enclosed),
 *    with N_p = (w . grad psi_b, psi_a) assembled here anew (3 x 3 Gauss; pcd.c uses
 *    2 x 2, exact too), z the PCD solver's A_p^-1 r';
 *  - |A_p z - r'| <= 1e-10 |r| off the fixed nodes and z = 0 on them (r' = r zero-summed
 *    for the enclosed flow, whose A_p is pinned at one vertex; the inflow nodes of the
 *    channel).
 * With the channel's default linear.pcd_boundary = robin (Elman & Tuminaro; Blechta's BRM2;
 * without the rotation term here, linear.pcd_rotation = 0: its spectrum is
 * test_ns_schur_spectrum's) the pressure step is S~^-1 r = nu M_p^-1 r + A_p^-1 (N_p + R) M_p^-1 r, A_p zero on the
 * outflow (the right part), R = -(w.n psi_b, psi_a) on the inflow (the left part), assembled
 * here by Simpson's rule per boundary segment (pcd.c: 2-point Gauss; both exact):
 *  - c_p - nu r / m = z to 1e-12 |d|, z the PCD solver's own, = 0 on the outflow nodes;
 *  - |A_p z - (N_p + R) (r / m)| <= 1e-10 |(N_p + R) (r / m)| off them.
 * K_s is checked on the operator blocks the problem assembled (ns_system_apply), so a
 * dense copy is not needed. */
#include "feast/fem/q1.h"
#include "navier_stokes/ns_keys.h"
/* white-box (ns_testing_private.h): checks the Schur approximations' operators (PCD's A_p, N_p) */
#include "ns_testing_private.h"

static const char *outflow = "[problem]\nre = 10\n"
                             "[boundary.bottom]\nu = 0\nv = 0\n[boundary.top]\nu = 0\nv = 0\n"
                             "[boundary.left]\nu = 4*y*(1-y)\nv = 0\n"
                             "[nonlinear]\nmethod = %s\n[linear]\nschur = %s\nfactorisation = %s\npcd_rotation = 0\n"
                             "[velocity]\nrtol = 1e-13\nmax_iterations = 200\n";
/* the channel with PCD's Kay-Loghin-Wathen boundary conditions (A_p zero on the inflow) */
static const char *outflow_inflow_dirichlet =
    "[problem]\nre = 10\n"
    "[boundary.bottom]\nu = 0\nv = 0\n[boundary.top]\nu = 0\nv = 0\n"
    "[boundary.left]\nu = 4*y*(1-y)\nv = 0\n"
    "[nonlinear]\nmethod = %s\n[linear]\nschur = %s\nfactorisation = %s\npcd_boundary = inflow-dirichlet\n"
    "[velocity]\nrtol = 1e-13\nmax_iterations = 200\n";
static const char *enclosed = "[problem]\nre = 10\n"
                              "[boundary.bottom]\nu = 0\nv = 0\n[boundary.top]\nu = 1\nv = 0\n"
                              "[boundary.left]\nu = 0\nv = 0\npriority = 1\n[boundary.right]\nu = 0\nv = 0\npriority = 1\n"
                              "[nonlinear]\nmethod = %s\n[linear]\nschur = %s\nfactorisation = %s\npcd_rotation = 0\n"
                              "[velocity]\nrtol = 1e-13\nmax_iterations = 200\n";

enum { LEVEL = 3 };
#define MESH "distorted4x4.feast"

/* y <- K (x restricted to field f), K with the velocity blocks the preconditioner solves
 * (Newton: the Jacobian's A11, A21, A22 without the reaction term, ns->sys.vblk) */
static void apply_column(NsProblem *ns, const FeastVec *x, int f, FeastVec *tmp, FeastVec *y) {
  feast_vec_zero(tmp);
  FeastVec src, dst;
  feast_vec_view(x, f, &src);
  feast_vec_view(tmp, f, &dst);
  feast_vec_copy(&src, &dst);
  FeastBand9 *system[NS_NBLOCKS];
  memcpy(system, ns->sys.blk, sizeof system);
  if (ns_velocity_blocks_apart(ns)) ns->sys.blk[NS_A11] = ns->sys.vblk[NS_A11], ns->sys.blk[NS_A21] = ns->sys.vblk[NS_A21],
                                    ns->sys.blk[NS_A22] = ns->sys.vblk[NS_A22];
  CHECK_OK(ns_system_apply(ns, tmp, y));
  memcpy(ns->sys.blk, system, sizeof system);
}

static double block_norm(const FeastVec *x, int f) {
  FeastVec b;
  feast_vec_view(x, f, &b);
  double n;
  CHECK_OK(feast_vec_norm(&b, &n));
  return n;
}

/* N_p + S_p, written again at 3 x 3 Gauss points: (w . grad psi_b, psi_a) and the SUPG
 * streamline diffusion tau_s (w . grad psi_b, w . grad psi_a) of linear.pcd_supg = on, tau_s
 * = supg_scale x ns_tau at the cell-centre velocity (the velocity's own, forms.c) */
typedef struct {
  const double *w[2];
  double nu, tau_scale;
} Convection;

static void convection(const FeastQ1Cell *c, void *ctx, double (*A)[4][4], double (*b)[4]) {
  const Convection *cv = ctx;
  const double *const *w = cv->w;
  (void)b;
  double wc[2] = {0.0, 0.0};
  for (int a = 0; a < 4; a++) wc[0] += 0.25 * w[0][c->node[a]], wc[1] += 0.25 * w[1][c->node[a]];
  const double tau = cv->tau_scale * ns_tau(c, wc, cv->nu, 0.0);
  for (int q = 0; q < c->nq; q++) {
    const FeastQ1Point *p = &c->q[q];
    double w1 = 0.0, w2 = 0.0;
    for (int a = 0; a < 4; a++) w1 += w[0][c->node[a]] * p->phi[a], w2 += w[1][c->node[a]] * p->phi[a];
    for (int a = 0; a < 4; a++) {
      const double test = p->phi[a] + tau * (w1 * p->dphi[a][0] + w2 * p->dphi[a][1]);
      for (int k = 0; k < 4; k++) A[0][a][k] += p->weight * test * (w1 * p->dphi[k][0] + w2 * p->dphi[k][1]);
    }
  }
}

/* the context of convection at local macro li: ns's velocity, nu and tau's factor */
static Convection convection_at(const NsProblem *ns, int li) {
  const double scale = ns->params.linear.pcd_supg ? ns->params.stabilisation.supg_scale : 0.0;
  return (Convection){{feast_vec_block(ns->iter.v, NS_U, li), feast_vec_block(ns->iter.v, NS_V, li)}, ns->nu, scale};
}

/* R y added to t: the inflow's Robin term -(w.n psi_b, psi_a) on the left part (x = 0,
 * outward normal (-1, 0)) of local macro li, by Simpson's rule per segment */
static void add_robin(const NsProblem *ns, int li, const double *y, double *t) {
  const FeastDomain *dom = ns->dom;
  const FeastMesh *mesh = dom->mesh;
  const FeastLevel *lev = &dom->levels[ns->level];
  const int N = lev->N, m = dom->local[li], left = feast_mesh_part_index(mesh, "left");
  const double *xy = lev->xy[li], *u = feast_vec_block(ns->iter.v, NS_U, li);
  for (int le = 0; le < 4; le++) {
    if (mesh->edge_part[mesh->macro_edges[4 * m + le]] != left) continue;
    for (int s = 0; s + 1 < N; s++) {
      const long a = feast_edge_node(le, s, N), b = feast_edge_node(le, s + 1, N);
      const double len = hypot(xy[2 * b] - xy[2 * a], xy[2 * b + 1] - xy[2 * a + 1]);
      static const double sw[3] = {1.0 / 6.0, 4.0 / 6.0, 1.0 / 6.0}, sx[3] = {0.0, 0.5, 1.0};
      for (int q = 0; q < 3; q++) {
        const double phi[2] = {1.0 - sx[q], sx[q]}, wn = -(phi[0] * u[a] + phi[1] * u[b]); /* w.n, n = (-1, 0) */
        const double yq = phi[0] * y[a] + phi[1] * y[b];
        t[a] -= len * sw[q] * wn * yq * phi[0];
        t[b] -= len * sw[q] * wn * yq * phi[1];
      }
    }
  }
}

/* PCD, Robin variant: y = r / m, t = (N_p + R) y; c_p - nu y = z, A_p z = t off the outflow
 * nodes, z = 0 on them. Returns max |c_p - nu y - z| and |A_p z - t| / |t| */
static void check_pcd_robin(NsProblem *ns, const FeastVec *r, const FeastVec *x, double *emax, double *lap_res) {
  const FeastDomain *dom = ns->dom;
  const FeastLevel *lev = &dom->levels[ns->level];
  const long n = (long)lev->N * lev->N;
  FeastVec *y = NULL, *t = NULL, *az = NULL;
  CHECK_OK(feast_vec_create(dom, ns->level, 1, &y));
  CHECK_OK(feast_vec_create(dom, ns->level, 1, &t));
  CHECK_OK(feast_vec_create(dom, ns->level, 1, &az));
  for (int li = 0; li < dom->nlocal; li++) {
    for (long i = 0; i < n; i++) y->host[li][i] = r->host[li][i] / ns->sys.mass->host[li][i];
    FeastBand9 N;
    CHECK_OK(feast_band9_create(lev->N, &N));
    const Convection cv = convection_at(ns, li);
    FeastBand9 *A[1] = {&N};
    CHECK_OK(feast_q1_assemble_cells(lev->N, lev->xy[li], dom->local[li], convection, (void *)&cv, 3, 1, A, 0, NULL));
    feast_band9_matvec(&N, y->host[li], t->host[li]);
    add_robin(ns, li, y->host[li], t->host[li]);
    feast_band9_matvec(&ns->prec.pcd_ops.lap[li], ns->prec.pcd_ops.z->host[li], az->host[li]);
    feast_band9_destroy(&N);
  }
  CHECK_OK(feast_vec_sum(t));
  CHECK_OK(feast_vec_sum(az));
  double l[4] = {0.0, 0.0, 0.0, 0.0}, g[4]; /* max |e|, max |A_p z - t| off fixed, max |t|, max |z| on fixed */
  for (int li = 0; li < dom->nlocal; li++) {
    const unsigned char *fixed = ns->prec.pcd_ops.mask->fixed[ns->level][li];
    const double *cp = feast_vec_block(x, NS_P, li), *z = ns->prec.pcd_ops.z->host[li];
    for (long i = 0; i < n; i++) {
      l[0] = fmax(l[0], fabs(cp[i] - ns->nu * y->host[li][i] - z[i]));
      if (fixed[i]) l[3] = fmax(l[3], fabs(z[i]));
      else l[1] = fmax(l[1], fabs(az->host[li][i] - t->host[li][i])), l[2] = fmax(l[2], fabs(t->host[li][i]));
    }
  }
  MPI_Allreduce(l, g, 4, MPI_DOUBLE, MPI_MAX, dom->comm);
  CHECK(g[3] == 0.0);
  *emax = g[0];
  *lap_res = g[1] / g[2];
  feast_vec_destroy(&y);
  feast_vec_destroy(&t);
  feast_vec_destroy(&az);
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
    for (long i = 0; i < n; i++) r->host[li][i] = bu[i] + bv[i] - dp[i];
  }
  if (ns->prec.pcd_ops.robin) {
    *spread = 0.0;
    check_pcd_robin(ns, r, x, emax, lap_res);
    feast_vec_destroy(&r);
    feast_vec_destroy(&nz);
    feast_vec_destroy(&az);
    return;
  }
  for (int li = 0; li < dom->nlocal; li++) {
    FeastBand9 N;
    CHECK_OK(feast_band9_create(lev->N, &N));
    const Convection cv = convection_at(ns, li);
    FeastBand9 *A[1] = {&N};
    CHECK_OK(feast_q1_assemble_cells(lev->N, lev->xy[li], dom->local[li], convection, (void *)&cv, 3, 1, A, 0, NULL));
    feast_band9_matvec(&N, ns->prec.pcd_ops.z->host[li], nz->host[li]);
    feast_band9_matvec(&ns->prec.pcd_ops.lap[li], ns->prec.pcd_ops.z->host[li], az->host[li]);
    feast_band9_destroy(&N);
  }
  CHECK_OK(feast_vec_sum(nz));
  CHECK_OK(feast_vec_sum(az));
  /* r' and A_p z - r' off the fixed nodes, z = 0 on them */
  FeastVec *rp = NULL;
  CHECK_OK(feast_vec_create(dom, ns->level, 1, &rp));
  feast_vec_copy(r, rp);
  if (ns->prec.pcd_ops.mask->pinned >= 0) CHECK_OK(ns_zero_sum(ns, rp));
  double lo = HUGE_VAL, hi = -HUGE_VAL, amax = 0.0, rmax = 0.0, zfixed = 0.0;
  for (int li = 0; li < dom->nlocal; li++) {
    const unsigned char *fixed = ns->prec.pcd_ops.mask->fixed[ns->level][li];
    const double *cp = feast_vec_block(x, NS_P, li), *m = ns->sys.mass->host[li];
    for (long i = 0; i < n; i++) {
      const double e = (m[i] * cp[i] - ns->nu * r->host[li][i] - nz->host[li][i]) / m[i];
      lo = fmin(lo, e), hi = fmax(hi, e);
      rmax = fmax(rmax, fabs(r->host[li][i]));
      if (fixed[i]) zfixed = fmax(zfixed, fabs(ns->prec.pcd_ops.z->host[li][i]));
      else amax = fmax(amax, fabs(az->host[li][i] - rp->host[li][i]));
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

/* the system assembled at a hash velocity with the boundary values, the preconditioner
 * refreshed, d <- a hash defect zero at the Dirichlet rows (not projected: with the null
 * space, the projection of c_p then has work to do); returns |d| */
static double linearise_at_hash(NsProblem *ns, FeastVec *d) {
  feast_vec_fill_hash(ns->iter.v);
  CHECK_OK(ns_boundary_values(ns, ns->iter.v));
  CHECK_OK(ns_system_assemble(ns, ns->iter.v));
  CHECK_OK(ns_schur_update(ns));
  feast_vec_fill_hash(d);
  feast_vec_scale(0.5, d);
  for (int f = 0; f < NS_NFIELDS; f++) feast_vec_zero_fixed(d, f, ns->sys.mask[f]);
  double dnorm;
  CHECK_OK(feast_vec_norm(d, &dnorm));
  return dnorm;
}

static void check_case(const char *fmt, const char *nonlinear, const char *schur) {
  char text[1024];
  snprintf(text, sizeof text, fmt, nonlinear, schur, "lower");
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
  const double dnorm = linearise_at_hash(ns, d);
  CHECK_OK(ns->prec.op.apply(ns->prec.op.ctx, d, x));
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
    const double *cp = feast_vec_block(x, NS_P, li), *dp = feast_vec_block(d, NS_P, li), *m = ns->sys.mass->host[li];
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
    CHECK_OK(feast_vec_dot(&p, ns->sys.mass, &integral));
  }
  const int pcd = strcmp(schur, "pcd") == 0;
  CHECK(ns->prec.pcd == pcd);
  CHECK(strcmp(ns->prec.schur->name, schur) == 0);
  if (pcd) {
    double sp, emax, lap;
    check_pcd(ns, ku, kv, d, x, &sp, &emax, &lap);
    if (nullspace) CHECK(sp <= 1e-10 * dnorm);
    else CHECK(emax <= 1e-12 * dnorm);
    CHECK(lap <= 1e-10);
    if (nullspace) CHECK(fabs(integral) <= 1e-13 * block_norm(x, NS_P));
    if (feast_test_rank() == 0)
      printf("%-8s %-11s pcd%s: |d| %.3e, row 1 %.2e, row 2 %.2e, (m c_p - nu r - N_p z)/m spread %.2e, |A_p z - r'|/|r| "
             "%.2e, int c_p %.2e\n",
             nullspace ? "enclosed" : "outflow", nonlinear, ns->prec.pcd_ops.robin ? " (robin)" : "", dnorm, r1, r2,
             ns->prec.pcd_ops.robin ? emax : sp, lap, integral);
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

/* ---- linear.factorisation: P = lower (L D), upper (D U), full (L D U), diagonal (D) ----
 * All four on one assembled system (the type switched in the problem's parameters; the
 * problem made with full, so the work vector of upper and full exists), exact velocity
 * solves, S~ = m / nu. For c = P^-1 d:
 *  - velocity rows: A c_u (+ B c_p for upper and full) = d_u,v to 1e-10 |d| (A: block
 *    Gauss-Seidel with Newton);
 *  - pressure row: (BT c_u for lower) - (m / nu) c_p - d_p = 0 (+ (m / nu) kappa with the
 *    null space, kappa one constant) for lower, upper, diagonal; full's c_p is lower's
 *    (its first two factors are lower's). */
/* y_f <- y_f + a x_f for the fields f = first..last */
static void add_blocks(const FeastVec *x, int first, int last, double a, FeastVec *y) {
  for (int f = first; f <= last; f++) {
    FeastVec xf, yf;
    feast_vec_view(x, f, &xf);
    feast_vec_view(y, f, &yf);
    feast_vec_axpy(a, &xf, &yf);
  }
}

static int has_upper_factor(NsFactorisation t) { return t == NS_FACTORISATION_UPPER || t == NS_FACTORISATION_FULL; }

/* max |r| and the spread of r nu / m, r = (BT c_u if coupled) - (m / nu) c_p - d_p */
static void pressure_row(NsProblem *ns, const FeastVec *kc, int coupled, const FeastVec *d, const FeastVec *x,
                         double *rmax, double *spread) {
  const double nu = ns_viscosity(ns);
  double l[3] = {0.0, -HUGE_VAL, -HUGE_VAL}, g[3];
  for (int li = 0; li < ns->dom->nlocal; li++) {
    const double *btc = feast_vec_block(kc, NS_P, li), *cp = feast_vec_block(x, NS_P, li);
    const double *dp = feast_vec_block(d, NS_P, li), *m = ns->sys.mass->host[li];
    for (long i = 0; i < (long)x->N * x->N; i++) {
      const double r = (coupled ? btc[i] : 0.0) - m[i] / nu * cp[i] - dp[i];
      l[0] = fmax(l[0], fabs(r)), l[1] = fmax(l[1], -r * nu / m[i]), l[2] = fmax(l[2], r * nu / m[i]);
    }
  }
  MPI_Allreduce(l, g, 3, MPI_DOUBLE, MPI_MAX, ns->dom->comm);
  *rmax = g[0], *spread = g[1] + g[2];
}

static void check_factorisations(const char *fmt, const char *nonlinear) {
  char text[1024];
  snprintf(text, sizeof text, fmt, nonlinear, "mass", "full");
  NsCase c;
  if (ns_case_create(MESH, LEVEL, text, 0, MPI_COMM_WORLD, &c)) {
    CHECK(0);
    return;
  }
  NsProblem *ns = c.ns;
  const int nullspace = ns_pressure_nullspace(ns);
  FeastVec *d = NULL, *x[NS_FACTORISATION_NCHOICES] = {NULL}, *tmp = NULL, *kc = NULL, *kp = NULL;
  CHECK_OK(feast_vec_create(c.dom, ns->level, NS_NFIELDS, &d));
  CHECK_OK(feast_vec_create(c.dom, ns->level, NS_NFIELDS, &tmp));
  CHECK_OK(feast_vec_create(c.dom, ns->level, NS_NFIELDS, &kc));
  CHECK_OK(feast_vec_create(c.dom, ns->level, NS_NFIELDS, &kp));
  const double dnorm = linearise_at_hash(ns, d);
  for (int t = 0; t < NS_FACTORISATION_NCHOICES; t++) {
    CHECK_OK(feast_vec_create(c.dom, ns->level, NS_NFIELDS, &x[t]));
    ns->params.linear.factorisation = (NsFactorisation)t;
    CHECK_OK(ns->prec.op.apply(ns->prec.op.ctx, d, x[t]));
  }
  for (int t = 0; t < NS_FACTORISATION_NCHOICES; t++) {
    /* kc <- the lower block triangle of K times (c_u, c_v): (A11 c_u, A21 c_u + A22 c_v,
     * BT1 c_u + BT2 c_v) (A12 c_v left out: Newton's A is block Gauss-Seidel) */
    apply_column(ns, x[t], NS_U, tmp, kc);
    apply_column(ns, x[t], NS_V, tmp, kp);
    add_blocks(kp, NS_V, NS_P, 1.0, kc);
    /* + B c_p in the velocity rows for upper and full; - d in the velocity rows */
    apply_column(ns, x[t], NS_P, tmp, kp);
    if (has_upper_factor((NsFactorisation)t)) add_blocks(kp, NS_U, NS_V, 1.0, kc);
    add_blocks(d, NS_U, NS_V, -1.0, kc);
    const double r1 = block_norm(kc, NS_U), r2 = block_norm(kc, NS_V);
    CHECK(r1 <= 1e-10 * dnorm && r2 <= 1e-10 * dnorm);
    double rmax = 0.0, spread = 0.0, pdiff = 0.0;
    if (t == NS_FACTORISATION_FULL) {
      pdiff = ns_max_diff(x[t], x[NS_FACTORISATION_LOWER], NS_P) / block_norm(x[NS_FACTORISATION_LOWER], NS_P);
      CHECK(pdiff <= 1e-10);
    } else {
      pressure_row(ns, kc, t == NS_FACTORISATION_LOWER, d, x[t], &rmax, &spread);
      CHECK(nullspace ? spread <= 1e-10 * dnorm : rmax <= 1e-12 * dnorm);
    }
    if (feast_test_rank() == 0)
      printf("%-8s %-11s %-8s: |d| %.3e, velocity rows %.2e %.2e, pressure row max %.2e spread %.2e, c_p - lower's "
             "%.2e\n",
             nullspace ? "enclosed" : "outflow", nonlinear, ns_factorisation_name((NsFactorisation)t), dnorm, r1, r2,
             rmax, spread, pdiff);
  }
  for (int t = 0; t < NS_FACTORISATION_NCHOICES; t++) feast_vec_destroy(&x[t]);
  feast_vec_destroy(&d);
  feast_vec_destroy(&tmp);
  feast_vec_destroy(&kc);
  feast_vec_destroy(&kp);
  ns_case_destroy(&c);
}

/* every factorisation solves the cavity (Re 100, level 3, FGMRES, inexact velocity solves)
 * to the same solution: velocities within 1e-6 of lower's (nonlinear rtol 1e-10) */
static const char *cavity = "[problem]\nre = 100\n"
                            "[boundary.bottom]\nu = 0\nv = 0\n[boundary.top]\nu = 1\nv = 0\n"
                            "[boundary.left]\nu = 0\nv = 0\npriority = 1\n[boundary.right]\nu = 0\nv = 0\npriority = 1\n"
                            "[nonlinear]\nmethod = %s\nrtol = 1e-10\n"
                            "[linear]\nschur = mass\nkrylov = fgmres\nfactorisation = %s\n";

static void check_factorisation_solutions(const char *nonlinear) {
  NsCase c[NS_FACTORISATION_NCHOICES];
  for (int t = 0; t < NS_FACTORISATION_NCHOICES; t++) {
    char text[1024];
    snprintf(text, sizeof text, cavity, nonlinear, ns_factorisation_name((NsFactorisation)t));
    if (ns_case_create(MESH, LEVEL, text, 0, MPI_COMM_WORLD, &c[t])) {
      CHECK(0);
      return;
    }
    NsResult res;
    CHECK_OK(ns_solve(c[t].ns, &res));
    CHECK(res.converged);
    double du = 0.0, dv = 0.0;
    if (t > 0) {
      du = ns_max_diff(ns_solution(c[t].ns), ns_solution(c[0].ns), NS_U);
      dv = ns_max_diff(ns_solution(c[t].ns), ns_solution(c[0].ns), NS_V);
      CHECK(du <= 1e-6 && dv <= 1e-6);
    }
    if (feast_test_rank() == 0)
      printf("cavity %-11s %-8s: %d nonlinear steps, %ld Krylov iterations, |u - lower's| %.2e, |v - lower's| %.2e\n",
             nonlinear, ns_factorisation_name((NsFactorisation)t), res.nonlinear_iterations, res.linear_iterations, du,
             dv);
  }
  for (int t = 0; t < NS_FACTORISATION_NCHOICES; t++) ns_case_destroy(&c[t]);
}

/* the registry of Schur approximations: one entry per choice but auto, each with setup,
 * apply and destroy, and its names are linear.schur's allowed values */
static void check_schur_registry(void) {
  CHECK(ns_schur_approx(NS_SCHUR_AUTO) == NULL && ns_schur_approx(NS_SCHUR_NCHOICES) == NULL);
  char want[128] = "auto";
  for (int c = NS_SCHUR_AUTO + 1; c < NS_SCHUR_NCHOICES; c++) {
    const NsSchurApprox *s = ns_schur_approx((NsSchurChoice)c);
    CHECK(s && s->setup && s->apply && s->destroy);
    CHECK(s && strcmp(ns_schur_name((NsSchurChoice)c), s->name) == 0);
    strcat(want, "|");
    strcat(want, ns_schur_name((NsSchurChoice)c));
  }
  const FeastKeyTable *t = ns_config_keys();
  int found = 0;
  for (int k = 0; k < t->nkeys; k++)
    if (strcmp(t->keys[k].section, "linear") == 0 && strcmp(t->keys[k].key, "schur") == 0) {
      found = 1;
      CHECK(strcmp(t->keys[k].choices, want) == 0);
    }
  CHECK(found);
}

static int run(void) {
  check_schur_registry();
  check_case(outflow, "fixed-point", "mass");
  check_case(outflow, "newton", "mass");
  check_case(enclosed, "fixed-point", "mass");
  check_case(enclosed, "newton", "mass");
  check_case(outflow, "fixed-point", "pcd");
  check_case(outflow, "newton", "pcd");
  check_case(outflow_inflow_dirichlet, "fixed-point", "pcd");
  check_case(outflow_inflow_dirichlet, "newton", "pcd");
  check_case(enclosed, "fixed-point", "pcd");
  check_factorisations(outflow, "fixed-point");
  check_factorisations(outflow, "newton");
  check_factorisations(enclosed, "fixed-point");
  check_factorisations(enclosed, "newton");
  check_factorisation_solutions("fixed-point");
  check_factorisation_solutions("newton");
  return 0;
}

FEAST_TEST_MAIN(run)

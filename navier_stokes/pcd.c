/* The pressure convection-diffusion (PCD) approximation of the Schur complement
 * (linear.schur = pcd), for flows with an inflow (the DFG benchmark) and enclosed flows
 * (the cavity).
 *
 * The preconditioner's pressure step solves S c_p = r, r = BT c_u - d_p, with
 * S = BT A^-1 B - C. The default (linear.schur = mass) takes S^-1 ~ nu M_p^-1, which is
 * right when viscosity dominates and degrades with the cell Reynolds number: on the DFG
 * channel at Re = 20 BiCGStab then needs 100 iterations per step on coarse levels and
 * diverges at L = 5. PCD (Kay, Loghin & Wathen 2002; Elman, Silvester & Wathen, "Finite
 * Elements and Fast Iterative Solvers", 2nd ed., ch. 9) commutes the convection-diffusion
 * operator past the divergence: S ~ A_p F_p^-1 M_p, so
 *   S^-1 ~ M_p^-1 F_p A_p^-1 = nu M_p^-1 + M_p^-1 N_p A_p^-1      (F_p = nu A_p + N_p)
 * in the form of Blechta's FENaPack ("BRM1"): the viscous part is the mass preconditioner
 * of the paper unchanged, the correction needs one scalar Laplace solve and one matvec:
 *   A_p = (grad psi_b, grad psi_a), zero Dirichlet values on the inflow parts (Neumann
 *         elsewhere), solved by ScaRC like a velocity block (velocity.* tolerances);
 *         an enclosed flow (velocity given on every part, no pressure value: the cavity)
 *         has no inflow, and there A_p has Neumann conditions everywhere (Elman,
 *         Silvester & Wathen, ch. 9) and one node pinned to zero (the first vertex of
 *         the coarse mesh) so that ScaRC's coarse LU is regular. For a right-hand side of
 *         zero sum (projected so) the pinned solution is the Neumann one plus a constant,
 *         and N_p maps constants to zero: the pin changes nothing;
 *   N_p = (w . grad psi_b, psi_a), the Galerkin convection at the linearisation velocity;
 *   M_p the lumped pressure mass.
 * Q1/Q1 makes this cheap here: pressure and velocity live on the same grid, so A_p and
 * N_p are 9-band matrices of the same structure and A_p's solver is a scalar ScaRC.
 * The PSPG block C is left out of the approximation, as in the mass variant.
 * The rotation term of recirculating flows (stationary solves of an enclosed flow, where
 * A_p has Neumann conditions, and of an open flow with the Robin variant below, where A_p
 * is zero on the outflow: linear.pcd_rotation = sigma, 0.3 by default, 0 = off), and
 * the factor s of the viscous term (linear.pcd_viscous_scale, 1):
 *   S^-1 ~ s nu M_p^-1 + M_p^-1 N_p A_p^-1 [+ nu M_p^-1 + (sigma / nu) A_p^-1 M_rot A_p^-1],
 *   M_rot = (max(0, det grad w) psi_b, psi_a) lumped.
 * Where streamlines close (the cavity's vortices) N_p vanishes on pressures constant along
 * them, and PCD takes S ~ M_p / nu there; the Oseen operator of a flow rotating at rate Omega
 * acts on the velocity those pressures drive as nu k^2 + Omega J (J the rotation by 90
 * degrees: the convected basis turns), whose Schur complement has S^-1 = nu + Omega^2 / (nu k^2)
 * (Fourier, per mass) instead: S~^-1 S has eigenvalues down to 0.02 at Re = 400 and 0.003 at
 * Re = 1000 (graded cavity, L = 3), located at the vortex centre. det grad w = Omega^2 for a
 * solid-body rotation and 0 for a shear (the lid's boundary layer); the term is exact for
 * those pressures and too large for pressures that vary along the streamlines (Omega^2 /
 * (k^2 (nu k^2 + i Omega m)) there), hence sigma < 1: 0.3 measured best, with the viscous
 * term doubled (0.2 / 0.4 and 1.5 / 3 times it within ~5 %). Its A_p solve runs at most
 * ROTATION_CYCLES cycles: its right-hand side M_rot A_p^-1 r is rougher than r, and toward
 * pressure.rtol it took 8 cycles for no fewer iterations (docs/notes/schur-approximations.md,
 * "The plateau explained"). With an inflow and Kay-Loghin-Wathen's conditions
 * (inflow-dirichlet) it is off: the DFG channel took as many iterations, 1.4x the time (the
 * BRM1 form, 2026-11-2x). With the Robin variant it is on (issue #44, 2026-12-02): on the
 * step at Re = 400, level 2, Newton's S~^-1 S without it has eigenvalues of negative real
 * part (with it the real parts are >= 0.094), and at Re = 800 the step's Newton steps take
 * half the FGMRES iterations with it
 * (docs/notes/open-flows.md, "The rotation term in open flows").
 * Inflow parts are found from the data, not named: the parts whose Dirichlet velocity
 * flows into the domain (int u.n ds < 0 over the part's coarse edges, from the config's
 * expressions: the same decision on every rank, rank count and level; checked in the
 * input phase). */
#include "feast/base/error.h"
#include "feast/base/log.h"
#include "navier_stokes/ns_private.h"
#include <stdlib.h>
#include <string.h>

/* u.n ds of a part's expressions (eu, ev) over the straight boundary edge a -> b that has
 * the domain on its left (outward normal times length: (dy, -dx)), by Simpson's rule */
static int edge_flux(FeastExpr *eu, FeastExpr *ev, const double *a, const double *b, double *flux) {
  const double pts[3][2] = {{a[0], a[1]}, {0.5 * (a[0] + b[0]), 0.5 * (a[1] + b[1])}, {b[0], b[1]}};
  static const double w[3] = {1.0 / 6.0, 4.0 / 6.0, 1.0 / 6.0};
  for (int k = 0; k < 3; k++) {
    double u, v;
    FEAST_CALL(feast_expr_eval(eu, pts[k][0], pts[k][1], &u));
    FEAST_CALL(feast_expr_eval(ev, pts[k][0], pts[k][1], &v));
    *flux += w[k] * (u * (b[1] - a[1]) - v * (b[0] - a[0]));
  }
  return 0;
}

/* int u.n ds over part q of the coarse mesh (its edges as chords) at time t, from the
 * part's boundary values u, v; 0 when the part has no Dirichlet velocity */
static int part_flux(const NsParams *p, const FeastMesh *mesh, int q, double t, double *flux) {
  const NsBoundaryValues *bv = ns_params_part(p, mesh->parts[q].name);
  *flux = 0.0;
  if (!bv || !bv->u || !bv->v) return 0;
  char ku[128], kv[128];
  snprintf(ku, sizeof ku, "boundary.%s.u", mesh->parts[q].name);
  snprintf(kv, sizeof kv, "boundary.%s.v", mesh->parts[q].name);
  FeastExpr *eu = NULL, *ev = NULL;
  int st = feast_expr_create(bv->u, ku, &eu);
  if (!st) st = feast_expr_create(bv->v, kv, &ev);
  feast_expr_set_time(eu, t);
  feast_expr_set_time(ev, t);
  for (int e = 0; e < mesh->nedges && !st; e++) {
    if (mesh->edge_part[e] != q) continue;
    const int m = mesh->edge_macros[2 * e];
    for (int le = 0; le < 4; le++) /* the macro's local edge: counter-clockwise */
      if (mesh->macro_edges[4 * m + le] == e)
        st = edge_flux(eu, ev, &mesh->xy[2 * mesh->quads[4 * m + le]], &mesh->xy[2 * mesh->quads[4 * m + (le + 1) % 4]],
                       flux);
  }
  feast_expr_destroy(&eu);
  feast_expr_destroy(&ev);
  return st;
}

/* the inflow parts: a Dirichlet velocity with net inflow, int u.n ds < 0, at time.start
 * (default 0; where a stationary problem is solved); decided from the parameters and the
 * coarse mesh alone, so every rank, rank count and level agrees */
int ns_pcd_inflow_parts(const NsParams *p, const FeastMesh *mesh, unsigned char *inflow, int *count) {
  *count = 0;
  for (int q = 0; q < mesh->nparts; q++) {
    double flux;
    FEAST_CALL(part_flux(p, mesh, q, p->time.start, &flux));
    inflow[q] = flux < 0.0;
    *count += inflow[q];
  }
  return 0;
}

/* what convection_form assembles: the linearisation velocity w and, where tau_scale > 0,
 * the streamline diffusion of the velocity's SUPG terms (tau_scale x ns_tau, forms.h) */
typedef struct {
  const double *w[2];
  double nu, rate, tau_scale;
} ConvectionCtx;

/* N_p: A[0][a][b] += (w . grad psi_b, psi_a) [+ tau_s (w . grad psi_b, w . grad psi_a)] */
static void convection_form(const FeastQ1Cell *c, void *ctx, double (*A)[4][4], double (*b)[4]) {
  const ConvectionCtx *cc = ctx;
  const double *const *w = cc->w;
  (void)b;
  double tau = 0.0;
  if (cc->tau_scale > 0.0) {
    double wc[2] = {0.0, 0.0};
    for (int a = 0; a < 4; a++) wc[0] += 0.25 * w[0][c->node[a]], wc[1] += 0.25 * w[1][c->node[a]];
    tau = cc->tau_scale * ns_tau(c, wc, cc->nu, cc->rate);
  }
  for (int q = 0; q < c->nq; q++) {
    const FeastQ1Point *p = &c->q[q];
    double wq[2] = {0.0, 0.0};
    for (int a = 0; a < 4; a++) {
      wq[0] += w[0][c->node[a]] * p->phi[a];
      wq[1] += w[1][c->node[a]] * p->phi[a];
    }
    double conv[4];
    for (int k = 0; k < 4; k++) conv[k] = wq[0] * p->dphi[k][0] + wq[1] * p->dphi[k][1];
    for (int a = 0; a < 4; a++)
      for (int k = 0; k < 4; k++) A[0][a][k] += p->weight * (p->phi[a] + tau * conv[a]) * conv[k];
  }
}

/* M_rot: b[0][a] += (max(0, det grad w), psi_a), det grad w = Omega^2 in a solid-body
 * rotation, 0 in a shear, < 0 in a strain */
static void rotation_form(const FeastQ1Cell *c, void *ctx, double (*A)[4][4], double (*b)[4]) {
  const double *const *w = ctx;
  (void)A;
  for (int q = 0; q < c->nq; q++) {
    const FeastQ1Point *p = &c->q[q];
    double g[2][2] = {{0.0, 0.0}, {0.0, 0.0}}; /* g[i][j] = d_j w_i */
    for (int a = 0; a < 4; a++)
      for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) g[i][j] += w[i][c->node[a]] * p->dphi[a][j];
    const double det = g[0][0] * g[1][1] - g[0][1] * g[1][0];
    if (det > 0.0)
      for (int a = 0; a < 4; a++) b[0][a] += p->weight * det * p->phi[a];
  }
}

/* the inflow's Robin term of F_p: A[a][b] -= (w.n) psi_b psi_a ds (w.n < 0 on an inflow) */
static void robin_form(const FeastQ1EdgePoint *p, void *ctx, double A[2][2]) {
  const double *const *w = ctx;
  double wn = 0.0;
  for (int c = 0; c < 2; c++) wn += (w[0][p->node[c]] * p->normal[0] + w[1][p->node[c]] * p->normal[1]) * p->phi[c];
  for (int a = 0; a < 2; a++)
    for (int b = 0; b < 2; b++) A[a][b] -= p->weight * wn * p->phi[a] * p->phi[b];
}

/* N_p += the Robin term on the macro's edges that lie on an inflow part (ns->prec.pcd_ops.robin) */
static int add_robin(const NsProblem *ns, int li, const double *const *w) {
  const FeastMesh *mesh = ns->dom->mesh;
  const FeastLevel *lev = &ns->dom->levels[ns->level];
  const int m = ns->dom->local[li];
  for (int le = 0; le < 4; le++) {
    const int q = mesh->edge_part[mesh->macro_edges[4 * m + le]];
    if (q >= 0 && ns->prec.pcd_ops.robin[q])
      FEAST_CALL(feast_q1_assemble_edge(lev->N, lev->xy[li], le, robin_form, (void *)w, &ns->prec.pcd_ops.conv[li]));
  }
  return 0;
}

/* the parts where the velocity is free (a natural outflow) or the pressure given: where
 * A_p of a time step has zero Dirichlet values */
static void outflow_parts(const NsProblem *ns, unsigned char *flags, int *count) {
  *count = 0;
  for (int q = 0; q < ns->dom->mesh->nparts; q++) {
    flags[q] = !feast_bc_parts(ns->sys.bc[NS_U])[q] || !feast_bc_parts(ns->sys.bc[NS_V])[q] || feast_bc_parts(ns->sys.bc[NS_P])[q];
    *count += flags[q];
  }
}

/* a solver (pressure.solver) of A_p with zero Dirichlet values on the flagged parts (count of them),
 * or with Neumann conditions everywhere and one node pinned where none is flagged */
static int laplace_solver(NsProblem *ns, const unsigned char *parts, int count, const char *variant, FeastMask **mask,
                          NsInner **solver) {
  const FeastDomain *dom = ns->dom;
  FEAST_CALL(feast_mask_create(dom, parts, mask));
  if (count == 0) {
    FEAST_CALL(feast_mask_pin(dom, dom->mesh->quads[0], *mask));
    feast_log(2, "  A_p (%s) with Neumann conditions, pinned at vertex %d\n", variant, dom->mesh->quads[0]);
  }
  FEAST_CALL(ns_inner_create(ns->params.pressure.solver, "pressure", dom, ns->level, *mask, &ns->prec.pressure_scarc_params,
                             ns->prec.velocity_method, &ns->prec.pressure_sp, solver));
  return ns_inner_set_operator(*solver, ns->prec.pcd_ops.lap);
}

/* A_p and its solvers: the stationary variant (Dirichlet on the inflow, for PCD's
 * convection-diffusion commutator: Elman, Silvester & Wathen) where a stationary problem
 * is solved with linear.schur = pcd, the time-step variant (Dirichlet where the velocity
 * is free: B^T M^-1 B of the mass-dominated velocity block has its Dirichlet conditions at
 * the outflow; at DFG 2D-3, L = 4, the first steps take 93 instead of 779 linear
 * iterations with it, and at L = 3, t in [2, 2.5], 1601 instead of 5908) in a time run;
 * one pinned Neumann A_p serves both in an enclosed flow */
/* the Schur approximations' viscous part (see ns_private.h), mass and PCD alike */
void ns_schur_viscous(const NsProblem *ns, const FeastVec *y, FeastVec *r) {
  const double nu = ns->time.on ? ns->time.theta * ns->nu : ns->nu;
  feast_vec_scale_add_divide(nu, y, ns->sys.mass, r);
}

int ns_pcd_create(NsProblem *ns) {
  const FeastDomain *dom = ns->dom;
  const FeastLevel *lev = &dom->levels[ns->level];
  FEAST_CALL(FEAST_ALLOC(dom->nlocal + 1, &ns->prec.pcd_ops.lap));
  FEAST_CALL(FEAST_ALLOC(dom->nlocal + 1, &ns->prec.pcd_ops.conv));
  for (int li = 0; li < dom->nlocal; li++) {
    FEAST_CALL(feast_band9_create(lev->N, &ns->prec.pcd_ops.lap[li]));
    if (ns->prec.pcd) FEAST_CALL(feast_band9_create(lev->N, &ns->prec.pcd_ops.conv[li]));
    FEAST_CALL(feast_q1_assemble(lev->N, lev->xy[li], dom->local[li], feast_q1_form_laplace, NULL, 2,
                                 &ns->prec.pcd_ops.lap[li]));
  }
  FEAST_CALL(feast_vec_create(dom, ns->level, 1, &ns->prec.pcd_ops.r));
  FEAST_CALL(feast_vec_create(dom, ns->level, 1, &ns->prec.pcd_ops.z));
  FEAST_CALL(feast_vec_create(dom, ns->level, 1, &ns->prec.pcd_ops.y));
  const int stationary_start = ns->time_dependent && ns->params.time.initial_stationary;
  unsigned char *parts;
  int count, st = FEAST_ALLOC(dom->mesh->nparts + 1, &parts);
  if (!st && ns->prec.pcd && (!ns->time_dependent || stationary_start)) {
    st = ns_pcd_inflow_parts(&ns->params, dom->mesh, parts, &count);
    if (!st && count > 0 && !ns->params.linear.pcd_inflow_dirichlet) { /* Elman & Tuminaro */
      st = FEAST_ALLOC(dom->mesh->nparts + 1, &ns->prec.pcd_ops.robin);
      if (!st) memcpy(ns->prec.pcd_ops.robin, parts, (size_t)dom->mesh->nparts);
      if (!st) outflow_parts(ns, parts, &count);
    }
    if (!st) st = laplace_solver(ns, parts, count, "stationary", &ns->prec.pcd_ops.mask, &ns->prec.pcd_ops.solver);
    if (!st && ns->defaults.rotation) /* the rotation term: stationary solves */
      if (!(st = feast_vec_create(dom, ns->level, 1, &ns->prec.pcd_ops.rot)))
        st = feast_vec_create(dom, ns->level, 1, &ns->prec.pcd_ops.s);
  }
  if (!st && ns->time_dependent) {
    outflow_parts(ns, parts, &count);
    if (count == 0 && ns->prec.pcd_ops.solver) /* enclosed: the same pinned A_p */
      ns->prec.pcd_ops.time_solver = ns->prec.pcd_ops.solver, ns->prec.pcd_ops.time_mask = ns->prec.pcd_ops.mask;
    else
      st = laplace_solver(ns, parts, count, "time step", &ns->prec.pcd_ops.time_mask, &ns->prec.pcd_ops.time_solver);
  }
  free(parts);
  return st;
}

void ns_pcd_destroy(NsProblem *ns) {
  feast_vec_matrices_changed(ns->dom, ns->prec.pcd_ops.conv);
  for (int li = 0; ns->prec.pcd_ops.lap && li < ns->dom->nlocal; li++) feast_band9_destroy(&ns->prec.pcd_ops.lap[li]);
  for (int li = 0; ns->prec.pcd_ops.conv && li < ns->dom->nlocal; li++) feast_band9_destroy(&ns->prec.pcd_ops.conv[li]);
  feast_free(&ns->prec.pcd_ops.lap);
  feast_free(&ns->prec.pcd_ops.conv);
  feast_free(&ns->prec.pcd_ops.robin);
  feast_vec_destroy(&ns->prec.pcd_ops.r);
  feast_vec_destroy(&ns->prec.pcd_ops.z);
  feast_vec_destroy(&ns->prec.pcd_ops.y);
  feast_vec_destroy(&ns->prec.pcd_ops.rot);
  feast_vec_destroy(&ns->prec.pcd_ops.s);
  if (ns->prec.pcd_ops.time_solver == ns->prec.pcd_ops.solver) ns->prec.pcd_ops.time_solver = NULL, ns->prec.pcd_ops.time_mask = NULL;
  ns_inner_destroy(&ns->prec.pcd_ops.solver);
  ns_inner_destroy(&ns->prec.pcd_ops.time_solver);
  feast_mask_destroy(&ns->prec.pcd_ops.mask);
  feast_mask_destroy(&ns->prec.pcd_ops.time_mask);
}

/* 1 where the rotation term applies: stationary operators, and with the Robin variant not
 * in a pseudo-time step (measured there without it: docs/notes/open-flows.md, "The rotation
 * term in open flows") */
static int rotation_on(const NsProblem *ns) {
  return ns->prec.pcd_ops.rot && ns_stationary_operators(ns) && !(ns->prec.pcd_ops.robin && ns->time.on);
}

int ns_pcd_update(NsProblem *ns) {
  const FeastDomain *dom = ns->dom;
  const FeastLevel *lev = &dom->levels[ns->level];
  feast_vec_matrices_changed(dom, ns->prec.pcd_ops.conv);
  for (int li = 0; li < dom->nlocal; li++) {
    const double *w[2] = {feast_vec_block_read(ns->iter.v, NS_U, li), feast_vec_block_read(ns->iter.v, NS_V, li)};
    FeastBand9 *A[1] = {&ns->prec.pcd_ops.conv[li]};
    feast_band9_zero(A[0]);
    const double tau_scale = ns->params.linear.pcd_supg ? ns->params.stabilisation.supg_scale : 0.0;
    const ConvectionCtx cc = {{w[0], w[1]}, ns->nu, ns->time.tau_rate, tau_scale};
    FEAST_CALL(feast_q1_assemble_cells(lev->N, lev->xy[li], dom->local[li], convection_form, (void *)&cc, 3, 1, A, 0,
                                       NULL));
    if (ns->prec.pcd_ops.robin && ns_stationary_operators(ns)) FEAST_CALL(add_robin(ns, li, w));
    if (rotation_on(ns)) {
      double *rot[1] = {feast_vec_block(ns->prec.pcd_ops.rot, 0, li)};
      memset(rot[0], 0, sizeof(double) * lev->N * lev->N);
      FEAST_CALL(feast_q1_assemble_cells(lev->N, lev->xy[li], dom->local[li], rotation_form, (void *)w, 2, 0, NULL, 1,
                                         rot));
    }
  }
  return rotation_on(ns) ? feast_vec_sum(ns->prec.pcd_ops.rot) : 0;
}

/* x <- A_p^-1 b by solver (A_p with mask's conditions) in at most max_cycles cycles (0:
 * pressure.max_iterations), b (ns->prec.pcd_ops.r, overwritten) first made compatible: zero sum where
 * A_p is pinned (Neumann), zero on its Dirichlet nodes */
static int laplace_solve(NsProblem *ns, NsInner *solver, const FeastMask *mask, int max_cycles, FeastVec *x) {
  if (mask->pinned >= 0) FEAST_CALL(ns_zero_sum(ns, ns->prec.pcd_ops.r));
  feast_vec_zero_fixed(ns->prec.pcd_ops.r, 0, mask);
  FeastSolveResult res;
  return ns_inner_solve_capped(solver, max_cycles, ns->prec.pcd_ops.r, x, &res);
}

/* y <- theta N_p A_p^-1 r + mass M_p A_p^-1 r (r, y consistent one-block vectors) */
int ns_pcd_apply(NsProblem *ns, const FeastVec *r, FeastVec *y) {
  feast_vec_copy(r, ns->prec.pcd_ops.r);
  if (ns_stationary_operators(ns)) FEAST_CALL(laplace_solve(ns, ns->prec.pcd_ops.solver, ns->prec.pcd_ops.mask, 0, ns->prec.pcd_ops.z));
  else FEAST_CALL(laplace_solve(ns, ns->prec.pcd_ops.time_solver, ns->prec.pcd_ops.time_mask, 0, ns->prec.pcd_ops.z));
  if (ns->prec.pcd) {
    feast_vec_matvec(ns->prec.pcd_ops.conv, ns->prec.pcd_ops.z, y);
    FEAST_CALL(feast_vec_sum(y));
    if (ns->time.on && ns->time.theta != 1.0) feast_vec_scale(ns->time.theta, y);
  } else {
    feast_vec_zero(y);
  }
  if (ns->time.on) /* y += mass m z */
    feast_vec_pointwise_mult_add(ns->time.mass, ns->sys.mass, ns->prec.pcd_ops.z, y);
  return 0;
}

enum { ROTATION_CYCLES = 2, ROBIN_ROTATION_CYCLES = 1 };

/* s <- A_p^-1 M_rot z, z = A_p^-1 r of ns_pcd_apply or robin_rotation (in ns->prec.pcd_ops.z):
 * the rotation term, its solve capped at ROTATION_CYCLES */
static int rotation_solve(NsProblem *ns) {
  feast_vec_pointwise_mult(ns->prec.pcd_ops.rot, ns->prec.pcd_ops.z, ns->prec.pcd_ops.r);
  return laplace_solve(ns, ns->prec.pcd_ops.solver, ns->prec.pcd_ops.mask, ROTATION_CYCLES, ns->prec.pcd_ops.s);
}

/* the rotation term of the Robin variant: s <- A_p^-1 M_rot A_p^-1 r (ns->prec.pcd_ops.s), both
 * solves capped, the first at ROBIN_ROTATION_CYCLES (the step at Re = 800, L = 3 took 2808
 * FGMRES iterations with one cycle, 2774 with two and 2775 with pressure.rtol's solve) */
static int robin_rotation(NsProblem *ns, const FeastVec *r) {
  feast_vec_copy(r, ns->prec.pcd_ops.r);
  FEAST_CALL(laplace_solve(ns, ns->prec.pcd_ops.solver, ns->prec.pcd_ops.mask, ROBIN_ROTATION_CYCLES, ns->prec.pcd_ops.z));
  return rotation_solve(ns);
}

/* the Robin variant of a stationary solve with an inflow (Elman & Tuminaro; Blechta's BRM2,
 * the operators in the other order): S~^-1 r = s nu M_p^-1 r + A_p^-1 (N_p + R_in) M_p^-1 r,
 * A_p zero on the outflow, R_in the inflow's Robin term (in ns->prec.pcd_ops.conv), with the
 * rotation term [+ nu M_p^-1 r + (sigma / nu) A_p^-1 M_rot A_p^-1 r] (robin_rotation; not in
 * pseudo-time steps); in a pseudo-time step F_p has the mass term M_p / dt too, which adds
 * A_p^-1 r / dt */
static int robin_apply(NsProblem *ns, FeastVec *r) {
  const int rotation = rotation_on(ns);
  if (rotation) FEAST_CALL(robin_rotation(ns, r));
  feast_vec_pointwise_divide(r, ns->sys.mass, ns->prec.pcd_ops.y);
  feast_vec_matvec(ns->prec.pcd_ops.conv, ns->prec.pcd_ops.y, ns->prec.pcd_ops.r);
  FEAST_CALL(feast_vec_sum(ns->prec.pcd_ops.r));
  if (ns->time.on) feast_vec_axpy(ns->time.mass, r, ns->prec.pcd_ops.r); /* a pseudo-time step's mass M_p / dt */
  FEAST_CALL(laplace_solve(ns, ns->prec.pcd_ops.solver, ns->prec.pcd_ops.mask, 0, ns->prec.pcd_ops.z));
  const NsLinearParams *lp = &ns->params.linear;
  const double s = (lp->pcd_viscous_scale + (rotation ? 1.0 : 0.0)) * ns->nu;
  feast_vec_waxpy(s, ns->prec.pcd_ops.y, ns->prec.pcd_ops.z, r);
  if (rotation) feast_vec_axpy(lp->pcd_rotation / ns->nu, ns->prec.pcd_ops.s, r);
  return 0;
}

/* the registry's entry (schur.c): S~^-1 r = (s nu r + N_p A_p^-1 r) / m, with the rotation
 * term + nu r / m + (sigma / nu) A_p^-1 M_rot A_p^-1 r (s, sigma: linear.pcd_viscous_scale,
 * linear.pcd_rotation, stationary solves only), in a time step with theta and the
 * Cahouet-Chabard mass term (ns_pcd_apply) */
static int pcd_apply(NsProblem *ns, FeastVec *r) {
  const NsLinearParams *lp = &ns->params.linear;
  if (ns->prec.pcd_ops.robin && ns_stationary_operators(ns)) return robin_apply(ns, r);
  FEAST_CALL(ns_pcd_apply(ns, r, ns->prec.pcd_ops.y));
  const int rotation = rotation_on(ns); /* with the stationary A_p only */
  if (rotation) FEAST_CALL(rotation_solve(ns));
  const double s = lp->pcd_viscous_scale + (rotation ? 1.0 : 0.0);
  if (ns_stationary_operators(ns) && s != 1.0) feast_vec_scale(s, r);
  ns_schur_viscous(ns, ns->prec.pcd_ops.y, r);
  if (rotation) feast_vec_axpy(lp->pcd_rotation / ns->nu, ns->prec.pcd_ops.s, r);
  return 0;
}

const NsSchurApprox ns_schur_pcd = {"pcd", ns_pcd_create, ns_pcd_update, pcd_apply, ns_pcd_destroy};

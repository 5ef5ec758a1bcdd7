/* The pressure convection-diffusion (PCD) approximation of the Schur complement
 * (linear.schur = pcd), for flows with inflow and outflow such as the DFG benchmark.
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
 *   N_p = (w . grad psi_b, psi_a), the Galerkin convection at the linearisation velocity;
 *   M_p the lumped pressure mass.
 * Q1/Q1 makes this cheap here: pressure and velocity live on the same grid, so A_p and
 * N_p are 9-band matrices of the same structure and A_p's solver is a scalar ScaRC.
 * The PSPG block C is left out of the approximation (it is O(h^2) relative to S).
 * Inflow parts are found from the data, not named: the parts with Dirichlet velocity
 * through which the prescribed velocity flows in (int u.n ds < 0, summed per macro in
 * global macro order, so every rank and rank count decides alike). */
#include "feast/error.h"
#include "feast/log.h"
#include "navier_stokes/ns_private.h"
#include <stdlib.h>
#include <string.h>

/* int u.n ds over the boundary edges of every part, per local macro (flux[q*nlocal+li]):
 * local edge le runs counter-clockwise, the domain on its left, so the outward normal
 * times the length of a segment (dx, dy) is (dy, -dx); trapezoidal rule along it */
static void part_fluxes(const NsProblem *ns, double *flux) {
  const FeastDomain *dom = ns->dom;
  const FeastMesh *mesh = dom->mesh;
  const FeastLevel *lev = &dom->levels[ns->level];
  const int N = lev->N;
  for (int li = 0; li < dom->nlocal; li++) {
    const int m = dom->local[li];
    const double *u = feast_vec_block(ns->v, NS_U, li), *v = feast_vec_block(ns->v, NS_V, li), *xy = lev->xy[li];
    for (int le = 0; le < 4; le++) {
      const int q = mesh->edge_part[mesh->macro_edges[4 * m + le]];
      if (q < 0) continue;
      for (int k = 0; k + 1 < N; k++) {
        const long a = feast_edge_node(le, k, N), b = feast_edge_node(le, k + 1, N);
        const double dx = xy[2 * b] - xy[2 * a], dy = xy[2 * b + 1] - xy[2 * a + 1];
        flux[(long)q * dom->nlocal + li] += 0.5 * ((u[a] + u[b]) * dy - (v[a] + v[b]) * dx);
      }
    }
  }
}

/* the inflow parts: Dirichlet for both velocity components, net inflow */
static int inflow_parts(const NsProblem *ns, unsigned char *inflow, int *count) {
  const FeastDomain *dom = ns->dom;
  const int nparts = dom->mesh->nparts;
  double *flux, *sums;
  FEAST_CALL(FEAST_ALLOC((long)nparts * dom->nlocal + 1, &flux));
  FEAST_CALL(FEAST_ALLOC(nparts, &sums));
  part_fluxes(ns, flux);
  int st = feast_domain_sum_macros(dom, nparts, flux, sums);
  *count = 0;
  for (int q = 0; q < nparts && !st; q++) {
    inflow[q] = feast_bc_parts(ns->bc[NS_U])[q] && feast_bc_parts(ns->bc[NS_V])[q] && sums[q] < 0.0;
    *count += inflow[q];
  }
  free(flux);
  free(sums);
  return st;
}

/* N_p: A[0][a][b] += (w . grad psi_b, psi_a) */
static void convection_form(const FeastQ1Cell *c, void *ctx, double (*A)[4][4], double (*b)[4]) {
  const double *const *w = ctx;
  (void)b;
  for (int q = 0; q < c->nq; q++) {
    const FeastQ1Point *p = &c->q[q];
    double wq[2] = {0.0, 0.0};
    for (int a = 0; a < 4; a++) {
      wq[0] += w[0][c->node[a]] * p->phi[a];
      wq[1] += w[1][c->node[a]] * p->phi[a];
    }
    for (int a = 0; a < 4; a++)
      for (int k = 0; k < 4; k++) A[0][a][k] += p->weight * p->phi[a] * (wq[0] * p->dphi[k][0] + wq[1] * p->dphi[k][1]);
  }
}

int ns_pcd_create(NsProblem *ns) {
  const FeastDomain *dom = ns->dom;
  const FeastLevel *lev = &dom->levels[ns->level];
  const int nparts = dom->mesh->nparts;
  unsigned char *inflow;
  int count;
  FEAST_CALL(FEAST_ALLOC(nparts + 1, &inflow));
  int st = inflow_parts(ns, inflow, &count);
  char names[512];
  if (!st && count == 0)
    st = feast_error_set(FEAST_ERR_CONFIG, __FILE__, __LINE__,
                         "linear.schur = pcd (%s) needs an inflow: a part with Dirichlet velocity through which "
                         "the flow enters (parts of mesh %s: %s); use linear.schur = mass",
                         feast_config_origin(ns->cfg, "linear.schur"), dom->mesh->source,
                         feast_mesh_part_names(dom->mesh, names, sizeof names));
  if (!st) st = feast_mask_create(dom, inflow, &ns->pcd_mask);
  free(inflow);
  FEAST_CALL(st);
  FEAST_CALL(FEAST_ALLOC(dom->nlocal + 1, &ns->pcd_lap));
  FEAST_CALL(FEAST_ALLOC(dom->nlocal + 1, &ns->pcd_conv));
  for (int li = 0; li < dom->nlocal; li++) {
    FEAST_CALL(feast_band9_create(lev->N, &ns->pcd_lap[li]));
    FEAST_CALL(feast_band9_create(lev->N, &ns->pcd_conv[li]));
    FEAST_CALL(feast_q1_assemble(lev->N, lev->xy[li], dom->local[li], feast_q1_form_laplace, NULL, 2,
                                 &ns->pcd_lap[li]));
  }
  FEAST_CALL(feast_vec_create(dom, ns->level, 1, &ns->pcd_r));
  FEAST_CALL(feast_vec_create(dom, ns->level, 1, &ns->pcd_z));
  FEAST_CALL(feast_vec_create(dom, ns->level, 1, &ns->pcd_y));
  FEAST_CALL(scarc_create(dom, ns->pcd_mask, ns->scarc_params, &ns->pcd_scarc));
  return scarc_set_operator(ns->pcd_scarc, ns->pcd_lap);
}

void ns_pcd_destroy(NsProblem *ns) {
  for (int li = 0; ns->pcd_lap && li < ns->dom->nlocal; li++) feast_band9_destroy(&ns->pcd_lap[li]);
  for (int li = 0; ns->pcd_conv && li < ns->dom->nlocal; li++) feast_band9_destroy(&ns->pcd_conv[li]);
  feast_free(&ns->pcd_lap);
  feast_free(&ns->pcd_conv);
  feast_vec_destroy(&ns->pcd_r);
  feast_vec_destroy(&ns->pcd_z);
  feast_vec_destroy(&ns->pcd_y);
  scarc_destroy(&ns->pcd_scarc);
  feast_mask_destroy(&ns->pcd_mask);
}

int ns_pcd_update(NsProblem *ns) {
  const FeastDomain *dom = ns->dom;
  const FeastLevel *lev = &dom->levels[ns->level];
  for (int li = 0; li < dom->nlocal; li++) {
    const double *w[2] = {feast_vec_block(ns->v, NS_U, li), feast_vec_block(ns->v, NS_V, li)};
    FeastBand9 *A[1] = {&ns->pcd_conv[li]};
    feast_band9_zero(A[0]);
    FEAST_CALL(feast_q1_assemble_cells(lev->N, lev->xy[li], dom->local[li], convection_form, (void *)w, 2, 1, A, 0,
                                       NULL));
  }
  return 0;
}

/* y <- N_p A_p^-1 r (r, y consistent one-block vectors) */
int ns_pcd_apply(NsProblem *ns, const FeastVec *r, FeastVec *y) {
  feast_vec_copy(r, ns->pcd_r);
  feast_vec_zero_fixed(ns->pcd_r, 0, ns->pcd_mask);
  feast_vec_zero(ns->pcd_z);
  FeastSolveResult res;
  FEAST_CALL(scarc_solve(ns->pcd_scarc, ns->velocity_method, &ns->velocity_sp, ns->pcd_r, ns->pcd_z, &res));
  for (int li = 0; li < ns->dom->nlocal; li++) feast_band9_matvec(&ns->pcd_conv[li], ns->pcd_z->v[li], y->v[li]);
  return feast_vec_sum(y);
}

/* The block operator of the saddle-point system: assembly of all blocks in one pass,
 * the Dirichlet rows of each field, and the product y = K x. */
#include "feast/base/error.h"
#include "feast/base/log.h"
#include "navier_stokes/ns_private.h"
#include <stdlib.h>
#include <string.h>

/* the blocks of each row field, in column order u, v, p */
static const int row_blocks[NS_NFIELDS][NS_NFIELDS] = {
    {NS_A11, NS_A12, NS_B1}, {NS_A21, NS_A22, NS_B2}, {NS_BT1, NS_BT2, NS_C}};

const FeastBand9 *ns_system_block(const NsProblem *ns, int row, int col) {
  return ns->sys.blk[row_blocks[row][col]];
}

static int block_used(const NsProblem *ns, int k) { return ns->newton || (k != NS_A12 && k != NS_A21); }

/* A22 can be A11's storage on local macro li: without Newton's terms (the fixed point and
 * Stokes; nonlinear.method = auto starts Newton later, so never there) the form gives
 * both blocks the same values, and they get the same Dirichlet rows when the u and v
 * masks agree on the macro (fix_rows of v then rewrites A11's rows as they are) */
static int a22_can_share(const NsProblem *ns, int li) {
  const long n = (long)ns->dom->levels[ns->level].N * ns->dom->levels[ns->level].N;
  return !ns->newton &&
         memcmp(ns->sys.mask[NS_U]->fixed[ns->level][li], ns->sys.mask[NS_V]->fixed[ns->level][li], (size_t)n) == 0;
}

int ns_a22_shared(const NsProblem *ns, int li) {
  return ns->sys.blk[NS_A22] && ns->sys.blk[NS_A22][li].band[0] == ns->sys.blk[NS_A11][li].band[0];
}

static int create_system(NsProblem *ns) {
  const FeastDomain *dom = ns->dom;
  const FeastLevel *lev = &dom->levels[ns->level];
  for (int k = 0; k < NS_NBLOCKS; k++) {
    if (!block_used(ns, k)) continue;
    FEAST_CALL(FEAST_ALLOC(dom->nlocal + 1, &ns->sys.blk[k]));
    for (int li = 0; li < dom->nlocal; li++) {
      if (k == NS_A22 && a22_can_share(ns, li)) ns->sys.blk[k][li] = ns->sys.blk[NS_A11][li]; /* a view, not a copy */
      else FEAST_CALL(feast_band9_create(lev->N, &ns->sys.blk[k][li]));
    }
  }
  FeastVec **three[] = {&ns->sys.rhs, &ns->iter.v, &ns->iter.defect, &ns->iter.correction, &ns->iter.scratch, &ns->iter.v_old};
  for (size_t i = 0; i < sizeof three / sizeof three[0]; i++)
    FEAST_CALL(feast_vec_create(dom, ns->level, NS_NFIELDS, three[i]));
  FEAST_CALL(feast_vec_create(dom, ns->level, 1, &ns->sys.mass));
  FEAST_CALL(feast_vec_create(dom, ns->level, 1, &ns->sys.ones));
  for (int li = 0; li < dom->nlocal; li++)
    FEAST_CALL(feast_q1_lumped_mass(lev->N, lev->xy[li], dom->local[li], feast_vec_block(ns->sys.mass, 0, li)));
  feast_vec_set(ns->sys.ones, 1.0);
  FEAST_CALL(feast_vec_sum(ns->sys.mass));
  return ns_zero_start(ns, ns->iter.v); /* the first iterate */
}

int ns_zero_start(NsProblem *ns, FeastVec *v) {
  feast_vec_zero(v);
  return ns_boundary_values(ns, v);
}

/* field f of v <- its boundary values at its Dirichlet nodes */
static int field_boundary_values(NsProblem *ns, int f, FeastVec *v) {
  return feast_bc_values(ns->sys.bc[f], ns->dom, ns->sys.mask[f], feast_vec_blocks(v, f));
}

int ns_boundary_values(NsProblem *ns, FeastVec *v) {
  for (int f = 0; f < NS_NFIELDS; f++) FEAST_CALL(field_boundary_values(ns, f, v));
  return 0;
}

/* timed as assembly ("matrices and right-hand sides"): the blocks' and vectors' first
 * touch, the lumped mass (cavity L = 8 in a cold run: 0.65 s, in no timer before) */
int ns_system_create(NsProblem *ns) {
  feast_timer_start(FEAST_T_ASSEMBLY);
  const int st = create_system(ns);
  feast_timer_stop(FEAST_T_ASSEMBLY);
  return st;
}

/* the system's matrices changed (or go): products on a device copy them again */
static void matrices_changed(const NsProblem *ns) {
  for (int k = 0; k < NS_NBLOCKS; k++) {
    feast_vec_matrices_changed(ns->dom, ns->sys.blk[k]);
    feast_vec_matrices_changed(ns->dom, ns->sys.vblk[k]);
  }
}

void ns_system_destroy(NsProblem *ns) {
  matrices_changed(ns);
  for (int li = 0; ns->sys.blk[NS_A22] && li < ns->dom->nlocal; li++)
    if (ns_a22_shared(ns, li)) memset(&ns->sys.blk[NS_A22][li], 0, sizeof ns->sys.blk[NS_A22][li]); /* A11's */
  for (int k = 0; k < NS_NBLOCKS; k++) {
    for (int li = 0; ns->sys.blk[k] && li < ns->dom->nlocal; li++) feast_band9_destroy(&ns->sys.blk[k][li]);
    for (int li = 0; ns->sys.vblk[k] && li < ns->dom->nlocal; li++) feast_band9_destroy(&ns->sys.vblk[k][li]);
    feast_free(&ns->sys.blk[k]);
    feast_free(&ns->sys.vblk[k]);
  }
  for (int li = 0; ns->sys.viscous_cells && li < ns->dom->nlocal; li++) feast_free(&ns->sys.viscous_cells[li]);
  feast_free(&ns->sys.viscous_cells);
  FeastVec **vecs[] = {&ns->sys.rhs,      &ns->iter.v,          &ns->iter.defect,        &ns->iter.correction,        &ns->iter.scratch,      &ns->iter.v_old,
                       &ns->sys.mass,   &ns->sys.ones,       &ns->time.s,   &ns->time.r_old, &ns->time.u1, &ns->time.u2};
  for (size_t i = 0; i < sizeof vecs / sizeof vecs[0]; i++) feast_vec_destroy(vecs[i]);
}

/* Dirichlet rows of row field f on local macro li: identity (at the owning macro, so the
 * interface sum is the identity row) in the diagonal block, zero in the others */
static void fix_rows(NsProblem *ns, FeastBand9 *const *blk, int f, int li) {
  const unsigned char *fixed = ns->sys.mask[f]->fixed[ns->level][li];
  for (int col = 0; col < NS_NFIELDS; col++) {
    const int k = row_blocks[f][col];
    if (k == NS_A22 && blk == ns->sys.blk && ns_a22_shared(ns, li)) continue; /* A11's rows, fixed with u's mask */
    if (blk[k]) feast_band9_fix_rows(&blk[k][li], fixed, col == f ? ns->dom->levels[ns->level].owned[li] : NULL);
  }
}

NsForm ns_form_at(const NsProblem *ns, const FeastVec *w, int li) {
  NsForm form = ns_form_steady(ns->nu, ns->newton, NULL, NULL, ns->sys.force);
  form.stab = ns->params.stabilisation;
  if (!ns->stokes) {
    form.w1 = feast_vec_block_read(w, NS_U, li);
    form.w2 = feast_vec_block_read(w, NS_V, li);
    form.wp = feast_vec_block_read(w, NS_P, li);
  }
  form.tau_rate = ns->time.tau_rate; /* also where the time terms are off: r_old (0 for the stationary start) */
  if (ns->time.on) {
    form.theta = ns->time.theta;
    form.mass = ns->time.mass;
    form.s1 = feast_vec_block_read(ns->time.s, NS_U, li);
    form.s2 = feast_vec_block_read(ns->time.s, NS_V, li);
  }
  return form;
}

void ns_set_time(NsProblem *ns, double t) {
  for (int f = 0; f < NS_NFIELDS; f++) {
    feast_bc_set_time(ns->sys.bc[f], t);
    feast_expr_set_time(ns->sys.exact[f], t);
  }
  feast_expr_set_time(ns->sys.force[0], t);
  feast_expr_set_time(ns->sys.force[1], t);
}

/* y_u,v -= (1 - theta) r_old: the explicit part of a theta-step (time runs; nothing else) */
static void subtract_explicit_part(const NsProblem *ns, FeastVec *y) {
  if (!ns->time.on || ns->time.explicit_weight == 0.0) return;
  for (int f = NS_U; f <= NS_V; f++) {
    FeastVec yf, rf;
    feast_vec_view(y, f, &yf);
    feast_vec_view(ns->time.r_old, f, &rf);
    feast_vec_axpy(-ns->time.explicit_weight, &rf, &yf);
  }
}

int ns_velocity_blocks_apart(const NsProblem *ns) { return ns->newton && !ns->params.velocity.newton_reaction; }

/* the blocks of vblk, NsForm's matrices NS_V11, NS_V21, NS_V22 */
static const int velocity_blocks[3] = {NS_A11, NS_A21, NS_A22};

/* the blocks (those allocated), with ns_velocity_blocks_apart vblk's, and the right-hand
 * side h on local macro li at the linearisation w, in one pass over the cells */
static int assemble_macro(NsProblem *ns, const FeastVec *w, int li) {
  const FeastDomain *dom = ns->dom;
  const FeastLevel *lev = &dom->levels[ns->level];
  NsForm form = ns_form_at(ns, w, li);
  form.velocity_blocks = ns_velocity_blocks_apart(ns);
  FeastBand9 *A[NS_NMATRICES] = {NULL};
  for (int k = 0; k < NS_NBLOCKS; k++) /* A22 where it is A11's storage: A11's values, stored once */
    A[k] = ns->sys.blk[k] && !(k == NS_A22 && ns_a22_shared(ns, li)) ? &ns->sys.blk[k][li] : NULL;
  for (int i = 0; i < 3 && form.velocity_blocks; i++) A[NS_V11 + i] = &ns->sys.vblk[velocity_blocks[i]][li];
  if (ns_viscous_derivative_on(ns)) form.viscous_cells = ns->sys.viscous_cells[li];
  for (int k = 0; k < NS_NMATRICES; k++)
    if (A[k]) feast_band9_zero(A[k]);
  double *b[NS_NRHS];
  for (int r = 0; r < NS_NRHS; r++) {
    b[r] = feast_vec_block(ns->sys.rhs, r, li);
    memset(b[r], 0, sizeof(double) * lev->N * lev->N);
  }
  FEAST_CALL(feast_q1_assemble_cells(lev->N, lev->xy[li], dom->local[li], ns_form, &form, 3,
                                     form.velocity_blocks ? NS_NMATRICES : NS_NBLOCKS, A, NS_NRHS, b));
  return form.status;
}

/* Newton with velocity.newton_reaction = off: the preconditioner's velocity blocks A11, A21,
 * A22 of the Jacobian at w without the reaction term (u . grad) w (NsForm.velocity_blocks,
 * assembled with the system's blocks), with the system's Dirichlet rows. ScaRC's multigrid
 * does not converge on the reaction term (the cavity at Re = 1000, L = 6: 678-1000 FGMRES
 * iterations per Newton step with it, 133-168 without; docs/notes/ns-nonlinear.md,
 * "Newton's velocity blocks"). Created at the first Newton step */
static int create_velocity_blocks(NsProblem *ns) {
  const FeastDomain *dom = ns->dom;
  for (int i = 0; i < 3 && !ns->sys.vblk[velocity_blocks[i]]; i++) {
    FEAST_CALL(FEAST_ALLOC(dom->nlocal + 1, &ns->sys.vblk[velocity_blocks[i]]));
    for (int li = 0; li < dom->nlocal; li++)
      FEAST_CALL(feast_band9_create(dom->levels[ns->level].N, &ns->sys.vblk[velocity_blocks[i]][li]));
  }
  return 0;
}

int ns_viscous_derivative_on(const NsProblem *ns) {
  return ns->newton && !ns->stokes && ns->params.stabilisation.viscous_residual;
}

/* ns_viscous_derivative_on: the cells of every local macro, created at the first Newton step */
static int create_viscous_cells(NsProblem *ns) {
  const FeastDomain *dom = ns->dom;
  const long cells = (long)(dom->levels[ns->level].N - 1) * (dom->levels[ns->level].N - 1);
  if (ns->sys.viscous_cells) return 0;
  FEAST_CALL(FEAST_ALLOC(dom->nlocal + 1, &ns->sys.viscous_cells));
  for (int li = 0; li < dom->nlocal; li++) FEAST_CALL(FEAST_ALLOC(cells, &ns->sys.viscous_cells[li]));
  return 0;
}

int ns_system_assemble(NsProblem *ns, const FeastVec *w) {
  const FeastDomain *dom = ns->dom;
  feast_timer_start(FEAST_T_ASSEMBLY);
  matrices_changed(ns);
  const int apart = ns_velocity_blocks_apart(ns);
  int st = apart ? create_velocity_blocks(ns) : 0;
  if (!st && ns_viscous_derivative_on(ns)) st = create_viscous_cells(ns);
  for (int li = 0; li < dom->nlocal && !st; li++) st = assemble_macro(ns, w, li);
  if (!st) st = feast_vec_sum(ns->sys.rhs);
  if (!st) subtract_explicit_part(ns, ns->sys.rhs);
  for (int f = 0; f < NS_NFIELDS && !st; f++) {
    st = field_boundary_values(ns, f, ns->sys.rhs);
    for (int li = 0; li < dom->nlocal && !st; li++) fix_rows(ns, ns->sys.blk, f, li);
  }
  for (int f = NS_U; f <= NS_V && !st && apart; f++)
    for (int li = 0; li < dom->nlocal; li++) fix_rows(ns, ns->sys.vblk, f, li);
  feast_timer_stop(FEAST_T_ASSEMBLY);
  return st;
}

/* d <- h(w) - K(w) x without the matrices: the cells' residual vectors (ns_form_residual)
 * accumulated and summed over the interfaces, the time step's explicit part, the
 * Dirichlet rows d_i = g_i - x_i (what the identity rows of the assembled K give,
 * bitwise), the constant pressure mode removed */
static int system_residual(NsProblem *ns, const FeastVec *w, const FeastVec *x, FeastVec *d) {
  const FeastDomain *dom = ns->dom;
  const FeastLevel *lev = &dom->levels[ns->level];
  const long n = (long)lev->N * lev->N;
  for (int li = 0; li < dom->nlocal; li++) {
    double *y[NS_NRHS];
    for (int r = 0; r < NS_NRHS; r++) {
      y[r] = feast_vec_block(d, r, li);
      memset(y[r], 0, sizeof(double) * n);
    }
    NsForm form = ns_form_at(ns, w, li);
    form.x1 = feast_vec_block_read(x, NS_U, li);
    form.x2 = feast_vec_block_read(x, NS_V, li);
    form.p = feast_vec_block_read(x, NS_P, li);
    FEAST_CALL(feast_q1_assemble_cells(lev->N, lev->xy[li], dom->local[li], ns_form_residual, &form, 3, 0, NULL,
                                       NS_NRHS, y));
    FEAST_CALL(form.status);
  }
  FEAST_CALL(feast_vec_sum(d));
  subtract_explicit_part(ns, d);
  for (int f = 0; f < NS_NFIELDS; f++) {
    FEAST_CALL(field_boundary_values(ns, f, d));
    feast_vec_sub_fixed(x, d, f, ns->sys.mask[f]);
  }
  return ns_project_residual(ns, d);
}

int ns_system_residual(NsProblem *ns, const FeastVec *w, const FeastVec *x, FeastVec *d) {
  feast_timer_start(FEAST_T_ASSEMBLY);
  const int st = system_residual(ns, w, x, d);
  feast_timer_stop(FEAST_T_ASSEMBLY);
  return st;
}

/* y <- K x, with_viscous: + L x, L the viscous residual's derivative (ns_jacobian_apply) */
static int apply(NsProblem *ns, const FeastVec *x, FeastVec *y, int with_viscous) {
  const FeastDomain *dom = ns->dom;
  FeastVec xc[NS_NFIELDS], yf;
  const FeastVec *cols[NS_NFIELDS];
  for (int col = 0; col < NS_NFIELDS; col++) feast_vec_view(x, col, &xc[col]), cols[col] = &xc[col];
  for (int f = 0; f < NS_NFIELDS; f++) {
    const FeastBand9 *row[NS_NFIELDS];
    for (int col = 0; col < NS_NFIELDS; col++) row[col] = ns->sys.blk[row_blocks[f][col]];
    feast_vec_view(y, f, &yf);
    feast_vec_matvec_row(NS_NFIELDS, row, cols, &yf);
  }
  for (int li = 0; li < dom->nlocal && with_viscous; li++) {
    const unsigned char *fixed[NS_NFIELDS];
    for (int f = 0; f < NS_NFIELDS; f++) fixed[f] = ns->sys.mask[f]->fixed[ns->level][li];
    ns_viscous_derivative_apply(x->N, ns->sys.viscous_cells[li], feast_vec_block_read(x, NS_U, li),
                                feast_vec_block_read(x, NS_V, li), fixed, feast_vec_block(y, NS_U, li),
                                feast_vec_block(y, NS_V, li), feast_vec_block(y, NS_P, li));
  }
  return feast_vec_sum(y);
}

int ns_system_apply(NsProblem *ns, const FeastVec *x, FeastVec *y) { return apply(ns, x, y, 0); }

int ns_jacobian_apply(NsProblem *ns, const FeastVec *x, FeastVec *y) {
  return apply(ns, x, y, ns_viscous_derivative_on(ns) && ns->sys.viscous_cells);
}

int ns_zero_sum(const NsProblem *ns, FeastVec *p) {
  double sum;
  FEAST_CALL(feast_vec_dot(p, ns->sys.ones, &sum));
  feast_vec_axpy(-sum / (double)ns->dom->levels[ns->level].nglobal, ns->sys.ones, p);
  return 0;
}

/* r_p <- r_p - mean(r_p): the continuity rows of the operator sum to zero on vectors that
 * vanish at the velocity Dirichlet nodes, so a consistent residual has no mean */
int ns_project_residual(const NsProblem *ns, FeastVec *r) {
  if (!ns->nullspace) return 0;
  FeastVec p;
  feast_vec_view(r, NS_P, &p);
  return ns_zero_sum(ns, &p);
}

/* p <- p - (int p) / |Omega|: with the lumped mass, sum_i m_i p_i = int p_h exactly */
int ns_project_solution(const NsProblem *ns, FeastVec *x) {
  if (!ns->nullspace) return 0;
  FeastVec p;
  feast_vec_view(x, NS_P, &p);
  const FeastVec *xs[2] = {&p, ns->sys.mass}, *ys[2] = {ns->sys.mass, ns->sys.ones};
  double d[2]; /* int p, |Omega| */
  FEAST_CALL(feast_vec_dots(2, xs, ys, d));
  feast_vec_axpy(-d[0] / d[1], ns->sys.ones, &p);
  return 0;
}

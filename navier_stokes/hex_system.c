/* The 3D flow solver's discrete system (navier_stokes/ns_hex.h): the blocks of the
 * linearised saddle-point system per local macro,
 *   K = [A 0 0 B1; 0 A 0 B2; 0 0 A B3; BT1 BT2 BT3 C]
 * (one convection-diffusion block A for the three velocity components: the fixed point's
 * linearisation couples them only through the pressure), the product K x on the free rows,
 * and the block preconditioner K_s = [A 0; BT -S~] of the FEAST paper:
 *   c_u = A^-1 d_u (one ScaRC V cycle per component), c_p = S~^-1 (BT c_u - d_p),
 *   S~^-1 = nu (M_p^L)^-1 (the lumped pressure mass), the pressure then at zero mean where it is free. */
#include "feast/base/error.h"
#include "feast/base/log.h"
#include "feast/fem/q1_hex.h"
#include "navier_stokes/hex_private.h"
#include <stdlib.h>
#include <string.h>

/* Gauss points per direction: 2. The Galerkin terms are exact with them on parallelepipeds (the convection
 * w.grad phi_b phi_a is cubic per direction), the SUPG ones (quartic) are not; against 3 (the 2D assembly's
 * order) the 3D cavity at Re = 100, level 4 gave the centre-line extrema to 8e-6 relative and the kinetic energy
 * to 1e-5, the assembly 3x faster (docs/notes/ns-3d.md) */
enum { HEX_ORDER = 2 };

/* the blocks' row field and column field: K[row][col] = blk[block_of[row][col]] (-1: zero) */
static const int block_of[NS_HEX_NFIELDS][NS_HEX_NFIELDS] = {{NS_HEX_A, -1, -1, NS_HEX_B1},
                                                            {-1, NS_HEX_A, -1, NS_HEX_B2},
                                                            {-1, -1, NS_HEX_A, NS_HEX_B3},
                                                            {NS_HEX_BT1, NS_HEX_BT2, NS_HEX_BT3, NS_HEX_C}};

int ns_hex_system_create(NsHex *ns) {
  const FeastDomain *dom = ns->dom;
  const FeastLevel *lev = &dom->levels[ns->level];
  for (int k = 0; k < NS_HEX_NBLOCKS; k++) {
    FEAST_CALL(FEAST_ALLOC(dom->nlocal + 1, &ns->blk[k]));
    for (int li = 0; li < dom->nlocal; li++) FEAST_CALL(feast_band_create(&feast_stencil_q1_3d, lev->N, &ns->blk[k][li]));
  }
  FeastVec **four[] = {&ns->rhs, &ns->x, &ns->d, &ns->c, &ns->x_old};
  for (size_t i = 0; i < sizeof four / sizeof four[0]; i++)
    FEAST_CALL(feast_vec_create(dom, ns->level, NS_HEX_NFIELDS, four[i]));
  FEAST_CALL(feast_vec_create(dom, ns->level, 1, &ns->mass));
  for (int li = 0; li < dom->nlocal; li++)
    FEAST_CALL(feast_q1_hex_lumped_mass(lev->N, lev->xy[li], dom->local[li], feast_vec_block(ns->mass, 0, li)));
  FEAST_CALL(feast_vec_sum(ns->mass));
  FEAST_CALL(feast_vec_create(dom, ns->level, 1, &ns->ones));
  feast_vec_set(ns->ones, 1.0);
  FEAST_CALL(feast_vec_dot(ns->ones, ns->mass, &ns->volume));
  return dom->nlocal ? feast_band_vec_alloc(&ns->blk[0][0], &ns->grid) : 0;
}

void ns_hex_system_destroy(NsHex *ns) {
  if (ns->grid) feast_band_vec_free(&ns->blk[0][0], &ns->grid); /* the shape of the blocks' grids */
  for (int k = 0; k < NS_HEX_NBLOCKS; k++) {
    for (int li = 0; ns->blk[k] && li < ns->dom->nlocal; li++) feast_band_destroy(&ns->blk[k][li]);
    feast_free(&ns->blk[k]);
  }
  FeastVec **vecs[] = {&ns->rhs, &ns->x, &ns->d, &ns->c, &ns->x_old, &ns->mass, &ns->ones};
  for (size_t i = 0; i < sizeof vecs / sizeof vecs[0]; i++) feast_vec_destroy(vecs[i]);
}

/* ---- assembly ---- */

/* the body force at a point (NsHexForce): the problem's expressions in x, y, z */
static int force_at(void *ctx, const double x[3], double f[3]) {
  FeastExpr *const *e = ctx;
  for (int d = 0; d < 3; d++) {
    f[d] = 0.0;
    if (e[d]) FEAST_CALL(feast_expr_eval3(e[d], x[0], x[1], x[2], &f[d]));
  }
  return 0;
}

static int assemble_macro(NsHex *ns, const FeastVec *x, int li) {
  const FeastDomain *dom = ns->dom;
  const FeastLevel *lev = &dom->levels[ns->level];
  NsHexForm form = {.nu = ns->nu, .stab = ns->params.stabilisation};
  if (!ns->stokes)
    for (int d = 0; d < 3; d++) form.w[d] = feast_vec_block_read(x, NS_HEX_U + d, li);
  const int forced = ns->force[0] || ns->force[1] || ns->force[2];
  form.force = forced ? force_at : NULL, form.force_ctx = ns->force;
  FeastBand *A[NS_HEX_NBLOCKS];
  for (int k = 0; k < NS_HEX_NBLOCKS; k++) {
    A[k] = &ns->blk[k][li];
    feast_band_zero(A[k]);
  }
  double *b[NS_HEX_NRHS];
  for (int f = 0; f < NS_HEX_NRHS; f++) b[f] = feast_vec_block(ns->rhs, f, li); /* F1 F2 F3 G: the fields' order */
  FEAST_CALL(feast_q1_hex_assemble_cells(lev->N, lev->xy[li], dom->local[li], ns_hex_form, &form, HEX_ORDER,
                                         NS_HEX_NBLOCKS, A, NS_HEX_NRHS, b));
  return form.status;
}

int ns_hex_assemble(NsHex *ns, const FeastVec *x) {
  feast_timer_start(FEAST_T_ASSEMBLY);
  feast_vec_zero(ns->rhs);
  int st = 0;
  for (int li = 0; li < ns->dom->nlocal && !st; li++) st = assemble_macro(ns, x, li);
  if (!st) st = feast_vec_sum(ns->rhs);
  feast_timer_stop(FEAST_T_ASSEMBLY);
  return st;
}

/* ---- the product ---- */

/* y += A x on one macro's grid (padded x; the work grid takes A x) */
static void apply_add(NsHex *ns, const FeastBand *A, const double *x, double *y) {
  feast_band_apply(A, x, ns->grid);
  const long n = feast_band_rows(A);
  for (long r = 0; r < n; r++) y[r] += ns->grid[r];
}

/* row field `row` of y <- the partial product of K's blocks in that row on macro li */
static void apply_row(NsHex *ns, int row, const FeastVec *x, FeastVec *y, int li) {
  double *yr = feast_vec_block(y, row, li);
  memset(yr, 0, sizeof(double) * (size_t)y->n);
  for (int col = 0; col < NS_HEX_NFIELDS; col++)
    if (block_of[row][col] >= 0) apply_add(ns, &ns->blk[block_of[row][col]][li], feast_vec_block_read(x, col, li), yr);
}

static void zero_fixed(NsHex *ns, FeastVec *v) {
  for (int f = 0; f < NS_HEX_NFIELDS; f++) feast_vec_zero_fixed(v, f, ns->mask[f]);
}

int ns_hex_apply(NsHex *ns, const FeastVec *x, FeastVec *y) {
  for (int li = 0; li < ns->dom->nlocal; li++)
    for (int row = 0; row < NS_HEX_NFIELDS; row++) apply_row(ns, row, x, y, li);
  FEAST_CALL(feast_vec_sum(y));
  zero_fixed(ns, y);
  return 0;
}

/* ---- the preconditioner ---- */

int ns_hex_preconditioner_update(NsHex *ns) {
  for (int d = 0; d < 3; d++)
    if (ns_hex_velocity_owner(ns, d)) FEAST_CALL(scarc_hex_set_operator(ns->velocity[d], ns->blk[NS_HEX_A]));
  return 0;
}

int ns_hex_project_pressure(NsHex *ns, FeastVec *v) {
  if (!ns->nullspace) return 0;
  FeastVec p;
  feast_vec_view(v, NS_HEX_P, &p);
  double pm; /* int p_h: with the lumped mass exactly */
  FEAST_CALL(feast_vec_dot(&p, ns->mass, &pm));
  feast_vec_axpy(-pm / ns->volume, ns->ones, &p);
  return 0;
}

int ns_hex_project_residual(NsHex *ns, FeastVec *r) {
  if (!ns->nullspace) return 0;
  FeastVec p;
  feast_vec_view(r, NS_HEX_P, &p);
  double sum;
  FEAST_CALL(feast_vec_dot(&p, ns->ones, &sum));
  feast_vec_axpy(-sum / (double)ns->dom->levels[ns->level].nglobal, ns->ones, &p);
  return 0;
}

/* c_p <- nu (M_p^L)^-1 (BT c_u - d_p), zero at fixed pressure nodes */
static int pressure_step(NsHex *ns, const FeastVec *d, FeastVec *c) {
  for (int li = 0; li < ns->dom->nlocal; li++) {
    double *cp = feast_vec_block(c, NS_HEX_P, li);
    memset(cp, 0, sizeof(double) * (size_t)c->n);
    for (int col = 0; col < 3; col++) apply_add(ns, &ns->blk[NS_HEX_BT1 + col][li], feast_vec_block_read(c, col, li), cp);
  }
  FeastVec cp;
  feast_vec_view(c, NS_HEX_P, &cp);
  FEAST_CALL(feast_vec_sum(&cp));
  for (int li = 0; li < ns->dom->nlocal; li++) {
    double *p = feast_vec_block(c, NS_HEX_P, li);
    const double *dp = feast_vec_block_read(d, NS_HEX_P, li), *m = feast_vec_block_read(ns->mass, 0, li);
    for (long r = 0; r < c->n; r++) p[r] = ns->nu * (p[r] - dp[r]) / m[r];
  }
  feast_vec_zero_fixed(c, NS_HEX_P, ns->mask[NS_HEX_P]);
  return ns_hex_project_pressure(ns, c);
}

int ns_hex_precondition(NsHex *ns, const FeastVec *d, FeastVec *c) {
  for (int f = 0; f < 3; f++) {
    FeastVec df, cf;
    feast_vec_view(d, f, &df);
    feast_vec_view(c, f, &cf);
    FEAST_CALL(scarc_hex_precondition(ns->velocity[f], &df, &cf));
    ns->vcycles++;
  }
  return pressure_step(ns, d, c);
}

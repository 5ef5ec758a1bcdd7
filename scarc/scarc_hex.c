/* Two-layer ScaRC on hexahedral macros (scarc/scarc_hex.h). Per level l from the coarse
 * level c up, one matrix per macro, M[l]: first the partial matrix (each macro's own
 * cells; the finest copied, the others P^T A P per macro, feast_band_galerkin: the sum
 * over macros of partial Galerkin products is the global one); above c its boundary rows
 * are then kept in the ring R[l] and M[l] made the consistent local matrix in place, with
 * identity rows at the fixed nodes, for the local multigrid on it (the partial product
 * is M[l]'s inside rows and R[l]'s boundary rows: they agree off the macro boundary); on
 * c M[l] gets identity rows and is factored whole (feast_direct_create_band). Dirichlet
 * nodes are masked: every operator result and every correction is zeroed there. */
#include "scarc/scarc_hex.h"
#include "coproc/hex_mg.h"
#include "feast/base/error.h"
#include "feast/base/log.h"
#include "feast/fem/transfer_hex.h"
#include "scarc/scarc_local.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  FeastBand *M;         /* per local macro: above the coarse level the consistent local
                           matrix (fixed rows identity), on it the partial one (the same) */
  FeastBandRing *R;     /* above the coarse level: the partial matrix's boundary rows
                           (but the fixed nodes', zeroed in every product) */
  FeastHexMG **mg;      /* above the coarse level: the local multigrids */
  double **root_w;      /* above the coarse level: sqrt(weight) per node (the symmetric Schwarz weights) */
  FeastVec *x, *b;      /* below the finest: the coarse-grid problem of the level above */
  FeastVec *d, *c, *q;  /* above the coarse level: the smoother's work vectors */
} HexLevel;

struct ScarcHex {
  const FeastDomain *dom;
  const FeastMask *mask;
  ScarcParams p;
  FeastLocalMGParams local;
  int coarse, finest, ready;
  HexLevel *lv;
  FeastDirect *coarse_solver;
  FeastKrylovWork *work;
};

static int create_matrices(const FeastDomain *dom, int level, FeastBand **A) {
  FEAST_CALL(FEAST_ALLOC(dom->nlocal + 1, A));
  for (int li = 0; li < dom->nlocal; li++)
    FEAST_CALL(feast_band_create(&feast_stencil_q1_3d, dom->levels[level].N, &(*A)[li]));
  return 0;
}

static void destroy_matrices(const FeastDomain *dom, FeastBand **A) {
  for (int li = 0; *A && li < dom->nlocal; li++) feast_band_destroy(&(*A)[li]);
  feast_free(A);
}

static int create_level(ScarcHex *s, int l) {
  const FeastDomain *dom = s->dom;
  HexLevel *lv = &s->lv[l];
  FEAST_CALL(create_matrices(dom, l, &lv->M));
  FeastVec **vecs[5];
  int n = 0;
  if (l < s->finest) vecs[n++] = &lv->x, vecs[n++] = &lv->b;
  if (l > s->coarse) {
    vecs[n++] = &lv->d, vecs[n++] = &lv->c, vecs[n++] = &lv->q;
    FEAST_CALL(FEAST_ALLOC(dom->nlocal + 1, &lv->R));
    for (int li = 0; li < dom->nlocal; li++)
      FEAST_CALL(feast_band_ring_create(&feast_stencil_q1_3d, dom->levels[l].N, s->mask->fixed[l][li], &lv->R[li]));
    FEAST_CALL(FEAST_ALLOC(dom->nlocal + 1, &lv->mg));
    FEAST_CALL(FEAST_ALLOC(dom->nlocal + 1, &lv->root_w));
    const FeastLevel *lev = &dom->levels[l];
    for (int li = 0; li < dom->nlocal; li++) {
      FEAST_CALL(FEAST_ALLOC(lev->nodes_per_macro, &lv->root_w[li]));
      for (long r = 0; r < lev->nodes_per_macro; r++) lv->root_w[li][r] = sqrt(lev->weight[li][r]);
    }
  }
  return feast_vec_create_set(dom, l, 1, n, vecs);
}

int scarc_hex_create(const FeastDomain *dom, const FeastMask *mask, const ScarcParams *p, ScarcHex **sp) {
  FEAST_CHECK(dom->mesh->dim == 3, FEAST_ERR_ARG, "scarc_hex_create: mesh %s is not of hexahedra", dom->mesh->source);
  FEAST_CHECK(mask && mask->finest == dom->finest && mask->nlocal == dom->nlocal, FEAST_ERR_ARG,
              "scarc_hex_create: the mask does not belong to the domain");
  ScarcHex *s;
  FEAST_CALL(FEAST_ALLOC(1, &s));
  *sp = s;
  s->dom = dom;
  s->mask = mask;
  s->p = *p;
  s->local = scarc_local_params(p);
  if (p->local_fixed_cycles <= 0) s->local.max_cycles = 1, s->local.rtol = 1e-300; /* a linear local solve */
  s->finest = dom->finest;
  s->coarse = scarc_choose_coarse(dom, p->coarse_max_dofs);
  FEAST_CALL(FEAST_ALLOC(s->finest + 1, &s->lv));
  for (int l = s->coarse; l <= s->finest; l++) FEAST_CALL(create_level(s, l)); /* the ring skips fixed nodes */
  return 0;
}

void scarc_hex_destroy(ScarcHex **sp) {
  ScarcHex *s = *sp;
  if (!s) return;
  const FeastDomain *dom = s->dom;
  for (int l = s->coarse; s->lv && l <= s->finest; l++) {
    HexLevel *lv = &s->lv[l];
    destroy_matrices(dom, &lv->M);
    for (int li = 0; lv->R && li < dom->nlocal; li++) feast_band_ring_destroy(&lv->R[li]);
    free(lv->R);
    for (int li = 0; lv->mg && li < dom->nlocal; li++) feast_hex_mg_destroy(&lv->mg[li]);
    for (int li = 0; lv->root_w && li < dom->nlocal; li++) free(lv->root_w[li]);
    free(lv->mg), free(lv->root_w);
    FeastVec **vecs[] = {&lv->x, &lv->b, &lv->d, &lv->c, &lv->q};
    for (size_t i = 0; i < sizeof vecs / sizeof *vecs; i++) feast_vec_destroy(vecs[i]);
  }
  free(s->lv);
  feast_direct_destroy(&s->coarse_solver);
  feast_krylov_work_destroy(&s->work);
  feast_free(sp);
}

/* level l above the coarse one, M[l] partial and the level below made from it: the ring
 * kept, M[l] made the consistent local matrices with identity rows at the fixed nodes,
 * their multigrids set up anew (a new operator) */
static int setup_local(ScarcHex *s, int l) {
  const FeastDomain *dom = s->dom;
  HexLevel *lv = &s->lv[l];
  for (int li = 0; li < dom->nlocal; li++) feast_band_ring_get(&lv->M[li], &lv->R[li]);
  FEAST_CALL(feast_band_make_consistent(dom, l, lv->M));
  const char *precision = scarc_precision_name(s->p.local_precision);
  for (int li = 0; li < dom->nlocal; li++) {
    feast_band_fix_rows(&lv->M[li], s->mask->fixed[l][li]);
    feast_hex_mg_destroy(&lv->mg[li]);
    const unsigned char *fixed[FEAST_MAX_LEVEL + 1];
    for (int k = 0; k <= l; k++) fixed[k] = s->mask->fixed[k][li];
    FEAST_CALL(feast_hex_mg_setup(&lv->M[li], l, fixed, precision, &s->local, &lv->mg[li]));
  }
  return 0;
}

static int set_operator(ScarcHex *s, const FeastBand *A) {
  const FeastDomain *dom = s->dom;
  if (A != s->lv[s->finest].M)
    for (int li = 0; li < dom->nlocal; li++) feast_band_copy(&A[li], &s->lv[s->finest].M[li]);
  for (int l = s->finest; l > s->coarse; l--) {
    for (int li = 0; li < dom->nlocal; li++)
      FEAST_CALL(feast_band_galerkin(&s->lv[l].M[li], NULL, NULL, &s->lv[l - 1].M[li]));
    FEAST_CALL(setup_local(s, l));
  }
  FeastBand *C = s->lv[s->coarse].M;
  for (int li = 0; li < dom->nlocal; li++) feast_band_fix_rows(&C[li], s->mask->fixed[s->coarse][li]);
  if (s->coarse_solver) return feast_direct_refresh_band(s->coarse_solver, C);
  return feast_direct_create_band(dom, s->coarse, C, s->p.coarse_solver, &s->coarse_solver);
}

int scarc_hex_set_operator(ScarcHex *s, const FeastBand *A) {
  feast_timer_start(FEAST_T_SOLVER_SETUP);
  const int st = set_operator(s, A);
  feast_timer_stop(FEAST_T_SOLVER_SETUP);
  s->ready = !st;
  return st;
}

int scarc_hex_operator_storage(ScarcHex *s, FeastBand **A) {
  FeastBand *M = s->lv[s->finest].M;
  for (int li = 0; s->ready && li < s->dom->nlocal; li++) feast_band_zero(&M[li]);
  s->ready = 0;
  *A = M;
  return 0;
}

int scarc_hex_coarse_level(const ScarcHex *s) { return s->coarse; }

/* y <- A x on level l, consistent, zero at the fixed nodes: per macro the partial
 * product (M's rows inside, the ring's on the boundary), summed */
static int matvec_level(ScarcHex *s, int l, const FeastVec *x, FeastVec *y) {
  const HexLevel *lv = &s->lv[l];
  for (int li = 0; li < x->nlocal; li++) {
    const double *xs = feast_vec_block_read(x, 0, li);
    double *ys = feast_vec_block(y, 0, li);
    feast_band_apply(&lv->M[li], xs, ys);
    if (lv->R) feast_band_ring_apply(&lv->R[li], xs, ys);
  }
  FEAST_CALL(feast_vec_sum(y));
  feast_vec_zero_fixed(y, 0, s->mask);
  return 0;
}

int scarc_hex_matvec(ScarcHex *s, const FeastVec *x, FeastVec *y) { return matvec_level(s, s->finest, x, y); }

/* the step along c: smoother_damping (FIXED), or (AUTO, ADAPTIVE) the one minimising
 * ||d - alpha A c||, in [0, 2 smoother_damping] (scarc/scarc.c's rule; then q = A c) */
static int step_length(ScarcHex *s, int l, double *alpha, int *have_q) {
  HexLevel *lv = &s->lv[l];
  *alpha = s->p.smoother_damping, *have_q = 0;
  if (s->p.smoother_step == SCARC_STEP_FIXED) return 0;
  FEAST_CALL(matvec_level(s, l, lv->c, lv->q));
  *have_q = 1;
  const FeastVec *xs[2] = {lv->d, lv->q}, *ys[2] = {lv->q, lv->q};
  double dots[2];
  FEAST_CALL(feast_vec_dots(2, xs, ys, dots));
  *alpha = scarc_adaptive_step(dots[0], dots[1], s->p.smoother_damping);
  return 0;
}

/* one additive Schwarz step: d = b - A x (b when x is zero); on every macro
 * c_m = w^1/2 MG_m(w^1/2 d_m); c = sum_m c_m; x += alpha c. *new_defect: 1 when d has
 * been updated to the defect after the step (d - alpha A c, from the step length's
 * product), so that the caller needs no matvec for it */
static int smooth(ScarcHex *s, int l, const FeastVec *b, FeastVec *x, int x_zero, int *new_defect) {
  HexLevel *lv = &s->lv[l];
  if (x_zero) {
    feast_vec_copy(b, lv->d);
  } else {
    FEAST_CALL(matvec_level(s, l, x, lv->d));
    feast_vec_aypx(-1.0, b, lv->d);
  }
  const long n = s->dom->levels[l].nodes_per_macro;
  feast_timer_start(FEAST_T_LOCAL_MG);
  int st = 0, nonfinite = 0;
  for (int li = 0; li < s->dom->nlocal && !st; li++) {
    const double *d = feast_vec_block_read(lv->d, 0, li), *w = lv->root_w[li];
    double *dw = feast_vec_block(lv->q, 0, li), *c = feast_vec_block(lv->c, 0, li);
    for (long r = 0; r < n; r++) dw[r] = w[r] * d[r];
    FeastLocalMGStats stats = {0};
    st = feast_hex_mg_solve(lv->mg[li], dw, c, &stats);
    nonfinite += stats.nonfinite;
    for (long r = 0; r < n; r++) c[r] *= w[r];
  }
  feast_timer_stop(FEAST_T_LOCAL_MG);
  FEAST_CALL(st);
  /* a local multigrid zeroes a non-finite result; the outer solver must still see it and
   * stop with reason "nan" (as in 2D) */
  if (nonfinite) feast_vec_mark_nan(lv->c);
  FEAST_CALL(feast_vec_sum(lv->c));
  feast_vec_zero_fixed(lv->c, 0, s->mask);
  double alpha;
  FEAST_CALL(step_length(s, l, &alpha, new_defect));
  feast_vec_axpy(alpha, lv->c, x);
  if (*new_defect) feast_vec_axpy(-alpha, lv->q, lv->d);
  return 0;
}

/* V cycle on level l for A x = b from x = 0 */
static int vcycle(ScarcHex *s, int l, const FeastVec *b, FeastVec *x) {
  if (l == s->coarse)
    return feast_direct_solve(s->coarse_solver, (double *const *)feast_vec_blocks_read(b, 0), feast_vec_blocks(x, 0));
  HexLevel *lv = &s->lv[l], *lc = &s->lv[l - 1];
  const int Nf = s->dom->levels[l].N, Nc = s->dom->levels[l - 1].N;
  feast_vec_zero(x);
  int have_defect = 0;
  for (int j = 0; j < s->p.mg_pre_smooth; j++) FEAST_CALL(smooth(s, l, b, x, j == 0, &have_defect));
  /* the defect, kept at each node's owner (partial), restricted and summed */
  if (!have_defect && s->p.mg_pre_smooth > 0) {
    FEAST_CALL(matvec_level(s, l, x, lv->d));
    feast_vec_aypx(-1.0, b, lv->d);
  } else if (!have_defect) {
    feast_vec_copy(b, lv->d);
  }
  feast_vec_to_partial(lv->d);
  for (int li = 0; li < s->dom->nlocal; li++)
    feast_hex_restrict(Nf, feast_vec_block_read(lv->d, 0, li), feast_vec_block(lc->b, 0, li));
  FEAST_CALL(feast_vec_sum(lc->b));
  feast_vec_zero_fixed(lc->b, 0, s->mask);
  FEAST_CALL(vcycle(s, l - 1, lc->b, lc->x));
  /* the correction prolongated macro by macro, each shared node's from its owner */
  for (int li = 0; li < s->dom->nlocal; li++)
    feast_hex_prolongate(Nc, feast_vec_block_read(lc->x, 0, li), feast_vec_block(lv->c, 0, li));
  feast_vec_to_partial(lv->c);
  FEAST_CALL(feast_vec_sum(lv->c));
  feast_vec_zero_fixed(lv->c, 0, s->mask);
  feast_vec_axpy(1.0, lv->c, x);
  for (int j = 0; j < s->p.mg_post_smooth; j++) FEAST_CALL(smooth(s, l, b, x, 0, &have_defect));
  return 0;
}

int scarc_hex_precondition(ScarcHex *s, const FeastVec *b, FeastVec *x) {
  FEAST_CHECK(s->ready, FEAST_ERR_ARG, "ScaRC (hexahedra): no operator set (scarc_hex_set_operator)");
  FEAST_CHECK(b->nb == 1 && x->nb == 1, FEAST_ERR_ARG, "ScaRC solves one field: pass a block view");
  return vcycle(s, s->finest, b, x);
}

static int apply_operator(void *ctx, const FeastVec *x, FeastVec *y) { return scarc_hex_matvec(ctx, x, y); }
static int apply_vcycle(void *ctx, const FeastVec *x, FeastVec *y) { return scarc_hex_precondition(ctx, x, y); }
FeastLinOp scarc_hex_operator(ScarcHex *s) { return (FeastLinOp){apply_operator, s}; }
FeastLinOp scarc_hex_preconditioner(ScarcHex *s) { return (FeastLinOp){apply_vcycle, s}; }

int scarc_hex_solve(ScarcHex *s, FeastKrylovMethod method, const FeastSolveParams *sp, const FeastVec *b, FeastVec *x,
                    FeastSolveResult *res) {
  if (!s->work) FEAST_CALL(feast_krylov_work_create(b, &s->work));
  return feast_krylov_solve(method, scarc_hex_operator(s), scarc_hex_preconditioner(s), b, x, sp, s->work, res);
}

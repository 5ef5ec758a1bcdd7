#include "scarc/scarc.h"
#include "scarc/scarc_local.h"
#include "coproc/coproc.h"
#include "feast/base/error.h"
#include "feast/parallel/exchange.h"
#include "feast/base/log.h"
#include "feast/fem/transfer.h"
#include "solvers/direct.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Above the coarse level the partial operator of a macro (Dirichlet rows
 * owner-identity) equals its consistent local matrix Ac except in the boundary ring, so
 * it is stored as Ac plus the ring R (one matrix per macro and level, not two); on the
 * coarse level, where no local solver needs Ac, as the full partial matrix A. */
typedef struct {
  FeastBand9 *A;               /* coarse level, per local macro: partial operator */
  FeastBand9 *Ac;              /* above it, per local macro: consistent local matrix */
  FeastBand9Ring *R;           /* above it, per local macro: the partial operator's ring rows */
  void *block;                 /* the storage of all macros' A or Ac (one block) */
  FeastVec *x[SCARC_MAX_RHS], *b[SCARC_MAX_RHS]; /* the coarse-grid problems of the level above,
                                  one per right-hand side of a cycle (create_level; the
                                  further ones at the first cycle with several) */
  FeastVec *d, *c, *q;         /* the smoother's work vectors (create_level) */
  FeastLocalSolver *local;     /* batch of local multigrids (levels above coarse) */
} ScarcLevel;

struct Scarc {
  const FeastDomain *dom;
  const FeastMask *mask;
  ScarcParams p;
  FeastLocalMGParams local;    /* the local multigrids' parameters (from p) */
  int coarse, finest, ready;
  ScarcLevel *lv;              /* index = level */
  unsigned char **nomask;      /* per local macro: zeros of the finest size (raw Galerkin products) */
  FeastBand9 *exported;        /* the finest partial matrices in full, made by scarc_matrices */
  void *exported_block;
  FeastDirect *coarse_solver;
  int nrhs_made;               /* right-hand sides the levels' x, b hold (1, then up to SCARC_MAX_RHS) */
  FeastKrylovWork *work[SCARC_MAX_RHS]; /* of scarc_solve(_many), made at their first call */
  ScarcStats stats;
};

void scarc_params_make_linear(ScarcParams *p, const char *why) {
  if (p->local_precision == SCARC_PRECISION_AUTO) {
    feast_log(1, "  local precision auto: double, as %s needs a linear preconditioner (single-precision local "
                 "solves are linear only to rounding: ibicgstab and pipebicgsafe then stagnate near 1e-5)\n", why);
    p->local_precision = SCARC_PRECISION_DOUBLE;
  }
  if (p->smoother_step != SCARC_STEP_FIXED) {
    feast_log(1, "  smoother step %s: fixed, as %s needs a linear preconditioner\n",
              p->smoother_step == SCARC_STEP_AUTO ? "auto" : "adaptive", why);
    p->smoother_step = SCARC_STEP_FIXED;
  }
  if (p->local_fixed_cycles == 0) {
    p->local_fixed_cycles = 2;
    feast_log(1, "  local fixed cycles 0: 2 local multigrid cycles per macro solve, as %s needs a linear "
                 "preconditioner\n", why);
  }
}

static const char *const target_names[] = {[SCARC_TARGET_CPU] = "cpu", [SCARC_TARGET_GPU] = "gpu"};
static const char *const precision_names[] = {[SCARC_PRECISION_AUTO] = "auto", [SCARC_PRECISION_DOUBLE] = "double",
                                              [SCARC_PRECISION_SINGLE] = "single"};
static const char *const step_names[] = {[SCARC_STEP_AUTO] = "auto", [SCARC_STEP_ADAPTIVE] = "adaptive",
                                         [SCARC_STEP_FIXED] = "fixed"};
static const char *const stabilisation_names[] = {[SCARC_STABILISATION_AUTO] = "auto",
                                                  [SCARC_STABILISATION_NONE] = "none",
                                                  [SCARC_STABILISATION_UPWIND] = "upwind"};
_Static_assert(sizeof target_names / sizeof *target_names == SCARC_TARGET_NCHOICES, "one name per choice");
_Static_assert(sizeof precision_names / sizeof *precision_names == SCARC_PRECISION_NCHOICES, "one name per choice");
_Static_assert(sizeof step_names / sizeof *step_names == SCARC_STEP_NCHOICES, "one name per choice");
_Static_assert(sizeof stabilisation_names / sizeof *stabilisation_names == SCARC_STABILISATION_NCHOICES,
               "one name per choice");
#define NAME_OF(table, i) ((unsigned)(i) < sizeof(table) / sizeof *(table) ? (table)[i] : "?")
const char *scarc_target_name(ScarcTarget t) { return NAME_OF(target_names, t); }
const char *scarc_precision_name(ScarcPrecision p) { return NAME_OF(precision_names, p); }
const char *scarc_step_name(ScarcSmootherStep s) { return NAME_OF(step_names, s); }
const char *scarc_stabilisation_name(ScarcCoarseStabilisation s) { return NAME_OF(stabilisation_names, s); }

FeastLocalMGParams scarc_local_params(const ScarcParams *p) {
  const int fixed = p->local_fixed_cycles > 0;
  return (FeastLocalMGParams){
      .pre_smooth = p->local_pre_smooth,
      .post_smooth = p->local_post_smooth,
      .jacobi_damping = p->local_jacobi_damping,
      .rtol = fixed ? 1e-300 : p->local_rtol,
      .max_cycles = fixed ? p->local_fixed_cycles : p->local_max_cycles,
      .coarse_max_dofs = p->local_coarse_max_dofs,
      .framed_min_nodes = p->local_framed_min_nodes,
      .gpu_min_nodes = p->local_gpu_min_nodes,
      .coarse_upwind = p->coarse_stabilisation == SCARC_STABILISATION_UPWIND, /* the global levels follow it too */
  };
}

int scarc_choose_coarse(const FeastDomain *dom, long max_dofs) {
  int c = 0;
  for (int l = 0; l <= dom->finest; l++)
    if (dom->levels[l].nglobal < max_dofs) c = l;
  return c;
}

/* where the raw partial matrix of level l and local macro li is built: Ac above the
 * coarse level (it becomes consistent in place), A on it; after build_level the level's
 * matrix (what the local hierarchies copy their insides from) */
static FeastBand9 *raw_storage(Scarc *s, int l, int li) {
  return l > s->coarse ? &s->lv[l].Ac[li] : &s->lv[l].A[li];
}

/* the storage of level l's matrices: the raw partial ones, later A or Ac (see ScarcLevel) */
static int create_level_matrices(Scarc *s, int l) {
  const FeastDomain *dom = s->dom;
  if (dom->nlocal)
    FEAST_CALL(feast_band9_create_batch(dom->nlocal, dom->levels[l].N, raw_storage(s, l, 0), &s->lv[l].block));
  return 0;
}

/* every level but the finest gets its matrix storage here; the finest one's is made by
 * scarc_operator_storage or the first scarc_set_operator (finest_storage) */
static int create_level(Scarc *s, int l) {
  const FeastDomain *dom = s->dom;
  ScarcLevel *lv = &s->lv[l];
  const int N = dom->levels[l].N;
  FEAST_CALL(FEAST_ALLOC(dom->nlocal + 1, l > s->coarse ? &lv->Ac : &lv->A));
  if (l < s->finest) FEAST_CALL(create_level_matrices(s, l));
  if (l > s->coarse) {
    FEAST_CALL(FEAST_ALLOC(dom->nlocal + 1, &lv->R));
    for (int li = 0; li < dom->nlocal; li++) FEAST_CALL(feast_band9_ring_create(N, &lv->R[li]));
  }
  /* x, b: the coarse-grid problem of the level above (none on the finest level, whose
   * V cycle works on the caller's vectors); d, c, q: the smoother's (none on the coarse
   * level, which is solved directly); one set in one block */
  FeastVec **vecs[5];
  int n = 0;
  if (l < s->finest) vecs[n++] = &lv->x[0], vecs[n++] = &lv->b[0];
  if (l > s->coarse) vecs[n++] = &lv->d, vecs[n++] = &lv->c, vecs[n++] = &lv->q;
  return feast_vec_create_set(dom, l, 1, n, vecs);
}

static int create(const FeastDomain *dom, const FeastMask *mask, const ScarcParams *p, Scarc **sp) {
  Scarc *s;
  FEAST_CALL(FEAST_ALLOC(1, &s));
  *sp = s;
  FEAST_CHECK(mask && mask->finest == dom->finest && mask->nlocal == dom->nlocal, FEAST_ERR_ARG,
              "scarc_create: the mask does not belong to the domain");
  s->dom = dom;
  s->mask = mask;
  s->p = *p;
  s->local = scarc_local_params(p);
  s->finest = dom->finest;
  s->coarse = scarc_choose_coarse(dom, p->coarse_max_dofs);
  FEAST_CALL(FEAST_ALLOC(s->finest + 1, &s->lv));
  for (int l = s->coarse; l <= s->finest; l++) FEAST_CALL(create_level(s, l));
  s->nrhs_made = 1;
  const long n = (long)dom->levels[s->finest].N * dom->levels[s->finest].N;
  FEAST_CALL(FEAST_ALLOC(dom->nlocal + 1, &s->nomask));
  for (int li = 0; li < dom->nlocal; li++) FEAST_CALL(FEAST_ALLOC(n, &s->nomask[li]));
  return 0;
}

/* timed as solver setup: its allocations fault in the memory the solver keeps */
int scarc_create(const FeastDomain *dom, const FeastMask *mask, const ScarcParams *p, Scarc **sp) {
  feast_timer_start(FEAST_T_SOLVER_SETUP);
  const int st = create(dom, mask, p, sp);
  feast_timer_stop(FEAST_T_SOLVER_SETUP);
  return st;
}

void scarc_destroy(Scarc **sp) {
  Scarc *s = *sp;
  if (!s) return;
  const FeastDomain *dom = s->dom;
  for (int l = s->coarse; s->lv && l <= s->finest; l++) {
    ScarcLevel *lv = &s->lv[l];
    feast_vec_matrices_changed(dom, lv->R ? (const void *)lv->R : lv->A);
    feast_free_coloured(lv->block);
    for (int li = 0; lv->R && li < dom->nlocal; li++) feast_band9_ring_destroy(&lv->R[li]);
    free(lv->A);
    free(lv->Ac);
    free(lv->R);
    for (int k = 0; k < SCARC_MAX_RHS; k++) feast_vec_destroy(&lv->x[k]), feast_vec_destroy(&lv->b[k]);
    FeastVec **vecs[] = {&lv->d, &lv->c, &lv->q};
    for (size_t i = 0; i < sizeof vecs / sizeof vecs[0]; i++) feast_vec_destroy(vecs[i]);
    feast_local_destroy(&lv->local);
  }
  for (int li = 0; s->nomask && li < dom->nlocal; li++) free(s->nomask[li]);
  free(s->nomask);
  feast_free_coloured(s->exported_block);
  free(s->exported);
  free(s->lv);
  feast_direct_destroy(&s->coarse_solver);
  for (int k = 0; k < SCARC_MAX_RHS; k++) feast_krylov_work_destroy(&s->work[k]);
  feast_free(sp);
}

/* Ac = restriction of the global matrix to the macro's nodes: the raw partial matrix
 * with the couplings among shared nodes (diagonal, links along shared edges) summed */
static int make_consistent(Scarc *s, int l) {
  const FeastDomain *dom = s->dom;
  const FeastLevel *lev = &dom->levels[l];
  FeastBand9 *Ac = s->lv[l].Ac;
  double **diag, **bands;
  FEAST_CALL(FEAST_ALLOC(dom->nlocal + 1, &diag));
  FEAST_CALL(FEAST_ALLOC(dom->nlocal * FEAST_NBANDS + 1, &bands));
  for (int li = 0; li < dom->nlocal; li++) {
    diag[li] = Ac[li].band[FEAST_BAND_DIAG];
    for (int k = 0; k < FEAST_NBANDS; k++) bands[li * FEAST_NBANDS + k] = Ac[li].band[k];
  }
  int st = feast_exchange_sum(lev->nodes, diag);
  if (!st) st = feast_exchange_sum(lev->links, bands);
  free(diag);
  free(bands);
  return st;
}

static void copy_values(const FeastBand9 *src, FeastBand9 *dst) {
  for (int k = 0; k < FEAST_NBANDS; k++) memcpy(dst->band[k], src->band[k], sizeof(double) * src->N * src->N);
}

/* level l from its raw partial matrices (in raw_storage on entry): above the coarse
 * level the raw ring rows are kept (then get their Dirichlet rows), the Galerkin product
 * gives the raw matrices of level l-1, the consistent local matrices are made in place;
 * on the coarse level A gets its Dirichlet rows */
static int build_level(Scarc *s, int l) {
  const FeastDomain *dom = s->dom;
  ScarcLevel *lv = &s->lv[l];
  for (int li = 0; li < dom->nlocal; li++) {
    FeastBand9 *raw = raw_storage(s, l, li);
    if (l == s->coarse) {
      feast_band9_fix_rows(raw, s->mask->fixed[l][li], dom->levels[l].owned[li]);
      continue;
    }
    feast_band9_ring_get(raw, &lv->R[li]);
    const FeastBand9Framed whole = {raw, {NULL}};
    FEAST_CALL(feast_band9_galerkin(&whole, s->nomask[li], s->nomask[li], raw_storage(s, l - 1, li)));
    if (s->local.coarse_upwind) feast_band9_upwind(raw_storage(s, l - 1, li));
    feast_band9_ring_fix_rows(&lv->R[li], s->mask->fixed[l][li], dom->levels[l].owned[li]);
  }
  if (l == s->coarse) return 0;
  FEAST_CALL(make_consistent(s, l));
  for (int li = 0; li < dom->nlocal; li++)
    feast_band9_fix_rows(&lv->Ac[li], s->mask->fixed[l][li], s->mask->fixed[l][li]);
  return 0;
}

/* The local multigrids of every level above the coarse one: created on the first call,
 * refreshed (values only) on later ones. Level k of the local hierarchy of level l
 * differs from the global level k only near the macro's edges (the local problem's
 * Dirichlet and interface rows): its inside is copied from the global matrix (the
 * consistent one, on the coarse level the partial one), only the frame is computed. */
static int setup_local_solvers(Scarc *s) {
  const FeastDomain *dom = s->dom;
  const long nl = s->finest + 1;
  FeastLocalProblem *probs;
  FEAST_CALL(FEAST_ALLOC(dom->nlocal + 1, &probs));
  const unsigned char **fixed;
  FEAST_CALL(FEAST_ALLOC(dom->nlocal * nl + 1, &fixed));
  const FeastBand9 **inside;
  FEAST_CALL(FEAST_ALLOC(dom->nlocal * nl + 1, &inside));
  int st = 0;
  for (int l = s->coarse + 1; l <= s->finest && !st; l++) {
    for (int li = 0; li < dom->nlocal; li++) {
      const unsigned char **f = fixed + li * nl;
      const FeastBand9 **in = inside + li * nl;
      for (int k = 0; k <= l; k++) f[k] = s->mask->fixed[k][li];
      for (int k = 0; k < l; k++) in[k] = k >= s->coarse ? raw_storage(s, k, li) : NULL;
      probs[li] = (FeastLocalProblem){l, &s->lv[l].Ac[li], f, in};
    }
    if (s->lv[l].local) {
      st = feast_local_update(s->lv[l].local, probs);
    } else {
      st = feast_local_create(scarc_target_name(s->p.target), scarc_precision_name(s->p.local_precision),
                              &s->lv[l].local);
      if (!st) st = feast_local_setup(s->lv[l].local, dom->nlocal, probs, &s->local);
    }
  }
  free(inside);
  free(fixed);
  free(probs);
  return st;
}

/* *A <- the finest level's matrices, made at the first call (zero: fresh pages) */
static int finest_storage(Scarc *s, FeastBand9 **A) {
  if (!s->lv[s->finest].block && s->dom->nlocal) FEAST_CALL(create_level_matrices(s, s->finest));
  *A = raw_storage(s, s->finest, 0);
  return 0;
}

int scarc_operator_storage(Scarc *s, FeastBand9 **A) {
  const int fresh = !s->lv[s->finest].block;
  FEAST_CALL(finest_storage(s, A));
  if (!fresh)
    for (int li = 0; li < s->dom->nlocal; li++) feast_band9_zero(&(*A)[li]);
  s->ready = 0;
  return 0;
}

static int set_operator(Scarc *s, const FeastBand9 *A) {
  FeastBand9 *own;
  FEAST_CALL(finest_storage(s, &own));
  if (A != own)
    for (int li = 0; li < s->dom->nlocal; li++) copy_values(&A[li], &own[li]);
  for (int l = s->finest; l >= s->coarse; l--) {
    FEAST_CALL(build_level(s, l));
    feast_vec_matrices_changed(s->dom, s->lv[l].R ? (const void *)s->lv[l].R : s->lv[l].A);
  }
  FEAST_CALL(setup_local_solvers(s));
  if (s->coarse_solver) return feast_direct_refresh(s->coarse_solver, s->lv[s->coarse].A);
  return feast_direct_create(s->dom, s->coarse, s->lv[s->coarse].A, s->p.coarse_solver, &s->coarse_solver);
}

int scarc_set_operator(Scarc *s, const FeastBand9 *A) {
  feast_timer_start(FEAST_T_SOLVER_SETUP);
  const int st = set_operator(s, A);
  feast_timer_stop(FEAST_T_SOLVER_SETUP);
  s->ready = !st;
  return st;
}

int scarc_coarse_level(const Scarc *s) { return s->coarse; }
const FeastBand9 *scarc_local_matrix(const Scarc *s, int level, int li) { return &s->lv[level].Ac[li]; }
int scarc_matrices(Scarc *s, const FeastBand9 **A) {
  FEAST_CHECK(s->ready, FEAST_ERR_ARG, "ScaRC: no operator set (scarc_set_operator)");
  const ScarcLevel *lv = &s->lv[s->finest];
  if (s->finest == s->coarse) {
    *A = lv->A;
    return 0;
  }
  const int n = s->dom->nlocal;
  if (!s->exported) {
    FEAST_CALL(FEAST_ALLOC(n + 1, &s->exported));
    if (n) FEAST_CALL(feast_band9_create_batch(n, s->dom->levels[s->finest].N, s->exported, &s->exported_block));
  }
  for (int li = 0; li < n; li++) {
    copy_values(&lv->Ac[li], &s->exported[li]);
    feast_band9_ring_put(&lv->R[li], &s->exported[li]);
  }
  *A = s->exported;
  return 0;
}
void scarc_stats(const Scarc *s, ScarcStats *st) {
  static const ScarcStats none;
  *st = s ? s->stats : none; /* NULL: no solver, no work */
}

/* y <- A x on the ring rows (interior = 0) or the others (1) of local macro li: the
 * partial operator of a level above the coarse one is Ac inside and R on the ring, on
 * the coarse level (the finest too for small problems) A */
static void matvec_rows(const ScarcLevel *lv, int li, const FeastVec *xv, FeastVec *yv, int interior) {
  const double *x = feast_vec_block_read(xv, 0, li);
  double *y = feast_vec_block(yv, 0, li);
  if (!lv->R) feast_band9_matvec_part(&lv->A[li], x, y, interior); /* the coarse level */
  else if (interior) feast_band9_matvec_part(&lv->Ac[li], x, y, 1);
  else feast_band9_ring_matvec(&lv->R[li], x, y);
}

/* y <- A x, partial (no interface sum) */
static void matvec_partial(const ScarcLevel *lv, const FeastVec *x, FeastVec *y) {
  feast_vec_matvec_ring(lv->R ? lv->Ac : lv->A, lv->R, x, y);
}

/* y <- A x (consistent). solver.overlap = on: the boundary rings first, the interface
 * exchange started, the macro interiors computed while the messages travel, then the
 * exchange finished (bitwise the same as off: the same rows, the same sums); device
 * vectors: the product and the sum on the device */
static int matvec_level(Scarc *s, int l, const FeastVec *x, FeastVec *y) {
  if (!s->p.overlap || x->device) {
    matvec_partial(&s->lv[l], x, y);
    return feast_vec_sum(y);
  }
  const ScarcLevel *lv = &s->lv[l];
  FeastExchange *ex = s->dom->levels[l].nodes;
  for (int li = 0; li < x->nlocal; li++) matvec_rows(lv, li, x, y, 0);
  FEAST_CALL(feast_exchange_begin(ex, feast_vec_blocks(y, 0)));
  for (int li = 0; li < x->nlocal; li++) matvec_rows(lv, li, x, y, 1);
  return feast_exchange_end(ex, feast_vec_blocks(y, 0));
}

int scarc_matvec(Scarc *s, const FeastVec *x, FeastVec *y) { return matvec_level(s, s->finest, x, y); }

/* Length of the additive Schwarz step. Exact or near-exact local solves overshoot at
 * nodes shared by several macros (each macro treats its neighbours' values as fixed),
 * so a fixed damping either wastes the smoother or lets it diverge on grids with
 * vertices of high multiplicity. The step minimises ||d - alpha A c|| (one more matvec
 * and one fused reduction), capped at 2 x damping, which makes the smoother
 * residual-decreasing on any grid. */
static int smoother_step(Scarc *s, int l, double *alpha) {
  ScarcLevel *lv = &s->lv[l];
  FEAST_CALL(matvec_level(s, l, lv->c, lv->q));
  if (s->p.smoother_step == SCARC_STEP_FIXED) {
    *alpha = s->p.smoother_damping;
    return 0;
  }
  const FeastVec *xs[2] = {lv->d, lv->q}, *ys[2] = {lv->q, lv->q};
  double dots[2];
  FEAST_CALL(feast_vec_dots(2, xs, ys, dots));
  *alpha = scarc_adaptive_step(dots[0], dots[1], s->p.smoother_damping);
  return 0;
}

/* c_m <- the local multigrid's solve of d_m on every macro, where the vectors are: in
 * host memory, or in device memory with a backend that solves there (the CUDA one under
 * solver.residency = device), or else staged to the host and back */
static int local_solve(ScarcLevel *lv, FeastLocalMGStats *st) {
  if (!lv->d->device || !feast_local_solves_on_device(lv->local))
    return feast_local_solve(lv->local, feast_vec_blocks_read(lv->d, 0), feast_vec_blocks(lv->c, 0), st);
  const double *d = feast_vec_device_read(lv->d);
  double *c = feast_vec_device_write(lv->c);
  if (!d || !c) return feast_device_status(lv->d->device);
  lv->d->device->counts.round_trips++; /* the solve returns after the device's work and status */
  return feast_local_solve_device(lv->local, d, c, st);
}

/* one additive Schwarz step: d = b - A x (b when x is zero); c_m = local MG(d_m) on every
 * macro; c = sum_m weight * c_m (average at shared nodes); x += alpha c. Leaves d (the
 * defect before the step) and q = A c consistent, so the caller gets the new defect
 * d - alpha q without another matvec. */
static int smooth(Scarc *s, int l, const FeastVec *b, FeastVec *x, int x_zero, double *alpha) {
  ScarcLevel *lv = &s->lv[l];
  if (x_zero) {
    feast_vec_copy(b, lv->d);
  } else {
    FEAST_CALL(matvec_level(s, l, x, lv->d));
    feast_vec_aypx(-1.0, b, lv->d);
  }
  feast_vec_zero_fixed(lv->d, 0, s->mask);
  FeastLocalMGStats st;
  /* T_loc: feast_local_solve returns after the backend's work has finished (the CUDA
   * backend synchronises its stream and copies the corrections back before it returns),
   * so this bracket holds finished device work; nothing is synchronised here */
  feast_timer_start(FEAST_T_LOCAL_MG);
  int rc = local_solve(lv, &st);
  feast_timer_stop(FEAST_T_LOCAL_MG);
  FEAST_CALL(rc);
  s->stats.local_solves += s->dom->nlocal;
  s->stats.local_cycles += st.cycles;
  s->stats.local_nonfinite += st.nonfinite;
  /* the backend zeroes a non-finite local result; the outer solver must still see it
   * and stop with reason "nan" rather than iterate on a silently damaged correction */
  if (st.nonfinite) feast_vec_mark_nan(lv->c);
  feast_vec_scale_weights(lv->c);
  FEAST_CALL(feast_vec_sum(lv->c));
  FEAST_CALL(smoother_step(s, l, alpha));
  feast_vec_axpy(*alpha, lv->c, x);
  return 0;
}

/* lv->d <- the partial defect b - A x, for the restriction. After a smoothing step it is
 * d - alpha q (consistent; zero at Dirichlet nodes, which restrict only to coarse
 * Dirichlet nodes), kept by the owner of each shared node; without one, b_partial -
 * (A x)_partial macro by macro. */
static void restriction_defect(Scarc *s, int l, const FeastVec *b, const FeastVec *x, int smoothed, double alpha) {
  ScarcLevel *lv = &s->lv[l];
  if (smoothed) {
    feast_vec_axpy(-alpha, lv->q, lv->d);
    feast_vec_to_partial(lv->d);
    return;
  }
  matvec_partial(lv, x, lv->d);
  feast_vec_copy(b, lv->c);
  feast_vec_to_partial(lv->c);
  feast_vec_aypx(-1.0, lv->c, lv->d);
}

/* the levels' coarse-grid vectors for nrhs right-hand sides (the further ones made at the
 * first cycle that needs them) */
static int make_rhs_vectors(Scarc *s, int nrhs) {
  for (int k = s->nrhs_made; k < nrhs; k++)
    for (int l = s->coarse; l < s->finest; l++) {
      FeastVec **vecs[2] = {&s->lv[l].x[k], &s->lv[l].b[k]};
      if (!s->lv[l].x[k]) FEAST_CALL(feast_vec_create_set(s->dom, l, 1, 2, vecs)); /* made here before a failure */
    }
  if (nrhs > s->nrhs_made) s->nrhs_made = nrhs;
  return 0;
}

/* V cycle on level l for A x_k = b_k, k < nrhs (b consistent); x_zero: x is zero on
 * entry. Each right-hand side gets the operations of a cycle of its own, one after the
 * other on each level (the smoother's work vectors are shared); the coarse grid solves
 * them together. */
static int vcycle(Scarc *s, int l, int nrhs, const FeastVec *const *b, FeastVec *const *x, int x_zero) {
  if (l == s->coarse) {
    double *const *bv[SCARC_MAX_RHS], *const *xv[SCARC_MAX_RHS];
    for (int k = 0; k < nrhs; k++) bv[k] = feast_vec_blocks(b[k], 0), xv[k] = feast_vec_blocks(x[k], 0);
    return feast_direct_solve_many(s->coarse_solver, nrhs, bv, xv);
  }
  ScarcLevel *lv = &s->lv[l], *lc = &s->lv[l - 1];
  for (int k = 0; k < nrhs; k++) {
    double alpha = 0;
    for (int j = 0; j < s->p.mg_pre_smooth; j++) FEAST_CALL(smooth(s, l, b[k], x[k], x_zero && j == 0, &alpha));
    restriction_defect(s, l, b[k], x[k], s->p.mg_pre_smooth > 0, alpha);
    FEAST_CALL(feast_vec_restrict(lv->d, lc->b[k]));
    FEAST_CALL(feast_vec_sum(lc->b[k]));
    feast_vec_zero_fixed(lc->b[k], 0, s->mask);
    feast_vec_zero(lc->x[k]);
  }
  FEAST_CALL(vcycle(s, l - 1, nrhs, (const FeastVec *const *)lc->b, lc->x, 1));
  for (int k = 0; k < nrhs; k++) {
    FEAST_CALL(feast_vec_prolongate(lc->x[k], lv->c));
    feast_vec_axpy(1.0, lv->c, x[k]);
    double alpha;
    for (int j = 0; j < s->p.mg_post_smooth; j++) FEAST_CALL(smooth(s, l, b[k], x[k], 0, &alpha));
  }
  return 0;
}

int scarc_precondition_many(Scarc *s, int nrhs, const FeastVec *const *b, FeastVec *const *x) {
  FEAST_CHECK(s->ready, FEAST_ERR_ARG, "ScaRC: no operator set (scarc_set_operator)");
  FEAST_CHECK(nrhs >= 1 && nrhs <= SCARC_MAX_RHS, FEAST_ERR_ARG, "ScaRC: %d right-hand sides (1..%d)", nrhs,
              SCARC_MAX_RHS);
  for (int k = 0; k < nrhs; k++) {
    FEAST_CHECK(b[k]->nb == 1 && x[k]->nb == 1, FEAST_ERR_ARG, "ScaRC solves one field: pass a block view");
    feast_vec_zero(x[k]);
  }
  FEAST_CALL(make_rhs_vectors(s, nrhs));
  s->stats.vcycles += nrhs;
  return vcycle(s, s->finest, nrhs, b, x, 1);
}

int scarc_precondition(Scarc *s, const FeastVec *b, FeastVec *x) { return scarc_precondition_many(s, 1, &b, &x); }

static int apply_operator(void *ctx, const FeastVec *x, FeastVec *y) { return scarc_matvec(ctx, x, y); }
static int apply_vcycle(void *ctx, const FeastVec *x, FeastVec *y) { return scarc_precondition(ctx, x, y); }
static int apply_vcycles(void *ctx, int n, const FeastVec *const *x, FeastVec *const *y) {
  return scarc_precondition_many(ctx, n, x, y);
}
FeastLinOp scarc_operator(Scarc *s) { return (FeastLinOp){apply_operator, s}; }
FeastLinOp scarc_preconditioner(Scarc *s) { return (FeastLinOp){apply_vcycle, s}; }

int scarc_solve(Scarc *s, FeastKrylovMethod method, const FeastSolveParams *sp, const FeastVec *b, FeastVec *x,
                FeastSolveResult *res) {
  if (!s->work[0]) FEAST_CALL(feast_krylov_work_create(b, &s->work[0]));
  return feast_krylov_solve(method, scarc_operator(s), scarc_preconditioner(s), b, x, sp,
                            s->work[0], res);
}

int scarc_solve_mg_many(Scarc *s, int n, const FeastSolveParams *sp, const FeastVec *const *b, FeastVec *const *x,
                        FeastSolveResult *res) {
  FEAST_CHECK(n >= 1 && n <= SCARC_MAX_RHS, FEAST_ERR_ARG, "ScaRC: %d systems (1..%d)", n, SCARC_MAX_RHS);
  for (int k = 0; k < n; k++)
    if (!s->work[k]) FEAST_CALL(feast_krylov_work_create(b[k], &s->work[k]));
  return feast_krylov_richardson_many(n, scarc_operator(s), (FeastLinOpMany){apply_vcycles, s}, b, x, sp, s->work,
                                      res);
}

const char *scarc_backends(void) { return feast_local_backends(); }
int scarc_target_available(const char *target) { return feast_local_available(target); }
const char *scarc_target_unavailable_reason(const char *target) {
  return feast_local_unavailable_reason(target);
}
const char *scarc_resolve_precision(const char *precision) {
  return feast_local_resolve_precision(precision);
}
const char *scarc_params_precision(const ScarcParams *p) {
  return feast_local_resolve_precision(scarc_precision_name(p->local_precision));
}

#include "scarc/scarc.h"
#include "feast/error.h"
#include "feast/log.h"
#include "feast/transfer.h"
#include "scarc/coarse.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  FeastBand9 *A;             /* per local macro: partial operator, Dirichlet rows owner-identity */
  FeastVec *x, *b, *d, *c, *q; /* work vectors of this level */
  FeastLocalSolver *local;   /* batch of local multigrids on levels 0..l (l > coarse) */
} ScarcLevel;

struct Scarc {
  const FeastDomain *dom;
  ScarcParams p;
  int coarse, finest;
  ScarcLevel *lv;            /* index = level */
  FeastBand9 **Ac;           /* Ac[li][l]: consistent local matrices, macro-major */
  const unsigned char ***fixed; /* fixed[li][l] */
  ScarcCoarse *coarse_solver;
  long local_solves, local_cycles, local_nonfinite;
};

int scarc_params_from_config(const FeastConfig *cfg, ScarcParams *p) {
  long v;
  const char *s;
  memset(p, 0, sizeof *p);
  FEAST_CALL(feast_config_get_int(cfg, "solver.mg_pre_smooth", &v));
  p->pre_smooth = (int)v;
  FEAST_CALL(feast_config_get_int(cfg, "solver.mg_post_smooth", &v));
  p->post_smooth = (int)v;
  FEAST_CALL(feast_config_get_real(cfg, "solver.smoother_damping", &p->damping));
  FEAST_CALL(feast_config_get_int(cfg, "solver.coarse_max_dofs", &p->coarse_max_dofs));
  FEAST_CALL(feast_config_get_string(cfg, "solver.target", &s));
  snprintf(p->target, sizeof p->target, "%s", s);
  FEAST_CALL(feast_config_get_string(cfg, "solver.local_precision", &s));
  snprintf(p->precision, sizeof p->precision, "%s", s);
  FEAST_CALL(feast_config_get_int(cfg, "solver.local_pre_smooth", &v));
  p->local.pre_smooth = (int)v;
  FEAST_CALL(feast_config_get_int(cfg, "solver.local_post_smooth", &v));
  p->local.post_smooth = (int)v;
  FEAST_CALL(feast_config_get_real(cfg, "solver.local_jacobi_damping", &p->local.jacobi_damping));
  FEAST_CALL(feast_config_get_real(cfg, "solver.local_rtol", &p->local.rtol));
  FEAST_CALL(feast_config_get_int(cfg, "solver.local_max_cycles", &v));
  p->local.max_cycles = (int)v;
  FEAST_CALL(feast_config_get_int(cfg, "solver.local_coarse_max_dofs", &v));
  p->local.coarse_max_dofs = (int)v;
  return 0;
}

/* the global coarse level: the finest level with fewer than coarse_max_dofs unknowns
 * (level 0 if even that is larger) */
static int choose_coarse(const FeastDomain *dom, long max_dofs) {
  int c = 0;
  for (int l = 0; l <= dom->finest; l++)
    if (dom->levels[l].nglobal < max_dofs) c = l;
  return c;
}

int scarc_create(const FeastDomain *dom, const ScarcParams *p, Scarc **sp) {
  Scarc *s;
  FEAST_CALL(FEAST_ALLOC(1, &s));
  *sp = s;
  s->dom = dom;
  s->p = *p;
  s->finest = dom->finest;
  s->coarse = choose_coarse(dom, p->coarse_max_dofs);
  FEAST_CALL(FEAST_ALLOC(s->finest + 1, &s->lv));
  for (int l = s->coarse; l <= s->finest; l++) {
    ScarcLevel *lv = &s->lv[l];
    FEAST_CALL(FEAST_ALLOC(dom->nlocal + 1, &lv->A));
    FEAST_CALL(feast_vec_create(dom, l, 1, &lv->x));
    FEAST_CALL(feast_vec_create(dom, l, 1, &lv->b));
    FEAST_CALL(feast_vec_create(dom, l, 1, &lv->d));
    FEAST_CALL(feast_vec_create(dom, l, 1, &lv->c));
    FEAST_CALL(feast_vec_create(dom, l, 1, &lv->q));
  }
  FEAST_CALL(FEAST_ALLOC(dom->nlocal + 1, &s->Ac));
  FEAST_CALL(FEAST_ALLOC(dom->nlocal + 1, &s->fixed));
  for (int li = 0; li < dom->nlocal; li++) {
    FEAST_CALL(FEAST_ALLOC(s->finest + 1, &s->Ac[li]));
    FEAST_CALL(FEAST_ALLOC(s->finest + 1, &s->fixed[li]));
    for (int l = 0; l <= s->finest; l++) s->fixed[li][l] = dom->levels[l].fixed[li];
  }
  return 0;
}

/* Dirichlet rows of the partial operator: zero, with 1 on the diagonal of the owning
 * macro only, so the interface sum is the identity row */
static void partial_dirichlet_rows(const FeastLevel *lev, int li, FeastBand9 *A) {
  const long n = (long)lev->N * lev->N;
  for (long i = 0; i < n; i++) {
    if (!lev->fixed[li][i]) continue;
    for (int k = 0; k < FEAST_NBANDS; k++) A->band[k][i] = 0.0;
    A->band[FEAST_BAND_DIAG][i] = lev->owned[li][i] ? 1.0 : 0.0;
  }
}

static void consistent_dirichlet_rows(const FeastLevel *lev, int li, FeastBand9 *A) {
  const long n = (long)lev->N * lev->N;
  for (long i = 0; i < n; i++) {
    if (!lev->fixed[li][i]) continue;
    for (int k = 0; k < FEAST_NBANDS; k++) A->band[k][i] = 0.0;
    A->band[FEAST_BAND_DIAG][i] = 1.0;
  }
}

/* Ac = restriction of the global matrix to the macro's nodes: the raw partial matrix
 * with the couplings among shared nodes (diagonal, links along shared edges) summed */
static int make_consistent(Scarc *s, int l) {
  const FeastDomain *dom = s->dom;
  const FeastLevel *lev = &dom->levels[l];
  double **diag, **bands;
  FEAST_CALL(FEAST_ALLOC(dom->nlocal + 1, &diag));
  FEAST_CALL(FEAST_ALLOC(dom->nlocal * FEAST_NBANDS + 1, &bands));
  for (int li = 0; li < dom->nlocal; li++) {
    diag[li] = s->Ac[li][l].band[FEAST_BAND_DIAG];
    for (int k = 0; k < FEAST_NBANDS; k++) bands[li * FEAST_NBANDS + k] = s->Ac[li][l].band[k];
  }
  int st = feast_exchange_sum(lev->nodes, diag);
  if (!st) st = feast_exchange_sum(lev->links, bands);
  free(diag);
  free(bands);
  return st;
}

static int assemble_level(Scarc *s, int l, ScarcAssembleFn assemble, void *ctx) {
  const FeastDomain *dom = s->dom;
  const FeastLevel *lev = &dom->levels[l];
  for (int li = 0; li < dom->nlocal; li++) {
    FeastBand9 *A = &s->Ac[li][l];
    feast_band9_destroy(A);
    FEAST_CALL(feast_band9_create(lev->N, A));
    FEAST_CALL(assemble(ctx, dom, l, li, A));
    if (l >= s->coarse) {
      feast_band9_destroy(&s->lv[l].A[li]);
      FEAST_CALL(feast_band9_copy(A, &s->lv[l].A[li]));
      partial_dirichlet_rows(lev, li, &s->lv[l].A[li]);
    }
  }
  FEAST_CALL(make_consistent(s, l));
  for (int li = 0; li < dom->nlocal; li++) consistent_dirichlet_rows(lev, li, &s->Ac[li][l]);
  return 0;
}

static int setup_local_solvers(Scarc *s) {
  const FeastDomain *dom = s->dom;
  FeastLocalProblem *probs;
  FEAST_CALL(FEAST_ALLOC(dom->nlocal + 1, &probs));
  int st = 0;
  for (int l = s->coarse + 1; l <= s->finest && !st; l++) {
    for (int li = 0; li < dom->nlocal; li++) {
      probs[li].level = l;
      probs[li].A = &s->Ac[li][l];
      probs[li].fixed = s->fixed[li];
    }
    feast_local_destroy(&s->lv[l].local);
    st = feast_local_create(s->p.target, s->p.precision, &s->lv[l].local);
    if (!st) st = feast_local_setup(s->lv[l].local, dom->nlocal, probs, &s->p.local);
  }
  free(probs);
  return st;
}

int scarc_set_operator(Scarc *s, ScarcAssembleFn assemble, void *ctx) {
  feast_timer_start(FEAST_T_ASSEMBLY);
  for (int l = 0; l <= s->finest; l++) FEAST_CALL(assemble_level(s, l, assemble, ctx));
  feast_timer_stop(FEAST_T_ASSEMBLY);
  feast_timer_start(FEAST_T_SOLVER_SETUP);
  int st = setup_local_solvers(s);
  scarc_coarse_destroy(&s->coarse_solver);
  if (!st) st = scarc_coarse_create(s->dom, s->coarse, s->lv[s->coarse].A, &s->coarse_solver);
  feast_timer_stop(FEAST_T_SOLVER_SETUP);
  return st;
}

void scarc_destroy(Scarc **sp) {
  Scarc *s = *sp;
  if (!s) return;
  const FeastDomain *dom = s->dom;
  for (int l = s->coarse; s->lv && l <= s->finest; l++) {
    ScarcLevel *lv = &s->lv[l];
    for (int li = 0; lv->A && li < dom->nlocal; li++) feast_band9_destroy(&lv->A[li]);
    free(lv->A);
    feast_vec_destroy(&lv->x);
    feast_vec_destroy(&lv->b);
    feast_vec_destroy(&lv->d);
    feast_vec_destroy(&lv->c);
    feast_vec_destroy(&lv->q);
    feast_local_destroy(&lv->local);
  }
  for (int li = 0; s->Ac && li < dom->nlocal; li++) {
    for (int l = 0; s->Ac[li] && l <= s->finest; l++) feast_band9_destroy(&s->Ac[li][l]);
    free(s->Ac[li]);
    if (s->fixed) free(s->fixed[li]);
  }
  free(s->Ac);
  free(s->fixed);
  free(s->lv);
  scarc_coarse_destroy(&s->coarse_solver);
  feast_free(sp);
}

int scarc_coarse_level(const Scarc *s) { return s->coarse; }
const FeastBand9 *scarc_local_matrix(const Scarc *s, int level, int li) { return &s->Ac[li][level]; }
const FeastBand9 *scarc_matrices(const Scarc *s, int level) { return s->lv[level].A; }

void scarc_local_stats(const Scarc *s, long *solves, long *cycles, long *nonfinite) {
  *solves = s->local_solves;
  *cycles = s->local_cycles;
  *nonfinite = s->local_nonfinite;
}

/* y <- A x, partial (no interface sum) */
static void matvec_partial(const ScarcLevel *lv, const FeastVec *x, FeastVec *y) {
  for (int li = 0; li < x->nlocal; li++) feast_band9_matvec(&lv->A[li], x->v[li], y->v[li]);
}

static int matvec_level(Scarc *s, int l, const FeastVec *x, FeastVec *y) {
  matvec_partial(&s->lv[l], x, y);
  return feast_vec_sum(y);
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
  const FeastVec *xs[2] = {lv->d, lv->q}, *ys[2] = {lv->q, lv->q};
  double dots[2];
  FEAST_CALL(feast_vec_dots(2, xs, ys, dots));
  *alpha = dots[1] > 0 ? dots[0] / dots[1] : s->p.damping;
  if (!(*alpha > 0)) *alpha = 0.0;
  if (*alpha > 2.0 * s->p.damping) *alpha = 2.0 * s->p.damping;
  return 0;
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
  feast_vec_zero_fixed(lv->d, 0);
  FeastLocalMGStats st;
  feast_timer_start(FEAST_T_LOCAL_MG);
  int rc = feast_local_solve(lv->local, (const double *const *)lv->d->v, lv->c->v, &st);
  feast_timer_stop(FEAST_T_LOCAL_MG);
  FEAST_CALL(rc);
  s->local_solves += s->dom->nlocal;
  s->local_cycles += st.cycles;
  s->local_nonfinite += st.nonfinite;
  /* the backend zeroes a non-finite local result; the outer solver must still see it
   * and stop with reason "nan" rather than iterate on a silently damaged correction */
  if (st.nonfinite && s->dom->nlocal > 0) lv->c->v[0][0] = NAN;
  const FeastLevel *lev = &s->dom->levels[l];
  const long n = (long)lev->N * lev->N;
  for (int li = 0; li < s->dom->nlocal; li++) {
    double *c = lv->c->v[li];
    const double *w = lev->weight[li];
    for (long i = 0; i < n; i++) c[i] *= w[i];
  }
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

/* V cycle on level l for A x = b (b consistent); x_zero: x is zero on entry */
static int vcycle(Scarc *s, int l, const FeastVec *b, FeastVec *x, int x_zero) {
  if (l == s->coarse) return scarc_coarse_solve(s->coarse_solver, b->v, x->v);
  ScarcLevel *lv = &s->lv[l], *lc = &s->lv[l - 1];
  double alpha = 0;
  for (int k = 0; k < s->p.pre_smooth; k++) FEAST_CALL(smooth(s, l, b, x, x_zero && k == 0, &alpha));
  restriction_defect(s, l, b, x, s->p.pre_smooth > 0, alpha);
  for (int li = 0; li < s->dom->nlocal; li++)
    feast_grid_restrict(lv->x->N, lv->d->v[li], lc->b->v[li]);
  FEAST_CALL(feast_vec_sum(lc->b));
  feast_vec_zero_fixed(lc->b, 0);
  feast_vec_zero(lc->x);
  FEAST_CALL(vcycle(s, l - 1, lc->b, lc->x, 1));
  for (int li = 0; li < s->dom->nlocal; li++)
    feast_grid_prolongate(lc->x->N, lc->x->v[li], lv->c->v[li]);
  feast_vec_axpy(1.0, lv->c, x);
  for (int k = 0; k < s->p.post_smooth; k++) FEAST_CALL(smooth(s, l, b, x, 0, &alpha));
  return 0;
}

int scarc_precondition(Scarc *s, const FeastVec *b, FeastVec *x) {
  feast_vec_zero(x);
  return vcycle(s, s->finest, b, x, 1);
}

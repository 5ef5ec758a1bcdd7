/* One precision of the hexahedral local multigrid's cycle, included by coproc/hex_mg.c
 * with REAL (double or float), SUF (d or f) and MATVEC (feast_band_matvec or _f): the
 * algorithm of coproc/hex_mg.h on a view of each level in REAL, the per-point math of
 * feast/la/band9_kernels.h. */
#define CAT2(a, b) a##_##b
#define CAT(a, b) CAT2(a, b)
#define VIEW CAT(HexView, SUF)

typedef struct {
  int N;
  long n;
  REAL omega;                                /* the level's Jacobi damping */
  const REAL *band[FEAST_STENCIL_MAX_BANDS]; /* 27 bands in REAL */
  REAL *x, *b, *r;                           /* padded vectors */
  const unsigned char *fixed;
} VIEW;

/* one damped Jacobi step x <- x + omega D^-1 (b - A x) (through r); from_zero: x = 0
 * before it, so x <- omega D^-1 b without the product */
static void CAT(jacobi, SUF)(VIEW *v, REAL omega, int from_zero) {
  const REAL *diag = v->band[FEAST_STENCIL_CENTRE(3)];
  if (from_zero) {
    for (long i = 0; i < v->n; i++) v->x[i] = CAT(feast_jacobi_zero_point, SUF)(v->b[i], diag[i], omega);
    return;
  }
  MATVEC(&feast_stencil_q1_3d, v->N, v->band, v->x, v->r);
  for (long i = 0; i < v->n; i++) v->x[i] += omega * (v->b[i] - v->r[i]) / diag[i];
}

/* r <- b - A x */
static void CAT(defect, SUF)(const VIEW *v, const REAL *b, const REAL *x, REAL *r) {
  MATVEC(&feast_stencil_q1_3d, v->N, v->band, x, r);
  for (long i = 0; i < v->n; i++) r[i] = b[i] - r[i];
}

/* the V cycle on level l for A x = b (b in lv[l].b), from x = 0; lv[lc] solved with the
 * dense inverse (feast_dense_row's sums, in double) */
static void CAT(vcycle, SUF)(const FeastLocalMGParams *prm, VIEW *lv, int l, int lc, const REAL *inv) {
  VIEW *v = &lv[l];
  if (l == lc) {
    for (long i = 0; i < v->n; i++) v->x[i] = CAT(feast_dense_row, SUF)(inv, v->b, i, v->n);
    return;
  }
  VIEW *c = &lv[l - 1];
  const REAL omega = v->omega;
  if (prm->pre_smooth > 0) CAT(jacobi, SUF)(v, omega, 1);
  else memset(v->x, 0, sizeof(REAL) * v->n);
  for (int k = 1; k < prm->pre_smooth; k++) CAT(jacobi, SUF)(v, omega, 0);
  CAT(defect, SUF)(v, v->b, v->x, v->r);
  const int Nc = c->N, Nf = v->N;
  for (int K = 0; K < Nc; K++)
    for (int J = 0; J < Nc; J++)
      for (int I = 0; I < Nc; I++) {
        const long k = ((long)K * Nc + J) * Nc + I;
        c->b[k] = c->fixed[k] ? (REAL)0 : CAT(feast_restrict_point3, SUF)(v->r, Nf, I, J, K);
      }
  CAT(vcycle, SUF)(prm, lv, l - 1, lc, inv);
  for (int k = 0; k < Nf; k++)
    for (int j = 0; j < Nf; j++)
      for (int i = 0; i < Nf; i++) {
        const long r = ((long)k * Nf + j) * Nf + i;
        if (!v->fixed[r]) v->x[r] += CAT(feast_prolongate_point3, SUF)(c->x, Nc, i, j, k);
      }
  for (int k = 0; k < prm->post_smooth; k++) CAT(jacobi, SUF)(v, omega, 0);
}

/* c <- the cycles' correction for the defect d (double in and out; sol and d0: work of
 * the finest level in REAL) */
static void CAT(solve, SUF)(const FeastLocalMGParams *prm, VIEW *lv, int L, int lc, const REAL *inv, REAL *sol,
                            REAL *d0, const double *d, double *c, FeastLocalMGStats *st) {
  VIEW *v = &lv[L];
  const long n = v->n;
  double rr = 0.0;
  for (long i = 0; i < n; i++) {
    d0[i] = v->fixed[i] ? (REAL)0 : (REAL)d[i];
    v->b[i] = d0[i];
    sol[i] = 0;
    rr += (double)d0[i] * d0[i];
  }
  const double r0 = sqrt(rr);
  double r = r0;
  while (r > prm->rtol * r0 && isfinite(r) && st->cycles < prm->max_cycles) {
    CAT(vcycle, SUF)(prm, lv, L, lc, inv);
    for (long i = 0; i < n; i++) sol[i] += v->x[i];
    CAT(defect, SUF)(v, d0, sol, v->b);
    rr = 0.0;
    for (long i = 0; i < n; i++) rr += (double)v->b[i] * v->b[i];
    r = sqrt(rr);
    st->cycles++;
  }
  st->max_cycles_hit = r > prm->rtol * r0 && isfinite(r);
  int bad = !isfinite(r);
  for (long i = 0; i < n; i++) {
    c[i] = v->fixed[i] ? 0.0 : (double)sol[i];
    bad |= !isfinite(c[i]);
  }
  if (bad) memset(c, 0, sizeof(double) * n);
  st->nonfinite = bad;
}

#undef CAT2
#undef CAT
#undef VIEW

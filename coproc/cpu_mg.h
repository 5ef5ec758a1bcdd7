/* One precision of the CPU local multigrid, included by coproc/cpu.c with REAL (double
 * or float) and SUF (d or f) defined; the algorithm is the one in coproc/backend.h, the
 * per-point math that of feast/band9_kernels.h. */
#define CAT2(a, b) a##_##b
#define CAT(a, b) CAT2(a, b)
#define LVL CAT(CpuLevel, SUF)
#define MG CAT(CpuMG, SUF)
#define ROW CAT(feast_band9_row, SUF)
#define JACOBI CAT(feast_jacobi_point, SUF)
#define PROLONG CAT(feast_prolongate_point, SUF)
#define RESTRICT CAT(feast_restrict_point, SUF)

typedef struct {
  int N;
  REAL *band[FEAST_NBANDS];    /* one allocation */
  REAL *x, *b, *r, *p, *q;     /* padded grid vectors */
  const unsigned char *fixed;
} LVL;

typedef struct {
  int L, lc, nmacros;
  FeastLocalMGParams prm;
  LVL *lv;     /* macro-major: lv[m * (L + 1) + l] */
  REAL **sol;  /* per macro: accumulated correction on level L */
  REAL **d0;   /* per macro: the defect on level L */
} MG;

static int CAT(alloc_vec, SUF)(int N, REAL **v) {
  return sizeof(REAL) == sizeof(double) ? feast_grid_alloc(N, (double **)v) : feast_grid_alloc_f(N, (float **)v);
}
static void CAT(free_vec, SUF)(int N, REAL **v) {
  if (sizeof(REAL) == sizeof(double)) feast_grid_free(N, (double **)v);
  else feast_grid_free_f(N, (float **)v);
}

static int CAT(level_setup, SUF)(LVL *v, const FeastBand9 *A, const unsigned char *fixed) {
  const long n = (long)A->N * A->N;
  v->N = A->N;
  v->fixed = fixed;
  REAL *all;
  FEAST_CALL(FEAST_ALLOC(n * FEAST_NBANDS, &all));
  for (int k = 0; k < FEAST_NBANDS; k++) {
    v->band[k] = all + k * n;
    for (long i = 0; i < n; i++) v->band[k][i] = (REAL)A->band[k][i];
  }
  REAL **vecs[] = {&v->x, &v->b, &v->r, &v->p, &v->q};
  for (int i = 0; i < 5; i++) FEAST_CALL(CAT(alloc_vec, SUF)(v->N, vecs[i]));
  return 0;
}

static void CAT(level_free, SUF)(LVL *v) {
  free(v->band[0]);
  REAL **vecs[] = {&v->x, &v->b, &v->r, &v->p, &v->q};
  for (int i = 0; i < 5; i++) CAT(free_vec, SUF)(v->N, vecs[i]);
}

static void CAT(mg_destroy, SUF)(void **data) {
  MG *mg = *data;
  if (!mg) return;
  for (int m = 0; m < mg->nmacros; m++) {
    for (int l = 0; mg->lv && l <= mg->L; l++) CAT(level_free, SUF)(&mg->lv[m * (mg->L + 1) + l]);
    if (mg->sol) CAT(free_vec, SUF)(feast_level_n(mg->L), &mg->sol[m]);
    if (mg->d0) CAT(free_vec, SUF)(feast_level_n(mg->L), &mg->d0[m]);
  }
  free(mg->lv);
  free(mg->sol);
  free(mg->d0);
  feast_free(data);
}

static int CAT(mg_setup, SUF)(void **data, int nmacros, const FeastLocalProblem *pr,
                              const FeastLocalMGParams *prm) {
  MG *mg;
  FEAST_CALL(FEAST_ALLOC(1, &mg));
  *data = mg;
  mg->nmacros = nmacros;
  mg->L = nmacros ? pr[0].level : 0;
  mg->lc = feast_local_coarse_level(mg->L, prm->coarse_max_dofs);
  mg->prm = *prm;
  FEAST_CALL(FEAST_ALLOC((long)nmacros * (mg->L + 1) + 1, &mg->lv));
  FEAST_CALL(FEAST_ALLOC(nmacros + 1, &mg->sol));
  FEAST_CALL(FEAST_ALLOC(nmacros + 1, &mg->d0));
  for (int m = 0; m < nmacros; m++) {
    for (int l = mg->lc; l <= mg->L; l++)
      FEAST_CALL(CAT(level_setup, SUF)(&mg->lv[m * (mg->L + 1) + l], &pr[m].A[l], pr[m].fixed[l]));
    FEAST_CALL(CAT(alloc_vec, SUF)(feast_level_n(mg->L), &mg->sol[m]));
    FEAST_CALL(CAT(alloc_vec, SUF)(feast_level_n(mg->L), &mg->d0[m]));
  }
  return 0;
}

/* r <- b - A x */
static void CAT(defect, SUF)(const LVL *v, const REAL *b, const REAL *x, REAL *r) {
  const long N = v->N, n = N * N;
  const REAL *const *band = (const REAL *const *)v->band;
  for (long i = 0; i < n; i++) r[i] = b[i] - ROW(band, x, i, N);
}

/* sqrt(sum r_i^2), accumulated in double */
static double CAT(norm, SUF)(const REAL *r, long n) {
  double s = 0;
  for (long i = 0; i < n; i++) s += (double)r[i] * r[i];
  return sqrt(s);
}

/* one damped Jacobi sweep x <- x + omega D^-1 (b - A x), through r */
static void CAT(jacobi, SUF)(LVL *v, REAL omega) {
  const long N = v->N, n = N * N;
  const REAL *const *band = (const REAL *const *)v->band;
  for (long i = 0; i < n; i++) v->r[i] = JACOBI(band, v->b, v->x, i, N, omega);
  REAL *t = v->x;
  v->x = v->r;
  v->r = t;
}

/* CG on the coarsest level: x <- approx A^-1 b to coarse_rtol */
static void CAT(coarse_cg, SUF)(LVL *v, double rtol) {
  const long N = v->N, n = N * N;
  const REAL *const *band = (const REAL *const *)v->band;
  for (long i = 0; i < n; i++) {
    v->x[i] = 0;
    v->r[i] = v->b[i];
    v->p[i] = v->b[i];
  }
  double rr = 0;
  for (long i = 0; i < n; i++) rr += (double)v->r[i] * v->r[i];
  const double stop = rtol * sqrt(rr);
  for (long it = 0; it < n && sqrt(rr) > stop; it++) {
    double pq = 0;
    for (long i = 0; i < n; i++) {
      v->q[i] = ROW(band, v->p, i, N);
      pq += (double)v->p[i] * v->q[i];
    }
    if (!(pq > 0)) break;
    const REAL alpha = (REAL)(rr / pq);
    double rr_new = 0;
    for (long i = 0; i < n; i++) {
      v->x[i] += alpha * v->p[i];
      v->r[i] -= alpha * v->q[i];
      rr_new += (double)v->r[i] * v->r[i];
    }
    const REAL beta = (REAL)(rr_new / rr);
    rr = rr_new;
    for (long i = 0; i < n; i++) v->p[i] = v->r[i] + beta * v->p[i];
  }
}

/* V cycle on level l of one macro for A x = b (b in lv[l].b), from x = 0 */
static void CAT(vcycle, SUF)(const MG *mg, LVL *lv, int l) {
  LVL *v = &lv[l];
  if (l == mg->lc) {
    CAT(coarse_cg, SUF)(v, mg->prm.coarse_rtol);
    return;
  }
  LVL *c = &lv[l - 1];
  const long n = (long)v->N * v->N;
  const REAL omega = (REAL)mg->prm.jacobi_damping;
  for (long i = 0; i < n; i++) v->x[i] = 0;
  for (int k = 0; k < mg->prm.pre_smooth; k++) CAT(jacobi, SUF)(v, omega);
  CAT(defect, SUF)(v, v->b, v->x, v->r);
  for (int J = 0; J < c->N; J++)
    for (int I = 0; I < c->N; I++) {
      long k = (long)J * c->N + I;
      c->b[k] = c->fixed[k] ? (REAL)0 : RESTRICT(v->r, v->N, I, J);
    }
  CAT(vcycle, SUF)(mg, lv, l - 1);
  for (int j = 0; j < v->N; j++)
    for (int i = 0; i < v->N; i++) {
      long k = (long)j * v->N + i;
      if (!v->fixed[k]) v->x[k] += PROLONG(c->x, c->N, i, j);
    }
  for (int k = 0; k < mg->prm.post_smooth; k++) CAT(jacobi, SUF)(v, omega);
}

/* local MG of one macro: d (double) in, c (double) out; returns the cycles run */
static int CAT(solve_macro, SUF)(const MG *mg, int m, const double *d, double *c, int *hit, int *bad) {
  LVL *lv = &mg->lv[m * (mg->L + 1)], *v = &lv[mg->L];
  const long n = (long)v->N * v->N;
  REAL *sol = mg->sol[m], *d0 = mg->d0[m];
  for (long i = 0; i < n; i++) {
    d0[i] = v->fixed[i] ? (REAL)0 : (REAL)d[i];
    v->b[i] = d0[i];
    sol[i] = 0;
  }
  const double r0 = CAT(norm, SUF)(d0, n);
  double r = r0;
  int cycles = 0;
  while (r > mg->prm.rtol * r0 && isfinite(r) && cycles < mg->prm.max_cycles) {
    CAT(vcycle, SUF)(mg, lv, mg->L);
    for (long i = 0; i < n; i++) sol[i] += v->x[i];
    CAT(defect, SUF)(v, d0, sol, v->b);
    r = CAT(norm, SUF)(v->b, n);
    cycles++;
  }
  *hit = r > mg->prm.rtol * r0 && isfinite(r);
  *bad = !isfinite(r);
  for (long i = 0; i < n; i++) {
    c[i] = v->fixed[i] ? 0.0 : (double)sol[i];
    *bad |= !isfinite(c[i]);
  }
  if (*bad) memset(c, 0, sizeof(double) * n);
  return cycles;
}

static int CAT(mg_solve, SUF)(void *data, const double *const *d, double *const *c, FeastLocalMGStats *st) {
  const MG *mg = data;
  for (int m = 0; m < mg->nmacros; m++) {
    int hit, bad;
    st->cycles += CAT(solve_macro, SUF)(mg, m, d[m], c[m], &hit, &bad);
    st->max_cycles_hit += hit;
    st->nonfinite += bad;
  }
  return 0;
}

#undef CAT2
#undef CAT
#undef LVL
#undef MG
#undef ROW
#undef JACOBI
#undef PROLONG
#undef RESTRICT

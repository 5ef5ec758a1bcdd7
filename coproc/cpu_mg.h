/* One precision of the CPU local multigrid, included by coproc/cpu.c with REAL (double
 * or float), SUF (d or f) and IN_PLACE defined; the algorithm is the one in
 * coproc/backend.h, the per-point math that of feast/la/band9_kernels.h. IN_PLACE = 1
 * (double): the matrices and inverses of the front end's hierarchy are used where they
 * are (it keeps them alive, see coproc/backend.h), so setup allocates only the work
 * vectors and an update has nothing to copy. IN_PLACE = 0 (float): converted copies. */
#define CAT2(a, b) a##_##b
#define CAT(a, b) CAT2(a, b)
#define LVL CAT(CpuLevel, SUF)
#define MG CAT(CpuMG, SUF)
#define PART CAT(CpuPart, SUF)
#define ROW CAT(feast_band9_row, SUF)
#define JACOBI CAT(feast_jacobi_point, SUF)
#define JACOBI_ZERO CAT(feast_jacobi_zero_point, SUF)
#define PROLONG CAT(feast_prolongate_point, SUF)
#define RESTRICT CAT(feast_restrict_point, SUF)

typedef struct {
  int N;
  const REAL *band[FEAST_NBANDS]; /* what the sweeps read: the front end's (the whole matrix
                                     or the inside of a framed one) or own */
  const REAL *frame[FEAST_NBANDS]; /* in place, a framed level: its frame, else NULL */
  REAL *own[FEAST_NBANDS];     /* converted copies (IN_PLACE = 0), else NULL */
  REAL *x, *b, *r;             /* padded grid vectors */
  REAL *sol, *d0;              /* finest level: accumulated correction, the defect */
  const unsigned char *fixed;
  const REAL *inv;             /* coarsest level: A^-1, n x n column-major */
  void *mem;                   /* one coloured block: the 5 vectors (macro 0 only: the batch
                                  shares them) and the own bands */
} LVL;

typedef struct {
  int L, lc, nmacros;
  long nc;       /* nodes of the coarsest level */
  FeastLocalMGParams prm;
  LVL *lv;       /* macro-major: lv[m * (L + 1) + l] */
  REAL *own_inv; /* converted inverses of the coarsest matrices, nc^2 per macro
                    (IN_PLACE = 0), else NULL */
} MG;

/* The vectors (and, when converted, the bands) of one level in one block, each array
 * on its own 256-byte colour modulo 4 KiB (feast_alloc_coloured): 14 streams, no two in
 * the same L1 sets. In place the bands are the front end's (colours 0-8, a FeastBand9)
 * and the vectors take colours 9-13. The macros of a batch are solved one after the
 * other, so they share one set of work vectors per level: those of `shared` (macro 0's
 * level), or new ones when shared is NULL. */
static int CAT(level_alloc, SUF)(LVL *v, const FeastBand9Framed *A, const unsigned char *fixed,
                                 const LVL *shared) {
  const long N = A->inside->N, n = N * N, pad = FEAST_PAD(N);
  REAL **vecs[] = {&v->x, &v->b, &v->r, &v->sol, &v->d0};
  enum { NVEC = sizeof vecs / sizeof vecs[0], NOWN = IN_PLACE ? 0 : FEAST_NBANDS };
  const int nvec = shared ? 0 : NVEC;
  char *arr[NOWN + NVEC];
  if (shared) *v = *shared; /* its vectors */
  v->N = (int)N;
  v->fixed = fixed;
  v->mem = NULL;
  if (NOWN + nvec > 0)
    FEAST_CALL(feast_alloc_coloured(NOWN + nvec, (size_t)(n + 2 * pad), sizeof(REAL), (size_t)pad,
                                    FEAST_NBANDS - NOWN, arr, &v->mem));
  for (int i = 0; i < nvec; i++) *vecs[i] = (REAL *)(void *)arr[NOWN + i];
  for (int k = 0; k < FEAST_NBANDS; k++) {
#if IN_PLACE
    v->band[k] = A->inside->band[k];
    v->frame[k] = A->frame[k];
#else
    v->own[k] = (REAL *)(void *)arr[k];
    v->band[k] = v->own[k];
    v->frame[k] = NULL;
#endif
  }
  return 0;
}

/* dst <- src converted to REAL */
static void CAT(convert, SUF)(REAL *restrict dst, const double *restrict src, long n) {
  for (long i = 0; i < n; i++) dst[i] = (REAL)src[i];
}

static void CAT(mg_destroy, SUF)(void **data) {
  MG *mg = *data;
  if (!mg) return;
  for (long i = 0; mg->lv && i < (long)mg->nmacros * (mg->L + 1); i++) feast_free_coloured(mg->lv[i].mem);
  free(mg->lv);
  free(mg->own_inv);
  feast_free(data);
}

/* new values: converted into the own copies; in place there is nothing to do (the
 * front end wrote them where the sweeps read them) */
static int CAT(mg_update, SUF)(void *data, const FeastLocalHierarchy *h) {
  MG *mg = data;
  for (int m = 0; m < mg->nmacros && !IN_PLACE; m++) {
    for (int l = mg->lc; l <= mg->L; l++) {
      LVL *v = &mg->lv[m * (mg->L + 1) + l];
      for (int k = 0; k < FEAST_NBANDS; k++) CAT(feast_band9_framed_expand, SUF)(&h[m].A[l], k, v->own[k]);
    }
    CAT(convert, SUF)(mg->own_inv + (size_t)m * mg->nc * mg->nc, h[m].coarse_inv, mg->nc * mg->nc);
  }
  return 0;
}

static int CAT(mg_alloc, SUF)(MG *mg, int nmacros, const FeastLocalHierarchy *h, const FeastLocalMGParams *prm) {
  mg->nmacros = nmacros;
  mg->L = nmacros ? h[0].level : 0;
  mg->lc = nmacros ? h[0].coarse : 0;
  mg->nc = (long)feast_level_n(mg->lc) * feast_level_n(mg->lc);
  mg->prm = *prm;
  FEAST_CALL(FEAST_ALLOC((long)nmacros * (mg->L + 1) + 1, &mg->lv));
  if (!IN_PLACE) FEAST_CALL(FEAST_ALLOC((size_t)nmacros * mg->nc * mg->nc + 1, &mg->own_inv));
  for (int m = 0; m < nmacros; m++) {
    for (int l = mg->lc; l <= mg->L; l++)
      FEAST_CALL(CAT(level_alloc, SUF)(&mg->lv[m * (mg->L + 1) + l], &h[m].A[l], h[m].fixed[l],
                                       m ? &mg->lv[l] : NULL));
#if IN_PLACE
    mg->lv[m * (mg->L + 1) + mg->lc].inv = h[m].coarse_inv;
#else
    mg->lv[m * (mg->L + 1) + mg->lc].inv = mg->own_inv + (size_t)m * mg->nc * mg->nc;
#endif
  }
  return 0;
}

static int CAT(mg_setup, SUF)(void **data, int nmacros, const FeastLocalHierarchy *h,
                              const FeastLocalMGParams *prm) {
  MG *mg;
  FEAST_CALL(FEAST_ALLOC(1, &mg));
  *data = mg;
  int rc = CAT(mg_alloc, SUF)(mg, nmacros, h, prm);
  if (!rc) rc = CAT(mg_update, SUF)(mg, h);
  if (rc) CAT(mg_destroy, SUF)(data);
  return rc;
}

/* Part q of a level's rows: nodes base .. base + n - 1, whose band values are band[k][0
 * .. n - 1] (a local copy of the pointers: stores through a restrict output can not
 * change them, so the sweeps below vectorise). A whole matrix is one part. A framed one
 * has three, taken in this order: rows 0-1 and rows N-2..N-1 from the frame, then rows
 * 2..N-3 in full from the inside; a sweep then computes the frame's four columns of
 * those rows (frame_column) again, over what the inside's values gave there. */
typedef struct {
  long base, n;
  const REAL *band[FEAST_NBANDS];
} PART;

static int CAT(nparts, SUF)(const LVL *v) { return v->frame[0] ? 3 : 1; }

static void CAT(part, SUF)(const LVL *v, int q, PART *p) {
  const long N = v->N;
  const REAL *const *src = v->frame;
  long at; /* the part's first value in src */
  if (!v->frame[0] || q == 2) {
    src = v->band;
    p->base = at = v->frame[0] ? 2 * N : 0;
    p->n = v->frame[0] ? (N - 4) * N : N * N;
  } else {
    p->base = q ? (N - 2) * N : 0;
    p->n = 2 * N;
    at = q * 2 * N;
  }
  for (int k = 0; k < FEAST_NBANDS; k++) p->band[k] = src[k] + at;
}

/* column c (0..3: columns 0, 1, N-2, N-1) of a framed level's rows 2..N-3, one run of
 * its frame: the index of its first node (row 2); the band values of row 2 + t at
 * fb[k][t]. The sweeps read the vectors of row 2 + t, node i, through pointers shifted
 * by i - t, so that index t reaches both. */
static long CAT(frame_column, SUF)(const LVL *v, int c, const REAL *fb[FEAST_NBANDS]) {
  const long N = v->N;
  for (int k = 0; k < FEAST_NBANDS; k++) fb[k] = v->frame[k] + 4 * N + c * (N - 4);
  return 2 * N + (c < 2 ? c : N - 4 + c);
}

/* r <- b - A x */
static void CAT(defect, SUF)(const LVL *v, const REAL *restrict b, const REAL *restrict x, REAL *restrict r) {
  const long N = v->N;
  for (int q = 0; q < CAT(nparts, SUF)(v); q++) {
    PART p;
    CAT(part, SUF)(v, q, &p);
    const REAL *restrict bq = b + p.base, *restrict xq = x + p.base;
    REAL *restrict rq = r + p.base;
    FEAST_IVDEP
    for (long i = 0; i < p.n; i++) rq[i] = bq[i] - ROW(p.band, xq, i, N);
  }
  for (int c = 0; c < 4 && v->frame[0]; c++) {
    const REAL *fb[FEAST_NBANDS];
    const long first = CAT(frame_column, SUF)(v, c, fb);
    for (long t = 0; t < N - 4; t++) {
      const long s = first + t * (N - 1); /* node i = first + t N, shifted by t */
      r[s + t] = b[s + t] - ROW(fb, x + s, t, N);
    }
  }
}

/* ||r||^2 accumulated in double */
static double CAT(norm2, SUF)(const REAL *r, long n) {
  double rr = 0;
  for (long i = 0; i < n; i++) rr += (double)r[i] * r[i];
  return rr;
}

/* one damped Jacobi sweep r <- x + omega D^-1 (b - A x), then swap x and r */
static void CAT(jacobi, SUF)(LVL *v, REAL omega) {
  const long N = v->N;
  for (int q = 0; q < CAT(nparts, SUF)(v); q++) {
    PART p;
    CAT(part, SUF)(v, q, &p);
    const REAL *restrict xq = v->x + p.base, *restrict bq = v->b + p.base;
    REAL *restrict rq = v->r + p.base;
    FEAST_IVDEP
    for (long i = 0; i < p.n; i++) rq[i] = JACOBI(p.band, bq, xq, i, N, omega);
  }
  REAL *restrict r = v->r;
  for (int c = 0; c < 4 && v->frame[0]; c++) {
    const REAL *fb[FEAST_NBANDS];
    const long first = CAT(frame_column, SUF)(v, c, fb);
    for (long t = 0; t < N - 4; t++) {
      const long s = first + t * (N - 1);
      r[s + t] = JACOBI(fb, v->b + s, v->x + s, t, N, omega);
    }
  }
  v->r = v->x;
  v->x = r;
}

/* the first damped Jacobi sweep from x = 0: x <- omega D^-1 b, what the full sweep gives
 * (A 0 = 0 exactly) without reading the off-diagonal bands */
static void CAT(jacobi_from_zero, SUF)(LVL *v, REAL omega) {
  for (int q = 0; q < CAT(nparts, SUF)(v); q++) {
    PART p;
    CAT(part, SUF)(v, q, &p);
    const REAL *restrict diag = p.band[FEAST_BAND_DIAG], *restrict b = v->b + p.base;
    REAL *restrict x = v->x + p.base;
    FEAST_IVDEP
    for (long i = 0; i < p.n; i++) x[i] = JACOBI_ZERO(b[i], diag[i], omega);
  }
  REAL *restrict x = v->x;
  for (int c = 0; c < 4 && v->frame[0]; c++) {
    const REAL *fb[FEAST_NBANDS];
    const long first = CAT(frame_column, SUF)(v, c, fb);
    for (long t = 0; t < v->N - 4; t++)
      x[first + t * v->N] = JACOBI_ZERO(v->b[first + t * v->N], fb[FEAST_BAND_DIAG][t], omega);
  }
}

/* the exact coarse solve: x <- A^-1 b, one dense matvec with the inverse: DENSE's sums
 * (each row's over j = 0..n-1 in order, in double), so bitwise its result, but a block of
 * COARSE_ROWS rows at a time with j outermost: the inverse's columns are read contiguously
 * and the rows' sums are independent (SIMD) instead of one strided chain per row */
static void CAT(coarse_solve, SUF)(LVL *v) {
  enum { COARSE_ROWS = 64 };
  const long n = (long)v->N * v->N;
  const REAL *restrict inv = v->inv, *restrict b = v->b;
  for (long r0 = 0; r0 < n; r0 += COARSE_ROWS) {
    const long m = n - r0 < COARSE_ROWS ? n - r0 : COARSE_ROWS;
    double s[COARSE_ROWS] = {0};
    for (long j = 0; j < n; j++) {
      const REAL *restrict col = inv + j * n + r0;
      const double bj = (double)b[j];
      for (long i = 0; i < m; i++) s[i] += (double)col[i] * bj;
    }
    for (long i = 0; i < m; i++) v->x[r0 + i] = (REAL)s[i];
  }
}

/* V cycle on level l of one macro for A x = b (b in lv[l].b), from x = 0 */
static void CAT(vcycle, SUF)(const MG *mg, LVL *lv, int l) {
  LVL *v = &lv[l];
  if (l == mg->lc) {
    CAT(coarse_solve, SUF)(v);
    return;
  }
  LVL *c = &lv[l - 1];
  const long n = (long)v->N * v->N;
  const REAL omega = (REAL)mg->prm.jacobi_damping;
  if (mg->prm.pre_smooth > 0) CAT(jacobi_from_zero, SUF)(v, omega);
  else memset(v->x, 0, sizeof(REAL) * n);
  for (int k = 1; k < mg->prm.pre_smooth; k++) CAT(jacobi, SUF)(v, omega);
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
  REAL *sol = v->sol, *d0 = v->d0;
  double rr = 0;
  for (long i = 0; i < n; i++) {
    d0[i] = v->fixed[i] ? (REAL)0 : (REAL)d[i];
    v->b[i] = d0[i];
    sol[i] = 0;
    rr += (double)d0[i] * d0[i];
  }
  const double r0 = sqrt(rr);
  double r = r0;
  int cycles = 0;
  while (r > mg->prm.rtol * r0 && isfinite(r) && cycles < mg->prm.max_cycles) {
    CAT(vcycle, SUF)(mg, lv, mg->L);
    for (long i = 0; i < n; i++) sol[i] += v->x[i];
    CAT(defect, SUF)(v, d0, sol, v->b);
    r = sqrt(CAT(norm2, SUF)(v->b, n));
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
#undef PART
#undef ROW
#undef JACOBI
#undef JACOBI_ZERO
#undef PROLONG
#undef RESTRICT

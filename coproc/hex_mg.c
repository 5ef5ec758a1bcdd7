#include "coproc/hex_mg.h"
#include "feast/base/error.h"
#include "feast/fem/transfer_hex.h"
#include "feast/la/band9_kernels.h"
#include "feast/la/dense.h"
#include "feast/mesh/mesh.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  int N;
  long n;                     /* N^3 rows */
  const FeastBand *A;         /* the given matrix (finest level) or own */
  FeastBand own;              /* the Galerkin product (levels below the finest) */
  const unsigned char *fixed;
  double *x, *b, *r;          /* padded vectors */
} HexLevel;

struct FeastHexMG {
  int L, lc;
  FeastLocalMGParams prm;
  HexLevel lv[FEAST_MAX_LEVEL + 1];
  double *inv;       /* A_lc^-1, column-major */
  double *sol, *d0;  /* finest level: the accumulated correction, the defect */
};

/* the finest level l <= L with (2^l + 1)^3 <= max nodes (0 if none is) */
static int coarse_level(int L, int max_nodes) {
  int lc = 0;
  while (lc < L && (long)feast_level_n(lc + 1) * feast_level_n(lc + 1) * feast_level_n(lc + 1) <= max_nodes) lc++;
  return lc;
}

static int check_args(const FeastBand *A, int level, const unsigned char *const *fixed, const FeastLocalMGParams *p) {
  FEAST_CHECK(A && fixed && p && level >= 0 && level <= FEAST_MAX_LEVEL, FEAST_ERR_ARG,
              "hexahedral local multigrid: NULL arguments or level %d", level);
  FEAST_CHECK(A->stencil == &feast_stencil_q1_3d && A->N == feast_level_n(level), FEAST_ERR_ARG,
              "hexahedral local multigrid: the matrix must have 27 bands and N = %d (level %d), has %d bands, N = %d",
              feast_level_n(level), level, A->stencil ? A->stencil->nbands : 0, A->N);
  for (int l = 0; l <= level; l++)
    FEAST_CHECK(fixed[l], FEAST_ERR_ARG, "hexahedral local multigrid: no fixed mask on level %d", l);
  FEAST_CHECK(p->pre_smooth >= 0 && p->post_smooth >= 0 && p->max_cycles >= 1 && p->coarse_max_dofs >= 1 &&
                  p->jacobi_damping > 0 && p->rtol > 0,
              FEAST_ERR_ARG, "hexahedral local multigrid: parameters out of range");
  FEAST_CHECK(p->coarse_max_dofs <= FEAST_LOCAL_COARSE_MAX_NODES, FEAST_ERR_CONFIG,
              "solver.local_coarse_max_dofs = %d: the coarsest local level is solved with a dense inverse, so at "
              "most %d nodes (9^3, level 3 of a hexahedron)",
              p->coarse_max_dofs, FEAST_LOCAL_COARSE_MAX_NODES);
  return 0;
}

static int alloc_level(HexLevel *v, int l, const unsigned char *fixed) {
  v->N = feast_level_n(l);
  v->n = (long)v->N * v->N * v->N;
  v->fixed = fixed;
  if (!v->A) {
    FEAST_CALL(feast_band_create(&feast_stencil_q1_3d, v->N, &v->own));
    v->A = &v->own;
  }
  FEAST_CALL(feast_band_vec_alloc(v->A, &v->x));
  FEAST_CALL(feast_band_vec_alloc(v->A, &v->b));
  return feast_band_vec_alloc(v->A, &v->r);
}

/* mg->inv <- A_lc^-1 */
static int coarse_inverse(FeastHexMG *mg) {
  const HexLevel *v = &mg->lv[mg->lc];
  const long n = v->n, bw = feast_stencil_pad(v->A->stencil, v->N);
  double *lu;
  long *piv;
  FEAST_CALL(FEAST_ALLOC(n * n, &lu));
  FEAST_CALL(FEAST_ALLOC(n, &piv));
  FEAST_CALL(FEAST_ALLOC(n * n, &mg->inv));
  feast_band_to_dense(v->A, lu);
  const int zero = feast_dense_lu(n, bw, bw, lu, piv);
  if (!zero) feast_dense_lu_inverse(n, bw, bw, lu, piv, mg->inv);
  free(lu);
  free(piv);
  FEAST_CHECK(!zero, FEAST_ERR_SOLVER,
              "hexahedral local multigrid: the coarsest matrix (level %d, %ld nodes) is singular (no nonzero pivot in "
              "column %d)",
              mg->lc, n, zero - 1);
  return 0;
}

int feast_hex_mg_setup(const FeastBand *A, int level, const unsigned char *const *fixed,
                       const FeastLocalMGParams *params, FeastHexMG **mgp) {
  *mgp = NULL;
  FEAST_CALL(check_args(A, level, fixed, params));
  FeastHexMG *mg;
  FEAST_CALL(FEAST_ALLOC(1, &mg));
  *mgp = mg;
  mg->L = level;
  mg->lc = coarse_level(level, params->coarse_max_dofs);
  mg->prm = *params;
  mg->lv[level].A = A;
  int rc = 0;
  for (int l = level; l >= mg->lc && !rc; l--) {
    rc = alloc_level(&mg->lv[l], l, fixed[l]);
    if (!rc && l < level) rc = feast_band_galerkin(mg->lv[l + 1].A, fixed[l + 1], fixed[l], &mg->lv[l].own);
  }
  if (!rc) rc = coarse_inverse(mg);
  if (!rc) rc = feast_band_vec_alloc(A, &mg->sol);
  if (!rc) rc = feast_band_vec_alloc(A, &mg->d0);
  if (rc) feast_hex_mg_destroy(mgp);
  return rc;
}

int feast_hex_mg_coarse_level(const FeastHexMG *mg) { return mg->lc; }

void feast_hex_mg_destroy(FeastHexMG **mgp) {
  FeastHexMG *mg = *mgp;
  if (!mg) return;
  const FeastBand *finest = mg->lv[mg->L].A;
  for (int l = mg->lc; l <= mg->L; l++) {
    HexLevel *v = &mg->lv[l];
    if (!v->A) continue;
    feast_band_vec_free(v->A, &v->x);
    feast_band_vec_free(v->A, &v->b);
    feast_band_vec_free(v->A, &v->r);
  }
  if (finest) {
    feast_band_vec_free(finest, &mg->sol);
    feast_band_vec_free(finest, &mg->d0);
  }
  for (int l = mg->lc; l < mg->L; l++) feast_band_destroy(&mg->lv[l].own);
  free(mg->inv);
  feast_free(mgp);
}

/* one damped Jacobi step x <- x + omega D^-1 (b - A x) (through r); from_zero: x = 0
 * before it, so x <- omega D^-1 b without the product */
static void jacobi(HexLevel *v, double omega, int from_zero) {
  const double *diag = v->A->band[v->A->stencil->centre];
  if (from_zero) {
    for (long i = 0; i < v->n; i++) v->x[i] = feast_jacobi_zero_point_d(v->b[i], diag[i], omega);
    return;
  }
  feast_band_apply(v->A, v->x, v->r);
  for (long i = 0; i < v->n; i++) v->x[i] += omega * (v->b[i] - v->r[i]) / diag[i];
}

/* r <- b - A x */
static void defect(const HexLevel *v, const double *b, const double *x, double *r) {
  feast_band_apply(v->A, x, r);
  for (long i = 0; i < v->n; i++) r[i] = b[i] - r[i];
}

/* exact coarse solve x <- A^-1 b, the sums of feast_dense_row (in order, in double) */
static void coarse_solve(const FeastHexMG *mg, HexLevel *v) {
  for (long i = 0; i < v->n; i++) v->x[i] = feast_dense_row_d(mg->inv, v->b, i, v->n);
}

/* the V cycle on level l for A x = b (b in lv[l].b), from x = 0 */
static void vcycle(FeastHexMG *mg, int l) {
  HexLevel *v = &mg->lv[l];
  if (l == mg->lc) {
    coarse_solve(mg, v);
    return;
  }
  HexLevel *c = &mg->lv[l - 1];
  const double omega = mg->prm.jacobi_damping;
  if (mg->prm.pre_smooth > 0) jacobi(v, omega, 1);
  else memset(v->x, 0, sizeof(double) * v->n);
  for (int k = 1; k < mg->prm.pre_smooth; k++) jacobi(v, omega, 0);
  defect(v, v->b, v->x, v->r);
  const int Nc = c->N, Nf = v->N;
  for (int K = 0; K < Nc; K++)
    for (int J = 0; J < Nc; J++)
      for (int I = 0; I < Nc; I++) {
        const long k = ((long)K * Nc + J) * Nc + I;
        c->b[k] = c->fixed[k] ? 0.0 : feast_restrict_point3_d(v->r, Nf, I, J, K);
      }
  vcycle(mg, l - 1);
  for (int k = 0; k < Nf; k++)
    for (int j = 0; j < Nf; j++)
      for (int i = 0; i < Nf; i++) {
        const long r = ((long)k * Nf + j) * Nf + i;
        if (!v->fixed[r]) v->x[r] += feast_prolongate_point3_d(c->x, Nc, i, j, k);
      }
  for (int k = 0; k < mg->prm.post_smooth; k++) jacobi(v, omega, 0);
}

static double norm2(const double *r, long n) {
  double s = 0.0;
  for (long i = 0; i < n; i++) s += r[i] * r[i];
  return s;
}

int feast_hex_mg_solve(FeastHexMG *mg, const double *d, double *c, FeastLocalMGStats *stats) {
  FEAST_CHECK(mg && d && c && stats, FEAST_ERR_ARG, "feast_hex_mg_solve: NULL arguments");
  memset(stats, 0, sizeof *stats);
  HexLevel *v = &mg->lv[mg->L];
  const long n = v->n;
  for (long i = 0; i < n; i++) {
    mg->d0[i] = v->fixed[i] ? 0.0 : d[i];
    v->b[i] = mg->d0[i];
    mg->sol[i] = 0.0;
  }
  const double r0 = sqrt(norm2(mg->d0, n));
  double r = r0;
  while (r > mg->prm.rtol * r0 && isfinite(r) && stats->cycles < mg->prm.max_cycles) {
    vcycle(mg, mg->L);
    for (long i = 0; i < n; i++) mg->sol[i] += v->x[i];
    defect(v, mg->d0, mg->sol, v->b);
    r = sqrt(norm2(v->b, n));
    stats->cycles++;
  }
  stats->max_cycles_hit = r > mg->prm.rtol * r0 && isfinite(r);
  int bad = !isfinite(r);
  for (long i = 0; i < n; i++) {
    c[i] = v->fixed[i] ? 0.0 : mg->sol[i];
    bad |= !isfinite(c[i]);
  }
  if (bad) memset(c, 0, sizeof(double) * n);
  stats->nonfinite = bad;
  return 0;
}

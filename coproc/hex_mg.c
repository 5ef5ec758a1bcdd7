#include "coproc/hex_mg.h"
#include "coproc/backend.h"
#include "feast/base/error.h"
#include "feast/fem/transfer_hex.h"
#include "feast/la/band9_kernels.h"
#include "feast/la/dense.h"
#include "feast/mesh/mesh.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define REAL double
#define SUF d
#define MATVEC feast_band_matvec
#include "coproc/hex_mg_cycle.h"
#undef REAL
#undef SUF
#undef MATVEC
#define REAL float
#define SUF f
#define MATVEC feast_band_matvec_f
#include "coproc/hex_mg_cycle.h"
#undef REAL
#undef SUF
#undef MATVEC

/* one level: its matrix in double (the given one or the Galerkin product) and the view
 * the cycle of the working precision sweeps */
typedef struct {
  const FeastBand *A;
  FeastBand own;
  double rho;   /* the estimate of rho(D^-1 A) its damping comes from (0: none) */
  HexView_d d;
  HexView_f f;
  void *mem; /* single: the level's bands and vectors in float, one block */
} HexLevel;

struct FeastHexMG {
  int L, lc, single;
  FeastLocalMGParams prm;
  HexLevel lv[FEAST_MAX_LEVEL + 1];
  HexView_d dview[FEAST_MAX_LEVEL + 1]; /* the views in level order, as the cycle takes them */
  HexView_f fview[FEAST_MAX_LEVEL + 1];
  double *inv;      /* A_lc^-1, column-major */
  float *inv_f;     /* the same in float (single) */
  void *sol, *d0;   /* finest level: the accumulated correction, the defect (in REAL, padded) */
  void *work;       /* their block */
};

static int check_args(const FeastBand *A, int level, const unsigned char *const *fixed, const FeastLocalMGParams *p) {
  FEAST_CHECK(A && fixed && p && level >= 0 && level <= FEAST_MAX_LEVEL, FEAST_ERR_ARG,
              "hexahedral local multigrid: NULL arguments or level %d", level);
  FEAST_CHECK(A->stencil == &feast_stencil_q1_3d && A->N == feast_level_n(level), FEAST_ERR_ARG,
              "hexahedral local multigrid: the matrix must have 27 bands and N = %d (level %d), has %d bands, N = %d",
              feast_level_n(level), level, A->stencil ? A->stencil->nbands : 0, A->N);
  for (int l = 0; l <= level; l++)
    FEAST_CHECK(fixed[l], FEAST_ERR_ARG, "hexahedral local multigrid: no fixed mask on level %d", l);
  return feast_local_check_params(p, 3);
}

/* level l's matrix storage (below the finest) and its view in the working precision */
static int alloc_level(FeastHexMG *mg, int l, const unsigned char *fixed) {
  HexLevel *v = &mg->lv[l];
  const int N = feast_level_n(l);
  const long n = (long)N * N * N, pad = feast_stencil_pad(&feast_stencil_q1_3d, N);
  if (!v->A) {
    FEAST_CALL(feast_band_create(&feast_stencil_q1_3d, N, &v->own));
    v->A = &v->own;
  }
  const int nbands = mg->single ? 27 : 0;
  char *arr[27 + 3];
  const size_t size = mg->single ? sizeof(float) : sizeof(double);
  FEAST_CALL(feast_alloc_coloured(nbands + 3, (size_t)(n + 2 * pad), size, (size_t)pad, 0, arr, &v->mem));
  HexView_d *dv = &v->d;
  HexView_f *fv = &v->f;
  dv->N = fv->N = N, dv->n = fv->n = n, dv->fixed = fv->fixed = fixed;
  for (int k = 0; k < 27; k++) {
    dv->band[k] = v->A->band[k];
    fv->band[k] = mg->single ? (const float *)(void *)arr[k] : NULL;
  }
  if (mg->single) fv->x = (float *)(void *)arr[27], fv->b = (float *)(void *)arr[28], fv->r = (float *)(void *)arr[29];
  else dv->x = (double *)(void *)arr[0], dv->b = (double *)(void *)arr[1], dv->r = (double *)(void *)arr[2];
  return 0;
}

/* The largest eigenvalue of D^-1 A on the free nodes, from below: the Rayleigh quotient
 * x^T A x / x^T D x after `steps` power steps x <- D^-1 A x from a fixed pseudo-random x. */
static int jacobi_spectral_radius(const FeastBand *A, const unsigned char *fixed, int steps, double *rho) {
  const long n = feast_band_rows(A);
  const double *diag = A->band[A->stencil->centre];
  double *x = NULL, *y = NULL, rq = 0.0;
  int rc = feast_band_vec_alloc(A, &x);
  if (!rc) rc = feast_band_vec_alloc(A, &y);
  if (rc) {
    feast_band_vec_free(A, &x);
    return rc; /* the allocation's message */
  }
  unsigned state = 12345u;
  for (long i = 0; i < n; i++) {
    state = state * 1103515245u + 12345u;
    x[i] = fixed[i] ? 0.0 : (double)(state >> 8) / 16777216.0 - 0.5;
  }
  for (int s = 0; s < steps; s++) {
    feast_band_apply(A, x, y);
    double xAx = 0.0, xDx = 0.0, yy = 0.0;
    for (long i = 0; i < n; i++) {
      if (fixed[i]) continue;
      xAx += x[i] * y[i], xDx += x[i] * x[i] * diag[i];
      y[i] /= diag[i];
      yy += y[i] * y[i];
    }
    rq = xAx / xDx;
    const double scale = yy > 0 ? 1.0 / sqrt(yy) : 0.0;
    for (long i = 0; i < n; i++) x[i] = fixed[i] ? 0.0 : y[i] * scale;
  }
  feast_band_vec_free(A, &x);
  feast_band_vec_free(A, &y);
  *rho = rq;
  return 0;
}

/* The damping of each level: params->jacobi_damping (0.7, tuned in 2D on cells of aspect
 * ratio near 1, where rho(D^-1 A) = 1.5), but at most 1.5 / rho: Jacobi's error
 * propagation I - omega D^-1 A must stay inside (-1, 1), omega rho < 2, with room for an
 * estimate of rho up to 25 % low. On stretched hexahedra rho grows fast (3.0 at aspect
 * ratio 2, 4.0 at 4, 4.4 at 8: Fourier analysis of the Q1 stencil), and 0.7 > 2 / rho made
 * the smoother diverge: CG broke down at aspect ratio 2 (2026-12-03). Against 4 / (3 rho),
 * the damping that smooths the Laplacian best, 1.5 / rho took 9 / 18 / 32 CG iterations
 * instead of 11 / 21 / 37 at aspect ratio 2 / 4 / 8 (level 5). rho is estimated on the
 * levels up to 33^3 nodes (12 power steps: 6.5 % below 3.0 at aspect ratio 2, level 5); a
 * finer level takes that of the finest estimated one (a regularly refined macro keeps
 * its cells' shapes). */
enum { RHO_MAX_NODES = 35937, RHO_STEPS = 12 };
static int set_damping(FeastHexMG *mg, int l) {
  HexLevel *v = &mg->lv[l];
  double rho = v->rho;
  if (v->d.n <= RHO_MAX_NODES) FEAST_CALL(jacobi_spectral_radius(v->A, v->d.fixed, RHO_STEPS, &rho));
  else
    for (int k = l - 1; k >= mg->lc; k--)
      if (mg->lv[k].rho > 0) {
        rho = mg->lv[k].rho;
        break;
      }
  v->rho = rho;
  const double omega = rho > 0 ? fmin(mg->prm.jacobi_damping, 1.5 / rho) : mg->prm.jacobi_damping;
  v->d.omega = omega, v->f.omega = (float)omega;
  return 0;
}

/* single: level l's bands converted to float */
static void convert_level(FeastHexMG *mg, int l) {
  HexLevel *v = &mg->lv[l];
  for (int k = 0; k < 27 && mg->single; k++) {
    float *dst = (float *)v->f.band[k];
    for (long i = 0; i < v->f.n; i++) dst[i] = (float)v->A->band[k][i];
  }
}

/* mg->inv <- A_lc^-1 (and its float copy) */
static int coarse_inverse(FeastHexMG *mg) {
  const FeastBand *A = mg->lv[mg->lc].A;
  const long n = feast_band_rows(A), bw = feast_stencil_pad(A->stencil, A->N);
  double *lu;
  long *piv;
  FEAST_CALL(FEAST_ALLOC(n * n, &lu));
  FEAST_CALL(FEAST_ALLOC(n, &piv));
  FEAST_CALL(FEAST_ALLOC(n * n, &mg->inv));
  FEAST_CALL(FEAST_ALLOC(n * n, &mg->inv_f));
  feast_band_to_dense(A, lu);
  const int zero = feast_dense_lu(n, bw, bw, lu, piv);
  if (!zero) feast_dense_lu_inverse(n, bw, bw, lu, piv, mg->inv);
  for (long i = 0; i < n * n; i++) mg->inv_f[i] = (float)mg->inv[i];
  free(lu);
  free(piv);
  FEAST_CHECK(!zero, FEAST_ERR_SOLVER,
              "hexahedral local multigrid: the coarsest matrix (level %d, %ld nodes) is singular (no nonzero pivot in "
              "column %d)",
              mg->lc, n, zero - 1);
  return 0;
}

static int build(FeastHexMG *mg, const FeastBand *A, const unsigned char *const *fixed) {
  mg->lv[mg->L].A = A;
  for (int l = mg->L; l >= mg->lc; l--) {
    FEAST_CALL(alloc_level(mg, l, fixed[l]));
    if (l < mg->L) FEAST_CALL(feast_band_galerkin(mg->lv[l + 1].A, fixed[l + 1], fixed[l], &mg->lv[l].own));
    convert_level(mg, l);
  }
  for (int l = mg->lc; l <= mg->L; l++) { /* coarse to fine: the fine levels may take a coarser estimate */
    FEAST_CALL(set_damping(mg, l));
    mg->dview[l] = mg->lv[l].d;
    mg->fview[l] = mg->lv[l].f;
  }
  FEAST_CALL(coarse_inverse(mg));
  /* sol and d0 padded (the defect's product reads around sol), on two more colours */
  const long n = feast_band_rows(A), pad = feast_stencil_pad(A->stencil, A->N);
  char *arr[2];
  FEAST_CALL(feast_alloc_coloured(2, (size_t)(n + 2 * pad), mg->single ? sizeof(float) : sizeof(double),
                                  (size_t)pad, 3, arr, &mg->work));
  mg->sol = arr[0], mg->d0 = arr[1];
  return 0;
}

int feast_hex_mg_setup(const FeastBand *A, int level, const unsigned char *const *fixed, const char *precision,
                       const FeastLocalMGParams *params, FeastHexMG **mgp) {
  *mgp = NULL;
  FEAST_CALL(check_args(A, level, fixed, params));
  FEAST_CHECK(precision && (!strcmp(precision, "auto") || !strcmp(precision, "double") || !strcmp(precision, "single")),
              FEAST_ERR_CONFIG, "solver.local_precision = '%s': expected auto, double or single",
              precision ? precision : "");
  FeastHexMG *mg;
  FEAST_CALL(FEAST_ALLOC(1, &mg));
  *mgp = mg;
  mg->L = level;
  mg->lc = feast_local_coarse_level(level, params->coarse_max_dofs, 3);
  mg->single = strcmp(feast_local_resolve_precision(precision), "single") == 0;
  mg->prm = *params;
  const int rc = build(mg, A, fixed);
  if (rc) feast_hex_mg_destroy(mgp);
  return rc;
}

const char *feast_hex_mg_precision(const FeastHexMG *mg) { return mg->single ? "single" : "double"; }
double feast_hex_mg_damping(const FeastHexMG *mg, int level) {
  return level >= mg->lc && level <= mg->L ? mg->lv[level].d.omega : 0.0;
}

void feast_hex_mg_destroy(FeastHexMG **mgp) {
  FeastHexMG *mg = *mgp;
  if (!mg) return;
  for (int l = mg->lc; l <= mg->L; l++) {
    feast_free_coloured(mg->lv[l].mem);
    if (l < mg->L) feast_band_destroy(&mg->lv[l].own);
  }
  free(mg->inv);
  free(mg->inv_f);
  feast_free_coloured(mg->work);
  feast_free(mgp);
}

int feast_hex_mg_solve(FeastHexMG *mg, const double *d, double *c, FeastLocalMGStats *stats) {
  FEAST_CHECK(mg && d && c && stats, FEAST_ERR_ARG, "feast_hex_mg_solve: NULL arguments");
  memset(stats, 0, sizeof *stats);
  if (mg->single) solve_f(&mg->prm, mg->fview, mg->L, mg->lc, mg->inv_f, mg->sol, mg->d0, d, c, stats);
  else solve_d(&mg->prm, mg->dview, mg->L, mg->lc, mg->inv, mg->sol, mg->d0, d, c, stats);
  return 0;
}

int feast_hex_mg_precondition(void *mg, const double *r, double *z) {
  FeastLocalMGStats stats;
  return feast_hex_mg_solve(mg, r, z, &stats);
}

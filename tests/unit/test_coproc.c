/* The local multigrid backends behind coproc/coproc.h, every one this build has (gpu ones
 * only where a device is present), on fresh random data:
 *  - per-point kernels of feast/band9_kernels.h against straightforward double references
 *    (row, Jacobi point, prolongation, restriction = transpose of prolongation), float
 *    kernels against double ones;
 *  - the front end's local Galerkin hierarchies (feast_band9_galerkin) against a plain
 *    P^T A P written here; = rediscretisation for Q1 with all edges fixed;
 *  - the double backends against a plain double implementation of the algorithm of
 *    coproc/backend.h written here (2D loops, no shared kernels), on Galerkin hierarchies;
 *  - 9-point Q1 and 5-point Laplace matrices (rediscretised on every level, as ScaRC
 *    assembles them), all edges or only some edges fixed (the free edges are interface
 *    rows): rtol 0.1 in <= 3 V cycles at every level, random and smooth defects, checked by
 *    an independent double residual; the convergence rate per cycle independent of L;
 *  - single = double to float accuracy; fixed nodes of c exactly 0 (also for defects
 *    that are not 0 there); padding and defects untouched;
 *  - a NaN or Inf in one macro's defect: only that macro counts as nonfinite and gets
 *    c = 0, the others are bitwise what they were without it;
 *  - a batch gives the same per-macro result as macro by macro;
 *  - error paths: bad target, precision, levels, sizes, parameters, order of calls. */
#include "coproc/coproc.h"
#include "feast/band9_kernels.h"
#include "feast/error.h"
#include "feast/mesh.h"
#include "feast/transfer.h"
#include "feast_test.h"
#include <float.h>
#include <stdlib.h>
#include <string.h>

enum { MAXL = 8, NMACROS = 4 };
/* a call that must fail with exactly this code */
#define CHECK_CODE(expr, code)                                                                     \
  do {                                                                                             \
    const int cc_ = (expr);                                                                        \
    CHECK(cc_ == (code));                                                                          \
    feast_error_clear();                                                                           \
  } while (0)

enum { Q1 = 0, FIVE = 1 }; /* 9-point Q1 Laplace (8/3, -1/3), 5-point Laplace (4, -1) */
/* fixed edges per macro of a batch: bit 0 left, 1 right, 2 bottom, 3 top */
static const int batch_edges[NMACROS] = {15, 5, 4, 10};

typedef struct {
  int L;
  FeastBand9 A[MAXL + 1];
  unsigned char *fixed[MAXL + 1];
  FeastLocalProblem prob;
} Macro;

typedef struct {
  const char *target, *precision;
} Backend;
static const Backend all_backends[] = {{"cpu", "double"}, {"cpu", "single"}, {"gpu", "single"}, {"gpu", "double"}};
#define NBACKENDS ((int)(sizeof all_backends / sizeof all_backends[0]))

static int backend_here(const Backend *b) { return strcmp(b->target, "gpu") != 0 || feast_local_available("gpu"); }

/* ------------------------------------------------------------------ test data */

static unsigned long long rng_state = 0x9e3779b97f4a7c15ull;
static double urand(void) { /* [-1, 1) */
  rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
  return (double)(rng_state >> 11) / 9007199254740992.0 * 2 - 1;
}

static int on_fixed_edge(int edges, int N, int i, int j) {
  return ((edges & 1) && i == 0) || ((edges & 2) && i == N - 1) || ((edges & 4) && j == 0) ||
         ((edges & 8) && j == N - 1);
}

/* identity rows on fixed nodes; free rows keep the couplings inside the macro only */
static void build_macro(Macro *mc, int L, int stencil, int edges) {
  memset(mc, 0, sizeof *mc);
  mc->L = L;
  for (int l = 0; l <= L; l++) {
    const int N = feast_level_n(l);
    feast_band9_create(N, &mc->A[l]);
    mc->fixed[l] = calloc((size_t)N * N, 1);
    for (int j = 0; j < N; j++)
      for (int i = 0; i < N; i++) {
        const long k = (long)j * N + i;
        if (on_fixed_edge(edges, N, i, j)) {
          mc->fixed[l][k] = 1;
          mc->A[l].band[FEAST_BAND_DIAG][k] = 1.0;
          continue;
        }
        for (int dy = -1; dy <= 1; dy++)
          for (int dx = -1; dx <= 1; dx++) {
            if (i + dx < 0 || i + dx >= N || j + dy < 0 || j + dy >= N) continue;
            const int centre = dx == 0 && dy == 0, axis = dx == 0 || dy == 0;
            double a = stencil == Q1 ? (centre ? 8.0 / 3.0 : -1.0 / 3.0) : (centre ? 4.0 : axis ? -1.0 : 0.0);
            mc->A[l].band[feast_band_index(dx, dy)][k] = a;
          }
      }
  }
  mc->prob = (FeastLocalProblem){L, mc->A, (const unsigned char *const *)mc->fixed};
}

static void free_macro(Macro *mc) {
  for (int l = 0; l <= mc->L; l++) {
    feast_band9_destroy(&mc->A[l]);
    free(mc->fixed[l]);
  }
}

/* weight of the bilinear hat function at fine offset o from a coarse node: 1, 1/2, 0 */
static double hat(int o) { return o == 0 ? 1.0 : (o == 1 || o == -1) ? 0.5 : 0.0; }

/* Ac = P^T Af P, plainly: for every free coarse node, its fine support p, every coupling
 * p -> q of Af between free fine nodes, and every free coarse node whose support holds q;
 * identity rows on fixed coarse nodes */
static void plain_galerkin(const FeastBand9 *Af, const unsigned char *ff, const unsigned char *fc, FeastBand9 *Ac) {
  const int Nf = Af->N, Nc = Ac->N;
  for (int k = 0; k < FEAST_NBANDS; k++) memset(Ac->band[k], 0, sizeof(double) * Nc * Nc);
  for (int J = 0; J < Nc; J++)
    for (int I = 0; I < Nc; I++) {
      const long c = (long)J * Nc + I;
      if (fc[c]) {
        Ac->band[FEAST_BAND_DIAG][c] = 1;
        continue;
      }
      for (int pj = 2 * J - 1; pj <= 2 * J + 1; pj++)
        for (int pi = 2 * I - 1; pi <= 2 * I + 1; pi++) {
          if (pi < 0 || pj < 0 || pi >= Nf || pj >= Nf || ff[(long)pj * Nf + pi]) continue;
          for (int k = 0; k < FEAST_NBANDS; k++) {
            const int qi = pi + k % 3 - 1, qj = pj + k / 3 - 1;
            if (qi < 0 || qj < 0 || qi >= Nf || qj >= Nf || ff[(long)qj * Nf + qi]) continue;
            for (int J2 = J - 1; J2 <= J + 1; J2++)
              for (int I2 = I - 1; I2 <= I + 1; I2++) {
                if (I2 < 0 || J2 < 0 || I2 >= Nc || J2 >= Nc || fc[(long)J2 * Nc + I2]) continue;
                Ac->band[feast_band_index(I2 - I, J2 - J)][c] += hat(pi - 2 * I) * hat(pj - 2 * J) *
                    Af->band[k][(long)pj * Nf + pi] * hat(qi - 2 * I2) * hat(qj - 2 * J2);
              }
          }
        }
    }
}

/* the hierarchy the backends see: coarse levels = Galerkin products of the finest */
static void make_galerkin(Macro *mc) {
  for (int l = mc->L; l > 0; l--) plain_galerkin(&mc->A[l], mc->fixed[l], mc->fixed[l - 1], &mc->A[l - 1]);
}

static double norm(const double *v, long n) {
  double s = 0;
  for (long i = 0; i < n; i++) s += v[i] * v[i];
  return sqrt(s);
}

static double rel_diff(const double *a, const double *b, long n) {
  double s = 0;
  for (long i = 0; i < n; i++) s += (a[i] - b[i]) * (a[i] - b[i]);
  const double nb = norm(b, n);
  return nb > 0 ? sqrt(s) / nb : sqrt(s);
}

/* random (kind 0) or smooth (kind 1) defect, 0 on fixed nodes */
static void fill_defect(const Macro *mc, int kind, double *d) {
  const int N = feast_level_n(mc->L);
  for (int j = 0; j < N; j++)
    for (int i = 0; i < N; i++) {
      const long k = (long)j * N + i;
      const double x = (double)i / (N - 1), y = (double)j / (N - 1);
      const double v = kind == 0 ? urand() : sin(M_PI * x) * sin(2 * M_PI * y) + 0.5 + 0.1 * urand();
      d[k] = mc->fixed[mc->L][k] ? 0.0 : v;
    }
}

static const FeastLocalMGParams default_params = {.pre_smooth = 4, .post_smooth = 4, .jacobi_damping = 0.7,
                                                  .rtol = 0.1, .max_cycles = 16, .coarse_max_dofs = 200,
                                                  .coarse_rtol = 1e-3};

/* one batch through one backend: c[m] for d[m] */
static int solve_batch(const Backend *be, const FeastLocalMGParams *p, int M, const Macro *mc,
                       double *const *d, double *const *c, FeastLocalMGStats *st) {
  FeastLocalSolver *ls = NULL;
  FeastLocalProblem probs[NMACROS];
  for (int m = 0; m < M; m++) probs[m] = mc[m].prob;
  int rc = feast_local_create(be->target, be->precision, &ls);
  if (!rc) rc = feast_local_setup(ls, M, probs, p);
  if (!rc) rc = feast_local_solve(ls, (const double *const *)d, c, st);
  feast_local_destroy(&ls);
  return rc;
}

/* padded finest-level vectors of a batch */
typedef struct {
  int N;
  double *v[NMACROS];
} Vecs;

static void vecs_alloc(Vecs *v, int L) {
  v->N = feast_level_n(L);
  for (int m = 0; m < NMACROS; m++) feast_grid_alloc(v->N, &v->v[m]);
}
static void vecs_free(Vecs *v) {
  for (int m = 0; m < NMACROS; m++) feast_grid_free(v->N, &v->v[m]);
}

/* ------------------------------------------- per-point kernels vs plain references */

/* a random 9-band matrix of an N x N grid: couplings that leave the grid are 0 */
static void random_band(int N, FeastBand9 *A) {
  feast_band9_create(N, A);
  for (int j = 0; j < N; j++)
    for (int i = 0; i < N; i++)
      for (int k = 0; k < FEAST_NBANDS; k++) {
        const int ii = i + k % 3 - 1, jj = j + k / 3 - 1;
        const int inside = ii >= 0 && ii < N && jj >= 0 && jj < N;
        A->band[k][(long)j * N + i] = !inside ? 0.0 : k == FEAST_BAND_DIAG ? 4.0 + urand() : urand();
      }
}

static void check_kernels(void) {
  const int Nc = 9, Nf = 17;
  FeastBand9 A;
  random_band(Nf, &A);
  double *x, *b, *c, *f;
  float *xf, *bf;
  feast_grid_alloc(Nf, &x);
  feast_grid_alloc(Nf, &b);
  feast_grid_alloc(Nf, &f);
  feast_grid_alloc(Nc, &c);
  feast_grid_alloc_f(Nf, &xf);
  feast_grid_alloc_f(Nf, &bf);
  for (long i = 0; i < (long)Nf * Nf; i++) {
    x[i] = urand();
    b[i] = urand();
    f[i] = urand();
    xf[i] = (float)x[i];
    bf[i] = (float)b[i];
  }
  for (long i = 0; i < (long)Nc * Nc; i++) c[i] = urand();
  float *bandf[FEAST_NBANDS];
  for (int k = 0; k < FEAST_NBANDS; k++) {
    bandf[k] = malloc(sizeof(float) * Nf * Nf);
    for (long i = 0; i < (long)Nf * Nf; i++) bandf[k][i] = (float)A.band[k][i];
  }
  const double *const *bd = (const double *const *)A.band;
  const float *const *bfl = (const float *const *)bandf;
  double err_row = 0, err_rowf = 0, err_jac = 0, err_jacf = 0, err_p = 0, err_r = 0, err_pf = 0, err_rf = 0;
  for (int j = 0; j < Nf; j++)
    for (int i = 0; i < Nf; i++) {
      const long idx = (long)j * Nf + i;
      double ref = 0, scale = 0; /* (A x)_idx over the neighbours inside the grid */
      for (int k = 0; k < FEAST_NBANDS; k++) {
        const int ii = i + k % 3 - 1, jj = j + k / 3 - 1;
        if (ii < 0 || ii >= Nf || jj < 0 || jj >= Nf) continue;
        ref += A.band[k][idx] * x[(long)jj * Nf + ii];
        scale += fabs(A.band[k][idx] * x[(long)jj * Nf + ii]);
      }
      err_row = fmax(err_row, fabs(feast_band9_row_d(bd, x, idx, Nf) - ref) / scale);
      err_rowf = fmax(err_rowf, fabs(feast_band9_row_f(bfl, xf, idx, Nf) - ref) / scale);
      const double a = A.band[FEAST_BAND_DIAG][idx], jref = x[idx] + 0.7 * (b[idx] - ref) / a;
      const double jscale = fabs(x[idx]) + 0.7 * (fabs(b[idx]) + scale) / fabs(a);
      err_jac = fmax(err_jac, fabs(feast_jacobi_point_d(bd, b, x, idx, Nf, 0.7) - jref) / jscale);
      err_jacf = fmax(err_jacf, fabs(feast_jacobi_point_f(bfl, bf, xf, idx, Nf, 0.7f) - jref) / jscale);
      double pref = 0; /* (P c)_(i,j) = sum_IJ hat(i - 2I) hat(j - 2J) c_IJ */
      for (int J = 0; J < Nc; J++)
        for (int I = 0; I < Nc; I++) pref += hat(i - 2 * I) * hat(j - 2 * J) * c[(long)J * Nc + I];
      err_p = fmax(err_p, fabs(feast_prolongate_point_d(c, Nc, i, j) - pref));
    }
  float cf[81], ff[17 * 17];
  for (int i = 0; i < Nc * Nc; i++) cf[i] = (float)c[i];
  for (int i = 0; i < Nf * Nf; i++) ff[i] = (float)f[i];
  for (int j = 0; j < Nf; j++)
    for (int i = 0; i < Nf; i++) err_pf = fmax(err_pf, fabs(feast_prolongate_point_f(cf, Nc, i, j) -
                                                            feast_prolongate_point_d(c, Nc, i, j)));
  double Rf_c = 0, f_Pc = 0;
  for (int J = 0; J < Nc; J++)
    for (int I = 0; I < Nc; I++) {
      double rref = 0; /* (R f)_IJ = (P^T f)_IJ */
      for (int j = 0; j < Nf; j++)
        for (int i = 0; i < Nf; i++) rref += hat(i - 2 * I) * hat(j - 2 * J) * f[(long)j * Nf + i];
      const double r = feast_restrict_point_d(f, Nf, I, J);
      err_r = fmax(err_r, fabs(r - rref));
      err_rf = fmax(err_rf, fabs(feast_restrict_point_f(ff, Nf, I, J) - r));
      Rf_c += r * c[(long)J * Nc + I];
    }
  for (int j = 0; j < Nf; j++)
    for (int i = 0; i < Nf; i++) f_Pc += f[(long)j * Nf + i] * feast_prolongate_point_d(c, Nc, i, j);
  printf("kernels: row %.1e (float %.1e), jacobi %.1e (%.1e), prolong %.1e (%.1e), restrict %.1e (%.1e)\n",
         err_row, err_rowf, err_jac, err_jacf, err_p, err_pf, err_r, err_rf);
  CHECK(err_row <= 1e-15 && err_jac <= 1e-15);
  CHECK(err_rowf <= 1e-6 && err_jacf <= 1e-6);
  CHECK(err_p <= 1e-15 && err_r <= 1e-14);
  CHECK(err_pf <= 1e-6 && err_rf <= 4e-6);
  CHECK_CLOSE(Rf_c, f_Pc, 1e-13); /* <R f, c> = <f, P c> */
  /* a bilinear function is reproduced exactly by the prolongation */
  for (int J = 0; J < Nc; J++)
    for (int I = 0; I < Nc; I++) c[J * Nc + I] = 1.0 + 2.0 * I + 3.0 * J + 0.5 * I * J;
  int exact = 1;
  for (int j = 0; j < Nf; j++)
    for (int i = 0; i < Nf; i++)
      exact &= feast_prolongate_point_d(c, Nc, i, j) == 1.0 + i + 1.5 * j + 0.125 * i * j;
  CHECK(exact);
  for (int k = 0; k < FEAST_NBANDS; k++) free(bandf[k]);
  feast_band9_destroy(&A);
  feast_grid_free(Nf, &x);
  feast_grid_free(Nf, &b);
  feast_grid_free(Nf, &f);
  feast_grid_free(Nc, &c);
  feast_grid_free_f(Nf, &xf);
  feast_grid_free_f(Nf, &bf);
}

/* ------------------------- the algorithm of coproc/backend.h, plainly, in double */

typedef struct {
  const Macro *mc;
  const FeastLocalMGParams *p;
  int lc;
  double *x[MAXL + 1], *b[MAXL + 1], *r[MAXL + 1], *t[MAXL + 1];
} Ref;

static double ref_Ax(const FeastBand9 *A, const double *x, int i, int j) {
  const int N = A->N;
  double s = 0;
  for (int k = 0; k < FEAST_NBANDS; k++) {
    const int ii = i + k % 3 - 1, jj = j + k / 3 - 1;
    if (ii >= 0 && ii < N && jj >= 0 && jj < N) s += A->band[k][(long)j * N + i] * x[(long)jj * N + ii];
  }
  return s;
}

static void ref_defect(const FeastBand9 *A, const double *b, const double *x, double *r) {
  for (int j = 0; j < A->N; j++)
    for (int i = 0; i < A->N; i++) r[(long)j * A->N + i] = b[(long)j * A->N + i] - ref_Ax(A, x, i, j);
}

static double ref_dot(const double *a, const double *b, long n) {
  double s = 0;
  for (long i = 0; i < n; i++) s += a[i] * b[i];
  return s;
}

static void ref_cg(Ref *R, int l) {
  const FeastBand9 *A = &R->mc->A[l];
  const long n = (long)A->N * A->N;
  double *x = R->x[l], *r = R->r[l], *p = R->t[l], *q = malloc(sizeof(double) * n);
  for (long i = 0; i < n; i++) {
    x[i] = 0;
    r[i] = p[i] = R->b[l][i];
  }
  double rr = ref_dot(r, r, n);
  const double stop = R->p->coarse_rtol * sqrt(rr);
  for (long it = 0; it < n && rr > 0; it++) {
    for (int j = 0; j < A->N; j++)
      for (int i = 0; i < A->N; i++) q[(long)j * A->N + i] = ref_Ax(A, p, i, j);
    const double alpha = rr / ref_dot(p, q, n);
    for (long i = 0; i < n; i++) {
      x[i] += alpha * p[i];
      r[i] -= alpha * q[i];
    }
    const double rrn = ref_dot(r, r, n);
    if (sqrt(rrn) <= stop) break;
    for (long i = 0; i < n; i++) p[i] = r[i] + rrn / rr * p[i];
    rr = rrn;
  }
  free(q);
}

/* x <- x + omega D^-1 (b - A x), `steps` times */
static void ref_jacobi(const FeastBand9 *A, const double *b, double *x, double *r, double omega, int steps) {
  const long n = (long)A->N * A->N;
  for (int s = 0; s < steps; s++) {
    ref_defect(A, b, x, r);
    for (long i = 0; i < n; i++) x[i] += omega * r[i] / A->band[FEAST_BAND_DIAG][i];
  }
}

static void ref_vcycle(Ref *R, int l) {
  if (l == R->lc) {
    ref_cg(R, l);
    return;
  }
  const FeastBand9 *A = &R->mc->A[l];
  const int N = A->N, Nc = feast_level_n(l - 1);
  double *x = R->x[l], *b = R->b[l], *r = R->r[l];
  memset(x, 0, sizeof(double) * (size_t)N * N);
  ref_jacobi(A, b, x, r, R->p->jacobi_damping, R->p->pre_smooth);
  ref_defect(A, b, x, r);
  for (int J = 0; J < Nc; J++) /* b_c = P^T r, 0 on fixed coarse nodes */
    for (int I = 0; I < Nc; I++) {
      double v = 0;
      for (int j = 2 * J - 1; j <= 2 * J + 1; j++)
        for (int i = 2 * I - 1; i <= 2 * I + 1; i++)
          if (i >= 0 && i < N && j >= 0 && j < N) v += hat(i - 2 * I) * hat(j - 2 * J) * r[(long)j * N + i];
      R->b[l - 1][(long)J * Nc + I] = R->mc->fixed[l - 1][(long)J * Nc + I] ? 0.0 : v;
    }
  ref_vcycle(R, l - 1);
  for (int j = 0; j < N; j++) /* x += P x_c on free nodes */
    for (int i = 0; i < N; i++) {
      double v = 0;
      for (int J = j / 2; J <= (j + 1) / 2; J++)
        for (int I = i / 2; I <= (i + 1) / 2; I++) v += hat(i - 2 * I) * hat(j - 2 * J) * R->x[l - 1][(long)J * Nc + I];
      if (!R->mc->fixed[l][(long)j * N + i]) x[(long)j * N + i] += v;
    }
  ref_jacobi(A, b, x, r, R->p->jacobi_damping, R->p->post_smooth);
}

/* c = local MG of macro mc for d, plainly; returns the cycles */
static int ref_solve(const Macro *mc, const FeastLocalMGParams *p, const double *d, double *c) {
  Ref R = {mc, p, 0, {0}, {0}, {0}, {0}};
  const int L = mc->L;
  R.lc = 0;
  while (R.lc < L && (long)feast_level_n(R.lc + 1) * feast_level_n(R.lc + 1) <= p->coarse_max_dofs) R.lc++;
  for (int l = R.lc; l <= L; l++) {
    const long n = (long)feast_level_n(l) * feast_level_n(l);
    R.x[l] = calloc(n, sizeof(double));
    R.b[l] = calloc(n, sizeof(double));
    R.r[l] = calloc(n, sizeof(double));
    R.t[l] = calloc(n, sizeof(double));
  }
  const long n = (long)feast_level_n(L) * feast_level_n(L);
  double *d0 = malloc(sizeof(double) * n);
  for (long i = 0; i < n; i++) {
    d0[i] = mc->fixed[L][i] ? 0.0 : d[i];
    R.b[L][i] = d0[i];
    c[i] = 0;
  }
  const double r0 = norm(d0, n);
  double r = r0;
  int cycles = 0;
  while (r > p->rtol * r0 && cycles < p->max_cycles) {
    ref_vcycle(&R, L);
    for (long i = 0; i < n; i++) c[i] += R.x[L][i];
    ref_defect(&mc->A[L], d0, c, R.b[L]);
    r = norm(R.b[L], n);
    cycles++;
  }
  for (long i = 0; i < n; i++)
    if (mc->fixed[L][i]) c[i] = 0;
  for (int l = R.lc; l <= L; l++) {
    free(R.x[l]);
    free(R.b[l]);
    free(R.r[l]);
    free(R.t[l]);
  }
  free(d0);
  return cycles;
}

/* the double backends = the plain implementation (fixed cycles, a tight coarse CG so that
 * its stopping step cannot differ by rounding), also for odd smoothing counts */
static void check_reference(int L, int stencil) {
  Macro mc[NMACROS];
  Vecs d, c;
  vecs_alloc(&d, L);
  vecs_alloc(&c, L);
  const long n = (long)d.N * d.N;
  double *cref = malloc(sizeof(double) * n);
  Macro gal[NMACROS]; /* what the backends see */
  for (int m = 0; m < NMACROS; m++) {
    build_macro(&mc[m], L, stencil, batch_edges[m]);
    build_macro(&gal[m], L, stencil, batch_edges[m]);
    make_galerkin(&gal[m]);
    fill_defect(&mc[m], m & 1, d.v[m]);
  }
  const int smooth[][2] = {{4, 4}, {1, 2}, {0, 3}, {2, 0}};
  for (int s = 0; s < 4; s++) {
    FeastLocalMGParams p = default_params;
    p.pre_smooth = smooth[s][0];
    p.post_smooth = smooth[s][1];
    p.rtol = 0;
    p.max_cycles = 2;
    p.coarse_rtol = 1e-12;
    double worst = 0;
    for (int m = 0; m < NMACROS; m++) {
      ref_solve(&gal[m], &p, d.v[m], cref);
      for (int b = 0; b < NBACKENDS; b++) {
        const Backend *be = &all_backends[b];
        if (!backend_here(be) || strcmp(be->precision, "double") != 0) continue;
        FeastLocalMGStats st;
        CHECK_OK(solve_batch(be, &p, NMACROS, mc, d.v, c.v, &st));
        CHECK(st.cycles == 2 * NMACROS && st.max_cycles_hit == NMACROS);
        worst = fmax(worst, rel_diff(c.v[m], cref, n));
      }
    }
    printf("L=%d %s pre %d post %d: double backends vs plain reference %.2e\n", L, stencil == Q1 ? "Q1" : "5pt",
           p.pre_smooth, p.post_smooth, worst);
    CHECK(worst <= 1e-10);
  }
  for (int m = 0; m < NMACROS; m++) {
    free_macro(&mc[m]);
    free_macro(&gal[m]);
  }
  vecs_free(&d);
  vecs_free(&c);
  free(cref);
}

/* ------------------------------------------------------ convergence and accuracy */

/* rtol 0.1 in at most 3 cycles at every level (max_cycles = 3, no macro may hit it),
 * verified by an independent double residual; returns the cycles of the batch */
static long check_convergence(const Backend *be, int L, int stencil, int kind) {
  Macro mc[NMACROS];
  Vecs d, c, r;
  vecs_alloc(&d, L);
  vecs_alloc(&c, L);
  vecs_alloc(&r, L);
  const long n = (long)d.N * d.N;
  for (int m = 0; m < NMACROS; m++) {
    build_macro(&mc[m], L, stencil, batch_edges[m]);
    fill_defect(&mc[m], kind, d.v[m]);
  }
  FeastLocalMGParams p = default_params;
  p.max_cycles = 3;
  FeastLocalMGStats st;
  CHECK_OK(solve_batch(be, &p, NMACROS, mc, d.v, c.v, &st));
  CHECK(st.max_cycles_hit == 0 && st.nonfinite == 0);
  for (int m = 0; m < NMACROS; m++) {
    feast_band9_defect(&mc[m].A[L], d.v[m], c.v[m], r.v[m]);
    CHECK(norm(r.v[m], n) <= 0.1 * (1 + 1e-4) * norm(d.v[m], n));
    free_macro(&mc[m]);
  }
  vecs_free(&d);
  vecs_free(&c);
  vecs_free(&r);
  return st.cycles;
}

/* the V cycle's convergence rate: (||r_3|| / ||r_0||)^(1/3) over 3 cycles (rtol 0), worst
 * macro of the batch, smooth defect */
static double cycle_rate(const Backend *be, int L, int stencil) {
  Macro mc[NMACROS];
  Vecs d, c, r;
  vecs_alloc(&d, L);
  vecs_alloc(&c, L);
  vecs_alloc(&r, L);
  for (int m = 0; m < NMACROS; m++) {
    build_macro(&mc[m], L, stencil, batch_edges[m]);
    fill_defect(&mc[m], 1, d.v[m]);
  }
  FeastLocalMGParams p = default_params;
  p.rtol = 0;
  p.max_cycles = 3;
  FeastLocalMGStats st;
  CHECK_OK(solve_batch(be, &p, NMACROS, mc, d.v, c.v, &st));
  const long n = (long)d.N * d.N;
  double worst = 0;
  for (int m = 0; m < NMACROS; m++) {
    feast_band9_defect(&mc[m].A[L], d.v[m], c.v[m], r.v[m]);
    worst = fmax(worst, cbrt(norm(r.v[m], n) / norm(d.v[m], n)));
    free_macro(&mc[m]);
  }
  vecs_free(&d);
  vecs_free(&c);
  vecs_free(&r);
  return worst;
}

/* float vs double on fixed cycles (rtol 0: the same work in both precisions):
 * e[0] = ||cs - cd|| / ||cd||, e[1] = ||A (cs - cd)|| / ||d|| (worst macro) */
static void single_vs_double(const char *target, int L, int stencil, double e[2]) {
  Macro mc[NMACROS];
  Vecs d, cd, cs, r;
  vecs_alloc(&d, L);
  vecs_alloc(&cd, L);
  vecs_alloc(&cs, L);
  vecs_alloc(&r, L);
  for (int m = 0; m < NMACROS; m++) {
    build_macro(&mc[m], L, stencil, batch_edges[m]);
    fill_defect(&mc[m], m & 1, d.v[m]);
  }
  FeastLocalMGParams p = default_params;
  p.rtol = 0;
  p.max_cycles = 2;
  FeastLocalMGStats st;
  const Backend dbl = {target, "double"}, sgl = {target, "single"};
  CHECK_OK(solve_batch(&dbl, &p, NMACROS, mc, d.v, cd.v, &st));
  CHECK_OK(solve_batch(&sgl, &p, NMACROS, mc, d.v, cs.v, &st));
  const long n = (long)d.N * d.N;
  e[0] = e[1] = 0;
  for (int m = 0; m < NMACROS; m++) {
    e[0] = fmax(e[0], rel_diff(cs.v[m], cd.v[m], n));
    for (long i = 0; i < n; i++) cs.v[m][i] -= cd.v[m][i];
    feast_band9_matvec(&mc[m].A[L], cs.v[m], r.v[m]);
    e[1] = fmax(e[1], norm(r.v[m], n) / norm(d.v[m], n));
    free_macro(&mc[m]);
  }
  vecs_free(&d);
  vecs_free(&cd);
  vecs_free(&cs);
  vecs_free(&r);
}

static void check_levels(void) {
  for (int stencil = Q1; stencil <= FIVE; stencil++)
    for (int b = 0; b < NBACKENDS; b++) {
      const Backend *be = &all_backends[b];
      if (!backend_here(be)) continue;
      printf("%s %s %-6s cycles per macro (random/smooth defect), convergence rate per cycle:\n   ",
             stencil == Q1 ? "Q1 " : "5pt", be->target, be->precision);
      for (int L = 4; L <= MAXL; L++) {
        const long c0 = check_convergence(be, L, stencil, 0), c1 = check_convergence(be, L, stencil, 1);
        const double rate = cycle_rate(be, L, stencil);
        printf(" L%d %.2f/%.2f %.3f", L, (double)c0 / NMACROS, (double)c1 / NMACROS, rate);
        CHECK(rate <= 0.1); /* one digit per cycle, whatever L */
      }
      printf("\n");
    }
  for (int stencil = Q1; stencil <= FIVE; stencil++)
    for (int t = 0; t < 2; t++) {
      const char *target = t ? "gpu" : "cpu";
      if (t && !feast_local_available("gpu")) continue;
      printf("%s %s single vs double after 2 cycles, ||cs-cd||/||cd|| and ||A(cs-cd)||/||d||:\n   ",
             stencil == Q1 ? "Q1 " : "5pt", target);
      for (int L = 4; L <= MAXL; L++) {
        double e[2];
        single_vs_double(target, L, stencil, e);
        printf("  L%d %.1e %.1e", L, e[0], e[1]);
        /* float rounding of c (and of A c in the float defect) is amplified by the
         * conditioning of A, ~4^L: both measures grow 4x per level (~0.03 eps 4^L) */
        CHECK(e[0] <= 0.25 * FLT_EPSILON * pow(4.0, L));
        CHECK(e[1] <= 0.25 * FLT_EPSILON * pow(4.0, L));
        if (L <= 7) CHECK(e[0] <= 1e-4);
      }
      printf("\n");
    }
}

/* feast_band9_galerkin (what the front end uses) = the plain P^T A P here; for Q1 with
 * all edges fixed = the rediscretised matrix (nested spaces: couplings among free nodes,
 * and the identity rows), not with free edges; symmetric */
static void check_galerkin(void) {
  for (int edges = 15; edges >= 0; edges -= 5) {
    Macro mc, g;
    build_macro(&mc, 5, Q1, edges);
    build_macro(&g, 5, Q1, edges);
    make_galerkin(&g);
    double diff = 0, asym = 0, lib = 0;
    for (int l = 0; l < 5; l++) {
      const int N = feast_level_n(l);
      FeastBand9 G;
      CHECK_OK(feast_band9_galerkin(&g.A[l + 1], g.fixed[l + 1], g.fixed[l], &G));
      for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++)
          for (int k = 0; k < FEAST_NBANDS; k++) {
            const long idx = (long)j * N + i, nb = idx + feast_band_offset(k, N);
            lib = fmax(lib, fabs(G.band[k][idx] - g.A[l].band[k][idx]));
            const int ii = i + k % 3 - 1, jj = j + k / 3 - 1;
            if (ii < 0 || jj < 0 || ii >= N || jj >= N || g.fixed[l][nb] != g.fixed[l][idx]) continue;
            diff = fmax(diff, fabs(g.A[l].band[k][idx] - mc.A[l].band[k][idx]));
            if (!g.fixed[l][idx]) asym = fmax(asym, fabs(g.A[l].band[k][idx] - g.A[l].band[FEAST_NBANDS - 1 - k][nb]));
          }
      feast_band9_destroy(&G);
    }
    CHECK(lib <= 1e-13);
    CHECK(asym <= 1e-12);
    if (edges == 15) CHECK(diff <= 1e-13);
    else CHECK(diff > 0.1);
    free_macro(&mc);
    free_macro(&g);
  }
}

/* ------------------------------------- fixed nodes, NaN, batches, counting, reuse */

static int all_equal(const double *a, const double *b, long n) {
  return memcmp(a, b, sizeof(double) * (size_t)n) == 0;
}

static void check_behaviour(const Backend *be, int L) {
  Macro mc[NMACROS];
  Vecs d, c, c1, keep;
  vecs_alloc(&d, L);
  vecs_alloc(&c, L);
  vecs_alloc(&c1, L);
  vecs_alloc(&keep, L);
  const int N = d.N;
  const long n = (long)N * N;
  for (int m = 0; m < NMACROS; m++) {
    build_macro(&mc[m], L, Q1, batch_edges[m]);
    fill_defect(&mc[m], 0, d.v[m]);
    for (long i = 0; i < n; i++)
      if (mc[m].fixed[L][i]) d.v[m][i] = 10 * urand(); /* the backend must ignore these */
    memcpy(keep.v[m], d.v[m], sizeof(double) * n);
  }
  FeastLocalMGStats st, st1;
  const FeastLocalMGParams *p = &default_params;
  CHECK_OK(solve_batch(be, p, NMACROS, mc, d.v, c.v, &st));
  int fixed_zero = 1, pad_zero = 1, d_same = 1;
  for (int m = 0; m < NMACROS; m++) {
    for (long i = 0; i < n; i++)
      if (mc[m].fixed[L][i]) fixed_zero &= c.v[m][i] == 0.0;
    for (long i = 1; i <= N + 1; i++) pad_zero &= c.v[m][-i] == 0.0 && c.v[m][n - 1 + i] == 0.0;
    d_same &= all_equal(d.v[m], keep.v[m], n);
  }
  CHECK(fixed_zero);
  CHECK(pad_zero);
  CHECK(d_same);
  /* batch = macro by macro */
  long cycles1 = 0;
  int same = 1;
  for (int m = 0; m < NMACROS; m++) {
    double *dm[NMACROS] = {d.v[m]}, *cm[NMACROS] = {c1.v[m]};
    CHECK_OK(solve_batch(be, p, 1, &mc[m], dm, cm, &st1));
    cycles1 += st1.cycles;
    same &= all_equal(c1.v[m], c.v[m], n);
  }
  CHECK(same);
  CHECK(cycles1 == st.cycles);
  /* a NaN in macro 1, an Inf in macro 3: those two zeroed and counted, the others bitwise
   * as before */
  d.v[1][n / 2 + 3] = NAN;
  d.v[3][n / 3 + 1] = INFINITY;
  if (mc[1].fixed[L][n / 2 + 3] || mc[3].fixed[L][n / 3 + 1]) fprintf(stderr, "NaN/Inf placed on a fixed node\n");
  CHECK_OK(solve_batch(be, p, NMACROS, mc, d.v, c1.v, &st1));
  CHECK(st1.nonfinite == 2);
  CHECK(norm(c1.v[1], n) == 0.0 && norm(c1.v[3], n) == 0.0);
  CHECK(all_equal(c1.v[0], c.v[0], n) && all_equal(c1.v[2], c.v[2], n));
  CHECK(st1.max_cycles_hit == 0);
  memcpy(d.v[1], keep.v[1], sizeof(double) * n);
  memcpy(d.v[3], keep.v[3], sizeof(double) * n);
  /* max_cycles reached: counted per macro */
  FeastLocalMGParams q = *p;
  q.rtol = 1e-14;
  q.max_cycles = 2;
  CHECK_OK(solve_batch(be, &q, NMACROS, mc, d.v, c1.v, &st1));
  CHECK(st1.cycles == 2 * NMACROS && st1.max_cycles_hit == NMACROS && st1.nonfinite == 0);
  /* a zero defect: no cycle, c = 0 */
  for (long i = 0; i < n; i++) d.v[2][i] = 0;
  CHECK_OK(solve_batch(be, p, NMACROS, mc, d.v, c1.v, &st1));
  CHECK(norm(c1.v[2], n) == 0.0);
  CHECK(all_equal(c1.v[0], c.v[0], n));
  /* one set-up solver, solved twice, and set up again: the same results */
  FeastLocalSolver *ls = NULL;
  FeastLocalProblem probs[NMACROS];
  for (int m = 0; m < NMACROS; m++) probs[m] = mc[m].prob;
  memcpy(d.v[2], keep.v[2], sizeof(double) * n);
  CHECK_OK(feast_local_create(be->target, be->precision, &ls));
  CHECK_OK(feast_local_setup(ls, NMACROS, probs, p));
  CHECK_OK(feast_local_solve(ls, (const double *const *)d.v, c1.v, &st1));
  CHECK_OK(feast_local_solve(ls, (const double *const *)d.v, c1.v, &st1));
  CHECK_OK(feast_local_setup(ls, NMACROS, probs, p));
  CHECK_OK(feast_local_solve(ls, (const double *const *)d.v, c1.v, &st1));
  same = 1;
  for (int m = 0; m < NMACROS; m++) same &= all_equal(c1.v[m], c.v[m], n);
  CHECK(same);
  CHECK(strcmp(feast_local_precision(ls), be->precision) == 0);
  feast_local_destroy(&ls);
  CHECK(ls == NULL);
  for (int m = 0; m < NMACROS; m++) free_macro(&mc[m]);
  vecs_free(&d);
  vecs_free(&c);
  vecs_free(&c1);
  vecs_free(&keep);
}

/* a macro that is its own coarsest level (L <= lc): CG only */
static void check_tiny(const Backend *be) {
  Macro mc;
  build_macro(&mc, 2, Q1, 5);
  Vecs d, c, r;
  vecs_alloc(&d, 2);
  vecs_alloc(&c, 2);
  vecs_alloc(&r, 2);
  fill_defect(&mc, 0, d.v[0]);
  FeastLocalMGStats st;
  CHECK_OK(solve_batch(be, &default_params, 1, &mc, d.v, c.v, &st));
  feast_band9_defect(&mc.A[2], d.v[0], c.v[0], r.v[0]);
  CHECK(st.cycles == 1 && norm(r.v[0], 25) <= 1e-2 * norm(d.v[0], 25));
  free_macro(&mc);
  vecs_free(&d);
  vecs_free(&c);
  vecs_free(&r);
}

/* --------------------------------------------------------------------- errors */


static void check_errors(void) {
  FeastLocalSolver *ls = NULL;
  CHECK(feast_local_create("fpga", "double", &ls) == FEAST_ERR_CONFIG);
  CHECK(strstr(feast_error_message(), "fpga") && strstr(feast_error_message(), "cpu or gpu"));
  feast_error_clear();
  CHECK(feast_local_create("cpu", "half", &ls) == FEAST_ERR_CONFIG);
  CHECK(strstr(feast_error_message(), "half") && strstr(feast_error_message(), "double or single"));
  feast_error_clear();
  CHECK_CODE(feast_local_create(NULL, "double", &ls), FEAST_ERR_CONFIG);
  CHECK_CODE(feast_local_create("cpu", NULL, &ls), FEAST_ERR_CONFIG);
  CHECK(ls == NULL);
  if (!feast_local_available("gpu")) {
    CHECK(feast_local_create("gpu", "auto", &ls) == FEAST_ERR_UNSUPPORTED);
    CHECK(strstr(feast_error_message(), "solver.target = cpu") && strstr(feast_error_message(), "gpu_fallback"));
    feast_error_clear();
    CHECK(ls == NULL);
  }
  /* the registry string */
  const char *list = feast_local_backends();
  printf("backends: %s (gpu available: %d)\n", list, feast_local_available("gpu"));
  CHECK(strncmp(list, "cpu(double,single)", 18) == 0);
#ifdef FEAST_HAVE_CUDA
  CHECK(strstr(list, "gpu(single,double)") != NULL);
#else
  CHECK(strstr(list, "gpu") == NULL);
#endif
  CHECK(feast_local_available("cpu") && !feast_local_available("fpga"));
  CHECK(strcmp(feast_local_resolve_precision("gpu", "auto"), "single") == 0);
  CHECK(strcmp(feast_local_resolve_precision("cpu", "auto"), "double") == 0);
  CHECK_OK(feast_local_create("cpu", "auto", &ls));
  CHECK(strcmp(feast_local_precision(ls), "double") == 0);
  /* order of calls */
  FeastLocalMGStats st;
  CHECK_CODE(feast_local_solve(ls, NULL, NULL, &st), FEAST_ERR_ARG);
  /* levels, sizes, parameters */
  Macro a, b;
  build_macro(&a, 3, Q1, 15);
  build_macro(&b, 4, Q1, 15);
  FeastLocalProblem probs[2] = {a.prob, b.prob};
  CHECK(feast_local_setup(ls, 2, probs, &default_params) == FEAST_ERR_ARG);
  CHECK(strstr(feast_error_message(), "differ in level") != NULL);
  feast_error_clear();
  CHECK_CODE(feast_local_setup(ls, -1, probs, &default_params), FEAST_ERR_ARG);
  FeastLocalProblem wrong = a.prob;
  FeastBand9 A[4];
  memcpy(A, a.A, sizeof A);
  A[2] = b.A[3]; /* N = 9 where 5 belongs */
  wrong.A = A;
  CHECK_CODE(feast_local_setup(ls, 1, &wrong, &default_params), FEAST_ERR_ARG);
  wrong = a.prob;
  wrong.level = FEAST_MAX_LEVEL + 1;
  CHECK_CODE(feast_local_setup(ls, 1, &wrong, &default_params), FEAST_ERR_ARG);
  FeastLocalMGParams bad[6];
  for (int i = 0; i < 6; i++) bad[i] = default_params;
  bad[0].pre_smooth = -1;
  bad[1].jacobi_damping = 0;
  bad[2].rtol = 1;
  bad[3].max_cycles = 0;
  bad[4].coarse_max_dofs = 0;
  bad[5].coarse_rtol = -1;
  for (int i = 0; i < 6; i++) CHECK_CODE(feast_local_setup(ls, 1, &a.prob, &bad[i]), FEAST_ERR_ARG);
  /* a failed setup leaves the solver unusable until a good one */
  CHECK_CODE(feast_local_solve(ls, NULL, NULL, &st), FEAST_ERR_ARG);
  /* an empty batch (a rank without macros) */
  CHECK_OK(feast_local_setup(ls, 0, NULL, &default_params));
  CHECK_OK(feast_local_solve(ls, NULL, NULL, &st));
  CHECK(st.cycles == 0 && st.nonfinite == 0);
  /* a good setup after all that */
  CHECK_OK(feast_local_setup(ls, 1, &a.prob, &default_params));
  Vecs d, c;
  vecs_alloc(&d, 3);
  vecs_alloc(&c, 3);
  fill_defect(&a, 0, d.v[0]);
  CHECK_OK(feast_local_solve(ls, (const double *const *)d.v, c.v, &st));
  CHECK(st.cycles >= 1);
  feast_local_destroy(&ls);
  CHECK(ls == NULL);
  feast_local_destroy(&ls); /* twice: a no-op */
  vecs_free(&d);
  vecs_free(&c);
  free_macro(&a);
  free_macro(&b);
}

static int run(void) {
  check_kernels();
  for (int L = 3; L <= 6; L++) check_reference(L, L & 1 ? Q1 : FIVE);
  check_galerkin();
  check_levels();
  for (int b = 0; b < NBACKENDS; b++)
    if (backend_here(&all_backends[b])) {
      check_behaviour(&all_backends[b], 6);
      check_tiny(&all_backends[b]);
    }
  check_errors();
  return 0;
}





FEAST_TEST_MAIN(run)

/* The CPU local multigrid backends (double and single) against a straightforward double
 * reference on fresh random data: residual reduction per solve independent of the level,
 * single = double to float accuracy, fixed nodes untouched, NaN confined to its macro,
 * the shared per-point transfer kernels are transposes of each other. Nonsymmetric local
 * problems (convection with a negative reaction: the symmetric part is indefinite, where
 * CG on the coarse level broke down): level-independent cycle counts, an exact coarse
 * solve, feast_local_update bitwise equal to a fresh setup; the coarse-size cap and a
 * singular coarse matrix are errors. Hierarchies with their insides copied from the
 * levels of a matrix that differs only near the edges (ScaRC's global levels) solve
 * bitwise as the full products; the copied values are used. */
#include "coproc/coproc.h"
#include "feast/la/band9_kernels.h"
#include "feast/base/error.h"
#include "feast/mesh/mesh.h"
#include "feast/fem/transfer.h"
#include "feast_test.h"
#include <stdlib.h>
#include <string.h>

enum { NMACROS = 3, MAXL = 8 };

/* the stencil of a macro (feast_test_stencil): Q1 Laplace plus, in grid units on level L
 * (h = 2^-L), first-order upwind convection h (bx, by).grad and a reaction h^2 k */
typedef struct {
  double bx, by, k;
} Coeffs;
static const Coeffs laplace = {0, 0, 0};
static const Coeffs conv1 = {40, 20, -150}, conv2 = {-30, 35, -80};

typedef struct {
  int L;
  FeastBand9 A;                  /* the finest level */
  unsigned char *fixed[MAXL + 1]; /* every level */
  FeastLocalProblem prob;
} Macro;

/* macro m fixes its edges 0..m (edges not fixed act as interface rows) */
static int is_fixed(int m, int N, int i, int j) {
  return (j == 0) || (m >= 1 && i == N - 1) || (m >= 2 && j == N - 1) || (m >= 3 && i == 0);
}

/* A <- the stencil cf, identity rows at the fixed nodes */
static void fill_matrix(FeastBand9 *A, const unsigned char *fixed, Coeffs cf) {
  feast_test_stencil(A, fixed, cf.bx, cf.by, cf.k);
}

static void build_macro(Macro *mc, int L, int m, Coeffs cf) {
  mc->L = L;
  for (int l = 0; l <= L; l++) {
    const int N = feast_level_n(l);
    mc->fixed[l] = calloc((size_t)N * N, 1);
    for (int j = 0; j < N; j++)
      for (int i = 0; i < N; i++) mc->fixed[l][(long)j * N + i] = (unsigned char)is_fixed(m, N, i, j);
  }
  feast_band9_create(feast_level_n(L), &mc->A);
  fill_matrix(&mc->A, mc->fixed[L], cf);
  mc->prob = (FeastLocalProblem){L, &mc->A, (const unsigned char *const *)mc->fixed, NULL};
}

static void free_macro(Macro *mc) {
  feast_band9_destroy(&mc->A);
  for (int l = 0; l <= mc->L; l++) free(mc->fixed[l]);
}

static double urand(void) { return 2.0 * rand() / RAND_MAX - 1.0; }

static double norm(const double *v, long n) {
  double s = 0;
  for (long i = 0; i < n; i++) s += v[i] * v[i];
  return sqrt(s);
}

/* ||d - A c|| / ||d|| in double */
static double rel_residual(const FeastBand9 *A, const double *d, const double *c) {
  const long n = (long)A->N * A->N;
  double *r;
  feast_grid_alloc(A->N, &r);
  feast_band9_defect(A, d, c, r);
  const double q = norm(r, n) / norm(d, n);
  feast_grid_free(A->N, &r);
  return q;
}

static const FeastLocalMGParams params = {4, 4, 0.7, 0.1, 16, 200, 0, 0, 0};

/* solve the nm macros with one backend: c[m] for d[m]; returns 0 on success */
static int solve_with(const char *target, const char *prec, const FeastLocalMGParams *prm, int nm, Macro *mc,
                      double **d, double **c, FeastLocalMGStats *st) {
  FeastLocalSolver *ls = NULL;
  FeastLocalProblem probs[NMACROS];
  for (int m = 0; m < nm; m++) probs[m] = mc[m].prob;
  int rc = feast_local_create(target, prec, &ls);
  if (!rc) rc = feast_local_setup(ls, nm, probs, prm);
  if (!rc) rc = feast_local_solve(ls, (const double *const *)d, c, st);
  feast_local_destroy(&ls);
  return rc;
}

static int solve(const char *target, const char *prec, Macro *mc, double **d, double **c, FeastLocalMGStats *st) {
  return solve_with(target, prec, &params, NMACROS, mc, d, c, st);
}

/* batch of NMACROS macros of level L with stencil cf and random defects */
static void build_batch(int L, Coeffs cf, Macro *mc, double **d) {
  const int N = feast_level_n(L);
  for (int m = 0; m < NMACROS; m++) {
    build_macro(&mc[m], L, m, cf);
    feast_grid_alloc(N, &d[m]);
    for (long i = 0; i < (long)N * N; i++) d[m][i] = mc[m].fixed[L][i] ? 0.0 : urand();
  }
}

static void free_batch(Macro *mc, double **d) {
  const int N = feast_level_n(mc[0].L);
  for (int m = 0; m < NMACROS; m++) {
    free_macro(&mc[m]);
    feast_grid_free(N, &d[m]);
  }
}

/* both CPU backends on level L: one digit in at most max_cycles V cycles per macro,
 * whatever L; single = double to float accuracy; fixed nodes 0; a NaN stays in its
 * macro. Returns the cycles per macro of the double backend. */
static double check_level(int L, Coeffs cf, const char *name, int max_cycles) {
  Macro mc[NMACROS];
  double *d[NMACROS], *cd[NMACROS], *cs[NMACROS];
  const int N = feast_level_n(L);
  const long n = (long)N * N;
  build_batch(L, cf, mc, d);
  for (int m = 0; m < NMACROS; m++) {
    feast_grid_alloc(N, &cd[m]);
    feast_grid_alloc(N, &cs[m]);
  }
  FeastLocalMGStats sd, ss;
  CHECK_OK(solve("cpu", "double", mc, d, cd, &sd));
  CHECK_OK(solve("cpu", "single", mc, d, cs, &ss));
  printf("%s L=%d: cycles per macro double %.2f, single %.2f\n", name, L, (double)sd.cycles / NMACROS,
         (double)ss.cycles / NMACROS);
  CHECK(sd.cycles <= max_cycles * NMACROS && ss.cycles <= max_cycles * NMACROS);
  CHECK(sd.max_cycles_hit == 0 && ss.max_cycles_hit == 0 && sd.nonfinite == 0 && ss.nonfinite == 0);
  for (int m = 0; m < NMACROS; m++) {
    CHECK(rel_residual(&mc[m].A, d[m], cd[m]) <= 0.1);
    CHECK(rel_residual(&mc[m].A, d[m], cs[m]) <= 0.1);
    double diff = 0;
    int fixed_ok = 1;
    for (long i = 0; i < n; i++) {
      diff += (cd[m][i] - cs[m][i]) * (cd[m][i] - cs[m][i]);
      if (mc[m].fixed[L][i]) fixed_ok &= cd[m][i] == 0.0 && cs[m][i] == 0.0;
    }
    CHECK(fixed_ok);
    if (sd.cycles == ss.cycles) CHECK(sqrt(diff) <= 1e-4 * norm(cd[m], n));
  }
  /* NaN in macro 1 only: zeroed and counted; the others as before */
  d[1][n / 2] = NAN;
  CHECK_OK(solve("cpu", "single", mc, d, cs, &ss));
  CHECK(ss.nonfinite == 1);
  CHECK(norm(cs[1], n) == 0.0);
  CHECK(norm(cs[0], n) > 0.0 && norm(cs[2], n) > 0.0);
  for (int m = 0; m < NMACROS; m++) {
    feast_grid_free(N, &cd[m]);
    feast_grid_free(N, &cs[m]);
  }
  free_batch(mc, d);
  return (double)sd.cycles / NMACROS;
}

/* the nonsymmetric stencil on levels 4..MAXL: level-independent cycle counts */
static void check_nonsymmetric(void) {
  double lo = 1e300, hi = 0;
  for (int L = 4; L <= MAXL; L++) {
    const double c = check_level(L, conv1, "convection", 4);
    lo = fmin(lo, c);
    hi = fmax(hi, c);
  }
  CHECK(hi - lo <= 1.0);
}

/* p^T A p for the bump p(x, y) = sin(pi x) sin(pi y) (zero on the macro's edges) */
static double bump_form(const FeastBand9 *A) {
  const long N = A->N, n = N * N;
  double *p, *q, s = 0;
  feast_grid_alloc(A->N, &p);
  feast_grid_alloc(A->N, &q);
  const double w = acos(-1.0) / (double)(N - 1); /* pi h */
  for (long i = 0; i < n; i++) p[i] = sin(w * (double)(i % N)) * sin(w * (double)(i / N));
  feast_band9_matvec(A, p, q);
  for (long i = 0; i < n; i++) s += p[i] * q[i];
  feast_grid_free(A->N, &p);
  feast_grid_free(A->N, &q);
  return s;
}

/* L = lc (one level): one cycle is the coarse solve alone, x = A^-1 d, exact up to the
 * rounding of the stored inverse (the largest allowed coarse grid at L = 5) */
static void check_coarse_exact(int L, int coarse_max_dofs) {
  Macro mc[NMACROS];
  double *d[NMACROS], *c[NMACROS];
  build_batch(L, conv1, mc, d);
  for (int m = 0; m < NMACROS; m++) feast_grid_alloc(feast_level_n(L), &c[m]);
  /* nonsymmetric, and p^T A p < 0 for some p: CG's step length is meaningless */
  CHECK(bump_form(&mc[0].A) < 0);
  const FeastBand9 *A = &mc[0].A;
  CHECK(A->band[3][A->N + 4] != A->band[5][A->N + 3]);
  const FeastLocalMGParams one = {4, 4, 0.7, 1e-30, 1, coarse_max_dofs, 0, 0, 0};
  const char *prec[2] = {"double", "single"};
  const double tol[2] = {1e-12, 1e-5};
  for (int k = 0; k < 2; k++) {
    FeastLocalMGStats st;
    CHECK_OK(solve_with("cpu", prec[k], &one, NMACROS, mc, d, c, &st));
    CHECK(st.cycles == NMACROS);
    double worst = 0;
    for (int m = 0; m < NMACROS; m++) worst = fmax(worst, rel_residual(&mc[m].A, d[m], c[m]));
    printf("coarse solve alone, L = lc = %d (%d nodes), %s: relative residual %.2e\n", L,
           feast_level_n(L) * feast_level_n(L), prec[k], worst);
    CHECK(worst <= tol[k]);
  }
  for (int m = 0; m < NMACROS; m++) feast_grid_free(feast_level_n(L), &c[m]);
  free_batch(mc, d);
}

/* setup with conv1, update to conv2: the corrections are bitwise those of a fresh setup
 * with conv2 (and not those of conv1); a different level or mask is refused */
static void check_update(int L, const char *prec) {
  Macro mc[NMACROS];
  double *d[NMACROS], *c1[NMACROS], *c2[NMACROS], *cf[NMACROS];
  const int N = feast_level_n(L);
  const long n = (long)N * N;
  build_batch(L, conv1, mc, d);
  for (int m = 0; m < NMACROS; m++) {
    feast_grid_alloc(N, &c1[m]);
    feast_grid_alloc(N, &c2[m]);
    feast_grid_alloc(N, &cf[m]);
  }
  FeastLocalProblem probs[NMACROS];
  for (int m = 0; m < NMACROS; m++) probs[m] = mc[m].prob;
  FeastLocalSolver *ls = NULL;
  FeastLocalMGStats s1, s2, sf;
  CHECK_OK(feast_local_create("cpu", prec, &ls));
  CHECK_OK(feast_local_setup(ls, NMACROS, probs, &params));
  CHECK_OK(feast_local_solve(ls, (const double *const *)d, c1, &s1));
  for (int m = 0; m < NMACROS; m++) fill_matrix(&mc[m].A, mc[m].fixed[L], conv2);
  CHECK_OK(feast_local_update(ls, probs));
  CHECK_OK(feast_local_solve(ls, (const double *const *)d, c2, &s2));
  CHECK_OK(solve("cpu", prec, mc, d, cf, &sf));
  int same = s2.cycles == sf.cycles, changed = 0;
  for (int m = 0; m < NMACROS; m++) {
    same &= memcmp(c2[m], cf[m], sizeof(double) * (size_t)n) == 0;
    changed |= memcmp(c1[m], c2[m], sizeof(double) * (size_t)n) != 0;
  }
  CHECK(same);
  CHECK(changed);
  /* a problem of another level, or another mask array: FEAST_ERR_ARG, solver unchanged */
  Macro other;
  build_macro(&other, L - 1, 1, conv2);
  FeastLocalProblem bad[NMACROS] = {probs[0], other.prob, probs[2]};
  CHECK(feast_local_update(ls, bad) == FEAST_ERR_ARG);
  feast_error_clear();
  unsigned char *copy[MAXL + 1];
  for (int l = 0; l <= L; l++) copy[l] = mc[1].fixed[l];
  copy[L] = malloc((size_t)n);
  memcpy(copy[L], mc[1].fixed[L], (size_t)n);
  bad[1] = (FeastLocalProblem){L, &mc[1].A, (const unsigned char *const *)copy, NULL};
  CHECK(feast_local_update(ls, bad) == FEAST_ERR_ARG);
  feast_error_clear();
  CHECK_OK(feast_local_solve(ls, (const double *const *)d, c1, &s1));
  same = 1;
  for (int m = 0; m < NMACROS; m++) same &= memcmp(c1[m], cf[m], sizeof(double) * (size_t)n) == 0;
  CHECK(same);
  free(copy[L]);
  free_macro(&other);
  feast_local_destroy(&ls);
  for (int m = 0; m < NMACROS; m++) {
    feast_grid_free(N, &c1[m]);
    feast_grid_free(N, &c2[m]);
    feast_grid_free(N, &cf[m]);
  }
  free_batch(mc, d);
}

/* The levels of a "global" matrix G: the problem's matrix with new values in its three
 * outer rings of nodes, and its Galerkin products without masks. Solves of the
 * hierarchies with these insides (the levels framed: their frames computed, the insides
 * read from G in place, or converted from both) = solves of the full products, bitwise;
 * a changed inside value changes them; an update with another inside matrix is
 * FEAST_ERR_ARG. */
static void check_inside(int L, const char *prec) {
  Macro mc[NMACROS];
  double *d[NMACROS], *c_full[NMACROS], *c_in[NMACROS];
  FeastBand9 G[NMACROS][MAXL + 1];
  const FeastBand9 *inside[NMACROS][MAXL + 1];
  const int N = feast_level_n(L);
  const long n = (long)N * N;
  build_batch(L, conv1, mc, d);
  FeastLocalProblem probs[NMACROS];
  for (int m = 0; m < NMACROS; m++) {
    feast_grid_alloc(N, &c_full[m]);
    feast_grid_alloc(N, &c_in[m]);
    CHECK_OK(feast_test_outer_hierarchy(&mc[m].A, L, urand, G[m]));
    for (int l = 0; l <= L; l++) inside[m][l] = &G[m][l];
    probs[m] = mc[m].prob;
    probs[m].inside = inside[m];
  }
  FeastLocalSolver *ls = NULL;
  FeastLocalMGStats s_full, s_in;
  CHECK_OK(solve("cpu", prec, mc, d, c_full, &s_full));
  CHECK_OK(feast_local_create("cpu", prec, &ls));
  CHECK_OK(feast_local_setup(ls, NMACROS, probs, &params));
  CHECK_OK(feast_local_solve(ls, (const double *const *)d, c_in, &s_in));
  int same = s_full.cycles == s_in.cycles;
  for (int m = 0; m < NMACROS; m++) same &= memcmp(c_full[m], c_in[m], sizeof(double) * (size_t)n) == 0;
  CHECK(same);
  const int Nm = feast_level_n(L - 1), mid = (Nm / 2) * Nm + Nm / 2;
  G[1][L - 1].band[FEAST_BAND_DIAG][mid] *= 1.5;
  CHECK_OK(feast_local_update(ls, probs));
  CHECK_OK(feast_local_solve(ls, (const double *const *)d, c_in, &s_in));
  CHECK(memcmp(c_full[1], c_in[1], sizeof(double) * (size_t)n) != 0);
  probs[1].inside = NULL;
  CHECK(feast_local_update(ls, probs) == FEAST_ERR_ARG);
  feast_error_clear();
  feast_local_destroy(&ls);
  for (int m = 0; m < NMACROS; m++) {
    feast_grid_free(N, &c_full[m]);
    feast_grid_free(N, &c_in[m]);
    for (int l = 0; l <= L; l++) feast_band9_destroy(&G[m][l]);
  }
  free_batch(mc, d);
}

/* <R f, c> = <f, P c>: the restriction is the transpose of the prolongation */
static void check_transfer(void) {
  const int Nc = 9, Nf = 17;
  double f[17 * 17], c[9 * 9], Pc[17 * 17], Rf[9 * 9];
  for (int i = 0; i < Nf * Nf; i++) f[i] = urand();
  for (int i = 0; i < Nc * Nc; i++) c[i] = urand();
  double a = 0, b = 0;
  for (int J = 0; J < Nc; J++)
    for (int I = 0; I < Nc; I++) Rf[J * Nc + I] = feast_restrict_point_d(f, Nf, I, J);
  for (int j = 0; j < Nf; j++)
    for (int i = 0; i < Nf; i++) Pc[j * Nf + i] = feast_prolongate_point_d(c, Nc, i, j);
  for (int i = 0; i < Nc * Nc; i++) a += Rf[i] * c[i];
  for (int i = 0; i < Nf * Nf; i++) b += f[i] * Pc[i];
  CHECK_CLOSE(a, b, 1e-13);
  /* float kernels = double kernels to float accuracy */
  float ff[17 * 17];
  for (int i = 0; i < Nf * Nf; i++) ff[i] = (float)f[i];
  CHECK_CLOSE(feast_restrict_point_f(ff, Nf, 3, 4), feast_restrict_point_d(f, Nf, 3, 4), 1e-5);
  /* a bilinear function is reproduced exactly by the prolongation */
  for (int J = 0; J < Nc; J++)
    for (int I = 0; I < Nc; I++) c[J * Nc + I] = 1.0 + 2.0 * I + 3.0 * J + 0.5 * I * J;
  int exact = 1;
  for (int j = 0; j < Nf; j++)
    for (int i = 0; i < Nf; i++)
      exact &= fabs(feast_prolongate_point_d(c, Nc, i, j) - (1.0 + i + 1.5 * j + 0.125 * i * j)) < 1e-13;
  CHECK(exact);
}

static void check_errors(void) {
  FeastLocalSolver *ls = NULL;
  CHECK_FAILS(feast_local_create("fpga", "double", &ls));
  CHECK_FAILS(feast_local_create("cpu", "half", &ls));
  CHECK(ls == NULL);
  CHECK(strstr(feast_local_backends(), "cpu(double,single)") != NULL);
  CHECK(strcmp(feast_local_resolve_precision("auto"), "single") == 0);
  CHECK(strcmp(feast_local_resolve_precision("double"), "double") == 0);
  CHECK(strcmp(feast_local_resolve_precision("single"), "single") == 0);
  /* mismatched levels in one batch */
  Macro a, b;
  build_macro(&a, 3, 0, laplace);
  build_macro(&b, 4, 0, laplace);
  FeastLocalProblem probs[2] = {a.prob, b.prob};
  CHECK_OK(feast_local_create("cpu", "double", &ls));
  CHECK_FAILS(feast_local_setup(ls, 2, probs, &params));
  /* the coarse-size cap: a dense inverse of at most 1089 nodes */
  FeastLocalMGParams big = params;
  big.coarse_max_dofs = FEAST_LOCAL_COARSE_MAX_NODES + 1;
  CHECK(feast_local_setup(ls, 1, &b.prob, &big) == FEAST_ERR_CONFIG);
  CHECK(strstr(feast_error_message(), "solver.local_coarse_max_dofs") != NULL);
  feast_error_clear();
  big.coarse_max_dofs = FEAST_LOCAL_COARSE_MAX_NODES;
  CHECK_OK(feast_local_setup(ls, 1, &b.prob, &big));
  /* a singular coarsest matrix (a zero row) in macro 1: named in the message */
  Macro a4;
  build_macro(&a4, 4, 0, laplace);
  const long row4 = (long)a4.A.N * 5 + 6;
  for (int k = 0; k < FEAST_NBANDS; k++) a4.A.band[k][row4] = 0.0;
  FeastLocalProblem sing[2] = {b.prob, a4.prob};
  const FeastLocalMGParams lc4 = {4, 4, 0.7, 0.1, 16, 289, 0, 0, 0}; /* L = lc = 4 */
  CHECK(feast_local_setup(ls, 2, sing, &lc4) == FEAST_ERR_SOLVER);
  CHECK(strstr(feast_error_message(), "macro 1 of the batch") != NULL &&
        strstr(feast_error_message(), "level 4") != NULL);
  feast_error_clear();
  feast_local_destroy(&ls);
  CHECK(ls == NULL);
  free_macro(&a);
  free_macro(&b);
  free_macro(&a4);
}

static int run(void) {
  srand(12345);
  for (int L = 4; L <= MAXL; L++) check_level(L, laplace, "laplace", 3);
  check_nonsymmetric();
  check_coarse_exact(3, 200);
  check_coarse_exact(5, FEAST_LOCAL_COARSE_MAX_NODES);
  check_update(6, "double");
  check_update(6, "single");
  check_inside(6, "double");
  check_inside(6, "single");
  check_transfer();
  check_errors();
  return 0;
}

FEAST_TEST_MAIN(run)

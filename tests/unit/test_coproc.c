/* The CPU local multigrid backends (double and single) against a straightforward double
 * reference on fresh random data: residual reduction per solve independent of the level,
 * single = double to float accuracy, fixed nodes untouched, NaN confined to its macro,
 * the shared per-point transfer kernels are transposes of each other. */
#include "coproc/coproc.h"
#include "feast/band9_kernels.h"
#include "feast/error.h"
#include "feast/mesh.h"
#include "feast_test.h"
#include <stdlib.h>
#include <string.h>

enum { NMACROS = 3, MAXL = 8 };

typedef struct {
  FeastBand9 A[MAXL + 1];
  unsigned char *fixed[MAXL + 1];
  FeastLocalProblem prob;
} Macro;

/* Q1 Laplace stencil on a uniform grid (8/3 centre, -1/3 neighbours), identity rows at
 * fixed nodes; macro m fixes its edges 0..m (edges not fixed act as interface rows) */
static void build_macro(Macro *mc, int L, int m) {
  for (int l = 0; l <= L; l++) {
    const int N = feast_level_n(l);
    feast_band9_create(N, &mc->A[l]);
    mc->fixed[l] = calloc((size_t)N * N, 1);
    for (int j = 0; j < N; j++)
      for (int i = 0; i < N; i++) {
        const long k = (long)j * N + i;
        int fx = (j == 0) || (m >= 1 && i == N - 1) || (m >= 2 && j == N - 1) || (m >= 3 && i == 0);
        mc->fixed[l][k] = (unsigned char)fx;
        if (fx) {
          mc->A[l].band[FEAST_BAND_DIAG][k] = 1.0;
          continue;
        }
        for (int dy = -1; dy <= 1; dy++)
          for (int dx = -1; dx <= 1; dx++) {
            if (i + dx < 0 || i + dx >= N || j + dy < 0 || j + dy >= N) continue;
            mc->A[l].band[feast_band_index(dx, dy)][k] = dx == 0 && dy == 0 ? 8.0 / 3.0 : -1.0 / 3.0;
          }
      }
  }
  mc->prob = (FeastLocalProblem){L, &mc->A[L], (const unsigned char *const *)mc->fixed};
}

static void free_macro(Macro *mc, int L) {
  for (int l = 0; l <= L; l++) {
    feast_band9_destroy(&mc->A[l]);
    free(mc->fixed[l]);
  }
}

static double urand(void) { return 2.0 * rand() / RAND_MAX - 1.0; }

static double norm(const double *v, long n) {
  double s = 0;
  for (long i = 0; i < n; i++) s += v[i] * v[i];
  return sqrt(s);
}

static const FeastLocalMGParams params = {4, 4, 0.7, 0.1, 16, 200, 1e-3};

/* solve all macros with one backend: c[m] for d[m]; returns 0 on success */
static int solve(const char *target, const char *prec, Macro *mc, double **d, double **c, FeastLocalMGStats *st) {
  FeastLocalSolver *ls = NULL;
  FeastLocalProblem probs[NMACROS];
  for (int m = 0; m < NMACROS; m++) probs[m] = mc[m].prob;
  int rc = feast_local_create(target, prec, &ls);
  if (!rc) rc = feast_local_setup(ls, NMACROS, probs, &params);
  if (!rc) rc = feast_local_solve(ls, (const double *const *)d, c, st);
  feast_local_destroy(&ls);
  return rc;
}

static void check_level(int L) {
  Macro mc[NMACROS];
  double *d[NMACROS], *cd[NMACROS], *cs[NMACROS], *r;
  const int N = feast_level_n(L);
  const long n = (long)N * N;
  feast_grid_alloc(N, &r);
  for (int m = 0; m < NMACROS; m++) {
    build_macro(&mc[m], L, m);
    feast_grid_alloc(N, &d[m]);
    feast_grid_alloc(N, &cd[m]);
    feast_grid_alloc(N, &cs[m]);
    for (long i = 0; i < n; i++) d[m][i] = mc[m].fixed[L][i] ? 0.0 : urand();
  }
  FeastLocalMGStats sd, ss;
  CHECK_OK(solve("cpu", "double", mc, d, cd, &sd));
  CHECK_OK(solve("cpu", "single", mc, d, cs, &ss));
  printf("L=%d: cycles per macro double %.2f, single %.2f\n", L, (double)sd.cycles / NMACROS,
         (double)ss.cycles / NMACROS);
  CHECK(sd.cycles <= 3 * NMACROS); /* one digit in at most 3 V cycles, whatever L */
  CHECK(sd.max_cycles_hit == 0 && ss.max_cycles_hit == 0 && sd.nonfinite == 0 && ss.nonfinite == 0);
  for (int m = 0; m < NMACROS; m++) {
    feast_band9_defect(&mc[m].A[L], d[m], cd[m], r);
    CHECK(norm(r, n) <= 0.1 * norm(d[m], n));
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
    free_macro(&mc[m], L);
    feast_grid_free(N, &d[m]);
    feast_grid_free(N, &cd[m]);
    feast_grid_free(N, &cs[m]);
  }
  feast_grid_free(N, &r);
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
  CHECK(strcmp(feast_local_resolve_precision("gpu", "auto"), "single") == 0);
  CHECK(strcmp(feast_local_resolve_precision("cpu", "auto"), "double") == 0);
  /* mismatched levels in one batch */
  Macro a, b;
  build_macro(&a, 3, 0);
  build_macro(&b, 4, 0);
  FeastLocalProblem probs[2] = {a.prob, b.prob};
  CHECK_OK(feast_local_create("cpu", "double", &ls));
  CHECK_FAILS(feast_local_setup(ls, 2, probs, &params));
  feast_local_destroy(&ls);
  CHECK(ls == NULL);
  free_macro(&a, 3);
  free_macro(&b, 4);
}

static int run(void) {
  srand(12345);
  for (int L = 4; L <= MAXL; L++) check_level(L);
  check_transfer();
  check_errors();
  return 0;
}

FEAST_TEST_MAIN(run)

/* Memory bandwidth of the 9-band kernels on one core, against the STREAM triad
 * (a = b + s c) measured in the same run:
 *   matvec y = A x   (feast_band9_matvec in double, the generic stencil row in double,
 *                    the shared float row kernel),
 *   one damped Jacobi sweep (the shared point kernel, double and float),
 * on one macro at levels Lmin..Lmax, and the CPU local multigrid (coproc, double and
 * single) per V cycle, also in units of one Jacobi sweep of the finest level.
 * Bytes counted: matvec 9 bands + x + y, Jacobi 9 bands + x + b + y (per precision),
 * triad 3 arrays (no write-allocate traffic, as STREAM counts). Each band kernel runs on
 * two layouts of the same data: "plain" (bands back to back, vectors from malloc) and
 * "coloured" (feast_alloc_coloured: the layout of feast_band9_create and of the CPU local
 * multigrid). Every measurement repeats
 * its kernel for >= 0.2 s; the best of 5 such runs is reported. Prints Markdown tables.
 * usage: bench_band9 [Lmin [Lmax]]   (8 11)
 *        bench_band9 copy             STREAM copy a = b only (bytes of a and b counted)
 *        bench_band9 galerkin [L]     the Galerkin product of one macro, levels L -> L-1,
 *                                     L-2 -> L-3, ... (8), against a STREAM copy
 *        bench_band9 3d [Lmin [Lmax]] the 27-band matvec of one hexahedral macro (4 7),
 *                                     written out and generic, against a STREAM copy */
#include "coproc/coproc.h"
#include "feast/la/band9.h"
#include "feast/la/band9_kernels.h"
#include "feast/base/error.h"
#include "feast/base/hd.h"
#include "feast/mesh/mesh.h"
#include "feast/fem/transfer.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

typedef void (*Kernel)(void *ctx);

/* seconds per call of k(ctx): repeated for >= 0.2 s, best of 5 such runs (the least
 * disturbed by other processes) */
static double time_kernel(Kernel k, void *ctx) {
  double best = 1e30;
  k(ctx); /* warm up: page faults, caches */
  for (int run = 0; run < 5; run++) {
    long reps = 0;
    const double t0 = now();
    double t;
    do {
      k(ctx);
      reps++;
      t = now() - t0;
    } while (t < 0.2);
    if (t / reps < best) best = t / reps;
  }
  return best;
}

/* ------------------------------------------------------------------ STREAM triad */

typedef struct {
  long n;
  double *a, *b, *c, s;
} Triad;

static void triad(void *p) {
  Triad *t = p;
  double *restrict a = t->a;
  const double *restrict b = t->b, *restrict c = t->c;
  const double s = t->s;
  for (long i = 0; i < t->n; i++) a[i] = b[i] + s * c[i];
  t->s = -t->s * 0.999; /* keeps the loop from being hoisted, values bounded */
}

/* STREAM copy a = b (2 arrays counted) */
static void copy(void *p) {
  Triad *t = p;
  double *restrict a = t->a;
  const double *restrict b = t->b;
  for (long i = 0; i < t->n; i++) a[i] = b[i];
}

/* GB/s of a STREAM kernel k over arrays of 128 MB, counting `arrays` of them */
static int stream_bandwidth(Kernel k, int arrays, double *gbs) {
  Triad t = {1L << 24, NULL, NULL, NULL, 0.5}; /* 128 MB each, far beyond the caches */
  FEAST_CALL(FEAST_ALLOC(t.n, &t.a));
  FEAST_CALL(FEAST_ALLOC(t.n, &t.b));
  FEAST_CALL(FEAST_ALLOC(t.n, &t.c));
  for (long i = 0; i < t.n; i++) {
    t.b[i] = 1.0 + 1e-9 * (double)i;
    t.c[i] = 2.0 - 1e-9 * (double)i;
  }
  const double s = time_kernel(k, &t);
  *gbs = arrays * sizeof(double) * (double)t.n / s / 1e9;
  free(t.a);
  free(t.b);
  free(t.c);
  return 0;
}

/* ------------------------------------------------------------ the band kernels */

/* Two layouts of the same data. "plain": nine bands in one allocation and malloc'ed
 * vectors: with N = 2^L+1 every band and every vector starts 8 bytes (float: 4) past a
 * multiple of 4 KiB, so the 12+ streams of a sweep share a few L1 sets. "coloured": every
 * array's value 0 at its own multiple of 256 bytes modulo 4 KiB (feast_alloc_coloured),
 * as feast stores band matrices and the levels of the CPU local multigrid. */
typedef struct {
  FeastBand9 A;                /* double bands (A.N = N) */
  float *bf[FEAST_NBANDS];     /* the same in float */
  double *x, *b, *y;           /* padded */
  float *xf, *bfv, *yf;        /* padded */
  void *mem[2];                /* what to free (bands, or all arrays of a precision) */
} Layout;

typedef struct {
  int N;
  Layout lay[2];               /* 0: plain, 1: coloured */
  const Layout *cur;           /* the one being timed */
} Bench;

static void matvec_d(void *p) {
  const Bench *B = p;
  feast_band9_matvec(&B->cur->A, B->cur->x, B->cur->y);
}

/* the generic row of any stencil (feast_stencil_row) on the 2D Q1 stencil: what the
 * written-out 9-band row of feast_band9_matvec saves */
static void stencil_row_d(void *p) {
  const Bench *B = p;
  const long N = B->N;
  const FeastStencil *s = FEAST_BAND9_STENCIL;
  long off[FEAST_STENCIL_MAX_BANDS];
  for (int k = 0; k < s->nbands; k++) off[k] = feast_stencil_offset(s, k, N);
  const double *const *band = (const double *const *)B->cur->A.band;
  const double *x = B->cur->x;
  double *restrict y = B->cur->y;
  for (long i = 0; i < N * N; i++) y[i] = feast_stencil_row_d(s->nbands, band, off, x, i);
}

static void row_f(void *p) {
  const Bench *B = p;
  const long N = B->N;
  const float *const *band = (const float *const *)B->cur->bf;
  const float *x = B->cur->xf;
  float *restrict y = B->cur->yf;
  FEAST_IVDEP
  for (long i = 0; i < N * N; i++) y[i] = feast_band9_row_f(band, x, i, N);
}

static void jacobi_d(void *p) {
  const Bench *B = p;
  const long N = B->N;
  const double *const *band = (const double *const *)B->cur->A.band;
  const double *x = B->cur->x, *b = B->cur->b;
  double *restrict y = B->cur->y;
  FEAST_IVDEP
  for (long i = 0; i < N * N; i++) y[i] = feast_jacobi_point_d(band, b, x, i, N, 0.7);
}

static void jacobi_f(void *p) {
  const Bench *B = p;
  const long N = B->N;
  const float *const *band = (const float *const *)B->cur->bf;
  const float *x = B->cur->xf, *b = B->cur->bfv;
  float *restrict y = B->cur->yf;
  FEAST_IVDEP
  for (long i = 0; i < N * N; i++) y[i] = feast_jacobi_point_f(band, b, x, i, N, 0.7f);
}

/* Q1 Laplace stencil (8/3, -1/3), identity rows on the boundary */
static void q1_laplace(FeastBand9 *A, unsigned char *fixed) {
  const int N = A->N;
  for (int j = 0; j < N; j++)
    for (int i = 0; i < N; i++) {
      const long idx = (long)j * N + i;
      const int bnd = i == 0 || j == 0 || i == N - 1 || j == N - 1;
      if (fixed) fixed[idx] = (unsigned char)bnd;
      for (int k = 0; k < FEAST_NBANDS; k++)
        A->band[k][idx] =
            bnd ? (k == FEAST_BAND_DIAG ? 1.0 : 0.0) : (k == FEAST_BAND_DIAG ? 8.0 / 3.0 : -1.0 / 3.0);
    }
}

/* "plain": the nine bands back to back in one allocation, vectors from malloc */
static int layout_plain(Layout *y, int N) {
  const long n = (long)N * N;
  double *all;
  float *allf;
  FEAST_CALL(FEAST_ALLOC(n * FEAST_NBANDS, &all));
  FEAST_CALL(FEAST_ALLOC(n * FEAST_NBANDS, &allf));
  y->A.N = N;
  for (int k = 0; k < FEAST_NBANDS; k++) {
    y->A.band[k] = all + k * n;
    y->bf[k] = allf + k * n;
  }
  y->mem[0] = all;
  y->mem[1] = allf;
  const long pad = FEAST_PAD(N), len = n + 2 * pad;
  double **v[] = {&y->x, &y->b, &y->y};
  float **vf[] = {&y->xf, &y->bfv, &y->yf};
  for (int i = 0; i < 3; i++) { /* padded, value 0 at pad */
    FEAST_CALL(FEAST_ALLOC(len, v[i]));
    FEAST_CALL(FEAST_ALLOC(len, vf[i]));
    *v[i] += pad;
    *vf[i] += pad;
  }
  return 0;
}

/* "coloured": feast_alloc_coloured, as feast_band9_create and the CPU local multigrid */
static int layout_coloured(Layout *y, int N) {
  const long n = (long)N * N, pad = FEAST_PAD(N), len = n + 2 * pad;
  char *a[FEAST_NBANDS + 3];
  y->A.N = N;
  FEAST_CALL(feast_alloc_coloured(FEAST_NBANDS + 3, (size_t)len, sizeof(double), (size_t)pad, 0, a, &y->mem[0]));
  for (int k = 0; k < FEAST_NBANDS; k++) y->A.band[k] = (double *)(void *)a[k];
  y->x = (double *)(void *)a[9];
  y->b = (double *)(void *)a[10];
  y->y = (double *)(void *)a[11];
  FEAST_CALL(feast_alloc_coloured(FEAST_NBANDS + 3, (size_t)len, sizeof(float), (size_t)pad, 0, a, &y->mem[1]));
  for (int k = 0; k < FEAST_NBANDS; k++) y->bf[k] = (float *)(void *)a[k];
  y->xf = (float *)(void *)a[9];
  y->bfv = (float *)(void *)a[10];
  y->yf = (float *)(void *)a[11];
  return 0;
}

static void layout_fill(Layout *y, int N) {
  const long n = (long)N * N;
  q1_laplace(&y->A, NULL);
  for (int k = 0; k < FEAST_NBANDS; k++)
    for (long i = 0; i < n; i++) y->bf[k][i] = (float)y->A.band[k][i];
  for (long i = 0; i < n; i++) {
    y->x[i] = 1.0 + 0.25 * (double)(i % 7);
    y->b[i] = 0.5 - 0.125 * (double)(i % 5);
    y->xf[i] = (float)y->x[i];
    y->bfv[i] = (float)y->b[i];
  }
}

static void layout_free(Layout *y, int N, int coloured_layout) {
  if (coloured_layout) {
    feast_free_coloured(y->mem[0]);
    feast_free_coloured(y->mem[1]);
    return;
  }
  free(y->mem[0]);
  free(y->mem[1]);
  const long pad = FEAST_PAD(N);
  double *v[] = {y->x, y->b, y->y};
  float *vf[] = {y->xf, y->bfv, y->yf};
  for (int i = 0; i < 3; i++) {
    free(v[i] - pad);
    free(vf[i] - pad);
  }
}

static int bench_setup(Bench *B, int L) {
  memset(B, 0, sizeof *B);
  B->N = feast_level_n(L);
  FEAST_CALL(layout_plain(&B->lay[0], B->N));
  FEAST_CALL(layout_coloured(&B->lay[1], B->N));
  for (int i = 0; i < 2; i++) layout_fill(&B->lay[i], B->N);
  return 0;
}

static void bench_free(Bench *B) {
  for (int i = 0; i < 2; i++) layout_free(&B->lay[i], B->N, i);
}

/* ---------------------------------------------------------- the local multigrid */

typedef struct {
  FeastLocalSolver *ls;
  const double *d[1];
  double *c[1];
  int cycles;
} MGRun;

static void mg_solve(void *p) {
  MGRun *r = p;
  FeastLocalMGStats st;
  if (feast_local_solve(r->ls, r->d, r->c, &st) || st.cycles != r->cycles) {
    fprintf(stderr, "bench_band9: local solve failed: %s\n", feast_error_message());
    exit(1);
  }
}

/* seconds per V cycle of the CPU local MG (rtol 1e-300: every cycle runs) */
static int time_local_mg(int L, const char *precision, double *t_cycle) {
  FeastBand9 A[FEAST_MAX_LEVEL + 1];
  unsigned char *fixed[FEAST_MAX_LEVEL + 1];
  for (int l = 0; l <= L; l++) {
    FEAST_CALL(feast_band9_create(feast_level_n(l), &A[l]));
    FEAST_CALL(FEAST_ALLOC((long)A[l].N * A[l].N, &fixed[l]));
    q1_laplace(&A[l], fixed[l]);
  }
  const FeastLocalProblem prob = {L, &A[L], (const unsigned char *const *)fixed, NULL};
  const FeastLocalMGParams par = {.pre_smooth = 4, .post_smooth = 4, .jacobi_damping = 0.7, .rtol = 1e-300,
                                  .max_cycles = 4, .coarse_max_dofs = 200};
  MGRun r = {NULL, {NULL}, {NULL}, par.max_cycles};
  double *d, *c;
  const int N = feast_level_n(L);
  FEAST_CALL(feast_grid_alloc(N, &d));
  FEAST_CALL(feast_grid_alloc(N, &c));
  for (long i = 0; i < (long)N * N; i++) d[i] = fixed[L][i] ? 0.0 : 1.0 + 0.25 * (double)(i % 7);
  r.d[0] = d;
  r.c[0] = c;
  FEAST_CALL(feast_local_create("cpu", precision, &r.ls));
  FEAST_CALL(feast_local_setup(r.ls, 1, &prob, &par));
  *t_cycle = time_kernel(mg_solve, &r) / par.max_cycles;
  feast_local_destroy(&r.ls);
  feast_grid_free(N, &d);
  feast_grid_free(N, &c);
  for (int l = 0; l <= L; l++) {
    feast_band9_destroy(&A[l]);
    free(fixed[l]);
  }
  return 0;
}

/* ------------------------------------------------------------------------ main */

static int run(int Lmin, int Lmax) {
  double triad_gbs;
  FEAST_CALL(stream_bandwidth(triad, 3, &triad_gbs));
  printf("STREAM triad (one core, 3 x 128 MB): %.2f GB/s\n\n", triad_gbs);
  printf("| L | nodes | kernel | precision | layout | time/sweep [ms] | GB/s | %% of triad |\n");
  printf("|---|------:|--------|-----------|--------|----------------:|-----:|-----------:|\n");
  double t_jac[2][FEAST_MAX_LEVEL + 1]; /* coloured layout, per precision */
  for (int L = Lmin; L <= Lmax; L++) {
    Bench B;
    FEAST_CALL(bench_setup(&B, L));
    const double n = (double)B.N * B.N;
    const struct {
      const char *name, *prec;
      Kernel k;
      double bytes;
    } ks[] = {{"matvec (feast_band9_matvec)", "double", matvec_d, 11 * 8 * n},
              {"matvec (generic stencil row)", "double", stencil_row_d, 11 * 8 * n},
              {"matvec (row kernel)", "single", row_f, 11 * 4 * n},
              {"Jacobi sweep", "double", jacobi_d, 12 * 8 * n},
              {"Jacobi sweep", "single", jacobi_f, 12 * 4 * n}};
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++)
      for (int lay = 0; lay < 2; lay++) {
        B.cur = &B.lay[lay];
        const double s = time_kernel(ks[i].k, &B), gbs = ks[i].bytes / s / 1e9;
        if (lay && ks[i].k == jacobi_d) t_jac[0][L] = s;
        if (lay && ks[i].k == jacobi_f) t_jac[1][L] = s;
        printf("| %d | %.0f | %s | %s | %s | %.3f | %.2f | %.0f%% |\n", L, n, ks[i].name, ks[i].prec,
               lay ? "coloured" : "plain", 1e3 * s, gbs, 100 * gbs / triad_gbs);
      }
    bench_free(&B);
  }
  printf("\nCPU local multigrid (coproc), one macro, V(4,4), exact coarse solve <= 200 nodes; 'sweeps' = time "
         "per cycle / one Jacobi sweep (coloured layout) of the finest level above\n\n");
  printf("| L | precision | time/cycle [ms] | sweeps per cycle |\n");
  printf("|---|-----------|----------------:|-----------------:|\n");
  for (int L = Lmin; L <= Lmax; L++)
    for (int p = 0; p < 2; p++) {
      double t;
      FEAST_CALL(time_local_mg(L, p ? "single" : "double", &t));
      printf("| %d | %s | %.2f | %.1f |\n", L, p ? "single" : "double", 1e3 * t, t / t_jac[p][L]);
    }
  return 0;
}

/* ------------------------------------------------- the Galerkin product (issue #12) */

typedef struct {
  FeastBand9 Af, Ac;
  FeastBand9Framed framed; /* the inside: Ac's; its own frame */
  unsigned char *ff, *fc;
} Galerkin;

static void galerkin(void *p) {
  Galerkin *g = p;
  (void)feast_band9_galerkin(&(FeastBand9Framed){&g->Af, {NULL}}, g->ff, g->fc, &g->Ac);
}

/* only the frame, the inside known (ScaRC's local hierarchies) */
static void galerkin_frame(void *p) {
  Galerkin *g = p;
  (void)feast_band9_galerkin_frame(&(FeastBand9Framed){&g->Af, {NULL}}, g->ff, g->fc, &g->framed);
}

/* feast_band9_galerkin from level L to L - 1 (the Q1 Laplacian with Dirichlet edges)
 * against a STREAM copy of the same run: bytes = the fine bands read once and the
 * coarse bands written once */
static int bench_galerkin(int L) {
  double gbs;
  FEAST_CALL(stream_bandwidth(copy, 2, &gbs));
  const int Nf = (1 << L) + 1, Nc = (1 << (L - 1)) + 1;
  Galerkin g;
  FEAST_CALL(feast_band9_create(Nf, &g.Af));
  FEAST_CALL(feast_band9_create(Nc, &g.Ac));
  double *frame;
  FEAST_CALL(FEAST_ALLOC(FEAST_NBANDS * feast_frame_len(Nc), &frame));
  g.framed.inside = &g.Ac;
  for (int k = 0; k < FEAST_NBANDS; k++) g.framed.frame[k] = frame + k * feast_frame_len(Nc);
  FEAST_CALL(FEAST_ALLOC((long)Nf * Nf, &g.ff));
  FEAST_CALL(FEAST_ALLOC((long)Nc * Nc, &g.fc));
  q1_laplace(&g.Af, g.ff);
  for (int J = 0; J < Nc; J++)
    for (int I = 0; I < Nc; I++) g.fc[J * Nc + I] = g.ff[2L * J * Nf + 2 * I];
  const double t = time_kernel(galerkin, &g);
  const double tf = time_kernel(galerkin_frame, &g);
  const double bytes = 72.0 * ((double)Nf * Nf + (double)Nc * Nc);
  printf("| %d -> %d | %.3f | %.1f | %.2f | %.2f | %.0f%% | %.3f |\n", L, L - 1, 1e3 * t, 1e9 * t / ((double)Nc * Nc),
         bytes / t / 1e9, gbs, 100 * bytes / t / 1e9 / gbs, 1e3 * tf);
  free(frame);
  feast_band9_destroy(&g.Af);
  feast_band9_destroy(&g.Ac);
  free(g.ff);
  free(g.fc);
  return 0;
}

/* ------------------------------------------ the 27-band matvec of 3D (issue #47) */

/* one macro of the 3D Q1 stencil at level L: N^3 rows, the 27 bands back to back in one
 * allocation, x and y padded (feast_stencil_pad); band values where the neighbour lies
 * inside the grid, zero where it does not (as the assembly leaves them) */
typedef struct {
  long N;
  double *band[27], *x, *y;
  double *store;
} Bench3;

static void band27_d(void *p) {
  const Bench3 *B = p;
  feast_band_matvec(&feast_stencil_q1_3d, (int)B->N, (const double *const *)B->band, B->x, B->y);
}

static void generic27_d(void *p) {
  const Bench3 *B = p;
  const FeastStencil *s = &feast_stencil_q1_3d;
  long off[27];
  for (int k = 0; k < 27; k++) off[k] = feast_stencil_offset(s, k, B->N);
  const double *const *band = (const double *const *)B->band;
  const double *x = B->x;
  double *restrict y = B->y;
  for (long i = 0; i < B->N * B->N * B->N; i++) y[i] = feast_stencil_row_d(27, band, off, x, i);
}

static int bench_3d_level(int L, double copy_gbs) {
  Bench3 B = {(1L << L) + 1, {NULL}, NULL, NULL, NULL};
  const FeastStencil *s = &feast_stencil_q1_3d;
  const long N = B.N, n = N * N * N, pad = feast_stencil_pad(s, N);
  FEAST_CALL(FEAST_ALLOC(27 * n + 2 * (n + 2 * pad), &B.store)); /* zeroed: the padding */
  for (int k = 0; k < 27; k++) B.band[k] = B.store + k * n;
  B.x = B.store + 27 * n + pad;
  B.y = B.x + n + 2 * pad;
  for (long r = 0; r < n; r++) {
    const long p[3] = {r % N, r / N % N, r / (N * N)};
    B.x[r] = 1.0 + 1e-3 * (double)(r % 11);
    for (int k = 0; k < 27; k++) {
      long q[3];
      B.band[k][r] = feast_stencil_neighbour(s, k, N, p, q) ? (k == 13 ? 26.0 : -1.0) : 0.0;
    }
  }
  const double bytes = 29.0 * 8 * (double)n; /* 27 bands, x, y */
  const struct {
    const char *name;
    Kernel k;
  } ks[] = {{"matvec (feast_band_matvec: feast_band27_row)", band27_d}, {"matvec (generic stencil row)", generic27_d}};
  for (int i = 0; i < 2; i++) {
    const double t = time_kernel(ks[i].k, &B), gbs = bytes / t / 1e9;
    printf("| %d | %ld | %s | %.3f | %.2f | %.0f%% |\n", L, n, ks[i].name, 1e3 * t, gbs, 100 * gbs / copy_gbs);
  }
  free(B.store);
  return 0;
}

/* the 27-band matvec at levels Lmin..Lmax against a STREAM copy of the same run; bytes =
 * 27 bands + x + y per row (x once: its neighbours' values come from the caches) */
static int bench_3d(int Lmin, int Lmax) {
  double gbs;
  FEAST_CALL(stream_bandwidth(copy, 2, &gbs));
  printf("STREAM copy (one core, 2 x 128 MB): %.2f GB/s\n\n", gbs);
  printf("| L | rows | kernel | time/sweep [ms] | GB/s | %% of copy |\n");
  printf("|---|-----:|--------|----------------:|-----:|----------:|\n");
  for (int L = Lmin; L <= Lmax; L++) FEAST_CALL(bench_3d_level(L, gbs));
  return 0;
}

int main(int argc, char **argv) {
  if (argc >= 2 && strcmp(argv[1], "3d") == 0) {
    const int Lmin = argc > 2 ? atoi(argv[2]) : 4, Lmax = argc > 3 ? atoi(argv[3]) : 7;
    if (Lmin < 1 || Lmax > 8 || Lmin > Lmax) {
      fprintf(stderr, "usage: bench_band9 3d [Lmin [Lmax]]  (1 <= Lmin <= Lmax <= 8)\n");
      return 1;
    }
    const int rc = bench_3d(Lmin, Lmax);
    if (rc) fprintf(stderr, "bench_band9: %s\n", feast_error_message());
    return rc ? 1 : 0;
  }
  if (argc >= 2 && strcmp(argv[1], "galerkin") == 0) {
    printf("| levels | ms per macro | ns per coarse node | GB/s | STREAM copy GB/s | of copy | frame only: ms per macro |\n");
    printf("|---|---:|---:|---:|---:|---:|---:|\n");
    int rc = 0;
    for (int L = argc > 2 ? atoi(argv[2]) : 8; !rc && L >= 4; L -= 2) rc = bench_galerkin(L);
    if (rc) fprintf(stderr, "bench_band9: %s\n", feast_error_message());
    return rc ? 1 : 0;
  }
  if (argc == 2 && strcmp(argv[1], "copy") == 0) { /* the reference of bench/setup.sh */
    double gbs;
    const int rc = stream_bandwidth(copy, 2, &gbs);
    if (rc) fprintf(stderr, "bench_band9: %s\n", feast_error_message());
    else printf("STREAM copy (one core, 2 x 128 MB): %.2f GB/s\n", gbs);
    return rc ? 1 : 0;
  }
  const int Lmin = argc > 1 ? atoi(argv[1]) : 8, Lmax = argc > 2 ? atoi(argv[2]) : 11;
  if (Lmin < 2 || Lmax > 13 || Lmin > Lmax) {
    fprintf(stderr, "usage: bench_band9 [Lmin [Lmax]]  (2 <= Lmin <= Lmax <= 13) | copy | galerkin [L] | 3d [Lmin [Lmax]]\n");
    return 1;
  }
  const int rc = run(Lmin, Lmax);
  if (rc) fprintf(stderr, "bench_band9: %s (%s)\n", feast_error_message(), feast_error_where());
  return rc ? 1 : 0;
}

/* The CUDA local multigrid ("gpu", single and double) against the CPU double backend on
 * a hand-built 9-band Q1 Laplace stencil (diag 8/3, neighbours -1/3) with identity rows on
 * Dirichlet edges that differ per macro, and on a nonsymmetric one (plus upwind
 * convection and a negative reaction), L = 3..9, several macros per batch:
 *   fixed cycles: corrections agree (relative 2-norm 1e-10 double; single 1e-4 up to L = 7,
 *   growing with L above, see single_tolerance);
 *   rtol = 0.1: the same cycle counts (+-1 per macro), corrections agree when they match;
 *   fixed nodes of c exactly 0 (also for defects that are not 0 there), padding untouched;
 *   graphs on/off and repeated solves give bitwise the same corrections;
 *   a NaN in one macro's defect: that macro counts as nonfinite and gets c = 0, the
 *   others are bitwise what they were without it;
 *   feast_local_update with new values: bitwise the corrections of a fresh setup;
 *   levels framed on the insides of other matrices (frames and insides uploaded
 *   together): bitwise the corrections of the whole levels.
 * Skips (77) without a device or without the CUDA backend, unless nvidia-smi sees a GPU:
 * then no usable device is a failure (with the CUDA runtime's reason). FEAST_TEST_MAX_LEVEL caps L
 * (for slow platforms such as the host emulator); FEAST_TEST_EXTRA_LEVEL adds one level
 * above it with the fixed-cycle and production checks only (the emulated suite: L = 8).
 * Built for the host emulator (FEAST_CUDA_EMU), the production solves also run with
 * blocks and threads in order and in reverse order, which must give bitwise the
 * corrections of the default shuffled order; the emulator's seed is printed on failure.
 * The batches, their corrections and the comparisons: tests/coproc_testing.h. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "coproc/coproc.h"
#include "feast/la/band9.h"
#include "feast/base/error.h"
#include "feast/fem/transfer.h"
#include "feast_test.h"
#include "coproc_testing.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h> /* dup, dup2 */

#ifdef FEAST_CUDA_EMU
#include "coproc/backend.h" /* feast_local_coarse_level */
unsigned long long feast_cuda_emu_seed(void);   /* tests/emu/local_mg_emu.cpp */
void feast_cuda_emu_set_order(int order);       /* 0 ordered, 1 reverse, 2 shuffled */
void feast_cuda_emu_counts(FeastLocalSolver *ls, int counts[8]);
void feast_cuda_emu_set_limits(FeastLocalSolver *ls, double rtol, int max_cycles);

/* What the solver enqueued, against the count of the fused cycle: per level above the
 * coarsest pre + post Jacobi steps (the first from x = 0, no memset) + defect,
 * restriction, prolongation, the prolongation fused into the first post-smoothing step
 * where there is one (pre + post + 2 kernels per level, 10 for 4 + 4); the coarse
 * solve, r = d - A x with its norm, the status; the update xt += x fused into the last
 * post-smoothing step (a kernel of its own without one); no copy per cycle. Host round trips of a first solve of 2 fixed cycles: 2 (one
 * cycle enqueued, the result fetched, one more, fetched again). */
static int last_counts[8]; /* of the last gpu solver of run_solver */
static void check_counts(int L, const FeastLocalMGParams *p, int cycles) {
  const int nlev = L - feast_local_coarse_level(L, p->coarse_max_dofs, 2) + 1;
  const int fused = nlev > 1 && p->post_smooth > 0;
  const int per_level = p->pre_smooth + p->post_smooth + 3 - (p->post_smooth > 0);
  const int kernels = (nlev - 1) * per_level + 3 + !fused;
  const int *c = last_counts, trips = cycles > 1 ? 2 : 1;
  if (c[0] != kernels || c[1] != 0 || c[2] != trips)
    fprintf(stderr, "L=%d: %d kernels, %d memsets/copies per cycle, %d round trips per solve; "
                    "expected %d, 0, %d\n", L, c[0], c[1], c[2], kernels, trips);
  CHECK(c[0] == kernels);
  CHECK(c[1] == 0);
  CHECK(c[2] == trips);
}
#endif

/* c <- solver(target, precision) applied to d (a solver made, set up and destroyed) */
static int run_solver(const char *target, const char *prec, const Batch *b,
                      const FeastLocalMGParams *p, double *const *d, Result *r) {
  FeastLocalSolver *ls = NULL;
  int rc = feast_local_create(target, prec, &ls);
  if (!rc) rc = feast_local_setup(ls, NMACROS, b->prob, p);
  if (!rc) rc = feast_local_solve(ls, (const double *const *)d, r->c, &r->st);
#ifdef FEAST_CUDA_EMU
  if (!rc && !strcmp(target, "gpu")) feast_cuda_emu_counts(ls, last_counts);
#endif
  feast_local_destroy(&ls);
  return rc;
}

/* fixed number of cycles (rtol 1e-30, never reached): corrections agree with the CPU
 * double reference */
static void check_fixed_cycles(const Batch *b, const char *prec, double tol) {
  const int N = (1 << b->level) + 1, cycles = 2;
  const long n = (long)N * N;
  const FeastLocalMGParams p = params(1e-30, cycles);
  Result ref, gpu;
  CHECK_OK(alloc_result(N, &ref));
  CHECK_OK(alloc_result(N, &gpu));
  CHECK_OK(run_solver("cpu", "double", b, &p, b->d, &ref));
  CHECK_OK(run_solver("gpu", prec, b, &p, b->d, &gpu));
  CHECK(gpu.st.cycles == (long)cycles * NMACROS);
  CHECK(gpu.st.max_cycles_hit == NMACROS);
  CHECK(gpu.st.nonfinite == 0);
#ifdef FEAST_CUDA_EMU
  check_counts(b->level, &p, cycles);
#endif
  for (int m = 0; m < NMACROS; m++) {
    const double e = rel_diff(gpu.c[m], ref.c[m], n);
    if (!(e <= tol))
      fprintf(stderr, "L=%d gpu %s macro %d: relative difference %.3e > %.1e\n", b->level, prec,
              m, e, tol);
    CHECK(e <= tol);
  }
  check_shape(b, &gpu);
  free_result(&ref);
  free_result(&gpu);
}

/* rtol = 0.1 (one digit): cycle counts +-1 per macro; graphs off and a second solve with the
 * same solver give bitwise the same result; returns the corrections in *out */
static void check_production(const Batch *b, const char *prec, double tol, Result *out) {
  const int N = (1 << b->level) + 1;
  const long n = (long)N * N;
  const FeastLocalMGParams p = params(0.1, 16);
  Result ref, again, nograph;
  CHECK_OK(alloc_result(N, &ref));
  CHECK_OK(alloc_result(N, &again));
  CHECK_OK(alloc_result(N, &nograph));
  CHECK_OK(run_solver("cpu", "double", b, &p, b->d, &ref));
  FeastLocalSolver *ls = NULL;
  CHECK_OK(feast_local_create("gpu", prec, &ls));
  CHECK_OK(feast_local_setup(ls, NMACROS, b->prob, &p));
  CHECK_OK(feast_local_solve(ls, (const double *const *)b->d, out->c, &out->st));
  CHECK_OK(feast_local_solve(ls, (const double *const *)b->d, again.c, &again.st));
#ifdef FEAST_CUDA_EMU
  int c2[8];
  feast_cuda_emu_counts(ls, c2);
  CHECK(c2[2] == 1); /* the second solve enqueues the first one's cycles: one round trip */
#endif
  feast_local_destroy(&ls);
  setenv("FEAST_CUDA_GRAPHS", "0", 1);
  CHECK_OK(run_solver("gpu", prec, b, &p, b->d, &nograph));
  unsetenv("FEAST_CUDA_GRAPHS");

  CHECK(labs(out->st.cycles - ref.st.cycles) <= NMACROS);
  CHECK(out->st.max_cycles_hit == 0 && out->st.nonfinite == 0);
  if (out->st.cycles == ref.st.cycles) {
    for (int m = 0; m < NMACROS; m++) {
      const double e = rel_diff(out->c[m], ref.c[m], n);
      if (!(e <= tol))
        fprintf(stderr, "L=%d gpu %s rtol 0.1, macro %d: relative difference %.3e > %.1e\n",
                b->level, prec, m, e, tol);
      CHECK(e <= tol);
    }
  } else {
    fprintf(stderr, "L=%d gpu %s: %ld cycles, cpu double %ld: corrections not compared\n",
            b->level, prec, out->st.cycles, ref.st.cycles);
  }
  CHECK(again.st.cycles == out->st.cycles && nograph.st.cycles == out->st.cycles);
  for (int m = 0; m < NMACROS; m++) {
    CHECK(bitwise_equal(again.c[m], out->c[m], n));
    CHECK(bitwise_equal(nograph.c[m], out->c[m], n));
  }
#ifdef FEAST_CUDA_EMU
  /* blocks and threads in order and in reverse: bitwise the shuffled run's corrections */
  for (int order = 0; order < 2; order++) {
    feast_cuda_emu_set_order(order);
    CHECK_OK(run_solver("gpu", prec, b, &p, b->d, &again));
    feast_cuda_emu_set_order(2);
    int same = again.st.cycles == out->st.cycles;
    for (int m = 0; m < NMACROS; m++) same &= bitwise_equal(again.c[m], out->c[m], n);
    if (!same)
      fprintf(stderr, "L=%d gpu %s: %s order of blocks and threads changes the corrections\n",
              b->level, prec, order ? "reverse" : "ordered");
    CHECK(same);
  }
#endif
  check_shape(b, out);
  free_result(&ref);
  free_result(&again);
  free_result(&nograph);
}

#ifdef FEAST_CUDA_EMU
/* A matrix update copies one block per level (9 bands of every macro, n values each, from
 * the pinned staging buffer) and one of the coarse inverses; the masks not again */
static void check_update_copies(FeastLocalSolver *ls, int L, const FeastLocalMGParams *p, const char *prec) {
  const int lc = feast_local_coarse_level(L, p->coarse_max_dofs, 2);
  const double s = strcmp(prec, "single") ? 8 : 4, nc = (double)feast_level_n(lc) * feast_level_n(lc);
  double bytes = NMACROS * nc * nc * s;
  for (int l = lc; l <= L; l++) bytes += 9.0 * NMACROS * feast_level_n(l) * feast_level_n(l) * s;
  int c[8];
  feast_cuda_emu_counts(ls, c);
  CHECK(c[6] == L - lc + 2);
  CHECK(c[7] == (int)bytes);
}

/* A device whose largest copy pitch (FEAST_EMU_MAX_PITCH=1000 bytes) is below a row of
 * level 4's bands (320 floats): refused at setup, the message names the level and the
 * limit */
static void check_pitch(void) {
  Batch b;
  CHECK_OK(build_batch(4, laplace, &b));
  const FeastLocalMGParams p = params(0.1, 16);
  FeastLocalSolver *ls = NULL;
  CHECK_OK(feast_local_create("gpu", "single", &ls));
  setenv("FEAST_EMU_MAX_PITCH", "1000", 1);
  const int rc = feast_local_setup(ls, NMACROS, b.prob, &p);
  unsetenv("FEAST_EMU_MAX_PITCH");
  CHECK(rc == FEAST_ERR_LIMIT);
  const char *msg = feast_error_message();
  CHECK(strstr(msg, "local level 4 (17 x 17 nodes)") && strstr(msg, "1280 bytes") &&
        strstr(msg, "pitch of 1000 bytes"));
  feast_error_clear();
  feast_local_destroy(&ls);
  free_batch(&b);
}

/* lines of the file f that contain s */
static int count_lines(FILE *f, const char *s) {
  char line[1024];
  int k = 0;
  rewind(f);
  while (fgets(line, sizeof line, f)) k += strstr(line, s) != NULL;
  return k;
}

/* The captured cycle holds rtol and max_cycles: changed between solves (as the bench
 * does), the graph is captured again and the solves give bitwise what fresh solvers with
 * those parameters give. A device whose graph instantiation fails
 * (FEAST_EMU_GRAPH_FAIL=1): direct launches, bitwise the same corrections, one warning in
 * the process. */
static void check_graphs(const Batch *b, const char *prec, const Result *clean) {
  const int N = (1 << b->level) + 1;
  const long n = (long)N * N;
  const FeastLocalMGParams p = params(0.1, 16), pf = params(1e-30, 2);
  Result r, fixed;
  CHECK_OK(alloc_result(N, &r));
  CHECK_OK(alloc_result(N, &fixed));
  CHECK_OK(run_solver("gpu", prec, b, &pf, b->d, &fixed));
  FeastLocalSolver *ls = NULL;
  int c[8], same = 1;
  CHECK_OK(feast_local_create("gpu", prec, &ls));
  CHECK_OK(feast_local_setup(ls, NMACROS, b->prob, &p));
  CHECK_OK(feast_local_solve(ls, (const double *const *)b->d, r.c, &r.st));
  feast_cuda_emu_set_limits(ls, 1e-30, 2);
  CHECK_OK(feast_local_solve(ls, (const double *const *)b->d, r.c, &r.st));
  CHECK(r.st.cycles == 2 * NMACROS && r.st.max_cycles_hit == NMACROS);
  for (int m = 0; m < NMACROS; m++) same &= bitwise_equal(r.c[m], fixed.c[m], n);
  feast_cuda_emu_set_limits(ls, 0.1, 16);
  CHECK_OK(feast_local_solve(ls, (const double *const *)b->d, r.c, &r.st));
  CHECK(r.st.cycles == clean->st.cycles);
  for (int m = 0; m < NMACROS; m++) same &= bitwise_equal(r.c[m], clean->c[m], n);
  feast_cuda_emu_counts(ls, c);
  feast_local_destroy(&ls);
  CHECK(same);
  CHECK(c[3] == 3 && c[4] == 1); /* captured for each parameter set, graphs still on */

  feast_cuda_emu_counts(NULL, c);
  const int failed0 = c[5];
  FILE *err = tmpfile();
  CHECK(err != NULL);
  if (!err) return;
  fflush(stderr);
  const int saved = dup(2);
  dup2(fileno(err), 2);
  setenv("FEAST_EMU_GRAPH_FAIL", "1", 1);
  for (int k = 0; k < 2; k++) {
    CHECK_OK(run_solver("gpu", prec, b, &p, b->d, &r));
    CHECK(r.st.cycles == clean->st.cycles);
    for (int m = 0; m < NMACROS; m++) CHECK(bitwise_equal(r.c[m], clean->c[m], n));
  }
  unsetenv("FEAST_EMU_GRAPH_FAIL");
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  CHECK(last_counts[4] == 0 && last_counts[5] == failed0 + 2); /* graphs off after failing */
  CHECK(count_lines(err, "CUDA graph capture failed") == (failed0 == 0));
  fclose(err);
  free_result(&r);
  free_result(&fixed);
}
#endif

/* gpu_min_nodes = 33: a batch of 17 x 17 macros (L = 4) runs on the CPU backend of the
 * same precision (bitwise its corrections), one of 33 x 33 (L = 5) on the GPU; one
 * solver set up for L = 5, then L = 4, then L = 5 again switches each time */
static void check_small_on_cpu(void) {
  FeastLocalMGParams p = params(0.1, 16);
  p.gpu_min_nodes = 33;
  Batch b4, b5;
  Result r, ref;
  CHECK_OK(build_batch(4, conv1, &b4));
  CHECK_OK(build_batch(5, conv1, &b5));
  CHECK_OK(alloc_result(17, &r));
  CHECK_OK(alloc_result(17, &ref));
  CHECK_OK(run_solver("cpu", "single", &b4, &p, b4.d, &ref));
  FeastLocalSolver *ls = NULL;
  CHECK_OK(feast_local_create("gpu", "single", &ls));
  CHECK_OK(feast_local_setup(ls, NMACROS, b5.prob, &p));
  CHECK(!strcmp(feast_local_target(ls), "gpu"));
  CHECK_OK(feast_local_setup(ls, NMACROS, b4.prob, &p));
  CHECK(!strcmp(feast_local_target(ls), "cpu") && !strcmp(feast_local_precision(ls), "single"));
  CHECK_OK(feast_local_solve(ls, (const double *const *)b4.d, r.c, &r.st));
  CHECK(r.st.cycles == ref.st.cycles);
  for (int m = 0; m < NMACROS; m++) CHECK(bitwise_equal(r.c[m], ref.c[m], 17L * 17));
  CHECK_OK(feast_local_setup(ls, NMACROS, b5.prob, &p));
  CHECK(!strcmp(feast_local_target(ls), "gpu"));
  feast_local_destroy(&ls);
  free_result(&r);
  free_result(&ref);
  free_batch(&b4);
  free_batch(&b5);
}

/* a NaN in macro 1's defect: macro 1 nonfinite and zeroed, the others unchanged */
static void check_nan(const Batch *b, const char *prec, const Result *clean) {
  const int N = (1 << b->level) + 1;
  const long n = (long)N * N;
  const FeastLocalMGParams p = params(0.1, 16);
  Result r;
  CHECK_OK(alloc_result(N, &r));
  double *d[NMACROS];
  for (int m = 0; m < NMACROS; m++) d[m] = b->d[m];
  double *dn = NULL;
  CHECK_OK(feast_grid_alloc(N, &dn));
  memcpy(dn, b->d[1], sizeof(double) * (size_t)n);
  dn[n / 2 + N / 3] = NAN;
  d[1] = dn;
  CHECK_OK(run_solver("gpu", prec, b, &p, d, &r));
  CHECK(r.st.nonfinite == 1);
  long nonzero = 0;
  for (long i = 0; i < n; i++) nonzero += r.c[1][i] != 0.0;
  CHECK(nonzero == 0);
  for (int m = 0; m < NMACROS; m++)
    if (m != 1) CHECK(bitwise_equal(r.c[m], clean->c[m], n));
  feast_grid_free(N, &dn);
  free_result(&r);
}

/* defects that are not 0 on fixed nodes still give c = 0 there */
static void check_fixed_defects(const Batch *b, const char *prec) {
  const int N = (1 << b->level) + 1;
  const long n = (long)N * N;
  const FeastLocalMGParams p = params(0.1, 16);
  Result r;
  CHECK_OK(alloc_result(N, &r));
  double *d[NMACROS];
  for (int m = 0; m < NMACROS; m++) {
    CHECK_OK(feast_grid_alloc(N, &d[m]));
    for (long i = 0; i < n; i++) d[m][i] = b->fixed[m][b->level][i] ? 1.0 : b->d[m][i];
  }
  CHECK_OK(run_solver("gpu", prec, b, &p, d, &r));
  CHECK(r.st.nonfinite == 0);
  check_shape(b, &r);
  for (int m = 0; m < NMACROS; m++) feast_grid_free(N, &d[m]);
  free_result(&r);
}

/* setup with conv1, update to conv2 (new values into the same device buffers, the
 * captured graph replayed): bitwise the corrections of a fresh setup with conv2, and not
 * those of conv1 */
static void check_update(int L, const char *prec) {
  const int N = (1 << L) + 1;
  const long n = (long)N * N;
  const FeastLocalMGParams p = params(0.1, 16);
  Batch b;
  Result first, upd, fresh;
  CHECK_OK(build_batch(L, conv1, &b));
  CHECK_OK(alloc_result(N, &first));
  CHECK_OK(alloc_result(N, &upd));
  CHECK_OK(alloc_result(N, &fresh));
  FeastLocalSolver *ls = NULL;
  CHECK_OK(feast_local_create("gpu", prec, &ls));
  CHECK_OK(feast_local_setup(ls, NMACROS, b.prob, &p));
  CHECK_OK(feast_local_solve(ls, (const double *const *)b.d, first.c, &first.st));
  for (int m = 0; m < NMACROS; m++) feast_test_stencil(&b.A[m], b.fixed[m][L], conv2.bx, conv2.by, conv2.k);
  CHECK_OK(feast_local_update(ls, b.prob));
#ifdef FEAST_CUDA_EMU
  check_update_copies(ls, L, &p, prec);
#endif
  CHECK_OK(feast_local_solve(ls, (const double *const *)b.d, upd.c, &upd.st));
  feast_local_destroy(&ls);
  CHECK_OK(run_solver("gpu", prec, &b, &p, b.d, &fresh));
  int same = upd.st.cycles == fresh.st.cycles, changed = 0;
  for (int m = 0; m < NMACROS; m++) {
    same &= bitwise_equal(upd.c[m], fresh.c[m], n);
    changed |= !bitwise_equal(upd.c[m], first.c[m], n);
  }
  CHECK(same);
  CHECK(changed);
  free_result(&first);
  free_result(&upd);
  free_result(&fresh);
  free_batch(&b);
}

/* The insides from a "global" hierarchy G: the finest matrix with new values in its
 * three outer rings, and its Galerkin products without masks (which differ from the
 * local levels only near the edges). With them the levels are framed and uploaded as
 * frame over inside: bitwise the corrections of the whole levels (a frame not written
 * over G's values would change them). */
static void check_inside(int L, const char *prec) {
  const int N = (1 << L) + 1;
  const long n = (long)N * N;
  const FeastLocalMGParams p = params(0.1, 16);
  Batch b;
  Result whole, framed;
  FeastBand9 G[NMACROS][16];
  const FeastBand9 *inside[NMACROS][16];
  CHECK_OK(build_batch(L, conv1, &b));
  CHECK_OK(alloc_result(N, &whole));
  CHECK_OK(alloc_result(N, &framed));
  CHECK_OK(run_solver("gpu", prec, &b, &p, b.d, &whole));
  for (int m = 0; m < NMACROS; m++) {
    CHECK_OK(feast_test_outer_hierarchy(&b.A[m], L, uniform, G[m]));
    for (int l = 0; l <= L; l++) inside[m][l] = &G[m][l];
    b.prob[m].inside = inside[m];
  }
  CHECK_OK(run_solver("gpu", prec, &b, &p, b.d, &framed));
  CHECK(framed.st.cycles == whole.st.cycles);
  for (int m = 0; m < NMACROS; m++) CHECK(bitwise_equal(framed.c[m], whole.c[m], n));
  for (int m = 0; m < NMACROS; m++)
    for (int l = 0; l <= L; l++) feast_band9_destroy(&G[m][l]);
  free_result(&whole);
  free_result(&framed);
  free_batch(&b);
}

/* Single precision against double: the float defect d - A x of an iterate x carries
 * rounding noise ~ eps_f |A| |x|, which A^{-1} amplifies ~ N for white noise (more
 * without Dirichlet edges, macro 2), so the difference grows ~3-4x per level: measured
 * (host emulation of these kernels) max 2.5e-5 at L = 7, 7.6e-5 at L = 8, 3.2e-4 at L = 9.
 * 1e-4 up to L = 7, then x4 per level. */
static double single_tolerance(int L) { return L <= 7 ? 1e-4 : 1e-4 * (double)(1 << (2 * (L - 7))); }

static int run(void) {
  /* where the driver sees a GPU (nvidia-smi succeeds), no usable device is a failure */
  const int smi = system("nvidia-smi -L >/dev/null 2>&1") == 0;
  if (!feast_local_available("gpu")) {
    printf("test_coproc_gpu: no usable CUDA device: %s (backends: %s)%s\n",
           feast_local_unavailable_reason("gpu"), feast_local_backends(),
           smi ? "; but nvidia-smi sees a GPU: FAILED" : "");
    return smi ? 1 : 77;
  }
  FeastLocalSolver *probe = NULL;
  const int rc = feast_local_create("gpu", "single", &probe);
  feast_local_destroy(&probe);
  if (rc == FEAST_ERR_UNSUPPORTED) {
    printf("test_coproc_gpu: %s%s\n", feast_error_message(), smi ? " (nvidia-smi sees a GPU: FAILED)" : "");
    feast_error_clear();
    return smi ? 1 : 77;
  }
  CHECK_OK(rc);
  const char *env = getenv("FEAST_TEST_MAX_LEVEL");
  const int lmax = env ? atoi(env) : 9;
  const char *extra_env = getenv("FEAST_TEST_EXTRA_LEVEL");
  const int lextra = extra_env ? atoi(extra_env) : 0;
  const char *prec[2] = {"single", "double"};
  for (int L = 3; L <= lmax; L++) {
    for (int k = 0; k < 2; k++) {
      const double tol[2] = {single_tolerance(L), 1e-10};
      Batch b, nb;
      Result clean, nclean;
      CHECK_OK(build_batch(L, laplace, &b));
      CHECK_OK(build_batch(L, conv1, &nb));
      CHECK_OK(alloc_result((1 << L) + 1, &clean));
      CHECK_OK(alloc_result((1 << L) + 1, &nclean));
      check_fixed_cycles(&b, prec[k], tol[k]);
      check_production(&b, prec[k], tol[k], &clean);
      check_nan(&b, prec[k], &clean);
#ifdef FEAST_CUDA_EMU
      check_graphs(&b, prec[k], &clean);
#endif
      check_fixed_defects(&b, prec[k]);
      check_fixed_cycles(&nb, prec[k], tol[k]);
      check_production(&nb, prec[k], tol[k], &nclean);
      check_update(L, prec[k]);
      check_inside(L, prec[k]);
      free_result(&clean);
      free_result(&nclean);
      free_batch(&b);
      free_batch(&nb);
    }
    printf("test_coproc_gpu: L = %d done (%d checks, %d failed)\n", L, feast_test_checks,
           feast_test_failures);
    fflush(stdout);
  }
  check_small_on_cpu();
#ifdef FEAST_CUDA_EMU
  check_pitch();
#endif
  if (lextra > lmax) { /* one larger level: fixed cycles and production, nonsymmetric */
    const int L = lextra;
    for (int k = 0; k < 2; k++) {
      const double tol[2] = {single_tolerance(L), 1e-10};
      Batch nb;
      Result nclean;
      CHECK_OK(build_batch(L, conv1, &nb));
      CHECK_OK(alloc_result((1 << L) + 1, &nclean));
      check_fixed_cycles(&nb, prec[k], tol[k]);
      check_production(&nb, prec[k], tol[k], &nclean);
      free_result(&nclean);
      free_batch(&nb);
    }
    printf("test_coproc_gpu: L = %d (fixed cycles, production) done (%d checks, %d failed)\n", L,
           feast_test_checks, feast_test_failures);
  }
#ifdef FEAST_CUDA_EMU
  if (feast_test_failures)
    printf("test_coproc_gpu: host emulator seed %llu (FEAST_EMU_SEED=%llu repeats the run)\n",
           feast_cuda_emu_seed(), feast_cuda_emu_seed());
#endif
  return 0;
}

FEAST_TEST_MAIN(run)

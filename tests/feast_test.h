/* Minimal test harness: CHECK macros that count, FEAST_TEST_MAIN that runs MPI.
 * A test program defines `static int run(void)` and ends with FEAST_TEST_MAIN(run). */
#ifndef FEAST_TEST_H
#define FEAST_TEST_H
#include <math.h>
#include <stdio.h>

extern int feast_test_failures;
extern int feast_test_checks;
int feast_test_rank(void);
int feast_test_size(void);
/* the unit tests' pseudo-random values in [-0.5, 0.5]: a linear congruential generator on
 * *state (each test seeds its own, so its values are the same on every run) */
double feast_test_random(unsigned *state);
/* 1 when the ranks outnumber this machine's CPUs (4 ranks on a 2-core CI machine): there,
 * with another process busy, every wait for another rank costs a scheduler time slice
 * (76 ms per FGMRES iteration of a Newton solve at Re 2000 against 0.7 ms quiet,
 * 2026-11-27), so tests leave out their communication-heavy extra cases */
int feast_test_oversubscribed(void);
/* the bytes of a file in *buf (malloc'ed, one byte more); their count, -1 if unreadable */
long feast_test_read_file(const char *path, unsigned char **buf);
int feast_test_finish(const char *name);
int feast_test_main(int argc, char **argv, int (*run)(void), const char *name);

#define CHECK(cond)                                                                            \
  do {                                                                                         \
    feast_test_checks++;                                                                       \
    if (!(cond)) {                                                                             \
      feast_test_failures++;                                                                   \
      fprintf(stderr, "[rank %d] %s:%d: CHECK failed: %s\n", feast_test_rank(), __FILE__,      \
              __LINE__, #cond);                                                                \
    }                                                                                          \
  } while (0)
#define CHECK_CLOSE(a, b, rtol)                                                                \
  do {                                                                                         \
    double ca_ = (double)(a), cb_ = (double)(b);                                               \
    feast_test_checks++;                                                                       \
    if (!(fabs(ca_ - cb_) <= (rtol) * fmax(fabs(cb_), 1e-300)) || isnan(ca_)) {               \
      feast_test_failures++;                                                                   \
      fprintf(stderr, "[rank %d] %s:%d: CHECK_CLOSE failed: %s = %.17g, %s = %.17g (rtol %g)\n", \
              feast_test_rank(), __FILE__, __LINE__, #a, ca_, #b, cb_, (double)(rtol));        \
    }                                                                                          \
  } while (0)
/* a library call that must succeed: prints the library's error message if not */
#define CHECK_OK(expr)                                                                         \
  do {                                                                                         \
    int co_ = (expr);                                                                          \
    feast_test_checks++;                                                                       \
    if (co_) {                                                                                 \
      feast_test_failures++;                                                                   \
      fprintf(stderr, "[rank %d] %s:%d: %s failed (%d): %s\n", feast_test_rank(), __FILE__,    \
              __LINE__, #expr, co_, feast_error_message());                                    \
    }                                                                                          \
  } while (0)
/* a library call that must fail with an error code */
#define CHECK_FAILS(expr)                                                                      \
  do {                                                                                         \
    int cf_ = (expr);                                                                          \
    feast_test_checks++;                                                                       \
    if (!cf_) {                                                                                \
      feast_test_failures++;                                                                   \
      fprintf(stderr, "[rank %d] %s:%d: %s succeeded, expected an error\n", feast_test_rank(), \
              __FILE__, __LINE__, #expr);                                                      \
    }                                                                                          \
    feast_error_clear();                                                                       \
  } while (0)

/* A <- the test stencil of the local multigrid tests on A's grid (N = A->N, h = 1/(N-1)):
 * Q1 Laplace (8/3 centre, -1/3 neighbours inside the grid) plus first-order upwind
 * convection h (bx, by).grad and a reaction h^2 k on the diagonal (k < 0: a Newton-like
 * term); identity rows at the nodes with fixed[node] != 0 */
#include "feast/la/band9.h"
void feast_test_stencil(FeastBand9 *A, const unsigned char *fixed, double bx, double by, double k);
/* A "global" hierarchy G[0..L] for the insides of a local problem whose finest matrix is
 * A (level L): G[L] is A with 1 + rnd() added to the diagonal in its three outer rings
 * of nodes, G[l-1] the Galerkin product of G[l] without masks. The local hierarchy differs
 * from it only near the edges, so their insides agree. G[l] are created here (release
 * each with feast_band9_destroy). */
int feast_test_outer_hierarchy(const FeastBand9 *A, int L, double (*rnd)(void), FeastBand9 *G);

/* xy (2 N^2 values) <- a general quadrilateral macro with corners (0,0), (2,0.2), (1.7,1.5),
 * (0.3,1.1), its N x N nodes mapped bilinearly and the interior ones jittered by up to
 * 1/8 of a cell (a reproducible hash of seed): no cell a parallelogram */
void feast_test_jittered_macro(int N, unsigned seed, double *xy);

/* hexahedral macros of the 3D tests (corners in the order of feast/mesh/hex.h): the unit
 * cube; a twisted hexahedron (no two faces parallel, no face planar but the bottom); a
 * sheared, stretched cube (every cell a parallelepiped) */
extern const double feast_test_unit_cube[8][3], feast_test_twisted_hex[8][3], feast_test_sheared_hex[8][3];

#define FEAST_TEST_MAIN(fn)                                                                    \
  int main(int argc, char **argv) { return feast_test_main(argc, argv, fn, __FILE__); }
#endif

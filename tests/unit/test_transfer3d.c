/* The trilinear grid transfer of hexahedral macros (feast_prolongate_point3,
 * feast_restrict_point3 in feast/la/band9_kernels.h, issue #47):
 *  - the prolongation reproduces a trilinear function exactly (every term of
 *    1 + 2x + 3y + 5z + 7xy + 11yz + 13xz + 17xyz at the coarse nodes, the fine values
 *    exact in binary: bitwise), in double and float, on cubes of 2..9 coarse nodes a side;
 *  - the restriction is its transpose: (R f, c) = (f, P c) to rounding for random f, c;
 *  - on the plane k = 0 the prolongation is the 2D one, bitwise. */
#include "feast/la/band9_kernels.h"
#include "feast_test.h"
#include <math.h>
#include <stdlib.h>

static unsigned rng = 4711u;
static double trilinear(double x, double y, double z) {
  return 1 + 2 * x + 3 * y + 5 * z + 7 * x * y + 11 * y * z + 13 * x * z + 17 * x * y * z;
}

/* coarse node (I,J,K) at (I,J,K), fine node (i,j,k) at (i,j,k)/2 */
static void check_exact(int Nc) {
  const int Nf = 2 * Nc - 1;
  double *c = malloc(sizeof(double) * Nc * Nc * Nc);
  float *cf = malloc(sizeof(float) * Nc * Nc * Nc);
  for (int K = 0; K < Nc; K++)
    for (int J = 0; J < Nc; J++)
      for (int I = 0; I < Nc; I++) {
        c[((long)K * Nc + J) * Nc + I] = trilinear(I, J, K);
        cf[((long)K * Nc + J) * Nc + I] = (float)trilinear(I, J, K);
      }
  int exact = 1, exact_f = 1, plane0 = 1;
  for (int k = 0; k < Nf; k++)
    for (int j = 0; j < Nf; j++)
      for (int i = 0; i < Nf; i++) {
        const double want = trilinear(0.5 * i, 0.5 * j, 0.5 * k);
        exact &= feast_prolongate_point3_d(c, Nc, i, j, k) == want;
        exact_f &= feast_prolongate_point3_f(cf, Nc, i, j, k) == (float)want;
        if (k == 0) plane0 &= feast_prolongate_point3_d(c, Nc, i, j, 0) == feast_prolongate_point_d(c, Nc, i, j);
      }
  CHECK(exact);
  CHECK(exact_f);
  CHECK(plane0);
  free(c);
  free(cf);
}

static void check_transpose(int Nc) {
  const int Nf = 2 * Nc - 1;
  const long nc = (long)Nc * Nc * Nc, nf = (long)Nf * Nf * Nf;
  double *c = malloc(sizeof(double) * nc), *f = malloc(sizeof(double) * nf);
  for (long r = 0; r < nc; r++) c[r] = feast_test_random(&rng);
  for (long r = 0; r < nf; r++) f[r] = feast_test_random(&rng);
  double fPc = 0.0, Rfc = 0.0, scale = 0.0;
  for (int k = 0; k < Nf; k++)
    for (int j = 0; j < Nf; j++)
      for (int i = 0; i < Nf; i++) {
        const double t = f[((long)k * Nf + j) * Nf + i] * feast_prolongate_point3_d(c, Nc, i, j, k);
        fPc += t;
        scale += fabs(t);
      }
  for (int K = 0; K < Nc; K++)
    for (int J = 0; J < Nc; J++)
      for (int I = 0; I < Nc; I++) Rfc += feast_restrict_point3_d(f, Nf, I, J, K) * c[((long)K * Nc + J) * Nc + I];
  CHECK(fabs(fPc - Rfc) <= 1e-14 * scale);
  free(c);
  free(f);
}

static int run(void) {
  for (int Nc = 2; Nc <= 9; Nc++) {
    check_exact(Nc);
    check_transpose(Nc);
  }
  return 0;
}

FEAST_TEST_MAIN(run)

#include "feast/transfer.h"
#include "feast/band9_kernels.h"
#include "feast/error.h"
#include "feast/hd.h"
#include <string.h>

void feast_grid_prolongate(int Nc, const double *coarse, double *fine) {
  const int Nf = 2 * Nc - 1;
  for (int j = 0; j < Nf; j++)
    for (int i = 0; i < Nf; i++) fine[j * Nf + i] = feast_prolongate_point_d(coarse, Nc, i, j);
}

void feast_grid_restrict(int Nf, const double *fine, double *coarse) {
  const int Nc = (Nf + 1) / 2;
  for (int J = 0; J < Nc; J++)
    for (int I = 0; I < Nc; I++) coarse[J * Nc + I] = feast_restrict_point_d(fine, Nf, I, J);
}

/* The Galerkin product as a stencil formula. Along one axis the bilinear prolongation
 * has weights w(0) = 1, w(+-1) = 1/2: coarse node I is the parent of fine nodes 2I + a,
 * a = -1, 0, 1. The coupling of coarse node I to its neighbour K = I + d (d = -1, 0, 1)
 * collects A(i, k) P(i, I) P(k, K) over i = 2I + a and k = i + s with k = 2K + e, i.e.
 * over the triples (a, s, w(a) w(e)) with s = 2d + e - a in {-1, 0, 1}: 7 for d = 0, 3
 * for d = +-1. In 2D the terms are the products of one x and one y triple (169 per
 * coarse row), a weighted sum of fine band entries read with stride 2. */
typedef struct {
  int a, s;   /* fine node 2I + a, band offset s */
  double w;   /* w(a) w(e) */
} AxisTerm;

typedef struct {
  int n[3];          /* terms for d = -1, 0, 1 */
  AxisTerm t[3][7];
} AxisTerms;

static double axis_weight(int a) { return a == 0 ? 1.0 : 0.5; }

static AxisTerms axis_terms(void) {
  AxisTerms T = {{0, 0, 0}, {{{0, 0, 0}}}};
  for (int d = -1; d <= 1; d++)
    for (int a = -1; a <= 1; a++)
      for (int e = -1; e <= 1; e++) {
        const int s = 2 * d + e - a;
        if (s >= -1 && s <= 1) T.t[d + 1][T.n[d + 1]++] = (AxisTerm){a, s, axis_weight(a) * axis_weight(e)};
      }
  return T;
}

/* Ac(I, I + (dx, dy)) with every check: fine nodes and neighbours inside the macro and
 * free, coarse row and column free (for the rows near the macro's edges) */
static double entry_checked(const AxisTerms *T, const FeastBand9 *Af, const unsigned char *fixed_f,
                            const unsigned char *fixed_c, int I, int J, int dx, int dy) {
  const int Nf = Af->N, Nc = (Nf + 1) / 2, KI = I + dx, KJ = J + dy;
  if (KI < 0 || KJ < 0 || KI >= Nc || KJ >= Nc || fixed_c[(long)J * Nc + I] || fixed_c[(long)KJ * Nc + KI])
    return 0.0;
  double sum = 0.0;
  for (int ty = 0; ty < T->n[dy + 1]; ty++)
    for (int tx = 0; tx < T->n[dx + 1]; tx++) {
      const AxisTerm *x = &T->t[dx + 1][tx], *y = &T->t[dy + 1][ty];
      const int i = 2 * I + x->a, j = 2 * J + y->a, ki = i + x->s, kj = j + y->s;
      if (i < 0 || j < 0 || i >= Nf || j >= Nf || ki < 0 || kj < 0 || ki >= Nf || kj >= Nf) continue;
      if (fixed_f[(long)j * Nf + i] || fixed_f[(long)kj * Nf + ki]) continue;
      sum += x->w * y->w * Af->band[feast_band_index(x->s, y->s)][(long)j * Nf + i];
    }
  return sum;
}

/* coarse band (dx, dy) of row J for I0 <= I < I1, no checks: every fine node read lies
 * at least two nodes inside the macro, where nothing is fixed (fixed nodes lie on macro
 * edges) and every neighbour exists */
static void row_unchecked(const AxisTerms *T, const FeastBand9 *Af, int J, int dx, int dy, int I0, int I1,
                          double *restrict out) {
  const long Nf = Af->N;
  for (int I = I0; I < I1; I++) out[I] = 0.0;
  for (int ty = 0; ty < T->n[dy + 1]; ty++)
    for (int tx = 0; tx < T->n[dx + 1]; tx++) {
      const AxisTerm *x = &T->t[dx + 1][tx], *y = &T->t[dy + 1][ty];
      const double w = x->w * y->w;
      const double *restrict f = Af->band[feast_band_index(x->s, y->s)] + (2 * J + y->a) * Nf + x->a;
      FEAST_IVDEP
      for (int I = I0; I < I1; I++) out[I] += w * f[2 * I];
    }
}

/* the 9 coarse bands of row J: unchecked inside, checked within two nodes of the edges */
static void galerkin_row(const AxisTerms *T, const FeastBand9 *Af, const unsigned char *fixed_f,
                         const unsigned char *fixed_c, FeastBand9 *Ac, int J) {
  const int Nc = Ac->N, inner = J >= 2 && J < Nc - 2;
  const int I0 = inner ? 2 : Nc, I1 = inner ? Nc - 2 : Nc;
  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++) {
      double *out = Ac->band[feast_band_index(dx, dy)] + (long)J * Nc;
      if (I0 < I1) row_unchecked(T, Af, J, dx, dy, I0, I1, out);
      for (int I = 0; I < Nc; I++)
        if (I < I0 || I >= I1) out[I] = entry_checked(T, Af, fixed_f, fixed_c, I, J, dx, dy);
    }
}

int feast_band9_galerkin(const FeastBand9 *Af, const unsigned char *fixed_f,
                         const unsigned char *fixed_c, FeastBand9 *Ac) {
  const int Nf = Af->N, Nc = (Nf + 1) / 2;
  FEAST_CHECK(Ac->N == Nc && Ac->band[0], FEAST_ERR_ARG,
              "feast_band9_galerkin: coarse matrix has N = %d, expected %d", Ac->N, Nc);
  const AxisTerms T = axis_terms();
  for (int J = 0; J < Nc; J++) galerkin_row(&T, Af, fixed_f, fixed_c, Ac, J);
  for (long I = 0; I < (long)Nc * Nc; I++)
    if (fixed_c[I]) Ac->band[FEAST_BAND_DIAG][I] = 1.0;
  return 0;
}

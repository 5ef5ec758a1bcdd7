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

/* Inside the macro (coarse rows and columns 2 .. Nc-3, where every fine node read lies
 * at least two nodes inside, nothing is fixed and every neighbour exists) the product
 * is computed without checks and, since every term is the product of an x and a y
 * term, in two halves: the x half on each fine row (39 multiply-adds per fine row and
 * coarse column, on the fine row's entries split into even and odd columns so that
 * every read is contiguous), then the y half (39 per coarse entry row) from the x
 * halves of the three fine rows 2J - 1, 2J, 2J + 1; each fine row's x half serves two
 * coarse rows. The columns are taken in chunks, so the work fits on the stack. */
enum { CHUNK = 128 };

typedef struct {
  double h[3][3][CHUNK]; /* [dx + 1][sy + 1][I - I0]: sum over the x terms (a, s, w) of dx
                            of w A_(s, sy)(j, 2I + a) */
} XHalf;

static void x_half(const AxisTerms *T, const FeastBand9 *Af, long j, int I0, int n, XHalf *x) {
  const long Nf = Af->N;
  double even[3][3][CHUNK], odd[3][3][CHUNK + 1]; /* [s + 1][sy + 1]: A(j, 2I), A(j, 2I - 1) */
  for (int sy = -1; sy <= 1; sy++)
    for (int sx = -1; sx <= 1; sx++) {
      const double *f = Af->band[feast_band_index(sx, sy)] + j * Nf + 2 * I0;
      double *e = even[sx + 1][sy + 1], *o = odd[sx + 1][sy + 1];
      for (int k = 0; k < n; k++) {
        o[k] = f[2 * k - 1];
        e[k] = f[2 * k];
      }
      o[n] = f[2 * n - 1];
    }
  for (int dx = -1; dx <= 1; dx++)
    for (int sy = -1; sy <= 1; sy++) {
      double *restrict out = x->h[dx + 1][sy + 1];
      for (int k = 0; k < n; k++) out[k] = 0.0;
      for (int t = 0; t < T->n[dx + 1]; t++) {
        const AxisTerm *a = &T->t[dx + 1][t];
        const double w = a->w;
        const double *restrict src = a->a == 0 ? even[a->s + 1][sy + 1] : odd[a->s + 1][sy + 1] + (a->a > 0);
        FEAST_IVDEP
        for (int k = 0; k < n; k++) out[k] += w * src[k];
      }
    }
}

/* coarse row J, columns I0 .. I0 + n - 1, from the x halves of fine rows 2J - 1, 2J, 2J + 1 */
static void y_half(const AxisTerms *T, const XHalf *const rows[3], FeastBand9 *Ac, int J, int I0, int n) {
  const long Nc = Ac->N;
  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++) {
      double *restrict out = Ac->band[feast_band_index(dx, dy)] + J * Nc + I0;
      for (int k = 0; k < n; k++) out[k] = 0.0;
      for (int t = 0; t < T->n[dy + 1]; t++) {
        const AxisTerm *b = &T->t[dy + 1][t];
        const double w = b->w;
        const double *restrict src = rows[b->a + 1]->h[dx + 1][b->s + 1];
        FEAST_IVDEP
        for (int k = 0; k < n; k++) out[k] += w * src[k];
      }
    }
}

/* the unchecked rows and columns 2 .. Nc-3, chunk by chunk of columns */
static void galerkin_inside(const AxisTerms *T, const FeastBand9 *Af, FeastBand9 *Ac) {
  const int Nc = Ac->N;
  XHalf buf[3];
  for (int I0 = 2; I0 < Nc - 2; I0 += CHUNK) {
    const int n = Nc - 2 - I0 < CHUNK ? Nc - 2 - I0 : CHUNK;
    int lo = 0, hi = 2;                         /* buf[lo], buf[1], buf[hi]: fine rows 2J - 1, 2J, 2J + 1 */
    x_half(T, Af, 3, I0, n, &buf[lo]);          /* fine row 2J - 1 of J = 2 */
    for (int J = 2; J < Nc - 2; J++) {
      x_half(T, Af, 2L * J, I0, n, &buf[1]);
      x_half(T, Af, 2L * J + 1, I0, n, &buf[hi]);
      y_half(T, (const XHalf *const[3]){&buf[lo], &buf[1], &buf[hi]}, Ac, J, I0, n);
      const int next_lo = hi;                   /* fine row 2J + 1 is row 2J' - 1 of J' = J + 1 */
      hi = lo;
      lo = next_lo;
    }
  }
}

/* every coarse entry within two nodes of the macro's edges, with every check */
static void galerkin_edges(const AxisTerms *T, const FeastBand9 *Af, const unsigned char *fixed_f,
                           const unsigned char *fixed_c, FeastBand9 *Ac) {
  const int Nc = Ac->N;
  for (int J = 0; J < Nc; J++) {
    const int inner = J >= 2 && J < Nc - 2;
    for (int dy = -1; dy <= 1; dy++)
      for (int dx = -1; dx <= 1; dx++) {
        double *out = Ac->band[feast_band_index(dx, dy)] + (long)J * Nc;
        for (int I = 0; I < Nc; I++)
          if (!inner || I < 2 || I >= Nc - 2) out[I] = entry_checked(T, Af, fixed_f, fixed_c, I, J, dx, dy);
      }
  }
}

int feast_band9_galerkin(const FeastBand9 *Af, const unsigned char *fixed_f,
                         const unsigned char *fixed_c, FeastBand9 *Ac) {
  const int Nf = Af->N, Nc = (Nf + 1) / 2;
  FEAST_CHECK(Ac->N == Nc && Ac->band[0], FEAST_ERR_ARG,
              "feast_band9_galerkin: coarse matrix has N = %d, expected %d", Ac->N, Nc);
  const AxisTerms T = axis_terms();
  galerkin_edges(&T, Af, fixed_f, fixed_c, Ac);
  galerkin_inside(&T, Af, Ac);
  for (long I = 0; I < (long)Nc * Nc; I++)
    if (fixed_c[I]) Ac->band[FEAST_BAND_DIAG][I] = 1.0;
  return 0;
}

#include "feast/fem/transfer_hex.h"
#include "feast/base/error.h"
#include "feast/la/band9_kernels.h"
#include <string.h>

void feast_hex_prolongate(int Nc, const double *coarse, double *fine) {
  const long Nf = 2L * Nc - 1;
  for (int k = 0; k < Nf; k++)
    for (int j = 0; j < Nf; j++)
      for (int i = 0; i < Nf; i++) fine[(k * Nf + j) * Nf + i] = feast_prolongate_point3_d(coarse, Nc, i, j, k);
}

void feast_hex_restrict(int Nf, const double *fine, double *coarse) {
  const long Nc = (Nf + 1) / 2;
  for (int K = 0; K < Nc; K++)
    for (int J = 0; J < Nc; J++)
      for (int I = 0; I < Nc; I++) coarse[(K * Nc + J) * Nc + I] = feast_restrict_point3_d(fine, Nf, I, J, K);
}

/* Along one axis the coupling of coarse node I to I + d collects A(i, i + s) P(i, I)
 * P(i + s, I + d) over fine nodes i = 2I + a (a = -1, 0, 1, weight w(a)) and offsets s
 * with i + s = 2 (I + d) + e (weight w(e)): the triples (a, s, w(a) w(e)) with
 * s = 2d + e - a in -1..1, 7 for d = 0 and 3 for d = +-1 (the 2D product's terms,
 * feast/fem/transfer.c, per axis) */
typedef struct {
  int n[3];
  struct {
    int a, s;
    double w;
  } t[3][7];
} AxisTerms;

static AxisTerms axis_terms(void) {
  AxisTerms T;
  memset(&T, 0, sizeof T);
  for (int d = -1; d <= 1; d++)
    for (int a = -1; a <= 1; a++)
      for (int e = -1; e <= 1; e++) {
        const int s = 2 * d + e - a, n = T.n[d + 1];
        if (s < -1 || s > 1) continue;
        T.t[d + 1][n].a = a, T.t[d + 1][n].s = s;
        T.t[d + 1][n].w = (a ? 0.5 : 1.0) * (e ? 0.5 : 1.0);
        T.n[d + 1]++;
      }
  return T;
}

/* the free fine node at a + 2 I per axis, k = its index; 0 if outside or fixed */
static int free_node(const long *c, long N, const unsigned char *fixed, long *k) {
  for (int d = 0; d < 3; d++)
    if (c[d] < 0 || c[d] >= N) return 0;
  *k = (c[2] * N + c[1]) * N + c[0];
  return !fixed || !fixed[*k];
}

/* entry (row I, band b) of the product: the sum over one term per axis */
static double coarse_entry(const AxisTerms *T, const FeastBand *Af, const unsigned char *fixed_f, const long I[3],
                           int b) {
  const signed char *d = Af->stencil->offset[b];
  const long Nf = Af->N;
  double sum = 0.0;
  for (int tz = 0; tz < T->n[d[2] + 1]; tz++)
    for (int ty = 0; ty < T->n[d[1] + 1]; ty++)
      for (int tx = 0; tx < T->n[d[0] + 1]; tx++) {
        const int t[3] = {tx, ty, tz};
        long i[3], k[3], ri, rk;
        double w = 1.0;
        int s[3];
        for (int a = 0; a < 3; a++) {
          const int dd = d[a] + 1;
          i[a] = 2 * I[a] + T->t[dd][t[a]].a;
          s[a] = T->t[dd][t[a]].s;
          k[a] = i[a] + s[a];
          w *= T->t[dd][t[a]].w;
        }
        if (!free_node(i, Nf, fixed_f, &ri) || !free_node(k, Nf, fixed_f, &rk)) continue;
        sum += w * Af->band[feast_stencil_band(Af->stencil, s[0], s[1], s[2])][ri];
      }
  return sum;
}

int feast_band_galerkin(const FeastBand *Af, const unsigned char *fixed_f, const unsigned char *fixed_c,
                        FeastBand *Ac) {
  const FeastStencil *s = &feast_stencil_q1_3d;
  FEAST_CHECK(Af->stencil == s && Ac->stencil == s && Af->N >= 3 && Af->N % 2 == 1 && Ac->N == (Af->N + 1) / 2,
              FEAST_ERR_ARG, "Galerkin product on hexahedra: 27-band matrices with N = %d and (N + 1) / 2 (have %d, %d)",
              Af->N, Af->N, Ac->N);
  const AxisTerms T = axis_terms();
  const long Nc = Ac->N;
  for (long K = 0; K < Nc; K++)
    for (long J = 0; J < Nc; J++)
      for (long I = 0; I < Nc; I++) {
        const long r = (K * Nc + J) * Nc + I, c[3] = {I, J, K};
        const int row_fixed = fixed_c && fixed_c[r];
        for (int b = 0; b < s->nbands; b++) {
          long q[3], rq;
          for (int a = 0; a < 3; a++) q[a] = c[a] + s->offset[b][a];
          const int coupled = !row_fixed && free_node(q, Nc, fixed_c, &rq);
          Ac->band[b][r] = coupled ? coarse_entry(&T, Af, fixed_f, c, b) : 0.0;
        }
        if (row_fixed) Ac->band[s->centre][r] = 1.0;
      }
  return 0;
}

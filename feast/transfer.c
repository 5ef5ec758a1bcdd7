#include "feast/transfer.h"
#include "feast/band9_kernels.h"
#include "feast/error.h"
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

/* fine index q (0..Nf-1) -> its coarse parents and bilinear weights along one axis */
static int parents(int q, int *par, double *w) {
  if (!(q & 1)) {
    par[0] = q / 2;
    w[0] = 1.0;
    return 1;
  }
  par[0] = (q - 1) / 2;
  par[1] = (q + 1) / 2;
  w[0] = w[1] = 0.5;
  return 2;
}

/* Ac[I][K] += P(i,I) Af(i,b) P(k,K) over the parents I of fine node i and K of its
 * neighbour k = i + off_b. checked = 0 for fine nodes at least two nodes inside the macro:
 * their neighbours and all parents exist and are free (fixed nodes lie on macro edges). */
static inline void galerkin_node(const FeastBand9 *Af, const unsigned char *fixed_f, const unsigned char *fixed_c,
                                 FeastBand9 *Ac, int i, int j, int checked) {
  const int Nf = Af->N, Nc = (Nf + 1) / 2;
  const long fi = (long)j * Nf + i;
  if (checked && fixed_f[fi]) return;
  int pi[2], pj[2];
  double wi[2], wj[2];
  const int ni = parents(i, pi, wi), nj = parents(j, pj, wj);
  for (int b = 0; b < FEAST_NBANDS; b++) {
    const double a = Af->band[b][fi];
    const int ki = i + b % 3 - 1, kj = j + b / 3 - 1;
    if (checked && (a == 0.0 || ki < 0 || kj < 0 || ki >= Nf || kj >= Nf || fixed_f[(long)kj * Nf + ki])) continue;
    int qi[2], qj[2];
    double vi[2], vj[2];
    const int mi = parents(ki, qi, vi), mj = parents(kj, qj, vj);
    for (int s = 0; s < nj; s++)
      for (int r = 0; r < ni; r++) {
        const long I = (long)pj[s] * Nc + pi[r];
        if (checked && fixed_c[I]) continue;
        const double wa = wi[r] * wj[s] * a;
        for (int t = 0; t < mj; t++)
          for (int u = 0; u < mi; u++) {
            const long K = (long)qj[t] * Nc + qi[u];
            if (checked && fixed_c[K]) continue;
            Ac->band[feast_band_index(qi[u] - pi[r], qj[t] - pj[s])][I] += wa * vi[u] * vj[t];
          }
      }
  }
}

int feast_band9_galerkin(const FeastBand9 *Af, const unsigned char *fixed_f,
                         const unsigned char *fixed_c, FeastBand9 *Ac) {
  const int Nf = Af->N, Nc = (Nf + 1) / 2;
  FEAST_CHECK(Ac->N == Nc && Ac->band[0], FEAST_ERR_ARG,
              "feast_band9_galerkin: coarse matrix has N = %d, expected %d", Ac->N, Nc);
  for (int k = 0; k < FEAST_NBANDS; k++) memset(Ac->band[k], 0, sizeof(double) * (size_t)Nc * Nc);
  for (int j = 0; j < Nf; j++)
    for (int i = 0; i < Nf; i++) {
      const int inside = i >= 2 && j >= 2 && i < Nf - 2 && j < Nf - 2;
      if (inside) galerkin_node(Af, fixed_f, fixed_c, Ac, i, j, 0);
      else galerkin_node(Af, fixed_f, fixed_c, Ac, i, j, 1);
    }
  for (long I = 0; I < (long)Nc * Nc; I++)
    if (fixed_c[I]) Ac->band[FEAST_BAND_DIAG][I] = 1.0;
  return 0;
}

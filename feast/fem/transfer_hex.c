#include "feast/fem/transfer_hex.h"
#include "feast/base/error.h"
#include "feast/la/band9_kernels.h"
#include <stdlib.h>
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

/* The product in three halves, one axis at a time (every term is the product of one x,
 * one y and one z term), over P^T A' P with A' = A restricted to free fine nodes (rows and
 * columns of fixed ones zero); the coarse masks are applied to the result. Per fine plane
 * k: the masked bands of the plane (M), their x half (X: for coarse column I and fine row
 * j the sums over the x terms of dx of A'_(s, sy, sz)(2I + a, j, k), 27 values (dx, sy,
 * sz)) and its y half (Y: for coarse node (I, J) the sums over the y terms of dy of X at
 * fine row 2J + a, 27 values (dx, dy, sz)); coarse plane K then sums the z terms over the
 * y halves of the fine planes 2K - 1, 2K, 2K + 1 (kept in a ring of three). About 820
 * multiply-adds a coarse row instead of 2,197, every band read once. */
typedef struct {
  const AxisTerms *T;
  const FeastBand *Af;
  const unsigned char *fixed_f;
  long Nf, Nc;
  double *M;    /* Nf^2 x 27: the masked bands of one fine plane, node-major */
  double *X;    /* Nf x Nc x 27 */
  double *Y[3]; /* Nc^2 x 27 each: the y halves of fine planes 2K - 1 + (0, 1, 2) */
  long Yk[3];   /* the fine plane each Y holds (-1: none) */
} Halves;

/* the slot of digits (x, y, z) in the 27 values of a node: the band order (x fastest) */
static inline int hb(int x, int y, int z) { return (z + 1) * 9 + (y + 1) * 3 + (x + 1); }

/* M <- the 27 bands of fine plane k, zero where the row or the column is fixed */
static void masked_plane(Halves *h, long k) {
  const long Nf = h->Nf, P = Nf * Nf;
  const FeastStencil *s = h->Af->stencil;
  for (long j = 0; j < Nf; j++)
    for (long i = 0; i < Nf; i++) {
      const long r = k * P + j * Nf + i, p[3] = {i, j, k};
      double *m = h->M + (j * Nf + i) * 27;
      const int row_free = !h->fixed_f || !h->fixed_f[r];
      for (int b = 0; b < 27; b++) {
        long q[3];
        const int inside = feast_stencil_neighbour(s, b, Nf, p, q);
        const int free = row_free && inside && (!h->fixed_f || !h->fixed_f[(q[2] * Nf + q[1]) * Nf + q[0]]);
        m[b] = free ? h->Af->band[b][r] : 0.0;
      }
    }
}

/* X <- the x half of plane M */
static void x_half(Halves *h) {
  const long Nf = h->Nf, Nc = h->Nc;
  for (long j = 0; j < Nf; j++)
    for (long I = 0; I < Nc; I++) {
      double *x = h->X + (j * Nc + I) * 27;
      for (int dx = -1; dx <= 1; dx++)
        for (int yz = 0; yz < 9; yz++) {
          const int sy = yz % 3 - 1, sz = yz / 3 - 1;
          double sum = 0.0;
          for (int t = 0; t < h->T->n[dx + 1]; t++) {
            const long i = 2 * I + h->T->t[dx + 1][t].a;
            if (i < 0 || i >= Nf) continue;
            sum += h->T->t[dx + 1][t].w * h->M[(j * Nf + i) * 27 + hb(h->T->t[dx + 1][t].s, sy, sz)];
          }
          x[hb(dx, sy, sz)] = sum;
        }
    }
}

/* y <- the y half of X */
static void y_half(const Halves *h, double *y) {
  const long Nf = h->Nf, Nc = h->Nc;
  for (long J = 0; J < Nc; J++)
    for (long I = 0; I < Nc; I++) {
      double *out = y + (J * Nc + I) * 27;
      for (int dy = -1; dy <= 1; dy++)
        for (int xz = 0; xz < 9; xz++) {
          const int dx = xz % 3 - 1, sz = xz / 3 - 1;
          double sum = 0.0;
          for (int t = 0; t < h->T->n[dy + 1]; t++) {
            const long j = 2 * J + h->T->t[dy + 1][t].a;
            if (j < 0 || j >= Nf) continue;
            sum += h->T->t[dy + 1][t].w * h->X[(j * Nc + I) * 27 + hb(dx, h->T->t[dy + 1][t].s, sz)];
          }
          out[hb(dx, dy, sz)] = sum;
        }
    }
}

/* the y half of fine plane k (0 <= k < Nf), from the ring or computed into it */
static const double *plane_half(Halves *h, long k) {
  for (int q = 0; q < 3; q++)
    if (h->Yk[q] == k) return h->Y[q];
  const int q = (int)(k % 3); /* planes 2K - 1 .. 2K + 1 fall on three different slots */
  masked_plane(h, k);
  x_half(h);
  y_half(h, h->Y[q]);
  h->Yk[q] = k;
  return h->Y[q];
}

/* coarse plane K of Ac from the y halves: the z terms */
static void z_half(Halves *h, long K, FeastBand *Ac) {
  const long Nc = h->Nc, Nf = h->Nf;
  const double *Yp[3] = {NULL, NULL, NULL}; /* planes 2K - 1, 2K, 2K + 1 */
  for (int a = -1; a <= 1; a++)
    if (2 * K + a >= 0 && 2 * K + a < Nf) Yp[a + 1] = plane_half(h, 2 * K + a);
  for (long J = 0; J < Nc; J++)
    for (long I = 0; I < Nc; I++) {
      const long r = (K * Nc + J) * Nc + I, at = (J * Nc + I) * 27;
      for (int b = 0; b < 27; b++) {
        const int dx = b % 3 - 1, dy = b / 3 % 3 - 1, dz = b / 9 - 1;
        double sum = 0.0;
        for (int t = 0; t < h->T->n[dz + 1]; t++) {
          const double *y = Yp[h->T->t[dz + 1][t].a + 1];
          if (y) sum += h->T->t[dz + 1][t].w * y[at + hb(dx, dy, h->T->t[dz + 1][t].s)];
        }
        Ac->band[b][r] = sum;
      }
    }
}

/* fixed coarse rows identity rows, couplings to fixed coarse nodes zero */
static void coarse_masks(const unsigned char *fixed_c, FeastBand *Ac) {
  const FeastStencil *s = Ac->stencil;
  const long Nc = Ac->N, n = feast_band_rows(Ac);
  for (long r = 0; r < n && fixed_c; r++) {
    long p[3], q[3];
    feast_stencil_point(s, Nc, r, p);
    for (int b = 0; b < s->nbands; b++)
      if (fixed_c[r] || (feast_stencil_neighbour(s, b, Nc, p, q) && fixed_c[(q[2] * Nc + q[1]) * Nc + q[0]]))
        Ac->band[b][r] = 0.0;
    if (fixed_c[r]) Ac->band[s->centre][r] = 1.0;
  }
}

int feast_band_galerkin(const FeastBand *Af, const unsigned char *fixed_f, const unsigned char *fixed_c,
                        FeastBand *Ac) {
  const FeastStencil *s = &feast_stencil_q1_3d;
  FEAST_CHECK(Af->stencil == s && Ac->stencil == s && Af->N >= 3 && Af->N % 2 == 1 && Ac->N == (Af->N + 1) / 2,
              FEAST_ERR_ARG, "Galerkin product on hexahedra: 27-band matrices with N = %d and (N + 1) / 2 (have %d, %d)",
              Af->N, Af->N, Ac->N);
  const AxisTerms T = axis_terms();
  Halves h = {&T, Af, fixed_f, Af->N, Ac->N, NULL, NULL, {NULL, NULL, NULL}, {-1, -1, -1}};
  double *work;
  const long m = h.Nf * h.Nf * 27, x = h.Nf * h.Nc * 27, y = h.Nc * h.Nc * 27;
  FEAST_CALL(FEAST_ALLOC(m + x + 3 * y, &work));
  h.M = work, h.X = work + m;
  for (int q = 0; q < 3; q++) h.Y[q] = work + m + x + q * y;
  for (long K = 0; K < h.Nc; K++) z_half(&h, K, Ac);
  coarse_masks(fixed_c, Ac);
  free(work);
  return 0;
}

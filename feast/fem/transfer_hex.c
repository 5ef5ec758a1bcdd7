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
 * multiply-adds a coarse row instead of 2,197, every band read once. The 27 values of a
 * node are in band order (x fastest); M has a zero node before and after each row and X
 * a zero row before and after each plane, so that the terms that reach past the macro
 * read zeros instead of testing. */
typedef struct {
  const AxisTerms *T;
  const FeastBand *Af;
  const unsigned char *fixed_f;
  long Nf, Nc;
  double *M;    /* Nf rows of Nf + 2 nodes x 27: the masked bands of one fine plane */
  double *X;    /* Nf + 2 rows of Nc nodes x 27 */
  double *Y[3]; /* Nc^2 x 27 each: the y halves of fine planes in the ring */
  long Yk[3];   /* the fine plane each Y holds (-1: none) */
  double *zero; /* Nc^2 x 27 zeros: the planes beyond the macro */
} Halves;

/* M <- the 27 bands of fine plane k, zero where the row or the column is fixed (the
 * neighbour looked up by its index offset; only nodes on the macro's faces can have
 * neighbours outside, whose bands are zero and whose masks are not read) */
static void masked_plane(Halves *h, long k) {
  const long Nf = h->Nf, P = Nf * Nf;
  const FeastStencil *s = h->Af->stencil;
  long off[27];
  for (int b = 0; b < 27; b++) off[b] = feast_stencil_offset(s, b, Nf);
  const unsigned char *fx = h->fixed_f;
  for (long j = 0; j < Nf; j++)
    for (long i = 0; i < Nf; i++) {
      const long r = k * P + j * Nf + i, p[3] = {i, j, k};
      const int face = i == 0 || j == 0 || k == 0 || i == Nf - 1 || j == Nf - 1 || k == Nf - 1;
      double *m = h->M + (j * (Nf + 2) + i + 1) * 27;
      if (fx && fx[r]) {
        memset(m, 0, sizeof(double) * 27);
        continue;
      }
      for (int b = 0; b < 27; b++) {
        long q[3];
        const int inside = !face || feast_stencil_neighbour(s, b, Nf, p, q);
        m[b] = inside && (!fx || !fx[r + off[b]]) ? h->Af->band[b][r] : 0.0;
      }
    }
}

/* X <- the x half of plane M: out[yz 3 + dx + 1] += w src[yz 3 + s + 1], yz = (sz + 1) 3
 * + (sy + 1) */
static void x_half(Halves *h) {
  const long Nf = h->Nf, Nc = h->Nc;
  for (long j = 0; j < Nf; j++)
    for (long I = 0; I < Nc; I++) {
      const double *node = h->M + (j * (Nf + 2) + 2 * I + 1) * 27; /* fine node 2I */
      double *out = h->X + ((j + 1) * Nc + I) * 27;
      for (int dx = 0; dx < 3; dx++) {
        double acc[9] = {0};
        for (int t = 0; t < h->T->n[dx]; t++) {
          const double w = h->T->t[dx][t].w, *src = node + 27 * h->T->t[dx][t].a + h->T->t[dx][t].s + 1;
          for (int yz = 0; yz < 9; yz++) acc[yz] += w * src[3 * yz];
        }
        for (int yz = 0; yz < 9; yz++) out[3 * yz + dx] = acc[yz];
      }
    }
}

/* y <- the y half of X: out[(sz + 1) 9 + (dy + 1) 3 + dx + 1] += w src[(sz + 1) 9 + (s + 1) 3
 * + dx + 1] */
static void y_half(const Halves *h, double *y) {
  const long Nc = h->Nc;
  for (long J = 0; J < Nc; J++)
    for (long I = 0; I < Nc; I++) {
      const double *row = h->X + ((2 * J + 1) * Nc + I) * 27; /* fine row 2J */
      double *out = y + (J * Nc + I) * 27;
      for (int dy = 0; dy < 3; dy++) {
        double acc[9] = {0}; /* (sz, dx) */
        for (int t = 0; t < h->T->n[dy]; t++) {
          const double w = h->T->t[dy][t].w;
          const double *src = row + 27 * Nc * h->T->t[dy][t].a + 3 * (h->T->t[dy][t].s + 1);
          for (int z = 0; z < 3; z++)
            for (int x = 0; x < 3; x++) acc[3 * z + x] += w * src[9 * z + x];
        }
        for (int z = 0; z < 3; z++)
          for (int x = 0; x < 3; x++) out[9 * z + 3 * dy + x] = acc[3 * z + x];
      }
    }
}

/* the y half of fine plane k, from the ring or computed into it; zeros beyond the macro */
static const double *plane_half(Halves *h, long k) {
  if (k < 0 || k >= h->Nf) return h->zero;
  for (int q = 0; q < 3; q++)
    if (h->Yk[q] == k) return h->Y[q];
  const int q = (int)(k % 3); /* planes 2K - 1 .. 2K + 1 fall on three different slots */
  masked_plane(h, k);
  x_half(h);
  y_half(h, h->Y[q]);
  h->Yk[q] = k;
  return h->Y[q];
}

/* coarse plane K of Ac from the y halves: band (dz + 1) 9 + xy += w Y_(2K + a)[(s + 1) 9 + xy] */
static void z_half(Halves *h, long K, FeastBand *Ac) {
  const long Nc = h->Nc;
  const double *Yp[3];
  for (int a = -1; a <= 1; a++) Yp[a + 1] = plane_half(h, 2 * K + a);
  for (long J = 0; J < Nc; J++)
    for (long I = 0; I < Nc; I++) {
      const long r = (K * Nc + J) * Nc + I, at = (J * Nc + I) * 27;
      for (int dz = 0; dz < 3; dz++) {
        double acc[9] = {0};
        for (int t = 0; t < h->T->n[dz]; t++) {
          const double w = h->T->t[dz][t].w, *src = Yp[h->T->t[dz][t].a + 1] + at + 9 * (h->T->t[dz][t].s + 1);
          for (int xy = 0; xy < 9; xy++) acc[xy] += w * src[xy];
        }
        for (int xy = 0; xy < 9; xy++) Ac->band[9 * dz + xy][r] = acc[xy];
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
  Halves h = {&T, Af, fixed_f, Af->N, Ac->N, NULL, NULL, {NULL, NULL, NULL}, {-1, -1, -1}, NULL};
  double *work; /* zeroed: the padding of M and X and the zero plane stay zero */
  const long m = h.Nf * (h.Nf + 2) * 27, x = (h.Nf + 2) * h.Nc * 27, y = h.Nc * h.Nc * 27;
  FEAST_CALL(FEAST_ALLOC(m + x + 4 * y, &work));
  h.M = work, h.X = work + m;
  for (int q = 0; q < 3; q++) h.Y[q] = work + m + x + q * y;
  h.zero = work + m + x + 3 * y;
  for (long K = 0; K < h.Nc; K++) z_half(&h, K, Ac);
  coarse_masks(fixed_c, Ac);
  free(work);
  return 0;
}

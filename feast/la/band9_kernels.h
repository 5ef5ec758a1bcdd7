/* Per-point math of the 9-band operators, the grid transfers and the dense coarse solve,
 * written once for host and device (FEAST_HD) and instantiated for double (_d) and float
 * (_f). The CPU backends and the CUDA kernels call exactly these functions, so the
 * arithmetic the GPU runs is the arithmetic CI tests on the CPU.
 * Grids: N x N nodes of one macro, node (i,j) at j*N+i; band k couples node idx to
 * idx + feast_band_offset(k, N) (see feast/la/band9.h); vectors read by a row are padded.
 * The stencil is data (feast/mesh/stencil.h): feast_stencil_row is the row of any
 * stencil; feast_band9_row and the transfers below are the 2D Q1 stencil's, written out
 * (the matvec is bandwidth-bound and the written-out row is what keeps it at the
 * bandwidth: bench/bench_band9, "generic stencil row"), and feast_band27_row the 3D Q1
 * stencil's (bench_band9 3d), feast_prolongate_point3 and feast_restrict_point3 the
 * trilinear transfers of hexahedral macros (tests/unit/test_transfer3d.c). */
#ifndef FEAST_BAND9_KERNELS_H
#define FEAST_BAND9_KERNELS_H
#include "feast/base/hd.h"

/* the nine terms of one plane of the 27-band row (feast_band27_row): bands k0..k0+8 at
 * row idx times xr around its node, in band order; unparenthesised, so that three of them
 * added are one left-to-right sum of 27 terms */
#define FEAST_BAND27_PLANE(band, k0, xr, idx, N)                                              \
  band[k0][idx] * xr[-N - 1] + band[k0 + 1][idx] * xr[-N] + band[k0 + 2][idx] * xr[-N + 1] +  \
      band[k0 + 3][idx] * xr[-1] + band[k0 + 4][idx] * xr[0] + band[k0 + 5][idx] * xr[1] +    \
      band[k0 + 6][idx] * xr[N - 1] + band[k0 + 7][idx] * xr[N] + band[k0 + 8][idx] * xr[N + 1]

#define FEAST_DEFINE_BAND9_KERNELS(T, S)                                                      \
  /* (A x)_idx = sum_k band_k[idx] x[idx + off_k], k = 0..8 in this order */                \
  FEAST_HD T feast_band9_row_##S(const T *const *band, const T *x, long idx, long N) {       \
    return band[0][idx] * x[idx - N - 1] + band[1][idx] * x[idx - N] +                       \
           band[2][idx] * x[idx - N + 1] + band[3][idx] * x[idx - 1] + band[4][idx] * x[idx] + \
           band[5][idx] * x[idx + 1] + band[6][idx] * x[idx + N - 1] +                       \
           band[7][idx] * x[idx + N] + band[8][idx] * x[idx + N + 1];                        \
  }                                                                                          \
  /* (A x)_idx for a stencil of nbands bands: sum_k band_k[idx] x[idx + off[k]], k = 0 ..  \
   * nbands-1 in this order (off[k] = feast_stencil_offset(s, k, N)): for the 2D Q1       \
   * stencil the sum of feast_band9_row, term by term */                                   \
  FEAST_HD T feast_stencil_row_##S(int nbands, const T *const *band, const long *off, const T *x, long idx) { \
    T sum = band[0][idx] * x[idx + off[0]];                                                  \
    for (int k = 1; k < nbands; k++) sum += band[k][idx] * x[idx + off[k]];                  \
    return sum;                                                                              \
  }                                                                                          \
  /* (A x)_idx of the 3D Q1 stencil (feast_stencil_q1_3d, 27 bands: k = (dz+1) 9 + (dy+1) 3 \
   * + (dx+1), offset dz P + dy N + dx with P = N N), the terms in band order: the sum of \
   * feast_stencil_row on that stencil, term by term (bitwise) */                          \
  FEAST_HD T feast_band27_row_##S(const T *const *band, const T *x, long idx, long N, long P) { \
    const T *xm = x + idx - P, *x0 = x + idx, *xp = x + idx + P;                             \
    return FEAST_BAND27_PLANE(band, 0, xm, idx, N) + FEAST_BAND27_PLANE(band, 9, x0, idx, N) + \
           FEAST_BAND27_PLANE(band, 18, xp, idx, N);                                        \
  }                                                                                          \
  /* damped Jacobi: x_new = x + omega (b - (A x)) / a_ii */                                  \
  FEAST_HD T feast_jacobi_point_##S(const T *const *band, const T *b, const T *x, long idx,   \
                                    long N, T omega) {                                       \
    return x[idx] + omega * (b[idx] - feast_band9_row_##S(band, x, idx, N)) / band[4][idx];  \
  }                                                                                          \
  /* the damped Jacobi step from x = 0: omega b / a_ii, what feast_jacobi_point gives     \
   * (A 0 = 0 exactly) without reading x or the off-diagonal bands */                      \
  FEAST_HD T feast_jacobi_zero_point_##S(T b, T diag, T omega) { return omega * b / diag; } \
  /* bilinear prolongation: fine node (i,j) of an Nf = 2 Nc - 1 grid from the coarse grid */ \
  FEAST_HD T feast_prolongate_point_##S(const T *coarse, int Nc, int i, int j) {             \
    const int I = i >> 1, J = j >> 1, oi = i & 1, oj = j & 1;                                \
    const T *c = coarse + (long)J * Nc + I;                                                  \
    if (!oi && !oj) return c[0];                                                             \
    if (oi && !oj) return (T)0.5 * (c[0] + c[1]);                                            \
    if (!oi && oj) return (T)0.5 * (c[0] + c[Nc]);                                           \
    return (T)0.25 * (c[0] + c[1] + c[Nc] + c[Nc + 1]);                                      \
  }                                                                                          \
  /* restriction = transpose of the bilinear prolongation (full weighting 1, 1/2, 1/4),     \
   * fine neighbours outside the macro do not exist and contribute nothing */               \
  FEAST_HD T feast_restrict_point_##S(const T *fine, int Nf, int I, int J) {                 \
    const int i = 2 * I, j = 2 * J;                                                          \
    const int il = i > 0, ir = i < Nf - 1, jl = j > 0, jr = j < Nf - 1;                      \
    const T *f = fine + (long)j * Nf + i;                                                    \
    T row0 = f[0] + (T)0.5 * ((il ? f[-1] : (T)0) + (ir ? f[1] : (T)0));                     \
    T rowm = (T)0, rowp = (T)0;                                                              \
    if (jl) {                                                                                \
      const T *g = f - Nf;                                                                   \
      rowm = g[0] + (T)0.5 * ((il ? g[-1] : (T)0) + (ir ? g[1] : (T)0));                     \
    }                                                                                        \
    if (jr) {                                                                                \
      const T *g = f + Nf;                                                                   \
      rowp = g[0] + (T)0.5 * ((il ? g[-1] : (T)0) + (ir ? g[1] : (T)0));                     \
    }                                                                                        \
    return row0 + (T)0.5 * (rowm + rowp);                                                    \
  }                                                                                          \
  /* trilinear prolongation: fine node (i,j,k) of an Nf = 2 Nc - 1 cube from the coarse    \
   * cube (planes of Nc x Nc): the bilinear value in the coarse plane k/2, or for odd k the \
   * mean of the two planes' (on the plane k = 0 the 2D prolongation, bitwise) */           \
  FEAST_HD T feast_prolongate_point3_##S(const T *coarse, int Nc, int i, int j, int k) {     \
    const long P = (long)Nc * Nc;                                                            \
    const T *c = coarse + (long)(k >> 1) * P;                                                \
    const T v = feast_prolongate_point_##S(c, Nc, i, j);                                     \
    return (k & 1) ? (T)0.5 * (v + feast_prolongate_point_##S(c + P, Nc, i, j)) : v;         \
  }                                                                                          \
  /* restriction = transpose of the trilinear prolongation: the 2D restriction of the fine  \
   * plane 2K and half those of the planes beside it that exist */                          \
  FEAST_HD T feast_restrict_point3_##S(const T *fine, int Nf, int I, int J, int K) {         \
    const long P = (long)Nf * Nf;                                                            \
    const int k = 2 * K;                                                                     \
    const T *f = fine + (long)k * P;                                                         \
    const T below = k > 0 ? feast_restrict_point_##S(f - P, Nf, I, J) : (T)0;                \
    const T above = k < Nf - 1 ? feast_restrict_point_##S(f + P, Nf, I, J) : (T)0;           \
    return feast_restrict_point_##S(f, Nf, I, J) + (T)0.5 * (below + above);                 \
  }                                                                                          \
  /* (A^-1 b)_row = sum_j inv(row, j) b_j, j = 0..n-1 in this order, accumulated in double  \
   * (up to 1089 terms; float sums gave 1.4e-5 relative residual on the indefinite 33 x 33 \
   * problem of tests/unit/test_coproc.c, double sums 1e-6);                                \
   * the dense n x n inverse is stored column-major (entry (row, j) at inv[j n + row]) */   \
  FEAST_HD T feast_dense_row_##S(const T *inv, const T *b, long row, long n) {               \
    double s = 0;                                                                            \
    for (long j = 0; j < n; j++) s += (double)inv[j * n + row] * (double)b[j];               \
    return (T)s;                                                                             \
  }

FEAST_DEFINE_BAND9_KERNELS(double, d)
FEAST_DEFINE_BAND9_KERNELS(float, f)
#endif

/* The regular grid of one refined macro: N x N nodes (N = 2^L + 1) numbered row by row
 * from corner 0, (i, j) -> j N + i, and the couplings between them: those of the 2D Q1
 * stencil (feast/mesh/stencil.h, feast_stencil_q1_2d), coupling k joins node (i, j) to
 * (i + dx, j + dy), k = (dy+1)*3 + (dx+1), index offset dy N + dx. The banded matrices
 * (feast/la/band9.h) store one band per coupling; the domain (feast/parallel/domain.h)
 * numbers the interface nodes and couplings by it. The names below are that stencil's
 * for the 2D code: a 3D grid reads its own stencil (feast_stencil_q1_3d) instead. */
#ifndef FEAST_MACRO_GRID_H
#define FEAST_MACRO_GRID_H
#include "feast/mesh/stencil.h"

#define FEAST_NBANDS FEAST_STENCIL_BANDS(2)     /* 9 */
#define FEAST_BAND_DIAG FEAST_STENCIL_CENTRE(2) /* 4 */
#define FEAST_PAD(N) ((N) + 1)                  /* feast_stencil_pad(&feast_stencil_q1_2d, N) */

static inline int feast_band_offset(int k, int N) { return (int)feast_stencil_offset(&feast_stencil_q1_2d, k, N); }
static inline int feast_band_index(int dx, int dy) { return feast_stencil_band(&feast_stencil_q1_2d, dx, dy, 0); }
/* node index of position p (0..N-1) along local edge le of a macro, in the direction
 * of the local edge (corner le -> corner le+1) */
static inline long feast_edge_node(int le, int p, int N) {
  switch (le) {
  case 0: return p;
  case 1: return (long)p * N + (N - 1);
  case 2: return (long)(N - 1) * N + (N - 1 - p);
  default: return (long)(N - 1 - p) * N;
  }
}
/* node index of corner c (0..3, counter-clockwise from (0,0)) */
static inline long feast_corner_node(int c, int N) { return feast_edge_node(c, 0, N); }
#endif

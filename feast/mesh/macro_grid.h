/* The regular grid of one refined macro: N x N nodes (N = 2^L + 1) numbered row by row
 * from corner 0, (i, j) -> j N + i, and the 9-point couplings between them: coupling k
 * joins node (i, j) to (i + dx, j + dy), k = (dy+1)*3 + (dx+1), index offset dy N + dx.
 * The banded matrices (feast/la/band9.h) store one band per coupling; the domain
 * (feast/parallel/domain.h) numbers the interface nodes and couplings by it. */
#ifndef FEAST_MACRO_GRID_H
#define FEAST_MACRO_GRID_H

#define FEAST_NBANDS 9
#define FEAST_BAND_DIAG 4
#define FEAST_PAD(N) ((N) + 1)

static inline int feast_band_offset(int k, int N) { return (k / 3 - 1) * N + (k % 3 - 1); }
static inline int feast_band_index(int dx, int dy) { return (dy + 1) * 3 + (dx + 1); }
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

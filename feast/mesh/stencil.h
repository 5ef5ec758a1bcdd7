/* The stencil of a refined macro's operators as data: the space dimension, the band
 * count and, per band, the neighbour it couples a node to. A macro refined regularly has
 * N nodes per side, node p = (p_0, p_1[, p_2]) at index p_0 + N p_1 (+ N^2 p_2); band k
 * of a banded matrix (feast/la/band9.h) couples node p to p + offset[k], index offset
 * feast_stencil_offset(s, k, N). The Q1 stencils of both dimensions come from one rule,
 * k = sum_d (offset_d + 1) 3^d (digit d of k in base 3, minus 1): in 2D
 * k = (dy+1) 3 + (dx+1), the 9 bands of today; in 3D k = (dz+1) 9 + (dy+1) 3 + (dx+1),
 * 27 bands, data and no new code (feast/mesh/stencil.c).
 * Here in the mesh floor, not in la: the grid of one macro is the mesh's (macro_grid.h)
 * and the domain (feast/parallel) numbers the couplings across macros by it. */
#ifndef FEAST_STENCIL_H
#define FEAST_STENCIL_H

/* bands of the Q1 stencil in dim (1..3) dimensions, 3^dim, and its centre (the
 * diagonal, offset 0), as constant expressions */
#define FEAST_STENCIL_BANDS(dim) (3 * ((dim) > 1 ? 3 : 1) * ((dim) > 2 ? 3 : 1))
#define FEAST_STENCIL_CENTRE(dim) ((FEAST_STENCIL_BANDS(dim) - 1) / 2)
enum { FEAST_STENCIL_MAX_DIM = 3, FEAST_STENCIL_MAX_BANDS = FEAST_STENCIL_BANDS(3) };

typedef struct {
  int dim;    /* space dimension: 2 (quadrilateral macros) or 3 (hexahedra) */
  int nbands; /* band count, 3^dim */
  int centre; /* the band of offset 0: the diagonal */
  /* band k couples node p to p + offset[k] (dx, dy, dz; the components from dim on 0) */
  signed char offset[FEAST_STENCIL_MAX_BANDS][FEAST_STENCIL_MAX_DIM];
} FeastStencil;

extern const FeastStencil feast_stencil_q1_2d; /* 9 bands, centre 4 */
extern const FeastStencil feast_stencil_q1_3d; /* 27 bands, centre 13 */
/* the Q1 stencil of dimension dim; NULL unless dim is 2 or 3 */
const FeastStencil *feast_stencil_q1(int dim);

/* index offset of band k on a grid of N nodes per side: dx + N dy + N^2 dz */
static inline long feast_stencil_offset(const FeastStencil *s, int k, long N) {
  const signed char *o = s->offset[k];
  return o[0] + N * (o[1] + N * (long)o[2]);
}
/* the largest index offset, the padding a grid vector needs on each side so that every
 * row reads inside it: N + 1 in 2D, N^2 + N + 1 in 3D (the last band's offset) */
static inline long feast_stencil_pad(const FeastStencil *s, long N) {
  return feast_stencil_offset(s, s->nbands - 1, N);
}
/* the band of offset (dx, dy, dz), each in -1..1 (dz read in 3D only) */
static inline int feast_stencil_band(const FeastStencil *s, int dx, int dy, int dz) {
  return (dx + 1) + 3 * (dy + 1) + (s->dim > 2 ? 9 * (dz + 1) : 0);
}
/* the band of the opposite coupling (offset -offset[k]): what band k of row p is to
 * row p + offset[k], the transpose */
static inline int feast_stencil_opposite(const FeastStencil *s, int k) { return s->nbands - 1 - k; }
/* p <- the grid position of node index r (N nodes per side; components from dim on 0) */
static inline void feast_stencil_point(const FeastStencil *s, long N, long r, long *p) {
  for (int d = 0; d < FEAST_STENCIL_MAX_DIM; d++) {
    p[d] = d < s->dim ? r % N : 0;
    r /= N;
  }
}
/* q <- p + offset[k] (FEAST_STENCIL_MAX_DIM components, those from dim on kept); 1 if q
 * lies in the grid of N nodes per side */
static inline int feast_stencil_neighbour(const FeastStencil *s, int k, long N, const long *p, long *q) {
  int inside = 1;
  for (int d = 0; d < FEAST_STENCIL_MAX_DIM; d++) {
    q[d] = p[d] + s->offset[k][d];
    inside &= d >= s->dim || (q[d] >= 0 && q[d] < N);
  }
  return inside;
}
#endif

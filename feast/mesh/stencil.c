#include "feast/mesh/stencil.h"
#include <stddef.h>

/* Both Q1 stencils from one rule: component d of band k's offset is digit d of k in base
 * 3, minus 1, for d < dim (0 beyond). Written as constant expressions, so the tables are
 * const data that every thread and rank reads without setting up. */
#define DIGIT(k, d, dim) ((d) < (dim) ? (k) / ((d) == 0 ? 1 : (d) == 1 ? 3 : 9) % 3 - 1 : 0)
#define BAND(k, dim) {DIGIT(k, 0, dim), DIGIT(k, 1, dim), DIGIT(k, 2, dim)}
#define BANDS3(k, dim) BAND(k, dim), BAND((k) + 1, dim), BAND((k) + 2, dim)
#define BANDS9(k, dim) BANDS3(k, dim), BANDS3((k) + 3, dim), BANDS3((k) + 6, dim)
#define STENCIL(dim, ...) {dim, FEAST_STENCIL_BANDS(dim), FEAST_STENCIL_CENTRE(dim), {__VA_ARGS__}}

const FeastStencil feast_stencil_q1_2d = STENCIL(2, BANDS9(0, 2));
const FeastStencil feast_stencil_q1_3d = STENCIL(3, BANDS9(0, 3), BANDS9(9, 3), BANDS9(18, 3));

const FeastStencil *feast_stencil_q1(int dim) {
  return dim == 2 ? &feast_stencil_q1_2d : dim == 3 ? &feast_stencil_q1_3d : NULL;
}

/* The stencil, the macro's reference cell and the Q1 element as data (issue #45 item 4):
 * the 2D Q1 stencil is the band numbering of today (k = (dy+1) 3 + (dx+1), index offset
 * dy N + dx, FEAST_NBANDS bands, FEAST_BAND_DIAG its centre); the 3D one is 27 distinct
 * offsets from the same rule, each band's opposite its transpose; the generic row is the
 * 9-band row and the 27-band row (feast_band27_row) term by term (bitwise), and
 * feast_band_matvec multiplies a 27-band matrix on an N^3 grid as a product written out
 * node by node does; the quadrilateral's edges
 * and the Q1 element's nodes are those the code used before they were data. */
#include "feast/fem/q1.h"
#include "feast/la/band9.h"
#include "feast/la/band9_kernels.h"
#include "feast/mesh/mesh.h"
#include "feast/mesh/stencil.h"
#include "feast_test.h"
#include <stdlib.h>

static unsigned rng = 2024u;
static void check_2d(void) {
  const FeastStencil *s = feast_stencil_q1(2);
  CHECK(s == &feast_stencil_q1_2d && s == FEAST_BAND9_STENCIL);
  CHECK(s->dim == 2 && s->nbands == FEAST_NBANDS && s->centre == FEAST_BAND_DIAG);
  for (int N = 2; N <= 33; N += 31)
    for (int k = 0; k < s->nbands; k++) {
      const int dx = k % 3 - 1, dy = k / 3 - 1; /* the numbering before it was data */
      CHECK(s->offset[k][0] == dx && s->offset[k][1] == dy && s->offset[k][2] == 0);
      CHECK(feast_stencil_offset(s, k, N) == (long)dy * N + dx && feast_band_offset(k, N) == dy * N + dx);
      CHECK(feast_stencil_band(s, dx, dy, 0) == k && feast_band_index(dx, dy) == k);
      CHECK(feast_stencil_offset(s, feast_stencil_opposite(s, k), N) == -feast_stencil_offset(s, k, N));
    }
  CHECK(feast_stencil_pad(s, 17) == FEAST_PAD(17));
}

static void check_3d(void) {
  const FeastStencil *s = feast_stencil_q1(3);
  CHECK(s == &feast_stencil_q1_3d && feast_stencil_q1(1) == NULL && feast_stencil_q1(4) == NULL);
  CHECK(s->dim == 3 && s->nbands == 27 && s->centre == 13 && FEAST_STENCIL_MAX_BANDS == 27);
  const long N = 9;
  int seen[27] = {0};
  for (int k = 0; k < s->nbands; k++) {
    const signed char *o = s->offset[k];
    CHECK(o[0] >= -1 && o[0] <= 1 && o[1] >= -1 && o[1] <= 1 && o[2] >= -1 && o[2] <= 1);
    seen[(o[2] + 1) * 9 + (o[1] + 1) * 3 + (o[0] + 1)]++;
    CHECK(feast_stencil_band(s, o[0], o[1], o[2]) == k);
    CHECK(feast_stencil_offset(s, k, N) == o[0] + N * o[1] + N * N * o[2]);
    const signed char *t = s->offset[feast_stencil_opposite(s, k)];
    CHECK(t[0] == -o[0] && t[1] == -o[1] && t[2] == -o[2]);
  }
  for (int c = 0; c < 27; c++) CHECK(seen[c] == 1);
  CHECK(s->offset[s->centre][0] == 0 && s->offset[s->centre][1] == 0 && s->offset[s->centre][2] == 0);
  CHECK(feast_stencil_pad(s, N) == N * N + N + 1);
  /* the plane dz = 0 of the 3D stencil is the 2D stencil, band for band */
  for (int k = 0; k < 9; k++)
    CHECK(s->offset[9 + k][0] == feast_stencil_q1_2d.offset[k][0] &&
          s->offset[9 + k][1] == feast_stencil_q1_2d.offset[k][1] && s->offset[9 + k][2] == 0);
  const long p[3] = {0, 4, 8};
  long q[3];
  CHECK(!feast_stencil_neighbour(s, 0, N, p, q) && q[0] == -1 && q[1] == 3 && q[2] == 7);
  CHECK(feast_stencil_neighbour(s, feast_stencil_band(s, 1, 0, -1), N, p, q) && q[0] == 1 && q[2] == 7);
}

/* bands with random values where the neighbour lies inside the grid of N per side, zero
 * elsewhere; x padded with zeros. n = N^dim rows */
static void random_operator(const FeastStencil *s, long N, long n, double **band, double *x) {
  for (long r = 0; r < n; r++) {
    const long p[3] = {r % N, r / N % N, s->dim > 2 ? r / (N * N) : 0};
    x[r] = feast_test_random(&rng);
    for (int k = 0; k < s->nbands; k++) {
      long q[3];
      band[k][r] = feast_stencil_neighbour(s, k, N, p, q) ? feast_test_random(&rng) : 0.0;
    }
  }
}

/* feast_band_matvec against the product written out: row r sums band k's value times
 * x at the neighbour, k in order, over the neighbours inside the grid */
static void check_matvec(int dim, int N) {
  const FeastStencil *s = feast_stencil_q1(dim);
  const long n = dim == 2 ? (long)N * N : (long)N * N * N, pad = feast_stencil_pad(s, N);
  double *store = calloc((size_t)(s->nbands * n + 3 * (n + 2 * pad)), sizeof(double));
  double *band[FEAST_STENCIL_MAX_BANDS];
  for (int k = 0; k < s->nbands; k++) band[k] = store + k * n;
  double *x = store + s->nbands * n + pad, *y = x + n + 2 * pad, *z = y + n + 2 * pad;
  random_operator(s, N, n, band, x);
  feast_band_matvec(s, N, (const double *const *)band, x, y);
  int same = 1;
  for (long r = 0; r < n; r++) {
    const long p[3] = {r % N, r / N % N, dim > 2 ? r / ((long)N * N) : 0};
    double sum = 0.0;
    for (int k = 0; k < s->nbands; k++) {
      long q[3];
      if (feast_stencil_neighbour(s, k, N, p, q)) sum += band[k][r] * x[q[0] + N * (q[1] + (long)N * q[2])];
    }
    same &= sum == y[r];
  }
  CHECK(same);
  if (dim == 2) { /* the generic row is the 9-band row, bitwise */
    const long off[9] = {-N - 1, -N, -N + 1, -1, 0, 1, N - 1, N, N + 1};
    int rows = 1;
    for (long r = 0; r < n; r++) {
      z[r] = feast_stencil_row_d(9, (const double *const *)band, off, x, r);
      rows &= z[r] == feast_band9_row_d((const double *const *)band, x, r, N);
    }
    CHECK(rows);
  } else { /* the written-out 27-band row is the generic row, bitwise */
    long off[27];
    for (int k = 0; k < 27; k++) off[k] = feast_stencil_offset(s, k, N);
    int rows = 1;
    for (long r = 0; r < n; r++)
      rows &= feast_stencil_row_d(27, (const double *const *)band, off, x, r) ==
              feast_band27_row_d((const double *const *)band, x, r, N, (long)N * N);
    CHECK(rows);
  }
  free(store);
}

static void check_cells(void) {
  const FeastMacroCell *c = feast_mesh_cell(NULL);
  CHECK(c == &feast_macro_quad && c->dim == 2 && c->corners == 4 && c->edges == 4 && c->faces == 0);
  for (int k = 0; k < 4; k++) CHECK(c->edge[k][0] == k && c->edge[k][1] == (k + 1) % 4);
  const FeastQ1Element *e = &feast_q1_quad;
  CHECK(e->dim == 2 && e->nodes == 4 && e->stencil == FEAST_BAND9_STENCIL && e->min_order == 2 && e->max_order == 3);
  CHECK(e->max_points == (int)(sizeof ((FeastQ1Cell *)NULL)->q / sizeof ((FeastQ1Cell *)NULL)->q[0]));
  long node[4];
  feast_q1_cell_nodes(9, 3, 5, node);
  for (int a = 0; a < 4; a++) CHECK(node[a] == (5 + e->node[a][1]) * 9 + 3 + e->node[a][0] && e->node[a][2] == 0);
}

static int run(void) {
  check_2d();
  check_3d();
  check_matvec(2, 2);
  check_matvec(2, 17);
  check_matvec(3, 2);
  check_matvec(3, 9);
  check_cells();
  return 0;
}

FEAST_TEST_MAIN(run)

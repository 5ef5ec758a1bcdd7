#include "feast/fem/transfer.h"
#include "feast/la/band9_kernels.h"
#include "feast/base/error.h"
#include "feast/base/hd.h"
#include <math.h>

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

/* to <- op(from) block by block and macro by macro (op: the transfer of one macro's
 * values, given from's N; what: the caller's name), after FEAST_ERR_ARG unless the fine
 * vector (to when upward, else from) lies one level above the coarse one, of the same
 * distribution and block count */
static int transfer(const char *what, void (*op)(int, const double *, double *), const FeastVec *from, FeastVec *to,
                    int upward) {
  const FeastVec *coarse = upward ? from : to, *fine = upward ? to : from;
  FEAST_CHECK(coarse && fine && fine->level == coarse->level + 1 && fine->nb == coarse->nb &&
                  fine->nlocal == coarse->nlocal && fine->dom->levels == coarse->dom->levels,
              FEAST_ERR_ARG, "%s: level %d (%d blocks) to level %d (%d blocks) of %s", what, from->level, from->nb,
              to->level, to->nb, fine->dom->levels == coarse->dom->levels ? "one distribution" : "another distribution");
  int st;
  if (fine->dom->mesh->dim == 2 && feast_vec_transfer_on_device(from, to, upward, &st)) return st;
  for (int b = 0; b < from->nb; b++)
    for (int li = 0; li < from->nlocal; li++) op(from->N, feast_vec_block_read(from, b, li), feast_vec_block(to, b, li));
  return 0;
}

int feast_vec_prolongate(const FeastVec *coarse, FeastVec *fine) {
  return transfer("feast_vec_prolongate", feast_grid_prolongate, coarse, fine, 1);
}

int feast_vec_restrict(const FeastVec *fine, FeastVec *coarse) {
  return transfer("feast_vec_restrict", feast_grid_restrict, fine, coarse, 0);
}

/* The Galerkin product as a stencil formula. Along one axis the bilinear prolongation
 * has weights w(0) = 1, w(+-1) = 1/2: coarse node I is the parent of fine nodes 2I + a,
 * a = -1, 0, 1. The coupling of coarse node I to its neighbour K = I + d (d = -1, 0, 1)
 * collects A(i, k) P(i, I) P(k, K) over i = 2I + a and k = i + s with k = 2K + e, i.e.
 * over the triples (a, s, w(a) w(e)) with s = 2d + e - a in {-1, 0, 1}: 7 for d = 0, 3
 * for d = +-1. In 2D the terms are the products of one x and one y triple (169 per
 * coarse row), a weighted sum of fine band entries read with stride 2. */
typedef struct {
  int a, s;   /* fine node 2I + a, band offset s */
  double w;   /* w(a) w(e) */
} AxisTerm;

typedef struct {
  int n[3];          /* terms for d = -1, 0, 1 */
  AxisTerm t[3][7];
} AxisTerms;

static double axis_weight(int a) { return a == 0 ? 1.0 : 0.5; }

static AxisTerms axis_terms(void) {
  AxisTerms T = {{0, 0, 0}, {{{0, 0, 0}}}};
  for (int d = -1; d <= 1; d++)
    for (int a = -1; a <= 1; a++)
      for (int e = -1; e <= 1; e++) {
        const int s = 2 * d + e - a;
        if (s >= -1 && s <= 1) T.t[d + 1][T.n[d + 1]++] = (AxisTerm){a, s, axis_weight(a) * axis_weight(e)};
      }
  return T;
}

/* Inside the macro (coarse rows and columns 2 .. Nc-3, where every fine node read lies
 * at least two nodes inside, nothing is fixed and every neighbour exists) the product
 * is computed without checks and, since every term is the product of an x and a y
 * term, in two halves: the x half on each fine row (39 multiply-adds per fine row and
 * coarse column, on the fine row's entries split into even and odd columns so that
 * every read is contiguous), then the y half (39 per coarse entry row) from the x
 * halves of the three fine rows 2J - 1, 2J, 2J + 1; each fine row's x half serves two
 * coarse rows. The columns are taken in chunks, so the work fits on the stack. */
enum { CHUNK = 128 };

typedef struct {
  double h[3][3][CHUNK]; /* [dx + 1][sy + 1][I - I0]: sum over the x terms (a, s, w) of dx
                            of w A_(s, sy)(j, 2I + a) */
} XHalf;

/* the x half of one fine row from its 9 band rows f[b], each pointing at column 2 I0
 * (columns 2 I0 - 1 .. 2 (I0 + n) - 1 are read) */
static void x_half(const AxisTerms *T, const double *const f[FEAST_NBANDS], int n, XHalf *x) {
  double even[3][3][CHUNK], odd[3][3][CHUNK + 1]; /* [s + 1][sy + 1]: A(j, 2I), A(j, 2I - 1) */
  for (int sy = -1; sy <= 1; sy++)
    for (int sx = -1; sx <= 1; sx++) {
      const double *fb = f[feast_band_index(sx, sy)];
      double *e = even[sx + 1][sy + 1], *o = odd[sx + 1][sy + 1];
      for (int k = 0; k < n; k++) {
        o[k] = fb[2 * k - 1];
        e[k] = fb[2 * k];
      }
      o[n] = fb[2 * n - 1];
    }
  for (int dx = -1; dx <= 1; dx++)
    for (int sy = -1; sy <= 1; sy++) {
      double *restrict out = x->h[dx + 1][sy + 1];
      for (int k = 0; k < n; k++) out[k] = 0.0;
      for (int t = 0; t < T->n[dx + 1]; t++) {
        const AxisTerm *a = &T->t[dx + 1][t];
        const double w = a->w;
        const double *restrict src = a->a == 0 ? even[a->s + 1][sy + 1] : odd[a->s + 1][sy + 1] + (a->a > 0);
        FEAST_IVDEP
        for (int k = 0; k < n; k++) out[k] += w * src[k];
      }
    }
}

/* the x half of fine row j of Af (no checks: columns 2 I0 - 1 .. 2 (I0 + n) - 1 exist) */
static void x_half_inside(const AxisTerms *T, const FeastBand9 *Af, long j, int I0, int n, XHalf *x) {
  const double *f[FEAST_NBANDS];
  for (int b = 0; b < FEAST_NBANDS; b++) f[b] = Af->band[b] + j * Af->N + 2 * I0;
  x_half(T, f, n, x);
}

/* one coarse row, n columns, into out[b] (band b), from the x halves of the three fine
 * rows 2J - 1, 2J, 2J + 1 */
static void y_half(const AxisTerms *T, const XHalf *const rows[3], double *const out[FEAST_NBANDS], int n) {
  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++) {
      double *restrict o = out[feast_band_index(dx, dy)];
      for (int k = 0; k < n; k++) o[k] = 0.0;
      for (int t = 0; t < T->n[dy + 1]; t++) {
        const AxisTerm *b = &T->t[dy + 1][t];
        const double w = b->w;
        const double *restrict src = rows[b->a + 1]->h[dx + 1][b->s + 1];
        FEAST_IVDEP
        for (int k = 0; k < n; k++) o[k] += w * src[k];
      }
    }
}

/* the unchecked rows and columns 2 .. Nc-3, chunk by chunk of columns */
static void galerkin_inside(const AxisTerms *T, const FeastBand9 *Af, FeastBand9 *Ac) {
  const int Nc = Ac->N;
  XHalf buf[3];
  for (int I0 = 2; I0 < Nc - 2; I0 += CHUNK) {
    const int n = Nc - 2 - I0 < CHUNK ? Nc - 2 - I0 : CHUNK;
    int lo = 0, hi = 2;                         /* buf[lo], buf[1], buf[hi]: fine rows 2J - 1, 2J, 2J + 1 */
    x_half_inside(T, Af, 3, I0, n, &buf[lo]);   /* fine row 2J - 1 of J = 2 */
    for (int J = 2; J < Nc - 2; J++) {
      x_half_inside(T, Af, 2L * J, I0, n, &buf[1]);
      x_half_inside(T, Af, 2L * J + 1, I0, n, &buf[hi]);
      double *out[FEAST_NBANDS];
      for (int b = 0; b < FEAST_NBANDS; b++) out[b] = Ac->band[b] + (long)J * Nc + I0;
      y_half(T, (const XHalf *const[3]){&buf[lo], &buf[1], &buf[hi]}, out, n);
      const int next_lo = hi;                   /* fine row 2J + 1 is row 2J' - 1 of J' = J + 1 */
      hi = lo;
      lo = next_lo;
    }
  }
}

/* Near the edges the same halves run on fine rows copied with the checks applied: the
 * row padded by one zero column on each side, rows outside the grid zero, and zero
 * every coupling the product skips (a neighbour outside the grid, a fixed node or a
 * fixed neighbour: P is zero there). The coarse rows near the bottom and top edges are
 * long rows of the product; so are its columns near the left and right edges, as rows
 * of the product of the transpose (A^T(i, j; sx, sy) = A(j, i; sy, sx)): `tr` says
 * which, the indices are those of the oriented grid. */
typedef struct {
  double v[FEAST_NBANDS][2 * CHUNK + 2]; /* columns 2 I0 - 1 .. 2 (I0 + n) - 1 */
} MaskedRow;

/* node (i, j) of the oriented grid exists and is free */
static int free_node(const unsigned char *fixed, long N, int tr, long i, long j) {
  const long x = tr ? j : i, y = tr ? i : j;
  return x >= 0 && y >= 0 && x < N && y < N && !fixed[y * N + x];
}

/* free[dy + 1][c] = node (i0 - 1 + c, j + dy) of the oriented grid exists and is free,
 * c = 0 .. len + 1, dy = -1, 0, 1: the checks of a row's couplings, made once per row */
typedef unsigned char FreeRows[3][2 * CHUNK + 3];
static void free_rows(const unsigned char *fixed, long N, int tr, long i0, long j, int len, FreeRows free) {
  for (int dy = -1; dy <= 1; dy++)
    for (int c = 0; c <= len + 1; c++) free[dy + 1][c] = (unsigned char)free_node(fixed, N, tr, i0 - 1 + c, j + dy);
}

/* band b of the oriented grid as stored: offset (dx, dy) of the transposed grid is (dy, dx) */
static int band_index(int tr, int b) {
  const signed char *o = FEAST_BAND9_STENCIL->offset[b];
  return tr ? feast_stencil_band(FEAST_BAND9_STENCIL, o[1], o[0], 0) : b;
}

static void x_half_checked(const AxisTerms *T, const FeastBand9Framed *Af, const unsigned char *fixed_f, int tr,
                           long j, int I0, int n, MaskedRow *m, XHalf *x) {
  const long N = Af->inside->N, i0 = 2L * I0 - 1;
  FreeRows free;
  free_rows(fixed_f, N, tr, i0, j, 2 * n + 1, free);
  const double *f[FEAST_NBANDS];
  for (int b = 0; b < FEAST_NBANDS; b++) {
    const int sx = FEAST_BAND9_STENCIL->offset[b][0], sy = FEAST_BAND9_STENCIL->offset[b][1], k = band_index(tr, b);
    for (int c = 0; c <= 2 * n; c++) {
      const long i = i0 + c;
      const int keep = free[1][c + 1] && free[sy + 1][c + 1 + sx];
      m->v[b][c] = keep ? feast_band9_framed_at(Af, k, tr ? j : i, tr ? i : j) : 0.0;
    }
    f[b] = m->v[b] + 1;
  }
  x_half(T, f, n, x);
}

/* where the product's entries near the edges go: into the whole matrix, or into the
 * frame of a framed one */
typedef struct {
  long N;
  double *const *band; /* the matrix's bands or the frame's */
  int frame;
} Product;

static double *product_at(const Product *P, int k, long x, long y) {
  return P->band[k] + (P->frame ? feast_frame_slot(P->N, x, y) : y * P->N + x);
}

/* row J of the oriented coarse grid, columns I0 .. I0 + n - 1, with every check: the
 * halves of the checked fine rows 2J - 1 .. 2J + 1, stored with the couplings of fixed
 * coarse rows and columns zero */
static void row_checked(const AxisTerms *T, const FeastBand9Framed *Af, const unsigned char *fixed_f,
                        const unsigned char *fixed_c, int tr, const Product *Ac, int J, int I0, int n) {
  const long Nc = Ac->N;
  XHalf buf[3];
  MaskedRow m;
  double y[FEAST_NBANDS][CHUNK], *out[FEAST_NBANDS];
  for (int a = -1; a <= 1; a++) x_half_checked(T, Af, fixed_f, tr, 2L * J + a, I0, n, &m, &buf[a + 1]);
  for (int b = 0; b < FEAST_NBANDS; b++) out[b] = y[b];
  y_half(T, (const XHalf *const[3]){&buf[0], &buf[1], &buf[2]}, out, n);
  FreeRows free;
  free_rows(fixed_c, Nc, tr, I0, J, n, free);
  for (int b = 0; b < FEAST_NBANDS; b++) {
    const int dx = FEAST_BAND9_STENCIL->offset[b][0], dy = FEAST_BAND9_STENCIL->offset[b][1], kb = band_index(tr, b);
    for (int k = 0; k < n; k++) {
      const long I = I0 + k;
      const int keep = free[1][k + 1] && free[dy + 1][k + 1 + dx];
      *product_at(Ac, kb, tr ? J : I, tr ? I : J) = keep ? y[b][k] : 0.0;
    }
  }
}

/* every coarse entry within two nodes of the macro's edges: rows 0, 1, Nc-2, Nc-1 and
 * (as rows of the transposed product) columns 0, 1, Nc-2, Nc-1 of the rows between,
 * in chunks of columns */
static void galerkin_edges(const AxisTerms *T, const FeastBand9Framed *Af, const unsigned char *fixed_f,
                           const unsigned char *fixed_c, const Product *Ac) {
  const int Nc = Ac->N;
  for (int tr = 0; tr <= 1; tr++) {
    const int from = tr ? 2 : 0, to = tr ? Nc - 2 : Nc; /* the columns of the oriented rows */
    for (int J = 0; J < Nc; J++) {
      if (J >= 2 && J < Nc - 2) continue;
      for (int I0 = from; I0 < to; I0 += CHUNK)
        row_checked(T, Af, fixed_f, fixed_c, tr, Ac, J, I0, to - I0 < CHUNK ? to - I0 : CHUNK);
    }
  }
}

/* the sizes of a product from Af into a coarse matrix of N nodes per side */
static int check_sizes(const FeastBand9Framed *Af, int N) {
  FEAST_CHECK(Af->inside && Af->inside->band[0], FEAST_ERR_ARG, "feast_band9_galerkin: no fine matrix");
  const int Nf = Af->inside->N;
  FEAST_CHECK(!Af->frame[0] || Nf >= 5, FEAST_ERR_ARG, "feast_band9_galerkin: a framed matrix needs N >= 5, got %d",
              Nf);
  FEAST_CHECK(N == (Nf + 1) / 2, FEAST_ERR_ARG, "feast_band9_galerkin: coarse matrix has N = %d, expected %d", N,
              (Nf + 1) / 2);
  return 0;
}

int feast_band9_galerkin(const FeastBand9Framed *Af, const unsigned char *fixed_f, const unsigned char *fixed_c,
                         FeastBand9 *Ac) {
  FEAST_CHECK(Ac->band[0], FEAST_ERR_ARG, "feast_band9_galerkin: no coarse matrix");
  FEAST_CALL(check_sizes(Af, Ac->N));
  const AxisTerms T = axis_terms();
  const long Nc = Ac->N;
  galerkin_edges(&T, Af, fixed_f, fixed_c, &(Product){Nc, Ac->band, 0});
  galerkin_inside(&T, Af->inside, Ac);
  for (long I = 0; I < Nc * Nc; I++)
    if (fixed_c[I]) Ac->band[FEAST_BAND_DIAG][I] = 1.0;
  return 0;
}

int feast_band9_galerkin_frame(const FeastBand9Framed *Af, const unsigned char *fixed_f,
                               const unsigned char *fixed_c, FeastBand9Framed *Ac) {
  FEAST_CHECK(Ac->inside && Ac->frame[0] && Ac->inside->N >= 5, FEAST_ERR_ARG,
              "feast_band9_galerkin_frame: the coarse matrix needs an inside and a frame (N >= 5)");
  FEAST_CALL(check_sizes(Af, Ac->inside->N));
  const AxisTerms T = axis_terms();
  const long Nc = Ac->inside->N;
  galerkin_edges(&T, Af, fixed_f, fixed_c, &(Product){Nc, Ac->frame, 1});
  for (long f = 0; f < feast_frame_len(Nc); f++)
    if (fixed_c[feast_frame_node(Nc, f)]) Ac->frame[FEAST_BAND_DIAG][f] = 1.0;
  return 0;
}

/* the pair (a_ij, a_ji) gets d = min(skew part, positive part) of symmetric diffusion:
 * a_ij -= d, a_ji -= d, a_ii += d, a_jj += d; aji_row = 0: row j is not this matrix's (an
 * inside row of a framed one, stabilised already), only row i changes */
static void upwind_pair(double *aij, double *aii, double *aji, double *ajj, int aji_row) {
  const double d = fmin(0.5 * fabs(*aij - *aji), fmax(fmax(*aij, *aji), 0.0));
  *aij -= d;
  *aii += d;
  if (!aji_row) return;
  *aji -= d;
  *ajj += d;
}

/* the node (ni, nj) that band k of node (i, j) couples to; 0 if it lies outside the grid */
static int neighbour(long N, long i, long j, int k, long *ni, long *nj) {
  const long p[FEAST_STENCIL_MAX_DIM] = {i, j, 0};
  long q[FEAST_STENCIL_MAX_DIM];
  const int inside = feast_stencil_neighbour(FEAST_BAND9_STENCIL, k, N, p, q);
  *ni = q[0];
  *nj = q[1];
  return inside;
}

/* the band of row (ni, nj) coupling back to (i, j) */
static int opposite(int k) { return feast_stencil_opposite(FEAST_BAND9_STENCIL, k); }

void feast_band9_upwind(FeastBand9 *A) {
  const long N = A->N;
  double *const *b = A->band;
  for (long j = 0; j < N; j++)
    for (long i = 0; i < N; i++)
      for (int k = FEAST_BAND_DIAG + 1; k < FEAST_NBANDS; k++) { /* each pair once */
        long ni, nj;
        if (!neighbour(N, i, j, k, &ni, &nj)) continue;
        const long p = j * N + i, q = nj * N + ni;
        upwind_pair(&b[k][p], &b[FEAST_BAND_DIAG][p], &b[opposite(k)][q], &b[FEAST_BAND_DIAG][q], 1);
      }
}

void feast_band9_upwind_frame(FeastBand9Framed *A) {
  const long N = A->inside->N;
  double *const *fr = A->frame;
  for (long f = 0; f < feast_frame_len(N); f++) {
    const long node = feast_frame_node(N, f), i = node % N, j = node / N;
    for (int k = 0; k < FEAST_NBANDS; k++) {
      long ni, nj;
      if (k == FEAST_BAND_DIAG || !neighbour(N, i, j, k, &ni, &nj)) continue;
      const long g = feast_frame_slot(N, ni, nj);
      if (g < 0) { /* an inside node: its row is the inside's, stabilised already */
        double aji = A->inside->band[opposite(k)][nj * N + ni];
        upwind_pair(&fr[k][f], &fr[FEAST_BAND_DIAG][f], &aji, NULL, 0);
      } else if (k > FEAST_BAND_DIAG) { /* both in the frame: the pair once */
        upwind_pair(&fr[k][f], &fr[FEAST_BAND_DIAG][f], &fr[opposite(k)][g], &fr[FEAST_BAND_DIAG][g], 1);
      }
    }
  }
}

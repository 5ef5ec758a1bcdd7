/* Quantities and outputs of a 3D flow solution (navier_stokes/ns_hex.h): kinetic energy,
 * errors against an exact solution, VTK, and the values along a line of nodes (the centre
 * lines of the cavity). Sums over macros in global macro order (feast_domain_sum_macros):
 * the same bits on any number of ranks. */
#include "feast/base/atomic.h"
#include "feast/base/error.h"
#include "feast/base/log.h"
#include "feast/fem/q1_hex.h"
#include "feast/io/vtk.h"
#include "navier_stokes/hex_private.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { POST_ORDER = 3 };

/* an expression minus a constant (NULL: zero), as a function of the quadrature (NaN where it fails) */
typedef struct {
  FeastExpr *e;
  double shift;
} Shifted;

static void shifted_fn(long n, const double *x, const double *y, const double *z, void *ctx, double *value) {
  const Shifted *s = ctx;
  for (long k = 0; k < n; k++) {
    double v = 0.0;
    value[k] = s->e && feast_expr_eval3(s->e, x[k], y[k], z[k], &v) ? NAN : v - s->shift;
  }
}

/* sum over all macros of int (field f of the iterate - (e - shift))^2 */
static int l2_sq(const NsHex *ns, int f, FeastExpr *e, double shift, double *sum) {
  const FeastDomain *dom = ns->dom;
  const FeastLevel *lev = &dom->levels[ns->level];
  double *part;
  FEAST_CALL(FEAST_ALLOC(dom->nlocal + 1, &part));
  Shifted g = {e, shift};
  int st = 0;
  for (int li = 0; li < dom->nlocal && !st; li++) {
    double norm2;
    st = feast_q1_hex_l2_error(lev->N, lev->xy[li], feast_vec_block_read(ns->x, f, li), shifted_fn, &g, POST_ORDER,
                               &part[li], &norm2);
  }
  if (!st) st = feast_domain_sum_macros(dom, 1, part, sum);
  free(part);
  return st;
}

int ns_hex_kinetic_energy(const NsHex *ns, double *ke) {
  double s = 0.0;
  for (int d = 0; d < 3; d++) {
    double sd;
    FEAST_CALL(l2_sq(ns, NS_HEX_U + d, NULL, 0.0, &sd));
    s += sd;
  }
  *ke = 0.5 * s;
  return 0;
}

/* int e over the domain */
static int integral(const NsHex *ns, FeastExpr *e, double *value) {
  const FeastDomain *dom = ns->dom;
  const FeastLevel *lev = &dom->levels[ns->level];
  double *part, *b;
  FEAST_CALL(FEAST_ALLOC(dom->nlocal + 1, &part));
  FEAST_CALL(FEAST_ALLOC(lev->nodes_per_macro, &b));
  Shifted g = {e, 0.0};
  int st = 0;
  for (int li = 0; li < dom->nlocal && !st; li++) {
    memset(b, 0, sizeof(double) * (size_t)lev->nodes_per_macro);
    st = feast_q1_hex_assemble_rhs(lev->N, lev->xy[li], dom->local[li], shifted_fn, &g, POST_ORDER, b);
    for (long i = 0; i < lev->nodes_per_macro; i++) part[li] += b[i];
  }
  if (!st) st = feast_domain_sum_macros(dom, 1, part, value);
  free(part);
  free(b);
  return st;
}

int ns_hex_errors(const NsHex *ns, double *velocity, double *pressure) {
  *velocity = *pressure = NAN;
  if (ns->exact[NS_HEX_U] && ns->exact[NS_HEX_V] && ns->exact[NS_HEX_W]) {
    double s = 0.0;
    for (int d = 0; d < 3; d++) {
      double sd;
      FEAST_CALL(l2_sq(ns, NS_HEX_U + d, ns->exact[NS_HEX_U + d], 0.0, &sd));
      s += sd;
    }
    *velocity = sqrt(s);
  }
  if (ns->exact[NS_HEX_P]) {
    double shift = 0.0, ep;
    if (ns->nullspace) { /* against the exact pressure of zero mean */
      double ip;
      FEAST_CALL(integral(ns, ns->exact[NS_HEX_P], &ip));
      shift = ip / ns->volume;
    }
    FEAST_CALL(l2_sq(ns, NS_HEX_P, ns->exact[NS_HEX_P], shift, &ep));
    *pressure = sqrt(ep);
  }
  return 0;
}

int ns_hex_write_vtk(const NsHex *ns, const char *prefix) {
  const FeastDomain *dom = ns->dom;
  const FeastLevel *lev = &dom->levels[ns->level];
  const long n = lev->nodes_per_macro;
  double **uvw;
  FEAST_CALL(FEAST_ALLOC(dom->nlocal + 1, &uvw));
  int st = 0;
  for (int li = 0; li < dom->nlocal && !st; li++) {
    st = FEAST_ALLOC(3 * n, &uvw[li]);
    for (long r = 0; r < n && !st; r++)
      for (int d = 0; d < 3; d++) uvw[li][3 * r + d] = feast_vec_block_read(ns->x, NS_HEX_U + d, li)[r];
  }
  const FeastVtkField fields[2] = {{"velocity", 3, (const double *const *)uvw},
                                   {"pressure", 1, feast_vec_blocks_read(ns->x, NS_HEX_P)}};
  if (!st)
    st = feast_vtk_write_hex(prefix, ns->level, dom->nlocal, dom->local, (const double *const *)lev->xy, 2, fields,
                             dom->comm);
  for (int li = 0; li < dom->nlocal; li++) free(uvw[li]);
  free(uvw);
  return st;
}

/* ---- values along a line of nodes ---- */

enum { LINE_TOL_EXP = 9 };
typedef struct {
  double s, value;
} LinePoint;

static int by_position(const void *a, const void *b) {
  const double sa = ((const LinePoint *)a)->s, sb = ((const LinePoint *)b)->s;
  return (sa > sb) - (sa < sb);
}

/* this rank's nodes on the line (every copy) into *pts, *count of them */
static int local_line(const NsHex *ns, const double o[3], int axis, int f, LinePoint **pts, int *count) {
  const FeastDomain *dom = ns->dom;
  const FeastLevel *lev = &dom->levels[ns->level];
  const double tol = pow(10.0, -LINE_TOL_EXP);
  *count = 0;
  FEAST_CALL(FEAST_ALLOC((long)dom->nlocal * lev->N + 1, pts));
  for (int li = 0; li < dom->nlocal; li++) {
    const double *xyz = lev->xy[li], *v = feast_vec_block_read(ns->x, f, li);
    for (long r = 0; r < lev->nodes_per_macro; r++) {
      int on = 1;
      for (int e = 0; e < 3; e++) on &= e == axis || fabs(xyz[3 * r + e] - o[e]) <= tol;
      if (on && *count < dom->nlocal * lev->N) (*pts)[(*count)++] = (LinePoint){xyz[3 * r + axis], v[r]};
    }
  }
  return 0;
}

int ns_hex_line(const NsHex *ns, const double o[3], int axis, int f, int max, double *s, double *value, int *n) {
  FEAST_CHECK(axis >= 0 && axis < 3 && f >= 0 && f < NS_HEX_NFIELDS, FEAST_ERR_ARG, "ns_hex_line: axis %d, field %d",
              axis, f);
  LinePoint *mine, *all = NULL;
  int count;
  FEAST_CALL(local_line(ns, o, axis, f, &mine, &count));
  int size, *counts = NULL, *displs = NULL, total = 0;
  MPI_Comm_size(ns->dom->comm, &size);
  int st = FEAST_ALLOC(size + 1, &counts);
  if (!st) st = FEAST_ALLOC(size + 1, &displs);
  const int bytes = count * (int)sizeof(LinePoint);
  if (!st) MPI_Allgather(&bytes, 1, MPI_INT, counts, 1, MPI_INT, ns->dom->comm);
  for (int r = 0; r < size && !st; r++) displs[r] = total, total += counts[r];
  if (!st) st = FEAST_ALLOC(total / (int)sizeof(LinePoint) + 1, &all);
  if (!st) MPI_Allgatherv(mine, bytes, MPI_BYTE, all, counts, displs, MPI_BYTE, ns->dom->comm);
  int m = 0;
  if (!st) {
    const int k = total / (int)sizeof(LinePoint);
    qsort(all, (size_t)k, sizeof *all, by_position);
    for (int i = 0; i < k; i++) { /* the copies of a node sit side by side, bitwise equal */
      if (m > 0 && all[i].s - all[m - 1].s <= pow(10.0, -LINE_TOL_EXP)) continue;
      all[m++] = all[i];
    }
    for (int i = 0; i < m && i < max && s; i++) s[i] = all[i].s, value[i] = all[i].value;
    *n = m;
  }
  free(mine), free(all), free(counts), free(displs);
  return st;
}

/* output.centerlines: u along y through (0.5, y, 0.5) and v along x through (x, 0.5, 0.5) (the centre lines of
 * the unit-cube cavity, the 2D files' names and columns), written by rank 0 */
static const struct {
  int axis, field;
  double o[3];
  const char *header;
} centre_lines[2] = {{1, NS_HEX_U, {0.5, 0.0, 0.5}, "y,u"}, {0, NS_HEX_V, {0.0, 0.5, 0.5}, "x,v"}};

static int write_line(const char *path, const char *header, const double *s, const double *v, int count) {
  const size_t size = 64 + (size_t)count * 56;
  char *text;
  FEAST_CALL(FEAST_ALLOC(size, &text));
  size_t len = (size_t)snprintf(text, size, "%s\n", header);
  for (int i = 0; i < count; i++) len += (size_t)snprintf(text + len, size - len, "%.17g,%.17g\n", s[i], v[i]);
  const int st = feast_write_atomic(path, "centre-line profile", text, len);
  free(text);
  return st;
}

static int centre_line(const NsHex *ns, const char *prefix, int k) {
  int n;
  FEAST_CALL(ns_hex_line(ns, centre_lines[k].o, centre_lines[k].axis, centre_lines[k].field, 0, NULL, NULL, &n));
  FEAST_CHECK(n > 0, FEAST_ERR_CONFIG, "output.centerlines: no grid node lies on the line through (%g, %g, %g) along %c",
              centre_lines[k].o[0], centre_lines[k].o[1], centre_lines[k].o[2], "xyz"[centre_lines[k].axis]);
  double *s, *v;
  FEAST_CALL(FEAST_ALLOC(2 * (long)n, &s));
  v = s + n;
  int st = ns_hex_line(ns, centre_lines[k].o, centre_lines[k].axis, centre_lines[k].field, n, s, v, &n);
  char path[4200];
  if (!st) st = ns_centerline_file_name(prefix, k, path, sizeof path);
  if (!st && ns->dom->rank == 0) st = write_line(path, centre_lines[k].header, s, v, n);
  free(s);
  int global = st;
  FEAST_MPI_CALL(MPI_Bcast(&global, 1, MPI_INT, 0, ns->dom->comm));
  FEAST_CHECK(global == 0 || ns->dom->rank == 0, global, "writing the centre lines failed on rank 0");
  FEAST_CALL(st);
  feast_log(1, "  centre line: %s (%d points)\n", path, n);
  return 0;
}

int ns_hex_write_centerlines(const NsHex *ns, const char *prefix) {
  for (int k = 0; k < 2; k++) FEAST_CALL(centre_line(ns, prefix, k));
  return 0;
}

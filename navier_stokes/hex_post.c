/* Quantities and outputs of a 3D flow solution (navier_stokes/ns_hex.h): kinetic energy,
 * errors against an exact solution, VTK, and the values along a line of nodes (the centre
 * lines of the cavity). Sums over macros in global macro order (feast_domain_sum_macros):
 * the same bits on any number of ranks. */
#include "feast/base/error.h"
#include "feast/fem/q1_hex.h"
#include "feast/io/vtk.h"
#include "navier_stokes/hex_private.h"
#include "navier_stokes/ns_private.h"
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

/* ---- the centre lines ---- */

/* output.centerlines: u along y through (0.5, y, 0.5) and v along x through (x, 0.5, 0.5) (the centre lines of
 * the unit-cube cavity; the 2D files' names and columns) */
static const struct {
  int axis, field;
  double o[3];
  const char *line;
} centre_lines[2] = {{1, NS_HEX_U, {0.5, 0.0, 0.5}, "x = z = 0.5"}, {0, NS_HEX_V, {0.0, 0.5, 0.5}, "y = z = 0.5"}};

/* a node lies on a line when its other two coordinates are this close to the line's */
#define LINE_TOL 1e-9

/* this rank's nodes (each once, at its owner) on centre line k, gathered on rank 0 */
static int line_points(const NsHex *ns, int k, NsLinePoint **out, int *count) {
  const FeastDomain *dom = ns->dom;
  const FeastLevel *lev = &dom->levels[ns->level];
  const int axis = centre_lines[k].axis;
  const double *o = centre_lines[k].o;
  NsLinePoint *mine;
  int nmine = 0;
  FEAST_CALL(FEAST_ALLOC((long)dom->nlocal * lev->N + 1, &mine));
  for (int li = 0; li < dom->nlocal; li++) {
    const double *xyz = lev->xy[li], *v = feast_vec_block_read(ns->x, centre_lines[k].field, li);
    for (long r = 0; r < lev->nodes_per_macro; r++) {
      int on = lev->owned[li][r];
      for (int e = 0; e < 3; e++) on &= e == axis || fabs(xyz[3 * r + e] - o[e]) <= LINE_TOL;
      if (on) mine[nmine++] = (NsLinePoint){xyz[3 * r + axis], v[r]};
    }
  }
  const int st = ns_line_gather(dom, mine, nmine, out, count);
  free(mine);
  return st;
}

int ns_hex_write_centerlines(const NsHex *ns, const char *prefix) {
  for (int k = 0; k < 2; k++) {
    NsLinePoint *pts = NULL;
    int count = 0, st = line_points(ns, k, &pts, &count);
    if (!st) st = ns_centerline_write(ns->dom, prefix, k, centre_lines[k].line, pts, count);
    free(pts);
    FEAST_CALL(st);
  }
  return 0;
}

/* Quantities and outputs of a solution: kinetic energy, errors against an exact
 * solution, vorticity, VTK and the centre-line profiles. */
#include "feast/base/atomic.h"
#include "feast/base/error.h"
#include "feast/base/log.h"
#include "feast/io/vtk.h"
#include "navier_stokes/ns_private.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void zero_fn(long n, const double *x, const double *y, void *ctx, double *value) {
  memset(value, 0, sizeof(double) * (size_t)n);
}

/* an expression minus a constant, as a Q1 function (a failed evaluation gives NaN) */
typedef struct {
  FeastExpr *e;
  double shift;
} Shifted;

static void shifted_fn(long n, const double *x, const double *y, void *ctx, double *value) {
  Shifted *s = ctx;
  for (long k = 0; k < n; k++) {
    double v;
    value[k] = feast_expr_eval(s->e, x[k], y[k], &v) ? NAN : v - s->shift;
  }
}

/* sum over all macros of int (field f of x - g)^2 (g = zero when e is NULL) */
static int l2_sq(const NsProblem *ns, const FeastVec *x, int f, FeastExpr *e, double shift, double *sum) {
  const FeastDomain *dom = ns->dom;
  const FeastLevel *lev = &dom->levels[ns->level];
  double *part;
  FEAST_CALL(FEAST_ALLOC(2 * dom->nlocal + 2, &part));
  Shifted g = {e, shift};
  int st = 0;
  for (int li = 0; li < dom->nlocal && !st; li++)
    st = feast_q1_l2_error(lev->N, lev->xy[li], feast_vec_block_read(x, f, li), e ? shifted_fn : zero_fn, &g, 3,
                           &part[li], &part[dom->nlocal + li]);
  double sums[2] = {0, 0};
  if (!st) st = feast_domain_sum_macros(dom, 1, part, sums);
  free(part);
  *sum = sums[0];
  return st;
}

int ns_kinetic_energy(const NsProblem *ns, double *ke) {
  double u2, v2;
  FEAST_CALL(l2_sq(ns, ns->iter.v, NS_U, NULL, 0.0, &u2));
  FEAST_CALL(l2_sq(ns, ns->iter.v, NS_V, NULL, 0.0, &v2));
  *ke = 0.5 * (u2 + v2);
  return 0;
}

/* int e over the domain: sum of int e phi_i over all nodes of all macros */
static int integral(const NsProblem *ns, FeastExpr *e, double *value) {
  const FeastDomain *dom = ns->dom;
  const FeastLevel *lev = &dom->levels[ns->level];
  const long n = (long)lev->N * lev->N;
  double *part, *b;
  FEAST_CALL(FEAST_ALLOC(dom->nlocal + 1, &part));
  FEAST_CALL(FEAST_ALLOC(n, &b));
  Shifted g = {e, 0.0};
  int st = 0;
  for (int li = 0; li < dom->nlocal && !st; li++) {
    memset(b, 0, sizeof(double) * n);
    st = feast_q1_assemble_rhs(lev->N, lev->xy[li], dom->local[li], shifted_fn, &g, 3, b);
    for (long i = 0; i < n; i++) part[li] += b[i];
  }
  if (!st) st = feast_domain_sum_macros(dom, 1, part, value);
  free(part);
  free(b);
  return st;
}

int ns_errors(const NsProblem *ns, double *velocity, double *pressure) {
  *velocity = *pressure = NAN;
  if (ns->sys.exact[NS_U] && ns->sys.exact[NS_V]) {
    double eu, ev;
    FEAST_CALL(l2_sq(ns, ns->iter.v, NS_U, ns->sys.exact[NS_U], 0.0, &eu));
    FEAST_CALL(l2_sq(ns, ns->iter.v, NS_V, ns->sys.exact[NS_V], 0.0, &ev));
    *velocity = sqrt(eu + ev);
  }
  if (ns->sys.exact[NS_P]) {
    double shift = 0.0, ep;
    if (ns->nullspace) { /* compare with the exact pressure of zero mean */
      double ip, area;
      FEAST_CALL(integral(ns, ns->sys.exact[NS_P], &ip));
      const FeastVec *xs[1] = {ns->sys.mass}, *ys[1] = {ns->sys.ones};
      FEAST_CALL(feast_vec_dots(1, xs, ys, &area));
      shift = ip / area;
    }
    FEAST_CALL(l2_sq(ns, ns->iter.v, NS_P, ns->sys.exact[NS_P], shift, &ep));
    *pressure = sqrt(ep);
  }
  return 0;
}

/* omega_i = int (d_x v - d_y u) phi_i / int phi_i (lumped L2 projection) */
static void vorticity_form(const FeastQ1Cell *c, void *ctx, double (*A)[4][4], double (*b)[4]) {
  const double *const *uv = ctx;
  for (int q = 0; q < c->nq; q++) {
    const FeastQ1Point *p = &c->q[q];
    double w = 0.0;
    for (int a = 0; a < 4; a++) w += uv[1][c->node[a]] * p->dphi[a][0] - uv[0][c->node[a]] * p->dphi[a][1];
    for (int a = 0; a < 4; a++) b[0][a] += w * p->phi[a] * p->weight;
  }
}

static int vorticity(const NsProblem *ns, FeastVec *omega) {
  const FeastDomain *dom = ns->dom;
  const FeastLevel *lev = &dom->levels[ns->level];
  feast_vec_zero(omega);
  for (int li = 0; li < dom->nlocal; li++) {
    const double *uv[2] = {feast_vec_block_read(ns->iter.v, NS_U, li), feast_vec_block_read(ns->iter.v, NS_V, li)};
    double *b = feast_vec_block(omega, 0, li);
    FEAST_CALL(feast_q1_assemble_cells(lev->N, lev->xy[li], dom->local[li], vorticity_form, (void *)uv, 2, 0, NULL, 1,
                                       &b));
  }
  FEAST_CALL(feast_vec_sum(omega));
  feast_vec_pointwise_divide(omega, ns->sys.mass, omega);
  return 0;
}

int ns_write_vtk(const NsProblem *ns, const char *base) {
  const FeastDomain *dom = ns->dom;
  const FeastLevel *lev = &dom->levels[ns->level];
  const long n = (long)lev->N * lev->N;
  FeastVec *omega = NULL;
  double **uv = NULL;
  int st = feast_vec_create(dom, ns->level, 1, &omega);
  if (!st) st = vorticity(ns, omega);
  if (!st) st = FEAST_ALLOC(dom->nlocal + 1, &uv);
  for (int li = 0; li < dom->nlocal && !st; li++) {
    st = FEAST_ALLOC(2 * n, &uv[li]);
    const double *u = feast_vec_block_read(ns->iter.v, NS_U, li), *v = feast_vec_block_read(ns->iter.v, NS_V, li);
    for (long i = 0; i < n && !st; i++) uv[li][2 * i] = u[i], uv[li][2 * i + 1] = v[i];
  }
  if (!st) {
    const FeastVtkField fields[3] = {{"u", 2, (const double *const *)uv},
                                     {"p", 1, feast_vec_blocks_read(ns->iter.v, NS_P)},
                                     {"vorticity", 1, feast_vec_blocks_read(omega, 0)}};
    st = feast_vtk_write(base, ns->level, dom->nlocal, dom->local, (const double *const *)lev->xy, 3, fields,
                         dom->comm);
  }
  for (int li = 0; uv && li < dom->nlocal; li++) free(uv[li]);
  free(uv);
  feast_vec_destroy(&omega);
  return st;
}

/* ---- centre lines ---- */

static int cmp_point(const void *a, const void *b) {
  const NsLinePoint *x = a, *y = b;
  return (x->s > y->s) - (x->s < y->s);
}

/* a node lies on the line where coordinate axis = at when it is this close */
#define LINE_TOL 1e-10

/* 1 where node i of local macro li lies on the line where coordinate axis = at */
static int on_line(const FeastLevel *lev, int li, long i, int axis, double at) {
  return fabs(lev->xy[li][2 * i + axis] - at) <= LINE_TOL;
}

/* the nodes (each once, at its owner) with coordinate `axis` equal to at, as (the other
 * coordinate, field f), gathered and sorted on rank 0 */
static int line_points(const NsProblem *ns, int axis, double at, int f, NsLinePoint **out, int *count) {
  const FeastDomain *dom = ns->dom;
  const FeastLevel *lev = &dom->levels[ns->level];
  const long n = (long)lev->N * lev->N;
  NsLinePoint *mine;
  int nmine = 0;
  FEAST_CALL(FEAST_ALLOC((long)dom->nlocal * lev->N * 2 + 1, &mine));
  for (int li = 0; li < dom->nlocal; li++)
    for (long i = 0; i < n; i++) {
      if (!lev->owned[li][i] || !on_line(lev, li, i, axis, at)) continue;
      mine[nmine++] = (NsLinePoint){lev->xy[li][2 * i + 1 - axis], feast_vec_block_read(ns->iter.v, f, li)[i]};
    }
  const int st = ns_line_gather(dom, mine, nmine, out, count);
  free(mine);
  return st;
}

int ns_line_gather(const FeastDomain *dom, const NsLinePoint *mine, int nmine, NsLinePoint **out, int *count) {
  int *counts = NULL, *displs = NULL, bytes = nmine * (int)sizeof(NsLinePoint), total = 0;
  NsLinePoint *all = NULL;
  if (dom->rank == 0) {
    FEAST_CALL(FEAST_ALLOC(dom->size, &counts));
    FEAST_CALL(FEAST_ALLOC(dom->size, &displs));
  }
  FEAST_MPI_CALL(MPI_Gather(&bytes, 1, MPI_INT, counts, 1, MPI_INT, 0, dom->comm));
  if (dom->rank == 0) {
    for (int r = 0; r < dom->size; r++) displs[r] = total, total += counts[r];
    FEAST_CALL(FEAST_ALLOC(total / (int)sizeof(NsLinePoint) + 1, &all));
  }
  FEAST_MPI_CALL(MPI_Gatherv(mine, bytes, MPI_BYTE, all, counts, displs, MPI_BYTE, 0, dom->comm));
  free(counts);
  free(displs);
  *count = total / (int)sizeof(NsLinePoint);
  if (all) qsort(all, (size_t)*count, sizeof(NsLinePoint), cmp_point);
  *out = all;
  return 0;
}

/* rank 0: header and one line per point */
static int write_line(const char *path, const char *header, const NsLinePoint *pts, int count) {
  const size_t size = 64 + (size_t)count * 56;
  char *text;
  FEAST_CALL(FEAST_ALLOC(size, &text));
  size_t len = (size_t)snprintf(text, size, "%s\n", header);
  for (int i = 0; i < count; i++) len += (size_t)snprintf(text + len, size - len, "%.17g,%.17g\n", pts[i].s, pts[i].value);
  const int st = feast_write_atomic(path, "centre-line profile", text, len);
  free(text);
  return st;
}

static const struct {
  int axis, field;
  const char *suffix, *header;
} centre_lines[2] = {{0, NS_U, "_u.csv", "y,u"}, {1, NS_V, "_v.csv", "x,v"}};

int ns_centerline_file_name(const char *prefix, int k, char *buf, size_t size) {
  const int n = snprintf(buf, size, "%s%s", prefix, centre_lines[k].suffix);
  FEAST_CHECK(n >= 0 && (size_t)n < size, FEAST_ERR_CONFIG, "output.centerlines = %s: path too long", prefix);
  return 0;
}

int ns_mesh_line_nodes(const FeastMesh *mesh, int level, int axis, double at, int *found) {
  const int N = feast_level_n(level);
  double *xy;
  FEAST_CALL(FEAST_ALLOC(2 * (long)N * N, &xy));
  *found = 0;
  int st = 0;
  for (int m = 0; m < mesh->nmacros && !*found && !st; m++) {
    st = feast_mesh_macro_coords(mesh, m, level, xy);
    for (long i = 0; i < (long)N * N && !st && !*found; i++) *found = fabs(xy[2 * i + axis] - at) <= LINE_TOL;
  }
  free(xy);
  return st;
}

int ns_centerline_write(const FeastDomain *dom, const char *prefix, int k, const char *line, const NsLinePoint *pts,
                        int count) {
  int st = 0;
  if (dom->rank == 0) {
    char path[4200];
    st = ns_centerline_file_name(prefix, k, path, sizeof path);
    if (!st && count == 0)
      st = feast_error_set(FEAST_ERR_CONFIG, __FILE__, __LINE__,
                           "output.centerlines: no grid node lies on the line %s (the cavity's centre line)", line);
    else if (!st)
      st = write_line(path, centre_lines[k].header, pts, count);
    if (!st) feast_log(1, "  centre line: %s (%d points)\n", path, count);
  }
  int global = st;
  FEAST_MPI_CALL(MPI_Bcast(&global, 1, MPI_INT, 0, dom->comm));
  FEAST_CHECK(global == 0 || dom->rank == 0, global, "writing the centre lines failed on rank 0");
  return st;
}

int ns_write_centerlines(const NsProblem *ns, const char *prefix) {
  for (int k = 0; k < 2; k++) {
    NsLinePoint *pts = NULL;
    int count = 0, st = line_points(ns, centre_lines[k].axis, 0.5, centre_lines[k].field, &pts, &count);
    if (!st) st = ns_centerline_write(ns->dom, prefix, k, centre_lines[k].axis == 0 ? "x = 0.5" : "y = 0.5", pts, count);
    free(pts);
    FEAST_CALL(st);
  }
  return 0;
}

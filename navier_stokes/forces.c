/* Benchmark quantities of a flow solution (the DFG "flow around a cylinder", Schaefer &
 * Turek 1996, and any flow with a body in it): the force on a boundary part, the pressure
 * at a point, and the length of a recirculation zone. All are collective and give the
 * same bits on any number of ranks: per-macro partial values added in global macro
 * order (feast_domain_sum_macros), point values taken from the lowest macro holding the
 * point, minima by MPI_MIN.
 *
 * Force: the volume-integral form (Schaefer & Turek; John, "Higher order finite element
 * methods and multigrid solvers in a benchmark problem for the 3D Navier-Stokes
 * equations", IJNMF 40 (2002)). For the exact solution and any v with v = e_d on the body
 * and v = 0 on the rest of the boundary,
 *   F_d = -[ nu (grad u, grad v) + ((u . grad) u, v) - (p, div v) - (f, v) ],
 * which is the boundary integral of the stress over the body, but needs no normal
 * derivatives on the curved boundary (much more accurate than the line integral). Here
 * v = phi e_d with phi the Q1 function that is 1 at the nodes of the part and 0 at all
 * others, and the bracket is the discrete momentum form itself, SUPG terms included: F_d
 * is minus the sum of the residuals of the discrete d-momentum equations at the part's
 * nodes (the rows the Dirichlet condition replaced). Why SUPG included: every other row
 * of the discrete system is satisfied exactly, so the result does not depend on how phi
 * is extended into the domain (any extension by interior nodes adds zero residual); it is
 * the reaction force the discrete solution is in equilibrium with (the "consistent flux"
 * of Hughes, Engel, Mazzei & Larson, J. Comput. Phys. 163 (2000)). The Galerkin terms
 * alone differ by the SUPG term tau (R(u,p), u . grad phi) on the cells at the body, which
 * vanishes only as the grid is refined. The form is linearised at the solution itself
 * (w = u), which for the nonlinear solution gives the nonlinear residual; with Newton the
 * extra terms cancel at w = u, so the fixed-point form serves both. */
#include "feast/base/error.h"
#include "feast/base/log.h"
#include "navier_stokes/ns_private.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LOCATE_TOL 1e-9

/* ---- points in the domain (the input-phase checks of ns_config.c) ---- */

/* 1 if (x, y) lies in some macro of the mesh refined to `level` */
int ns_mesh_contains(const FeastMesh *mesh, int level, const double p[2], int *found) {
  const int N = feast_level_n(level);
  double *xy;
  FEAST_CALL(FEAST_ALLOC(2 * (long)N * N, &xy));
  *found = 0;
  int st = 0;
  for (int m = 0; m < mesh->nmacros && !*found && !st; m++) {
    /* coarse box of the macro, widened by half its size for curved edges */
    double lo[2] = {HUGE_VAL, HUGE_VAL}, hi[2] = {-HUGE_VAL, -HUGE_VAL};
    for (int k = 0; k < 4; k++)
      for (int d = 0; d < 2; d++) {
        const double v = mesh->xy[2 * mesh->quads[4 * m + k] + d];
        lo[d] = fmin(lo[d], v), hi[d] = fmax(hi[d], v);
      }
    const double pad = 0.5 * fmax(hi[0] - lo[0], hi[1] - lo[1]);
    if (p[0] < lo[0] - pad || p[0] > hi[0] + pad || p[1] < lo[1] - pad || p[1] > hi[1] + pad) continue;
    st = feast_mesh_macro_coords(mesh, m, level, xy);
    int ci, cj;
    double rs[2];
    if (!st) *found = feast_q1_locate(N, xy, p[0], p[1], LOCATE_TOL, &ci, &cj, rs);
  }
  free(xy);
  return st;
}


/* ---- the force on a part ---- */

typedef struct {
  NsForm form;
  const double *x[NS_NFIELDS]; /* u, v, p on this macro */
  const unsigned char *on;     /* nodes of the part */
  double f[2];
} ForceCtx;

/* minus the residual rows of the momentum equations at the part's nodes of one cell */
static void force_cell(const FeastQ1Cell *c, void *ctx, double (*Aunused)[4][4], double (*bunused)[4]) {
  ForceCtx *fc = ctx;
  (void)Aunused, (void)bunused;
  if (!(fc->on[c->node[0]] || fc->on[c->node[1]] || fc->on[c->node[2]] || fc->on[c->node[3]])) return;
  static const int row[2][NS_NFIELDS] = {{NS_A11, NS_A12, NS_B1}, {NS_A21, NS_A22, NS_B2}};
  double A[NS_NBLOCKS][4][4], b[NS_NRHS][4];
  memset(A, 0, sizeof A);
  memset(b, 0, sizeof b);
  ns_form(c, &fc->form, A, b);
  for (int a = 0; a < 4; a++) {
    if (!fc->on[c->node[a]]) continue;
    for (int d = 0; d < 2; d++) {
      double r = -b[NS_F1 + d][a];
      for (int f = 0; f < NS_NFIELDS; f++)
        for (int k = 0; k < 4; k++) r += A[row[d][f]][a][k] * fc->x[f][c->node[k]];
      fc->f[d] -= r;
    }
  }
}

int ns_force(const NsProblem *ns, const char *part, double force[2]) {
  const FeastDomain *dom = ns->dom;
  const FeastLevel *lev = &dom->levels[ns->level];
  const int q = feast_mesh_part_index(dom->mesh, part);
  FEAST_CHECK(q >= 0, FEAST_ERR_CONFIG, "force on part '%s': the mesh has no such part", part);
  unsigned char *flags;
  FeastMask *mask = NULL;
  double *part_sums = NULL;
  FEAST_CALL(FEAST_ALLOC(dom->mesh->nparts, &flags));
  flags[q] = 1;
  int st = feast_mask_create(dom, flags, &mask);
  free(flags);
  if (!st) st = FEAST_ALLOC(2 * dom->nlocal + 2, &part_sums);
  for (int li = 0; li < dom->nlocal && !st; li++) {
    /* the residual of the momentum equations at the new level: du/dt (a time step) and
     * every stationary term at full weight, no Newton terms (they cancel at w = u) */
    const FeastVec *x = ns->iter.v;
    ForceCtx fc = {ns_form_at(ns, x, li),
                   {feast_vec_block_read(x, NS_U, li), feast_vec_block_read(x, NS_V, li),
                    feast_vec_block_read(x, NS_P, li)},
                   mask->fixed[ns->level][li],
                   {0.0, 0.0}};
    fc.form.newton = 0;
    fc.form.theta = 1.0;
    st = feast_q1_assemble_cells(lev->N, lev->xy[li], dom->local[li], force_cell, &fc, 3, 0, NULL, 0, NULL);
    if (!st) st = fc.form.status;
    part_sums[li] = fc.f[0];
    part_sums[dom->nlocal + li] = fc.f[1];
  }
  if (!st) st = feast_domain_sum_macros(dom, 2, part_sums, force);
  free(part_sums);
  feast_mask_destroy(&mask);
  return st;
}

int ns_force_coefficients(const NsProblem *ns, const char *part, double coeff[2]) {
  double F[2];
  const double U = ns->params.physics.reference_velocity, D = ns->params.physics.reference_length;
  FEAST_CALL(ns_force(ns, part, F));
  for (int d = 0; d < 2; d++) coeff[d] = 2.0 * F[d] / (U * U * D); /* rho = 1 */
  return 0;
}

/* ---- point values ---- */

int ns_pressure_at(const NsProblem *ns, const double p[2], const char *what, double *value) {
  const FeastDomain *dom = ns->dom;
  const FeastLevel *lev = &dom->levels[ns->level];
  int mine = dom->mesh->nmacros, first;
  double v = 0.0;
  for (int li = 0; li < dom->nlocal; li++) { /* dom->local is ascending */
    int ci, cj;
    double rs[2];
    if (!feast_q1_locate(lev->N, lev->xy[li], p[0], p[1], LOCATE_TOL, &ci, &cj, rs)) continue;
    mine = dom->local[li];
    v = feast_q1_eval(lev->N, feast_vec_block_read(ns->iter.v, NS_P, li), ci, cj, rs);
    break;
  }
  FEAST_MPI_CALL(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, dom->comm));
  FEAST_CHECK(first < dom->mesh->nmacros, FEAST_ERR_CONFIG, "%s = %g %g: no macro of the level-%d grid holds the point",
              what, p[0], p[1], ns->level);
  if (mine != first) v = 0.0; /* only the lowest macro's value; the sum adds exact zeros */
  FEAST_MPI_CALL(MPI_Allreduce(&v, value, 1, MPI_DOUBLE, MPI_SUM, dom->comm));
  return 0;
}

int ns_pressure_difference(const NsProblem *ns, const double a[2], const double b[2], double *dp) {
  double pa, pb;
  FEAST_CALL(ns_pressure_at(ns, a, "output.pressure_point_a", &pa));
  FEAST_CALL(ns_pressure_at(ns, b, "output.pressure_point_b", &pb));
  *dp = pa - pb;
  return 0;
}

/* ---- recirculation ---- */

/* u at (x, y0) in cell (i, j); NaN if the map cannot be inverted */
static double u_at(int N, const double *xy, const double *u, int i, int j, double x, double y0) {
  double rs[2];
  return feast_q1_cell_inverse(N, xy, i, j, x, y0, rs) ? feast_q1_eval(N, u, i, j, rs) : NAN;
}

/* the smallest x > x0 on the line y = y0 inside cell (i, j) where u goes from < 0 to >= 0
 * (8 samples along the cell's chord of the line, then bisection); HUGE_VAL if none */
static double cell_crossing(int N, const double *xy, const double *u, int i, int j, double x0, double y0) {
  const double *P[4] = {xy + 2 * ((long)j * N + i), xy + 2 * ((long)j * N + i + 1), xy + 2 * ((long)(j + 1) * N + i + 1),
                        xy + 2 * ((long)(j + 1) * N + i)};
  double xlo = HUGE_VAL, xhi = -HUGE_VAL;
  for (int e = 0; e < 4; e++) { /* the straight edges' intersections with the line */
    const double *a = P[e], *b = P[(e + 1) % 4];
    if ((a[1] - y0) * (b[1] - y0) > 0.0) continue;
    if (a[1] == b[1]) {
      xlo = fmin(xlo, fmin(a[0], b[0])), xhi = fmax(xhi, fmax(a[0], b[0]));
    } else {
      const double x = a[0] + (y0 - a[1]) / (b[1] - a[1]) * (b[0] - a[0]);
      xlo = fmin(xlo, x), xhi = fmax(xhi, x);
    }
  }
  xlo = fmax(xlo, x0);
  if (!(xhi > xlo)) return HUGE_VAL;
  enum { SAMPLES = 8 };
  double xa = xlo, ua = u_at(N, xy, u, i, j, xa, y0);
  for (int k = 1; k <= SAMPLES; k++) {
    double xb = xlo + (xhi - xlo) * k / SAMPLES, ub = u_at(N, xy, u, i, j, xb, y0);
    if (ua < 0.0 && ub >= 0.0) {
      for (int it = 0; it < 200 && xb - xa > 1e-15 * fmax(1.0, fabs(xb)); it++) {
        const double xm = 0.5 * (xa + xb), um = u_at(N, xy, u, i, j, xm, y0);
        if (um < 0.0) xa = xm;
        else xb = xm;
      }
      return xb;
    }
    xa = xb, ua = ub;
  }
  return HUGE_VAL;
}

int ns_recirculation(const NsProblem *ns, const double from[2], double *length) {
  const FeastDomain *dom = ns->dom;
  const FeastLevel *lev = &dom->levels[ns->level];
  const int N = lev->N;
  double mine = HUGE_VAL, first;
  for (int li = 0; li < dom->nlocal; li++) {
    const double *xy = lev->xy[li], *u = feast_vec_block_read(ns->iter.v, NS_U, li);
    for (int j = 0; j < N - 1; j++)
      for (int i = 0; i < N - 1; i++) {
        const double x = cell_crossing(N, xy, u, i, j, from[0], from[1]);
        if (x < mine) mine = x;
      }
  }
  FEAST_MPI_CALL(MPI_Allreduce(&mine, &first, 1, MPI_DOUBLE, MPI_MIN, dom->comm));
  *length = first < HUGE_VAL ? first - from[0] : 0.0;
  return 0;
}

/* ---- separation and reattachment points on a wall ---- */

/* the node `cells` cells inward from position p of local edge le (feast_edge_node's numbering) */
static long inward_node(int le, int p, int N, int cells) {
  static const int step_i[4] = {0, -1, 0, 1}, step_j[4] = {1, 0, -1, 0};
  const long k = feast_edge_node(le, p, N);
  return k + cells * (step_j[le] * (long)N + step_i[le]);
}

/* h x the wall's normal derivative of the tangential velocity w (w_0 at the wall node,
 * w_1, w_2 one and two cells inward along the grid line), one-sided to second order:
 * (4 w_1 - w_2 - 3 w_0) / 2. The first-order w_1 - w_0 places a zero of the wall shear
 * stress where the zero line u.t = 0 crosses the first grid line inside, O(h / tan theta)
 * downstream of a separation point and upstream of a reattachment (theta: the angle of
 * the dividing streamline; the step at Re = 800: the upper separation point +4.8 / +3.2 /
 * +2.1 / +1.2 % at levels 3 to 6 with it). Macros of one cell per side: first order. */
static double wall_derivative(int N, const double *u, const double *v, int le, int p, double tx, double ty) {
  const long k0 = feast_edge_node(le, p, N), k1 = inward_node(le, p, N, 1);
  const double w0 = u[k0] * tx + v[k0] * ty, w1 = u[k1] * tx + v[k1] * ty;
  if (N < 3) return w1 - w0;
  const long k2 = inward_node(le, p, N, 2);
  const double w2 = u[k2] * tx + v[k2] * ty;
  return 0.5 * (4.0 * w1 - w2 - 3.0 * w0);
}

/* the sign changes of the wall shear stress (wall_derivative) along local edge le of local
 * macro li (t: the edge's direction), appended to pts (2 per point; *n of them, room for
 * cap) */
static int edge_zeros(const NsProblem *ns, int li, int le, double **pts, int *n, int *cap) {
  const FeastLevel *lev = &ns->dom->levels[ns->level];
  const int N = lev->N;
  const double *xy = lev->xy[li], *u = feast_vec_block_read(ns->iter.v, NS_U, li);
  const double *v = feast_vec_block_read(ns->iter.v, NS_V, li);
  double prev = 0.0;
  for (int p = 0; p < N; p++) {
    const long k = feast_edge_node(le, p, N), k1 = feast_edge_node(le, p < N - 1 ? p + 1 : p - 1, N);
    const double tx = (p < N - 1 ? 1.0 : -1.0) * (xy[2 * k1] - xy[2 * k]);
    const double ty = (p < N - 1 ? 1.0 : -1.0) * (xy[2 * k1 + 1] - xy[2 * k + 1]);
    const double ut = wall_derivative(N, u, v, le, p, tx, ty);
    if (p > 0 && prev * ut < 0.0) {
      if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 16;
        double *grown = realloc(*pts, sizeof(double) * 2 * (size_t)*cap);
        FEAST_CHECK(grown, FEAST_ERR_MEM, "ns_wall_shear_zeros: out of memory");
        *pts = grown;
      }
      const long k0 = feast_edge_node(le, p - 1, N);
      const double s = prev / (prev - ut);
      (*pts)[2 * *n] = (1.0 - s) * xy[2 * k0] + s * xy[2 * k];
      (*pts)[2 * *n + 1] = (1.0 - s) * xy[2 * k0 + 1] + s * xy[2 * k + 1];
      (*n)++;
    }
    prev = ut;
  }
  return 0;
}

static int compare_points(const void *a, const void *b) {
  const double *p = a, *q = b;
  return p[0] < q[0] ? -1 : p[0] > q[0] ? 1 : p[1] < q[1] ? -1 : p[1] > q[1];
}

int ns_wall_shear_zeros(const NsProblem *ns, const char *part, double *xy, int max, int *count) {
  const FeastDomain *dom = ns->dom;
  const FeastMesh *mesh = dom->mesh;
  const int q = feast_mesh_part_index(mesh, part);
  FEAST_CHECK(q >= 0, FEAST_ERR_CONFIG, "wall shear: mesh %s has no boundary part '%s'", mesh->source, part);
  double *mine = NULL;
  int n = 0, cap = 0, st = 0;
  for (int li = 0; li < dom->nlocal && !st; li++)
    for (int le = 0; le < 4 && !st; le++)
      if (mesh->edge_part[mesh->macro_edges[4 * dom->local[li] + le]] == q) st = edge_zeros(ns, li, le, &mine, &n, &cap);
  int *counts = NULL, *displs = NULL, total = 0;
  double *all = NULL;
  if (!st) st = FEAST_ALLOC(dom->size, &counts);
  if (!st) st = FEAST_ALLOC(dom->size, &displs);
  const int two_n = 2 * n;
  if (!st) st = MPI_Allgather(&two_n, 1, MPI_INT, counts, 1, MPI_INT, dom->comm) == MPI_SUCCESS ? 0 : FEAST_ERR_MPI;
  for (int r = 0; !st && r < dom->size; r++) displs[r] = total, total += counts[r];
  if (!st) st = FEAST_ALLOC(total + 1, &all);
  if (!st)
    st = MPI_Allgatherv(mine, two_n, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, dom->comm) == MPI_SUCCESS ? 0
                                                                                                          : FEAST_ERR_MPI;
  if (!st) {
    qsort(all, (size_t)total / 2, 2 * sizeof(double), compare_points);
    *count = total / 2;
    memcpy(xy, all, sizeof(double) * (size_t)(total / 2 < max ? total : 2 * max));
  }
  free(mine), free(counts), free(displs), free(all);
  return st;
}

/* Anderson acceleration of the fixed point (nonlinear.anderson_depth = m > 0).
 *
 * The fixed point's step maps the iterate x_k to g(x_k) = x_k + c_k, c_k the correction of
 * the Oseen system at x_k (solved to linear.rtol). Anderson (type II, Walker & Ni, SIAM J.
 * Numer. Anal. 49, 2011) combines the last m steps: with the differences dX_i = x_{i+1} - x_i
 * and dF_i = c_{i+1} - c_i of the last m steps,
 *   gamma = argmin || c_k - sum_i gamma_i dF_i ||_2,
 *   x_{k+1} = x_k + c_k - sum_i gamma_i (dX_i + dF_i),
 * i.e. the correction c_k is replaced by the mixed one; the line search then takes it as
 * its direction. For the Picard iteration of Navier-Stokes it improves the linear rate
 * (Pollock, Rebholz & Xiao, SIAM J. Numer. Anal. 57, 2019): the cavity at Re = 1000,
 * L = 6 converges in 21 instead of 31 steps (docs/notes/ns-nonlinear.md). The small
 * least-squares problem is solved by its normal equations (m <= 10, Cholesky; a history
 * whose Gram matrix is not positive definite is dropped and the plain correction taken).
 *
 * Stationary runs only: a time step's fixed point converges in 2-3 steps from the last
 * solution, too few for a history (DFG 2D-3, L = 4, 30 steps: 61 nonlinear steps and 337
 * iterations mixed, 60 and 335 not). The history lives for one nonlinear solve: a new
 * solve (a continuation stage) and the switch to Newton (Newton's steps are not mixed)
 * start it afresh. A checkpoint holds it (checkpoint.c: ns_anderson_history,
 * ns_anderson_restore), so a restarted run takes the very steps of an uninterrupted one.
 * All products are global reductions, so the mixing is the same on any number of ranks. */
#include "feast/base/error.h"
#include "navier_stokes/ns_private.h"
#include <math.h>
#include <stdlib.h>

struct NsAnderson {
  int depth, count;            /* m, and the differences held (<= m) */
  int started;                 /* x_prev, c_prev hold the last step's iterate and correction */
  FeastVec *x_prev, *c_prev;
  FeastVec *dx[NS_ANDERSON_MAX], *dc[NS_ANDERSON_MAX]; /* oldest first */
};

static int create(NsProblem *ns, int depth) {
  NsAnderson *a;
  FEAST_CALL(FEAST_ALLOC(1, &a));
  ns->iter.anderson = a;
  a->depth = depth;
  FEAST_CALL(feast_vec_create(ns->dom, ns->level, NS_NFIELDS, &a->x_prev));
  FEAST_CALL(feast_vec_create(ns->dom, ns->level, NS_NFIELDS, &a->c_prev));
  for (int i = 0; i < depth; i++) {
    FEAST_CALL(feast_vec_create(ns->dom, ns->level, NS_NFIELDS, &a->dx[i]));
    FEAST_CALL(feast_vec_create(ns->dom, ns->level, NS_NFIELDS, &a->dc[i]));
  }
  return 0;
}

int ns_anderson_history(const NsProblem *ns, FeastVec **x) {
  const NsAnderson *a = ns->iter.anderson;
  if (!a || !a->started) return 0;
  int n = 0;
  x[n++] = a->x_prev;
  x[n++] = a->c_prev;
  for (int i = 0; i < a->count; i++) x[n++] = a->dx[i], x[n++] = a->dc[i];
  return n;
}

int ns_anderson_restore(NsProblem *ns, int started, int count, int *skip) {
  const int depth = ns->params.nonlinear.anderson_depth;
  *skip = count;
  ns_anderson_reset(ns);
  if (depth <= 0 || !started) return 0;
  if (!ns->iter.anderson) FEAST_CALL(create(ns, depth));
  NsAnderson *a = ns->iter.anderson;
  *skip = count > depth ? count - depth : 0;
  a->count = count - *skip;
  a->started = 1;
  return 0;
}

void ns_anderson_reset(NsProblem *ns) {
  if (ns->iter.anderson) ns->iter.anderson->count = ns->iter.anderson->started = 0;
}

void ns_anderson_destroy(NsProblem *ns) {
  NsAnderson *a = ns->iter.anderson;
  if (!a) return;
  feast_vec_destroy(&a->x_prev);
  feast_vec_destroy(&a->c_prev);
  for (int i = 0; i < a->depth; i++) {
    feast_vec_destroy(&a->dx[i]);
    feast_vec_destroy(&a->dc[i]);
  }
  free(a);
  ns->iter.anderson = NULL;
}

/* the differences of the step from (x_prev, c_prev) to (v, c) appended, the oldest dropped
 * when m are held; (x_prev, c_prev) <- (v, c) */
static void push_step(NsAnderson *a, const FeastVec *v, const FeastVec *c) {
  if (a->count == a->depth) { /* the oldest pair's storage becomes the newest */
    FeastVec *dx = a->dx[0], *dc = a->dc[0];
    for (int i = 1; i < a->depth; i++) a->dx[i - 1] = a->dx[i], a->dc[i - 1] = a->dc[i];
    a->dx[a->depth - 1] = dx, a->dc[a->depth - 1] = dc;
    a->count--;
  }
  FeastVec *dx = a->dx[a->count], *dc = a->dc[a->count];
  feast_vec_copy(v, dx);
  feast_vec_axpy(-1.0, a->x_prev, dx);
  feast_vec_copy(c, dc);
  feast_vec_axpy(-1.0, a->c_prev, dc);
  a->count++;
  feast_vec_copy(v, a->x_prev);
  feast_vec_copy(c, a->c_prev);
}

/* gamma <- the solution of G gamma = b, G (n x n, row-major) symmetric; 0 if G is not
 * numerically positive definite (Cholesky) */
static int solve_normal_equations(int n, const double *G, const double *b, double *gamma) {
  double L[NS_ANDERSON_MAX * NS_ANDERSON_MAX] = {0}, y[NS_ANDERSON_MAX];
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++) {
      double s = G[i * n + j];
      for (int k = 0; k < j; k++) s -= L[i * n + k] * L[j * n + k];
      if (i == j) {
        if (!(s > 1e-14 * G[i * n + i])) return 0;
        L[i * n + i] = sqrt(s);
      } else {
        L[i * n + j] = s / L[j * n + j];
      }
    }
  for (int i = 0; i < n; i++) {
    double s = b[i];
    for (int k = 0; k < i; k++) s -= L[i * n + k] * y[k];
    y[i] = s / L[i * n + i];
  }
  for (int i = n - 1; i >= 0; i--) {
    double s = y[i];
    for (int k = i + 1; k < n; k++) s -= L[k * n + i] * gamma[k];
    gamma[i] = s / L[i * n + i];
  }
  return 1;
}

int ns_anderson_mix(NsProblem *ns) {
  const int depth = ns->params.nonlinear.anderson_depth;
  if (depth <= 0 || ns->newton || ns->time_dependent) return 0;
  if (!ns->iter.anderson) FEAST_CALL(create(ns, depth));
  NsAnderson *a = ns->iter.anderson;
  if (!a->started) {
    feast_vec_copy(ns->iter.v, a->x_prev);
    feast_vec_copy(ns->iter.correction, a->c_prev);
    a->started = 1;
    return 0;
  }
  push_step(a, ns->iter.v, ns->iter.correction);
  const int n = a->count;
  double G[NS_ANDERSON_MAX * NS_ANDERSON_MAX], b[NS_ANDERSON_MAX], gamma[NS_ANDERSON_MAX];
  for (int i = 0; i < n; i++) {
    const FeastVec *pairs_x[NS_ANDERSON_MAX + 1], *pairs_y[NS_ANDERSON_MAX + 1];
    for (int j = 0; j <= i; j++) pairs_x[j] = a->dc[i], pairs_y[j] = a->dc[j];
    pairs_x[i + 1] = a->dc[i], pairs_y[i + 1] = ns->iter.correction;
    double d[NS_ANDERSON_MAX + 1];
    FEAST_CALL(feast_vec_dots(i + 2, pairs_x, pairs_y, d));
    for (int j = 0; j <= i; j++) G[i * n + j] = G[j * n + i] = d[j];
    b[i] = d[i + 1];
  }
  if (!solve_normal_equations(n, G, b, gamma)) { /* a degenerate history: start it afresh */
    a->count = 0;
    return 0;
  }
  for (int i = 0; i < n; i++) {
    feast_vec_axpy(-gamma[i], a->dx[i], ns->iter.correction);
    feast_vec_axpy(-gamma[i], a->dc[i], ns->iter.correction);
  }
  return 0;
}

/* Anderson acceleration of a fixed-point iteration (anderson.h). The history is oldest
 * first; its vectors are made at the first step that needs them. */
#include "solvers/anderson.h"
#include "feast/base/error.h"
#include <math.h>
#include <stdlib.h>

struct FeastAnderson {
  const FeastDomain *dom;      /* the shape of the vectors */
  int level, nb;
  int depth, count;            /* m, and the differences held (<= m) */
  int started;                 /* x_prev, c_prev hold the last step's iterate and correction */
  FeastVec *x_prev, *c_prev;   /* NULL until the first use */
  FeastVec *dx[FEAST_ANDERSON_MAX], *dc[FEAST_ANDERSON_MAX];
};

int feast_anderson_create(const FeastVec *like, int depth, FeastAnderson **ap) {
  FEAST_CHECK(like && ap && depth >= 1 && depth <= FEAST_ANDERSON_MAX, FEAST_ERR_ARG,
              "feast_anderson_create: depth %d outside 1..%d", depth, FEAST_ANDERSON_MAX);
  FeastAnderson *a;
  FEAST_CALL(FEAST_ALLOC(1, &a));
  a->dom = like->dom;
  a->level = like->level;
  a->nb = like->nb;
  a->depth = depth;
  *ap = a;
  return 0;
}

/* the vectors, once */
static int vectors(FeastAnderson *a) {
  if (a->x_prev) return 0;
  FEAST_CALL(feast_vec_create(a->dom, a->level, a->nb, &a->x_prev));
  FEAST_CALL(feast_vec_create(a->dom, a->level, a->nb, &a->c_prev));
  for (int i = 0; i < a->depth; i++) {
    FEAST_CALL(feast_vec_create(a->dom, a->level, a->nb, &a->dx[i]));
    FEAST_CALL(feast_vec_create(a->dom, a->level, a->nb, &a->dc[i]));
  }
  return 0;
}

void feast_anderson_destroy(FeastAnderson **ap) {
  FeastAnderson *a = *ap;
  if (!a) return;
  feast_vec_destroy(&a->x_prev);
  feast_vec_destroy(&a->c_prev);
  for (int i = 0; i < a->depth; i++) {
    feast_vec_destroy(&a->dx[i]);
    feast_vec_destroy(&a->dc[i]);
  }
  free(a);
  *ap = NULL;
}

void feast_anderson_reset(FeastAnderson *a) {
  if (a) a->count = a->started = 0;
}

int feast_anderson_history(const FeastAnderson *a, FeastVec **x) {
  if (!a || !a->started) return 0;
  int n = 0;
  x[n++] = a->x_prev;
  x[n++] = a->c_prev;
  for (int i = 0; i < a->count; i++) x[n++] = a->dx[i], x[n++] = a->dc[i];
  return n;
}

int feast_anderson_restore(FeastAnderson *a, int started, int count, int *skip) {
  *skip = count;
  feast_anderson_reset(a);
  if (!a || !started) return 0;
  FEAST_CALL(vectors(a));
  *skip = count > a->depth ? count - a->depth : 0;
  a->count = count - *skip;
  a->started = 1;
  return 0;
}

/* the differences of the step from (x_prev, c_prev) to (x, c) appended, the oldest dropped
 * when m are held; (x_prev, c_prev) <- (x, c) */
static void push_step(FeastAnderson *a, const FeastVec *x, const FeastVec *c) {
  if (a->count == a->depth) { /* the oldest pair's storage becomes the newest */
    FeastVec *dx = a->dx[0], *dc = a->dc[0];
    for (int i = 1; i < a->depth; i++) a->dx[i - 1] = a->dx[i], a->dc[i - 1] = a->dc[i];
    a->dx[a->depth - 1] = dx, a->dc[a->depth - 1] = dc;
    a->count--;
  }
  FeastVec *dx = a->dx[a->count], *dc = a->dc[a->count];
  feast_vec_copy(x, dx);
  feast_vec_axpy(-1.0, a->x_prev, dx);
  feast_vec_copy(c, dc);
  feast_vec_axpy(-1.0, a->c_prev, dc);
  a->count++;
  feast_vec_copy(x, a->x_prev);
  feast_vec_copy(c, a->c_prev);
}

/* gamma <- the solution of G gamma = b, G (n x n, row-major) symmetric; 0 if G is not
 * numerically positive definite (Cholesky) */
static int solve_normal_equations(int n, const double *G, const double *b, double *gamma) {
  double L[FEAST_ANDERSON_MAX * FEAST_ANDERSON_MAX] = {0}, y[FEAST_ANDERSON_MAX];
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

int feast_anderson_mix(FeastAnderson *a, const FeastVec *x, FeastVec *c) {
  if (!a) return 0;
  FEAST_CALL(vectors(a));
  if (!a->started) {
    feast_vec_copy(x, a->x_prev);
    feast_vec_copy(c, a->c_prev);
    a->started = 1;
    return 0;
  }
  push_step(a, x, c);
  const int n = a->count;
  double G[FEAST_ANDERSON_MAX * FEAST_ANDERSON_MAX], b[FEAST_ANDERSON_MAX], gamma[FEAST_ANDERSON_MAX];
  for (int i = 0; i < n; i++) {
    const FeastVec *pairs_x[FEAST_ANDERSON_MAX + 1], *pairs_y[FEAST_ANDERSON_MAX + 1];
    for (int j = 0; j <= i; j++) pairs_x[j] = a->dc[i], pairs_y[j] = a->dc[j];
    pairs_x[i + 1] = a->dc[i], pairs_y[i + 1] = c;
    double d[FEAST_ANDERSON_MAX + 1];
    FEAST_CALL(feast_vec_dots(i + 2, pairs_x, pairs_y, d));
    for (int j = 0; j <= i; j++) G[i * n + j] = G[j * n + i] = d[j];
    b[i] = d[i + 1];
  }
  if (!solve_normal_equations(n, G, b, gamma)) { /* a degenerate history: start it afresh */
    a->count = 0;
    return 0;
  }
  for (int i = 0; i < n; i++) {
    feast_vec_axpy(-gamma[i], a->dx[i], c);
    feast_vec_axpy(-gamma[i], a->dc[i], c);
  }
  return 0;
}

/* Flexible restarted GMRES (FGMRES(m), Saad 1993) */
#include "solvers/krylov_private.h"
#include "feast/base/error.h"
#include <stdlib.h>
#include <string.h>
#include <math.h>

/* FGMRES(m) (Saad 1993): GMRES right-preconditioned by a preconditioner that may change
 * from one application to the next (ScaRC stopped at a tolerance, the adaptive smoother
 * step), so the search directions Z_j = M V_j are kept and x += Z y. The residual norm is
 * the least-squares one, |g_{j+1}| after the Givens rotations: it never grows, so the
 * method cannot diverge where BiCGStab's residual spikes. Orthogonalisation by classical
 * Gram-Schmidt applied twice (CGS2), each pass one fused reduction, plus the norm:
 * 3 reductions per iteration whatever j. Restarted every m iterations from the true
 * residual; a converged exit is confirmed by the true residual. */
enum { FGMRES_DEFAULT_RESTART = 30 };

static int fgmres_restart(int restart) { return restart > 0 ? restart : FGMRES_DEFAULT_RESTART; }

/* the double-precision vectors of FGMRES(m) at most: V (m + 1, or 2 with the basis in
 * single precision, which then adds m + 1 single vectors) and Z (m) */
static int fgmres_double_vectors(int m, int single_basis) { return (single_basis ? 2 : m + 1) + m; }

double feast_krylov_basis_vectors(FeastKrylovMethod method, int restart, int single_basis) {
  if (method != FEAST_KRYLOV_FGMRES) return 0.0;
  const int m = fgmres_restart(restart);
  return fgmres_double_vectors(m, single_basis) + (single_basis ? 0.5 * (m + 1) : 0.0);
}

/* (*vecs)[0..need) of w's shape, those beyond *n made now */
static int grow_vecs(Work *w, FeastVec ***vecs, int *n, int need) {
  if (*n >= need) return 0;
  FeastVec **b = realloc(*vecs, (size_t)need * sizeof *b);
  FEAST_CHECK(b, FEAST_ERR_MEM, "fgmres: no memory for %d basis vectors", need);
  *vecs = b;
  for (int i = *n; i < need; i++) {
    b[i] = NULL;
    *n = i + 1;
    FEAST_CALL(feast_vec_create(w->dom, w->level, w->nb, &b[i]));
  }
  return 0;
}

/* the single-precision basis U_0..U_need-1 (single_basis) */
static int grow_single(Work *w, int need) {
  if (w->nsingle >= need) return 0;
  FeastVecSingle **b = realloc(w->single, (size_t)need * sizeof *b);
  FEAST_CHECK(b, FEAST_ERR_MEM, "fgmres: no memory for %d basis vectors", need);
  w->single = b;
  for (int i = w->nsingle; i < need; i++) {
    b[i] = NULL;
    w->nsingle = i + 1;
    FEAST_CALL(feast_vec_single_create(w->dom, w->level, w->nb, &b[i]));
  }
  return 0;
}

/* the vectors iteration k of a cycle uses, made at their first use (a solve of j
 * iterations holds j directions and j + 1 basis vectors, not the restart length's; the
 * pointers change as they grow): V_0..V_k+1 (with single_basis two double vectors that
 * take turns as V_k and V_k+1, the basis itself in *U), Z_0..Z_k */
static int fgmres_vectors(Solve *S, int k, FeastVec ***V, FeastVec ***Z, FeastVecSingle ***U) {
  Work *w = S->w;
  const int single = S->p->single_basis;
  FEAST_CALL(grow_vecs(w, &w->basis, &w->nbasis, single ? 2 : k + 2));
  FEAST_CALL(grow_vecs(w, &w->dirs, &w->ndirs, k + 1));
  if (single) FEAST_CALL(grow_single(w, k + 2));
  *V = w->basis;
  *Z = w->dirs;
  *U = single ? w->single : NULL;
  return 0;
}

/* w -= sum_i h_i V_i with h = V^T w, twice (CGS2); h[0..j] the sum of both passes; the
 * basis in single precision where U is not NULL */
static int fgmres_orthogonalise(FeastVec **V, FeastVecSingle **U, int j, FeastVec *w, double *h) {
  const FeastVec *ws[j + 1];
  double c[j + 1];
  for (int i = 0; i <= j; i++) ws[i] = w, h[i] = 0.0;
  for (int pass = 0; pass < 2; pass++) {
    if (U) FEAST_CALL(feast_vec_single_dots(j + 1, (const FeastVecSingle *const *)U, w, c));
    else FEAST_CALL(feast_vec_dots(j + 1, (const FeastVec *const *)V, ws, c));
    double minus_c[j + 1];
    for (int i = 0; i <= j; i++) {
      minus_c[i] = -c[i];
      h[i] += c[i];
    }
    if (U) feast_vec_single_maxpy(j + 1, minus_c, (const FeastVecSingle *const *)U, w);
    else feast_vec_maxpy(j + 1, minus_c, (const FeastVec *const *)V, w);
  }
  return 0;
}

/* the column h[0..j+1] of the Hessenberg matrix through the rotations so far and a new
 * one that zeroes h[j+1]; g (the rotated right-hand side) follows */
static void fgmres_rotate(double *h, int j, double *cs, double *sn, double *g) {
  for (int i = 0; i < j; i++) {
    const double t = cs[i] * h[i] + sn[i] * h[i + 1];
    h[i + 1] = -sn[i] * h[i] + cs[i] * h[i + 1];
    h[i] = t;
  }
  const double d = hypot(h[j], h[j + 1]);
  cs[j] = d > 0 ? h[j] / d : 1.0;
  sn[j] = d > 0 ? h[j + 1] / d : 0.0;
  h[j] = d;
  h[j + 1] = 0.0;
  g[j + 1] = -sn[j] * g[j];
  g[j] *= cs[j];
}

/* x += Z y with R y = g[0..k-1] (R upper triangular, column-major in H, leading dim m+1) */
static void fgmres_update(Solve *S, FeastVec **Z, const double *H, int m, const double *g, int k) {
  double y[k > 0 ? k : 1];
  for (int i = k - 1; i >= 0; i--) {
    double s = g[i];
    for (int l = i + 1; l < k; l++) s -= H[l * (m + 1) + i] * y[l];
    y[i] = s / H[i * (m + 1) + i];
  }
  feast_vec_maxpy(k, y, (const FeastVec *const *)Z, S->x);
}

int krylov_fgmres(Solve *S) {
  Work *w = S->w;
  NEED(w, &w->r);
  const int m = fgmres_restart(S->p->restart);
  FeastVec **V = NULL, **Z = NULL;
  FeastVecSingle **U = NULL;
  double rnorm;
  int solved;
  FEAST_CALL(krylov_initial(S, w->r, &rnorm, &solved));
  if (solved) return 0;
  FEAST_CALL(fgmres_vectors(S, 0, &V, &Z, &U));
  double *H, *g, *cs, *sn;
  FEAST_CALL(FEAST_ALLOC((size_t)(m + 1) * (m + 4), &H));
  g = H + (size_t)m * (m + 1), cs = g + m + 1, sn = cs + m + 1;
  krylov_loop_begin(S);
  int it = 0, restarts = 0, st = 0;
  for (;;) { /* one cycle of at most m iterations from r, ||r|| = rnorm */
    feast_vec_copy(w->r, V[0]);
    feast_vec_scale(1.0 / rnorm, V[0]);
    if (U) feast_vec_single_store(V[0], U[0]);
    memset(g, 0, (size_t)(m + 1) * sizeof *g);
    g[0] = rnorm;
    int k = 0, stop = 0, broken = 0;
    while (k < m && !stop) {
      double *h = H + (size_t)k * (m + 1);
      if ((st = fgmres_vectors(S, k, &V, &Z, &U))) break;
      FeastVec *vk = U ? V[k & 1] : V[k], *vnext = U ? V[(k + 1) & 1] : V[k + 1];
      if ((st = krylov_apply_M(S, vk, Z[k])) || (st = krylov_apply_A(S, Z[k], vnext))) break;
      if ((st = fgmres_orthogonalise(V, U, k, vnext, h)) || (st = feast_vec_norm(vnext, &h[k + 1]))) break;
      if (h[k + 1] > 0) feast_vec_scale(1.0 / h[k + 1], vnext);
      if (U) feast_vec_single_store(vnext, U[k + 1]);
      fgmres_rotate(h, k, cs, sn, g);
      k++;
      broken = !isfinite(g[k]) || h[k - 1] == 0.0; /* NaN, or a singular column: no update */
      stop = krylov_stop_test(S, fabs(g[k]), ++it) || broken;
    }
    if (st) break;
    if (broken) {
      if (isfinite(g[k])) krylov_breakdown(S, 0.0, it);
      break;
    }
    fgmres_update(S, Z, H, m, g, k);
    if (stop) {
      const int done = krylov_confirm_exit(S, w->r, it, &restarts);
      if (done < 0) st = -done;
      if (done) break;
      if ((st = feast_vec_norm(w->r, &rnorm))) break; /* drifted: go on from the true residual */
      continue;
    }
    /* restart from the true residual (its product and reduction counted in the loop) */
    if ((st = krylov_residual(S, w->r)) || (st = feast_vec_norm(w->r, &rnorm))) break;
    if (rnorm == 0.0 || !isfinite(rnorm)) {
      krylov_stop_test(S, rnorm, it);
      break;
    }
  }
  free(H);
  return st;
}


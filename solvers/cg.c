/* Flexible preconditioned conjugate gradients */
#include "solvers/krylov_private.h"
#include "feast/base/error.h"
#include <math.h>

/* flexible preconditioned conjugate gradients (Notay's FCG(1), Polak-Ribiere beta):
 * beta = z_new . (r_new - r_old) / (z_old . r_old) = -alpha (z_new . q) / (z_old . r_old),
 * since r_new = r_old - alpha q. For a fixed SPD preconditioner this is classical PCG
 * (r_old . z_new = 0); ScaRC is not one (a V cycle with pre-smoothing only, an adaptive
 * Schwarz step, single-precision local solves), and the flexible beta keeps CG
 * converging with it. Costs one more dot product, fused with the other. */
int krylov_cg(Solve *S) {
  Work *w = S->w;
  NEED(w, &w->r, &w->z, &w->p, &w->q);
  double rnorm, rz, pq;
  int stop;
  FEAST_CALL(krylov_initial(S, w->r, &rnorm, &stop));
  if (stop) return 0;
  FEAST_CALL(krylov_apply_M(S, w->r, w->z));
  feast_vec_copy(w->z, w->p);
  FEAST_CALL(feast_vec_dot(w->r, w->z, &rz));
  krylov_loop_begin(S);
  for (int it = 1;; it++) {
    FEAST_CALL(krylov_apply_A(S, w->p, w->q));
    FEAST_CALL(feast_vec_dot(w->p, w->q, &pq));
    if (pq == 0.0 || !isfinite(pq)) return krylov_breakdown(S, pq, it);
    double alpha = rz / pq;
    feast_vec_axpy(alpha, w->p, S->x);
    feast_vec_axpy(-alpha, w->q, w->r);
    FEAST_CALL(feast_vec_norm(w->r, &rnorm));
    if (krylov_stop_test(S, rnorm, it)) return 0;
    FEAST_CALL(krylov_apply_M(S, w->r, w->z));
    const FeastVec *xs[2] = {w->r, w->q}, *ys[2] = {w->z, w->z};
    double d[2]; /* r_new . z_new, q . z_new */
    FEAST_CALL(feast_vec_dots(2, xs, ys, d));
    const double beta = -alpha * d[1] / rz;
    rz = d[0];
    feast_vec_aypx(beta, w->z, w->p); /* p <- z + beta p */
  }
}


/* Richardson iteration x += M (b - A x): with the ScaRC V cycle as M, standalone multigrid */
#include "solvers/krylov_private.h"
#include "feast/base/error.h"
#include <math.h>

int krylov_richardson(Solve *S) {
  Work *w = S->w;
  NEED(w, &w->r, &w->z);
  double rnorm;
  int stop;
  FEAST_CALL(krylov_initial(S, w->r, &rnorm, &stop));
  if (stop) return 0;
  krylov_loop_begin(S);
  for (int it = 1;; it++) {
    FEAST_CALL(krylov_apply_M(S, w->r, w->z));
    feast_vec_axpy(1.0, w->z, S->x);
    FEAST_CALL(krylov_residual(S, w->r));
    FEAST_CALL(feast_vec_norm(w->r, &rnorm));
    if (krylov_stop_test(S, rnorm, it)) return 0;
  }
}


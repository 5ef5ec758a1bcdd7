/* The test hook that makes an operator fail or return a NaN at its second application
 * (debug.inject: the failure paths of every solver) */
#include "solvers/krylov.h"
#include "feast/base/error.h"
#include "feast/base/log.h"
#include <math.h>

static int fault_apply(void *ctx, const FeastVec *x, FeastVec *y) {
  FeastFaultOp *h = ctx;
  FEAST_CALL(h->inner.apply(h->inner.ctx, x, y));
  if (++h->calls != 2 || !h->on_this_rank) return 0;
  if (h->mode == FEAST_FAULT_FAIL)
    FEAST_ERROR(FEAST_ERR_INTERNAL, "injected failure (debug.inject = fail) on rank %d", feast_log_rank());
  if (h->mode == FEAST_FAULT_NAN) feast_vec_mark_nan(y);
  return 0;
}

int feast_fault_op(const FeastFaultParams *fp, int rank, FeastLinOp inner, FeastFaultOp *hook, FeastLinOp *wrapped) {
  hook->inner = inner;
  hook->mode = fp ? fp->mode : FEAST_FAULT_NONE;
  hook->on_this_rank = fp && fp->rank == rank;
  hook->calls = 0;
  *wrapped = hook->mode != FEAST_FAULT_NONE ? (FeastLinOp){fault_apply, hook} : inner;
  return 0;
}


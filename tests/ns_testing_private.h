/* White-box helpers of the navier_stokes/ tests that check internals: ns_testing.h plus
 * the library's private header (navier_stokes/ns_private.h: the problem's members, the
 * system, the preconditioner) and helpers on them. A test that includes this says why in
 * a "white-box:" comment; every other test uses ns_testing.h (public headers only). */
#ifndef FEAST_NS_TESTING_PRIVATE_H
#define FEAST_NS_TESTING_PRIVATE_H
#include "ns_testing.h"
#include "navier_stokes/ns_private.h"

/* |h - K x| after the projection of the constant pressure mode (ns_project_residual),
 * and |h|: the system assembled at x's velocity */
static inline int ns_defect_at(NsProblem *ns, const FeastVec *x, double *defect, double *rhs) {
  FEAST_CALL(ns_system_assemble(ns, x));
  FEAST_CALL(ns_system_apply(ns, x, ns->iter.defect));
  feast_vec_aypx(-1.0, ns->sys.rhs, ns->iter.defect);
  FEAST_CALL(ns_project_residual(ns, ns->iter.defect));
  FEAST_CALL(feast_vec_norm(ns->iter.defect, defect));
  return feast_vec_norm(ns->sys.rhs, rhs);
}
#endif

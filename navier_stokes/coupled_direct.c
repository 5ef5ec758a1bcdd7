/* linear.preconditioner = direct: the whole linearised saddle-point system K = [A B; BT C]
 * of the last assembly, its nine blocks gathered on rank 0 and factored by UMFPACK
 * (solvers/direct.h), K^-1 the Krylov method's preconditioner: one iteration per nonlinear
 * step (up to the viscous residual's derivative, which the assembled blocks leave out).
 * The unknowns are field by field (u, v, p over the level's global nodes); the Dirichlet
 * rows are the system's identity rows; an enclosed flow's pressure (free up to a
 * constant) has its first node's row pinned, the rows of the others imply it. Memory and
 * time grow faster than the
 * unknowns: meant for small systems (grid sequencing's coarser levels, sequencing.c). */
#include "feast/base/error.h"
#include "feast/base/log.h"
#include "navier_stokes/ns_private.h"
#include "solvers/direct.h"

/* the blocks of K in row-major order (the set is fixed when the system is created:
 * system.c; feast_direct_refresh_system refuses another) */
static void system_blocks(const NsProblem *ns, const FeastBand9 *A[NS_NFIELDS * NS_NFIELDS]) {
  for (int r = 0; r < NS_NFIELDS; r++)
    for (int c = 0; c < NS_NFIELDS; c++) A[r * NS_NFIELDS + c] = ns_system_block(ns, r, c);
}

static int factor(NsProblem *ns) {
  const FeastBand9 *A[NS_NFIELDS * NS_NFIELDS];
  system_blocks(ns, A);
  if (ns->prec.direct) return feast_direct_refresh_system(ns->prec.direct, A);
  const int64_t pin = ns->nullspace ? NS_P * ns->dom->levels[ns->level].nglobal : -1;
  return feast_direct_create_system(ns->dom, ns->level, NS_NFIELDS, A, FEAST_DIRECT_UMFPACK, pin, &ns->prec.direct);
}

/* the factorisation is the solver's setup (T_setup), as ScaRC's refresh is */
int ns_direct_update(NsProblem *ns) {
  feast_timer_start(FEAST_T_SOLVER_SETUP);
  const int st = factor(ns);
  feast_timer_stop(FEAST_T_SOLVER_SETUP);
  return st;
}

int ns_direct_apply(NsProblem *ns, const FeastVec *d, FeastVec *c) {
  double *const *b[NS_NFIELDS], *const *x[NS_NFIELDS];
  for (int f = 0; f < NS_NFIELDS; f++) b[f] = feast_vec_blocks(d, f), x[f] = feast_vec_blocks(c, f);
  FEAST_CALL(feast_direct_solve_system(ns->prec.direct, b, x));
  return ns_project_solution(ns, c);
}

void ns_direct_destroy(NsProblem *ns) { feast_direct_destroy(&ns->prec.direct); }

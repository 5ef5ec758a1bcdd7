/* problem.type = stokes | navier-stokes: registered; the solver follows (navier_stokes/) */
#include "apps/problem.h"
#include "feast/error.h"
static int ns_check(const FeastConfig *cfg, const FeastMesh *mesh) { return 0; }
static int ns_run(const FeastProblemContext *ctx) {
  FEAST_ERROR(FEAST_ERR_UNSUPPORTED, "problem.type = stokes/navier-stokes is not available in feastc %s yet "
              "(only poisson solves; --dry-run reports its sizes)", FEAST_VERSION);
}
const FeastProblem feast_problem_stokes = {"stokes", 3, ns_check, ns_run};
const FeastProblem feast_problem_navier_stokes = {"navier-stokes", 3, ns_check, ns_run};

/* Private to navier_stokes/: the problem object shared by its files (system.c: the block
 * operator; schur.c: the preconditioner; solve.c: the nonlinear and linear iterations;
 * post.c: quantities and outputs). */
#ifndef FEAST_NS_PRIVATE_H
#define FEAST_NS_PRIVATE_H
#include "feast/bc.h"
#include "feast/expr.h"
#include "navier_stokes/forms.h"
#include "navier_stokes/ns.h"
#include "scarc/krylov.h"
#include "scarc/scarc.h"

enum { NS_U, NS_V, NS_P, NS_NFIELDS };

struct NsProblem {
  const FeastConfig *cfg;
  const FeastDomain *dom;
  int level;
  int stokes, newton, nullspace;
  double nu;
  FeastBC *bc[NS_NFIELDS];
  FeastMask *mask[NS_NFIELDS];
  FeastExpr *force[2], *exact[NS_NFIELDS];
  FeastBand9 *blk[NS_NBLOCKS];  /* blk[k][li]; A12, A21 only with Newton */
  FeastVec *h;                  /* right-hand side, consistent, Dirichlet values at fixed nodes */
  FeastVec *v;                  /* the iterate (u, v, p) */
  FeastVec *d, *c, *t;          /* defect, correction, work of the preconditioner */
  FeastVec *v_old;              /* the last iterate (line search) */
  FeastKrylovWork *work;        /* of the linear solver */
  FeastVec *mass;               /* lumped pressure mass, consistent (one block) */
  FeastVec *ones;               /* 1 everywhere (one block) */
  /* the preconditioner */
  ScarcParams *scarc_params;
  Scarc *scarc[2];              /* velocity blocks; scarc[1] == scarc[0] when shared */
  char velocity_method[16];
  FeastSolveParams velocity_sp;
  FeastFaultOp fault;
  FeastLinOp precond;           /* K_s (wrapped by the debug.inject hook) */
  long velocity_solves;
  double *linear_per_step;
};

/* system.c */
int ns_system_create(NsProblem *ns);
void ns_system_destroy(NsProblem *ns);
/* blocks and right-hand side at the linearisation velocity w (3-block vector), with the
 * Dirichlet rows and values of every field */
int ns_system_assemble(NsProblem *ns, const FeastVec *w);
/* y <- K x (x, y consistent 3-block vectors) */
int ns_system_apply(NsProblem *ns, const FeastVec *x, FeastVec *y);
/* remove the constant pressure mode: from a residual (Euclidean mean of the continuity
 * rows) or from a solution (lumped-mass mean, i.e. int p = 0) */
int ns_project_residual(const NsProblem *ns, FeastVec *r);
int ns_project_solution(const NsProblem *ns, FeastVec *x);

/* schur.c */
int ns_schur_create(NsProblem *ns);
void ns_schur_destroy(NsProblem *ns);
/* hand the velocity blocks of the last assembly to ScaRC (structures once, then values) */
int ns_schur_update(NsProblem *ns);
#endif

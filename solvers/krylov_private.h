/* The Krylov methods' shared parts (solvers/krylov_steps.c) as the methods' files see them
 * (richardson.c, cg.c, bicgstab.c, fgmres.c): the work vectors, the state of one solve, and
 * the steps every method is made of (counted operator applications, the stopping test,
 * the residual). Private to solvers/. */
#ifndef FEAST_KRYLOV_PRIVATE_H
#define FEAST_KRYLOV_PRIVATE_H
#include "solvers/krylov.h"
#include "feast/base/commstat.h"

enum { NEXTRA = 20 }; /* the pipelined methods' further vectors, made at their first use */

/* work vectors shared by the methods, each made at the first use of a method that needs
 * it (NEED): CG needs 4 of the 7, FGMRES only r and its basis */
typedef struct {
  const FeastDomain *dom;
  int level, nb;
  FeastVec *r, *z, *p, *q, *t, *rhat, *y;
  FeastVec *extra[NEXTRA];
  FeastVec **basis; /* fgmres: V_0..V_k+1 (two with single_basis), made at the first use */
  int nbasis;
  FeastVec **dirs; /* fgmres: Z_0..Z_k, made at the first use */
  int ndirs;
  FeastVecSingle **single; /* fgmres with single_basis: V_0..V_k+1 in single precision */
  int nsingle;
} Work;

struct FeastKrylovWork {
  Work w;
};

/* the first n extra vectors of w, created where missing */
int krylov_extras(Work *w, int n, FeastVec ***out);
/* the named vectors vecs[0..n) of w, those still missing made in one block */
int krylov_named(Work *w, int n, FeastVec **const vecs[]);
#define NEED(w, ...)                                                                           \
  do {                                                                                         \
    FeastVec **const need_[] = {__VA_ARGS__};                                                  \
    FEAST_CALL(krylov_named((w), (int)(sizeof need_ / sizeof need_[0]), need_));                      \
  } while (0)

#define WORK_VECTORS(w) {&(w)->r, &(w)->z, &(w)->p, &(w)->q, &(w)->t, &(w)->rhat, &(w)->y}

/* one solve: the operators, the data, and the communication counted in the iteration
 * loop (feast/base/commstat.h counts at the MPI call sites; the solve attributes the counts to
 * the operator, the preconditioner, or itself by taking differences around the calls) */
typedef struct {
  FeastLinOp A, M;
  const FeastVec *b;
  FeastVec *x;
  const FeastSolveParams *p;
  FeastSolveResult *res;
  Work *w;
  int in_loop;
  FeastCommCounts loop0, loop1, in_A, in_M; /* loop start/end; inside A and M in the loop */
} Solve;

typedef int (*Method)(Solve *S);

/* acc += b - a (reductions and exchanges) */
void krylov_counts_add(FeastCommCounts *acc, const FeastCommCounts *a, const FeastCommCounts *b);
/* y <- A x, y <- M x, their communication counted while in the loop */
int krylov_apply_A(Solve *S, const FeastVec *x, FeastVec *y);
int krylov_apply_M(Solve *S, const FeastVec *x, FeastVec *y);
/* the counted iteration loop begins */
void krylov_loop_begin(Solve *S);
/* the residual norm to reach: rtol times the reference norm, or ||r_0|| */
double krylov_tolerance(const Solve *S);
/* the common stopping test after iteration it (0: the start): 1 when the iteration must
 * stop, with the reason set */
int krylov_stop_test(Solve *S, double rnorm, int it);
/* stop with reason "breakdown" (or "nan" when the offending value is not finite); returns 0 */
int krylov_breakdown(Solve *S, double value, int it);
/* r <- b - A x */
int krylov_residual(Solve *S, FeastVec *r);
/* r <- b - A x_0 and its norm; *stop = 1 when x_0 already passes the stopping test */
int krylov_initial(Solve *S, FeastVec *r, double *rnorm, int *stop);
/* the true residual at a converged exit of a recurrence method: 1 confirms the stop, 0
 * goes on from r, minus an error code when A failed (krylov.c says more) */
int krylov_confirm_exit(Solve *S, FeastVec *r, int it, int *restarts);
/* a restart of a recurrence method from the true residual due after iteration it */
int krylov_replace_due(const Solve *S, int it, double rnorm, double *rmax);

/* the methods (the registry in krylov.c names them) */
int krylov_richardson(Solve *S);
int krylov_cg(Solve *S);
int krylov_bicgstab(Solve *S);
int krylov_ibicgstab(Solve *S);
int krylov_pipebicgsafe(Solve *S);
int krylov_fgmres(Solve *S);
#endif

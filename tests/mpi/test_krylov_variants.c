/* The communication-reducing Krylov methods against straightforward implementations of
 * the algorithms they are equivalent to, iterate by iterate: ibicgstab against classical
 * right-preconditioned BiCGStab (van der Vorst), pipebicgsafe against ssBiCGSafe2
 * (Fujino and Iwasato; Algorithm 1 of Huynh and Suito), from a zero and a nonzero start.
 * The system is small and nonsymmetric: on every node of a 4x4-macro grid (level 2) the
 * 2x2 block [a b; c d] with coefficients varying in space, coupled along x by a
 * nonsymmetric difference of the first field with its grid neighbours; M is the block
 * diagonal's diagonal (Jacobi, linear). The references here use only feast_vec_*; their
 * iterates are the double-precision values of the algorithms (a few ulps of rounding
 * apart from the recurrences, which reorder the arithmetic). Run at 1, 2 and 4 ranks
 * (ctest); identity of whole solves across rank counts is checked bitwise by
 * tests/run/test_krylov_systems.sh, whose runs print %.17g values. fgmres is checked
 * against GMRES by its definition (minimal residual over the Krylov space) and with a
 * preconditioner that changes at every application. An operator or preconditioner that
 * fails makes every method return its error. */
#include "feast/base/commstat.h"
#include "feast/parallel/domain.h"
#include "feast/base/error.h"
#include "feast/mesh/mesh.h"
#include "feast/la/vector.h"
#include "feast_test.h"
#include "solvers/krylov.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void coef(double x, double y, double k[4]) {
  k[0] = 2.0 + x;
  k[1] = 0.5 + y;
  k[2] = -0.3 - x * y;
  k[3] = 1.5 + y * y;
}

/* y <- K x: the 2x2 block per node plus, on the first field, 0.4 (x_u at the node to the
 * left) - 0.1 (x_u at the node to the right) inside each macro (a nonsymmetric coupling;
 * only macro-interior nodes get it, so the result stays consistent without exchange) */
static int apply_K(void *ctx, const FeastVec *x, FeastVec *y) {
  const FeastDomain *dom = x->dom;
  const FeastLevel *lev = &dom->levels[x->level];
  const int N = x->N;
  for (int li = 0; li < dom->nlocal; li++) {
    const double *xu = feast_vec_block(x, 0, li), *xv = feast_vec_block(x, 1, li);
    double *yu = feast_vec_block(y, 0, li), *yv = feast_vec_block(y, 1, li);
    for (int j = 0; j < N; j++)
      for (int i = 0; i < N; i++) {
        const long n = (long)j * N + i;
        double k[4];
        coef(lev->xy[li][2 * n], lev->xy[li][2 * n + 1], k);
        yu[n] = k[0] * xu[n] + k[1] * xv[n];
        yv[n] = k[2] * xu[n] + k[3] * xv[n];
        if (i > 0 && i < N - 1 && j > 0 && j < N - 1) yu[n] += 0.4 * xu[n - 1] - 0.1 * xu[n + 1];
      }
  }
  return 0;
}

/* y <- diag(K)^-1 x */
static int apply_M(void *ctx, const FeastVec *x, FeastVec *y) {
  const FeastDomain *dom = x->dom;
  const FeastLevel *lev = &dom->levels[x->level];
  const long nn = (long)x->N * x->N;
  for (int li = 0; li < dom->nlocal; li++)
    for (long n = 0; n < nn; n++) {
      double k[4];
      coef(lev->xy[li][2 * n], lev->xy[li][2 * n + 1], k);
      feast_vec_block(y, 0, li)[n] = feast_vec_block(x, 0, li)[n] / k[0];
      feast_vec_block(y, 1, li)[n] = feast_vec_block(x, 1, li)[n] / k[3];
    }
  return 0;
}

static const FeastLinOp K = {apply_K, NULL}, M = {apply_M, NULL};

/* a field of the coordinates (so every copy of a node agrees, on any partition) */
static void fill(FeastVec *v, double s) {
  const FeastLevel *lev = &v->dom->levels[v->level];
  const long nn = (long)v->N * v->N;
  for (int b = 0; b < v->nb; b++)
    for (int li = 0; li < v->nlocal; li++)
      for (long n = 0; n < nn; n++) {
        const double x = lev->xy[li][2 * n], y = lev->xy[li][2 * n + 1];
        feast_vec_block(v, b, li)[n] = s * sin(3.1 * x + 1.7 * y + b + s) + (s == 0 ? 1.0 : 0.0) * (1 + x - y);
      }
}

static double dot(const FeastVec *a, const FeastVec *b) {
  double d = 0;
  feast_vec_dot(a, b, &d);
  return d;
}

enum { KMAX = 10 };

typedef struct {
  FeastVec *v[2 * KMAX + 5];
} Vecs;

/* classical right-preconditioned BiCGStab, straight from van der Vorst's paper (B = K M):
 * xs[k] = x after k iterations, k = 0..kmax */
static void ref_bicgstab(const FeastVec *b, FeastVec **xs, int kmax, Vecs *w) {
  FeastVec *x = w->v[0], *r = w->v[1], *rs = w->v[2], *p = w->v[3], *v = w->v[4], *s = w->v[5], *t = w->v[6],
           *Mp = w->v[7], *Ms = w->v[8];
  feast_vec_copy(xs[0], x);
  apply_K(NULL, x, r);
  feast_vec_aypx(-1.0, b, r);
  feast_vec_copy(r, rs);
  feast_vec_zero(p);
  feast_vec_zero(v);
  double rho = 1, alpha = 1, om = 1;
  for (int k = 1; k <= kmax; k++) {
    const double rho1 = dot(rs, r), beta = rho1 / rho * alpha / om;
    rho = rho1;
    feast_vec_axpy(-om, v, p);
    feast_vec_aypx(beta, r, p);
    apply_M(NULL, p, Mp);
    apply_K(NULL, Mp, v);
    alpha = rho / dot(rs, v);
    feast_vec_copy(r, s);
    feast_vec_axpy(-alpha, v, s);
    apply_M(NULL, s, Ms);
    apply_K(NULL, Ms, t);
    om = dot(t, s) / dot(t, t);
    feast_vec_axpy(alpha, Mp, x);
    feast_vec_axpy(om, Ms, x);
    feast_vec_copy(s, r);
    feast_vec_axpy(-om, t, r);
    feast_vec_copy(x, xs[k]);
  }
}

/* ssBiCGSafe2 (Algorithm 1 of Huynh and Suito) with B = K M, x += M (alpha p + z) */
static void ref_bicgsafe(const FeastVec *b, FeastVec **xs, int kmax, Vecs *w) {
  FeastVec *x = w->v[0], *r = w->v[1], *rs = w->v[2], *p = w->v[3], *Ar = w->v[4], *Ap = w->v[5], *u = w->v[6],
           *Au = w->v[7], *t = w->v[8], *y = w->v[9], *z = w->v[10], *tmp = w->v[11], *tmp2 = w->v[12];
  feast_vec_copy(xs[0], x);
  apply_K(NULL, x, r);
  feast_vec_aypx(-1.0, b, r);
  feast_vec_copy(r, rs);
  FeastVec *zero[] = {p, u, t, y, z};
  for (int i = 0; i < 5; i++) feast_vec_zero(zero[i]);
  double alpha_old = 0, zeta_old = 0, f_old = 0;
  for (int i = 0; i < kmax; i++) {
    apply_M(NULL, r, tmp);
    apply_K(NULL, tmp, Ar);
    const double a = dot(Ar, Ar), bb = dot(y, y), c = dot(Ar, y), d = dot(Ar, r), e = dot(y, r), f = dot(rs, r),
                 g = dot(rs, Ar), h = dot(rs, t);
    double beta = 0, alpha, zeta, eta = 0;
    if (i == 0) {
      alpha = f / g;
      zeta = d / a;
    } else {
      beta = alpha_old * f / (zeta_old * f_old);
      alpha = f / (g + beta * h);
      zeta = (bb * d - c * e) / (a * bb - c * c);
      eta = (a * e - c * d) / (a * bb - c * c);
    }
    feast_vec_axpy(-1.0, u, p); /* p = r + beta (p - u) */
    feast_vec_aypx(beta, r, p);
    feast_vec_copy(Ar, Ap); /* Ap = Ar + beta t */
    feast_vec_axpy(beta, t, Ap);
    feast_vec_aypx(beta, y, u); /* u = zeta Ap + eta (y + beta u) */
    feast_vec_scale(eta, u);
    feast_vec_axpy(zeta, Ap, u);
    apply_M(NULL, u, tmp);
    apply_K(NULL, tmp, Au);
    feast_vec_copy(Ap, t); /* t = Ap - Au */
    feast_vec_axpy(-1.0, Au, t);
    feast_vec_scale(eta, z); /* z = zeta r + eta z - alpha u */
    feast_vec_axpy(zeta, r, z);
    feast_vec_axpy(-alpha, u, z);
    feast_vec_scale(eta, y); /* y = zeta Ar + eta y - alpha Au */
    feast_vec_axpy(zeta, Ar, y);
    feast_vec_axpy(-alpha, Au, y);
    feast_vec_copy(z, tmp2); /* x += M (alpha p + z) */
    feast_vec_axpy(alpha, p, tmp2);
    apply_M(NULL, tmp2, tmp);
    feast_vec_axpy(1.0, tmp, x);
    feast_vec_axpy(-alpha, Ap, r); /* r = r - alpha Ap - y */
    feast_vec_axpy(-1.0, y, r);
    alpha_old = alpha, zeta_old = zeta, f_old = f;
    feast_vec_copy(x, xs[i + 1]);
  }
}

/* max over nodes |a - b| / max |b| */
static double rel_diff(const FeastVec *a, const FeastVec *b, FeastVec *tmp) {
  feast_vec_copy(a, tmp);
  feast_vec_axpy(-1.0, b, tmp);
  return sqrt(dot(tmp, tmp) / dot(b, b));
}

/* the registry's method called name */
static FeastKrylovMethod by_name(const char *name) {
  FeastKrylovMethod m = FEAST_KRYLOV_RICHARDSON;
  CHECK_OK(feast_krylov_method_from_name(name, &m));
  return m;
}

static void check_method(const char *method, const FeastVec *b, FeastVec **ref, Vecs *w, double tol) {
  FeastSolveParams sp = {.rtol = 1e-300, .max_iterations = 1, .divergence_factor = 1e300, .label = method};
  FeastKrylovWork *work = NULL;
  CHECK_OK(feast_krylov_work_create(b, &work));
  double worst = 0;
  for (int k = 1; k <= KMAX; k++) {
    sp.max_iterations = k;
    FeastSolveResult res;
    feast_vec_copy(ref[0], w->v[13]);
    CHECK_OK(feast_krylov_solve(by_name(method), K, M, b, w->v[13], &sp, work, &res));
    CHECK(res.iterations == k);
    const double d = rel_diff(w->v[13], ref[k], w->v[14]);
    worst = fmax(worst, d);
    if (!(d <= tol)) fprintf(stderr, "%s: iterate %d differs from the reference by %.3e\n", method, k, d);
    CHECK(d <= tol);
    if (strcmp(method, "bicgstab") != 0) CHECK(res.reductions_per_iteration == 1.0);
    else CHECK(res.reductions_per_iteration >= 4.0 && res.reductions_per_iteration <= 5.0);
    CHECK(res.exchanges_per_iteration == 0.0); /* the test operator exchanges nothing */
  }
  if (feast_test_rank() == 0) printf("  %-13s max relative deviation over %d iterates %.2e\n", method, KMAX, worst);
  feast_krylov_work_destroy(&work);
}

/* a solve to convergence: the true residual meets the tolerance */
static void check_converges(const char *method, const FeastVec *b, const FeastVec *x0, Vecs *w, int *its) {
  FeastSolveParams sp = {.rtol = 1e-10, .max_iterations = 500, .divergence_factor = 1e30, .label = method};
  FeastSolveResult res;
  feast_vec_copy(x0, w->v[13]);
  CHECK_OK(feast_krylov_solve(by_name(method), K, M, b, w->v[13], &sp, NULL, &res));
  CHECK(res.converged);
  apply_K(NULL, w->v[13], w->v[14]);
  feast_vec_aypx(-1.0, b, w->v[14]);
  CHECK(sqrt(dot(w->v[14], w->v[14])) <= 1.0001e-10 * res.initial_residual);
  *its = res.iterations;
  if (feast_test_rank() == 0) printf("  %-13s converged in %d iterations\n", method, res.iterations);
}

/* GMRES's k-th iterate by its definition, x_k = x_0 + M Q y with Q an orthonormal basis
 * of the Krylov space span{r_0, B r_0, ..., B^{k-1} r_0} (B = K M; modified Gram-Schmidt)
 * and y minimising ||r_0 - B Q y|| through the normal equations (W = B Q, k <= KMAX:
 * small and well conditioned here) */
static void ref_gmres(const FeastVec *b, const FeastVec *x0, int k, FeastVec *x, Vecs *w) {
  FeastVec **Q = w->v, **W = w->v + KMAX, *r = w->v[2 * KMAX], *tmp = w->v[2 * KMAX + 1];
  apply_K(NULL, x0, r);
  feast_vec_aypx(-1.0, b, r);
  for (int j = 0; j < k; j++) {
    if (j == 0) feast_vec_copy(r, Q[0]);
    else apply_M(NULL, Q[j - 1], tmp), apply_K(NULL, tmp, Q[j]);
    for (int i = 0; i < j; i++) feast_vec_axpy(-dot(Q[i], Q[j]), Q[i], Q[j]);
    feast_vec_scale(1.0 / sqrt(dot(Q[j], Q[j])), Q[j]);
    apply_M(NULL, Q[j], tmp);
    apply_K(NULL, tmp, W[j]);
  }
  double N[KMAX][KMAX + 1];
  for (int i = 0; i < k; i++) {
    for (int j = 0; j < k; j++) N[i][j] = dot(W[i], W[j]);
    N[i][k] = dot(W[i], r);
  }
  for (int c = 0; c < k; c++) /* Gaussian elimination (SPD: no pivoting) */
    for (int i = c + 1; i < k; i++)
      for (int j = k; j >= c; j--) N[i][j] -= N[i][c] / N[c][c] * N[c][j];
  double y[KMAX];
  for (int i = k - 1; i >= 0; i--) {
    y[i] = N[i][k];
    for (int j = i + 1; j < k; j++) y[i] -= N[i][j] * y[j];
    y[i] /= N[i][i];
  }
  feast_vec_zero(tmp);
  for (int i = 0; i < k; i++) feast_vec_axpy(y[i], Q[i], tmp);
  apply_M(NULL, tmp, r);
  feast_vec_copy(x0, x);
  feast_vec_axpy(1.0, r, x);
}

/* y <- s diag(K)^-1 x with s = 1, 1.5, 2, 1, ...: a preconditioner that changes at every
 * application (as ScaRC stopped at a tolerance does), which flexible GMRES must absorb */
static long varying_calls;
static int apply_M_varying(void *ctx, const FeastVec *x, FeastVec *y) {
  apply_M(ctx, x, y);
  feast_vec_scale(1.0 + 0.5 * (double)(varying_calls++ % 3), y);
  return 0;
}

/* ||b - K x|| */
static double true_residual(const FeastVec *b, const FeastVec *x, FeastVec *tmp) {
  apply_K(NULL, x, tmp);
  feast_vec_aypx(-1.0, b, tmp);
  return sqrt(dot(tmp, tmp));
}

/* fgmres: with the fixed M its iterates are GMRES's (the reference above); with a varying
 * M the residual it reports is the true one and never grows, and restarted solves
 * (m = 5) converge with the true residual at the tolerance */
/* FGMRES(5) with a preconditioner that changes at every application (single_basis: its
 * basis in single precision) converges to 1e-10, checked by the true residual; its iterations */
static int check_fgmres_varying(const FeastVec *b, const FeastVec *x0, int single_basis, FeastVec *x, FeastVec *tmp) {
  const FeastSolveParams sp = {.rtol = 1e-10, .max_iterations = 500, .divergence_factor = 1e30, .label = "fgmres",
                               .restart = 5, .single_basis = single_basis};
  FeastSolveResult res;
  varying_calls = 0;
  feast_vec_copy(x0, x);
  CHECK_OK(feast_krylov_solve(FEAST_KRYLOV_FGMRES, K, (FeastLinOp){apply_M_varying, NULL}, b, x, &sp, NULL, &res));
  CHECK(res.converged);
  CHECK(true_residual(b, x, tmp) <= 1.0001e-10 * res.initial_residual);
  return res.iterations;
}

static void check_fgmres(const FeastVec *b, const FeastVec *x0, Vecs *w) {
  FeastSolveParams sp = {.rtol = 1e-300, .divergence_factor = 1e300, .label = "fgmres", .restart = KMAX};
  FeastVec *x = w->v[2 * KMAX + 2], *xr = w->v[2 * KMAX + 3], *tmp = w->v[2 * KMAX + 4]; /* apart from ref_gmres's */
  double worst = 0, last = INFINITY;
  for (int k = 1; k <= KMAX; k++) {
    FeastSolveResult res;
    sp.max_iterations = k;
    feast_vec_copy(x0, x);
    CHECK_OK(feast_krylov_solve(FEAST_KRYLOV_FGMRES, K, M, b, x, &sp, NULL, &res));
    CHECK(res.iterations == k);
    CHECK(res.reductions_per_iteration == 3.0);
    ref_gmres(b, x0, k, xr, w);
    worst = fmax(worst, rel_diff(x, xr, tmp));
    varying_calls = 0;
    feast_vec_copy(x0, x);
    CHECK_OK(feast_krylov_solve(FEAST_KRYLOV_FGMRES, K, (FeastLinOp){apply_M_varying, NULL}, b, x, &sp, NULL, &res));
    const double rt = true_residual(b, x, tmp);
    CHECK(fabs(rt - res.final_residual) <= 1e-8 * res.initial_residual);
    CHECK(res.final_residual <= last);
    last = res.final_residual;
  }
  if (feast_test_rank() == 0) printf("  %-13s max relative deviation from GMRES over %d iterates %.2e\n", "fgmres", KMAX, worst);
  CHECK(worst <= 1e-12);
  const int its = check_fgmres_varying(b, x0, 0, x, tmp);
  if (feast_test_rank() == 0) printf("  %-13s FGMRES(5), varying M: converged in %d iterations\n", "fgmres", its);
}

/* FeastSolveParams.single_basis: the single-precision kernels give the bits of the double
 * ones on the basis rounded to float (the same lanes and order: bitwise at every rank
 * count), and FGMRES with the single basis is GMRES to the float rounding of its basis
 * (iterates within 1e-5 of the double basis's) and converges to 1e-10 with a varying M */
static void check_single_basis(const FeastVec *b, const FeastVec *x0, Vecs *w) {
  enum { NU = 6 };
  FeastVecSingle *U[NU];
  FeastVec *R[NU], *y = w->v[2 * KMAX + 2], *y2 = w->v[2 * KMAX + 3], *tmp = w->v[2 * KMAX + 4];
  for (int i = 0; i < NU; i++) {
    CHECK_OK(feast_vec_single_create(b->dom, b->level, b->nb, &U[i]));
    R[i] = w->v[i];
    fill(R[i], 0.1 * i - 0.25); /* fill's field, shifted: six different vectors */
    feast_vec_single_store(R[i], U[i]);
    for (int a = 0; a < R[i]->nb * R[i]->nlocal; a++) /* R_i <- its float rounding, widened */
      for (long n = 0; n < (long)R[i]->N * R[i]->N; n++) R[i]->host[a][n] = (double)U[i]->host[a][n];
  }
  double ds[NU], dd[NU], a[NU];
  const FeastVec *ys[NU];
  for (int i = 0; i < NU; i++) ys[i] = b, a[i] = 0.3 - 0.1 * i;
  CHECK_OK(feast_vec_single_dots(NU, (const FeastVecSingle *const *)U, b, ds));
  CHECK_OK(feast_vec_dots(NU, (const FeastVec *const *)R, ys, dd));
  CHECK(memcmp(ds, dd, sizeof ds) == 0);
  feast_vec_copy(b, y);
  feast_vec_copy(b, y2);
  feast_vec_single_maxpy(NU, a, (const FeastVecSingle *const *)U, y);
  feast_vec_maxpy(NU, a, (const FeastVec *const *)R, y2);
  CHECK(rel_diff(y, y2, tmp) == 0.0);
  for (int i = 0; i < NU; i++) feast_vec_single_destroy(&U[i]);
  /* FGMRES(KMAX) iterates with the single basis against the double basis's */
  FeastSolveParams sp = {.rtol = 1e-300, .divergence_factor = 1e300, .restart = KMAX};
  double worst = 0.0;
  for (int k = 1; k <= KMAX; k++) {
    FeastSolveResult res;
    sp.max_iterations = k;
    sp.single_basis = 0;
    feast_vec_copy(x0, y);
    CHECK_OK(feast_krylov_solve(FEAST_KRYLOV_FGMRES, K, M, b, y, &sp, NULL, &res));
    sp.single_basis = 1;
    feast_vec_copy(x0, y2);
    CHECK_OK(feast_krylov_solve(FEAST_KRYLOV_FGMRES, K, M, b, y2, &sp, NULL, &res));
    CHECK(res.iterations == k);
    worst = fmax(worst, rel_diff(y2, y, tmp));
  }
  CHECK(worst > 0.0 && worst <= 1e-5);
  const int its = check_fgmres_varying(b, x0, 1, y, tmp);
  if (feast_test_rank() == 0)
    printf("  %-13s single basis: kernels bitwise, iterates within %.1e of the double basis, FGMRES(5) "
           "varying M converged in %d\n", "fgmres", worst, its);
}

/* an operator or preconditioner that fails at its fail_at-th application: every method
 * returns the failure's code, whether it comes in the initial residual or in the loop
 * (before, the initial residual's failure read as "stop" and the solve returned 0) */
typedef struct {
  FeastLinOp op;
  long calls, fail_at;
} Failing;

static int apply_failing(void *ctx, const FeastVec *x, FeastVec *y) {
  Failing *f = ctx;
  if (++f->calls == f->fail_at) FEAST_ERROR(FEAST_ERR_SOLVER, "planted failure at application %ld", f->calls);
  return f->op.apply(f->op.ctx, x, y);
}

static void check_failures_propagate(const FeastVec *b, Vecs *w) {
  FeastSolveParams sp = {.rtol = 1e-10, .max_iterations = 50, .divergence_factor = 1e30};
  for (int m = 0; m < FEAST_KRYLOV_NMETHODS; m++)
    for (int which = 0; which < 2; which++) { /* 0: the operator fails, 1: the preconditioner */
      Failing count = {which ? M : K, 0, 0}; /* a run without failure counts the applications */
      const FeastLinOp counted = {apply_failing, &count};
      FeastSolveResult res;
      feast_vec_zero(w->v[13]);
      CHECK_OK(feast_krylov_solve((FeastKrylovMethod)m, which ? K : counted, which ? counted : M, b, w->v[13], &sp,
                                  NULL, &res));
      /* the first, the third and the last application (the last of A: the confirmed exit's
       * true residual where the method has one) */
      const long at_list[3] = {1, 3, count.calls};
      for (int t = 0; t < 3; t++) {
        const long at = at_list[t];
        Failing f = {which ? M : K, 0, at};
        const FeastLinOp planted = {apply_failing, &f};
        feast_vec_zero(w->v[13]);
        const int st = feast_krylov_solve((FeastKrylovMethod)m, which ? K : planted, which ? planted : M, b, w->v[13],
                                          &sp, NULL, &res);
        if (st != FEAST_ERR_SOLVER)
          fprintf(stderr, "%s: the %s failing at application %ld returned %d\n", feast_krylov_method_name(m),
                  which ? "preconditioner" : "operator", at, st);
        CHECK(st == FEAST_ERR_SOLVER);
        feast_error_clear();
      }
    }
  if (feast_test_rank() == 0) printf("  every method returns a failing operator's or preconditioner's error\n");
}

static int run(void) {
  FeastMesh *mesh = NULL;
  FeastDomain *dom = NULL;
  CHECK_OK(feast_mesh_read("grids/square4x4.feast", NULL, &mesh));
  if (!mesh) return 1;
  CHECK_OK(feast_domain_create(mesh, 2, MPI_COMM_WORLD, &dom));
  if (!dom) return 1;
  Vecs w;
  for (int i = 0; i < 2 * KMAX + 5; i++) CHECK_OK(feast_vec_create(dom, 2, 2, &w.v[i]));
  FeastVec *b, *ref[KMAX + 1];
  CHECK_OK(feast_vec_create(dom, 2, 2, &b));
  for (int k = 0; k <= KMAX; k++) CHECK_OK(feast_vec_create(dom, 2, 2, &ref[k]));
  fill(b, 0.0);
  for (int start = 0; start < 2; start++) {
    if (start) fill(ref[0], 0.37); /* a nonzero start */
    else feast_vec_zero(ref[0]);
    if (feast_test_rank() == 0) printf("%s start\n", start ? "nonzero" : "zero");
    ref_bicgstab(b, ref, KMAX, &w);
    check_method("bicgstab", b, ref, &w, 1e-13);
    check_method("ibicgstab", b, ref, &w, 1e-10);
    ref_bicgsafe(b, ref, KMAX, &w);
    check_method("pipebicgsafe", b, ref, &w, 1e-10);
    int its[3];
    check_converges("bicgstab", b, ref[0], &w, &its[0]);
    check_converges("ibicgstab", b, ref[0], &w, &its[1]);
    check_converges("pipebicgsafe", b, ref[0], &w, &its[2]);
    CHECK(its[1] <= its[0] * 1.15 + 1);
    check_fgmres(b, ref[0], &w);
    check_single_basis(b, ref[0], &w);
  }
  check_failures_propagate(b, &w);
  for (int i = 0; i < 2 * KMAX + 5; i++) feast_vec_destroy(&w.v[i]);
  for (int k = 0; k <= KMAX; k++) feast_vec_destroy(&ref[k]);
  feast_vec_destroy(&b);
  feast_domain_destroy(&dom);
  feast_mesh_destroy(&mesh);
  return 0;
}

FEAST_TEST_MAIN(run)

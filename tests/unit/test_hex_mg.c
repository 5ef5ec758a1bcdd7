/* The local multigrid of a hexahedral macro (coproc/hex_mg.h; issue #47), on
 * -Laplace u = f with Dirichlet values (eliminated: the symmetric system):
 *  - as a solver (V(4,4) cycles to 1e-8, double) and as the preconditioner of CG (one
 *    V(2,2) cycle, double and single: single at most one iteration more), the counts independent of the level (3..5; bench_poisson3d goes on to 7)
 *    on the unit cube and on a twisted hexahedron;
 *  - its solution is the system's: the residual of the result below 1e-8 relative, and
 *    the Q1 solution's L2 error of order 2;
 *  - the same with Dirichlet values on one face only, natural conditions on the others;
 *  - on cells of aspect ratio 2 the damping comes down from 0.7 (where Jacobi would
 *    diverge) and CG converges;
 *  - bad input: a 9-band matrix, a missing mask, coarse_max_dofs above the cap, an
 *    unknown precision, a singular coarsest matrix: one error each. */
#include "coproc/hex_mg.h"
#include "feast/base/error.h"
#include "feast/fem/q1_hex.h"
#include "feast/mesh/hex.h"
#include "feast_test.h"
#include "solvers/band_cg.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>


static void u_exact(long n, const double *x, const double *y, const double *z, void *ctx, double *v) {
  for (long q = 0; q < n; q++) v[q] = sin(x[q]) * exp(y[q]) * (1 + z[q] * z[q]);
}
static void f_exact(long n, const double *x, const double *y, const double *z, void *ctx, double *v) {
  for (long q = 0; q < n; q++) v[q] = -2 * sin(x[q]) * exp(y[q]);
}

static const FeastLocalMGParams solver_params = {4, 4, 0.7, 1e-8, 60, 200, 0, 0, 0};

/* one level's Poisson problem: the eliminated system A u = b, the face masks of every
 * level up to L, the exact nodal values */
typedef struct {
  int L, N;
  long n;
  FeastBand A;
  double *xyz, *b, *ue;
  unsigned char *fixed[FEAST_MAX_LEVEL + 1];
} Poisson;

/* the Dirichlet nodes of an N^3 grid: every face, or (bottom_only) the face z = 0 alone,
 * the others natural */
static int bottom_only = 0;
static unsigned char *faces(int N) {
  unsigned char *f = malloc((size_t)N * N * N);
  feast_hex_face_nodes(N, bottom_only ? FEAST_HEX_FACE_Z0 : FEAST_HEX_FACES, f);
  return f;
}

static int poisson(const double corner[8][3], int L, Poisson *p) {
  memset(p, 0, sizeof *p);
  p->L = L, p->N = (1 << L) + 1, p->n = (long)p->N * p->N * p->N;
  for (int l = 0; l <= L; l++) p->fixed[l] = faces((1 << l) + 1);
  FEAST_CALL(FEAST_ALLOC(3 * p->n, &p->xyz));
  FEAST_CALL(FEAST_ALLOC(p->n, &p->b));
  FEAST_CALL(FEAST_ALLOC(p->n, &p->ue));
  feast_hex_macro_coords(p->N, corner, p->xyz);
  FEAST_CALL(feast_band_create(&feast_stencil_q1_3d, p->N, &p->A));
  FEAST_CALL(feast_q1_hex_assemble(p->N, p->xyz, 0, feast_q1_hex_form_laplace, NULL, 2, &p->A));
  FEAST_CALL(feast_q1_hex_assemble_rhs(p->N, p->xyz, 0, f_exact, NULL, 3, p->b));
  for (long r = 0; r < p->n; r++) u_exact(1, &p->xyz[3 * r], &p->xyz[3 * r + 1], &p->xyz[3 * r + 2], NULL, &p->ue[r]);
  feast_band_eliminate_fixed(&p->A, p->fixed[L], p->ue, p->b);
  return 0;
}

static void poisson_free(Poisson *p) {
  feast_band_destroy(&p->A);
  free(p->xyz), free(p->b), free(p->ue);
  for (int l = 0; l <= p->L; l++) free(p->fixed[l]);
}

static double dot(long n, const double *a, const double *b) {
  double s = 0.0;
  for (long i = 0; i < n; i++) s += a[i] * b[i];
  return s;
}

/* ||b - A x|| / ||b|| */
static double relres(const Poisson *p, const double *x) {
  double *y;
  if (feast_band_vec_alloc(&p->A, &y)) return HUGE_VAL;
  feast_band_apply(&p->A, x, y);
  double rr = 0.0;
  for (long i = 0; i < p->n; i++) rr += (p->b[i] - y[i]) * (p->b[i] - y[i]);
  feast_band_vec_free(&p->A, &y);
  return sqrt(rr / dot(p->n, p->b, p->b));
}

/* the multigrid as a solver: x = A^-1 b to 1e-8 (the fixed values added back); the cycles */
static long mg_solve(const Poisson *p, double *x) {
  FeastHexMG *mg;
  FeastLocalMGStats st = {0};
  CHECK_OK(feast_hex_mg_setup(&p->A, p->L, (const unsigned char *const *)p->fixed, "double", &solver_params, &mg));
  CHECK_OK(feast_hex_mg_solve(mg, p->b, x, &st));
  CHECK(st.max_cycles_hit == 0 && st.nonfinite == 0);
  for (long i = 0; i < p->n; i++)
    if (p->fixed[p->L][i]) x[i] = p->b[i];
  feast_hex_mg_destroy(&mg);
  return st.cycles;
}

static double last_damping; /* the finest level's damping of the last mg_pcg */

/* CG preconditioned by one V(2,2) cycle (in precision) to 1e-8, x = 0 but the fixed
 * values; its iterations */
static int mg_pcg(const Poisson *p, const char *precision, double *x) {
  const FeastLocalMGParams prm = {2, 2, 0.7, 1e-8, 1, 200, 0, 0, 0};
  FeastHexMG *mg;
  CHECK_OK(feast_hex_mg_setup(&p->A, p->L, (const unsigned char *const *)p->fixed, precision, &prm, &mg));
  CHECK(strcmp(feast_hex_mg_precision(mg), strcmp(precision, "double") ? "single" : "double") == 0);
  for (long i = 0; i < p->n; i++) x[i] = p->fixed[p->L][i] ? p->b[i] : 0.0;
  FeastBandCGStats st = {0};
  CHECK_OK(feast_band_cg(&p->A, p->fixed[p->L], p->b, x, 1e-8, 100, feast_hex_mg_precondition, mg, &st));
  last_damping = feast_hex_mg_damping(mg, p->L);
  feast_hex_mg_destroy(&mg);
  return st.iterations;
}

static void check_levels(const char *name, const double corner[8][3]) {
  long cycles[8];
  int its[8], its_single[8];
  double err[8];
  for (int L = 2; L <= 5; L++) {
    Poisson p;
    CHECK_OK(poisson(corner, L, &p));
    double *x, *y;
    CHECK_OK(feast_band_vec_alloc(&p.A, &x));
    CHECK_OK(feast_band_vec_alloc(&p.A, &y));
    cycles[L] = mg_solve(&p, x);
    CHECK(relres(&p, x) <= 1e-8);
    its[L] = mg_pcg(&p, "double", y);
    CHECK(relres(&p, y) <= 1e-8);
    its_single[L] = mg_pcg(&p, "auto", y); /* auto: single, as the 2D local multigrids */
    CHECK(relres(&p, y) <= 1e-8);
    double e2, n2;
    CHECK_OK(feast_q1_hex_l2_error(p.N, p.xyz, x, u_exact, NULL, 3, &e2, &n2));
    err[L] = sqrt(e2 / n2);
    printf("%s L%d: %ld unknowns, MG %ld cycles, MG-PCG %d iterations (single %d), L2 error %.3e\n", name, L, p.n,
           cycles[L], its[L], its_single[L], err[L]);
    feast_band_vec_free(&p.A, &x), feast_band_vec_free(&p.A, &y);
    poisson_free(&p);
  }
  for (int L = 3; L <= 5; L++) { /* level independence: within 2 of level 3's counts */
    CHECK(cycles[L] <= cycles[3] + 2 && cycles[L] <= 16);
    CHECK(its[L] <= its[3] + 2 && its[L] <= 12);
    CHECK(its_single[L] <= its[L] + 1);
  }
  CHECK(log2(err[4] / err[5]) > 1.9);
}

/* Dirichlet values on one face only (natural conditions on the five others): CG with
 * one V(2,2) cycle, level-independent as well */
static void check_one_face(void) {
  bottom_only = 1;
  int its[8];
  for (int L = 3; L <= 5; L++) {
    Poisson p;
    CHECK_OK(poisson(feast_test_twisted_hex, L, &p));
    double *x;
    CHECK_OK(feast_band_vec_alloc(&p.A, &x));
    its[L] = mg_pcg(&p, "auto", x);
    CHECK(relres(&p, x) <= 1e-8);
    printf("twisted hexahedron, Dirichlet on z = 0 only, L%d: MG-PCG %d iterations\n", L, its[L]);
    feast_band_vec_free(&p.A, &x);
    poisson_free(&p);
  }
  CHECK(its[5] <= its[3] + 2 && its[5] <= 12);
  bottom_only = 0;
}

/* The box [0,1]^2 x [0,1/2]: cells of aspect ratio 2, where rho(D^-1 A) = 3 and the
 * damping 0.7 of cubes would make Jacobi diverge (CG broke down); the estimate lowers it
 * (to 1.5 / rho = 0.5, a little more from the estimate) and CG converges, in 8-10
 * iterations. On the cube the damping stays 0.7. */
static void check_stretched(void) {
  double box[8][3];
  memcpy(box, feast_test_unit_cube, sizeof box);
  for (int c = 4; c < 8; c++) box[c][2] = 0.5;
  for (int L = 3; L <= 5; L++) {
    Poisson p;
    CHECK_OK(poisson(box, L, &p));
    double *x;
    CHECK_OK(feast_band_vec_alloc(&p.A, &x));
    const int its = mg_pcg(&p, "auto", x);
    CHECK(relres(&p, x) <= 1e-8 && its <= 12);
    CHECK(last_damping > 0.45 && last_damping < 0.6);
    printf("box of aspect ratio 2, L%d: MG-PCG %d iterations, damping %.3f\n", L, its, last_damping);
    feast_band_vec_free(&p.A, &x);
    poisson_free(&p);
  }
  Poisson p;
  CHECK_OK(poisson(feast_test_unit_cube, 4, &p));
  double *x;
  CHECK_OK(feast_band_vec_alloc(&p.A, &x));
  mg_pcg(&p, "auto", x);
  CHECK(last_damping == 0.7);
  feast_band_vec_free(&p.A, &x);
  poisson_free(&p);
}

static void check_bad_input(void) {
  Poisson p;
  CHECK_OK(poisson(feast_test_unit_cube, 3, &p));
  FeastHexMG *mg = NULL;
  FeastBand9 A9;
  CHECK_OK(feast_band9_create(9, &A9));
  FeastBand wrong = {&feast_stencil_q1_2d, 9, {NULL}};
  memcpy(wrong.band, A9.band, sizeof A9.band);
  CHECK(feast_hex_mg_setup(&wrong, 3, (const unsigned char *const *)p.fixed, "double", &solver_params, &mg) ==
        FEAST_ERR_ARG);
  CHECK(strstr(feast_error_message(), "27 bands and N = 9") != NULL && mg == NULL);
  feast_error_clear();
  feast_band9_destroy(&A9);
  const unsigned char *holes[4] = {p.fixed[0], NULL, p.fixed[2], p.fixed[3]};
  CHECK(feast_hex_mg_setup(&p.A, 3, holes, "double", &solver_params, &mg) == FEAST_ERR_ARG);
  CHECK(strstr(feast_error_message(), "no fixed mask on level 1") != NULL);
  feast_error_clear();
  FeastLocalMGParams big = solver_params;
  big.coarse_max_dofs = 2000;
  CHECK(feast_hex_mg_setup(&p.A, 3, (const unsigned char *const *)p.fixed, "double", &big, &mg) == FEAST_ERR_CONFIG);
  CHECK(strstr(feast_error_message(), "solver.local_coarse_max_dofs = 2000") != NULL);
  feast_error_clear();
  CHECK(feast_hex_mg_setup(&p.A, 3, (const unsigned char *const *)p.fixed, "half", &solver_params, &mg) ==
        FEAST_ERR_CONFIG);
  CHECK(strstr(feast_error_message(), "solver.local_precision = 'half'") != NULL);
  feast_error_clear();
  for (int k = 0; k < 27; k++) memset(p.A.band[k], 0, sizeof(double) * p.n); /* no fixed rows either */
  CHECK(feast_hex_mg_setup(&p.A, 3, (const unsigned char *const *)p.fixed, "single", &solver_params, &mg) ==
        FEAST_ERR_SOLVER);
  CHECK(strstr(feast_error_message(), "coarsest matrix (level 2, 125 nodes) is singular") != NULL && mg == NULL);
  feast_error_clear();
  poisson_free(&p);
}

static int run(void) {
  check_levels("unit cube", feast_test_unit_cube);
  check_levels("twisted hexahedron", feast_test_twisted_hex);
  check_one_face();
  check_stretched();
  check_bad_input();
  return 0;
}

FEAST_TEST_MAIN(run)

/* 3D Poisson on one hexahedral macro (issue #47): -Laplace u = f on the unit cube (or a
 * twisted hexahedron), u = sin(x) cos(y) (1 + z^2) with its Dirichlet values (f and u
 * vectorised: feast/base/vecmath.h), Q1 at level L
 * ((2^L + 1)^3 nodes), solved to ||b - A x|| <= 1e-8 ||b|| from x = 0 (as
 * bench/amg/bench_boomeramg counts) by CG preconditioned with one V(2,2) cycle of the
 * hexahedral local multigrid (coproc/hex_mg.h) in single and in double precision, and
 * by the multigrid alone (V(4,4) cycles, double). Prints one table row per solver with the times of assembly (matrix,
 * right-hand side, elimination of the Dirichlet values), setup and solve, the counts and
 * the L2 error; with --mtx PREFIX it also writes the eliminated system as PREFIX.mtx and
 * PREFIX_rhs.mtx for bench_boomeramg.
 * --box Z: the box [0,1]^2 x [0,Z] instead (cells of aspect ratio 1/Z: point Jacobi's
 * known weakness).
 * usage: bench_poisson3d L [--twisted | --box Z] [--mtx PREFIX] */
#include "coproc/hex_mg.h"
#include "feast/base/error.h"
#include "feast/base/log.h"
#include "feast/base/vecmath.h"
#include "feast/fem/q1_hex.h"
#include "feast/io/mtx.h"
#include "feast/mesh/hex.h"
#include "solvers/band_cg.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const double unit_cube[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},
                                       {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
static const double twisted[8][3] = {{0, 0, 0},        {1.1, 0.1, 0.05}, {1.25, 1.2, -0.1}, {-0.05, 0.9, 0.1},
                                     {0.1, -0.1, 1.0}, {1.0, 0.05, 1.2}, {1.15, 1.1, 0.95}, {0.05, 1.05, 1.1}};

static void u_exact(long n, const double *x, const double *y, const double *z, void *ctx, double *v) {
  for (long q = 0; q < n; q++) v[q] = sin(x[q]) * cos(y[q]) * (1 + z[q] * z[q]);
}
static void f_exact(long n, const double *x, const double *y, const double *z, void *ctx, double *v) {
  for (long q = 0; q < n; q++) v[q] = 2 * z[q] * z[q] * sin(x[q]) * cos(y[q]);
}

typedef struct {
  int L, N;
  long n;
  FeastBand A;
  double *xyz, *b, *ue;
  unsigned char *fixed[FEAST_MAX_LEVEL + 1];
} Problem;

static int faces(int N, unsigned char **f) {
  FEAST_CALL(FEAST_ALLOC((long)N * N * N, f));
  feast_hex_face_nodes(N, FEAST_HEX_FACES, *f);
  return 0;
}

/* the eliminated system; *t its time */
static int assemble(const double corner[8][3], int L, Problem *p, double *t) {
  memset(p, 0, sizeof *p);
  p->L = L, p->N = (1 << L) + 1, p->n = (long)p->N * p->N * p->N;
  for (int l = 0; l <= L; l++) FEAST_CALL(faces((1 << l) + 1, &p->fixed[l]));
  FEAST_CALL(FEAST_ALLOC(3 * p->n, &p->xyz));
  FEAST_CALL(FEAST_ALLOC(p->n, &p->ue));
  feast_hex_macro_coords(p->N, corner, p->xyz);
  for (long r = 0; r < p->n; r++) u_exact(1, &p->xyz[3 * r], &p->xyz[3 * r + 1], &p->xyz[3 * r + 2], NULL, &p->ue[r]);
  const double t0 = feast_wtime();
  FEAST_CALL(FEAST_ALLOC(p->n, &p->b));
  FEAST_CALL(feast_band_create(&feast_stencil_q1_3d, p->N, &p->A));
  FEAST_CALL(feast_q1_hex_assemble(p->N, p->xyz, 0, feast_q1_hex_form_laplace, NULL, 2, &p->A));
  FEAST_CALL(feast_q1_hex_assemble_rhs(p->N, p->xyz, 0, f_exact, NULL, 2, p->b));
  feast_band_eliminate_fixed(&p->A, p->fixed[L], p->ue, p->b);
  *t = feast_wtime() - t0;
  return 0;
}

static int write_mtx(const Problem *p, const char *prefix) {
  const long n = p->n;
  int64_t *row, *col, nnz = 0;
  double *val;
  FEAST_CALL(FEAST_ALLOC(27 * n, &row));
  FEAST_CALL(FEAST_ALLOC(27 * n, &col));
  FEAST_CALL(FEAST_ALLOC(27 * n, &val));
  for (long r = 0; r < n; r++) {
    long pos[3], q[3];
    feast_stencil_point(p->A.stencil, p->N, r, pos);
    for (int k = 0; k < 27; k++)
      if (feast_stencil_neighbour(p->A.stencil, k, p->N, pos, q) && p->A.band[k][r] != 0.0) {
        row[nnz] = r, col[nnz] = r + feast_stencil_offset(p->A.stencil, k, p->N), val[nnz] = p->A.band[k][r];
        nnz++;
      }
  }
  char path[512], rhs[512];
  snprintf(path, sizeof path, "%s.mtx", prefix);
  FEAST_CALL(feast_mtx_rhs_name(path, rhs, sizeof rhs));
  int rc = feast_mtx_write_coordinate(path, n, nnz, row, col, val);
  if (!rc) rc = feast_mtx_write_array(rhs, n, p->b);
  free(row), free(col), free(val);
  return rc;
}

/* ||b - A x|| / ||b|| and the relative L2 error of x */
static int report(const Problem *p, const double *x, double *relres, double *l2) {
  double *y, rr = 0.0, bb = 0.0, e2, n2;
  FEAST_CALL(feast_band_vec_alloc(&p->A, &y));
  feast_band_apply(&p->A, x, y);
  for (long i = 0; i < p->n; i++) rr += (p->b[i] - y[i]) * (p->b[i] - y[i]), bb += p->b[i] * p->b[i];
  feast_band_vec_free(&p->A, &y);
  *relres = sqrt(rr / bb);
  FEAST_CALL(feast_q1_hex_l2_error(p->N, p->xyz, x, u_exact, NULL, 3, &e2, &n2));
  *l2 = sqrt(e2 / n2);
  return 0;
}

/* pcg = 1: CG with one V(2,2) cycle in precision; 0: V(4,4) cycles alone (double) */
static int solve(const Problem *p, int pcg, const char *precision, double t_assembly) {
  const FeastLocalMGParams prm = {pcg ? 2 : 4, pcg ? 2 : 4, 0.7, 1e-8, pcg ? 1 : 100, 200, 0, 0, 0};
  double *x;
  FEAST_CALL(feast_band_vec_alloc(&p->A, &x));
  for (long i = 0; i < p->n; i++) x[i] = p->fixed[p->L][i] ? p->b[i] : 0.0;
  const double t0 = feast_wtime();
  FeastHexMG *mg;
  FEAST_CALL(feast_hex_mg_setup(&p->A, p->L, (const unsigned char *const *)p->fixed, precision, &prm, &mg));
  const double t1 = feast_wtime();
  long count;
  if (pcg) {
    FeastBandCGStats st;
    FEAST_CALL(feast_band_cg(&p->A, p->fixed[p->L], p->b, x, 1e-8, 100, feast_hex_mg_precondition, mg, &st));
    count = st.iterations;
  } else {
    FeastLocalMGStats st;
    FEAST_CALL(feast_hex_mg_solve(mg, p->b, x, &st));
    for (long i = 0; i < p->n; i++)
      if (p->fixed[p->L][i]) x[i] = p->b[i];
    count = st.cycles;
  }
  const double t2 = feast_wtime();
  double relres, l2;
  FEAST_CALL(report(p, x, &relres, &l2));
  printf("| %d | %ld | %s, %s | %.3f | %.3f | %.3f | %.3f | %ld | %.1e | %.3e |\n", p->L, p->n,
         pcg ? "MG-PCG, V(2,2)" : "MG, V(4,4) cycles", precision, t_assembly, t1 - t0, t2 - t1, t1 - t0 + t2 - t1,
         count, relres, l2);
  feast_hex_mg_destroy(&mg);
  feast_band_vec_free(&p->A, &x);
  return 0;
}

int main(int argc, char **argv) {
  int L = argc > 1 ? atoi(argv[1]) : 0;
  const char *prefix = NULL;
  double box[8][3];
  memcpy(box, unit_cube, sizeof box);
  const double(*corner)[3] = unit_cube;
  for (int a = 2; a < argc; a++) {
    if (strcmp(argv[a], "--twisted") == 0) corner = twisted;
    else if (strcmp(argv[a], "--box") == 0 && a + 1 < argc && atof(argv[a + 1]) > 0) {
      for (int c = 4; c < 8; c++) box[c][2] = atof(argv[a + 1]);
      corner = box, a++;
    } else if (strcmp(argv[a], "--mtx") == 0 && a + 1 < argc) prefix = argv[++a];
    else L = -1; /* an unknown argument: the usage */
  }
  if (L < 2 || L > 8) {
    fprintf(stderr, "usage: bench_poisson3d L [--twisted | --box Z] [--mtx PREFIX]   (2 <= L <= 8)\n");
    return 1;
  }
  Problem p;
  double t;
  int rc = assemble(corner, L, &p, &t);
  printf("| L | unknowns | solver | assembly s | setup s | solve s | setup+solve s | iterations | relres | L2 error |\n");
  printf("| ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
  if (!rc) rc = solve(&p, 1, "double", t);
  if (!rc) rc = solve(&p, 1, "single", t);
  if (!rc) rc = solve(&p, 0, "double", t);
  if (!rc && prefix) rc = write_mtx(&p, prefix);
  if (rc) fprintf(stderr, "bench_poisson3d: %s\n", feast_error_message());
  return rc ? 1 : 0;
}

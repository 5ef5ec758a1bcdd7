/* 3D Poisson on a mesh of hexahedral macros with two-layer ScaRC (scarc/scarc_hex.h;
 * issue #47): -Laplace u = f, u = sin(pi x) sin(pi y) sin(pi z) (zero on the boundary of
 * the unit cube, which the meshes of tools/make_box_mesh.py fill), Q1 at level L, solved
 * by CG preconditioned with one V(1,1) cycle (Schwarz damping 0.8, one local V(2,2) cycle
 * per macro in PRECISION, the coarse level of at most 2,500 unknowns factored by UMFPACK)
 * to ||b - A x|| <= 1e-8 ||b|| from x = 0, as bench/amg/bench_boomeramg counts. Prints one
 * table row (bench_poisson3d's columns): assembly (the matrices, into the solver's
 * storage, and the right-hand side), setup (the solver's creation, Galerkin products,
 * local multigrids, coarse factorisation), solve, iterations, the
 * relative residual and the L2 error. --mtx PREFIX also writes the system (the Dirichlet
 * rows and columns eliminated: symmetric) as PREFIX.mtx and PREFIX_rhs.mtx.
 * usage: [mpirun -np P] bench_scarc3d MESH L [--precision single|double] [--mtx PREFIX] */
#include "feast/base/error.h"
#include "feast/base/log.h"
#include "feast/fem/q1_hex.h"
#include "feast/io/mtx.h"
#include "feast/la/gather.h"
#include "scarc/scarc_hex.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void f_exact(long n, const double *x, const double *y, const double *z, void *ctx, double *v) {
  (void)ctx;
  for (long q = 0; q < n; q++) v[q] = 3 * M_PI * M_PI * sin(M_PI * x[q]) * sin(M_PI * y[q]) * sin(M_PI * z[q]);
}
static void u_exact(long n, const double *x, const double *y, const double *z, void *ctx, double *v) {
  (void)ctx;
  for (long q = 0; q < n; q++) v[q] = sin(M_PI * x[q]) * sin(M_PI * y[q]) * sin(M_PI * z[q]);
}

typedef struct {
  FeastDomain *dom;
  FeastMask *mask;
  FeastBand *A; /* the solver's storage (scarc_hex_operator_storage) */
  FeastVec *b, *x;
} Problem;

static int assemble(Problem *p) {
  const FeastDomain *dom = p->dom;
  const int L = dom->finest;
  const FeastLevel *lev = &dom->levels[L];
  FEAST_CALL(feast_vec_create(dom, L, 1, &p->b));
  FEAST_CALL(feast_vec_create(dom, L, 1, &p->x));
  for (int li = 0; li < dom->nlocal; li++) {
    FEAST_CALL(feast_q1_hex_assemble(lev->N, lev->xy[li], dom->local[li], feast_q1_hex_form_laplace, NULL, 2, &p->A[li]));
    FEAST_CALL(feast_q1_hex_assemble_rhs(lev->N, lev->xy[li], dom->local[li], f_exact, NULL, 2, feast_vec_block(p->b, 0, li)));
  }
  FEAST_CALL(feast_vec_sum(p->b));
  feast_vec_zero_fixed(p->b, 0, p->mask);
  return 0;
}

/* the system with the Dirichlet rows and columns eliminated, gathered on rank 0 */
static int write_mtx(const Problem *p, const char *prefix) {
  const FeastDomain *dom = p->dom;
  const int L = dom->finest;
  FeastBand *E;
  FEAST_CALL(FEAST_ALLOC(dom->nlocal + 1, &E));
  double *zero;
  FEAST_CALL(FEAST_ALLOC(dom->levels[L].nodes_per_macro, &zero));
  for (int li = 0; li < dom->nlocal; li++) {
    FEAST_CALL(feast_band_create(&feast_stencil_q1_3d, dom->levels[L].N, &E[li]));
    feast_band_copy(&p->A[li], &E[li]);
    feast_band_eliminate_fixed(&E[li], p->mask->fixed[L][li], zero, zero); /* b = 0 there already */
  }
  FeastTriplets t;
  int rc = feast_gather_matrix_band(dom, L, E, 0, 0, &t);
  double *g = NULL;
  if (!rc) rc = FEAST_ALLOC(dom->levels[L].nglobal, &g);
  if (!rc) rc = feast_vec_gather_block(p->b, 0, 0, g);
  char path[512], rhs[512];
  snprintf(path, sizeof path, "%s.mtx", prefix);
  if (!rc) rc = feast_mtx_rhs_name(path, rhs, sizeof rhs);
  if (!rc && dom->rank == 0) rc = feast_mtx_write_coordinate(path, t.n, t.nnz, t.row, t.col, t.val);
  if (!rc && dom->rank == 0) rc = feast_mtx_write_array(rhs, t.n, g);
  feast_triplets_free(&t);
  free(g), free(zero);
  for (int li = 0; li < dom->nlocal; li++) feast_band_destroy(&E[li]);
  free(E);
  return rc;
}

static int run(const char *mesh_path, int L, const char *precision, const char *prefix) {
  FeastMesh *mesh;
  Problem p = {0};
  FEAST_CALL(feast_mesh_read(mesh_path, NULL, &mesh));
  FEAST_CALL(feast_domain_create(mesh, L, MPI_COMM_WORLD, &p.dom));
  unsigned char *all;
  FEAST_CALL(FEAST_ALLOC(mesh->nparts + 1, &all));
  memset(all, 1, (size_t)mesh->nparts);
  FEAST_CALL(feast_mask_create(p.dom, all, &p.mask));
  free(all);
  ScarcParams sp;
  scarc_params_defaults(&sp);
  sp.mg_pre_smooth = sp.mg_post_smooth = 1;
  sp.smoother_damping = 0.8;
  sp.smoother_step = SCARC_STEP_FIXED;
  sp.local_pre_smooth = sp.local_post_smooth = 2;
  sp.coarse_solver = FEAST_DIRECT_UMFPACK;
  sp.local_precision = strcmp(precision, "single") == 0 ? SCARC_PRECISION_SINGLE : SCARC_PRECISION_DOUBLE;
  /* the solver's creation (its storage) counts as setup, the assembly into the finest
   * matrices as assembly */
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = feast_wtime();
  ScarcHex *s;
  FEAST_CALL(scarc_hex_create(p.dom, p.mask, &sp, &s));
  const double tc = feast_wtime();
  FEAST_CALL(scarc_hex_operator_storage(s, &p.A));
  FEAST_CALL(assemble(&p));
  /* the Dirichlet-eliminated copy for other solvers, before the set-up changes the matrices */
  if (prefix) FEAST_CALL(write_mtx(&p, prefix));
  MPI_Barrier(MPI_COMM_WORLD);
  const double t1 = feast_wtime();
  FEAST_CALL(scarc_hex_set_operator(s, p.A));
  MPI_Barrier(MPI_COMM_WORLD);
  const double t2 = feast_wtime();
  FeastSolveParams kp;
  feast_solve_params_defaults(&kp);
  kp.rtol = 1e-8;
  kp.max_iterations = 100;
  FeastSolveResult res;
  FEAST_CALL(scarc_hex_solve(s, FEAST_KRYLOV_CG, &kp, p.b, p.x, &res));
  MPI_Barrier(MPI_COMM_WORLD);
  const double t3 = feast_wtime();
  /* the true residual and the L2 error */
  FeastVec *r;
  FEAST_CALL(feast_vec_create(p.dom, L, 1, &r));
  FEAST_CALL(scarc_hex_matvec(s, p.x, r));
  feast_vec_aypx(-1.0, p.b, r);
  double rr, bb, part_sum[2];
  FEAST_CALL(feast_vec_dot(r, r, &rr));
  FEAST_CALL(feast_vec_dot(p.b, p.b, &bb));
  double *part;
  FEAST_CALL(FEAST_ALLOC(2 * p.dom->nlocal + 2, &part));
  const FeastLevel *lev = &p.dom->levels[L];
  for (int li = 0; li < p.dom->nlocal; li++)
    FEAST_CALL(feast_q1_hex_l2_error(lev->N, lev->xy[li], feast_vec_block_read(p.x, 0, li), u_exact, NULL, 3, &part[li],
                                     &part[p.dom->nlocal + li]));
  FEAST_CALL(feast_domain_sum_macros(p.dom, 2, part, part_sum));
  if (p.dom->rank == 0) {
    printf("| L | unknowns | solver | assembly s | setup s | solve s | setup+solve s | iterations | relres | L2 error |\n");
    printf("| ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    printf("| %d | %lld | ScaRC-CG, %d macros, %d ranks, %s | %.3f | %.3f | %.3f | %.3f | %d | %.1e | %.3e |\n", L,
           (long long)lev->nglobal, mesh->nmacros, p.dom->size, precision, t1 - tc, tc - t0 + t2 - t1, t3 - t2,
           tc - t0 + t3 - t1,
           res.iterations, sqrt(rr / bb), sqrt(part_sum[0] / part_sum[1]));
  }
  free(part);
  feast_vec_destroy(&r);
  scarc_hex_destroy(&s);
  return 0;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  const char *precision = "single", *prefix = NULL;
  int L = argc > 2 ? atoi(argv[2]) : -1;
  for (int a = 3; a < argc; a++) {
    if (strcmp(argv[a], "--precision") == 0 && a + 1 < argc) precision = argv[++a];
    else if (strcmp(argv[a], "--mtx") == 0 && a + 1 < argc) prefix = argv[++a];
    else L = -1;
  }
  int rc = 1;
  if (L < 1 || L > 9 || (strcmp(precision, "single") && strcmp(precision, "double")))
    fprintf(stderr, "usage: bench_scarc3d MESH L [--precision single|double] [--mtx PREFIX]   (1 <= L <= 9)\n");
  else if ((rc = run(argv[1], L, precision, prefix)))
    fprintf(stderr, "bench_scarc3d: %s\n", feast_error_message());
  MPI_Finalize();
  return rc ? 1 : 0;
}

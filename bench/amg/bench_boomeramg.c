/* hypre BoomerAMG (the general algebraic multigrid a user would otherwise pick) on a system
 * exported by feastc (output.matrix_market): standalone BoomerAMG V cycles with hypre's
 * defaults (HMIS coarsening, extended+i interpolation, hybrid Gauss-Seidel), one rank, to
 * the relative residual ||b - A x|| / ||b|| <= 1e-8 from x = 0, as ScaRC's summary counts.
 * Prints one line:
 *   boomeramg n nnz setup solve total iterations relres
 * usage: bench_boomeramg MATRIX.mtx RHS.mtx   (built when libhypre-dev is installed) */
#include "feast/error.h"
#include "feast/mtx.h"
#include <HYPRE.h>
#include <HYPRE_IJ_mv.h>
#include <HYPRE_parcsr_ls.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

/* A as a hypre IJ matrix, row by row from the coordinate triplets */
static HYPRE_IJMatrix ij_matrix(int64_t n, int64_t nnz, const int64_t *row, const int64_t *col,
                                const double *val) {
  HYPRE_IJMatrix A;
  HYPRE_IJMatrixCreate(MPI_COMM_WORLD, 0, (HYPRE_BigInt)n - 1, 0, (HYPRE_BigInt)n - 1, &A);
  HYPRE_IJMatrixSetObjectType(A, HYPRE_PARCSR);
  HYPRE_IJMatrixInitialize(A);
  for (int64_t k = 0; k < nnz; k++) {
    HYPRE_Int one = 1;
    HYPRE_BigInt r = (HYPRE_BigInt)row[k], c = (HYPRE_BigInt)col[k];
    HYPRE_IJMatrixAddToValues(A, 1, &one, &r, &c, &val[k]);
  }
  HYPRE_IJMatrixAssemble(A);
  return A;
}

static HYPRE_IJVector ij_vector(int64_t n, const double *v) {
  HYPRE_IJVector x;
  HYPRE_IJVectorCreate(MPI_COMM_WORLD, 0, (HYPRE_BigInt)n - 1, &x);
  HYPRE_IJVectorSetObjectType(x, HYPRE_PARCSR);
  HYPRE_IJVectorInitialize(x);
  HYPRE_BigInt *idx = malloc(sizeof *idx * (size_t)n);
  for (int64_t i = 0; i < n; i++) idx[i] = (HYPRE_BigInt)i;
  HYPRE_IJVectorSetValues(x, (HYPRE_Int)n, idx, v);
  free(idx);
  HYPRE_IJVectorAssemble(x);
  return x;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  if (argc != 3) {
    fprintf(stderr, "usage: bench_boomeramg MATRIX.mtx RHS.mtx\n");
    return 1;
  }
  int64_t n, nnz, *row, *col;
  double *val;
  if (feast_mtx_read_coordinate(argv[1], &n, &nnz, &row, &col, &val)) {
    fprintf(stderr, "bench_boomeramg: %s\n", feast_error_message());
    return 1;
  }
  double *b = malloc(sizeof *b * (size_t)n), *zero = calloc((size_t)n, sizeof *zero);
  if (feast_mtx_read_array(argv[2], n, b)) {
    fprintf(stderr, "bench_boomeramg: %s\n", feast_error_message());
    return 1;
  }
  HYPRE_Init();
  HYPRE_IJMatrix A = ij_matrix(n, nnz, row, col, val);
  HYPRE_IJVector bv = ij_vector(n, b), xv = ij_vector(n, zero);
  HYPRE_ParCSRMatrix pA;
  HYPRE_ParVector pb, px;
  HYPRE_IJMatrixGetObject(A, (void **)&pA);
  HYPRE_IJVectorGetObject(bv, (void **)&pb);
  HYPRE_IJVectorGetObject(xv, (void **)&px);
  HYPRE_Solver amg;
  HYPRE_BoomerAMGCreate(&amg);
  HYPRE_BoomerAMGSetTol(amg, 1e-8);
  HYPRE_BoomerAMGSetMaxIter(amg, 200);
  HYPRE_BoomerAMGSetPrintLevel(amg, 0);
  const double t0 = MPI_Wtime();
  HYPRE_BoomerAMGSetup(amg, pA, pb, px);
  const double t1 = MPI_Wtime();
  HYPRE_BoomerAMGSolve(amg, pA, pb, px);
  const double t2 = MPI_Wtime();
  HYPRE_Int its;
  double relres;
  HYPRE_BoomerAMGGetNumIterations(amg, &its);
  HYPRE_BoomerAMGGetFinalRelativeResidualNorm(amg, &relres);
  printf("boomeramg n=%ld nnz=%ld setup=%.3f solve=%.3f total=%.3f iterations=%d relres=%.2e\n", (long)n,
         (long)nnz, t1 - t0, t2 - t1, t2 - t0, (int)its, relres);
  HYPRE_BoomerAMGDestroy(amg);
  HYPRE_IJMatrixDestroy(A);
  HYPRE_IJVectorDestroy(bv);
  HYPRE_IJVectorDestroy(xv);
  HYPRE_Finalize();
  free(row);
  free(col);
  free(val);
  free(b);
  free(zero);
  MPI_Finalize();
  return relres <= 1e-8 ? 0 : 1;
}

/* UMFPACK (umfpack_dl, 64-bit) on a system exported by feastc (output.matrix_market):
 * the direct solver a user would otherwise pick. Prints one line:
 *   umfpack n nnz t_symbolic t_numeric t_solve t_total residual
 * usage: bench_umfpack MATRIX.mtx RHS.mtx */
#include "feast/base/error.h"
#include "feast/io/mtx.h"
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <umfpack.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  if (argc != 3) {
    fprintf(stderr, "usage: bench_umfpack MATRIX.mtx RHS.mtx\n");
    return 1;
  }
  int64_t n, nnz, *row, *col;
  double *val;
  if (feast_mtx_read_coordinate(argv[1], &n, &nnz, &row, &col, &val)) {
    fprintf(stderr, "bench_umfpack: %s\n", feast_error_message());
    return 1;
  }
  SuiteSparse_long *Ti = malloc(sizeof *Ti * nnz), *Tj = malloc(sizeof *Tj * nnz);
  SuiteSparse_long *Ap = malloc(sizeof *Ap * (n + 1)), *Ai = malloc(sizeof *Ai * nnz);
  double *Ax = malloc(sizeof *Ax * nnz), *b = malloc(sizeof *b * n), *x = malloc(sizeof *x * n);
  for (int64_t k = 0; k < nnz; k++) {
    Ti[k] = row[k];
    Tj[k] = col[k];
  }
  if (feast_mtx_read_array(argv[2], n, b)) {
    fprintf(stderr, "bench_umfpack: %s\n", feast_error_message());
    return 1;
  }
  umfpack_dl_triplet_to_col(n, n, nnz, Ti, Tj, val, Ap, Ai, Ax, NULL);
  void *sym, *num;
  double t0 = MPI_Wtime();
  long st = umfpack_dl_symbolic(n, n, Ap, Ai, Ax, &sym, NULL, NULL);
  double t1 = MPI_Wtime();
  if (st == UMFPACK_OK) st = umfpack_dl_numeric(Ap, Ai, Ax, sym, &num, NULL, NULL);
  double t2 = MPI_Wtime();
  if (st == UMFPACK_OK) st = umfpack_dl_solve(UMFPACK_A, Ap, Ai, Ax, x, b, num, NULL, NULL);
  double t3 = MPI_Wtime();
  if (st != UMFPACK_OK) {
    printf("umfpack failed with status %ld (n = %ld)\n", st, (long)n);
    return 1;
  }
  /* relative residual ||b - A x|| / ||b|| */
  double rr = 0, bb = 0;
  double *r = calloc(n, sizeof *r);
  for (int64_t k = 0; k < nnz; k++) r[row[k]] += val[k] * x[col[k]];
  for (int64_t i = 0; i < n; i++) {
    rr += (b[i] - r[i]) * (b[i] - r[i]);
    bb += b[i] * b[i];
  }
  printf("umfpack n=%ld nnz=%ld symbolic=%.3f numeric=%.3f solve=%.3f total=%.3f relres=%.2e\n",
         (long)n, (long)nnz, t1 - t0, t2 - t1, t3 - t2, t3 - t0, sqrt(rr / bb));
  MPI_Finalize();
  return 0;
}

/* Dense LU with partial pivoting for small banded matrices, row-major n x n storage:
 * the exact coarse solve of the local multigrid inverts its coarsest 9-band matrix
 * (n = N^2 <= 1089 nodes; 27-band: N^3) once per setup. A 9-band matrix has kl = ku = N+1 bands below
 * and above the diagonal; row interchanges keep the fill of U within kl+ku above it
 * (LAPACK's gbtrf), so the factors cost O(n kl (kl+ku)) and the inverse O(n^2 (2kl+ku))
 * instead of O(n^3). */
#ifndef FEAST_DENSE_H
#define FEAST_DENSE_H
#include "feast/la/band.h"
#include "feast/la/band9.h"

/* a (n x n, n = N^2, row-major) <- A (whole or framed), zeros outside the 9 bands */
void feast_band9_to_dense(const FeastBand9Framed *A, double *a);
/* a (n x n, n = feast_band_rows(A), row-major) <- A, a matrix of any stencil: kl = ku =
 * feast_stencil_pad(A->stencil, N) (N^2 + N + 1 for the 27 bands of hexahedra) */
void feast_band_to_dense(const FeastBand *A, double *a);
/* P A = L U in place: row k of U and the multipliers of column k below the diagonal;
 * piv[k] = the row swapped with row k at step k (interchanges are applied to the
 * columns k.. only, as in LAPACK's gbtrf). Returns 0, or k+1 when column k has no
 * nonzero (finite) pivot: the matrix is singular. */
int feast_dense_lu(long n, long kl, long ku, double *a, long *piv);
/* x <- A^-1 x with the factors of feast_dense_lu */
void feast_dense_lu_solve(long n, long kl, long ku, const double *lu, const long *piv, double *x);
/* inv <- A^-1, column-major (entry (i, j) at inv[j n + i]): column j = A^-1 e_j */
void feast_dense_lu_inverse(long n, long kl, long ku, const double *lu, const long *piv, double *inv);
#endif

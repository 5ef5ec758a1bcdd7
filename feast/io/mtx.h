/* Matrix Market files (https://math.nist.gov/MatrixMarket/formats.html): a sparse
 * matrix as "coordinate real general" and a vector as "array real general". Indices are
 * 0-based in memory and 1-based in the file. */
#ifndef FEAST_MTX_H
#define FEAST_MTX_H
#include <stddef.h>
#include <stdint.h>

int feast_mtx_write_coordinate(const char *path, int64_t n, int64_t nnz, const int64_t *row,
                               const int64_t *col, const double *val);
/* the right-hand side's file next to matrix file path: "A.mtx" -> "A_rhs.mtx" ("A" -> "A_rhs.mtx") */
int feast_mtx_rhs_name(const char *path, char *buf, size_t size);
int feast_mtx_write_array(const char *path, int64_t n, const double *v);
/* read a square coordinate matrix; arrays allocated here (free()) */
int feast_mtx_read_coordinate(const char *path, int64_t *n, int64_t *nnz, int64_t **row,
                              int64_t **col, double **val);
/* read an array vector of length n into v */
int feast_mtx_read_array(const char *path, int64_t n, double *v);
#endif

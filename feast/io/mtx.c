#include "feast/io/mtx.h"
#include "feast/base/error.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int close_written(FILE *f, const char *path) {
  int bad = ferror(f);
  bad |= fclose(f) != 0;
  FEAST_CHECK(!bad, FEAST_ERR_FILE, "cannot write Matrix Market file %s", path);
  return 0;
}

int feast_mtx_write_coordinate(const char *path, int64_t n, int64_t nnz, const int64_t *row,
                               const int64_t *col, const double *val) {
  FILE *f = fopen(path, "w");
  FEAST_CHECK(f, FEAST_ERR_FILE, "cannot open %s for writing", path);
  fprintf(f, "%%%%MatrixMarket matrix coordinate real general\n%% written by feastc\n");
  fprintf(f, "%" PRId64 " %" PRId64 " %" PRId64 "\n", n, n, nnz);
  for (int64_t k = 0; k < nnz; k++)
    fprintf(f, "%" PRId64 " %" PRId64 " %.17g\n", row[k] + 1, col[k] + 1, val[k]);
  return close_written(f, path);
}

int feast_mtx_rhs_name(const char *path, char *buf, size_t size) {
  const size_t len = strlen(path);
  const int stem = (int)(len > 4 && strcmp(path + len - 4, ".mtx") == 0 ? len - 4 : len);
  const int n = snprintf(buf, size, "%.*s_rhs.mtx", stem, path);
  FEAST_CHECK(n >= 0 && (size_t)n < size, FEAST_ERR_CONFIG, "output.matrix_market = %s: path too long", path);
  return 0;
}

int feast_mtx_write_array(const char *path, int64_t n, const double *v) {
  FILE *f = fopen(path, "w");
  FEAST_CHECK(f, FEAST_ERR_FILE, "cannot open %s for writing", path);
  fprintf(f, "%%%%MatrixMarket matrix array real general\n%% written by feastc\n");
  fprintf(f, "%" PRId64 " 1\n", n);
  for (int64_t i = 0; i < n; i++) fprintf(f, "%.17g\n", v[i]);
  return close_written(f, path);
}

/* the first line that is not a comment; 0 at end of file */
static int next_data_line(FILE *f, char *line, int size, long *lineno) {
  while (fgets(line, size, f)) {
    ++*lineno;
    if (line[0] != '%') return 1;
  }
  return 0;
}

static int read_header(FILE *f, const char *path, const char *kind, char *line, int size, long *lineno) {
  FEAST_CHECK(fgets(line, size, f), FEAST_ERR_FILE, "%s: empty file", path);
  *lineno = 1;
  FEAST_CHECK(strncmp(line, "%%MatrixMarket matrix ", 22) == 0 && strstr(line, kind) && strstr(line, "real"),
              FEAST_ERR_FILE, "%s:1: expected '%%%%MatrixMarket matrix %s real general'", path, kind);
  return 0;
}

static int read_coordinate(FILE *f, const char *path, int64_t *n, int64_t *nnz, int64_t *row,
                           int64_t *col, double *val, long lineno) {
  char line[512];
  for (int64_t k = 0; k < *nnz; k++) {
    long long r, c;
    FEAST_CHECK(next_data_line(f, line, sizeof line, &lineno), FEAST_ERR_FILE,
                "%s: truncated after %" PRId64 " of %" PRId64 " entries", path, k, *nnz);
    FEAST_CHECK(sscanf(line, "%lld %lld %lf", &r, &c, &val[k]) == 3 && r >= 1 && r <= *n && c >= 1 && c <= *n,
                FEAST_ERR_FILE, "%s:%ld: bad entry '%.60s'", path, lineno, line);
    row[k] = r - 1;
    col[k] = c - 1;
  }
  return 0;
}

int feast_mtx_read_coordinate(const char *path, int64_t *n, int64_t *nnz, int64_t **row,
                              int64_t **col, double **val) {
  *row = *col = NULL;
  *val = NULL;
  FILE *f = fopen(path, "r");
  FEAST_CHECK(f, FEAST_ERR_FILE, "cannot open %s", path);
  char line[512];
  long lineno = 0;
  long long rows, cols, entries;
  int st = read_header(f, path, "coordinate", line, sizeof line, &lineno);
  if (!st && (!next_data_line(f, line, sizeof line, &lineno) ||
              sscanf(line, "%lld %lld %lld", &rows, &cols, &entries) != 3 || rows != cols || rows < 1 || entries < 0))
    st = feast_error_set(FEAST_ERR_FILE, __FILE__, __LINE__, "%s:%ld: expected 'n n nnz' of a square matrix", path, lineno);
  if (!st) {
    *n = rows;
    *nnz = entries;
    st = FEAST_ALLOC(entries + 1, row);
    if (!st) st = FEAST_ALLOC(entries + 1, col);
    if (!st) st = FEAST_ALLOC(entries + 1, val);
    if (!st) st = read_coordinate(f, path, n, nnz, *row, *col, *val, lineno);
  }
  fclose(f);
  if (st) {
    feast_free(row);
    feast_free(col);
    feast_free(val);
  }
  return st;
}

int feast_mtx_read_array(const char *path, int64_t n, double *v) {
  FILE *f = fopen(path, "r");
  FEAST_CHECK(f, FEAST_ERR_FILE, "cannot open %s", path);
  char line[512];
  long lineno = 0;
  long long rows, cols;
  int st = read_header(f, path, "array", line, sizeof line, &lineno);
  if (!st && (!next_data_line(f, line, sizeof line, &lineno) ||
              sscanf(line, "%lld %lld", &rows, &cols) != 2 || rows != n || cols != 1))
    st = feast_error_set(FEAST_ERR_FILE, __FILE__, __LINE__, "%s:%ld: expected '%" PRId64 " 1'", path, lineno, n);
  for (int64_t i = 0; !st && i < n; i++) {
    if (!next_data_line(f, line, sizeof line, &lineno) || sscanf(line, "%lf", &v[i]) != 1)
      st = feast_error_set(FEAST_ERR_FILE, __FILE__, __LINE__, "%s:%ld: expected value %" PRId64 " of %" PRId64, path, lineno, i + 1, n);
  }
  fclose(f);
  return st;
}

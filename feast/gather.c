#include "feast/gather.h"
#include "feast/error.h"
#include "feast/log.h"
#include <stdlib.h>
#include <string.h>

typedef struct {
  int64_t row, col;
  int64_t macro; /* the contributing macro: duplicates are summed in macro order */
  double val;
} Entry;

/* by (row, col, macro): the sum of the macros' contributions to one coupling is then
 * added in global macro order, whatever order the ranks' pieces arrive in (qsort is not
 * stable), so the coarse matrix has the same bits on any number of ranks */
static int cmp_entry(const void *a, const void *b) {
  const Entry *x = a, *y = b;
  if (x->row != y->row) return x->row < y->row ? -1 : 1;
  if (x->col != y->col) return x->col < y->col ? -1 : 1;
  if (x->macro != y->macro) return x->macro < y->macro ? -1 : 1;
  return 0;
}

/* every coupling of every local macro as (gid row, gid col, value) */
static int local_entries(const FeastDomain *dom, int level, const FeastBand9 *A, int structural,
                         Entry **out, long *count) {
  const int N = dom->levels[level].N;
  long n = 0;
  FEAST_CALL(FEAST_ALLOC((size_t)dom->nlocal * N * N * FEAST_NBANDS + 1, out));
  Entry *e = *out;
  for (int li = 0; li < dom->nlocal; li++) {
    int m = dom->local[li];
    for (int j = 0; j < N; j++)
      for (int i = 0; i < N; i++) {
        int64_t r = feast_mesh_node_gid(dom->mesh, level, m, i, j);
        for (int k = 0; k < FEAST_NBANDS; k++) {
          double v = A[li].band[k][j * N + i];
          int ci = i + k % 3 - 1, cj = j + k / 3 - 1;
          if (structural ? ci < 0 || cj < 0 || ci >= N || cj >= N : v == 0.0) continue;
          e[n].row = r;
          e[n].col = feast_mesh_node_gid(dom->mesh, level, m, ci, cj);
          e[n].macro = m;
          e[n].val = v;
          n++;
        }
      }
  }
  *count = n;
  return 0;
}

int feast_gather_matrix(const FeastDomain *dom, int level, const FeastBand9 *A, int structural, int root,
                        FeastTriplets *t) {
  memset(t, 0, sizeof *t);
  Entry *mine, *all = NULL;
  long count;
  FEAST_CALL(local_entries(dom, level, A, structural, &mine, &count));
  int *counts = NULL, *displs = NULL;
  if (dom->rank == root) {
    FEAST_CALL(FEAST_ALLOC(dom->size, &counts));
    FEAST_CALL(FEAST_ALLOC(dom->size, &displs));
  }
  FEAST_CHECK(count * (long)sizeof(Entry) < 2147483647L, FEAST_ERR_LIMIT,
              "level %d is too large to gather on one rank (%ld couplings)", level, count);
  int bytes = (int)(count * sizeof(Entry));
  FEAST_MPI_CALL(MPI_Gather(&bytes, 1, MPI_INT, counts, 1, MPI_INT, root, dom->comm));
  long total = 0;
  if (dom->rank == root) {
    for (int r = 0; r < dom->size; r++) {
      FEAST_CHECK(total + counts[r] < 2147483647L, FEAST_ERR_LIMIT,
                  "level %d is too large to gather on one rank", level);
      displs[r] = (int)total;
      total += counts[r];
    }
    FEAST_CALL(FEAST_ALLOC(total / sizeof(Entry) + 1, &all));
  }
  FEAST_MPI_CALL(MPI_Gatherv(mine, bytes, MPI_BYTE, all, counts, displs, MPI_BYTE, root, dom->comm));
  free(mine);
  free(counts);
  free(displs);
  if (dom->rank != root) return 0;
  long n = total / (long)sizeof(Entry), nnz = 0;
  qsort(all, (size_t)n, sizeof(Entry), cmp_entry);
  for (long i = 0; i < n; i++) { /* merge duplicates in place */
    if (nnz > 0 && all[nnz - 1].row == all[i].row && all[nnz - 1].col == all[i].col)
      all[nnz - 1].val += all[i].val;
    else
      all[nnz++] = all[i];
  }
  t->n = dom->levels[level].nglobal;
  t->nnz = nnz;
  FEAST_CALL(FEAST_ALLOC(nnz + 1, &t->row));
  FEAST_CALL(FEAST_ALLOC(nnz + 1, &t->col));
  FEAST_CALL(FEAST_ALLOC(nnz + 1, &t->val));
  for (long i = 0; i < nnz; i++) {
    t->row[i] = all[i].row;
    t->col[i] = all[i].col;
    t->val[i] = all[i].val;
  }
  free(all);
  return 0;
}

void feast_triplets_free(FeastTriplets *t) {
  free(t->row);
  free(t->col);
  free(t->val);
  memset(t, 0, sizeof *t);
}

/* (gid, value) pairs of the nodes this rank owns */
int feast_gather_vector(const FeastDomain *dom, int level, double *const *v, int root, double *g) {
  const FeastLevel *lev = &dom->levels[level];
  const int N = lev->N;
  long cnt = 0;
  for (int li = 0; li < dom->nlocal; li++)
    for (long i = 0; i < (long)N * N; i++) cnt += lev->owned[li][i];
  double *pairs;
  FEAST_CALL(FEAST_ALLOC(2 * cnt + 2, &pairs));
  long p = 0;
  for (int li = 0; li < dom->nlocal; li++)
    for (int j = 0; j < N; j++)
      for (int i = 0; i < N; i++)
        if (lev->owned[li][j * N + i]) {
          pairs[p++] = (double)feast_mesh_node_gid(dom->mesh, level, dom->local[li], i, j);
          pairs[p++] = v[li][j * N + i];
        }
  int mine = (int)(2 * cnt), *counts = NULL, *displs = NULL;
  double *all = NULL;
  if (dom->rank == root) {
    FEAST_CALL(FEAST_ALLOC(dom->size, &counts));
    FEAST_CALL(FEAST_ALLOC(dom->size, &displs));
  }
  FEAST_MPI_CALL(MPI_Gather(&mine, 1, MPI_INT, counts, 1, MPI_INT, root, dom->comm));
  long total = 0;
  if (dom->rank == root) {
    for (int r = 0; r < dom->size; r++) {
      displs[r] = (int)total;
      total += counts[r];
    }
    FEAST_CALL(FEAST_ALLOC(total + 1, &all));
  }
  FEAST_MPI_CALL(MPI_Gatherv(pairs, mine, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, root, dom->comm));
  if (dom->rank == root)
    for (long q = 0; q < total; q += 2) g[(int64_t)all[q]] = all[q + 1];
  free(pairs);
  free(all);
  free(counts);
  free(displs);
  return 0;
}

int feast_scatter_vector(const FeastDomain *dom, int level, double *g, int root, double *const *v) {
  const FeastLevel *lev = &dom->levels[level];
  const int N = lev->N;
  FEAST_CHECK(lev->nglobal < 2147483647L, FEAST_ERR_LIMIT, "level %d too large to broadcast", level);
  FEAST_MPI_CALL(MPI_Bcast(g, (int)lev->nglobal, MPI_DOUBLE, root, dom->comm));
  for (int li = 0; li < dom->nlocal; li++)
    for (int j = 0; j < N; j++)
      for (int i = 0; i < N; i++)
        v[li][j * N + i] = g[feast_mesh_node_gid(dom->mesh, level, dom->local[li], i, j)];
  return 0;
}

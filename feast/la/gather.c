#include "feast/la/gather.h"
#include "feast/base/error.h"
#include "feast/base/log.h"
#include <stdlib.h>
#include <string.h>

typedef struct {
  int64_t row, col;
  int32_t macro; /* the contributing macro: duplicates are summed in macro order */
  int32_t idx;   /* on root: the position in which the entry arrived (< 2^31: the
                    gather's byte count is an int) */
  double val;
} Entry;

/* (col, macro) within one row: the sum of the macros' contributions to one coupling is
 * then added in global macro order, whatever order the ranks' pieces arrive in, so the
 * coarse matrix has the same bits on any number of ranks */
static int before(const Entry *x, const Entry *y) {
  return x->col != y->col ? x->col < y->col : x->macro < y->macro;
}

/* e[0..n) by (row, col, macro) in linear time: a counting sort by row (the rows are the
 * global nodes 0..nrows-1), then an insertion sort of each row's few entries (9 per
 * macro that shares the node). The keys are unique, so the order is that of any sort. */
static int sort_entries(Entry **e, long n, int64_t nrows) {
  long *start;
  Entry *out;
  FEAST_CALL(FEAST_ALLOC(nrows + 2, &start));
  int rc = FEAST_ALLOC(n + 1, &out);
  if (rc) {
    free(start);
    return rc;
  }
  for (long k = 0; k < n; k++) start[(*e)[k].row + 2]++;
  for (int64_t r = 2; r <= nrows + 1; r++) start[r] += start[r - 1];
  for (long k = 0; k < n; k++) out[start[(*e)[k].row + 1]++] = (*e)[k];
  for (int64_t r = 0; r < nrows; r++)         /* start[r + 1] is now the end of row r */
    for (long k = start[r] + 1; k < start[r + 1]; k++) {
      const Entry x = out[k];
      long q = k;
      for (; q > start[r] && before(&x, &out[q - 1]); q--) out[q] = out[q - 1];
      out[q] = x;
    }
  free(start);
  free(*e);
  *e = out;
  return 0;
}

/* every coupling of every local macro as (gid row, gid col, value) into e (room for
 * nlocal n nbands entries, n the nodes per macro); returns the count. The matrices: band
 * k of local macro li at M->bands[li * nbands + k]. gid: work, n node ids. A structural
 * list does not depend on the values: the same entries in the same order on every call. */
static long local_entries(const FeastDomain *dom, int level, const FeastLevelMatrix *M, int structural, int64_t *gid,
                          Entry *e) {
  const int N = dom->levels[level].N;
  const long nodes = dom->levels[level].nodes_per_macro;
  const FeastStencil *s = M->stencil;
  long n = 0;
  for (int li = 0; li < dom->nlocal; li++) {
    const int m = dom->local[li];
    for (long r = 0; r < nodes; r++) gid[r] = feast_mesh_gid(dom->mesh, level, m, r);
    for (long r = 0; r < nodes; r++) {
      long p[FEAST_STENCIL_MAX_DIM], c[FEAST_STENCIL_MAX_DIM];
      feast_stencil_point(s, N, r, p);
      for (int k = 0; k < s->nbands; k++) {
        const double v = M->bands[li * s->nbands + k][r];
        const int inside = feast_stencil_neighbour(s, k, N, p, c);
        if (structural ? !inside : v == 0.0) continue;
        e[n++] = (Entry){gid[r], gid[r + feast_stencil_offset(s, k, N)], m, 0, v};
      }
    }
  }
  return n;
}

static long max_local_entries(const FeastDomain *dom, int level, const FeastStencil *s) {
  return (long)dom->nlocal * dom->levels[level].nodes_per_macro * s->nbands;
}

int feast_level_matrix_band9(const FeastDomain *dom, const FeastBand9 *A, FeastLevelMatrix *M) {
  const double **t;
  FEAST_CALL(FEAST_ALLOC((size_t)dom->nlocal * FEAST_NBANDS + 1, &t));
  for (int li = 0; li < dom->nlocal; li++)
    for (int k = 0; k < FEAST_NBANDS; k++) t[li * FEAST_NBANDS + k] = A[li].band[k];
  *M = (FeastLevelMatrix){FEAST_BAND9_STENCIL, t};
  return 0;
}

int feast_level_matrix_band(const FeastDomain *dom, const FeastBand *A, FeastLevelMatrix *M) {
  const FeastStencil *s = dom->nlocal ? A[0].stencil : feast_stencil_q1(dom->mesh->dim == 3 ? 3 : 2);
  const double **t;
  FEAST_CALL(FEAST_ALLOC((size_t)dom->nlocal * s->nbands + 1, &t));
  for (int li = 0; li < dom->nlocal; li++)
    for (int k = 0; k < s->nbands; k++) t[li * s->nbands + k] = A[li].band[k];
  *M = (FeastLevelMatrix){s, t};
  return 0;
}

void feast_level_matrix_free(FeastLevelMatrix *M) {
  free((void *)M->bands);
  M->bands = NULL;
}

/* counts[r] items of `size` bytes from rank r on root, at displs[r] items (root only;
 * checked against the int range of MPI) */
static int gather_counts(const FeastDomain *dom, int level, long count, size_t size, int root, int *counts,
                         int *displs, long *total) {
  FEAST_CHECK(count * (long)size < 2147483647L, FEAST_ERR_LIMIT,
              "level %d is too large to gather on one rank (%ld values)", level, count);
  int items = (int)count;
  FEAST_MPI_CALL(MPI_Gather(&items, 1, MPI_INT, counts, 1, MPI_INT, root, dom->comm));
  *total = 0;
  if (dom->rank != root) return 0;
  for (int r = 0; r < dom->size; r++) {
    FEAST_CHECK((*total + counts[r]) * (long)size < 2147483647L, FEAST_ERR_LIMIT,
                "level %d is too large to gather on one rank", level);
    displs[r] = (int)*total;
    *total += counts[r];
  }
  return 0;
}

/* count entries from every rank on root, into *all (root: allocated here, sorted by
 * (row, col, macro), idx = arrival position); counts/displs: entries per rank (root) */
static int gather_entries(const FeastDomain *dom, int level, const Entry *mine, long count, int root, int *counts,
                          int *displs, Entry **all, long *total) {
  FEAST_CALL(gather_counts(dom, level, count, sizeof(Entry), root, counts, displs, total));
  const int me = dom->rank == root;
  if (me) FEAST_CALL(FEAST_ALLOC(*total + 1, all));
  for (int r = 0; me && r < dom->size; r++) { /* in bytes for MPI_BYTE */
    counts[r] *= (int)sizeof(Entry);
    displs[r] *= (int)sizeof(Entry);
  }
  FEAST_MPI_CALL(MPI_Gatherv(mine, (int)(count * (long)sizeof(Entry)), MPI_BYTE, *all, counts, displs, MPI_BYTE,
                             root, dom->comm));
  for (int r = 0; me && r < dom->size; r++) {
    counts[r] /= (int)sizeof(Entry);
    displs[r] /= (int)sizeof(Entry);
  }
  for (long i = 0; me && i < *total; i++) (*all)[i].idx = (int32_t)i;
  return me ? sort_entries(all, *total, dom->levels[level].nglobal) : 0;
}

/* all ranks' entries of M on root, sorted (see gather_entries; others get NULL, 0) */
static int gather_sorted(const FeastDomain *dom, int level, const FeastLevelMatrix *M, int structural, int root,
                         int *counts, int *displs, Entry **all, long *n) {
  Entry *mine;
  int64_t *gid;
  *all = NULL;
  *n = 0;
  FEAST_CALL(FEAST_ALLOC(max_local_entries(dom, level, M->stencil) + 1, &mine));
  int rc = FEAST_ALLOC(dom->levels[level].nodes_per_macro, &gid);
  const long count = rc ? 0 : local_entries(dom, level, M, structural, gid, mine);
  if (!rc) rc = gather_entries(dom, level, mine, count, root, counts, displs, all, n);
  free(gid);
  free(mine);
  return rc;
}

/* merge the sorted entries' duplicates in place (values summed in macro order); slot[i]
 * (when given) = the merged position of sorted entry i; returns the merged count */
static long merge_entries(Entry *all, long n, long *slot) {
  long nnz = 0;
  for (long i = 0; i < n; i++) {
    if (nnz > 0 && all[nnz - 1].row == all[i].row && all[nnz - 1].col == all[i].col)
      all[nnz - 1].val += all[i].val;
    else
      all[nnz++] = all[i];
    if (slot) slot[i] = nnz - 1;
  }
  return nnz;
}

static int to_triplets(const FeastDomain *dom, int level, const Entry *all, long nnz, FeastTriplets *t) {
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
  return 0;
}

/* the merged triplets of M on root */
static int gather_level_matrix(const FeastDomain *dom, int level, const FeastLevelMatrix *M, int structural, int root,
                               FeastTriplets *t) {
  memset(t, 0, sizeof *t);
  int *counts = NULL, *displs = NULL;
  Entry *all = NULL;
  long n = 0;
  int rc = FEAST_ALLOC(dom->size, &counts);
  if (!rc) rc = FEAST_ALLOC(dom->size, &displs);
  if (!rc) rc = gather_sorted(dom, level, M, structural, root, counts, displs, &all, &n);
  if (!rc && dom->rank == root) rc = to_triplets(dom, level, all, merge_entries(all, n, NULL), t);
  free(all);
  free(counts);
  free(displs);
  return rc;
}

int feast_gather_matrix(const FeastDomain *dom, int level, const FeastBand9 *A, int structural, int root,
                        FeastTriplets *t) {
  FeastLevelMatrix M;
  memset(t, 0, sizeof *t);
  FEAST_CALL(feast_level_matrix_band9(dom, A, &M));
  const int rc = gather_level_matrix(dom, level, &M, structural, root, t);
  feast_level_matrix_free(&M);
  return rc;
}

int feast_gather_matrix_band(const FeastDomain *dom, int level, const FeastBand *A, int structural, int root,
                             FeastTriplets *t) {
  FeastLevelMatrix M;
  memset(t, 0, sizeof *t);
  FEAST_CALL(feast_level_matrix_band(dom, A, &M));
  const int rc = gather_level_matrix(dom, level, &M, structural, root, t);
  feast_level_matrix_free(&M);
  return rc;
}

struct FeastMatrixGather {
  const FeastDomain *dom;
  int level, root;
  const FeastStencil *stencil;
  long count, total, nnz;  /* local entries; gathered entries, merged couplings (root) */
  int *counts, *displs;    /* entries per rank (root) */
  long *order, *slot;      /* sorted entry s: arrived at order[s], merged into slot[s] (root) */
  Entry *mine;             /* work: the local entries */
  int64_t *gid;            /* work: node ids of one macro */
  double *vals, *all;      /* work: local values; all gathered values (root) */
};

int feast_matrix_gather_create(const FeastDomain *dom, int level, const FeastLevelMatrix *M, int root,
                               FeastTriplets *t, FeastMatrixGather **gp) {
  memset(t, 0, sizeof *t);
  FeastMatrixGather *g;
  FEAST_CALL(FEAST_ALLOC(1, &g));
  *gp = g;
  *g = (FeastMatrixGather){dom, level, root, M->stencil, 0, 0, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
  Entry *all = NULL;
  FEAST_CALL(FEAST_ALLOC(dom->size, &g->counts));
  FEAST_CALL(FEAST_ALLOC(dom->size, &g->displs));
  FEAST_CALL(FEAST_ALLOC(max_local_entries(dom, level, M->stencil) + 1, &g->mine));
  FEAST_CALL(FEAST_ALLOC(max_local_entries(dom, level, M->stencil) + 1, &g->vals));
  FEAST_CALL(FEAST_ALLOC(dom->levels[level].nodes_per_macro, &g->gid));
  g->count = local_entries(dom, level, M, 1, g->gid, g->mine);
  int rc = gather_entries(dom, level, g->mine, g->count, root, g->counts, g->displs, &all, &g->total);
  if (!rc && dom->rank == root) {
    rc = FEAST_ALLOC(g->total + 1, &g->order);
    if (!rc) rc = FEAST_ALLOC(g->total + 1, &g->slot);
    if (!rc) rc = FEAST_ALLOC(g->total + 1, &g->all);
    for (long s = 0; !rc && s < g->total; s++) g->order[s] = all[s].idx;
    if (!rc) g->nnz = merge_entries(all, g->total, g->slot);
    if (!rc) rc = to_triplets(dom, level, all, g->nnz, t);
  }
  free(all);
  return rc;
}

int feast_matrix_gather_values(FeastMatrixGather *g, const FeastLevelMatrix *M, double *val) {
  const FeastDomain *dom = g->dom;
  FEAST_CHECK(M->stencil == g->stencil, FEAST_ERR_ARG, "gathered matrix: another stencil than at create");
  const long count = local_entries(dom, g->level, M, 1, g->gid, g->mine);
  FEAST_CHECK(count == g->count, FEAST_ERR_INTERNAL, "gathered matrix pattern changed (%ld -> %ld couplings)",
              g->count, count);
  for (long i = 0; i < count; i++) g->vals[i] = g->mine[i].val;
  FEAST_MPI_CALL(MPI_Gatherv(g->vals, (int)count, MPI_DOUBLE, g->all, g->counts, g->displs, MPI_DOUBLE, g->root,
                             dom->comm));
  if (dom->rank != g->root) return 0;
  /* the sums of feast_gather_matrix, in the same order: the same bits */
  for (long s = 0; s < g->total; s++) {
    const double v = g->all[g->order[s]];
    if (s == 0 || g->slot[s] != g->slot[s - 1]) val[g->slot[s]] = v;
    else val[g->slot[s]] += v;
  }
  return 0;
}

void feast_matrix_gather_destroy(FeastMatrixGather **gp) {
  FeastMatrixGather *g = *gp;
  if (!g) return;
  free(g->counts);
  free(g->displs);
  free(g->order);
  free(g->slot);
  free(g->mine);
  free(g->gid);
  free(g->vals);
  free(g->all);
  feast_free(gp);
}

void feast_triplets_free(FeastTriplets *t) {
  free(t->row);
  free(t->col);
  free(t->val);
  memset(t, 0, sizeof *t);
}

/* A level's vector moved between its per-macro arrays and one global array on root: the
 * global ids are worked out once (create), so a gather moves 8 bytes per owned node (not
 * a (gid, value) pair) and neither call recomputes an id or allocates (the coarse grid
 * solve does both at every cycle). */
struct FeastVecGather {
  const FeastDomain *dom;
  int level, root;
  long n;          /* nodes per macro */
  int64_t *gid;    /* nlocal * n: the global id of every node of every local macro */
  double *vals;    /* the owned nodes' values in (macro, node) order */
  int mine;        /* their count */
  int *counts, *displs; /* root: every rank's count and offset */
  long total;       /* root: their number over all ranks */
  int64_t *all_gid; /* root: the global id of every value gathered, in arrival order */
  double *all;      /* root: the values gathered */
};

/* every node's global id, and on root the owned ones of every rank in arrival order */
static int vec_gather_ids(FeastVecGather *g) {
  const FeastDomain *dom = g->dom;
  const FeastLevel *lev = &dom->levels[g->level];
  int64_t *owned_gid;
  FEAST_CALL(FEAST_ALLOC((size_t)g->mine + 1, &owned_gid));
  long p = 0;
  for (int li = 0; li < dom->nlocal; li++)
    for (long k = 0; k < g->n; k++) {
      g->gid[li * g->n + k] = feast_mesh_gid(dom->mesh, g->level, dom->local[li], k);
      if (lev->owned[li][k]) owned_gid[p++] = g->gid[li * g->n + k];
    }
  int rc = gather_counts(dom, g->level, g->mine, sizeof(int64_t), g->root, g->counts, g->displs, &g->total);
  if (!rc && dom->rank == g->root) rc = FEAST_ALLOC(g->total + 1, &g->all_gid);
  if (!rc && dom->rank == g->root) rc = FEAST_ALLOC(g->total + 1, &g->all);
  const int st = rc ? MPI_SUCCESS
                    : MPI_Gatherv(owned_gid, g->mine, MPI_INT64_T, g->all_gid, g->counts, g->displs, MPI_INT64_T,
                                  g->root, dom->comm);
  free(owned_gid);
  FEAST_MPI_CALL(st);
  return rc;
}

int feast_vec_gather_create(const FeastDomain *dom, int level, int root, FeastVecGather **gp) {
  FeastVecGather *g;
  FEAST_CALL(FEAST_ALLOC(1, &g));
  *gp = g;
  const FeastLevel *lev = &dom->levels[level];
  FEAST_CHECK(lev->nglobal < 2147483647L, FEAST_ERR_LIMIT, "level %d too large to gather", level);
  g->dom = dom;
  g->level = level;
  g->root = root;
  g->n = lev->nodes_per_macro;
  long cnt = 0;
  for (int li = 0; li < dom->nlocal; li++)
    for (long i = 0; i < g->n; i++) cnt += lev->owned[li][i];
  g->mine = (int)cnt;
  FEAST_CALL(FEAST_ALLOC((size_t)dom->nlocal * g->n + 1, &g->gid));
  FEAST_CALL(FEAST_ALLOC(cnt + 1, &g->vals));
  if (dom->rank == root) {
    FEAST_CALL(FEAST_ALLOC(dom->size, &g->counts));
    FEAST_CALL(FEAST_ALLOC(dom->size, &g->displs));
  }
  return vec_gather_ids(g);
}

int feast_vec_gather(FeastVecGather *g, double *const *v, double *out) {
  const FeastDomain *dom = g->dom;
  unsigned char *const *owned = dom->levels[g->level].owned;
  long p = 0;
  for (int li = 0; li < dom->nlocal; li++)
    for (long k = 0; k < g->n; k++)
      if (owned[li][k]) g->vals[p++] = v[li][k];
  FEAST_MPI_CALL(MPI_Gatherv(g->vals, g->mine, MPI_DOUBLE, g->all, g->counts, g->displs, MPI_DOUBLE, g->root,
                             dom->comm));
  for (long q = 0; dom->rank == g->root && q < g->total; q++) out[g->all_gid[q]] = g->all[q];
  return 0;
}

int feast_vec_scatter(const FeastVecGather *g, double *global, double *const *v) {
  const FeastDomain *dom = g->dom;
  FEAST_MPI_CALL(MPI_Bcast(global, (int)dom->levels[g->level].nglobal, MPI_DOUBLE, g->root, dom->comm));
  for (int li = 0; li < dom->nlocal; li++) {
    const int64_t *gid = g->gid + li * g->n;
    for (long k = 0; k < g->n; k++) v[li][k] = global[gid[k]];
  }
  return 0;
}

void feast_vec_gather_destroy(FeastVecGather **gp) {
  FeastVecGather *g = *gp;
  if (!g) return;
  free(g->gid);
  free(g->vals);
  free(g->counts);
  free(g->displs);
  free(g->all_gid);
  free(g->all);
  feast_free(gp);
}

int feast_gather_vector(const FeastDomain *dom, int level, double *const *v, int root, double *g) {
  FeastVecGather *plan = NULL;
  int rc = feast_vec_gather_create(dom, level, root, &plan);
  if (!rc) rc = feast_vec_gather(plan, v, g);
  feast_vec_gather_destroy(&plan);
  return rc;
}

int feast_scatter_vector(const FeastDomain *dom, int level, double *g, int root, double *const *v) {
  FeastVecGather *plan = NULL;
  int rc = feast_vec_gather_create(dom, level, root, &plan);
  if (!rc) rc = feast_vec_scatter(plan, g, v);
  feast_vec_gather_destroy(&plan);
  return rc;
}

int feast_vec_gather_block(const FeastVec *x, int b, int root, double *g) {
  return feast_gather_vector(x->dom, x->level, feast_vec_blocks(x, b), root, g);
}

int feast_vec_scatter_block(double *g, int root, FeastVec *x, int b) {
  return feast_scatter_vector(x->dom, x->level, g, root, feast_vec_blocks(x, b));
}

/* Block b of a grid vector as a checkpoint field (feast/io/checkpoint.h): every rank adds
 * the values of the nodes it owns, under their global ids (feast_mesh_gid), and reads
 * back every copy of every node it holds. */
#include "feast/base/error.h"
#include "feast/io/checkpoint.h"
#include <stdlib.h>
#include <string.h>

/* the global id of every node of every local macro of x's level (nlocal n of them) */
static int vec_gids(const FeastVec *x, int64_t **gid) {
  const FeastDomain *dom = x->dom;
  FEAST_CALL(FEAST_ALLOC((size_t)dom->nlocal * (size_t)x->n + 1, gid));
  for (int li = 0; li < dom->nlocal; li++)
    for (long k = 0; k < x->n; k++) (*gid)[li * x->n + k] = feast_mesh_gid(dom->mesh, x->level, dom->local[li], k);
  return 0;
}

int feast_checkpoint_add_vec_block(FeastCheckpoint *ck, const char *name, const FeastVec *x, int b) {
  const FeastDomain *dom = x->dom;
  unsigned char *const *owned = dom->levels[x->level].owned;
  const double *const *v = feast_vec_blocks_read(x, b);
  int64_t *gid = NULL, count = 0;
  double *vals = NULL;
  int st = vec_gids(x, &gid);
  if (!st) st = FEAST_ALLOC((size_t)dom->nlocal * (size_t)x->n + 1, &vals);
  for (int li = 0; !st && li < dom->nlocal; li++)
    for (long k = 0; k < x->n; k++)
      if (owned[li][k]) gid[count] = gid[li * x->n + k], vals[count++] = v[li][k];
  if (!st) st = feast_checkpoint_add_field(ck, name, dom->levels[x->level].nglobal, count, gid, vals);
  free(gid);
  free(vals);
  return st;
}

int feast_checkpoint_vec_block(const FeastCheckpoint *ck, const char *name, FeastVec *x, int b) {
  const FeastDomain *dom = x->dom;
  const int64_t count = (int64_t)dom->nlocal * x->n;
  int64_t *gid = NULL;
  double *vals = NULL;
  int st = vec_gids(x, &gid);
  if (!st) st = FEAST_ALLOC(count + 1, &vals);
  if (!st) st = feast_checkpoint_field(ck, dom->comm, name, dom->levels[x->level].nglobal, count, gid, vals);
  double *const *v = feast_vec_blocks(x, b);
  for (int li = 0; !st && li < dom->nlocal; li++) memcpy(v[li], vals + li * x->n, (size_t)x->n * sizeof *vals);
  free(gid);
  free(vals);
  return st;
}

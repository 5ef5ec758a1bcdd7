/* Distribution of the coarse mesh's macros over MPI ranks. The partition is computed
 * redundantly (no communication): every rank calling it with the same mesh and rank
 * count gets the same owner array. */
#ifndef FEAST_PARTITION_H
#define FEAST_PARTITION_H
#include "feast/mesh/mesh.h"

/* owner[m] in [0, nranks) for every macro m; every rank owns at least one macro.
 * nranks <= 2: contiguous chunks in macro id order (sizes differ by at most one);
 * nranks > 2: METIS on the macro graph (macros sharing an edge, from mesh->edge_macros; in
 * 3D a face, mesh->face_macros),
 * fixed seed so the result is deterministic; recursive bisection for up to 8 parts,
 * else k-way (contiguous parts), retried with recursive bisection if it leaves a part
 * empty (it does on small graphs); if METIS still fails, a warning is printed and the
 * contiguous split is used.
 * FEAST_ERR_CONFIG if nranks > nmacros. */
int feast_partition_macros(const FeastMesh *mesh, int nranks, int *owner);
/* contiguous split of nmacros ids into nparts chunks: owner[m] = chunk of m */
int feast_partition_contiguous(int nmacros, int nparts, int *owner);
/* the macros owned by rank, ascending: *local_ids (length *nlocal) is allocated here,
 * release with feast_free(local_ids); NULL if *nlocal is 0 */
int feast_partition_local(const int *owner, int nmacros, int rank, int *nlocal, int **local_ids);
#endif

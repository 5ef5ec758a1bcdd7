#include "feast/mesh/partition.h"
#include "feast/base/error.h"
#include "feast/base/log.h"
#include <metis.h>

/* Recursive bisection gives better cuts for few parts, k-way for many (METIS manual). */
enum { RECURSIVE_MAX_PARTS = 8, PARTITION_SEED = 4711 };

int feast_partition_contiguous(int nmacros, int nparts, int *owner) {
  FEAST_CHECK(owner && nmacros > 0 && nparts > 0 && nparts <= nmacros, FEAST_ERR_ARG,
              "contiguous partition of %d macros into %d parts", nmacros, nparts);
  /* chunk r = [r*n/p, (r+1)*n/p) */
  for (int r = 0; r < nparts; r++) {
    int first = (int)((int64_t)r * nmacros / nparts);
    int last = (int)((int64_t)(r + 1) * nmacros / nparts);
    for (int m = first; m < last; m++) owner[m] = r;
  }
  return 0;
}

/* the macro pairs of the graph: macros sharing an edge (2D) or a face (3D); [1] = -1 on
 * the boundary */
static const int *neighbour_pairs(const FeastMesh *mesh, int *n) {
  *n = mesh->dim == 3 ? mesh->nfaces : mesh->nedges;
  return mesh->dim == 3 ? mesh->face_macros : mesh->edge_macros;
}

/* CSR adjacency of the macro graph */
static int macro_graph(const FeastMesh *mesh, idx_t **xadj, idx_t **adjncy) {
  int nm = mesh->nmacros, np;
  const int *pair = neighbour_pairs(mesh, &np);
  for (int e = 0; e < np; e++) {
    int a = pair[2 * e], b = pair[2 * e + 1];
    FEAST_CHECK(a >= 0 && a < nm && b < nm && a != b, FEAST_ERR_INTERNAL,
                "mesh %s %d has invalid macros %d, %d", mesh->dim == 3 ? "face" : "edge", e, a, b);
  }
  FEAST_CALL(FEAST_ALLOC(nm + 1, xadj));
  for (int e = 0; e < np; e++) {
    int a = pair[2 * e], b = pair[2 * e + 1];
    if (b < 0) continue;
    (*xadj)[a + 1]++;
    (*xadj)[b + 1]++;
  }
  for (int m = 0; m < nm; m++) (*xadj)[m + 1] += (*xadj)[m];
  idx_t *fill = NULL;
  int status = FEAST_ALLOC((*xadj)[nm] > 0 ? (*xadj)[nm] : 1, adjncy);
  if (!status) status = FEAST_ALLOC(nm, &fill);
  if (status) {
    feast_free(xadj);
    feast_free(adjncy);
    return status;
  }
  for (int e = 0; e < np; e++) {
    int a = pair[2 * e], b = pair[2 * e + 1];
    if (b < 0) continue;
    (*adjncy)[(*xadj)[a] + fill[a]++] = b;
    (*adjncy)[(*xadj)[b] + fill[b]++] = a;
  }
  feast_free(&fill);
  return 0;
}

/* *empty_part = the first part in [0, nparts) that owns no macro, or -1 */
static int find_empty_part(const int *owner, int nmacros, int nparts, int *empty_part) {
  int *count = NULL;
  FEAST_CALL(FEAST_ALLOC(nparts, &count));
  for (int m = 0; m < nmacros; m++)
    if (owner[m] >= 0 && owner[m] < nparts) count[owner[m]]++;
  *empty_part = -1;
  for (int r = nparts - 1; r >= 0; r--)
    if (!count[r]) *empty_part = r;
  feast_free(&count);
  return 0;
}

/* METIS partition (recursive bisection or k-way) into owner; *metis_status = METIS_OK
 * on success */
static int metis_partition(const FeastMesh *mesh, int nranks, int recursive, int *owner,
                           int *metis_status) {
  idx_t *xadj = NULL, *adjncy = NULL, *part = NULL;
  FEAST_CALL(macro_graph(mesh, &xadj, &adjncy));
  int status = FEAST_ALLOC(mesh->nmacros, &part);
  if (!status) {
    idx_t nvtxs = mesh->nmacros, ncon = 1, nparts = nranks, objval = 0;
    idx_t options[METIS_NOPTIONS];
    METIS_SetDefaultOptions(options);
    options[METIS_OPTION_SEED] = PARTITION_SEED;
    options[METIS_OPTION_NUMBERING] = 0;
    if (recursive) {
      *metis_status = METIS_PartGraphRecursive(&nvtxs, &ncon, xadj, adjncy, NULL, NULL, NULL,
                                               &nparts, NULL, NULL, options, &objval, part);
    } else {
      options[METIS_OPTION_CONTIG] = 1; /* connected subdomains where the graph allows */
      *metis_status = METIS_PartGraphKway(&nvtxs, &ncon, xadj, adjncy, NULL, NULL, NULL,
                                          &nparts, NULL, NULL, options, &objval, part);
    }
    for (int m = 0; m < mesh->nmacros && *metis_status == METIS_OK; m++) owner[m] = (int)part[m];
  }
  feast_free(&xadj);
  feast_free(&adjncy);
  feast_free(&part);
  return status;
}

int feast_partition_macros(const FeastMesh *mesh, int nranks, int *owner) {
  FEAST_CHECK(mesh && owner && mesh->nmacros > 0, FEAST_ERR_ARG,
              "partition: no mesh or an empty mesh");
  FEAST_CHECK(nranks >= 1, FEAST_ERR_ARG, "partition: invalid rank count %d", nranks);
  int nm = mesh->nmacros;
  FEAST_CHECK(nranks <= nm, FEAST_ERR_CONFIG,
              "cannot run on %d MPI ranks: the mesh has only %d macros (use at most %d ranks)",
              nranks, nm, nm);
  if (nranks <= 2) return feast_partition_contiguous(nm, nranks, owner);
  int npairs;
  FEAST_CHECK(neighbour_pairs(mesh, &npairs) && npairs > 0, FEAST_ERR_ARG, "partition: the mesh topology is not built");

  /* k-way can leave parts empty on small graphs: then retry with recursive bisection */
  int metis_status = METIS_ERROR, empty = -1;
  for (int recursive = nranks <= RECURSIVE_MAX_PARTS; recursive <= 1; recursive++) {
    FEAST_CALL(metis_partition(mesh, nranks, recursive, owner, &metis_status));
    if (metis_status != METIS_OK) continue;
    FEAST_CALL(find_empty_part(owner, nm, nranks, &empty));
    if (empty < 0) return 0;
  }
  if (metis_status != METIS_OK)
    feast_warn("METIS failed (status %d) to partition %d macros into %d parts; "
               "using a contiguous split by macro id", metis_status, nm, nranks);
  else
    feast_warn("METIS left rank %d without macros (%d macros, %d ranks); "
               "using a contiguous split by macro id", empty, nm, nranks);
  return feast_partition_contiguous(nm, nranks, owner);
}

int feast_partition_local(const int *owner, int nmacros, int rank, int *nlocal, int **local_ids) {
  FEAST_CHECK(owner && nlocal && local_ids && nmacros >= 0 && rank >= 0, FEAST_ERR_ARG,
              "partition_local: invalid arguments");
  *local_ids = NULL;
  int n = 0;
  for (int m = 0; m < nmacros; m++) n += owner[m] == rank;
  FEAST_CALL(FEAST_ALLOC(n, local_ids));
  *nlocal = 0;
  for (int m = 0; m < nmacros; m++)
    if (owner[m] == rank) (*local_ids)[(*nlocal)++] = m;
  return 0;
}

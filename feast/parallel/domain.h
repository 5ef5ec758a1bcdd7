/* The distributed discretisation: which macros this rank holds, and per level their
 * refined coordinates, node ownership and the interface exchanges (boundary conditions
 * are per field: feast/la/mask.h). Vectors and matrices are stored per local macro and level; a node on a
 * macro edge or corner exists on every macro that touches it.
 * Vector states: "partial" (each macro holds its own contribution, e.g. the result of
 * a local matvec; the global value is the sum) and "consistent" (every copy holds the
 * global value). feast_domain_sum turns partial into consistent. */
#ifndef FEAST_DOMAIN_H
#define FEAST_DOMAIN_H
#include "feast/mesh/macro_grid.h"
#include "feast/parallel/exchange.h"
#include "feast/mesh/mesh.h"
#include <mpi.h>
#include <stdint.h>

typedef struct {
  int level, N;
  long nodes_per_macro;  /* N^2, on hexahedral macros N^3 (node (i, j, k) at (k N + j) N + i) */
  double **xy;           /* per local macro: dim coordinates per node (2 N^2 or 3 N^3) */
  unsigned char **owned; /* per local macro: 1 where this macro owns the node (lowest id) */
  double **weight;       /* per local macro: 1 / number of macros holding the node */
  FeastExchange *nodes;  /* shared nodes (vertices, edges, in 3D faces); array id = local macro index */
  FeastExchange *links;  /* matrix couplings between shared nodes, along shared edges (in 3D
                          * also within shared faces); array id = local * nbands + band
                          * (9 or 27 bands), index = the row's node */
  int64_t nglobal;       /* global number of nodes */
} FeastLevel;

typedef struct {
  const FeastMesh *mesh;
  MPI_Comm comm;
  int rank, size;
  int *owner;            /* nmacros: rank holding each macro */
  int nlocal;
  int *local;            /* local macro ids, ascending */
  int *local_of;         /* nmacros: local index or -1 */
  int finest;            /* levels 0..finest are built */
  FeastLevel *levels;
  struct FeastDevice *device; /* where new vectors live: NULL = host memory (feast/la/device.h;
                               * not owned) */
} FeastDomain;

int feast_domain_create(const FeastMesh *mesh, int finest, MPI_Comm comm, FeastDomain **dom);
void feast_domain_destroy(FeastDomain **dom);
/* *view <- dom with levels 0..finest only (0 <= finest <= dom->finest), sharing dom's
 * storage (no copy): the same macros, ranks and exchanges, for a problem on a coarser
 * level of the same distribution (grid sequencing). Valid while dom lives; never
 * destroyed. */
int feast_domain_coarser_view(const FeastDomain *dom, int finest, FeastDomain *view);
/* partial -> consistent: v[m] (per local macro, level l) summed over shared nodes */
int feast_domain_sum(const FeastDomain *dom, int level, double *const *v);


/* k sums over all macros of values given per local macro (per_local[j*nlocal + li]),
 * added in global macro order, so identical on any number of ranks; one reduction */
int feast_domain_sum_macros(const FeastDomain *dom, int k, const double *per_local, double *sums);
/* the same in two halves: begin starts the reduction (blocking = 0: MPI_Iallreduce, to
 * overlap with work before end; 1: MPI_Allreduce), end waits for it and sums in macro
 * order. Between them the caller may compute, and may issue other collectives (every
 * rank in the same order). */
typedef struct {
  const FeastDomain *dom;
  int k, pending;
  double *table, t0;
  MPI_Request req;
} FeastMacroSum;
int feast_domain_sum_macros_begin(const FeastDomain *dom, int k, const double *per_local, int blocking,
                                  FeastMacroSum *r);
int feast_domain_sum_macros_end(FeastMacroSum *r, double *sums);
/* The same status on every rank of comm (collective): a rank that succeeded while another
 * failed gets FEAST_ERR_FILE or FEAST_ERR_MPI with the message "WHAT failed on another
 * rank" (the failed rank keeps its status and message); 0 where all succeeded. */
int feast_status_agree(MPI_Comm comm, int status, const char *what);
#endif

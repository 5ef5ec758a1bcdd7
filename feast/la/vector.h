/* Distributed grid vectors on one level: nb blocks (fields), each stored per local
 * macro as a padded grid vector (feast/la/band9.h). Unless a function says otherwise,
 * vectors are consistent (every copy of a shared node holds the global value).
 * Reductions count each node once (at its owning macro) and add the per-macro partial
 * results in global macro order, so they are identical on any number of ranks. */
#ifndef FEAST_VECTOR_H
#define FEAST_VECTOR_H
#include "feast/parallel/domain.h"
#include "feast/la/band9.h"
#include "feast/la/mask.h"
#include "feast/la/device.h"

typedef struct {
  const FeastDomain *dom;
  int level, N, nb, nlocal;
  long n;        /* values per block and macro: N^2, on hexahedral macros N^3 */
  double **host; /* host[b * nlocal + li]: block b on local macro li (outside feast/la: feast_vec_block) */
  int view;      /* 1: storage belongs to another vector (feast_vec_view) */
  void *block;   /* the storage of all host[] (one block; NULL in the others of a set) */
  /* a vector of a domain with a device (feast/la/device.h; NULL: host memory only) */
  FeastDevice *device;
  double **dev;         /* dev[b * nlocal + li]: the device copy of host[b * nlocal + li] */
  void *dblock;         /* the device storage of a set's dev[] (in its first vector only) */
  unsigned char *valid; /* per array: FEAST_VEC_ON_HOST | FEAST_VEC_ON_DEVICE, where it is current */
} FeastVec;

enum { FEAST_VEC_ON_HOST = 1, FEAST_VEC_ON_DEVICE = 2 };
/* array a = b * nlocal + li of a device vector current on the host before a read (write
 * 0) or a use that may write (1: the device copy becomes stale); failures are recorded in
 * x->device (feast_device_status) */
void feast_vec_stage_host(const FeastVec *x, int a, int write);
/* the same for the arrays of block b on every local macro, adjacent stale ones in one copy */
void feast_vec_stage_block_host(const FeastVec *x, int b, int write);

/* zeroed; all arrays in one block (huge pages from 2 MiB on) */
int feast_vec_create(const FeastDomain *dom, int level, int nb, FeastVec **x);
/* count vectors of one level in one block (fewer page faults, less rounding to whole
 * pages than count blocks): *vecs[i] for i < count. The block belongs to *vecs[0]:
 * destroy them together. */
int feast_vec_create_set(const FeastDomain *dom, int level, int nb, int count, FeastVec **const *vecs);
void feast_vec_destroy(FeastVec **x); /* a view is only detached */
/* *view <- a one-block vector that is block b of x, sharing its storage (no copy): every
 * scalar operation and solver works on one field of a multi-field vector in place. Valid
 * while x lives; needs no destroy. */
void feast_vec_view(const FeastVec *x, int b, FeastVec *view);

/* ---- the host storage ----
 * Block b on local macro li is N x N values in host memory, numbered linewise (node
 * (i, j) at i + N j) and padded as by feast_grid_alloc (band9.h); on hexahedral macros
 * N^3 values ((k N + j) N + i) padded for the 27-band stencil (feast_band_vec_alloc). Outside feast/la the
 * values are reached only through the feast_vec_block accessors below (one name finds
 * every such place; tools/check_layers.py fails on any other use of FeastVec.host), and
 * every other operation on vectors is a function of this floor. A device-resident
 * vector would provide the accessors by staging: the host copy brought up to date
 * before they return, and marked newer than the device's after a use of the writable
 * forms (the _read forms leave the device copy valid); the floor's functions would run
 * on the device. The callers: per-macro kernels on the grid arrays together with
 * matrices, coordinates or cells (assembly, the system's and ScaRC's products, grid
 * transfer, the local and coarse-grid solves, boundary values) and output that needs
 * host values (VTK, sampling, benchmark quantities); docs/architecture.md lists them. */
static inline double *feast_vec_block(const FeastVec *x, int b, int li) {
  const int a = b * x->nlocal + li;
  if (x->valid && x->valid[a] != FEAST_VEC_ON_HOST) feast_vec_stage_host(x, a, 1);
  return x->host[a];
}
static inline const double *feast_vec_block_read(const FeastVec *x, int b, int li) {
  const int a = b * x->nlocal + li;
  if (x->valid && !(x->valid[a] & FEAST_VEC_ON_HOST)) feast_vec_stage_host(x, a, 0);
  return x->host[a];
}
/* block b on every local macro (element li: local macro li's values), for the per-macro
 * functions of other floors (feast_domain_sum, feast_exchange_*, feast_bc_values, VTK,
 * the direct and local solves) */
static inline double *const *feast_vec_blocks(const FeastVec *x, int b) {
  if (x->valid) feast_vec_stage_block_host(x, b, 1);
  return x->host + (long)b * x->nlocal;
}
static inline const double *const *feast_vec_blocks_read(const FeastVec *x, int b) {
  if (x->valid) feast_vec_stage_block_host(x, b, 0);
  return (const double *const *)(x->host + (long)b * x->nlocal);
}

/* A device vector's values in device memory for a backend that computes there (the CUDA
 * local multigrid): every array current on the device, the arrays one after the other
 * from the returned pointer (block b on local macro li at (b nlocal + li) n); NULL for a
 * host vector or after a failure (feast_device_status). _read leaves the host copies as
 * they were; _write is for a use that writes every value without reading one (the host
 * copies become stale). */
const double *feast_vec_device_read(const FeastVec *x);
double *feast_vec_device_write(FeastVec *x);

/* the grid transfer of feast/fem/transfer.h on device vectors (to's level one above
 * from's (upward 1, the prolongation) or one below (0, the restriction), the same block
 * count, both checked by the caller): 1 if it ran on the device (*status its failure, 0
 * if none), 0 if from or to is a host vector */
int feast_vec_transfer_on_device(const FeastVec *from, FeastVec *to, int upward, int *status);

/* A vector's values rounded to single precision, FeastVec's layout without the padding
 * (host[b * nlocal + li], N*N values): a Krylov basis kept so that its Gram-Schmidt
 * reads half the memory (FGMRES with FeastSolveParams.single_basis) */
typedef struct {
  const FeastDomain *dom;
  int level, N, nb, nlocal;
  float **host;       /* NULL with a device */
  void *block;
  FeastDevice *device; /* the domain's device: the values live there only */
  float *dev;          /* there: array a (block b on local macro li, a = b nlocal + li) at a n */
} FeastVecSingle;
int feast_vec_single_create(const FeastDomain *dom, int level, int nb, FeastVecSingle **x); /* zeroed */
void feast_vec_single_destroy(FeastVecSingle **x);
void feast_vec_single_store(const FeastVec *x, FeastVecSingle *y); /* y <- x rounded to float */
/* k products <x_i, y> (x_i widened exactly) with one global reduction, summed as
 * feast_vec_dots sums (the same on any number of ranks) */
int feast_vec_single_dots(int k, const FeastVecSingle *const *x, const FeastVec *y, double *out);
/* y <- y + sum_i a_i x_i, one pass over y as feast_vec_maxpy */
void feast_vec_single_maxpy(int k, const double *a, const FeastVecSingle *const *x, FeastVec *y);

void feast_vec_zero(FeastVec *x);
void feast_vec_copy(const FeastVec *x, FeastVec *y);                  /* y <- x */
void feast_vec_axpy(double a, const FeastVec *x, FeastVec *y);        /* y <- y + a x */
/* y <- y + sum_i a_i x_i (k vectors of y's shape), one pass over y: per value the additions
 * in the order i = 0..k-1, so bitwise the same as k calls of feast_vec_axpy */
void feast_vec_maxpy(int k, const double *a, const FeastVec *const *x, FeastVec *y);
void feast_vec_aypx(double a, const FeastVec *x, FeastVec *y);        /* y <- x + a y */
void feast_vec_scale(double a, FeastVec *x);                          /* x <- a x */
/* k dot products <x_i, y_i> with one global reduction */
int feast_vec_dots(int k, const FeastVec *const *x, const FeastVec *const *y, double *out);
/* the same, split: begin computes the local parts and starts the reduction (blocking = 0:
 * non-blocking, to overlap with work), end completes it (feast_domain_sum_macros_begin) */
int feast_vec_dots_begin(int k, const FeastVec *const *x, const FeastVec *const *y, int blocking, FeastMacroSum *r);
int feast_vec_dots_end(FeastMacroSum *r, double *out);
int feast_vec_dot(const FeastVec *x, const FeastVec *y, double *out);
int feast_vec_norm(const FeastVec *x, double *out); /* Euclidean norm over global nodes */
/* partial -> consistent (sum over shared nodes), all blocks */
int feast_vec_sum(FeastVec *x);
/* consistent -> partial: keep values only at owned nodes */
void feast_vec_to_partial(FeastVec *x);
/* 1 if every value is finite */
int feast_vec_finite(const FeastVec *x);
/* x <- a pseudo-random value in [-1, 1) at every node of every block, a hash of the
 * node's coordinates (rounded to 2^-30) and the block: the same on every macro sharing a
 * node and for every partition and rank count (a reproducible nonzero start) */
void feast_vec_fill_hash(FeastVec *x);

/* ---- pointwise operations (feast/la/vector_ops.c); w may be x or y ---- */
void feast_vec_set(FeastVec *x, double a);                                           /* x <- a everywhere */
void feast_vec_pointwise_mult(const FeastVec *x, const FeastVec *y, FeastVec *w);    /* w <- x .* y */
void feast_vec_pointwise_divide(const FeastVec *x, const FeastVec *y, FeastVec *w);  /* w <- x ./ y */
void feast_vec_pointwise_mult_add(double a, const FeastVec *x, const FeastVec *y, FeastVec *w); /* w <- w + a x .* y */
void feast_vec_waxpy(double a, const FeastVec *x, const FeastVec *y, FeastVec *w);   /* w <- a x + y */
/* x <- (a x + y) ./ d; y NULL: (a x + 0) ./ d */
void feast_vec_scale_add_divide(double a, const FeastVec *y, const FeastVec *d, FeastVec *x);
/* x <- x .* the node weights of its level (1 / the number of macros holding the node):
 * summed over the interfaces (feast_vec_sum), the average of the macros' values */
void feast_vec_scale_weights(FeastVec *x);
/* the first value (local macro 0 of the first block) <- NaN where x has a local macro: a
 * failed solve's mark for the outer Krylov method to report */
void feast_vec_mark_nan(FeastVec *x);

/* ---- block b at the fixed (Dirichlet) nodes of mask only ---- */
void feast_vec_zero_fixed(FeastVec *x, int b, const FeastMask *mask);                /* x_b <- 0 */
void feast_vec_copy_fixed(const FeastVec *x, FeastVec *y, int b, const FeastMask *mask); /* y_b <- x_b */
void feast_vec_sub_fixed(const FeastVec *x, FeastVec *y, int b, const FeastMask *mask);  /* y_b <- y_b - x_b */

/* a function of the node at (x, y) into *value; nonzero: an error status (2D meshes) */
typedef int (*FeastNodeFn)(void *ctx, double x, double y, double *value);
/* block b <- fn at every node (mask NULL) or at the fixed nodes of mask, macro by macro
 * in node order; returns fn's first error, where it stops */
int feast_vec_set_nodes(FeastVec *x, int b, const FeastMask *mask, FeastNodeFn fn, void *ctx);

/* ---- per-macro matrices A[li] of x's level on one-block vectors (views select a field):
 * partial results, no interface sum ---- */
void feast_vec_matvec(const FeastBand9 *A, const FeastVec *x, FeastVec *y);     /* y <- A x */
void feast_vec_matvec_add(const FeastBand9 *A, const FeastVec *x, FeastVec *y); /* y <- y + A x */
void feast_vec_diagonal(const FeastBand9 *A, FeastVec *d);                       /* d <- diag(A) */
/* y <- the sum of A[c] x[c] over the c < ncols whose A[c] is not NULL, added in column
 * order to a zero start (one row of a block operator; y is none of the x[c]) */
void feast_vec_matvec_row(int ncols, const FeastBand9 *const *A, const FeastVec *const *x, FeastVec *y);
/* y <- A x for the partial operators whose macro li is A[li] inside and R[li] on its
 * boundary ring (feast_band9_ring_matvec; R NULL: A[li] alone), as ScaRC stores them */
void feast_vec_matvec_ring(const FeastBand9 *A, const FeastBand9Ring *R, const FeastVec *x, FeastVec *y);
/* after matrices A (the array of the products above; for feast_vec_matvec_ring the ring
 * array R, which names the operator of A and R) were written, and before they are freed:
 * the device's copy of them goes (solver.residency = device; the next product there
 * copies them again). Every writer of matrices these products read calls it. */
void feast_vec_matrices_changed(const FeastDomain *dom, const void *A);
#endif

/* The CUDA local multigrid for a batch of macros, templated on the working precision T
 * (float: "single", double: "double"). It runs the algorithm of coproc/backend.h:
 *   levels lc..L; d = 0 on fixed nodes; x = 0; r = d;
 *   while ||r|| > rtol ||d||, ||r|| finite, cycles < max_cycles: x += V(L, r); r = d - A x
 *   V: pre-smoothing, defect, restriction (fixed coarse nodes 0), V on the coarser level,
 *   prolongation added on the free nodes, post-smoothing (the prolongation fused into the
 *   first post-smoothing step, k_prolong_jacobi); on level lc x = A^-1 b with the
 *   dense inverse the front end computed (one matvec, k_coarse).
 * All levels of all macros stay on the device from setup to destroy; an update copies
 * new values into the same buffers (no pointer changes, so the captured graph stays
 * valid): converted to T on the host while the framed levels are expanded into one pinned
 * staging buffer, then one asynchronous copy per level and one for the coarse inverses
 * (the masks cannot change: uploaded once at setup). A solve uploads the defects
 * (doubles, one copy; converted to T on the device), runs cycles (one launch per kernel
 * for the whole batch, or one CUDA graph per cycle) and downloads the corrections
 * (converted to double on the device, one copy) with the status: as many cycles as the
 * last solve needed are enqueued before the host looks, so a solve is one host round trip
 * when that was enough (see solve). */
#ifndef FEAST_CUDA_SOLVER_CUH
#define FEAST_CUDA_SOLVER_CUH
#include "coproc/cuda/kernels.cuh"
#ifndef OMPI_SKIP_MPICXX
#define OMPI_SKIP_MPICXX 1
#endif
#ifndef MPICH_SKIP_MPICXX
#define MPICH_SKIP_MPICXX 1
#endif
#include <mpi.h> /* before feast/base/log.h's C linkage block */
extern "C" {
#include "feast/base/log.h"
}
#include <stdlib.h>
#include <string.h>
#include <time.h>

namespace feast_cuda {

int select_device(void); /* local_mg.cu: node-local rank modulo device count, once */

inline int graph_warnings; /* failed graph captures in this process */

namespace { /* internal linkage: every .cu of this folder has its own copy */

/* a parameter a captured cycle holds (launch sizes, omega, rtol, max_cycles) differs */
inline int graph_stale(const FeastLocalMGParams &a, const FeastLocalMGParams &b) {
  return a.pre_smooth != b.pre_smooth || a.post_smooth != b.post_smooth ||
         a.jacobi_damping != b.jacobi_damping || a.rtol != b.rtol || a.max_cycles != b.max_cycles;
}

inline long round_up(long v, long to) { return (v + to - 1) / to * to; }

/* nodes of level l rounded up: the stride of bands and masks per macro */
inline long level_nal(int l) { return round_up(((1L << l) + 1) * ((1L << l) + 1), 32); }

inline double wall_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* band k of a framed matrix as a whole band in the working precision, by type */
inline void framed_expand(const FeastBand9Framed *A, int k, float *dst) { feast_band9_framed_expand_f(A, k, dst); }
inline void framed_expand(const FeastBand9Framed *A, int k, double *dst) { feast_band9_framed_expand_d(A, k, dst); }

/* one level of all macros: device storage and launch sizes */
template <typename T> struct Level {
  LevelView<T> v;          /* what the kernels see */
  T *bands;                /* 9 nal values per macro */
  unsigned char *fixed;    /* nal per macro */
  T *vecs;                 /* the padded vectors below, one allocation */
  T *xa, *xb, *b, *r;      /* iterate ping-pong, right-hand side, defect */
  int nblk, nred;          /* blocks per macro: one thread per node / reductions */
  size_t vec_bytes;        /* one padded vector of all macros */
};

template <typename T> struct Solver {
  int M, L, lc, nlev;      /* macros, finest level, coarsest level, levels lc..L */
  int graphs;              /* replay a captured graph per cycle */
  FeastLocalMGParams p;
  Level<T> lev[FEAST_CUDA_MAX_LEVEL + 1]; /* lev[0] = level lc, lev[nlev-1] = L */
  T *top;                  /* d and xt of the finest level (padded), one allocation */
  T *d, *xt;               /* defect, accumulated correction */
  double *io;              /* defects in, corrections out: compact doubles, n per macro */
  T *inv;                  /* inverses of the coarsest matrices, n_lc^2 per macro, column-major */
  double *partial, *nrm0;  /* per-block partial sums of squares; ||d|| per macro */
  int *active, *stat, *nactive; /* device status: see k_status; nactive = stat + 3 M */
  int maxred;              /* partial sums per macro (stride of partial) */
  double *h_io;            /* pinned staging of io */
  T *h_vals;               /* pinned staging of the matrix values: levels, then inverses */
  size_t stage_off[FEAST_CUDA_MAX_LEVEL + 2], stage_total; /* level li at stage_off[li],
                              the inverses at stage_off[nlev]; values in all */
  long launches;           /* kernel launches enqueued so far */
  long memops;             /* memsets and copies enqueued so far */
  int launches_per_cycle;  /* of one cycle (enqueue_cycle): kernels */
  int memops_per_cycle;    /* and memsets and copies */
  double h2d_bytes, d2h_bytes; /* host <-> device bytes of the last solve */
  int round_trips;         /* host waits for the device in the last solve */
  int captures;            /* graphs captured so far */
  int upd_copies;          /* host -> device copies of the last setup/update's values */
  double upd_bytes;        /* and their bytes */
  double upd_host_s;       /* host seconds of the last setup/update's value upload */
  int *h_stat, *h_nactive; /* pinned copy of stat and nactive; h_nactive = h_stat + 3 M */
  int predict;             /* cycles enqueued before the first look at the device: the
                              slowest macro's cycles in the last solve (1 before the first) */
  FeastLocalMGParams frozen; /* the parameters the captured graph holds */
  cudaStream_t stream;
  cudaGraph_t graph;
  cudaGraphExec_t exec;

  /* ---------------------------------------------------------------- setup */

  /* storage of lev[li] for level l (4 padded vectors per macro) */
  int alloc_level(int li, int l) {
    const int nvec = 4;
    Level<T> &g = lev[li];
    const int N = (1 << l) + 1;
    g.v.N = N;
    g.v.n = (long)N * N;
    g.v.nal = level_nal(l);
    g.v.pad = round_up(N + 1, 32); /* aligns value 0 of every macro */
    g.v.vs = g.v.nal + 2 * g.v.pad;
    g.nblk = (int)((g.v.n + FEAST_CUDA_BLOCK - 1) / FEAST_CUDA_BLOCK);
    g.nred = g.nblk < FEAST_CUDA_MAX_RED_BLOCKS ? g.nblk : FEAST_CUDA_MAX_RED_BLOCKS;
    g.vec_bytes = sizeof(T) * (size_t)M * (size_t)g.v.vs;
    const size_t nb = sizeof(T) * (size_t)M * 9 * (size_t)g.v.nal;
    const size_t nf = (size_t)M * (size_t)g.v.nal;
    FEAST_CUDA_MALLOC((void **)&g.bands, nb);
    FEAST_CUDA_MALLOC((void **)&g.fixed, nf);
    FEAST_CUDA_MALLOC((void **)&g.vecs, g.vec_bytes * nvec);
    FEAST_CUDA_CALL(cudaMemset(g.bands, 0, nb));
    FEAST_CUDA_CALL(cudaMemset(g.fixed, 0, nf));
    FEAST_CUDA_CALL(cudaMemset(g.vecs, 0, g.vec_bytes * nvec)); /* padding stays 0 */
    const size_t vs = (size_t)M * (size_t)g.v.vs;
    g.xa = g.vecs;
    g.xb = g.vecs + vs;
    g.b = g.vecs + 2 * vs;
    g.r = g.vecs + 3 * vs;
    g.v.bands = g.bands;
    g.v.fixed = g.fixed;
    return 0;
  }

  /* level lc + li of every macro, expanded and converted to T in one pass, into its part
   * of the pinned staging buffer: band k of macro m at (9 m + k) n */
  int stage_level(int li, const FeastLocalHierarchy *h) {
    Level<T> &g = lev[li];
    const int l = lc + li;
    const long n = g.v.n;
    T *dst = h_vals + stage_off[li];
    for (int m = 0; m < M; m++) {
      const FeastBand9 *in = h[m].A[l].inside;
      FEAST_CHECK(in && in->N == g.v.N, FEAST_ERR_ARG,
                  "macro %d of the batch, level %d: no matrix or N = %d, expected %d", m, l,
                  in ? in->N : 0, g.v.N);
      for (int k = 0; k < FEAST_NBANDS; k++)
        framed_expand(&h[m].A[l], k, dst + ((size_t)m * 9 + k) * (size_t)n);
    }
    return 0;
  }

  /* the coarse inverses, converted, after the levels in the staging buffer */
  void stage_inverses(const FeastLocalHierarchy *h) {
    const size_t n2 = (size_t)lev[0].v.n * (size_t)lev[0].v.n;
    T *dst = h_vals + stage_off[nlev];
    for (int m = 0; m < M; m++)
      for (size_t i = 0; i < n2; i++) dst[(size_t)m * n2 + i] = (T)h[m].coarse_inv[i];
  }

  /* staged level li -> its device bands: one 2D copy (9 M rows of n values, device rows
   * nal apart) on `stream` */
  int copy_level(int li) {
    Level<T> &g = lev[li];
    const size_t row = sizeof(T) * (size_t)g.v.n;
    FEAST_CUDA_CALL(cudaMemcpy2DAsync(g.bands, sizeof(T) * (size_t)g.v.nal, h_vals + stage_off[li],
                                      row, row, (size_t)M * 9, cudaMemcpyHostToDevice, stream));
    upd_copies++;
    upd_bytes += (double)row * 9.0 * M;
    return 0;
  }

  /* The values of every level and the coarse inverses into the existing device storage
   * (setup and update): staged in the pinned buffer, then one copy per level and one for
   * the inverses, asynchronous on `stream` (so ordered before the next solve's kernels).
   * The staging buffer is reused: wait for `stream` first (the last update's copies). */
  int upload_values(const FeastLocalHierarchy *h) {
    const double t0 = wall_s();
    upd_copies = 0;
    upd_bytes = 0;
    FEAST_CUDA_CALL(cudaStreamSynchronize(stream));
    for (int li = 0; li < nlev; li++) FEAST_CALL(stage_level(li, h));
    stage_inverses(h);
    for (int li = 0; li < nlev; li++) FEAST_CALL(copy_level(li));
    const size_t ib = sizeof(T) * (size_t)(stage_total - stage_off[nlev]);
    FEAST_CUDA_CALL(cudaMemcpyAsync(inv, h_vals + stage_off[nlev], ib, cudaMemcpyHostToDevice,
                                    stream));
    upd_copies++;
    upd_bytes += (double)ib;
    upd_host_s = wall_s() - t0;
    return 0;
  }

  /* the fixed-node masks, which no update changes: once, at setup */
  int upload_masks(const FeastLocalHierarchy *h) {
    for (int li = 0; li < nlev; li++)
      for (int m = 0; m < M; m++)
        FEAST_CUDA_CALL(cudaMemcpy(lev[li].fixed + (size_t)m * lev[li].v.nal, h[m].fixed[lc + li],
                                   (size_t)lev[li].v.n, cudaMemcpyHostToDevice));
    return 0;
  }

  /* status arrays, the finest level's extra vectors, staging buffers */
  int alloc_batch(void) {
    Level<T> &t = lev[nlev - 1];
    maxred = t.nred;
    FEAST_CUDA_MALLOC((void **)&top, 2 * t.vec_bytes);
    FEAST_CUDA_CALL(cudaMemset(top, 0, 2 * t.vec_bytes));
    d = top;
    xt = top + (size_t)M * t.v.vs;
    const size_t nio = sizeof(double) * (size_t)M * (size_t)t.v.n;
    FEAST_CUDA_MALLOC((void **)&io, nio);
    FEAST_CUDA_MALLOC((void **)&partial, sizeof(double) * (size_t)M * maxred);
    FEAST_CUDA_MALLOC((void **)&nrm0, sizeof(double) * M);
    FEAST_CUDA_MALLOC((void **)&active, sizeof(int) * M);
    FEAST_CUDA_MALLOC((void **)&stat, sizeof(int) * (3 * M + 1));
    nactive = stat + 3 * M;
    FEAST_CUDA_CALL(cudaMemset(active, 0, sizeof(int) * M));
    FEAST_CUDA_CALL(cudaMemset(stat, 0, sizeof(int) * (3 * M + 1)));
    FEAST_CUDA_CALL(cudaMallocHost((void **)&h_io, nio));
    FEAST_CUDA_CALL(cudaMallocHost((void **)&h_stat, sizeof(int) * (3 * M + 1)));
    h_nactive = h_stat + 3 * M;
    predict = 1;
    const size_t n2 = (size_t)lev[0].v.n * (size_t)lev[0].v.n;
    FEAST_CUDA_MALLOC((void **)&inv, sizeof(T) * (size_t)M * n2);
    for (int li = 0; li < nlev; li++) stage_off[li + 1] = stage_off[li] + (size_t)M * 9 * (size_t)lev[li].v.n;
    stage_total = stage_off[nlev] + (size_t)M * n2;
    FEAST_CUDA_CALL(cudaMallocHost((void **)&h_vals, sizeof(T) * stage_total));
    return 0;
  }

  /* every level's values can be uploaded: a 2D copy's rows (nal values) within the
   * device's largest pitch */
  int check_pitch(void) {
    int dev = 0, maxp = 0;
    FEAST_CUDA_CALL(cudaGetDevice(&dev));
    FEAST_CUDA_CALL(cudaDeviceGetAttribute(&maxp, cudaDevAttrMaxPitch, dev));
    for (int li = 0; li < nlev; li++) {
      const double pitch = (double)sizeof(T) * (double)level_nal(lc + li);
      FEAST_CHECK(pitch <= (double)maxp, FEAST_ERR_LIMIT,
                  "the CUDA backend cannot upload local level %d (%d x %d nodes): a row of its "
                  "bands is %.0f bytes, more than the device's largest copy pitch of %d bytes "
                  "(cudaDevAttrMaxPitch); use a smaller grid.level or solver.target = cpu",
                  lc + li, (1 << (lc + li)) + 1, (1 << (lc + li)) + 1, pitch, maxp);
    }
    return 0;
  }

  int setup(int nmacros, const FeastLocalHierarchy *h, const FeastLocalMGParams *params) {
    FEAST_CHECK(nmacros >= 1 && nmacros <= 65535, FEAST_ERR_LIMIT,
                "the CUDA backend takes 1..65535 macros per batch, got %d", nmacros);
    M = nmacros;
    p = *params;
    L = h[0].level;
    lc = h[0].coarse;
    FEAST_CHECK(L >= 0 && L <= FEAST_CUDA_MAX_LEVEL, FEAST_ERR_LIMIT,
                "the CUDA backend takes local levels 0..%d, got %d", FEAST_CUDA_MAX_LEVEL, L);
    nlev = L - lc + 1;
    FEAST_CALL(select_device());
    FEAST_CALL(check_pitch());
    FEAST_CUDA_CALL(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    for (int li = 0; li < nlev; li++) FEAST_CALL(alloc_level(li, lc + li));
    FEAST_CALL(alloc_batch());
    FEAST_CALL(upload_masks(h));
    /* the memsets and mask copies above ran on the legacy stream, which `stream`
     * (non-blocking) does not wait for */
    FEAST_CUDA_CALL(cudaDeviceSynchronize());
    FEAST_CALL(upload_values(h));
    const char *env = getenv("FEAST_CUDA_GRAPHS");
    graphs = !(env && env[0] == '0'); /* captured at the first cycle */
    return 0;
  }

  /* new values, same storage: the captured graph stays valid */
  int update(const FeastLocalHierarchy *h) { return upload_values(h); }

  void destroy(void) {
    if (stream) (void)cudaStreamSynchronize(stream); /* copies from the staging buffers */
    drop_graph();
    for (int li = 0; li < nlev; li++) {
      (void)cudaFree(lev[li].bands);
      (void)cudaFree(lev[li].fixed);
      (void)cudaFree(lev[li].vecs);
    }
    (void)cudaFree(top);
    (void)cudaFree(io);
    (void)cudaFree(inv);
    (void)cudaFree(partial);
    (void)cudaFree(nrm0);
    (void)cudaFree(active);
    (void)cudaFree(stat);
    if (h_io) (void)cudaFreeHost(h_io);
    if (h_vals) (void)cudaFreeHost(h_vals);
    if (h_stat) (void)cudaFreeHost(h_stat);
    if (stream) (void)cudaStreamDestroy(stream);
    (void)cudaGetLastError();
  }

  /* ------------------------------------------------------------- the cycle */

  /* steps damped Jacobi steps on lev[li] starting from *x; *x <- the buffer holding the
   * result (xa and xb alternate). acc: the last step adds its result to acc (then *x is
   * not written; see k_jacobi) */
  int smooth(int li, int steps, T **x, T *acc) {
    Level<T> &g = lev[li];
    const dim3 grid(g.nblk, M);
    const T omega = (T)p.jacobi_damping;
    for (int s = 0; s < steps; s++) {
      T *xin = *x, *xout = xin == g.xa ? g.xb : g.xa;
      T *add = s == steps - 1 ? acc : NULL;
      ++launches;
      FEAST_LAUNCH(k_jacobi<T>, grid, FEAST_CUDA_BLOCK, stream, g.v, active, xin, xout, g.b,
                   omega, add);
      *x = xout;
    }
    return 0;
  }

  /* x <- the pre-smoothed iterate on lev[li] from x = 0: the first step from zero (no
   * memset; bitwise what a sweep of x = 0 gives), then pre_smooth - 1 steps */
  int pre_smooth(int li, T **x) {
    Level<T> &g = lev[li];
    *x = g.xa;
    if (p.pre_smooth == 0) {
      ++memops;
      FEAST_CUDA_CALL(cudaMemsetAsync(g.xa, 0, g.vec_bytes, stream)); /* x = 0 */
      return 0;
    }
    ++launches;
    FEAST_LAUNCH(k_jacobi_zero<T>, dim3(g.nblk, M), FEAST_CUDA_BLOCK, stream, g.v, active, g.xa,
                 g.b, (T)p.jacobi_damping);
    return smooth(li, p.pre_smooth - 1, x, NULL);
  }

  /* V(L, b) from x = 0 with b = lev[top].b, added to xt: *added <- 1 if the last
   * post-smoothing step of the finest level added it (fused), else 0 and *xfin <- the
   * buffer holding V(L, b) */
  int enqueue_vcycle(T **xfin, int *added) {
    T *xl[FEAST_CUDA_MAX_LEVEL + 1];
    for (int li = nlev - 1; li >= 1; li--) {
      Level<T> &f = lev[li], &c = lev[li - 1];
      T *x = NULL;
      FEAST_CALL(pre_smooth(li, &x));
      ++launches;
      FEAST_LAUNCH(k_defect<T>, dim3(f.nblk, M), FEAST_CUDA_BLOCK, stream, f.v, active, f.b, x,
                   f.r);
      ++launches;
      FEAST_LAUNCH(k_restrict<T>, dim3(c.nblk, M), FEAST_CUDA_BLOCK, stream, f.v, c.v, active,
                   f.r, c.b);
      xl[li] = x;
    }
    Level<T> &c = lev[0];
    const T *cinv = inv;
    ++launches;
    FEAST_LAUNCH_SYNC(k_coarse<T>, dim3(c.nblk, M), FEAST_CUDA_BLOCK, stream, c.v, active, cinv,
                      c.b, c.xa);
    T *xc = c.xa;
    *added = nlev > 1 && p.post_smooth > 0;
    for (int li = 1; li < nlev; li++) {
      Level<T> &f = lev[li], &cc = lev[li - 1];
      T *x = xl[li], *acc = li == nlev - 1 && *added ? xt : NULL;
      if (p.post_smooth > 0) {
        /* prolongation fused into the first post-smoothing step: x + P xc is formed in
         * the step and never stored (x keeps the pre-smoothed iterate, which the second
         * step overwrites; nothing reads it), the step writes the other buffer */
        const T *xin = x;
        T *xout = x == f.xa ? f.xb : f.xa;
        T *add = p.post_smooth == 1 ? acc : NULL;
        const T omega = (T)p.jacobi_damping;
        ++launches;
        FEAST_LAUNCH(k_prolong_jacobi<T>, dim3(f.nblk, M), FEAST_CUDA_BLOCK, stream, f.v, cc.v,
                     active, xin, xc, xout, f.b, omega, add);
        x = xout;
        FEAST_CALL(smooth(li, p.post_smooth - 1, &x, acc));
      } else {
        ++launches;
        FEAST_LAUNCH(k_prolong_add<T>, dim3(f.nblk, M), FEAST_CUDA_BLOCK, stream, f.v, cc.v,
                     active, x, xc);
      }
      xc = x;
    }
    *xfin = xc;
    return 0;
  }

  /* one cycle of the active macros: xt += V(L, r); r = d - A xt; status (nothing to the
   * host: the host looks at nactive only every few cycles, see solve) */
  int enqueue_cycle(void) {
    Level<T> &t = lev[nlev - 1];
    const long l0 = launches, o0 = memops;
    T *xv = NULL;
    int added = 0;
    FEAST_CALL(enqueue_vcycle(&xv, &added));
    if (!added) {
      ++launches;
      FEAST_LAUNCH(k_add<T>, dim3(t.nblk, M), FEAST_CUDA_BLOCK, stream, t.v, active, xt, xv);
    }
    const int mr = maxred, mc = p.max_cycles;
    const double rtol = p.rtol;
    ++launches;
    FEAST_LAUNCH_SYNC(k_defect_norm<T>, dim3(t.nred, M), FEAST_CUDA_BLOCK, stream, t.v, active,
                      d, xt, t.b, partial, mr, nactive);
    ++launches;
    FEAST_LAUNCH_SYNC(k_status, dim3(1, M), FEAST_CUDA_BLOCK, stream, M, t.nred, mr, partial,
                      nrm0, active, stat, nactive, 0, rtol, mc);
    launches_per_cycle = (int)(launches - l0);
    memops_per_cycle = (int)(memops - o0);
    return 0;
  }

  void drop_graph(void) {
    if (exec) (void)cudaGraphExecDestroy(exec);
    if (graph) (void)cudaGraphDestroy(graph);
    exec = NULL;
    graph = NULL;
  }

  /* capture enqueue_cycle into a graph (all pointers are fixed; the parameters it freezes
   * are kept in `frozen`) */
  int capture_graph(void) {
    drop_graph();
    FEAST_CUDA_CALL(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    const int rc = enqueue_cycle();
    cudaGraph_t g = NULL;
    const cudaError_t e = cudaStreamEndCapture(stream, &g); /* always end the capture */
    if (rc) {
      if (g) (void)cudaGraphDestroy(g);
      (void)cudaGetLastError();
      return rc;
    }
    FEAST_CUDA_CALL(e);
    graph = g;
    FEAST_CUDA_CALL(cudaGraphInstantiateWithFlags(&exec, graph, 0));
    frozen = p;
    captures++;
    return 0;
  }

  /* one cycle: the captured graph, captured again when a parameter it froze changed; if
   * a capture fails, direct launches from then on (one warning per process) */
  int launch_cycle(void) {
    if (graphs && (!exec || graph_stale(frozen, p)) && capture_graph()) {
      if (graph_warnings++ == 0)
        feast_warn("CUDA graph capture failed (%s); the local multigrid launches its kernels "
                   "one by one", feast_error_message());
      feast_error_clear();
      drop_graph();
      graphs = 0;
    }
    if (graphs) {
      FEAST_CUDA_CALL(cudaGraphLaunch(exec, stream));
      return 0;
    }
    return enqueue_cycle();
  }

  /* -------------------------------------------------------------- a solve */

  /* defects (doubles) -> pinned -> io on the device (one copy) -> d, converted to T on
   * the device. Defects in device memory (dd, solve_device): copied to io on the device,
   * after the legacy stream's work that wrote them */
  int upload_defects(const double *const *dh, const double *dd) {
    Level<T> &t = lev[nlev - 1];
    const long n = t.v.n;
    const size_t bytes = sizeof(double) * (size_t)M * (size_t)n;
    if (dd) {
      FEAST_CUDA_CALL(cudaStreamSynchronize(0));
      FEAST_CUDA_CALL(cudaMemcpyAsync(io, dd, bytes, cudaMemcpyDeviceToDevice, stream));
      h2d_bytes = 0;
    } else {
      for (int m = 0; m < M; m++) memcpy(h_io + (size_t)m * n, dh[m], sizeof(double) * (size_t)n);
      FEAST_CUDA_CALL(cudaMemcpyAsync(io, h_io, bytes, cudaMemcpyHostToDevice, stream));
      h2d_bytes = (double)bytes;
    }
    const double *in = io;
    ++launches;
    FEAST_LAUNCH(k_input<T>, dim3(t.nblk, M), FEAST_CUDA_BLOCK, stream, t.v, in, d);
    return 0;
  }

  /* r = d, xt = 0, ||d|| and the status of every macro */
  int enqueue_init(void) {
    Level<T> &t = lev[nlev - 1];
    const int mr = maxred, mc = p.max_cycles;
    const double rtol = p.rtol;
    ++launches;
    FEAST_LAUNCH_SYNC(k_init<T>, dim3(t.nred, M), FEAST_CUDA_BLOCK, stream, t.v, d, t.b, xt,
                      partial, mr, nactive);
    ++launches;
    FEAST_LAUNCH_SYNC(k_status, dim3(1, M), FEAST_CUDA_BLOCK, stream, M, t.nred, mr, partial,
                      nrm0, active, stat, nactive, 1, rtol, mc);
    return 0;
  }

  /* corrections (fixed nodes 0, non-finite macros 0; doubles converted on the device),
   * status and active count -> pinned host buffers: one round trip. Corrections kept in
   * device memory (cd, solve_device): copied there on the device, only the status back */
  int fetch(double *cd) {
    Level<T> &t = lev[nlev - 1];
    const long n = t.v.n;
    int *bad = stat + 2 * M;
    ++launches;
    FEAST_LAUNCH(k_output<T>, dim3(t.nblk, M), FEAST_CUDA_BLOCK, stream, t.v, xt, io, bad);
    ++launches;
    FEAST_LAUNCH(k_zero_bad<double>, dim3(t.nblk, M), FEAST_CUDA_BLOCK, stream, n, bad, io);
    const size_t bytes = sizeof(double) * (size_t)M * (size_t)n, sb = sizeof(int) * (3 * M + 1);
    if (cd) FEAST_CUDA_CALL(cudaMemcpyAsync(cd, io, bytes, cudaMemcpyDeviceToDevice, stream));
    else FEAST_CUDA_CALL(cudaMemcpyAsync(h_io, io, bytes, cudaMemcpyDeviceToHost, stream));
    FEAST_CUDA_CALL(cudaMemcpyAsync(h_stat, stat, sb, cudaMemcpyDeviceToHost, stream));
    FEAST_CUDA_CALL(cudaStreamSynchronize(stream));
    d2h_bytes += (double)((cd ? 0 : bytes) + sb);
    round_trips++;
    return 0;
  }

  /* the active count alone -> host: one round trip */
  int fetch_count(void) {
    FEAST_CUDA_CALL(cudaMemcpyAsync(h_nactive, nactive, sizeof(int), cudaMemcpyDeviceToHost,
                                    stream));
    FEAST_CUDA_CALL(cudaStreamSynchronize(stream));
    d2h_bytes += sizeof(int);
    round_trips++;
    return 0;
  }

  /* the fetched corrections and statistics to the caller; predict <- the slowest macro's
   * cycles */
  void unpack(double *const *c, FeastLocalMGStats *stats) {
    const long n = lev[nlev - 1].v.n;
    for (int m = 0; c && m < M; m++) memcpy(c[m], h_io + (size_t)m * n, sizeof(double) * (size_t)n);
    memset(stats, 0, sizeof *stats);
    predict = 1;
    for (int m = 0; m < M; m++) {
      stats->cycles += h_stat[m];
      stats->max_cycles_hit += h_stat[M + m];
      stats->nonfinite += h_stat[2 * M + m];
      predict = h_stat[m] > predict ? h_stat[m] : predict;
    }
  }

  /* Cycles run on the device until every macro has stopped (a macro that stopped is
   * inactive: further cycles leave it as it is). The host enqueues `predict` cycles and
   * fetches the result at once: one round trip when that was enough (always for a fixed
   * number of cycles after the first solve). Else one cycle and a look at the active
   * count at a time, and the result fetched again. */
  int solve(const double *const *dh, double *const *c, FeastLocalMGStats *stats) {
    return run(dh, c, nullptr, nullptr, stats);
  }
  /* the same on defects dd and corrections cd in device memory (M arrays of n doubles one
   * after the other, as the vectors of solver.residency = device), written and read by
   * the legacy stream's work: no host copy of either */
  int solve_device(const double *dd, double *cd, FeastLocalMGStats *stats) {
    return run(nullptr, nullptr, dd, cd, stats);
  }
  int run(const double *const *dh, double *const *c, const double *dd, double *cd, FeastLocalMGStats *stats) {
    FEAST_CALL(upload_defects(dh, dd));
    FEAST_CALL(enqueue_init());
    d2h_bytes = 0;
    round_trips = 0;
    int done = predict < p.max_cycles ? predict : p.max_cycles;
    for (int k = 0; k < done; k++) FEAST_CALL(launch_cycle());
    FEAST_CALL(fetch(cd));
    if (*h_nactive > 0 && done < p.max_cycles) {
      while (*h_nactive > 0 && done < p.max_cycles) {
        FEAST_CALL(launch_cycle());
        if (++done < p.max_cycles) FEAST_CALL(fetch_count());
      }
      FEAST_CALL(fetch(cd));
    }
    unpack(c, stats);
    return 0;
  }
};

} /* namespace */
} /* namespace feast_cuda */
#endif

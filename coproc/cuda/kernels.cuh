/* Device kernels of the CUDA local multigrid. Every launch covers all macros of the batch:
 * blockIdx.y = macro m, blockIdx.x (x threadIdx.x) = node of the macro's grid. Kernels of
 * the V cycle skip macros whose `active` flag is 0 (block-uniform early return). The
 * per-point arithmetic is the FEAST_HD code of feast/la/band9_kernels.h, which the CPU
 * backends run too.
 * Storage of one level (see LevelView): bands band-major per macro, padded grid vectors
 * (pad >= N+1 zeros before and after the N*N values; kernels never write the padding). */
#ifndef FEAST_CUDA_KERNELS_CUH
#define FEAST_CUDA_KERNELS_CUH
#include "coproc/cuda/cuda_common.cuh"

namespace feast_cuda {
namespace { /* internal linkage: every .cu of this folder has its own copy */

/* one level of all macros of the batch, as the kernels see it (device pointers) */
template <typename T> struct LevelView {
  int N;                      /* nodes per side, N = 2^l + 1 */
  long n;                     /* N*N nodes per macro */
  long nal;                   /* n rounded up: stride of bands and masks per macro */
  long pad;                   /* zeros before value 0 of a padded vector (>= N+1) */
  long vs;                    /* stride of a padded vector per macro: pad + nal + pad */
  const T *bands;             /* band k of macro m at bands + (9 m + k) nal */
  const unsigned char *fixed; /* fixed-node mask of macro m at fixed + m nal */
};

#ifdef FEAST_CUDA_EMU
/* the emulator checks the device pointers of a LevelView argument (null: all device) */
template <typename T> inline const void *feast_emu_device_args(const LevelView<T> &g) {
  if (const void *b = feast_emu_not_device(g.bands)) return b;
  return feast_emu_not_device(g.fixed);
}
#endif

/* offset of value 0 of macro m in a padded vector of all macros */
template <typename T> __device__ __forceinline__ size_t voff(const LevelView<T> &g, int m) {
  return (size_t)m * (size_t)g.vs + (size_t)g.pad;
}

template <typename T>
__device__ __forceinline__ void bands_of(const LevelView<T> &g, int m, const T *band[9]) {
  const T *b = g.bands + (size_t)m * 9 * (size_t)g.nal;
  for (int k = 0; k < 9; k++) band[k] = b + (size_t)k * (size_t)g.nal;
}

/* the shared per-point math, by type */
__device__ __forceinline__ float row9(const float *const *b, const float *x, long i, long N) {
  return feast_band9_row_f(b, x, i, N);
}
__device__ __forceinline__ double row9(const double *const *b, const double *x, long i, long N) {
  return feast_band9_row_d(b, x, i, N);
}
__device__ __forceinline__ float jacobi(const float *const *a, const float *b, const float *x,
                                        long i, long N, float w) {
  return feast_jacobi_point_f(a, b, x, i, N, w);
}
__device__ __forceinline__ double jacobi(const double *const *a, const double *b,
                                         const double *x, long i, long N, double w) {
  return feast_jacobi_point_d(a, b, x, i, N, w);
}
__device__ __forceinline__ float jacobi_zero(float b, float diag, float w) {
  return feast_jacobi_zero_point_f(b, diag, w);
}
__device__ __forceinline__ double jacobi_zero(double b, double diag, double w) {
  return feast_jacobi_zero_point_d(b, diag, w);
}
__device__ __forceinline__ float prolong(const float *c, int Nc, int i, int j) {
  return feast_prolongate_point_f(c, Nc, i, j);
}
__device__ __forceinline__ double prolong(const double *c, int Nc, int i, int j) {
  return feast_prolongate_point_d(c, Nc, i, j);
}
__device__ __forceinline__ float restrict9(const float *f, int Nf, int I, int J) {
  return feast_restrict_point_f(f, Nf, I, J);
}
__device__ __forceinline__ double restrict9(const double *f, int Nf, int I, int J) {
  return feast_restrict_point_d(f, Nf, I, J);
}

__device__ __forceinline__ float dense_row(const float *inv, const float *b, long i, long n) {
  return feast_dense_row_f(inv, b, i, n);
}
__device__ __forceinline__ double dense_row(const double *inv, const double *b, long i, long n) {
  return feast_dense_row_d(inv, b, i, n);
}

/* finite without relying on math-library overloads: inf - inf and NaN - NaN are NaN */
template <typename T> __device__ __forceinline__ bool is_finite(T v) { return v - v == (T)0; }

/* sum of v over the block, returned to every thread; red holds blockDim.x doubles.
 * Called by all threads of the block (it synchronises). Fixed order: deterministic. */
__device__ __forceinline__ double block_sum(double v, double *red) {
  const unsigned t = threadIdx.x;
  red[t] = v;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) red[t] += red[t + s];
    __syncthreads();
  }
  const double sum = red[0];
  __syncthreads(); /* red is reused by the next call */
  return sum;
}

/* node of this thread within macro blockIdx.y (one thread per node) */
__device__ __forceinline__ long node_index(void) {
  return (long)blockIdx.x * (long)blockDim.x + (long)threadIdx.x;
}

/* damped Jacobi step: v = xin + omega (b - A xin) / diag(A); xout <- v, or with acc
 * (the last step of a V cycle on the finest level): acc <- acc + v, xout not written */
template <typename T>
__global__ void k_jacobi(LevelView<T> g, const int *active, const T *xin, T *xout, const T *b,
                         T omega, T *acc) {
  const int m = blockIdx.y;
  const long i = node_index();
  if (!active[m] || i >= g.n) return;
  const T *band[9];
  bands_of(g, m, band);
  const size_t o = voff(g, m);
  const T v = jacobi(band, b + o, xin + o, i, g.N, omega);
  if (acc) acc[o + i] += v;
  else xout[o + i] = v;
}

/* the first damped Jacobi step from x = 0 (no memset, x not read): x <- omega b / diag(A) */
template <typename T>
__global__ void k_jacobi_zero(LevelView<T> g, const int *active, T *x, const T *b, T omega) {
  const int m = blockIdx.y;
  const long i = node_index();
  if (!active[m] || i >= g.n) return;
  const T *diag = g.bands + ((size_t)m * 9 + 4) * (size_t)g.nal; /* band 4: the diagonal */
  const size_t o = voff(g, m);
  x[o + i] = jacobi_zero(b[o + i], diag[i], omega);
}

/* r <- b - A x */
template <typename T>
__global__ void k_defect(LevelView<T> g, const int *active, const T *b, const T *x, T *r) {
  const int m = blockIdx.y;
  const long i = node_index();
  if (!active[m] || i >= g.n) return;
  const T *band[9];
  bands_of(g, m, band);
  const size_t o = voff(g, m);
  r[o + i] = b[o + i] - row9(band, x + o, i, g.N);
}

/* bc <- R rf (full weighting), fixed coarse nodes 0; one thread per coarse node */
template <typename T>
__global__ void k_restrict(LevelView<T> f, LevelView<T> c, const int *active, const T *rf,
                           T *bc) {
  const int m = blockIdx.y;
  const long i = node_index();
  if (!active[m] || i >= c.n) return;
  const int I = (int)i % c.N, J = (int)i / c.N; /* 32-bit division: n < 2^31 */
  const T v = restrict9(rf + voff(f, m), f.N, I, J);
  bc[voff(c, m) + i] = c.fixed[(size_t)m * c.nal + i] ? (T)0 : v;
}

/* xf <- xf + P xc (bilinear) on the free fine nodes; one thread per fine node (a V cycle
 * without post-smoothing; else k_prolong_jacobi) */
template <typename T>
__global__ void k_prolong_add(LevelView<T> f, LevelView<T> c, const int *active, T *xf,
                              const T *xc) {
  const int m = blockIdx.y;
  const long i = node_index();
  if (!active[m] || i >= f.n || f.fixed[(size_t)m * f.nal + i]) return;
  const int ii = (int)i % f.N, jj = (int)i / f.N;
  xf[voff(f, m) + i] += prolong(xc + voff(c, m), c.N, ii, jj);
}

/* the iterate the first post-smoothing step starts from, at fine node j of macro m (xf,
 * xc: macro m's values): xf + P xc on the free nodes, in the arithmetic of k_prolong_add;
 * xf on the fixed nodes and in the padding (j outside 0..n-1, the zeros a sweep reads) */
template <typename T>
__device__ __forceinline__ T prolonged(const LevelView<T> &f, const LevelView<T> &c, int m,
                                       const T *xf, const T *xc, long j) {
  if (j < 0 || j >= f.n || f.fixed[(size_t)m * f.nal + j]) return xf[j];
  const int ii = (int)j % f.N, jj = (int)j / f.N;
  return xf[j] + prolong(xc, c.N, ii, jj);
}

/* The prolongation and the first post-smoothing step in one launch: x_in = xf + P xc
 * (free nodes; see prolonged) formed at the node and its 8 neighbours, then the damped
 * Jacobi step of k_jacobi from x_in: xout <- v, or with acc: acc <- acc + v. xf is read
 * only: the prolonged iterate is never stored (nothing but this step reads it), so the
 * results are bitwise those of k_prolong_add followed by k_jacobi. The step is
 * feast_jacobi_point on the 3 x 3 neighbourhood: node 0 of a grid of side 3 centred at
 * x3 + 4, with the bands and b shifted to the node. */
template <typename T>
__global__ void k_prolong_jacobi(LevelView<T> f, LevelView<T> c, const int *active,
                                 const T *xf, const T *xc, T *xout, const T *b, T omega,
                                 T *acc) {
  const int m = blockIdx.y;
  const long i = node_index();
  if (!active[m] || i >= f.n) return;
  const size_t o = voff(f, m);
  const T *xfm = xf + o, *xcm = xc + voff(c, m);
  T x3[9];
  for (int dj = -1, k = 0; dj <= 1; dj++)
    for (int di = -1; di <= 1; di++, k++)
      x3[k] = prolonged(f, c, m, xfm, xcm, i + (long)dj * f.N + di);
  const T *band[9];
  bands_of(f, m, band);
  for (int k = 0; k < 9; k++) band[k] += i;
  const T v = jacobi(band, b + o + i, x3 + 4, 0, 3, omega);
  if (acc) acc[o + i] += v;
  else xout[o + i] = v;
}

/* y <- y + x */
template <typename T>
__global__ void k_add(LevelView<T> g, const int *active, T *y, const T *x) {
  const int m = blockIdx.y;
  const long i = node_index();
  if (!active[m] || i >= g.n) return;
  const size_t o = voff(g, m);
  y[o + i] += x[o + i];
}

/* start of a solve, all macros: d <- 0 on fixed nodes, r <- d, x <- 0,
 * partial[m][block] = sum of d^2 (grid-stride over the macro's nodes, gridDim.x blocks);
 * *nactive <- 0 for k_status */
template <typename T>
__global__ void k_init(LevelView<T> g, T *d, T *r, T *x, double *partial, int maxred,
                       int *nactive) {
  FEAST_SHARED(double, red, FEAST_CUDA_BLOCK);
  const int m = blockIdx.y;
  if (m == 0 && blockIdx.x == 0 && threadIdx.x == 0) *nactive = 0;
  const size_t o = voff(g, m);
  const unsigned char *fixed = g.fixed + (size_t)m * g.nal;
  double acc = 0;
  for (long i = node_index(); i < g.n; i += (long)gridDim.x * blockDim.x) {
    const T v = fixed[i] ? (T)0 : d[o + i];
    d[o + i] = v;
    r[o + i] = v;
    x[o + i] = (T)0;
    acc += (double)v * (double)v;
  }
  const double s = block_sum(acc, red);
  if (threadIdx.x == 0) partial[(size_t)m * maxred + blockIdx.x] = s;
}

/* after a cycle: r <- d - A x, partial[m][block] = sum of r^2 (grid-stride); *nactive <- 0
 * for k_status */
template <typename T>
__global__ void k_defect_norm(LevelView<T> g, const int *active, const T *d, const T *x, T *r,
                              double *partial, int maxred, int *nactive) {
  FEAST_SHARED(double, red, FEAST_CUDA_BLOCK);
  const int m = blockIdx.y;
  if (m == 0 && blockIdx.x == 0 && threadIdx.x == 0) *nactive = 0;
  if (!active[m]) return; /* block-uniform, before any __syncthreads */
  const T *band[9];
  bands_of(g, m, band);
  const size_t o = voff(g, m);
  double acc = 0;
  for (long i = node_index(); i < g.n; i += (long)gridDim.x * blockDim.x) {
    const T v = d[o + i] - row9(band, x + o, i, g.N);
    r[o + i] = v;
    acc += (double)v * (double)v;
  }
  const double s = block_sum(acc, red);
  if (threadIdx.x == 0) partial[(size_t)m * maxred + blockIdx.x] = s;
}

/* Per-macro status after the norms, one block per macro (grid (1, M)): macro blockIdx.y
 * sums its partial norms in a fixed order (deterministic).
 * stat[m] = cycles, stat[M+m] = stopped at max_cycles, stat[2M+m] = not finite.
 * init: nrm0 = ||d||; a macro with a non-finite defect is marked, one with d = 0 is done;
 * else (after a cycle of the active macros): count the cycle, stop on
 * ||r|| <= rtol ||d||, on a non-finite norm, or at max_cycles. A macro that stays active
 * adds 1 to *nactive (set to 0 by k_init or k_defect_norm before). */
__global__ void k_status(int M, int nred, int maxred, const double *partial, double *nrm0,
                         int *active, int *stat, int *nactive, int init, double rtol,
                         int max_cycles) {
  FEAST_SHARED(double, red, FEAST_CUDA_BLOCK);
  const int m = blockIdx.y;
  if (!init && !active[m]) return; /* block-uniform, before any __syncthreads */
  double acc = 0;
  for (int b = threadIdx.x; b < nred; b += blockDim.x) acc += partial[(size_t)m * maxred + b];
  const double nrm = sqrt(block_sum(acc, red));
  if (threadIdx.x != 0) return;
  int act = 1;
  if (init) {
    const int run = is_finite(nrm) && nrm > rtol * nrm; /* d = 0: no cycle */
    nrm0[m] = nrm;
    stat[m] = 0;
    stat[M + m] = run && max_cycles <= 0;
    stat[2 * M + m] = !is_finite(nrm);
    act = run && max_cycles > 0;
  } else {
    stat[m] += 1;
    if (!is_finite(nrm)) {
      stat[2 * M + m] = 1;
      act = 0;
    } else if (nrm <= rtol * nrm0[m]) {
      act = 0;
    } else if (stat[m] >= max_cycles) {
      stat[M + m] = 1;
      act = 0;
    }
  }
  active[m] = act;
  if (act) atomicAdd(nactive, 1); /* integer: the same in any order of the blocks */
}

/* The exact coarse solve x <- A^-1 b of every active macro: one dense matvec with the
 * inverse (inv + m n^2, column-major, so the threads of a warp read consecutive values).
 * Grid (nblk, M), one thread per row; every block stages the macro's b in shared memory
 * (n <= FEAST_LOCAL_COARSE_MAX_NODES). */
template <typename T>
__global__ void k_coarse(LevelView<T> g, const int *active, const T *inv, const T *bv, T *xv) {
  FEAST_SHARED(T, b, FEAST_LOCAL_COARSE_MAX_NODES);
  const int m = blockIdx.y;
  if (!active[m]) return; /* block-uniform */
  const size_t o = voff(g, m);
  for (long j = threadIdx.x; j < g.n; j += blockDim.x) b[j] = bv[o + j];
  __syncthreads();
  const long i = node_index();
  if (i < g.n) xv[o + i] = dense_row(inv + (size_t)m * (size_t)g.n * (size_t)g.n, b, i, g.n);
}

/* start of a solve, all macros: d (padded, T) <- in (compact doubles, n per macro),
 * converted on the device */
template <typename T> __global__ void k_input(LevelView<T> g, const double *in, T *d) {
  const int m = blockIdx.y;
  const long i = node_index();
  if (i >= g.n) return;
  d[voff(g, m) + i] = (T)in[(size_t)m * g.n + i];
}

/* end of a solve, all macros: out (compact doubles, n per macro) <- x with fixed nodes 0,
 * converted on the device; a macro with a non-finite value is marked in bad[m] */
template <typename T>
__global__ void k_output(LevelView<T> g, const T *x, double *out, int *bad) {
  const int m = blockIdx.y;
  const long i = node_index();
  if (i >= g.n) return;
  const T v = g.fixed[(size_t)m * g.nal + i] ? (T)0 : x[voff(g, m) + i];
  if (!is_finite(v)) atomicExch(&bad[m], 1);
  out[(size_t)m * g.n + i] = (double)v;
}

/* out <- 0 on the macros marked bad */
template <typename T> __global__ void k_zero_bad(long n, const int *bad, T *out) {
  const int m = blockIdx.y;
  const long i = node_index();
  if (!bad[m] || i >= n) return;
  out[(size_t)m * n + i] = (T)0;
}

} /* namespace */
} /* namespace feast_cuda */
#endif

/* The CUDA device that vectors of solver.residency = device live on (feast/la/device.h,
 * issue #46): device memory, copies, and the BLAS-1 kernels and dot products of the la
 * floor. Everything runs on the legacy stream in issue order; a copy to the host waits
 * for the kernels before it, so the host never sees a value before it is computed. The
 * same source runs in the host emulator (tests/emu/device_vec_emu.cpp), which keeps host
 * and device memory apart: a host access to a device vector's values that was not staged
 * faults there. */
#include "coproc/cuda/kernels.cuh"
extern "C" {
#include "coproc/coproc.h"
}

namespace feast_cuda {
namespace {

enum { MAX_DOTS = FEAST_DEVICE_DOTS_MAX };

/* the products of one k_dots launch (device pointers; unused entries null): x in double or
 * single precision (a FGMRES basis kept in single, widened exactly) */
template <typename T> struct DotArgs {
  const T *x[MAX_DOTS];
  const double *y[MAX_DOTS];
};
#ifdef FEAST_CUDA_EMU
template <typename T> inline const void *feast_emu_device_args(const DotArgs<T> &a) {
  for (int k = 0; k < MAX_DOTS; k++) {
    if (const void *b = feast_emu_not_device(a.x[k])) return b;
    if (const void *b = feast_emu_not_device(a.y[k])) return b;
  }
  return nullptr;
}
#endif

/* the forms of FeastDeviceOps.axpby, so that each value is rounded as the host rounds it */
enum AxpbyForm { AX, BY, X_BY, Y_AX, AX_BY };

__global__ void k_fill(long n, double a, double *y) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) y[i] = a;
}

__global__ void k_axpby(long n, int form, double a, const double *x, double b, double *y) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) {
    switch (form) {
    case AX: y[i] = a * x[i]; break;
    case BY: y[i] = b * y[i]; break;
    case X_BY: y[i] = x[i] + b * y[i]; break;
    case Y_AX: y[i] = y[i] + a * x[i]; break;
    default: y[i] = a * x[i] + b * y[i]; break;
    }
  }
}

/* out[k arrays + a] <- sum over the owned nodes of array a (block a, n values from a n)
 * of x_k y_k, k < count: thread t sums the values t, t + blockDim.x, ... in order, then
 * block_sum's fixed tree (deterministic) */
template <typename T>
__global__ void k_dots(int count, long n, int nlocal, DotArgs<T> p, const unsigned char *own, double *out) {
  FEAST_SHARED(double, red, FEAST_CUDA_BLOCK);
  const int a = blockIdx.x;
  const size_t o = (size_t)a * (size_t)n;
  const unsigned char *ow = own + (size_t)(a % nlocal) * (size_t)n;
  for (int k = 0; k < count; k++) {
    double acc = 0;
    for (long i = threadIdx.x; i < n; i += blockDim.x)
      if (ow[i]) acc += (double)p.x[k][o + i] * p.y[k][o + i];
    const double s = block_sum(acc, red);
    if (threadIdx.x == 0) out[(size_t)k * gridDim.x + a] = s;
  }
}

/* y <- A x (add 0) or y + A x (add 1) for nmat matrices (FeastDeviceOps.band9_apply):
 * feast_band9_row's terms in its order, a neighbour outside the macro's array read as 0
 * (the host's padding; its band entry is 0 too) */
__global__ void k_band9_apply(int nmat, long N, const double *bands, const double *x, double *y, int add) {
  const long nn = N * N, total = nn * nmat;
  const long off[FEAST_NBANDS] = {-N - 1, -N, -N + 1, -1, 0, 1, N - 1, N, N + 1};
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < total; i += (long)gridDim.x * blockDim.x) {
    const long m = i / nn, r = i - m * nn;
    const double *b = bands + (size_t)m * FEAST_NBANDS * nn + r, *xm = x + m * nn;
    double row = 0;
    for (int k = 0; k < FEAST_NBANDS; k++) {
      const long j = r + off[k];
      const double t = b[k * nn] * (j >= 0 && j < nn ? xm[j] : 0.0);
      row = k ? row + t : t;
    }
    y[i] = add ? y[i] + row : row;
  }
}

__global__ void k_pointwise(int form, long n, double a, const double *x, const double *y, long period, double *w) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) {
    const double yv = y[i % period];
    switch (form) {
    case FEAST_DEVICE_MULT: w[i] = x[i] * yv; break;
    case FEAST_DEVICE_DIVIDE: w[i] = x[i] / yv; break;
    case FEAST_DEVICE_MULT_ADD: w[i] = w[i] + a * x[i] * yv; break;
    default: w[i] = (a * w[i] + (x ? x[i] : 0.0)) / yv; break;
    }
  }
}

__global__ void k_masked(int form, long n, const unsigned char *m, long period, int select, const double *x,
                         double *y) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) {
    if ((m[i % period] != 0) != select) continue;
    y[i] = form == FEAST_DEVICE_ZERO ? 0.0 : form == FEAST_DEVICE_COPY ? x[i] : y[i] - x[i];
  }
}

/* to <- the bilinear prolongation (upward) or the restriction of from on every one of
 * arrays macros: from's arrays of Nfrom^2 values, to's of Nto^2, one after the other
 * (feast_prolongate_point_d and feast_restrict_point_d, the host's functions) */
__global__ void k_transfer(int upward, int arrays, int Nfrom, const double *from, double *to) {
  const int Nto = upward ? 2 * Nfrom - 1 : (Nfrom + 1) / 2;
  const long nto = (long)Nto * Nto, nfrom = (long)Nfrom * Nfrom, total = nto * arrays;
  for (long t = blockIdx.x * (long)blockDim.x + threadIdx.x; t < total; t += (long)gridDim.x * blockDim.x) {
    const long a = t / nto, r = t - a * nto;
    const int i = (int)(r % Nto), j = (int)(r / Nto);
    const double *f = from + a * nfrom;
    to[t] = upward ? feast_prolongate_point_d(f, Nfrom, i, j) : feast_restrict_point_d(f, Nfrom, i, j);
  }
}

__global__ void k_to_single(long n, const double *x, float *y) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) y[i] = (float)x[i];
}

/* y[i] <- y[i] + a_0 x_0[i] + ... + a_{k-1} x_{k-1}[i], added left to right (the host's
 * feast_vec_single_maxpy per value); a and the x table in device memory */
__global__ void k_maxpy_single(int k, long n, const double *a, const float *const *x, double *y) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) {
    double acc = y[i];
    for (int j = 0; j < k; j++) acc += a[j] * (double)x[j][i];
    y[i] = acc;
  }
}

/* the interface values of blocks blocks (block b of x at b stride): buf[b count + s] <->
 * x[b stride + off[s]] */
__global__ void k_gather(long count, int blocks, long stride, const long *off, const double *x, double *buf) {
  for (long t = blockIdx.x * (long)blockDim.x + threadIdx.x; t < count * blocks; t += (long)gridDim.x * blockDim.x) {
    const long b = t / count, s = t - b * count;
    buf[t] = x[b * stride + off[s]];
  }
}

__global__ void k_scatter(long count, int blocks, long stride, const long *off, const double *buf, double *x) {
  for (long t = blockIdx.x * (long)blockDim.x + threadIdx.x; t < count * blocks; t += (long)gridDim.x * blockDim.x) {
    const long b = t / count, s = t - b * count;
    x[b * stride + off[s]] = buf[t];
  }
}

/* the sums of the interface items held on this rank alone (FeastDeviceOps.item_sums):
 * one thread per item and block, the item's values added in slot order */
__global__ void k_item_sums(long nitems, int blocks, long stride, const long *ptr, const long *off, double *x) {
  for (long t = blockIdx.x * (long)blockDim.x + threadIdx.x; t < nitems * blocks; t += (long)gridDim.x * blockDim.x) {
    const long i = t % nitems, b = t / nitems;
    double *xb = x + b * stride, sum = 0.0;
    for (long s = ptr[i]; s < ptr[i + 1]; s++) sum += xb[off[s]];
    for (long s = ptr[i]; s < ptr[i + 1]; s++) xb[off[s]] = sum;
  }
}

struct Context {
  double *out;   /* the results of k_dots, the interface values of k_gather and k_scatter */
  size_t nout;   /* doubles at out */
};

unsigned grid_of(long n) {
  const long blocks = (n + FEAST_CUDA_BLOCK - 1) / FEAST_CUDA_BLOCK;
  return (unsigned)(blocks < 1 ? 1 : blocks > FEAST_CUDA_MAX_RED_BLOCKS ? FEAST_CUDA_MAX_RED_BLOCKS : blocks);
}

int dv_alloc(void *, size_t bytes, void **ptr) {
  *ptr = nullptr;
  FEAST_CUDA_MALLOC(ptr, bytes ? bytes : 1);
  FEAST_CUDA_CALL(cudaMemset(*ptr, 0, bytes ? bytes : 1));
  return 0;
}
void dv_release(void *, void *ptr) {
  if (ptr) (void)cudaFree(ptr);
}
int dv_to_host(void *, void *host, const void *dev, size_t bytes) {
  FEAST_CUDA_CALL(cudaMemcpy(host, dev, bytes, cudaMemcpyDeviceToHost));
  return 0;
}
int dv_to_device(void *, void *dev, const void *host, size_t bytes) {
  FEAST_CUDA_CALL(cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice));
  return 0;
}
int dv_fill(void *, long n, double a, double *y) {
  FEAST_LAUNCH(k_fill, grid_of(n), FEAST_CUDA_BLOCK, 0, n, a, y);
  return 0;
}
int dv_axpby(void *, long n, double a, const double *x, double b, double *y) {
  const int form = b == 0.0 ? AX : !x ? BY : a == 1.0 ? X_BY : b == 1.0 ? Y_AX : AX_BY;
  FEAST_LAUNCH(k_axpby, grid_of(n), FEAST_CUDA_BLOCK, 0, n, form, a, x, b, y);
  return 0;
}
/* threads of a k_dots block for arrays of n values: the smallest power of two from 32 to
 * FEAST_CUDA_BLOCK with about two values a thread (a function of n alone, so the sums'
 * order is the same on every rank; small macros leave fewer threads idle) */
unsigned dot_threads(long n) {
  unsigned t = 32;
  while (t < FEAST_CUDA_BLOCK && 2 * (long)t < n) t *= 2;
  return t;
}

/* the context's device buffer of at least need doubles */
int scratch(Context *c, size_t need) {
  if (need <= c->nout) return 0;
  dv_release(nullptr, c->out);
  c->out = nullptr;
  c->nout = 0;
  FEAST_CALL(dv_alloc(nullptr, sizeof(double) * need, (void **)&c->out));
  c->nout = need;
  return 0;
}
/* the k_dots launch of FeastDeviceOps.dots and .dots_single: count products of p into out */
template <typename T>
int run_dots(Context *c, int count, int arrays, int nlocal, long n, const DotArgs<T> &p, const unsigned char *own,
             double *out) {
  FEAST_CHECK(count >= 1 && count <= MAX_DOTS && arrays >= 1 && nlocal >= 1, FEAST_ERR_ARG,
              "device dots: %d products of %d arrays at once (1..%d)", count, arrays, (int)MAX_DOTS);
  const size_t need = (size_t)count * (size_t)arrays;
  FEAST_CALL(scratch(c, need));
  FEAST_LAUNCH_SYNC(k_dots<T>, (unsigned)arrays, dot_threads(n), 0, count, n, nlocal, p, own, c->out);
  FEAST_CUDA_CALL(cudaMemcpy(out, c->out, sizeof(double) * need, cudaMemcpyDeviceToHost));
  return 0;
}
int dv_dots(void *ctx, int count, int arrays, int nlocal, long n, const double *const *x, const double *const *y,
            const unsigned char *own, double *out) {
  DotArgs<double> p = {};
  for (int k = 0; k < count && k < MAX_DOTS; k++) p.x[k] = x[k], p.y[k] = y[k];
  return run_dots((Context *)ctx, count, arrays, nlocal, n, p, own, out);
}
int dv_dots_single(void *ctx, int count, int arrays, int nlocal, long n, const float *const *x, const double *y,
                   const unsigned char *own, double *out) {
  DotArgs<float> p = {};
  for (int k = 0; k < count && k < MAX_DOTS; k++) p.x[k] = x[k], p.y[k] = y;
  return run_dots((Context *)ctx, count, arrays, nlocal, n, p, own, out);
}
int dv_item_sums(void *, long nitems, int blocks, long stride, const long *ptr, const long *off, double *x) {
  if (nitems <= 0 || blocks <= 0) return 0;
  FEAST_LAUNCH(k_item_sums, grid_of(nitems * blocks), FEAST_CUDA_BLOCK, 0, nitems, blocks, stride, ptr, off, x);
  return 0;
}
int dv_transfer(void *, int upward, int arrays, int Nfrom, const double *from, double *to) {
  const long Nto = upward ? 2L * Nfrom - 1 : (Nfrom + 1) / 2;
  FEAST_LAUNCH(k_transfer, grid_of(Nto * Nto * arrays), FEAST_CUDA_BLOCK, 0, upward, arrays, Nfrom, from, to);
  return 0;
}
int dv_to_single(void *, long n, const double *x, float *y) {
  FEAST_LAUNCH(k_to_single, grid_of(n), FEAST_CUDA_BLOCK, 0, n, x, y);
  return 0;
}
int dv_maxpy_single(void *ctx, int k, long n, const double *a, const float *const *x, double *y) {
  Context *c = (Context *)ctx;
  if (k <= 0 || n <= 0) return 0;
  /* a, then the pointer table, in the scratch buffer (a double and a pointer are 8 bytes) */
  static_assert(sizeof(float *) == sizeof(double), "a pointer fills a double slot");
  FEAST_CALL(scratch(c, 2 * (size_t)k));
  FEAST_CUDA_CALL(cudaMemcpy(c->out, a, sizeof(double) * k, cudaMemcpyHostToDevice));
  FEAST_CUDA_CALL(cudaMemcpy(c->out + k, x, sizeof(float *) * k, cudaMemcpyHostToDevice));
  FEAST_LAUNCH(k_maxpy_single, grid_of(n), FEAST_CUDA_BLOCK, 0, k, n, c->out, (const float *const *)(c->out + k), y);
  return 0;
}

int dv_band9_apply(void *, int nmat, long N, const double *bands, const double *x, double *y, int add) {
  FEAST_LAUNCH(k_band9_apply, grid_of(N * N * nmat), FEAST_CUDA_BLOCK, 0, nmat, N, bands, x, y, add);
  return 0;
}
int dv_pointwise(void *, int form, long n, double a, const double *x, const double *y, long period, double *w) {
  FEAST_LAUNCH(k_pointwise, grid_of(n), FEAST_CUDA_BLOCK, 0, form, n, a, x, y, period, w);
  return 0;
}
int dv_masked(void *, int form, long n, const unsigned char *m, long period, int select, const double *x,
              double *y) {
  FEAST_LAUNCH(k_masked, grid_of(n), FEAST_CUDA_BLOCK, 0, form, n, m, period, select, x, y);
  return 0;
}
int dv_gather(void *ctx, long count, int blocks, long stride, const long *off, const double *x, double *out) {
  Context *c = (Context *)ctx;
  if (count <= 0 || blocks <= 0) return 0;
  FEAST_CALL(scratch(c, (size_t)count * blocks));
  FEAST_LAUNCH(k_gather, grid_of(count * blocks), FEAST_CUDA_BLOCK, 0, count, blocks, stride, off, x, c->out);
  FEAST_CUDA_CALL(cudaMemcpy(out, c->out, sizeof(double) * count * blocks, cudaMemcpyDeviceToHost));
  return 0;
}
int dv_scatter(void *ctx, long count, int blocks, long stride, const long *off, const double *in, double *x) {
  Context *c = (Context *)ctx;
  if (count <= 0 || blocks <= 0) return 0;
  FEAST_CALL(scratch(c, (size_t)count * blocks));
  FEAST_CUDA_CALL(cudaMemcpy(c->out, in, sizeof(double) * count * blocks, cudaMemcpyHostToDevice));
  FEAST_LAUNCH(k_scatter, grid_of(count * blocks), FEAST_CUDA_BLOCK, 0, count, blocks, stride, off, c->out, x);
  return 0;
}

#ifdef FEAST_CUDA_EMU
const char *const device_name = "cuda-emulator";
#else
const char *const device_name = "cuda";
#endif
const FeastDeviceOps ops = {device_name,     dv_alloc,     dv_release,   dv_to_host,      dv_to_device,
                            dv_fill,         dv_axpby,     dv_dots,      dv_band9_apply,  dv_pointwise,
                            dv_masked,       dv_gather,    dv_scatter,   dv_to_single,    dv_dots_single,
                            dv_maxpy_single, dv_item_sums, dv_transfer};

} // namespace
} // namespace feast_cuda

extern "C" int feast_cuda_device_create(FeastDevice **dev) {
  using namespace feast_cuda;
  *dev = nullptr;
  feast_cuda_note_use(); /* the free memory before the run's allocations */
  Context *c = (Context *)calloc(1, sizeof(Context));
  FEAST_CHECK(c, FEAST_ERR_MEM, "out of memory (the device context)");
  if (int st = feast_device_create(&ops, c, dev)) {
    free(c);
    return st;
  }
  /* FEAST_DEVICE_POISON=1|0; by default on in the emulator (a stale host value read
   * unstaged is NaN in the tests), off on a GPU */
  const char *e = getenv("FEAST_DEVICE_POISON");
#ifdef FEAST_CUDA_EMU
  (*dev)->poison = !(e && e[0] == '0');
#else
  (*dev)->poison = e && e[0] == '1';
#endif
  return 0;
}

extern "C" void feast_cuda_device_destroy(FeastDevice **dev) {
  if (!*dev) return;
  feast_cuda::Context *c = (feast_cuda::Context *)(*dev)->ctx;
  feast_device_destroy(dev);
  if (c) {
    feast_cuda::dv_release(nullptr, c->out);
    free(c);
  }
}

extern "C" int feast_cuda_device_memory(int *index, double *free_bytes, double *total_bytes, double *peak_bytes) {
  feast_cuda_note_use();
  const FeastCudaMemoryUse &u = feast_cuda_memory_use;
  FEAST_CHECK(u.seen, FEAST_ERR_CUDA, "cudaMemGetInfo failed: the device's memory is not known");
  FEAST_CUDA_CALL(cudaGetDevice(index));
  *free_bytes = (double)u.first_free;
  *total_bytes = (double)u.total;
  *peak_bytes = (double)(u.first_free - u.min_free);
  return 0;
}

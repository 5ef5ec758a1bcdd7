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

enum { MAX_DOTS = 4 };

/* the products of one k_dots launch (device pointers; unused entries null) */
struct DotArgs {
  const double *x[MAX_DOTS], *y[MAX_DOTS];
};
#ifdef FEAST_CUDA_EMU
inline const void *feast_emu_device_args(const DotArgs &a) {
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
__global__ void k_dots(int count, long n, int nlocal, DotArgs p, const unsigned char *own, double *out) {
  FEAST_SHARED(double, red, FEAST_CUDA_BLOCK);
  const int a = blockIdx.x;
  const size_t o = (size_t)a * (size_t)n;
  const unsigned char *ow = own + (size_t)(a % nlocal) * (size_t)n;
  for (int k = 0; k < count; k++) {
    double acc = 0;
    for (long i = threadIdx.x; i < n; i += blockDim.x)
      if (ow[i]) acc += p.x[k][o + i] * p.y[k][o + i];
    const double s = block_sum(acc, red);
    if (threadIdx.x == 0) out[(size_t)k * gridDim.x + a] = s;
  }
}

struct Context {
  double *out;   /* the results of k_dots */
  size_t nout;   /* doubles at out */
};

unsigned grid_of(long n) {
  const long blocks = (n + FEAST_CUDA_BLOCK - 1) / FEAST_CUDA_BLOCK;
  return (unsigned)(blocks < 1 ? 1 : blocks > FEAST_CUDA_MAX_RED_BLOCKS ? FEAST_CUDA_MAX_RED_BLOCKS : blocks);
}

int dv_alloc(void *, size_t bytes, void **ptr) {
  *ptr = nullptr;
  FEAST_CUDA_CALL(cudaMalloc(ptr, bytes ? bytes : 1));
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
int dv_dots(void *ctx, int count, int arrays, int nlocal, long n, const double *const *x, const double *const *y,
            const unsigned char *own, double *out) {
  Context *c = (Context *)ctx;
  FEAST_CHECK(count >= 1 && count <= MAX_DOTS && arrays >= 1 && nlocal >= 1, FEAST_ERR_ARG,
              "device dots: %d products of %d arrays at once (1..%d)", count, arrays, (int)MAX_DOTS);
  const size_t need = (size_t)count * (size_t)arrays;
  if (need > c->nout) {
    dv_release(nullptr, c->out);
    c->out = nullptr;
    c->nout = 0;
    FEAST_CALL(dv_alloc(nullptr, sizeof(double) * need, (void **)&c->out));
    c->nout = need;
  }
  DotArgs p = {};
  for (int k = 0; k < count; k++) p.x[k] = x[k], p.y[k] = y[k];
  FEAST_LAUNCH_SYNC(k_dots, (unsigned)arrays, FEAST_CUDA_BLOCK, 0, count, n, nlocal, p, own, c->out);
  FEAST_CUDA_CALL(cudaMemcpy(out, c->out, sizeof(double) * need, cudaMemcpyDeviceToHost));
  return 0;
}

#ifdef FEAST_CUDA_EMU
const char *const device_name = "cuda-emulator";
#else
const char *const device_name = "cuda";
#endif
const FeastDeviceOps ops = {device_name, dv_alloc, dv_release, dv_to_host, dv_to_device, dv_fill, dv_axpby, dv_dots};

} // namespace
} // namespace feast_cuda

extern "C" int feast_cuda_device_create(FeastDevice **dev) {
  using namespace feast_cuda;
  *dev = nullptr;
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

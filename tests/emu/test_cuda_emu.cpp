/* The host emulator (coproc/cuda/cuda_emu.cuh) catches what it is for: each check runs a
 * correct kernel or call of coproc/cuda and a deliberately broken variant compiled only
 * into this test, and requires the correct one to pass and the broken one to be caught:
 *   block order     a block-order-dependent kernel (last block wins) differs between
 *                   ordered and reverse blocks; k_jacobi is bitwise the same in all orders
 *   thread order    Jacobi in place (xout = xin) differs between thread orders; the
 *                   ping-pong k_jacobi does not
 *   missing barrier a block sum without the barrier after the stores gives NaN (in order
 *                   and shuffled; reverse order hides it); block_sum is bitwise the same
 *                   under every order
 *   shared memory   a sum that assumes zeroed shared memory (red[t] += v) gives NaN
 *   device memory   k_add on a cudaMalloc'ed vector never set gives NaN
 *   host pointer    a launch with a host pointer, a copy in the wrong direction, a memset
 *                   of host memory: errors, not silent successes
 *   host access     a device pointer dereferenced on the host, a kernel writing past the
 *                   end of an allocation: the process dies with the emulator's message
 *   barriers        a block whose thread 0 returns before __syncthreads, __syncthreads in
 *                   a FEAST_LAUNCH kernel: abort
 *   streams         a device-to-host copy read before cudaStreamSynchronize: stale value;
 *                   a cudaMemset not waited for before a kernel on another stream: NaN
 *   kernel fault    a kernel that traps: with the launch check (FEAST_CUDA_LAUNCH_CHECK)
 *                   its FEAST_LAUNCH fails naming it; without, the launch succeeds and
 *                   the next synchronisation reports the fault (as on a GPU)
 * and k_status (one block per macro) decides every kind of macro right in every order.
 * The fatal cases run in a forked child. */
#include "coproc/cuda/kernels.cuh"
#include <string>
#include <sys/wait.h>
#include <unistd.h>

using namespace feast_cuda;

static int checks = 0, failures = 0;
#define EXPECT(cond, what)                                                                      \
  do {                                                                                          \
    checks++;                                                                                   \
    if (!(cond)) {                                                                              \
      failures++;                                                                               \
      fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, what);                            \
    } else {                                                                                    \
      printf("ok   %s\n", what);                                                                \
    }                                                                                           \
  } while (0)

/* ------------------------------------------------------------ broken kernels */

/* block-order dependent: every block overwrites one value (last block wins) */
__global__ void k_bad_last_block(int *out) {
  if (threadIdx.x == 0) *out = (int)blockIdx.x;
}

/* block_sum without the barrier after the stores */
__device__ double bad_block_sum_nobarrier(double v, double *red) {
  const unsigned t = threadIdx.x;
  red[t] = v;
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) red[t] += red[t + s];
    __syncthreads();
  }
  const double sum = red[0];
  __syncthreads();
  return sum;
}
/* block_sum assuming shared memory starts at 0 */
__device__ double bad_block_sum_zeroed(double v, double *red) {
  const unsigned t = threadIdx.x;
  red[t] += v;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) red[t] += red[t + s];
    __syncthreads();
  }
  const double sum = red[0];
  __syncthreads();
  return sum;
}
/* out[block] <- sum over the block of x[i] with variant 0 (block_sum), 1 (no barrier),
 * 2 (assumes zeroed shared memory) */
__global__ void k_sum(const double *x, double *out, int variant) {
  FEAST_SHARED(double, red, FEAST_CUDA_BLOCK);
  const double v = x[node_index()];
  const double s = variant == 0 ? block_sum(v, red)
                   : variant == 1 ? bad_block_sum_nobarrier(v, red)
                                  : bad_block_sum_zeroed(v, red);
  if (threadIdx.x == 0) out[blockIdx.x] = s;
}
/* thread 0 leaves before the barrier the others wait at */
__global__ void k_bad_early_return(double *x) {
  FEAST_SHARED(double, red, FEAST_CUDA_BLOCK);
  if (threadIdx.x == 0) return;
  red[threadIdx.x] = x[threadIdx.x];
  __syncthreads();
  x[threadIdx.x] = red[blockDim.x - threadIdx.x];
}
/* writes the value just past its vector */
__global__ void k_bad_overrun(double *x, long n) {
  if (node_index() == 0) x[n] = 1.0;
}
/* a barrier in a kernel launched with FEAST_LAUNCH */
__global__ void k_sync_in_plain(double *x) {
  __syncthreads();
  x[node_index()] = 0;
}

/* ------------------------------------------------------------------ helpers */

/* one macro of level l: Laplace-like bands, no fixed nodes, padded vectors */
struct Grid {
  LevelView<double> v;
  double *bands = nullptr, *xa = nullptr, *xb = nullptr, *b = nullptr;
  unsigned char *fixed = nullptr;
  int *active = nullptr;
  int nblk = 0;
};
static int grid_create(int l, Grid *g) {
  const int N = (1 << l) + 1;
  g->v.N = N;
  g->v.n = (long)N * N;
  g->v.nal = (g->v.n + 31) / 32 * 32;
  g->v.pad = (N + 1 + 31) / 32 * 32;
  g->v.vs = g->v.nal + 2 * g->v.pad;
  g->nblk = (int)((g->v.n + FEAST_CUDA_BLOCK - 1) / FEAST_CUDA_BLOCK);
  const size_t vb = sizeof(double) * (size_t)g->v.vs;
  FEAST_CUDA_CALL(cudaMalloc((void **)&g->bands, sizeof(double) * 9 * (size_t)g->v.nal));
  FEAST_CUDA_CALL(cudaMalloc((void **)&g->fixed, (size_t)g->v.nal));
  FEAST_CUDA_CALL(cudaMalloc((void **)&g->xa, vb));
  FEAST_CUDA_CALL(cudaMalloc((void **)&g->xb, vb));
  FEAST_CUDA_CALL(cudaMalloc((void **)&g->b, vb));
  FEAST_CUDA_CALL(cudaMalloc((void **)&g->active, sizeof(int)));
  std::vector<double> h(9 * (size_t)g->v.nal), x(g->v.vs, 0.0);
  for (int k = 0; k < 9; k++)
    for (long i = 0; i < g->v.nal; i++) h[(size_t)k * g->v.nal + i] = k == 4 ? 8.0 / 3.0 : -1.0 / 3.0;
  FEAST_CUDA_CALL(cudaMemcpy(g->bands, h.data(), sizeof(double) * h.size(), cudaMemcpyHostToDevice));
  FEAST_CUDA_CALL(cudaMemset(g->fixed, 0, (size_t)g->v.nal));
  const int one = 1;
  FEAST_CUDA_CALL(cudaMemcpy(g->active, &one, sizeof one, cudaMemcpyHostToDevice));
  for (long i = 0; i < g->v.n; i++) x[g->v.pad + i] = (double)((i * 7919) % 101) / 50.0 - 1.0;
  FEAST_CUDA_CALL(cudaMemcpy(g->b, x.data(), vb, cudaMemcpyHostToDevice));
  FEAST_CUDA_CALL(cudaMemcpy(g->xa, x.data(), vb, cudaMemcpyHostToDevice));
  FEAST_CUDA_CALL(cudaMemcpy(g->xb, x.data(), vb, cudaMemcpyHostToDevice));
  g->v.bands = g->bands;
  g->v.fixed = g->fixed;
  return 0;
}
static void grid_destroy(Grid *g) {
  cudaFree(g->bands);
  cudaFree(g->fixed);
  cudaFree(g->xa);
  cudaFree(g->xb);
  cudaFree(g->b);
  cudaFree(g->active);
}
static int download(const double *d, size_t n, std::vector<double> *h) {
  h->resize(n);
  FEAST_CUDA_CALL(cudaMemcpy(h->data(), d, sizeof(double) * n, cudaMemcpyDeviceToHost));
  return 0;
}
static bool same(const std::vector<double> &a, const std::vector<double> &b) {
  return a.size() == b.size() && !memcmp(a.data(), b.data(), sizeof(double) * a.size());
}
static bool all_finite(const std::vector<double> &a) {
  for (double v : a)
    if (!(v - v == 0)) return false;
  return true;
}

/* run f in a child with stderr captured: 1 if it died of a signal and said `msg` */
template <class F> static int dies_with(F f, const char *msg) {
  int fd[2];
  if (pipe(fd)) return 0;
  fflush(stdout);
  fflush(stderr);
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(fd[1], 2);
    close(fd[0]);
    f();
    _exit(0); /* survived: not caught */
  }
  close(fd[1]);
  std::string err;
  char buf[512];
  ssize_t k;
  while ((k = read(fd[0], buf, sizeof buf)) > 0) err.append(buf, (size_t)k);
  close(fd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  const int ok = WIFSIGNALED(status) && err.find(msg) != std::string::npos;
  if (!ok) fprintf(stderr, "child: status %d, stderr: %s\n", status, err.c_str());
  return ok;
}

/* the fatal launches (run in children) */
static int launch_overrun(double *x, long n) {
  FEAST_LAUNCH(k_bad_overrun, dim3(1, 1), FEAST_CUDA_BLOCK, 0, x, n);
  FEAST_CUDA_CALL(cudaDeviceSynchronize());
  return 0;
}
static int launch_early_return(double *x) {
  FEAST_LAUNCH_SYNC(k_bad_early_return, dim3(1, 1), FEAST_CUDA_BLOCK, 0, x);
  FEAST_CUDA_CALL(cudaDeviceSynchronize());
  return 0;
}
static int launch_sync_in_plain(double *x, int nblk) {
  FEAST_LAUNCH(k_sync_in_plain, dim3(nblk, 1), FEAST_CUDA_BLOCK, 0, x);
  FEAST_CUDA_CALL(cudaDeviceSynchronize());
  return 0;
}

/* ------------------------------------------------------------------- checks */

/* corrections of n Jacobi steps (ping-pong, or in place), in a given order */
static int jacobi_steps(Grid *g, int order, int in_place, std::vector<double> *out) {
  feast_emu_set_order(order);
  std::vector<double> x0;
  FEAST_CALL(download(g->b, (size_t)g->v.vs, &x0));
  FEAST_CUDA_CALL(cudaMemcpy(g->xa, x0.data(), sizeof(double) * x0.size(), cudaMemcpyHostToDevice));
  double *x = g->xa;
  for (int s = 0; s < 4; s++) {
    double *y = in_place ? x : (x == g->xa ? g->xb : g->xa);
    FEAST_LAUNCH(k_jacobi<double>, dim3(g->nblk, 1), FEAST_CUDA_BLOCK, 0, g->v, g->active, x, y,
                 g->b, 0.7, (double *)nullptr);
    x = y;
  }
  FEAST_CUDA_CALL(cudaDeviceSynchronize());
  return download(x, (size_t)g->v.vs, out);
}

static int check_order(void) {
  Grid g;
  FEAST_CALL(grid_create(6, &g));
  std::vector<double> r[3], ip[3];
  for (int o = 0; o < 3; o++) {
    FEAST_CALL(jacobi_steps(&g, o, 0, &r[o]));
    FEAST_CALL(jacobi_steps(&g, o, 1, &ip[o]));
  }
  EXPECT(same(r[0], r[1]) && same(r[0], r[2]), "thread order: k_jacobi (ping-pong) bitwise the same in ordered, reverse and shuffled order");
  EXPECT(!same(ip[0], ip[1]) && !same(ip[0], ip[2]), "thread order: Jacobi in place (broken) differs between orders");

  /* orders 0 and 1 end with blocks 63 and 0; a shuffled order ends with block 63 once in
   * 64 launches, so the shuffled order runs until its last block differs (at most 8
   * launches: all eight ending with 63 has odds of 64^-8; one launch alone failed this
   * check about once in 64 runs) */
  int *last = nullptr, h[3];
  FEAST_CUDA_CALL(cudaMalloc((void **)&last, sizeof(int)));
  for (int o = 0, tries = 0; o < 3; o++) {
    feast_emu_set_order(o);
    FEAST_LAUNCH(k_bad_last_block, dim3(64, 1), FEAST_CUDA_BLOCK, 0, last);
    FEAST_CUDA_CALL(cudaMemcpy(&h[o], last, sizeof(int), cudaMemcpyDeviceToHost));
    if (o == 2 && h[2] == 63 && ++tries < 8) o--; /* the shuffled order once more */
  }
  EXPECT(h[0] == 63 && h[1] == 0 && h[0] != h[2], "block order: a last-block-wins kernel (broken) differs between orders");

  double *sums = nullptr;
  FEAST_CUDA_CALL(cudaMalloc((void **)&sums, sizeof(double) * g.nblk));
  std::vector<double> s[3][3];
  for (int v = 0; v < 3; v++)
    for (int o = 0; o < 3; o++) {
      feast_emu_set_order(o);
      FEAST_LAUNCH_SYNC(k_sum, dim3(g.nblk, 1), FEAST_CUDA_BLOCK, 0, g.b + g.v.pad, sums, v);
      FEAST_CALL(download(sums, (size_t)g.nblk - 1, &s[v][o])); /* full blocks */
    }
  EXPECT(all_finite(s[0][0]) && same(s[0][0], s[0][1]) && same(s[0][0], s[0][2]),
         "barriers: block_sum finite and bitwise the same in every order");
  /* in reverse order the upper half stores before the lower half reads: the missing
   * barrier shows in the other orders */
  EXPECT(!all_finite(s[1][0]) && !all_finite(s[1][2]) && all_finite(s[1][1]),
         "missing barrier: block sum without the barrier after the stores (broken) gives NaN in order and shuffled, not in reverse");
  EXPECT(!all_finite(s[2][0]) && !all_finite(s[2][1]) && !all_finite(s[2][2]),
         "shared memory: a sum that assumes zeroed shared memory (broken) gives NaN");
  feast_emu_set_order(FEAST_EMU_SHUFFLED);
  cudaFree(last);
  cudaFree(sums);
  grid_destroy(&g);
  return 0;
}

static int check_memory(void) {
  Grid g;
  FEAST_CALL(grid_create(5, &g));
  const size_t vb = sizeof(double) * (size_t)g.v.vs;
  double *fresh = nullptr;
  FEAST_CUDA_CALL(cudaMalloc((void **)&fresh, vb));
  std::vector<double> y;
  /* y = b + fresh: garbage (broken: fresh never set) */
  FEAST_CUDA_CALL(cudaMemcpy(g.xa, g.b, vb, cudaMemcpyDeviceToDevice));
  FEAST_LAUNCH(k_add<double>, dim3(g.nblk, 1), FEAST_CUDA_BLOCK, 0, g.v, g.active, g.xa, (const double *)fresh);
  FEAST_CUDA_CALL(cudaDeviceSynchronize());
  FEAST_CALL(download(g.xa + g.v.pad, (size_t)g.v.n, &y));
  EXPECT(!all_finite(y), "device memory: reading a cudaMalloc'ed vector never set (broken) gives NaN");
  FEAST_CUDA_CALL(cudaMemset(fresh, 0, vb));
  FEAST_CUDA_CALL(cudaMemcpy(g.xa, g.b, vb, cudaMemcpyDeviceToDevice));
  FEAST_LAUNCH(k_add<double>, dim3(g.nblk, 1), FEAST_CUDA_BLOCK, 0, g.v, g.active, g.xa, (const double *)fresh);
  FEAST_CUDA_CALL(cudaDeviceSynchronize());
  FEAST_CALL(download(g.xa + g.v.pad, (size_t)g.v.n, &y));
  EXPECT(all_finite(y), "device memory: the same after cudaMemset is finite");

  /* host pointers where device memory is expected, and the reverse */
  std::vector<double> host(g.v.vs, 1.0), host2(g.v.vs, 2.0);
  double *hp = host.data();
  auto launch_host = [&]() {
    FEAST_LAUNCH(k_add<double>, dim3(g.nblk, 1), FEAST_CUDA_BLOCK, 0, g.v, g.active, hp, (const double *)g.b);
    return 0;
  };
  EXPECT(launch_host() == FEAST_ERR_CUDA, "host pointer: a kernel launched with a host pointer fails");
  feast_error_clear();
  LevelView<double> hv = g.v;
  hv.bands = host.data();
  auto launch_view = [&]() {
    FEAST_LAUNCH(k_add<double>, dim3(g.nblk, 1), FEAST_CUDA_BLOCK, 0, hv, g.active, g.xa, (const double *)g.b);
    return 0;
  };
  EXPECT(launch_view() == FEAST_ERR_CUDA, "host pointer: a LevelView argument with host bands fails");
  feast_error_clear();
  EXPECT(cudaMemcpy(host.data(), host2.data(), vb, cudaMemcpyHostToDevice) != cudaSuccess,
         "copy direction: HostToDevice into host memory fails");
  EXPECT(cudaMemcpy(g.xa, g.b, vb, cudaMemcpyDeviceToHost) != cudaSuccess,
         "copy direction: DeviceToHost into device memory fails");
  EXPECT(cudaMemcpy(g.xa, host.data(), vb, cudaMemcpyDeviceToDevice) != cudaSuccess,
         "copy direction: DeviceToDevice from host memory fails");
  EXPECT(cudaMemcpy(g.xa, host.data(), vb + 4096, cudaMemcpyHostToDevice) != cudaSuccess,
         "copy size: a copy past the end of an allocation fails");
  EXPECT(cudaMemset(host.data(), 0, vb) != cudaSuccess, "memset: cudaMemset of host memory fails");
  EXPECT(cudaMemcpy(g.xa, host.data(), vb, cudaMemcpyHostToDevice) == cudaSuccess,
         "copy direction: HostToDevice into device memory works");
  (void)cudaGetLastError();

  /* a device-to-host copy on a stream is not there before the host waits for it */
  cudaStream_t st;
  FEAST_CUDA_CALL(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  double *pinned = nullptr;
  FEAST_CUDA_CALL(cudaMallocHost((void **)&pinned, sizeof(double)));
  *pinned = -7.0;
  FEAST_CUDA_CALL(cudaMemcpyAsync(pinned, g.b + g.v.pad, sizeof(double), cudaMemcpyDeviceToHost, st));
  const double before = *pinned; /* broken: no cudaStreamSynchronize */
  FEAST_CUDA_CALL(cudaStreamSynchronize(st));
  EXPECT(before == -7.0 && *pinned != -7.0, "streams: a copy read before cudaStreamSynchronize (broken) is stale");

  /* a cudaMemset (legacy stream) read by a kernel on a non-blocking stream: garbage
   * without a device synchronisation between them (broken), zeros with it */
  for (int sync = 0; sync < 2; sync++) {
    FEAST_CUDA_CALL(cudaMemcpy(g.xa, g.b, vb, cudaMemcpyDeviceToDevice));
    double *z = nullptr;
    FEAST_CUDA_CALL(cudaMalloc((void **)&z, vb));
    FEAST_CUDA_CALL(cudaMemset(z, 0, vb));
    if (sync) FEAST_CUDA_CALL(cudaDeviceSynchronize());
    FEAST_LAUNCH(k_add<double>, dim3(g.nblk, 1), FEAST_CUDA_BLOCK, st, g.v, g.active, g.xa, (const double *)z);
    FEAST_CUDA_CALL(cudaStreamSynchronize(st));
    FEAST_CALL(download(g.xa + g.v.pad, (size_t)g.v.n, &y));
    FEAST_CUDA_CALL(cudaDeviceSynchronize());
    cudaFree(z);
    if (sync) EXPECT(all_finite(y), "streams: a memset waited for (cudaDeviceSynchronize) before a kernel on another stream: zeros");
    else EXPECT(!all_finite(y), "streams: a memset not waited for before a kernel on a non-blocking stream (broken) is not there yet (NaN)");
  }
  cudaFreeHost(pinned);
  cudaStreamDestroy(st);

  /* fatal misuse, in children */
  double *dev = g.xa;
  const long n = g.v.vs;
  EXPECT(dies_with([&]() { volatile double v = dev[3]; (void)v; }, "host access to device memory"),
         "host access: a device pointer dereferenced on the host dies with the emulator's message");
  EXPECT(dies_with([&]() { (void)launch_overrun(dev, n); }, "outside every allocation"),
         "device access: a kernel writing past the end of an allocation (broken) dies");
  EXPECT(dies_with([&]() { (void)launch_early_return(dev); }, "returned while the others wait"),
         "barriers: thread 0 returning before __syncthreads (broken) aborts");
  EXPECT(dies_with([&]() { (void)launch_sync_in_plain(dev, g.nblk); }, "__syncthreads in a kernel launched with FEAST_LAUNCH"),
         "barriers: __syncthreads in a FEAST_LAUNCH kernel (broken) aborts");
  grid_destroy(&g);
  cudaFree(fresh);
  return 0;
}

/* k_status, one block per macro (grid (1, M)), after a cycle with rtol 0.1, nrm0 = 1,
 * max_cycles 4: macro 0 converged (||r|| = 0.05), 1 and 5 go on (0.5, 0.2), 2 not finite,
 * 3 inactive before (untouched), 4 at max_cycles; *nactive = 2 in every block order */
static int check_status(void) {
  const int M = 6, nred = 3, maxred = 4;
  const double nan = std::nan("");
  const double h_partial[M * maxred] = {0.0025, 0, 0, 0,   0.25, 0, 0, 0,  nan, 1, 1, 0,
                                        0.0001, 0, 0, 0,   0.1, 0.1, 0.05, 0, 0.01, 0.02, 0.01, 0};
  const int h_active0[M] = {1, 1, 1, 0, 1, 1}, h_stat0[3 * M] = {1, 1, 1, 1, 3, 2};
  const double h_nrm0[M] = {1, 1, 1, 1, 1, 1};
  double *partial = nullptr, *nrm0 = nullptr;
  int *active = nullptr, *stat = nullptr, *nactive = nullptr;
  FEAST_CUDA_CALL(cudaMalloc((void **)&partial, sizeof h_partial));
  FEAST_CUDA_CALL(cudaMalloc((void **)&nrm0, sizeof h_nrm0));
  FEAST_CUDA_CALL(cudaMalloc((void **)&active, sizeof h_active0));
  FEAST_CUDA_CALL(cudaMalloc((void **)&stat, sizeof h_stat0));
  FEAST_CUDA_CALL(cudaMalloc((void **)&nactive, sizeof(int)));
  int ok = 1;
  for (int o = 0; o < 3; o++) {
    feast_emu_set_order(o);
    FEAST_CUDA_CALL(cudaMemcpy(partial, h_partial, sizeof h_partial, cudaMemcpyHostToDevice));
    FEAST_CUDA_CALL(cudaMemcpy(nrm0, h_nrm0, sizeof h_nrm0, cudaMemcpyHostToDevice));
    FEAST_CUDA_CALL(cudaMemcpy(active, h_active0, sizeof h_active0, cudaMemcpyHostToDevice));
    FEAST_CUDA_CALL(cudaMemcpy(stat, h_stat0, sizeof h_stat0, cudaMemcpyHostToDevice));
    FEAST_CUDA_CALL(cudaMemset(nactive, 0, sizeof(int)));
    FEAST_LAUNCH_SYNC(k_status, dim3(1, M), FEAST_CUDA_BLOCK, 0, M, nred, maxred, (const double *)partial,
                      nrm0, active, stat, nactive, 0, 0.1, 4);
    FEAST_CUDA_CALL(cudaDeviceSynchronize());
    int a[M], st[3 * M], n = -1;
    FEAST_CUDA_CALL(cudaMemcpy(a, active, sizeof a, cudaMemcpyDeviceToHost));
    FEAST_CUDA_CALL(cudaMemcpy(st, stat, sizeof st, cudaMemcpyDeviceToHost));
    FEAST_CUDA_CALL(cudaMemcpy(&n, nactive, sizeof n, cudaMemcpyDeviceToHost));
    const int want_a[M] = {0, 1, 0, 0, 0, 1}, want_st[3 * M] = {2, 2, 2, 1, 4, 3, 0, 0, 0, 0, 1, 0,
                                                                 0, 0, 1, 0, 0, 0};
    ok &= n == 2 && !memcmp(a, want_a, sizeof a) && !memcmp(st, want_st, sizeof st);
  }
  feast_emu_set_order(FEAST_EMU_SHUFFLED);
  EXPECT(ok, "k_status, one block per macro: converged, running, non-finite, inactive and max-cycles macros and the active count right in every block order");
  cudaFree(partial);
  cudaFree(nrm0);
  cudaFree(active);
  cudaFree(stat);
  cudaFree(nactive);
  return 0;
}

/* a kernel that faults (broken on purpose) */
__global__ void k_bad_trap(int *out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) __trap();
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}

static int launch_trap(int *out) {
  FEAST_LAUNCH(k_bad_trap, dim3(2, 1), FEAST_CUDA_BLOCK, 0, out);
  return 0;
}

static int check_launch_fault(void) {
  int *out;
  FEAST_CUDA_CALL(cudaMalloc((void **)&out, sizeof(int) * 2 * FEAST_CUDA_BLOCK));
  feast_cuda_set_launch_check(1);
  const int checked = launch_trap(out);
  const std::string msg = feast_error_message();
  feast_error_clear();
  feast_emu_clear_fault();
  EXPECT(checked == FEAST_ERR_CUDA && msg.find("in kernel k_bad_trap") != std::string::npos,
         "kernel fault: with the launch check the launch of a trapping kernel (broken) fails naming the kernel");
  feast_cuda_set_launch_check(0);
  const int unchecked = launch_trap(out);
  const cudaError_t later = cudaDeviceSynchronize();
  feast_emu_clear_fault();
  EXPECT(unchecked == 0 && later == cudaErrorLaunchFailure,
         "kernel fault: without the launch check the fault shows at the next synchronisation only");
  cudaFree(out);
  return 0;
}

int main(void) {
  if (check_order()) fprintf(stderr, "%s\n", feast_error_message()), failures++;
  if (check_status()) fprintf(stderr, "%s\n", feast_error_message()), failures++;
  if (check_memory()) fprintf(stderr, "%s\n", feast_error_message()), failures++;
  if (check_launch_fault()) fprintf(stderr, "%s\n", feast_error_message()), failures++;
  printf("test_cuda_emu: %d checks, %d failed (seed %llu)\n", checks, failures, feast_emu_seed());
  return failures ? 1 : 0;
}

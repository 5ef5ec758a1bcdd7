/* Device-side timing of the CUDA local multigrid for bench/bench_local_mg_gpu.c:
 * cycle times with and without CUDA graphs (CUDA events), full solves (host timer), and
 * the device-to-device copy bandwidth measured in the same run. */
#include "coproc/cuda/solver.cuh"
#include <stdio.h>
#include <string.h>
#include <time.h>
extern "C" {
#include "coproc/cuda/cuda_bench.h"
}

namespace feast_cuda {

/* seconds between two recorded events */
static int elapsed(cudaEvent_t e0, cudaEvent_t e1, double *t) {
  float ms = 0;
  FEAST_CUDA_CALL(cudaEventSynchronize(e1));
  FEAST_CUDA_CALL(cudaEventElapsedTime(&ms, e0, e1));
  *t = 1e-3 * (double)ms;
  return 0;
}

/* s per cycle over `cycles` back-to-back cycles of every macro (graph or direct) */
template <typename T>
static int time_cycles(Solver<T> *s, int use_graph, int cycles, cudaEvent_t e0, cudaEvent_t e1,
                       double *t) {
  s->graphs = use_graph;
  FEAST_CALL(s->enqueue_init());
  FEAST_CALL(s->launch_cycle()); /* warm-up */
  FEAST_CALL(s->enqueue_init());
  FEAST_CUDA_CALL(cudaEventRecord(e0, s->stream));
  for (int c = 0; c < cycles; c++) FEAST_CALL(s->launch_cycle());
  FEAST_CUDA_CALL(cudaEventRecord(e1, s->stream));
  FEAST_CALL(elapsed(e0, e1, t));
  *t /= cycles;
  return 0;
}

/* (read + write) bytes per second of a device-to-device cudaMemcpy of 256 MB */
static int copy_bandwidth(cudaEvent_t e0, cudaEvent_t e1, double *gbs) {
#ifdef FEAST_CUDA_EMU
  const size_t bytes = (size_t)8 << 20; /* the host emulator: a rehearsal, not a measure */
#else
  const size_t bytes = (size_t)256 << 20;
#endif
  const int reps = 10;
  void *a = NULL, *b = NULL;
  int rc = 0;
  double t = 0;
  if (cudaMalloc(&a, bytes) != cudaSuccess || cudaMalloc(&b, bytes) != cudaSuccess) {
    (void)cudaGetLastError();
    rc = feast_error_set(FEAST_ERR_CUDA, __FILE__, __LINE__, "cudaMalloc of 2 x 256 MB failed");
  }
  if (!rc && cudaMemset(a, 0, bytes) != cudaSuccess) rc = FEAST_ERR_CUDA;
  if (!rc && cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice) != cudaSuccess) rc = FEAST_ERR_CUDA;
  if (!rc && cudaEventRecord(e0, 0) != cudaSuccess) rc = FEAST_ERR_CUDA;
  for (int r = 0; r < reps && !rc; r++)
    if (cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, 0) != cudaSuccess) rc = FEAST_ERR_CUDA;
  if (!rc && cudaEventRecord(e1, 0) != cudaSuccess) rc = FEAST_ERR_CUDA;
  if (!rc) rc = elapsed(e0, e1, &t);
  if (rc == FEAST_ERR_CUDA && !feast_error_code()) {
    const cudaError_t e = cudaGetLastError();
    feast_error_set(rc, __FILE__, __LINE__, "copy bandwidth: %s", cudaGetErrorString(e));
  }
  (void)cudaFree(a);
  (void)cudaFree(b);
  if (!rc) *gbs = 2.0 * (double)bytes * reps / t / 1e9;
  return rc;
}

/* deterministic defects in [-1, 1], zero at fixed nodes */
static void fill_defects(int M, long n, const FeastLocalProblem *problems, double *d) {
  unsigned long long z = 0x9E3779B97F4A7C15ull;
  for (int m = 0; m < M; m++) {
    const int L = problems[m].level;
    const unsigned char *fx = problems[m].fixed ? problems[m].fixed[L] : NULL;
    for (long i = 0; i < n; i++) {
      z = z * 6364136223846793005ull + 1442695040888963407ull;
      const double v = (double)(z >> 11) / 9007199254740992.0 * 2 - 1;
      d[(size_t)m * n + i] = fx && fx[i] ? 0.0 : v;
    }
  }
}

/* mean s of one solve of `cycles` cycles (after a warm-up solve) */
template <typename T>
static int time_solves(Solver<T> *s, const double *const *d, double *const *c, int cycles,
                       double *t) {
  FeastLocalMGStats st;
  s->p.max_cycles = cycles; /* bounds the host loop; rtol = 1e-300 keeps every macro running */
  FEAST_CALL(s->solve(d, c, &st));
  const int reps = 3;
  const double t0 = wall_s();
  for (int r = 0; r < reps; r++) FEAST_CALL(s->solve(d, c, &st));
  *t = (wall_s() - t0) / reps;
  return 0;
}

/* device memory traffic of one cycle of the solver's whole batch, counted per kernel: a
 * 9-band sweep reads 9 bands + its vectors once (neighbour reads hit the caches) */
template <typename T> double bytes_per_cycle(const Solver<T> &sv) {
  const double s = sizeof(T);
  const int pre = sv.p.pre_smooth, post = sv.p.post_smooth, fused = sv.nlev > 1 && post > 0;
  double bytes = 0;
  for (int li = 1; li < sv.nlev; li++) {
    const double n = (double)sv.lev[li].v.n, nc = (double)sv.lev[li - 1].v.n;
    bytes += pre ? 3 * n * s : n * s;                  /* from zero: diag, b in; x out */
    bytes += ((pre ? pre - 1 : 0) + post) * 12 * n * s; /* 9 bands, x, b in; x out */
    bytes += 12 * n * s;                               /* defect: 9 bands, x, b; r */
    bytes += n * s + nc * (s + 1);                     /* restriction, mask */
    /* prolongation: xc, mask; xf in and out, or fused into the first post-smoothing
     * step (counted above: its xf in is that step's x in, nothing stored) */
    bytes += nc * s + n + (post ? 0 : 2 * n * s);
  }
  const double nc = (double)sv.lev[0].v.n;
  bytes += nc * nc * s + (sv.lev[0].nblk + 1) * nc * s; /* coarse: inverse, b per block, x */
  const double n = (double)sv.lev[sv.nlev - 1].v.n;
  bytes += fused ? n * s : 3 * n * s; /* xt += x: in the last sweep (xt in, not x out) */
  bytes += 12 * n * s;                /* r = d - A xt */
  return bytes * sv.M;
}

template <typename T>
static int run_bench(Solver<T> *s, const double *const *d, double *const *c, int cycles,
                     FeastCudaBench *out) {
  cudaEvent_t e0 = NULL, e1 = NULL;
  FEAST_CUDA_CALL(cudaEventCreate(&e0));
  int rc = cudaEventCreate(&e1) == cudaSuccess ? 0 : FEAST_ERR_CUDA;
  if (rc) feast_error_set(rc, __FILE__, __LINE__, "cudaEventCreate failed");
  const int env_graphs = s->graphs;
  if (!rc && !s->exec) rc = s->capture_graph();
  if (!rc) rc = s->upload_defects(d, nullptr);
  if (!rc) rc = time_cycles(s, 0, cycles, e0, e1, &out->t_cycle_direct);
  if (!rc) rc = time_cycles(s, 1, cycles, e0, e1, &out->t_cycle_graph);
  s->graphs = env_graphs;
  if (!rc) rc = time_solves(s, d, c, cycles, &out->t_solve);
  out->launches_per_cycle = s->launches_per_cycle;
  out->memops_per_cycle = s->memops_per_cycle;
  out->round_trips = s->round_trips;
  out->h2d_bytes = s->h2d_bytes;
  out->d2h_bytes = s->d2h_bytes;
  if (!rc) rc = copy_bandwidth(e0, e1, &out->copy_gbs);
  out->bytes_per_cycle = bytes_per_cycle(*s);
  (void)cudaEventDestroy(e0);
  if (e1) (void)cudaEventDestroy(e1);
  return rc;
}

/* the CUDA solver of precision T, set up through the front end (Galerkin levels and
 * coarse inverses as in a run) */
template <typename T>
static int bench(const char *precision, int M, const FeastLocalProblem *problems,
                 const FeastLocalMGParams *params, int cycles, FeastCudaBench *out) {
  FeastLocalMGParams pp = *params;
  pp.rtol = 1e-300; /* every macro runs every cycle */
  pp.max_cycles = 1 << 30;
  const long N = (1L << problems[0].level) + 1, n = N * N;
  FeastLocalSolver *ls = NULL;
  double *buf = (double *)malloc(sizeof(double) * (size_t)M * n * 2);
  const double **dp = (const double **)malloc(sizeof(double *) * M);
  double **cp = (double **)malloc(sizeof(double *) * M);
  int rc = buf && dp && cp ? 0 : feast_error_set(FEAST_ERR_MEM, __FILE__, __LINE__, "out of memory");
  if (!rc) {
    fill_defects(M, n, problems, buf);
    for (int m = 0; m < M; m++) {
      dp[m] = buf + (size_t)m * n;
      cp[m] = buf + (size_t)(M + m) * n;
    }
    rc = feast_local_create("gpu", precision, &ls);
  }
  if (!rc) rc = feast_local_setup(ls, M, problems, &pp);
  Solver<T> *s = rc ? NULL : (Solver<T> *)feast_local_backend_data(ls);
  if (!rc) rc = run_bench(s, dp, cp, cycles, out);
  if (!rc) rc = feast_local_update(ls, problems); /* the same values, uploaded again */
  if (!rc) {
    out->update_copies = s->upd_copies;
    out->update_bytes = s->upd_bytes;
    out->update_host_s = s->upd_host_s;
  }
  feast_local_destroy(&ls);
  free(buf);
  free(dp);
  free(cp);
  return rc;
}

} /* namespace feast_cuda */

extern "C" int feast_cuda_bench_local_mg(const char *precision, int nmacros,
                                         const FeastLocalProblem *problems,
                                         const FeastLocalMGParams *params, int cycles,
                                         FeastCudaBench *out) {
  FEAST_CHECK(precision && problems && params && out && nmacros >= 1 && cycles >= 1,
              FEAST_ERR_ARG, "feast_cuda_bench_local_mg: bad arguments");
  memset(out, 0, sizeof *out);
  FEAST_CALL(feast_cuda::select_device());
  int dev = 0;
  cudaDeviceProp prop;
  FEAST_CUDA_CALL(cudaGetDevice(&dev));
  FEAST_CUDA_CALL(cudaGetDeviceProperties(&prop, dev));
  snprintf(out->device, sizeof out->device, "%s", prop.name);
  if (!strcmp(precision, "single"))
    return feast_cuda::bench<float>(precision, nmacros, problems, params, cycles, out);
  if (!strcmp(precision, "double"))
    return feast_cuda::bench<double>(precision, nmacros, problems, params, cycles, out);
  FEAST_ERROR(FEAST_ERR_ARG, "precision '%s': expected single or double", precision);
}

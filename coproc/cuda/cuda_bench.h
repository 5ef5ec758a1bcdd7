/* Device-side timing of the CUDA local multigrid, callable from C (bench/). Plain C;
 * only present in builds with the CUDA backend (FEAST_HAVE_CUDA). */
#ifndef FEAST_CUDA_BENCH_H
#define FEAST_CUDA_BENCH_H
#include "coproc/coproc.h"

typedef struct {
  char device[256];       /* device name */
  double t_cycle_graph;   /* s per cycle of the batch, one CUDA graph launch per cycle */
  double t_cycle_direct;  /* s per cycle of the batch, kernels launched one by one */
  double t_solve;         /* s per solve of `cycles` cycles: upload, cycles, download (one
                             host round trip: the cycles of the warm-up solve are enqueued
                             at once; graphs as FEAST_CUDA_GRAPHS says, default on) */
  double bytes_per_cycle; /* counted device memory traffic of one cycle of the batch */
  double copy_gbs;        /* device-to-device cudaMemcpy, (read + write bytes) / s */
  int launches_per_cycle; /* kernel launches of one cycle (V cycle, update, norm, status) */
  int memops_per_cycle;   /* memsets and copies enqueued by one cycle */
  int round_trips;        /* host waits for the device in one solve of `cycles` cycles */
  int update_copies;      /* host -> device copies of one matrix update (backend part) */
  double update_bytes;    /* their bytes */
  double update_host_s;   /* host seconds of the backend's part of one update */
  double h2d_bytes;       /* host -> device bytes of one solve (defects, doubles) */
  double d2h_bytes;       /* device -> host bytes of one solve (corrections, status and
                             active count per look at the device) */
} FeastCudaBench;

/* Time the CUDA local MG (precision "single" | "double") on the nmacros problems: cycle
 * times from CUDA events over `cycles` back-to-back cycles (rtol ignored: every macro
 * runs every cycle), a full solve of `cycles` cycles with a host timer, and a
 * device-to-device copy for the achievable bandwidth. */
int feast_cuda_bench_local_mg(const char *precision, int nmacros,
                              const FeastLocalProblem *problems, const FeastLocalMGParams *params,
                              int cycles, FeastCudaBench *out);
#endif

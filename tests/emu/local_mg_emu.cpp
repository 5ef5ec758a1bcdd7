// The CUDA backend compiled for the host emulator (coproc/cuda/cuda_emu.cuh), FEAST_CUDA_EMU
#include "coproc/cuda/local_mg.cu"

/* for C tests (tests/unit/test_coproc_gpu.c): the emulator's seed, and the order of blocks
 * and threads (0 ordered, 1 reverse, 2 shuffled) */
extern "C" unsigned long long feast_cuda_emu_seed(void) { return feast_emu_seed(); }
extern "C" void feast_cuda_emu_set_order(int order) { feast_emu_set_order(order); }

/* for C tests: what the CUDA solver of a set-up FeastLocalSolver counted in its last cycle
 * and solve (kernels and memsets/copies per cycle, host round trips per solve) */
template <typename T> static void counts_of(void *data, int *c) {
  const feast_cuda::Solver<T> *s = (const feast_cuda::Solver<T> *)data;
  c[0] = s->launches_per_cycle;
  c[1] = s->memops_per_cycle;
  c[2] = s->round_trips;
}
extern "C" void feast_cuda_emu_counts(FeastLocalSolver *ls, int counts[3]) {
  if (!strcmp(feast_local_precision(ls), "single")) counts_of<float>(feast_local_backend_data(ls), counts);
  else counts_of<double>(feast_local_backend_data(ls), counts);
}

// The CUDA backend compiled for the host emulator (coproc/cuda/cuda_emu.cuh), FEAST_CUDA_EMU
#include "coproc/cuda/local_mg.cu"

/* for C tests (tests/unit/test_coproc_gpu.c): the emulator's seed, and the order of blocks
 * and threads (0 ordered, 1 reverse, 2 shuffled) */
extern "C" unsigned long long feast_cuda_emu_seed(void) { return feast_emu_seed(); }
extern "C" void feast_cuda_emu_set_order(int order) { feast_emu_set_order(order); }

/* for C tests: what the CUDA solver of a set-up FeastLocalSolver counted: counts[0..7] =
 * kernels and memsets/copies of its last cycle, host round trips of its last solve,
 * graphs captured, graphs in use, failed captures in this process, host -> device copies
 * and their bytes of its last setup or update of the matrix values */
template <typename T> static void counts_of(void *data, int *c) {
  const feast_cuda::Solver<T> *s = (const feast_cuda::Solver<T> *)data;
  c[0] = s->launches_per_cycle;
  c[1] = s->memops_per_cycle;
  c[2] = s->round_trips;
  c[3] = s->captures;
  c[4] = s->graphs;
  c[5] = feast_cuda::graph_warnings;
  c[6] = s->upd_copies;
  c[7] = (int)s->upd_bytes;
}
/* ... and a new rtol and max_cycles for its next solve (what cuda_bench.cu does) */
template <typename T> static void limits_of(void *data, double rtol, int max_cycles) {
  feast_cuda::Solver<T> *s = (feast_cuda::Solver<T> *)data;
  s->p.rtol = rtol;
  s->p.max_cycles = max_cycles;
}
static int is_single(FeastLocalSolver *ls) { return !strcmp(feast_local_precision(ls), "single"); }
extern "C" void feast_cuda_emu_counts(FeastLocalSolver *ls, int counts[8]) {
  counts[5] = feast_cuda::graph_warnings;
  if (!ls) return; /* the process-wide count alone */
  if (is_single(ls)) counts_of<float>(feast_local_backend_data(ls), counts);
  else counts_of<double>(feast_local_backend_data(ls), counts);
}
extern "C" void feast_cuda_emu_set_limits(FeastLocalSolver *ls, double rtol, int max_cycles) {
  if (is_single(ls)) limits_of<float>(feast_local_backend_data(ls), rtol, max_cycles);
  else limits_of<double>(feast_local_backend_data(ls), rtol, max_cycles);
}

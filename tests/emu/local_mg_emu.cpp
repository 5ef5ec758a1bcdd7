// The CUDA backend compiled for the host emulator (coproc/cuda/cuda_emu.cuh), FEAST_CUDA_EMU
#include "coproc/cuda/local_mg.cu"

/* for C tests (tests/unit/test_coproc_gpu.c): the emulator's seed, and the order of blocks
 * and threads (0 ordered, 1 reverse, 2 shuffled) */
extern "C" unsigned long long feast_cuda_emu_seed(void) { return feast_emu_seed(); }
extern "C" void feast_cuda_emu_set_order(int order) { feast_emu_set_order(order); }

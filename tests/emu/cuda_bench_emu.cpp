// The CUDA benchmark helpers compiled for the host emulator (coproc/cuda/cuda_emu.cuh)
#include "coproc/cuda/cuda_bench.cu"

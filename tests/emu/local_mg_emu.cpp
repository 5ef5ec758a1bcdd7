// The CUDA backend compiled for the host emulator (coproc/cuda/cuda_emu.cuh), FEAST_CUDA_EMU
#include "coproc/cuda/local_mg.cu"

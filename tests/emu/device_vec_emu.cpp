// The device of solver.residency = device compiled for the host emulator
// (coproc/cuda/cuda_emu.cuh), FEAST_CUDA_EMU
#include "coproc/cuda/device_vec.cu"

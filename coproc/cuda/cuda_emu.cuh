/* Host emulation of the CUDA subset coproc/cuda uses, stricter than a GPU, to run the
 * kernels and the batched solver on a machine without one. Not part of the real build:
 * the .cu files of this folder are compiled as C++20 with -DFEAST_CUDA_EMU and linked
 * with C objects built with -DFEAST_HAVE_CUDA=1 (tests/CMakeLists.txt: feast_emu,
 * test_coproc_gpu_emu, feastc_emu, test_cuda_emu). What it enforces:
 *  - Order. The blocks of a launch run in an order chosen per launch and the threads of a
 *    block in an order chosen per block (FEAST_LAUNCH) or per phase between two
 *    __syncthreads (FEAST_LAUNCH_SYNC: every thread is a fiber on its own stack, run up
 *    to its next barrier, one after another; a block whose threads do not all reach the
 *    same barrier aborts). FEAST_EMU_ORDER = ordered | reverse | shuffled (default), the
 *    shuffles drawn from FEAST_EMU_SEED (default: time and pid; feast_emu_seed() gives
 *    it, test_coproc_gpu prints it on failure). A kernel whose result depends on the
 *    order of blocks or threads gives different results under two orders.
 *  - Uninitialised memory. Shared arrays (FEAST_SHARED: the k-th declaration a thread
 *    reaches is the k-th array of its block's buffer) start as 0xff bytes (NaN in float
 *    and double, -1 in int) in every block; cudaMalloc fills with 0xff too.
 *  - Host and device memory apart. cudaMalloc returns memory of an arena the emulator
 *    tracks (a registry of allocations, each ending at a page boundary before a guard
 *    page); the arena is readable only while a kernel, copy or memset runs, so a device
 *    pointer dereferenced on the host faults (SIGSEGV, reported with the allocation) and
 *    so does a kernel's access past the end of an allocation. cudaMemcpy*, cudaMemset*
 *    and launches check every pointer against the registry and the copy direction
 *    (host pointer where device memory is expected, or the reverse: cudaErrorInvalidValue
 *    with a message on stderr). Kernel arguments that are structs with device pointers
 *    are checked through an overload of feast_emu_device_args found by ADL.
 *  - Streams. Work on a stream (launches, async copies, memsets, events, graph launches,
 *    and cudaMemset on the legacy stream) is queued and runs only when the host waits
 *    for it (cudaStreamSynchronize, cudaEventSynchronize, cudaDeviceSynchronize,
 *    cudaFree, a synchronous copy waits for the legacy stream only), so a missing
 *    synchronisation reads stale host values, or device memory a memset has not set.
 * Kernels launched with FEAST_LAUNCH must not call __syncthreads (abort).
 * FEAST_EMU_DEVICES=0 in the environment emulates a machine without a device,
 * FEAST_EMU_GRAPH_FAIL=1 one whose graph instantiation fails (cudaErrorNotSupported),
 * FEAST_EMU_MAX_PITCH=bytes one with that cudaDevAttrMaxPitch (2D copies above it fail),
 * FEAST_EMU_FAULT=KERNEL[:N] one where the N-th launch of KERNEL (default the first) faults.
 * Fibers switch with 6 saved registers on x86-64, with ucontext elsewhere (or with
 * -DFEAST_EMU_UCONTEXT; slower: a syscall per switch). The emulator runs under
 * -fsanitize=address,undefined (fiber stacks are unpoisoned when reused); every host
 * buffer is then checked by ASan, every device buffer by its guard page.
 * The parts, in coproc/cuda/emu/, each including the ones it builds on: types.cuh (the
 * runtime API's types and error codes), state.cuh (settings, the device arena, errors,
 * device queries), streams.cuh (streams, events, graphs), memory.cuh (allocation, copies,
 * memsets), block.cuh (fibers, __syncthreads, shared memory, atomics), launch.cuh
 * (scheduling orders, kernel launches). */
#ifndef FEAST_CUDA_EMU_CUH
#define FEAST_CUDA_EMU_CUH
#include "coproc/cuda/emu/types.cuh"
#include "coproc/cuda/emu/state.cuh"
#include "coproc/cuda/emu/streams.cuh"
#include "coproc/cuda/emu/memory.cuh"
#include "coproc/cuda/emu/block.cuh"
#include "coproc/cuda/emu/launch.cuh"
#endif

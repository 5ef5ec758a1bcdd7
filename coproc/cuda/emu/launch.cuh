/* Host emulator (see coproc/cuda/cuda_emu.cuh), part 6: kernel launches. The order of
 * blocks and threads (FEAST_EMU_ORDER, drawn from the seed), a synchronising launch's
 * block run phase by phase on fibers, the run of a kernel body over the grid, the checks
 * of the configuration and of the kernel arguments (feast_emu_device_args by ADL), and
 * feast_emu_launch, which FEAST_LAUNCH and FEAST_LAUNCH_SYNC (cuda_common.cuh) expand
 * to: queued on the stream, run with the arena open. */
#ifndef FEAST_CUDA_EMU_LAUNCH_CUH
#define FEAST_CUDA_EMU_LAUNCH_CUH
#include "coproc/cuda/emu/state.cuh"
#include "coproc/cuda/emu/streams.cuh"
#include "coproc/cuda/emu/block.cuh"
#include <cstdio>
#include <cstdlib>
#include <sys/mman.h>
#include <type_traits>
#include <vector>

/* order[0..n) <- 0..n-1 in the emulator's order */
static inline void feast_emu_order(std::vector<unsigned> &order, unsigned n) {
  order.resize(n);
  for (unsigned i = 0; i < n; i++) order[i] = feast_emu_S.order == FEAST_EMU_REVERSE ? n - 1 - i : i;
  if (feast_emu_S.order == FEAST_EMU_SHUFFLED)
    for (unsigned i = n; i > 1; i--) {
      const unsigned j = (unsigned)(feast_emu_next() % i);
      const unsigned t = order[i - 1];
      order[i - 1] = order[j];
      order[j] = t;
    }
}

/* one block of a synchronising launch: every thread a fiber, run phase by phase */
template <class F> inline void feast_emu_sync_block(const char *name, unsigned nt, F &f) {
  feast_emu_fibers_t &Fb = feast_emu_F;
  if (!Fb.stacks) {
    void *st = mmap(nullptr, (size_t)FEAST_EMU_MAX_THREADS * FEAST_EMU_STACK, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (st == MAP_FAILED) {
      fprintf(stderr, "emulator: no memory for the fiber stacks\n");
      abort();
    }
    Fb.stacks = (char *)st;
    Fb.state.resize(FEAST_EMU_MAX_THREADS);
#ifdef FEAST_EMU_USE_UCONTEXT
    Fb.ctx.resize(FEAST_EMU_MAX_THREADS);
#else
    Fb.sp.resize(FEAST_EMU_MAX_THREADS);
#endif
  }
  Fb.body = [](void *p) { (*(F *)p)(); };
  Fb.arg = &f;
  for (unsigned t = 0; t < nt; t++) feast_emu_fiber_start((int)t);
  std::vector<unsigned> order;
  for (int phase = 0;; phase++) {
    feast_emu_order(order, nt);
    feast_emu_phase(order);
    unsigned done = 0;
    for (unsigned t = 0; t < nt; t++) done += Fb.state[t] == 2;
    if (done == nt) return;
    if (done) {
      fprintf(stderr, "emulator: kernel %s, block (%u, %u): %u of %u threads returned while the "
                      "others wait at __syncthreads %d (seed %llu)\n",
              name, blockIdx.x, blockIdx.y, done, nt, phase + 1, feast_emu_S.seed);
      abort();
    }
    for (unsigned t = 0; t < nt; t++) Fb.state[t] = 0;
  }
}

/* run a kernel body over the grid */
template <class F> inline void feast_emu_run(int sync, const char *name, dim3 grid, dim3 block, F &f) {
  gridDim = grid;
  blockDim = block;
  const unsigned nb = grid.x * grid.y;
  std::vector<unsigned> border, torder;
  feast_emu_order(border, nb);
  for (unsigned b : border) {
    blockIdx = dim3(b % grid.x, b / grid.x, 0);
    feast_emu_new_block();
    if (sync) {
      feast_emu_sync_block(name, block.x, f);
      continue;
    }
    feast_emu_order(torder, block.x);
    for (unsigned t : torder) {
      threadIdx = dim3(t, 0, 0);
      f();
    }
  }
}

inline const void *feast_emu_not_device(const void *p) { return p && !feast_emu_find(p) ? p : nullptr; }

/* kernel arguments: a pointer must be null or device memory; a struct is checked by an
 * overload feast_emu_device_args(const S &) (found by ADL) returning the first bad
 * pointer or null */
template <class A> inline const void *feast_emu_bad_arg(const A &a) {
  if constexpr (std::is_pointer_v<A>) {
    return feast_emu_not_device((const void *)a);
  } else if constexpr (requires { feast_emu_device_args(a); }) {
    return feast_emu_device_args(a);
  } else {
    return nullptr;
  }
}

template <class F, class... A>
inline void feast_emu_launch(int sync, const char *name, dim3 grid, dim3 block, cudaStream_t s, F f,
                             const A &...args) {
  feast_emu_init();
  if (block.x < 1 || block.x > FEAST_EMU_MAX_THREADS || block.y != 1 || block.z != 1 || grid.x < 1 ||
      grid.y < 1 || grid.y > 65535 || grid.z != 1) {
    feast_emu_fail(cudaErrorInvalidConfiguration);
    return;
  }
  const void *bads[] = {nullptr, feast_emu_bad_arg(args)...};
  for (size_t i = 1; i < sizeof bads / sizeof bads[0]; i++) {
    if (const void *bad = bads[i]) {
      fprintf(stderr, "emulator: kernel %s, argument %zu: %p is not device memory (seed %llu)\n", name, i,
              bad, feast_emu_S.seed);
      feast_emu_fail(cudaErrorInvalidValue);
      return;
    }
  }
  feast_emu_state_t &S = feast_emu_S;
  const int fault = S.fault_countdown > 0 && !strcmp(name, S.fault_kernel) && --S.fault_countdown == 0;
  feast_emu_op(s, [=]() mutable {
    feast_emu_open();
    feast_emu_run(sync, name, grid, block, f);
    feast_emu_close();
    if (fault) __trap(); /* FEAST_EMU_FAULT: as if the kernel had faulted */
  });
}
#endif

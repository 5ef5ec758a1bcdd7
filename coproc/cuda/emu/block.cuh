/* Host emulator (see coproc/cuda/cuda_emu.cuh), part 5: inside one block. Its threads as
 * fibers of a synchronising launch (a 6-register switch on x86-64, ucontext elsewhere or
 * with -DFEAST_EMU_UCONTEXT; each phase runs the runnable fibers in a given order up to
 * their next barrier), __syncthreads, the block's shared memory (FEAST_SHARED arrays,
 * 0xff bytes in every new block), the atomics, and __trap (a kernel fault). */
#ifndef FEAST_CUDA_EMU_BLOCK_CUH
#define FEAST_CUDA_EMU_BLOCK_CUH
#include "coproc/cuda/emu/state.cuh"
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define FEAST_EMU_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define FEAST_EMU_UNPOISON(p, n) ((void)(p), (void)(n))
#endif
#if !defined(__x86_64__) || defined(FEAST_EMU_UCONTEXT)
#include <ucontext.h>
#define FEAST_EMU_USE_UCONTEXT 1
#endif

/* ------------------------------------------------------------------ fibers */

/* One fiber per thread of a block of a synchronising launch; __syncthreads switches back
 * to the scheduler. x86-64: a 6-register switch (feast_emu_switch); elsewhere ucontext. */
#ifndef FEAST_EMU_USE_UCONTEXT
extern "C" void feast_emu_switch(void **save_sp, void *to_sp);
asm(".pushsection .text\n"
    ".weak feast_emu_switch\n"
    ".type feast_emu_switch,@function\n"
    "feast_emu_switch:\n"
    "  pushq %rbp\n  pushq %rbx\n  pushq %r12\n  pushq %r13\n  pushq %r14\n  pushq %r15\n"
    "  movq %rsp, (%rdi)\n  movq %rsi, %rsp\n"
    "  popq %r15\n  popq %r14\n  popq %r13\n  popq %r12\n  popq %rbx\n  popq %rbp\n"
    "  ret\n"
    ".size feast_emu_switch, .-feast_emu_switch\n"
    ".popsection\n");
#endif

enum { FEAST_EMU_MAX_THREADS = 1024, FEAST_EMU_STACK = 64 * 1024 };
struct feast_emu_fibers_t {
  char *stacks = nullptr;
  int cur = -1;         /* the running fiber, -1: the scheduler or a plain launch */
  const unsigned *order = nullptr; /* of the running phase */
  unsigned pos = 0, n = 0;         /* order[pos] runs; n threads */
  void (*body)(void *) = nullptr;
  void *arg = nullptr;
  std::vector<int> state; /* 0 runnable, 1 at a barrier, 2 done */
#ifdef FEAST_EMU_USE_UCONTEXT
  ucontext_t sched;
  std::vector<ucontext_t> ctx;
#else
  void *sched_sp = nullptr;
  std::vector<void *> sp;
#endif
};
inline feast_emu_fibers_t feast_emu_F;

/* the running fiber stops (at a barrier or done): on to the next one of the phase's
 * order, or back to the scheduler after the last */
static inline void feast_emu_yield(void) {
  feast_emu_fibers_t &F = feast_emu_F;
  const int old = F.cur;
  if (++F.pos < F.n) {
    const int next = (int)F.order[F.pos];
    F.cur = next;
    threadIdx = dim3((unsigned)next, 0, 0);
#ifdef FEAST_EMU_USE_UCONTEXT
    swapcontext(&F.ctx[old], &F.ctx[next]);
#else
    feast_emu_switch(&F.sp[old], F.sp[next]);
#endif
    return;
  }
#ifdef FEAST_EMU_USE_UCONTEXT
  swapcontext(&F.ctx[old], &F.sched);
#else
  feast_emu_switch(&F.sp[old], F.sched_sp);
#endif
}
static inline void feast_emu_fiber_main(void) {
  feast_emu_fibers_t &F = feast_emu_F;
  F.body(F.arg);
  F.state[F.cur] = 2;
  feast_emu_yield(); /* never resumed */
  abort();
}
static inline void feast_emu_fiber_start(int t) {
  feast_emu_fibers_t &F = feast_emu_F;
  /* tops staggered by 208 bytes: 64 KiB apart they would share the same cache sets */
  char *top = F.stacks + (size_t)(t + 1) * FEAST_EMU_STACK - (size_t)(t % 19) * 208;
  /* frames left by the fiber's last run (it never returns) keep their redzones */
  FEAST_EMU_UNPOISON(F.stacks + (size_t)t * FEAST_EMU_STACK, FEAST_EMU_STACK);
#ifdef FEAST_EMU_USE_UCONTEXT
  getcontext(&F.ctx[t]);
  F.ctx[t].uc_stack.ss_sp = F.stacks + (size_t)t * FEAST_EMU_STACK + 4096; /* own region */
  F.ctx[t].uc_stack.ss_size = (size_t)(top - F.stacks) - (size_t)t * FEAST_EMU_STACK - 4096;
  F.ctx[t].uc_link = nullptr;
  makecontext(&F.ctx[t], feast_emu_fiber_main, 0);
#else
  void **s = (void **)top; /* 16-aligned */
  *--s = nullptr;                          /* fake return address of fiber_main */
  *--s = (void *)&feast_emu_fiber_main;    /* where the first switch "returns" */
  for (int r = 0; r < 6; r++) *--s = nullptr; /* rbp rbx r12..r15 */
  F.sp[t] = (void *)s;
#endif
  F.state[t] = 0;
}
/* run every fiber of the block once, in `order`, each up to its next barrier or its end */
static inline void feast_emu_phase(const std::vector<unsigned> &order) {
  feast_emu_fibers_t &F = feast_emu_F;
  F.order = order.data();
  F.n = (unsigned)order.size();
  F.pos = 0;
  F.cur = (int)order[0];
  threadIdx = dim3(order[0], 0, 0);
#ifdef FEAST_EMU_USE_UCONTEXT
  swapcontext(&F.sched, &F.ctx[F.cur]);
#else
  feast_emu_switch(&F.sched_sp, F.sp[F.cur]);
#endif
  F.cur = -1;
}

/* --------------------------------------- barrier, atomics, faults, shared */

static inline void __syncthreads(void) {
  feast_emu_fibers_t &F = feast_emu_F;
  if (F.cur < 0) {
    fprintf(stderr, "emulator: __syncthreads in a kernel launched with FEAST_LAUNCH\n");
    abort();
  }
  F.state[F.cur] = 1;
  feast_emu_yield();
}
static inline int atomicExch(int *p, int v) {
  const int old = *p;
  *p = v;
  return old;
}
static inline int atomicAdd(int *p, int v) {
  const int old = *p;
  *p += v;
  return old;
}
/* a kernel's fault (a GPU's __trap, an illegal address): the emulator lets the kernel run on
 * and makes the context's error sticky, as a GPU reports it: at the next synchronisation,
 * not at the launch (tests only: feast_emu_clear_fault starts afresh) */
static inline void __trap(void) { feast_emu_S.sticky = feast_emu_S.last = cudaErrorLaunchFailure; }
static inline void feast_emu_clear_fault(void) { feast_emu_S.sticky = feast_emu_S.last = cudaSuccess; }

/* the shared memory of the running block: arrays in the order of their declarations */
struct feast_emu_shared_t {
  alignas(64) char buf[64 * 1024];
  size_t used = 0, dirty = 0;
  std::vector<size_t> off, bytes; /* of the k-th array */
  int next[FEAST_EMU_MAX_THREADS] = {0}; /* the next declaration a thread reaches */
};
inline feast_emu_shared_t feast_emu_sh;
static inline void feast_emu_new_block(void) {
  feast_emu_shared_t &B = feast_emu_sh;
  if (B.used > B.dirty) B.dirty = B.used;
  memset(B.buf, 0xff, B.dirty); /* garbage, as a GPU leaves it */
  B.used = 0;
  B.off.clear();
  B.bytes.clear();
  memset(B.next, 0, sizeof B.next);
}
template <typename T> inline T *feast_emu_shared(size_t n) {
  feast_emu_shared_t &B = feast_emu_sh;
  const unsigned t = threadIdx.x;
  const size_t k = (size_t)B.next[t]++, bytes = sizeof(T) * n;
  if (k == B.off.size()) { /* the first thread to get here places it */
    const size_t o = (B.used + 15) / 16 * 16;
    if (o + bytes > sizeof B.buf) {
      fprintf(stderr, "emulator: more than %zu bytes of shared memory in a block\n", sizeof B.buf);
      abort();
    }
    B.off.push_back(o);
    B.bytes.push_back(bytes);
    B.used = o + bytes;
  } else if (B.bytes[k] != bytes) {
    fprintf(stderr, "emulator: thread %u declares shared array %zu with %zu bytes, another with %zu\n",
            t, k, bytes, B.bytes[k]);
    abort();
  }
  return (T *)(B.buf + B.off[k]);
}
#endif

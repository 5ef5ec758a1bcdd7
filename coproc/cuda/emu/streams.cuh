/* Host emulator (see coproc/cuda/cuda_emu.cuh), part 3: streams, events and graphs. Work
 * on a stream is queued (or recorded while the stream captures a graph) and runs only
 * when the host waits for it; the synchronisations return the sticky error of a kernel
 * fault (__trap, coproc/cuda/emu/block.cuh). FEAST_EMU_GRAPH_FAIL=1: graph instantiation
 * fails (cudaErrorNotSupported). */
#ifndef FEAST_CUDA_EMU_STREAMS_CUH
#define FEAST_CUDA_EMU_STREAMS_CUH
#include "coproc/cuda/emu/state.cuh"
#include <chrono>
#include <cstdlib>
#include <functional>
#include <vector>

/* ------------------------------------------------------------------- queue */

static inline feast_emu_stream *feast_emu_stream_of(cudaStream_t s) { return s ? s : &feast_emu_S.legacy; }

/* run what a stream has queued (the device catches up with the host) */
static inline void feast_emu_drain(feast_emu_stream *s) {
  if (s->queue.empty()) return;
  std::vector<std::function<void()>> q;
  q.swap(s->queue);
  feast_emu_open();
  for (auto &op : q) op();
  feast_emu_close();
}
static inline void feast_emu_drain_all(void) {
  feast_emu_init();
  feast_emu_drain(&feast_emu_S.legacy);
  for (feast_emu_stream *s : feast_emu_S.streams) feast_emu_drain(s);
}

/* an operation on a stream: recorded while capturing, else queued */
template <class F> inline cudaError_t feast_emu_op(cudaStream_t s, F f) {
  feast_emu_init();
  feast_emu_stream *st = feast_emu_stream_of(s);
  if (st->capture) st->capture->ops.push_back(f);
  else st->queue.push_back(f);
  return cudaSuccess;
}

/* ------------------------------------------------------------------ the API */

static inline cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned) {
  feast_emu_init();
  *s = new feast_emu_stream{nullptr, {}};
  feast_emu_S.streams.insert(*s);
  return cudaSuccess;
}
static inline cudaError_t cudaStreamDestroy(cudaStream_t s) {
  feast_emu_drain(s); /* its work completes */
  feast_emu_S.streams.erase(s);
  delete s;
  return cudaSuccess;
}
static inline cudaError_t cudaStreamSynchronize(cudaStream_t s) {
  feast_emu_init();
  feast_emu_drain(feast_emu_stream_of(s));
  return feast_emu_S.sticky;
}
static inline cudaError_t cudaDeviceSynchronize(void) {
  feast_emu_drain_all();
  return feast_emu_S.sticky;
}
static inline cudaError_t cudaStreamIsCapturing(cudaStream_t s, cudaStreamCaptureStatus *status) {
  feast_emu_init();
  *status = feast_emu_stream_of(s)->capture ? cudaStreamCaptureStatusActive : cudaStreamCaptureStatusNone;
  return cudaSuccess;
}
static inline cudaError_t cudaStreamBeginCapture(cudaStream_t s, cudaStreamCaptureMode) {
  feast_emu_init();
  if (!s || s->capture || feast_emu_S.capturing) return feast_emu_fail(cudaErrorInvalidValue);
  feast_emu_S.capturing = s->capture = new feast_emu_graph;
  return cudaSuccess;
}
static inline cudaError_t cudaStreamEndCapture(cudaStream_t s, cudaGraph_t *g) {
  *g = s->capture;
  s->capture = feast_emu_S.capturing = nullptr;
  return *g ? cudaSuccess : feast_emu_fail(cudaErrorInvalidValue);
}
static inline cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *e, cudaGraph_t g,
                                                        unsigned long long) {
  const char *fail = getenv("FEAST_EMU_GRAPH_FAIL"); /* a device that cannot run graphs */
  *e = nullptr;
  if (fail && fail[0] == '1') return feast_emu_fail(cudaErrorNotSupported);
  *e = new feast_emu_graph(*g);
  return cudaSuccess;
}
static inline cudaError_t cudaGraphLaunch(cudaGraphExec_t e, cudaStream_t s) {
  if (s && s->capture) return feast_emu_fail(cudaErrorInvalidValue);
  return feast_emu_op(s, [e]() {
    for (auto &op : e->ops) op();
  });
}
static inline cudaError_t cudaGraphDestroy(cudaGraph_t g) { delete g; return cudaSuccess; }
static inline cudaError_t cudaGraphExecDestroy(cudaGraphExec_t g) {
  feast_emu_drain_all(); /* a queued launch of it must not outlive it */
  delete g;
  return cudaSuccess;
}
static inline cudaError_t cudaEventCreate(cudaEvent_t *e) { *e = new feast_emu_event; return cudaSuccess; }
static inline cudaError_t cudaEventDestroy(cudaEvent_t e) { delete e; return cudaSuccess; }
static inline cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s = 0) {
  return feast_emu_op(s, [=]() { e->t = std::chrono::steady_clock::now(); });
}
static inline cudaError_t cudaEventSynchronize(cudaEvent_t) {
  feast_emu_drain_all();
  return cudaSuccess;
}
static inline cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b) {
  *ms = std::chrono::duration<float, std::milli>(b->t - a->t).count();
  return cudaSuccess;
}
#endif

/* The device of solver.residency = device (feast/la/device.h, coproc/coproc.h): the CUDA
 * one of this build (coproc/cuda/device_vec.cu). */
#include "coproc/coproc.h"
#include "feast/base/error.h"

#ifdef FEAST_HAVE_CUDA
int feast_cuda_device_create(FeastDevice **dev);   /* coproc/cuda/device_vec.cu */
void feast_cuda_device_destroy(FeastDevice **dev);
int feast_cuda_device_memory(int *index, double *free_bytes, double *total_bytes, double *peak_bytes);
#endif

int feast_coproc_device_create(FeastDevice **dev) {
  *dev = NULL;
#ifdef FEAST_HAVE_CUDA
  FEAST_CHECK(feast_local_available("gpu"), FEAST_ERR_UNSUPPORTED,
              "solver.residency = device: no usable CUDA device on this machine (%s)",
              feast_local_unavailable_reason("gpu"));
  return feast_cuda_device_create(dev);
#else
  FEAST_ERROR(FEAST_ERR_UNSUPPORTED, "solver.residency = device: this build of feastc has no CUDA backend "
                                     "(nvcc was not found at configure time)");
#endif
}

void feast_coproc_device_destroy(FeastDevice **dev) {
#ifdef FEAST_HAVE_CUDA
  feast_cuda_device_destroy(dev);
#else
  *dev = NULL;
#endif
}

int feast_coproc_device_memory(FeastDeviceMemory *m) {
  *m = (FeastDeviceMemory){0, 0.0, 0.0, 0.0};
#ifdef FEAST_HAVE_CUDA
  return feast_cuda_device_memory(&m->index, &m->free_bytes, &m->total_bytes, &m->peak_bytes);
#else
  FEAST_ERROR(FEAST_ERR_UNSUPPORTED, "device memory: this build of feastc has no CUDA backend");
#endif
}

/* The CUDA backends of the local multigrid ("gpu", single and double): the ops tables
 * coproc/coproc.c registers, and the choice of the device. The solver itself is
 * coproc/cuda/solver.cuh, its kernels coproc/cuda/kernels.cuh. */
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include "coproc/cuda/solver.cuh"

namespace feast_cuda {

/* the node-local rank the MPI launcher exports, or -1 (no collective call needed) */
static int launcher_local_rank(void) {
  const char *vars[] = {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "MV2_COMM_WORLD_LOCAL_RANK",
                        "PMI_LOCAL_RANK", "SLURM_LOCALID"};
  for (int i = 0; i < (int)(sizeof vars / sizeof vars[0]); i++) {
    const char *v = getenv(vars[i]);
    if (v && *v >= '0' && *v <= '9') return atoi(v);
  }
  return -1;
}

/* node-local rank from MPI_Comm_split_type(SHARED), collective over MPI_COMM_WORLD;
 * 0 without MPI (or after MPI_Finalize) */
static int mpi_local_rank(int *local) {
  int init = 0, fin = 0;
  *local = 0;
  MPI_Initialized(&init);
  MPI_Finalized(&fin);
  if (!init || fin) return 0;
  MPI_Comm node;
  FEAST_MPI_CALL(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL,
                                     &node));
  FEAST_MPI_CALL(MPI_Comm_rank(node, local));
  FEAST_MPI_CALL(MPI_Comm_free(&node));
  return 0;
}

/* node-local MPI rank modulo the device count, chosen once. The rank comes from the
 * launcher's environment if it exports one, else from MPI_Comm_split_type, which is
 * collective: then every rank must reach its first GPU setup (a rank with an empty batch
 * does not: coproc.c skips the backend for it). */
/* the devices, or 0 with the reason in `why` (the CUDA runtime's message) */
static char why[256];
static int device_count(void) {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    snprintf(why, sizeof why, "cudaGetDeviceCount: %s (CUDA error %d)", cudaGetErrorString(e), (int)e);
    return 0;
  }
  if (count <= 0) snprintf(why, sizeof why, "cudaGetDeviceCount found no device");
  return count > 0 ? count : 0;
}

int select_device(void) {
  static int chosen = -1;
  if (chosen >= 0) return 0;
  const int count = device_count();
  FEAST_CHECK(count > 0, FEAST_ERR_UNSUPPORTED, "solver.target = gpu: no usable CUDA device on this node (%s)",
              why);
  int local = launcher_local_rank();
  if (local < 0) FEAST_CALL(mpi_local_rank(&local));
  FEAST_CUDA_CALL(cudaSetDevice(local % count));
  chosen = local % count;
  return 0;
}

/* ops of the tables: C entry points around Solver<T> */
template <typename T> static void destroy_solver(void **data) {
  Solver<T> *s = (Solver<T> *)*data;
  if (!s) return;
  s->destroy();
  free(s);
  *data = NULL;
}

template <typename T>
static int setup_solver(void **data, int nmacros, const FeastLocalHierarchy *h,
                        const FeastLocalMGParams *params) {
  destroy_solver<T>(data); /* a second setup replaces the first */
  Solver<T> *s = (Solver<T> *)calloc(1, sizeof(Solver<T>)); /* plain data: zero = empty */
  FEAST_CHECK(s, FEAST_ERR_MEM, "out of memory");
  *data = s;
  const int rc = s->setup(nmacros, h, params);
  if (rc) destroy_solver<T>(data);
  return rc;
}

template <typename T> static int update_solver(void *data, const FeastLocalHierarchy *h) {
  FEAST_CHECK(data, FEAST_ERR_ARG, "the CUDA local solver is not set up");
  return ((Solver<T> *)data)->update(h);
}

template <typename T>
static int solve_solver(void *data, const double *const *d, double *const *c,
                        FeastLocalMGStats *stats) {
  FEAST_CHECK(data, FEAST_ERR_ARG, "the CUDA local solver is not set up");
  return ((Solver<T> *)data)->solve(d, c, stats);
}

template <typename T>
static int solve_solver_device(void *data, const double *d, double *c, FeastLocalMGStats *stats) {
  FEAST_CHECK(data, FEAST_ERR_ARG, "the CUDA local solver is not set up");
  return ((Solver<T> *)data)->solve_device(d, c, stats);
}

static int available(void) { return device_count() > 0; }

} /* namespace feast_cuda */

/* why the gpu backend cannot run (after available() said so) */
extern "C" const char *feast_cuda_unavailable_reason(void) {
  (void)feast_cuda::device_count();
  return feast_cuda::why[0] ? feast_cuda::why : "no CUDA device was found";
}

static int cuda_available(void) { return feast_cuda::available(); }
static int setup_single(void **data, int nmacros, const FeastLocalHierarchy *h,
                        const FeastLocalMGParams *params) {
  return feast_cuda::setup_solver<float>(data, nmacros, h, params);
}
static int setup_double(void **data, int nmacros, const FeastLocalHierarchy *h,
                        const FeastLocalMGParams *params) {
  return feast_cuda::setup_solver<double>(data, nmacros, h, params);
}
static int update_single(void *data, const FeastLocalHierarchy *h) {
  return feast_cuda::update_solver<float>(data, h);
}
static int update_double(void *data, const FeastLocalHierarchy *h) {
  return feast_cuda::update_solver<double>(data, h);
}
static int solve_single(void *data, const double *const *d, double *const *c,
                        FeastLocalMGStats *stats) {
  return feast_cuda::solve_solver<float>(data, d, c, stats);
}
static int solve_double(void *data, const double *const *d, double *const *c,
                        FeastLocalMGStats *stats) {
  return feast_cuda::solve_solver<double>(data, d, c, stats);
}
static int solve_device_single(void *data, const double *d, double *c, FeastLocalMGStats *stats) {
  return feast_cuda::solve_solver_device<float>(data, d, c, stats);
}
static int solve_device_double(void *data, const double *d, double *c, FeastLocalMGStats *stats) {
  return feast_cuda::solve_solver_device<double>(data, d, c, stats);
}
static void destroy_single(void **data) { feast_cuda::destroy_solver<float>(data); }
static void destroy_double(void **data) { feast_cuda::destroy_solver<double>(data); }

extern "C" const FeastLocalBackend feast_local_cuda_single = {
    "gpu", "single", cuda_available, setup_single, update_single, solve_single, destroy_single, solve_device_single};
extern "C" const FeastLocalBackend feast_local_cuda_double = {
    "gpu", "double", cuda_available, setup_double, update_double, solve_double, destroy_double, solve_device_double};

/* solver.residency (issue #46): the device that a run's vectors live on, attached to the
 * domain before the problem makes any, and what crossed between host and device memory,
 * reported after the run. */
#include "apps/residency.h"
#include "coproc/coproc.h"
#include "feast/base/error.h"
#include "feast/base/log.h"
#include <mpi.h>
#include <string.h>
#if defined(OPEN_MPI) && defined(__has_include)
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h> /* MPIX_CUDA_AWARE_SUPPORT, MPIX_Query_cuda_support */
#endif
#endif

/* 1 if the MPI library can take device pointers (CUDA-aware): Open MPI's run-time query
 * where the library was built with CUDA support; 0 otherwise */
static int mpi_cuda_aware(void) {
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  return MPIX_Query_cuda_support();
#else
  return 0;
#endif
}

/* the need of the ranks on this rank's device (their nodes times bytes_per_node), and
 * how many they are: ranks of one node (shared memory) with the same device index */
static int need_on_device(const FeastDomain *dom, int index, double bytes_per_node, double *need, int *ranks) {
  const double mine = (double)dom->nlocal * (double)dom->levels[dom->finest].nodes_per_macro * bytes_per_node;
  MPI_Comm node = MPI_COMM_NULL, device = MPI_COMM_NULL;
  int st = MPI_Comm_split_type(dom->comm, MPI_COMM_TYPE_SHARED, dom->rank, MPI_INFO_NULL, &node);
  if (st == MPI_SUCCESS) st = MPI_Comm_split(node, index, dom->rank, &device);
  if (st == MPI_SUCCESS) st = MPI_Allreduce(&mine, need, 1, MPI_DOUBLE, MPI_SUM, device);
  if (st == MPI_SUCCESS) st = MPI_Comm_size(device, ranks);
  if (device != MPI_COMM_NULL) MPI_Comm_free(&device);
  if (node != MPI_COMM_NULL) MPI_Comm_free(&node);
  FEAST_CHECK(st == MPI_SUCCESS, FEAST_ERR_MPI, "the ranks on one device: an MPI call failed (%d)", st);
  return 0;
}

/* the device memory estimate against the limit, agreed by every rank */
static int check_device_memory(const FeastConfig *cfg, const FeastDomain *dom, double bytes_per_node,
                               FeastSummary *summary) {
  FeastDeviceMemory m;
  FEAST_CALL(feast_coproc_device_memory(&m));
  double need, limit_gib;
  int ranks;
  FEAST_CALL(need_on_device(dom, m.index, bytes_per_node, &need, &ranks));
  FEAST_CALL(feast_config_get_real(cfg, "run.max_device_memory", &limit_gib));
  const double limit = limit_gib > 0 ? limit_gib * 1073741824.0 : m.free_bytes;
  const double gib = 1073741824.0;
  feast_log(1, "  device memory estimate %.3g GiB on device %d (%d rank%s), limit %.3g GiB (%s; %.3g GiB free of %.3g)\n",
            need / gib, m.index, ranks, ranks > 1 ? "s" : "", limit / gib,
            limit_gib > 0 ? "run.max_device_memory" : "free", m.free_bytes / gib, m.total_bytes / gib);
  /* the device worst off, the same on every rank: its numbers from the rank that has them */
  struct {
    double ratio;
    int rank;
  } mine = {need / limit, dom->rank}, worst;
  FEAST_MPI_CALL(MPI_Allreduce(&mine, &worst, 1, MPI_DOUBLE_INT, MPI_MAXLOC, dom->comm));
  double shown[4] = {need, limit, m.index, ranks};
  FEAST_MPI_CALL(MPI_Bcast(shown, 4, MPI_DOUBLE, worst.rank, dom->comm));
  FEAST_CALL(feast_summary_set_real(summary, "device_memory_estimate_gib", need / gib));
  FEAST_CHECK(worst.ratio <= 1.0, FEAST_ERR_LIMIT,
              "solver.residency = device: grid.level = %d needs about %.3g GiB of device memory on device %d of rank "
              "%d's node (estimate, %d rank%s on it), more than the %.3g GiB %s; lower grid.level, use more "
              "devices%s or solver.residency = host",
              dom->finest, shown[0] / gib, (int)shown[2], worst.rank, (int)shown[3], shown[3] > 1 ? "s" : "",
              shown[1] / gib, limit_gib > 0 ? "of run.max_device_memory" : "it has free",
              limit_gib > 0 ? ", raise run.max_device_memory" : "");
  return 0;
}

int feast_app_residency_attach(const FeastConfig *cfg, FeastDomain *dom, double bytes_per_node, FeastSummary *summary,
                               FeastDevice **dev) {
  const char *residency, *target;
  *dev = NULL;
  FEAST_CALL(feast_config_get_string(cfg, "solver.residency", &residency));
  if (strcmp(residency, "device") != 0) return 0;
  FEAST_CALL(feast_config_get_string(cfg, "solver.target", &target));
  FEAST_CHECK(strcmp(target, "gpu") == 0, FEAST_ERR_CONFIG,
              "solver.residency = device (%s) needs solver.target = gpu (it is %s)",
              feast_config_origin(cfg, "solver.residency"), target);
  FEAST_CHECK(dom->mesh->dim == 2, FEAST_ERR_UNSUPPORTED,
              "solver.residency = device (%s): hexahedral meshes are not supported yet (2D meshes only)",
              feast_config_origin(cfg, "solver.residency"));
  FEAST_CALL(feast_coproc_device_create(dev));
  dom->device = *dev;
  feast_log(1, "  solver.residency = device: every vector in the memory of the %s device\n", (*dev)->ops->name);
  /* the interface values between ranks go through host buffers either way (yet) */
  const int aware = mpi_cuda_aware();
  feast_log(1, "  interface values between ranks: staged through the host (%s)\n",
            aware ? "the MPI library is CUDA-aware, not used yet" : "the MPI library is not CUDA-aware");
  FEAST_CALL(feast_summary_set_section_string(summary, "device_residency", "mpi_cuda_aware", aware ? "yes" : "no"));
  FEAST_CALL(feast_summary_set_section_string(summary, "device_residency", "exchange", "host staging"));
  return check_device_memory(cfg, dom, bytes_per_node, summary);
}

/* the counts of dev summed over the ranks, in the order of the names below */
enum { NCOUNTS = 12 };
static const char *const count_names[NCOUNTS] = {
    "bytes_to_device", "bytes_to_host",   "copies_to_device", "copies_to_host",  "bytes_constant", "bytes_matrices",
    "bytes_interface", "launches",        "scalars_to_host",  "scalars_to_device", "bytes_crossed", "round_trips"};

/* per unit (linear iteration, nonlinear step, time step: "per_linear_iteration", ...) the
 * counts that grow with the solve, where the summary has that many units */
static int per_unit(FeastSummary *summary, const char *unit_key, const char *section, const double *v) {
  double units;
  if (!feast_summary_get_number(summary, unit_key, &units) || units < 1) return 0;
  static const int grow[] = {0, 1, 2, 3, 5, 6, 7, 8, 9, 10, 11};
  for (size_t i = 0; i < sizeof grow / sizeof *grow; i++)
    FEAST_CALL(feast_summary_set_section_real(summary, section, count_names[grow[i]], v[grow[i]] / units));
  return 0;
}

int feast_app_residency_report(FeastDevice *dev, FeastSummary *summary) {
  int any = dev != NULL, status = feast_device_status(dev);
  MPI_Allreduce(MPI_IN_PLACE, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (!any) return 0;
  const FeastDeviceCounts *c = &dev->counts;
  double v[NCOUNTS] = {c->bytes_to_device,  c->bytes_to_host,   (double)c->copies_to_device,
                       (double)c->copies_to_host, c->bytes_const, c->bytes_matrices,
                       c->bytes_interface,  (double)c->launches, (double)c->scalars_to_host,
                       (double)c->scalars_to_device,
                       /* what crosses in all: vectors staged, interface values, scalars both ways, matrices */
                       c->bytes_to_device + c->bytes_to_host + c->bytes_interface + c->bytes_matrices +
                           8.0 * (double)(c->scalars_to_host + c->scalars_to_device),
                       (double)c->round_trips};
  MPI_Allreduce(MPI_IN_PLACE, v, NCOUNTS, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &status, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  const char *sec = "device_residency";
  feast_summary_set_section_string(summary, sec, "device", dev->ops->name);
  for (int i = 0; i < NCOUNTS; i++) FEAST_CALL(feast_summary_set_section_real(summary, sec, count_names[i], v[i]));
  FEAST_CALL(per_unit(summary, "linear_iterations", "device_residency.per_linear_iteration", v));
  FEAST_CALL(per_unit(summary, "nonlinear_iterations", "device_residency.per_nonlinear_step", v));
  FEAST_CALL(per_unit(summary, "time_steps", "device_residency.per_time_step", v));
  FeastDeviceMemory m;
  double peak = feast_coproc_device_memory(&m) ? 0.0 : m.peak_bytes; /* the largest of any device */
  MPI_Allreduce(MPI_IN_PLACE, &peak, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  FEAST_CALL(feast_summary_set_section_real(summary, sec, "device_memory_peak_gib", peak / 1073741824.0));
  feast_log(1,
            "device residency (%s, all ranks): %.4g MB to the device in %.0f copies, %.4g MB to the host in %.0f "
            "copies (vectors staged: the host's remaining share), %.4g MB of interface values, %.4g MB of "
            "matrices, %.0f kernels on vectors, %.0f scalars back, %.4g MB of constants; device memory peak %.3g "
            "GiB\n",
            dev->ops->name, v[0] / 1e6, v[2], v[1] / 1e6, v[3], v[6] / 1e6, v[5] / 1e6, v[7], v[8], v[4] / 1e6,
            peak / 1073741824.0);
  return status;
}

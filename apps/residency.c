/* solver.residency (issue #46): the device that a run's vectors live on, attached to the
 * domain before the problem makes any, and what crossed between host and device memory,
 * reported after the run. */
#include "apps/residency.h"
#include "coproc/coproc.h"
#include "feast/base/error.h"
#include "feast/base/log.h"
#include <mpi.h>
#include <string.h>

int feast_app_residency_attach(const FeastConfig *cfg, FeastDomain *dom, FeastDevice **dev) {
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
  return 0;
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
  feast_log(1,
            "device residency (%s, all ranks): %.4g MB to the device in %.0f copies, %.4g MB to the host in %.0f "
            "copies (vectors staged: the host's remaining share), %.4g MB of interface values, %.4g MB of "
            "matrices, %.0f kernels on vectors, %.0f scalars back, %.4g MB of constants\n",
            dev->ops->name, v[0] / 1e6, v[2], v[1] / 1e6, v[3], v[6] / 1e6, v[5] / 1e6, v[7], v[8], v[4] / 1e6);
  return status;
}

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

int feast_app_residency_report(FeastDevice *dev, FeastSummary *summary) {
  int any = dev != NULL, status = feast_device_status(dev);
  MPI_Allreduce(MPI_IN_PLACE, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (!any) return 0;
  const FeastDeviceCounts *c = &dev->counts;
  /* summed over the ranks */
  double v[7] = {c->bytes_to_device,        c->bytes_to_host,   (double)c->copies_to_device,
                 (double)c->copies_to_host, c->bytes_const,     (double)c->launches,
                 (double)c->scalars_to_host};
  MPI_Allreduce(MPI_IN_PLACE, v, 7, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &status, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  const char *sec = "device_residency";
  feast_summary_set_section_string(summary, sec, "device", dev->ops->name);
  feast_summary_set_section_real(summary, sec, "bytes_to_device", v[0]);
  feast_summary_set_section_real(summary, sec, "bytes_to_host", v[1]);
  feast_summary_set_section_int(summary, sec, "copies_to_device", (long)v[2]);
  feast_summary_set_section_int(summary, sec, "copies_to_host", (long)v[3]);
  feast_summary_set_section_real(summary, sec, "bytes_constant", v[4]);
  feast_summary_set_section_int(summary, sec, "launches", (long)v[5]);
  feast_summary_set_section_int(summary, sec, "scalars_to_host", (long)v[6]);
  feast_log(1,
            "device residency (%s, all ranks): %.4g MB to the device in %.0f copies, %.4g MB to the host in %.0f "
            "copies (the host's remaining share: staged), %.0f kernels on vectors, %.0f scalars back, %.4g MB "
            "of constants\n",
            dev->ops->name, v[0] / 1e6, v[2], v[1] / 1e6, v[3], v[5], v[6], v[4] / 1e6);
  return status;
}

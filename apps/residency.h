/* solver.residency = host | device (issue #46): apps/residency.c */
#ifndef FEAST_APP_RESIDENCY_H
#define FEAST_APP_RESIDENCY_H
#include "feast/config/config.h"
#include "feast/io/summary.h"
#include "feast/la/device.h"
#include "feast/parallel/domain.h"

/* with solver.residency = device: *dev <- the device (solver.target must be gpu, the mesh
 * 2D), attached to dom so that every vector made on it lives there; *dev NULL otherwise.
 * Collective: the device memory the ranks on one device need (bytes_per_node of the
 * nodes each holds on the finest level) against its free memory or run.max_device_memory,
 * FEAST_ERR_LIMIT on every rank where one device's is short; the estimate in summary. */
int feast_app_residency_attach(const FeastConfig *cfg, FeastDomain *dom, double bytes_per_node, FeastSummary *summary,
                               FeastDevice **dev);
/* collective: the device's counts summed over the ranks, into the summary's
 * "device_residency" and the log (nothing without a device on any rank); returns the
 * device's recorded failure (0 if none) */
int feast_app_residency_report(FeastDevice *dev, FeastSummary *summary);
#endif

/* The feastc application framework: one run = config -> mesh -> problem check -> domain
 * -> problem run (from the registry, apps/problem.h) -> summary. It knows no problem
 * by name. */
#ifndef FEAST_APP_H
#define FEAST_APP_H
#include "feast/config/config.h"
#include "feast/mesh/mesh.h"

/* a config whose schema has every key feastc reads: the core's (feast/config/config_keys.c),
 * ScaRC's (scarc/scarc_keys.c), the Navier-Stokes library's (navier_stokes/ns_keys.c)
 * and the application's (apps/app_keys.c: problem.type, whose choices are the problem
 * registry's names, and the Poisson problem's keys) */
int feast_app_config_create(FeastConfig **cfg);
const FeastKeyTable *feast_app_keys(void);

/* the whole program: returns the process exit code */
int feast_app_main(int argc, char **argv);

/* estimated bytes the run needs on all ranks together: nodes of the finest level times
 * the problem's bytes per node */
double feast_app_memory_estimate(const FeastMesh *mesh, int level, double bytes_per_node);
#endif

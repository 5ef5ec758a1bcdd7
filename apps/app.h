/* The feastc application framework: one run = config -> mesh -> problem check -> domain
 * -> problem run (from the registry, apps/problem.h) -> summary. It knows no problem
 * by name. */
#ifndef FEAST_APP_H
#define FEAST_APP_H
#include "feast/mesh.h"

/* the whole program: returns the process exit code */
int feast_app_main(int argc, char **argv);

/* estimated bytes the run needs on all ranks together: nodes of the finest level times
 * the problem's bytes per node */
double feast_app_memory_estimate(const FeastMesh *mesh, int level, double bytes_per_node);
#endif

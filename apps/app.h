/* The feastc application framework: one run = config -> mesh -> problem check -> domain
 * -> problem run (from the registry, apps/problem.h) -> summary. It knows no problem
 * by name. */
#ifndef FEAST_APP_H
#define FEAST_APP_H
#include "feast/mesh.h"

/* the whole program: returns the process exit code */
int feast_app_main(int argc, char **argv);

/* estimated bytes the run needs on all ranks together */
double feast_app_memory_estimate(const FeastMesh *mesh, int level, int fields);
#endif

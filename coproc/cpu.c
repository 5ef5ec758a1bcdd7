/* The CPU backends of the local multigrid, double and single precision: one code
 * (coproc/cpu_mg.h) instantiated twice (double uses the front end's matrices in place,
 * single converts them), running the per-point math of
 * feast/la/band9_kernels.h that the CUDA kernels run as well. */
#include "coproc/backend.h"
#include "feast/la/band9_kernels.h"
#include "feast/base/error.h"
#include "feast/mesh/mesh.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define REAL double
#define SUF d
#define IN_PLACE 1
#include "coproc/cpu_mg.h"
#undef REAL
#undef SUF
#undef IN_PLACE
#define REAL float
#define SUF f
#define IN_PLACE 0
#include "coproc/cpu_mg.h"
#undef REAL
#undef SUF
#undef IN_PLACE

static int always(void) { return 1; }

const FeastLocalBackend feast_local_cpu_double = {"cpu", "double", always, mg_setup_d, mg_update_d,
                                                   mg_solve_d, mg_destroy_d, NULL};
const FeastLocalBackend feast_local_cpu_single = {"cpu", "single", always, mg_setup_f, mg_update_f,
                                                   mg_solve_f, mg_destroy_f, NULL};

/* feastc: the command-line program; everything else lives in the library */
#include "apps/app.h"
#include <mpi.h>
#include <stdlib.h>

/* A process started without mpirun (Open MPI's singleton: one rank, no launcher variables)
 * talks to nobody, so it needs none of the UCX transport whose probe costs ~0.17 s of a
 * 0.38 s start (docs/notes/cavity-performance.md): take the basic ob1 layer unless the
 * user chose one (OMPI_MCA_pml set). Other MPI libraries ignore the variable; under mpirun
 * nothing changes. */
static void singleton_transport(void) {
  if (!getenv("OMPI_COMM_WORLD_SIZE") && !getenv("PMIX_RANK") && !getenv("PMI_RANK"))
    setenv("OMPI_MCA_pml", "ob1", 0);
}

int main(int argc, char **argv) {
  singleton_transport();
  MPI_Init(&argc, &argv);
  int code = feast_app_main(argc, argv);
  MPI_Finalize();
  return code;
}

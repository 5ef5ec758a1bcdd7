/* feastc: the command-line program; everything else lives in the library */
#include "apps/app.h"
#include <mpi.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int code = feast_app_main(argc, argv);
  MPI_Finalize();
  return code;
}

/* feastc: the command-line driver (work in progress: grows with the core) */
#include "feast/error.h"
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  printf("feastc %s\n", FEAST_VERSION);
  MPI_Finalize();
  return 0;
}

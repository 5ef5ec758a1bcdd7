#include "feast_test.h"
#include "feast/error.h"
#include <mpi.h>
#include <string.h>

int feast_test_failures = 0;
int feast_test_checks = 0;

int feast_test_rank(void) {
  int r = 0, init = 0;
  MPI_Initialized(&init);
  if (init) MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

int feast_test_size(void) {
  int s = 1, init = 0;
  MPI_Initialized(&init);
  if (init) MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

/* Sum failures over ranks; rank 0 prints the closing line. 77 from run() means skip. */
int feast_test_main(int argc, char **argv, int (*run)(void), const char *name) {
  MPI_Init(&argc, &argv);
  int rc = run();
  int local[2] = {feast_test_failures + (rc != 0 && rc != 77), feast_test_checks}, global[2];
  MPI_Allreduce(local, global, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  int skip = rc == 77, anyskip;
  MPI_Allreduce(&skip, &anyskip, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  const char *base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
  if (feast_test_rank() == 0) {
    if (anyskip && global[0] == 0)
      printf("%s: skipped\n", base);
    else
      printf("%s: %d checks, %d failed (%d ranks)\n", base, global[1], global[0], feast_test_size());
  }
  MPI_Finalize();
  if (global[0]) return 1;
  return anyskip ? 77 : 0;
}

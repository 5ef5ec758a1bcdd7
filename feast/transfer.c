#include "feast/transfer.h"
#include "feast/band9_kernels.h"

void feast_grid_prolongate(int Nc, const double *coarse, double *fine) {
  const int Nf = 2 * Nc - 1;
  for (int j = 0; j < Nf; j++)
    for (int i = 0; i < Nf; i++) fine[j * Nf + i] = feast_prolongate_point_d(coarse, Nc, i, j);
}

void feast_grid_restrict(int Nf, const double *fine, double *coarse) {
  const int Nc = (Nf + 1) / 2;
  for (int J = 0; J < Nc; J++)
    for (int I = 0; I < Nc; I++) coarse[J * Nc + I] = feast_restrict_point_d(fine, Nf, I, J);
}

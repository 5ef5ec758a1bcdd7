/* Grid transfer on one macro's tensor-product grid between level l (Nc = 2^l+1 nodes
 * per side) and l+1 (Nf = 2 Nc - 1): bilinear prolongation and its transpose, the
 * full-weighting restriction (weights 1, 1/2, 1/4). Prolongation of consistent values
 * is consistent; restriction of partial values is partial. */
#ifndef FEAST_TRANSFER_H
#define FEAST_TRANSFER_H
void feast_grid_prolongate(int Nc, const double *coarse, double *fine);
void feast_grid_restrict(int Nf, const double *fine, double *coarse);
#endif

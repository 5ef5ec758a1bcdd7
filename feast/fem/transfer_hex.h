/* Grid transfer on one hexahedral macro's grid between level l (Nc = 2^l + 1 nodes per
 * side) and l + 1 (Nf = 2 Nc - 1), node (i, j, k) at (k N + j) N + i (issue #47): the
 * trilinear prolongation, its transpose (the restriction, weights 1, 1/2, 1/4, 1/8), and
 * the Galerkin product of a 27-band operator. The per-point kernels are those of
 * feast/la/band9_kernels.h (feast_prolongate_point3, feast_restrict_point3), which the
 * local multigrids share. */
#ifndef FEAST_TRANSFER_HEX_H
#define FEAST_TRANSFER_HEX_H
#include "feast/la/band.h"

void feast_hex_prolongate(int Nc, const double *coarse, double *fine);
void feast_hex_restrict(int Nf, const double *fine, double *coarse);
/* Ac <- P^T Af P with P the trilinear prolongation restricted to free nodes (rows of
 * fixed fine nodes and columns of fixed coarse nodes zero; fixed = NULL: none), fixed
 * coarse rows identity rows. Af and Ac of the 27-band stencil, Ac created by the caller
 * with N = (Af->N + 1) / 2 (FEAST_ERR_ARG otherwise); its values are overwritten (the
 * work of a few fine planes is allocated and freed). Along each axis coarse node I is
 * the parent of fine nodes 2I - 1, 2I, 2I + 1 (weights 1/2, 1, 1/2); a coarse coupling
 * collects the fine entries of the products of one term per axis (7 for offset 0, 3 for
 * +-1), summed one axis at a time (transfer_hex.c). With nested spaces and exact quadrature it is the coarse grid's own
 * assembly (parallelepiped cells: test_transfer_hex). */
int feast_band_galerkin(const FeastBand *Af, const unsigned char *fixed_f, const unsigned char *fixed_c,
                        FeastBand *Ac);
#endif

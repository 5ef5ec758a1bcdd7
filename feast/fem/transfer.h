/* Grid transfer on one macro's tensor-product grid between level l (Nc = 2^l+1 nodes
 * per side) and l+1 (Nf = 2 Nc - 1): bilinear prolongation and its transpose, the
 * full-weighting restriction (weights 1, 1/2, 1/4). Prolongation of consistent values
 * is consistent; restriction of partial values is partial. */
#ifndef FEAST_TRANSFER_H
#define FEAST_TRANSFER_H
#include "feast/la/band9.h"
#include "feast/la/vector.h"
void feast_grid_prolongate(int Nc, const double *coarse, double *fine);
void feast_grid_restrict(int Nf, const double *fine, double *coarse);
/* fine <- the bilinear interpolation of coarse, block by block and macro by macro: both
 * vectors of the same distribution (domains that share their macros, e.g.
 * feast_domain_coarser_view), fine one level above coarse, the same block count
 * (FEAST_ERR_ARG otherwise). A consistent coarse vector gives a consistent fine one. */
int feast_vec_prolongate(const FeastVec *coarse, FeastVec *fine);
/* coarse <- the full-weighting restriction of fine (the same pairs of vectors; partial
 * values restrict to partial ones) */
int feast_vec_restrict(const FeastVec *fine, FeastVec *coarse);
/* Galerkin coarse operator Ac = P^T Af P of one macro, with P the bilinear prolongation
 * restricted to free nodes (rows of fixed fine nodes and columns of fixed coarse nodes
 * are zero); fixed coarse rows become identity rows. Fixed nodes must lie on the macro's
 * edges (Dirichlet nodes do): the rows and columns two or more nodes inside are computed
 * without checks by a stencil formula (no scatter) split into its x and y halves (117
 * multiply-adds per coarse node instead of 169, every read contiguous).
 * Af may be framed (feast/la/band9.h): its frame is read where the product reaches it.
 * Ac is created by the caller with N = Nc = (Nf+1)/2 (FEAST_ERR_ARG otherwise); its
 * values are overwritten and nothing is allocated, so a refresh of the values reuses the
 * storage. Unlike rediscretisation, this keeps rows whose couplings leave the macro
 * (interface rows of a local problem) consistent across levels. */
int feast_band9_galerkin(const FeastBand9Framed *Af, const unsigned char *fixed_f, const unsigned char *fixed_c,
                         FeastBand9 *Ac);
/* Only the frame of the product, into Ac->frame (Nc >= 5), where Ac->inside is known to
 * be the product's inside (fixed inside nodes with diagonal 1 included). The inside of
 * P^T Af P reads only rows of Af three or more nodes inside, so matrices that differ only
 * near the macro's edges have products with the same inside: ScaRC's local hierarchies
 * share the insides of its global levels (bitwise: the same code computed them) and
 * compute 8 Nc - 16 entries per band instead of Nc^2. */
int feast_band9_galerkin_frame(const FeastBand9Framed *Af, const unsigned char *fixed_f,
                               const unsigned char *fixed_c, FeastBand9Framed *Ac);

/* Stabilisation of a Galerkin coarse operator (solver.coarse_stabilisation = upwind).
 * P^T A P keeps the artificial diffusion that the fine grid's stabilisation (SUPG) put
 * in for its own cell size: on a level H = 2^k h below it a convection-dominated
 * operator is under-stabilised, its couplings turn positive (central differences at mesh
 * Peclet numbers far above 2), a poor coarse-grid operator for Jacobi-smoothed
 * multigrid (cavity Re = 1000: ScaRC's velocity solves stall from L = 6 on, where the
 * local hierarchies reach 3 levels below the finest). Every pair of coupled nodes (i, j)
 * gets the symmetric diffusion
 *   d_ij = min(|a_ij - a_ji| / 2, max(0, a_ij, a_ji)):  a_ij -= d, a_ji -= d, a_ii += d, a_jj += d
 * (Kuzmin's discrete upwinding, limited to the skew-symmetric part, the convection): row
 * sums are kept, a positive coupling disappears as far as convection caused it, and a
 * symmetric matrix (a Laplacian, also on stretched cells where its couplings are
 * positive) is left unchanged. Applied to each macro's matrix (partial or local) of every
 * level below the finest, so ScaRC's results stay the same on any number of ranks. */
void feast_band9_upwind(FeastBand9 *A);
/* The same on the frame of a framed matrix whose inside is stabilised already (pairs with
 * one node inside use that node's stabilised coupling and change only the frame row). */
void feast_band9_upwind_frame(FeastBand9Framed *A);
#endif

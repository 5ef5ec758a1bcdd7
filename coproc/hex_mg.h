/* The local multigrid of one hexahedral macro (issue #47): the algorithm of the 2D
 * backends (coproc/backend.h) on 27-band operators, on the CPU in double or single
 * precision (the cycle of coproc/hex_mg_cycle.h in each; single sweeps float copies of
 * the levels, the hierarchy is built in double; precision auto = single, as in 2D:
 * feast_local_resolve_precision). Levels lc..L,
 * lc the finest with (2^l + 1)^3 <= params->coarse_max_dofs nodes (or L), A_L the given
 * matrix, A_{l-1} = P^T A_l P (feast_band_galerkin, trilinear P on free nodes); V cycles
 * of params->pre_smooth and post_smooth damped Jacobi steps (params->jacobi_damping, or
 * less where an estimate of rho(D^-1 A) asks for it: stretched cells),
 * the full-weighting restriction (fixed coarse nodes zeroed) and the trilinear
 * prolongation (feast/la/band9_kernels.h, the kernels the 2D local multigrids and the
 * CUDA backend share), on lc the exact solve with the dense inverse (LU with partial
 * pivoting in double). A solve starts from 0 and runs V cycles until ||d - A c|| <=
 * params->rtol ||d|| or params->max_cycles. With pre_smooth == post_smooth one cycle is
 * a symmetric operator: a preconditioner for CG. The other fields of FeastLocalMGParams
 * (frames, GPU, upwinding) are 2D's and not read.
 * To come: the batch of macros behind the backends' ops table, where ScaRC on hexahedra
 * will call it (docs/architecture.md, "Where 3D plugs
 * in"). */
#ifndef FEAST_HEX_MG_H
#define FEAST_HEX_MG_H
#include "coproc/coproc.h"
#include "feast/la/band.h"

typedef struct FeastHexMG FeastHexMG;

/* A: the finest matrix (27 bands, N = 2^level + 1); fixed[l], l = 0..level, the Dirichlet
 * masks of each level (fixed rows of A identity rows). Both kept by reference: they must
 * live as long as the solver. precision: "auto", "double" or "single". Errors:
 * FEAST_ERR_ARG (a wrong size or stencil), FEAST_ERR_CONFIG (coarse_max_dofs above
 * FEAST_LOCAL_COARSE_MAX_NODES, another precision),
 * FEAST_ERR_SOLVER (a singular coarsest matrix). */
int feast_hex_mg_setup(const FeastBand *A, int level, const unsigned char *const *fixed, const char *precision,
                       const FeastLocalMGParams *params, FeastHexMG **mg);
/* c <- approx A^-1 d (padded vectors of the finest level; fixed nodes of c are 0);
 * stats counts the cycles (and a non-finite result, c then 0) */
int feast_hex_mg_solve(FeastHexMG *mg, const double *d, double *c, FeastLocalMGStats *stats);
/* the solver as CG's preconditioner (solvers/band_cg.h, FeastBandPrecond; ctx the
 * FeastHexMG): z <- its correction for r, the cycles not counted */
int feast_hex_mg_precondition(void *mg, const double *r, double *z);
/* the working precision ("double", "single") */
const char *feast_hex_mg_precision(const FeastHexMG *mg);
/* the Jacobi damping of a level (lc..L; 0 outside): params->jacobi_damping, or less on
 * stretched cells, where the smoother needs it (hex_mg.c, set_damping) */
double feast_hex_mg_damping(const FeastHexMG *mg, int level);
void feast_hex_mg_destroy(FeastHexMG **mg);
#endif

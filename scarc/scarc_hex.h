/* Two-layer ScaRC on hexahedral macros (issue #47): the global multigrid over the level
 * hierarchy of a 3D domain, smoothed by an additive Schwarz step in which every macro
 * solves its local problem (the global matrix restricted to its nodes,
 * feast_band_make_consistent) by its own multigrid (coproc/hex_mg.h), with the global
 * coarse grid solved directly (solvers/direct.h, KLU or UMFPACK) and MPI across macros.
 * The algorithm of scarc/scarc.c on 27-band operators (the two become one when the 2D
 * layers take the stencil from the matrix: docs/architecture.md, "Where 3D plugs in"),
 * with one difference that makes the V cycle symmetric (a preconditioner for CG): the
 * Schwarz step weights a shared node's defect and correction by the square root of
 * 1 / (the macros holding it) each, instead of the correction by 1 / that.
 * It solves A x = b on the free nodes of the mask (homogeneous Dirichlet values: the
 * operator and the preconditioner leave the fixed nodes at zero). Parameters: ScarcParams
 * (scarc/scarc.h): mg_pre_smooth, mg_post_smooth, smoother_damping and smoother_step
 * (FIXED: the damping; AUTO and ADAPTIVE: the step minimising the residual, at most twice
 * the damping, as in 2D: a nonlinear V cycle), coarse_max_dofs, coarse_solver, the local
 * multigrid's local_* (local_fixed_cycles > 0, or one cycle per local solve),
 * local_precision. A symmetric V cycle for CG: mg_pre_smooth = mg_post_smooth and
 * smoother_step FIXED (damping 0.8 measured best: with 1 the iterations grow with the
 * level on a distorted mesh, 6 / 8 / 11 at levels 2-4 against 7 / 7 / 7). */
#ifndef FEAST_SCARC_HEX_H
#define FEAST_SCARC_HEX_H
#include "scarc/scarc.h"
#include "feast/la/band.h"

typedef struct ScarcHex ScarcHex;

/* the solver of dom's levels (a domain of hexahedral macros) with mask's fixed nodes;
 * the parameters are copied */
int scarc_hex_create(const FeastDomain *dom, const FeastMask *mask, const ScarcParams *p, ScarcHex **s);
/* A[li]: the finest level's partial matrices (each local macro's own cells, no Dirichlet
 * rows), copied; the levels below by Galerkin products, the local multigrids and the
 * coarse factorisation set up */
int scarc_hex_set_operator(ScarcHex *s, const FeastBand *A);
/* *A <- the solver's own finest matrices (zeroed) to assemble the partial matrices into:
 * scarc_hex_set_operator(s, *A) then copies nothing (a 2.1 M-unknown level's 27 bands
 * are 0.46 GB) and makes them the local matrices in place */
int scarc_hex_operator_storage(ScarcHex *s, FeastBand **A);
/* y <- A x on the free nodes (x zero at the fixed ones; y zero there) */
int scarc_hex_matvec(ScarcHex *s, const FeastVec *x, FeastVec *y);
/* x <- one V cycle for b (b zero at the fixed nodes) from x = 0 */
int scarc_hex_precondition(ScarcHex *s, const FeastVec *b, FeastVec *x);
FeastLinOp scarc_hex_operator(ScarcHex *s);
FeastLinOp scarc_hex_preconditioner(ScarcHex *s);
/* a Krylov solve of A x = b with the V cycle as preconditioner (CG: it is symmetric) */
int scarc_hex_solve(ScarcHex *s, FeastKrylovMethod method, const FeastSolveParams *sp, const FeastVec *b, FeastVec *x,
                    FeastSolveResult *res);
/* the global coarse level */
int scarc_hex_coarse_level(const ScarcHex *s);
void scarc_hex_destroy(ScarcHex **s);
#endif

/* The Q1/Q1 SUPG/PSPG discretisation of the stationary (Navier-)Stokes equations on
 * hexahedral macros, the 3D form of navier_stokes/forms.h:
 *   -nu Laplace u + (w . grad) u + grad p = f,  div u = 0
 * linearised at a velocity w (the fixed point, Oseen; w = 0: Stokes), as one element-level
 * form (feast_q1_hex_assemble_cells) that fills all blocks of the saddle-point system in
 * one pass over the cells:
 *   [A   0   0   B1] [u1]   [f1]
 *   [0   A   0   B2] [u2]   [f2]
 *   [0   0   A   B3] [u3] = [f3]
 *   [BT1 BT2 BT3 C ] [p ]   [g ]
 * with, per cell K, test functions phi_a (velocity) and psi_a (pressure; psi = phi,
 * equal-order Q1), d = 1..3, tau_s = supg_scale tau_K and tau_p = pspg_scale tau_K
 * (tau_K: ns_hex_tau at the cell-centre w):
 *   A(a,b)    = nu (grad phi_b, grad phi_a) + (w.grad phi_b, phi_a) + tau_s (w.grad phi_b, w.grad phi_a)
 *   B_d(a,b)  = -(psi_b, d_d phi_a) + tau_s (d_d psi_b, w.grad phi_a)      (SUPG of grad p)
 *   BT_d(a,b) = -(psi_a, d_d phi_b) - tau_p (w.grad phi_b, d_d psi_a)      (PSPG of (w.grad) u)
 *   C(a,b)    = -tau_p (grad psi_b, grad psi_a)                            (PSPG of grad p)
 *   f_d(a)    = (f_d, phi_a + tau_s w.grad phi_a),  g(a) = -tau_p (f, grad psi_a)
 * (the continuity equation multiplied by -1, as in 2D: S = BT A^-1 B - C positive). A is
 * one block, the same for the three velocity components. w is the grid function's value
 * at each quadrature point. As in 2D the residual-based terms drop -nu Laplace u_h (no
 * viscous_residual in 3D yet: the form refuses it), so they are consistent for solutions
 * whose Q1 Laplacian vanishes (linear velocities: tests/unit/test_ns_hex_forms.c). Newton's
 * terms and the time-step terms of forms.h are not here yet. */
#ifndef FEAST_NS_HEX_FORMS_H
#define FEAST_NS_HEX_FORMS_H
#include "feast/fem/q1_hex.h"
#include "navier_stokes/ns.h" /* NsStabilisationParams */

enum { NS_HEX_A, NS_HEX_B1, NS_HEX_B2, NS_HEX_B3, NS_HEX_BT1, NS_HEX_BT2, NS_HEX_BT3, NS_HEX_C, NS_HEX_NBLOCKS };
enum { NS_HEX_F1, NS_HEX_F2, NS_HEX_F3, NS_HEX_G, NS_HEX_NRHS };

/* body force at a point: f[3] <- f(x); returns 0 or an error status */
typedef int (*NsHexForce)(void *ctx, const double x[3], double f[3]);

typedef struct {
  double nu;                   /* kinematic viscosity */
  const double *w[3];          /* the linearisation velocity on this macro (N^3 grid values each); NULL: w = 0 (Stokes) */
  NsHexForce force;            /* body force, NULL: f = 0 */
  void *force_ctx;
  int status;                  /* first error of a force evaluation (then no further calls), or FEAST_ERR_UNSUPPORTED
                                  for stab.viscous_residual (the form cannot return one); the caller sets it 0 */
  NsStabilisationParams stab;  /* supg_scale, pspg_scale; viscous_residual: not supported in 3D yet, must be 0 */
} NsHexForm;

/* tau of a hexahedral cell at the cell-centre velocity w (the 2D ns_tau's formula,
 * stationary: rate 0):
 *   tau = ((2|w|/h_w)^2 + (4 nu / h_min^2)^2)^(-1/2)
 * with 2|w|/h_w = sum_a |w . grad phi_a| at the centre and h_min the smallest height of
 * the cell at the centre: det J over the largest face area |J_e x J_f| of the Jacobian's
 * columns (exact for parallelepipeds) */
double ns_hex_tau(const FeastQ1HexCell *c, const double w[3], double nu);
/* the cell form (ctx: NsHexForm): Aloc[NS_HEX_A .. NS_HEX_C] and bloc[NS_HEX_F1 .. NS_HEX_G] */
void ns_hex_form(const FeastQ1HexCell *c, void *ctx, double (*Aloc)[8][8], double (*bloc)[8]);
#endif

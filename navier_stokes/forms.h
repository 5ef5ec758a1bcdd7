/* The Q1/Q1 SUPG/PSPG discretisation of the stationary (Navier-)Stokes equations
 *   -nu Laplace u + (w . grad) u + grad p = f,  div u = 0
 * linearised at a velocity w (w = 0: Stokes), as one element-level form that fills all
 * blocks of the saddle-point system in one pass over the cells:
 *   [A11 A12 B1 ] [u1]   [f1]
 *   [A21 A22 B2 ] [u2] = [f2]
 *   [BT1 BT2 C  ] [p ]   [g ]
 * with, per cell K, test functions phi_a (velocity) and psi_a (pressure), tau_K the
 * stabilisation parameter (ns_tau):
 *   A_ii(a,b) = nu (grad phi_b, grad phi_a) + (w.grad phi_b, phi_a) + tau (w.grad phi_b, w.grad phi_a)
 *   B1(a,b)   = -(psi_b, d_x phi_a) + tau (d_x psi_b, w.grad phi_a)       (SUPG of grad p)
 *   BT1(a,b)  = -(psi_a, d_x phi_b) - tau (w.grad phi_b, d_x psi_a)       (PSPG of (w.grad) u)
 *   C(a,b)    = -tau (grad psi_b, grad psi_a)                             (PSPG of grad p)
 *   f1(a)     = (f_x, phi_a + tau w.grad phi_a),  g(a) = -tau (f, grad psi_a)
 * (the continuity equation is multiplied by -1, so that S = BT A^-1 B - C is positive).
 * The residual-based terms drop -nu Laplace u_h: Q1's own Laplacian vanishes on rectangles
 * (not on other parallelograms: the bilinear term st of the reference cell has Laplacian
 * 2 g^st there). The dropped term is an O(tau nu Laplace u) consistency error, O(h) where
 * tau ~ h / |w| (convection-dominated cells): on the cavity at Re = 1000 the centre-line
 * extrema converge at first order with it, dominated by the PSPG part
 * (docs/notes/cavity-accuracy.md, issue #26). stabilisation.viscous_residual = on restores
 * it: -nu Laplace w of the linearisation velocity, reconstructed per cell
 * (ns_cell_laplacian), lagged into the right-hand side of both residuals (consistent at
 * the converged nonlinear solution):
 *   f1(a) += tau_s (nu Lap w_1, w.grad phi_a),  g(a) -= tau_p (nu Lap w, grad psi_a)
 * tau_s = stabilisation.supg_scale tau, tau_p = stabilisation.pspg_scale tau (defaults 1)
 * in the SUPG terms (A's tau, B's tau, f's tau) and the PSPG terms (BT's tau, C, g).
 * Newton adds the derivative in w of every term but the lagged viscous residual: of
 * tau (below), of the convection (w.grad) w in the Galerkin, SUPG and PSPG terms, and
 * of the SUPG test direction w.grad phi_a, with R_i = theta ((w.grad) w_i - f_i - nu Lap
 * w_i) + mass w_i + s_i + d_i p_w the SUPG residual at the linearisation point (w, p_w):
 *   A_ij(a,b) += theta (d_j w_i phi_b, phi_a + tau_s w.grad phi_a) + tau_s (R_i, phi_b d_j phi_a)
 *   BT_j(a,b) += -tau_p (d_j w phi_b, grad psi_a)
 * and the same terms applied to w on the right-hand side (theta ((w.grad) w_i, phi_a +
 * tau_s w.grad phi_a) + tau_s (R_i, w.grad phi_a); g -= tau_p ((w.grad) w, grad psi_a)),
 * which keeps the defect that of the nonlinear problem. Without the stabilisation's
 * derivatives (the Galerkin term alone, as before 2026-11-26) Newton converged only
 * linearly, at a rate of 0.3-0.7 per step on the cavity at Re = 400-1000
 * (docs/notes/ns-nonlinear.md, "Newton's Jacobian"). tau depends on w through the
 * cell-centre velocity w_c (ns_tau; d w_c / d w_b = phi_b(centre) = 1/4): its derivative
 * adds, per cell, with
 * Phi_ia = (R_i, w.grad phi_a), Psi_a = -(R_p, grad psi_a) (R_p = (w.grad) w + mass w + s +
 * grad p_w - f - nu Lap w, the PSPG residual at the linearisation point),
 *   A_ij(a,b) += Phi_ia d tau_s / d w_b,j,   BT_j(a,b) += Psi_a d tau_p / d w_b,j
 * (and J_tau w on the right-hand side): without it Newton converged linearly, at 0.22-0.29
 * per step with exact inner solves (docs/notes/schur-approximations.md, "Newton at Re
 * 1000"); with it J is the derivative of the defect (tests/unit/test_ns_jacobian.c, finite
 * differences, 1e-8).
 * Where tau is frozen (NsForm.tau_frozen) it has no derivative, and the preconditioner's
 * velocity blocks (velocity_blocks) leave tau's derivative out with the reaction term.
 * The lagged viscous residual's derivative, -theta tau_s (nu Lap x_i, w.grad phi_a) in the
 * momentum rows and +tau_p (nu Lap x, grad psi_a) in the continuity rows, couples a node
 * to its neighbours' neighbours (Lap x on a cell reads a ring of nodes around it), beyond
 * the 9 bands: ns_form stores it per cell (NsForm.viscous_cells) and Newton's Krylov
 * operator adds it matrix-free (ns_viscous_derivative_apply); the preconditioner does
 * without it. Without it Newton converged linearly where the viscous residual is on, at
 * 0.35 per step (the graded cavity at Re = 400, L = 5; docs/notes/ns-nonlinear.md).
 *
 * A time step (navier_stokes/timestep.c) approximates du/dt by mass u + s (mass =
 * alpha_0/dt, s from the old levels: backward Euler, BDF2, a theta-step) and weights the
 * momentum terms other than the pressure by theta (the rest of the theta-scheme is an
 * explicit right-hand side the caller adds). The residual-based terms keep their
 * consistency: du/dt enters the SUPG and PSPG residuals as well:
 *   A_ii(a,b) = theta [..stationary..] + mass (phi_b, phi_a + tau w.grad phi_a)
 *   BT1(a,b) += -tau mass (phi_b, d_x psi_a)
 *   f1(a)     = (theta f_x - s_x, phi_a + tau w.grad phi_a),  g(a) = -tau (f - s, grad psi_a)
 * The pressure terms (B, C) keep weight 1: the pressure is fully implicit. */
#ifndef FEAST_NS_FORMS_H
#define FEAST_NS_FORMS_H
#include "feast/config/expr.h"
#include "feast/fem/q1.h"
#include "navier_stokes/ns.h"

enum { NS_A11, NS_A12, NS_A21, NS_A22, NS_B1, NS_B2, NS_BT1, NS_BT2, NS_C, NS_NBLOCKS };
/* NsForm.velocity_blocks: A11, A21, A22 without Newton's reaction term, after the blocks */
enum { NS_V11 = NS_NBLOCKS, NS_V21, NS_V22, NS_NMATRICES };
enum { NS_F1, NS_F2, NS_G, NS_NRHS };

/* Newton with stabilisation.viscous_residual = on: the derivative of the lagged viscous
 * residual on one cell (ns_form), applied by ns_viscous_derivative_apply */
typedef struct {
  double metric[3];  /* a, b, d of J^T J at the cell centre (ns_cell_laplacian's) */
  double mom[4];     /* momentum row a of either component, per unit Lap x_i: -theta tau_s nu (w.grad phi_a, 1) */
  double cont[2][4]; /* continuity row a per unit Lap x_i: tau_p nu (d_i psi_a, 1) */
} NsViscousCell;

typedef struct {
  double nu;              /* kinematic viscosity */
  int newton;             /* add the Newton terms (A12, A21 become nonzero) */
  const double *w1, *w2;  /* linearisation velocity on this macro (grid vectors), NULL: w = 0 */
  const double *wp;       /* Newton: the pressure at the linearisation point (in its SUPG residual), NULL: 0 */
  FeastExpr *force[2];    /* body force, NULL: 0 */
  int status;             /* first error of a force evaluation (the form cannot return one) */
  /* a time step (ns_form_steady: theta 1, the rest 0 / NULL): du/dt ~ mass u + s */
  double theta;           /* weight of the viscous, convective and force terms of the momentum rows */
  double mass;            /* alpha_0 / dt: the coefficient of the new velocity in du/dt */
  double tau_rate;        /* the rate in tau (ns_tau's mass): 1/dt of a time run (time.tau_dt = on), else 0 */
  const double *s1, *s2;  /* the known part s of du/dt on this macro (grid vectors), NULL: 0 */
  const double *x1, *x2, *p; /* ns_form_residual: the iterate x = (u1, u2, p) (grid vectors), NULL: 0 */
  NsStabilisationParams stab; /* the problem's (ns_form_at); ns_form_steady: scales 1, no viscous residual */
  double tau_frozen;      /* > 0: tau in every cell instead of ns_tau (tests of Newton's derivatives): 0 */
  int velocity_blocks;    /* Newton: also the preconditioner's velocity blocks (velocity.newton_reaction = off),
                             A11, A21, A22 without the reaction term ((. grad) w, phi_a + tau_s w.grad phi_a),
                             into matrices NS_V11, NS_V21, NS_V22 in the same pass (ns_form): 0 */
  NsViscousCell *viscous_cells; /* Newton with the viscous residual: ns_form writes cell (i, j)'s derivative of the
                                   lagged term to viscous_cells[j (N - 1) + i] ((N-1)^2 cells): NULL = not stored */
} NsForm;

/* the form of the stationary problem */
NsForm ns_form_steady(double nu, int newton, const double *w1, const double *w2, FeastExpr *const force[2]);

/* The stabilisation parameter of a cell (SUPG and PSPG alike), after Tezduyar & Osawa,
 * "Finite element stabilization parameters computed from element matrices and vectors",
 * CMAME 190 (2000), with the anisotropic length scales of Apel, Knopp & Lube,
 * "Stabilized finite element methods with anisotropic mesh refinement for the Oseen
 * problem", Appl. Numer. Math. 58 (2008):
 *   tau = ( (2 rate)^2 + (2 |w| / h_w)^2 + (4 nu / h_min^2)^2 )^(-1/2)
 * (rate = 1 / dt in a time run, Tezduyar's 2/dt term, the same for every scheme, substep
 * and the stationary start, so that tau does not jump between them; 0 for the stationary
 * problem): at small dt, tau -> dt / 2, so the SUPG and PSPG terms shrink with dt
 * h_w = 2 |w| / sum_a |w . grad phi_a| is the cell length in the flow direction (Tezduyar's
 * h_UGN), h_min the smallest height of the cell (area over its longest mid-line), both at
 * the cell centre; on a stretched cell the viscous limit follows the short side. */
double ns_tau(const FeastQ1Cell *cell, const double w[2], double nu, double mass);
/* Laplace of the grid field u (the macro's N x N nodes) on cell c, constant per cell: the
 * Hessian in the cell's reference coordinates (u_ss, u_tt: second differences at the
 * cell's four nodes, averaged, their centre moved inward at the macro's edges, so one-sided
 * there; u_st: the cell's own bilinear term) mapped with the Jacobian at the centre,
 * Lap u = tr(H (J^T J)^-1). Second order for a smooth u on an affine macro (first order in
 * its edge rows); on curved macros it misses the mapping's second derivatives. 0 when the
 * macro has fewer than 3 x 3 nodes. */
double ns_cell_laplacian(const FeastQ1Cell *c, const double *u);
/* y += L x on one N x N macro, L the derivative of the lagged viscous residual (forms.h)
 * from the cells ns_form stored: y1, y2 (momentum rows) from x1, x2's Laplacians, yp
 * (continuity rows) from both; rows where fixed[f] is set (Dirichlet rows, fields u, v, p)
 * are left alone (fixed NULL: none) */
void ns_viscous_derivative_apply(int N, const NsViscousCell *cells, const double *x1, const double *x2,
                                 const unsigned char *const fixed[3], double *y1, double *y2, double *yp);
/* the cell form (ctx: NsForm): matrices in the NS_* order (NS_NBLOCKS of them; with
 * velocity_blocks NS_NMATRICES), vectors NS_F1, NS_F2, NS_G. Newton's terms of A_ij per
 * quadrature point: A_ij += r_ij + s_ij (r: the reaction term, s: tau_s (R_i, phi_b d_j
 * phi_a)); V_ij += s_ij after the same terms before them. So A_ij has the same bits with
 * and without velocity_blocks, and V_ij those of A_ij with r_ij = 0 (0 + s = s, and a
 * sum from +0 is never -0) */
void ns_form(const FeastQ1Cell *c, void *ctx, double (*Aloc)[4][4], double (*bloc)[4]);
/* the residual of the system it assembles at an iterate x, without the matrices: the
 * vectors NS_F1, NS_F2, NS_G of the cell's b - A x (ctx: NsForm with x1, x2, p; no
 * matrix written). Summed over the test functions' terms directly, with the momentum
 * balance M = theta (f - (w.grad) x) - s - mass x at a point (x the velocity of x):
 *   momentum a:   (M_x, phi_a + tau w.grad phi_a) - tau (d_x p, w.grad phi_a) + (p, d_x phi_a)
 *                 - theta nu (grad x1, grad phi_a)
 *                 [+ theta ((w - x).grad w_1, phi_a + tau w.grad phi_a) + tau (R_1, (w - x).grad phi_a): Newton]
 *   continuity a: (div x, psi_a) - tau (f - (w.grad) x - s - mass x - grad p, grad psi_a)
 *                 [- tau (((w - x).grad) w, grad psi_a): Newton]
 * (tau: tau_s and tau_p as above, with the viscous residual where it is on), and with
 * Newton and tau from ns_tau the cell's J_tau (w - x) (its terms above). ns_form's
 * b - A x up to rounding (other sums). At x = w (the line search) the Newton terms vanish:
 * the defect of the nonlinear problem under either linearisation. */
void ns_form_residual(const FeastQ1Cell *c, void *ctx, double (*Aloc)[4][4], double (*bloc)[4]);
#endif

/* Conforming bilinear (Q1) finite elements on a refined macro: bilinear map of each
 * cell, tensor Gauss quadrature, and assembly of bilinear forms into 9-band matrices.
 * Local basis order of a cell with lower-left node (i,j): (i,j), (i+1,j), (i+1,j+1), (i,j+1). */
#ifndef FEAST_Q1_H
#define FEAST_Q1_H
#include "feast/la/band9.h"

/* The Q1 element's reference data as one descriptor: its dimension, the nodes of a cell
 * in the local basis order (offsets from the cell's first node), the quadrature orders
 * of the assemblies with the most points a cell then has (the room of FeastQ1Cell.q),
 * and the stencil of the matrices it assembles: the bilinear element on quadrilaterals
 * (this file's functions) and the trilinear one on hexahedra (feast_q1_hex, with its own
 * cell loop and functions in feast/fem/q1_hex.h). */
typedef struct {
  int dim;                     /* space dimension */
  int nodes;                   /* nodes (basis functions) per cell: 2^dim */
  signed char node[8][3];      /* basis function a sits at node (i, j) + node[a] of cell (i, j) */
  int min_order, max_order;    /* tensor Gauss orders of the assemblies (points per direction) */
  int max_points;              /* quadrature points per cell at max_order */
  const FeastStencil *stencil; /* the couplings of its matrices */
} FeastQ1Element;
/* bilinear on [0,1]^2: nodes (0,0), (1,0), (1,1), (0,1); orders 2..3; the 9-band stencil */
extern const FeastQ1Element feast_q1_quad;
/* trilinear on [0,1]^3 (feast/fem/q1_hex.h): the square's nodes at z = 0, then at z = 1;
 * orders 2..3; the 27-band stencil */
extern const FeastQ1Element feast_q1_hex;

/* Gauss-Legendre on [0,1] with order (1..3) points: order 1 the midpoint (weight 1),
 * order 2 the points 1/2 -+ 1/(2 sqrt 3) (weights 1/2), order 3 the points 1/2 and
 * 1/2 -+ sqrt(3/5)/2 (weights 4/9, 5/18); the tensor rules of both elements */
void feast_q1_gauss(int order, double x[3], double w[3]);

/* what a form sees at one quadrature point of one cell */
typedef struct {
  double x, y;           /* physical point */
  double weight;         /* quadrature weight times |det J| */
  double phi[4];         /* basis values */
  double dphi[4][2];     /* physical gradients */
  int macro, cell_i, cell_j;
} FeastQ1Point;

/* local matrix contribution at one point: Aloc[a][b] += form(test a, trial b) */
typedef void (*FeastQ1Form)(const FeastQ1Point *p, void *ctx, double Aloc[4][4]);

/* what an element-level form sees: one cell with all its quadrature points, so that it
 * can evaluate discrete fields (u(q) = sum_a u[node[a]] phi_a(q)) and cell parameters
 * (stabilisation) once per cell */
typedef struct {
  int macro, i, j;      /* cell (i,j) of the macro: lower-left node (i,j) */
  long node[4];         /* grid index (j*N+i) of the node of local basis function a */
  int nq;               /* quadrature points */
  FeastQ1Point q[9];
  FeastQ1Point centre;  /* the reference point (1/2, 1/2); weight = |det J| there */
  double jac[2][2];     /* the Jacobian at the centre: jac[d][0] = dx_d/ds, jac[d][1] = dx_d/dt */
} FeastQ1Cell;

/* the grid indices of cell (i, j)'s nodes on an N x N macro in the local basis order of
 * FeastQ1Cell.node: (i, j), (i+1, j), (i+1, j+1), (i, j+1) */
void feast_q1_cell_nodes(long N, long i, long j, long node[4]);

/* element-level form over several coupled blocks in one pass: Aloc[k][a][b] += entry of
 * matrix k (test a, trial b), bloc[r][a] += entry of vector r; both zeroed per cell */
typedef void (*FeastQ1CellForm)(const FeastQ1Cell *c, void *ctx, double (*Aloc)[4][4], double (*bloc)[4]);
/* a function f(x, y) at n points at once: value[k] = f(x[k], y[k]), k < n. The Q1
 * integrals call it once per row of cells (n = cells x quadrature points), so that its
 * loop over the points vectorises, transcendental functions included (feast/base/vecmath.h);
 * not finite where it cannot be evaluated */
typedef void (*FeastQ1Function)(long n, const double *x, const double *y, void *ctx, double *value);

/* quadrature: 2 = 2x2 Gauss (exact for Q1 stiffness on parallelograms), 3 = 3x3.
 * form = feast_q1_form_laplace is assembled without a call per point (closed form on
 * parallelogram cells, direct quadrature on the others; the same values to rounding) */
int feast_q1_assemble(int N, const double *xy, int macro, FeastQ1Form form, void *ctx,
                      int order, FeastBand9 *A); /* A created by caller, accumulated into */
/* nmat matrices A[k] and nvec vectors b[r] (N*N values) of one macro, accumulated in one
 * pass over its cells; a NULL A[k] or b[r] is computed by the form but not stored */
int feast_q1_assemble_cells(int N, const double *xy, int macro, FeastQ1CellForm form, void *ctx, int order,
                            int nmat, FeastBand9 *const *A, int nvec, double *const *b);
/* what a boundary form sees at one quadrature point of one segment (two neighbouring
 * nodes) of a macro edge */
typedef struct {
  double x, y;      /* physical point */
  double weight;    /* quadrature weight times the segment's length */
  double normal[2]; /* the segment's outward unit normal (the macro lies on the left of its
                     * local edge's direction, corner le -> le + 1) */
  double phi[2];    /* the values of the segment's two nodal basis functions */
  long node[2];     /* their grid indices (j N + i) */
} FeastQ1EdgePoint;
/* local 2 x 2 contribution at one point: Aloc[a][b] += form(test a, trial b) */
typedef void (*FeastQ1EdgeForm)(const FeastQ1EdgePoint *p, void *ctx, double Aloc[2][2]);
/* A += the integral of form along local edge le (0..3) of the macro: 2-point Gauss on each
 * of its N - 1 straight segments (exact for cubic integrands on them) */
int feast_q1_assemble_edge(int N, const double *xy, int le, FeastQ1EdgeForm form, void *ctx, FeastBand9 *A);
/* b_i += int f phi_i (b padded or not, N*N values) */
int feast_q1_assemble_rhs(int N, const double *xy, int macro, FeastQ1Function f, void *ctx,
                          int order, double *b);
/* sum over cells of int (u_h - u)^2, and of int u^2 (for relative errors) */
int feast_q1_l2_error(int N, const double *xy, const double *uh, FeastQ1Function u, void *ctx,
                      int order, double *err2, double *norm2);

/* the lumped mass: m_i += int phi_i (the row sums of the mass matrix) */
int feast_q1_lumped_mass(int N, const double *xy, int macro, double *m);

/* point location: the first cell (i, j) of the macro (in storage order, j outer) whose
 * bilinear map reaches (x, y) at reference coordinates st in [-tol, 1+tol]^2 (Newton's
 * method on the map; st returned clamped to [0,1]^2); 1 if found, 0 if the macro does not
 * contain the point */
int feast_q1_locate(int N, const double *xy, double x, double y, double tol, int *ci, int *cj, double st[2]);
/* reference coordinates st of (x, y) under the bilinear map of cell (i, j) (also outside
 * [0,1]^2); 0 if Newton's method meets a singular Jacobian */
int feast_q1_cell_inverse(int N, const double *xy, int i, int j, double x, double y, double st[2]);
/* value of the grid function u (N*N values) at reference point st of cell (ci, cj) */
double feast_q1_eval(int N, const double *u, int ci, int cj, const double st[2]);

/* standard forms */
void feast_q1_form_laplace(const FeastQ1Point *p, void *ctx, double Aloc[4][4]); /* grad.grad */
void feast_q1_form_mass(const FeastQ1Point *p, void *ctx, double Aloc[4][4]);    /* phi.phi */
#endif

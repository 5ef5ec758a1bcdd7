/* Conforming trilinear (Q1) finite elements on a refined hexahedral macro (issue #47):
 * the trilinear map of each cell, tensor Gauss quadrature, and assembly of bilinear forms
 * into 27-band matrices (feast/la/band.h, feast_stencil_q1_3d): point by point
 * (FeastQ1HexForm) or cell by cell, several matrices and vectors in one pass
 * (FeastQ1HexCellForm: the coupled blocks of navier_stokes/hex_forms.h).
 * The macro's grid has N nodes per side, node (i, j, k) at index (k N + j) N + i, its
 * coordinates interleaved (xyz[3 r + d], feast_hex_macro_coords). Cell (i, j, k) has the
 * nodes (i, j, k) + feast_q1_hex.node[a], a = 0..7: the square's four counter-clockwise
 * at k, then the same four at k + 1 (the corner order of a VTK hexahedron). */
#ifndef FEAST_Q1_HEX_H
#define FEAST_Q1_HEX_H
#include "feast/fem/q1.h"
#include "feast/la/band.h"

/* what a form sees at one quadrature point of one cell */
typedef struct {
  double x[3];       /* physical point */
  double weight;     /* quadrature weight times det J */
  double phi[8];     /* basis values */
  double dphi[8][3]; /* physical gradients */
  int macro, cell[3];
} FeastQ1HexPoint;

/* what an element-level form sees: one cell with all its quadrature points, so that it
 * can evaluate discrete fields (u(q) = sum_a u[node[a]] phi_a(q)) and cell parameters
 * (stabilisation) once per cell */
typedef struct {
  int macro, i, j, k;     /* cell (i, j, k) of the macro: lowest node (i, j, k) */
  long node[8];           /* grid index of the node of local basis function a (feast_q1_hex_cell_nodes) */
  int nq;                 /* quadrature points */
  FeastQ1HexPoint q[27];
  FeastQ1HexPoint centre; /* the reference point (1/2, 1/2, 1/2); weight = det J there */
  double jac[3][3];       /* the Jacobian at the centre: jac[d][e] = dx_d / dref_e */
} FeastQ1HexCell;

/* local matrix contribution at one point: Aloc[a][b] += form(test a, trial b) */
typedef void (*FeastQ1HexForm)(const FeastQ1HexPoint *p, void *ctx, double Aloc[8][8]);
/* a function at n points at once: value[q] = f(x[q], y[q], z[q]), q < n (called once per
 * row of cells, so that its loop over the points vectorises) */
typedef void (*FeastQ1HexFunction)(long n, const double *x, const double *y, const double *z, void *ctx,
                                   double *value);

/* element-level form over several coupled blocks in one pass: Aloc[m][a][b] += entry of
 * matrix m (test a, trial b), bloc[r][a] += entry of vector r; both zeroed per cell */
typedef void (*FeastQ1HexCellForm)(const FeastQ1HexCell *c, void *ctx, double (*Aloc)[8][8], double (*bloc)[8]);

/* the grid indices of cell (i, j, k)'s nodes in the local basis order */
void feast_q1_hex_cell_nodes(long N, long i, long j, long k, long node[8]);

/* Every function below first checks the macro's cells: det J > 0 at each cell's eight
 * corners and at its quadrature points, else FEAST_ERR_MESH naming the macro (macro < 0:
 * unknown to the caller) and the cell (an inverted or degenerate hexahedron). order: the
 * Gauss points per direction, 2 (exact for the stiffness and mass of parallelepipeds) or
 * 3. */

/* A += the form's matrix (A: feast_stencil_q1_3d, N nodes per side). form =
 * feast_q1_hex_form_laplace is assembled without a call per point on parallelepiped
 * cells (a closed form, the same values to rounding) */
int feast_q1_hex_assemble(int N, const double *xyz, int macro, FeastQ1HexForm form, void *ctx, int order,
                          FeastBand *A);
/* nmat matrices A[m] (feast_stencil_q1_3d, N nodes per side) and nvec vectors b[r] (N^3
 * values) of one macro, accumulated in one pass over its cells; a NULL A[m] or b[r] is
 * computed by the form but not stored; at most FEAST_Q1_HEX_MAX_MATRICES and
 * FEAST_Q1_HEX_MAX_VECTORS */
enum { FEAST_Q1_HEX_MAX_MATRICES = 16, FEAST_Q1_HEX_MAX_VECTORS = 8 };
int feast_q1_hex_assemble_cells(int N, const double *xyz, int macro, FeastQ1HexCellForm form, void *ctx, int order,
                                int nmat, FeastBand *const *A, int nvec, double *const *b);
/* b_i += int f phi_i (N^3 values) */
int feast_q1_hex_assemble_rhs(int N, const double *xyz, int macro, FeastQ1HexFunction f, void *ctx, int order,
                              double *b);
/* m_i += int phi_i: the row sums of the mass matrix */
int feast_q1_hex_lumped_mass(int N, const double *xyz, int macro, double *m);
/* *err2 = the integral of (u_h - u)^2 over the macro, *norm2 that of u^2 */
int feast_q1_hex_l2_error(int N, const double *xyz, const double *uh, FeastQ1HexFunction u, void *ctx, int order,
                          double *err2, double *norm2);

/* standard forms */
void feast_q1_hex_form_laplace(const FeastQ1HexPoint *p, void *ctx, double Aloc[8][8]); /* grad.grad */
void feast_q1_hex_form_mass(const FeastQ1HexPoint *p, void *ctx, double Aloc[8][8]);    /* phi.phi */
#endif

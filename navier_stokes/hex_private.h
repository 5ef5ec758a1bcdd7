/* Private to the 3D flow solver (navier_stokes/ns_hex.h): the object its files share
 * (hex_problem.c: creation and parameters; hex_system.c: assembly, the product K x and the
 * block preconditioner; hex_solve.c: the nonlinear and linear iterations; hex_post.c:
 * quantities and outputs). */
#ifndef FEAST_NS_HEX_PRIVATE_H
#define FEAST_NS_HEX_PRIVATE_H
#include "feast/config/expr.h"
#include "feast/fem/bc.h"
#include "feast/la/band.h"
#include "feast/la/mask.h"
#include "navier_stokes/hex_forms.h"
#include "navier_stokes/ns_hex.h"
#include "scarc/scarc_hex.h"

struct NsHex {
  NsParams params;               /* as given (its texts not kept: compiled below) */
  const FeastDomain *dom;
  int level, stokes, nullspace;
  double nu;
  FeastBC *bc[NS_HEX_NFIELDS];
  FeastMask *mask[NS_HEX_NFIELDS];
  FeastExpr *force[3], *exact[NS_HEX_NFIELDS]; /* NULL: 0, unknown */
  FeastBand *blk[NS_HEX_NBLOCKS]; /* blk[k][li]: the partial matrices (each macro's own cells) of the last assembly */
  FeastVec *rhs;                 /* consistent, four fields */
  FeastVec *x, *d, *c, *x_old;   /* the iterate, the defect, the correction, the last iterate */
  FeastVec *mass;                /* the lumped mass, consistent (one block) */
  FeastVec *ones;                /* 1 everywhere (one block) */
  double volume;                 /* the lumped mass's sum over the global nodes */
  double *grid;                  /* one padded work grid of the finest level */
  ScarcHex *velocity[3];         /* per velocity component; velocity[d] == velocity[e] where their masks agree */
  FeastSolveParams linear_sp;    /* FGMRES of each step */
  FeastKrylovWork *krylov_work;
  FeastNonlinear *nonlinear;
  long vcycles;                  /* velocity V cycles */
};

/* 1 where velocity component d's solver is its own, not an earlier component's (they share one where their
 * Dirichlet parts agree: hex_problem.c) */
static inline int ns_hex_velocity_owner(const NsHex *ns, int d) {
  for (int e = 0; e < d; e++)
    if (ns->velocity[e] == ns->velocity[d]) return 0;
  return 1;
}

/* ---- hex_system.c ---- */
int ns_hex_system_create(NsHex *ns);
void ns_hex_system_destroy(NsHex *ns);
/* the blocks and the right-hand side linearised at x (Stokes: w = 0) */
int ns_hex_assemble(NsHex *ns, const FeastVec *x);
/* y <- K x on the free rows, 0 on the fixed ones (consistent four-field vectors) */
int ns_hex_apply(NsHex *ns, const FeastVec *x, FeastVec *y);
/* the velocity solvers' operators from the last assembly */
int ns_hex_preconditioner_update(NsHex *ns);
/* c <- K_s^-1 d (FGMRES's preconditioner) */
int ns_hex_precondition(NsHex *ns, const FeastVec *d, FeastVec *c);
/* where the pressure is free: v's pressure block shifted to zero mean (int p_h = 0, by the lumped mass), and a
 * residual's continuity rows to zero sum (a consistent residual has none: they sum to zero on vectors that
 * vanish at the velocity's Dirichlet nodes) */
int ns_hex_project_pressure(NsHex *ns, FeastVec *v);
int ns_hex_project_residual(NsHex *ns, FeastVec *r);
#endif

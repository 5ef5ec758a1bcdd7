/* The boundary conditions of one field of a problem (e.g. the velocity component "u"):
 * which boundary parts carry Dirichlet values for it - those with a config value
 * boundary.NAME.<field>, an expression in x, y, z and t (z = 0 on a 2D mesh) - and the
 * value at every Dirichlet node. Parts without a value are natural (do-nothing) for the
 * field. In 2D parts meet only at mesh vertices; on hexahedral macros (mesh->dim == 3)
 * they meet along mesh edges and at mesh vertices. There the part with the higher
 * boundary.NAME.priority sets the value, and parts of equal priority must give the same
 * value (else a config error naming both keys and the point: the mesh vertex, or in 3D
 * the midpoint of the mesh edge where they meet). A node inside a boundary face (3D)
 * takes the face's part. The choice depends only on global mesh data, so every copy of
 * a node shared by macros (on several ranks) gets bitwise the same value. */
#ifndef FEAST_BC_H
#define FEAST_BC_H
#include "feast/config/config.h"
#include "feast/parallel/domain.h"
#include "feast/la/mask.h"
#include "feast/mesh/mesh.h"

typedef struct FeastBC FeastBC;

/* every boundary.NAME section of cfg must name a part of the mesh (FEAST_ERR_CONFIG
 * listing the parts); call once per problem, before creating its fields' conditions */
int feast_bc_check_sections(const FeastConfig *cfg, const FeastMesh *mesh);
/* compile boundary.NAME.<field> for every part of the mesh, resolve the vertices (3D: and
 * edges) where Dirichlet parts meet */
int feast_bc_create(const FeastConfig *cfg, const FeastMesh *mesh, const char *field, FeastBC **bc);
/* the same from values given per part (no config): parts[q] for mesh part q; origin
 * names the value in messages ("run.ini:12"; NULL: none) */
typedef struct {
  const char *value; /* expression in x, y, z, t; NULL: natural for the field */
  int priority;      /* where Dirichlet parts meet, the higher one sets the value */
  const char *origin;
} FeastBCPart;
int feast_bc_create_from_parts(const FeastMesh *mesh, const char *field, const FeastBCPart *parts, FeastBC **bc);
void feast_bc_destroy(FeastBC **bc);
const char *feast_bc_field(const FeastBC *bc);
/* nparts flags: 1 where the part is Dirichlet for the field (for feast_mask_create) */
const unsigned char *feast_bc_parts(const FeastBC *bc);
/* later values (feast_bc_values) at time t (the expressions' variable t; 0 until set) */
void feast_bc_set_time(FeastBC *bc, double t);
/* 1 if some Dirichlet value of the field names t */
int feast_bc_time_dependent(const FeastBC *bc);
/* v[li][node] <- the Dirichlet value at every fixed node of the finest level of mask
 * (the mask made from feast_bc_parts): the expression at the node's coordinates
 * (lev->xy[li], 2 or 3 per node); other nodes are not touched */
int feast_bc_values(FeastBC *bc, const FeastDomain *dom, const FeastMask *mask, double *const *v);
#endif

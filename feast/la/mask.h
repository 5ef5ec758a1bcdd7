/* Dirichlet (fixed) nodes of one field on every level of a domain. A node is fixed if it
 * lies on a boundary edge of a part that carries a Dirichlet condition for the field,
 * end vertices included. Every field of a problem has its own mask (e.g. the velocity
 * components are fixed on walls and inflow, the pressure nowhere). */
#ifndef FEAST_MASK_H
#define FEAST_MASK_H
#include "feast/parallel/domain.h"

typedef struct {
  int finest, nlocal, nparts;
  unsigned char *parts;   /* nparts: 1 if the part is Dirichlet for this field */
  unsigned char ***fixed; /* fixed[l][li][node], l = 0..finest */
  int64_t nfixed;         /* fixed nodes of the finest level, counted once globally */
  int pinned;             /* a coarse mesh vertex fixed besides the parts (feast_mask_pin), or -1 */
} FeastMask;

/* parts: nparts flags (NULL = none) */
int feast_mask_create(const FeastDomain *dom, const unsigned char *parts, FeastMask **m);
void feast_mask_destroy(FeastMask **m);
/* "all", "" (none) or part names separated by spaces or commas -> flags; key names the
 * config key in messages; an unknown name is FEAST_ERR_CONFIG listing the mesh's parts */
int feast_mask_parse_parts(const FeastMesh *mesh, const char *spec, const char *key, unsigned char *parts);
/* also fix the nodes of coarse mesh vertex `vertex` on every level and macro that holds
 * it (e.g. one pressure node of a pure Neumann problem, whose operator is singular
 * otherwise); one pin per mask; collective over the domain's ranks (recounts nfixed) */
int feast_mask_pin(const FeastDomain *dom, int vertex, FeastMask *m);
/* 1 if both masks fix the same parts and pin the same vertex */
int feast_mask_same(const FeastMask *a, const FeastMask *b);
#endif

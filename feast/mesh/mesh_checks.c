/* The checks both validations of a mesh run (mesh_validate.c for quadrilaterals,
 * hex_mesh.c for hexahedra): finite coordinates, and valid unique part names. */
#include "feast/base/error.h"
#include "feast/mesh/mesh_private.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

int feast_mesh_check_vertices(const FeastMesh *m, const FeastMeshLines *ln) {
  const int dim = m->dim == 3 ? 3 : 2;
  for (int v = 0; v < m->nvertices; v++) {
    const double *x = m->xy + dim * v;
    int ok = 1;
    for (int d = 0; d < dim; d++) ok &= isfinite(x[d]) && fabs(x[d]) <= FEAST_MESH_COORD_MAX;
    if (dim == 3)
      FEAST_CHECK(ok, FEAST_ERR_MESH, "%s: vertex %d has coordinates (%g, %g, %g): finite values of magnitude <= %g expected",
                  feast_mesh_loc(m, ln ? ln->vertex : NULL, v).s, v, x[0], x[1], x[2], FEAST_MESH_COORD_MAX);
    FEAST_CHECK(ok, FEAST_ERR_MESH, "%s: vertex %d has coordinates (%g, %g): finite values of magnitude <= %g expected",
                feast_mesh_loc(m, ln ? ln->vertex : NULL, v).s, v, x[0], x[1], FEAST_MESH_COORD_MAX);
  }
  return 0;
}

static int cmp_name(const void *pa, const void *pb) {
  const FeastBoundaryPart *a = *(const FeastBoundaryPart *const *)pa, *b = *(const FeastBoundaryPart *const *)pb;
  return strcmp(a->name, b->name);
}

int feast_mesh_check_part_names(const FeastMesh *m, const FeastMeshLines *ln) {
  const int *pl = ln ? ln->part : NULL;
  for (int p = 0; p < m->nparts; p++) {
    const char *name = m->parts[p].name;
    FEAST_CHECK(memchr(name, 0, sizeof m->parts[p].name) && feast_mesh_name_ok(name), FEAST_ERR_MESH,
                "%s: boundary part %d: name '%.63s' is invalid (1 to 63 letters, digits, '_' or '-')",
                feast_mesh_loc(m, pl, p).s, p, name);
  }
  if (m->nparts < 2) return 0;
  const FeastBoundaryPart **sorted;
  FEAST_CALL(FEAST_ALLOC(m->nparts, &sorted));
  for (int p = 0; p < m->nparts; p++) sorted[p] = &m->parts[p];
  if (m->nparts) qsort(sorted, (size_t)m->nparts, sizeof *sorted, cmp_name);
  int dup = -1;
  for (int p = 1; p < m->nparts && dup < 0; p++)
    if (strcmp(sorted[p]->name, sorted[p - 1]->name) == 0) dup = (int)(sorted[p] - m->parts);
  free(sorted);
  if (dup >= 0) {
    int later = dup;
    for (int p = 0; p < m->nparts; p++)
      if (strcmp(m->parts[p].name, m->parts[dup].name) == 0) later = p; /* report the last one */
    FEAST_ERROR(FEAST_ERR_MESH, "%s: duplicate boundary part name '%s'", feast_mesh_loc(m, pl, later).s,
                m->parts[dup].name);
  }
  return 0;
}

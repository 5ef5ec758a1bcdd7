/* The coarse mesh object (feast/mesh/mesh.h): allocation and destruction, the
 * fingerprint checkpoints name a mesh by, and small queries on boundary parts.
 * Reading by file extension is mesh_file.c; validation and topology (feast_mesh_finish)
 * live in mesh_validate.c, mesh_topology.c and mesh_conform.c; the line reader the
 * readers share in mesh_reader.c. */
#include "feast/mesh/mesh.h"
#include "feast/base/hash.h"
#include "feast/base/error.h"
#include "feast/mesh/mesh_io.h"
#include "feast/mesh/mesh_private.h"
#include <string.h>
#include <strings.h>

int feast_mesh_alloc(const char *path, int dim, int nv, int nq, int np, FeastMesh **mesh) {
  FEAST_CHECK(mesh && (dim == 2 || dim == 3) && nv >= 0 && nq >= 0 && np >= 0, FEAST_ERR_ARG,
              "mesh_alloc: bad argument");
  FeastMesh *m;
  *mesh = NULL;
  FEAST_CALL(FEAST_ALLOC(1, &m));
  *mesh = m; /* the caller destroys it if an allocation below fails */
  snprintf(m->source, sizeof m->source, "%s", path ? path : "");
  m->dim = dim;
  m->nvertices = nv;
  m->nmacros = nq;
  m->nparts = np;
  FEAST_CALL(FEAST_ALLOC((size_t)dim * nv, &m->xy));
  FEAST_CALL(FEAST_ALLOC((size_t)feast_mesh_cell(m)->corners * nq, &m->quads));
  FEAST_CALL(FEAST_ALLOC(np, &m->parts));
  return 0;
}

void feast_mesh_destroy(FeastMesh **mesh) {
  if (!mesh || !*mesh) return;
  FeastMesh *m = *mesh;
  feast_mesh_free_topology(m);
  for (int p = 0; m->parts && p < m->nparts; p++) feast_free(&m->parts[p].edges), feast_free(&m->parts[p].faces);
  feast_free(&m->parts);
  feast_free(&m->xy);
  feast_free(&m->quads);
  feast_free(mesh);
}

const char *feast_mesh_part_names(const FeastMesh *mesh, char *buf, size_t size) {
  buf[0] = 0;
  for (int q = 0; q < mesh->nparts && strlen(buf) + 70 < size; q++)
    snprintf(buf + strlen(buf), size - strlen(buf), "%s%s", q ? ", " : "", mesh->parts[q].name);
  return buf;
}

int feast_mesh_part_index(const FeastMesh *mesh, const char *name) {
  if (!mesh || !name) return -1;
  for (int p = 0; p < mesh->nparts; p++)
    if (strncmp(mesh->parts[p].name, name, sizeof mesh->parts[p].name) == 0) return p;
  return -1;
}

int feast_mesh_vertex_on_part(const FeastMesh *mesh, int v, int p) {
  if (!mesh || p < 0 || p >= mesh->nparts || v < 0 || v >= mesh->nvertices) return 0;
  const FeastBoundaryPart *part = &mesh->parts[p];
  for (int k = 0; k < 2 * part->nedges; k++)
    if (part->edges[k] == v) return 1;
  for (int k = 0; k < 4 * part->nfaces; k++)
    if (part->faces[k] == v) return 1;
  return 0;
}

/* 2D meshes hash as they did before the 3D fields came (checkpoints name them by it) */
uint64_t feast_mesh_fingerprint(const FeastMesh *mesh) {
  const int dim = mesh->dim == 3 ? 3 : 2;
  uint64_t h = feast_fnv1a64(FEAST_FNV_OFFSET, &mesh->nvertices, sizeof mesh->nvertices);
  if (dim == 3) h = feast_fnv1a64(h, &mesh->dim, sizeof mesh->dim);
  h = feast_fnv1a64(h, mesh->xy, (size_t)dim * mesh->nvertices * sizeof *mesh->xy);
  h = feast_fnv1a64(h, &mesh->nmacros, sizeof mesh->nmacros);
  h = feast_fnv1a64(h, mesh->quads, (size_t)feast_mesh_cell(mesh)->corners * mesh->nmacros * sizeof *mesh->quads);
  for (int k = 0; k < mesh->nparts; k++) {
    const FeastBoundaryPart *part = &mesh->parts[k];
    h = feast_fnv1a64(h, part->name, strlen(part->name) + 1);
    h = feast_fnv1a64(h, &part->type, sizeof part->type);
    if (part->type == FEAST_PART_CIRCLE) {
      h = feast_fnv1a64(h, part->center, 2 * sizeof *part->center);
      h = feast_fnv1a64(h, &part->radius, sizeof part->radius);
    }
    if (part->type == FEAST_PART_CYLINDER) {
      h = feast_fnv1a64(h, part->center, sizeof part->center);
      h = feast_fnv1a64(h, part->axis, sizeof part->axis);
      h = feast_fnv1a64(h, &part->radius, sizeof part->radius);
    }
    h = feast_fnv1a64(h, part->edges, 2 * (size_t)part->nedges * sizeof *part->edges);
    if (dim == 3) h = feast_fnv1a64(h, part->faces, 4 * (size_t)part->nfaces * sizeof *part->faces);
  }
  return h;
}

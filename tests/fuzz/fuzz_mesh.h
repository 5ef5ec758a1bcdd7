/* Shared body of the mesh reader harnesses: read, then use the mesh the way feastc does
 * (node counts, refined coordinates, Jacobians), which must be safe for any mesh the
 * reader accepted. */
#include "feast/mesh/hex.h"
#include "feast/mesh/mesh.h"
#include "fuzz_common.h"

static void fuzz_use_mesh(const FeastMesh *m) {
  int64_t nodes;
  for (int level = 0; level <= FEAST_MAX_LEVEL + 1; level++) {
    feast_error_clear();
    (void)feast_mesh_count_nodes(m, level, &nodes);
  }
  if (m->nmacros <= 0 || m->nmacros > 64) return; /* keep each input fast */
  double xy[3 * 5 * 5 * 5];
  for (int mac = 0; mac < m->nmacros; mac++) {
    feast_error_clear();
    if (feast_mesh_macro_coords(m, mac, 2, xy)) continue;
    if (m->dim == 3)
      for (long r = 0; r < 125; r++) (void)feast_hex_mesh_node_gid(m, 5, mac, r);
    else
      for (int i = 0; i < 5; i++)
        for (int j = 0; j < 5; j++) (void)feast_mesh_node_gid(m, 2, mac, i, j);
  }
  if (m->dim == 3) return; /* the Jacobian check below is of quadrilaterals */
  /* straight edges + strictly convex quads: the refined cells cannot invert */
  int curved = 0;
  for (int p = 0; p < m->nparts; p++) curved |= m->parts[p].type != FEAST_PART_LINE;
  double minjac;
  feast_error_clear();
  if (feast_mesh_min_jacobian(m, 1, &minjac) == 0 && !curved && !(minjac > 0)) {
    fprintf(stderr, "fuzz: accepted mesh has min Jacobian %g at level 1\n", minjac);
    abort();
  }
  for (int p = 0; p < m->nparts; p++) {
    (void)feast_mesh_part_index(m, m->parts[p].name);
    for (int v = 0; v < m->nvertices && v < 64; v++) (void)feast_mesh_vertex_on_part(m, v, p);
  }
}

static int fuzz_mesh_one(const uint8_t *data, size_t size, const char *ext,
                         int (*reader)(const char *, const FeastConfig *, FeastMesh **),
                         const FeastConfig *cfg) {
  const char *path = fuzz_temp_path(ext);
  if (fuzz_write(path, data, size)) return 0;
  feast_error_clear();
  FeastMesh *mesh = NULL;
  int st = reader(path, cfg, &mesh);
  fuzz_check_error(st);
  if (!st) {
    if (!mesh) abort();
    fuzz_use_mesh(mesh);
  }
  feast_mesh_destroy(&mesh);
  if (mesh) abort();
  feast_error_clear();
  unlink(path);
  return 0;
}

/* feast_mesh_read: the reader by the file's extension (mesh_native.c for the native
 * format, gmsh.c for Gmsh .msh), above both readers and the mesh object they fill. */
#include "feast/mesh/mesh.h"
#include "feast/base/error.h"
#include "feast/mesh/mesh_io.h"
#include <string.h>
#include <strings.h>

int feast_mesh_read(const char *path, const FeastConfig *cfg, FeastMesh **mesh) {
  FEAST_CHECK(path && mesh, FEAST_ERR_ARG, "mesh_read: NULL argument");
  size_t n = strlen(path);
  if (n >= 4 && strcasecmp(path + n - 4, ".msh") == 0) return feast_mesh_read_gmsh(path, cfg, mesh);
  return feast_mesh_read_native(path, mesh);
}

/* The Poisson problem's VTK output (apps/poisson.h), for both of its runs (apps/poisson.c
 * on quadrilaterals, apps/poisson3d.c on hexahedra). */
#include "apps/poisson.h"
#include "feast/base/error.h"
#include "feast/base/log.h"
#include "feast/io/vtk.h"

int feast_poisson_write_vtk(const FeastProblemContext *app, const FeastVec *x) {
  char path[4096];
  FEAST_CALL(feast_config_get_path(app->cfg, "output.vtk", path, sizeof path));
  if (!path[0]) return 0;
  const FeastDomain *dom = app->dom;
  const FeastLevel *lev = &dom->levels[dom->finest];
  FeastVtkField f = {"u", 1, feast_vec_blocks_read(x, 0)};
  if (dom->mesh->dim == 3)
    FEAST_CALL(feast_vtk_write_hex(path, dom->finest, dom->nlocal, dom->local, (const double *const *)lev->xy, 1, &f,
                                   dom->comm));
  else
    FEAST_CALL(feast_vtk_write(path, dom->finest, dom->nlocal, dom->local, (const double *const *)lev->xy, 1, &f,
                               dom->comm));
  feast_log(1, "  vtk: %s.pvtu\n", path);
  return 0;
}

/* Helpers of the navier_stokes/ tests, on the public headers only: a problem made
 * in-process from a config text (written to a temporary file, read as feastc reads one)
 * on a mesh of grids/, nodal interpolation of given fields, and comparisons of
 * distributed vectors. Header only (static functions): tests/ builds every
 * tests/{unit,mpi}/test_*.c as its own program. A test that checks internals includes
 * ns_testing_private.h instead (white-box: navier_stokes/ns_private.h and its helpers). */
#ifndef FEAST_NS_TESTING_H
#define FEAST_NS_TESTING_H
#define _XOPEN_SOURCE 700 /* mkstemp, fdopen, realpath */
#include "apps/app.h"
#include "feast/config/config.h"
#include "feast/parallel/domain.h"
#include "feast/base/error.h"
#include "feast/base/log.h"
#include "feast/mesh/mesh.h"
#include "feast/la/vector.h"
#include "feast_test.h"
#include "navier_stokes/ns_config.h"
#include "navier_stokes/ns.h"
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
  FeastConfig *cfg;
  FeastMesh *mesh;
  FeastDomain *dom;
  NsProblem *ns;
} NsCase;

/* the config: `text` (ini sections) after [grid] file = $FEAST_SRC/grids/MESH, level =
 * LEVEL and output.verbosity = 0; written to a temporary file of this process, read,
 * removed. The problem on communicator comm (MPI_COMM_SELF: all macros on this rank, a
 * serial reference inside an MPI test). 0 on success. */
static inline int ns_case_create(const char *mesh, int level, const char *text, int stokes, MPI_Comm comm, NsCase *c) {
  memset(c, 0, sizeof *c);
  /* the source tree (absolute: relative paths resolve against the config file's folder) */
  char src[4096];
  const char *env = getenv("FEAST_SRC");
  if (!realpath(env ? env : ".", src)) return 1;
  char path[] = "/tmp/feast_ns_test_XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) return 1;
  FILE *fp = fdopen(fd, "w");
  if (!fp) return 1;
  fprintf(fp, "[grid]\nfile = %s/grids/%s\nlevel = %d\n[output]\nverbosity = 0\n%s\n", src, mesh, level,
          text);
  fclose(fp);
  int rank;
  MPI_Comm_rank(comm, &rank);
  feast_log_init(rank, 0);
  int st = feast_app_config_create(&c->cfg);
  if (!st) st = feast_config_read(c->cfg, path);
  remove(path);
  char mesh_path[4096];
  if (!st) st = feast_config_get_path(c->cfg, "grid.file", mesh_path, sizeof mesh_path);
  if (!st) st = feast_mesh_read(mesh_path, c->cfg, &c->mesh);
  if (!st) st = ns_check(c->cfg, c->mesh, stokes);
  if (!st) st = feast_domain_create(c->mesh, level, comm, &c->dom);
  if (!st) st = ns_create(c->cfg, c->dom, stokes, &c->ns);
  if (st) fprintf(stderr, "ns_case_create(%s, level %d): %s [%s]\n", mesh, level, feast_error_message(), feast_error_where());
  return st;
}

static inline void ns_case_destroy(NsCase *c) {
  ns_destroy(&c->ns);
  feast_domain_destroy(&c->dom);
  feast_mesh_destroy(&c->mesh);
  feast_config_destroy(&c->cfg);
}

typedef double (*NsField)(double x, double y);

/* x <- the nodal interpolant of (u, v, p) (NULL: 0) on every copy of every node */
static inline void ns_interpolate(FeastVec *x, NsField u, NsField v, NsField p) {
  const FeastLevel *lev = &x->dom->levels[x->level];
  const NsField f[NS_NFIELDS] = {u, v, p};
  for (int k = 0; k < NS_NFIELDS; k++)
    for (int li = 0; li < x->dom->nlocal; li++) {
      double *xf = feast_vec_block(x, k, li);
      for (long i = 0; i < (long)lev->N * lev->N; i++)
        xf[i] = f[k] ? f[k](lev->xy[li][2 * i], lev->xy[li][2 * i + 1]) : 0.0;
    }
}

/* max over all nodes of |x_f - y_f| for field f (collective) */
static inline double ns_max_diff(const FeastVec *x, const FeastVec *y, int f) {
  double m = 0.0, g;
  for (int li = 0; li < x->nlocal; li++) {
    const double *a = feast_vec_block(x, f, li), *b = feast_vec_block(y, f, li);
    for (long i = 0; i < (long)x->N * x->N; i++) m = fmax(m, fabs(a[i] - b[i]));
  }
  MPI_Allreduce(&m, &g, 1, MPI_DOUBLE, MPI_MAX, x->dom->comm);
  return g;
}

/* the number of values of field f of x (distributed) that differ in any bit from those
 * of the serial y (all macros local) at the same macro and node (collective over x's) */
static inline long ns_count_bit_differences(const FeastVec *x, const FeastVec *y, int f) {
  long d = 0, g;
  for (int li = 0; li < x->nlocal; li++) {
    const int m = x->dom->local[li], lj = y->dom->local_of[m];
    const double *a = feast_vec_block(x, f, li), *b = feast_vec_block(y, f, lj);
    d += memcmp(a, b, sizeof(double) * (size_t)x->N * x->N) != 0;
  }
  MPI_Allreduce(&d, &g, 1, MPI_LONG, MPI_SUM, x->dom->comm);
  return g;
}

#endif

/* The additive layer is local: the matrix each macro's local solver sees is exactly the
 * restriction of the fully assembled global matrix to that macro's nodes (interface
 * rows consistent), and a macro's local correction depends only on its own defect. */
#include "feast/base/error.h"
#include "feast/la/gather.h"
#include "feast/mesh/mesh.h"
#include "feast/fem/q1.h"
#include "feast_test.h"
#include "scarc/scarc.h"
#include "scarc/scarc_config.h"
#include "scarc/scarc_keys.h"
#include <math.h>
#include <stdlib.h>

/* the raw Laplace matrices of level L, one per local macro */
static FeastBand9 *laplace(const FeastDomain *dom, int L) {
  const FeastLevel *lev = &dom->levels[L];
  FeastBand9 *A = calloc((size_t)dom->nlocal + 1, sizeof *A);
  for (int li = 0; li < dom->nlocal; li++) {
    CHECK_OK(feast_band9_create(lev->N, &A[li]));
    CHECK_OK(feast_q1_assemble(lev->N, lev->xy[li], dom->local[li], feast_q1_form_laplace, NULL, 2, &A[li]));
  }
  return A;
}

/* the ScaRC parameters of a config with these overrides (through the config adapter) */
static ScarcParams params(const char *const *overrides, int n) {
  FeastConfig *cfg = NULL;
  ScarcParams p;
  scarc_params_defaults(&p);
  CHECK_OK(feast_config_create(&cfg));
  CHECK_OK(feast_config_add_keys(cfg, scarc_config_keys()));
  for (int i = 0; i < n; i++) CHECK_OK(feast_config_override(cfg, overrides[i]));
  CHECK_OK(scarc_params_from_config(cfg, "solver.", &p));
  feast_config_destroy(&cfg);
  return p;
}

static double global_entry(const FeastTriplets *t, int64_t r, int64_t c) {
  int64_t lo = 0, hi = t->nnz - 1;
  while (lo <= hi) { /* triplets are sorted by (row, col) */
    int64_t mid = (lo + hi) / 2;
    if (t->row[mid] == r && t->col[mid] == c) return t->val[mid];
    if (t->row[mid] < r || (t->row[mid] == r && t->col[mid] < c)) lo = mid + 1;
    else hi = mid - 1;
  }
  return 0.0;
}

static int run(void) {
  FeastMesh *mesh = NULL;
  FeastDomain *dom = NULL;
  Scarc *s = NULL;
  FeastMask *mask = NULL;
  const char *const overrides[] = {"solver.coarse_max_dofs=50", "solver.local_max_cycles=8"};
  const ScarcParams params_ = params(overrides, 2), *p = &params_;
  const int L = 3;
  CHECK_OK(feast_mesh_read("grids/dfg24.feast", NULL, &mesh));
  CHECK_OK(feast_domain_create(mesh, L, MPI_COMM_WORLD, &dom));
  unsigned char parts[16];
  CHECK_OK(feast_mask_parse_parts(mesh, "wall cylinder inflow", "test", parts));
  CHECK_OK(feast_mask_create(dom, parts, &mask));
  CHECK_OK(scarc_create(dom, mask, p, &s));
  FeastBand9 *raw = laplace(dom, L);
  CHECK_OK(scarc_set_operator(s, raw));
  for (int li = 0; li < dom->nlocal; li++) feast_band9_destroy(&raw[li]);
  free(raw);
  if (!s) return 1;
  const FeastBand9 *A = NULL;
  CHECK_OK(scarc_matrices(s, &A));
  const FeastLevel *lev = &dom->levels[L];
  const int N = lev->N;
  long compared = 0, wrong = 0;
  for (int root = 0; root < dom->size; root++) {
    FeastTriplets t;
    CHECK_OK(feast_gather_matrix(dom, L, A, 0, root, &t));
    if (dom->rank != root) continue;
    for (int li = 0; li < dom->nlocal; li++) {
      const FeastBand9 *Ac = scarc_local_matrix(s, L, li);
      for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++) {
          int64_t r = feast_mesh_node_gid(mesh, L, dom->local[li], i, j);
          for (int k = 0; k < 9; k++) {
            int ci = i + k % 3 - 1, cj = j + k / 3 - 1;
            if (ci < 0 || cj < 0 || ci >= N || cj >= N) continue;
            double want = global_entry(&t, r, feast_mesh_node_gid(mesh, L, dom->local[li], ci, cj));
            double got = Ac->band[k][j * N + i];
            compared++;
            wrong += fabs(got - want) > 1e-12 * (1 + fabs(want));
          }
        }
    }
    feast_triplets_free(&t);
  }
  CHECK(compared > 0);
  CHECK(wrong == 0);
  if (wrong) fprintf(stderr, "%ld of %ld local matrix entries differ from the global matrix\n", wrong, compared);
  scarc_destroy(&s);
  feast_mask_destroy(&mask);
  feast_domain_destroy(&dom);
  feast_mesh_destroy(&mesh);
  return 0;
}

FEAST_TEST_MAIN(run)

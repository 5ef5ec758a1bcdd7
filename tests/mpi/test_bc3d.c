/* Dirichlet values on meshes of hexahedral macros (feast/fem/bc.c in 3D) on the 2 x 2 x 2
 * cube and the distorted 3 x 2 x 2 box (both on [0,1]^3, parts x0 x1 y0 y1 z0 z1), and the
 * annulus with cylinder parts:
 *  - every fixed node of the finest level gets the value of the right part: the parts it
 *    lies on found here from its coordinates, the highest priority (the first in part
 *    order among equals), its expression evaluated directly at the node (bitwise); the
 *    lid's edges take the walls' value where the walls rank higher and the lid's where it
 *    ranks higher; a natural part's face stays free;
 *  - a node not fixed is not touched (bitwise the value put there before);
 *  - every copy of a node shared by macros (and ranks) is bitwise the same: the smallest
 *    and largest value per global id (MPI_MIN / MPI_MAX) equal each copy;
 *  - equal priorities: agreeing values are accepted (also on the annulus, where the
 *    inner cylinder's x^2 + y^2 - 0.25 vanishes on the curved edges it shares with
 *    bottom and top, but not at the chords' midpoints); differing ones are
 *    FEAST_ERR_CONFIG naming both keys and the point, at a mesh vertex or, where the
 *    values agree at the vertices only, at the midpoint of the mesh edge;
 *  - feast_bc_create from a config file gives bitwise the values of
 *    feast_bc_create_from_parts, and its conflict message names the file:line. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include "feast/base/error.h"
#include "feast/config/expr.h"
#include "feast/fem/bc.h"
#include "feast/la/mask.h"
#include "feast/parallel/domain.h"
#include "feast_test.h"
#include <float.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { LEVEL = 3, NBOX = 6 };
static const double SENTINEL = -12345.678;

/* the values and priorities of the box's parts x0 x1 y0 y1 z0 z1 (NULL: natural) */
typedef struct {
  const char *name; /* for the report */
  const char *value[NBOX];
  int priority[NBOX];
} BoxCase;

/* parts[q] of the mesh from a case given in the box's part order */
static FeastBCPart *box_parts(const FeastMesh *mesh, const BoxCase *c) {
  static const char *const names[NBOX] = {"x0", "x1", "y0", "y1", "z0", "z1"};
  FeastBCPart *parts = calloc((size_t)mesh->nparts + 1, sizeof *parts);
  for (int b = 0; b < NBOX; b++) {
    const int q = feast_mesh_part_index(mesh, names[b]);
    CHECK(q >= 0);
    if (q >= 0) parts[q] = (FeastBCPart){c->value[b], c->priority[b], NULL};
  }
  return parts;
}

/* the box part (0..5) whose value the point x takes in case c, -1 if on no Dirichlet part:
 * of the planes x = 0, 1, y = 0, 1, z = 0, 1 it lies on, the highest priority, the first
 * among equals */
static int expected_part(const BoxCase *c, const double *x) {
  int best = -1;
  for (int b = 0; b < NBOX; b++) {
    const double plane = b % 2 ? 1.0 : 0.0;
    if (!c->value[b] || fabs(x[b / 2] - plane) > 1e-14) continue;
    if (best < 0 || c->priority[b] > c->priority[best]) best = b;
  }
  return best;
}

/* v[li] <- SENTINEL everywhere, then the values of bc on the mask of its parts */
static double **bc_values(const FeastDomain *dom, FeastBC *bc, FeastMask **mask) {
  const FeastLevel *lev = &dom->levels[dom->finest];
  double **v = calloc((size_t)dom->nlocal + 1, sizeof *v);
  for (int li = 0; li < dom->nlocal; li++) {
    v[li] = malloc(sizeof(double) * (size_t)lev->nodes_per_macro);
    for (long r = 0; r < lev->nodes_per_macro; r++) v[li][r] = SENTINEL;
  }
  CHECK_OK(feast_mask_create(dom, feast_bc_parts(bc), mask));
  if (*mask) CHECK_OK(feast_bc_values(bc, dom, *mask, v));
  return v;
}

static void free_values(const FeastDomain *dom, double **v) {
  for (int li = 0; li < dom->nlocal; li++) free(v[li]);
  free(v);
}

/* every fixed copy of a global node equals the smallest and the largest copy, bitwise;
 * returns the number of fixed nodes with copies on more than one rank (*shared: in more
 * than one macro) */
static long check_copies(const FeastDomain *dom, const FeastMask *mask, double *const *v, long *shared) {
  const FeastLevel *lev = &dom->levels[dom->finest];
  const long ng = (long)lev->nglobal;
  double *lo = malloc(sizeof(double) * ng), *hi = malloc(sizeof(double) * ng);
  double *copies = calloc((size_t)ng, sizeof(double)), *ranks = calloc((size_t)ng, sizeof(double));
  for (long g = 0; g < ng; g++) lo[g] = DBL_MAX, hi[g] = -DBL_MAX;
  for (int li = 0; li < dom->nlocal; li++)
    for (long r = 0; r < lev->nodes_per_macro; r++) {
      if (!mask->fixed[dom->finest][li][r]) continue;
      const int64_t g = feast_mesh_gid(dom->mesh, dom->finest, dom->local[li], r);
      lo[g] = fmin(lo[g], v[li][r]), hi[g] = fmax(hi[g], v[li][r]), copies[g] += 1.0;
    }
  MPI_Allreduce(MPI_IN_PLACE, lo, (int)ng, MPI_DOUBLE, MPI_MIN, dom->comm);
  MPI_Allreduce(MPI_IN_PLACE, hi, (int)ng, MPI_DOUBLE, MPI_MAX, dom->comm);
  for (long g = 0; g < ng; g++) ranks[g] = copies[g] > 0.0;
  MPI_Allreduce(MPI_IN_PLACE, copies, (int)ng, MPI_DOUBLE, MPI_SUM, dom->comm);
  MPI_Allreduce(MPI_IN_PLACE, ranks, (int)ng, MPI_DOUBLE, MPI_SUM, dom->comm);
  long bad = 0, across = 0;
  *shared = 0;
  for (int li = 0; li < dom->nlocal; li++)
    for (long r = 0; r < lev->nodes_per_macro; r++) {
      if (!mask->fixed[dom->finest][li][r]) continue;
      const int64_t g = feast_mesh_gid(dom->mesh, dom->finest, dom->local[li], r);
      bad += memcmp(&lo[g], &v[li][r], sizeof(double)) != 0 || memcmp(&hi[g], &v[li][r], sizeof(double)) != 0;
    }
  for (long g = 0; g < ng; g++) *shared += copies[g] > 1.0, across += ranks[g] > 1.0;
  CHECK(bad == 0);
  free(lo), free(hi), free(copies), free(ranks);
  return across;
}

/* counts of the nodes checked, summed over the ranks */
typedef struct {
  long fixed, free_, lid_edge_walls, lid_edge_lid;
} Counts;

/* case c on the box domain: every node against expected_part; returns the counts */
static Counts check_box_case(const FeastDomain *dom, const BoxCase *c) {
  const FeastMesh *mesh = dom->mesh;
  const FeastLevel *lev = &dom->levels[dom->finest];
  Counts n = {0, 0, 0, 0};
  FeastBCPart *parts = box_parts(mesh, c);
  FeastBC *bc = NULL;
  FeastMask *mask = NULL;
  FeastExpr *direct[NBOX] = {NULL};
  CHECK_OK(feast_bc_create_from_parts(mesh, "u", parts, &bc));
  for (int b = 0; b < NBOX; b++)
    if (c->value[b]) CHECK_OK(feast_expr_create(c->value[b], "direct", &direct[b]));
  if (!bc) return n;
  double **v = bc_values(dom, bc, &mask);
  long bad_fixed = 0, bad_value = 0, bad_free = 0;
  for (int li = 0; li < dom->nlocal && mask; li++)
    for (long r = 0; r < lev->nodes_per_macro; r++) {
      const double *x = lev->xy[li] + 3 * r;
      const int b = expected_part(c, x);
      const int fixed = mask->fixed[dom->finest][li][r];
      bad_fixed += fixed != (b >= 0);
      if (!fixed) {
        bad_free += memcmp(&v[li][r], &SENTINEL, sizeof(double)) != 0;
        n.free_++;
        continue;
      }
      double want = NAN;
      if (b >= 0 && direct[b]) CHECK_OK(feast_expr_eval3(direct[b], x[0], x[1], x[2], &want));
      bad_value += memcmp(&want, &v[li][r], sizeof(double)) != 0;
      n.fixed++;
      /* on an edge of the lid y1 (y = 1 and x or z at 0 or 1) */
      const int lid_edge = fabs(x[1] - 1) < 1e-14 && (fmin(x[0], 1 - x[0]) < 1e-14 || fmin(x[2], 1 - x[2]) < 1e-14);
      if (lid_edge && b == 3) n.lid_edge_lid++;
      else if (lid_edge) n.lid_edge_walls++;
    }
  CHECK(bad_fixed == 0 && bad_value == 0 && bad_free == 0);
  if (bad_fixed || bad_value || bad_free)
    fprintf(stderr, "  %s: %ld fixed wrongly, %ld values wrong, %ld free nodes touched\n", mesh->source, bad_fixed,
            bad_value, bad_free);
  long shared = 0; /* global already */
  const long across = mask ? check_copies(dom, mask, v, &shared) : 0;
  long cnt[4] = {n.fixed, n.free_, n.lid_edge_walls, n.lid_edge_lid};
  MPI_Allreduce(MPI_IN_PLACE, cnt, 4, MPI_LONG, MPI_SUM, dom->comm);
  n = (Counts){cnt[0], cnt[1], cnt[2], cnt[3]};
  CHECK(shared > 0 && (across > 0 || feast_test_size() == 1));
  if (feast_test_rank() == 0)
    printf("test_bc3d: %s L%d %s: %ld fixed and %ld free node copies right, %ld lid-edge "
           "copies with the walls' value, %ld with the lid's; %ld shared nodes (%ld across ranks) bitwise alike\n",
           mesh->source, LEVEL, c->name, n.fixed, n.free_, n.lid_edge_walls, n.lid_edge_lid,
           shared, across);
  free_values(dom, v);
  feast_mask_destroy(&mask);
  feast_bc_destroy(&bc);
  for (int b = 0; b < NBOX; b++) feast_expr_destroy(&direct[b]);
  free(parts);
  return n;
}

/* the cases on a box mesh */
static void check_box(const FeastDomain *dom) {
  /* the brief's lid: the walls (priority 1) set the lid's edges */
  const BoxCase lid = {"lid", {"0", "0", "0", "16*x*(1-x)*z*(1-z)", "0", "0"}, {1, 1, 1, 0, 1, 1}};
  Counts n = check_box_case(dom, &lid);
  CHECK(n.lid_edge_walls > 0 && n.lid_edge_lid == 0);
  /* a lid that does not vanish on its edges and walls varying in x, y, z; x1 natural: the
   * lid's edge on x = 1 takes the lid's value, its face is free */
  const BoxCase walls = {"walls varying, x1 natural", {"sin(x+2*y+3*z)", NULL, "sin(x+2*y+3*z)", "1 + x + 2*z", "sin(x+2*y+3*z)", "sin(x+2*y+3*z)"},
                         {1, 0, 1, 0, 1, 1}};
  n = check_box_case(dom, &walls);
  CHECK(n.lid_edge_walls > 0 && n.lid_edge_lid > 0 && n.free_ > 0);
  /* the lid ranks higher: its edges take its value */
  const BoxCase high = {"lid ranked higher", {"x*y + z", "x*y + z", "x*y + z", "2 - z", "x*y + z", "x*y + z"}, {1, 1, 1, 2, 1, 1}};
  n = check_box_case(dom, &high);
  CHECK(n.lid_edge_walls == 0 && n.lid_edge_lid > 0);
  /* equal priority, values agreeing where the parts meet (x0 and y0 along x = y = 0) */
  const BoxCase agree = {"x0, y0 agreeing", {"x*y", NULL, "0", NULL, NULL, NULL}, {0, 0, 0, 0, 0, 0}};
  check_box_case(dom, &agree);
}

/* create must fail with FEAST_ERR_CONFIG and a message holding every needle */
static void expect_conflict(const FeastMesh *mesh, const BoxCase *c, const char *const needles[]) {
  FeastBCPart *parts = box_parts(mesh, c);
  FeastBC *bc = NULL;
  const int st = feast_bc_create_from_parts(mesh, "u", parts, &bc);
  CHECK(st == FEAST_ERR_CONFIG);
  const char *m = feast_error_message();
  for (int i = 0; needles[i]; i++)
    if (!strstr(m, needles[i])) {
      CHECK(strstr(m, needles[i]) != NULL);
      fprintf(stderr, "  message lacks \"%s\": %s\n", needles[i], m);
    }
  if (st == FEAST_ERR_CONFIG && feast_test_rank() == 0) printf("test_bc3d: refused: %s\n", m);
  feast_error_clear();
  feast_bc_destroy(&bc);
  free(parts);
}
#define EXPECT_CONFLICT(mesh, c, ...) expect_conflict(mesh, c, (const char *const[]){__VA_ARGS__, NULL})

static void check_conflicts(const FeastMesh *mesh) {
  /* at the mesh vertex (0, 0, 0) first */
  const BoxCase vertex = {"vertex conflict", {"1", NULL, "2", NULL, NULL, NULL}, {0, 0, 0, 0, 0, 0}};
  EXPECT_CONFLICT(mesh, &vertex, "boundary.x0.u = '1' (given) and boundary.y0.u = '2' (given) differ at the mesh vertex "
                                 "(0, 0, 0) where the parts meet (1 and 2)");
  /* agreeing at the vertices z = 0, 0.5, 1 of the edge x = y = 0, not at its midpoints */
  const BoxCase edge = {"edge conflict", {"0", NULL, "z*(z-0.5)*(z-1)", NULL, NULL, NULL}, {0, 0, 0, 0, 0, 0}};
  EXPECT_CONFLICT(mesh, &edge, "boundary.x0.u = '0'", "boundary.y0.u = 'z*(z-0.5)*(z-1)'",
                  "at the midpoint (0, 0, 0.25) of the mesh edge");
  /* the same ranked: y0 sets the edge */
  const BoxCase ranked = {"edge ranked", {"0", NULL, "z*(z-0.5)*(z-1)", NULL, NULL, NULL}, {0, 0, 1, 0, 0, 0}};
  FeastBCPart *parts = box_parts(mesh, &ranked);
  FeastBC *bc = NULL;
  CHECK_OK(feast_bc_create_from_parts(mesh, "u", parts, &bc));
  feast_bc_destroy(&bc);
  free(parts);
}

/* the annulus: inner x^2 + y^2 - 0.25 and bottom, top 0 at equal priority agree on the
 * curved edges (at the refined midpoints; the chords' midpoints have -0.037); a value off
 * by 0.01 on inner is refused */
static void check_annulus(void) {
  FeastMesh *mesh = NULL;
  CHECK_OK(feast_mesh_read("tests/data/mesh/good_annulus3d.feast", NULL, &mesh));
  if (!mesh) return;
  FeastBCPart *parts = calloc((size_t)mesh->nparts + 1, sizeof *parts);
  parts[feast_mesh_part_index(mesh, "inner")].value = "x^2 + y^2 - 0.25";
  parts[feast_mesh_part_index(mesh, "bottom")].value = "0";
  parts[feast_mesh_part_index(mesh, "top")].value = "0";
  FeastBC *bc = NULL;
  CHECK_OK(feast_bc_create_from_parts(mesh, "w", parts, &bc));
  FeastDomain *dom = NULL;
  CHECK_OK(feast_domain_create(mesh, LEVEL, MPI_COMM_WORLD, &dom));
  if (bc && dom) {
    FeastMask *mask = NULL;
    double **v = bc_values(dom, bc, &mask);
    double mx = 0.0;
    for (int li = 0; li < dom->nlocal && mask; li++)
      for (long r = 0; r < dom->levels[LEVEL].nodes_per_macro; r++)
        if (mask->fixed[LEVEL][li][r]) mx = fmax(mx, fabs(v[li][r]));
    MPI_Allreduce(MPI_IN_PLACE, &mx, 1, MPI_DOUBLE, MPI_MAX, dom->comm);
    CHECK(mx < 1e-14);
    long shared = 0;
    if (mask) check_copies(dom, mask, v, &shared);
    free_values(dom, v);
    feast_mask_destroy(&mask);
  }
  feast_bc_destroy(&bc);
  feast_domain_destroy(&dom);
  parts[feast_mesh_part_index(mesh, "inner")].value = "x^2 + y^2 - 0.24";
  CHECK(feast_bc_create_from_parts(mesh, "w", parts, &bc) == FEAST_ERR_CONFIG);
  CHECK(strstr(feast_error_message(), "boundary.inner.w") && strstr(feast_error_message(), "boundary.bottom.w"));
  feast_error_clear();
  feast_bc_destroy(&bc);
  free(parts);
  feast_mesh_destroy(&mesh);
}

/* feast_bc_create from a config: the lid case bitwise as from parts; a conflict names
 * file:line and key */
static const FeastKeySpec field_keys[] = {
    {"boundary.*", "u", FEAST_KEY_STRING, NULL, 0, 0, NULL, "test: Dirichlet value of u", 0, {0, 0, FEAST_FIELD_NONE}}};
static const FeastKeyTable field_table = {"test_bc3d", field_keys, 1, NULL, 0};

static FeastConfig *config_from(const char *dir, const char *body) {
  char path[256];
  snprintf(path, sizeof path, "%s/bc3d%d.ini", dir, feast_test_rank());
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  if (!f) return NULL;
  fputs(body, f);
  fclose(f);
  FeastConfig *cfg = NULL;
  CHECK_OK(feast_config_create(&cfg));
  CHECK_OK(feast_config_add_keys(cfg, &field_table));
  CHECK_OK(feast_config_read(cfg, path));
  remove(path);
  return cfg;
}

static void check_config(const FeastDomain *dom) {
  char dir[] = "/tmp/feast_bc3d_XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  FeastConfig *cfg = config_from(dir, "[boundary.y1]\nu = 16*x*(1-x)*z*(1-z)\n"
                                      "[boundary.x0]\nu = 0\npriority = 1\n[boundary.x1]\nu = 0\npriority = 1\n"
                                      "[boundary.y0]\nu = 0\npriority = 1\n[boundary.z0]\nu = 0\npriority = 1\n"
                                      "[boundary.z1]\nu = 0\npriority = 1\n");
  const BoxCase lid = {"lid", {"0", "0", "0", "16*x*(1-x)*z*(1-z)", "0", "0"}, {1, 1, 1, 0, 1, 1}};
  FeastBCPart *parts = box_parts(dom->mesh, &lid);
  FeastBC *a = NULL, *b = NULL;
  FeastMask *ma = NULL, *mb = NULL;
  if (cfg) CHECK_OK(feast_bc_check_sections(cfg, dom->mesh));
  if (cfg) CHECK_OK(feast_bc_create(cfg, dom->mesh, "u", &a));
  CHECK_OK(feast_bc_create_from_parts(dom->mesh, "u", parts, &b));
  if (a && b) {
    double **va = bc_values(dom, a, &ma), **vb = bc_values(dom, b, &mb);
    int same = 1;
    for (int li = 0; li < dom->nlocal; li++)
      same &= memcmp(va[li], vb[li], sizeof(double) * (size_t)dom->levels[LEVEL].nodes_per_macro) == 0;
    CHECK(same);
    free_values(dom, va), free_values(dom, vb);
  }
  feast_mask_destroy(&ma), feast_mask_destroy(&mb);
  feast_bc_destroy(&a), feast_bc_destroy(&b);
  feast_config_destroy(&cfg);
  free(parts);
  cfg = config_from(dir, "[boundary.x0]\nu = 1\n[boundary.y0]\nu = 2\n");
  if (cfg) {
    CHECK(feast_bc_create(cfg, dom->mesh, "u", &a) == FEAST_ERR_CONFIG);
    const char *m = feast_error_message();
    CHECK(strstr(m, "boundary.x0.u = '1' (") && strstr(m, "bc3d") && strstr(m, ":2)") &&
          strstr(m, "boundary.y0.u = '2'") && strstr(m, "(0, 0, 0)"));
    if (!strstr(m, ":2)")) fprintf(stderr, "  config conflict message: %s\n", m);
    feast_error_clear();
    feast_bc_destroy(&a);
  }
  feast_config_destroy(&cfg);
  rmdir(dir);
}

static void check_mesh(const char *path, int config) {
  FeastMesh *mesh = NULL;
  FeastDomain *dom = NULL;
  CHECK_OK(feast_mesh_read(path, NULL, &mesh));
  if (mesh) CHECK_OK(feast_domain_create(mesh, LEVEL, MPI_COMM_WORLD, &dom));
  if (dom) {
    check_box(dom);
    check_conflicts(mesh);
    if (config) check_config(dom);
  }
  feast_domain_destroy(&dom);
  feast_mesh_destroy(&mesh);
}

static int run(void) {
  check_mesh("grids/cube2x2x2.feast", 1);
  check_mesh("grids/box3x2x2_distorted.feast", 0);
  check_annulus();
  return 0;
}

FEAST_TEST_MAIN(run)

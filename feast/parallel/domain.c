#include "feast/parallel/domain.h"
#include "feast/mesh/macro_grid.h"
#include "feast/base/commstat.h"
#include "feast/base/error.h"
#include "feast/base/log.h"
#include "feast/mesh/hex.h"
#include "feast/mesh/partition.h"
#include <stdlib.h>
#include <string.h>

static int local_edge_of(const FeastMesh *mesh, int m, int e) {
  const int edges = feast_mesh_cell(mesh)->edges;
  for (int le = 0; le < edges; le++)
    if (mesh->macro_edges[edges * m + le] == e) return le;
  return -1;
}

/* position along local edge le of macro m of the canonical parameter q of edge e */
static int edge_param(const FeastMesh *mesh, int m, int le, int e, int q, int N) {
  const FeastMacroCell *cell = feast_mesh_cell(mesh);
  int aligned = mesh->quads[cell->corners * m + cell->edge[le][0]] == mesh->edge_vertices[2 * e];
  return aligned ? q : N - 1 - q;
}

/* the node of corner c of a macro of N nodes per side */
static long corner_node(const FeastMesh *mesh, int c, int N) {
  return mesh->dim == 3 ? feast_hex_corner_node(c, N) : feast_corner_node(c, N);
}

/* 3D: 1 if edge e has several macros, one of them on this rank */
static int shared_edge_here(const FeastDomain *dom, int e) {
  const FeastMesh *mesh = dom->mesh;
  const int p0 = mesh->edge_macro_ptr[e], p1 = mesh->edge_macro_ptr[e + 1];
  int here = 0;
  for (int p = p0; p < p1; p++) here |= dom->owner[mesh->edge_macro_ids[p]] == dom->rank;
  return p1 - p0 >= 2 && here;
}

/* 3D: the lattice point of macro m at canonical position q (from the smaller vertex id) of edge e */
static void edge_point3(const FeastMesh *mesh, int m, int e, int q, int N, long p[3]) {
  const int le = local_edge_of(mesh, m, e);
  feast_hex_lattice_point(N, feast_macro_hex.edge[le][0], feast_macro_hex.edge[le][1], feast_macro_hex.edge[le][0],
                          edge_param(mesh, m, le, e, q, N), 0, p);
}

/* 3D: 1 if face f is shared and one of its two macros is on this rank; then ms = its
 * macros ascending and c[s] the local corners of ms[s] in the face's canonical cycle */
static int shared_face_here(const FeastDomain *dom, int f, int ms[2], int c[2][4]) {
  const FeastMesh *mesh = dom->mesh;
  const int m0 = mesh->face_macros[2 * f], m1 = mesh->face_macros[2 * f + 1];
  if (m1 < 0 || (dom->owner[m0] != dom->rank && dom->owner[m1] != dom->rank)) return 0;
  ms[0] = m0 < m1 ? m0 : m1, ms[1] = m0 < m1 ? m1 : m0;
  for (int s = 0; s < 2; s++) {
    int lf = 0;
    while (mesh->macro_faces[6 * ms[s] + lf] != f) lf++;
    feast_hex_face_local_corners(mesh, ms[s], lf, c[s]);
  }
  return 1;
}

/* 3D: the interior nodes of edges held by several macros (any number), canonical
 * position q = 1..N-2 */
static int add_edge_items3(const FeastDomain *dom, int N, FeastExchangeBuilder *b) {
  const FeastMesh *mesh = dom->mesh;
  for (int e = 0; e < mesh->nedges; e++) {
    if (!shared_edge_here(dom, e)) continue;
    for (int q = 1; q < N - 1; q++) {
      FEAST_CALL(feast_exchange_builder_item(b));
      for (int p = mesh->edge_macro_ptr[e]; p < mesh->edge_macro_ptr[e + 1]; p++) {
        const int m = mesh->edge_macro_ids[p];
        long a[3];
        edge_point3(mesh, m, e, q, N, a);
        FEAST_CALL(feast_exchange_builder_slot(b, m, dom->local_of[m], feast_hex_node(a, N)));
      }
    }
  }
  return 0;
}

/* 3D: the interior nodes of faces shared by two macros, in the face's canonical (s, t) */
static int add_face_items3(const FeastDomain *dom, int N, FeastExchangeBuilder *b) {
  int ms[2], c[2][4];
  for (int f = 0; f < dom->mesh->nfaces; f++) {
    if (!shared_face_here(dom, f, ms, c)) continue;
    for (int t = 1; t < N - 1; t++)
      for (int q = 1; q < N - 1; q++) {
        FEAST_CALL(feast_exchange_builder_item(b));
        for (int s = 0; s < 2; s++)
          FEAST_CALL(feast_exchange_builder_slot(b, ms[s], dom->local_of[ms[s]],
                                                 feast_hex_lattice_node(N, c[s][0], c[s][1], c[s][3], q, t)));
      }
  }
  return 0;
}

/* shared nodes: coarse vertices held by several macros, then interior edge nodes (in 3D
 * then interior face nodes) */
static int build_node_exchange(const FeastDomain *dom, FeastLevel *lev) {
  const FeastMesh *mesh = dom->mesh;
  const int N = lev->N;
  FeastExchangeBuilder *b;
  FEAST_CALL(feast_exchange_builder_create(mesh->nmacros, dom->owner, dom->rank, &b));
  for (int v = 0; v < mesh->nvertices; v++) {
    int p0 = mesh->vertex_macro_ptr[v], p1 = mesh->vertex_macro_ptr[v + 1], here = 0;
    for (int p = p0; p < p1; p++) here |= dom->owner[mesh->vertex_macros[p]] == dom->rank;
    if (p1 - p0 < 2 || !here) continue;
    FEAST_CALL(feast_exchange_builder_item(b));
    for (int p = p0; p < p1; p++) {
      const int corners = feast_mesh_cell(mesh)->corners;
      int m = mesh->vertex_macros[p], c = 0;
      while (c < corners && mesh->quads[corners * m + c] != v) c++;
      FEAST_CALL(feast_exchange_builder_slot(b, m, dom->local_of[m], corner_node(mesh, c, N)));
    }
  }
  if (mesh->dim == 3) {
    FEAST_CALL(add_edge_items3(dom, N, b));
    FEAST_CALL(add_face_items3(dom, N, b));
    return feast_exchange_create(&b, dom->comm, &lev->nodes);
  }
  for (int e = 0; e < mesh->nedges; e++) {
    int m0 = mesh->edge_macros[2 * e], m1 = mesh->edge_macros[2 * e + 1];
    if (m1 < 0 || (dom->owner[m0] != dom->rank && dom->owner[m1] != dom->rank)) continue;
    int ms[2] = {m0 < m1 ? m0 : m1, m0 < m1 ? m1 : m0};
    for (int q = 1; q < N - 1; q++) {
      FEAST_CALL(feast_exchange_builder_item(b));
      for (int s = 0; s < 2; s++) {
        int m = ms[s], le = local_edge_of(mesh, m, e);
        long node = feast_edge_node(le, edge_param(mesh, m, le, e, q, N), N);
        FEAST_CALL(feast_exchange_builder_slot(b, m, dom->local_of[m], node));
      }
    }
  }
  return feast_exchange_create(&b, dom->comm, &lev->nodes);
}

/* couplings between consecutive nodes q, q+1 of a shared edge, both directions */
static int build_link_exchange(const FeastDomain *dom, FeastLevel *lev) {
  const FeastMesh *mesh = dom->mesh;
  const int N = lev->N;
  FeastExchangeBuilder *b;
  FEAST_CALL(feast_exchange_builder_create(mesh->nmacros, dom->owner, dom->rank, &b));
  for (int e = 0; e < mesh->nedges; e++) {
    int m0 = mesh->edge_macros[2 * e], m1 = mesh->edge_macros[2 * e + 1];
    if (m1 < 0 || (dom->owner[m0] != dom->rank && dom->owner[m1] != dom->rank)) continue;
    int ms[2] = {m0 < m1 ? m0 : m1, m0 < m1 ? m1 : m0};
    for (int q = 0; q < N - 1; q++)
      for (int dir = 0; dir < 2; dir++) {
        FEAST_CALL(feast_exchange_builder_item(b));
        for (int s = 0; s < 2; s++) {
          int m = ms[s], le = local_edge_of(mesh, m, e);
          long a = feast_edge_node(le, edge_param(mesh, m, le, e, q + dir, N), N);
          long c = feast_edge_node(le, edge_param(mesh, m, le, e, q + 1 - dir, N), N);
          int dx = (int)(c % N - a % N), dy = (int)(c / N - a / N);
          int li = dom->local_of[m];
          FEAST_CALL(feast_exchange_builder_slot(b, m, li < 0 ? -1 : li * FEAST_NBANDS + feast_band_index(dx, dy), a));
        }
      }
  }
  return feast_exchange_create(&b, dom->comm, &lev->links);
}

/* the 27-band slot of the coupling from lattice node p to lattice node q (neighbours) of
 * local macro li (-1 for a remote macro) */
static int link_slot3(int li, const long p[3], const long q[3]) {
  if (li < 0) return -1;
  return li * FEAST_STENCIL_BANDS(3) + feast_stencil_band(&feast_stencil_q1_3d, (int)(q[0] - p[0]), (int)(q[1] - p[1]),
                                                          (int)(q[2] - p[2]));
}

/* 3D couplings along shared edges: consecutive nodes q, q + 1 (endpoints included), both
 * directions, held by every macro of the edge */
static int add_edge_links3(const FeastDomain *dom, int N, FeastExchangeBuilder *b) {
  const FeastMesh *mesh = dom->mesh;
  for (int e = 0; e < mesh->nedges; e++) {
    if (!shared_edge_here(dom, e)) continue;
    for (int q = 0; q < N - 1; q++)
      for (int dir = 0; dir < 2; dir++) {
        FEAST_CALL(feast_exchange_builder_item(b));
        for (int p = mesh->edge_macro_ptr[e]; p < mesh->edge_macro_ptr[e + 1]; p++) {
          const int m = mesh->edge_macro_ids[p];
          long a[3], c[3];
          edge_point3(mesh, m, e, q + dir, N, a);
          edge_point3(mesh, m, e, q + 1 - dir, N, c);
          FEAST_CALL(feast_exchange_builder_slot(b, m, link_slot3(dom->local_of[m], a, c), feast_hex_node(a, N)));
        }
      }
  }
  return 0;
}

/* 1 if face positions a and c lie on one edge of the face (that coupling is an edge's) */
static int on_one_face_edge(int N, int as, int at, int cs, int ct) {
  return (as == 0 && cs == 0) || (as == N - 1 && cs == N - 1) || (at == 0 && ct == 0) || (at == N - 1 && ct == N - 1);
}

/* 3D couplings within shared faces, between any two neighbouring nodes of the face's
 * closure that are not both on one of its edges, in the canonical (s, t): held by the
 * face's two macros only */
static int add_face_links3(const FeastDomain *dom, int N, FeastExchangeBuilder *b) {
  int ms[2], c[2][4];
  for (int f = 0; f < dom->mesh->nfaces; f++) {
    if (!shared_face_here(dom, f, ms, c)) continue;
    for (int t = 0; t < N; t++)
      for (int q = 0; q < N; q++)
        for (int dt = -1; dt <= 1; dt++)
          for (int dq = -1; dq <= 1; dq++) {
            const int q2 = q + dq, t2 = t + dt;
            if ((!dq && !dt) || q2 < 0 || q2 >= N || t2 < 0 || t2 >= N || on_one_face_edge(N, q, t, q2, t2)) continue;
            FEAST_CALL(feast_exchange_builder_item(b));
            for (int s = 0; s < 2; s++) {
              long a[3], e[3];
              feast_hex_lattice_point(N, c[s][0], c[s][1], c[s][3], q, t, a);
              feast_hex_lattice_point(N, c[s][0], c[s][1], c[s][3], q2, t2, e);
              FEAST_CALL(
                  feast_exchange_builder_slot(b, ms[s], link_slot3(dom->local_of[ms[s]], a, e), feast_hex_node(a, N)));
            }
          }
  }
  return 0;
}

/* 3D: the matrix couplings between nodes that several macros hold, edges first, then faces */
static int build_link_exchange3(const FeastDomain *dom, FeastLevel *lev) {
  FeastExchangeBuilder *b;
  FEAST_CALL(feast_exchange_builder_create(dom->mesh->nmacros, dom->owner, dom->rank, &b));
  FEAST_CALL(add_edge_links3(dom, lev->N, b));
  FEAST_CALL(add_face_links3(dom, lev->N, b));
  return feast_exchange_create(&b, dom->comm, &lev->links);
}

typedef struct {
  FeastLevel *lev;
  const FeastDomain *dom;
} SharedCtx;

static void mark_shared(void *ctx, int array, long index, int holders, int owner_macro) {
  SharedCtx *c = ctx;
  c->lev->weight[array][index] = 1.0 / holders;
  c->lev->owned[array][index] = c->dom->local[array] == owner_macro;
}

static int build_level(FeastDomain *dom, int l) {
  FeastLevel *lev = &dom->levels[l];
  const int N = feast_level_n(l), dim = dom->mesh->dim == 3 ? 3 : 2;
  const size_t n = dim == 3 ? (size_t)N * N * N : (size_t)N * N;
  lev->level = l;
  lev->N = N;
  lev->nodes_per_macro = (long)n;
  FEAST_CALL(feast_mesh_count_nodes(dom->mesh, l, &lev->nglobal));
  FEAST_CALL(FEAST_ALLOC(dom->nlocal, &lev->xy));
  FEAST_CALL(FEAST_ALLOC(dom->nlocal, &lev->owned));
  FEAST_CALL(FEAST_ALLOC(dom->nlocal, &lev->weight));
  for (int li = 0; li < dom->nlocal; li++) {
    FEAST_CALL(FEAST_ALLOC(dim * n, &lev->xy[li]));
    FEAST_CALL(feast_mesh_macro_coords(dom->mesh, dom->local[li], l, lev->xy[li]));
    FEAST_CALL(FEAST_ALLOC(n, &lev->owned[li]));
    FEAST_CALL(FEAST_ALLOC(n, &lev->weight[li]));
    memset(lev->owned[li], 1, n);
    for (size_t i = 0; i < n; i++) lev->weight[li][i] = 1.0;
  }
  FEAST_CALL(build_node_exchange(dom, lev));
  FEAST_CALL(dim == 3 ? build_link_exchange3(dom, lev) : build_link_exchange(dom, lev));
  SharedCtx ctx = {lev, dom};
  feast_exchange_foreach_local(lev->nodes, mark_shared, &ctx);
  return 0;
}

int feast_domain_create(const FeastMesh *mesh, int finest, MPI_Comm comm, FeastDomain **domp) {
  FeastDomain *dom;
  FEAST_CALL(FEAST_ALLOC(1, &dom));
  *domp = dom;
  dom->mesh = mesh;
  dom->comm = comm;
  dom->finest = finest;
  MPI_Comm_rank(comm, &dom->rank);
  MPI_Comm_size(comm, &dom->size);
  FEAST_CALL(FEAST_ALLOC(mesh->nmacros, &dom->owner));
  FEAST_CALL(FEAST_ALLOC(mesh->nmacros, &dom->local_of));
  FEAST_CALL(feast_partition_macros(mesh, dom->size, dom->owner));
  FEAST_CALL(feast_partition_local(dom->owner, mesh->nmacros, dom->rank, &dom->nlocal, &dom->local));
  for (int m = 0; m < mesh->nmacros; m++) dom->local_of[m] = -1;
  for (int li = 0; li < dom->nlocal; li++) dom->local_of[dom->local[li]] = li;
  FEAST_CALL(FEAST_ALLOC(finest + 1, &dom->levels));
  for (int l = 0; l <= finest; l++) FEAST_CALL(build_level(dom, l));
  return 0;
}

static void free_arrays(void ***a, int n) {
  if (!*a) return;
  for (int i = 0; i < n; i++) free((*a)[i]);
  feast_free(a);
}

void feast_domain_destroy(FeastDomain **domp) {
  FeastDomain *dom = *domp;
  if (!dom) return;
  for (int l = 0; dom->levels && l <= dom->finest; l++) {
    FeastLevel *lev = &dom->levels[l];
    free_arrays((void ***)&lev->xy, dom->nlocal);
    free_arrays((void ***)&lev->owned, dom->nlocal);
    free_arrays((void ***)&lev->weight, dom->nlocal);
    feast_exchange_destroy(&lev->nodes);
    feast_exchange_destroy(&lev->links);
  }
  free(dom->levels);
  free(dom->owner);
  free(dom->local);
  free(dom->local_of);
  feast_free(domp);
}

int feast_domain_coarser_view(const FeastDomain *dom, int finest, FeastDomain *view) {
  FEAST_CHECK(dom && view && finest >= 0 && finest <= dom->finest, FEAST_ERR_ARG,
              "feast_domain_coarser_view: level %d of a domain with levels 0..%d", finest, dom ? dom->finest : -1);
  *view = *dom;
  view->finest = finest;
  return 0;
}

int feast_domain_sum(const FeastDomain *dom, int level, double *const *v) {
  return feast_exchange_sum(dom->levels[level].nodes, v);
}

/* table[j*M + m] <- the value of product j on macro m (zero for other ranks' macros):
 * one contributor per entry, so the MPI sum is exact and the macro-order sum after it
 * is the same on any number of ranks */
static int macro_table(const FeastDomain *dom, int k, const double *per_local, double **table) {
  const int M = dom->mesh->nmacros;
  FEAST_CALL(FEAST_ALLOC((size_t)k * M, table));
  for (int j = 0; j < k; j++)
    for (int li = 0; li < dom->nlocal; li++) (*table)[(size_t)j * M + dom->local[li]] = per_local[j * dom->nlocal + li];
  return 0;
}

int feast_domain_sum_macros_begin(const FeastDomain *dom, int k, const double *per_local, int blocking,
                                  FeastMacroSum *r) {
  memset(r, 0, sizeof *r);
  r->dom = dom;
  r->k = k;
  FEAST_CALL(macro_table(dom, k, per_local, &r->table));
  feast_comm_count_reduction();
  feast_timer_start(FEAST_T_COMM);
  feast_timer_start(FEAST_T_REDUCE_WAIT);
  r->t0 = feast_wtime();
  const int n = k * dom->mesh->nmacros;
  int rc = blocking ? MPI_Allreduce(MPI_IN_PLACE, r->table, n, MPI_DOUBLE, MPI_SUM, dom->comm)
                    : MPI_Iallreduce(MPI_IN_PLACE, r->table, n, MPI_DOUBLE, MPI_SUM, dom->comm, &r->req);
  r->pending = !blocking;
  feast_timer_stop(FEAST_T_REDUCE_WAIT);
  feast_timer_stop(FEAST_T_COMM);
  if (rc != MPI_SUCCESS) free(r->table), r->table = NULL;
  FEAST_CHECK(rc == MPI_SUCCESS, FEAST_ERR_MPI, "MPI_%sallreduce failed summing over macros", blocking ? "A" : "Ia");
  return 0;
}

int feast_domain_sum_macros_end(FeastMacroSum *r, double *sums) {
  const int M = r->dom->mesh->nmacros;
  feast_timer_start(FEAST_T_COMM);
  feast_timer_start(FEAST_T_REDUCE_WAIT);
  int rc = r->pending ? MPI_Wait(&r->req, MPI_STATUS_IGNORE) : MPI_SUCCESS;
  feast_comm_wait_latency(r->t0);
  feast_timer_stop(FEAST_T_REDUCE_WAIT);
  feast_timer_stop(FEAST_T_COMM);
  r->pending = 0;
  for (int j = 0; j < r->k; j++) {
    double s = 0.0;
    for (int m = 0; m < M; m++) s += r->table[(size_t)j * M + m];
    sums[j] = s;
  }
  free(r->table);
  r->table = NULL;
  FEAST_CHECK(rc == MPI_SUCCESS, FEAST_ERR_MPI, "MPI_Wait failed on a reduction over macros");
  return 0;
}

int feast_domain_sum_macros(const FeastDomain *dom, int k, const double *per_local, double *sums) {
  FeastMacroSum r;
  FEAST_CALL(feast_domain_sum_macros_begin(dom, k, per_local, 1, &r));
  return feast_domain_sum_macros_end(&r, sums);
}

int feast_status_agree(MPI_Comm comm, int status, const char *what) {
  int mine = status != 0, any = 1;
  if (MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, comm) != MPI_SUCCESS && !status)
    FEAST_ERROR(FEAST_ERR_MPI, "%s: MPI_Allreduce failed", what);
  if (status || !any) return status;
  FEAST_ERROR(FEAST_ERR_FILE, "%s failed on another rank", what);
}

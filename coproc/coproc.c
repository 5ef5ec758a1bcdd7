/* Front end of the local multigrid backends: registry by (target, precision), argument
 * checks, the local hierarchies (Galerkin levels, dense inverses of the coarsest
 * matrices) and the dispatch to the backend's ops. */
#include "coproc/backend.h"
#include "feast/la/dense.h"
#include "feast/base/error.h"
#include "feast/mesh/mesh.h"
#include "feast/fem/transfer.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct FeastLocalSolver {
  const FeastLocalBackend *requested; /* the backend of feast_local_create */
  const FeastLocalBackend *be;        /* the one of the last setup: requested, or its CPU twin */
  void *data;
  int nmacros, level, lc;
  FeastBand9 *whole;      /* nmacros * (level - lc): levels lc..level-1 of every macro that
                             are kept whole (the others' slots unused) */
  const FeastBand9 **inside; /* the same layout: the problems' inside matrices (or NULL) */
  void **gblock;          /* level - lc blocks: level lc + i of all macros in gblock[i], their
                             whole matrices or their frames */
  double *inv;            /* nmacros * n^2: inverses of the coarsest matrices (n nodes) */
  double *lu;             /* n^2 and n: work of the LU factorisation */
  long *piv;
  FeastLocalHierarchy *h; /* what the backend sees */
  int upwind;             /* params->coarse_upwind of the setup */
};

static const FeastLocalBackend *const registry[] = {
    &feast_local_cpu_double, &feast_local_cpu_single,
#ifdef FEAST_HAVE_CUDA
    &feast_local_cuda_single, &feast_local_cuda_double,
#endif
};
#define NREG ((int)(sizeof registry / sizeof registry[0]))

/* auto = single on either target: the local multigrid only preconditions the double outer
 * solver (to local_rtol = 0.1), and on the CPU single streams half the bytes and fills
 * twice the SIMD lanes: the same iteration counts and 4-28 % less time over the cavity,
 * channel, DFG 2D-1/2D-3, Stokes and Poisson (docs/notes/ns-linear-solver.md, 2026-11-27) */
const char *feast_local_resolve_precision(const char *precision) {
  return strcmp(precision, "auto") != 0 ? precision : "single";
}

static const FeastLocalBackend *lookup(const char *target, const char *precision) {
  for (int i = 0; i < NREG; i++)
    if (strcmp(registry[i]->target, target) == 0 && strcmp(registry[i]->precision, precision) == 0)
      return registry[i];
  return NULL;
}

static const char *remedies =
    "either run on a machine with an NVIDIA GPU and a CUDA build (nvcc found at configure time), "
    "or set solver.target = cpu (or solver.gpu_fallback = cpu to fall back with a warning)";

int feast_local_create(const char *target, const char *precision, FeastLocalSolver **lsp) {
  *lsp = NULL;
  FEAST_CHECK(target && (strcmp(target, "cpu") == 0 || strcmp(target, "gpu") == 0), FEAST_ERR_CONFIG,
              "solver.target = '%s': expected cpu or gpu", target ? target : "");
  FEAST_CHECK(precision && (strcmp(precision, "auto") == 0 || strcmp(precision, "double") == 0 ||
                            strcmp(precision, "single") == 0),
              FEAST_ERR_CONFIG, "solver.local_precision = '%s': expected auto, double or single",
              precision ? precision : "");
  const FeastLocalBackend *be = lookup(target, feast_local_resolve_precision(precision));
  FEAST_CHECK(be, FEAST_ERR_UNSUPPORTED, "solver.target = %s: this build of feastc has no CUDA backend; %s",
              target, remedies);
  FEAST_CHECK(be->available(), FEAST_ERR_UNSUPPORTED, "solver.target = %s: no usable CUDA device (%s); %s",
              target, feast_local_unavailable_reason(target), remedies);
  FeastLocalSolver *ls;
  FEAST_CALL(FEAST_ALLOC(1, &ls));
  ls->be = ls->requested = be;
  *lsp = ls;
  return 0;
}

static int check_problem(const FeastLocalProblem *p, int level) {
  FEAST_CHECK(p->level == level, FEAST_ERR_ARG, "local problems of one batch differ in level (%d, %d)", level,
              p->level);
  FEAST_CHECK(p->A && p->fixed, FEAST_ERR_ARG, "local problem without a matrix or fixed masks");
  FEAST_CHECK(p->A->N == feast_level_n(level), FEAST_ERR_ARG, "local problem of level %d: matrix has N = %d, expected %d",
              level, p->A->N, feast_level_n(level));
  for (int l = 0; l <= level; l++) FEAST_CHECK(p->fixed[l], FEAST_ERR_ARG, "local problem: no fixed mask on level %d", l);
  return 0;
}

int feast_local_check_params(const FeastLocalMGParams *p, int dim) {
  FEAST_CHECK(p->pre_smooth >= 0 && p->post_smooth >= 0 && p->max_cycles >= 1 && p->coarse_max_dofs >= 1 &&
                  p->framed_min_nodes >= 0 && p->gpu_min_nodes >= 0 && p->jacobi_damping > 0 && p->rtol > 0,
              FEAST_ERR_ARG, "%slocal multigrid parameters out of range", dim == 3 ? "hexahedral " : "");
  FEAST_CHECK(p->coarse_max_dofs <= FEAST_LOCAL_COARSE_MAX_NODES, FEAST_ERR_CONFIG,
              "solver.local_coarse_max_dofs = %d: the coarsest local level is solved with a dense inverse "
              "(n^2 values per macro), so at most %d nodes (%s)",
              p->coarse_max_dofs, FEAST_LOCAL_COARSE_MAX_NODES,
              dim == 3 ? "9^3, level 3 of a hexahedron" : "33 x 33, level 5");
  return 0;
}

static void free_hierarchies(FeastLocalSolver *ls) {
  for (int i = 0; ls->gblock && i < ls->level - ls->lc; i++) feast_free_coloured(ls->gblock[i]);
  feast_free(&ls->gblock);
  feast_free(&ls->whole);
  feast_free(&ls->inside);
  feast_free(&ls->inv);
  feast_free(&ls->lu);
  feast_free(&ls->piv);
  feast_free(&ls->h);
}

/* where level l (lc <= l < L) of macro m is kept in whole and inside */
static long level_slot(const FeastLocalSolver *ls, int m, int l) { return (long)(l - ls->lc) * ls->nmacros + m; }

/* the problem's matrix with the inside of level l of macro m, or NULL */
static const FeastBand9 *problem_inside(const FeastLocalProblem *p, int l) { return p->inside ? p->inside[l] : NULL; }

/* level l (lc <= l < L) is framed: every macro's problem gives its inside, and the level
 * has one (N >= 5) and is large enough (params->framed_min_nodes) */
static int framed_level(const FeastLocalProblem *problems, int nmacros, int l, const FeastLocalMGParams *params) {
  for (int m = 0; m < nmacros; m++)
    if (!problem_inside(&problems[m], l)) return 0;
  return feast_level_n(l) >= 5 && feast_level_n(l) >= params->framed_min_nodes;
}

/* level l of every macro: its frame and the problem's inside, or a whole matrix of its own */
static int alloc_level(FeastLocalSolver *ls, const FeastLocalProblem *problems, int l,
                       const FeastLocalMGParams *params) {
  const int M = ls->nmacros, N = feast_level_n(l);
  void **block = &ls->gblock[l - ls->lc];
  if (!framed_level(problems, M, l, params)) {
    FEAST_CALL(feast_band9_create_batch(M, N, &ls->whole[level_slot(ls, 0, l)], block));
    for (int m = 0; m < M; m++) ls->h[m].A[l] = (FeastBand9Framed){&ls->whole[level_slot(ls, m, l)], {NULL}};
    return 0;
  }
  char **frames;
  FEAST_CALL(FEAST_ALLOC((size_t)M * FEAST_NBANDS, &frames));
  const int rc = feast_alloc_coloured_groups(M, FEAST_NBANDS, (size_t)feast_frame_len(N), sizeof(double), 0, 0,
                                             frames, block);
  for (int m = 0; m < M && !rc; m++) {
    FeastBand9Framed *A = &ls->h[m].A[l];
    A->inside = problem_inside(&problems[m], l);
    for (int k = 0; k < FEAST_NBANDS; k++) A->frame[k] = (double *)(void *)frames[m * FEAST_NBANDS + k];
  }
  free(frames);
  return rc;
}

/* Storage of the local hierarchies, made once per setup and reused by every update:
 * levels lc..L-1 of every macro (their frames where the problems give the insides, else
 * whole), the coarse inverses and the work of their factorisation, and the hierarchy
 * records the backend sees (the problem's matrix and masks, the storage above; values
 * are set by set_values). */
static int alloc_hierarchies(FeastLocalSolver *ls, const FeastLocalProblem *problems,
                             const FeastLocalMGParams *params) {
  const int L = ls->level, lc = ls->lc;
  const long N = feast_level_n(lc), n = N * N;
  FEAST_CALL(FEAST_ALLOC((long)ls->nmacros * (L - lc) + 1, &ls->whole));
  FEAST_CALL(FEAST_ALLOC((long)ls->nmacros * (L - lc) + 1, &ls->inside));
  FEAST_CALL(FEAST_ALLOC(L - lc + 1, &ls->gblock));
  FEAST_CALL(FEAST_ALLOC((size_t)ls->nmacros * n * n + 1, &ls->inv));
  FEAST_CALL(FEAST_ALLOC(n * n, &ls->lu));
  FEAST_CALL(FEAST_ALLOC(n, &ls->piv));
  FEAST_CALL(FEAST_ALLOC(ls->nmacros + 1, &ls->h));
  for (int m = 0; m < ls->nmacros; m++) {
    FeastLocalHierarchy *h = &ls->h[m];
    h->level = L;
    h->coarse = lc;
    h->A[L] = (FeastBand9Framed){problems[m].A, {NULL}};
    h->coarse_inv = ls->inv + (size_t)m * n * n;
    for (int l = lc; l <= L; l++) h->fixed[l] = problems[m].fixed[l];
    for (int l = lc; l < L; l++) ls->inside[level_slot(ls, m, l)] = problem_inside(&problems[m], l);
  }
  for (int l = lc; l < L && ls->nmacros; l++) FEAST_CALL(alloc_level(ls, problems, l, params));
  return 0;
}

/* The coarse levels of every macro: Galerkin products A_{l-1} = P^T A_l P of the given
 * finest matrix (only their frames where the problem gives the insides), into the
 * storage of alloc_hierarchies. A local problem's interface rows
 * keep all couplings that stay in the macro; rediscretised coarse matrices would weight
 * those rows differently on every level and cost the local multigrid its level
 * independence. */
static int galerkin_levels(FeastLocalSolver *ls) {
  for (int m = 0; m < ls->nmacros; m++) {
    FeastLocalHierarchy *h = &ls->h[m];
    for (int l = ls->level; l > ls->lc; l--) {
      FeastBand9Framed *Ac = &h->A[l - 1];
      FeastBand9 *whole = &ls->whole[level_slot(ls, m, l - 1)];
      if (Ac->frame[0]) FEAST_CALL(feast_band9_galerkin_frame(&h->A[l], h->fixed[l], h->fixed[l - 1], Ac));
      else FEAST_CALL(feast_band9_galerkin(&h->A[l], h->fixed[l], h->fixed[l - 1], whole));
      if (!ls->upwind) continue;
      if (Ac->frame[0]) feast_band9_upwind_frame(Ac);
      else feast_band9_upwind(whole);
    }
  }
  return 0;
}

/* h->coarse_inv <- A_lc^-1 of macro m (column-major), by LU with partial pivoting in
 * double in the solver's work arrays */
static int coarse_inverse(FeastLocalSolver *ls, int m) {
  const FeastLocalHierarchy *h = &ls->h[m];
  const long N = feast_level_n(h->coarse), n = N * N;
  feast_band9_to_dense(&h->A[h->coarse], ls->lu);
  const int zero = feast_dense_lu(n, N + 1, N + 1, ls->lu, ls->piv);
  FEAST_CHECK(!zero, FEAST_ERR_SOLVER,
              "local multigrid: the coarsest matrix (level %d, %ld nodes) of macro %d of the batch is singular "
              "(no nonzero pivot in column %d of its LU factorisation)",
              h->coarse, n, m, zero - 1);
  feast_dense_lu_inverse(n, N + 1, N + 1, ls->lu, ls->piv, ls->inv + (size_t)m * n * n);
  return 0;
}

/* new values: Galerkin levels, coarse inverses, then the backend (setup if params is
 * given, else update); nothing is allocated here but by a backend's setup */
static int set_values(FeastLocalSolver *ls, const FeastLocalMGParams *params) {
  FEAST_CALL(galerkin_levels(ls));
  for (int m = 0; m < ls->nmacros; m++) FEAST_CALL(coarse_inverse(ls, m));
  return params ? ls->be->setup(&ls->data, ls->nmacros, ls->h, params) : ls->be->update(ls->data, ls->h);
}

/* the requested backend, or for a gpu one and macros with fewer than gpu_min_nodes nodes
 * per side its CPU twin (same precision): there a GPU V cycle costs its ~10 launches per
 * level whatever the size */
static const FeastLocalBackend *backend_for(const FeastLocalBackend *requested, int level,
                                            const FeastLocalMGParams *params) {
  if (strcmp(requested->target, "gpu") != 0 || feast_level_n(level) >= params->gpu_min_nodes) return requested;
  return lookup("cpu", requested->precision);
}

int feast_local_setup(FeastLocalSolver *ls, int nmacros, const FeastLocalProblem *problems,
                      const FeastLocalMGParams *params) {
  FEAST_CHECK(ls && nmacros >= 0 && (nmacros == 0 || problems) && params, FEAST_ERR_ARG,
              "feast_local_setup: bad arguments");
  FEAST_CALL(feast_local_check_params(params, 2));
  const int level = nmacros ? problems[0].level : 0;
  FEAST_CHECK(level >= 0 && level <= FEAST_MAX_LEVEL, FEAST_ERR_ARG, "local level %d out of range", level);
  for (int m = 0; m < nmacros; m++) FEAST_CALL(check_problem(&problems[m], level));
  ls->be->destroy(&ls->data);
  free_hierarchies(ls);
  ls->be = backend_for(ls->requested, level, params);
  ls->nmacros = nmacros;
  ls->level = level;
  ls->lc = feast_local_coarse_level(level, params->coarse_max_dofs, 2);
  ls->upwind = params->coarse_upwind;
  FEAST_CALL(alloc_hierarchies(ls, problems, params));
  return set_values(ls, params);
}

/* problem m has the structure of the last setup: level, size, the same matrix and mask
 * pointers */
static int check_same_structure(const FeastLocalSolver *ls, const FeastLocalProblem *p, int m) {
  FEAST_CHECK(p->level == ls->level && p->A && p->A->N == feast_level_n(ls->level) && p->fixed, FEAST_ERR_ARG,
              "feast_local_update: macro %d of the batch: level %d, N = %d; the setup had level %d, N = %d", m,
              p->level, p->A ? p->A->N : 0, ls->level, feast_level_n(ls->level));
  FEAST_CHECK(p->A == ls->h[m].A[ls->level].inside, FEAST_ERR_ARG,
              "feast_local_update: macro %d of the batch: not the matrix of the setup (the solver keeps it by "
              "reference; a new matrix needs feast_local_setup)",
              m);
  for (int l = ls->lc; l <= ls->level; l++)
    FEAST_CHECK(p->fixed[l] == ls->h[m].fixed[l], FEAST_ERR_ARG,
                "feast_local_update: macro %d of the batch, level %d: not the fixed mask of the setup "
                "(new masks need feast_local_setup)",
                m, l);
  for (int l = ls->lc; l < ls->level; l++)
    FEAST_CHECK(problem_inside(p, l) == ls->inside[level_slot(ls, m, l)], FEAST_ERR_ARG,
                "feast_local_update: macro %d of the batch, level %d: not the inside matrix of the setup "
                "(a new one needs feast_local_setup)",
                m, l);
  return 0;
}

int feast_local_update(FeastLocalSolver *ls, const FeastLocalProblem *problems) {
  FEAST_CHECK(ls && ls->data && (ls->nmacros == 0 || problems), FEAST_ERR_ARG,
              "feast_local_update: solver not set up or NULL arguments");
  for (int m = 0; m < ls->nmacros; m++) FEAST_CALL(check_same_structure(ls, &problems[m], m));
  return set_values(ls, NULL);
}

void *feast_local_backend_data(FeastLocalSolver *ls) { return ls ? ls->data : NULL; }

int feast_local_solve(FeastLocalSolver *ls, const double *const *d, double *const *c, FeastLocalMGStats *stats) {
  FEAST_CHECK(ls && ls->data && stats && (ls->nmacros == 0 || (d && c)), FEAST_ERR_ARG,
              "feast_local_solve: solver not set up or NULL arguments");
  memset(stats, 0, sizeof *stats);
  return ls->be->solve(ls->data, d, c, stats);
}

int feast_local_solves_on_device(const FeastLocalSolver *ls) { return ls && ls->data && ls->be->solve_device; }

int feast_local_solve_device(FeastLocalSolver *ls, const double *d, double *c, FeastLocalMGStats *stats) {
  FEAST_CHECK(feast_local_solves_on_device(ls) && stats && (ls->nmacros == 0 || (d && c)), FEAST_ERR_UNSUPPORTED,
              "feast_local_solve_device: the batch computes on the host, or is not set up");
  memset(stats, 0, sizeof *stats);
  return ls->be->solve_device(ls->data, d, c, stats);
}

void feast_local_destroy(FeastLocalSolver **lsp) {
  if (!*lsp) return;
  (*lsp)->be->destroy(&(*lsp)->data);
  free_hierarchies(*lsp);
  feast_free(lsp);
}

const char *feast_local_precision(const FeastLocalSolver *ls) { return ls->be->precision; }
const char *feast_local_target(const FeastLocalSolver *ls) { return ls->be->target; }

const char *feast_local_backends(void) {
  static char list[128];
  list[0] = 0;
  const char *targets[] = {"cpu", "gpu"};
  for (int t = 0; t < 2; t++) {
    int first = 1;
    for (int i = 0; i < NREG; i++) {
      if (strcmp(registry[i]->target, targets[t]) != 0) continue;
      size_t len = strlen(list);
      snprintf(list + len, sizeof list - len, "%s%s", first ? (len ? " " : "") : ",",
               first ? targets[t] : "");
      len = strlen(list);
      snprintf(list + len, sizeof list - len, "%s%s", first ? "(" : "", registry[i]->precision);
      first = 0;
    }
    if (!first) strncat(list, ")", sizeof list - strlen(list) - 1);
  }
  return list;
}

#ifdef FEAST_HAVE_CUDA
const char *feast_cuda_unavailable_reason(void); /* coproc/cuda/local_mg.cu */
#endif
const char *feast_local_unavailable_reason(const char *target) {
  if (feast_local_available(target)) return "";
  if (!target || strcmp(target, "gpu") != 0 || !lookup("gpu", "single"))
    return "this build of feastc has no CUDA backend";
#ifdef FEAST_HAVE_CUDA
  return feast_cuda_unavailable_reason();
#else
  return "no CUDA device was found";
#endif
}

int feast_local_available(const char *target) {
  for (int i = 0; i < NREG; i++)
    if (strcmp(registry[i]->target, target) == 0 && registry[i]->available()) return 1;
  return 0;
}

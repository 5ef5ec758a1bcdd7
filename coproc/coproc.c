/* Front end of the local multigrid backends: registry by (target, precision), argument
 * checks, and the dispatch to the backend's ops. */
#include "coproc/backend.h"
#include "feast/error.h"
#include "feast/transfer.h"
#include <stdlib.h>
#include "feast/mesh.h"
#include <stdio.h>
#include <string.h>

struct FeastLocalSolver {
  const FeastLocalBackend *be;
  void *data;
  int nmacros, level;
  FeastBand9 *galerkin;        /* nmacros * (level + 1): the local hierarchies */
  FeastLocalProblem *problems; /* what the backend sees */
  FeastLocalMGParams params;
};

static const FeastLocalBackend *const registry[] = {
    &feast_local_cpu_double, &feast_local_cpu_single,
#ifdef FEAST_HAVE_CUDA
    &feast_local_cuda_single, &feast_local_cuda_double,
#endif
};
#define NREG ((int)(sizeof registry / sizeof registry[0]))

const char *feast_local_resolve_precision(const char *target, const char *precision) {
  if (strcmp(precision, "auto") != 0) return precision;
  return strcmp(target, "gpu") == 0 ? "single" : "double";
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
  const FeastLocalBackend *be = lookup(target, feast_local_resolve_precision(target, precision));
  FEAST_CHECK(be, FEAST_ERR_UNSUPPORTED, "solver.target = %s: this build of feastc has no CUDA backend; %s",
              target, remedies);
  FEAST_CHECK(be->available(), FEAST_ERR_UNSUPPORTED, "solver.target = %s: no CUDA device was found; %s",
              target, remedies);
  FeastLocalSolver *ls;
  FEAST_CALL(FEAST_ALLOC(1, &ls));
  ls->be = be;
  *lsp = ls;
  return 0;
}

static int check_problem(const FeastLocalProblem *p, int level) {
  FEAST_CHECK(p->level == level, FEAST_ERR_ARG, "local problems of one batch differ in level (%d, %d)", level,
              p->level);
  FEAST_CHECK(p->A && p->fixed, FEAST_ERR_ARG, "local problem without matrices or fixed masks");
  FEAST_CHECK(p->A->N == feast_level_n(level), FEAST_ERR_ARG, "local problem level %d: matrix has N = %d, expected %d",
              level, p->A->N, feast_level_n(level));
  for (int l = 0; l <= level; l++) FEAST_CHECK(p->fixed[l], FEAST_ERR_ARG, "local problem: no mask on level %d", l);
  return 0;
}

static int check_params(const FeastLocalMGParams *p) {
  FEAST_CHECK(p->pre_smooth >= 0 && p->post_smooth >= 0 && p->max_cycles >= 1 && p->coarse_max_dofs >= 1 &&
                  p->jacobi_damping > 0 && p->rtol > 0 && p->coarse_rtol > 0,
              FEAST_ERR_ARG, "local multigrid parameters out of range");
  return 0;
}

static void free_hierarchies(FeastLocalSolver *ls) {
  for (long i = 0; ls->galerkin && i < (long)ls->nmacros * (ls->level + 1); i++) feast_band9_destroy(&ls->galerkin[i]);
  feast_free(&ls->galerkin);
  feast_free(&ls->problems);
}

/* The local hierarchy of every macro: the given finest matrix, and below it Galerkin
 * products P^T A P (the coarser matrices of the problem only give the sizes). A local
 * problem's interface rows keep all couplings that stay in the macro; rediscretised
 * coarse matrices would weight those rows differently on every level and cost the
 * local multigrid its level independence. */
static int galerkin_hierarchies(FeastLocalSolver *ls, const FeastLocalProblem *problems) {
  const int L = ls->level, nl = L + 1;
  FEAST_CALL(FEAST_ALLOC((long)ls->nmacros * nl + 1, &ls->galerkin));
  FEAST_CALL(FEAST_ALLOC(ls->nmacros + 1, &ls->problems));
  for (int m = 0; m < ls->nmacros; m++) {
    FeastBand9 *G = &ls->galerkin[(long)m * nl];
    FEAST_CALL(feast_band9_copy(problems[m].A, &G[L]));
    for (int l = L; l > 0; l--) {
      FEAST_CALL(feast_band9_create(feast_level_n(l - 1), &G[l - 1]));
      FEAST_CALL(feast_band9_galerkin(&G[l], problems[m].fixed[l], problems[m].fixed[l - 1], &G[l - 1]));
    }
    ls->problems[m] = (FeastLocalProblem){L, G, problems[m].fixed};
  }
  return 0;
}

int feast_local_setup(FeastLocalSolver *ls, int nmacros, const FeastLocalProblem *problems,
                      const FeastLocalMGParams *params) {
  FEAST_CHECK(ls && nmacros >= 0 && (nmacros == 0 || problems) && params, FEAST_ERR_ARG,
              "feast_local_setup: bad arguments");
  FEAST_CALL(check_params(params));
  const int level = nmacros ? problems[0].level : 0;
  FEAST_CHECK(level >= 0 && level <= FEAST_MAX_LEVEL, FEAST_ERR_ARG, "local level %d out of range", level);
  for (int m = 0; m < nmacros; m++) FEAST_CALL(check_problem(&problems[m], level));
  ls->be->destroy(&ls->data);
  free_hierarchies(ls);
  ls->nmacros = nmacros;
  ls->level = level;
  ls->params = *params;
  FEAST_CALL(galerkin_hierarchies(ls, problems));
  return ls->be->setup(&ls->data, nmacros, ls->problems, params);
}

/* values only (same batch, levels and masks): for now a full setup */
int feast_local_update(FeastLocalSolver *ls, const FeastLocalProblem *problems) {
  FEAST_CHECK(ls && ls->problems, FEAST_ERR_ARG, "feast_local_update: solver not set up");
  FeastLocalMGParams params = ls->params;
  return feast_local_setup(ls, ls->nmacros, problems, &params);
}

int feast_local_solve(FeastLocalSolver *ls, const double *const *d, double *const *c, FeastLocalMGStats *stats) {
  FEAST_CHECK(ls && ls->data && stats && (ls->nmacros == 0 || (d && c)), FEAST_ERR_ARG,
              "feast_local_solve: solver not set up or NULL arguments");
  memset(stats, 0, sizeof *stats);
  return ls->be->solve(ls->data, d, c, stats);
}

void feast_local_destroy(FeastLocalSolver **lsp) {
  if (!*lsp) return;
  (*lsp)->be->destroy(&(*lsp)->data);
  free_hierarchies(*lsp);
  feast_free(lsp);
}

const char *feast_local_precision(const FeastLocalSolver *ls) { return ls->be->precision; }

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

int feast_local_available(const char *target) {
  for (int i = 0; i < NREG; i++)
    if (strcmp(registry[i]->target, target) == 0 && registry[i]->available()) return 1;
  return 0;
}

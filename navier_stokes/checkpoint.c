/* The nonlinear solver's state in a checkpoint file (feast/checkpoint.h): the iterate
 * (u, v, p) in the global node numbering of the mesh (feast_mesh_node_gid), which does
 * not depend on the partition, so a checkpoint written on N ranks continues on any M
 * ranks; the counters and residuals of NsState as "ns.*" header values (17 digits:
 * doubles read back bit for bit); the Krylov iterations per step as an array. The
 * iterate is gathered on rank 0, which writes the file atomically. */
#include "feast/error.h"
#include "feast/gather.h"
#include "feast/log.h"
#include "navier_stokes/ns_private.h"
#include <stdlib.h>
#include <string.h>

static const char *const field_names[NS_NFIELDS] = {"u", "v", "p"};

static int describe_state(FeastCheckpoint *ck, const NsState *s) {
  FEAST_CALL(feast_checkpoint_set(ck, "ns.steps", "%d", s->steps));
  FEAST_CALL(feast_checkpoint_set(ck, "ns.initial_residual", "%.17g", s->initial_residual));
  FEAST_CALL(feast_checkpoint_set(ck, "ns.residual", "%.17g", s->residual));
  FEAST_CALL(feast_checkpoint_set(ck, "ns.lambda", "%.17g", s->lambda));
  FEAST_CALL(feast_checkpoint_set(ck, "ns.linear_iterations", "%ld", s->linear_iterations));
  FEAST_CALL(feast_checkpoint_set(ck, "ns.velocity_vcycles", "%ld", s->vcycles));
  FEAST_CALL(feast_checkpoint_set(ck, "ns.local_solves", "%ld", s->local_solves));
  FEAST_CALL(feast_checkpoint_set(ck, "ns.local_cycles", "%ld", s->local_cycles));
  return feast_checkpoint_add_array(ck, "ns.linear_per_step", s->linear_per_step, s->steps);
}

/* rank 0: the file from the gathered fields g[f] */
static int write_file(const NsProblem *ns, const NsState *state, double *const *g, const char *path) {
  const FeastDomain *dom = ns->dom;
  FeastCheckpoint *ck = NULL;
  int st = feast_checkpoint_create(&ck);
  if (!st) st = feast_checkpoint_describe(ck, ns->cfg, dom->mesh, ns->level, dom->size, NS_NFIELDS);
  if (!st) st = describe_state(ck, state);
  for (int f = 0; f < NS_NFIELDS && !st; f++)
    st = feast_checkpoint_add_array(ck, field_names[f], g[f], dom->levels[ns->level].nglobal);
  if (!st) st = feast_checkpoint_write(ck, path);
  feast_checkpoint_destroy(&ck);
  return st;
}

int ns_checkpoint_write(const NsProblem *ns, const NsState *state, const char *path) {
  const FeastDomain *dom = ns->dom;
  const int64_t n = dom->levels[ns->level].nglobal;
  double *g[NS_NFIELDS] = {NULL, NULL, NULL};
  int st = 0;
  feast_timer_start("checkpoint");
  for (int f = 0; f < NS_NFIELDS && !st; f++) {
    if (dom->rank == 0) st = FEAST_ALLOC(n, &g[f]);
    if (!st) st = feast_gather_vector(dom, ns->level, ns->v->v + f * ns->v->nlocal, 0, g[f]);
  }
  if (!st && dom->rank == 0) st = write_file(ns, state, g, path);
  for (int f = 0; f < NS_NFIELDS; f++) free(g[f]);
  feast_timer_stop("checkpoint");
  int global = st;
  FEAST_MPI_CALL(MPI_Bcast(&global, 1, MPI_INT, 0, dom->comm));
  FEAST_CHECK(global == 0 || dom->rank == 0, global, "writing the checkpoint %s failed on rank 0", path);
  FEAST_CALL(st);
  feast_log(2, "  checkpoint after step %d: %s\n", state->steps, path);
  return 0;
}

static int restore_state(const FeastCheckpoint *ck, NsState *s) {
  long steps;
  const double *per_step;
  FEAST_CALL(feast_checkpoint_get_long(ck, "ns.steps", &steps));
  FEAST_CHECK(steps >= 0 && steps <= 100000000, FEAST_ERR_FILE, "checkpoint %s: ns.steps = %ld out of range",
              feast_checkpoint_path(ck), steps);
  s->steps = (int)steps;
  FEAST_CALL(feast_checkpoint_get_real(ck, "ns.initial_residual", &s->initial_residual));
  FEAST_CALL(feast_checkpoint_get_real(ck, "ns.residual", &s->residual));
  FEAST_CALL(feast_checkpoint_get_real(ck, "ns.lambda", &s->lambda));
  FEAST_CALL(feast_checkpoint_get_long(ck, "ns.linear_iterations", &s->linear_iterations));
  FEAST_CALL(feast_checkpoint_get_long(ck, "ns.velocity_vcycles", &s->vcycles));
  FEAST_CALL(feast_checkpoint_get_long(ck, "ns.local_solves", &s->local_solves));
  FEAST_CALL(feast_checkpoint_get_long(ck, "ns.local_cycles", &s->local_cycles));
  FEAST_CALL(feast_checkpoint_array(ck, "ns.linear_per_step", s->steps, &per_step));
  FEAST_CALL(FEAST_ALLOC(s->steps + 1, &s->linear_per_step));
  if (s->steps) memcpy(s->linear_per_step, per_step, (size_t)s->steps * sizeof *per_step);
  return 0;
}

/* the fields into the iterate: every copy of every node */
static int restore_iterate(NsProblem *ns, const FeastCheckpoint *ck) {
  const int64_t n = ns->dom->levels[ns->level].nglobal;
  double *g;
  FEAST_CALL(FEAST_ALLOC(n, &g));
  int st = 0;
  for (int f = 0; f < NS_NFIELDS && !st; f++) {
    const double *x;
    st = feast_checkpoint_array(ck, field_names[f], n, &x);
    if (!st) memcpy(g, x, (size_t)n * sizeof *g);
    if (!st) st = feast_scatter_vector(ns->dom, ns->level, g, 0, ns->v->v + f * ns->v->nlocal);
  }
  free(g);
  return st;
}

int ns_restore(NsProblem *ns, const FeastCheckpoint *ck) {
  free(ns->resume.linear_per_step);
  memset(&ns->resume, 0, sizeof ns->resume);
  FEAST_CALL(restore_state(ck, &ns->resume));
  FEAST_CALL(restore_iterate(ns, ck));
  ns->restored = 1;
  feast_log(1, "  continuing after nonlinear step %d (residual %.6e, initial %.6e, %ld linear iterations)\n",
            ns->resume.steps, ns->resume.residual, ns->resume.initial_residual, ns->resume.linear_iterations);
  return 0;
}

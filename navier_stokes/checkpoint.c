/* The nonlinear solver's state in a checkpoint file (feast/io/checkpoint.h), "kind
 * stationary" (a file without a kind line is one too): the iterate
 * (u, v, p) in the global node numbering of the mesh (feast_mesh_node_gid), which does
 * not depend on the partition, so a checkpoint written on N ranks continues on any M
 * ranks; the counters and residuals of NsState as "ns.*" header values (17 digits:
 * doubles read back bit for bit); the Krylov iterations per step as an array; the
 * Anderson history (nonlinear.anderson_depth: ns.anderson_started, ns.anderson_count and the
 * vectors anderson.x_prev.*, c_prev.*, dx<i>.*, dc<i>.*, up to 2 m + 2 of them), so that a
 * restart takes the very steps of the uninterrupted run. Every rank writes the values
 * of the nodes it owns and reads those it holds (no rank gathers a field); rank 0 the
 * header; the file is replaced atomically.
 * A time run's checkpoint, "kind time" (ns.h): its time.* header values, the solution
 * (u, v, p), the one before (u1.u, u1.v, u1.p) and the caller's part (the hook). */
#include "feast/base/error.h"
#include "feast/base/log.h"
#include "navier_stokes/ns_private.h"
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const field_names[NS_NFIELDS] = {"u", "v", "p"};

/* a counter added later (linear_capped): 0 in a checkpoint written before it */
static int optional_long(const FeastCheckpoint *ck, const char *key, long *v) {
  *v = 0;
  return feast_checkpoint_get(ck, key) ? feast_checkpoint_get_long(ck, key, v) : 0;
}

static int describe_state(FeastCheckpoint *ck, const NsState *s) {
  FEAST_CALL(feast_checkpoint_set(ck, "ns.steps", "%d", s->steps));
  FEAST_CALL(feast_checkpoint_set(ck, "ns.initial_residual", "%.17g", s->initial_residual));
  FEAST_CALL(feast_checkpoint_set(ck, "ns.residual", "%.17g", s->residual));
  FEAST_CALL(feast_checkpoint_set(ck, "ns.lambda", "%.17g", s->lambda));
  FEAST_CALL(feast_checkpoint_set(ck, "ns.linear_iterations", "%ld", s->linear_iterations));
  FEAST_CALL(feast_checkpoint_set(ck, "ns.velocity_vcycles", "%ld", s->vcycles));
  FEAST_CALL(feast_checkpoint_set(ck, "ns.local_solves", "%ld", s->local_solves));
  FEAST_CALL(feast_checkpoint_set(ck, "ns.local_cycles", "%ld", s->local_cycles));
  FEAST_CALL(feast_checkpoint_set(ck, "ns.linear_capped", "%ld", s->linear_capped));
  return feast_checkpoint_add_array(ck, "ns.linear_per_step", s->linear_per_step, s->steps);
}

/* the ScaRC counters of all steps (header ns.*) */
static int describe_counters(FeastCheckpoint *ck, const NsProblem *ns) {
  long vcycles, solves, cycles;
  ns_scarc_totals(ns, &vcycles, &solves, &cycles);
  FEAST_CALL(feast_checkpoint_set(ck, "ns.velocity_vcycles", "%ld", vcycles));
  FEAST_CALL(feast_checkpoint_set(ck, "ns.local_solves", "%ld", solves));
  return feast_checkpoint_set(ck, "ns.local_cycles", "%ld", cycles);
}

/* the time run's header values */
static int describe_time(FeastCheckpoint *ck, const NsProblem *ns) {
  const NsTimeParams *p = &ns->params.time;
  FEAST_CALL(feast_checkpoint_set(ck, "time.scheme", "%s", ns_time_scheme_name(p->scheme)));
  FEAST_CALL(feast_checkpoint_set(ck, "time.dt", "%.17g", p->dt));
  FEAST_CALL(feast_checkpoint_set(ck, "time.start", "%.17g", p->start));
  FEAST_CALL(feast_checkpoint_set(ck, "time.tau_dt", "%d", p->tau_dt));
  FEAST_CALL(feast_checkpoint_set(ck, "time.step", "%ld", ns->time.step));
  FEAST_CALL(feast_checkpoint_set(ck, "time.t", "%.17g", ns->time.t));
  FEAST_CALL(feast_checkpoint_set(ck, "time.dt_prev", "%.17g", ns->time.dt_prev));
  FEAST_CALL(feast_checkpoint_set(ck, "time.nonlinear_iterations", "%ld", ns->time.nonlinear_iterations));
  FEAST_CALL(feast_checkpoint_set(ck, "time.linear_iterations", "%ld", ns->time.linear_iterations));
  FEAST_CALL(feast_checkpoint_set(ck, "time.linear_capped", "%ld", ns->time.linear_capped));
  return describe_counters(ck, ns);
}

/* the arrays of one vector of the checkpoint: PREFIX u, PREFIX v, PREFIX p */
typedef struct {
  char prefix[32];
  const FeastVec *x;
} Stored;
enum { MAX_STORED = 2 * NS_ANDERSON_MAX + 3 }; /* the iterate and the Anderson history */

/* the prefix of the Anderson history's vector j (feast_anderson_history's order) in a file
 * whose oldest `skip` steps are not read */
static void anderson_prefix(int j, int skip, char *prefix, size_t size) {
  if (j < 2) snprintf(prefix, size, "anderson.%s.", j ? "c_prev" : "x_prev");
  else snprintf(prefix, size, "anderson.%s%d.", j % 2 ? "dc" : "dx", (j - 2) / 2 + skip);
}

/* the vectors a checkpoint holds: the iterate; a time run's solution before it (u1.*); a
 * stationary run's Anderson history (anderson.*) */
static int stored_vectors(const NsProblem *ns, int stationary, Stored *s) {
  int n = 0;
  s[n++] = (Stored){"", ns->iter.v};
  if (!stationary) {
    s[n++] = (Stored){"u1.", ns->time.u1};
    return n;
  }
  FeastVec *history[2 * NS_ANDERSON_MAX + 2];
  const int nh = feast_anderson_history(feast_nonlinear_anderson(ns->iter.nonlinear), history);
  for (int j = 0; j < nh; j++, n++) {
    anderson_prefix(j, 0, s[n].prefix, sizeof s[n].prefix);
    s[n].x = history[j];
  }
  return n;
}

/* rank 0: the header; nvec: the vectors stored_vectors gave */
static int describe(const NsProblem *ns, const NsState *state, int nvec, FeastCheckpoint *ck) {
  const FeastDomain *dom = ns->dom;
  /* the run's config (a problem made from parameters alone has none to describe) */
  if (ns->describe) FEAST_CALL(feast_checkpoint_describe(ck, ns->describe, dom->mesh, ns->level, dom->size, NS_NFIELDS));
  FEAST_CALL(feast_checkpoint_set(ck, "kind", "%s", state ? "stationary" : "time"));
  if (!state) return describe_time(ck, ns);
  FEAST_CALL(describe_state(ck, state));
  const int history = nvec - 1; /* x_prev, c_prev and two vectors per held step */
  FEAST_CALL(feast_checkpoint_set(ck, "ns.anderson_started", "%d", history > 0));
  return feast_checkpoint_set(ck, "ns.anderson_count", "%d", history > 0 ? (history - 2) / 2 : 0);
}

/* state NULL: a time run's checkpoint. Every rank adds the values of the nodes it owns
 * and writes them (feast_checkpoint_write); rank 0 the header and the arrays */
static int write_checkpoint(const NsProblem *ns, const NsState *state, const char *path) {
  const FeastDomain *dom = ns->dom;
  Stored vec[MAX_STORED];
  const int nvec = stored_vectors(ns, state != NULL, vec);
  FeastCheckpoint *ck = NULL;
  feast_timer_start("checkpoint");
  int st = feast_checkpoint_create(&ck);
  if (!st && dom->rank == 0) st = describe(ns, state, nvec, ck);
  for (int k = 0; !st && k < nvec * NS_NFIELDS; k++) {
    char name[48];
    snprintf(name, sizeof name, "%s%s", vec[k / NS_NFIELDS].prefix, field_names[k % NS_NFIELDS]);
    st = feast_checkpoint_add_vec_block(ck, name, vec[k / NS_NFIELDS].x, k % NS_NFIELDS);
  }
  if (!st && dom->rank == 0 && !state && ns->time.hook) st = ns->time.hook(ns->time.hook_ctx, ck);
  char what[4200];
  snprintf(what, sizeof what, "writing the checkpoint %s", path);
  st = feast_status_agree(dom->comm, st, what);
  if (!st) st = feast_checkpoint_write(ck, dom->comm, path);
  feast_checkpoint_destroy(&ck);
  feast_timer_stop("checkpoint");
  FEAST_CALL(st);
  if (state) feast_log(2, "  checkpoint after step %d: %s\n", state->steps, path);
  else feast_log(2, "  checkpoint after time step %ld (t = %.6g): %s\n", ns->time.step, ns->time.t, path);
  return 0;
}

int ns_checkpoint_write(const NsProblem *ns, const NsState *state, const char *path) {
  return write_checkpoint(ns, state, path);
}

int ns_time_checkpoint_write(const NsProblem *ns, const char *path) { return write_checkpoint(ns, NULL, path); }

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
  FEAST_CALL(optional_long(ck, "ns.linear_capped", &s->linear_capped));
  FEAST_CALL(feast_checkpoint_array(ck, "ns.linear_per_step", s->steps, &per_step));
  FEAST_CALL(FEAST_ALLOC(s->steps + 1, &s->linear_per_step));
  if (s->steps) memcpy(s->linear_per_step, per_step, (size_t)s->steps * sizeof *per_step);
  return 0;
}

/* the fields PREFIX u, v, p into x: every copy of every node (collective) */
static int restore_fields(const FeastCheckpoint *ck, const char *prefix, FeastVec *x) {
  for (int f = 0; f < NS_NFIELDS; f++) {
    char name[48];
    snprintf(name, sizeof name, "%s%s", prefix, field_names[f]);
    FEAST_CALL(feast_checkpoint_vec_block(ck, name, x, f));
  }
  return 0;
}

/* the Anderson history (none in a checkpoint written before it was kept) */
static int restore_anderson(NsProblem *ns, const FeastCheckpoint *ck) {
  long started, count;
  FEAST_CALL(optional_long(ck, "ns.anderson_started", &started));
  FEAST_CALL(optional_long(ck, "ns.anderson_count", &count));
  FEAST_CHECK((started == 0 && count == 0) || (started == 1 && count >= 0 && count <= NS_ANDERSON_MAX), FEAST_ERR_FILE,
              "checkpoint %s: ns.anderson_started = %ld, ns.anderson_count = %ld out of range",
              feast_checkpoint_path(ck), started, count);
  int skip;
  FEAST_CALL(feast_anderson_restore(feast_nonlinear_anderson(ns->iter.nonlinear), (int)started, (int)count, &skip));
  FeastVec *history[2 * NS_ANDERSON_MAX + 2];
  const int nh = feast_anderson_history(feast_nonlinear_anderson(ns->iter.nonlinear), history);
  for (int j = 0; j < nh; j++) {
    char prefix[32];
    anderson_prefix(j, skip, prefix, sizeof prefix);
    FEAST_CALL(restore_fields(ck, prefix, history[j]));
  }
  return 0;
}

int ns_restore(NsProblem *ns, const FeastCheckpoint *ck) {
  free(ns->iter.resume.linear_per_step);
  memset(&ns->iter.resume, 0, sizeof ns->iter.resume);
  FEAST_CALL(restore_state(ck, &ns->iter.resume));
  FEAST_CALL(restore_fields(ck, "", ns->iter.v));
  FEAST_CALL(restore_anderson(ns, ck));
  ns->iter.restored = 1;
  /* linear.preconditioner = auto's switch to direct as it was: from the restored steps' iterations */
  for (int k = 0; k < ns->iter.resume.steps; k++) ns_schur_direct_switch(ns, (int)ns->iter.resume.linear_per_step[k]);
  feast_log(1, "  continuing after nonlinear step %d (residual %.6e, initial %.6e, %ld linear iterations)\n",
            ns->iter.resume.steps, ns->iter.resume.residual, ns->iter.resume.initial_residual, ns->iter.resume.linear_iterations);
  return 0;
}

/* ------------------------------------------------------------------------ time runs */

void ns_time_set_checkpoint_hook(NsProblem *ns, NsCheckpointHook hook, void *ctx) {
  ns->time.hook = hook;
  ns->time.hook_ctx = ctx;
}

int ns_time_checkpoint_step(const FeastCheckpoint *ck, long *step) {
  FEAST_CALL(feast_checkpoint_get_long(ck, "time.step", step));
  FEAST_CHECK(*step >= 1 && *step <= 1000000000L, FEAST_ERR_FILE, "checkpoint %s: time.step = %ld out of range",
              feast_checkpoint_path(ck), *step);
  return 0;
}

int ns_is_time_checkpoint(const FeastCheckpoint *ck) {
  const char *kind = feast_checkpoint_get(ck, "kind");
  return kind && strcmp(kind, "time") == 0;
}

int ns_time_restore(NsProblem *ns, const FeastCheckpoint *ck) {
  FEAST_CHECK(ns_is_time_checkpoint(ck), FEAST_ERR_ARG, "ns_time_restore: %s is not a time run's checkpoint",
              feast_checkpoint_path(ck));
  FEAST_CALL(ns_time_state_create(ns));
  NsTimeTerms *tt = &ns->time;
  FEAST_CALL(ns_time_checkpoint_step(ck, &tt->step));
  FEAST_CALL(feast_checkpoint_get_real(ck, "time.t", &tt->t));
  FEAST_CALL(feast_checkpoint_get_real(ck, "time.dt_prev", &tt->dt_prev));
  FEAST_CALL(feast_checkpoint_get_long(ck, "time.nonlinear_iterations", &tt->nonlinear_iterations));
  FEAST_CALL(feast_checkpoint_get_long(ck, "time.linear_iterations", &tt->linear_iterations));
  FEAST_CALL(optional_long(ck, "time.linear_capped", &tt->linear_capped));
  FEAST_CALL(feast_checkpoint_get_long(ck, "ns.velocity_vcycles", &ns->iter.resume.vcycles));
  FEAST_CALL(feast_checkpoint_get_long(ck, "ns.local_solves", &ns->iter.resume.local_solves));
  FEAST_CALL(feast_checkpoint_get_long(ck, "ns.local_cycles", &ns->iter.resume.local_cycles));
  FEAST_CALL(restore_fields(ck, "", ns->iter.v));
  FEAST_CALL(restore_fields(ck, "u1.", tt->u1));
  tt->restored = 1;
  feast_log(1, "  continuing after time step %ld (t = %.6g)\n", tt->step, tt->t);
  return 0;
}

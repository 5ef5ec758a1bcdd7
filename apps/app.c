#include "apps/app.h"
#include "apps/problem.h"
#include "apps/residency.h"
#include "coproc/coproc.h"
#include "feast/io/amdahl.h"
#include "feast/base/error.h"
#include "feast/base/log.h"
#include "feast/base/signals.h"
#include "feast/io/vtk.h"
#include "scarc/scarc.h"
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *usage =
    "usage: feastc CONFIG.ini [section.key=value ...] [--restart FILE] [--dry-run] [--help] [--version]\n"
    "  CONFIG.ini         run configuration (see README: config keys)\n"
    "  section.key=value  override a config value\n"
    "  --restart FILE     continue the nonlinear solver from a checkpoint (output.checkpoint)\n"
    "  --dry-run          read config and mesh, report problem sizes and memory, solve nothing\n"
    "  --help-config      print the table of config keys (Markdown)\n"
    "  --version          version and compiled backends\n";

typedef struct {
  FeastConfig *cfg;
  FeastMesh *mesh;
  FeastDomain *dom;
  FeastSummary *summary;
  int rank, size;
  int level;
  const char *problem_name;     /* problem.type */
  const FeastProblem *problem;  /* its registry entry */
  FeastCheckpoint *restart;     /* --restart: verified in the input phase */
  FeastDevice *device;          /* solver.residency = device: where the vectors live */
} FeastApp;

typedef struct {
  const char *config;
  const char *restart; /* --restart FILE */
  int dry_run;
  int noverrides;
  char **overrides;
} Args;

static int parse_args(int argc, char **argv, Args *a, int *done) {
  memset(a, 0, sizeof *a);
  a->overrides = argv;
  *done = 0;
  for (int i = 1; i < argc; i++) {
    const char *s = argv[i];
    if (strcmp(s, "--help") == 0 || strcmp(s, "-h") == 0) {
      if (feast_log_rank() == 0) fputs(usage, stdout);
      *done = 1;
      return 0;
    } else if (strcmp(s, "--version") == 0) {
      if (feast_log_rank() == 0)
        printf("feastc %s\nproblems: %s\nlocal multigrid backends: %s\nsolvers: mg cg bicgstab\n",
               FEAST_VERSION, feast_problem_names(), scarc_backends());
      *done = 1;
      return 0;
    } else if (strcmp(s, "--help-config") == 0) {
      FeastConfig *schema = NULL;
      FEAST_CALL(feast_app_config_create(&schema));
      if (feast_log_rank() == 0) feast_config_write_markdown(schema, stdout);
      feast_config_destroy(&schema);
      *done = 1;
      return 0;
    } else if (strcmp(s, "--dry-run") == 0) {
      a->dry_run = 1;
    } else if (strcmp(s, "--restart") == 0 || strncmp(s, "--restart=", 10) == 0) {
      FEAST_CHECK(!a->restart, FEAST_ERR_USAGE, "--restart given twice");
      a->restart = s[9] == '=' ? s + 10 : (i + 1 < argc ? argv[++i] : "");
      FEAST_CHECK(a->restart[0], FEAST_ERR_USAGE, "--restart needs a checkpoint file (--restart FILE)");
    } else if (s[0] == '-') {
      FEAST_ERROR(FEAST_ERR_USAGE, "unknown option '%s' (see feastc --help)", s);
    } else if (strchr(s, '=')) {
      a->overrides[a->noverrides++] = argv[i];
    } else {
      FEAST_CHECK(!a->config, FEAST_ERR_USAGE, "two config files given ('%s' and '%s'); overrides are section.key=value", a->config, s);
      a->config = s;
    }
  }
  FEAST_CHECK(a->config, FEAST_ERR_USAGE, "no config file given (usage: feastc CONFIG.ini [section.key=value ...])");
  return 0;
}

/* All ranks run the input phase identically; they agree on the outcome so that exactly
 * one rank (the lowest failing one) prints and all exit with the same code. */
static int agree(int status, int *code) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int mine = status ? rank : size, first;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (first == size) return 0;
  if (rank == first)
    fprintf(stderr, "feastc: error: %s [%s]\n", feast_error_message(), feast_error_where());
  int exit_code = feast_exit_code(status ? status : FEAST_ERR_INTERNAL);
  MPI_Bcast(&exit_code, 1, MPI_INT, first, MPI_COMM_WORLD);
  *code = exit_code;
  return 1;
}

/* An error after the input phase may leave other ranks waiting in a collective: the
 * failing rank prints one message and brings the whole job down. */
static void abort_on_error(int status, int size) {
  if (!status) return;
  if (size > 1)
    fprintf(stderr, "feastc: error on rank %d: %s [%s]\n", feast_log_rank(), feast_error_message(), feast_error_where());
  else
    fprintf(stderr, "feastc: error: %s [%s]\n", feast_error_message(), feast_error_where());
  fflush(stderr);
  if (size > 1) MPI_Abort(MPI_COMM_WORLD, feast_exit_code(status));
}

static double app_start; /* MPI_Wtime at the start of feast_app_main */

static double physical_memory(void) {
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? (double)pages * page : 0.0;
}

double feast_app_memory_estimate(const FeastMesh *mesh, int level, double bytes_per_node) {
  int64_t nodes = 0;
  if (feast_mesh_count_nodes(mesh, level, &nodes)) return INFINITY;
  return (double)nodes * bytes_per_node;
}

static int load_input(FeastApp *app, const Args *a) {
  FEAST_CALL(feast_app_config_create(&app->cfg));
  FEAST_CALL(feast_config_read(app->cfg, a->config));
  for (int i = 0; i < a->noverrides; i++) FEAST_CALL(feast_config_override(app->cfg, a->overrides[i]));
  long verbosity, level;
  FEAST_CALL(feast_config_get_int(app->cfg, "output.verbosity", &verbosity));
  feast_log_init(app->rank, (int)verbosity);
  FEAST_CALL(feast_config_get_string(app->cfg, "problem.type", &app->problem_name));
  app->problem = feast_problem_find(app->problem_name);
  FEAST_CHECK(app->problem, FEAST_ERR_UNSUPPORTED, "problem.type = %s (%s): this build of feastc has no such problem (it has: %s)",
              app->problem_name, feast_config_origin(app->cfg, "problem.type"), feast_problem_names());
  FEAST_CALL(feast_config_get_int(app->cfg, "grid.level", &level));
  app->level = (int)level;
  char path[4096];
  FEAST_CALL(feast_config_get_path(app->cfg, "grid.file", path, sizeof path));
  feast_timer_start(FEAST_T_SETUP);
  FEAST_CALL(feast_mesh_read(path, app->cfg, &app->mesh));
  feast_timer_stop(FEAST_T_SETUP);
  FEAST_CHECK(app->mesh->dim == 2 || app->problem->hexahedra, FEAST_ERR_UNSUPPORTED,
              "grid.file = %s (%s): a mesh of hexahedra (3D); problem.type = %s solves on quadrilaterals (2D) only so "
              "far (in 3D: poisson; the 3D flow solver is issue #47's work in progress)",
              path, feast_config_origin(app->cfg, "grid.file"), app->problem_name);
  FEAST_CHECK(app->size <= app->mesh->nmacros, FEAST_ERR_CONFIG,
              "cannot run on %d MPI ranks: mesh %s has only %d macros (use at most %d ranks)",
              app->size, path, app->mesh->nmacros, app->mesh->nmacros);
  return app->problem->check(app->cfg, app->mesh);
}

/* output.checkpoint and --restart: only for problems that can continue a run; the
 * restart file read, verified (checksum) and matched against config and mesh */
static int load_restart(FeastApp *app, const Args *a) {
  const int checkpointing = feast_config_is_set(app->cfg, "output.checkpoint");
  FEAST_CHECK(!checkpointing || app->problem->restartable, FEAST_ERR_CONFIG,
              "output.checkpoint (%s): problem.type = %s has no nonlinear solver state to checkpoint (stokes and "
              "navier-stokes have)",
              feast_config_origin(app->cfg, "output.checkpoint"), app->problem_name);
  if (!a->restart) return 0;
  FEAST_CHECK(app->problem->restartable, FEAST_ERR_USAGE,
              "--restart %s: problem.type = %s cannot continue from a checkpoint (stokes and navier-stokes can)",
              a->restart, app->problem_name);
  FEAST_CALL(feast_checkpoint_read(a->restart, "--restart", MPI_COMM_WORLD, &app->restart));
  /* first the kind of run (stationary, time-dependent): the config values of another
   * kind would only give warnings that do not matter */
  if (app->problem->restart_check) FEAST_CALL(app->problem->restart_check(app->restart, app->cfg));
  FEAST_CALL(feast_checkpoint_match(app->restart, app->cfg, app->mesh, app->level, app->problem->fields));
  feast_log(1, "  restart from %s (written by %s rank(s))\n", a->restart, feast_checkpoint_get(app->restart, "ranks"));
  return 0;
}

/* the output path of key (empty: none), written atomically (with a temporary file) */
static int add_output_key(FeastPaths *paths, const FeastConfig *cfg, const char *key, char *path, size_t size) {
  FEAST_CALL(feast_config_get_path(cfg, key, path, size));
  if (path[0]) FEAST_CALL(feast_paths_add_atomic_output(paths, key, path));
  return 0;
}

static int register_paths(FeastApp *app, const Args *a, FeastPaths *paths) {
  char path[4096], file[4200];
  FEAST_CALL(feast_paths_add_input(paths, "the config file", a->config, NULL));
  FEAST_CALL(feast_config_get_path(app->cfg, "grid.file", path, sizeof path));
  FEAST_CALL(feast_paths_add_input(paths, "grid.file", path, NULL));
  /* the checkpoint written by the continued run replaces the restart file atomically
   * after it was read: the usual "run again with --restart" workflow */
  if (a->restart) FEAST_CALL(feast_paths_add_input(paths, "--restart", a->restart, "output.checkpoint"));
  FEAST_CALL(add_output_key(paths, app->cfg, "output.summary", path, sizeof path));
  FEAST_CALL(add_output_key(paths, app->cfg, "output.checkpoint", path, sizeof path));
  FEAST_CALL(feast_config_get_path(app->cfg, "output.vtk", path, sizeof path));
  for (int r = -1; path[0] && r < app->size; r++) {
    FEAST_CALL(feast_vtk_file_name(path, r, file, sizeof file));
    FEAST_CALL(feast_paths_add_output(paths, "output.vtk", file));
  }
  return app->problem->outputs ? app->problem->outputs(app->cfg, paths) : 0;
}

/* no output may overwrite an input or another output (rank 0 looks, before anything
 * is written; the verdict is agreed with the rest of the input phase) */
static int check_paths(FeastApp *app, const Args *a) {
  if (app->rank != 0) return 0;
  FeastPaths *paths = NULL;
  int st = feast_paths_create(&paths);
  if (!st) st = register_paths(app, a, paths);
  if (!st) st = feast_paths_check(paths);
  feast_paths_destroy(&paths);
  return st;
}

/* sizes of the hierarchy, memory estimate and limit */
static int report_sizes(FeastApp *app, int dry_run) {
  int64_t nodes;
  FEAST_CALL(feast_mesh_count_nodes(app->mesh, app->level, &nodes));
  int64_t dofs;
  const int hex = app->mesh->dim == 3, fields = hex ? app->problem->hexahedra : app->problem->fields;
  FEAST_CHECK(feast_mul_i64(nodes, fields, &dofs) == 0, FEAST_ERR_LIMIT, "grid.level = %d: size overflows", app->level);
  const double per_node = (app->problem->bytes_per_node + (app->problem->config_bytes_per_node
                                                               ? app->problem->config_bytes_per_node(app->cfg)
                                                               : 0.0)) *
                          fields / app->problem->fields;
  double need = feast_app_memory_estimate(app->mesh, app->level, per_node);
  double limit_gib;
  FEAST_CALL(feast_config_get_real(app->cfg, "run.max_memory", &limit_gib));
  double limit = limit_gib > 0 ? limit_gib * 1073741824.0 : physical_memory();
  feast_log(1, "feastc %s: problem %s, mesh %s: %d macros, %d vertices\n", FEAST_VERSION, app->problem_name,
            app->mesh->source, app->mesh->nmacros, app->mesh->nvertices);
  const int n = feast_level_n(app->level);
  char per_macro[64];
  snprintf(per_macro, sizeof per_macro, app->mesh->dim == 3 ? "%d x %d x %d" : "%d x %d", n, n, n);
  feast_log(1, "  level %d: %s nodes per macro, %lld nodes, %lld dofs (%d field%s), ranks %d\n", app->level, per_macro,
            (long long)nodes, (long long)dofs, fields, fields > 1 ? "s" : "", app->size);
  feast_log(1, "  memory estimate %.3g GiB (limit %.3g GiB)\n", need / 1073741824.0, limit / 1073741824.0);
  feast_summary_set_int(app->summary, "nodes", nodes);
  feast_summary_set_int(app->summary, "dofs", dofs);
  feast_summary_set_real(app->summary, "memory_estimate_gib", need / 1073741824.0);
  if (dry_run && feast_log_verbosity() >= 2 && app->rank == 0) {
    feast_log(2, "  config values set (the rest are defaults):\n");
    FEAST_CALL(feast_config_write_values(app->cfg, stdout));
  }
  if (dry_run) return 0;
  FEAST_CHECK(limit <= 0 || need <= limit, FEAST_ERR_LIMIT,
              "grid.level = %d needs about %.3g GiB (estimate), more than the limit of %.3g GiB (%s); "
              "lower grid.level or raise run.max_memory",
              app->level, need / 1073741824.0, limit / 1073741824.0,
              limit_gib > 0 ? "run.max_memory" : "physical memory");
  return 0;
}

/* solver.target = gpu where no GPU backend can run: an error naming the two remedies,
 * or, with solver.gpu_fallback = cpu, one warning and the CPU backend. The summary says
 * what was asked for ("target_requested") and what actually runs ("target"). */
static int resolve_target(FeastApp *app, int dry_run) {
  const char *target, *fallback, *precision;
  FEAST_CALL(feast_config_get_string(app->cfg, "solver.target", &target));
  FEAST_CALL(feast_config_get_string(app->cfg, "solver.gpu_fallback", &fallback));
  feast_summary_set_string(app->summary, "target_requested", target);
  if (strcmp(target, "gpu") == 0 && !scarc_target_available("gpu")) {
    char why[320];
    if (strstr(scarc_backends(), "gpu"))
      snprintf(why, sizeof why, "no usable CUDA device on this machine (%s)",
               scarc_target_unavailable_reason("gpu"));
    else
      snprintf(why, sizeof why, "this build of feastc has no CUDA backend");
    if (strcmp(fallback, "cpu") == 0) {
      feast_warn("solver.target = gpu: %s; running the local multigrid on the CPU (solver.gpu_fallback = cpu)", why);
      FEAST_CALL(feast_config_override(app->cfg, "solver.target=cpu"));
    } else if (!dry_run) {
      FEAST_ERROR(FEAST_ERR_UNSUPPORTED,
                  "solver.target = gpu (%s): %s; either run on a machine with an NVIDIA GPU and a "
                  "CUDA build (nvcc found at configure time), or set solver.target = cpu "
                  "(or solver.gpu_fallback = cpu to fall back with a warning)",
                  feast_config_origin(app->cfg, "solver.target"), why);
    }
  }
  FEAST_CALL(feast_config_get_string(app->cfg, "solver.target", &target));
  FEAST_CALL(feast_config_get_string(app->cfg, "solver.local_precision", &precision));
  feast_summary_set_string(app->summary, "target", target);
  feast_summary_set_string(app->summary, "local_precision", scarc_resolve_precision(precision));
  return 0;
}

static int summary_basics(FeastApp *app, int dry_run) {
  FEAST_CALL(feast_summary_create(&app->summary));
  feast_summary_set_string(app->summary, "problem", app->problem_name);
  FEAST_CALL(resolve_target(app, dry_run));
  feast_summary_set_int(app->summary, "ranks", app->size);
  feast_summary_set_int(app->summary, "macros", app->mesh->nmacros);
  feast_summary_set_int(app->summary, "level", app->level);
  feast_summary_set_string(app->summary, "mesh", app->mesh->source);
  feast_summary_set_bool(app->summary, "dry_run", dry_run);
  return 0;
}

/* Collective, on every rank after the run: the timers reduced over the ranks (the
 * summary's "timings" are maxima over the ranks), the Amdahl figures of a finished solve
 * (printed in one block and written as "amdahl"), then rank 0 writes the summary.
 * Timers and asynchronous GPU work: every timer that brackets accelerator work stops
 * after that work has finished, because the backend returns only then (the CUDA backend
 * synchronises its stream before a local solve returns, and its setup and value updates
 * end with a device synchronisation), so no synchronisation is added at the timer boundaries. */
static int finish(FeastApp *app, int solved) {
  FeastTimerStats stats[96];
  int n = 0;
  FEAST_CALL(feast_timers_reduce(MPI_COMM_WORLD, 96, stats, &n));
  for (int i = 0; i < n; i++)
    if (stats[i].max > 0 || feast_timer_calls(stats[i].name) > 0)
      feast_summary_set_timing(app->summary, stats[i].name, stats[i].max);
  if (solved) {
    FeastAmdahl a;
    feast_amdahl_compute(stats, n, app->problem->nonlinear, app->size, &a);
    FEAST_CALL(feast_amdahl_to_summary(&a, app->summary));
    feast_amdahl_print(&a);
  }
  const int device_status = feast_app_residency_report(app->device, app->summary);
  char path[4096];
  FEAST_CALL(feast_config_get_path(app->cfg, "output.summary", path, sizeof path));
  if (path[0] && app->rank == 0) FEAST_CALL(feast_summary_write(app->summary, path));
  return device_status;
}

/* the distributed discretisation; part of the input phase (a failure here is the same
 * on every rank and ends in one message) */
static int create_domain(FeastApp *app) {
  feast_timer_start(FEAST_T_SETUP);
  FEAST_CALL(feast_domain_create(app->mesh, app->level, MPI_COMM_WORLD, &app->dom));
  /* solver.residency = device: what lives on the device per node, the vectors the
   * configuration adds included */
  const FeastProblem *p = app->problem;
  const double device_per_node = p->device_bytes_per_node + (p->config_bytes_per_node ? p->config_bytes_per_node(app->cfg) : 0.0);
  FEAST_CALL(feast_app_residency_attach(app->cfg, app->dom, device_per_node, app->summary, &app->device));
  feast_timer_stop(FEAST_T_SETUP);
  return 0;
}

static int run_problem(FeastApp *app) {
  const FeastProblemContext ctx = {app->cfg,  app->mesh, app->dom,     app->summary,
                                   app->rank, app->size, app_start, app->restart};
  return app->problem->run(&ctx);
}

static void app_free(FeastApp *app) {
  feast_domain_destroy(&app->dom);
  feast_coproc_device_destroy(&app->device);
  feast_mesh_destroy(&app->mesh);
  feast_summary_destroy(&app->summary);
  feast_checkpoint_destroy(&app->restart);
  feast_config_destroy(&app->cfg);
}

int feast_app_main(int argc, char **argv) {
  FeastApp app;
  memset(&app, 0, sizeof app);
  MPI_Comm_rank(MPI_COMM_WORLD, &app.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &app.size);
  feast_log_init(app.rank, 1);
  feast_timer_start(FEAST_T_TOTAL);
  app_start = feast_wtime();
  Args args;
  int done = 0, code = 0;
  int st = parse_args(argc, argv, &args, &done);
  if (!st && !done) st = load_input(&app, &args);
  if (!st && !done) st = load_restart(&app, &args);
  if (!st && !done) st = check_paths(&app, &args);
  if (!st && !done) st = summary_basics(&app, args.dry_run);
  if (!st && !done) st = report_sizes(&app, args.dry_run);
  if (!st && !done && !args.dry_run) st = create_domain(&app);
  if (agree(st, &code) || done) {
    app_free(&app);
    return code;
  }
  if (!args.dry_run && app.problem->restartable) st = feast_signals_install();
  if (!st && !args.dry_run) st = run_problem(&app);
  /* not converged and interrupted are results: the summary is written, then the code */
  const int result = st == FEAST_ERR_NOT_CONVERGED || st == FEAST_ERR_INTERRUPTED;
  abort_on_error(st && !result ? st : 0, app.size);
  feast_timer_stop(FEAST_T_TOTAL);
  int wst = finish(&app, !args.dry_run && (!st || result));
  abort_on_error(st && !result ? 0 : wst, app.size); /* the run's error printed once (a device's comes back here) */
  if (result && app.rank == 0)
    fprintf(stderr, "feastc: %s\n", feast_error_message());
  code = feast_exit_code(st ? st : wst);
  app_free(&app);
  return code;
}

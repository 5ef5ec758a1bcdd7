#include "feast/base/log.h"
#include <mpi.h>
#include "feast/base/error.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int log_rank = 0;
static int log_verbosity = 1;

void feast_log_init(int rank, int verbosity) {
  log_rank = rank;
  log_verbosity = verbosity;
}
int feast_log_rank(void) { return log_rank; }
int feast_log_verbosity(void) { return log_verbosity; }
int feast_stdout_is_tty(void) { return isatty(STDOUT_FILENO); }

void feast_log(int level, const char *fmt, ...) {
  if (log_rank != 0 || level > log_verbosity) return;
  va_list ap;
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  fflush(stdout);
}

void feast_warn(const char *fmt, ...) {
  if (log_rank != 0) return;
  va_list ap;
  va_start(ap, fmt);
  fputs("feastc: warning: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

enum { MAX_TIMERS = 64 };
static struct {
  char name[32];
  double total, started, bytes;
  long calls;
  int depth;
} timers[MAX_TIMERS];
static int ntimers = 0;

double feast_wtime(void) { return MPI_Wtime(); }

static int timer_find(const char *name, int create) {
  for (int i = 0; i < ntimers; i++)
    if (strcmp(timers[i].name, name) == 0) return i;
  if (!create || ntimers == MAX_TIMERS) return -1;
  snprintf(timers[ntimers].name, sizeof timers[0].name, "%s", name);
  return ntimers++;
}

/* Re-entrant: a phase started while already running counts once (outermost bracket). */
void feast_timer_start(const char *name) {
  int i = timer_find(name, 1);
  if (i < 0) return;
  if (timers[i].depth++ == 0) timers[i].started = MPI_Wtime();
}

void feast_timer_stop(const char *name) {
  int i = timer_find(name, 0);
  if (i < 0 || timers[i].depth == 0) return;
  if (--timers[i].depth == 0) {
    timers[i].total += MPI_Wtime() - timers[i].started;
    timers[i].calls++;
  }
}

double feast_timer_total(const char *name) {
  int i = timer_find(name, 0);
  return i < 0 ? 0.0 : timers[i].total;
}
long feast_timer_calls(const char *name) {
  int i = timer_find(name, 0);
  return i < 0 ? 0 : timers[i].calls;
}
int feast_timer_count(void) { return ntimers; }
const char *feast_timer_name(int i) { return i >= 0 && i < ntimers ? timers[i].name : ""; }
void feast_timer_charge_first_touch(double seconds, double bytes) {
  int running[MAX_TIMERS], n = 0;
  for (int i = 0; i < ntimers; i++)
    if (timers[i].depth > 0) running[n++] = i;
  for (int k = 0; k < n; k++) {
    char name[sizeof timers[0].name]; /* truncated as timer_find stores it */
    snprintf(name, sizeof name, "%s" FEAST_FIRST_TOUCH, timers[running[k]].name);
    const int j = timer_find(name, 1);
    if (j < 0) continue;
    timers[j].total += seconds;
    timers[j].bytes += bytes;
    timers[j].calls++;
  }
}

double feast_timer_bytes(const char *name) {
  int i = timer_find(name, 0);
  return i < 0 ? 0.0 : timers[i].bytes;
}

void feast_timers_reset(void) {
  memset(timers, 0, sizeof timers);
  ntimers = 0;
}

static const char *const standard_timers[] = {FEAST_T_TOTAL, FEAST_T_SETUP, FEAST_T_ASSEMBLY,
                                              FEAST_T_SOLVER_SETUP, FEAST_T_LINEAR, FEAST_T_LOCAL_MG,
                                              FEAST_T_COARSE, FEAST_T_COMM, FEAST_T_OUTPUT};
enum { NSTANDARD = sizeof standard_timers / sizeof standard_timers[0] };

int feast_timers_reduce(MPI_Comm comm, int cap, FeastTimerStats *stats, int *n) {
  int rank, size;
  FEAST_MPI_CALL(MPI_Comm_rank(comm, &rank));
  FEAST_MPI_CALL(MPI_Comm_size(comm, &size));
  /* the names: the standard ones, then rank 0's others (broadcast, so every rank reduces
   * the same list in the same order) */
  char names[MAX_TIMERS + NSTANDARD][32];
  int count = 0;
  for (int i = 0; i < NSTANDARD; i++) snprintf(names[count++], 32, "%s", standard_timers[i]);
  int extra = 0;
  if (rank == 0)
    for (int i = 0; i < ntimers; i++) {
      int standard = 0;
      for (int k = 0; k < NSTANDARD; k++) standard |= strcmp(timers[i].name, standard_timers[k]) == 0;
      if (!standard) memcpy(names[count + extra++], timers[i].name, 32);
    }
  FEAST_MPI_CALL(MPI_Bcast(&extra, 1, MPI_INT, 0, comm));
  if (extra) FEAST_MPI_CALL(MPI_Bcast(names[count], 32 * extra, MPI_CHAR, 0, comm));
  count += extra;
  double mine[MAX_TIMERS + NSTANDARD], mx[MAX_TIMERS + NSTANDARD], mn[MAX_TIMERS + NSTANDARD],
      sum[MAX_TIMERS + NSTANDARD], r0[MAX_TIMERS + NSTANDARD], bytes[MAX_TIMERS + NSTANDARD],
      bmx[MAX_TIMERS + NSTANDARD];
  for (int i = 0; i < count; i++) {
    mine[i] = r0[i] = feast_timer_total(names[i]);
    bytes[i] = feast_timer_bytes(names[i]);
  }
  FEAST_MPI_CALL(MPI_Allreduce(mine, mx, count, MPI_DOUBLE, MPI_MAX, comm));
  FEAST_MPI_CALL(MPI_Allreduce(mine, mn, count, MPI_DOUBLE, MPI_MIN, comm));
  FEAST_MPI_CALL(MPI_Allreduce(mine, sum, count, MPI_DOUBLE, MPI_SUM, comm));
  FEAST_MPI_CALL(MPI_Allreduce(bytes, bmx, count, MPI_DOUBLE, MPI_MAX, comm));
  FEAST_MPI_CALL(MPI_Bcast(r0, count, MPI_DOUBLE, 0, comm));
  *n = count < cap ? count : cap;
  for (int i = 0; i < *n; i++) {
    FeastTimerStats *t = &stats[i];
    memcpy(t->name, names[i], 32);
    t->max = mx[i];
    t->min = mn[i];
    t->mean = sum[i] / size;
    t->rank0 = r0[i];
    t->imbalance = t->mean > 0 ? t->max / t->mean : 1.0;
    t->bytes_max = bmx[i];
  }
  return 0;
}

const FeastTimerStats *feast_timer_stats_find(const FeastTimerStats *stats, int n, const char *name) {
  for (int i = 0; i < n; i++)
    if (strcmp(stats[i].name, name) == 0) return &stats[i];
  return NULL;
}

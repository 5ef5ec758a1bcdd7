#include "feast/log.h"
#include <mpi.h>
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
  double total, started;
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
void feast_timers_reset(void) {
  memset(timers, 0, sizeof timers);
  ntimers = 0;
}

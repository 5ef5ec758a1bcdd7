/* Logging (rank 0 writes, warnings once) and named phase timers. Every timing report
 * (JSON summary, Amdahl figures) is computed from these timers. */
#ifndef FEAST_LOG_H
#define FEAST_LOG_H
#include <mpi.h>

void feast_log_init(int rank, int verbosity); /* verbosity: 0 quiet, 1 normal, 2 verbose */
int feast_log_rank(void);
int feast_log_verbosity(void);
/* rank 0, stdout, when verbosity >= level */
void feast_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* rank 0, stderr, prefixed "feastc: warning: " */
void feast_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int feast_stdout_is_tty(void);

/* Named timers: start/stop bracket a phase; totals accumulate over calls. */
double feast_wtime(void);
void feast_timer_start(const char *name);
void feast_timer_stop(const char *name);
double feast_timer_total(const char *name); /* seconds, 0 if never started */
long feast_timer_calls(const char *name);
int feast_timer_count(void);
const char *feast_timer_name(int i);
void feast_timers_reset(void);

/* First touch of fresh memory (feast_prefault): the seconds the kernel takes to back
 * fresh pages, and their bytes, charged to every running timer T as the timer
 * "T.first_touch" (FEAST_FIRST_TOUCH), whose total is those seconds. In a virtual
 * machine whose host takes back free memory (free page reporting) this is most of a
 * cold run's assembly and setup; on bare metal a few ms per 100 MB. */
#define FEAST_FIRST_TOUCH ".first_touch"
void feast_timer_charge_first_touch(double seconds, double bytes);
double feast_timer_bytes(const char *name); /* bytes charged to a first-touch timer, 0 if none */

/* One timer over the ranks of a communicator. Reports use the maximum (the rank on the
 * critical path), never rank 0's value alone; imbalance = max / mean (1 when all ranks
 * spent the same time, and when the mean is 0). */
typedef struct {
  char name[32];
  double max, min, mean, rank0; /* seconds */
  double imbalance;
  double bytes_max; /* first-touch timers: the bytes charged, max over the ranks */
} FeastTimerStats;

/* Collective over comm (every rank must call it, e.g. at the end of the run): the
 * statistics of the standard timers below, in their order (0 s where a rank never ran
 * one), then of every other timer rank 0 has. Fills at most cap entries, *n = count. */
int feast_timers_reduce(MPI_Comm comm, int cap, FeastTimerStats *stats, int *n);
/* the entry of that name in stats[0..n), or NULL */
const FeastTimerStats *feast_timer_stats_find(const FeastTimerStats *stats, int n, const char *name);

/* Standard phase names, so reports and code agree on spelling. */
#define FEAST_T_TOTAL "total"
#define FEAST_T_SETUP "setup"             /* mesh, refinement, partition */
#define FEAST_T_ASSEMBLY "assembly"       /* matrices and right-hand sides */
#define FEAST_T_SOLVER_SETUP "solver_setup" /* ScaRC setup: local hierarchies, backend upload, coarse LU */
#define FEAST_T_LINEAR "linear_solve"     /* T_lin: the whole linear solver */
#define FEAST_T_LOCAL_MG "local_mg"       /* T_loc: local multigrid solves (accelerable) */
#define FEAST_T_COARSE "coarse_solve"     /* global coarse grid (UMFPACK) */
#define FEAST_T_COMM "communication"      /* interface exchange and reductions */
#define FEAST_T_OUTPUT "output"
#endif

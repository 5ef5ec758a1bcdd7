/* Counters of the communication calls, incremented where the MPI calls are issued
 * (feast_domain_sum_macros*: one global reduction, MPI_Allreduce or MPI_Iallreduce;
 * feast_exchange_sum*: one interface exchange, a round of neighbour messages), so that
 * solvers report what they really issue. Every rank counts every call, also on one rank
 * (where a reduction or exchange moves no data), so the counts are rank-independent.
 * And a debug knob: an artificial latency added to every global reduction, to show the
 * effect of communication-avoiding and pipelined solvers on one machine. */
#ifndef FEAST_COMMSTAT_H
#define FEAST_COMMSTAT_H

typedef struct {
  long reductions; /* global reductions issued */
  long exchanges;  /* interface exchanges issued */
} FeastCommCounts;

void feast_comm_counts(FeastCommCounts *c);
void feast_comm_count_reduction(void);
void feast_comm_count_exchange(void);

/* timers of the waits (seconds are in feast_timer_total of these names) */
#define FEAST_T_REDUCE_WAIT "comm_reduce"
#define FEAST_T_EXCHANGE_WAIT "comm_exchange"

/* debug.reduction_latency_us: a reduction started at time t0 completes no earlier than
 * t0 + latency (busy wait), blocking or not: a non-blocking one hides it behind work */
void feast_comm_set_reduction_latency(double seconds);
void feast_comm_wait_latency(double t0);
#endif

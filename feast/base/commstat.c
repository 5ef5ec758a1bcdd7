#include "feast/base/commstat.h"
#include "feast/base/log.h"

static FeastCommCounts counts;
static double latency;

void feast_comm_counts(FeastCommCounts *c) { *c = counts; }
void feast_comm_count_reduction(void) { counts.reductions++; }
void feast_comm_count_exchange(void) { counts.exchanges++; }

void feast_comm_set_reduction_latency(double seconds) { latency = seconds > 0 ? seconds : 0.0; }

void feast_comm_wait_latency(double t0) {
  if (latency <= 0) return;
  while (feast_wtime() < t0 + latency) {
  }
}

#include "feast/base/signals.h"
#include "feast/base/error.h"
#include <signal.h>
#include <string.h>

static volatile sig_atomic_t received = 0;

static void on_stop_signal(int signal_number) { received = signal_number; }

int feast_signals_install(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART | SA_RESETHAND; /* a second signal: the default action */
  FEAST_CHECK(sigaction(SIGTERM, &sa, NULL) == 0 && sigaction(SIGINT, &sa, NULL) == 0, FEAST_ERR_INTERNAL,
              "cannot install the SIGTERM/SIGINT handlers");
  return 0;
}

int feast_signals_agree(MPI_Comm comm, int *signal_number) {
  int mine = received;
  FEAST_MPI_CALL(MPI_Allreduce(&mine, signal_number, 1, MPI_INT, MPI_MAX, comm));
  return 0;
}

const char *feast_signal_name(int signal_number) {
  switch (signal_number) {
  case SIGTERM: return "SIGTERM";
  case SIGINT: return "SIGINT";
  default: return "a signal";
  }
}

/* SIGTERM and SIGINT (a scheduler's end of a job, Ctrl-C) as a request to stop at the
 * next safe point: the handler only records the signal (and restores the default action,
 * so a second signal ends the process at once); a solver asks, collectively at the end of
 * a step, whether any rank got one, then writes its checkpoint and stops
 * (FEAST_ERR_INTERRUPTED, exit status 6). */
#ifndef FEAST_SIGNALS_H
#define FEAST_SIGNALS_H
#include <mpi.h>

/* install the handlers for SIGTERM and SIGINT */
int feast_signals_install(void);
/* collective over comm: the signal number some rank received (the largest), 0 if none */
int feast_signals_agree(MPI_Comm comm, int *signal_number);
/* "SIGTERM", "SIGINT", ... */
const char *feast_signal_name(int signal_number);
#endif

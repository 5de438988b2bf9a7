/* SIGINT and SIGTERM while runs go on: the current run's process group is told to stop, noise
 * burners are killed, and no new run starts. */
#ifndef RIGOR_SIGNALS_H
#define RIGOR_SIGNALS_H

#include <signal.h>
#include <sys/types.h>

void rigor_signals_install(void);
void rigor_signals_restore(void);
/* 0, or the signal received since install. */
int rigor_signals_received(void);
/* The process group a signal also terminates (the current run); 0 for none. */
void rigor_signals_guard(pid_t pgid);

#endif

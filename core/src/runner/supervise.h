/* Watching one run's process from the parent: its lines, its exit, its timeout. */
#ifndef RIGOR_SUPERVISE_H
#define RIGOR_SUPERVISE_H

#include <jansson.h>
#include <stdbool.h>
#include <sys/types.h>

#include "format.h"

typedef struct rigor_run_outcome {
  rigor_run_status_t status;
  char reason[2600];
  int signal;    /* the signal that killed the run's process, 0 for none */
  int exit_code; /* -1 when it did not exit */
  json_t *end;   /* the run's end message, or NULL */
  json_t *slurm; /* the where message's Slurm job, step and node, or NULL */
} rigor_run_outcome_t;

/* Hands each sample message to the sink, which borrows it. */
typedef void (*rigor_sample_sink_fn)(void *arg, json_t *sample);
/* Called on every turn of the watch, at least every 100 ms while the run goes on. */
typedef void (*rigor_tick_fn)(void *arg);

/* Reads the run's lines until EOF, the process's exit, or the timeout, which kills the process
 * group (SIGTERM, then SIGKILL); a grandchild holding the pipe open cannot stall the run. The
 * experiment's time left (`deadline_s`, 0 for none) shortens the timeout: a run killed there is
 * interrupted, not timed out. Then classifies the run from its end message, its exit and
 * `stop_signal` (a signal rigor received, 0 for none). `tick` may be NULL. The caller releases
 * o->end and o->slurm. */
void rigor_supervise(int fd, pid_t pid, double timeout_s, double deadline_s,
                     rigor_sample_sink_fn sink, rigor_tick_fn tick, void *arg,
                     int (*stop_signal)(void), rigor_run_outcome_t *o);

#endif

/* One run, inside its own process: bind, load, init, measure, fini, report to the parent. */
#ifndef RIGOR_CHILD_H
#define RIGOR_CHILD_H

#include <signal.h>
#include <stdbool.h>

#include "context.h"
#include "experiment.h"
#include "loader.h"

/* Exit codes of a run's process (the parent also reads the `end` message). */
enum {
  RIGOR_CHILD_OK = 0,
  RIGOR_CHILD_FAILED = 1,
  RIGOR_CHILD_INVALID = 3,
  RIGOR_CHILD_SKIPPED = 5,
};

typedef struct rigor_child_args {
  const rigor_experiment_t *experiment; /* may be NULL when run from a spec */
  const char *experiment_name;
  const json_t *settings; /* the variant's resolved settings */
  const rigor_plugin_t *plugin;
  uint32_t run, attempt, block, position, variant;
  rigor_comm_t *comm;
  int out_fd; /* JSON Lines to the parent (rank 0 only) */
  bool commands_allowed;
  volatile sig_atomic_t *stop;
} rigor_child_args_t;

/* Returns the process exit code. */
int rigor_child_run(const rigor_child_args_t *a);

#endif

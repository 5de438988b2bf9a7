/* One run, inside its own process: bind, load, init, measure, fini, report to the parent. */
#ifndef RIGOR_CHILD_H
#define RIGOR_CHILD_H

#include <signal.h>
#include <stdbool.h>

#include <jansson.h>
#include <stdint.h>

#include "context.h"
#include "rigor/plugin.h"

typedef struct rigor_child_args {
  const char *experiment_name;
  const json_t *settings; /* the variant's resolved settings */
  const rigor_plugin_t *plugin;
  uint32_t run, attempt, block, position, variant;
  rigor_comm_t *comm;
  int out_fd; /* JSON Lines to the parent (rank 0 only) */
  bool commands_allowed;
  double deadline_s; /* the experiment's time left when the run starts, 0 for no deadline */
  volatile sig_atomic_t *stop;
} rigor_child_args_t;

/* Returns the process exit code (wire.h). */
int rigor_child_run(const rigor_child_args_t *a);

#endif

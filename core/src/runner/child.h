/* One run, inside its own process: bind, load, init, measure, fini, report to the parent. */
#ifndef RIGOR_CHILD_H
#define RIGOR_CHILD_H

#include <signal.h>
#include <stdbool.h>

#include <jansson.h>
#include <stdint.h>

#include "context.h"
#include "environment_settings.h"
#include "rigor/plugin.h"
#include "timing.h"

/* One arm of an interleaved run: a complete plugin instance of its own. */
typedef struct rigor_child_arm {
  const json_t *settings; /* the arm's variant's resolved settings */
  rigor_timing_t timing;  /* and their timing, parsed */
  const rigor_plugin_t *plugin;
  /* A build arm's .so, which the run loads from a private copy of its own; NULL: `plugin`. */
  const char *plugin_file;
  const char *plugin_name;
  uint32_t variant;
} rigor_child_arm_t;

typedef struct rigor_child_args {
  const char *experiment_name;
  const json_t *settings; /* the variant's resolved settings */
  rigor_timing_t timing;  /* and their timing, parsed: the child never reads it from JSON */
  /* The process's environment (binding, telemetry): the first arm's when arms are interleaved,
   * since an interleaved axis varies only what each instance holds. */
  rigor_environment_t environment;
  const rigor_plugin_t *plugin;
  uint32_t run, attempt, block, position, variant;
  rigor_comm_t *comm;
  int out_fd; /* JSON Lines to the parent (rank 0 only) */
  bool commands_allowed;
  double deadline_s; /* the experiment's time left when the run starts, 0 for no deadline */
  volatile sig_atomic_t *stop;
  /* Interleaved arms: every arm measured in this process, in the order of `arm_square`'s rows
   * (arms.h), cycle c taking row (c + arm_first_row) % arm_rows; settings, plugin and variant
   * above are then arm 0's. n_arms 0: the run is one instance. */
  const rigor_child_arm_t *arms;
  uint32_t n_arms;
  const uint32_t *arm_square;
  uint32_t arm_rows, arm_first_row;
  bool allow_unsafe; /* for loading the private copies */
} rigor_child_args_t;

/* Returns the process exit code (wire.h). */
int rigor_child_run(const rigor_child_args_t *a);

#endif

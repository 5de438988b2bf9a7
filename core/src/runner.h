/* The parent side of `rigor run`: one fresh process per run, records appended as they come. */
#ifndef RIGOR_RUNNER_H
#define RIGOR_RUNNER_H

#include <stdbool.h>

#include "experiment.h"
#include "loader.h"

typedef struct rigor_run_opts {
  bool resume;
  bool force;
  bool allow_commands;
  bool progress; /* a progress line on stderr */
  bool quiet;
  rigor_plugin_search_t search;
  const char *self_exe; /* this binary, for launchers */
} rigor_run_opts_t;

/* Runs every experiment of the config. Returns the exit code of DESIGN.md's table. */
int rigor_runner_execute(const rigor_config_t *cfg, const rigor_run_opts_t *opts);

#endif

/* The parent side of `rigor run`: one fresh process per run, records appended as they come.
 * The runner knows no command line: it takes jobs, reports progress through a callback and
 * returns a tally, which the caller turns into an exit code. */
#ifndef RIGOR_RUNNER_H
#define RIGOR_RUNNER_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "environment_settings.h"
#include "format.h"
#include "loader.h"
#include "timing.h"

typedef struct rigor_job_variant {
  const char *label;
  const json_t *axes;                     /* axis key -> value or its label */
  const json_t *settings;                 /* the fully resolved settings */
  const rigor_timing_t *timing;           /* settings.timing as the language parsed it */
  const rigor_environment_t *environment; /* settings.environment likewise */
  /* The build this variant runs (settings.build): its label and the folder its plugin is
   * loaded from, alone; both NULL without a build axis (the plugin search path applies). */
  const char *build, *plugin_dir;
} rigor_job_variant_t;

/* One experiment to run, as the config language resolved it. */
typedef struct rigor_job {
  const char *name, *source, *hash;
  const char *plugin;
  const char *output;     /* the results file */
  const json_t *config;   /* the canonical resolved experiment */
  const json_t *schedule; /* the schedule as the experiment record holds it */
  const rigor_job_variant_t *variants;
  uint32_t n_variants;
  const uint32_t *cells; /* cells[block * n_variants + position] = variant */
  uint32_t n_blocks;
  uint64_t seed;      /* the order's seed, which also draws environment padding */
  bool runs_commands; /* some variant would execute an external command */
  /* The experiment's `deadline` in seconds, 0 for none: once it has passed no run starts, and a
   * running run is given no more than the time left. */
  double deadline_s;
  /* order.replicates: {min, max, precision}, for the after_block callback: the schedule holds
   * max (n_blocks) blocks. precision 0 for a fixed number of blocks. */
  uint32_t min_blocks;
  double precision;
  double decided;       /* replicates.decided: the verdicts' threshold, 0 when off */
  uint32_t square_rows; /* rows of one complete square of the design, 0 for none */
  /* Interleaved arms (order.interleave): each run hosts every arm of one cell. `cells` then
   * holds cell indices, n_cells per block, and arms[cell * n_arms + arm] is an arm's variant.
   * Cycle c of a run in block b measures its arms in the order of row
   * (c + arm_offsets[b]) % arm_rows of arm_square (arm_square[row * n_arms + slot] = arm).
   * n_arms 0: each run is the variant `cells` names, and n_cells (0 or n_variants) is unused. */
  uint32_t n_cells, n_arms;
  const uint32_t *arms;
  const uint32_t *arm_square;
  uint32_t arm_rows;
  const uint32_t *arm_offsets;
} rigor_job_t;

typedef enum {
  RIGOR_PROGRESS_RUN_START = 0, /* a run is about to start */
  RIGOR_PROGRESS_RUN_END,       /* a run finished, with its status */
  RIGOR_PROGRESS_JOB_END,       /* an experiment's runs are all done */
  RIGOR_PROGRESS_RUN_ALIVE,     /* a run is still going: every heartbeat_s while it runs */
} rigor_progress_event_t;

typedef struct rigor_progress {
  rigor_progress_event_t event;
  const rigor_job_t *job;
  uint32_t run;         /* the run's index in the schedule */
  uint32_t total;       /* runs in the schedule */
  uint32_t resumed;     /* runs of the schedule the results file held before (--resume) */
  uint32_t done;        /* runs this invocation has finished in this experiment, this one included
                         * at RUN_END */
  double elapsed_s;     /* since the experiment's first run here started, until now */
  double run_s;         /* RUN_END: how long this run took; RUN_ALIVE: how long it has run */
  uint32_t cycles_done; /* RUN_ALIVE: cycles the run has finished (its samples say) */
  uint32_t cycles;      /* RUN_ALIVE: the cycles the run's timing asks for */
  const char *label;    /* the run's variant */
  rigor_run_status_t status;
  const char *reason;
  bool deadline; /* JOB_END: the deadline stopped the experiment before its schedule ended */
} rigor_progress_t;

typedef enum {
  RIGOR_BLOCK_DONE = 0, /* a block is complete and the schedule holds more */
  RIGOR_BLOCK_LAST,     /* the schedule's last block is complete */
  RIGOR_BLOCK_DEADLINE, /* the deadline passed: no further run of this experiment starts */
} rigor_block_event_t;

/* Where an experiment stands after a block: every run of its first `blocks` blocks has run (in
 * this invocation or before it) and no run of a later block has. */
typedef struct rigor_block_report {
  const rigor_job_t *job;
  rigor_block_event_t event;
  uint32_t blocks;
} rigor_block_report_t;

typedef struct rigor_run_opts {
  bool resume;
  bool force;
  bool allow_commands;
  /* --resume goes on with a plugin whose hash differs from the recorded one; the run records
   * of this invocation name both hashes. */
  bool allow_rebuilt;
  rigor_plugin_search_t search;
  const char *self_exe;               /* this binary, for launchers */
  const char *const *protected_paths; /* NULL-terminated: files results must never overwrite */
  const char *rigor_version, *rigor_git;
  void (*progress)(void *arg, const rigor_progress_t *p); /* may be NULL */
  /* While a run goes on, a RUN_ALIVE event every heartbeat_s seconds of it; 0 for none. */
  double heartbeat_s;
  void *progress_arg;
  /* Every record as it is appended to a job's results file (the experiment record, samples,
   * run records, stop records), so that the caller can follow the results without reading them
   * back; returns 0, or nonzero with `err` to stop the invocation (rigor_runner_execute then
   * returns it). NULL for none. */
  int (*on_record)(void *arg, const rigor_job_t *job, const json_t *rec, char *err, size_t errlen);
  void *on_record_arg;
  /* Every line as it is appended to a job's raw telemetry sidecar, in the same form; NULL for
   * none. A campaign's step sends them to its driver. */
  int (*on_telemetry)(void *arg, const rigor_job_t *job, const json_t *line, char *err,
                      size_t errlen);
  void *on_telemetry_arg;
  /* Called after each complete block and when the deadline stops an experiment; returns 1 to
   * go on, 0 to run no further block (read after RIGOR_BLOCK_DONE only), or a negative error
   * with `err` to stop the invocation. A record it hands back in *record is appended to the
   * results file. The runner does not judge results: this is where the caller stops an
   * experiment once its answer is precise enough. NULL runs every block. */
  int (*after_block)(void *arg, const rigor_block_report_t *b, json_t **record, char *err,
                     size_t errlen);
  void *after_block_arg;
  /* A job step of a campaign (`rigor __step`): only these runs of the schedule run, with no
   * after_block question; NULL runs them all. */
  const uint32_t *only_runs;
  size_t n_only_runs;
  /* A step's share of its campaign's deadline: the seconds left when the driver started it,
   * which replace the experiment's own `deadline`; 0 keeps the experiment's. */
  double deadline_left_s;
  /* Inside a Slurm allocation: every job's blocks run as job steps on its nodes (campaign.h);
   * NULL runs every run here. */
  const struct rigor_campaign *campaign;
} rigor_run_opts_t;

/* What the runs of one invocation came to. */
typedef struct rigor_tally {
  unsigned ran, ok, failed, invalid, skipped, interrupted;
  int signal; /* SIGINT or SIGTERM that stopped the invocation, 0 for none */
} rigor_tally_t;

/* Runs the jobs in order, stopping at the first one that cannot run. Returns 0;
 * RIGOR_ECONFIG when a job was refused before it ran (its results file exists, it would run
 * commands without allow_commands, its plugin cannot be loaded, its results file cannot be
 * resumed); RIGOR_EIO when records could not be written; or the error on_record or
 * after_block returned. `err` says why. */
int rigor_runner_execute(const rigor_job_t *jobs, size_t n_jobs, const rigor_run_opts_t *opts,
                         rigor_tally_t *tally, char *err, size_t errlen);

#endif

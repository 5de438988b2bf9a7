/* What the runner's files share: the state of one invocation, and the record path a campaign
 * (campaign.c) appends through, so that its records are followed and counted as a run's are. */
#ifndef RIGOR_RUNNER_INTERNAL_H
#define RIGOR_RUNNER_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "checks.h"
#include "loader.h"
#include "resume.h"
#include "runner.h"
#include "writer.h"

typedef struct runner {
  const rigor_run_opts_t *opts;
  const rigor_job_t *jobs; /* all of this invocation's */
  size_t n_jobs;
  const rigor_job_t *job;
  /* One plugin per folder the job's variants load from (the search path's, or each build's);
   * a forked run inherits them all, a spawned one is told its folder. */
  rigor_loaded_t **loaded;
  size_t n_loaded;
  rigor_loaded_t **of_variant; /* by variant */
  rigor_results_writer_t out;
  rigor_results_writer_t telemetry_out; /* sidecar for raw telemetry, fd < 0 when unused */
  char *err;
  size_t errlen;
  int failed;
  rigor_tally_t *tally;
  uint32_t resumed;           /* runs of the job's schedule the resumed file already held */
  rigor_env_window_t *window; /* the sampled environment checks, open while the runs run */
  bool unsynced;              /* records appended to `out` since its last fsync */
  uint64_t deadline_ns; /* absolute CLOCK_MONOTONIC time the experiment's deadline falls, 0 none */
  /* The run going on, for its heartbeat: its progress event, when it and the experiment
   * started, when the next beat is due, and the cycles its samples have finished. */
  rigor_progress_t *running;
  uint64_t run_start_ns, job_start_ns, next_beat_ns;
  uint32_t cycles_done;
  json_t *rebuilt; /* --allow-rebuilt: the plugins that changed since the file began, or NULL */
} runner_t;

/* Appends a record to the results file (and to on_record); r->failed says when it failed. */
void rigor__runner_append(runner_t *r, const json_t *rec);
/* A line of the raw telemetry sidecar (nothing when the job keeps none). */
void rigor__runner_append_telemetry(runner_t *r, const json_t *line);
/* fsyncs the results file when something was appended since the last time. */
void rigor__runner_sync(runner_t *r);
void rigor__runner_count(runner_t *r, rigor_run_status_t status);
/* Tells the caller (after_block) where the experiment stands: whether to go on. A record it
 * hands back with its answer to stop goes into *held when `held` is not NULL (replacing one held
 * before; the caller appends it later), else into the results file at once; an error sets
 * r->failed. */
bool rigor__runner_ask(runner_t *r, rigor_block_event_t event, uint32_t blocks, json_t **held);
void rigor__runner_report(const runner_t *r, rigor_progress_t *p);

/* Runs the job's unfinished runs as job steps of the allocation's nodes (campaign.h); rs is the
 * results file's resume scan, kept up to date. Returns 0, or an error with r->err. */
int rigor__campaign_run(runner_t *r, rigor_resume_t *rs);

#endif

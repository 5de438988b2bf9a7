/* The results format, rigor.result/1 (docs/results-format.md): JSON Lines, one record per line,
 * of five types. Here: the schema name, the run and sample statuses, and the builders of the
 * experiment, run, stop and telemetry records. The sample record, the one written per window,
 * has its own home in sample_record.h: the table of its members from which its builder and both
 * readers are made. */
#ifndef RIGOR_FORMAT_H
#define RIGOR_FORMAT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" { /* sample_dom.cpp reads the sample statuses */
#endif

#define RIGOR_RESULT_SCHEMA "rigor.result/1"

/* A run's status, written as its name in run records. */
typedef enum {
  RIGOR_RUN_OK = 0,
  RIGOR_RUN_FAILED,
  RIGOR_RUN_CRASHED,
  RIGOR_RUN_TIMEOUT,
  RIGOR_RUN_SKIPPED,
  RIGOR_RUN_INVALID,
  RIGOR_RUN_INTERRUPTED,
  RIGOR_RUN_STATUS_COUNT,
} rigor_run_status_t;
extern const char *const rigor_run_status_names[]; /* indexed by rigor_run_status_t */
/* The status named `name`; unknown or NULL names read as failed. */
rigor_run_status_t rigor_run_status_parse(const char *name);
/* A run that --resume does not repeat: it finished (ok, skipped on this machine, or invalid). */
bool rigor_run_status_final(rigor_run_status_t s);

/* What a window gave, written as its name. */
typedef enum {
  RIGOR_SAMPLE_OK = 0,
  RIGOR_SAMPLE_TOO_SHORT, /* under the window floor, or of zero length */
  RIGOR_SAMPLE_WRONG,     /* the check failed */
  RIGOR_SAMPLE_INVALID,   /* a NaN or negative time */
  RIGOR_SAMPLE_STATUS_COUNT,
  RIGOR_SAMPLE_UNKNOWN = RIGOR_SAMPLE_STATUS_COUNT, /* read only: absent or another name */
} rigor_sample_status_t;
extern const char *const rigor_sample_status_names[]; /* indexed by rigor_sample_status_t */
/* The status named `name`; RIGOR_SAMPLE_UNKNOWN for NULL or another name. */
rigor_sample_status_t rigor_sample_status_parse(const char *name);

/* A record of `type` with its schema and experiment set. */
json_t *rigor_record_new(const char *type, const char *experiment);
/* The members every line from a run carries: schema, experiment, run, attempt, variant. */
void rigor_record_stamp(json_t *rec, const char *experiment, uint32_t run, uint32_t attempt,
                        uint32_t variant);

/* What an experiment record holds besides what the config resolved. */
typedef struct rigor_experiment_record {
  const char *name, *hash, *source;
  const json_t *config;   /* the canonical resolved experiment */
  const json_t *variants; /* [{index, label, axes, settings}] */
  const json_t
      *schedule;  /* {design, seed, replicates, randomize, square_rows, incomplete, blocks} */
  json_t *plugin; /* {name, version, file, sha256, params, metrics}; taken */
  json_t *builds; /* with a build axis: [{label, plugin_path, ...as plugin}]; taken, NULL none */
  double clock_resolution_s, clock_now_cost_s;
  json_t *identity, *checks; /* taken */
  const char *rigor_version, *rigor_git;
} rigor_experiment_record_t;
json_t *rigor_record_experiment(const rigor_experiment_record_t *x);

/* What a run record holds. */
typedef struct rigor_run_record {
  const char *experiment, *label;
  uint32_t run, attempt, block, position, variant;
  rigor_run_status_t status;
  const char *reason; /* kept only for a status other than ok; NULL for none */
  int signal;         /* 0 for none */
  int exit_code;      /* < 0 for none */
  const char *start, *end;
  double elapsed_s;
  json_t *affinity, *noise, *telemetry, *plugin_identity; /* taken; NULL writes null ({}) */
  long env_pad;                                           /* < 0 for none */
  json_t *checks;      /* taken: the sampled environment checks whose window closed with this run;
                          NULL leaves the member out */
  json_t *calibration; /* taken: iters: auto, per point; NULL leaves the member out */
  /* Interleaved arms: the variant of each arm the run hosted, in arm order (`variant` is arm
   * 0's); n_arms 0 leaves the member out. */
  const uint32_t *arms;
  uint32_t n_arms;
  /* A resume that went on with rebuilt plugins (--allow-rebuilt): [{build, file, recorded,
   * now}], the hashes the file began with and the ones this run loaded; NULL leaves it out. */
  const json_t *rebuilt;
  /* Under Slurm: {job_id, step_id, node, nodes, tasks, rank, state} of the run's rank 0; NULL
   * leaves the member out. */
  const json_t *slurm;
} rigor_run_record_t;
json_t *rigor_record_run(const rigor_run_record_t *x);

/* Why an experiment stopped adding blocks. */
typedef enum {
  RIGOR_STOP_PRECISION = 0, /* every interval reached order.replicates.precision */
  RIGOR_STOP_MAX,           /* the schedule's last block ran */
  RIGOR_STOP_DEADLINE,      /* the experiment's deadline passed */
  RIGOR_STOP_DECIDED,       /* every contrast's verdict was beyond doubt (replicates.decided) */
  RIGOR_STOP_COUNT,
} rigor_stop_reason_t;
extern const char *const rigor_stop_reason_names[]; /* indexed by rigor_stop_reason_t */
/* The reason named `name`, or -1. */
int rigor_stop_reason_parse(const char *name);
/* A stop that ends the experiment, so --resume runs nothing more; a deadline does not. */
bool rigor_stop_final(rigor_stop_reason_t r);

/* What a stop record holds: how many blocks an experiment ran and why it stopped there, with
 * every interval the stop rule read (a contrast's or a row's). */
typedef struct rigor_stop_record {
  const char *experiment;
  uint32_t blocks;                 /* complete blocks in the file */
  uint32_t min_blocks, max_blocks; /* the order's; min = max for a fixed number of blocks */
  double precision;                /* the order's target, 0 for a fixed number of blocks */
  double decided;                  /* the order's replicates.decided threshold, 0 when off */
  rigor_stop_reason_t reason;
  double worst_half_width_log; /* the widest interval the rule read (log scale; INFINITY none) */
  json_t *targets;             /* taken: [{kind, ..., half_width_log, stop}] */
} rigor_stop_record_t;
json_t *rigor_record_stop(const rigor_stop_record_t *x);

/* One raw telemetry sample of a run, for the RESULTS.telemetry.jsonl sidecar. */
json_t *rigor_record_telemetry(const json_t *sample, const char *experiment, uint32_t run,
                               uint32_t attempt);

#ifdef __cplusplus
}
#endif

#endif

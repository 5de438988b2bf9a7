/* Analysis of results files: samples grouped into (experiment, variant, point) rows with their
 * statistics and gate verdict, run outcomes per variant, variance components, and the position
 * and carryover effects of balanced orders. Statistics use samples with status ok from runs
 * with status ok; samples of an attempt without a run record are ignored. */
#ifndef RIGOR_ANALYSIS_H
#define RIGOR_ANALYSIS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "format.h"
#include "inference.h"
#include "stats.h"

#define RIGOR_GATE_CV_MAX_DEFAULT      0.05
#define RIGOR_GATE_MIN_SAMPLES_DEFAULT 5
#define RIGOR_GATE_STATISTIC_DEFAULT   RIGOR_GATE_CV
/* Variance components suggest runs and cycles for a 95% interval of +-1% of the mean. */
#define RIGOR_VARIANCE_TARGET 0.01
/* The most runs and cycles a suggestion names (a suggestion at the bound means "at least"). */
#define RIGOR_VARIANCE_MAX_RUNS   1000
#define RIGOR_VARIANCE_MAX_CYCLES 1000

typedef enum {
  RIGOR_VERDICT_STABLE = 0,
  RIGOR_VERDICT_UNSTABLE, /* CV above gate.cv_max */
  RIGOR_VERDICT_TOO_FEW,  /* fewer samples than gate.min_samples */
  RIGOR_VERDICT_WRONG,    /* some sample failed its correctness check */
  RIGOR_VERDICT_NO_DATA,  /* no usable sample */
} rigor_verdict_t;
const char *rigor_verdict_name(rigor_verdict_t v);

typedef enum {
  RIGOR_GATE_CV =
      0, /* the nccl-tests methodology study: population sd / mean over the pooled cycles */
  RIGOR_GATE_ROBUST, /* 1.4826 * MAD / median over the pooled cycles */
} rigor_gate_statistic_t;
const char *rigor_gate_statistic_name(rigor_gate_statistic_t s);

/* The figure a row is judged by (gate, contrasts, compare, rounds, expectations): the time per
 * operation, or the plugin's primary metric when the plugin declares one and the samples carry
 * it. The window time stays reported either way. */
typedef struct rigor_figure {
  const char *name; /* "time_s", or the metric's name */
  const char *unit; /* "s", or the metric's unit */
  bool higher_is_better;
  bool exact; /* a metric identical in every usable sample: a count, not a measurement */
  size_t n;
  double *values; /* usable samples in file order; the row's times for "time_s" */
  uint32_t *run_of;
  rigor_summary_t summary;
  /* The step below which the values resolve nothing: for times, the clock's resolution over
   * iters x agg, or the smallest gap between two values when that is larger. */
  double quantum;
  size_t n_runs;
  uint32_t *runs;     /* ok runs that gave a value, ascending */
  double *run_median; /* the figure's median in each of them */
  double robust;      /* 1.4826 * MAD / median over the pooled values */
  double within_run;  /* pooled within-run sd over the grand mean (the cycles' own noise) */
  double between_run; /* sample sd of the logs of the run medians; NaN with fewer than 2 runs */
  /* 95% half-width of the mean log run median, t * between_run / sqrt(runs), at least the
   * quantum's share; INFINITY with fewer than 2 runs, 0 when exact. */
  double half_width;
  size_t n_outliers; /* cycles far from their run's median (docs/methodology.md) */
} rigor_figure_t;

/* gate.expect: a figure the row must reach ("busbw >= 300GB/s"). */
typedef struct rigor_expectation {
  const char *figure; /* "time", "rate", "busbw", "flops" or a plugin metric (borrowed) */
  const char *op;     /* ">=", "<=", ">", "<" */
  const char *text;   /* as written */
  double reference;
  double value; /* the row's median of the figure; NaN when it has none */
  bool met;
} rigor_expectation_t;

typedef struct rigor_metric_summary {
  char *name;
  size_t n;
  double median, min;
  /* A flag (rigor_metric_is_flag): shown as on, off or how many samples had it, never judged as
   * a performance figure. */
  bool flag;
  size_t n_set; /* samples at 1, for a flag */
  bool state;   /* a flag or a metric declared not a figure (rigor_metric_is_state): never judged */
} rigor_metric_summary_t;

typedef struct rigor_row {
  uint32_t variant, point;
  const char *variant_label; /* borrowed from the experiment or run records */
  char *point_label;         /* owned, may be NULL */
  json_t *point_params;      /* owned, may be NULL */
  /* Usable samples in file order, with the run and cycle each came from. */
  size_t n;
  double *times;
  uint32_t *run_of, *cycle_of;
  rigor_summary_t time;
  double first_cycle_penalty; /* median over runs; NaN when no run has 2 cycles */
  /* Per-iteration timing, when the samples carry it: iteration CV is the median of the
   * per-sample CVs (variation inside one window); percentiles pool the raw iterations when
   * present, otherwise they are medians of the per-sample figures. */
  bool has_iterations;
  size_t iter_n;
  double iter_min, iter_max, iter_p50, iter_p95, iter_p99, iter_cv;
  char *window;                                 /* "wall" or "cputime"; owned */
  double iters, agg, bytes, flops, bus_factor;  /* per operation, from the usable samples */
  double bytes_per_s, flops_per_s, busbw_per_s; /* medians; NaN when not derivable */
  double best_bytes_per_s; /* STREAM's figure: bytes / min time, first cycle excluded */
  size_t n_wrong, n_too_short, n_invalid; /* sample statuses over complete runs */
  size_t n_checked; /* samples whose correctness check ran (imports of tools without one: 0) */
  rigor_metric_summary_t *metrics;
  size_t n_metrics;
  rigor_figure_t figure;
  double cv_max; /* the gate's bound on the statistic it reads */
  uint32_t min_samples;
  rigor_gate_statistic_t statistic;
  double gate_value; /* that statistic of the figure */
  rigor_verdict_t verdict;
  rigor_expectation_t *expect;
  size_t n_expect;
  bool below_expectation; /* some expectation the row has a value for is not met */
  /* The nodes its usable runs ran on (the run records' slurm.node), sorted and joined by
   * commas; owned, NULL when no run names one. */
  char *nodes;
  size_t n_nodes;
  /* Kalibera & Jones components when >= 2 ok runs each give the same number (>= 2) of cycles.
   * When every run names its node, there are two nodes or more and some node gave two runs,
   * the nodes are a third level (has_node_variance; variance.nodes and the node fields) and
   * the between-run figures are those within the nodes. */
  bool has_variance, has_node_variance;
  rigor_variance_t variance;
  /* 0 when the costs are unknown. With no between-run variance (T2^2 <= 0) there is nothing to
   * trade cycles against: the cycles stay as they ran and the runs are those they call for. */
  uint32_t suggest_cycles, suggest_runs;
} rigor_row_t;

typedef struct rigor_run_info {
  uint32_t run, attempt, block, position, variant;
  rigor_run_status_t status;
  const char *reason; /* borrowed, may be NULL */
  json_t *record;     /* borrowed */
  size_t n_samples, n_wrong;
} rigor_run_info_t;

/* A variant's gate as its results record it (variant_settings.c reads it once): the variant's own
 * `gate`, then the experiment's, then its defaults', then rigor's defaults. */
typedef struct rigor_gate_settings {
  double cv_max;
  uint32_t min_samples;
  rigor_gate_statistic_t statistic;
  const json_t *expect; /* gate.expect: {figure: {op, value, text}}, borrowed; NULL: none */
  /* The history check's change-point test; NaN: its defaults (history.h). */
  double change_significance, change_min_magnitude, change_window;
} rigor_gate_settings_t;

typedef struct rigor_variant_info {
  uint32_t index;
  const char *label;
  json_t *axes, *settings; /* borrowed from the experiment record, may be NULL */
  /* Read once from `settings` (variant_settings.c); the experiment's own when settings is NULL. */
  rigor_gate_settings_t gate;
  bool iters_auto;        /* timing.iters: auto: each run calibrated its own count */
  double clock_threshold; /* environment.telemetry.clock_threshold; NaN when not recorded */
  size_t status_count[RIGOR_RUN_STATUS_COUNT];
  json_t *reasons; /* array of "run K: status: reason" */
  json_t *flags;   /* object: flag -> number of runs */
} rigor_variant_info_t;

/* Position and carryover effects at one point: each ok run's median time divided by its
 * variant's median (which removes the treatment), then the median of those ratios by
 * execution position, and by preceding variant when the schedule balances carryover. Effects are
 * fractions; spreads are max - min. */
typedef struct rigor_design_effect {
  uint32_t point;
  const char *point_label;
  size_t n_positions;
  double *position; /* NaN where no run sat */
  double position_spread;
  bool has_carryover;
  size_t n_preceding;
  double *carryover; /* indexed by preceding variant */
  double carryover_spread;
  double treatment_spread; /* max / min of the variants' medians - 1 */
  bool warn_position, warn_carryover;
} rigor_design_effect_t;

typedef struct rigor_exp_analysis {
  char *name;
  const char *source; /* the results file */
  json_t *record;     /* the experiment record (borrowed), may be NULL */
  const char *design; /* schedule design, or NULL */
  bool incomplete_design;
  /* What the recorded schedule balances, read from its blocks (any design, any version). */
  bool positions_vary;     /* some variant ran at more than one position */
  bool carryover_balanced; /* every variant followed every other equally often */
  rigor_variant_info_t *variants;
  size_t n_variants;
  rigor_gate_settings_t gate; /* of a row whose variant the experiment record does not describe */
  rigor_run_info_t *runs;
  size_t n_runs;
  rigor_row_t *rows; /* ordered by variant, then point */
  size_t n_rows;
  rigor_design_effect_t *effects;
  size_t n_effects;
  size_t ignored_samples;    /* samples of attempts that have no run record */
  size_t duplicate_records;  /* run records of a (run, attempt) already read, not counted */
  size_t duplicate_samples;  /* their samples */
  size_t mismatched_samples; /* samples whose variant is not their run's, not counted */
  json_t *stop;              /* the last stop record (adaptive replication, a deadline), or NULL */
} rigor_exp_analysis_t;

/* The gate a row of e's variant v answers to. */
const rigor_gate_settings_t *rigor_gate_of(const rigor_exp_analysis_t *e, uint32_t v);

/* The plugin metric `name` as e's experiment record declares it ({name, unit, better, ...}), or
 * NULL. */
const json_t *rigor_metric_declared(const rigor_exp_analysis_t *e, const char *name);

/* Whether the plugin metric `name` of e is a flag rather than a performance figure. The plugin
 * ABI declares no kind, so a flag is read from what is there: the metric's declared unit is
 * "bool" and every value is 0 or 1 (stream's nt_stores). */
bool rigor_metric_is_flag(const rigor_exp_analysis_t *e, const char *name, const double *values,
                          size_t n);
/* A state the run was in, never a performance figure: a flag, or a metric the plugin declares
 * RIGOR_NOT_A_FIGURE ("better": "none": the store path a kernel took, the threads that ran it).
 * No gate, comparison, contrast or history judges it. */
bool rigor_metric_is_state(const rigor_exp_analysis_t *e, const char *name, const double *values,
                           size_t n);

typedef struct rigor_analysis {
  json_t *records; /* per file, an array of its experiment and run records (samples are read as
                    * they stream past, never kept); everything borrowed points into these */
  char **sources;
  size_t n_sources;
  bool *truncated; /* per source */
  rigor_exp_analysis_t *exps;
  size_t n_exps;
} rigor_analysis_t;

/* Loads and analyses results files. Each file's experiments are analysed on their own (run
 * indices are per file). Errors are "file:line:col: message" or "file: ...". */
int rigor_analysis_load(const char *const *paths, size_t n_paths, rigor_analysis_t **out, char *err,
                        size_t errlen);
/* Analyses records already in memory, as the store gives them (one source, named
 * `source` in messages); takes the array. */
int rigor_analysis_of_records(json_t *records, const char *source, rigor_analysis_t **out,
                              char *err, size_t errlen);
void rigor_analysis_free(rigor_analysis_t *a);

/* How much the runs of a row over its gate differ from each other (the sd of the logs of its run
 * medians), 0 for a row within its gate or with fewer than two runs. Files run minutes apart
 * differ by at least what runs seconds apart do, so a direction read across files from such a
 * row must clear this as well as the threshold. */
double rigor_row_noise(const rigor_row_t *w);
/* Why a row has no usable sample, in words that say what to change: "all 30 windows too_short:
 * raise iters or use iters: auto", or that no run finished ok. v is the row's variant. */
void rigor_row_no_data_reason(const rigor_row_t *w, const rigor_variant_info_t *v, char *buf,
                              size_t len);

/* Rows of a that are below an expectation of their gate (rigor run exits 3 for them). */
size_t rigor_expectations_missed(const rigor_analysis_t *a);

#endif

/* What the precision accumulator keeps (precision_acc.c fills it, precision_judge.c reads it). */
#ifndef RIGOR_PRECISION_ACC_INTERNAL_H
#define RIGOR_PRECISION_ACC_INTERNAL_H

#include "analysis_internal.h"
#include "contrast.h"
#include "precision_acc.h"

/* A run's usable values of one series, in the order they came. */
typedef struct acc_run {
  uint32_t run, block;
  dvec_t values;
  u32vec_t cycles; /* the time series': each value's cycle, for pairing the windows of arms */
  double median;
  uint64_t stamp;        /* the accumulator's count of changes when the values last changed */
  uint64_t median_stamp; /* the stamp the median was taken at */
  /* Interleaved arms: this run's mean window log ratio against `memo_ref`'s run, valid while
   * neither run changed since memo_stamp; memo_units 0 when the run gave no pair. */
  bool memo;
  uint32_t memo_ref;
  uint64_t memo_stamp;
  double memo_d;
  size_t memo_units;
} acc_run_t;

/* The usable values of a row for one figure (its times, or the primary metric). */
typedef struct acc_series {
  dvec_t sorted;   /* every value, ascending */
  double gap;      /* the smallest positive gap between two of them, 0 for none */
  acc_run_t *runs; /* by ascending run index */
  size_t n_runs, runs_cap;
  dvec_t block_median; /* by block: the median of the lowest run index in it, NaN for none */
  u32vec_t block_run;  /* by block: that run, UINT32_MAX for none */
} acc_series_t;

typedef struct acc_row {
  bool used; /* a sample of a complete run that measured it counted: the analysis has the row */
  char *point_label;
  double iters, agg; /* of the last usable sample */
  acc_series_t time, metric;
} acc_row_t;

typedef struct acc_points {
  acc_row_t *points;
  size_t n;
} acc_points_t;

/* A sample waiting for its run record. */
typedef struct acc_sample {
  uint32_t variant, point, cycle;
  bool ok; /* status ok, and no wrong elements */
  bool has_metric;
  double time_s, iters, agg, metric;
} acc_sample_t;

typedef struct acc_held {
  uint32_t run, attempt;
  acc_sample_t *samples;
  size_t n, cap;
} acc_held_t;

/* The run records of one run index, one per attempt (kept: they lend labels and count samples
 * that come after them). */
typedef struct acc_attempts {
  uint32_t *attempt;
  json_t **record;
  size_t n, cap;
} acc_attempts_t;

typedef struct acc_exp {
  char *name;
  json_t *record; /* the experiment record, NULL until it comes */
  /* The experiment as the pairings read it: its variants' labels and axes, and its record. */
  rigor_exp_analysis_t shape;
  rigor_contrast_pairs_t pairs;
  const char *primary;   /* the plugin's primary metric, or NULL */
  double clock_res;      /* the clock's resolution in seconds, NaN when unknown */
  const char *arms_axis; /* the interleaved axis, or NULL */
  const json_t *interleave;
  acc_points_t *rows; /* by variant, then point */
  size_t n_rows_v;
  acc_held_t *held;
  size_t n_held, held_cap;
  acc_attempts_t *attempts; /* by run index: the attempts whose run record came */
  size_t n_attempts;
  uint32_t max_block; /* over every run record */
  bool any_run;
} acc_exp_t;

struct rigor_precision_acc {
  acc_exp_t *exps;
  size_t n_exps;
  uint64_t stamp;
};

/* The series a row is judged by: the primary metric when the row has values of it. */
static inline const acc_series_t *acc_figure(const acc_exp_t *x, const acc_row_t *w) {
  return x->primary && w->metric.sorted.n > 0 ? &w->metric : &w->time;
}

#endif

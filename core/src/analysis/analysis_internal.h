/* Internals shared by the analysis files: the accumulators rows are built from. */
#ifndef RIGOR_ANALYSIS_INTERNAL_H
#define RIGOR_ANALYSIS_INTERNAL_H

#include <stdlib.h>

#include "analysis.h"
#include "rigor/plugin.h"

typedef struct dvec {
  double *v;
  size_t n, cap;
} dvec_t;

static inline int dvec_push(dvec_t *d, double x) {
  if (d->n == d->cap) {
    size_t cap = d->cap ? 2 * d->cap : 16;
    double *v = realloc(d->v, cap * sizeof *v);
    if (!v) return RIGOR_ENOMEM;
    d->v = v;
    d->cap = cap;
  }
  d->v[d->n++] = x;
  return 0;
}

typedef struct u32vec {
  uint32_t *v;
  size_t n, cap;
} u32vec_t;

static inline int u32vec_push(u32vec_t *d, uint32_t x) {
  if (d->n == d->cap) {
    size_t cap = d->cap ? 2 * d->cap : 16;
    uint32_t *v = realloc(d->v, cap * sizeof *v);
    if (!v) return RIGOR_ENOMEM;
    d->v = v;
    d->cap = cap;
  }
  d->v[d->n++] = x;
  return 0;
}

typedef struct metric_acc {
  char *name;
  dvec_t values;
  u32vec_t runs;    /* the run of each value, so a metric can be judged as runs of cycles */
  size_t first_use; /* its place by first counted value, from 1; 0 while it has none */
} metric_acc_t;

/* A row while samples come in. Rows exist from a (variant, point)'s first sample; `used` once a
 * sample of a complete run counted. */
typedef struct row_acc {
  bool used;
  rigor_row_t row; /* point_label, point_params and window owned until the row is finished */
  dvec_t times, bps, fps, busbw;
  u32vec_t runs, cycles;
  dvec_t it_cv, it_p50, it_p95, it_p99, it_raw;
  bool it_all_raw;
  metric_acc_t *metrics;
  size_t n_metrics, metrics_cap, metrics_used;
  json_t *metric_slots; /* name -> index in metrics, so intake stays linear in the names */
} row_acc_t;

typedef struct variant_rows {
  row_acc_t *points;
  size_t n;
} variant_rows_t;

typedef struct held_run held_run_t;

/* Per experiment, parallel to rigor_analysis_t.exps. */
typedef struct exp_build {
  variant_rows_t *vrows;
  size_t n_vrows;
  size_t runs_cap;  /* of the experiment's runs */
  size_t *run_head; /* by run index: 1 + index of its first run info, 0 when none */
  size_t n_run_head, run_head_cap;
  size_t *run_next; /* by run info: 1 + index of the next attempt of the same run, 0 at the end */
  size_t run_next_cap;
  /* Samples wait here, by (run, attempt), until their run record (which follows them) says
   * whether they count. */
  held_run_t *held;
  size_t n_held, held_cap;
  size_t *held_head; /* by run index: 1 + index in held of its first waiting attempt */
  size_t n_held_head, held_head_cap;
  json_t *windows; /* the "window" names seen, each kept once */
  const char *last_window;
} exp_build_t;

/* Per-run medians of a row (for design effects), with the first-cycle penalty and the variance
 * components computed from the same grouping. */
typedef struct run_medians {
  uint32_t *run;
  double *median;
  size_t n;
} run_medians_t;

/* Grows *p (of *cap elements of `elem` bytes, zero-filled) to hold `need`. */
int rigor__grow(void **p, size_t *cap, size_t need, size_t elem);
double rigor__median_of(const dvec_t *d);
/* The variant's info, created (zeroed) when the records name it first. */
rigor_variant_info_t *rigor__variant_info(rigor_exp_analysis_t *e, uint32_t v);

/* variant_settings.c: every variant's gate, timing.iters and clock threshold, read once from
 * the experiment record before the runs are flagged and the rows finished. */
void rigor__read_variant_settings(rigor_exp_analysis_t *e);

/* rows.c: a row's statistics, run medians and gate verdict from its accumulator. */
int rigor__finish_row(rigor_exp_analysis_t *e, row_acc_t *ra, run_medians_t *rm);
void rigor__free_acc(row_acc_t *ra);
/* Everything a finished row owns. */
void rigor__free_row(rigor_row_t *row);
/* expect.c: the row's gate.expect, evaluated on its medians. */
int rigor__row_expectations(const rigor_gate_settings_t *gate, rigor_row_t *row);
/* figure.c: the figure a row is judged by, its run medians and its spreads. */
int rigor__finish_figure(const rigor_exp_analysis_t *e, row_acc_t *ra);
/* precision.c: suggested cycles and runs from the variance components. */
void rigor__suggest_counts(rigor_exp_analysis_t *e);
/* effects.c: position and carryover effects of the schedule. */
/* What a schedule's blocks (an array of rows of variant indices) balance. */
void rigor__schedule_balance(const json_t *blocks, bool *positions_vary, bool *carryover_balanced);
int rigor__design_effects(rigor_exp_analysis_t *e, const run_medians_t *rm);
/* clock_flags.c: the low_clock flag on each variant's runs. */
int rigor__flag_low_clock(rigor_exp_analysis_t *e);

#endif

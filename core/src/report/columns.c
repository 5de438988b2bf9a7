#include "columns.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "json_util.h"

static const char *raw_variant_label(const rigor_row_t *r) {
  return r->variant_label;
}
static const char *raw_point_label(const rigor_row_t *r) {
  return r->point_label;
}
static const char *window(const rigor_row_t *r) {
  return r->window;
}
static const char *verdict(const rigor_row_t *r) {
  return rigor_verdict_name(r->verdict);
}
static double n(const rigor_row_t *r) {
  return (double)r->n;
}
static double median(const rigor_row_t *r) {
  return r->time.median;
}
static double p95(const rigor_row_t *r) {
  return r->time.p95;
}
static double p99(const rigor_row_t *r) {
  return r->time.p99;
}
static double mean(const rigor_row_t *r) {
  return r->time.mean;
}
static double sd(const rigor_row_t *r) {
  return r->time.sd;
}
static double cv(const rigor_row_t *r) {
  return r->time.cv;
}
static double min(const rigor_row_t *r) {
  return r->time.min;
}
static double max(const rigor_row_t *r) {
  return r->time.max;
}
static double first_cycle(const rigor_row_t *r) {
  return r->first_cycle_penalty;
}
static double rate(const rigor_row_t *r) {
  return r->bytes_per_s;
}
static double flops_rate(const rigor_row_t *r) {
  return r->flops_per_s;
}
static double busbw(const rigor_row_t *r) {
  return r->busbw_per_s;
}
static double best(const rigor_row_t *r) {
  return r->best_bytes_per_s;
}
static double bytes(const rigor_row_t *r) {
  return r->bytes;
}
static double flops(const rigor_row_t *r) {
  return r->flops;
}
static double cv_max(const rigor_row_t *r) {
  return r->cv_max;
}
/* No check ran on any window (an import of a tool that has none): unknown, not 0. */
static double wrong(const rigor_row_t *r) {
  return r->n_checked || r->n_wrong ? (double)r->n_wrong : NAN;
}
static double too_short(const rigor_row_t *r) {
  return (double)r->n_too_short;
}
static double invalid(const rigor_row_t *r) {
  return (double)r->n_invalid;
}
static double min_samples(const rigor_row_t *r) {
  return (double)r->min_samples;
}
static const char *figure_name(const rigor_row_t *r) {
  return r->figure.name;
}
static double figure_median(const rigor_row_t *r) {
  return r->figure.summary.median;
}
static double figure_cv(const rigor_row_t *r) {
  return r->figure.summary.cv;
}
static double figure_robust(const rigor_row_t *r) {
  return r->figure.robust;
}
static double figure_within(const rigor_row_t *r) {
  return r->figure.within_run;
}
static double figure_between(const rigor_row_t *r) {
  return r->figure.between_run;
}
static double figure_runs(const rigor_row_t *r) {
  return (double)r->figure.n_runs;
}
static double figure_half_width(const rigor_row_t *r) {
  return r->figure.half_width;
}
static double figure_outliers(const rigor_row_t *r) {
  return (double)r->figure.n_outliers;
}
static const char *gate_statistic(const rigor_row_t *r) {
  return rigor_gate_statistic_name(r->statistic);
}
static double gate_value(const rigor_row_t *r) {
  return r->gate_value;
}

/* A rate applies when some row has it: bytes moved, flops done, or a bus factor other than 1
 * (nccl-tests' busbw; with a factor of 1 it repeats the rate). */
static bool any_bytes(const rigor_exp_analysis_t *e) {
  for (size_t i = 0; i < e->n_rows; i++)
    if (e->rows[i].bytes > 0 && isfinite(e->rows[i].bytes_per_s)) return true;
  return false;
}
static bool any_flops(const rigor_exp_analysis_t *e) {
  for (size_t i = 0; i < e->n_rows; i++)
    if (e->rows[i].flops > 0 && isfinite(e->rows[i].flops_per_s)) return true;
  return false;
}
static bool any_bus_factor(const rigor_exp_analysis_t *e) {
  for (size_t i = 0; i < e->n_rows; i++)
    if (isfinite(e->rows[i].bus_factor) && e->rows[i].bus_factor != 1 &&
        isfinite(e->rows[i].busbw_per_s))
      return true;
  return false;
}
/* The best rate (bytes over the fastest time) is STREAM's own figure; elsewhere it invites
 * quoting the luckiest cycle. */
static bool is_stream(const rigor_exp_analysis_t *e) {
  const char *p = json_string_value(json_object_get(json_object_get(e->record, "plugin"), "name"));
  return p && strcmp(p, "stream") == 0 && any_bytes(e);
}

const rigor_stat_column_t rigor_stat_columns[] = {
    {.header = "n", .json = "time_s.n", .kind = RIGOR_COL_COUNT, .drop = 3, .value = n},
    {.header = "median", .json = "time_s.median", .kind = RIGOR_COL_TIME, .value = median},
    {.header = "P95", .json = "time_s.p95", .kind = RIGOR_COL_TIME, .drop = 4, .value = p95},
    {.header = "P99", .json = "time_s.p99", .kind = RIGOR_COL_TIME, .drop = 9, .value = p99},
    {.header = "mean", .json = "time_s.mean", .kind = RIGOR_COL_TIME, .drop = 8, .value = mean},
    {.header = "sd", .json = "time_s.sd", .kind = RIGOR_COL_TIME, .drop = 7, .value = sd},
    {.header = "CV", .json = "time_s.cv", .kind = RIGOR_COL_FRACTION, .value = cv},
    {.header = "min", .json = "time_s.min", .kind = RIGOR_COL_TIME, .drop = 6, .value = min},
    {.header = "max", .json = "time_s.max", .kind = RIGOR_COL_TIME, .drop = 6, .value = max},
    {.header = "1st-cycle",
     .json = "first_cycle_penalty",
     .kind = RIGOR_COL_CHANGE,
     .drop = 5,
     .value = first_cycle},
    {.header = "rate",
     .json = "bytes_per_s",
     .kind = RIGOR_COL_RATE,
     .drop = 2,
     .value = rate,
     .applies = any_bytes},
    {.header = "flops",
     .key = "flops_per_s",
     .json = "flops_per_s",
     .kind = RIGOR_COL_FLOP_RATE,
     .drop = 2,
     .value = flops_rate,
     .applies = any_flops},
    {.header = "busbw",
     .key = "busbw_bytes_per_s",
     .json = "busbw_bytes_per_s",
     .kind = RIGOR_COL_RATE,
     .drop = 2,
     .value = busbw,
     .applies = any_bus_factor},
    {.header = "best",
     .key = "best_rate_bytes_per_s",
     .json = "best_bytes_per_s",
     .kind = RIGOR_COL_RATE,
     .drop = 3,
     .value = best,
     .applies = is_stream},
    {.header = "#wrong", .json = "wrong", .kind = RIGOR_COL_COUNT, .drop = 1, .value = wrong},
    {.header = "verdict", .json = "verdict", .kind = RIGOR_COL_TEXT, .text = verdict},
    {.json = "variant_label", .kind = RIGOR_COL_TEXT, .text = raw_variant_label},
    {.json = "point_label", .kind = RIGOR_COL_TEXT, .text = raw_point_label},
    {.json = "window", .kind = RIGOR_COL_TEXT, .text = window},
    {.json = "bytes", .kind = RIGOR_COL_NUMBER, .value = bytes},
    {.json = "flops", .kind = RIGOR_COL_NUMBER, .value = flops},
    {.json = "cv_max", .kind = RIGOR_COL_FRACTION, .value = cv_max},
    {.json = "too_short", .kind = RIGOR_COL_COUNT, .value = too_short},
    {.json = "invalid", .kind = RIGOR_COL_COUNT, .value = invalid},
    {.json = "gate_min_samples", .kind = RIGOR_COL_COUNT, .value = min_samples},
    {.json = "samples", .kind = RIGOR_COL_COUNT, .value = n},
    {.json = "figure.name", .kind = RIGOR_COL_TEXT, .text = figure_name},
    {.json = "figure.median", .kind = RIGOR_COL_NUMBER, .value = figure_median},
    {.json = "figure.cv", .kind = RIGOR_COL_FRACTION, .value = figure_cv},
    {.json = "figure.robust", .kind = RIGOR_COL_FRACTION, .value = figure_robust},
    {.json = "figure.within_run", .kind = RIGOR_COL_FRACTION, .value = figure_within},
    {.json = "figure.between_run", .kind = RIGOR_COL_FRACTION, .value = figure_between},
    {.json = "figure.runs", .kind = RIGOR_COL_COUNT, .value = figure_runs},
    {.json = "figure.half_width_log", .kind = RIGOR_COL_NUMBER, .value = figure_half_width},
    {.json = "figure.outliers", .kind = RIGOR_COL_COUNT, .value = figure_outliers},
    {.json = "gate_statistic", .kind = RIGOR_COL_TEXT, .text = gate_statistic},
    {.json = "gate_value", .kind = RIGOR_COL_FRACTION, .value = gate_value},
    {.header = NULL, .json = NULL},
};

size_t rigor_stat_headers(const rigor_exp_analysis_t *e, const char **headers,
                          const rigor_stat_column_t **picked, size_t cap) {
  size_t k = 0;
  for (const rigor_stat_column_t *c = rigor_stat_columns; c->header || c->json; c++)
    if (c->header && (!c->applies || c->applies(e)) && k + 1 < cap) {
      picked[k] = c;
      headers[k++] = c->header;
    }
  headers[k] = NULL;
  return k;
}

/* obj's member at a dotted path, creating the objects on the way. */
static void set_path(json_t *obj, const char *path, json_t *value) {
  const char *dot;
  while ((dot = strchr(path, '.'))) {
    char key[64];
    snprintf(key, sizeof key, "%.*s", (int)(dot - path), path);
    json_t *next = json_object_get(obj, key);
    if (!json_is_object(next)) {
      next = json_object();
      json_object_set_new(obj, key, next);
    }
    obj = next;
    path = dot + 1;
  }
  json_object_set_new(obj, path, value);
}

void rigor_stat_json(const rigor_row_t *r, json_t *obj) {
  for (const rigor_stat_column_t *c = rigor_stat_columns; c->header || c->json; c++) {
    if (!c->json) continue;
    json_t *v;
    if (c->kind == RIGOR_COL_TEXT) {
      const char *s = c->text(r);
      v = s ? json_string(s) : json_null();
    } else if (c->kind == RIGOR_COL_COUNT) {
      double x = c->value(r);
      v = isfinite(x) ? json_integer((json_int_t)x) : json_null(); /* unknown, as #wrong can be */
    } else {
      v = rigor_json_real_or_null(c->value(r));
    }
    set_path(obj, c->json, v);
  }
}

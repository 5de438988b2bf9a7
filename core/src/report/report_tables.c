#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "columns.h"
#include "labels.h"
#include "report.h"
#include "rigor/plugin.h"
#include "stats.h"

#define CELL 64

static const char *label_or(const char *s, const char *fallback) {
  return s && *s ? s : fallback;
}

static int cmp_by_point(const void *x, const void *y) {
  const rigor_row_t *a = *(const rigor_row_t *const *)x, *b = *(const rigor_row_t *const *)y;
  if (a->point != b->point) return (a->point > b->point) - (a->point < b->point);
  return (a->variant > b->variant) - (a->variant < b->variant);
}

/* Rows in report order: the analysis keeps them by variant; --by point regroups them. */
static const rigor_row_t **ordered_rows(const rigor_exp_analysis_t *e, rigor_by_t by) {
  const rigor_row_t **rows = malloc((e->n_rows ? e->n_rows : 1) * sizeof *rows);
  if (!rows) return NULL;
  for (size_t r = 0; r < e->n_rows; r++)
    rows[r] = &e->rows[r];
  if (by == RIGOR_BY_POINT) qsort(rows, e->n_rows, sizeof *rows, cmp_by_point);
  return rows;
}

/* A table whose first columns are e's label columns, followed by `n` of its own. */
static rigor_table_t *labelled(const char *title, const char *name, const rigor_labels_t *l,
                               size_t n, const char *const *headers) {
  const char *h[96];
  size_t k = 0;
  rigor_labels_headers(l, h, &k);
  for (size_t i = 0; i < n && k < 96; i++)
    h[k++] = headers[i];
  rigor_table_t *t = rigor_table_new(title, k, h);
  if (!t) return NULL;
  rigor_table_name(t, name);
  rigor_labels_declare(l, t, 0);
  return t;
}

/* A new row with its labels; -1 on ENOMEM. */
static long labelled_row(rigor_table_t *t, const rigor_labels_t *l, uint32_t variant,
                         uint32_t point) {
  long row = rigor_table_add_row(t);
  if (row >= 0) rigor_labels_set(l, t, (size_t)row, 0, variant, point);
  return row;
}

typedef struct col_spec {
  rigor_col_kind_t kind;
  unsigned drop;
  rigor_col_show_t show;
  const char *key;
} col_spec_t;

/* Kinds, drop ranks, visibility and keys of the columns after the labels. */
static void declare(rigor_table_t *t, size_t first, const col_spec_t *spec, size_t n) {
  for (size_t i = 0; t && i < n; i++) {
    rigor_table_kind(t, first + i, spec[i].kind);
    rigor_table_drop(t, first + i, spec[i].drop);
    rigor_table_show(t, first + i, spec[i].show);
    if (spec[i].key) rigor_table_key(t, first + i, spec[i].key);
  }
}

static rigor_table_t *summary_table(const rigor_exp_analysis_t *e, const rigor_row_t **rows,
                                    const rigor_labels_t *l) {
  const char *h[64];
  const rigor_stat_column_t *picked[64];
  size_t n = rigor_stat_headers(e, h, picked, 64);
  const char *judged = NULL;
  for (size_t r = 0; r < e->n_rows && !judged; r++)
    if (strcmp(rows[r]->figure.name, "time_s") != 0) judged = rows[r]->figure.name;
  char title[256];
  if (judged)
    snprintf(title, sizeof title,
             "statistics per variant and point (time per operation; the verdict judges %s, the "
             "plugin's primary figure: see the gate table)",
             judged);
  else
    snprintf(title, sizeof title, "statistics per variant and point (time per operation)");
  rigor_table_t *t = labelled(title, "statistics", l, n, h);
  for (size_t k = 0; t && k < n; k++) {
    rigor_table_kind(t, l->n + k, picked[k]->kind);
    rigor_table_drop(t, l->n + k, picked[k]->drop);
    if (picked[k]->key) rigor_table_key(t, l->n + k, picked[k]->key);
  }
  for (size_t r = 0; t && r < e->n_rows; r++) {
    long row = labelled_row(t, l, rows[r]->variant, rows[r]->point);
    if (row < 0) break;
    for (size_t k = 0; k < n; k++) {
      if (picked[k]->kind == RIGOR_COL_TEXT)
        rigor_table_set_text(t, (size_t)row, l->n + k, picked[k]->text(rows[r]));
      else
        rigor_table_set_value(t, (size_t)row, l->n + k, picked[k]->value(rows[r]));
    }
  }
  return t;
}

static void join_flags(char *buf, size_t len, const json_t *flags) {
  buf[0] = '\0';
  const char *key;
  json_t *val;
  json_object_foreach((json_t *)flags, key, val) {
    size_t used = strlen(buf);
    snprintf(buf + used, len - used, "%s%s x%lld", used ? ", " : "", key,
             (long long)json_integer_value(val));
  }
  if (!buf[0]) snprintf(buf, len, "-");
}

static rigor_table_t *runs_table(const rigor_exp_analysis_t *e, const rigor_labels_t *l) {
  const char *h[RIGOR_RUN_STATUS_COUNT + 1];
  for (int s = 0; s < RIGOR_RUN_STATUS_COUNT; s++)
    h[s] = rigor_run_status_names[s];
  h[RIGOR_RUN_STATUS_COUNT] = "flags";
  rigor_table_t *t = labelled("runs per variant", "runs", l, RIGOR_RUN_STATUS_COUNT + 1, h);
  for (int s = 0; t && s < RIGOR_RUN_STATUS_COUNT; s++)
    rigor_table_kind(t, l->n + (size_t)s, RIGOR_COL_COUNT);
  for (size_t v = 0; t && v < e->n_variants; v++) {
    const rigor_variant_info_t *vi = &e->variants[v];
    long row = labelled_row(t, l, (uint32_t)v, UINT32_MAX);
    if (row < 0) break;
    for (int s = 0; s < RIGOR_RUN_STATUS_COUNT; s++)
      rigor_table_set_value(t, (size_t)row, l->n + (size_t)s, (double)vi->status_count[s]);
    char flags[CELL * 4];
    join_flags(flags, sizeof flags, vi->flags);
    rigor_table_set_text(t, (size_t)row, l->n + RIGOR_RUN_STATUS_COUNT, flags);
  }
  return t;
}

/* The kind and unit of the rows' figure when they all share one: times, or one metric. */
static rigor_col_kind_t figure_kind(const rigor_exp_analysis_t *e, const rigor_row_t **rows,
                                    const char **unit) {
  const char *name = NULL;
  *unit = NULL;
  for (size_t r = 0; r < e->n_rows; r++) {
    if (name && strcmp(name, rows[r]->figure.name) != 0) return RIGOR_COL_TEXT;
    name = rows[r]->figure.name;
    *unit = rows[r]->figure.unit;
  }
  return name && strcmp(name, "time_s") != 0 ? RIGOR_COL_NUMBER : RIGOR_COL_TIME;
}

static void fmt_figure(char *buf, size_t len, const rigor_figure_t *f, double v) {
  if (strcmp(f->name, "time_s") == 0) {
    rigor_fmt_time(buf, len, v);
    return;
  }
  char num[64];
  rigor_fmt_sig(num, sizeof num, v);
  snprintf(buf, len, "%s%s%s", num, f->unit && f->unit[0] ? " " : "", f->unit ? f->unit : "");
}

/* What the gate read, and the spread of the figure split by level: the cycles' pooled CV (the
 * nccl-tests methodology study), the robust spread, the cycles inside a run, and the runs against
 * each other. */
static rigor_table_t *gate_table(const rigor_exp_analysis_t *e, const rigor_row_t **rows,
                                 const rigor_labels_t *l) {
  const char *unit;
  rigor_col_kind_t mk = figure_kind(e, rows, &unit);
  char median[96] = "median";
  if (mk == RIGOR_COL_NUMBER && unit && unit[0])
    snprintf(median, sizeof median, "median (%s)", unit);
  const char *const h[] = {"judged by",  "n",          "median", "CV",     "robust",
                           "within-run", "run-to-run", "runs",   "95% CI", "outliers",
                           "gate",       "statistic",  "bound",  "verdict"};
  enum { N = sizeof h / sizeof *h };
  const char *hh[N];
  memcpy(hh, h, sizeof hh);
  hh[2] = median;
  rigor_table_t *t = labelled(
      "gate (CV: pooled cycles, as the nccl-tests methodology study; robust: 1.4826 MAD / median; "
      "within-run: the cycles of one run; run-to-run: sd of the log run medians; 95% CI of the "
      "mean of the runs)",
      "gate", l, N, hh);
  const col_spec_t spec[N] = {
      {RIGOR_COL_TEXT, 5, 0, NULL},
      {RIGOR_COL_COUNT, 4, 0, NULL},
      {mk == RIGOR_COL_TEXT ? RIGOR_COL_NUMBER : mk, 0, 0, mk == RIGOR_COL_TIME ? NULL : "median"},
      {RIGOR_COL_FRACTION, 0, 0, NULL},
      {RIGOR_COL_FRACTION, 3, 0, NULL},
      {RIGOR_COL_FRACTION, 2, 0, NULL},
      {RIGOR_COL_FRACTION, 2, 0, NULL},
      {RIGOR_COL_COUNT, 4, 0, NULL},
      {RIGOR_COL_FRACTION, 1, 0, "ci_half_width"},
      {RIGOR_COL_COUNT, 3, 0, NULL},
      {RIGOR_COL_TEXT, 1, RIGOR_SHOW_HUMAN, NULL},
      {RIGOR_COL_TEXT, 0, RIGOR_SHOW_DATA, "gate_statistic"},
      {RIGOR_COL_FRACTION, 0, RIGOR_SHOW_DATA, "gate_bound"},
      {RIGOR_COL_TEXT, 0, 0, NULL},
  };
  declare(t, l->n, spec, N);
  for (size_t r = 0; t && r < e->n_rows; r++) {
    const rigor_row_t *w = rows[r];
    const rigor_figure_t *f = &w->figure;
    long row = labelled_row(t, l, w->variant, w->point);
    if (row < 0) break;
    size_t i = (size_t)row, c0 = l->n;
    char c[128];
    snprintf(c, sizeof c, "%s%s", f->name, f->exact ? " (exact)" : "");
    rigor_table_set_text(t, i, c0, c);
    rigor_table_set_value(t, i, c0 + 1, (double)f->n);
    rigor_table_set_value(t, i, c0 + 2, f->summary.median);
    if (mk == RIGOR_COL_TEXT) {
      fmt_figure(c, sizeof c, f, f->summary.median);
      rigor_table_set_text(t, i, c0 + 2, c);
    }
    rigor_table_set_value(t, i, c0 + 3, f->summary.cv);
    rigor_table_set_value(t, i, c0 + 4, f->robust);
    rigor_table_set_value(t, i, c0 + 5, f->within_run);
    rigor_table_set_value(t, i, c0 + 6, f->between_run);
    rigor_table_set_value(t, i, c0 + 7, (double)f->n_runs);
    if (isfinite(f->half_width)) {
      double hw = exp(f->half_width) - 1;
      snprintf(c, sizeof c, "±%.2f%%", hw * 100);
      rigor_table_set_value(t, i, c0 + 8, hw);
      rigor_table_set_text(t, i, c0 + 8, c);
    }
    rigor_table_set_value(t, i, c0 + 9, (double)f->n_outliers);
    snprintf(c, sizeof c, "%s ≤ %.2f%%", rigor_gate_statistic_name(w->statistic), w->cv_max * 100);
    rigor_table_set_text(t, i, c0 + 10, c);
    rigor_table_set_text(t, i, c0 + 11, rigor_gate_statistic_name(w->statistic));
    rigor_table_set_value(t, i, c0 + 12, w->cv_max);
    rigor_table_set_text(t, i, c0 + 13, rigor_verdict_name(w->verdict));
  }
  return t;
}

static void fmt_expected(char *buf, size_t len, const rigor_expectation_t *x) {
  if (strcmp(x->figure, "time") == 0)
    rigor_fmt_time(buf, len, x->value);
  else if (strcmp(x->figure, "rate") == 0 || strcmp(x->figure, "busbw") == 0)
    rigor_fmt_rate(buf, len, x->value, "B");
  else if (strcmp(x->figure, "flops") == 0)
    rigor_fmt_rate(buf, len, x->value, "FLOP");
  else
    rigor_fmt_number(buf, len, x->value);
}

/* gate.expect: each figure a row must reach, with what it reached. */
static rigor_table_t *expect_table(const rigor_exp_analysis_t *e, const rigor_row_t **rows,
                                   const rigor_labels_t *l) {
  static const char *const h[] = {"figure", "measured", "expected", "verdict"};
  rigor_table_t *t = labelled("expectations (gate.expect)", "expectations", l, 4, h);
  rigor_table_kind(t, l->n + 1, RIGOR_COL_NUMBER);
  for (size_t r = 0; t && r < e->n_rows; r++)
    for (size_t k = 0; k < rows[r]->n_expect; k++) {
      const rigor_expectation_t *x = &rows[r]->expect[k];
      long row = labelled_row(t, l, rows[r]->variant, rows[r]->point);
      if (row < 0) break;
      char measured[64];
      fmt_expected(measured, sizeof measured, x);
      rigor_table_set_text(t, (size_t)row, l->n, x->figure);
      rigor_table_set_value(t, (size_t)row, l->n + 1, x->value);
      rigor_table_set_text(t, (size_t)row, l->n + 1, measured);
      rigor_table_set_text(t, (size_t)row, l->n + 2, x->text ? x->text : "?");
      rigor_table_set_text(t, (size_t)row, l->n + 3,
                           !isfinite(x->value) ? "no data"
                           : x->met            ? "met"
                                               : "below expectation");
    }
  return t;
}

static rigor_table_t *iterations_table(const rigor_exp_analysis_t *e, const rigor_row_t **rows,
                                       const rigor_labels_t *l) {
  static const char *const h[] = {"iterations", "min", "P50",      "P95",
                                  "P99",        "max", "cycle CV", "iteration CV"};
  rigor_table_t *t = labelled("per-iteration timing (cycle CV and iteration CV are different "
                              "statistics)",
                              "iterations", l, 8, h);
  static const col_spec_t spec[8] = {
      {RIGOR_COL_COUNT, 2, 0, NULL},    {RIGOR_COL_TIME, 3, 0, NULL},
      {RIGOR_COL_TIME, 0, 0, NULL},     {RIGOR_COL_TIME, 1, 0, NULL},
      {RIGOR_COL_TIME, 4, 0, NULL},     {RIGOR_COL_TIME, 3, 0, NULL},
      {RIGOR_COL_FRACTION, 0, 0, NULL}, {RIGOR_COL_FRACTION, 0, 0, NULL}};
  declare(t, l->n, spec, 8);
  for (size_t r = 0; t && r < e->n_rows; r++) {
    const rigor_row_t *w = rows[r];
    if (!w->has_iterations) continue;
    long row = labelled_row(t, l, w->variant, w->point);
    if (row < 0) break;
    const double v[8] = {(double)w->iter_n, w->iter_min, w->iter_p50, w->iter_p95,
                         w->iter_p99,       w->iter_max, w->time.cv,  w->iter_cv};
    for (size_t k = 0; k < 8; k++)
      rigor_table_set_value(t, (size_t)row, l->n + k, v[k]);
  }
  return t;
}

static const char *metric_unit(const rigor_exp_analysis_t *e, const char *name) {
  return json_string_value(json_object_get(rigor_metric_declared(e, name), "unit"));
}

static rigor_table_t *metrics_table(const rigor_exp_analysis_t *e, const rigor_row_t **rows,
                                    const rigor_labels_t *l) {
  static const char *const h[] = {"metric", "unit", "n", "median", "min"};
  rigor_table_t *t = labelled("plugin metrics", "metrics", l, 5, h);
  static const col_spec_t spec[5] = {{RIGOR_COL_TEXT, 0, 0, NULL},
                                     {RIGOR_COL_TEXT, 0, 0, NULL},
                                     {RIGOR_COL_COUNT, 1, 0, NULL},
                                     {RIGOR_COL_NUMBER, 0, 0, NULL},
                                     {RIGOR_COL_NUMBER, 0, 0, NULL}};
  declare(t, l->n, spec, 5);
  for (size_t r = 0; t && r < e->n_rows; r++)
    for (size_t m = 0; m < rows[r]->n_metrics; m++) {
      const rigor_metric_summary_t *ms = &rows[r]->metrics[m];
      long row = labelled_row(t, l, rows[r]->variant, rows[r]->point);
      if (row < 0) break;
      const char *unit = metric_unit(e, ms->name);
      rigor_table_set_text(t, (size_t)row, l->n, ms->name);
      rigor_table_set_text(t, (size_t)row, l->n + 1, unit && *unit ? unit : "-");
      rigor_table_set_value(t, (size_t)row, l->n + 2, (double)ms->n);
      if (ms->flag) {
        /* A flag reads as on or off, or how many samples had it, never as a figure. */
        char state[64];
        if (ms->n_set == ms->n || ms->n_set == 0)
          snprintf(state, sizeof state, "%s", ms->n_set ? "on" : "off");
        else
          snprintf(state, sizeof state, "on in %zu of %zu", ms->n_set, ms->n);
        rigor_table_set_text(t, (size_t)row, l->n + 3, state);
        rigor_table_set_text(t, (size_t)row, l->n + 4, "-");
      } else {
        rigor_table_set_value(t, (size_t)row, l->n + 3, ms->median);
        rigor_table_set_value(t, (size_t)row, l->n + 4, ms->min);
      }
    }
  return t;
}

static void join_effects(char *buf, size_t len, const double *x, size_t n, const char *prefix,
                         const rigor_exp_analysis_t *e) {
  buf[0] = '\0';
  for (size_t i = 0; i < n; i++) {
    char pct[32];
    rigor_fmt_percent(pct, sizeof pct, x[i], 1);
    size_t used = strlen(buf);
    if (prefix)
      snprintf(buf + used, len - used, "%s%s%zu %s", used ? ", " : "", prefix, i, pct);
    else
      snprintf(buf + used, len - used, "%safter %s %s", used ? ", " : "",
               label_or(i < e->n_variants ? e->variants[i].label : NULL, "?"), pct);
  }
}

static rigor_table_t *effects_table(const rigor_exp_analysis_t *e) {
  rigor_labels_t l;
  if (rigor_labels_of(e, RIGOR_LABELS_POINT, NULL, &l)) return NULL;
  static const char *const h[] = {"treatment", "position effect",  "position spread",
                                  "carryover", "carryover spread", "warning"};
  rigor_table_t *t =
      labelled("design effects (run median / variant median - 1)", "effects", &l, 6, h);
  static const col_spec_t spec[6] = {
      {RIGOR_COL_FRACTION, 0, 0, NULL}, {RIGOR_COL_TEXT, 2, RIGOR_SHOW_HUMAN, NULL},
      {RIGOR_COL_FRACTION, 0, 0, NULL}, {RIGOR_COL_TEXT, 1, RIGOR_SHOW_HUMAN, NULL},
      {RIGOR_COL_FRACTION, 0, 0, NULL}, {RIGOR_COL_TEXT, 0, 0, NULL}};
  declare(t, l.n, spec, 6);
  for (size_t d = 0; t && d < e->n_effects; d++) {
    const rigor_design_effect_t *x = &e->effects[d];
    long row = labelled_row(t, &l, UINT32_MAX, x->point);
    if (row < 0) break;
    size_t i = (size_t)row;
    char c[512];
    rigor_table_set_value(t, i, l.n, x->treatment_spread);
    join_effects(c, sizeof c, x->position, x->n_positions, "pos ", e);
    rigor_table_set_text(t, i, l.n + 1, c);
    rigor_table_set_value(t, i, l.n + 2, x->position_spread);
    if (x->has_carryover) {
      join_effects(c, sizeof c, x->carryover, x->n_preceding, NULL, e);
      rigor_table_set_text(t, i, l.n + 3, c);
      rigor_table_set_value(t, i, l.n + 4, x->carryover_spread);
    } else {
      rigor_table_set_text(t, i, l.n + 3, "-");
    }
    snprintf(c, sizeof c, "%s%s%s", x->warn_position ? "position" : "",
             x->warn_position && x->warn_carryover ? ", " : "",
             x->warn_carryover ? "carryover" : "");
    rigor_table_set_text(t, i, l.n + 5, c[0] ? c : "-");
  }
  rigor_labels_free(&l);
  return t;
}

/* Kalibera and Jones's two levels, as standard deviations in the unit of the times: the cycles
 * inside a run (S1), and what the runs add beyond them (the square root of T2^2 = S2^2 -
 * S1^2 / cycles). T2^2 <= 0 means the runs agree within their cycles' noise: there is no
 * between-run variance to trade cycles against, so no cycle count is suggested. When some row's
 * runs ran on several nodes, a third level: what the nodes add beyond their runs (T3^2 = S3^2 -
 * S2^2 / runs per node) and its share of one cycle's variance; the columns are there only then.
 * Such a row's suggestions are per node (they read the runs within a node), and its CI is over
 * the nodes: more runs narrow the one, only more nodes the other. */
static rigor_table_t *variance_table(const rigor_exp_analysis_t *e, const rigor_row_t **rows,
                                     const rigor_labels_t *l) {
  static const char *const h[] = {
      "runs x cycles",    "runs",           "cycles", "within-run sd", "between-run sd", "95% CI",
      "suggested cycles", "suggested runs", "s1_sq",  "s2_sq",         "t2_sq",          "nodes",
      "between-node sd",  "node share",     "s3_sq",  "t3_sq"};
  enum { N = sizeof h / sizeof *h, TWO = 11 };
  bool nodes = false;
  for (size_t r = 0; r < e->n_rows; r++)
    nodes = nodes || rows[r]->has_node_variance;
  size_t n = nodes ? N : TWO;
  rigor_table_t *t = labelled(nodes ? "variance components (Kalibera & Jones: the cycles of a run, "
                                      "what runs add, and what nodes add; suggestions for a 95% "
                                      "CI of ±1%)"
                                    : "variance components (Kalibera & Jones: the cycles of a run, "
                                      "and what runs add; suggestions for a 95% CI of ±1%)",
                              "variance", l, n, h);
  static const col_spec_t spec[N] = {{RIGOR_COL_TEXT, 0, RIGOR_SHOW_HUMAN, NULL},
                                     {RIGOR_COL_COUNT, 0, RIGOR_SHOW_DATA, NULL},
                                     {RIGOR_COL_COUNT, 0, RIGOR_SHOW_DATA, NULL},
                                     {RIGOR_COL_TIME, 0, 0, NULL},
                                     {RIGOR_COL_TIME, 0, 0, NULL},
                                     {RIGOR_COL_FRACTION, 0, 0, "ci_half_width"},
                                     {RIGOR_COL_COUNT, 0, 0, NULL},
                                     {RIGOR_COL_COUNT, 0, 0, NULL},
                                     {RIGOR_COL_NUMBER, 0, RIGOR_SHOW_DATA, "s1_sq"},
                                     {RIGOR_COL_NUMBER, 0, RIGOR_SHOW_DATA, "s2_sq"},
                                     {RIGOR_COL_NUMBER, 0, RIGOR_SHOW_DATA, "t2_sq"},
                                     {RIGOR_COL_COUNT, 0, 0, NULL},
                                     {RIGOR_COL_TIME, 0, 0, NULL},
                                     {RIGOR_COL_FRACTION, 0, 0, "node_share"},
                                     {RIGOR_COL_NUMBER, 0, RIGOR_SHOW_DATA, "s3_sq"},
                                     {RIGOR_COL_NUMBER, 0, RIGOR_SHOW_DATA, "t3_sq"}};
  declare(t, l->n, spec, n);
  for (size_t r = 0; t && r < e->n_rows; r++) {
    const rigor_row_t *w = rows[r];
    if (!w->has_variance) continue;
    const rigor_variance_t *v = &w->variance;
    long row = labelled_row(t, l, w->variant, w->point);
    if (row < 0) break;
    size_t i = (size_t)row, c0 = l->n;
    char c[CELL];
    snprintf(c, sizeof c, "%zu x %zu", v->runs, v->cycles);
    rigor_table_set_text(t, i, c0, c);
    rigor_table_set_value(t, i, c0 + 1, (double)v->runs);
    rigor_table_set_value(t, i, c0 + 2, (double)v->cycles);
    rigor_table_set_value(t, i, c0 + 3, sqrt(fmax(v->s1_sq, 0)));
    bool between = v->t2_sq > 0;
    if (between)
      rigor_table_set_value(t, i, c0 + 4, sqrt(v->t2_sq));
    else
      rigor_table_set_text(t, i, c0 + 4, "none");
    double hw = v->mean != 0 ? v->half_width / fabs(v->mean) : NAN;
    rigor_table_set_value(t, i, c0 + 5, hw);
    if (isfinite(hw)) {
      snprintf(c, sizeof c, "±%.2f%%", hw * 100);
      rigor_table_set_text(t, i, c0 + 5, c);
    }
    if (!w->suggest_runs) {
      rigor_table_set_text(t, i, c0 + 6, "-");
      rigor_table_set_text(t, i, c0 + 7, "-");
    } else {
      if (between)
        rigor_table_set_value(t, i, c0 + 6, w->suggest_cycles);
      else
        rigor_table_set_text(t, i, c0 + 6, "no between-run variance");
      rigor_table_set_value(t, i, c0 + 7, w->suggest_runs);
      if (w->suggest_runs >= RIGOR_VARIANCE_MAX_RUNS) {
        snprintf(c, sizeof c, "≥%u", w->suggest_runs);
        rigor_table_set_text(t, i, c0 + 7, c);
      }
    }
    rigor_table_set_value(t, i, c0 + 8, v->s1_sq);
    rigor_table_set_value(t, i, c0 + 9, v->s2_sq);
    rigor_table_set_value(t, i, c0 + 10, v->t2_sq);
    if (!nodes) continue;
    if (!w->has_node_variance) {
      for (size_t k = TWO; k < N; k++)
        rigor_table_set_text(t, i, c0 + k, "-");
      continue;
    }
    rigor_table_set_value(t, i, c0 + 11, (double)v->nodes);
    if (v->t3_sq > 0)
      rigor_table_set_value(t, i, c0 + 12, sqrt(v->t3_sq));
    else
      rigor_table_set_text(t, i, c0 + 12, "none");
    rigor_table_set_value(t, i, c0 + 13, v->node_share);
    rigor_table_set_value(t, i, c0 + 14, v->s3_sq);
    rigor_table_set_value(t, i, c0 + 15, v->t3_sq);
  }
  return t;
}

/* Per variant and signal, over its runs' telemetry summaries: the lowest minimum, the median of
 * the run medians and the highest maximum, with the variant's flags (low_clock...). */
static rigor_table_t *telemetry_table(const rigor_exp_analysis_t *e, const rigor_labels_t *l) {
  static const char *const h[] = {"signal", "runs", "min", "median", "max", "flags"};
  rigor_table_t *t = labelled("telemetry per variant (min of run minima, median of run medians, "
                              "max of run maxima)",
                              "telemetry", l, 6, h);
  static const col_spec_t spec[6] = {{RIGOR_COL_TEXT, 0, 0, NULL},   {RIGOR_COL_COUNT, 1, 0, NULL},
                                     {RIGOR_COL_NUMBER, 0, 0, NULL}, {RIGOR_COL_NUMBER, 0, 0, NULL},
                                     {RIGOR_COL_NUMBER, 0, 0, NULL}, {RIGOR_COL_TEXT, 2, 0, NULL}};
  declare(t, l->n, spec, 6);
  for (size_t v = 0; t && v < e->n_variants; v++) {
    json_t *signals = json_object(); /* signal -> [min, max, medians...] */
    for (size_t k = 0; k < e->n_runs; k++) {
      if (e->runs[k].variant != v) continue;
      const char *name;
      json_t *sum;
      json_object_foreach(json_object_get(e->runs[k].record, "telemetry"), name, sum) {
        json_t *acc = json_object_get(signals, name);
        if (!acc) {
          acc = json_pack("{s:f, s:f, s:[]}", "min", DBL_MAX, "max", -DBL_MAX, "medians");
          json_object_set_new(signals, name, acc);
        }
        double mn = json_number_value(json_object_get(sum, "min"));
        double mx = json_number_value(json_object_get(sum, "max"));
        if (mn < json_real_value(json_object_get(acc, "min")))
          json_object_set_new(acc, "min", json_real(mn));
        if (mx > json_real_value(json_object_get(acc, "max")))
          json_object_set_new(acc, "max", json_real(mx));
        json_array_append_new(json_object_get(acc, "medians"),
                              json_real(json_number_value(json_object_get(sum, "median"))));
      }
    }
    char flags[256];
    join_flags(flags, sizeof flags, e->variants[v].flags);
    const char *name;
    json_t *acc;
    json_object_foreach(signals, name, acc) {
      json_t *meds = json_object_get(acc, "medians");
      size_t n = json_array_size(meds);
      double *x = malloc((n ? n : 1) * sizeof *x);
      long row = x ? labelled_row(t, l, (uint32_t)v, UINT32_MAX) : -1;
      if (row < 0) {
        free(x);
        break;
      }
      for (size_t i = 0; i < n; i++)
        x[i] = json_real_value(json_array_get(meds, i));
      rigor_table_set_text(t, (size_t)row, l->n, name);
      rigor_table_set_value(t, (size_t)row, l->n + 1, (double)n);
      rigor_table_set_value(t, (size_t)row, l->n + 2, json_real_value(json_object_get(acc, "min")));
      rigor_table_set_value(t, (size_t)row, l->n + 3, rigor_stats_median(x, n));
      rigor_table_set_value(t, (size_t)row, l->n + 4, json_real_value(json_object_get(acc, "max")));
      rigor_table_set_text(t, (size_t)row, l->n + 5, flags);
      free(x);
    }
    json_decref(signals);
  }
  return t;
}

size_t rigor_report_tables(const rigor_exp_analysis_t *e, rigor_by_t by, rigor_table_t **tables,
                           size_t cap) {
  const rigor_row_t **rows = ordered_rows(e, by);
  rigor_labels_t both, variant;
  if (!rows) return 0;
  if (rigor_labels_of(e, RIGOR_LABELS_BOTH, NULL, &both)) {
    free(rows);
    return 0;
  }
  if (rigor_labels_of(e, RIGOR_LABELS_VARIANT, NULL, &variant)) {
    rigor_labels_free(&both);
    free(rows);
    return 0;
  }
  rigor_table_t *all[] = {summary_table(e, rows, &both),
                          runs_table(e, &variant),
                          rigor_report_nodes_table(e),
                          rigor_report_builds_table(e),
                          e->stop ? rigor_report_replication_table(e) : NULL,
                          gate_table(e, rows, &both),
                          expect_table(e, rows, &both),
                          iterations_table(e, rows, &both),
                          rigor_report_calibration_table(e),
                          metrics_table(e, rows, &both),
                          telemetry_table(e, &variant),
                          effects_table(e),
                          variance_table(e, rows, &both)};
  size_t n = 0;
  for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
    bool keep = all[i] && (i < 2 || all[i]->n_rows > 0) && n < cap;
    if (keep)
      tables[n++] = all[i];
    else
      rigor_table_free(all[i]);
  }
  rigor_labels_free(&both);
  rigor_labels_free(&variant);
  free(rows);
  return n;
}

static void note(json_t *notes, const char *fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  json_array_append_new(notes, json_string(buf));
}

json_t *rigor_report_notes(const rigor_analysis_t *a, const rigor_exp_analysis_t *e) {
  json_t *notes = json_array();
  for (size_t i = 0; i < a->n_sources; i++)
    if (a->truncated[i] && a->sources[i] == e->source)
      note(notes, "%s: the last line was truncated (a killed writer) and was skipped", e->source);
  if (e->duplicate_records)
    note(notes,
         "%zu run records (and their %zu samples) repeat a run and attempt already read: the file "
         "holds them twice; they are counted once",
         e->duplicate_records, e->duplicate_samples);
  if (e->mismatched_samples)
    note(notes, "%zu samples name another variant than their run: they are damaged and ignored",
         e->mismatched_samples);
  if (e->ignored_samples)
    note(notes, "%zu samples of interrupted attempts (no run record) were ignored",
         e->ignored_samples);
  if (!e->record)
    note(notes, "no experiment record: gate defaults apply and the design is unknown");
  /* An imported file says what its source does not record, and so what no statistic shows. */
  const json_t *source = json_object_get(e->record, "source");
  const char *tool = json_string_value(json_object_get(source, "tool"));
  if (tool) {
    const char *version = json_string_value(json_object_get(source, "version"));
    size_t k;
    json_t *said;
    json_array_foreach(json_object_get(source, "notes"), k, said) {
      if (json_is_string(said))
        note(notes, "imported from %s%s%s: %s", tool, version ? " " : "", version ? version : "",
             json_string_value(said));
    }
  }
  /* Interleaved arms take turns inside each run (ABBA), whatever the order of the runs. */
  bool interleaved = json_object_get(json_object_get(e->record, "schedule"), "interleave") != NULL;
  if (e->record && !e->positions_vary && e->n_variants > 1 && !interleaved)
    note(notes, "order is sequential: drift and warm-up fall on the variants unevenly");
  if (e->incomplete_design)
    note(notes, "the number of blocks is not a multiple of the square: balance is incomplete");
  for (size_t r = 0; r < e->n_rows; r++) {
    const rigor_row_t *w = &e->rows[r];
    if (w->verdict != RIGOR_VERDICT_NO_DATA) continue;
    char why[256];
    rigor_row_no_data_reason(w, w->variant < e->n_variants ? &e->variants[w->variant] : NULL, why,
                             sizeof why);
    note(notes, "%s %s: no data: %s", label_or(w->variant_label, "?"),
         label_or(w->point_label, "-"), why);
  }
  rigor_report_builds_notes(e, notes);
  rigor_report_replication_notes(e, notes);
  for (size_t d = 0; d < e->n_effects; d++) {
    const rigor_design_effect_t *x = &e->effects[d];
    if (x->warn_position)
      note(notes,
           "point %s: the position effect (spread %.2f%%) is as large as the differences between "
           "variants (%.2f%%)",
           label_or(x->point_label, "-"), x->position_spread * 100, x->treatment_spread * 100);
    if (x->warn_carryover)
      note(notes,
           "point %s: the carryover effect (spread %.2f%%) is as large as the differences between "
           "variants (%.2f%%)",
           label_or(x->point_label, "-"), x->carryover_spread * 100, x->treatment_spread * 100);
  }
  for (size_t r = 0; r < e->n_rows; r++)
    for (size_t k = 0; k < e->rows[r].n_expect; k++) {
      const rigor_expectation_t *x = &e->rows[r].expect[k];
      if (!isfinite(x->value) || x->met) continue;
      char measured[64];
      fmt_expected(measured, sizeof measured, x);
      note(notes, "%s %s: below expectation: %s is %s, expected %s",
           label_or(e->rows[r].variant_label, "?"), label_or(e->rows[r].point_label, "-"),
           x->figure, measured, x->text ? x->text : "?");
    }
  for (size_t v = 0; v < e->n_variants; v++) {
    size_t i;
    json_t *r;
    json_array_foreach(e->variants[v].reasons, i, r) {
      note(notes, "%s: %s", label_or(e->variants[v].label, "?"), json_string_value(r));
    }
  }
  return notes;
}

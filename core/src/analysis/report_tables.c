#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "columns.h"
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

static rigor_table_t *summary_table(const rigor_exp_analysis_t *e, const rigor_row_t **rows) {
  const char *h[64];
  size_t n_cols = rigor_stat_headers(h, 64);
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
  rigor_table_t *t = rigor_table_new(title, n_cols, h);
  size_t col = 0;
  for (const rigor_stat_column_t *c = rigor_stat_columns; t && (c->header || c->json); c++)
    if (c->header) rigor_table_kind(t, col++, c->kind);
  for (size_t r = 0; t && r < e->n_rows; r++) {
    long row = rigor_table_add_row(t);
    if (row < 0) break;
    col = 0;
    for (const rigor_stat_column_t *c = rigor_stat_columns; c->header || c->json; c++) {
      if (!c->header) continue;
      if (c->kind == RIGOR_COL_TEXT)
        rigor_table_set_text(t, (size_t)row, col, c->text(rows[r]));
      else
        rigor_table_set_value(t, (size_t)row, col, c->value(rows[r]));
      col++;
    }
  }
  return t;
}

static rigor_table_t *runs_table(const rigor_exp_analysis_t *e) {
  const char *h[RIGOR_RUN_STATUS_COUNT + 2] = {"variant"};
  for (int s = 0; s < RIGOR_RUN_STATUS_COUNT; s++)
    h[s + 1] = rigor_run_status_names[s];
  h[RIGOR_RUN_STATUS_COUNT + 1] = "flags";
  rigor_table_t *t = rigor_table_new("runs per variant", RIGOR_RUN_STATUS_COUNT + 2, h);
  for (size_t v = 0; t && v < e->n_variants; v++) {
    const rigor_variant_info_t *vi = &e->variants[v];
    char c[RIGOR_RUN_STATUS_COUNT + 2][CELL * 4];
    snprintf(c[0], CELL, "%s", label_or(vi->label, "?"));
    for (int s = 0; s < RIGOR_RUN_STATUS_COUNT; s++)
      snprintf(c[s + 1], CELL, "%zu", vi->status_count[s]);
    char *f = c[RIGOR_RUN_STATUS_COUNT + 1];
    f[0] = '\0';
    const char *key;
    json_t *val;
    json_object_foreach(vi->flags, key, val) {
      size_t used = strlen(f);
      snprintf(f + used, CELL * 4 - used, "%s%s x%lld", used ? ", " : "", key,
               (long long)json_integer_value(val));
    }
    if (!f[0]) snprintf(f, CELL, "-");
    const char *cells[RIGOR_RUN_STATUS_COUNT + 2];
    for (int i = 0; i < RIGOR_RUN_STATUS_COUNT + 2; i++)
      cells[i] = c[i];
    rigor_table_add(t, cells);
  }
  return t;
}

static void fmt_figure(char *buf, size_t len, const rigor_figure_t *f, double v) {
  if (strcmp(f->name, "time_s") == 0) {
    rigor_fmt_time(buf, len, v);
    return;
  }
  char num[64];
  rigor_fmt_number(num, sizeof num, v);
  snprintf(buf, len, "%s%s%s", num, f->unit && f->unit[0] ? " " : "", f->unit ? f->unit : "");
}

/* What the gate read, and the spread of the figure split by level: the cycles' pooled CV (seed
 * 000), the robust spread, the cycles inside a run, and the runs against each other. */
static rigor_table_t *gate_table(const rigor_exp_analysis_t *e, const rigor_row_t **rows) {
  static const char *const h[] = {"variant", "point",    "judged by",  "n",          "median",
                                  "CV",      "robust",   "within-run", "run-to-run", "runs",
                                  "95% CI",  "outliers", "gate",       "verdict"};
  enum { N = sizeof h / sizeof *h };
  rigor_table_t *t = rigor_table_new(
      "gate (CV: pooled cycles, as the nccl-tests methodology study; robust: 1.4826 MAD / median; "
      "within-run: the cycles of one run; run-to-run: sd of the log run medians; 95% CI of the "
      "mean of the runs)",
      N, h);
  static const rigor_col_kind_t kinds[N] = {
      [3] = RIGOR_COL_COUNT,    [5] = RIGOR_COL_FRACTION, [6] = RIGOR_COL_FRACTION,
      [7] = RIGOR_COL_FRACTION, [8] = RIGOR_COL_FRACTION, [9] = RIGOR_COL_COUNT,
      [11] = RIGOR_COL_COUNT};
  for (size_t k = 0; t && k < N; k++)
    rigor_table_kind(t, k, kinds[k]);
  for (size_t r = 0; t && r < e->n_rows; r++) {
    const rigor_row_t *w = rows[r];
    const rigor_figure_t *f = &w->figure;
    long row = rigor_table_add_row(t);
    if (row < 0) break;
    size_t i = (size_t)row;
    char c[128];
    rigor_table_set_text(t, i, 0, label_or(w->variant_label, "?"));
    rigor_table_set_text(t, i, 1, label_or(w->point_label, "-"));
    rigor_table_set_text(t, i, 2, f->exact ? "exact" : f->name);
    if (f->exact) {
      snprintf(c, sizeof c, "%s (exact)", f->name);
      rigor_table_set_text(t, i, 2, c);
    }
    rigor_table_set_value(t, i, 3, (double)f->n);
    fmt_figure(c, sizeof c, f, f->summary.median);
    rigor_table_set_text(t, i, 4, c);
    rigor_table_set_value(t, i, 5, f->summary.cv);
    rigor_table_set_value(t, i, 6, f->robust);
    rigor_table_set_value(t, i, 7, f->within_run);
    rigor_table_set_value(t, i, 8, f->between_run);
    rigor_table_set_value(t, i, 9, (double)f->n_runs);
    if (isfinite(f->half_width))
      snprintf(c, sizeof c, "+-%.2f%%", (exp(f->half_width) - 1) * 100);
    else
      snprintf(c, sizeof c, "-");
    rigor_table_set_text(t, i, 10, c);
    rigor_table_set_value(t, i, 11, (double)f->n_outliers);
    snprintf(c, sizeof c, "%s <= %.2f%%", rigor_gate_statistic_name(w->statistic), w->cv_max * 100);
    rigor_table_set_text(t, i, 12, c);
    rigor_table_set_text(t, i, 13, rigor_verdict_name(w->verdict));
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
static rigor_table_t *expect_table(const rigor_exp_analysis_t *e, const rigor_row_t **rows) {
  static const char *const h[] = {"variant", "point", "figure", "measured", "expected", "verdict"};
  rigor_table_t *t = rigor_table_new("expectations (gate.expect)", 6, h);
  for (size_t r = 0; t && r < e->n_rows; r++)
    for (size_t k = 0; k < rows[r]->n_expect; k++) {
      const rigor_expectation_t *x = &rows[r]->expect[k];
      char measured[64];
      fmt_expected(measured, sizeof measured, x);
      const char *cells[6] = {label_or(rows[r]->variant_label, "?"),
                              label_or(rows[r]->point_label, "-"),
                              x->figure,
                              measured,
                              x->text ? x->text : "?",
                              !isfinite(x->value) ? "no data"
                              : x->met            ? "met"
                                                  : "below expectation"};
      rigor_table_add(t, cells);
    }
  return t;
}

static rigor_table_t *iterations_table(const rigor_exp_analysis_t *e, const rigor_row_t **rows) {
  static const char *const h[] = {"variant", "point", "iterations", "min",      "P50",
                                  "P95",     "P99",   "max",        "cycle CV", "iteration CV"};
  rigor_table_t *t = rigor_table_new("per-iteration timing (cycle CV and iteration CV are "
                                     "different statistics)",
                                     10, h);
  for (size_t r = 0; t && r < e->n_rows; r++) {
    const rigor_row_t *w = rows[r];
    if (!w->has_iterations) continue;
    char c[10][CELL];
    snprintf(c[0], CELL, "%s", label_or(w->variant_label, "?"));
    snprintf(c[1], CELL, "%s", label_or(w->point_label, "-"));
    snprintf(c[2], CELL, "%zu", w->iter_n);
    rigor_fmt_time(c[3], CELL, w->iter_min);
    rigor_fmt_time(c[4], CELL, w->iter_p50);
    rigor_fmt_time(c[5], CELL, w->iter_p95);
    rigor_fmt_time(c[6], CELL, w->iter_p99);
    rigor_fmt_time(c[7], CELL, w->iter_max);
    rigor_fmt_percent(c[8], CELL, w->time.cv, 0);
    rigor_fmt_percent(c[9], CELL, w->iter_cv, 0);
    const char *cells[10];
    for (int i = 0; i < 10; i++)
      cells[i] = c[i];
    rigor_table_add(t, cells);
  }
  return t;
}

static rigor_table_t *metrics_table(const rigor_exp_analysis_t *e, const rigor_row_t **rows) {
  static const char *const h[] = {"variant", "point", "metric", "n", "median", "min"};
  rigor_table_t *t = rigor_table_new("plugin metrics", 6, h);
  for (size_t r = 0; t && r < e->n_rows; r++)
    for (size_t m = 0; m < rows[r]->n_metrics; m++) {
      const rigor_metric_summary_t *ms = &rows[r]->metrics[m];
      char c[6][CELL];
      snprintf(c[0], CELL, "%s", label_or(rows[r]->variant_label, "?"));
      snprintf(c[1], CELL, "%s", label_or(rows[r]->point_label, "-"));
      snprintf(c[2], CELL, "%s", ms->name);
      snprintf(c[3], CELL, "%zu", ms->n);
      rigor_fmt_number(c[4], CELL, ms->median);
      rigor_fmt_number(c[5], CELL, ms->min);
      const char *cells[6] = {c[0], c[1], c[2], c[3], c[4], c[5]};
      rigor_table_add(t, cells);
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
  static const char *const h[] = {"point",           "treatment", "position effect",
                                  "position spread", "carryover", "carryover spread",
                                  "warning"};
  rigor_table_t *t = rigor_table_new("design effects (run median / variant median - 1)", 7, h);
  for (size_t d = 0; t && d < e->n_effects; d++) {
    const rigor_design_effect_t *x = &e->effects[d];
    char c[7][512];
    snprintf(c[0], sizeof c[0], "%s", label_or(x->point_label, "-"));
    rigor_fmt_percent(c[1], sizeof c[1], x->treatment_spread, 0);
    join_effects(c[2], sizeof c[2], x->position, x->n_positions, "pos ", e);
    rigor_fmt_percent(c[3], sizeof c[3], x->position_spread, 0);
    if (x->has_carryover) {
      join_effects(c[4], sizeof c[4], x->carryover, x->n_preceding, NULL, e);
      rigor_fmt_percent(c[5], sizeof c[5], x->carryover_spread, 0);
    } else {
      snprintf(c[4], sizeof c[4], "-");
      snprintf(c[5], sizeof c[5], "-");
    }
    snprintf(c[6], sizeof c[6], "%s%s%s", x->warn_position ? "position" : "",
             x->warn_position && x->warn_carryover ? ", " : "",
             x->warn_carryover ? "carryover" : "");
    if (!c[6][0]) snprintf(c[6], sizeof c[6], "-");
    const char *cells[7] = {c[0], c[1], c[2], c[3], c[4], c[5], c[6]};
    rigor_table_add(t, cells);
  }
  return t;
}

static rigor_table_t *variance_table(const rigor_exp_analysis_t *e, const rigor_row_t **rows) {
  static const char *const h[] = {"variant",        "point", "runs x cycles", "S1^2 (within)",
                                  "S2^2 (between)", "T2^2",  "95% CI",        "suggested cycles",
                                  "suggested runs"};
  rigor_table_t *t = rigor_table_new("variance components (Kalibera & Jones; seconds^2)", 9, h);
  for (size_t r = 0; t && r < e->n_rows; r++) {
    const rigor_row_t *w = rows[r];
    if (!w->has_variance) continue;
    const rigor_variance_t *v = &w->variance;
    char c[9][CELL];
    snprintf(c[0], CELL, "%s", label_or(w->variant_label, "?"));
    snprintf(c[1], CELL, "%s", label_or(w->point_label, "-"));
    snprintf(c[2], CELL, "%zu x %zu", v->runs, v->cycles);
    snprintf(c[3], CELL, "%.4g", v->s1_sq);
    snprintf(c[4], CELL, "%.4g", v->s2_sq);
    snprintf(c[5], CELL, "%.4g", v->t2_sq);
    char hw[32];
    rigor_fmt_percent(hw, sizeof hw, v->mean != 0 ? v->half_width / fabs(v->mean) : NAN, 0);
    snprintf(c[6], CELL, "+-%s", hw);
    if (w->suggest_runs) {
      snprintf(c[7], CELL, "%u", w->suggest_cycles);
      snprintf(c[8], CELL, "%u", w->suggest_runs);
    } else {
      snprintf(c[7], CELL, "-");
      snprintf(c[8], CELL, "-");
    }
    const char *cells[9] = {c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8]};
    rigor_table_add(t, cells);
  }
  return t;
}

/* Per variant and signal, over its runs' telemetry summaries: the lowest minimum, the median of
 * the run medians and the highest maximum, with the variant's flags (low_clock...). */
static rigor_table_t *telemetry_table(const rigor_exp_analysis_t *e) {
  static const char *const h[] = {"variant", "signal", "runs", "min", "median", "max", "flags"};
  rigor_table_t *t = rigor_table_new("telemetry per variant (min of run minima, median of run "
                                     "medians, max of run maxima)",
                                     7, h);
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
    char flags[256] = "";
    const char *flag;
    json_t *count;
    json_object_foreach(e->variants[v].flags, flag, count) {
      size_t used = strlen(flags);
      snprintf(flags + used, sizeof flags - used, "%s%s x%lld", used ? ", " : "", flag,
               (long long)json_integer_value(count));
    }
    const char *name;
    json_t *acc;
    json_object_foreach(signals, name, acc) {
      json_t *meds = json_object_get(acc, "medians");
      size_t n = json_array_size(meds);
      double *x = malloc((n ? n : 1) * sizeof *x);
      if (!x) break;
      for (size_t i = 0; i < n; i++)
        x[i] = json_real_value(json_array_get(meds, i));
      char c[7][CELL];
      snprintf(c[0], CELL, "%.*s", CELL - 1, label_or(e->variants[v].label, "?"));
      snprintf(c[1], CELL, "%s", name);
      snprintf(c[2], CELL, "%zu", n);
      rigor_fmt_number(c[3], CELL, json_real_value(json_object_get(acc, "min")));
      rigor_fmt_number(c[4], CELL, rigor_stats_median(x, n));
      rigor_fmt_number(c[5], CELL, json_real_value(json_object_get(acc, "max")));
      snprintf(c[6], CELL, "%.*s", CELL - 1, flags[0] ? flags : "-");
      free(x);
      const char *cells[7] = {c[0], c[1], c[2], c[3], c[4], c[5], c[6]};
      rigor_table_add(t, cells);
    }
    json_decref(signals);
  }
  return t;
}

size_t rigor_report_tables(const rigor_exp_analysis_t *e, rigor_by_t by, rigor_table_t **tables,
                           size_t cap) {
  const rigor_row_t **rows = ordered_rows(e, by);
  if (!rows) return 0;
  rigor_table_t *all[] = {summary_table(e, rows),
                          runs_table(e),
                          rigor_report_builds_table(e),
                          e->stop ? rigor_report_replication_table(e) : NULL,
                          gate_table(e, rows),
                          expect_table(e, rows),
                          iterations_table(e, rows),
                          rigor_report_calibration_table(e),
                          metrics_table(e, rows),
                          telemetry_table(e),
                          effects_table(e),
                          variance_table(e, rows)};
  size_t n = 0;
  for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
    bool keep = all[i] && (i < 2 || all[i]->n_rows > 0) && n < cap;
    if (keep)
      tables[n++] = all[i];
    else
      rigor_table_free(all[i]);
  }
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
  if (e->record && !e->positions_vary && e->n_variants > 1)
    note(notes, "order is sequential: drift and warm-up fall on the variants unevenly");
  if (e->incomplete_design)
    note(notes, "the number of blocks is not a multiple of the square: balance is incomplete");
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

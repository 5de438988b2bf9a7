/* The report's tables of how an experiment ran: the builds each run loaded, the iterations
 * calibration chose, what adaptive replication read when it stopped, and, where the runs ran on
 * more than one node (a campaign under Slurm, the run record's slurm.node), each variant and
 * point per node, so that a node that differs shows beside the others. */
#include <stdio.h>
#include <string.h>
#include <math.h>
#include <stdlib.h>

#include "report.h"
#include "analysis_internal.h"
#include "stats.h"
#include "json_util.h"

rigor_table_t *rigor_report_builds_table(const rigor_exp_analysis_t *e) {
  static const char *const h[] = {"build", "plugin", "version", "sha256", "file"};
  rigor_table_t *t = rigor_table_new("builds (each run loaded its build's plugin)", 5, h);
  rigor_table_name(t, "builds");
  size_t i;
  json_t *b;
  json_array_foreach(json_object_get(e->record, "builds"), i, b) {
    if (!t) break;
    const char *cells[5];
    const char *const keys[] = {"label", "name", "version", "sha256", "file"};
    for (size_t k = 0; k < 5; k++) {
      const char *v = json_string_value(json_object_get(b, keys[k]));
      cells[k] = v && *v ? v : "-";
    }
    rigor_table_add(t, cells);
  }
  return t;
}

void rigor_report_builds_notes(const rigor_exp_analysis_t *e, json_t *notes) {
  json_t *builds = json_object_get(e->record, "builds");
  for (size_t i = 0; i < json_array_size(builds); i++)
    for (size_t j = i + 1; j < json_array_size(builds); j++) {
      const char *a = json_string_value(json_object_get(json_array_get(builds, i), "sha256"));
      const char *b = json_string_value(json_object_get(json_array_get(builds, j), "sha256"));
      if (!a || !b || !*a || strcmp(a, b) != 0) continue;
      char line[512];
      snprintf(line, sizeof line,
               "builds '%s' and '%s' have identical plugins (SHA-256 %.12s...): an A/A "
               "comparison, whose contrast should be `same`",
               json_string_value(json_object_get(json_array_get(builds, i), "label")),
               json_string_value(json_object_get(json_array_get(builds, j), "label")), a);
      json_array_append_new(notes, json_string(line));
    }
}

/* One (variant, point) of the calibration table, gathered from the ok runs' records. */
typedef struct calibrated {
  uint32_t variant, point;
  double min_window;
  dvec_t iters, window;
} calibrated_t;

static calibrated_t *find(calibrated_t **all, size_t *n, uint32_t variant, uint32_t point) {
  for (size_t i = 0; i < *n; i++)
    if ((*all)[i].variant == variant && (*all)[i].point == point) return &(*all)[i];
  calibrated_t *grown = realloc(*all, (*n + 1) * sizeof *grown);
  if (!grown) return NULL;
  *all = grown;
  grown[*n] = (calibrated_t){.variant = variant, .point = point, .min_window = NAN};
  return &grown[(*n)++];
}

static const char *point_label(const rigor_exp_analysis_t *e, uint32_t variant, uint32_t point) {
  for (size_t r = 0; r < e->n_rows; r++)
    if (e->rows[r].variant == variant && e->rows[r].point == point) return e->rows[r].point_label;
  return NULL;
}

rigor_table_t *rigor_report_calibration_table(const rigor_exp_analysis_t *e) {
  static const char *const h[] = {"variant", "point",   "min_window", "runs",
                                  "iters",   "min-max", "window"};
  rigor_table_t *t = rigor_table_new("iteration calibration (timing.iters: auto; iters doubled "
                                     "until the window reached min_window)",
                                     7, h);
  if (t) rigor_table_name(t, "calibration");
  calibrated_t *all = NULL;
  size_t n = 0;
  for (size_t k = 0; t && k < e->n_runs; k++) {
    const rigor_run_info_t *r = &e->runs[k];
    if (r->status != RIGOR_RUN_OK) continue;
    size_t i;
    json_t *c;
    json_array_foreach(json_object_get(r->record, "calibration"), i, c) {
      json_t *windows = json_object_get(c, "windows");
      json_t *last = json_array_get(windows, json_array_size(windows) - 1);
      calibrated_t *x =
          find(&all, &n, r->variant, (uint32_t)json_integer_value(json_object_get(c, "point")));
      if (!x || dvec_push(&x->iters, json_number_value(json_object_get(c, "iters"))) ||
          dvec_push(&x->window, json_number_value(json_array_get(last, 1))))
        break;
      x->min_window = json_number_value(json_object_get(c, "min_window_s"));
    }
  }
  for (size_t i = 0; t && i < n; i++) {
    calibrated_t *x = &all[i];
    long row = rigor_table_add_row(t);
    if (row < 0) break;
    const char *vl = x->variant < e->n_variants ? e->variants[x->variant].label : NULL;
    const char *pl = point_label(e, x->variant, x->point);
    rigor_stats_sort(x->iters.v, x->iters.n);
    char minw[32], runs[32], iters[32], range[64], win[32];
    rigor_fmt_time(minw, sizeof minw, x->min_window);
    snprintf(runs, sizeof runs, "%zu", x->iters.n);
    snprintf(iters, sizeof iters, "%.0f",
             rigor_stats_percentile_sorted(x->iters.v, x->iters.n, 0.5));
    snprintf(range, sizeof range, "%.0f-%.0f", x->iters.v[0], x->iters.v[x->iters.n - 1]);
    rigor_fmt_time(win, sizeof win, rigor__median_of(&x->window));
    const char *cells[] = {vl ? vl : "?", pl && *pl ? pl : "-", minw, runs, iters, range, win};
    for (size_t col = 0; col < 7; col++)
      rigor_table_set_text(t, (size_t)row, col, cells[col]);
  }
  for (size_t i = 0; i < n; i++)
    free(all[i].iters.v), free(all[i].window.v);
  free(all);
  return t;
}

static void fmt_half_width(char *buf, size_t len, const json_t *h) {
  if (json_is_number(h))
    snprintf(buf, len, "+-%.2f%%", expm1(json_number_value(h)) * 100);
  else
    snprintf(buf, len, "-");
}

rigor_table_t *rigor_report_replication_table(const rigor_exp_analysis_t *e) {
  static const char *const h[] = {"target", "point", "n", "95% half-width", "stop"};
  const json_t *stop = e->stop;
  char title[256];
  double precision = rigor_json_number_at(stop, "precision");
  if (isfinite(precision))
    snprintf(title, sizeof title,
             "adaptive replication: %lld blocks (min %lld, max %lld) for a 95%% half-width of "
             "at most %.2f%%: stopped by %s",
             (long long)json_integer_value(json_object_get(stop, "blocks")),
             (long long)json_integer_value(json_object_get(stop, "min")),
             (long long)json_integer_value(json_object_get(stop, "max")), precision * 100,
             json_string_value(json_object_get(stop, "reason")));
  else
    snprintf(title, sizeof title, "replication: %lld of %lld blocks, stopped by %s",
             (long long)json_integer_value(json_object_get(stop, "blocks")),
             (long long)json_integer_value(json_object_get(stop, "max")),
             json_string_value(json_object_get(stop, "reason")));
  rigor_table_t *t = rigor_table_new(title, 5, h);
  rigor_table_name(t, "replication");
  size_t i;
  json_t *x;
  json_array_foreach(json_object_get(stop, "targets"), i, x) {
    if (!t) break;
    char target[512], n[32], hw[32];
    const char *kind = json_string_value(json_object_get(x, "kind"));
    const char *cell = json_string_value(json_object_get(x, "cell"));
    if (kind && strcmp(kind, "contrast") == 0) {
      snprintf(target, sizeof target, "%s: %s vs %s%s%s",
               json_string_value(json_object_get(x, "axis")),
               json_string_value(json_object_get(x, "level")),
               json_string_value(json_object_get(x, "reference")), cell && *cell ? ", " : "",
               cell ? cell : "");
      snprintf(n, sizeof n, "%lld blocks",
               (long long)json_integer_value(json_object_get(x, "blocks")));
    } else {
      const char *label = json_string_value(json_object_get(x, "variant_label"));
      snprintf(target, sizeof target, "%s", label ? label : "?");
      snprintf(n, sizeof n, "%lld runs", (long long)json_integer_value(json_object_get(x, "runs")));
    }
    const char *point = json_string_value(json_object_get(x, "point_label"));
    fmt_half_width(hw, sizeof hw, json_object_get(x, "half_width_log"));
    const char *stopped = json_string_value(json_object_get(x, "stop"));
    const char *cells[] = {target, point && *point ? point : "-", n, hw, stopped ? stopped : "-"};
    rigor_table_add(t, cells);
  }
  return t;
}

void rigor_report_replication_notes(const rigor_exp_analysis_t *e, json_t *notes) {
  const char *reason = json_string_value(json_object_get(e->stop, "reason"));
  if (!reason) return;
  char line[512], worst[32];
  fmt_half_width(worst, sizeof worst, json_object_get(e->stop, "worst_half_width_log"));
  long long blocks = (long long)json_integer_value(json_object_get(e->stop, "blocks"));
  double precision = rigor_json_number_at(e->stop, "precision");
  if (strcmp(reason, "max") == 0)
    snprintf(line, sizeof line,
             "precision %.2f%% was not reached in %lld blocks (worst %s): the intervals are "
             "wider than asked; raise replicates.max or quote them as they are",
             precision * 100, blocks, worst);
  else if (strcmp(reason, "decided") == 0)
    snprintf(line, sizeof line,
             "stopped after %lld blocks: every verdict at the %.2f%% threshold was beyond doubt "
             "before the intervals reached %.2f%% (worst %s)",
             blocks, rigor_json_number_at(e->stop, "decided") * 100, precision * 100, worst);
  else if (strcmp(reason, "deadline") == 0)
    snprintf(line, sizeof line,
             "the deadline stopped the experiment after %lld complete blocks (worst %s); "
             "--resume adds the rest",
             blocks, worst);
  else
    return;
  json_array_append_new(notes, json_string(line));
}

static const char *node_of_run(const rigor_exp_analysis_t *e, uint32_t run) {
  for (size_t i = 0; i < e->n_runs; i++)
    if (e->runs[i].run == run && e->runs[i].status == RIGOR_RUN_OK)
      return json_string_value(
          json_object_get(json_object_get(e->runs[i].record, "slurm"), "node"));
  return NULL;
}

/* The distinct nodes of the runs, in order of first appearance. */
static json_t *nodes_of(const rigor_exp_analysis_t *e) {
  json_t *nodes = json_array();
  for (size_t i = 0; i < e->n_runs; i++) {
    const char *node =
        json_string_value(json_object_get(json_object_get(e->runs[i].record, "slurm"), "node"));
    bool seen = !node;
    for (size_t k = 0; !seen && k < json_array_size(nodes); k++)
      seen = strcmp(json_string_value(json_array_get(nodes, k)), node) == 0;
    if (!seen) json_array_append_new(nodes, json_string(node));
  }
  return nodes;
}

rigor_table_t *rigor_report_nodes_table(const rigor_exp_analysis_t *e) {
  static const char *const h[] = {"node", "variant", "point", "runs", "median of run medians"};
  rigor_table_t *t = rigor_table_new("per node (the node each run ran on, slurm.node)", 5, h);
  if (!t) return NULL;
  rigor_table_name(t, "nodes");
  rigor_table_kind(t, 3, RIGOR_COL_COUNT);
  json_t *nodes = nodes_of(e);
  if (json_array_size(nodes) < 2) {
    json_decref(nodes);
    return t; /* one node, or none named: the column would say nothing */
  }
  double *medians = malloc((e->n_runs ? e->n_runs : 1) * sizeof *medians);
  bool time = true;
  for (size_t k = 0; medians && k < json_array_size(nodes); k++) {
    const char *node = json_string_value(json_array_get(nodes, k));
    for (size_t r = 0; r < e->n_rows; r++) {
      const rigor_row_t *w = &e->rows[r];
      const rigor_figure_t *f = &w->figure;
      size_t n = 0;
      for (size_t j = 0; j < f->n_runs && n < e->n_runs; j++) {
        const char *at = node_of_run(e, f->runs[j]);
        if (at && strcmp(at, node) == 0) medians[n++] = f->run_median[j];
      }
      if (!n) continue;
      time = time && strcmp(f->name, "time_s") == 0;
      long row = rigor_table_add_row(t);
      if (row < 0) break;
      rigor_table_set_text(t, (size_t)row, 0, node);
      rigor_table_set_text(t, (size_t)row, 1, w->variant_label ? w->variant_label : "-");
      rigor_table_set_text(t, (size_t)row, 2,
                           w->point_label && w->point_label[0] ? w->point_label : "-");
      rigor_table_set_value(t, (size_t)row, 3, (double)n);
      rigor_table_set_value(t, (size_t)row, 4, rigor_stats_median(medians, n));
    }
  }
  /* Times read in a time unit; another figure (a plugin's primary metric) as a number. */
  rigor_table_kind(t, 4, time ? RIGOR_COL_TIME : RIGOR_COL_NUMBER);
  free(medians);
  json_decref(nodes);
  return t;
}

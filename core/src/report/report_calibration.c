#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "analysis_internal.h"
#include "report.h"
#include "stats.h"

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

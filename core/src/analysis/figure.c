#include "analysis_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json_util.h"
#include "stats.h"

/* 1.4826 * MAD estimates the sd of normal data; the modified z-score of Iglewicz and Hoaglin
 * calls a value an outlier above 3.5. */
#define MAD_TO_SD      1.4826
#define OUTLIER_Z      3.5
#define HALF_WIDTH_LVL 0.95
/* The MAD of fewer values is too unstable to call any of them an outlier. */
#define OUTLIER_MIN_N 10

/* The plugin's declaration of its primary metric in the experiment record, or NULL. */
static const json_t *primary_metric(const rigor_exp_analysis_t *e) {
  const json_t *plugin = json_object_get(e->record, "plugin");
  const char *name = json_string_value(json_object_get(plugin, "primary_metric"));
  if (!name) return NULL;
  size_t i;
  json_t *m;
  json_array_foreach(json_object_get(plugin, "metrics"), i, m) {
    const char *n = json_string_value(json_object_get(m, "name"));
    if (n && strcmp(n, name) == 0) return m;
  }
  return NULL;
}

typedef struct run_value {
  uint32_t run;
  double v;
} run_value_t;

static int cmp_run_value(const void *x, const void *y) {
  const run_value_t *a = x, *b = y;
  if (a->run != b->run) return (a->run > b->run) - (a->run < b->run);
  return (a->v > b->v) - (a->v < b->v);
}

static double mad_of(double *x, size_t n, double center) {
  for (size_t i = 0; i < n; i++)
    x[i] = fabs(x[i] - center);
  return rigor_stats_median(x, n);
}

/* Run medians, within- and between-run spread, outliers and the robust spread of f. */
static int spreads(rigor_figure_t *f) {
  size_t n = f->n;
  f->robust = f->within_run = f->between_run = NAN;
  f->half_width = INFINITY;
  if (n == 0) return 0;
  run_value_t *s = malloc(n * sizeof *s);
  double *work = malloc(n * sizeof *work), *resid = malloc(n * sizeof *resid);
  f->runs = malloc(n * sizeof *f->runs);
  f->run_median = malloc(n * sizeof *f->run_median);
  if (!s || !work || !resid || !f->runs || !f->run_median) {
    free(s), free(work), free(resid);
    return RIGOR_ENOMEM;
  }
  for (size_t i = 0; i < n; i++)
    s[i] = (run_value_t){f->run_of[i], f->values[i]};
  qsort(s, n, sizeof *s, cmp_run_value);
  double ss_within = 0, df_within = 0, grand = 0;
  for (size_t i = 0; i < n;) {
    size_t j = i;
    while (j < n && s[j].run == s[i].run)
      j++;
    double mean = 0;
    for (size_t k = i; k < j; k++) {
      work[k - i] = s[k].v;
      mean += s[k].v;
    }
    mean /= (double)(j - i);
    double med = rigor_stats_median_sorted(work, j - i); /* s is sorted by value within a run */
    for (size_t k = i; k < j; k++) {
      ss_within += (s[k].v - mean) * (s[k].v - mean);
      resid[k] = med != 0 ? s[k].v / med - 1 : 0;
    }
    df_within += (double)(j - i - 1);
    grand += mean * (double)(j - i);
    f->runs[f->n_runs] = s[i].run;
    f->run_median[f->n_runs++] = med;
    i = j;
  }
  grand /= (double)n;
  if (df_within > 0 && grand != 0) f->within_run = sqrt(ss_within / df_within) / fabs(grand);
  /* Outliers: cycles whose deviation from their own run's median is more than 3.5 robust sds
   * of all such deviations, and more than 3.5 steps of the figure's quantum, so that a value one
   * clock tick away from a run of identical ones is not an outlier. */
  memcpy(work, resid, n * sizeof *work);
  double rmed = rigor_stats_median(work, n);
  memcpy(work, resid, n * sizeof *work);
  double rsd = MAD_TO_SD * mad_of(work, n, rmed);
  double qrel = f->summary.median != 0 ? f->quantum / fabs(f->summary.median) : 0;
  double bound = OUTLIER_Z * fmax(rsd, qrel);
  for (size_t i = 0; n >= OUTLIER_MIN_N && i < n; i++)
    f->n_outliers += fabs(resid[i] - rmed) > bound;
  memcpy(work, f->values, n * sizeof *work);
  if (f->summary.median != 0)
    f->robust = MAD_TO_SD * mad_of(work, n, f->summary.median) / fabs(f->summary.median);
  bool positive = true;
  for (size_t r = 0; r < f->n_runs; r++)
    positive = positive && f->run_median[r] > 0;
  if (f->n_runs >= 2 && positive) {
    double m = 0, v = 0;
    for (size_t r = 0; r < f->n_runs; r++)
      m += log(f->run_median[r]);
    m /= (double)f->n_runs;
    for (size_t r = 0; r < f->n_runs; r++)
      v += (log(f->run_median[r]) - m) * (log(f->run_median[r]) - m);
    f->between_run = sqrt(v / (double)(f->n_runs - 1));
    double se = f->between_run / sqrt((double)f->n_runs);
    /* A rounding error of up to half a step does not average away over runs of one value. */
    double floor = qrel / sqrt(12.0);
    double t = rigor_student_t_quantile(1 - (1 - HALF_WIDTH_LVL) / 2, (double)(f->n_runs - 1));
    f->half_width = f->exact ? 0 : t * fmax(se, floor);
  } else if (f->exact) {
    f->half_width = 0;
  }
  free(s), free(work), free(resid);
  return 0;
}

static double clock_quantum(const rigor_exp_analysis_t *e, const rigor_row_t *row) {
  double res = rigor_json_number_at(json_object_get(e->record, "clock"), "resolution_s");
  double ops = row->iters * row->agg;
  return isfinite(res) && res > 0 && ops > 0 ? res / ops : 0;
}

int rigor__finish_figure(const rigor_exp_analysis_t *e, row_acc_t *ra) {
  rigor_row_t *row = &ra->row;
  rigor_figure_t *f = &row->figure;
  memset(f, 0, sizeof *f);
  const json_t *pm = primary_metric(e);
  const metric_acc_t *ma = NULL;
  for (size_t m = 0; pm && m < ra->n_metrics; m++)
    if (strcmp(ra->metrics[m].name, json_string_value(json_object_get(pm, "name"))) == 0)
      ma = &ra->metrics[m];
  /* A state (a flag, a path taken) is no figure of merit: such a row is judged by its time. */
  if (ma && ma->values.n > 0 && !rigor_metric_is_state(e, ma->name, ma->values.v, ma->values.n)) {
    f->name = json_string_value(json_object_get(pm, "name"));
    f->unit = json_string_value(json_object_get(pm, "unit"));
    const char *better = json_string_value(json_object_get(pm, "better"));
    f->higher_is_better = better && strcmp(better, "higher") == 0;
    f->n = ma->values.n;
    f->values = malloc(f->n * sizeof *f->values);
    f->run_of = malloc(f->n * sizeof *f->run_of);
    if (!f->values || !f->run_of) return RIGOR_ENOMEM;
    f->exact = true;
    for (size_t i = 0; i < f->n; i++) {
      f->values[i] = ma->values.v[i];
      f->run_of[i] = (uint32_t)ma->runs.v[i];
      f->exact = f->exact && f->values[i] == f->values[0];
    }
    f->quantum = rigor_quantum_of(f->values, f->n);
  } else {
    f->name = "time_s";
    f->unit = "s";
    f->n = row->n;
    f->values = row->times;
    f->run_of = row->run_of;
    f->quantum = fmax(clock_quantum(e, row), rigor_quantum_of(row->times, row->n));
  }
  int rc = rigor_stats_summarize(f->values, f->n, &f->summary);
  return rc ? rc : spreads(f);
}

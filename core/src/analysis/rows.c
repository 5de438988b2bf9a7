#include "analysis_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_util.h"
#include "stats.h"

const char *rigor_verdict_name(rigor_verdict_t v) {
  switch (v) {
  case RIGOR_VERDICT_STABLE:
    return "stable";
  case RIGOR_VERDICT_UNSTABLE:
    return "unstable";
  case RIGOR_VERDICT_TOO_FEW:
    return "too few";
  case RIGOR_VERDICT_WRONG:
    return "wrong";
  case RIGOR_VERDICT_NO_DATA:
    return "no data";
  }
  return "?";
}

const char *rigor_gate_statistic_name(rigor_gate_statistic_t s) {
  return s == RIGOR_GATE_ROBUST ? "robust" : "cv";
}

typedef struct run_sample {
  uint32_t run, cycle;
  double t;
} run_sample_t;

static int cmp_run_sample(const void *x, const void *y) {
  const run_sample_t *a = x, *b = y;
  if (a->run != b->run) return (a->run > b->run) - (a->run < b->run);
  return (a->cycle > b->cycle) - (a->cycle < b->cycle);
}

typedef struct run_node {
  uint32_t run;
  const char *node;
} run_node_t;

static int cmp_run_node(const void *x, const void *y) {
  const run_node_t *a = x, *b = y;
  return (a->run > b->run) - (a->run < b->run);
}

static int cmp_text(const void *x, const void *y) {
  return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* The row's nodes: each of its runs' (rm->run, ascending) index among the distinct nodes in
 * node[], with row->nodes and row->n_nodes. *all_named says whether every run names its node
 * (the ok record's slurm.node). Rows of files without nodes are left as they were. */
static int row_nodes(const rigor_exp_analysis_t *e, rigor_row_t *row, const run_medians_t *rm,
                     uint32_t *node, bool *all_named) {
  *all_named = false;
  size_t n = 0;
  run_node_t *of = malloc((e->n_runs ? e->n_runs : 1) * sizeof *of);
  const char **names = malloc((rm->n ? rm->n : 1) * sizeof *names);
  const char **at = malloc((rm->n ? rm->n : 1) * sizeof *at);
  if (!of || !names || !at) {
    free(of), free(names), free(at);
    return RIGOR_ENOMEM;
  }
  for (size_t k = 0; k < e->n_runs; k++) {
    const char *name =
        json_string_value(json_object_get(json_object_get(e->runs[k].record, "slurm"), "node"));
    if (name && e->runs[k].status == RIGOR_RUN_OK) of[n++] = (run_node_t){e->runs[k].run, name};
  }
  size_t named = 0, distinct = 0;
  if (n) {
    qsort(of, n, sizeof *of, cmp_run_node);
    for (size_t j = 0; j < rm->n; j++) {
      run_node_t key = {rm->run[j], NULL};
      const run_node_t *hit = bsearch(&key, of, n, sizeof *of, cmp_run_node);
      at[j] = hit ? hit->node : NULL;
      if (at[j]) names[named++] = at[j];
    }
    qsort(names, named, sizeof *names, cmp_text);
    for (size_t j = 0; j < named; j++)
      if (!distinct || strcmp(names[distinct - 1], names[j]) != 0) names[distinct++] = names[j];
  }
  size_t len = 1;
  for (size_t i = 0; i < distinct; i++)
    len += strlen(names[i]) + 1;
  int rc = 0;
  if (distinct && !(row->nodes = malloc(len))) rc = RIGOR_ENOMEM;
  if (row->nodes) {
    row->nodes[0] = '\0';
    for (size_t i = 0; i < distinct; i++) {
      if (i) strcat(row->nodes, ",");
      strcat(row->nodes, names[i]);
    }
    row->n_nodes = distinct;
    for (size_t j = 0; j < rm->n; j++) {
      const char **found = at[j] ? bsearch(&at[j], names, distinct, sizeof *names, cmp_text) : NULL;
      node[j] = found ? (uint32_t)(found - names) : 0;
    }
    *all_named = named == rm->n;
  }
  free(of), free(names), free(at);
  return rc;
}

/* Per-run medians of a row (for design effects), with the first-cycle penalty and the variance
 * components computed from the same grouping. */
static int finish_runs(const rigor_exp_analysis_t *e, rigor_row_t *row, run_medians_t *rm) {
  size_t n = row->n;
  row->first_cycle_penalty = NAN;
  if (n == 0) return 0;
  run_sample_t *s = malloc(n * sizeof *s);
  double *pen = malloc(n * sizeof *pen), *y = malloc(n * sizeof *y);
  rm->run = malloc(n * sizeof *rm->run);
  rm->median = malloc(n * sizeof *rm->median);
  if (!s || !pen || !y || !rm->run || !rm->median) {
    free(s), free(pen), free(y);
    return RIGOR_ENOMEM;
  }
  for (size_t i = 0; i < n; i++)
    s[i] = (run_sample_t){row->run_of[i], row->cycle_of[i], row->times[i]};
  qsort(s, n, sizeof *s, cmp_run_sample);
  size_t n_pen = 0, group_size = 0;
  bool balanced = true;
  for (size_t i = 0; i < n;) {
    size_t j = i;
    while (j < n && s[j].run == s[i].run)
      j++;
    for (size_t k = i; k < j; k++)
      y[k] = s[k].t;
    if (j - i >= 2 && s[i].cycle == 0) pen[n_pen++] = rigor_stats_first_cycle_penalty(y + i, j - i);
    rm->run[rm->n] = s[i].run;
    rm->median[rm->n++] = rigor_stats_median(y + i, j - i);
    if (group_size && group_size != j - i) balanced = false;
    group_size = j - i;
    i = j;
  }
  row->first_cycle_penalty = rigor_stats_median(pen, n_pen);
  uint32_t *node = malloc(rm->n * sizeof *node);
  bool all_named = false;
  int rc = node ? row_nodes(e, row, rm, node, &all_named) : RIGOR_ENOMEM;
  if (!rc && balanced && rm->n >= 2 && group_size >= 2) {
    /* Nodes, where the runs name them, are a level of their own; where each node gave one run,
     * runs and nodes cannot be told apart and the two levels stand. */
    if (all_named && row->n_nodes >= 2 && rm->n > row->n_nodes &&
        rigor_variance_components_nodes(y, rm->n, group_size, node, row->n_nodes, 0.95,
                                        &row->variance) == 0)
      row->has_variance = row->has_node_variance = true;
    else if (rigor_variance_components(y, rm->n, group_size, 0.95, &row->variance) == 0)
      row->has_variance = true;
  }
  free(s), free(pen), free(y), free(node);
  return rc;
}

int rigor__finish_row(rigor_exp_analysis_t *e, row_acc_t *ra, run_medians_t *rm) {
  rigor_row_t *row = &ra->row;
  rigor_variant_info_t *vi = row->variant < e->n_variants ? &e->variants[row->variant] : NULL;
  row->variant_label = vi ? vi->label : NULL;
  const rigor_gate_settings_t *gate = rigor_gate_of(e, row->variant);
  row->cv_max = gate->cv_max;
  row->min_samples = gate->min_samples;
  row->statistic = gate->statistic;
  /* The row takes the usable samples over (NULL when it has none). */
  row->n = ra->times.n;
  row->times = ra->times.v;
  row->run_of = ra->runs.v;
  row->cycle_of = ra->cycles.v;
  ra->times = (dvec_t){0};
  ra->runs = ra->cycles = (u32vec_t){0};
  int rc = rigor_stats_summarize(row->times, row->n, &row->time);
  if (rc) return rc;
  rc = finish_runs(e, row, rm);
  if (rc) return rc;
  row->bytes_per_s = rigor__median_of(&ra->bps);
  row->flops_per_s = rigor__median_of(&ra->fps);
  row->busbw_per_s = rigor__median_of(&ra->busbw);
  double tmin = row->best_bytes_per_s;
  row->best_bytes_per_s = (row->bytes > 0 && isfinite(tmin) && tmin > 0) ? row->bytes / tmin : NAN;
  if (row->has_iterations) {
    row->iter_cv = rigor__median_of(&ra->it_cv);
    if (ra->it_all_raw && ra->it_raw.n) {
      rigor_stats_sort(ra->it_raw.v, ra->it_raw.n);
      row->iter_p50 = rigor_stats_median_sorted(ra->it_raw.v, ra->it_raw.n);
      row->iter_p95 = rigor_stats_percentile_sorted(ra->it_raw.v, ra->it_raw.n, 0.95);
      row->iter_p99 = rigor_stats_percentile_sorted(ra->it_raw.v, ra->it_raw.n, 0.99);
    } else {
      row->iter_p50 = rigor__median_of(&ra->it_p50);
      row->iter_p95 = rigor__median_of(&ra->it_p95);
      row->iter_p99 = rigor__median_of(&ra->it_p99);
    }
  }
  /* Before the metric summaries sort their values out of run order. */
  if ((rc = rigor__finish_figure(e, ra))) return rc;
  if (ra->metrics_used) {
    /* In the order the metrics first counted, as the records gave them. */
    row->metrics = calloc(ra->metrics_used, sizeof *row->metrics);
    if (!row->metrics) return RIGOR_ENOMEM;
    for (size_t m = 0; m < ra->n_metrics; m++) {
      metric_acc_t *acc = &ra->metrics[m];
      if (!acc->first_use) continue;
      dvec_t *d = &acc->values;
      rigor_stats_sort(d->v, d->n);
      rigor_metric_summary_t *ms = &row->metrics[acc->first_use - 1];
      *ms = (rigor_metric_summary_t){.name = acc->name,
                                     .n = d->n,
                                     .median = rigor_stats_median_sorted(d->v, d->n),
                                     .min = d->v[0]};
      ms->flag = rigor_metric_is_flag(e, acc->name, d->v, d->n);
      ms->state = ms->flag || rigor_metric_is_state(e, acc->name, d->v, d->n);
      for (size_t i = 0; ms->flag && i < d->n; i++)
        ms->n_set += d->v[i] == 1;
      acc->name = NULL;
    }
    row->n_metrics = ra->metrics_used;
  }
  if ((rc = rigor__row_expectations(gate, row))) return rc;
  const rigor_figure_t *f = &row->figure;
  row->gate_value = row->statistic == RIGOR_GATE_ROBUST ? f->robust : f->summary.cv;
  if (f->exact) row->gate_value = 0;
  if (row->n == 0)
    row->verdict = RIGOR_VERDICT_NO_DATA;
  else if (row->n_wrong > 0)
    row->verdict = RIGOR_VERDICT_WRONG;
  else if (f->n < row->min_samples)
    row->verdict = RIGOR_VERDICT_TOO_FEW;
  else if (!(row->gate_value <= row->cv_max))
    row->verdict = RIGOR_VERDICT_UNSTABLE;
  else
    row->verdict = RIGOR_VERDICT_STABLE;
  return 0;
}

double rigor_row_noise(const rigor_row_t *w) {
  bool measured = w && w->verdict == RIGOR_VERDICT_UNSTABLE && isfinite(w->figure.between_run);
  return measured ? w->figure.between_run : 0;
}

void rigor__free_row(rigor_row_t *row) {
  rigor_figure_t *f = &row->figure;
  if (f->values != row->times) free(f->values), free(f->run_of);
  free(f->runs), free(f->run_median);
  free(row->times), free(row->run_of), free(row->cycle_of);
  free(row->expect);
  for (size_t m = 0; m < row->n_metrics; m++)
    free(row->metrics[m].name);
  free(row->metrics);
}

void rigor__free_acc(row_acc_t *ra) {
  dvec_t *all[] = {&ra->times,  &ra->bps,    &ra->fps,    &ra->busbw, &ra->it_cv,
                   &ra->it_p50, &ra->it_p95, &ra->it_p99, &ra->it_raw};
  for (size_t i = 0; i < sizeof all / sizeof *all; i++)
    free(all[i]->v);
  free(ra->runs.v);
  free(ra->cycles.v);
  for (size_t m = 0; m < ra->n_metrics; m++) {
    free(ra->metrics[m].name);
    free(ra->metrics[m].values.v);
    free(ra->metrics[m].runs.v);
  }
  free(ra->metrics);
  json_decref(ra->metric_slots);
  memset(ra, 0, sizeof *ra);
}

void rigor_row_no_data_reason(const rigor_row_t *w, const rigor_variant_info_t *v, char *buf,
                              size_t len) {
  size_t ok_runs = v ? v->status_count[RIGOR_RUN_OK] : 0, runs = 0;
  for (int k = 0; v && k < RIGOR_RUN_STATUS_COUNT; k++)
    runs += v->status_count[k];
  size_t windows = w->n_too_short + w->n_invalid + w->n_wrong;
  if (runs == 0)
    snprintf(buf, len, "no run of this variant has a record");
  else if (ok_runs == 0)
    snprintf(buf, len, "none of its %zu runs finished ok (see runs per variant)", runs);
  else if (w->n_too_short && w->n_too_short == windows)
    snprintf(buf, len,
             "all %zu windows too_short (under 20 clock resolutions or 100 clock reads): raise "
             "iters or use iters: auto",
             w->n_too_short);
  else if (w->n_invalid && w->n_invalid == windows)
    snprintf(buf, len, "all %zu samples invalid (NaN, zero or negative times, or flagged)",
             w->n_invalid);
  else if (windows)
    snprintf(buf, len, "%zu too_short, %zu invalid and %zu wrong samples, none usable",
             w->n_too_short, w->n_invalid, w->n_wrong);
  else
    snprintf(buf, len, "its ok runs recorded no sample at this point");
}

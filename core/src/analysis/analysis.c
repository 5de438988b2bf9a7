#include "analysis.h"

#include "clock_flags.h"
#include "telemetry_names.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "errors.h"
#include "reader.h"
#include "rigor/plugin.h"

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

typedef struct dvec {
  double *v;
  size_t n, cap;
} dvec_t;

static int dvec_push(dvec_t *d, double x) {
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

typedef struct metric_acc {
  const char *name;
  dvec_t values;
} metric_acc_t;

typedef struct row_acc {
  bool used;
  rigor_row_t row;
  dvec_t times, runs, cycles, bps, fps, busbw;
  dvec_t it_cv, it_p50, it_p95, it_p99, it_raw;
  bool it_all_raw;
  metric_acc_t *metrics;
  size_t n_metrics;
} row_acc_t;

typedef struct variant_rows {
  row_acc_t *points;
  size_t n;
} variant_rows_t;

/* Per experiment, parallel to rigor_analysis_t.exps. */
typedef struct exp_build {
  variant_rows_t *vrows;
  size_t n_vrows;
  size_t *run_head; /* by run index: 1 + index of its first run info, 0 when none */
  size_t n_run_head;
  size_t *run_next; /* by run info: 1 + index of the next attempt of the same run, 0 at the end */
} exp_build_t;

static double num(const json_t *j) {
  return json_is_number(j) ? json_number_value(j) : NAN;
}

static double num_at(const json_t *obj, const char *key) {
  return num(json_object_get(obj, key));
}

static int grow(void **p, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap) return 0;
  size_t cap2 = *cap ? *cap : 8;
  while (cap2 < need)
    cap2 *= 2;
  void *q = realloc(*p, cap2 * elem);
  if (!q) return RIGOR_ENOMEM;
  memset((char *)q + *cap * elem, 0, (cap2 - *cap) * elem);
  *p = q;
  *cap = cap2;
  return 0;
}

static rigor_variant_info_t *variant_info(rigor_exp_analysis_t *e, uint32_t v) {
  if (v >= e->n_variants) {
    size_t cap = e->n_variants;
    if (grow((void **)&e->variants, &cap, (size_t)v + 1, sizeof *e->variants)) return NULL;
    for (size_t i = e->n_variants; i <= v; i++) {
      e->variants[i].index = (uint32_t)i;
      e->variants[i].reasons = json_array();
      e->variants[i].flags = json_object();
    }
    e->n_variants = (size_t)v + 1;
  }
  return &e->variants[v];
}

static void read_experiment_record(rigor_exp_analysis_t *e, json_t *rec) {
  e->record = rec;
  json_t *sched = json_object_get(rec, "schedule");
  e->design = json_string_value(json_object_get(sched, "design"));
  e->incomplete_design = json_is_true(json_object_get(sched, "incomplete"));
  size_t i;
  json_t *v;
  json_array_foreach(json_object_get(rec, "variants"), i, v) {
    json_t *idx = json_object_get(v, "index");
    rigor_variant_info_t *vi =
        variant_info(e, json_is_integer(idx) ? (uint32_t)json_integer_value(idx) : (uint32_t)i);
    if (!vi) continue;
    vi->label = json_string_value(json_object_get(v, "label"));
    vi->axes = json_object_get(v, "axes");
    vi->settings = json_object_get(v, "settings");
  }
}

/* The index of (name, source) in a->exps, appending it (and its build) when new; -1 on ENOMEM. */
static long find_exp(rigor_analysis_t *a, exp_build_t **builds, const char *name,
                     const char *source) {
  for (size_t i = 0; i < a->n_exps; i++)
    if (a->exps[i].source == source && strcmp(a->exps[i].name, name) == 0) return (long)i;
  rigor_exp_analysis_t *exps = realloc(a->exps, (a->n_exps + 1) * sizeof *exps);
  if (!exps) return -1;
  a->exps = exps;
  exp_build_t *nb = realloc(*builds, (a->n_exps + 1) * sizeof *nb);
  if (!nb) return -1;
  *builds = nb;
  memset(&exps[a->n_exps], 0, sizeof *exps);
  memset(&nb[a->n_exps], 0, sizeof *nb);
  exps[a->n_exps].name = strdup(name);
  exps[a->n_exps].source = source;
  return (long)a->n_exps++;
}

static int add_run(rigor_exp_analysis_t *e, exp_build_t *b, json_t *rec) {
  json_t *jrun = json_object_get(rec, "run");
  if (!json_is_integer(jrun) || json_integer_value(jrun) < 0) return 0;
  size_t cap = e->n_runs;
  if (grow((void **)&e->runs, &cap, e->n_runs + 1, sizeof *e->runs)) return RIGOR_ENOMEM;
  size_t next_cap = e->n_runs;
  if (grow((void **)&b->run_next, &next_cap, e->n_runs + 1, sizeof *b->run_next))
    return RIGOR_ENOMEM;
  rigor_run_info_t *r = &e->runs[e->n_runs];
  memset(r, 0, sizeof *r);
  r->record = rec;
  r->run = (uint32_t)json_integer_value(jrun);
  json_t *att = json_object_get(rec, "attempt");
  r->attempt = json_is_integer(att) ? (uint32_t)json_integer_value(att) : 1;
  r->block = (uint32_t)json_integer_value(json_object_get(rec, "block"));
  r->position = (uint32_t)json_integer_value(json_object_get(rec, "position"));
  r->variant = (uint32_t)json_integer_value(json_object_get(rec, "variant"));
  r->status = rigor_run_status_parse(json_string_value(json_object_get(rec, "status")));
  r->reason = json_string_value(json_object_get(rec, "reason"));
  size_t head_cap = b->n_run_head;
  if (grow((void **)&b->run_head, &head_cap, (size_t)r->run + 1, sizeof *b->run_head))
    return RIGOR_ENOMEM;
  if (b->n_run_head < (size_t)r->run + 1) b->n_run_head = (size_t)r->run + 1;
  b->run_next[e->n_runs] = b->run_head[r->run];
  b->run_head[r->run] = ++e->n_runs;

  rigor_variant_info_t *vi = variant_info(e, r->variant);
  if (!vi) return RIGOR_ENOMEM;
  if (!vi->label) vi->label = json_string_value(json_object_get(rec, "label"));
  vi->status_count[r->status]++;
  if (r->status != RIGOR_RUN_OK) {
    char line[512];
    snprintf(line, sizeof line, "run %u: %s: %s", r->run, rigor_run_status_names[r->status],
             r->reason ? r->reason : "(no reason given)");
    json_array_append_new(vi->reasons, json_string(line));
  }
  size_t i;
  json_t *flag;
  json_array_foreach(json_object_get(rec, "flags"), i, flag) {
    const char *f = json_string_value(flag);
    if (f)
      json_object_set_new(vi->flags, f,
                          json_integer(json_integer_value(json_object_get(vi->flags, f)) + 1));
  }
  return 0;
}

static rigor_run_info_t *find_run(rigor_exp_analysis_t *e, exp_build_t *b, uint32_t run,
                                  uint32_t attempt) {
  if (run >= b->n_run_head) return NULL;
  for (size_t k = b->run_head[run]; k; k = b->run_next[k - 1])
    if (e->runs[k - 1].attempt == attempt) return &e->runs[k - 1];
  return NULL;
}

static row_acc_t *get_row(exp_build_t *b, uint32_t variant, uint32_t point) {
  size_t cap = b->n_vrows;
  if (grow((void **)&b->vrows, &cap, (size_t)variant + 1, sizeof *b->vrows)) return NULL;
  if (b->n_vrows < (size_t)variant + 1) b->n_vrows = (size_t)variant + 1;
  variant_rows_t *vr = &b->vrows[variant];
  size_t pcap = vr->n;
  if (grow((void **)&vr->points, &pcap, (size_t)point + 1, sizeof *vr->points)) return NULL;
  if (vr->n < (size_t)point + 1) vr->n = (size_t)point + 1;
  row_acc_t *ra = &vr->points[point];
  if (!ra->used) {
    ra->used = true;
    ra->it_all_raw = true;
    ra->row.variant = variant;
    ra->row.point = point;
    ra->row.iter_min = INFINITY;
    ra->row.iter_max = -INFINITY;
    ra->row.best_bytes_per_s = INFINITY; /* holds the minimum time until finished */
  }
  return ra;
}

static int add_metrics(row_acc_t *ra, json_t *metrics) {
  const char *key;
  json_t *val;
  json_object_foreach(metrics, key, val) {
    if (!json_is_number(val)) continue;
    size_t m = 0;
    while (m < ra->n_metrics && strcmp(ra->metrics[m].name, key) != 0)
      m++;
    if (m == ra->n_metrics) {
      metric_acc_t *nm = realloc(ra->metrics, (m + 1) * sizeof *nm);
      if (!nm) return RIGOR_ENOMEM;
      ra->metrics = nm;
      memset(&nm[m], 0, sizeof nm[m]);
      nm[m].name = key;
      ra->n_metrics++;
    }
    if (dvec_push(&ra->metrics[m].values, json_number_value(val))) return RIGOR_ENOMEM;
  }
  return 0;
}

static int add_iterations(row_acc_t *ra, json_t *it) {
  rigor_row_t *row = &ra->row;
  row->has_iterations = true;
  row->iter_n += (size_t)num_at(it, "n");
  row->iter_min = fmin(row->iter_min, num_at(it, "min"));
  row->iter_max = fmax(row->iter_max, num_at(it, "max"));
  int rc = dvec_push(&ra->it_cv, num_at(it, "cv")) | dvec_push(&ra->it_p50, num_at(it, "p50")) |
           dvec_push(&ra->it_p95, num_at(it, "p95")) | dvec_push(&ra->it_p99, num_at(it, "p99"));
  json_t *raw = json_object_get(it, "raw");
  if (!json_is_array(raw) || json_array_size(raw) == 0) ra->it_all_raw = false;
  size_t i;
  json_t *v;
  json_array_foreach(raw, i, v) rc |= dvec_push(&ra->it_raw, num(v));
  return rc ? RIGOR_ENOMEM : 0;
}

static int add_sample(rigor_exp_analysis_t *e, exp_build_t *b, json_t *rec) {
  json_t *att = json_object_get(rec, "attempt");
  rigor_run_info_t *ri = find_run(e, b, (uint32_t)json_integer_value(json_object_get(rec, "run")),
                                  json_is_integer(att) ? (uint32_t)json_integer_value(att) : 1);
  if (!ri) {
    e->ignored_samples++;
    return 0;
  }
  uint32_t variant = (uint32_t)json_integer_value(json_object_get(rec, "variant"));
  uint32_t point = (uint32_t)json_integer_value(json_object_get(rec, "point"));
  row_acc_t *ra = get_row(b, variant, point);
  if (!ra || !variant_info(e, variant)) return RIGOR_ENOMEM;
  rigor_row_t *row = &ra->row;
  if (!row->point_label) row->point_label = json_string_value(json_object_get(rec, "point_label"));
  if (!row->point_params) row->point_params = json_object_get(rec, "point_params");
  ri->n_samples++;
  const char *status = json_string_value(json_object_get(rec, "status"));
  json_t *check = json_object_get(rec, "check");
  bool wrong = (status && strcmp(status, "wrong") == 0) || num_at(check, "wrong") > 0;
  if (wrong) {
    row->n_wrong++;
    ri->n_wrong++;
  } else if (status && strcmp(status, "too_short") == 0) {
    row->n_too_short++;
  } else if (status && strcmp(status, "invalid") == 0) {
    row->n_invalid++;
  }
  if (wrong || !status || strcmp(status, "ok") != 0 || ri->status != RIGOR_RUN_OK) return 0;
  double t = num_at(rec, "time_s");
  if (!isfinite(t)) return 0;
  uint32_t cycle = (uint32_t)json_integer_value(json_object_get(rec, "cycle"));
  int rc = dvec_push(&ra->times, t) | dvec_push(&ra->runs, ri->run) | dvec_push(&ra->cycles, cycle);
  if (!row->window) row->window = json_string_value(json_object_get(rec, "window"));
  row->iters = num_at(rec, "iters");
  row->agg = num_at(rec, "agg");
  row->bytes = num_at(rec, "bytes");
  row->flops = num_at(rec, "flops");
  row->bus_factor = num_at(rec, "bus_factor");
  json_t *rates = json_object_get(rec, "rates");
  double r;
  if (isfinite(r = num_at(rates, "bytes_per_s"))) rc |= dvec_push(&ra->bps, r);
  if (isfinite(r = num_at(rates, "flops_per_s"))) rc |= dvec_push(&ra->fps, r);
  if (isfinite(r = num_at(rates, "busbw_bytes_per_s"))) rc |= dvec_push(&ra->busbw, r);
  if (cycle > 0) row->best_bytes_per_s = fmin(row->best_bytes_per_s, t);
  json_t *it = json_object_get(rec, "iterations");
  if (json_is_object(it)) rc |= add_iterations(ra, it);
  json_t *metrics = json_object_get(rec, "metrics");
  if (json_is_object(metrics)) rc |= add_metrics(ra, metrics);
  return rc ? RIGOR_ENOMEM : 0;
}

/* Gate settings: the variant's resolved settings, then the experiment config, then defaults. */
static void read_gate(const rigor_exp_analysis_t *e, const rigor_variant_info_t *vi, double *cv_max,
                      uint32_t *min_samples) {
  json_t *cfg = json_object_get(e->record, "config");
  json_t *gates[] = {json_object_get(vi ? vi->settings : NULL, "gate"),
                     json_object_get(cfg, "gate"),
                     json_object_get(json_object_get(cfg, "defaults"), "gate")};
  *cv_max = RIGOR_GATE_CV_MAX_DEFAULT;
  *min_samples = RIGOR_GATE_MIN_SAMPLES_DEFAULT;
  for (int i = 2; i >= 0; i--) {
    double c = num_at(gates[i], "cv_max"), m = num_at(gates[i], "min_samples");
    if (isfinite(c)) *cv_max = c;
    if (isfinite(m) && m >= 0) *min_samples = (uint32_t)m;
  }
}

static double median_of(dvec_t *d) {
  return rigor_stats_median(d->v, d->n);
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

/* Per-run medians of a row (for design effects), with the first-cycle penalty and the variance
 * components computed from the same grouping. */
typedef struct run_medians {
  uint32_t *run;
  double *median;
  size_t n;
} run_medians_t;

static int finish_runs(row_acc_t *ra, run_medians_t *rm) {
  rigor_row_t *row = &ra->row;
  size_t n = ra->times.n;
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
    s[i] = (run_sample_t){(uint32_t)ra->runs.v[i], (uint32_t)ra->cycles.v[i], ra->times.v[i]};
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
  if (balanced && rm->n >= 2 && group_size >= 2 &&
      rigor_variance_components(y, rm->n, group_size, 0.95, &row->variance) == 0)
    row->has_variance = true;
  free(s), free(pen), free(y);
  return 0;
}

static int finish_row(rigor_exp_analysis_t *e, row_acc_t *ra, run_medians_t *rm) {
  rigor_row_t *row = &ra->row;
  rigor_variant_info_t *vi = row->variant < e->n_variants ? &e->variants[row->variant] : NULL;
  row->variant_label = vi ? vi->label : NULL;
  read_gate(e, vi, &row->cv_max, &row->min_samples);
  row->n = ra->times.n;
  row->times = ra->times.v;
  ra->times.v = NULL;
  row->run_of = malloc((row->n ? row->n : 1) * sizeof *row->run_of);
  row->cycle_of = malloc((row->n ? row->n : 1) * sizeof *row->cycle_of);
  if (!row->run_of || !row->cycle_of) return RIGOR_ENOMEM;
  for (size_t i = 0; i < row->n; i++) {
    row->run_of[i] = (uint32_t)ra->runs.v[i];
    row->cycle_of[i] = (uint32_t)ra->cycles.v[i];
  }
  int rc = rigor_stats_summarize(row->times, row->n, &row->time);
  if (rc) return rc;
  ra->times.v = row->times;
  ra->times.n = row->n;
  rc = finish_runs(ra, rm);
  ra->times.v = NULL;
  if (rc) return rc;
  row->bytes_per_s = median_of(&ra->bps);
  row->flops_per_s = median_of(&ra->fps);
  row->busbw_per_s = median_of(&ra->busbw);
  double tmin = row->best_bytes_per_s;
  row->best_bytes_per_s = (row->bytes > 0 && isfinite(tmin) && tmin > 0) ? row->bytes / tmin : NAN;
  if (row->has_iterations) {
    row->iter_cv = median_of(&ra->it_cv);
    if (ra->it_all_raw && ra->it_raw.n) {
      rigor_stats_sort(ra->it_raw.v, ra->it_raw.n);
      row->iter_p50 = rigor_stats_median_sorted(ra->it_raw.v, ra->it_raw.n);
      row->iter_p95 = rigor_stats_percentile_sorted(ra->it_raw.v, ra->it_raw.n, 0.95);
      row->iter_p99 = rigor_stats_percentile_sorted(ra->it_raw.v, ra->it_raw.n, 0.99);
    } else {
      row->iter_p50 = median_of(&ra->it_p50);
      row->iter_p95 = median_of(&ra->it_p95);
      row->iter_p99 = median_of(&ra->it_p99);
    }
  }
  if (ra->n_metrics) {
    row->metrics = calloc(ra->n_metrics, sizeof *row->metrics);
    if (!row->metrics) return RIGOR_ENOMEM;
    for (size_t m = 0; m < ra->n_metrics; m++) {
      dvec_t *d = &ra->metrics[m].values;
      rigor_stats_sort(d->v, d->n);
      row->metrics[m] = (rigor_metric_summary_t){strdup(ra->metrics[m].name), d->n,
                                                 rigor_stats_median_sorted(d->v, d->n), d->v[0]};
    }
    row->n_metrics = ra->n_metrics;
  }
  if (row->n == 0)
    row->verdict = RIGOR_VERDICT_NO_DATA;
  else if (row->n_wrong > 0)
    row->verdict = RIGOR_VERDICT_WRONG;
  else if (row->n < row->min_samples)
    row->verdict = RIGOR_VERDICT_TOO_FEW;
  else if (!(row->time.cv <= row->cv_max))
    row->verdict = RIGOR_VERDICT_UNSTABLE;
  else
    row->verdict = RIGOR_VERDICT_STABLE;
  return 0;
}

static void free_acc(row_acc_t *ra) {
  dvec_t *all[] = {&ra->times, &ra->runs,   &ra->cycles, &ra->bps,    &ra->fps,   &ra->busbw,
                   &ra->it_cv, &ra->it_p50, &ra->it_p95, &ra->it_p99, &ra->it_raw};
  for (size_t i = 0; i < sizeof all / sizeof *all; i++)
    free(all[i]->v);
  for (size_t m = 0; m < ra->n_metrics; m++)
    free(ra->metrics[m].values.v);
  free(ra->metrics);
}

/* Suggested cycles and runs need costs: a cycle costs at least its measured windows (all points
 * of the variant); a run costs its elapsed time, the rest of which is start-up, priming and
 * validation. */
static void suggest_counts(rigor_exp_analysis_t *e) {
  for (size_t v = 0; v < e->n_variants; v++) {
    double per_cycle = 0;
    dvec_t elapsed = {0};
    uint32_t cycles = 0;
    for (size_t r = 0; r < e->n_rows; r++) {
      rigor_row_t *row = &e->rows[r];
      if (row->variant != v || !row->has_variance) continue;
      per_cycle += row->time.median * row->iters * row->agg;
      cycles = (uint32_t)row->variance.cycles;
    }
    for (size_t k = 0; k < e->n_runs; k++)
      if (e->runs[k].variant == v && e->runs[k].status == RIGOR_RUN_OK &&
          isfinite(num_at(e->runs[k].record, "elapsed_s")) &&
          dvec_push(&elapsed, num_at(e->runs[k].record, "elapsed_s")))
        break;
    double run_total = median_of(&elapsed);
    free(elapsed.v);
    if (!(per_cycle > 0) || !isfinite(run_total)) continue;
    double run_cost = fmax(run_total - cycles * per_cycle, 0);
    for (size_t r = 0; r < e->n_rows; r++) {
      rigor_row_t *row = &e->rows[r];
      if (row->variant == v && row->has_variance)
        rigor_variance_suggest(&row->variance, per_cycle, run_cost,
                               RIGOR_VARIANCE_TARGET * fabs(row->variance.mean), 1000, 1000,
                               &row->suggest_cycles, &row->suggest_runs);
    }
  }
}

static int preceding_variant(const rigor_exp_analysis_t *e, const rigor_run_info_t *r) {
  if (r->position == 0) return -1;
  json_t *blocks = json_object_get(json_object_get(e->record, "schedule"), "blocks");
  json_t *prev = json_array_get(json_array_get(blocks, r->block), r->position - 1);
  if (json_is_integer(prev)) return (int)json_integer_value(prev);
  for (size_t k = 0; k < e->n_runs; k++)
    if (e->runs[k].block == r->block && e->runs[k].position == r->position - 1)
      return (int)e->runs[k].variant;
  return -1;
}

static double spread(const double *x, size_t n) {
  double lo = INFINITY, hi = -INFINITY;
  for (size_t i = 0; i < n; i++)
    if (!isnan(x[i])) {
      lo = fmin(lo, x[i]);
      hi = fmax(hi, x[i]);
    }
  return hi >= lo ? hi - lo : NAN;
}

/* Median of the normalised run medians grouped by key; key_of returns -1 to leave a run out. */
static int group_effect(const rigor_exp_analysis_t *e, const rigor_row_t *rows,
                        const run_medians_t *rm, size_t n_rows, uint32_t point, bool by_preceding,
                        size_t n_keys, double *out) {
  dvec_t *groups = calloc(n_keys, sizeof *groups);
  if (!groups) return RIGOR_ENOMEM;
  int rc = 0;
  for (size_t r = 0; r < n_rows; r++) {
    if (rows[r].point != point || !(rows[r].time.median > 0)) continue;
    for (size_t k = 0; k < rm[r].n; k++) {
      const rigor_run_info_t *ri = NULL;
      for (size_t q = 0; q < e->n_runs && !ri; q++)
        if (e->runs[q].run == rm[r].run[k] && e->runs[q].status == RIGOR_RUN_OK) ri = &e->runs[q];
      if (!ri) continue;
      long key = by_preceding ? preceding_variant(e, ri) : (long)ri->position;
      if (key >= 0 && (size_t)key < n_keys)
        rc |= dvec_push(&groups[key], rm[r].median[k] / rows[r].time.median - 1);
    }
  }
  for (size_t k = 0; k < n_keys; k++) {
    out[k] = median_of(&groups[k]);
    free(groups[k].v);
  }
  free(groups);
  return rc ? RIGOR_ENOMEM : 0;
}

static int design_effects(rigor_exp_analysis_t *e, const run_medians_t *rm) {
  if (!e->design || strcmp(e->design, "sequential") == 0 || e->n_variants < 2) return 0;
  bool williams = strcmp(e->design, "williams") == 0;
  uint32_t max_point = 0;
  for (size_t r = 0; r < e->n_rows; r++)
    if (e->rows[r].point > max_point) max_point = e->rows[r].point;
  e->effects = calloc((size_t)max_point + 1, sizeof *e->effects);
  if (!e->effects) return RIGOR_ENOMEM;
  for (uint32_t p = 0; p <= max_point; p++) {
    double lo = INFINITY, hi = -INFINITY;
    const char *label = NULL;
    for (size_t r = 0; r < e->n_rows; r++)
      if (e->rows[r].point == p && e->rows[r].n) {
        lo = fmin(lo, e->rows[r].time.median);
        hi = fmax(hi, e->rows[r].time.median);
        label = e->rows[r].point_label;
      }
    if (!(lo > 0)) continue;
    rigor_design_effect_t *d = &e->effects[e->n_effects++];
    d->point = p;
    d->point_label = label;
    d->treatment_spread = hi / lo - 1;
    d->n_positions = e->n_variants;
    d->position = calloc(d->n_positions, sizeof *d->position);
    if (!d->position ||
        group_effect(e, e->rows, rm, e->n_rows, p, false, d->n_positions, d->position))
      return RIGOR_ENOMEM;
    d->position_spread = spread(d->position, d->n_positions);
    d->warn_position = d->position_spread > 0 && d->position_spread >= d->treatment_spread;
    if (williams) {
      d->has_carryover = true;
      d->n_preceding = e->n_variants;
      d->carryover = calloc(d->n_preceding, sizeof *d->carryover);
      if (!d->carryover ||
          group_effect(e, e->rows, rm, e->n_rows, p, true, d->n_preceding, d->carryover))
        return RIGOR_ENOMEM;
      d->carryover_spread = spread(d->carryover, d->n_preceding);
      d->warn_carryover = d->carryover_spread > 0 && d->carryover_spread >= d->treatment_spread;
    }
  }
  return 0;
}

/* Flags runs whose clock fell below the threshold of the experiment's median clock; the
 * reference needs every run, so the flag is derived here rather than when a run is written. */
static int flag_low_clock(rigor_exp_analysis_t *e) {
  if (e->n_runs == 0) return 0;
  double threshold = RIGOR_CLOCK_THRESHOLD_DEFAULT;
  for (size_t v = 0; v < e->n_variants; v++) {
    json_t *t = json_object_get(
        json_object_get(json_object_get(e->variants[v].settings, "environment"), "telemetry"),
        "clock_threshold");
    if (json_is_number(t)) {
      threshold = json_number_value(t);
      break;
    }
  }
  json_t *summaries = json_array();
  for (size_t k = 0; k < e->n_runs; k++) {
    json_t *t = json_object_get(e->runs[k].record, "telemetry");
    json_array_append_new(summaries, json_is_object(t) ? json_incref(t) : json_null());
  }
  bool *flagged = calloc(e->n_runs, sizeof *flagged);
  if (!flagged) {
    json_decref(summaries);
    return RIGOR_ENOMEM;
  }
  int n = rigor_telemetry_flag_low_clock(summaries, threshold, flagged, NULL);
  for (size_t k = 0; n > 0 && k < e->n_runs; k++) {
    rigor_variant_info_t *vi = variant_info(e, e->runs[k].variant);
    if (flagged[k] && vi)
      json_object_set_new(
          vi->flags, "low_clock",
          json_integer(json_integer_value(json_object_get(vi->flags, "low_clock")) + 1));
  }
  free(flagged);
  json_decref(summaries);
  return 0;
}

static int finish_exp(rigor_exp_analysis_t *e, exp_build_t *b) {
  int flag_rc = flag_low_clock(e);
  if (flag_rc) return flag_rc;
  size_t n_rows = 0;
  for (size_t v = 0; v < b->n_vrows; v++)
    for (size_t p = 0; p < b->vrows[v].n; p++)
      n_rows += b->vrows[v].points[p].used;
  e->rows = calloc(n_rows ? n_rows : 1, sizeof *e->rows);
  run_medians_t *rm = calloc(n_rows ? n_rows : 1, sizeof *rm);
  int rc = (e->rows && rm) ? 0 : RIGOR_ENOMEM;
  for (size_t v = 0; v < b->n_vrows && !rc; v++)
    for (size_t p = 0; p < b->vrows[v].n && !rc; p++) {
      row_acc_t *ra = &b->vrows[v].points[p];
      if (!ra->used) continue;
      rc = finish_row(e, ra, &rm[e->n_rows]);
      e->rows[e->n_rows++] = ra->row;
    }
  if (!rc) {
    suggest_counts(e);
    rc = design_effects(e, rm);
  }
  for (size_t r = 0; rm && r < n_rows; r++)
    free(rm[r].run), free(rm[r].median);
  free(rm);
  for (size_t v = 0; v < b->n_vrows; v++) {
    for (size_t p = 0; p < b->vrows[v].n; p++)
      if (b->vrows[v].points[p].used) free_acc(&b->vrows[v].points[p]);
    free(b->vrows[v].points);
  }
  free(b->vrows);
  free(b->run_head);
  free(b->run_next);
  return rc;
}

static int analyse_file(rigor_analysis_t *a, json_t *records, const char *source) {
  exp_build_t *builds = NULL;
  size_t first = a->n_exps;
  int rc = 0;
  /* Run records follow their samples in the file, so runs are indexed before samples. */
  for (int pass = 0; pass < 2 && !rc; pass++) {
    size_t i;
    json_t *rec;
    json_array_foreach(records, i, rec) {
      const char *type = json_string_value(json_object_get(rec, "type"));
      const char *name = json_string_value(json_object_get(rec, "experiment"));
      if (!type || !name) continue;
      bool is_sample = strcmp(type, "sample") == 0;
      if (pass == 0 && is_sample) continue;
      if (pass == 1 && !is_sample) continue;
      long x = find_exp(a, &builds, name, source);
      if (x < 0) {
        rc = RIGOR_ENOMEM;
        break;
      }
      rigor_exp_analysis_t *e = &a->exps[x];
      if (strcmp(type, "experiment") == 0 && !e->record)
        read_experiment_record(e, rec);
      else if (strcmp(type, "run") == 0)
        rc = add_run(e, &builds[x], rec);
      else if (is_sample)
        rc = add_sample(e, &builds[x], rec);
      if (rc) break;
    }
  }
  for (size_t x = first; x < a->n_exps; x++) {
    int frc = finish_exp(&a->exps[x], &builds[x]);
    if (!rc) rc = frc;
  }
  free(builds);
  return rc;
}

void rigor_analysis_free(rigor_analysis_t *a) {
  if (!a) return;
  for (size_t x = 0; x < a->n_exps; x++) {
    rigor_exp_analysis_t *e = &a->exps[x];
    for (size_t r = 0; r < e->n_rows; r++) {
      rigor_row_t *row = &e->rows[r];
      free(row->times), free(row->run_of), free(row->cycle_of);
      for (size_t m = 0; m < row->n_metrics; m++)
        free(row->metrics[m].name);
      free(row->metrics);
    }
    for (size_t v = 0; v < e->n_variants; v++) {
      json_decref(e->variants[v].reasons);
      json_decref(e->variants[v].flags);
    }
    for (size_t d = 0; d < e->n_effects; d++)
      free(e->effects[d].position), free(e->effects[d].carryover);
    free(e->effects), free(e->rows), free(e->variants), free(e->runs), free(e->name);
  }
  free(a->exps);
  for (size_t i = 0; i < a->n_sources; i++)
    free(a->sources[i]);
  free(a->sources);
  free(a->truncated);
  json_decref(a->records);
  free(a);
}

/* Raw telemetry lives in a sidecar (RESULTS.telemetry.jsonl); attach each sample to its run
 * record as "telemetry_raw" so reports can draw it. A missing sidecar is no error. */
static void attach_raw_telemetry(const char *path, json_t *records) {
  size_t n = strlen(path) + sizeof ".telemetry.jsonl";
  char *side = malloc(n);
  if (!side) return;
  snprintf(side, n, "%s.telemetry.jsonl", path);
  json_t *raw = NULL;
  bool truncated = false;
  char err[512];
  if (access(side, R_OK) != 0 || rigor_results_load(side, &raw, &truncated, err, sizeof err) != 0) {
    free(side);
    return;
  }
  free(side);
  size_t i, j;
  json_t *rec, *sample;
  json_array_foreach(records, i, rec) {
    const char *type = json_string_value(json_object_get(rec, "type"));
    if (!type || strcmp(type, "run") != 0) continue;
    json_t *list = NULL;
    json_array_foreach(raw, j, sample) {
      if (!json_equal(json_object_get(sample, "run"), json_object_get(rec, "run")) ||
          !json_equal(json_object_get(sample, "attempt"), json_object_get(rec, "attempt")) ||
          !json_equal(json_object_get(sample, "experiment"), json_object_get(rec, "experiment")))
        continue;
      if (!list) list = json_array();
      json_array_append(list, sample);
    }
    if (list) json_object_set_new(rec, "telemetry_raw", list);
  }
  json_decref(raw);
}

int rigor_analysis_load(const char *const *paths, size_t n_paths, rigor_analysis_t **out, char *err,
                        size_t errlen) {
  if (!paths || !out || n_paths == 0) return RIGOR_EINVAL;
  rigor_analysis_t *a = calloc(1, sizeof *a);
  if (!a) return RIGOR_ENOMEM;
  a->records = json_array();
  a->sources = calloc(n_paths, sizeof *a->sources);
  a->truncated = calloc(n_paths, sizeof *a->truncated);
  if (!a->sources || !a->truncated) {
    rigor_analysis_free(a);
    return RIGOR_ENOMEM;
  }
  for (size_t i = 0; i < n_paths; i++) {
    json_t *records;
    int rc = rigor_results_load(paths[i], &records, &a->truncated[i], err, errlen);
    if (rc == 0 && json_array_size(records) == 0) {
      snprintf(err, errlen, "%s: no records%s", paths[i],
               a->truncated[i] ? " (only a cut last line)" : " (empty file)");
      json_decref(records);
      rc = RIGOR_EINVAL;
    }
    if (rc) {
      rigor_analysis_free(a);
      return rc;
    }
    attach_raw_telemetry(paths[i], records);
    json_array_append_new(a->records, records);
    a->sources[a->n_sources++] = strdup(paths[i]);
    rc = analyse_file(a, records, a->sources[i]);
    if (rc) {
      snprintf(err, errlen, "%s: %s", paths[i], rigor_strerror(rc));
      rigor_analysis_free(a);
      return rc;
    }
  }
  *out = a;
  return 0;
}

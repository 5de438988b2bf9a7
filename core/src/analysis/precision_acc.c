#include "precision_acc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "json_util.h"
#include "precision_acc_internal.h"
#include "reader.h"

rigor_precision_acc_t *rigor_precision_acc_new(void) {
  return calloc(1, sizeof(rigor_precision_acc_t));
}

static void free_series(acc_series_t *s) {
  for (size_t r = 0; r < s->n_runs; r++)
    free(s->runs[r].values.v), free(s->runs[r].cycles.v);
  free(s->runs), free(s->sorted.v), free(s->block_median.v), free(s->block_run.v);
}

static void free_exp(acc_exp_t *x) {
  for (size_t v = 0; v < x->n_rows_v; v++) {
    for (size_t p = 0; p < x->rows[v].n; p++) {
      acc_row_t *w = &x->rows[v].points[p];
      free(w->point_label);
      free_series(&w->time);
      free_series(&w->metric);
    }
    free(x->rows[v].points);
  }
  free(x->rows);
  for (size_t h = 0; h < x->n_held; h++)
    free(x->held[h].samples);
  free(x->held);
  for (size_t r = 0; r < x->n_attempts; r++) {
    for (size_t i = 0; i < x->attempts[r].n; i++)
      json_decref(x->attempts[r].record[i]);
    free(x->attempts[r].attempt), free(x->attempts[r].record);
  }
  free(x->attempts);
  rigor_contrast_pairs_free(&x->pairs);
  free(x->shape.variants);
  json_decref(x->record);
  free(x->name);
}

void rigor_precision_acc_free(rigor_precision_acc_t *acc) {
  if (!acc) return;
  for (size_t i = 0; i < acc->n_exps; i++)
    free_exp(&acc->exps[i]);
  free(acc->exps);
  free(acc);
}

static acc_exp_t *exp_named(rigor_precision_acc_t *acc, const char *name) {
  for (size_t i = 0; i < acc->n_exps; i++)
    if (strcmp(acc->exps[i].name, name) == 0) return &acc->exps[i];
  acc_exp_t *grown = realloc(acc->exps, (acc->n_exps + 1) * sizeof *grown);
  if (!grown) return NULL;
  acc->exps = grown;
  acc_exp_t *x = &acc->exps[acc->n_exps];
  memset(x, 0, sizeof *x);
  x->clock_res = NAN;
  if (!(x->name = strdup(name))) return NULL;
  acc->n_exps++;
  return x;
}

/* The plugin's declared primary metric, as the figure reads it (figure.c). */
static const char *primary_metric(const json_t *rec) {
  const json_t *plugin = json_object_get(rec, "plugin");
  const char *name = json_string_value(json_object_get(plugin, "primary_metric"));
  size_t i;
  json_t *m;
  json_array_foreach(json_object_get(plugin, "metrics"), i, m) {
    const char *n = json_string_value(json_object_get(m, "name"));
    if (name && n && strcmp(n, name) == 0) return name;
  }
  return NULL;
}

static rigor_variant_info_t *shape_variant(acc_exp_t *x, uint32_t v) {
  rigor_exp_analysis_t *e = &x->shape;
  if (v >= e->n_variants) {
    size_t cap = e->n_variants;
    if (rigor__grow((void **)&e->variants, &cap, (size_t)v + 1, sizeof *e->variants)) return NULL;
    for (size_t i = e->n_variants; i <= v; i++)
      e->variants[i].index = (uint32_t)i;
    e->n_variants = (size_t)v + 1;
  }
  return &e->variants[v];
}

static int take_experiment(acc_exp_t *x, json_t *rec, size_t line, const char *source, char *err,
                           size_t errlen) {
  if (x->record) {
    const char *first = json_string_value(json_object_get(x->record, "hash"));
    const char *again = json_string_value(json_object_get(rec, "hash"));
    if (first && again && strcmp(first, again) != 0) {
      snprintf(err, errlen,
               "%s:%zu:1: experiment '%s' appears again with hash %.12s…, the first record has "
               "%.12s…: the file mixes two configurations of one experiment",
               source, line, x->name, again, first);
      return RIGOR_EINVAL;
    }
    return 0;
  }
  x->record = json_incref(rec);
  x->shape.name = x->name;
  x->shape.record = rec;
  size_t i;
  json_t *v;
  json_array_foreach(json_object_get(rec, "variants"), i, v) {
    json_t *idx = json_object_get(v, "index");
    rigor_variant_info_t *vi =
        shape_variant(x, json_is_integer(idx) ? (uint32_t)json_integer_value(idx) : (uint32_t)i);
    if (!vi) return RIGOR_ENOMEM;
    vi->label = json_string_value(json_object_get(v, "label"));
    vi->axes = json_object_get(v, "axes");
    vi->settings = json_object_get(v, "settings");
  }
  x->primary = primary_metric(rec);
  x->clock_res = rigor_json_number_at(json_object_get(rec, "clock"), "resolution_s");
  x->interleave = json_object_get(json_object_get(rec, "schedule"), "interleave");
  x->arms_axis = json_string_value(json_object_get(x->interleave, "axis"));
  /* The pairings depend on the variants alone, so they are made once. */
  int rc = rigor_contrast_pairs_build(&x->shape, NULL, NULL, NULL, &x->pairs);
  if (rc) snprintf(err, errlen, "%s: %s", source, rigor_strerror(rc));
  return rc;
}

static acc_row_t *row_at(acc_exp_t *x, uint32_t variant, uint32_t point) {
  size_t cap = x->n_rows_v;
  if (rigor__grow((void **)&x->rows, &cap, (size_t)variant + 1, sizeof *x->rows)) return NULL;
  if (x->n_rows_v < (size_t)variant + 1) x->n_rows_v = (size_t)variant + 1;
  acc_points_t *vr = &x->rows[variant];
  size_t pcap = vr->n;
  if (rigor__grow((void **)&vr->points, &pcap, (size_t)point + 1, sizeof *vr->points)) return NULL;
  if (vr->n < (size_t)point + 1) vr->n = (size_t)point + 1;
  return &vr->points[point];
}

/* Keeps x ascending, and the smallest positive gap: inserting between two values leaves gaps no
 * larger than the one it splits, so the smallest seen is the smallest there is. */
static int insert_sorted(acc_series_t *s, double v) {
  if (dvec_push(&s->sorted, v)) return RIGOR_ENOMEM;
  size_t lo = 0, hi = s->sorted.n - 1;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (s->sorted.v[mid] <= v)
      lo = mid + 1;
    else
      hi = mid;
  }
  memmove(&s->sorted.v[lo + 1], &s->sorted.v[lo], (s->sorted.n - 1 - lo) * sizeof v);
  s->sorted.v[lo] = v;
  const double gaps[2] = {lo > 0 ? v - s->sorted.v[lo - 1] : 0,
                          lo + 1 < s->sorted.n ? s->sorted.v[lo + 1] - v : 0};
  for (int i = 0; i < 2; i++)
    if (gaps[i] > 0 && (s->gap == 0 || gaps[i] < s->gap)) s->gap = gaps[i];
  return 0;
}

/* The run's entry in the series, made in run order when new. */
static acc_run_t *series_run(acc_series_t *s, uint32_t run, uint32_t block) {
  size_t at = s->n_runs;
  while (at > 0 && s->runs[at - 1].run >= run)
    at--;
  if (at < s->n_runs && s->runs[at].run == run) return &s->runs[at];
  if (rigor__grow((void **)&s->runs, &s->runs_cap, s->n_runs + 1, sizeof *s->runs)) return NULL;
  memmove(&s->runs[at + 1], &s->runs[at], (s->n_runs - at) * sizeof *s->runs);
  memset(&s->runs[at], 0, sizeof *s->runs);
  s->runs[at].run = run;
  s->runs[at].block = block;
  s->n_runs++;
  return &s->runs[at];
}

static int add_value(rigor_precision_acc_t *acc, acc_series_t *s, uint32_t run, uint32_t block,
                     uint32_t cycle, double v) {
  acc_run_t *r = series_run(s, run, block);
  if (!r || dvec_push(&r->values, v) || u32vec_push(&r->cycles, cycle) || insert_sorted(s, v))
    return RIGOR_ENOMEM;
  r->stamp = ++acc->stamp;
  return 0;
}

/* A run's median, and the block's when this run is the lowest of it (contrast.c pairs a block by
 * the first run of it in run order). */
static int finish_run(acc_series_t *s, acc_run_t *r) {
  double *c = malloc((r->values.n ? r->values.n : 1) * sizeof *c);
  if (!c) return RIGOR_ENOMEM;
  memcpy(c, r->values.v, r->values.n * sizeof *c);
  rigor_stats_sort(c, r->values.n);
  r->median = rigor_stats_median_sorted(c, r->values.n);
  free(c);
  while (s->block_run.n <= r->block)
    if (u32vec_push(&s->block_run, UINT32_MAX) || dvec_push(&s->block_median, NAN))
      return RIGOR_ENOMEM;
  if (s->block_run.v[r->block] >= r->run) {
    s->block_run.v[r->block] = r->run;
    s->block_median.v[r->block] = r->median;
  }
  return 0;
}

/* Whether a run measured `variant`: its own, or one of the arms its record names. */
static bool run_hosts(const json_t *rec, uint32_t variant) {
  if ((json_int_t)variant == json_integer_value(json_object_get(rec, "variant"))) return true;
  size_t i;
  json_t *arm;
  json_array_foreach(json_object_get(rec, "arms"), i, arm) {
    if (json_is_integer(arm) && json_integer_value(arm) == (json_int_t)variant) return true;
  }
  return false;
}

/* Takes a run's median again where its values changed. */
static int finish_touched(acc_series_t *s, uint32_t run) {
  for (size_t r = s->n_runs; r-- > 0;)
    if (s->runs[r].run == run) {
      acc_run_t *e = &s->runs[r];
      if (e->median_stamp == e->stamp) return 0;
      e->median_stamp = e->stamp;
      return finish_run(s, e);
    }
  return 0;
}

/* Samples of a run whose record has come: they count now, as the analysis counts them. */
static int release(rigor_precision_acc_t *acc, acc_exp_t *x, const acc_sample_t *samples, size_t n,
                   uint32_t run, const json_t *rec) {
  bool run_ok =
      rigor_run_status_parse(json_string_value(json_object_get(rec, "status"))) == RIGOR_RUN_OK;
  uint32_t block = (uint32_t)json_integer_value(json_object_get(rec, "block"));
  int rc = 0;
  for (size_t i = 0; !rc && i < n; i++) {
    const acc_sample_t *a = &samples[i];
    if (!run_hosts(rec, a->variant)) continue;
    acc_row_t *w = &x->rows[a->variant].points[a->point];
    w->used = true;
    if (!a->ok || !run_ok || !isfinite(a->time_s)) continue;
    w->iters = a->iters;
    w->agg = a->agg;
    rc = add_value(acc, &w->time, run, block, a->cycle, a->time_s);
    if (!rc && a->has_metric) rc = add_value(acc, &w->metric, run, block, a->cycle, a->metric);
  }
  for (size_t i = 0; !rc && i < n; i++) {
    acc_row_t *w = &x->rows[samples[i].variant].points[samples[i].point];
    rc = finish_touched(&w->time, run);
    if (!rc) rc = finish_touched(&w->metric, run);
  }
  return rc;
}

/* The first run record of (run, attempt), or NULL. */
static const json_t *run_record(const acc_exp_t *x, uint32_t run, uint32_t attempt) {
  if (run >= x->n_attempts) return NULL;
  for (size_t i = 0; i < x->attempts[run].n; i++)
    if (x->attempts[run].attempt[i] == attempt) return x->attempts[run].record[i];
  return NULL;
}

static int keep_run(acc_exp_t *x, uint32_t run, uint32_t attempt, json_t *rec) {
  size_t cap = x->n_attempts;
  if (rigor__grow((void **)&x->attempts, &cap, (size_t)run + 1, sizeof *x->attempts))
    return RIGOR_ENOMEM;
  if (x->n_attempts < (size_t)run + 1) x->n_attempts = (size_t)run + 1;
  acc_attempts_t *at = &x->attempts[run];
  size_t c1 = at->cap, c2 = at->cap;
  if (rigor__grow((void **)&at->attempt, &c1, at->n + 1, sizeof *at->attempt) ||
      rigor__grow((void **)&at->record, &c2, at->n + 1, sizeof *at->record))
    return RIGOR_ENOMEM;
  at->cap = c1 < c2 ? c1 : c2;
  at->attempt[at->n] = attempt;
  at->record[at->n++] = json_incref(rec);
  return 0;
}

static int take_run(rigor_precision_acc_t *acc, acc_exp_t *x, json_t *rec) {
  json_t *jrun = json_object_get(rec, "run"), *jatt = json_object_get(rec, "attempt");
  if (!json_is_integer(jrun) || json_integer_value(jrun) < 0) return 0;
  uint32_t run = (uint32_t)json_integer_value(jrun);
  uint32_t attempt = json_is_integer(jatt) ? (uint32_t)json_integer_value(jatt) : 1;
  size_t h = 0;
  while (h < x->n_held && !(x->held[h].run == run && x->held[h].attempt == attempt))
    h++;
  bool duplicate = run_record(x, run, attempt) != NULL;
  if (!duplicate) {
    int rc = keep_run(x, run, attempt, rec);
    if (rc) return rc;
    uint32_t block = (uint32_t)json_integer_value(json_object_get(rec, "block"));
    x->max_block = x->any_run && x->max_block > block ? x->max_block : block;
    x->any_run = true;
    uint32_t variant = (uint32_t)json_integer_value(json_object_get(rec, "variant"));
    rigor_variant_info_t *vi = shape_variant(x, variant);
    if (!vi) return RIGOR_ENOMEM;
    if (!vi->label) vi->label = json_string_value(json_object_get(rec, "label"));
  }
  if (h == x->n_held) return 0;
  /* A second record of (run, attempt): its samples were written twice, and count once. */
  int rc = duplicate ? 0 : release(acc, x, x->held[h].samples, x->held[h].n, run, rec);
  free(x->held[h].samples);
  x->held[h] = x->held[--x->n_held];
  return rc;
}

static acc_held_t *held_for(acc_exp_t *x, uint32_t run, uint32_t attempt) {
  for (size_t h = 0; h < x->n_held; h++)
    if (x->held[h].run == run && x->held[h].attempt == attempt) return &x->held[h];
  if (rigor__grow((void **)&x->held, &x->held_cap, x->n_held + 1, sizeof *x->held)) return NULL;
  acc_held_t *h = &x->held[x->n_held++];
  memset(h, 0, sizeof *h);
  h->run = run;
  h->attempt = attempt;
  return h;
}

/* As the analysis reads a sample's status: wrong elements make it wrong whatever it says, and a
 * time that is not positive is no measurement (records/reader.c). */
static bool sample_ok(const rigor_sample_t *s) {
  return s->status == RIGOR_SAMPLE_OK && !(s->check_wrong > 0) && s->time_s > 0;
}

static int take_sample(rigor_precision_acc_t *acc, acc_exp_t *x, const char *primary,
                       const rigor_sample_t *s) {
  uint32_t variant = s->variant < 0 ? 0 : (uint32_t)s->variant;
  uint32_t point = s->point < 0 ? 0 : (uint32_t)s->point;
  acc_row_t *w = row_at(x, variant, point);
  if (!w) return RIGOR_ENOMEM;
  /* The row's label is the first sample's that carries one, counted or not (ingest.c). */
  if (!w->point_label && s->point_label && !(w->point_label = strdup(s->point_label)))
    return RIGOR_ENOMEM;
  uint32_t run = s->run < 0 ? 0 : (uint32_t)s->run;
  uint32_t attempt = s->attempt < 0 ? 1 : (uint32_t)s->attempt;
  const json_t *done = run_record(x, run, attempt);
  acc_held_t late = {0}, *h = done ? &late : held_for(x, run, attempt);
  if (!h || rigor__grow((void **)&h->samples, &h->cap, h->n + 1, sizeof *h->samples))
    return RIGOR_ENOMEM;
  acc_sample_t *a = &h->samples[h->n++];
  *a = (acc_sample_t){.variant = variant,
                      .point = point,
                      .cycle = s->cycle < 0 ? 0 : (uint32_t)s->cycle,
                      .ok = sample_ok(s),
                      .time_s = s->time_s,
                      .iters = s->iters,
                      .agg = s->agg,
                      .metric = NAN};
  for (size_t m = 0; primary && m < s->n_metrics; m++)
    if (strcmp(s->metrics[m].name, primary) == 0) {
      a->has_metric = true;
      a->metric = s->metrics[m].value;
    }
  /* A sample after its run record (valid, if not as rigor writes) counts at once. */
  int rc = done ? release(acc, x, late.samples, late.n, run, done) : 0;
  free(late.samples);
  return rc;
}

typedef struct feed {
  rigor_precision_acc_t *acc;
  const char *source;
  char *err;
  size_t errlen;
} feed_t;

static int on_sample(void *arg, const rigor_sample_t *s) {
  feed_t *f = arg;
  if (!s->experiment) return 0;
  acc_exp_t *x = exp_named(f->acc, s->experiment);
  return x ? take_sample(f->acc, x, x->primary, s) : RIGOR_ENOMEM;
}

static int on_record(void *arg, json_t *rec, const char *type, size_t line) {
  feed_t *f = arg;
  bool experiment = strcmp(type, "experiment") == 0, run = strcmp(type, "run") == 0;
  const char *name = json_string_value(json_object_get(rec, "experiment"));
  if ((!experiment && !run) || !name) return 0;
  acc_exp_t *x = exp_named(f->acc, name);
  if (!x) return RIGOR_ENOMEM;
  return experiment ? take_experiment(x, rec, line, f->source, f->err, f->errlen)
                    : take_run(f->acc, x, rec);
}

int rigor_precision_acc_feed(rigor_precision_acc_t *acc, const char *source, const json_t *rec,
                             char *err, size_t errlen) {
  if (!acc || !rec || !source || !err || errlen == 0) return RIGOR_EINVAL;
  json_t *one = json_array();
  if (!one || json_array_append(one, (json_t *)rec) != 0) {
    json_decref(one);
    snprintf(err, errlen, "%s: %s", source, rigor_strerror(RIGOR_ENOMEM));
    return RIGOR_ENOMEM;
  }
  feed_t f = {.acc = acc, .source = source, .err = err, .errlen = errlen};
  err[0] = '\0';
  rigor_results_callbacks_t cb = {.sample = on_sample, .record = on_record, .arg = &f};
  int rc = rigor_results_feed(one, &cb, source, err, errlen);
  json_decref(one);
  if (rc && !err[0]) snprintf(err, errlen, "%s: %s", source, rigor_strerror(rc));
  return rc;
}

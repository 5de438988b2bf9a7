#include "analysis_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "errors.h"
#include "json_util.h"
#include "reader.h"

typedef struct held_metric {
  size_t slot; /* in the row's metrics */
  double value;
} held_metric_t;

/* What the analysis keeps of a sample until its run record says whether it counts. */
typedef struct held_sample {
  uint32_t variant, point, cycle;
  rigor_sample_status_t status; /* unknown: never usable, never counted */
  bool has_iterations;
  bool checked;       /* a correctness check ran on the window (check_wrong is a number) */
  const char *window; /* kept once in exp_build.windows */
  double time_s, iters, agg, bytes, flops, bus_factor, bytes_per_s, flops_per_s, busbw_per_s;
  double it_n, it_min, it_max, it_cv, it_p50, it_p95, it_p99;
  size_t raw_at, n_raw;         /* in the held run's raw */
  size_t metrics_at, n_metrics; /* in the held run's metrics */
} held_sample_t;

/* The samples of one (run, attempt) whose run record has not been read yet. */
struct held_run {
  uint32_t run, attempt;
  size_t
      next; /* 1 + index in exp_build.held of the next waiting attempt of the run, 0 at the end */
  held_sample_t *samples;
  size_t n, cap;
  dvec_t raw;
  held_metric_t *metrics;
  size_t n_metrics, metrics_cap;
};

static void read_experiment_record(rigor_exp_analysis_t *e, json_t *rec) {
  e->record = rec;
  json_t *sched = json_object_get(rec, "schedule");
  e->design = json_string_value(json_object_get(sched, "design"));
  e->incomplete_design = json_is_true(json_object_get(sched, "incomplete"));
  rigor__schedule_balance(json_object_get(sched, "blocks"), &e->positions_vary,
                          &e->carryover_balanced);
  size_t i;
  json_t *v;
  json_array_foreach(json_object_get(rec, "variants"), i, v) {
    json_t *idx = json_object_get(v, "index");
    rigor_variant_info_t *vi = rigor__variant_info(
        e, json_is_integer(idx) ? (uint32_t)json_integer_value(idx) : (uint32_t)i);
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
  char *own_name = strdup(name);
  json_t *windows = json_object();
  rigor_exp_analysis_t *exps =
      own_name && windows ? realloc(a->exps, (a->n_exps + 1) * sizeof *exps) : NULL;
  if (exps) a->exps = exps;
  exp_build_t *nb = exps ? realloc(*builds, (a->n_exps + 1) * sizeof *nb) : NULL;
  if (!nb) {
    free(own_name);
    json_decref(windows);
    return -1;
  }
  *builds = nb;
  memset(&exps[a->n_exps], 0, sizeof *exps);
  memset(&nb[a->n_exps], 0, sizeof *nb);
  exps[a->n_exps].name = own_name;
  exps[a->n_exps].source = source;
  nb[a->n_exps].windows = windows;
  return (long)a->n_exps++;
}

/* Adds the run record's info; *added is its index in e->runs, or -1 for a record without a
 * run index. */
static int add_run(rigor_exp_analysis_t *e, exp_build_t *b, json_t *rec, long *added) {
  *added = -1;
  json_t *jrun = json_object_get(rec, "run");
  if (!json_is_integer(jrun) || json_integer_value(jrun) < 0) return 0;
  if (rigor__grow((void **)&e->runs, &b->runs_cap, e->n_runs + 1, sizeof *e->runs) ||
      rigor__grow((void **)&b->run_next, &b->run_next_cap, e->n_runs + 1, sizeof *b->run_next))
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
  if (rigor__grow((void **)&b->run_head, &b->run_head_cap, (size_t)r->run + 1, sizeof *b->run_head))
    return RIGOR_ENOMEM;
  if (b->n_run_head < (size_t)r->run + 1) b->n_run_head = (size_t)r->run + 1;
  b->run_next[e->n_runs] = b->run_head[r->run];
  *added = (long)e->n_runs;
  b->run_head[r->run] = ++e->n_runs;

  rigor_variant_info_t *vi = rigor__variant_info(e, r->variant);
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

/* The accumulator of (variant, point), created on the first sample that names it. */
static row_acc_t *row_at(exp_build_t *b, uint32_t variant, uint32_t point) {
  size_t cap = b->n_vrows;
  if (rigor__grow((void **)&b->vrows, &cap, (size_t)variant + 1, sizeof *b->vrows)) return NULL;
  if (b->n_vrows < (size_t)variant + 1) b->n_vrows = (size_t)variant + 1;
  variant_rows_t *vr = &b->vrows[variant];
  size_t pcap = vr->n;
  if (rigor__grow((void **)&vr->points, &pcap, (size_t)point + 1, sizeof *vr->points)) return NULL;
  if (vr->n < (size_t)point + 1) vr->n = (size_t)point + 1;
  row_acc_t *ra = &vr->points[point];
  if (!ra->metric_slots) {
    ra->metric_slots = json_object();
    if (!ra->metric_slots) return NULL;
    ra->it_all_raw = true;
    ra->row.variant = variant;
    ra->row.point = point;
    ra->row.iter_min = INFINITY;
    ra->row.iter_max = -INFINITY;
    ra->row.best_bytes_per_s = INFINITY; /* holds the minimum time until finished */
  }
  return ra;
}

/* The row's slot for metric `name`: the same place as in the last sample when the names come in
 * the same order, else through the name index. -1 on ENOMEM. */
static long metric_slot(row_acc_t *ra, size_t guess, const char *name) {
  if (guess < ra->n_metrics && strcmp(ra->metrics[guess].name, name) == 0) return (long)guess;
  json_t *slot = json_object_get(ra->metric_slots, name);
  if (slot) return (long)json_integer_value(slot);
  if (rigor__grow((void **)&ra->metrics, &ra->metrics_cap, ra->n_metrics + 1, sizeof *ra->metrics))
    return -1;
  metric_acc_t *m = &ra->metrics[ra->n_metrics];
  m->name = strdup(name);
  if (!m->name ||
      json_object_set_new(ra->metric_slots, name, json_integer((json_int_t)ra->n_metrics)) != 0) {
    free(m->name);
    m->name = NULL;
    return -1;
  }
  return (long)ra->n_metrics++;
}

/* The experiment's one copy of a window name (every sample names one of two or so). */
static const char *window_name(exp_build_t *b, const char *window) {
  if (!window) return NULL;
  if (b->last_window && strcmp(b->last_window, window) == 0) return b->last_window;
  json_t *kept = json_object_get(b->windows, window);
  if (!kept) {
    kept = json_string(window);
    if (!kept || json_object_set_new(b->windows, window, kept) != 0) return NULL;
  }
  return b->last_window = json_string_value(kept);
}

/* A sample whose check found wrong elements counts as wrong whatever its status says. */
static rigor_sample_status_t status_of(const rigor_sample_t *s) {
  return s->check_wrong > 0 ? RIGOR_SAMPLE_WRONG : s->status;
}

/* Copies what the rows need of `s` into `h`; the row's label and point params come from the
 * first sample that carries them. */
static int hold_sample(exp_build_t *b, held_run_t *h, row_acc_t *ra, const rigor_sample_t *s) {
  rigor_row_t *row = &ra->row;
  if (!row->point_label && s->point_label && !(row->point_label = strdup(s->point_label)))
    return RIGOR_ENOMEM;
  if (!row->point_params) row->point_params = rigor_sample_point_params(s);
  if (rigor__grow((void **)&h->samples, &h->cap, h->n + 1, sizeof *h->samples) ||
      rigor__grow((void **)&h->metrics, &h->metrics_cap, h->n_metrics + s->n_metrics,
                  sizeof *h->metrics))
    return RIGOR_ENOMEM;
  held_sample_t *hs = &h->samples[h->n++];
  *hs = (held_sample_t){
      .variant = row->variant,
      .point = row->point,
      .cycle = s->cycle < 0 ? 0 : (uint32_t)s->cycle,
      .status = status_of(s),
      .has_iterations = s->has_iterations,
      .checked = isfinite(s->check_wrong),
      .window = window_name(b, s->window),
      .time_s = s->time_s,
      .iters = s->iters,
      .agg = s->agg,
      .bytes = s->bytes,
      .flops = s->flops,
      .bus_factor = s->bus_factor,
      .bytes_per_s = s->bytes_per_s,
      .flops_per_s = s->flops_per_s,
      .busbw_per_s = s->busbw_bytes_per_s,
      .it_n = s->it_n,
      .it_min = s->it_min,
      .it_max = s->it_max,
      .it_cv = s->it_cv,
      .it_p50 = s->it_p50,
      .it_p95 = s->it_p95,
      .it_p99 = s->it_p99,
      .raw_at = h->raw.n,
      .n_raw = s->n_raw,
      .metrics_at = h->n_metrics,
      .n_metrics = s->n_metrics,
  };
  if (s->window && !hs->window) return RIGOR_ENOMEM;
  for (size_t i = 0; i < s->n_raw; i++)
    if (dvec_push(&h->raw, s->raw[i])) return RIGOR_ENOMEM;
  for (size_t m = 0; m < s->n_metrics; m++) {
    long slot = metric_slot(ra, m, s->metrics[m].name);
    if (slot < 0) return RIGOR_ENOMEM;
    h->metrics[h->n_metrics++] = (held_metric_t){(size_t)slot, s->metrics[m].value};
  }
  return 0;
}

static int add_iterations(row_acc_t *ra, const held_run_t *h, const held_sample_t *hs) {
  rigor_row_t *row = &ra->row;
  row->has_iterations = true;
  row->iter_n += (size_t)hs->it_n;
  row->iter_min = fmin(row->iter_min, hs->it_min);
  row->iter_max = fmax(row->iter_max, hs->it_max);
  int rc = dvec_push(&ra->it_cv, hs->it_cv) | dvec_push(&ra->it_p50, hs->it_p50) |
           dvec_push(&ra->it_p95, hs->it_p95) | dvec_push(&ra->it_p99, hs->it_p99);
  if (hs->n_raw == 0) ra->it_all_raw = false;
  for (size_t i = 0; i < hs->n_raw; i++)
    rc |= dvec_push(&ra->it_raw, h->raw.v[hs->raw_at + i]);
  return rc ? RIGOR_ENOMEM : 0;
}

static int add_metrics(row_acc_t *ra, const held_run_t *h, const held_sample_t *hs, uint32_t run) {
  for (size_t m = 0; m < hs->n_metrics; m++) {
    const held_metric_t *hm = &h->metrics[hs->metrics_at + m];
    metric_acc_t *acc = &ra->metrics[hm->slot];
    if (!acc->first_use) acc->first_use = ++ra->metrics_used;
    if (dvec_push(&acc->values, hm->value) || u32vec_push(&acc->runs, run)) return RIGOR_ENOMEM;
  }
  return 0;
}

/* Whether a run measured `variant`: its own, or, for a run of interleaved arms, one its
 * record's `arms` names. */
static bool run_hosts(const rigor_run_info_t *ri, uint32_t variant) {
  if (variant == ri->variant) return true;
  size_t i;
  json_t *arm;
  json_array_foreach(json_object_get(ri->record, "arms"), i, arm) {
    if (json_is_integer(arm) && json_integer_value(arm) == (json_int_t)variant) return true;
  }
  return false;
}

/* A held sample, now that its run is known: counted, and kept when usable. */
static int add_sample(rigor_exp_analysis_t *e, exp_build_t *b, rigor_run_info_t *ri,
                      const held_run_t *h, const held_sample_t *hs) {
  if (!run_hosts(ri, hs->variant)) {
    e->mismatched_samples++; /* a sample of another variant than its run's: damage */
    return 0;
  }
  row_acc_t *ra = &b->vrows[hs->variant].points[hs->point];
  if (!rigor__variant_info(e, hs->variant)) return RIGOR_ENOMEM;
  ra->used = true;
  rigor_row_t *row = &ra->row;
  ri->n_samples++;
  if (hs->checked) row->n_checked++;
  if (hs->status == RIGOR_SAMPLE_WRONG) {
    row->n_wrong++;
    ri->n_wrong++;
  } else if (hs->status == RIGOR_SAMPLE_TOO_SHORT) {
    row->n_too_short++;
  } else if (hs->status == RIGOR_SAMPLE_INVALID) {
    row->n_invalid++;
  }
  if (hs->status != RIGOR_SAMPLE_OK || ri->status != RIGOR_RUN_OK) return 0;
  double t = hs->time_s;
  if (!isfinite(t)) return 0;
  int rc = dvec_push(&ra->times, t) | u32vec_push(&ra->runs, ri->run) |
           u32vec_push(&ra->cycles, hs->cycle);
  if (!row->window && hs->window && !(row->window = strdup(hs->window))) rc = RIGOR_ENOMEM;
  row->iters = hs->iters;
  row->agg = hs->agg;
  row->bytes = hs->bytes;
  row->flops = hs->flops;
  row->bus_factor = hs->bus_factor;
  if (isfinite(hs->bytes_per_s)) rc |= dvec_push(&ra->bps, hs->bytes_per_s);
  if (isfinite(hs->flops_per_s)) rc |= dvec_push(&ra->fps, hs->flops_per_s);
  if (isfinite(hs->busbw_per_s)) rc |= dvec_push(&ra->busbw, hs->busbw_per_s);
  if (hs->cycle > 0) row->best_bytes_per_s = fmin(row->best_bytes_per_s, t);
  if (hs->has_iterations) rc |= add_iterations(ra, h, hs);
  rc |= add_metrics(ra, h, hs, ri->run);
  return rc ? RIGOR_ENOMEM : 0;
}

static void free_held(held_run_t *h) {
  free(h->samples);
  free(h->raw.v);
  free(h->metrics);
  h->samples = NULL, h->metrics = NULL, h->raw = (dvec_t){0};
  h->n = h->cap = h->n_metrics = h->metrics_cap = 0;
}

static int add_held(rigor_exp_analysis_t *e, exp_build_t *b, rigor_run_info_t *ri,
                    const held_run_t *h) {
  for (size_t i = 0; i < h->n; i++) {
    int rc = add_sample(e, b, ri, h, &h->samples[i]);
    if (rc) return rc;
  }
  return 0;
}

/* The held samples of (run, attempt), created empty when none wait yet; NULL on ENOMEM. */
static held_run_t *held_for(exp_build_t *b, uint32_t run, uint32_t attempt) {
  if (run < b->n_held_head)
    for (size_t k = b->held_head[run]; k; k = b->held[k - 1].next)
      if (b->held[k - 1].attempt == attempt) return &b->held[k - 1];
  if (rigor__grow((void **)&b->held_head, &b->held_head_cap, (size_t)run + 1,
                  sizeof *b->held_head) ||
      rigor__grow((void **)&b->held, &b->held_cap, b->n_held + 1, sizeof *b->held))
    return NULL;
  if (b->n_held_head < (size_t)run + 1) b->n_held_head = (size_t)run + 1;
  held_run_t *h = &b->held[b->n_held];
  h->run = run;
  h->attempt = attempt;
  h->next = b->held_head[run];
  b->held_head[run] = ++b->n_held;
  return h;
}

/* The run record of (run, attempt) has come: its held samples count now and are let go. A
 * let-go entry stays in the chain, empty, for a later attempt of the same run index. */
static int release_held(rigor_exp_analysis_t *e, exp_build_t *b, long run_info) {
  rigor_run_info_t *ri = &e->runs[run_info];
  if (ri->run >= b->n_held_head) return 0;
  for (size_t k = b->held_head[ri->run]; k; k = b->held[k - 1].next) {
    held_run_t *h = &b->held[k - 1];
    if (h->attempt != ri->attempt) continue;
    int rc = add_held(e, b, ri, h);
    free_held(h);
    return rc;
  }
  return 0;
}

/* A second run record of (run, attempt): the samples held for it were written twice too. */
static int discard_held(rigor_exp_analysis_t *e, exp_build_t *b, uint32_t run, uint32_t attempt) {
  if (run >= b->n_held_head) return 0;
  for (size_t k = b->held_head[run]; k; k = b->held[k - 1].next) {
    held_run_t *h = &b->held[k - 1];
    if (h->attempt != attempt) continue;
    e->duplicate_samples += h->n;
    free_held(h);
  }
  return 0;
}

/* Reading one results file. */
typedef struct intake {
  rigor_analysis_t *a;
  const char *source;
  exp_build_t *builds;
  size_t first; /* the file's first experiment in a->exps */
  long last;    /* the experiment of the last record, -1 before the first */
  json_t *kept; /* the file's experiment and run records */
  size_t n_records;
  char *err;
  size_t errlen;
  bool failed; /* a callback stopped the read (out of memory) */
} intake_t;

static long exp_of(intake_t *in, const char *name) {
  if (in->last >= 0 && strcmp(in->a->exps[in->last].name, name) == 0) return in->last;
  long x = find_exp(in->a, &in->builds, name, in->source);
  if (x >= 0) in->last = x;
  return x;
}

static int take_sample(intake_t *in, const rigor_sample_t *s) {
  long x = exp_of(in, s->experiment);
  if (x < 0) return RIGOR_ENOMEM;
  rigor_exp_analysis_t *e = &in->a->exps[x];
  exp_build_t *b = &in->builds[x];
  uint32_t run = s->run < 0 ? 0 : (uint32_t)s->run;
  uint32_t attempt = s->attempt < 0 ? 1 : (uint32_t)s->attempt;
  row_acc_t *ra =
      row_at(b, s->variant < 0 ? 0 : (uint32_t)s->variant, s->point < 0 ? 0 : (uint32_t)s->point);
  if (!ra) return RIGOR_ENOMEM;
  (void)e;
  /* Held until a run record of (run, attempt) comes: the first one makes them count, a second
   * one (the same records written twice) lets them go. */
  held_run_t *h = held_for(b, run, attempt);
  return h ? hold_sample(b, h, ra, s) : RIGOR_ENOMEM;
}

static int take_record(intake_t *in, json_t *rec, const char *type, size_t line) {
  bool is_experiment = strcmp(type, "experiment") == 0, is_run = strcmp(type, "run") == 0;
  bool is_stop = strcmp(type, "stop") == 0;
  if (!is_experiment && !is_run && !is_stop) return 0;
  long x = exp_of(in, json_string_value(json_object_get(rec, "experiment")));
  if (x < 0 || json_array_append(in->kept, rec) != 0) return RIGOR_ENOMEM;
  rigor_exp_analysis_t *e = &in->a->exps[x];
  if (is_stop) {
    e->stop = rec; /* kept alive by in->kept; a later stop (after --resume) supersedes */
    return 0;
  }
  if (is_experiment) {
    if (!e->record) {
      read_experiment_record(e, rec);
      return 0;
    }
    /* One file, one configuration per experiment name: a second record with another hash means
     * two runs of differently configured experiments were written into one file. */
    const char *first = json_string_value(json_object_get(e->record, "hash"));
    const char *again = json_string_value(json_object_get(rec, "hash"));
    if (first && again && strcmp(first, again) != 0) {
      snprintf(in->err, in->errlen,
               "%s:%zu:1: experiment '%s' appears again with hash %.12s…, the first record has "
               "%.12s…: the file mixes two configurations of one experiment",
               in->source, line, e->name, again, first);
      return RIGOR_EINVAL;
    }
    return 0;
  }
  exp_build_t *b = &in->builds[x];
  json_t *jrun = json_object_get(rec, "run"), *jatt = json_object_get(rec, "attempt");
  uint32_t run = (uint32_t)json_integer_value(jrun);
  uint32_t attempt = json_is_integer(jatt) ? (uint32_t)json_integer_value(jatt) : 1;
  if (json_is_integer(jrun) && find_run(e, b, run, attempt)) {
    e->duplicate_records++;
    return discard_held(e, b, run, attempt);
  }
  long run_info;
  int rc = add_run(e, b, rec, &run_info);
  return rc == 0 && run_info >= 0 ? release_held(e, b, run_info) : rc;
}

static int on_sample(void *arg, const rigor_sample_t *s) {
  intake_t *in = arg;
  in->n_records++;
  int rc = take_sample(in, s);
  in->failed |= rc != 0;
  return rc;
}

static int on_record(void *arg, json_t *rec, const char *type, size_t line) {
  intake_t *in = arg;
  in->n_records++;
  int rc = take_record(in, rec, type, line);
  in->failed |= rc != 0 && rc != RIGOR_EINVAL;
  return rc;
}

static void free_row_owned(rigor_row_t *row) {
  free(row->point_label);
  json_decref(row->point_params);
  free(row->window);
  free(row->nodes);
  row->point_label = row->window = row->nodes = NULL;
  row->point_params = NULL;
}

static int finish_exp(rigor_exp_analysis_t *e, exp_build_t *b) {
  int rc = 0;
  for (size_t k = 0; k < b->n_held; k++) {
    held_run_t *h = &b->held[k];
    /* Samples after their run's record (not as rigor writes, but valid) still count; those of
     * attempts that have no run record are ignored. */
    rigor_run_info_t *ri = h->n ? find_run(e, b, h->run, h->attempt) : NULL;
    if (ri)
      rc = rc ? rc : add_held(e, b, ri, h);
    else
      e->ignored_samples += h->n;
    free_held(h);
  }
  free(b->held);
  free(b->held_head);
  json_decref(b->windows);
  rigor__read_variant_settings(e);
  if (!rc) rc = rigor__flag_low_clock(e);
  size_t n_rows = 0;
  for (size_t v = 0; v < b->n_vrows; v++)
    for (size_t p = 0; p < b->vrows[v].n; p++)
      n_rows += b->vrows[v].points[p].used;
  e->rows = calloc(n_rows ? n_rows : 1, sizeof *e->rows);
  run_medians_t *rm = calloc(n_rows ? n_rows : 1, sizeof *rm);
  if (!rc && (!e->rows || !rm)) rc = RIGOR_ENOMEM;
  for (size_t v = 0; v < b->n_vrows && !rc; v++)
    for (size_t p = 0; p < b->vrows[v].n && !rc; p++) {
      row_acc_t *ra = &b->vrows[v].points[p];
      if (!ra->used) continue;
      rc = rigor__finish_row(e, ra, &rm[e->n_rows]);
      e->rows[e->n_rows++] = ra->row; /* the analysis owns the row's strings from here */
      ra->row = (rigor_row_t){0};
    }
  if (!rc) {
    rigor__suggest_counts(e);
    rc = rigor__design_effects(e, rm);
  }
  for (size_t r = 0; rm && r < n_rows; r++)
    free(rm[r].run), free(rm[r].median);
  free(rm);
  for (size_t v = 0; v < b->n_vrows; v++) {
    for (size_t p = 0; p < b->vrows[v].n; p++) {
      free_row_owned(&b->vrows[v].points[p].row);
      rigor__free_acc(&b->vrows[v].points[p]);
    }
    free(b->vrows[v].points);
  }
  free(b->vrows);
  free(b->run_head);
  free(b->run_next);
  return rc;
}

void rigor_analysis_free(rigor_analysis_t *a) {
  if (!a) return;
  for (size_t x = 0; x < a->n_exps; x++) {
    rigor_exp_analysis_t *e = &a->exps[x];
    for (size_t r = 0; r < e->n_rows; r++) {
      free_row_owned(&e->rows[r]);
      rigor__free_row(&e->rows[r]);
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

static int keep_record(void *arg, json_t *rec, const char *type, size_t line) {
  (void)type, (void)line;
  return json_array_append(arg, rec) == 0 ? 0 : RIGOR_ENOMEM;
}

/* Raw telemetry lives in a sidecar (RESULTS.telemetry.jsonl); attach each sample to its run
 * record as "telemetry_raw" so reports can draw it. A missing sidecar is no error. */
static void attach_raw_telemetry(const char *path, json_t *records) {
  size_t n = strlen(path) + sizeof ".telemetry.jsonl";
  char *side = malloc(n);
  if (!side) return;
  snprintf(side, n, "%s.telemetry.jsonl", path);
  json_t *raw = json_array();
  rigor_results_callbacks_t cb = {.record = keep_record, .arg = raw};
  bool truncated = false;
  char err[512];
  if (!raw || access(side, R_OK) != 0 ||
      rigor_results_read(side, &cb, &truncated, err, sizeof err) != 0) {
    json_decref(raw);
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

/* Streams one source into a->exps, keeping only its experiment and run records: a file, or the
 * records `in_memory` already holds. */
static int analyse_source(rigor_analysis_t *a, size_t i, const char *path, const json_t *in_memory,
                          char *err, size_t errlen) {
  intake_t in = {.a = a,
                 .source = a->sources[i],
                 .first = a->n_exps,
                 .last = -1,
                 .err = err,
                 .errlen = errlen};
  in.kept = json_array();
  if (!in.kept || json_array_append_new(a->records, in.kept) != 0) return RIGOR_ENOMEM;
  rigor_results_callbacks_t cb = {.sample = on_sample, .record = on_record, .arg = &in};
  int rc = in_memory ? rigor_results_feed(in_memory, &cb, path, err, errlen)
                     : rigor_results_read(path, &cb, &a->truncated[i], err, errlen);
  if (rc == 0 && in.n_records == 0) {
    snprintf(err, errlen, "%s: no records%s", path,
             a->truncated[i] ? " (only a cut last line)" : " (empty file)");
    rc = RIGOR_EINVAL;
  }
  if (rc == 0 && !in_memory) attach_raw_telemetry(path, in.kept);
  int finish_rc = 0;
  for (size_t x = in.first; x < a->n_exps; x++) {
    int frc = finish_exp(&a->exps[x], &in.builds[x]);
    if (!finish_rc) finish_rc = frc;
  }
  free(in.builds);
  if (in.failed || (rc == 0 && finish_rc))
    snprintf(err, errlen, "%s: %s", path, rigor_strerror(rc ? rc : finish_rc));
  return rc ? rc : finish_rc;
}

static rigor_analysis_t *analysis_new(size_t n_sources) {
  rigor_analysis_t *a = calloc(1, sizeof *a);
  if (!a) return NULL;
  a->records = json_array();
  a->sources = calloc(n_sources, sizeof *a->sources);
  a->truncated = calloc(n_sources, sizeof *a->truncated);
  if (!a->records || !a->sources || !a->truncated) {
    rigor_analysis_free(a);
    return NULL;
  }
  return a;
}

int rigor_analysis_of_records(json_t *records, const char *source, rigor_analysis_t **out,
                              char *err, size_t errlen) {
  rigor_analysis_t *a = records && source && out ? analysis_new(1) : NULL;
  int rc = a ? 0 : RIGOR_ENOMEM;
  if (a && !(a->sources[0] = strdup(source))) rc = RIGOR_ENOMEM;
  if (!rc) {
    a->n_sources = 1;
    rc = analyse_source(a, 0, source, records, err, errlen);
  }
  json_decref(records);
  if (rc) {
    rigor_analysis_free(a);
    return rc;
  }
  *out = a;
  return 0;
}

int rigor_analysis_load(const char *const *paths, size_t n_paths, rigor_analysis_t **out, char *err,
                        size_t errlen) {
  if (!paths || !out || n_paths == 0) return RIGOR_EINVAL;
  rigor_analysis_t *a = analysis_new(n_paths);
  if (!a) return RIGOR_ENOMEM;
  for (size_t i = 0; i < n_paths; i++) {
    if (!(a->sources[a->n_sources] = strdup(paths[i]))) {
      rigor_analysis_free(a);
      return RIGOR_ENOMEM;
    }
    a->n_sources++;
    int rc = analyse_source(a, i, paths[i], NULL, err, errlen);
    if (rc) {
      rigor_analysis_free(a);
      return rc;
    }
  }
  *out = a;
  return 0;
}

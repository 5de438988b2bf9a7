#include "analysis_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "errors.h"
#include "json_util.h"
#include "reader.h"

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
  if (rigor__grow((void **)&e->runs, &cap, e->n_runs + 1, sizeof *e->runs)) return RIGOR_ENOMEM;
  size_t next_cap = e->n_runs;
  if (rigor__grow((void **)&b->run_next, &next_cap, e->n_runs + 1, sizeof *b->run_next))
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
  if (rigor__grow((void **)&b->run_head, &head_cap, (size_t)r->run + 1, sizeof *b->run_head))
    return RIGOR_ENOMEM;
  if (b->n_run_head < (size_t)r->run + 1) b->n_run_head = (size_t)r->run + 1;
  b->run_next[e->n_runs] = b->run_head[r->run];
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

static row_acc_t *get_row(exp_build_t *b, uint32_t variant, uint32_t point) {
  size_t cap = b->n_vrows;
  if (rigor__grow((void **)&b->vrows, &cap, (size_t)variant + 1, sizeof *b->vrows)) return NULL;
  if (b->n_vrows < (size_t)variant + 1) b->n_vrows = (size_t)variant + 1;
  variant_rows_t *vr = &b->vrows[variant];
  size_t pcap = vr->n;
  if (rigor__grow((void **)&vr->points, &pcap, (size_t)point + 1, sizeof *vr->points)) return NULL;
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

static int add_metrics(row_acc_t *ra, json_t *metrics, uint32_t run) {
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
    if (dvec_push(&ra->metrics[m].values, json_number_value(val)) ||
        dvec_push(&ra->metrics[m].runs, run))
      return RIGOR_ENOMEM;
  }
  return 0;
}

static int add_iterations(row_acc_t *ra, json_t *it) {
  rigor_row_t *row = &ra->row;
  row->has_iterations = true;
  row->iter_n += (size_t)rigor_json_number_at(it, "n");
  row->iter_min = fmin(row->iter_min, rigor_json_number_at(it, "min"));
  row->iter_max = fmax(row->iter_max, rigor_json_number_at(it, "max"));
  int rc = dvec_push(&ra->it_cv, rigor_json_number_at(it, "cv")) |
           dvec_push(&ra->it_p50, rigor_json_number_at(it, "p50")) |
           dvec_push(&ra->it_p95, rigor_json_number_at(it, "p95")) |
           dvec_push(&ra->it_p99, rigor_json_number_at(it, "p99"));
  json_t *raw = json_object_get(it, "raw");
  if (!json_is_array(raw) || json_array_size(raw) == 0) ra->it_all_raw = false;
  size_t i;
  json_t *v;
  json_array_foreach(raw, i, v) rc |= dvec_push(&ra->it_raw, rigor_json_number(v));
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
  if (!ra || !rigor__variant_info(e, variant)) return RIGOR_ENOMEM;
  rigor_row_t *row = &ra->row;
  if (!row->point_label) row->point_label = json_string_value(json_object_get(rec, "point_label"));
  if (!row->point_params) row->point_params = json_object_get(rec, "point_params");
  ri->n_samples++;
  const char *status = json_string_value(json_object_get(rec, "status"));
  json_t *check = json_object_get(rec, "check");
  bool wrong = (status && strcmp(status, "wrong") == 0) || rigor_json_number_at(check, "wrong") > 0;
  if (wrong) {
    row->n_wrong++;
    ri->n_wrong++;
  } else if (status && strcmp(status, "too_short") == 0) {
    row->n_too_short++;
  } else if (status && strcmp(status, "invalid") == 0) {
    row->n_invalid++;
  }
  if (wrong || !status || strcmp(status, "ok") != 0 || ri->status != RIGOR_RUN_OK) return 0;
  double t = rigor_json_number_at(rec, "time_s");
  if (!isfinite(t)) return 0;
  uint32_t cycle = (uint32_t)json_integer_value(json_object_get(rec, "cycle"));
  int rc = dvec_push(&ra->times, t) | dvec_push(&ra->runs, ri->run) | dvec_push(&ra->cycles, cycle);
  if (!row->window) row->window = json_string_value(json_object_get(rec, "window"));
  row->iters = rigor_json_number_at(rec, "iters");
  row->agg = rigor_json_number_at(rec, "agg");
  row->bytes = rigor_json_number_at(rec, "bytes");
  row->flops = rigor_json_number_at(rec, "flops");
  row->bus_factor = rigor_json_number_at(rec, "bus_factor");
  json_t *rates = json_object_get(rec, "rates");
  double r;
  if (isfinite(r = rigor_json_number_at(rates, "bytes_per_s"))) rc |= dvec_push(&ra->bps, r);
  if (isfinite(r = rigor_json_number_at(rates, "flops_per_s"))) rc |= dvec_push(&ra->fps, r);
  if (isfinite(r = rigor_json_number_at(rates, "busbw_bytes_per_s")))
    rc |= dvec_push(&ra->busbw, r);
  if (cycle > 0) row->best_bytes_per_s = fmin(row->best_bytes_per_s, t);
  json_t *it = json_object_get(rec, "iterations");
  if (json_is_object(it)) rc |= add_iterations(ra, it);
  json_t *metrics = json_object_get(rec, "metrics");
  if (json_is_object(metrics)) rc |= add_metrics(ra, metrics, ri->run);
  return rc ? RIGOR_ENOMEM : 0;
}

/* Gate settings: the variant's resolved settings, then the experiment config, then defaults. */
static int finish_exp(rigor_exp_analysis_t *e, exp_build_t *b) {
  int flag_rc = rigor__flag_low_clock(e);
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
      rc = rigor__finish_row(e, ra, &rm[e->n_rows]);
      e->rows[e->n_rows++] = ra->row;
    }
  if (!rc) {
    rigor__suggest_counts(e);
    rc = rigor__design_effects(e, rm);
  }
  for (size_t r = 0; rm && r < n_rows; r++)
    free(rm[r].run), free(rm[r].median);
  free(rm);
  for (size_t v = 0; v < b->n_vrows; v++) {
    for (size_t p = 0; p < b->vrows[v].n; p++)
      if (b->vrows[v].points[p].used) rigor__free_acc(&b->vrows[v].points[p]);
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
      else if (strcmp(type, "stop") == 0)
        e->stop = rec; /* a later stop (after --resume) supersedes an earlier one */
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

#include "history.h"

#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "inference.h"
#include "json_util.h"
#include "stats.h"

void rigor_history_opts_default(rigor_history_opts_t *o) {
  memset(o, 0, sizeof *o);
  rigor_cpd_opts_default(&o->cpd);
}

/* What the newest commit's experiment says about the detector: NaN where it says nothing. */
typedef struct gate_cpd {
  double significance, min_magnitude, window;
} gate_cpd_t;

typedef struct builder {
  rigor_history_t *h;
  const rigor_history_opts_t *o;
  json_t *index;     /* series name -> index */
  gate_cpd_t *gates; /* parallel to h->series */
} builder_t;

static void free_series(rigor_series_t *s) {
  for (size_t i = 0; i < s->n_points; i++)
    free(s->points[i].hash);
  free(s->points), free(s->changes);
  free(s->experiment), free(s->variant), free(s->point_label), free(s->metric), free(s->unit);
  free(s->nodes), free(s->name);
}

void rigor_history_free(rigor_history_t *h) {
  if (!h) return;
  for (size_t i = 0; i < h->n_series; i++)
    free_series(&h->series[i]);
  free(h->series);
  rigor_store_points_free(h->commits, h->n_commits);
  free(h);
}

static bool has_glob(const char *s) {
  return strpbrk(s, "*?[") != NULL;
}

static bool wanted(const rigor_history_opts_t *o, const char *name, const char *hash) {
  const char *f = o->filter;
  if (!f || !f[0]) return true;
  if (has_glob(f)) return fnmatch(f, name, 0) == 0;
  return strstr(name, f) || (hash && strlen(f) >= 4 && strncmp(hash, f, strlen(f)) == 0);
}

static char *dup_text(const char *s) {
  return strdup(s ? s : "-");
}

static long series_for(builder_t *b, const rigor_exp_analysis_t *e, const rigor_row_t *w,
                       const char *metric) {
  char name[1024];
  int len =
      snprintf(name, sizeof name, "%s/%s/%s/%s", e->name, w->variant_label ? w->variant_label : "-",
               w->point_label ? w->point_label : "-", metric);
  /* A figure of other nodes is another series: the detector must not read a move from one node
   * to another as a change of the code. */
  if (w->nodes && len > 0 && (size_t)len < sizeof name)
    snprintf(name + len, sizeof name - (size_t)len, "@%s", w->nodes);
  json_t *at = json_object_get(b->index, name);
  if (at) return (long)json_integer_value(at);
  const char *hash = json_string_value(json_object_get(e->record, "hash"));
  if (!wanted(b->o, name, hash)) return -2;
  rigor_history_t *h = b->h;
  rigor_series_t *grown = realloc(h->series, (h->n_series + 1) * sizeof *grown);
  if (!grown) return -1;
  h->series = grown;
  gate_cpd_t *gates = realloc(b->gates, (h->n_series + 1) * sizeof *gates);
  if (!gates) return -1;
  b->gates = gates;
  rigor_series_t *s = &h->series[h->n_series];
  memset(s, 0, sizeof *s);
  s->experiment = strdup(e->name);
  s->variant = dup_text(w->variant_label);
  s->point_label = dup_text(w->point_label);
  s->metric = strdup(metric);
  s->nodes = w->nodes ? strdup(w->nodes) : NULL;
  s->name = strdup(name);
  bool is_time = strcmp(metric, "time") == 0;
  const json_t *decl = is_time ? NULL : rigor_metric_declared(e, metric);
  const char *unit = json_string_value(json_object_get(decl, "unit"));
  const char *better = json_string_value(json_object_get(decl, "better"));
  s->unit = strdup(is_time ? "s" : unit ? unit : "");
  s->higher_better = better && strcmp(better, "higher") == 0;
  s->flag = !is_time; /* until a point says otherwise */
  if (!s->experiment || !s->variant || !s->point_label || !s->metric || !s->name || !s->unit ||
      (w->nodes && !s->nodes)) {
    free_series(s);
    return -1;
  }
  json_object_set_new(b->index, name, json_integer((json_int_t)h->n_series));
  return (long)h->n_series++;
}

/* The gate of the row's variant, then the experiment's, then its defaults' (as the CV gate). */
static void read_gate_cpd(const rigor_exp_analysis_t *e, const rigor_row_t *w, gate_cpd_t *g) {
  const rigor_gate_settings_t *gate = rigor_gate_of(e, w->variant);
  *g = (gate_cpd_t){gate->change_significance, gate->change_min_magnitude, gate->change_window};
}

static void unstable_reason(const rigor_row_t *w, char *buf, size_t len) {
  switch (w->verdict) {
  case RIGOR_VERDICT_UNSTABLE:
    snprintf(buf, len, "CV %.2f%% > %.2f%%", w->time.cv * 100, w->cv_max * 100);
    break;
  case RIGOR_VERDICT_TOO_FEW:
    snprintf(buf, len, "%zu samples < %u", w->n, w->min_samples);
    break;
  case RIGOR_VERDICT_WRONG:
    snprintf(buf, len, "correctness failed in %zu samples", w->n_wrong);
    break;
  case RIGOR_VERDICT_NO_DATA:
    snprintf(buf, len, "no usable samples");
    break;
  default:
    buf[0] = '\0';
  }
}

/* The 95% t interval of the geometric mean of the run medians. */
static void run_interval(const rigor_row_t *w, size_t *runs, double *lo, double *hi) {
  *lo = *hi = NAN;
  *runs = 0;
  if (!w->n) return;
  double *m = malloc(w->n * sizeof *m);
  if (!m) return;
  size_t k = rigor_stats_run_medians(w->times, w->run_of, w->n, m);
  *runs = k;
  if (k >= 2) {
    double mean = 0, ss = 0;
    for (size_t i = 0; i < k; i++)
      mean += log(m[i]) / (double)k;
    for (size_t i = 0; i < k; i++)
      ss += (log(m[i]) - mean) * (log(m[i]) - mean);
    double half = rigor_student_t_quantile(0.975, (double)(k - 1)) * sqrt(ss / (double)(k - 1)) /
                  sqrt((double)k);
    *lo = exp(mean - half);
    *hi = exp(mean + half);
  }
  free(m);
}

static int add_point(builder_t *b, const rigor_exp_analysis_t *e, const rigor_row_t *w,
                     size_t commit, const char *metric, double value, bool flag) {
  long at = series_for(b, e, w, metric);
  if (at == -2) return 0;
  if (at < 0) return RIGOR_ENOMEM;
  rigor_series_t *s = &b->h->series[at];
  s->flag = s->flag && flag;
  rigor_history_point_t *pts = realloc(s->points, (s->n_points + 1) * sizeof *pts);
  if (!pts) return RIGOR_ENOMEM;
  s->points = pts;
  rigor_history_point_t *p = &s->points[s->n_points++];
  memset(p, 0, sizeof *p);
  p->commit = commit;
  const char *hash = json_string_value(json_object_get(e->record, "hash"));
  p->hash = strdup(hash ? hash : "");
  p->n = w->n;
  p->value = value;
  p->change = -1;
  p->verdict = w->verdict;
  unstable_reason(w, p->reason, sizeof p->reason);
  bool is_time = strcmp(metric, "time") == 0;
  run_interval(w, &p->runs, &p->lo, &p->hi);
  if (!is_time) p->lo = p->hi = NAN;
  p->cv = is_time ? w->time.cv : NAN;
  if (flag && isfinite(value)) {
    /* A flag is exact in every sample: the time's spread says nothing of it. */
    p->verdict = RIGOR_VERDICT_STABLE;
    p->reason[0] = '\0';
  }
  if (!isfinite(value) && p->verdict == RIGOR_VERDICT_STABLE) {
    p->verdict = RIGOR_VERDICT_NO_DATA;
    snprintf(p->reason, sizeof p->reason, "no value");
  }
  read_gate_cpd(e, w, &b->gates[at]);
  return p->hash ? 0 : RIGOR_ENOMEM;
}

static int add_commit(builder_t *b, const rigor_analysis_t *a, size_t commit) {
  int rc = 0;
  for (size_t x = 0; !rc && x < a->n_exps; x++) {
    const rigor_exp_analysis_t *e = &a->exps[x];
    for (size_t r = 0; !rc && r < e->n_rows; r++) {
      const rigor_row_t *w = &e->rows[r];
      rc = add_point(b, e, w, commit, "time", w->n ? w->time.median : NAN, false);
      for (size_t m = 0; !rc && m < w->n_metrics; m++)
        rc = add_point(b, e, w, commit, w->metrics[m].name, w->metrics[m].median,
                       w->metrics[m].state);
    }
  }
  return rc;
}

/* One commit's runs of one experiment may come from several executions (two imports of one
 * commit); run indices restart in each, so later executions' runs are renumbered after the
 * earlier ones' and their experiment records dropped: the commit's point pools them all. */
static json_t *pool_executions(json_t *records) {
  json_t *out = json_array(), *offset = json_object(), *next = json_object();
  const char *current = NULL;
  json_int_t shift = 0;
  size_t i;
  json_t *rec;
  json_array_foreach(records, i, rec) {
    const char *type = json_string_value(json_object_get(rec, "type"));
    const char *name = json_string_value(json_object_get(rec, "experiment"));
    if (!type || !name) continue;
    if (strcmp(type, "experiment") == 0) {
      current = name;
      shift = json_integer_value(json_object_get(next, name));
      bool seen = json_object_get(offset, name) != NULL;
      json_object_set_new(offset, name, json_integer(shift));
      if (seen) continue;
    } else {
      json_int_t run = json_integer_value(json_object_get(rec, "run"));
      if (current && strcmp(current, name) == 0 && shift)
        json_object_set_new(rec, "run", json_integer(run + shift));
      json_int_t top = json_integer_value(json_object_get(rec, "run")) + 1;
      if (top > json_integer_value(json_object_get(next, name)))
        json_object_set_new(next, name, json_integer(top));
    }
    json_array_append(out, rec);
  }
  json_decref(offset), json_decref(next), json_decref(records);
  return out;
}

static void change_interval(const double *y, const rigor_change_point_t *cp, double *lo,
                            double *hi) {
  *lo = *hi = NAN;
  size_t a = cp->index - cp->n_before, c = cp->index + cp->n_after, n = c - a;
  uint32_t *id = malloc(n * sizeof *id);
  if (!id) return;
  for (size_t i = 0; i < n; i++)
    id[i] = (uint32_t)i;
  rigor_run_ratio_t r;
  if (rigor_stats_run_ratio(y + a, id, cp->n_before, y + cp->index, id + cp->n_before, cp->n_after,
                            0.95, 0, &r) == 0) {
    *lo = r.lo - 1;
    *hi = r.hi - 1;
  }
  free(id);
}

static void resolve_cpd(const rigor_history_opts_t *o, const gate_cpd_t *g, rigor_cpd_opts_t *c) {
  rigor_cpd_opts_default(c);
  if (isfinite(g->significance) && g->significance > 0) c->significance = g->significance;
  if (isfinite(g->min_magnitude) && g->min_magnitude >= 0) c->min_magnitude = g->min_magnitude;
  if (isfinite(g->window) && g->window >= 2) c->window = (uint32_t)g->window;
  if (o->has_significance) c->significance = o->cpd.significance;
  if (o->has_min_magnitude) c->min_magnitude = o->cpd.min_magnitude;
  if (o->has_window) c->window = o->cpd.window;
}

static int detect(rigor_series_t *s) {
  if (s->flag) return 0; /* a flag changes on purpose; it has no performance trend */
  double *y = malloc((s->n_points ? s->n_points : 1) * sizeof *y);
  size_t *where = malloc((s->n_points ? s->n_points : 1) * sizeof *where);
  if (!y || !where) return free(y), free(where), RIGOR_ENOMEM;
  s->n_stable = 0;
  for (size_t i = 0; i < s->n_points; i++)
    if (s->points[i].verdict == RIGOR_VERDICT_STABLE) {
      where[s->n_stable] = i;
      y[s->n_stable++] = s->points[i].value;
    }
  rigor_change_point_t *cps = NULL;
  size_t n = 0;
  int rc = rigor_change_points(y, s->n_stable, &s->cpd, &cps, &n);
  if (!rc && n) {
    s->changes = calloc(n, sizeof *s->changes);
    if (!s->changes) rc = RIGOR_ENOMEM;
  }
  for (size_t k = 0; !rc && k < n; k++) {
    rigor_history_change_t *c = &s->changes[s->n_changes++];
    c->cp = cps[k];
    c->point = where[cps[k].index];
    change_interval(y, &cps[k], &c->lo, &c->hi);
    c->regression = s->higher_better ? cps[k].change < 0 : cps[k].change > 0;
    s->points[c->point].change = (long)k;
  }
  free(cps), free(y), free(where);
  return rc;
}

long rigor_history_find_commit(const rigor_history_t *h, const char *name, char *err,
                               size_t errlen) {
  long found = -1;
  size_t len = strlen(name);
  for (size_t i = 0; i < h->n_commits; i++) {
    const char *sha = h->commits[i].commit;
    if (!sha) continue;
    if (strcmp(sha, name) == 0) return (long)i;
    if (len >= 4 && strncmp(sha, name, len) == 0) {
      if (found >= 0) {
        snprintf(err, errlen, "commit '%s' is ambiguous: %s and %s", name, h->commits[found].commit,
                 sha);
        return -1;
      }
      found = (long)i;
    }
  }
  if (found < 0) snprintf(err, errlen, "commit '%s' has no results in the store", name);
  return found;
}

void rigor_history_commit_label(const rigor_history_t *h, size_t commit, char *buf, size_t len) {
  const rigor_store_point_t *c = &h->commits[commit];
  if (c->commit)
    snprintf(buf, len, "%.10s", c->commit);
  else
    snprintf(buf, len, "import %lld", c->first_import);
}

int rigor_history_commit_analysis(rigor_store_t *s, const rigor_history_t *h, size_t commit,
                                  rigor_analysis_t **out, char *err, size_t errlen) {
  rigor_store_filter_t f = rigor_store_point_filter(&h->commits[commit]);
  json_t *records = NULL;
  char label[64];
  rigor_history_commit_label(h, commit, label, sizeof label);
  int rc = rigor_store_records(s, &f, &records, err, errlen);
  if (!rc) rc = rigor_analysis_of_records(pool_executions(records), label, out, err, errlen);
  return rc;
}

static int cmp_series(const void *a, const void *b) {
  const rigor_series_t *x = a, *y = b;
  int c = strcmp(x->experiment, y->experiment);
  return c ? c : strcmp(x->name, y->name);
}

int rigor_history_build(rigor_store_t *s, const rigor_history_opts_t *o, rigor_history_t **out,
                        char *err, size_t errlen) {
  if (errlen) err[0] = '\0';
  rigor_history_t *h = calloc(1, sizeof *h);
  if (!h) return RIGOR_ENOMEM;
  int rc = rigor_store_points(s, &h->commits, &h->n_commits, err, errlen);
  if (!rc && o->upto) {
    long u = rigor_history_find_commit(h, o->upto, err, errlen);
    if (u < 0)
      rc = RIGOR_EINVAL;
    else {
      for (size_t i = (size_t)u + 1; i < h->n_commits; i++) {
        free(h->commits[i].commit), free(h->commits[i].date), free(h->commits[i].branch);
        free(h->commits[i].imported_at);
      }
      h->n_commits = (size_t)u + 1;
    }
  }
  builder_t b = {.h = h, .o = o, .index = json_object()};
  for (size_t c = 0; !rc && c < h->n_commits; c++) {
    rigor_analysis_t *a = NULL;
    rc = rigor_history_commit_analysis(s, h, c, &a, err, errlen);
    if (!rc) rc = add_commit(&b, a, c);
    rigor_analysis_free(a);
  }
  for (size_t i = 0; !rc && b.gates && i < h->n_series; i++) {
    resolve_cpd(o, &b.gates[i], &h->series[i].cpd);
    rc = detect(&h->series[i]);
  }
  /* Grouped by experiment for the reports; series names are unique. */
  if (!rc && h->n_series) qsort(h->series, h->n_series, sizeof *h->series, cmp_series);
  if (rc && !err[0]) snprintf(err, errlen, "building the history: %s", rigor_strerror(rc));
  json_decref(b.index);
  free(b.gates);
  if (rc) {
    rigor_history_free(h);
    return rc;
  }
  *out = h;
  return 0;
}

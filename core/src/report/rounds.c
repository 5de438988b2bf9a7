#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "contrast_doc.h"
#include "report.h"
#include "rigor/plugin.h"
#include "rounds.h"
#include "suggest.h"

typedef struct round_value {
  double value;
  char reason[512]; /* empty when valid */
} round_value_t;

/* One row of one round, before the rounds are compared in order. */
typedef struct entry {
  size_t round; /* from 1 */
  const char *label;
  char key[512];
  const rigor_exp_analysis_t *e;
  const rigor_row_t *row;
  size_t order; /* position of discovery, to keep rows stable within a round */
} entry_t;

typedef struct series {
  char *key;
  double baseline, previous, best;
  size_t best_round;
  bool any;
} series_t;

static bool higher_is_better(const rigor_exp_analysis_t *e, const rigor_row_t *w,
                             const char *metric) {
  if (!metric) return w->figure.higher_is_better;
  const char *better =
      json_string_value(json_object_get(rigor_metric_declared(e, metric), "better"));
  return better && strcmp(better, "higher") == 0;
}

static void row_value(const rigor_exp_analysis_t *e, const rigor_row_t *w, const char *metric,
                      round_value_t *v) {
  v->value = NAN;
  v->reason[0] = '\0';
  if (w->n_wrong) {
    snprintf(v->reason, sizeof v->reason, "correctness failed in %zu samples", w->n_wrong);
    return;
  }
  if (w->n == 0) {
    const rigor_variant_info_t *vi = w->variant < e->n_variants ? &e->variants[w->variant] : NULL;
    const char *why = vi && json_array_size(vi->reasons)
                          ? json_string_value(json_array_get(vi->reasons, 0))
                          : "no usable samples";
    snprintf(v->reason, sizeof v->reason, "%s", why);
    return;
  }
  if (!metric) {
    v->value = w->figure.summary.median;
    return;
  }
  for (size_t m = 0; m < w->n_metrics; m++)
    if (strcmp(w->metrics[m].name, metric) == 0) {
      v->value = w->metrics[m].median;
      if (!isfinite(v->value) || v->value <= 0)
        snprintf(v->reason, sizeof v->reason, "metric %s is not a positive number", metric);
      return;
    }
  snprintf(v->reason, sizeof v->reason, "metric %s absent", metric);
}

static void fmt_value(char *buf, size_t len, double v, const rigor_row_t *w, const char *metric) {
  if (metric || strcmp(w->figure.name, "time_s") != 0)
    rigor_fmt_number(buf, len, v);
  else
    rigor_fmt_time(buf, len, v);
}

static void fmt_speedup(char *buf, size_t len, double s) {
  if (isfinite(s))
    snprintf(buf, len, "%.4fx", s);
  else
    snprintf(buf, len, "-");
}

static int cmp_entry(const void *x, const void *y) {
  const entry_t *a = x, *b = y;
  if (a->round != b->round) return (a->round > b->round) - (a->round < b->round);
  return (a->order > b->order) - (a->order < b->order);
}

static int push_entry(entry_t **entries, size_t *n, const entry_t *e) {
  entry_t *grown = realloc(*entries, (*n + 1) * sizeof *grown);
  if (!grown) return RIGOR_ENOMEM;
  *entries = grown;
  grown[*n] = *e;
  grown[*n].order = *n;
  (*n)++;
  return 0;
}

/* The levels of a matrix axis of one file as rounds: the first level is the baseline, and each
 * row is matched across levels by its other axes and its point. */
static int axis_entries(const rigor_exp_analysis_t *e, const rigor_axis_info_t *a,
                        const rigor_contrasts_t *cells, entry_t **entries, size_t *n) {
  for (size_t r = 0; r < e->n_rows; r++) {
    const rigor_row_t *w = &e->rows[r];
    const json_t *val = json_object_get(e->variants[w->variant].axes, a->name);
    if (!val) continue;
    /* The cell label comes from any contrast of this variant (or of its reference). */
    const char *cell = "";
    long level = -1;
    for (size_t i = 0; i < cells->n; i++) {
      const rigor_contrast_t *c = &cells->items[i];
      if (c->variant == w->variant || c->ref_variant == w->variant) cell = c->cell;
      if (c->variant == w->variant)
        for (size_t k = 0; k < a->n_levels; k++)
          if (strcmp(a->levels[k], c->label) == 0) level = (long)k;
      if (c->ref_variant == w->variant) level = 0;
    }
    if (level < 0) continue;
    entry_t en = {.round = (size_t)level + 1, .label = a->levels[level], .e = e, .row = w};
    snprintf(en.key, sizeof en.key, "%s%s%s%s%s", e->name, cell[0] ? "/" : "", cell,
             w->point_label && w->point_label[0] ? "/" : "", w->point_label ? w->point_label : "");
    if (push_entry(entries, n, &en)) return RIGOR_ENOMEM;
  }
  return 0;
}

typedef struct names {
  const char **v;
  size_t n, cap;
} names_t;

/* Each name once. */
static void names_add(names_t *l, const char *name) {
  for (size_t k = 0; k < l->n; k++)
    if (strcmp(l->v[k], name) == 0) return;
  if (l->n == l->cap) {
    size_t cap = l->cap ? 2 * l->cap : 16;
    const char **grown = realloc(l->v, cap * sizeof *grown);
    if (!grown) return;
    l->v = grown, l->cap = cap;
  }
  l->v[l->n++] = name;
}

/* Whether a plugin record or a row of the files names `metric`; when none does, err says so with
 * the closest name and the ones there are. */
static bool metric_known(rigor_analysis_t *const *an, size_t n, const char *metric, char *err,
                         size_t errlen) {
  names_t l = {0};
  for (size_t r = 0; r < n; r++)
    for (size_t x = 0; an[r] && x < an[r]->n_exps; x++) {
      const rigor_exp_analysis_t *e = &an[r]->exps[x];
      size_t i;
      json_t *m;
      json_array_foreach(json_object_get(json_object_get(e->record, "plugin"), "metrics"), i, m) {
        const char *name = json_string_value(json_object_get(m, "name"));
        if (name) names_add(&l, name);
      }
      for (size_t w = 0; w < e->n_rows; w++)
        for (size_t k = 0; k < e->rows[w].n_metrics; k++)
          names_add(&l, e->rows[w].metrics[k].name);
    }
  bool found = false;
  for (size_t k = 0; k < l.n && !found; k++)
    found = strcmp(l.v[k], metric) == 0;
  if (!found) {
    size_t used = (size_t)snprintf(err, errlen, "--metric: no row of %s has a metric '%s'",
                                   n == 1 ? "the file" : "these files", metric);
    const char *near = rigor_closest(metric, l.v, l.n);
    if (near && used < errlen)
      used += (size_t)snprintf(err + used, errlen - used, " (did you mean '%s'?)", near);
    if (l.n == 0 && used < errlen)
      snprintf(err + used, errlen - used,
               "; they have no plugin metric (leave --metric out to judge the row's figure)");
    for (size_t k = 0; k < l.n && used < errlen; k++)
      used +=
          (size_t)snprintf(err + used, errlen - used, "%s%s", k ? ", " : "; they have ", l.v[k]);
  }
  free(l.v);
  return found;
}

int rigor_rounds_doc(const char *const *paths, size_t n, const char *metric, const char *axis,
                     rigor_doc_t **out, char *err, size_t errlen) {
  static const char *const h[] = {"round",       "of",          "row",     "value",
                                  "vs baseline", "vs previous", "vs best", "status"};
  rigor_table_t *t = rigor_table_new("", 8, h);
  json_t *doc = json_array();
  rigor_analysis_t **an = calloc(n ? n : 1, sizeof *an);
  entry_t *entries = NULL;
  size_t n_entries = 0, readable = 0;
  series_t *series = NULL;
  size_t n_series = 0;
  const char *figure = NULL, *rounds_of = NULL;
  rigor_contrasts_t *cells = NULL;
  int rc = t && doc && an ? 0 : RIGOR_ENOMEM;
  if (errlen) err[0] = '\0';
  for (size_t r = 0; !rc && r < n; r++) {
    char lerr[1024] = "";
    if (rigor_analysis_load(&paths[r], 1, &an[r], lerr, sizeof lerr) || an[r]->n_exps == 0) {
      const char *why = lerr[0] ? lerr : "no experiment in the file";
      if (errlen && !err[0]) snprintf(err, errlen, "%s", why);
      char round[24], status[1100];
      snprintf(round, sizeof round, "%zu", r + 1);
      snprintf(status, sizeof status, "invalid: %s", why);
      const char *row[8] = {round, paths[r], "-", "-", "-", "-", "-", status};
      rigor_table_add(t, row);
      json_array_append_new(doc, json_pack("{s:I, s:s, s:b, s:s}", "round", (json_int_t)r + 1,
                                           "file", paths[r], "valid", 0, "reason", why));
      continue;
    }
    readable++;
  }
  /* One file whose matrix has an axis of several levels: its levels are the rounds. */
  const rigor_exp_analysis_t *axis_exp = NULL;
  rigor_axis_info_t *axes = NULL;
  size_t n_axes = 0;
  const rigor_axis_info_t *chosen = NULL;
  if (!rc && n == 1 && an[0] && an[0]->n_exps > 0) {
    for (size_t x = 0; x < an[0]->n_exps && !chosen; x++) {
      rigor_exp_axes_free(axes, n_axes);
      axes = NULL, n_axes = 0;
      if (rigor_exp_axes(&an[0]->exps[x], &axes, &n_axes)) break;
      for (size_t i = 0; i < n_axes && !chosen; i++)
        if (axes[i].n_levels > 1 && (!axis || strcmp(axes[i].name, axis) == 0)) {
          chosen = &axes[i];
          axis_exp = &an[0]->exps[x];
        }
    }
  }
  if (!rc && axis && !chosen) {
    snprintf(err, errlen, "--axis %s: %s", axis,
             n == 1 ? "the file has no matrix axis of that name with several levels"
                    : "the levels of an axis are rounds of one file; give one file");
    rc = RIGOR_ENOENT;
  }
  if (!rc && readable && metric && !metric_known(an, n, metric, err, errlen)) rc = RIGOR_ENOENT;
  if (!rc && chosen) {
    rounds_of = chosen->name;
    rc = rigor_contrasts_build(axis_exp, chosen->name, NULL, &cells);
    if (!rc) rc = axis_entries(axis_exp, chosen, cells, &entries, &n_entries);
  } else {
    for (size_t r = 0; !rc && r < n; r++)
      for (size_t x = 0; an[r] && x < an[r]->n_exps && !rc; x++) {
        const rigor_exp_analysis_t *e = &an[r]->exps[x];
        for (size_t w = 0; w < e->n_rows && !rc; w++) {
          const rigor_row_t *row = &e->rows[w];
          entry_t en = {.round = r + 1, .label = paths[r], .e = e, .row = row};
          snprintf(en.key, sizeof en.key, "%s/%s/%s", e->name,
                   row->variant_label ? row->variant_label : "?",
                   row->point_label ? row->point_label : "-");
          rc = push_entry(&entries, &n_entries, &en);
        }
      }
  }
  if (!rc) qsort(entries, n_entries, sizeof *entries, cmp_entry);
  for (size_t i = 0; !rc && i < n_entries; i++) {
    const entry_t *en = &entries[i];
    const rigor_row_t *row = en->row;
    if (!figure) figure = metric ? metric : row->figure.name;
    bool higher = higher_is_better(en->e, row, metric);
    round_value_t v;
    row_value(en->e, row, metric, &v);
    size_t s = 0;
    while (s < n_series && strcmp(series[s].key, en->key) != 0)
      s++;
    if (s == n_series) {
      series_t *ns = realloc(series, (n_series + 1) * sizeof *ns);
      if (!ns) {
        rc = RIGOR_ENOMEM;
        break;
      }
      series = ns;
      memset(&series[s], 0, sizeof *series);
      series[s].key = strdup(en->key);
      n_series++;
    }
    series_t *sr = &series[s];
    char round[24], value[64], vb[32] = "-", vp[32] = "-", vbest[32] = "-", status[600];
    snprintf(round, sizeof round, "%zu", en->round);
    fmt_value(value, sizeof value, v.value, row, metric);
    double sb = NAN, sp = NAN, sbest = NAN;
    if (v.reason[0]) {
      snprintf(status, sizeof status, "invalid: %s", v.reason);
    } else {
      if (!sr->any) {
        sr->baseline = sr->previous = sr->best = v.value;
        sr->best_round = en->round;
        sr->any = true;
        snprintf(status, sizeof status, "baseline");
      }
      /* speedup > 1 means this round is better */
      sb = higher ? v.value / sr->baseline : sr->baseline / v.value;
      sp = higher ? v.value / sr->previous : sr->previous / v.value;
      sbest = higher ? v.value / sr->best : sr->best / v.value;
      if (sbest > 1) {
        snprintf(status, sizeof status, "new best");
        sr->best = v.value;
        sr->best_round = en->round;
      } else if (sb != 1 || sr->best_round != en->round) {
        snprintf(status, sizeof status, "best is round %zu", sr->best_round);
      }
      sr->previous = v.value;
      fmt_speedup(vb, sizeof vb, sb);
      fmt_speedup(vp, sizeof vp, sp);
      fmt_speedup(vbest, sizeof vbest, sbest);
    }
    const char *cells_text[8] = {round, en->label, en->key, value, vb, vp, vbest, status};
    rigor_table_add(t, cells_text);
    json_t *o = json_pack("{s:I, s:s, s:s, s:b}", "round", (json_int_t)en->round,
                          rounds_of ? "level" : "file", en->label, "row", en->key, "valid",
                          v.reason[0] == 0);
    if (v.reason[0])
      json_object_set_new(o, "reason", json_string(v.reason));
    else
      json_object_set_new(o, "value", json_real(v.value));
    if (isfinite(sb)) {
      json_object_set_new(o, "speedup_vs_baseline", json_real(sb));
      json_object_set_new(o, "speedup_vs_previous", json_real(sp));
      json_object_set_new(o, "speedup_vs_best", json_real(sbest));
      json_object_set_new(o, "best_round", json_integer((json_int_t)sr->best_round));
    }
    json_array_append_new(doc, o);
  }
  rigor_doc_t *d = rc ? NULL : rigor_doc_new("rigor rounds");
  if (d) {
    d->data = json_pack("{s:s, s:s, s:s?, s:O}", "schema", "rigor.rounds/1", "metric",
                        figure ? figure : "time_s", "axis", rounds_of, "rounds", doc);
    rigor_doc_heading(d, 1, "rigor rounds");
    if (!figure || strcmp(figure, "time_s") == 0)
      rigor_doc_text(d, "metric: median time per operation");
    else
      rigor_doc_text(d, "metric: median %s%s", figure,
                     metric ? "" : " (the plugin's primary figure)");
    if (rounds_of)
      rigor_doc_text(d, "rounds: the levels of %s, the first is the baseline", rounds_of);
    rigor_doc_table(d, t);
    t = NULL;
  }
  if (!rc && !d) rc = RIGOR_ENOMEM;
  *out = d;
  json_decref(doc);
  rigor_table_free(t);
  for (size_t s = 0; s < n_series; s++)
    free(series[s].key);
  free(series);
  free(entries);
  rigor_contrasts_free(cells);
  rigor_exp_axes_free(axes, n_axes);
  for (size_t r = 0; an && r < n; r++)
    rigor_analysis_free(an[r]);
  free(an);
  if (rc) return rc;
  return readable ? 0 : RIGOR_EINVAL;
}

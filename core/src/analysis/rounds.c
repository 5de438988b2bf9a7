#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rounds.h"
#include "report.h"
#include "rigor/plugin.h"

typedef struct round_value {
  char *key;
  double value;
  char reason[512]; /* empty when valid */
} round_value_t;

typedef struct series {
  char *key;
  double baseline, previous, best;
  size_t best_round;
  bool any;
} series_t;

static bool higher_is_better(const rigor_exp_analysis_t *e, const char *metric) {
  size_t i;
  json_t *m;
  json_array_foreach(json_object_get(json_object_get(e->record, "plugin"), "metrics"), i, m) {
    const char *name = json_string_value(json_object_get(m, "name"));
    const char *better = json_string_value(json_object_get(m, "better"));
    if (metric && name && better && strcmp(name, metric) == 0) return strcmp(better, "higher") == 0;
  }
  return false;
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
    v->value = w->time.median;
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

static void fmt_value(char *buf, size_t len, double v, const char *metric) {
  if (metric)
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

int rigor_rounds_doc(const char *const *paths, size_t n, const char *metric, rigor_doc_t **out) {
  static const char *const h[] = {"round",       "file",        "row",     "value",
                                  "vs baseline", "vs previous", "vs best", "status"};
  rigor_table_t *t = rigor_table_new("", 8, h);
  json_t *doc = json_array();
  series_t *series = NULL;
  size_t n_series = 0, readable = 0;
  for (size_t r = 0; t && r < n; r++) {
    char err[1024] = "";
    rigor_analysis_t *a = NULL;
    if (rigor_analysis_load(&paths[r], 1, &a, err, sizeof err) || a->n_exps == 0) {
      const char *why = err[0] ? err : "no experiment in the file";
      char round[24];
      snprintf(round, sizeof round, "%zu", r + 1);
      char status[1100];
      snprintf(status, sizeof status, "invalid: %s", why);
      const char *cells[8] = {round, paths[r], "-", "-", "-", "-", "-", status};
      rigor_table_add(t, cells);
      json_array_append_new(doc, json_pack("{s:I, s:s, s:b, s:s}", "round", (json_int_t)r + 1,
                                           "file", paths[r], "valid", 0, "reason", why));
      rigor_analysis_free(a);
      continue;
    }
    readable++;
    for (size_t x = 0; x < a->n_exps; x++) {
      const rigor_exp_analysis_t *e = &a->exps[x];
      bool higher = higher_is_better(e, metric);
      for (size_t w = 0; w < e->n_rows; w++) {
        const rigor_row_t *row = &e->rows[w];
        char key[512];
        snprintf(key, sizeof key, "%s/%s/%s", e->name,
                 row->variant_label ? row->variant_label : "?",
                 row->point_label ? row->point_label : "-");
        round_value_t v;
        row_value(e, row, metric, &v);
        size_t s = 0;
        while (s < n_series && strcmp(series[s].key, key) != 0)
          s++;
        if (s == n_series) {
          series_t *ns = realloc(series, (n_series + 1) * sizeof *ns);
          if (!ns) break;
          series = ns;
          memset(&series[s], 0, sizeof *series);
          series[s].key = strdup(key);
          n_series++;
        }
        series_t *sr = &series[s];
        char round[24], value[64], vb[32] = "-", vp[32] = "-", vbest[32] = "-", status[600];
        snprintf(round, sizeof round, "%zu", r + 1);
        fmt_value(value, sizeof value, v.value, metric);
        double sb = NAN, sp = NAN, sbest = NAN;
        if (v.reason[0]) {
          snprintf(status, sizeof status, "invalid: %s", v.reason);
        } else {
          if (!sr->any) {
            sr->baseline = sr->previous = sr->best = v.value;
            sr->best_round = r + 1;
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
            sr->best_round = r + 1;
          } else if (sb != 1 || sr->best_round != r + 1) {
            snprintf(status, sizeof status, "best is round %zu", sr->best_round);
          }
          sr->previous = v.value;
          fmt_speedup(vb, sizeof vb, sb);
          fmt_speedup(vp, sizeof vp, sp);
          fmt_speedup(vbest, sizeof vbest, sbest);
        }
        const char *cells[8] = {round, paths[r], key, value, vb, vp, vbest, status};
        rigor_table_add(t, cells);
        json_t *o = json_pack("{s:I, s:s, s:s, s:b}", "round", (json_int_t)r + 1, "file", paths[r],
                              "row", key, "valid", v.reason[0] == 0);
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
    }
    rigor_analysis_free(a);
  }
  rigor_doc_t *d = rigor_doc_new("rigor rounds");
  if (d) {
    d->data = json_pack("{s:s, s:s, s:O}", "schema", "rigor.rounds/1", "metric",
                        metric ? metric : "time_s", "rounds", doc);
    rigor_doc_heading(d, 1, "rigor rounds");
    rigor_doc_text(d, "metric: %s", metric ? metric : "median time per operation");
    rigor_doc_table(d, t);
    t = NULL;
  }
  *out = d;
  json_decref(doc);
  rigor_table_free(t);
  for (size_t s = 0; s < n_series; s++)
    free(series[s].key);
  free(series);
  return !d ? RIGOR_ENOMEM : readable ? 0 : RIGOR_EINVAL;
}

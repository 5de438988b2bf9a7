#include <string.h>

#include "history_json.h"
#include "json_util.h"

static json_t *text_or_null(const char *s) {
  return s ? json_string(s) : json_null();
}

static json_t *commit_json(const rigor_history_t *h, size_t i) {
  const rigor_store_point_t *c = &h->commits[i];
  return json_pack("{s:I, s:o, s:o, s:o, s:o, s:o, s:I}", "index", (json_int_t)i, "commit",
                   text_or_null(c->commit), "date", text_or_null(c->date), "branch",
                   text_or_null(c->branch), "dirty",
                   c->dirty < 0 ? json_null() : json_boolean(c->dirty), "imported_at",
                   text_or_null(c->imported_at), "first_import", (json_int_t)c->first_import);
}

static json_t *point_json(const rigor_history_t *h, const rigor_history_point_t *p) {
  return json_pack("{s:o, s:I, s:s, s:I, s:I, s:o, s:o, s:o, s:o, s:s, s:o, s:b}", "commit",
                   text_or_null(h->commits[p->commit].commit), "commit_index",
                   (json_int_t)p->commit, "hash", p->hash, "runs", (json_int_t)p->runs, "samples",
                   (json_int_t)p->n, "value", rigor_json_real_or_null(p->value), "ci_low",
                   rigor_json_real_or_null(p->lo), "ci_high", rigor_json_real_or_null(p->hi), "cv",
                   rigor_json_real_or_null(p->cv), "verdict", rigor_verdict_name(p->verdict),
                   "reason", p->reason[0] ? json_string(p->reason) : json_null(), "change_point",
                   p->change >= 0);
}

static json_t *change_json(const rigor_history_t *h, const rigor_series_t *s,
                           const rigor_history_change_t *c) {
  const rigor_history_point_t *p = &s->points[c->point];
  return json_pack(
      "{s:o, s:I, s:I, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:I, "
      "s:I}",
      "commit", text_or_null(h->commits[p->commit].commit), "commit_index", (json_int_t)p->commit,
      "point_index", (json_int_t)c->point, "kind", c->regression ? "regression" : "improvement",
      "change", rigor_json_real_or_null(c->cp.change), "ci_low", rigor_json_real_or_null(c->lo),
      "ci_high", rigor_json_real_or_null(c->hi), "magnitude",
      rigor_json_real_or_null(c->cp.magnitude), "p", rigor_json_real_or_null(c->cp.p),
      "mean_before", rigor_json_real_or_null(c->cp.mean_before), "mean_after",
      rigor_json_real_or_null(c->cp.mean_after), "sd_before",
      rigor_json_real_or_null(c->cp.sd_before), "sd_after", rigor_json_real_or_null(c->cp.sd_after),
      "n_before", (json_int_t)c->cp.n_before, "n_after", (json_int_t)c->cp.n_after);
}

static json_t *series_json(const rigor_history_t *h, const rigor_series_t *s) {
  json_t *points = json_array(), *changes = json_array();
  for (size_t i = 0; i < s->n_points; i++)
    json_array_append_new(points, point_json(h, &s->points[i]));
  for (size_t k = 0; k < s->n_changes; k++)
    json_array_append_new(changes, change_json(h, s, &s->changes[k]));
  return json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:{s:s, s:f, s:f, s:I, s:I}, s:I, "
                   "s:o, s:o}",
                   "name", s->name, "experiment", s->experiment, "variant", s->variant, "point",
                   s->point_label, "metric", s->metric, "kind", s->flag ? "flag" : "figure", "unit",
                   s->unit, "better", s->higher_better ? "higher" : "lower", "detector", "method",
                   "hunter", "significance", s->cpd.significance, "min_magnitude",
                   s->cpd.min_magnitude, "window", (json_int_t)s->cpd.window, "min_points",
                   (json_int_t)RIGOR_HISTORY_MIN_POINTS, "stable_points", (json_int_t)s->n_stable,
                   "points", points, "change_points", changes);
}

json_t *rigor_history_json(const rigor_history_t *h) {
  json_t *commits = json_array(), *series = json_array();
  for (size_t i = 0; i < h->n_commits; i++)
    json_array_append_new(commits, commit_json(h, i));
  for (size_t i = 0; i < h->n_series; i++)
    json_array_append_new(series, series_json(h, &h->series[i]));
  return json_pack("{s:s, s:o, s:o}", "schema", "rigor.history/1", "commits", commits, "series",
                   series);
}

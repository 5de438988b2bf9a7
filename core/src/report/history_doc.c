#include <math.h>
#include <string.h>

#include "history_doc.h"
#include "report.h"
#include "json_util.h"

/* One unit for a series' times, from its values and intervals: never µs beside ms. */
static rigor_unit_t series_unit(const rigor_series_t *s) {
  double lo = INFINITY, hi = -INFINITY;
  for (size_t i = 0; i < s->n_points; i++) {
    double v[3] = {s->points[i].value, s->points[i].lo, s->points[i].hi};
    for (int k = 0; k < 3; k++)
      if (isfinite(v[k]) && v[k] > 0) lo = fmin(lo, v[k]), hi = fmax(hi, v[k]);
  }
  return rigor_unit_for(RIGOR_COL_TIME, isfinite(lo) ? lo : 1, isfinite(hi) ? hi : 1);
}

static void fmt_value(const rigor_series_t *s, double v, char *buf, size_t len) {
  if (strcmp(s->metric, "time") == 0) {
    rigor_unit_t u = series_unit(s);
    rigor_unit_format(&u, RIGOR_COL_TIME, v, buf, len);
    if (isfinite(v)) snprintf(buf + strlen(buf), len - strlen(buf), " %s", u.name);
    return;
  }
  rigor_fmt_number(buf, len, v);
  if (isfinite(v) && s->unit[0]) snprintf(buf + strlen(buf), len - strlen(buf), " %s", s->unit);
}

static void fmt_change(const rigor_history_change_t *c, char *buf, size_t len) {
  char change[48], interval[112] = "";
  rigor_fmt_percent(change, sizeof change, c->cp.change, 1);
  if (isfinite(c->lo)) {
    interval[0] = ' ';
    rigor_fmt_change_interval(interval + 1, sizeof interval - 1, c->lo, c->hi);
  }
  int n = snprintf(buf, len, "%s%s", change, interval);
  if (n < 0 || (size_t)n >= len) return;
  snprintf(buf + n, len - (size_t)n, " p %.2g %s", c->cp.p,
           c->regression ? "REGRESSION" : "improvement");
}

static rigor_table_t *points_table(const rigor_history_t *h, const rigor_series_t *s) {
  char title[1400], name[1000];
  rigor_history_series_title(s, name, sizeof name);
  snprintf(title, sizeof title,
           "%s (%s is better): %zu points, %zu stable; detector p <= %.3g, magnitude > %.3g%%, "
           "window %u",
           name, s->higher_better ? "higher" : "lower", s->n_points, s->n_stable,
           s->cpd.significance, s->cpd.min_magnitude * 100, s->cpd.window);
  static const char *const hd[] = {"commit",        "date", "runs",    "median",
                                   "95% CI (runs)", "CV",   "verdict", "change point"};
  rigor_table_t *t = rigor_table_new(title, 8, hd);
  for (size_t i = 0; t && i < s->n_points; i++) {
    const rigor_history_point_t *p = &s->points[i];
    const rigor_store_point_t *c = &h->commits[p->commit];
    char cell[8][256], lo[64], hi[64];
    rigor_history_commit_label(h, p->commit, cell[0], sizeof cell[0]);
    if (c->dirty > 0) snprintf(cell[0] + strlen(cell[0]), 16, " dirty");
    snprintf(cell[1], sizeof cell[1], "%.16s",
             c->date          ? c->date
             : c->imported_at ? c->imported_at
                              : "-");
    snprintf(cell[2], sizeof cell[2], "%zu", p->runs);
    fmt_value(s, p->value, cell[3], sizeof cell[3]);
    if (isfinite(p->lo)) {
      fmt_value(s, p->lo, lo, sizeof lo);
      fmt_value(s, p->hi, hi, sizeof hi);
      snprintf(cell[4], sizeof cell[4], "[%s, %s]", lo, hi);
    } else {
      snprintf(cell[4], sizeof cell[4], "-");
    }
    rigor_fmt_percent(cell[5], sizeof cell[5], p->cv, 0);
    snprintf(cell[6], sizeof cell[6], "%s%s%s%s", rigor_verdict_name(p->verdict),
             p->reason[0] ? " (" : "", p->reason, p->reason[0] ? ")" : "");
    if (p->change >= 0)
      fmt_change(&s->changes[p->change], cell[7], sizeof cell[7]);
    else
      snprintf(cell[7], sizeof cell[7], "-");
    const char *cells[8];
    for (int k = 0; k < 8; k++)
      cells[k] = cell[k];
    rigor_table_add(t, cells);
  }
  return t;
}

/* A flag is shown as the state it was in at each commit, a line, with no trend and no detector. */
static void add_flag(rigor_doc_t *doc, const rigor_history_t *h, const rigor_series_t *s) {
  char name[1000], states[1200] = "";
  rigor_history_series_title(s, name, sizeof name);
  size_t used = 0;
  for (size_t i = 0; i < s->n_points && used < sizeof states; i++) {
    char label[64];
    rigor_history_commit_label(h, s->points[i].commit, label, sizeof label);
    double v = s->points[i].value;
    char value[32];
    snprintf(value, sizeof value, "%g", v);
    bool boolean = strcmp(s->unit, "bool") == 0;
    int k = snprintf(states + used, sizeof states - used, "%s%s %s", i ? ", " : "", label,
                     !boolean ? value
                     : v == 1 ? "on"
                     : v == 0 ? "off"
                              : "mixed");
    used += k > 0 ? (size_t)k : 0;
  }
  rigor_doc_text(doc, "%s: %s, shown, not judged: %s", name,
                 strcmp(s->unit, "bool") == 0 ? "a flag (unit bool)"
                                              : "a state of the run, not a figure",
                 states);
}

static void add_series(rigor_doc_t *doc, const rigor_history_t *h, const rigor_series_t *s) {
  if (s->flag) {
    add_flag(doc, h, s);
    return;
  }
  rigor_doc_table(doc, points_table(h, s));
  if (!s->n_changes) {
    char name[1000];
    rigor_history_series_title(s, name, sizeof name);
    rigor_doc_text(doc, "%s: no change point", name);
  } else {
    static const char *const hd[] = {"commit",      "change",     "95% CI", "p",
                                     "mean before", "mean after", "verdict"};
    rigor_table_t *t = rigor_table_new("change points", 7, hd);
    for (size_t k = 0; t && k < s->n_changes; k++) {
      const rigor_history_change_t *c = &s->changes[k];
      char cell[7][128];
      rigor_history_commit_label(h, s->points[c->point].commit, cell[0], sizeof cell[0]);
      rigor_fmt_percent(cell[1], sizeof cell[1], c->cp.change, 1);
      if (isfinite(c->lo))
        rigor_fmt_change_interval(cell[2], sizeof cell[2], c->lo, c->hi);
      else
        snprintf(cell[2], sizeof cell[2], "-");
      snprintf(cell[3], sizeof cell[3], "%.2g", c->cp.p);
      char before[64], after[64];
      fmt_value(s, c->cp.mean_before, before, sizeof before);
      fmt_value(s, c->cp.mean_after, after, sizeof after);
      snprintf(cell[4], sizeof cell[4], "%s (%zu points)", before, c->cp.n_before);
      snprintf(cell[5], sizeof cell[5], "%s (%zu points)", after, c->cp.n_after);
      snprintf(cell[6], sizeof cell[6], "%s", c->regression ? "regression" : "improvement");
      const char *cells[7] = {cell[0], cell[1], cell[2], cell[3], cell[4], cell[5], cell[6]};
      rigor_table_add(t, cells);
    }
    rigor_doc_table(doc, t);
  }
  rigor_history_trend(doc, h, s);
}

static json_t *history_json(const void *arg) {
  return rigor_history_json(arg);
}

rigor_doc_t *rigor_history_doc(const rigor_history_t *h) {
  rigor_doc_t *doc = rigor_doc_new("rigor history");
  if (!doc) return NULL;
  doc->json = history_json;
  doc->json_arg = h;
  rigor_doc_heading(doc, 1, "rigor history");
  if (!h->n_series) {
    rigor_doc_text(doc, "no series (%zu commits in the store)", h->n_commits);
    return doc;
  }
  rigor_doc_text(doc,
                 "%zu commits, %zu series. Each point: the median at that commit with the 95%% "
                 "interval of its runs; unstable points are left out of detection.",
                 h->n_commits, h->n_series);
  size_t regressions = 0, changes = 0;
  for (size_t i = 0; i < h->n_series; i++) {
    const rigor_series_t *s = &h->series[i];
    if (i == 0 || strcmp(s->experiment, h->series[i - 1].experiment) != 0)
      rigor_doc_heading(doc, 2, "experiment %s", s->experiment);
    add_series(doc, h, s);
    changes += s->n_changes;
    for (size_t k = 0; k < s->n_changes; k++)
      regressions += s->changes[k].regression;
  }
  rigor_doc_text(doc, "%zu series over %zu commits: %zu change points, %zu regressions",
                 h->n_series, h->n_commits, changes, regressions);
  return doc;
}

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
  json_t *doc = json_pack(
      "{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:{s:s, s:f, s:f, s:I, s:I}, "
      "s:I, s:o, s:o}",
      "name", s->name, "experiment", s->experiment, "variant", s->variant, "point", s->point_label,
      "metric", s->metric, "kind", s->flag ? "flag" : "figure", "unit", s->unit, "better",
      s->higher_better ? "higher" : "lower", "detector", "method", "hunter", "significance",
      s->cpd.significance, "min_magnitude", s->cpd.min_magnitude, "window",
      (json_int_t)s->cpd.window, "min_points", (json_int_t)RIGOR_HISTORY_MIN_POINTS,
      "stable_points", (json_int_t)s->n_stable, "points", points, "change_points", changes);
  if (s->nodes) json_object_set_new(doc, "nodes", json_string(s->nodes));
  return doc;
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

/* A comparison across files as a document and as JSON: the judge's rows, laid out. */
#include "table.h"
#include <stdio.h>
#include "compare_doc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "context.h"
#include "forest.h"
#include "labels.h"
#include "report.h"
#include "rigor/plugin.h"
#include "tally.h"

static json_t *real(double v) {
  return isfinite(v) ? json_real(v) : json_null();
}

static double figure_median(const rigor_row_t *w) {
  return w ? w->figure.summary.median : NAN;
}

static double figure_cv(const rigor_row_t *w) {
  return w ? w->figure.summary.cv : NAN;
}

/* A side's context (context.h), new, or NULL when the side has no experiment. */
static json_t *side_context(const rigor_comparison_t *c, int side) {
  return c->sides[side] ? rigor_context_json(c->sides[side]) : NULL;
}

json_t *rigor_comparison_json(const rigor_comparison_t *c, const rigor_compare_opts_t *o) {
  json_t *rows = json_array();
  for (size_t i = 0; i < c->n_rows; i++) {
    const rigor_cmp_row_t *r = &c->rows[i];
    const rigor_row_t *any = r->base ? r->base : r->cand;
    json_t *row = json_pack(
        "{s:s, s:s?, s:s?, s:s, s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:b, s:o, s:o, s:o, "
        "s:o, s:o, s:I, s:I, s:b, s:b, s:b}",
        "experiment", r->experiment, "variant", r->variant_label, "point", r->point_label, "figure",
        any ? any->figure.name : "time_s", "verdict", rigor_cmp_verdict_name(r->verdict), "reason",
        r->reason, "median_ratio", real(r->ratio), "p95_ratio", real(r->p95_ratio), "ci_low",
        real(r->ci_lo), "ci_high", real(r->ci_hi), "p", real(r->p), "p_runs", real(r->p_runs),
        "p_holm", real(r->p_holm), "exact", r->exact, "hl_shift", real(r->hl_shift), "base_median",
        real(figure_median(r->base)), "cand_median", real(figure_median(r->cand)), "base_cv",
        real(figure_cv(r->base)), "cand_cv", real(figure_cv(r->cand)), "runs_base",
        (json_int_t)r->runs_base, "runs_cand", (json_int_t)r->runs_cand, "one_run", r->one_run,
        "figure_exact", r->figure_exact, "floored", r->floored);
    json_object_set_new(row, "runs_needed",
                        r->runs_needed ? json_integer((json_int_t)r->runs_needed) : json_null());
    json_array_append_new(rows, row);
  }
  json_t *fail_on = json_array();
  for (int v = 0; v < RIGOR_CMP_VERDICT_COUNT; v++)
    if (o->fail_on & (1u << v))
      json_array_append_new(fail_on, json_string(rigor_cmp_verdict_name((rigor_cmp_verdict_t)v)));
  return json_pack("{s:s, s:o, s:o, s:o, s:b, s:b, s:I, s:O, s:O, s:{s:o?, s:o?}, s:o}", "schema",
                   "rigor.compare/1", "threshold", json_real(o->threshold), "alpha",
                   json_real(o->alpha), "fail_on", fail_on, "regression", c->regression, "failed",
                   c->failed, "compared", (json_int_t)c->n_compared, "identity_differences",
                   c->identity_diffs, "notes", c->notes, "context", "base", side_context(c, 0),
                   "cand", side_context(c, 1), "rows", rows);
}

static json_t *comparison_json(const void *arg) {
  const rigor_comparison_t *c = arg;
  return rigor_comparison_json(c, &c->opts);
}

/* CAND / BASE per row as a cost (right of 1 is slower, or worse for a metric where higher is
 * better), with its interval. */
static void comparison_forest(const void *arg, FILE *out) {
  const rigor_comparison_t *c = *(const rigor_comparison_t *const *)arg;
  rigor_forest_item_t *items = calloc(c->n_rows ? c->n_rows : 1, sizeof *items);
  char(*labels)[600] = calloc(c->n_rows ? c->n_rows : 1, sizeof *labels);
  for (size_t i = 0; items && labels && i < c->n_rows; i++) {
    const rigor_cmp_row_t *r = &c->rows[i];
    const char *parts[] = {r->experiment, r->variant_label, r->point_label};
    rigor_label_join(labels[i], sizeof *labels, " / ", parts, 3);
    items[i] = rigor_forest_judged(labels[i], &r->cost, r->verdict);
  }
  if (items && labels)
    rigor_forest_svg(out, "CAND / BASE (right of 1 is slower)",
                     "CAND / BASE, as a cost (log scale)", items, c->n_rows, c->opts.threshold);
  free(items), free(labels);
}

/* "golden-side/default: CAND ran 1.02× slower than BASE [0.99, 1.05], 3 and 3 runs: inconclusive
 * (...)": the row's answer in words, its figure and interval whatever the verdict. */
static void answer_line(const rigor_cmp_row_t *r, char *buf, size_t len) {
  char where[600];
  const char *parts[] = {r->experiment, r->variant_label, r->point_label};
  rigor_label_join(where, sizeof where, "/", parts, 3);
  const rigor_cost_t *cost = &r->cost;
  if (!isfinite(cost->ratio) || !isfinite(cost->lo) || !isfinite(cost->hi) ||
      r->verdict == RIGOR_CMP_MISSING || r->verdict == RIGOR_CMP_INVALID ||
      r->verdict == RIGOR_CMP_INCOMPARABLE) {
    snprintf(buf, len, "%s: %s (%s)", where, rigor_cmp_verdict_name(r->verdict), r->reason);
    return;
  }
  bool time = r->base && strcmp(r->base->figure.name, "time_s") == 0;
  const char *word =
      time ? (cost->worse ? "slower" : "faster") : (cost->worse ? "worse" : "better");
  int n = snprintf(buf, len, "%s: CAND %s %.2f× %s than BASE [%.2f, %.2f], %zu and %zu runs", where,
                   time ? "ran" : "is", cost->factor, word, cost->factor_lo, cost->factor_hi,
                   r->runs_base, r->runs_cand);
  if (n > 0 && (size_t)n < len && r->verdict != RIGOR_CMP_FASTER && r->verdict != RIGOR_CMP_SLOWER)
    snprintf(buf + n, len - (size_t)n, ": %s (%s)", rigor_cmp_verdict_name(r->verdict), r->reason);
}

rigor_doc_t *rigor_comparison_doc(const rigor_comparison_t *c) {
  const rigor_compare_opts_t *o = &c->opts;
  rigor_doc_t *doc = rigor_doc_new("rigor compare");
  if (!doc) return NULL;
  doc->json = comparison_json;
  doc->json_arg = c;
  rigor_doc_heading(doc, 1, "rigor compare");
  /* The answers first, one line per row, then the context and the table. */
  if (c->n_rows) {
    rigor_doc_heading(doc, 2, "answers (threshold %.2f%%)", o->threshold * 100);
    for (size_t i = 0; i < c->n_rows; i++) {
      char line[1400];
      answer_line(&c->rows[i], line, sizeof line);
      rigor_doc_text(doc, "  %s", line);
    }
  }
  if (c->sides[0] && c->sides[1]) {
    json_t *base = side_context(c, 0), *cand = side_context(c, 1);
    const json_t *ctx[2] = {base, cand};
    static const char *const sides[2] = {"BASE", "CAND"};
    json_t *warnings = rigor_context_warning_lines(ctx[0], sides[0]);
    json_t *more = rigor_context_warning_lines(ctx[1], sides[1]);
    json_array_extend(warnings, more);
    json_decref(more);
    rigor_doc_context(doc, rigor_context_table(ctx, sides, 2), warnings);
    json_decref(base), json_decref(cand);
  }
  if (json_array_size(c->identity_diffs)) {
    rigor_doc_text(
        doc, "identity differences (rows are incomparable; --ignore-identity PATH to accept):");
    rigor_doc_notes(doc, json_incref(c->identity_diffs));
  }
  static const char *const h[] = {"experiment", "variant", "point", "base median", "cand median",
                                  "ratio", "P95 ratio", "95% CI", "p MW | runs (Holm)", "HL shift",
                                  "verdict", "why",
                                  /* the numbers of the combined cells, for data formats */
                                  "ci low", "ci high", "p MW", "p runs", "p Holm"};
  enum { N = sizeof h / sizeof *h, DATA = 12 };
  rigor_table_t *t = rigor_table_new("", N, h);
  rigor_table_name(t, "comparison");
  static const rigor_col_kind_t kinds[] = {
      RIGOR_COL_TEXT,   RIGOR_COL_TEXT,   RIGOR_COL_TEXT,   RIGOR_COL_TIME,   RIGOR_COL_TIME,
      RIGOR_COL_CHANGE, RIGOR_COL_CHANGE, RIGOR_COL_TEXT,   RIGOR_COL_TEXT,   RIGOR_COL_TIME,
      RIGOR_COL_TEXT,   RIGOR_COL_TEXT,   RIGOR_COL_CHANGE, RIGOR_COL_CHANGE, RIGOR_COL_NUMBER,
      RIGOR_COL_NUMBER, RIGOR_COL_NUMBER};
  for (size_t k = 0; t && k < N; k++) {
    rigor_table_kind(t, k, kinds[k]);
    if (k == 7 || k == 8) rigor_table_show(t, k, RIGOR_SHOW_HUMAN);
    if (k >= DATA) rigor_table_show(t, k, RIGOR_SHOW_DATA);
  }
  if (t) {
    rigor_table_key(t, 5, "change");
    rigor_table_key(t, 6, "p95_change");
  }
  for (size_t i = 0; t && i < c->n_rows; i++) {
    const rigor_cmp_row_t *r = &c->rows[i];
    long row = rigor_table_add_row(t);
    if (row < 0) break;
    size_t w = (size_t)row;
    char s[600];
    rigor_table_set_text(t, w, 0, r->experiment);
    rigor_table_set_text(t, w, 1, r->variant_label ? r->variant_label : "?");
    rigor_table_set_text(t, w, 2, r->point_label ? r->point_label : "-");
    const rigor_row_t *sides[2] = {r->base, r->cand};
    for (int k = 0; k < 2; k++) {
      const rigor_row_t *x = sides[k];
      if (x && strcmp(x->figure.name, "time_s") != 0) {
        char num[64];
        rigor_fmt_number(num, sizeof num, x->figure.summary.median);
        snprintf(s, sizeof s, "%s %s", num, x->figure.unit ? x->figure.unit : x->figure.name);
        rigor_table_set_text(t, w, 3 + (size_t)k, s);
      } else {
        rigor_table_set_value(t, w, 3 + (size_t)k, x ? x->figure.summary.median : NAN);
      }
    }
    rigor_table_set_value(t, w, 5, r->ratio - 1);
    rigor_table_set_value(t, w, 6, r->p95_ratio - 1);
    if (isfinite(r->ci_lo)) {
      rigor_fmt_change_interval(s, sizeof s, r->ci_lo - 1, r->ci_hi - 1);
      if (r->one_run && !r->figure_exact) snprintf(s + strlen(s), sizeof s - strlen(s), " cycles");
    } else
      snprintf(s, sizeof s, "-");
    rigor_table_set_text(t, w, 7, s);
    if (isfinite(r->p_holm))
      snprintf(s, sizeof s, "%.3g%s | %.3g (%.3g)", r->p, r->exact ? " exact" : "", r->p_runs,
               r->p_holm);
    else if (isfinite(r->p) && isfinite(r->p_runs))
      snprintf(s, sizeof s, "%.3g%s | %.3g", r->p, r->exact ? " exact" : "", r->p_runs);
    else if (isfinite(r->p))
      snprintf(s, sizeof s, "%.3g%s | -", r->p, r->exact ? " exact" : "");
    else
      snprintf(s, sizeof s, "-");
    rigor_table_set_text(t, w, 8, s);
    if (r->base && strcmp(r->base->figure.name, "time_s") != 0)
      rigor_table_set_text(t, w, 9, "-");
    else
      rigor_table_set_value(t, w, 9, r->hl_shift);
    rigor_table_set_text(t, w, 10, rigor_cmp_verdict_name(r->verdict));
    rigor_table_set_text(t, w, 11, r->reason[0] ? r->reason : "-");
    rigor_table_set_value(t, w, DATA, isfinite(r->ci_lo) ? r->ci_lo - 1 : NAN);
    rigor_table_set_value(t, w, DATA + 1, isfinite(r->ci_hi) ? r->ci_hi - 1 : NAN);
    rigor_table_set_value(t, w, DATA + 2, r->p);
    rigor_table_set_value(t, w, DATA + 3, r->p_runs);
    rigor_table_set_value(t, w, DATA + 4, r->p_holm);
  }
  rigor_doc_table(doc, t);
  rigor_doc_figure(doc, comparison_forest, &c, sizeof c);
  rigor_doc_notes(doc, json_incref(c->notes));
  rigor_tally_t tally = {{0}};
  for (size_t i = 0; i < c->n_rows; i++)
    tally.count[c->rows[i].verdict]++;
  char counted[600];
  rigor_tally_line(&tally, "row", counted, sizeof counted);
  rigor_doc_text(doc, "threshold %.2f%%, alpha %.2g (Holm); %s%s%s", o->threshold * 100, o->alpha,
                 counted, c->regression ? "; REGRESSION: some rows are slower" : "",
                 c->failed ? "; FAILED: some rows have a verdict of --fail-on" : "");
  return doc;
}

/* ---- a fleet screen: each node against the fleet ---- */

static json_t *number(double v) {
  return isfinite(v) ? json_real(v) : json_null();
}

static json_t *screen_json(const rigor_screen_t *s, const char *experiment) {
  json_t *nodes = json_array();
  for (size_t i = 0; i < s->n; i++) {
    const rigor_screen_entry_t *x = &s->items[i];
    json_array_append_new(
        nodes,
        json_pack("{s:s, s:s, s:s, s:s?, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:I, s:s}", "node",
                  x->node, "row", x->row, "verdict", rigor_screen_verdict_name(x->verdict),
                  "figure", x->figure, "value", number(x->value), "fleet", number(x->fleet),
                  "ratio", number(x->ratio), "lo", number(x->lo), "hi", number(x->hi), "level",
                  number(x->level), "p", number(x->p), "p_holm", number(x->p_holm), "runs",
                  (json_int_t)x->n_runs, "reason", x->reason));
  }
  return json_pack("{s:s, s:f, s:f, s:o}", "experiment", experiment, "threshold", s->threshold,
                   "alpha", s->alpha, "nodes", nodes);
}

/* "n1 is slow: 2.01x the fleet's median [1.95, 2.07] (time_s, 5 runs)" */
static void sentence(const rigor_screen_entry_t *x, bool pairs, char *buf, size_t len) {
  if (x->verdict == RIGOR_SCREEN_FAILED) {
    snprintf(buf, len, "%s failed%s%s: %s", x->node, x->row[0] ? " at " : "", x->row, x->reason);
    return;
  }
  snprintf(buf, len, "%s is %s at %s: %.3gx the %s median [%.3g, %.3g] (%s, %zu runs)", x->node,
           rigor_screen_verdict_name(x->verdict), x->row, x->ratio, pairs ? "pairs'" : "fleet's",
           x->lo, x->hi, x->figure, x->n_runs);
}

rigor_doc_t *rigor_screen_doc(const rigor_screen_t *s, const char *experiment) {
  rigor_doc_t *doc = rigor_doc_new("fleet screen");
  if (!doc) return NULL;
  doc->data = screen_json(s, experiment);
  /* A pair screen's units are "a+b". */
  bool pairs = false;
  for (size_t i = 0; i < s->n && !pairs; i++)
    pairs = strchr(s->items[i].node, '+') != NULL;
  rigor_doc_heading(doc, 1, "fleet screen%s: %s", pairs ? " of pairs of nodes" : "", experiment);
  rigor_doc_text(doc,
                 "%zu slow, %zu fast, %zu same, %zu inconclusive, %zu failed (each %s ratio "
                 "to the %s median, threshold %.3g%%, Holm over the %s at %.3g)",
                 s->count[RIGOR_SCREEN_SLOW], s->count[RIGOR_SCREEN_FAST],
                 s->count[RIGOR_SCREEN_SAME], s->count[RIGOR_SCREEN_INCONCLUSIVE],
                 s->count[RIGOR_SCREEN_FAILED], pairs ? "pair's" : "node's",
                 pairs ? "pairs'" : "fleet's", s->threshold * 100, pairs ? "pairs" : "nodes",
                 s->alpha);
  for (size_t i = 0; i < s->n; i++) {
    const rigor_screen_entry_t *x = &s->items[i];
    if (x->verdict == RIGOR_SCREEN_SAME) continue;
    char line[1024];
    sentence(x, pairs, line, sizeof line);
    rigor_doc_text(doc, "%s", line);
  }
  json_t *suspects = pairs ? rigor_screen_suspects(s) : NULL;
  if (suspects) {
    char names[2048] = "";
    size_t i;
    json_t *name;
    json_array_foreach(suspects, i, name) {
      size_t used = strlen(names);
      snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "", json_string_value(name));
    }
    rigor_doc_text(doc, "suspect nodes (every pair they are in is slow or failed): %s",
                   names[0] ? names : "none");
    json_object_set_new(doc->data, "suspects", suspects);
  }
  const char *const headers[] = {pairs ? "pair" : "node",
                                 "row",
                                 "figure",
                                 "value",
                                 pairs ? "pairs' median" : "fleet",
                                 "ratio",
                                 "lo",
                                 "hi",
                                 "level",
                                 "runs",
                                 "p (Holm)",
                                 "verdict",
                                 "why"};
  rigor_table_t *t = rigor_table_new(
      pairs ? "pairs of nodes against their median" : "nodes against the fleet", 13, headers);
  if (!t) return doc;
  rigor_table_name(t, "screen");
  rigor_table_kind(t, 5, RIGOR_COL_NUMBER);
  rigor_table_kind(t, 6, RIGOR_COL_NUMBER);
  rigor_table_kind(t, 7, RIGOR_COL_NUMBER);
  rigor_table_kind(t, 8, RIGOR_COL_FRACTION);
  rigor_table_kind(t, 9, RIGOR_COL_COUNT);
  for (size_t i = 0; i < s->n; i++) {
    const rigor_screen_entry_t *x = &s->items[i];
    long r = rigor_table_add_row(t);
    if (r < 0) break;
    char value[64] = "-", fleet[64] = "-";
    if (isfinite(x->value)) snprintf(value, sizeof value, "%.4g %s", x->value, x->unit);
    if (isfinite(x->fleet)) snprintf(fleet, sizeof fleet, "%.4g %s", x->fleet, x->unit);
    rigor_table_set_text(t, (size_t)r, 0, x->node);
    rigor_table_set_text(t, (size_t)r, 1, x->row);
    rigor_table_set_text(t, (size_t)r, 2, x->figure);
    rigor_table_set_text(t, (size_t)r, 3, value);
    rigor_table_set_text(t, (size_t)r, 4, fleet);
    rigor_table_set_value(t, (size_t)r, 5, x->ratio);
    rigor_table_set_value(t, (size_t)r, 6, x->lo);
    rigor_table_set_value(t, (size_t)r, 7, x->hi);
    rigor_table_set_value(t, (size_t)r, 8, x->level);
    rigor_table_set_value(t, (size_t)r, 9, (double)x->n_runs);
    char p[32] = "-";
    if (isfinite(x->p_holm)) snprintf(p, sizeof p, "%.2g", x->p_holm);
    rigor_table_set_text(t, (size_t)r, 10, p);
    rigor_table_set_text(t, (size_t)r, 11, rigor_screen_verdict_name(x->verdict));
    rigor_table_set_text(t, (size_t)r, 12, x->reason);
  }
  rigor_doc_table(doc, t);
  return doc;
}

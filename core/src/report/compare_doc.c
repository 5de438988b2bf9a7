/* A comparison across files as a document and as JSON: the judge's rows, laid out. */
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

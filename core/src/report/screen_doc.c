#include "screen_doc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "table.h"

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
static void sentence(const rigor_screen_entry_t *x, char *buf, size_t len) {
  if (x->verdict == RIGOR_SCREEN_FAILED) {
    snprintf(buf, len, "%s failed%s%s: %s", x->node, x->row[0] ? " at " : "", x->row, x->reason);
    return;
  }
  snprintf(buf, len, "%s is %s at %s: %.3gx the fleet's median [%.3g, %.3g] (%s, %zu runs)",
           x->node, rigor_screen_verdict_name(x->verdict), x->row, x->ratio, x->lo, x->hi,
           x->figure, x->n_runs);
}

rigor_doc_t *rigor_screen_doc(const rigor_screen_t *s, const char *experiment) {
  rigor_doc_t *doc = rigor_doc_new("fleet screen");
  if (!doc) return NULL;
  doc->data = screen_json(s, experiment);
  rigor_doc_heading(doc, 1, "fleet screen: %s", experiment);
  rigor_doc_text(doc,
                 "%zu slow, %zu fast, %zu same, %zu inconclusive, %zu failed (each node's ratio "
                 "to the fleet's median, threshold %.3g%%, Holm over the nodes at %.3g)",
                 s->count[RIGOR_SCREEN_SLOW], s->count[RIGOR_SCREEN_FAST],
                 s->count[RIGOR_SCREEN_SAME], s->count[RIGOR_SCREEN_INCONCLUSIVE],
                 s->count[RIGOR_SCREEN_FAILED], s->threshold * 100, s->alpha);
  for (size_t i = 0; i < s->n; i++) {
    const rigor_screen_entry_t *x = &s->items[i];
    if (x->verdict == RIGOR_SCREEN_SAME) continue;
    char line[1024];
    sentence(x, line, sizeof line);
    rigor_doc_text(doc, "%s", line);
  }
  static const char *const headers[] = {"node",     "row",     "figure", "value", "fleet",
                                        "ratio",    "lo",      "hi",     "level", "runs",
                                        "p (Holm)", "verdict", "why"};
  rigor_table_t *t = rigor_table_new("nodes against the fleet", 13, headers);
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

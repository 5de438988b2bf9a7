#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "contrast_doc.h"
#include "forest.h"
#include "writers.h"
#include "json_util.h"
#include "labels.h"

static bool is_time(const rigor_contrast_t *c) {
  return c->figure && strcmp(c->figure, "time_s") == 0;
}

static void fmt_factor(char *buf, size_t len, double f) {
  snprintf(buf, len, f < 100 ? "%.2f" : "%.4g", f);
}

void rigor_contrast_sentence(const rigor_contrast_t *c, char *buf, size_t len) {
  char where[600] = "";
  if (c->cell && c->cell[0]) snprintf(where, sizeof where, "%s", c->cell);
  if (c->point_label && c->point_label[0]) {
    size_t used = strlen(where);
    snprintf(where + used, sizeof where - used, "%s%s", used ? ", " : "", c->point_label);
  }
  char prefix[640] = "";
  if (where[0]) snprintf(prefix, sizeof prefix, "%s: ", where);
  const char *verb = is_time(c) ? "ran" : "is";
  bool judged = c->verdict == RIGOR_CMP_SAME || c->verdict == RIGOR_CMP_FASTER ||
                c->verdict == RIGOR_CMP_SLOWER || c->verdict == RIGOR_CMP_INCONCLUSIVE;
  if (!judged || !isfinite(c->ratio) || !isfinite(c->lo) || !isfinite(c->hi)) {
    snprintf(buf, len, "%s%s against %s: %s (%s)", prefix, c->label, c->ref_label,
             rigor_cmp_verdict_name(c->verdict), c->reason);
    return;
  }
  bool slower = c->cost.worse;
  const char *word = is_time(c) ? (slower ? "slower" : "faster") : (slower ? "worse" : "better");
  char fs[32], ls[32], hs[32];
  fmt_factor(fs, sizeof fs, c->cost.factor);
  fmt_factor(ls, sizeof ls, c->cost.factor_lo);
  fmt_factor(hs, sizeof hs, c->cost.factor_hi);
  char on[128] = "";
  if (!is_time(c)) snprintf(on, sizeof on, " on %s", c->figure);
  char blocks[64];
  const char *unit = c->interleaved ? "run" : "block";
  snprintf(blocks, sizeof blocks, "%zu %s%s", c->n_pairs, unit, c->n_pairs == 1 ? "" : "s");
  /* A direction is claimed only by faster and slower; the others say what the interval shows. */
  char verdict[700] = "";
  if (c->verdict == RIGOR_CMP_SAME || c->verdict == RIGOR_CMP_INCONCLUSIVE)
    snprintf(verdict, sizeof verdict, ": %s (%s)", rigor_cmp_verdict_name(c->verdict), c->reason);
  if (c->exact) {
    snprintf(buf, len, "%s%s %s %s× %s than %s%s, exact (%.10g vs %.10g), %s%s", prefix, c->label,
             verb, fs, word, c->ref_label, on, c->row->figure.values[0], c->ref->figure.values[0],
             blocks, verdict);
  } else {
    snprintf(buf, len, "%s%s %s %s× %s than %s%s [%s, %s], %s, p %.2g%s", prefix, c->label, verb,
             fs, word, c->ref_label, on, ls, hs, blocks, c->p, verdict);
  }
}

void rigor_contrast_arms_line(const rigor_contrast_t *c, double threshold, char *buf, size_t len) {
  double per_run = c->n_pairs ? (double)c->n_windows / (double)c->n_pairs : NAN;
  /* Kalibera and Jones, applied to the contrast: the run estimate's variance is the run
   * level's own plus the window pairs' over the pairs per run; whichever dominates says
   * whether more runs or more cycles narrow the interval faster. */
  double within = c->window_sd * c->window_sd / per_run;
  double between = c->pair_sd * c->pair_sd - within;
  const char *advice =
      !isfinite(between) || !isfinite(within) ? ""
      : between > within
          ? "; the run level dominates: more runs narrow it, more cycles do not"
          : "; the window pairs dominate: more cycles per run narrow it as well as more runs";
  int n = snprintf(buf, len,
                   "arms: %zu runs × %.0f window pairs; one pair varies by %.2f%%, the run "
                   "estimate by %.2f%% between runs%s",
                   c->n_pairs, per_run, expm1(c->window_sd) * 100, expm1(c->pair_sd) * 100, advice);
  if (n < 0 || (size_t)n >= len || !isfinite(c->position_effect)) return;
  snprintf(buf + n, len - (size_t)n, "; order effect %+.2f%% (second against first)%s",
           expm1(c->position_effect) * 100,
           fabs(expm1(c->position_effect)) > threshold / 2
               ? ": WARNING, more than half the threshold; the balanced order cancels it in "
                 "the estimate"
               : "");
}

static json_t *real(double v) {
  return rigor_json_real_or_null(v);
}

json_t *rigor_contrasts_json(const rigor_contrasts_t *set) {
  json_t *out = json_array();
  for (size_t i = 0; set && i < set->n; i++) {
    const rigor_contrast_t *c = &set->items[i];
    char sentence[1200];
    rigor_contrast_sentence(c, sentence, sizeof sentence);
    json_t *o = json_pack(
        "{s:s, s:s, s:s, s:s, s:I, s:I, s:I, s:s?, s:s, s:b, s:I, s:I, s:o, s:o, s:o, s:o, s:o, "
        "s:o, s:{s:o, s:o, s:b, s:I}, s:o, s:b, s:b, s:b, s:s, s:s, s:s}",
        "axis", c->axis, "reference", c->ref_label, "level", c->label, "cell", c->cell,
        "ref_variant", (json_int_t)c->ref_variant, "variant", (json_int_t)c->variant, "point",
        (json_int_t)c->point, "point_label", c->point_label, "figure", c->figure,
        "higher_is_better", c->higher_is_better, "pairs", (json_int_t)c->n_pairs,
        "incomplete_blocks", (json_int_t)c->n_incomplete, "ratio", real(c->ratio), "ci_low",
        real(c->lo), "ci_high", real(c->hi), "half_width_log", real(c->half_width), "p", real(c->p),
        "p_holm", real(c->p_holm), "wilcoxon", "w_plus", real(c->w_plus), "p", real(c->p_wilcoxon),
        "exact", c->wilcoxon_exact, "zeros", (json_int_t)c->n_zero, "hl_ratio", real(c->hl_ratio),
        "exact", c->exact, "floored", c->floored, "interleaved", c->interleaved, "verdict",
        rigor_cmp_verdict_name(c->verdict), "reason", c->reason, "sentence", sentence);
    if (c->interleaved)
      json_object_set_new(o, "arms",
                          json_pack("{s:I, s:o, s:o, s:o}", "window_pairs",
                                    (json_int_t)c->n_windows, "window_sd_log", real(c->window_sd),
                                    "run_sd_log", real(c->pair_sd), "position_effect_log",
                                    real(c->position_effect)));
    json_object_set_new(o, "units_needed",
                        c->units_needed ? json_integer((json_int_t)c->units_needed) : json_null());
    json_array_append_new(out, o);
  }
  return out;
}

static void fmt_interval(char *buf, size_t len, const rigor_contrast_t *c) {
  if (isfinite(c->lo) && isfinite(c->hi))
    rigor_fmt_change_interval(buf, len, c->lo - 1, c->hi - 1);
  else
    snprintf(buf, len, "-");
}

/* Column k of the table's fixed layout, once the point's n_point axis columns took the place of
 * column 1 ("point"). */
static size_t at(size_t k, size_t n_point) {
  return k < 2 ? k : k - 1 + n_point;
}

static rigor_table_t *contrasts_table(const rigor_contrasts_t *set) {
  static const char *const h[] = {"axis", "point", "cell", "level", "reference", "figure", "blocks",
                                  "dropped", "ratio", "95% CI", "p t (Holm)", "p signed-rank",
                                  "HL ratio", "verdict", "why",
                                  /* the numbers of the combined cells, for data formats */
                                  "ci low", "ci high", "p t", "p Holm", "p signed rank"};
  enum { N = sizeof h / sizeof *h, DATA = 15 };
  /* The point's axes, a column each, where the "point" column stands. */
  rigor_labels_t lp = {0};
  if (rigor_labels_of(set->exp, RIGOR_LABELS_POINT, NULL, &lp)) lp.n = 0;
  size_t np = lp.n ? lp.n : 1, k0 = 1;
  const char **hh = malloc((N - 1 + np) * sizeof *hh);
  if (!hh) {
    rigor_labels_free(&lp);
    return NULL;
  }
  hh[0] = h[0];
  if (lp.n)
    rigor_labels_headers(&lp, hh, &k0);
  else
    hh[1] = h[1];
  for (size_t k = 2; k < N; k++)
    hh[at(k, np)] = h[k];
  rigor_table_t *t =
      rigor_table_new("contrasts (level / reference, paired by block)", N - 1 + np, hh);
  free(hh);
  rigor_table_name(t, "contrasts");
  if (t && lp.n) rigor_labels_declare(&lp, t, 1);
  static const rigor_col_kind_t kinds[N] = {
      [6] = RIGOR_COL_COUNT,         [7] = RIGOR_COL_COUNT,         [8] = RIGOR_COL_CHANGE,
      [12] = RIGOR_COL_CHANGE,       [DATA] = RIGOR_COL_CHANGE,     [DATA + 1] = RIGOR_COL_CHANGE,
      [DATA + 2] = RIGOR_COL_NUMBER, [DATA + 3] = RIGOR_COL_NUMBER, [DATA + 4] = RIGOR_COL_NUMBER};
  for (size_t k = 2; t && k < N; k++) {
    rigor_table_kind(t, at(k, np), kinds[k]);
    if (k >= 9 && k <= 11) rigor_table_show(t, at(k, np), RIGOR_SHOW_HUMAN);
    if (k >= DATA) rigor_table_show(t, at(k, np), RIGOR_SHOW_DATA);
  }
  if (t) {
    rigor_table_key(t, at(8, np), "change");
    rigor_table_key(t, at(12, np), "hl_change");
  }
  for (size_t i = 0; t && i < set->n; i++) {
    const rigor_contrast_t *c = &set->items[i];
    long row = rigor_table_add_row(t);
    if (row < 0) break;
    size_t w = (size_t)row;
    char s[600];
    rigor_table_set_text(t, w, 0, c->axis);
    if (lp.n)
      rigor_labels_set(&lp, t, w, 1, 0, c->point);
    else
      rigor_table_set_text(t, w, 1, c->point_label ? c->point_label : "-");
    rigor_table_set_text(t, w, at(2, np), c->cell && c->cell[0] ? c->cell : "-");
    rigor_table_set_text(t, w, at(3, np), c->label);
    rigor_table_set_text(t, w, at(4, np), c->ref_label);
    rigor_table_set_text(t, w, at(5, np), c->figure);
    rigor_table_set_value(t, w, at(6, np), (double)c->n_pairs);
    rigor_table_set_value(t, w, at(7, np), (double)c->n_incomplete);
    rigor_table_set_value(t, w, at(8, np), c->ratio - 1);
    fmt_interval(s, sizeof s, c);
    rigor_table_set_text(t, w, at(9, np), s);
    if (c->exact)
      snprintf(s, sizeof s, "exact");
    else if (isfinite(c->p) && isfinite(c->p_holm))
      snprintf(s, sizeof s, "%.3g (%.3g)", c->p, c->p_holm);
    else if (isfinite(c->p))
      snprintf(s, sizeof s, "%.3g", c->p);
    else
      snprintf(s, sizeof s, "-");
    rigor_table_set_text(t, w, at(10, np), s);
    if (isfinite(c->p_wilcoxon))
      snprintf(s, sizeof s, "%.3g%s", c->p_wilcoxon, c->wilcoxon_exact ? " exact" : "");
    else
      snprintf(s, sizeof s, "-");
    rigor_table_set_text(t, w, at(11, np), s);
    rigor_table_set_value(t, w, at(12, np), c->hl_ratio - 1);
    rigor_table_set_text(t, w, at(13, np), rigor_cmp_verdict_name(c->verdict));
    rigor_table_set_text(t, w, at(14, np), c->reason[0] ? c->reason : "-");
    bool interval = isfinite(c->lo) && isfinite(c->hi);
    rigor_table_set_value(t, w, at(DATA, np), interval ? c->lo - 1 : NAN);
    rigor_table_set_value(t, w, at(DATA + 1, np), interval ? c->hi - 1 : NAN);
    rigor_table_set_value(t, w, at(DATA + 2, np), c->exact ? NAN : c->p);
    rigor_table_set_value(t, w, at(DATA + 3, np), c->exact ? NAN : c->p_holm);
    rigor_table_set_value(t, w, at(DATA + 4, np), c->p_wilcoxon);
  }
  rigor_labels_free(&lp);
  return t;
}

/* ---- forest plot ---------------------------------------------------------------------------- */

/* One line per contrast: the interval of level / reference as a cost (right of 1 is slower). */
static void forest_figure(const void *arg, FILE *out) {
  const rigor_contrasts_t *set = *(const rigor_contrasts_t *const *)arg;
  rigor_forest_item_t *items = calloc(set->n ? set->n : 1, sizeof *items);
  char(*labels)[900] = calloc(set->n ? set->n : 1, sizeof *labels);
  for (size_t i = 0; items && labels && i < set->n; i++) {
    const rigor_contrast_t *c = &set->items[i];
    char versus[400], where[500];
    snprintf(versus, sizeof versus, "%s vs %s", c->label, c->ref_label);
    const char *at[] = {c->cell, c->point_label};
    rigor_label_join(where, sizeof where, ", ", at, 2);
    const char *parts[] = {where, versus};
    rigor_label_join(labels[i], sizeof *labels, ": ", parts, 2);
    items[i] = rigor_forest_judged(labels[i], &c->cost, c->verdict);
  }
  if (items && labels)
    rigor_forest_svg(out, "contrasts: level / reference (right of 1 is slower)",
                     "level / reference, as a cost (log scale)", items, set->n,
                     set->opts.threshold);
  free(items), free(labels);
}

/* The answers: the axis line and one sentence per contrast (with its arms line). */
static void answers(rigor_doc_t *doc, const rigor_contrasts_t *c, const char *prefix) {
  for (size_t a = 0; a < c->n_axes; a++)
    rigor_doc_text(doc, "%scontrasts of %s against %s (threshold %.2f%%, alpha %.2g, Holm):",
                   prefix ? prefix : "", c->axes[a], c->refs[a], c->opts.threshold * 100,
                   c->opts.alpha);
  for (size_t i = 0; i < c->n; i++) {
    char s[1200];
    rigor_contrast_sentence(&c->items[i], s, sizeof s);
    rigor_doc_text(doc, "  %s", s);
    if (c->items[i].interleaved) {
      rigor_contrast_arms_line(&c->items[i], c->opts.threshold, s, sizeof s);
      rigor_doc_text(doc, "    %s", s);
    }
  }
}

void rigor_contrasts_answers(rigor_doc_t *doc, const rigor_contrasts_t *c, const char *prefix) {
  if (c && c->n) answers(doc, c, prefix);
}

void rigor_contrasts_details(rigor_doc_t *doc, const rigor_contrasts_t *c) {
  if (!c || c->n == 0) return;
  rigor_doc_table(doc, contrasts_table(c));
  rigor_doc_figure(doc, forest_figure, &c, sizeof c);
}

void rigor_contrasts_doc(rigor_doc_t *doc, const rigor_contrasts_t *c) {
  if (!c || c->n == 0) return;
  answers(doc, c, NULL);
  rigor_contrasts_details(doc, c);
}

#include "decide.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clauses.h"
#include "inference.h"

const char *rigor_cmp_verdict_name(rigor_cmp_verdict_t v) {
  static const char *const names[] = {"same",    "faster",       "slower",       "inconclusive",
                                      "invalid", "incomparable", "undetermined", "missing"};
  return v < RIGOR_CMP_VERDICT_COUNT ? names[v] : "?";
}

int rigor_cmp_verdict_parse(const char *name) {
  for (int v = 0; name && v < RIGOR_CMP_VERDICT_COUNT; v++)
    if (strcmp(name, rigor_cmp_verdict_name((rigor_cmp_verdict_t)v)) == 0) return v;
  return -1;
}

void rigor_decide_side_problems(const rigor_row_t *w, const char *side, char *invalid, size_t ilen,
                                char *unusable, size_t ulen, bool *no_data) {
  if (w->n_wrong)
    rigor_clause_append(invalid, ilen, "%s: correctness failed in %zu samples", side, w->n_wrong);
  if (w->n_invalid)
    rigor_clause_append(invalid, ilen, "%s: %zu invalid samples", side, w->n_invalid);
  if (w->verdict == RIGOR_VERDICT_NO_DATA || w->figure.n == 0) {
    rigor_clause_append(unusable, ulen, "%s: no usable samples", side);
    *no_data = true;
  }
}

double rigor_decide_relative_quantum(const rigor_figure_t *a, const rigor_figure_t *b) {
  size_t n = a->n + b->n;
  double q = fmax(a->quantum, b->quantum);
  double *all = malloc((n ? n : 1) * sizeof *all);
  if (all) {
    memcpy(all, a->values, a->n * sizeof *all);
    memcpy(all + a->n, b->values, b->n * sizeof *all);
    q = fmax(q, rigor_quantum_of(all, n));
    free(all);
  }
  double scale = sqrt(fabs(a->summary.median * b->summary.median));
  return scale > 0 ? q / scale : 0;
}

/* The half-width of n units' 95% interval for one unit sd of s. */
static double half_width_at(const rigor_evidence_t *e, uint32_t n, double s) {
  double se = e->two_sample ? s * sqrt(2.0 / n) : s / sqrt((double)n);
  double df = e->two_sample ? 2.0 * n - 2 : (double)n - 1;
  double random = rigor_student_t_quantile(0.975, df) * se;
  return sqrt(random * random + e->fixed_half_width * e->fixed_half_width);
}

/* How many units the interval needs to decide: its half-width must fall below the distance of
 * the observed log cost from the threshold (and below half the threshold when the cost sits on
 * it), so that it lands wholly on one side. */
static uint32_t units_needed(const rigor_evidence_t *e, double log_cost) {
  double t = log1p(e->threshold);
  double h = fmax(fabs(fabs(log_cost) - t), t / 2);
  double s = e->unit_sd;
  if (!isfinite(h) || !isfinite(s) || s < 0) return 0;
  if (e->fixed_half_width >= h) return UINT32_MAX;
  if (s == 0) return 2;
  if (half_width_at(e, RIGOR_CMP_RUNS_NEEDED_MAX, s) > h) return RIGOR_CMP_RUNS_NEEDED_MAX + 1;
  /* The half-width shrinks as n grows: the smallest n that reaches h, by bisection (each step
   * costs a t quantile, which a report pays once per undecided contrast). */
  uint32_t lo = 2, hi = RIGOR_CMP_RUNS_NEEDED_MAX;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (half_width_at(e, mid, s) <= h)
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}

static void say_needed(const rigor_evidence_t *e, rigor_decision_t *d) {
  const char *unit = e->unit_name ? e->unit_name : "units";
  if (d->units_needed == UINT32_MAX)
    rigor_clause_append(d->reason, sizeof d->reason,
                        "no number of %s narrows it below the allowance for the variation "
                        "between sessions (±%.2f%%): interleave the two in one process (rigor "
                        "ab) for a precise answer",
                        unit, expm1(e->fixed_half_width) * 100);
  else if (d->units_needed > RIGOR_CMP_RUNS_NEEDED_MAX)
    rigor_clause_append(d->reason, sizeof d->reason,
                        "the observed spread calls for more than %d %s", RIGOR_CMP_RUNS_NEEDED_MAX,
                        unit);
  else if (d->units_needed)
    rigor_clause_append(d->reason, sizeof d->reason, "the observed spread calls for %s%u %s",
                        e->unit_sd_floor ? "at least " : "", d->units_needed, unit);
}

void rigor_cost_of(double ratio, double lo, double hi, bool higher_is_better, rigor_cost_t *c) {
  bool up = higher_is_better;
  c->ratio = up ? 1 / ratio : ratio;
  c->lo = up ? 1 / hi : lo;
  c->hi = up ? 1 / lo : hi;
  c->worse = c->ratio > 1;
  c->factor = c->worse ? c->ratio : 1 / c->ratio;
  c->factor_lo = c->worse ? c->lo : 1 / c->hi;
  c->factor_hi = c->worse ? c->hi : 1 / c->lo;
}

void rigor_decide(const rigor_evidence_t *e, rigor_decision_t *d) {
  memset(d, 0, sizeof *d);
  rigor_cost_of(e->ratio, e->lo, e->hi, e->higher_is_better, &d->cost);
  const rigor_cost_t *c = &d->cost;
  double t = e->threshold;
  if (e->invalid && e->invalid[0]) {
    d->verdict = RIGOR_CMP_INVALID;
    snprintf(d->reason, sizeof d->reason, "%s", e->invalid);
    return;
  }
  if (e->unusable && e->unusable[0]) {
    d->verdict = RIGOR_CMP_UNDETERMINED;
    snprintf(d->reason, sizeof d->reason, "%s", e->unusable);
    return;
  }
  if (e->exact) {
    rigor_cost_of(e->ratio, e->ratio, e->ratio, e->higher_is_better, &d->cost);
  } else if (e->n_units >= 2 && (!isfinite(c->lo) || !isfinite(c->hi))) {
    /* Values so far apart that the interval's ends overflow a double: no verdict can be read
     * from it, and more units would not change that. */
    d->verdict = RIGOR_CMP_UNDETERMINED;
    rigor_clause_append(d->reason, sizeof d->reason,
                        "the interval's ends are beyond what a double holds (ratio %.4g): the two "
                        "sides differ by hundreds of orders of magnitude",
                        c->ratio);
    return;
  } else if (e->n_units < 2 || !isfinite(c->lo) || !isfinite(c->hi)) {
    d->verdict = RIGOR_CMP_UNDETERMINED;
    d->units_needed = isfinite(c->ratio) ? units_needed(e, log(c->ratio)) : 0;
    char have[96];
    const char *unit = e->unit_name ? e->unit_name : "units";
    if (e->units_text)
      snprintf(have, sizeof have, "%s", e->units_text);
    else
      snprintf(have, sizeof have, "%zu %s", e->n_units, unit);
    rigor_clause_append(d->reason, sizeof d->reason, "%s: an interval needs at least 2 %s", have,
                        unit);
    say_needed(e, d);
    return;
  }
  /* A change counts only when the whole interval lies beyond the threshold, and "same" only
   * when the whole interval lies inside it: the data must show the difference is larger, or
   * smaller, than the smallest change that matters, not merely that it is or is not zero. */
  if (c->lo > 1 + t) {
    d->verdict = RIGOR_CMP_SLOWER;
  } else if (c->hi < 1 - t) {
    d->verdict = RIGOR_CMP_FASTER;
  } else if (c->lo >= 1 - t && c->hi <= 1 + t) {
    d->verdict = RIGOR_CMP_SAME;
    rigor_clause_append(d->reason, sizeof d->reason,
                        "the whole interval lies within the %.2f%% threshold", t * 100);
  } else {
    d->verdict = RIGOR_CMP_INCONCLUSIVE;
    rigor_clause_append(d->reason, sizeof d->reason,
                        "the interval reaches across the %.2f%% threshold", t * 100);
    d->units_needed = units_needed(e, log(c->ratio));
    say_needed(e, d);
  }
  if (e->floored)
    rigor_clause_append(
        d->reason, sizeof d->reason,
        "interval widened to the quantum of the values (identical runs show no spread)");
  if (e->exact)
    rigor_clause_append(d->reason, sizeof d->reason,
                        "exact: the figure is identical in every repeat");
}

/* The one verdict rule. Every judgement of "is B faster than A" (contrasts inside a file, the
 * interleaved arms of one process, compare across files, the history check) measures its
 * evidence its own way, then hands it here and keeps what comes back: the verdict, the ratio
 * and interval as a cost, the units more data would take, and the reasons as clauses.
 *
 * The rule reads the interval alone (docs/methodology.md, "Verdicts"): `slower` or `faster`
 * when the whole interval lies beyond the threshold on that side, `same` when the whole interval
 * lies inside it (an equivalence answer), `inconclusive` otherwise, with the units the observed
 * spread calls for. `invalid` for failed correctness; `undetermined` when no interval can be
 * formed (fewer than two units). The figure and its interval are always given. */
#ifndef RIGOR_DECIDE_H
#define RIGOR_DECIDE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis.h"

typedef enum {
  RIGOR_CMP_SAME = 0,     /* the whole interval inside the threshold */
  RIGOR_CMP_FASTER,       /* the whole interval beyond it, on the better side */
  RIGOR_CMP_SLOWER,       /* the whole interval beyond it, on the worse side */
  RIGOR_CMP_INCONCLUSIVE, /* the interval reaches across the threshold: more data decides */
  RIGOR_CMP_INVALID,      /* correctness, invalid samples, or workload/timing mismatch */
  RIGOR_CMP_INCOMPARABLE, /* identity fields that matter differ */
  RIGOR_CMP_UNDETERMINED, /* no interval: one run a side, fewer than two blocks, no samples */
  RIGOR_CMP_MISSING,      /* the row is on one side only */
  RIGOR_CMP_VERDICT_COUNT
} rigor_cmp_verdict_t;
const char *rigor_cmp_verdict_name(rigor_cmp_verdict_t v);
/* The verdict of a name ("undetermined"), or -1. */
int rigor_cmp_verdict_parse(const char *name);

/* units_needed above this reads "more than". */
#define RIGOR_CMP_RUNS_NEEDED_MAX 1000

/* Problems of one side found before any ratio: failed correctness and invalid samples (as
 * clauses into invalid), and no usable samples (*no_data set, a clause into unusable). */
void rigor_decide_side_problems(const rigor_row_t *w, const char *side, char *invalid, size_t ilen,
                                char *unusable, size_t ulen, bool *no_data);

/* The step quantised values cannot resolve, relative to the two medians: the larger of the
 * figures' own quanta and the smallest gap between any two of their values (identical runs on
 * each side that differ only across sides are one step apart, not an exact difference). */
double rigor_decide_relative_quantum(const rigor_figure_t *a, const rigor_figure_t *b);

/* A ratio (candidate / reference) and its interval as a cost, the one orientation every answer
 * reads: above 1 is worse than the reference (slower, for a time). And the same as "how many
 * times": the factor (at least 1) by which it is worse when `worse`, else better, with its
 * interval in that orientation. */
typedef struct rigor_cost {
  double ratio, lo, hi;
  bool worse;
  double factor, factor_lo, factor_hi;
} rigor_cost_t;
void rigor_cost_of(double ratio, double lo, double hi, bool higher_is_better, rigor_cost_t *c);

/* The evidence of one judgement. ratio, lo and hi are candidate / reference of the figure and
 * its interval; the rule orients them by higher_is_better. */
typedef struct rigor_evidence {
  double ratio, lo, hi;
  bool higher_is_better;
  bool exact;   /* both figures identical in every sample: the ratio needs no interval */
  bool floored; /* the interval was widened to what quantised values resolve */
  double threshold;
  /* The unit of inference: n_units of them behind the interval, each with this sd of its log
   * ratio (NAN when unknown). two_sample: the units are runs of two independent sides (Welch's
   * t, n a side), else paired (one-sample t over the units). */
  size_t n_units;
  double unit_sd;
  bool two_sample;
  /* True when unit_sd is only a lower bound (the run level was not measured). */
  bool unit_sd_floor;
  /* A half-width on the log scale that no number of units removes (the allowance for the
   * variation between sessions across files); 0 when none. */
  double fixed_half_width;
  const char *unit_name;  /* "blocks", "runs a side" */
  const char *units_text; /* what is behind the interval, "1 run BASE, 1 CAND"; NULL: the count */
  const char *invalid;    /* clauses that make the judgement invalid, "" or NULL when none */
  const char *unusable;   /* why no interval can be formed besides n_units, "" or NULL */
} rigor_evidence_t;

typedef struct rigor_decision {
  rigor_cmp_verdict_t verdict;
  rigor_cost_t cost; /* the evidence's ratio and interval as a cost */
  /* The units (as n_units counts them) that the observed spread calls for to decide; 0 when not
   * estimable, RIGOR_CMP_RUNS_NEEDED_MAX + 1 for more than that, UINT32_MAX when no number of
   * units can (fixed_half_width is too wide). */
  uint32_t units_needed;
  char reason[512];
} rigor_decision_t;

void rigor_decide(const rigor_evidence_t *e, rigor_decision_t *d);

#endif

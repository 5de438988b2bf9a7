/* Regression verdicts between two analysed results: rows matched by resolved settings. */
#ifndef RIGOR_COMPARE_H
#define RIGOR_COMPARE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "analysis.h"
#include "decide.h"

/* The sd of a file's level between sessions on a shared machine that a comparison of one file
 * a side allows for when nothing measured it (docs/methodology.md, "Across files"). */
#define RIGOR_SESSION_NOISE_DEFAULT 0.05

typedef struct rigor_compare_opts {
  double threshold;                   /* smallest relative change that counts; default 0.02 */
  double alpha;                       /* family-wise level after Holm; default 0.05 */
  uint64_t seed;                      /* bootstrap seed */
  uint32_t resamples;                 /* bootstrap resamples; default 2000 */
  const char *const *ignore_identity; /* dotted identity paths (prefixes) not to compare */
  size_t n_ignore;
  unsigned fail_on; /* verdicts that fail the gate besides slower: bit (1u << verdict) */
  /* The sd of a file's level between sessions (a fraction), allowed for in every interval
   * across files; 0 for none. */
  double session_noise;
  /* "BASE_NAME=CAND_NAME" pairs: BASE's experiment BASE_NAME is compared with CAND's CAND_NAME
   * (two teams' files of one benchmark under different names). */
  const char *const *map;
  size_t n_map;
} rigor_compare_opts_t;
void rigor_compare_opts_default(rigor_compare_opts_t *o);

typedef struct rigor_cmp_row {
  const char *experiment, *variant_label, *point_label;
  const rigor_row_t *base, *cand; /* either may be NULL (row on one side only) */
  /* Of the rows' figure (rigor_figure_t: the time, or the plugin's primary metric). With at least
   * two runs a side, ci_lo/ci_hi and p_runs come from Welch's t over the runs' medians (the run
   * is the unit). With fewer on a side (one_run) the row is undetermined: the interval is a
   * bootstrap over cycles, shown as an observation, and runs_needed says how many runs a side
   * the observed spread calls for (at least that many when runs_needed_floor: the run-to-run
   * spread was not measured on either side). p is the Mann-Whitney p over cycles; p_holm is
   * p_runs after Holm's correction across the rows. */
  double ratio, p95_ratio, ci_lo, ci_hi, p, p_runs, p_holm, hl_shift;
  size_t runs_base, runs_cand;
  bool one_run;
  bool exact;         /* the Mann-Whitney p is exact */
  bool figure_exact;  /* both figures identical in every sample: the ratio is exact */
  bool floored;       /* the interval was widened to what quantised values resolve */
  double unit_sd;     /* sd of one run's log figure behind the interval */
  bool unit_sd_floor; /* unit_sd is a lower bound: the run level was not measured */
  bool to_decide;     /* matched on both sides and comparable: the rule decides it */
  /* Several files a side: how many held the row; with two or more on both sides the interval
   * is over the files (sessions_measured), with two or more on one side session_sd is that
   * side's spread between files (a fraction; NaN otherwise). */
  size_t files_base, files_cand;
  bool sessions_measured;
  double session_sd;
  char invalid[256];    /* clauses that make it invalid */
  uint32_t runs_needed; /* for undetermined rows; 0 when not estimable */
  bool runs_needed_floor;
  rigor_cmp_verdict_t verdict;
  /* ratio, ci_lo and ci_hi as a cost (decide.h): as the rule read them for a row it decided,
   * oriented by BASE's figure for the others. */
  rigor_cost_t cost;
  char reason[512];
} rigor_cmp_row_t;

typedef struct rigor_comparison {
  rigor_cmp_row_t *rows;
  size_t n_rows;
  json_t *identity_diffs;    /* array of "path: base -> cand" */
  json_t *notes;             /* plugin version, low clocks, unbalanced order */
  bool regression;           /* some row is slower beyond the threshold */
  bool failed;               /* some row has a verdict of opts.fail_on */
  size_t n_compared;         /* rows with usable samples on both sides */
  rigor_compare_opts_t opts; /* as compared */
  /* BASE's and CAND's first experiment (borrowed from the analyses), or NULL: what a report
   * of the comparison states as each side's context. */
  const rigor_exp_analysis_t *sides[2];
} rigor_comparison_t;

/* Whether no row is in both files (no experiment, variant and point in common). */
bool rigor_comparison_shares_nothing(const rigor_comparison_t *c);
/* The CAND experiment that BASE's experiment `name` is compared with (opts.map, else itself). */
const char *rigor_compare_cand_name(const rigor_compare_opts_t *o, const char *name);
/* Why nothing could be compared (n_compared == 0), for the message of the exit 1. */
void rigor_comparison_vacuous_reason(const rigor_comparison_t *c, char *buf, size_t len);
/* A comma-separated list of verdict names as fail_on bits; RIGOR_EINVAL naming a bad one. */
int rigor_fail_on_parse(const char *list, unsigned *bits, char *err, size_t errlen);

int rigor_compare(const rigor_analysis_t *base, const rigor_analysis_t *cand,
                  const rigor_compare_opts_t *opts, rigor_comparison_t **out);
void rigor_comparison_free(rigor_comparison_t *c);

#endif

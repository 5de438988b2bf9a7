/* Contrasts within one results file: each level of a matrix axis against a reference level, per
 * point and per cell of the other axes. The unit of inference is the block: every complete block
 * (both variants ran ok with usable samples at that point) gives one paired log ratio of the two
 * levels' run medians of the row's figure (analysis.h, rigor_figure_t). The interval is a paired
 * t interval on those log ratios, cross-checked by a Wilcoxon signed-rank test and its
 * Hodges-Lehmann estimate; a verdict needs the whole interval beyond the threshold, as compare.
 * Blocks with only one of the two drop out of the pairing and are counted. */
#ifndef RIGOR_CONTRAST_H
#define RIGOR_CONTRAST_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis.h"
#include "compare.h"
#include "decide.h"

/* A matrix axis of an experiment and its levels, in the order the matrix declared them. */
typedef struct rigor_axis_info {
  char *name; /* as written in the matrix: "method", "timing.warmup", "build" */
  size_t n_levels;
  char **levels; /* labels */
} rigor_axis_info_t;

/* Every matrix axis of e (with one level or more); *axes is NULL when there is none. */
int rigor_exp_axes(const rigor_exp_analysis_t *e, rigor_axis_info_t **axes, size_t *n);
void rigor_exp_axes_free(rigor_axis_info_t *axes, size_t n);
/* The label of the level a variant's value of `axis` names (the declared label of a labelled
 * level); NULL for no value or on ENOMEM. The caller frees it. */
char *rigor_axis_level_label(const rigor_exp_analysis_t *e, const char *axis, const json_t *value);
/* 0 when e has the axis and (if level is not NULL) the level; otherwise RIGOR_EINVAL with a
 * message that lists what there is. */
int rigor_axis_check(const rigor_exp_analysis_t *e, const char *axis, const char *level, char *err,
                     size_t errlen);

typedef struct rigor_contrast_opts {
  double threshold;      /* smallest relative change that counts; default 0.02 */
  double alpha;          /* family-wise level, Holm over the set; default 0.05 */
  double level;          /* of the intervals; default 0.95 */
  const char *candidate; /* only this level against the reference; NULL: every other level */
} rigor_contrast_opts_t;
void rigor_contrast_opts_default(rigor_contrast_opts_t *o);

typedef struct rigor_contrast {
  const char *axis;              /* owned by the set */
  const char *ref_label, *label; /* the reference level and this level (owned by the set) */
  char *cell;                    /* the other axes' levels, "threads=2"; "" when none */
  uint32_t ref_variant, variant; /* variant indices */
  uint32_t point;
  const char *point_label;      /* borrowed from the rows */
  const rigor_row_t *ref, *row; /* borrowed; row is the candidate level's */
  const char *figure;           /* "time_s" or the plugin's primary metric */
  bool higher_is_better;
  size_t n_pairs;      /* complete blocks */
  size_t n_incomplete; /* blocks in which one of the two did not give a usable run */
  /* level / reference of the figure: the exponential of the mean paired log ratio, and its
   * interval; half_width is the interval's on the log scale (0 when exact, INFINITY with fewer
   * than two pairs). */
  double ratio, lo, hi, half_width;
  double p, p_holm; /* paired t, two-sided; Holm-adjusted over the set */
  double w_plus, p_wilcoxon;
  bool wilcoxon_exact;
  size_t n_zero;    /* pairs with no difference, dropped by the signed-rank test */
  double hl_ratio;  /* exp of the Hodges-Lehmann estimate of the log ratios */
  bool exact;       /* both figures identical in every sample: the ratio is exact */
  bool floored;     /* the interval was widened to what the timing quantum resolves */
  double pair_sd;   /* sd of the paired log ratios (one per block, or per run for arms) */
  bool interleaved; /* the levels ran as arms inside each process: the pairs are runs */
  /* Interleaved arms only: window pairs in all (cycle and point of one run), the sd of one
   * window pair's log ratio around its run's mean, and the position effect on the log scale
   * (the level measured second against first, halved; NaN when not both occurred). */
  size_t n_windows;
  double window_sd, position_effect;
  uint32_t units_needed; /* blocks (runs) the observed spread calls for; decide.h */
  rigor_cmp_verdict_t verdict;
  rigor_cost_t cost; /* ratio, lo and hi as a cost, as the rule read them (decide.h) */
  char invalid[256]; /* clauses that make it invalid */
  char reason[512];
} rigor_contrast_t;

typedef struct rigor_contrasts {
  const rigor_exp_analysis_t *exp; /* borrowed */
  rigor_contrast_opts_t opts;
  char **axes; /* the axes contrasted, each with its reference level */
  char **refs;
  size_t n_axes;
  rigor_contrast_t *items; /* by axis, cell, level, point */
  size_t n;
  rigor_axis_info_t *info; /* the experiment's axes: the labels items point to */
  size_t n_info;
  bool regression; /* some level is slower than its reference */
} rigor_contrasts_t;

/* One pairing of a contrast set, known from the experiment record before any row is read: a
 * level of an axis against the axis's reference level, in one cell of the other axes. Each
 * pairing gives one contrast per point at which both variants have a row. */
typedef struct rigor_contrast_pair {
  size_t axis;       /* in the pairings' axes and refs */
  const char *label; /* the candidate level (owned by the pairings' info) */
  char *cell;        /* the other axes' levels, "threads=2"; "" when none */
  uint32_t ref_variant, variant;
} rigor_contrast_pair_t;

typedef struct rigor_contrast_pairs {
  char **axes, **refs; /* the axes paired, each with its reference level */
  size_t n_axes;
  rigor_contrast_pair_t *items; /* by axis, cell, level */
  size_t n;
  rigor_axis_info_t *info;
  size_t n_info;
} rigor_contrast_pairs_t;

/* The pairings rigor_contrasts_build contrasts, in its order; `candidate` NULL for every level.
 * Reads only e's variants and experiment record. RIGOR_EINVAL as rigor_contrasts_build. */
int rigor_contrast_pairs_build(const rigor_exp_analysis_t *e, const char *axis, const char *ref,
                               const char *candidate, rigor_contrast_pairs_t *out);
void rigor_contrast_pairs_free(rigor_contrast_pairs_t *p);

/* The contrasts of `axis` with the reference level `ref` (NULL: the first level). With axis NULL,
 * every axis with more than one level against its first level (ref must be NULL). Defaults of
 * rigor_contrast_opts_default. An axis with one level gives an empty set. RIGOR_EINVAL for an
 * unknown axis or level (rigor_axis_check says which). The set borrows e. */
int rigor_contrasts_build(const rigor_exp_analysis_t *e, const char *axis, const char *ref,
                          rigor_contrasts_t **out);
int rigor_contrasts_build_opts(const rigor_exp_analysis_t *e, const char *axis, const char *ref,
                               const rigor_contrast_opts_t *opts, rigor_contrasts_t **out);
void rigor_contrasts_free(rigor_contrasts_t *c);

/* The worst (largest) 95% interval half-width on the log scale that adaptive replication must
 * bring down: every contrast's of `axis` (NULL: of every axis with more than one level) against
 * `ref`, or, when the experiment has no such axis, every row's run-level half-width
 * (rigor_figure_t.half_width). INFINITY while some interval cannot be formed yet (fewer than two
 * complete blocks, or runs); 0 when everything is exact. */
double rigor_precision_worst(const rigor_exp_analysis_t *e, const char *axis, const char *ref);

#endif

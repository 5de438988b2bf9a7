/* Inferential statistics: intervals, tests and variance components over benchmark samples.
 * Percentiles and medians follow stats.h. */
#ifndef RIGOR_INFERENCE_H
#define RIGOR_INFERENCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bootstrap percentile confidence interval of median(cand) / median(base): `resamples` draws
 * with replacement from each side, with the project PRNG seeded by `seed`, so the interval is
 * identical on every platform. */
int rigor_stats_bootstrap_median_ratio(const double *base, size_t nb, const double *cand, size_t nc,
                                       uint32_t resamples, double level, uint64_t seed, double *lo,
                                       double *hi);

/* The ratio of two sides whose samples come in runs (independent processes) of several cycles:
 * the unit is the run, since cycles of one run share its process and are not independent. From
 * each run's median, Welch's t on the logarithms gives the interval of CAND/BASE (the ratio of
 * geometric means of run medians) at `level`, and the two-sided p-value of "ratio = 1". Needs at
 * least two runs a side (RIGOR_EINVAL otherwise); the run counts are written either way. The
 * standard error of the log ratio is at least se_floor (what quantised values cannot resolve;
 * floored is then set). */
typedef struct rigor_run_ratio {
  double ratio, lo, hi, p, se, df;
  size_t runs_base, runs_cand;
  bool floored;
} rigor_run_ratio_t;
int rigor_stats_run_ratio(const double *base, const uint32_t *base_run, size_t nb,
                          const double *cand, const uint32_t *cand_run, size_t nc, double level,
                          double se_floor, rigor_run_ratio_t *out);

/* Mann-Whitney U of a against b. U1 counts the pairs with a > b (ties count one half). The
 * two-sided p-value is exact when there are no ties and both sides have at most
 * RIGOR_MW_EXACT_MAX values; otherwise it is the normal approximation with tie and continuity
 * correction. */
#define RIGOR_MW_EXACT_MAX 50
typedef struct rigor_mw {
  double u1;
  double p;
  bool exact;
} rigor_mw_t;
int rigor_mann_whitney(const double *a, size_t na, const double *b, size_t nb, rigor_mw_t *out);

/* Hodges-Lehmann estimate of the shift b - a: the median of all pairwise differences b_j - a_i. */
double rigor_hodges_lehmann(const double *a, size_t na, const double *b, size_t nb);

/* Wilcoxon signed-rank test of paired differences d against a zero median. Zero differences
 * carry no sign and are dropped (Wilcoxon's rule), and counted in n_zero; n is what remains.
 * w_plus is the sum of the ranks of the positive differences (mid-ranks for ties). The two-sided
 * p is exact when no |d| ties and n <= RIGOR_SIGNRANK_EXACT_MAX; otherwise it is the normal
 * approximation with the tie correction of the variance and no continuity correction. */
#define RIGOR_SIGNRANK_EXACT_MAX 50
typedef struct rigor_signrank {
  double w_plus, p;
  size_t n, n_zero;
  bool exact;
} rigor_signrank_t;
int rigor_signed_rank(const double *d, size_t n, rigor_signrank_t *out);

/* One-sample Hodges-Lehmann estimate: the median of the Walsh averages (d_i + d_j) / 2, i <= j. */
double rigor_walsh_median(const double *d, size_t n);

/* Paired t interval of the mean of d (n >= 2) at `level`, and the two-sided p of "mean = 0".
 * The standard error is at least se_floor (floored is then set): a spread the data cannot
 * resolve (quantised timings) must not give a zero-width interval. */
typedef struct rigor_paired {
  size_t n;
  double mean, sd, se, df, half_width, lo, hi, p;
  bool floored;
} rigor_paired_t;
int rigor_stats_paired(const double *d, size_t n, double level, double se_floor,
                       rigor_paired_t *out);

/* The smallest positive gap between two of the values: the step of quantised data (0 when all
 * are equal or n < 2). */
double rigor_quantum_of(const double *x, size_t n);

/* Holm step-down adjustment of m p-values (NaN entries are left out and stay NaN). */
void rigor_holm(const double *p, size_t m, double *adjusted);

/* Distribution functions used by the tests above and by the variance components. */
double rigor_normal_cdf(double z);
double rigor_student_t_cdf(double t, double df);
double rigor_student_t_quantile(double p, double df);

/* Kalibera & Jones (2013), two levels: runs (level 2) of cycles (level 1), balanced.
 * y[j * cycles + k] is cycle k of run j. S1^2 is the within-run and S2^2 the between-run sample
 * variance; T1^2 = S1^2 and T2^2 = S2^2 - S1^2 / cycles are the unbiased estimates of the
 * variance each level adds; half_width is the `level` confidence interval of the grand mean. */
typedef struct rigor_variance {
  size_t runs, cycles;
  double mean, s1_sq, s2_sq, t1_sq, t2_sq, half_width, level;
  /* Three levels (rigor_variance_components_nodes): the nodes, the harmonic mean of their run
   * counts, the between-node sample variance S3^2 and T3^2 = S3^2 - S2^2 / node_runs; and
   * node_share, max(T3^2, 0) over the variance of one cycle, T1^2 + max(T2^2, 0) +
   * max(T3^2, 0). nodes is 0 for two levels. */
  size_t nodes;
  double node_runs, s3_sq, t3_sq, node_share;
} rigor_variance_t;
int rigor_variance_components(const double *y, size_t runs, size_t cycles, double level,
                              rigor_variance_t *out);
/* Kalibera & Jones with a third level on top: nodes (level 3) of runs of cycles. node[j] < nodes
 * is the node run j ran on; every node has a run, and some node has two (runs > nodes), since
 * S2^2 is then the between-run variance pooled within the nodes. The runs of a node need not be
 * as many as another's: S3^2 is the sample variance of the nodes' means (each the mean of its
 * runs' means), whose expectation is T3^2 + E[S2^2] times the mean of 1 / runs over the nodes,
 * so T3^2 = S3^2 - S2^2 / h with h the harmonic mean of the run counts is unbiased, balanced or
 * not (h is the run count when balanced, K&J's formula). mean is the mean of the node means;
 * half_width is t(nodes - 1) * sqrt(S3^2 / nodes): the nodes are the top-level sample. */
int rigor_variance_components_nodes(const double *y, size_t runs, size_t cycles,
                                    const uint32_t *node, size_t nodes, double level,
                                    rigor_variance_t *out);
/* Suggested cycles per run and runs for a target half-width, given the cost of one cycle and
 * the cost of one run beyond its cycles (any common unit). Cycles follow K&J: ceil(sqrt(c_run
 * T1^2 / (c_cycle T2^2))), 1 when T1^2 is 0, max_cycles when T2^2 <= 0. Runs are the fewest
 * (>= 2) whose t-interval, with the expected between-run variance T2^2 + T1^2 / cycles, is
 * within the target; max_runs when none is. */
int rigor_variance_suggest(const rigor_variance_t *v, double cost_cycle, double cost_run,
                           double target_half_width, uint32_t max_cycles, uint32_t max_runs,
                           uint32_t *cycles, uint32_t *runs);

#endif

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "rigor/plugin.h"
#include "inference.h"
#include "rng.h"
#include "stats.h"

/* cmocka's float assertion works in single precision; the vectors need double. */
#define assert_double_equal(a, b, eps)                                                             \
  do {                                                                                             \
    double a_ = (a), b_ = (b);                                                                     \
    if (!(fabs(a_ - b_) <= (eps)))                                                                 \
      fail_msg("%s = %.10g, expected %.10g (+-%g)", #a, a_, b_, (double)(eps));                    \
  } while (0)

static const double A[] = {10.2, 10.4, 10.1, 10.8, 10.3, 10.5, 10.6, 10.2, 10.9, 10.4};
static const double B[] = {10.9, 11.2, 10.7, 11.0, 11.4, 10.8, 11.1, 11.3, 10.6, 11.0};
static const double C[] = {1.1, 2.3, 0.7, 3.9, 2.8};
static const double E[] = {4.2, 3.1, 5.6, 6.0, 2.5, 4.9};

static void test_mann_whitney_normal_with_ties(void **state) {
  (void)state;
  rigor_mw_t mw;
  assert_int_equal(rigor_mann_whitney(A, 10, B, 10, &mw), 0);
  assert_false(mw.exact);
  assert_double_equal(mw.u1, 6.5, 1e-12);
  assert_double_equal(mw.p, 0.001122592, 5e-10);
}

static void test_mann_whitney_exact(void **state) {
  (void)state;
  rigor_mw_t mw;
  assert_int_equal(rigor_mann_whitney(C, 5, E, 6, &mw), 0);
  assert_true(mw.exact);
  assert_double_equal(mw.u1, 3, 1e-12);
  assert_double_equal(mw.p, 0.030303, 5e-7);
  /* Swapping the sides gives U2 = n1 n2 - U1 and the same two-sided p. */
  assert_int_equal(rigor_mann_whitney(E, 6, C, 5, &mw), 0);
  assert_double_equal(mw.u1, 27, 1e-12);
  assert_double_equal(mw.p, 0.030303, 5e-7);
}

static void test_mann_whitney_identical_samples(void **state) {
  (void)state;
  rigor_mw_t mw;
  assert_int_equal(rigor_mann_whitney(A, 10, A, 10, &mw), 0);
  assert_double_equal(mw.u1, 50, 1e-12);
  assert_double_equal(mw.p, 1, 1e-12);
}

static void test_hodges_lehmann(void **state) {
  (void)state;
  assert_double_equal(rigor_hodges_lehmann(A, 10, B, 10), 0.6, 1e-12);
  assert_double_equal(rigor_hodges_lehmann(B, 10, A, 10), -0.6, 1e-12);
}

static void test_kalibera_jones(void **state) {
  (void)state;
  const double y[] = {9, 5, 8, 3, 10, 6, 7, 11, 1, 12, 2, 4};
  rigor_variance_t v;
  assert_int_equal(rigor_variance_components(y, 3, 4, 0.95, &v), 0);
  assert_double_equal(v.mean, 6.5, 1e-12);
  assert_double_equal(v.s1_sq, 12.7222, 5e-5);
  assert_double_equal(v.s2_sq, 3.5625, 1e-12);
  assert_double_equal(v.t2_sq, 0.3819, 5e-5);
  assert_double_equal(v.half_width, 4.6887, 5e-5);
  assert_int_equal(rigor_variance_components(y, 1, 12, 0.95, &v), RIGOR_EINVAL);
}

/* Three levels by hand: node 0 ran runs {1, 3} and {3, 5}, node 1 ran {9, 11}, {11, 13} and
 * {10, 12}. Run means 2, 4 | 10, 12, 11; node means 3 and 11, grand mean 7. S1^2 = 10 / 5 = 2;
 * S2^2 (within the nodes) = (1 + 1 + 1 + 1 + 0) / (5 - 2) = 4/3; S3^2 = (16 + 16) / 1 = 32;
 * runs per node: the harmonic mean of 2 and 3, 2.4. T2^2 = 4/3 - 2/2 = 1/3, T3^2 = 32 -
 * (4/3) / 2.4 = 31.4444; the share of one cycle's variance is 31.4444 / (2 + 1/3 + 31.4444). */
static void test_kalibera_jones_nodes(void **state) {
  (void)state;
  const double y[] = {1, 3, 3, 5, 9, 11, 11, 13, 10, 12};
  const uint32_t node[] = {0, 0, 1, 1, 1};
  rigor_variance_t v;
  assert_int_equal(rigor_variance_components_nodes(y, 5, 2, node, 2, 0.95, &v), 0);
  assert_int_equal(v.nodes, 2);
  assert_double_equal(v.mean, 7, 1e-12);
  assert_double_equal(v.s1_sq, 2, 1e-12);
  assert_double_equal(v.s2_sq, 4.0 / 3, 1e-12);
  assert_double_equal(v.s3_sq, 32, 1e-12);
  assert_double_equal(v.node_runs, 2.4, 1e-12);
  assert_double_equal(v.t2_sq, 1.0 / 3, 1e-12);
  assert_double_equal(v.t3_sq, 32 - (4.0 / 3) / 2.4, 1e-12);
  assert_double_equal(v.node_share, (32 - (4.0 / 3) / 2.4) / (2 + 1.0 / 3 + 32 - (4.0 / 3) / 2.4),
                      1e-12);
  /* The nodes are the top level: t(0.975, 1) sqrt(32 / 2). */
  assert_double_equal(v.half_width, 12.7062047 * 4, 1e-5);
  /* One run per node leaves no within-node runs to tell the levels apart. */
  const uint32_t each[] = {0, 1, 2, 3, 4};
  assert_int_equal(rigor_variance_components_nodes(y, 5, 2, each, 5, 0.95, &v), RIGOR_EINVAL);
  /* A node without a run, and a run on a node out of range. */
  assert_int_equal(rigor_variance_components_nodes(y, 5, 2, node, 3, 0.95, &v), RIGOR_EINVAL);
  const uint32_t past[] = {0, 0, 1, 1, 2};
  assert_int_equal(rigor_variance_components_nodes(y, 5, 2, past, 2, 0.95, &v), RIGOR_EINVAL);
  /* Two levels leave the node fields at zero. */
  assert_int_equal(rigor_variance_components(y, 5, 2, 0.95, &v), 0);
  assert_int_equal(v.nodes, 0);
  assert_double_equal(v.t3_sq, 0, 0);
}

static double gauss(rigor_rng_t *rng) {
  double u1 = rigor_rng_uniform(rng), u2 = rigor_rng_uniform(rng);
  return sqrt(-2 * log(1 - u1)) * cos(2 * M_PI * u2);
}

/* Unequal runs per node (2, 3 and 5) from known components T1^2 = 4, T2^2 = 1, T3^2 = 1 and 4
 * cycles: averaged over many draws, the estimates come back. With the arithmetic mean of the
 * run counts (3.33) in place of the harmonic one (2.90), T3^2 would average 1.09, not 1. */
static void test_kalibera_jones_nodes_unbiased(void **state) {
  (void)state;
  enum { RUNS = 10, CYCLES = 4, DRAWS = 20000 };
  const uint32_t node[RUNS] = {0, 0, 1, 1, 1, 2, 2, 2, 2, 2};
  rigor_rng_t rng;
  rigor_rng_seed(&rng, 42);
  double y[RUNS * CYCLES], t1 = 0, t2 = 0, t3 = 0;
  for (int d = 0; d < DRAWS; d++) {
    double at_node[3];
    for (int i = 0; i < 3; i++)
      at_node[i] = gauss(&rng);
    for (int j = 0; j < RUNS; j++) {
      double run = at_node[node[j]] + gauss(&rng);
      for (int k = 0; k < CYCLES; k++)
        y[j * CYCLES + k] = 100 + run + 2 * gauss(&rng);
    }
    rigor_variance_t v;
    assert_int_equal(rigor_variance_components_nodes(y, RUNS, CYCLES, node, 3, 0.95, &v), 0);
    t1 += v.t1_sq / DRAWS, t2 += v.t2_sq / DRAWS, t3 += v.t3_sq / DRAWS;
  }
  assert_double_equal(t1, 4, 0.05);
  assert_double_equal(t2, 1, 0.05);
  assert_double_equal(t3, 1, 0.04);
}

static void test_variance_suggestion(void **state) {
  (void)state;
  const double y[] = {9, 5, 8, 3, 10, 6, 7, 11, 1, 12, 2, 4};
  rigor_variance_t v;
  assert_int_equal(rigor_variance_components(y, 3, 4, 0.95, &v), 0);
  uint32_t cycles, runs;
  /* Equal costs: cycles = ceil(sqrt(12.7222 / 0.3819)) = ceil(5.77) = 6. */
  assert_int_equal(rigor_variance_suggest(&v, 1, 1, 1.0, 1000, 1000, &cycles, &runs), 0);
  assert_int_equal(cycles, 6);
  /* Expected between-run variance 0.3819 + 12.7222 / 6 = 2.5023; 12 runs give
   * t(0.975, 11) sqrt(2.5023 / 12) = 1.005 > 1, 13 runs give 0.956. */
  assert_int_equal(runs, 13);
}

static void test_student_t(void **state) {
  (void)state;
  assert_double_equal(rigor_student_t_quantile(0.975, 2), 4.302653, 1e-6);
  assert_double_equal(rigor_student_t_quantile(0.975, 30), 2.042272, 1e-6);
  assert_double_equal(rigor_student_t_cdf(0, 5), 0.5, 1e-12);
}

static void test_summary_nearest_rank(void **state) {
  (void)state;
  double x[20];
  for (int i = 0; i < 20; i++)
    x[i] = 20 - i; /* 20 .. 1 */
  rigor_summary_t s;
  assert_int_equal(rigor_stats_summarize(x, 20, &s), 0);
  assert_int_equal(s.n, 20);
  assert_double_equal(s.median, 10.5, 1e-12);
  assert_double_equal(s.p95, 19, 1e-12); /* ceil(0.95 * 20) = 19th smallest */
  assert_double_equal(s.p99, 20, 1e-12);
  assert_double_equal(s.min, 1, 1e-12);
  assert_double_equal(s.max, 20, 1e-12);
  assert_double_equal(s.mean, 10.5, 1e-12);
  assert_double_equal(s.sd, sqrt(399.0 / 12), 1e-12); /* population: (n^2 - 1) / 12 */
  assert_double_equal(s.cv, sqrt(399.0 / 12) / 10.5, 1e-12);
  double ten[10] = {5, 1, 2, 3, 4, 6, 7, 8, 9, 10};
  assert_int_equal(rigor_stats_summarize(ten, 10, &s), 0);
  assert_double_equal(s.p95, 10, 1e-12); /* ceil(9.5) = 10th */
  assert_double_equal(s.median, 5.5, 1e-12);
  assert_int_equal(rigor_stats_summarize(NULL, 0, &s), 0);
  assert_true(isnan(s.median));
}

static void test_first_cycle_penalty(void **state) {
  (void)state;
  const double t[] = {110, 100, 99, 101};
  assert_double_equal(rigor_stats_first_cycle_penalty(t, 4), 0.10, 1e-12);
  assert_true(isnan(rigor_stats_first_cycle_penalty(t, 1)));
}

static void test_holm(void **state) {
  (void)state;
  const double p[] = {0.01, 0.04, 0.03, NAN, 0.005};
  double adj[5];
  rigor_holm(p, 5, adj);
  assert_double_equal(adj[4], 0.02, 1e-12); /* 4 x 0.005 */
  assert_double_equal(adj[0], 0.03, 1e-12); /* 3 x 0.01 */
  assert_double_equal(adj[2], 0.06, 1e-12); /* 2 x 0.03 */
  assert_double_equal(adj[1], 0.06, 1e-12); /* max(1 x 0.04, 0.06): monotone */
  assert_true(isnan(adj[3]));
}

static void test_bootstrap_deterministic(void **state) {
  (void)state;
  double lo1, hi1, lo2, hi2;
  assert_int_equal(rigor_stats_bootstrap_median_ratio(A, 10, B, 10, 2000, 0.95, 42, &lo1, &hi1), 0);
  assert_int_equal(rigor_stats_bootstrap_median_ratio(A, 10, B, 10, 2000, 0.95, 42, &lo2, &hi2), 0);
  assert_double_equal(lo1, lo2, 0);
  assert_double_equal(hi1, hi2, 0);
  double ratio = 11.0 / 10.4;
  assert_true(lo1 <= ratio && ratio <= hi1);
  assert_true(lo1 > 1.0); /* b is clearly slower */
}

/* Three runs a side, ten cycles each: tight within a run, but the runs sit 3% apart. With no
 * difference between the sides, cycles taken as independent make the gap look certain; the
 * run-level interval does not. */
static void test_run_ratio(void **state) {
  (void)state;
  double base[30], cand[30];
  uint32_t run_b[30], run_c[30];
  const double levels_b[3] = {1.00, 1.03, 0.97}, levels_c[3] = {1.03, 1.06, 1.00};
  for (int i = 0; i < 30; i++) {
    run_b[i] = run_c[i] = (uint32_t)(i / 10);
    double wiggle = 1 + 0.001 * ((i * 7) % 10 - 5);
    base[i] = levels_b[i / 10] * wiggle;
    cand[i] = levels_c[i / 10] * wiggle;
  }
  rigor_run_ratio_t rr;
  assert_int_equal(rigor_stats_run_ratio(base, run_b, 30, cand, run_c, 30, 0.95, 0, &rr), 0);
  double ratio = rr.ratio, lo = rr.lo, hi = rr.hi, p = rr.p;
  assert_int_equal(rr.runs_base, 3);
  assert_int_equal(rr.runs_cand, 3);
  /* log means differ by log(1.03); run medians spread 3% a side; Welch df = 4. */
  assert_double_equal(ratio, 1.03, 0.0005);
  assert_true(lo < 1.0 && hi > 1.0);
  assert_true(p > 0.05);
  double iid_lo, iid_hi;
  rigor_stats_bootstrap_median_ratio(base, 30, cand, 30, 2000, 0.95, 42, &iid_lo, &iid_hi);
  assert_true(hi - lo > 2 * (iid_hi - iid_lo)); /* run-to-run variation widens it */
  rigor_mw_t mw;
  assert_int_equal(rigor_mann_whitney(base, 30, cand, 30, &mw), 0);
  assert_true(mw.p < 0.05); /* what treating cycles as independent would have claimed */

  /* A real 10% slowdown in every run is found. */
  for (int i = 0; i < 30; i++)
    cand[i] = base[i] * 1.10;
  assert_int_equal(rigor_stats_run_ratio(base, run_b, 30, cand, run_c, 30, 0.95, 0, &rr), 0);
  assert_double_equal(rr.ratio, 1.10, 1e-9);
  assert_true(rr.lo > 1.0);
  assert_true(rr.p < 0.05); /* t = 3.9 on 4 degrees of freedom: p = 0.018 */

  /* One run a side is refused: its variation between runs is unknown. */
  uint32_t one[30] = {0};
  assert_int_equal(rigor_stats_run_ratio(base, one, 30, cand, run_c, 30, 0.95, 0, &rr),
                   RIGOR_EINVAL);
  assert_int_equal(rr.runs_base, 1);
}

/* Paired log ratios of 12 blocks; expected values from scipy 1.17 (stats.ttest_1samp with its
 * confidence_interval, stats.wilcoxon). */
static const double D[] = {0.031, 0.027, 0.044, 0.019, 0.035, 0.029,
                           0.041, 0.022, 0.038, 0.030, 0.025, 0.033};
static const double MIXED[] = {0.8, -0.3, 1.2, 0.5, -0.9, 1.6, 0.2, 2.1};

static void test_paired_t(void **state) {
  (void)state;
  rigor_paired_t t;
  assert_int_equal(rigor_stats_paired(D, 12, 0.95, 0, &t), 0);
  assert_double_equal(t.mean, 0.0311666666667, 1e-12);
  assert_double_equal(t.sd, 0.00750555349947, 1e-12);
  assert_double_equal(t.lo, 0.0263978654865, 1e-9);
  assert_double_equal(t.hi, 0.0359354678469, 1e-9);
  assert_double_equal(t.p, 1.76982477421e-08, 1e-13);
  assert_false(t.floored);
  assert_int_equal(rigor_stats_paired(MIXED, 8, 0.95, 0, &t), 0);
  assert_double_equal(t.lo, -0.177618488057, 1e-9);
  assert_double_equal(t.hi, 1.47761848806, 1e-9);
  assert_double_equal(t.p, 0.105653681816, 1e-9);
  assert_int_equal(rigor_stats_paired(D, 1, 0.95, 0, &t), RIGOR_EINVAL);
}

/* Identical differences in every block (quantised timings) give no spread; the floor keeps the
 * interval from collapsing onto a point and the p-value from reading 0. */
static void test_paired_t_floor(void **state) {
  (void)state;
  const double same[] = {0.0296, 0.0296, 0.0296};
  rigor_paired_t t;
  assert_int_equal(rigor_stats_paired(same, 3, 0.95, 0, &t), 0);
  assert_double_equal(t.half_width, 0, 0);
  assert_double_equal(t.p, 0, 0);
  assert_int_equal(rigor_stats_paired(same, 3, 0.95, 0.03 / sqrt(6.0), &t), 0);
  assert_true(t.floored);
  assert_double_equal(t.se, 0.03 / sqrt(6.0), 1e-15);
  /* t(0.975, 2) = 4.3027: the interval reaches below zero and p is far from 0. */
  assert_double_equal(t.half_width, 4.302653 * 0.03 / sqrt(6.0), 1e-6);
  assert_true(t.lo < 0);
  assert_true(t.p > 0.05);
  const double grid[] = {1.00, 1.03, 1.00, 1.06, 1.03};
  assert_double_equal(rigor_quantum_of(grid, 5), 0.03, 1e-12);
  assert_double_equal(rigor_quantum_of(grid, 1), 0, 0);
}

static void test_signed_rank_exact(void **state) {
  (void)state;
  rigor_signrank_t w;
  assert_int_equal(rigor_signed_rank(D, 12, &w), 0);
  assert_true(w.exact);
  assert_double_equal(w.w_plus, 78, 1e-12);       /* every difference positive: 12 * 13 / 2 */
  assert_double_equal(w.p, 0.00048828125, 1e-15); /* 2 / 2^12 */
  assert_int_equal(rigor_signed_rank(MIXED, 8, &w), 0);
  assert_true(w.exact);
  assert_double_equal(w.w_plus, 29, 1e-12);
  assert_double_equal(w.p, 0.1484375, 1e-12);
  assert_double_equal(rigor_walsh_median(MIXED, 8), 0.65, 1e-12);
}

static int cmp_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The median of the Walsh averages, found without listing them, is the one the full list gives:
 * random vectors with and without ties, odd and even counts of averages, one value. */
static void test_walsh_median_against_the_full_list(void **state) {
  (void)state;
  unsigned seed = 12345;
  for (int trial = 0; trial < 300; trial++) {
    size_t n = 1 + (size_t)(trial % 61);
    double d[61], w[61 * 62 / 2];
    for (size_t i = 0; i < n; i++) {
      seed = seed * 1103515245u + 12345u;
      /* Every third trial draws from six values, so ties are common. */
      d[i] = trial % 3 == 0 ? (double)((seed >> 16) % 6) - 2.5
                            : ((double)((seed >> 8) % 2000001) - 1e6) * 1e-7;
    }
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
      for (size_t j = i; j < n; j++)
        w[m++] = 0.5 * (d[i] + d[j]);
    qsort(w, m, sizeof *w, cmp_doubles);
    double expected = m % 2 ? w[m / 2] : 0.5 * (w[m / 2 - 1] + w[m / 2]);
    assert_double_equal(rigor_walsh_median(d, n), expected, 0);
  }
}

/* Ties and zeros: the zeros are dropped (Wilcoxon), the ties take mid-ranks and the normal
 * approximation corrects its variance for them (scipy: zero_method='wilcox', correction=False,
 * method='approx'). */
static void test_signed_rank_ties_and_zeros(void **state) {
  (void)state;
  const double f[] = {0.5, -0.5, 1.0, 1.0, 0, 2.0, 1.5, -1.0, 2.0, 0.5, 3.0, 0};
  rigor_signrank_t w;
  assert_int_equal(rigor_signed_rank(f, 12, &w), 0);
  assert_false(w.exact);
  assert_int_equal(w.n, 10);
  assert_int_equal(w.n_zero, 2);
  assert_double_equal(w.w_plus, 48, 1e-12);
  assert_double_equal(w.p, 0.0355643790582, 1e-10);
  const double zeros[] = {0, 0, 0};
  assert_int_equal(rigor_signed_rank(zeros, 3, &w), 0);
  assert_double_equal(w.p, 1, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_mann_whitney_normal_with_ties),
      cmocka_unit_test(test_mann_whitney_exact),
      cmocka_unit_test(test_mann_whitney_identical_samples),
      cmocka_unit_test(test_hodges_lehmann),
      cmocka_unit_test(test_kalibera_jones),
      cmocka_unit_test(test_kalibera_jones_nodes),
      cmocka_unit_test(test_kalibera_jones_nodes_unbiased),
      cmocka_unit_test(test_variance_suggestion),
      cmocka_unit_test(test_student_t),
      cmocka_unit_test(test_summary_nearest_rank),
      cmocka_unit_test(test_first_cycle_penalty),
      cmocka_unit_test(test_holm),
      cmocka_unit_test(test_bootstrap_deterministic),
      cmocka_unit_test(test_run_ratio),
      cmocka_unit_test(test_paired_t),
      cmocka_unit_test(test_paired_t_floor),
      cmocka_unit_test(test_signed_rank_exact),
      cmocka_unit_test(test_walsh_median_against_the_full_list),
      cmocka_unit_test(test_signed_rank_ties_and_zeros),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

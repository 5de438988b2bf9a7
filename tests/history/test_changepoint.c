/* The change-point detector against reference values: Apache Otava 0.8.0 on fixed series
 * (bench/history/reference_values.py prints the series and the values below). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "changepoint.h"
#include "rigor/plugin.h"

typedef struct ref_point {
  size_t index;
  double p, change, magnitude;
} ref_point_t;

typedef struct ref_case {
  const char *name;
  const double *x;
  size_t n;
  double significance, min_magnitude;
  uint32_t window;
  const char *origin; /* "otava": its compute_change_points; "adjacent": its statistics, with
                         both neighbours of a dropped point re-tested (docs/methodology.md) */
  size_t n_points;
  ref_point_t points[4];
} ref_case_t;

/* Generated: series, then cases. */
static const double step60[] = {
    101.558, 102.633, 98.489,  98.287,  100.752, 103.467, 100.852, 97.759,  98.533,  99.953,
    101.926, 100.038, 99.349,  99.613,  100.395, 98.601,  100.064, 100.585, 103.276, 99.95,
    101.957, 98.044,  101.746, 100.379, 99.008,  100.015, 101.831, 99.43,   102.077, 103.049,
    108.408, 108.403, 102.453, 105.772, 103.667, 107.018, 105.223, 105.533, 106.023, 103.853,
    105.271, 103.59,  109.363, 104.133, 105.107, 101.439, 102.031, 103.349, 106.716, 106.662,
    105.655, 103.754, 108.889, 102.962, 103.312, 106.077, 103.023, 105.624, 107.075, 104.933,
};
static const double flat60[] = {
    100.872, 100.149, 98.748,  93.841,  97.675, 100.058, 96.844,  98.965,  100.479, 102.698,
    97.382,  99.03,   100.515, 101.107, 97.352, 103.733, 98.461,  102.215, 99.675,  100.875,
    103.359, 101.47,  100.328, 98.089,  98.779, 97.257,  104.054, 97.004,  94.984,  103.317,
    102.595, 99.359,  101.725, 98.443,  98.93,  101.062, 100.848, 99.164,  103.28,  101.527,
    100.344, 97.728,  100.34,  99.441,  99.917, 101.653, 98.93,   100.592, 101.647, 100.768,
    104.616, 96.608,  99.94,   97.717,  99.93,  105.052, 96.812,  99.482,  101.359, 100.244,
};
static const double two120[] = {
    101.876, 96.972,  101.994, 98.161,  97.641,  101.182, 101.003, 98.607,  98.43,   99.656,
    100.033, 99.715,  98.038,  95.442,  102.655, 100.395, 97.583,  96.93,   98.669,  99.22,
    95.813,  102.822, 100.888, 99.401,  100.735, 100.499, 102.149, 100.345, 102.546, 103.111,
    99.417,  99.138,  98.281,  99.574,  98.593,  100.054, 100.642, 101.102, 97.736,  102.185,
    109.357, 109.791, 108.911, 105.658, 110.591, 106.154, 112.454, 110.121, 113.445, 111.452,
    111.569, 113.094, 109.938, 113.398, 109.749, 110.593, 108.55,  111.217, 111.493, 108.926,
    107.223, 109.946, 110.95,  109.68,  107.891, 108.444, 109.444, 104.278, 108.741, 113.17,
    107.215, 109.545, 113.72,  111.575, 112.039, 109.701, 107.115, 116.326, 110.683, 110.548,
    107.935, 106.205, 104.642, 102.226, 104.198, 104.211, 103.111, 102.717, 102.436, 104.273,
    103.283, 105.367, 106.626, 105.173, 104.56,  107.761, 105.876, 101.443, 103.023, 104.919,
    102.685, 106.092, 100.869, 100.544, 106.553, 105.721, 101.183, 104.669, 107.307, 102.192,
    102.037, 101.98,  102.463, 100.9,   103.503, 101.493, 104.637, 109.157, 102.323, 106.396,
};
static const double noisy200[] = {
    104.667, 90.817,  100.452, 99.969,  98.675,  103.193, 98.261,  101.416, 98.462,  99.465,
    96.888,  109.071, 99.786,  95.549,  107.774, 106.286, 99.225,  97.397,  97.074,  104.927,
    98.705,  97.172,  103.363, 98.936,  99.794,  107.726, 103.449, 104.968, 101.673, 105.134,
    99.331,  103.847, 104.179, 98.367,  94.888,  102.141, 99.526,  102.43,  97.612,  102.115,
    103.839, 109.429, 107.125, 101.563, 105.729, 97.51,   104.684, 100.562, 105.308, 101.337,
    102.064, 100.093, 108.16,  103.247, 105.936, 104.982, 94.624,  105.485, 101.481, 104.617,
    104.985, 95.603,  101.714, 102.76,  104.6,   106.867, 100.213, 102.057, 105.564, 95.491,
    110.617, 99.129,  108.409, 103.601, 110.73,  107.278, 102.866, 96.048,  103.546, 104.338,
    105.241, 97.839,  99.616,  99.811,  104.159, 99.442,  102.525, 106.816, 101.281, 108.526,
    104.219, 101.993, 107.495, 105.034, 101.832, 100.596, 102.822, 104.423, 107.686, 104.114,
    100.473, 97.563,  104.054, 104.619, 107.648, 100.844, 97.704,  106.436, 102.302, 98.025,
    109.805, 106.648, 103.268, 104.154, 99.955,  107.068, 101.235, 101.162, 101.794, 98.346,
    109.366, 112.038, 108.252, 96.489,  103.799, 102.402, 106.63,  96.124,  96.07,   103.154,
    109.166, 104.281, 114.283, 101.531, 105.232, 104.452, 101.597, 109.707, 99.545,  100.66,
    103.555, 103.072, 109.785, 102.866, 107.166, 103.124, 110.406, 104.995, 106.164, 98.252,
    97.212,  92.144,  97.901,  96.472,  96.607,  98.796,  95.978,  91.262,  95.155,  95.203,
    90.142,  96.874,  100.075, 95.475,  94.992,  96.3,    98.689,  92.534,  98.145,  91.771,
    96.562,  96.509,  89.743,  97.034,  95.379,  88.298,  92.868,  92.209,  91.218,  96.121,
    91.589,  94.748,  90.481,  93.567,  101.416, 96.113,  88.72,   91.032,  94.037,  88.448,
    98.23,   94.403,  94.297,  94.757,  91.995,  90.268,  82.883,  88.474,  95.443,  97.12,
};
static const double last30[] = {
    99.636,  96.359, 99.331,  100.072, 97.431, 102.721, 97.775,  100.002, 97.838,  101.801,
    97.496,  98.217, 102.211, 97.501,  98.927, 101.074, 100.706, 96.522,  101.198, 99.419,
    102.423, 96.561, 101.518, 100.8,   99.249, 99.163,  100.766, 98.631,  99.309,  128.016,
};
static const double small10[] = {
    1.0, 1.1, 0.9, 1.0, 1.05, 2.0, 2.1, 1.9, 2.05, 2.0,
};
static const ref_case_t cases[] = {
    {"small10",
     small10,
     10,
     0.001,
     0,
     50,
     "otava",
     1,
     {{5, 1.021894731e-08, 9.900990099e-01, 9.900990099e-01}}},
    {"step60",
     step60,
     60,
     0.001,
     0,
     50,
     "otava",
     1,
     {{29, 1.799517469e-14, 4.727009349e-02, 4.727009349e-02}}},
    {"flat60", flat60, 60, 0.001, 0, 50, "otava", 0, {{0}}},
    {"last30",
     last30,
     30,
     0.001,
     0,
     50,
     "otava",
     1,
     {{29, 2.725962888e-15, 2.869689533e-01, 2.869689533e-01}}},
    {"step60", step60, 60, 0.001, 0.06, 50, "otava", 0, {{0}}},
    {"two120",
     two120,
     120,
     0.001,
     0,
     50,
     "otava",
     2,
     {{40, 6.020859934e-35, 1.036121113e-01, 1.036121113e-01},
      {81, 1.022838775e-19, -5.538674729e-02, 5.863431106e-02}}},
    {"two120",
     two120,
     120,
     0.001,
     0,
     20,
     "otava",
     2,
     {{40, 6.020859934e-35, 1.036121113e-01, 1.036121113e-01},
      {81, 1.022838775e-19, -5.538674729e-02, 5.863431106e-02}}},
    {"flat60", flat60, 60, 0.05, 0, 10, "otava", 0, {{0}}},
    {"noisy200",
     noisy200,
     200,
     0.001,
     0,
     50,
     "adjacent",
     1,
     {{149, 8.769858424e-30, -8.407683330e-02, 9.179463558e-02}}},
    {"noisy200",
     noisy200,
     200,
     0.01,
     0.02,
     30,
     "adjacent",
     3,
     {{41, 3.517205312e-04, 2.598643828e-02, 2.598643828e-02},
      {149, 3.085242362e-17, -7.703936074e-02, 8.346982250e-02},
      {175, 3.293672920e-03, -2.966418076e-02, 3.057104578e-02}}},
};

static void close_to(double got, double want, double rel, const char *what, const char *name) {
  if (fabs(got - want) > rel * fabs(want) + 1e-300)
    fail_msg("%s: %s %.9e, reference %.9e", name, what, got, want);
}

static void test_reference_values(void **state) {
  (void)state;
  for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
    const ref_case_t *c = &cases[k];
    rigor_cpd_opts_t o = {c->significance, c->min_magnitude, c->window};
    rigor_change_point_t *cp = NULL;
    size_t n = 99;
    assert_int_equal(rigor_change_points(c->x, c->n, &o, &cp, &n), 0);
    print_message("%-9s p %-6g magnitude %-4g window %-3u (%s): %zu change points\n", c->name,
                  c->significance, c->min_magnitude, c->window, c->origin, n);
    if (n != c->n_points) fail_msg("%s: %zu change points, reference %zu", c->name, n, c->n_points);
    for (size_t i = 0; i < n; i++) {
      assert_int_equal(cp[i].index, c->points[i].index);
      /* p-values down to 1e-35 come from the t distribution's tail: agree to 1e-6. */
      close_to(cp[i].p, c->points[i].p, 1e-6, "p", c->name);
      close_to(cp[i].change, c->points[i].change, 1e-8, "change", c->name);
      close_to(cp[i].magnitude, c->points[i].magnitude, 1e-8, "magnitude", c->name);
      assert_int_equal(cp[i].n_before + cp[i].n_after,
                       (i + 1 < n ? cp[i + 1].index : c->n) - (i ? cp[i - 1].index : 0));
    }
    free(cp);
  }
}

/* The same series gives the same points however often it is asked: no randomness. */
static void test_deterministic(void **state) {
  (void)state;
  rigor_cpd_opts_t o;
  rigor_cpd_opts_default(&o);
  o.significance = 0.01;
  rigor_change_point_t *a = NULL, *b = NULL;
  size_t na = 0, nb = 0;
  assert_int_equal(rigor_change_points(noisy200, 200, &o, &a, &na), 0);
  assert_int_equal(rigor_change_points(noisy200, 200, &o, &b, &nb), 0);
  assert_int_equal(na, nb);
  assert_true(na > 0);
  assert_memory_equal(a, b, na * sizeof *a);
  free(a), free(b);
}

static void test_edges(void **state) {
  (void)state;
  rigor_cpd_opts_t o;
  rigor_cpd_opts_default(&o);
  rigor_change_point_t *cp = (rigor_change_point_t *)1;
  size_t n = 7;
  /* Too short to split, and constant: nothing, and no NaN p-value let through. */
  const double one[] = {5.0}, flat[] = {3, 3, 3, 3, 3, 3, 3, 3};
  assert_int_equal(rigor_change_points(one, 1, &o, &cp, &n), 0);
  assert_int_equal(n, 0);
  assert_null(cp);
  assert_int_equal(rigor_change_points(flat, 8, &o, &cp, &n), 0);
  assert_int_equal(n, 0);
  /* Two constant levels: the change is certain (p 0) and exact. */
  const double steps[] = {2, 2, 2, 2, 2, 3, 3, 3, 3, 3};
  assert_int_equal(rigor_change_points(steps, 10, &o, &cp, &n), 0);
  assert_int_equal(n, 1);
  assert_int_equal(cp[0].index, 5);
  assert_true(cp[0].p == 0.0);
  assert_true(cp[0].change == 0.5);
  assert_true(fabs(cp[0].magnitude - 0.5) < 1e-15);
  free(cp);
  o.window = 1;
  assert_int_equal(rigor_change_points(steps, 10, &o, &cp, &n), RIGOR_EINVAL);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_reference_values),
      cmocka_unit_test(test_deterministic),
      cmocka_unit_test(test_edges),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Where spread and close put thread k of the pool or of OpenMP's team among the run's CPUs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "x280_bind.h"

static void test_spread_and_close_differ_below_the_cpu_count(void **state) {
  (void)state;
  const int cpus[] = {10, 11, 12, 13, 14, 15, 16, 17};
  int out[8];
  x280_bind_map(X280_BIND_SPREAD, cpus, 8, 2, out);
  assert_int_equal(out[0], 10);
  assert_int_equal(out[1], 14);
  x280_bind_map(X280_BIND_SPREAD, cpus, 8, 3, out);
  assert_int_equal(out[1], 12);
  assert_int_equal(out[2], 15);
  x280_bind_map(X280_BIND_CLOSE, cpus, 8, 3, out);
  assert_int_equal(out[0], 10);
  assert_int_equal(out[1], 11);
  assert_int_equal(out[2], 12);
}

static void test_both_agree_at_and_above_the_cpu_count(void **state) {
  (void)state;
  for (unsigned k = 0; k < 4; k++) {
    assert_int_equal(x280_bind_place(X280_BIND_SPREAD, k, 4, 4), k);
    assert_int_equal(x280_bind_place(X280_BIND_CLOSE, k, 4, 4), k);
  }
  const unsigned expected[] = {0, 0, 0, 1, 1, 1};
  for (unsigned k = 0; k < 6; k++) {
    assert_int_equal(x280_bind_place(X280_BIND_SPREAD, k, 6, 2), expected[k]);
    assert_int_equal(x280_bind_place(X280_BIND_CLOSE, k, 6, 2), expected[k]);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_spread_and_close_differ_below_the_cpu_count),
      cmocka_unit_test(test_both_agree_at_and_above_the_cpu_count),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <string.h>

#include <stdbool.h>

#include "rigor/plugin.h"
#include "envpad.h"

static char a[RIGOR_ENV_PAD_MAX + 1], b[RIGOR_ENV_PAD_MAX + 1];

static void test_same_seed_and_run_same_padding(void **state) {
  (void)state;
  size_t la = 0, lb = 0;
  assert_int_equal(rigor_env_pad(7, 3, a, sizeof a, &la), 0);
  assert_int_equal(rigor_env_pad(7, 3, b, sizeof b, &lb), 0);
  assert_int_equal(la, lb);
  assert_int_equal(strlen(a), la);
  assert_string_equal(a, b);
  for (size_t i = 0; i < la; i++)
    assert_int_equal(a[i], 'x');
}

static void test_lengths_spread_over_the_range(void **state) {
  (void)state;
  size_t len, min = RIGOR_ENV_PAD_MAX, max = 0, distinct_from_run0 = 0, first = 0;
  double sum = 0;
  for (uint32_t run = 0; run < 400; run++) {
    assert_int_equal(rigor_env_pad(42, run, a, sizeof a, &len), 0);
    assert_true(len <= RIGOR_ENV_PAD_MAX);
    if (run == 0) first = len;
    distinct_from_run0 += len != first;
    min = len < min ? len : min;
    max = len > max ? len : max;
    sum += (double)len;
  }
  assert_true(distinct_from_run0 > 390);
  assert_true(min < 400 && max > RIGOR_ENV_PAD_MAX - 400);
  double mean = sum / 400;
  assert_true(mean > 1700 && mean < 2400);
  /* Another seed gives another sequence. */
  size_t l42, l43;
  int differ = 0;
  for (uint32_t run = 0; run < 10; run++) {
    rigor_env_pad(42, run, a, sizeof a, &l42);
    rigor_env_pad(43, run, b, sizeof b, &l43);
    differ += l42 != l43;
  }
  assert_true(differ >= 8);
}

static void test_small_buffer_refused(void **state) {
  (void)state;
  size_t len = 99;
  assert_int_equal(rigor_env_pad(1, 1, a, RIGOR_ENV_PAD_MAX, &len), RIGOR_ERANGE);
  assert_int_equal(len, 99);
  assert_int_equal(rigor_env_pad(1, 1, NULL, 0, &len), RIGOR_EINVAL);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_same_seed_and_run_same_padding),
      cmocka_unit_test(test_lengths_spread_over_the_range),
      cmocka_unit_test(test_small_buffer_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

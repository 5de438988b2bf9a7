/* Where OpenMP's spread and close put thread k of a team over the run's CPUs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../stream_bind.h"

static void assert_places(stream_bind_t policy, int threads, int places, const int *expected) {
  for (int k = 0; k < threads; k++)
    if (stream_bind_place(policy, k, threads, places) != expected[k])
      fail_msg("policy %d, %d threads on %d places: thread %d at %d, expected %d", policy, threads,
               places, k, stream_bind_place(policy, k, threads, places), expected[k]);
}

static void test_spread_takes_the_start_of_each_share(void **state) {
  (void)state;
  assert_places(STREAM_BIND_SPREAD, 2, 8, (const int[]){0, 4});
  assert_places(STREAM_BIND_SPREAD, 3, 8, (const int[]){0, 2, 5});
  assert_places(STREAM_BIND_SPREAD, 4, 4, (const int[]){0, 1, 2, 3});
  assert_places(STREAM_BIND_SPREAD, 1, 2, (const int[]){0});
}

static void test_close_takes_consecutive_places(void **state) {
  (void)state;
  assert_places(STREAM_BIND_CLOSE, 2, 8, (const int[]){0, 1});
  assert_places(STREAM_BIND_CLOSE, 3, 8, (const int[]){0, 1, 2});
  assert_places(STREAM_BIND_CLOSE, 4, 4, (const int[]){0, 1, 2, 3});
}

static void test_more_threads_than_places_share_them_evenly(void **state) {
  (void)state;
  const int expected[] = {0, 0, 0, 0, 1, 1, 1, 1};
  assert_places(STREAM_BIND_SPREAD, 8, 2, expected);
  assert_places(STREAM_BIND_CLOSE, 8, 2, expected);
  assert_places(STREAM_BIND_CLOSE, 3, 2, (const int[]){0, 0, 1});
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_spread_takes_the_start_of_each_share),
      cmocka_unit_test(test_close_takes_consecutive_places),
      cmocka_unit_test(test_more_threads_than_places_share_them_evenly),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

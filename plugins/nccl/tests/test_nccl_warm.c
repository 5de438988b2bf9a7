/* The powers_of_two warm schedule: nccl-tests' TimeTest sizes, per series of points. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "nccl_tables.h"
#include "nccl_warm.h"

static nccl_params_t point(int32_t coll, int32_t dtype, uint64_t bytes, int32_t placement) {
  nccl_params_t p;
  memset(&p, 0, sizeof p);
  p.collective = coll;
  p.dtype = dtype;
  p.op = NCCL_OP_SUM;
  p.placement = placement;
  p.bytes = bytes;
  p.gpus_per_process = 1;
  p.device = -1;
  p.poll_timeout = 60;
  p.check_on = NCCL_CHECK_HOST;
  p.graph = true;
  return p;
}

static void test_every_doubling_between_the_sizes(void **state) {
  (void)state;
  /* The ch09 sweep: 1 MiB and 64 MiB, out and in. nccl-tests -b 1M -e 64M -f 64 warms seven. */
  nccl_params_t pts[] = {point(0, NCCL_DT_FLOAT, 1 << 20, NCCL_PLACE_OUT),
                         point(0, NCCL_DT_FLOAT, 1 << 20, NCCL_PLACE_IN),
                         point(0, NCCL_DT_FLOAT, 64 << 20, NCCL_PLACE_OUT),
                         point(0, NCCL_DT_FLOAT, 64 << 20, NCCL_PLACE_IN)};
  const nccl_params_t *ptrs[] = {&pts[0], &pts[1], &pts[2], &pts[3]};
  assert_int_equal(nccl_warm_schedule(ptrs, 4, NULL, 0), 7);
  nccl_params_t out[7];
  assert_int_equal(nccl_warm_schedule(ptrs, 4, out, 7), 7);
  for (int i = 0; i < 7; i++) {
    assert_int_equal(out[i].bytes, (uint64_t)1 << (20 + i));
    /* Out-of-place and without graphs, as nccl-tests warms; everything else as the sweep's. */
    assert_int_equal(out[i].placement, NCCL_PLACE_OUT);
    assert_false(out[i].graph);
    assert_int_equal(out[i].dtype, NCCL_DT_FLOAT);
    assert_int_equal(out[i].check_on, NCCL_CHECK_HOST);
  }
}

static void test_smallest_size_not_a_power_of_two(void **state) {
  (void)state;
  /* nccl-tests doubles from -b: 3000, 6000, 12000, then 24000 > 20000 stops. */
  nccl_params_t pts[] = {point(0, NCCL_DT_INT8, 20000, 0), point(0, NCCL_DT_INT8, 3000, 0)};
  const nccl_params_t *ptrs[] = {&pts[0], &pts[1]};
  nccl_params_t out[4];
  assert_int_equal(nccl_warm_schedule(ptrs, 2, out, 4), 3);
  assert_int_equal(out[0].bytes, 3000);
  assert_int_equal(out[1].bytes, 6000);
  assert_int_equal(out[2].bytes, 12000);
}

static void test_zero_then_from_one(void **state) {
  (void)state;
  nccl_params_t pts[] = {point(0, NCCL_DT_INT8, 0, 0), point(0, NCCL_DT_INT8, 4, 0)};
  const nccl_params_t *ptrs[] = {&pts[0], &pts[1]};
  nccl_params_t out[8];
  assert_int_equal(nccl_warm_schedule(ptrs, 2, out, 8), 4);
  uint64_t want[] = {0, 1, 2, 4};
  for (int i = 0; i < 4; i++)
    assert_int_equal(out[i].bytes, want[i]);
}

static void test_one_series_per_collective_and_type(void **state) {
  (void)state;
  /* Two types and two collectives: each series warms its own range, in the order it appears. */
  nccl_params_t pts[] = {point(NCCL_COLL_ALL_REDUCE, NCCL_DT_FLOAT, 1024, 0),
                         point(NCCL_COLL_ALL_REDUCE, NCCL_DT_HALF, 8192, 0),
                         point(NCCL_COLL_ALL_REDUCE, NCCL_DT_FLOAT, 4096, 0),
                         point(NCCL_COLL_BROADCAST, NCCL_DT_FLOAT, 2048, 0)};
  const nccl_params_t *ptrs[] = {&pts[0], &pts[1], &pts[2], &pts[3]};
  nccl_params_t out[8];
  assert_int_equal(nccl_warm_schedule(ptrs, 4, out, 8), 5);
  assert_int_equal(out[0].bytes, 1024);
  assert_int_equal(out[1].bytes, 2048);
  assert_int_equal(out[2].bytes, 4096);
  assert_int_equal(out[2].dtype, NCCL_DT_FLOAT);
  assert_int_equal(out[3].bytes, 8192);
  assert_int_equal(out[3].dtype, NCCL_DT_HALF);
  assert_int_equal(out[4].bytes, 2048);
  assert_int_equal(out[4].collective, NCCL_COLL_BROADCAST);
  /* A short array gets what fits, and the count still says how many there are. */
  assert_int_equal(nccl_warm_schedule(ptrs, 4, out, 2), 5);
  assert_int_equal(out[1].bytes, 2048);
}

static void test_largest_sizes_do_not_wrap(void **state) {
  (void)state;
  nccl_params_t pts[] = {point(0, NCCL_DT_INT8, UINT64_C(1) << 62, 0),
                         point(0, NCCL_DT_INT8, UINT64_MAX, 0)};
  const nccl_params_t *ptrs[] = {&pts[0], &pts[1]};
  nccl_params_t out[4];
  assert_int_equal(nccl_warm_schedule(ptrs, 2, out, 4), 2);
  assert_int_equal(out[1].bytes, UINT64_C(1) << 63);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_doubling_between_the_sizes),
      cmocka_unit_test(test_smallest_size_not_a_power_of_two),
      cmocka_unit_test(test_zero_then_from_one),
      cmocka_unit_test(test_one_series_per_collective_and_type),
      cmocka_unit_test(test_largest_sizes_do_not_wrap),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "nccl_layout.h"
#include "nccl_version.h"

static void expect_layout(nccl_coll_t coll, uint64_t bytes, size_t elt, int n, size_t send,
                          size_t recv, size_t param, size_t send_in, size_t recv_in) {
  nccl_layout_t l;
  nccl_layout_compute(coll, bytes, elt, n, &l);
  assert_int_equal(l.send_count, send);
  assert_int_equal(l.recv_count, recv);
  assert_int_equal(l.param_count, param);
  assert_int_equal(l.send_inplace_offset, send_in);
  assert_int_equal(l.recv_inplace_offset, recv_in);
}

static void test_whole_buffer_collectives(void **state) {
  (void)state;
  /* 1 MiB of float: 262144 elements, no per-rank split */
  nccl_coll_t colls[] = {NCCL_COLL_ALL_REDUCE, NCCL_COLL_BROADCAST, NCCL_COLL_REDUCE,
                         NCCL_COLL_SENDRECV};
  for (size_t i = 0; i < sizeof colls / sizeof colls[0]; i++)
    expect_layout(colls[i], 1 << 20, 4, 3, 262144, 262144, 262144, 0, 0);
  /* bytes that are not a multiple of the element size are truncated */
  expect_layout(NCCL_COLL_ALL_REDUCE, 1001, 8, 2, 125, 125, 125, 0, 0);
}

static void test_split_collectives_round_to_16_bytes(void **state) {
  (void)state;
  /* float, 3 ranks: 262144 / 3 = 87381, rounded down to a multiple of 4 elements = 87380 */
  expect_layout(NCCL_COLL_ALL_GATHER, 1 << 20, 4, 3, 87380, 262140, 87380, 87380, 0);
  expect_layout(NCCL_COLL_GATHER, 1 << 20, 4, 3, 87380, 262140, 87380, 87380, 0);
  expect_layout(NCCL_COLL_REDUCE_SCATTER, 1 << 20, 4, 3, 262140, 87380, 87380, 0, 87380);
  expect_layout(NCCL_COLL_SCATTER, 1 << 20, 4, 3, 262140, 87380, 87380, 0, 87380);
  expect_layout(NCCL_COLL_ALLTOALL, 1 << 20, 4, 3, 262140, 262140, 87380, 0, 0);
  /* int8, 1000 bytes over 3 ranks: 333 -> 320 (16 elements); double: 41 -> 40 (2 elements) */
  expect_layout(NCCL_COLL_ALLTOALL, 1000, 1, 3, 960, 960, 320, 0, 0);
  expect_layout(NCCL_COLL_ALL_GATHER, 1000, 8, 3, 40, 120, 40, 40, 0);
  /* smaller than 16 bytes per rank: nothing moves */
  expect_layout(NCCL_COLL_ALLTOALL, 60, 4, 4, 0, 0, 0, 0, 0);
}

static void test_reported_bytes_follow_nccl_tests_bandwidth_counts(void **state) {
  (void)state;
  /* nccl-tests divides count * typesize (times nranks for the split family) by time for algbw;
   * the reported max(send, recv) must be that same byte count. */
  int ranks[] = {1, 2, 3, 4, 8, 16};
  size_t elts[] = {1, 2, 4, 8};
  for (int c = 0; c < NCCL_COLL_COUNT; c++) {
    bool split = c == NCCL_COLL_ALL_GATHER || c == NCCL_COLL_REDUCE_SCATTER ||
                 c == NCCL_COLL_ALLTOALL || c == NCCL_COLL_GATHER || c == NCCL_COLL_SCATTER;
    for (size_t r = 0; r < sizeof ranks / sizeof ranks[0]; r++) {
      for (size_t e = 0; e < sizeof elts / sizeof elts[0]; e++) {
        nccl_layout_t l;
        nccl_layout_compute((nccl_coll_t)c, 64u << 20, elts[e], ranks[r], &l);
        uint64_t expected = (uint64_t)l.param_count * elts[e] * (split ? (uint64_t)ranks[r] : 1);
        assert_int_equal(nccl_layout_bytes(&l, elts[e]), expected);
      }
    }
  }
  nccl_layout_t l;
  nccl_layout_compute(NCCL_COLL_ALL_GATHER, 1 << 20, 4, 3, &l);
  assert_int_equal(nccl_layout_bytes(&l, 4), 1048560);
}

static void test_bus_factors(void **state) {
  (void)state;
  int ranks[] = {1, 2, 3, 4, 8, 16};
  for (size_t i = 0; i < sizeof ranks / sizeof ranks[0]; i++) {
    double n = ranks[i];
    assert_float_equal(nccl_bus_factor(NCCL_COLL_ALL_REDUCE, ranks[i]), 2 * (n - 1) / n, 1e-15);
    nccl_coll_t split[] = {NCCL_COLL_ALL_GATHER, NCCL_COLL_REDUCE_SCATTER, NCCL_COLL_ALLTOALL,
                           NCCL_COLL_GATHER, NCCL_COLL_SCATTER};
    for (size_t c = 0; c < 5; c++)
      assert_float_equal(nccl_bus_factor(split[c], ranks[i]), (n - 1) / n, 1e-15);
    nccl_coll_t one[] = {NCCL_COLL_BROADCAST, NCCL_COLL_REDUCE, NCCL_COLL_SENDRECV};
    for (size_t c = 0; c < 3; c++)
      assert_float_equal(nccl_bus_factor(one[c], ranks[i]), 1.0, 0.0);
  }
  assert_float_equal(nccl_bus_factor(NCCL_COLL_ALL_REDUCE, 4), 1.5, 0.0);
  assert_float_equal(nccl_bus_factor(NCCL_COLL_ALL_GATHER, 8), 0.875, 0.0);
}

static void test_rotation_steps_through_the_allocation(void **state) {
  (void)state;
  uint64_t mib = 1 << 20;
  for (uint64_t i = 0; i < 64; i++)
    assert_int_equal(nccl_rotation_offset(mib, 64 * mib, i), i * mib);
  assert_int_equal(nccl_rotation_offset(mib, 64 * mib, 64), 0);
  assert_int_equal(nccl_rotation_offset(mib, 64 * mib, 130), 2 * mib);
  /* the largest size has one slot; sizes that do not divide the allocation stay inside it */
  assert_int_equal(nccl_rotation_offset(64 * mib, 64 * mib, 7), 0);
  assert_int_equal(nccl_rotation_offset(40 * mib, 64 * mib, 1), 0);
  assert_int_equal(nccl_rotation_offset(3, 10, 2), 6);
  assert_int_equal(nccl_rotation_offset(3, 10, 3), 0);
  assert_int_equal(nccl_rotation_offset(0, 10, 5), 0);
}

static void test_version_format(void **state) {
  (void)state;
  char text[32];
  nccl_version_format(22809, text, sizeof text);
  assert_string_equal(text, "2.28.9");
  nccl_version_format(22203, text, sizeof text);
  assert_string_equal(text, "2.22.3");
  nccl_version_format(2708, text, sizeof text);
  assert_string_equal(text, "2.7.8");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_whole_buffer_collectives),
      cmocka_unit_test(test_split_collectives_round_to_16_bytes),
      cmocka_unit_test(test_reported_bytes_follow_nccl_tests_bandwidth_counts),
      cmocka_unit_test(test_bus_factors),
      cmocka_unit_test(test_rotation_steps_through_the_allocation),
      cmocka_unit_test(test_version_format),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

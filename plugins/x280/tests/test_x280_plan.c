/* The partition and placement arithmetic: every word is walked exactly once, chunks are taken in
 * turn, and the output lies where the layout says. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rigor/plugin.h"
#include "x280_plan.h"

static x280_params_t params(uint64_t words, uint64_t cores, uint64_t cpc, x280_layout_t layout) {
  return (x280_params_t){.pattern = X280_MAP,
                         .layout = layout,
                         .words = words,
                         .alias_stride = 128 * 1024,
                         .cores = cores,
                         .cores_per_cluster = cpc,
                         .rounds = 16,
                         .seed = 1};
}

static void assert_partition(const x280_plan_t *plan) {
  unsigned char *seen = calloc(plan->words, 1);
  assert_non_null(seen);
  for (unsigned t = 0; t < plan->threads; t++) {
    x280_walk_t walk = x280_plan_walk(plan, t);
    for (size_t ch = walk.first; ch < walk.end; ch += walk.step) {
      size_t w0, w1;
      x280_plan_chunk_words(plan, ch, &w0, &w1);
      for (size_t w = w0; w < w1; w++)
        seen[w]++;
    }
  }
  for (size_t w = 0; w < plan->words; w++)
    if (seen[w] != 1)
      fail_msg("words=%zu threads=%u clusters=%u layout=%d: word %zu walked %u times", plan->words,
               plan->threads, plan->clusters, (int)plan->layout, w, seen[w]);
  free(seen);
}

static void test_every_word_once(void **state) {
  (void)state;
  const uint64_t sizes[] = {1, 1023, 1024, 1025, 4096 * 3 + 5, 65536, 262147};
  const uint64_t cores[] = {1, 2, 3, 4, 12};
  const uint64_t cpcs[] = {0, 1, 4};
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
    for (size_t j = 0; j < sizeof cores / sizeof *cores; j++)
      for (size_t k = 0; k < sizeof cpcs / sizeof *cpcs; k++)
        for (int layout = X280_CHUNKS; layout <= X280_ALIASED; layout++) {
          x280_params_t p = params(sizes[i], cores[j], cpcs[k], (x280_layout_t)layout);
          x280_plan_t plan;
          char why[128];
          if (x280_plan_make(&plan, &p, why, sizeof why) != 0) {
            /* Only a cluster without a single chunk may be refused. */
            assert_string_equal(why, "fewer chunks than clusters: raise words or "
                                     "cores_per_cluster");
            assert_true(cpcs[k] != 0 && (cores[j] + cpcs[k] - 1) / cpcs[k] > plan.chunks);
            continue;
          }
          assert_partition(&plan);
        }
}

static void test_chunks_taken_in_turn(void **state) {
  (void)state;
  x280_params_t p = params(65536, 4, 0, X280_CHUNKS);
  x280_plan_t plan;
  char why[128];
  assert_int_equal(x280_plan_make(&plan, &p, why, sizeof why), 0);
  assert_int_equal(plan.chunks, 64);
  for (unsigned t = 0; t < 4; t++) {
    x280_walk_t walk = x280_plan_walk(&plan, t);
    assert_int_equal(walk.first, t);
    assert_int_equal(walk.step, 4);
    assert_int_equal(walk.end, 64);
  }
}

static void test_quarters_are_contiguous(void **state) {
  (void)state;
  x280_params_t p = params(65536, 4, 0, X280_QUARTERS);
  x280_plan_t plan;
  char why[128];
  assert_int_equal(x280_plan_make(&plan, &p, why, sizeof why), 0);
  for (unsigned t = 0; t < 4; t++) {
    x280_walk_t walk = x280_plan_walk(&plan, t);
    assert_int_equal(walk.first, 16 * t);
    assert_int_equal(walk.end, 16 * (t + 1));
    assert_int_equal(walk.step, 1);
  }
}

static void test_clusters_own_blocks(void **state) {
  (void)state;
  x280_params_t p = params(65536, 12, 4, X280_CHUNKS);
  x280_plan_t plan;
  char why[128];
  assert_int_equal(x280_plan_make(&plan, &p, why, sizeof why), 0);
  assert_int_equal(plan.clusters, 3);
  size_t first, end;
  x280_plan_block(&plan, 1, &first, &end);
  assert_int_equal(first, 21);
  assert_int_equal(end, 42);
  /* Core 5 is the second core of cluster 1: chunks 22, 26, ... of that block. */
  x280_walk_t walk = x280_plan_walk(&plan, 5);
  assert_int_equal(walk.first, 22);
  assert_int_equal(walk.step, 4);
  assert_int_equal(walk.end, 42);
}

static void test_output_placement(void **state) {
  (void)state;
  const uint64_t stride = 128 * 1024;
  const uint64_t sizes[] = {1, 16384, 65536, 65537, 1048576};
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
    for (int layout = X280_CHUNKS; layout <= X280_ALIASED; layout++) {
      x280_params_t p = params(sizes[i], 2, 0, (x280_layout_t)layout);
      x280_plan_t plan;
      char why[128];
      assert_int_equal(x280_plan_make(&plan, &p, why, sizeof why), 0);
      assert_true(plan.out_offset >= sizes[i] * 4);
      size_t expected = layout == X280_ALIASED ? 0 : stride / 2;
      assert_int_equal(plan.out_offset % stride, expected);
      assert_true(plan.sums_offset >= plan.out_offset + sizes[i] * 4);
      assert_true(plan.arena_bytes >= plan.sums_offset + plan.chunks * 4);
    }
  }
  /* The seed's arrays: 262,144 words, the output 1 MiB + 64 KiB from the input. */
  x280_params_t p = params(262144, 1, 0, X280_CHUNKS);
  x280_plan_t plan;
  char why[128];
  assert_int_equal(x280_plan_make(&plan, &p, why, sizeof why), 0);
  assert_int_equal(plan.out_offset, (1u << 20) + (64u << 10));
}

static void test_refusals(void **state) {
  (void)state;
  x280_plan_t plan;
  char why[128];
  x280_params_t p = params(0, 1, 0, X280_CHUNKS);
  assert_int_equal(x280_plan_make(&plan, &p, why, sizeof why), RIGOR_EINVAL);
  assert_string_equal(why, "words must be at least 1");
  p = params(1024, 1, 0, X280_CHUNKS);
  p.alias_stride = 100;
  assert_int_equal(x280_plan_make(&plan, &p, why, sizeof why), RIGOR_EINVAL);
  assert_string_equal(why, "alias_stride must be a positive multiple of 128 bytes");
  p = params(1024, 2, 1, X280_CHUNKS);
  assert_int_equal(x280_plan_make(&plan, &p, why, sizeof why), RIGOR_EINVAL);
  assert_string_equal(why, "fewer chunks than clusters: raise words or cores_per_cluster");
}

static void test_serial_scan_uses_one_core(void **state) {
  (void)state;
  x280_params_t p = params(65536, 4, 2, X280_CHUNKS);
  p.pattern = X280_PREFIX_SUM_SERIAL;
  x280_plan_t plan;
  char why[128];
  assert_int_equal(x280_plan_make(&plan, &p, why, sizeof why), 0);
  assert_int_equal(plan.threads, 1);
  assert_int_equal(plan.clusters, 1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_word_once),           cmocka_unit_test(test_chunks_taken_in_turn),
      cmocka_unit_test(test_quarters_are_contiguous),   cmocka_unit_test(test_clusters_own_blocks),
      cmocka_unit_test(test_output_placement),          cmocka_unit_test(test_refusals),
      cmocka_unit_test(test_serial_scan_uses_one_core),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

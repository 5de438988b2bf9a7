#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "plan.h"
#include "rng.h"
#include "rigor/plugin.h"

static rigor_schedule_t build(const char *design, uint32_t n, uint32_t blocks, uint64_t seed,
                              bool randomize) {
  rigor_order_t o = {.design = rigor_design_find(design),
                     .replicates = blocks,
                     .seed = seed,
                     .randomize = randomize};
  rigor_schedule_t s;
  assert_int_equal(rigor_plan_build(&o, n, &s), 0);
  assert_int_equal(s.n_blocks, blocks);
  assert_int_equal(s.n_variants, n);
  return s;
}

static uint32_t cell(const rigor_schedule_t *s, uint32_t b, uint32_t p) {
  return s->cells[(size_t)b * s->n_variants + p];
}

static void assert_blocks_are_permutations(const rigor_schedule_t *s) {
  uint32_t n = s->n_variants;
  uint8_t *seen = calloc(n, 1);
  for (uint32_t b = 0; b < s->n_blocks; b++) {
    memset(seen, 0, n);
    for (uint32_t p = 0; p < n; p++) {
      uint32_t v = cell(s, b, p);
      assert_true(v < n);
      assert_int_equal(seen[v], 0);
      seen[v] = 1;
    }
  }
  free(seen);
}

/* Over `blocks` rows, every variant sits in every position exactly `each` times. */
static void assert_positions_balanced(const rigor_schedule_t *s, uint32_t from, uint32_t blocks,
                                      uint32_t each) {
  uint32_t n = s->n_variants;
  uint32_t *count = calloc((size_t)n * n, sizeof *count);
  for (uint32_t b = from; b < from + blocks; b++)
    for (uint32_t p = 0; p < n; p++)
      count[cell(s, b, p) * n + p]++;
  for (size_t i = 0; i < (size_t)n * n; i++)
    assert_int_equal(count[i], each);
  free(count);
}

/* Every ordered pair (a immediately followed by b, a != b) occurs exactly `each` times. */
static void assert_carryover_balanced(const rigor_schedule_t *s, uint32_t from, uint32_t blocks,
                                      uint32_t each) {
  uint32_t n = s->n_variants;
  uint32_t *count = calloc((size_t)n * n, sizeof *count);
  for (uint32_t b = from; b < from + blocks; b++)
    for (uint32_t p = 0; p + 1 < n; p++)
      count[cell(s, b, p) * n + cell(s, b, p + 1)]++;
  for (uint32_t a = 0; a < n; a++)
    for (uint32_t b = 0; b < n; b++)
      assert_int_equal(count[a * n + b], a == b ? 0 : each);
  free(count);
}

static void test_sequential_and_mirrored(void **state) {
  (void)state;
  rigor_schedule_t s = build("sequential", 3, 2, 0, false);
  const uint32_t seq[] = {0, 1, 2, 0, 1, 2};
  assert_memory_equal(s.cells, seq, sizeof seq);
  assert_int_equal(s.square_rows, 0);
  assert_false(s.incomplete);
  rigor_schedule_free(&s);

  /* The seed's blocking order: z0 z1 z2 z3, then z3 z2 z1 z0. */
  s = build("mirrored", 4, 3, 0, false);
  const uint32_t mir[] = {0, 1, 2, 3, 3, 2, 1, 0, 0, 1, 2, 3};
  assert_memory_equal(s.cells, mir, sizeof mir);
  /* Mean position is equal for every variant over an even number of blocks. */
  rigor_schedule_free(&s);
  s = build("mirrored", 5, 2, 0, false);
  for (uint32_t v = 0; v < 5; v++) {
    uint32_t sum = 0;
    for (uint32_t b = 0; b < 2; b++)
      for (uint32_t p = 0; p < 5; p++)
        sum += cell(&s, b, p) == v ? p : 0;
    assert_int_equal(sum, 4);
  }
  rigor_schedule_free(&s);
}

static void test_latin_is_the_seed_square(void **state) {
  (void)state;
  /* w0 w1 w5 w20 / w1 w5 w20 w0 / w5 w20 w0 w1 / w20 w0 w1 w5 */
  rigor_schedule_t s = build("latin", 4, 4, 0, false);
  const uint32_t expect[] = {0, 1, 2, 3, 1, 2, 3, 0, 2, 3, 0, 1, 3, 0, 1, 2};
  assert_memory_equal(s.cells, expect, sizeof expect);
  assert_int_equal(s.square_rows, 4);
  assert_false(s.incomplete);
  rigor_schedule_free(&s);
}

static void test_latin_balances_positions(void **state) {
  (void)state;
  for (uint32_t n = 1; n <= 9; n++) {
    rigor_schedule_t s = build("latin", n, 2 * n, 0, false);
    assert_blocks_are_permutations(&s);
    assert_positions_balanced(&s, 0, n, 1);
    assert_positions_balanced(&s, 0, 2 * n, 2);
    rigor_schedule_free(&s);
  }
}

static void test_cyclic_latin_does_not_balance_carryover(void **state) {
  (void)state;
  /* In a cyclic square, variant v is always followed by v+1: carryover is confounded. */
  rigor_schedule_t s = build("latin", 4, 4, 0, false);
  for (uint32_t b = 0; b < 4; b++)
    for (uint32_t p = 0; p + 1 < 4; p++)
      assert_int_equal(cell(&s, b, p + 1), (cell(&s, b, p) + 1) % 4);
  rigor_schedule_free(&s);
}

static void test_williams_even(void **state) {
  (void)state;
  rigor_schedule_t s = build("williams", 4, 4, 0, false);
  /* f = 0, 1, 3, 2; row i = f + i (mod 4). */
  const uint32_t expect[] = {0, 1, 3, 2, 1, 2, 0, 3, 2, 3, 1, 0, 3, 0, 2, 1};
  assert_memory_equal(s.cells, expect, sizeof expect);
  assert_int_equal(s.square_rows, 4);
  rigor_schedule_free(&s);
  for (uint32_t n = 2; n <= 12; n += 2) {
    s = build("williams", n, n, 0, false);
    assert_blocks_are_permutations(&s);
    assert_positions_balanced(&s, 0, n, 1);
    assert_carryover_balanced(&s, 0, n, 1);
    rigor_schedule_free(&s);
  }
}

static void test_williams_odd_uses_two_squares(void **state) {
  (void)state;
  for (uint32_t n = 3; n <= 11; n += 2) {
    rigor_schedule_t s = build("williams", n, 2 * n, 0, false);
    assert_int_equal(s.square_rows, 2 * n);
    assert_false(s.incomplete);
    assert_blocks_are_permutations(&s);
    assert_positions_balanced(&s, 0, 2 * n, 2);
    assert_carryover_balanced(&s, 0, 2 * n, 2);
    rigor_schedule_free(&s);
  }
  rigor_schedule_t s = build("williams", 3, 6, 0, false);
  const uint32_t expect[] = {0, 1, 2, 1, 2, 0, 2, 0, 1, 2, 1, 0, 0, 2, 1, 1, 0, 2};
  assert_memory_equal(s.cells, expect, sizeof expect);
  rigor_schedule_free(&s);
}

static void test_incomplete_square_is_flagged(void **state) {
  (void)state;
  rigor_schedule_t s = build("latin", 4, 6, 0, false);
  assert_true(s.incomplete);
  rigor_schedule_free(&s);
  s = build("williams", 3, 3, 0, false);
  assert_true(s.incomplete);
  rigor_schedule_free(&s);
  s = build("williams", 3, 12, 0, false);
  assert_false(s.incomplete);
  rigor_schedule_free(&s);
}

static void test_randomized_squares_keep_balance(void **state) {
  (void)state;
  for (uint64_t seed = 1; seed <= 20; seed++) {
    rigor_schedule_t s = build("latin", 5, 10, seed, true);
    assert_blocks_are_permutations(&s);
    assert_positions_balanced(&s, 0, 5, 1);
    assert_positions_balanced(&s, 5, 5, 1);
    rigor_schedule_free(&s);
    s = build("williams", 6, 12, seed, true);
    assert_blocks_are_permutations(&s);
    assert_positions_balanced(&s, 0, 6, 1);
    assert_carryover_balanced(&s, 0, 6, 1);
    assert_carryover_balanced(&s, 6, 6, 1);
    rigor_schedule_free(&s);
    s = build("williams", 5, 10, seed, true);
    assert_positions_balanced(&s, 0, 10, 2);
    assert_carryover_balanced(&s, 0, 10, 2);
    rigor_schedule_free(&s);
  }
  /* Randomising actually changes the order. */
  rigor_schedule_t plain = build("williams", 6, 6, 3, false);
  rigor_schedule_t shuffled = build("williams", 6, 6, 3, true);
  assert_memory_not_equal(plain.cells, shuffled.cells, 36 * sizeof(uint32_t));
  rigor_schedule_free(&plain);
  rigor_schedule_free(&shuffled);
}

static void test_seed_reproduces_schedule(void **state) {
  (void)state;
  rigor_schedule_t s = build("random", 4, 3, 7, false);
  const uint32_t expect[] = {3, 1, 2, 0, 3, 0, 2, 1, 1, 0, 3, 2};
  assert_memory_equal(s.cells, expect, sizeof expect);
  assert_blocks_are_permutations(&s);
  rigor_schedule_t again = build("random", 4, 3, 7, false);
  assert_memory_equal(s.cells, again.cells, 12 * sizeof(uint32_t));
  rigor_schedule_t other = build("random", 4, 3, 8, false);
  assert_memory_not_equal(s.cells, other.cells, 12 * sizeof(uint32_t));
  rigor_schedule_free(&s);
  rigor_schedule_free(&again);
  rigor_schedule_free(&other);
  rigor_schedule_t lat = build("latin", 4, 4, 7, true);
  const uint32_t expect_latin[] = {1, 2, 3, 0, 0, 1, 2, 3, 3, 0, 1, 2, 2, 3, 0, 1};
  assert_memory_equal(lat.cells, expect_latin, sizeof expect_latin);
  rigor_schedule_free(&lat);
}

static void test_adding_blocks_keeps_earlier_ones(void **state) {
  (void)state;
  const char *const designs[] = {"random", "latin", "williams", "mirrored"};
  for (size_t d = 0; d < 4; d++) {
    bool randomize = rigor_design_find(designs[d])->randomisable;
    rigor_schedule_t few = build(designs[d], 5, 3, 99, randomize);
    rigor_schedule_t many = build(designs[d], 5, 40, 99, randomize);
    assert_memory_equal(few.cells, many.cells, 15 * sizeof(uint32_t));
    assert_blocks_are_permutations(&many);
    rigor_schedule_free(&few);
    rigor_schedule_free(&many);
  }
}

static void test_random_positions_are_roughly_uniform(void **state) {
  (void)state;
  rigor_schedule_t s = build("random", 4, 4000, 1, false);
  uint32_t count[4][4] = {{0}};
  for (uint32_t b = 0; b < 4000; b++)
    for (uint32_t p = 0; p < 4; p++)
      count[cell(&s, b, p)][p]++;
  for (int v = 0; v < 4; v++)
    for (int p = 0; p < 4; p++)
      assert_in_range(count[v][p], 900, 1100);
  rigor_schedule_free(&s);
}

static void test_rng_reference_values(void **state) {
  (void)state;
  /* SplitMix64 seeded with 0 gives 0xe220a8397b1dcdaf first (Vigna's reference). */
  rigor_rng_t rng;
  rigor_rng_seed(&rng, 0);
  assert_true(rng.s[0] == UINT64_C(0xe220a8397b1dcdaf));
  uint64_t first = rigor_rng_next(&rng);
  rigor_rng_seed(&rng, 0);
  assert_true(rigor_rng_next(&rng) == first);
  for (int i = 0; i < 1000; i++) {
    assert_true(rigor_rng_below(&rng, 7) < 7);
    double u = rigor_rng_uniform(&rng);
    assert_true(u >= 0 && u < 1);
  }
  assert_int_equal(rigor_rng_below(&rng, 1), 0);
}

static void test_invalid_arguments(void **state) {
  (void)state;
  rigor_schedule_t s;
  rigor_order_t o = {.design = rigor_design_find("latin"), .replicates = 0};
  assert_int_equal(rigor_plan_build(&o, 3, &s), RIGOR_EINVAL);
  o.replicates = 1;
  assert_int_equal(rigor_plan_build(&o, 0, &s), RIGOR_EINVAL);
  o.design = NULL;
  assert_int_equal(rigor_plan_build(&o, 3, &s), RIGOR_EINVAL);
  assert_null(rigor_design_find("latinx"));
}

/* The designs table: one entry per design, and what config and analysis read from it. */
static void test_designs_table(void **state) {
  (void)state;
  const char *const *names = rigor_design_names();
  const char *const expected[] = {"sequential", "mirrored", "latin", "williams", "random", NULL};
  for (size_t i = 0; expected[i]; i++)
    assert_string_equal(names[i], expected[i]);
  assert_null(names[5]);
  assert_true(rigor_design_find("williams")->balances_carryover);
  assert_false(rigor_design_find("latin")->balances_carryover);
  assert_false(rigor_design_find("sequential")->balances_position);
  assert_true(rigor_design_find("latin")->randomisable);
  assert_false(rigor_design_find("random")->randomisable);
  assert_int_equal(rigor_design_find("williams")->square_rows(5), 10);
  assert_int_equal(rigor_design_find("williams")->square_rows(4), 4);
  assert_null(rigor_design_find("mirrored")->square_rows);
}

/* The arms' order inside a run's cycles (order.interleave). */
static rigor_interleave_t arm_order(uint32_t k, uint32_t blocks, uint64_t seed) {
  rigor_order_t o = {.design = rigor_design_find("williams"), .replicates = blocks, .seed = seed};
  rigor_interleave_t il = {.n_arms = k};
  assert_int_equal(rigor_interleave_order(&o, blocks, &il), 0);
  return il;
}

static const uint32_t *arm_row(const rigor_interleave_t *il, uint32_t b, uint32_t c) {
  return il->square + (size_t)((c + il->offsets[b]) % il->square_rows) * il->n_arms;
}

/* Two arms: AB on one cycle, BA on the next (ABBA/BAAB), and consecutive blocks start with
 * the other arm. */
static void test_two_arms_alternate(void **state) {
  (void)state;
  for (uint64_t seed = 0; seed < 8; seed++) {
    rigor_interleave_t il = arm_order(2, 6, seed);
    assert_int_equal(il.square_rows, 2);
    assert_string_equal(rigor_interleave_order_name(&il), "abba");
    for (uint32_t b = 0; b < 6; b++)
      for (uint32_t c = 0; c < 5; c++) {
        const uint32_t *row = arm_row(&il, b, c);
        assert_int_not_equal(row[0], row[1]);
        assert_int_not_equal(row[0], arm_row(&il, b, c + 1)[0]);
        if (b > 0) assert_int_not_equal(arm_row(&il, b, 0)[0], arm_row(&il, b - 1, 0)[0]);
      }
    rigor_interleave_free(&il);
  }
}

/* More arms: the rows are a Williams square (each arm once per row, at each slot equally often,
 * after each other arm equally often), and the offsets do not depend on how many blocks. */
static void test_more_arms_take_williams_rows(void **state) {
  (void)state;
  for (uint32_t k = 3; k <= 5; k++) {
    rigor_interleave_t il = arm_order(k, 9, 42);
    assert_string_equal(rigor_interleave_order_name(&il), "williams");
    uint32_t rows = il.square_rows;
    assert_int_equal(rows, k % 2 ? 2 * k : k);
    uint32_t *at = calloc((size_t)k * k, sizeof *at), *after = calloc((size_t)k * k, sizeof *at);
    for (uint32_t r = 0; r < rows; r++) {
      const uint32_t *row = il.square + (size_t)r * k;
      for (uint32_t slot = 0; slot < k; slot++) {
        at[row[slot] * k + slot]++;
        if (slot) after[row[slot - 1] * k + row[slot]]++;
      }
    }
    for (uint32_t a = 0; a < k; a++)
      for (uint32_t j = 0; j < k; j++) {
        assert_int_equal(at[a * k + j], rows / k);
        if (a != j) assert_int_equal(after[a * k + j], k % 2 ? 2 : 1);
      }
    free(at), free(after);
    rigor_interleave_t longer = arm_order(k, 20, 42);
    assert_memory_equal(il.offsets, longer.offsets, 9 * sizeof *il.offsets);
    for (uint32_t b = 1; b < 20; b++)
      assert_int_equal(longer.offsets[b], (longer.offsets[b - 1] + 1) % rows);
    rigor_interleave_free(&il);
    rigor_interleave_free(&longer);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_sequential_and_mirrored),
      cmocka_unit_test(test_latin_is_the_seed_square),
      cmocka_unit_test(test_latin_balances_positions),
      cmocka_unit_test(test_cyclic_latin_does_not_balance_carryover),
      cmocka_unit_test(test_williams_even),
      cmocka_unit_test(test_williams_odd_uses_two_squares),
      cmocka_unit_test(test_incomplete_square_is_flagged),
      cmocka_unit_test(test_randomized_squares_keep_balance),
      cmocka_unit_test(test_seed_reproduces_schedule),
      cmocka_unit_test(test_adding_blocks_keeps_earlier_ones),
      cmocka_unit_test(test_random_positions_are_roughly_uniform),
      cmocka_unit_test(test_rng_reference_values),
      cmocka_unit_test(test_invalid_arguments),
      cmocka_unit_test(test_designs_table),
      cmocka_unit_test(test_two_arms_alternate),
      cmocka_unit_test(test_more_arms_take_williams_rows),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

/* The post-mortem's bugs injected into the real kernels (module stream_faults.so, built from the
 * plugin's sources with STREAM_FAULT_INJECTION): every one must fail validation, naming the
 * array, the count of bad elements and the first bad index; the honest run must pass. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "stream_driver.h"

#define FAULTS_SO RIGOR_TEST_PLUGIN_DIR "/stream_faults.so"
#define LEN       20011
#define N         "elements=20011"

/* No warmup, so the first failing point is the faulty kernel's own. */
static const stream_timing_t quick = {.warmup = 0, .cycles = 3, .iters = 2, .agg = 1};

static void drive(const char *kernels, const char *const *settings, stream_outcome_t *o) {
  stream_drive(FAULTS_SO, "stream_faults", kernels, settings, quick, o);
  if (o->init_rc != 0) fail_msg("init failed (%d): %s", o->init_rc, o->error);
}

static void assert_detail(const stream_outcome_t *o, const char *needle) {
  if (!strstr(o->failure.detail, needle))
    fail_msg("detail \"%s\" lacks \"%s\"", o->failure.detail, needle);
}

static void test_honest_runs_pass(void **state) {
  (void)state;
  const char *const sweeps[] = {"copy,scale,add,triad", "copy,scale,add,triad,dot,nstream", "copy",
                                "add"};
  for (int i = 0; i < 4; i++) {
    stream_outcome_t o;
    drive(sweeps[i], (const char *[]){N, "fault=none", NULL}, &o);
    assert_int_equal(o.validate_rc, 0);
    assert_int_equal(o.failed_point, -1);
  }
}

static void test_corrupted_element_fails(void **state) {
  (void)state;
  stream_outcome_t o;
  drive("copy,scale,add,triad", (const char *[]){N, "fault=corrupt", "fault_kernels=scale", NULL},
        &o);
  assert_int_equal(o.validate_rc, RIGOR_EVALIDATE);
  assert_int_equal(o.failed_point, 1);
  assert_int_equal(o.failure.wrong, 1);
  assert_int_equal(o.failure.checked, 3 * LEN);
  assert_detail(&o, "b[]: 1 of 20011 wrong, first at index 10005");
  assert_true(o.failure.max_rel_err > o.failure.tolerance);
}

/* The warmup is neither primed nor validated, yet its damage fails the very first check. */
static void test_fault_during_warmup_fails_the_first_check(void **state) {
  (void)state;
  stream_outcome_t o;
  const stream_timing_t warm = {.warmup = 2, .cycles = 1, .iters = 1, .agg = 1};
  stream_drive(FAULTS_SO, "stream_faults", "copy,scale,add,triad",
               (const char *[]){N, "fault=corrupt", "fault_kernels=triad", NULL}, warm, &o);
  assert_int_equal(o.validate_rc, RIGOR_EVALIDATE);
  assert_int_equal(o.failed_point, 0);
  assert_true(o.failure.wrong >= 1);
}

static void test_nan_fails_as_non_finite(void **state) {
  (void)state;
  stream_outcome_t o;
  drive("copy", (const char *[]){N, "fault=nan", "fault_kernels=copy", NULL}, &o);
  assert_int_equal(o.validate_rc, RIGOR_EVALIDATE);
  assert_int_equal(o.failed_point, 0);
  assert_int_equal(o.failure.wrong, 1);
  assert_detail(&o, "c[]: 1 of 20011 wrong (non-finite values), first at index 10005 = nan");
}

static void test_nan_in_dot_sum_fails(void **state) {
  (void)state;
  stream_outcome_t o;
  drive("dot", (const char *[]){N, "fault=nan", "fault_kernels=dot", NULL}, &o);
  assert_int_equal(o.validate_rc, RIGOR_EVALIDATE);
  assert_int_equal(o.failure.wrong, 1);
  assert_detail(&o, "dot: sum nan");
}

/* The post-mortem's Copy-only build: scale, add and triad cut to j < 10. */
static void test_cut_bound_fails_and_shrinks_the_bytes(void **state) {
  (void)state;
  stream_outcome_t honest, cut;
  drive("copy,scale,add,triad", (const char *[]){N, NULL}, &honest);
  drive("copy,scale,add,triad",
        (const char *[]){N, "fault=cut", "fault_kernels=scale,add,triad", NULL}, &cut);
  assert_int_equal(honest.bytes[1], 2 * sizeof(double) * LEN);
  assert_int_equal(cut.bytes[0], honest.bytes[0]);
  assert_int_equal(cut.bytes[1], 2 * sizeof(double) * 10);
  assert_int_equal(cut.bytes[2], 3 * sizeof(double) * 10);
  assert_int_equal(cut.bytes[3], 3 * sizeof(double) * 10);
  assert_true(cut.flops[3] == 2.0 * 10);
  assert_int_equal(cut.validate_rc, RIGOR_EVALIDATE);
  assert_int_equal(cut.failed_point, 1);
  /* After the first cut scale, b[10..] still hold the initial 0.2: N - 10 wrong, from index 10. */
  assert_int_equal(cut.failure.wrong, LEN - 10);
  assert_detail(&cut, "b[]: 20001 of 20011 wrong, first at index 10 = 0.2");
}

static void test_cut_copy_only_fails(void **state) {
  (void)state;
  stream_outcome_t o;
  drive("copy", (const char *[]){N, "fault=cut", "fault_kernels=copy", NULL}, &o);
  assert_int_equal(o.bytes[0], 2 * sizeof(double) * 10);
  assert_int_equal(o.validate_rc, RIGOR_EVALIDATE);
  assert_int_equal(o.failure.wrong, LEN - 10);
  assert_detail(&o, "c[]: 20001 of 20011 wrong, first at index 10 = 0 ");
}

/* The non-temporal copy is checked like the plain one: damage and a cut bound both fail. */
static void test_faults_in_the_non_temporal_copy_fail(void **state) {
  (void)state;
#if defined(__x86_64__)
  stream_outcome_t o;
  drive("copy", (const char *[]){N, "copy_stores=nt", "fault=corrupt", "fault_kernels=copy", NULL},
        &o);
  assert_true(o.metrics[0] == 1.0);
  assert_int_equal(o.validate_rc, RIGOR_EVALIDATE);
  assert_detail(&o, "c[]: 1 of 20011 wrong, first at index 10005");
  drive("copy", (const char *[]){N, "copy_stores=nt", "fault=cut", "fault_kernels=copy", NULL}, &o);
  assert_int_equal(o.bytes[0], 2 * sizeof(double) * 10);
  assert_int_equal(o.validate_rc, RIGOR_EVALIDATE);
  assert_detail(&o, "c[]: 20001 of 20011 wrong, first at index 10 = 0 ");
#else
  skip();
#endif
}

/* Only copy runs while the check replays all four, as the post-mortem's placeholder loops did. */
static void test_skipped_kernels_fail(void **state) {
  (void)state;
  stream_outcome_t o;
  drive("copy,scale,add,triad",
        (const char *[]){N, "fault=skip", "fault_kernels=scale,add,triad", NULL}, &o);
  assert_int_equal(o.validate_rc, RIGOR_EVALIDATE);
  assert_int_equal(o.failed_point, 1);
  assert_int_equal(o.failure.wrong, LEN);
  assert_detail(&o, "b[]: 20011 of 20011 wrong, first at index 0");
  assert_int_equal(o.bytes[1], 0);
}

static void test_skipped_nstream_fails_in_float(void **state) {
  (void)state;
  stream_outcome_t o;
  drive("nstream", (const char *[]){N, "dtype=float", "fault=skip", "fault_kernels=nstream", NULL},
        &o);
  assert_int_equal(o.validate_rc, RIGOR_EVALIDATE);
  assert_detail(&o, "a[]: 20011 of 20011 wrong");
}

static void test_fault_without_kernels_is_refused(void **state) {
  (void)state;
  stream_outcome_t o;
  stream_drive(FAULTS_SO, "stream_faults", "copy", (const char *[]){N, "fault=cut", NULL}, quick,
               &o);
  assert_int_equal(o.init_rc, RIGOR_EINVAL);
  assert_non_null(strstr(o.error, "fault 'cut' needs fault_kernels"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_honest_runs_pass),
      cmocka_unit_test(test_corrupted_element_fails),
      cmocka_unit_test(test_fault_during_warmup_fails_the_first_check),
      cmocka_unit_test(test_nan_fails_as_non_finite),
      cmocka_unit_test(test_nan_in_dot_sum_fails),
      cmocka_unit_test(test_cut_bound_fails_and_shrinks_the_bytes),
      cmocka_unit_test(test_cut_copy_only_fails),
      cmocka_unit_test(test_faults_in_the_non_temporal_copy_fail),
      cmocka_unit_test(test_skipped_kernels_fail),
      cmocka_unit_test(test_skipped_nstream_fails_in_float),
      cmocka_unit_test(test_fault_without_kernels_is_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

/* timing.iters: auto, end to end with the null plugin: the recorded calibration follows the
 * doubling rule, every sample keeps the chosen count, and no window is too short. The
 * assertions hold whatever the machine's speed: they compare the records with each other and
 * with lower bounds the null plugin's busy wait guarantees. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support.h"

static cmd_result_t run_file(const char *cfg) {
  const char *args[] = {"run", cfg, "--plugin-path", RIGOR_TEST_PLUGIN_DIR, "--no-report", NULL};
  return rigor_exec(scratch, args);
}

static double floor_of(const json_t *recs) {
  size_t i;
  json_t *rec;
  json_array_foreach(recs, i, rec) {
    if (strcmp(json_string_value(json_object_get(rec, "type")), "experiment") != 0) continue;
    json_t *clock = json_object_get(rec, "clock");
    return fmax(20 * json_number_value(json_object_get(clock, "resolution_s")),
                100 * json_number_value(json_object_get(clock, "now_cost_s")));
  }
  return NAN;
}

/* The null plugin spins spin_ns per operation, so a window of n iterations lasts at least
 * n * spin_ns: each doubling step is above that bound, every step but the last is under the
 * target, the last reaches it, and the samples keep the last count. */
static void test_iters_double_until_min_window(void **st) {
  (void)st;
  char *cfg = config_in(scratch, "cal.yaml",
                        "schema: 1\nname: cal\nplugin: \"null\"\n"
                        "sweep: {spin_ns: [20000, 100000]}\n"
                        "timing: {warmup: 1, cycles: 3, iters: auto, min_window: 1ms}\n"
                        "order: {replicates: 2}\n"
                        "output: cal.jsonl\n");
  cmd_result_t r = run_file(cfg);
  assert_int_equal(r.exit_code, 0);
  char *out = path_join(scratch, "cal.jsonl");
  json_t *recs = results_read(out);
  const double spin[] = {20000e-9, 100000e-9};
  double target = fmax(1e-3, 2 * floor_of(recs));
  json_int_t chosen[2][2] = {{0}};
  size_t i;
  json_t *rec;
  json_array_foreach(recs, i, rec) {
    if (strcmp(json_string_value(json_object_get(rec, "type")), "run") != 0) continue;
    int run = (int)json_integer_value(json_object_get(rec, "run"));
    json_t *cal = json_object_get(rec, "calibration");
    assert_int_equal(json_array_size(cal), 2);
    for (int pt = 0; pt < 2; pt++) {
      json_t *c = json_array_get(cal, (size_t)pt);
      assert_int_equal(json_integer_value(json_object_get(c, "point")), pt);
      assert_true(fabs(json_number_value(json_object_get(c, "min_window_s")) - 1e-3) < 1e-12);
      json_t *windows = json_object_get(c, "windows");
      size_t n = json_array_size(windows);
      assert_true(n >= 1);
      for (size_t k = 0; k < n; k++) {
        json_t *step = json_array_get(windows, k);
        json_int_t iters = json_integer_value(json_array_get(step, 0));
        double seconds = json_number_value(json_array_get(step, 1));
        /* The recorded windows against the doubling rule that chose them (not a bound on how
         * long anything took): each below the target until the last, which reached it. */
        assert_int_equal(iters, (json_int_t)1 << k);
        assert_true(seconds >= (double)iters * spin[pt]);
        if (k + 1 < n)
          assert_true(seconds < target);
        else
          assert_true(seconds >= target);
      }
      chosen[run][pt] = json_integer_value(json_array_get(json_array_get(windows, n - 1), 0));
      assert_int_equal(json_integer_value(json_object_get(c, "iters")), chosen[run][pt]);
      /* The step before the last was under the target, and it lasted at least half the
       * chosen count's spinning: the count is below twice target / spin. */
      assert_true((double)chosen[run][pt] * spin[pt] < 2 * target);
    }
  }
  size_t samples = 0;
  json_array_foreach(recs, i, rec) {
    if (strcmp(json_string_value(json_object_get(rec, "type")), "sample") != 0) continue;
    int run = (int)json_integer_value(json_object_get(rec, "run"));
    int pt = (int)json_integer_value(json_object_get(rec, "point"));
    assert_int_equal(json_integer_value(json_object_get(rec, "iters")), chosen[run][pt]);
    assert_string_equal(json_string_value(json_object_get(rec, "status")), "ok");
    samples++;
  }
  assert_int_equal(samples, 2 * 3 * 2);
  json_decref(recs);

  /* The report shows the chosen counts. */
  const char *args[] = {"report", out, NULL};
  cmd_result_t rep = rigor_exec(scratch, args);
  assert_int_equal(rep.exit_code, 0);
  assert_non_null(strstr(rep.out, "iteration calibration"));
  char expect[64];
  snprintf(expect, sizeof expect, "%lld", (long long)chosen[0][1]);
  assert_non_null(strstr(strstr(rep.out, "iteration calibration"), expect));
  cmd_result_free(&rep);
  free(out);
  cmd_result_free(&r);
  free(cfg);
}

/* A no-op window of one iteration is shorter than 100 reads of the clock: too_short. Under
 * iters: auto, even with the smallest min_window, the count grows past the floor and no sample
 * is too short. */
static void test_too_short_impossible_under_auto(void **st) {
  (void)st;
  char *cfg = config_in(scratch, "short.yaml",
                        "schema: 1\nname: short\nplugin: \"null\"\n"
                        "matrix: {timing.iters: [1, auto]}\n"
                        "timing: {warmup: 1, cycles: 20, min_window: 1us}\n"
                        "order: {design: mirrored, replicates: 2}\n"
                        "output: short.jsonl\n");
  cmd_result_t r = run_file(cfg);
  assert_int_equal(r.exit_code, 0);
  char *out = path_join(scratch, "short.jsonl");
  json_t *recs = results_read(out);
  size_t fixed = 0, fixed_short = 0, autos = 0;
  size_t i;
  json_t *rec;
  json_array_foreach(recs, i, rec) {
    if (strcmp(json_string_value(json_object_get(rec, "type")), "sample") != 0) continue;
    const char *status = json_string_value(json_object_get(rec, "status"));
    if (json_integer_value(json_object_get(rec, "variant")) == 0) {
      fixed++;
      fixed_short += strcmp(status, "too_short") == 0;
    } else {
      autos++;
      assert_string_equal(status, "ok");
      assert_true(json_integer_value(json_object_get(rec, "iters")) > 1);
    }
  }
  assert_int_equal(fixed, 40);
  assert_int_equal(autos, 40);
  /* An interrupt can stretch a lone window past the floor now and then; most stay under it. */
  assert_true(fixed_short > fixed / 2);
  json_decref(recs);
  free(out);
  cmd_result_free(&r);
  free(cfg);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_iters_double_until_min_window, scratch_setup,
                                      scratch_teardown),
      cmocka_unit_test_setup_teardown(test_too_short_impossible_under_auto, scratch_setup,
                                      scratch_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

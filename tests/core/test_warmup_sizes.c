/* timing.warmup_sizes end to end: the rigor binary, a child process and the warm fixture, which
 * counts what the warmup sweep ran at each size and reports it as metrics. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support.h"

/* Runs a one-run experiment of `plugin` over the bytes sweep 1KiB, 8KiB with `timing` and returns
 * its records (the run's exit code in *exit_code). */
static json_t *run_sweep(const char *name, const char *plugin, const char *timing, int *exit_code) {
  char yaml[1024], file[128], output[128];
  snprintf(output, sizeof output, "%s.jsonl", name);
  snprintf(file, sizeof file, "%s.yaml", name);
  snprintf(yaml, sizeof yaml,
           "schema: 1\nname: %s\nplugin: \"%s\"\nsweep: {bytes: [1KiB, 8KiB]}\n"
           "timing: {cycles: 2, iters: 3, %s}\noutput: %s\n",
           name, plugin, timing, output);
  char *cfg = config_in(scratch, file, yaml);
  const char *args[] = {"run", cfg, "--plugin-path", RIGOR_TEST_PLUGIN_DIR, "--no-report", NULL};
  cmd_result_t r = rigor_exec(scratch, args);
  *exit_code = r.exit_code;
  char *out = path_join(scratch, output);
  json_t *recs = results_read(out);
  free(out);
  free(cfg);
  cmd_result_free(&r);
  return recs;
}

static double metric(const json_t *sample, const char *name) {
  return json_number_value(json_object_get(json_object_get(sample, "metrics"), name));
}

/* Every sample's warm_ops (at its own bytes) and warm_sizes. */
static void assert_warmed(const json_t *recs, double ops_1k, double ops_8k, double sizes) {
  size_t i, seen = 0;
  json_t *rec;
  json_array_foreach(recs, i, rec) {
    if (strcmp(json_string_value(json_object_get(rec, "type")), "sample") != 0) continue;
    seen++;
    json_int_t bytes = json_integer_value(json_object_get(rec, "bytes"));
    assert_true(metric(rec, "warm_ops") == (bytes == 1024 ? ops_1k : ops_8k));
    assert_true(metric(rec, "warm_sizes") == sizes);
  }
  assert_int_equal(seen, 4);
}

static void test_powers_of_two_warms_every_doubling(void **st) {
  (void)st;
  int rc = 0;
  json_t *recs = run_sweep("pow2", "warm", "warmup: 3, warmup_sizes: powers_of_two", &rc);
  assert_int_equal(rc, 0);
  /* 1, 2, 4 and 8 KiB, three operations each: the sizes between the sweep's two points too. */
  assert_warmed(recs, 3, 3, 4);
  const json_t *timing = json_object_get(
      json_object_get(json_object_get(json_array_get(recs, 0), "config"), "settings"), "timing");
  assert_string_equal(json_string_value(json_object_get(timing, "warmup_sizes")), "powers_of_two");
  json_decref(recs);
}

static void test_points_keeps_the_sweep_warmup(void **st) {
  (void)st;
  int rc = 0;
  json_t *recs = run_sweep("points", "warm", "warmup: 3", &rc);
  assert_int_equal(rc, 0);
  assert_warmed(recs, 3, 3, 2);
  json_decref(recs);
  recs = run_sweep("none", "warm", "warmup: 0, warmup_sizes: powers_of_two", &rc);
  assert_int_equal(rc, 0);
  assert_warmed(recs, 0, 0, 0);
  json_decref(recs);
}

static void test_plugin_without_hook_fails_the_run(void **st) {
  (void)st;
  int rc = 0;
  json_t *recs = run_sweep("nohook", "null", "warmup_sizes: powers_of_two", &rc);
  assert_int_equal(rc, 1);
  const json_t *run = results_find_run(recs, 0);
  assert_string_equal(json_string_value(json_object_get(run, "status")), "failed");
  assert_non_null(strstr(json_string_value(json_object_get(run, "reason")),
                         "plugin 'null' has no warm_points hook"));
  assert_int_equal(results_count(recs, "sample", NULL, NULL), 0);
  json_decref(recs);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_powers_of_two_warms_every_doubling, scratch_setup,
                                      scratch_teardown),
      cmocka_unit_test_setup_teardown(test_points_keeps_the_sweep_warmup, scratch_setup,
                                      scratch_teardown),
      cmocka_unit_test_setup_teardown(test_plugin_without_hook_fails_the_run, scratch_setup,
                                      scratch_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

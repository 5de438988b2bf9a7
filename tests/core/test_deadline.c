/* The experiment's deadline bounds rigor run: no run starts once it has passed, and a run in
 * progress is given only the time left. The tests assert what happened, never how long it
 * took. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support.h"

static cmd_result_t run(const char *cfg, const char *extra) {
  const char *args[] = {"run", cfg, "--plugin-path", RIGOR_TEST_PLUGIN_DIR, "--no-report",
                        extra, NULL};
  return rigor_exec(scratch, args);
}

/* 40 runs of about 0.1 s each against a deadline of 0.5 s: the schedule cannot finish, every
 * run that ran is ok or interrupted, and the exit code is 0 (a deadline is no failure). */
static void test_no_run_starts_past_the_deadline(void **st) {
  (void)st;
  char *cfg = config_in(scratch, "d.yaml",
                        "schema: 1\nname: d\nplugin: \"null\"\n"
                        "params: {spin_ns: 5000000}\n"
                        "timing: {warmup: 0, cycles: 2, iters: 10}\n"
                        "order: {design: sequential, replicates: 40}\n"
                        "deadline: 500ms\n"
                        "output: d.jsonl\n");
  cmd_result_t r = run(cfg, NULL);
  assert_int_equal(r.exit_code, 0);
  assert_non_null(strstr(r.err, "deadline"));
  char *out = path_join(scratch, "d.jsonl");
  json_t *recs = results_read(out);
  size_t runs = results_count(recs, "run", NULL, NULL);
  size_t ok = results_count(recs, "run", "status", "ok");
  size_t interrupted = results_count(recs, "run", "status", "interrupted");
  assert_true(runs >= 1 && runs < 40);
  assert_int_equal(ok + interrupted, runs);
  assert_true(interrupted <= 1);
  /* A stop record says the deadline ended it, after the blocks whose runs all ran (one variant:
   * a block is a run, the one the deadline cut included). */
  assert_int_equal(results_count(recs, "stop", "reason", "deadline"), 1);
  size_t i;
  json_t *rec;
  json_array_foreach(recs, i, rec) {
    if (strcmp(json_string_value(json_object_get(rec, "type")), "stop") != 0) continue;
    json_int_t blocks = json_integer_value(json_object_get(rec, "blocks"));
    assert_true(blocks < 40);
    assert_int_equal((size_t)blocks, runs);
  }
  json_decref(recs);
  free(out);
  cmd_result_free(&r);
  free(cfg);
}

/* One run that would spin for 100 s against a deadline of 300 ms: it is stopped and recorded
 * as interrupted by the deadline, not as a timeout. */
static void test_a_running_run_gets_only_the_time_left(void **st) {
  (void)st;
  char *cfg = config_in(scratch, "long.yaml",
                        "schema: 1\nname: long\nplugin: \"null\"\n"
                        "params: {spin_ns: 1000000000}\n"
                        "timing: {warmup: 0, cycles: 1, iters: 100, timeout: 600s}\n"
                        "deadline: 300ms\n"
                        "output: long.jsonl\n");
  cmd_result_t r = run(cfg, NULL);
  assert_int_equal(r.exit_code, 0);
  char *out = path_join(scratch, "long.jsonl");
  json_t *recs = results_read(out);
  assert_int_equal(results_count(recs, "run", NULL, NULL), 1);
  json_t *run0 = results_find_run(recs, 0);
  assert_string_equal(json_string_value(json_object_get(run0, "status")), "interrupted");
  assert_non_null(strstr(json_string_value(json_object_get(run0, "reason")), "deadline"));
  assert_int_equal(results_count(recs, "sample", NULL, NULL), 0);
  json_decref(recs);

  /* --resume repeats the interrupted run (and is again stopped by a fresh deadline). */
  cmd_result_t again = run(cfg, "--resume");
  assert_int_equal(again.exit_code, 0);
  recs = results_read(out);
  assert_int_equal(results_count(recs, "run", "status", "interrupted"), 2);
  json_t *second = results_find_run(recs, 0);
  assert_int_equal(json_integer_value(json_object_get(second, "attempt")), 2);
  json_decref(recs);
  cmd_result_free(&again);
  free(out);
  cmd_result_free(&r);
  free(cfg);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_no_run_starts_past_the_deadline, scratch_setup,
                                      scratch_teardown),
      cmocka_unit_test_setup_teardown(test_a_running_run_gets_only_the_time_left, scratch_setup,
                                      scratch_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

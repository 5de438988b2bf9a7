/* Adaptive replication, end to end with the null plugin, whose busy wait makes each variant's
 * time what its spin_ns says: a precision that the first blocks reach however loaded the machine
 * (80 or 90%: a preempted run can still move its median by a third), one that none can reach
 * (1 ppm), whole squares before stopping, the deadline, and --resume of an adaptive experiment
 * killed mid-way. The tests assert what the records say happened, never how long it took. */
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "support.h"

static cmd_result_t run(const char *cfg, const char *extra) {
  const char *args[] = {"run", cfg, "--plugin-path", RIGOR_TEST_PLUGIN_DIR, "--no-report",
                        extra, NULL};
  return rigor_exec(scratch, args);
}

static json_t *last_of(const json_t *recs, const char *type) {
  size_t i;
  json_t *rec, *found = NULL;
  json_array_foreach(recs, i, rec) {
    if (!strcmp(json_string_value(json_object_get(rec, "type")), type)) found = rec;
  }
  return found;
}

static const char *stop_reason(const json_t *recs) {
  return json_string_value(json_object_get(last_of(recs, "stop"), "reason"));
}

static json_int_t stop_blocks(const json_t *recs) {
  return json_integer_value(json_object_get(last_of(recs, "stop"), "blocks"));
}

/* Every (block, position) has at most one ok run, and each run record's variant is the one the
 * recorded schedule puts there. Returns the highest block with a run, plus one. */
static int check_slots(const json_t *recs, int n_variants) {
  json_t *blocks =
      json_object_get(json_object_get(last_of(recs, "experiment"), "schedule"), "blocks");
  int ok[64][8] = {{0}}, seen = 0;
  size_t i;
  json_t *rec;
  json_array_foreach(recs, i, rec) {
    if (strcmp(json_string_value(json_object_get(rec, "type")), "run") != 0) continue;
    int b = (int)json_integer_value(json_object_get(rec, "block"));
    int p = (int)json_integer_value(json_object_get(rec, "position"));
    assert_true(b < 64 && p < n_variants);
    assert_int_equal(
        json_integer_value(json_object_get(rec, "variant")),
        json_integer_value(json_array_get(json_array_get(blocks, (size_t)b), (size_t)p)));
    if (!strcmp(json_string_value(json_object_get(rec, "status")), "ok")) ok[b][p]++;
    assert_true(ok[b][p] <= 1);
    if (b + 1 > seen) seen = b + 1;
  }
  return seen;
}

static size_t runs_in(const json_t *recs, int block) {
  size_t i, n = 0;
  json_t *rec;
  json_array_foreach(recs, i, rec) {
    if (!strcmp(json_string_value(json_object_get(rec, "type")), "run") &&
        json_integer_value(json_object_get(rec, "block")) == block)
      n++;
  }
  return n;
}

/* Reachable from the first evaluation (min 3: the exact plugin's contrast has no width), but the
 * Latin square has two rows: the experiment stops only once the square is complete, at the
 * fourth block. */
static void test_precision_reached_completes_the_square(void **st) {
  (void)st;
  char *cfg = config_in(scratch, "p.yaml",
                        "schema: 1\nname: p\nplugin: exact\n"
                        "matrix: {cost: [2, 4]}\n"
                        "timing: {warmup: 1, cycles: 5, iters: auto, min_window: 1ms}\n"
                        "order: {design: latin, replicates: {min: 3, max: 20, precision: 80%}}\n"
                        "output: p.jsonl\n");
  const char *plan[] = {"plan", cfg, "--plugin-path", RIGOR_TEST_PLUGIN_DIR, NULL};
  cmd_result_t p = rigor_exec(scratch, plan);
  assert_int_equal(p.exit_code, 0);
  assert_non_null(strstr(p.out, "2 variants x 3 to 20 blocks = 6 to 40 runs"));
  assert_non_null(strstr(p.out, "min 3, max 20 blocks"));
  cmd_result_free(&p);

  cmd_result_t r = run(cfg, NULL);
  assert_int_equal(r.exit_code, 0);
  assert_non_null(strstr(r.err, "precision 80% reached after 4 blocks"));
  char *out = path_join(scratch, "p.jsonl");
  json_t *recs = results_read(out);
  assert_string_equal(stop_reason(recs), "precision");
  assert_int_equal(stop_blocks(recs), 4);
  assert_int_equal(results_count(recs, "run", "status", "ok"), 8);
  assert_int_equal(check_slots(recs, 2), 4);
  /* The schedule was built, and recorded, for max blocks. */
  json_t *sched = json_object_get(last_of(recs, "experiment"), "schedule");
  assert_int_equal(json_array_size(json_object_get(sched, "blocks")), 20);
  assert_int_equal(json_integer_value(json_object_get(json_object_get(sched, "adaptive"), "min")),
                   3);
  json_t *targets = json_object_get(last_of(recs, "stop"), "targets");
  assert_int_equal(json_array_size(targets), 1);
  json_t *t0 = json_array_get(targets, 0);
  assert_string_equal(json_string_value(json_object_get(t0, "kind")), "contrast");
  assert_string_equal(json_string_value(json_object_get(t0, "stop")), "precision");
  assert_true(json_number_value(json_object_get(t0, "half_width_log")) <= log(1.8));
  json_decref(recs);

  /* The report says why it stopped. */
  const char *rep[] = {"report", out, NULL};
  cmd_result_t rr = rigor_exec(scratch, rep);
  assert_non_null(strstr(rr.out, "adaptive replication: 4 blocks (min 3, max 20)"));
  assert_non_null(strstr(rr.out, "stopped by precision"));
  cmd_result_free(&rr);

  /* A finished experiment has nothing left for --resume. */
  cmd_result_t again = run(cfg, "--resume");
  assert_int_equal(again.exit_code, 0);
  recs = results_read(out);
  assert_int_equal(results_count(recs, "run", NULL, NULL), 8);
  assert_int_equal(results_count(recs, "stop", NULL, NULL), 1);
  json_decref(recs);
  cmd_result_free(&again);
  free(out);
  cmd_result_free(&r);
  free(cfg);
}

/* Without contrasts, each row's run-level interval is the target; a square that max cannot
 * complete (Williams for three variants has six rows) does not hold the stop back. */
static void test_rows_and_an_incomplete_square(void **st) {
  (void)st;
  char *rows = config_in(scratch, "rows.yaml",
                         "schema: 1\nname: rows\nplugin: exact\n"
                         "params: {cost: 3}\n"
                         "timing: {warmup: 1, cycles: 5, iters: auto, min_window: 1ms}\n"
                         "order: {replicates: {min: 3, max: 6, precision: 90%}}\n"
                         "output: rows.jsonl\n");
  cmd_result_t r = run(rows, NULL);
  assert_int_equal(r.exit_code, 0);
  char *out = path_join(scratch, "rows.jsonl");
  json_t *recs = results_read(out);
  assert_string_equal(stop_reason(recs), "precision");
  json_int_t blocks = stop_blocks(recs);
  assert_true(blocks >= 3 && blocks < 6);
  json_t *t0 = json_array_get(json_object_get(last_of(recs, "stop"), "targets"), 0);
  assert_string_equal(json_string_value(json_object_get(t0, "kind")), "row");
  assert_int_equal(json_integer_value(json_object_get(t0, "runs")), blocks);
  json_decref(recs);
  cmd_result_free(&r);
  free(out);

  char *w = config_in(scratch, "w.yaml",
                      "schema: 1\nname: w\nplugin: \"null\"\n"
                      "matrix: {spin_ns: [20000, 30000, 40000]}\n"
                      "timing: {warmup: 1, cycles: 5, iters: 10}\n"
                      "order: {design: williams, replicates: {min: 3, max: 5, precision: 90%}}\n"
                      "output: w.jsonl\n");
  r = run(w, NULL);
  assert_int_equal(r.exit_code, 0);
  out = path_join(scratch, "w.jsonl");
  recs = results_read(out);
  /* Stopped before max although no six-row square fits in it. */
  assert_string_equal(stop_reason(recs), "precision");
  blocks = stop_blocks(recs);
  assert_true(blocks >= 3 && blocks < 5);
  assert_int_equal(json_array_size(json_object_get(last_of(recs, "stop"), "targets")), 2);
  assert_int_equal(check_slots(recs, 3), blocks);
  json_decref(recs);
  cmd_result_free(&r);
  free(out);
  free(rows), free(w);
}

/* A precision of one part per million is out of reach: every block of max runs. */
static void test_max_reached(void **st) {
  (void)st;
  char *cfg = config_in(scratch, "m.yaml",
                        "schema: 1\nname: m\nplugin: \"null\"\n"
                        "matrix: {spin_ns: [20000, 40000]}\n"
                        "timing: {warmup: 1, cycles: 3, iters: 10}\n"
                        "order: {design: mirrored, replicates: {min: 2, max: 4, precision: "
                        "0.0001%}}\n"
                        "output: m.jsonl\n");
  cmd_result_t r = run(cfg, NULL);
  assert_int_equal(r.exit_code, 0);
  assert_non_null(strstr(r.err, "not reached in the 4 blocks of max"));
  char *out = path_join(scratch, "m.jsonl");
  json_t *recs = results_read(out);
  assert_string_equal(stop_reason(recs), "max");
  assert_int_equal(stop_blocks(recs), 4);
  assert_int_equal(results_count(recs, "run", "status", "ok"), 8);
  json_t *t0 = json_array_get(json_object_get(last_of(recs, "stop"), "targets"), 0);
  assert_string_equal(json_string_value(json_object_get(t0, "stop")), "max");
  json_decref(recs);
  const char *rep[] = {"report", out, NULL};
  cmd_result_t rr = rigor_exec(scratch, rep);
  assert_non_null(strstr(rr.out, "was not reached in 4 blocks"));
  cmd_result_free(&rr);
  free(out);
  cmd_result_free(&r);
  free(cfg);
}

/* Runs of about 0.1 s, an unreachable precision and a deadline of 1 s: the deadline stops it
 * short of max with whole blocks counted; --resume goes on from there under a fresh deadline. */
static void test_deadline_stops_adaptive_replication(void **st) {
  (void)st;
  char *cfg = config_in(scratch, "d.yaml",
                        "schema: 1\nname: d\nplugin: \"null\"\n"
                        "matrix: {spin_ns: [5000000, 5000001]}\n"
                        "timing: {warmup: 0, cycles: 2, iters: 10}\n"
                        "order: {design: latin, replicates: {min: 2, max: 40, precision: "
                        "0.0001%}}\n"
                        "deadline: 1s\n"
                        "output: d.jsonl\n");
  cmd_result_t r = run(cfg, NULL);
  assert_int_equal(r.exit_code, 0);
  assert_non_null(strstr(r.err, "the deadline stopped it"));
  char *out = path_join(scratch, "d.jsonl");
  json_t *recs = results_read(out);
  assert_string_equal(stop_reason(recs), "deadline");
  json_int_t first = stop_blocks(recs);
  assert_true(first < 40);
  for (int b = 0; b < first; b++)
    assert_int_equal(runs_in(recs, b), 2);
  assert_true(runs_in(recs, (int)first) < 2);
  json_decref(recs);

  cmd_result_t again = run(cfg, "--resume");
  assert_int_equal(again.exit_code, 0);
  recs = results_read(out);
  assert_int_equal(results_count(recs, "stop", NULL, NULL), 2);
  assert_string_equal(stop_reason(recs), "deadline");
  assert_true(stop_blocks(recs) > first);
  check_slots(recs, 2);
  json_decref(recs);
  cmd_result_free(&again);
  free(out);
  cmd_result_free(&r);
  free(cfg);
}

/* Killed with SIGKILL mid-way, resumed: the same blocks in the same order, no slot twice, and
 * the stop rule finishes where an uninterrupted run would. */
static void test_resume_after_sigkill(void **st) {
  (void)st;
  char *cfg = config_in(scratch, "k.yaml",
                        "schema: 1\nname: k\nplugin: \"null\"\n"
                        "matrix: {spin_ns: [5000000, 5000001]}\n"
                        "timing: {warmup: 0, cycles: 2, iters: 4}\n"
                        "order: {design: latin, seed: 5, randomize: true, replicates: {min: 2, "
                        "max: 6, precision: 0.0001%}}\n"
                        "output: k.jsonl\n");
  char *out = path_join(scratch, "k.jsonl");
  const char *args[] = {"run", cfg, "--plugin-path", RIGOR_TEST_PLUGIN_DIR, "--quiet", NULL};
  pid_t pid = rigor_start(scratch, args);
  wait_for_runs(out, 5);
  usleep(20000);
  kill(pid, SIGKILL);
  waitpid(pid, NULL, 0);
  usleep(100000);
  json_t *recs = results_read(out);
  size_t before = results_count(recs, "run", NULL, NULL);
  assert_true(before >= 5 && before < 12);
  assert_int_equal(results_count(recs, "stop", NULL, NULL), 0);
  json_decref(recs);

  cmd_result_t r = run(cfg, "--resume");
  assert_int_equal(r.exit_code, 0);
  recs = results_read(out);
  assert_int_equal(results_count(recs, "experiment", NULL, NULL), 1);
  assert_int_equal(results_count(recs, "run", "status", "ok"), 12);
  assert_int_equal(check_slots(recs, 2), 6);
  assert_int_equal(results_count(recs, "stop", NULL, NULL), 1);
  assert_string_equal(stop_reason(recs), "max");
  assert_int_equal(stop_blocks(recs), 6);
  json_decref(recs);
  cmd_result_free(&r);
  free(out);
  free(cfg);
}

/* replicates.decided: a threefold difference is beyond doubt long before an unreachable
 * precision, so the experiment stops on the verdict (and says so) well short of max; the
 * verdict the report reads from the final file is the one that stopped it. */
static void test_decided_stops_on_the_verdict(void **st) {
  (void)st;
  char *cfg = config_in(scratch, "d.yaml",
                        "schema: 1\nname: d\nplugin: \"null\"\n"
                        "matrix: {spin_ns: [20000, 60000]}\n"
                        "timing: {warmup: 1, cycles: 6, iters: 10}\n"
                        "order: {interleave: spin_ns, replicates: {min: 3, max: 40, precision: "
                        "0.0001%, decided: 2%}}\n"
                        "output: d.jsonl\n");
  cmd_result_t r = run(cfg, NULL);
  assert_int_equal(r.exit_code, 0);
  assert_non_null(strstr(r.err, "every verdict at the 2% threshold decided beyond doubt"));
  char *out = path_join(scratch, "d.jsonl");
  json_t *recs = results_read(out);
  assert_string_equal(stop_reason(recs), "decided");
  assert_true(stop_blocks(recs) >= 3 && stop_blocks(recs) < 40);
  const json_t *stop = last_of(recs, "stop");
  assert_true(json_real_value(json_object_get(stop, "decided")) == 0.02);
  json_t *adaptive =
      json_object_get(json_object_get(last_of(recs, "experiment"), "schedule"), "adaptive");
  assert_true(json_real_value(json_object_get(adaptive, "decided")) == 0.02);
  json_decref(recs);
  const char *rep[] = {"report", out, NULL};
  cmd_result_t rr = rigor_exec(scratch, rep);
  assert_non_null(strstr(rr.out, "every verdict at the 2.00% threshold was beyond doubt"));
  assert_non_null(strstr(rr.out, "slower"));
  cmd_result_free(&rr);

  /* A decided experiment is finished: --resume runs nothing more. */
  cmd_result_t again = run(cfg, "--resume");
  assert_int_equal(again.exit_code, 0);
  recs = results_read(out);
  assert_int_equal(results_count(recs, "stop", NULL, NULL), 1);
  json_decref(recs);
  cmd_result_free(&again);
  free(out);
  cmd_result_free(&r);
  free(cfg);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_precision_reached_completes_the_square, scratch_setup,
                                      scratch_teardown),
      cmocka_unit_test_setup_teardown(test_rows_and_an_incomplete_square, scratch_setup,
                                      scratch_teardown),
      cmocka_unit_test_setup_teardown(test_max_reached, scratch_setup, scratch_teardown),
      cmocka_unit_test_setup_teardown(test_deadline_stops_adaptive_replication, scratch_setup,
                                      scratch_teardown),
      cmocka_unit_test_setup_teardown(test_resume_after_sigkill, scratch_setup, scratch_teardown),
      cmocka_unit_test_setup_teardown(test_decided_stops_on_the_verdict, scratch_setup,
                                      scratch_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

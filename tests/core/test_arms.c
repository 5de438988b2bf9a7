/* Interleaved arms end to end: every level of the interleaved axis runs as a plugin instance of
 * its own inside every run. Builds load private copies of their .so (the same file twice is two
 * instances), param arms are init'ed with their own params, exec arms run their own commands,
 * and the samples say which arm measured at which slot of the cycle (ABBA/BAAB for two). */
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support.h"

#define BUILDS RIGOR_TEST_PLUGIN_DIR "/builds"

static const char *type_of(const json_t *rec) {
  return json_string_value(json_object_get(rec, "type"));
}

static json_t *experiment_of(const json_t *recs) {
  size_t i;
  json_t *rec;
  json_array_foreach(recs, i, rec) {
    if (!strcmp(type_of(rec), "experiment")) return rec;
  }
  return NULL;
}

static double metric(const json_t *sample, const char *name) {
  return json_number_value(json_object_get(json_object_get(sample, "metrics"), name));
}

static json_int_t member(const json_t *rec, const char *name) {
  return json_integer_value(json_object_get(rec, name));
}

/* Runs `rigor ARGS...` in the test folder, expecting exit 0, and reads the results file. */
static json_t *run_ok(const char *const *args, const char *results) {
  cmd_result_t r = rigor_exec(scratch, args);
  if (r.exit_code != 0) fail_msg("rigor exited %d:\n%s\n%s", r.exit_code, r.out, r.err);
  cmd_result_free(&r);
  char *out = path_join(scratch, results);
  json_t *recs = results_read(out);
  free(out);
  return recs;
}

/* Every run record names its arms, its variant is the first arm's, and every sample of the run
 * is of one of its arms, with `arm` its index there and `slot` below the number of arms. */
static void check_runs_host_their_arms(const json_t *recs, size_t n_runs, uint32_t n_arms) {
  size_t i, runs = 0;
  json_t *rec;
  json_array_foreach(recs, i, rec) {
    if (strcmp(type_of(rec), "run") != 0) continue;
    runs++;
    assert_string_equal(json_string_value(json_object_get(rec, "status")), "ok");
    json_t *arms = json_object_get(rec, "arms");
    assert_int_equal(json_array_size(arms), n_arms);
    assert_int_equal(member(rec, "variant"), json_integer_value(json_array_get(arms, 0)));
  }
  assert_int_equal(runs, n_runs);
  /* Per (run, cycle, point), each arm once and each slot once. */
  json_t *seen = json_object();
  json_array_foreach(recs, i, rec) {
    if (strcmp(type_of(rec), "sample") != 0) continue;
    char key[128];
    snprintf(key, sizeof key, "%lld/%lld/%lld", (long long)member(rec, "run"),
             (long long)member(rec, "cycle"), (long long)member(rec, "point"));
    json_int_t bits = json_integer_value(json_object_get(seen, key));
    json_int_t arm_bit = (json_int_t)1 << member(rec, "arm");
    json_int_t slot_bit = (json_int_t)1 << (32 + member(rec, "slot"));
    assert_int_equal(bits & (arm_bit | slot_bit), 0);
    json_object_set_new(seen, key, json_integer(bits | arm_bit | slot_bit));
  }
  const char *key;
  json_t *bits;
  json_int_t full = (((json_int_t)1 << n_arms) - 1) | ((((json_int_t)1 << n_arms) - 1) << 32);
  json_object_foreach(seen, key, bits) {
    assert_int_equal(json_integer_value(bits), full);
  }
  json_decref(seen);
  json_array_foreach(recs, i, rec) {
    if (strcmp(type_of(rec), "sample") != 0) continue;
    json_t *run = results_find_run(recs, (int)member(rec, "run"));
    assert_non_null(run);
    json_int_t arm = member(rec, "arm");
    assert_true(arm >= 0 && arm < (json_int_t)n_arms);
    assert_true(member(rec, "slot") >= 0 && member(rec, "slot") < (json_int_t)n_arms);
    assert_int_equal(member(rec, "variant"),
                     json_integer_value(json_array_get(json_object_get(run, "arms"), arm)));
  }
}

/* The arm at slot 0 of each (run, cycle), -1 where none was recorded. */
static void first_arms(const json_t *recs, int *first, size_t runs, size_t cycles) {
  for (size_t k = 0; k < runs * cycles; k++)
    first[k] = -1;
  size_t i;
  json_t *rec;
  json_array_foreach(recs, i, rec) {
    if (strcmp(type_of(rec), "sample") != 0 || member(rec, "slot") != 0) continue;
    size_t run = (size_t)member(rec, "run"), cycle = (size_t)member(rec, "cycle");
    if (run < runs && cycle < cycles) first[run * cycles + cycle] = (int)member(rec, "arm");
  }
}

/* Two arms: cycles alternate the arm that goes first (ABBA/BAAB), and so do consecutive runs. */
static void check_abba(const json_t *recs, size_t runs, size_t cycles) {
  int *first = malloc(runs * cycles * sizeof *first);
  first_arms(recs, first, runs, cycles);
  for (size_t r = 0; r < runs; r++)
    for (size_t c = 0; c < cycles; c++) {
      int f = first[r * cycles + c];
      assert_true(f == 0 || f == 1);
      if (c > 0) assert_int_not_equal(f, first[r * cycles + c - 1]);
      if (r > 0 && c == 0) assert_int_not_equal(f, first[(r - 1) * cycles]);
    }
  free(first);
}

/* The same .so as two builds: two private copies, so each instance is the first init its file
 * has seen; the build axis interleaves by default when --build names it. */
static void test_same_so_twice_is_two_instances(void **st) {
  (void)st;
  char *cfg = config_in(scratch, "aa.yaml",
                        "schema: 1\nname: aa\nplugin: instances\n"
                        "timing: {warmup: 1, cycles: 4, iters: 5}\n"
                        "order: {replicates: 4}\n"
                        "output: aa.jsonl\n");
  const char *plan[] = {
      "plan", cfg, "--build", "a=" RIGOR_TEST_PLUGIN_DIR, "--build", "b=" RIGOR_TEST_PLUGIN_DIR,
      NULL};
  cmd_result_t p = rigor_exec(scratch, plan);
  assert_int_equal(p.exit_code, 0);
  assert_non_null(strstr(p.out, "1 cells x 4 blocks = 4 runs"));
  assert_non_null(strstr(p.out, "interleave build: 2 arms in every run (a, b)"));
  assert_non_null(strstr(p.out, "ABBA/BAAB"));
  assert_non_null(strstr(p.out, "cycles: "));
  cmd_result_free(&p);

  const char *args[] = {"run",
                        cfg,
                        "--no-report",
                        "--build",
                        "a=" RIGOR_TEST_PLUGIN_DIR,
                        "--build",
                        "b=" RIGOR_TEST_PLUGIN_DIR,
                        NULL};
  json_t *recs = run_ok(args, "aa.jsonl");
  check_runs_host_their_arms(recs, 4, 2);
  size_t i, samples = 0;
  json_t *rec;
  json_array_foreach(recs, i, rec) {
    if (strcmp(type_of(rec), "sample") != 0) continue;
    samples++;
    assert_true(metric(rec, "init_number") == 1);
    assert_true(metric(rec, "file_inits") == 1);
  }
  assert_int_equal(samples, 4 * 4 * 2);
  check_abba(recs, 4, 4);

  json_t *sched = json_object_get(experiment_of(recs), "schedule");
  json_t *il = json_object_get(sched, "interleave");
  assert_string_equal(json_string_value(json_object_get(il, "axis")), "build");
  assert_string_equal(json_string_value(json_object_get(il, "order")), "abba");
  assert_int_equal(json_array_size(json_object_get(il, "arms")), 1);
  assert_int_equal(json_array_size(json_array_get(json_object_get(il, "arms"), 0)), 2);
  assert_int_equal(json_array_size(json_object_get(il, "offsets")), 4);
  assert_string_equal(json_string_value(json_array_get(json_object_get(il, "levels"), 1)), "b");
  assert_string_equal(
      json_string_value(json_object_get(
          json_object_get(json_object_get(experiment_of(recs), "config"), "order"), "interleave")),
      "build");
  json_decref(recs);

  /* interleave: none keeps each build in runs of its own: one instance per process. */
  char *none = config_in(scratch, "none.yaml",
                         "schema: 1\nname: none\nplugin: instances\n"
                         "timing: {warmup: 0, cycles: 2, iters: 5}\n"
                         "order: {replicates: 2, interleave: none}\n"
                         "output: none.jsonl\n");
  const char *nargs[] = {"run",
                         none,
                         "--no-report",
                         "--build",
                         "a=" RIGOR_TEST_PLUGIN_DIR,
                         "--build",
                         "b=" RIGOR_TEST_PLUGIN_DIR,
                         NULL};
  recs = run_ok(nargs, "none.jsonl");
  assert_int_equal(results_count(recs, "run", "status", "ok"), 4);
  json_array_foreach(recs, i, rec) {
    assert_null(json_object_get(rec, "arm"));
    assert_null(json_object_get(rec, "arms"));
  }
  assert_null(json_object_get(json_object_get(experiment_of(recs), "schedule"), "interleave"));
  json_decref(recs);
  free(none);

  /* A launcher job does not host arms yet: there --build keeps a build per run, and says so. */
  char *launched = config_in(scratch, "launched.yaml",
                             "schema: 1\nname: launched\nplugin: instances\n"
                             "launcher: [mpirun, -np, \"{ranks}\"]\n"
                             "output: launched.jsonl\n");
  const char *largs[] = {"plan",    launched,
                         "--build", "a=" RIGOR_TEST_PLUGIN_DIR,
                         "--build", "b=" RIGOR_TEST_PLUGIN_DIR,
                         NULL};
  p = rigor_exec(scratch, largs);
  assert_int_equal(p.exit_code, 0);
  assert_non_null(strstr(p.out, "2 variants x 1 blocks"));
  assert_non_null(strstr(p.err, "a launcher job does not host arms yet"));
  cmd_result_free(&p);
  free(launched);
  free(cfg);
}

/* A run started as a new program (a padded environment) hosts its arms as a forked one does:
 * each build from a private copy, the order in its records. */
static void test_spawned_run_hosts_its_arms(void **st) {
  (void)st;
  char *cfg = config_in(scratch, "spawned.yaml",
                        "schema: 1\nname: spawned\nplugin: instances\n"
                        "timing: {warmup: 0, cycles: 4, iters: 3}\n"
                        "environment: {randomize_env: true}\n"
                        "order: {replicates: 2}\n"
                        "output: spawned.jsonl\n");
  const char *args[] = {"run",
                        cfg,
                        "--no-report",
                        "--build",
                        "a=" RIGOR_TEST_PLUGIN_DIR,
                        "--build",
                        "b=" RIGOR_TEST_PLUGIN_DIR "/builds/instances_other",
                        NULL};
  json_t *recs = run_ok(args, "spawned.jsonl");
  check_runs_host_their_arms(recs, 2, 2);
  size_t i, samples = 0;
  json_t *rec;
  json_array_foreach(recs, i, rec) {
    if (!strcmp(type_of(rec), "run"))
      assert_true(json_integer_value(json_object_get(rec, "env_pad")) >= 0);
    if (strcmp(type_of(rec), "sample") != 0) continue;
    assert_true(metric(rec, "file_inits") == 1);
    samples++;
  }
  assert_int_equal(samples, 2 * 4 * 2);
  check_abba(recs, 2, 4);
  json_decref(recs);
  free(cfg);
}

/* Two different files of the null plugin as arms: each counts its own operations in its own
 * state (v2 counts every operation twice), and each arm's calibration is its own. */
static void test_two_builds_in_one_process(void **st) {
  (void)st;
  char yaml[2048];
  snprintf(yaml, sizeof yaml,
           "schema: 1\nname: ab\nplugin: \"null\"\n"
           "matrix:\n"
           "  build:\n"
           "    - {label: base, plugin_path: %s}\n"
           "    - {label: cand, plugin_path: %s/v2}\n"
           "timing: {warmup: 1, cycles: 3, iters: 10, agg: 2}\n"
           "order: {interleave: build, replicates: 2}\n"
           "output: ab.jsonl\n",
           RIGOR_PLUGIN_DIR, BUILDS);
  char *cfg = config_in(scratch, "ab.yaml", yaml);
  /* The builds folder lies outside the config's folder: named there only knowingly. */
  const char *args[] = {"run", cfg, "--no-report", "--allow-external-extends", NULL};
  json_t *recs = run_ok(args, "ab.jsonl");
  check_runs_host_their_arms(recs, 2, 2);
  size_t i, samples = 0;
  json_t *rec;
  json_array_foreach(recs, i, rec) {
    if (strcmp(type_of(rec), "sample") != 0) continue;
    /* Warmup 1 operation, then per cycle iters x agg, each counted twice by null's ops. */
    double plain = 1.0 + (double)(member(rec, "cycle") + 1) * 10 * 2;
    assert_true(metric(rec, "ops") == (member(rec, "arm") == 0 ? plain : 2 * plain));
    samples++;
  }
  assert_int_equal(samples, 2 * 3 * 2);
  json_decref(recs);

  /* iters: auto calibrates each arm, and the run record says whose calibration is whose. */
  snprintf(yaml, sizeof yaml,
           "schema: 1\nname: cal\nplugin: \"null\"\n"
           "matrix:\n"
           "  build:\n"
           "    - {label: base, plugin_path: %s}\n"
           "    - {label: cand, plugin_path: %s/v2}\n"
           "timing: {warmup: 0, cycles: 2, iters: auto, min_window: 1ms}\n"
           "order: {interleave: build}\n"
           "output: cal.jsonl\n",
           RIGOR_PLUGIN_DIR, BUILDS);
  char *cal = config_in(scratch, "cal.yaml", yaml);
  const char *cargs[] = {"run", cal, "--no-report", "--allow-external-extends", NULL};
  recs = run_ok(cargs, "cal.jsonl");
  json_t *calibration = json_object_get(results_find_run(recs, 0), "calibration");
  assert_int_equal(json_array_size(calibration), 2);
  assert_int_equal(member(json_array_get(calibration, 0), "arm"), 0);
  assert_int_equal(member(json_array_get(calibration, 1), "arm"), 1);
  json_decref(recs);
  free(cal);
  free(cfg);
}

/* Param arms share the plugin's file (one load: inits 1 and 2) but each is init'ed with its own
 * params, so its elements and the bytes it reports are its own. A second axis makes cells. */
static void test_param_arms_have_their_own_params(void **st) {
  (void)st;
  char *cfg = config_in(scratch, "elements.yaml",
                        "schema: 1\nname: elements\nplugin: instances\n"
                        "matrix: {elements: [16, 64], tag: [1, 2]}\n"
                        "timing: {warmup: 1, cycles: 2, iters: 3}\n"
                        "order: {interleave: elements, design: williams, replicates: 2}\n"
                        "output: elements.jsonl\n");
  const char *plan[] = {"plan", cfg, "--plugin-path", RIGOR_TEST_PLUGIN_DIR, NULL};
  cmd_result_t p = rigor_exec(scratch, plan);
  assert_int_equal(p.exit_code, 0);
  assert_non_null(strstr(p.out, "2 cells x 2 blocks = 4 runs"));
  assert_non_null(strstr(p.out, "interleave elements: 2 arms in every run (16, 64)"));
  cmd_result_free(&p);
  const char *args[] = {"run", cfg, "--plugin-path", RIGOR_TEST_PLUGIN_DIR, "--no-report", NULL};
  json_t *recs = run_ok(args, "elements.jsonl");
  check_runs_host_their_arms(recs, 4, 2);
  size_t i;
  json_t *rec;
  /* Each run sets its arms up in the order of its first cycle: the arm that measures first
   * was init'ed first. */
  json_int_t first_arm[4] = {-1, -1, -1, -1};
  json_array_foreach(recs, i, rec) {
    if (strcmp(type_of(rec), "sample") == 0 && member(rec, "cycle") == 0 &&
        member(rec, "slot") == 0 && member(rec, "run") < 4)
      first_arm[member(rec, "run")] = member(rec, "arm");
  }
  json_array_foreach(recs, i, rec) {
    if (strcmp(type_of(rec), "sample") != 0) continue;
    json_int_t arm = member(rec, "arm");
    double elements = arm == 0 ? 16 : 64;
    assert_true(metric(rec, "elements") == elements);
    assert_int_equal(member(rec, "bytes"), (json_int_t)elements * 8);
    json_int_t k = member(rec, "run");
    assert_true(k >= 0 && k < 4 && first_arm[k] >= 0);
    assert_true(metric(rec, "init_number") == (arm == first_arm[k] ? 1.0 : 2.0));
    /* Both arms of a run belong to one cell: the same tag. */
    json_t *run = results_find_run(recs, (int)member(rec, "run"));
    json_t *exp = experiment_of(recs);
    json_int_t first = json_integer_value(json_array_get(json_object_get(run, "arms"), 0));
    json_t *axes = json_object_get(json_array_get(json_object_get(exp, "variants"), first), "axes");
    assert_true(metric(rec, "tag") == json_number_value(json_object_get(axes, "tag")));
  }
  json_decref(recs);
  free(cfg);
}

/* The stream plugin with two array sizes as arms in one process: each arm moves its own bytes. */
static void test_stream_arms_with_their_own_elements(void **st) {
  (void)st;
  char *cfg = config_in(scratch, "stream.yaml",
                        "schema: 1\nname: stream\nplugin: stream\n"
                        "params: {kernels: triad, threads: 1}\n"
                        "matrix: {elements: [4096, 8192]}\n"
                        "timing: {warmup: 1, cycles: 4, iters: 2}\n"
                        "order: {interleave: elements, replicates: 2}\n"
                        "output: stream.jsonl\n");
  const char *args[] = {"run", cfg, "--no-report", NULL};
  json_t *recs = run_ok(args, "stream.jsonl");
  check_runs_host_their_arms(recs, 2, 2);
  size_t i, samples = 0;
  json_t *rec;
  json_array_foreach(recs, i, rec) {
    if (strcmp(type_of(rec), "sample") != 0) continue;
    json_int_t elements = member(rec, "arm") == 0 ? 4096 : 8192;
    assert_int_equal(member(rec, "bytes"), elements * 3 * 8);
    assert_int_equal(member(json_object_get(rec, "check"), "wrong"), 0);
    samples++;
  }
  assert_int_equal(samples, 2 * 4 * 2);
  check_abba(recs, 2, 4);
  json_decref(recs);
  free(cfg);
}

/* Exec arms: each arm runs its own command, here one that prints its arm's variable. */
static void test_exec_arms_run_their_own_commands(void **st) {
  (void)st;
  char *cfg = config_in(scratch, "exec.yaml",
                        "schema: 1\nname: exec\nplugin: exec\n"
                        "params:\n"
                        "  command: [echo, \"{n}\"]\n"
                        "  metrics: {n: {regex: \"([0-9]+)\", better: higher}}\n"
                        "matrix: {vars.n: [\"7\", \"9\", \"11\"]}\n"
                        "timing: {warmup: 0, cycles: 3, iters: 1}\n"
                        "order: {interleave: vars.n, replicates: 2}\n"
                        "output: exec.jsonl\n");
  const char *plan[] = {"plan", cfg, NULL};
  cmd_result_t p = rigor_exec(scratch, plan);
  assert_int_equal(p.exit_code, 0);
  assert_non_null(strstr(p.out, "interleave vars.n: 3 arms in every run (7, 9, 11)"));
  assert_non_null(strstr(p.out, "Williams square"));
  cmd_result_free(&p);
  const char *args[] = {"run", cfg, "--no-report", "--allow-commands", NULL};
  json_t *recs = run_ok(args, "exec.jsonl");
  check_runs_host_their_arms(recs, 2, 3);
  size_t i, samples = 0;
  json_t *rec;
  json_array_foreach(recs, i, rec) {
    if (strcmp(type_of(rec), "sample") != 0) continue;
    static const double printed[] = {7, 9, 11};
    assert_true(metric(rec, "n") == printed[member(rec, "arm")]);
    samples++;
  }
  assert_int_equal(samples, 2 * 3 * 3);
  /* Three arms: cycle c takes the next row of a Williams square, so the runs' cycles start
   * with arms the square's rows give, not always the same one. */
  int first[2 * 3];
  first_arms(recs, first, 2, 3);
  bool varies = false;
  for (size_t k = 1; k < 2 * 3; k++)
    varies = varies || first[k] != first[0];
  assert_true(varies);
  json_decref(recs);
  free(cfg);
}

/* One arm that fails takes its run with it: an init error fails the run (the arm that did init
 * is finished), a failed check makes it invalid while the other arm's samples stay right. */
static void test_a_failing_arm_fails_its_run(void **st) {
  (void)st;
  char *cfg = config_in(scratch, "init.yaml",
                        "schema: 1\nname: init\nplugin: fault\n"
                        "matrix: {mode: [none, init_error]}\n"
                        "timing: {warmup: 0, cycles: 2, iters: 1}\n"
                        "order: {interleave: mode}\n"
                        "output: init.jsonl\n");
  const char *args[] = {"run", cfg, "--plugin-path", RIGOR_TEST_PLUGIN_DIR, "--no-report", NULL};
  cmd_result_t r = rigor_exec(scratch, args);
  assert_int_equal(r.exit_code, 1);
  cmd_result_free(&r);
  char *out = path_join(scratch, "init.jsonl");
  json_t *recs = results_read(out);
  json_t *run = results_find_run(recs, 0);
  assert_string_equal(json_string_value(json_object_get(run, "status")), "failed");
  assert_non_null(strstr(json_string_value(json_object_get(run, "reason")), "init failed"));
  assert_int_equal(results_count(recs, "sample", NULL, NULL), 0);
  json_decref(recs);
  free(out);
  free(cfg);

  cfg = config_in(scratch, "check.yaml",
                  "schema: 1\nname: check\nplugin: fault\n"
                  "matrix: {mode: [none, fail_validate]}\n"
                  "timing: {warmup: 0, cycles: 2, iters: 1, check: 1}\n"
                  "order: {interleave: mode}\n"
                  "output: check.jsonl\n");
  const char *cargs[] = {"run", cfg, "--plugin-path", RIGOR_TEST_PLUGIN_DIR, "--no-report", NULL};
  r = rigor_exec(scratch, cargs);
  assert_int_equal(r.exit_code, 3);
  cmd_result_free(&r);
  out = path_join(scratch, "check.jsonl");
  recs = results_read(out);
  assert_string_equal(json_string_value(json_object_get(results_find_run(recs, 0), "status")),
                      "invalid");
  size_t i;
  json_t *rec;
  json_array_foreach(recs, i, rec) {
    if (strcmp(type_of(rec), "sample") != 0) continue;
    const char *status = json_string_value(json_object_get(rec, "status"));
    /* The passing arm's windows may be too short to quote; they are never wrong. */
    assert_int_equal(strcmp(status, "wrong") == 0, member(rec, "arm") == 1);
  }
  assert_int_equal(results_count(recs, "sample", NULL, NULL), 2 * 2);
  json_decref(recs);
  free(out);
  free(cfg);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_same_so_twice_is_two_instances, scratch_setup,
                                      scratch_teardown),
      cmocka_unit_test_setup_teardown(test_two_builds_in_one_process, scratch_setup,
                                      scratch_teardown),
      cmocka_unit_test_setup_teardown(test_spawned_run_hosts_its_arms, scratch_setup,
                                      scratch_teardown),
      cmocka_unit_test_setup_teardown(test_param_arms_have_their_own_params, scratch_setup,
                                      scratch_teardown),
      cmocka_unit_test_setup_teardown(test_stream_arms_with_their_own_elements, scratch_setup,
                                      scratch_teardown),
      cmocka_unit_test_setup_teardown(test_exec_arms_run_their_own_commands, scratch_setup,
                                      scratch_teardown),
      cmocka_unit_test_setup_teardown(test_a_failing_arm_fails_its_run, scratch_setup,
                                      scratch_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

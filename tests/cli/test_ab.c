/* rigor ab end to end, against the real binary: typed commands as interleaved exec arms (the
 * ABBA order in the records, the answer line, exit 4 for a slower arm, the results file always
 * written), a config with two builds of one plugin, and the usage errors. */
#include <jansson.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "test_files.h"

static char dir[1024];

/* Runs `rigor ARGS` in the scratch folder; *out gets stdout, *err stderr. */
static int rigor(char **out, char **err, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int rc = test_rigor_vin(dir, NULL, out, err, fmt, ap);
  va_end(ap);
  return rc;
}

static json_t *records_of(const char *name) {
  char path[1200];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "r");
  assert_non_null(f);
  json_t *all = json_array();
  char line[1 << 16];
  while (fgets(line, sizeof line, f)) {
    json_error_t e;
    json_t *r = json_loads(line, 0, &e);
    if (r) json_array_append_new(all, r);
  }
  fclose(f);
  return all;
}

static int setup(void **state) {
  (void)state;
  snprintf(dir, sizeof dir, "%s/ab-scratch", RIGOR_BINARY_DIR "/tests");
  char cmd[2200];
  snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", dir, dir);
  return system(cmd) == 0 ? 0 : -1;
}

/* Two commands, one fifty times the other: B is slower, exit 4, one answer line with its
 * interval; every run hosted both arms and each cycle measured them in turn, alternating. */
static void test_commands_interleaved(void **state) {
  (void)state;
  char *out, *err;
  int rc = rigor(&out, &err,
                 "ab 'sleep 0.001' 'sleep 0.05' --cycles 4 --min-runs 3 --max-runs 3 "
                 "--warmup 0 -o cmds.jsonl");
  if (rc != 4) fail_msg("exit %d\nstdout:\n%s\nstderr:\n%s", rc, out, err);
  if (!strstr(out, "B ran ") || !strstr(out, "× slower than A [") ||
      !strstr(out, "3 runs x 4 pairs"))
    fail_msg("answer: %s", out);
  assert_non_null(strstr(err, "A = sleep 0.001"));
  free(out), free(err);
  json_t *recs = records_of("cmds.jsonl");
  size_t i, runs = 0;
  json_t *r;
  int first_slot[3] = {-1, -1, -1};
  json_array_foreach(recs, i, r) {
    const char *type = json_string_value(json_object_get(r, "type"));
    if (!strcmp(type, "experiment")) {
      json_t *il = json_object_get(json_object_get(r, "schedule"), "interleave");
      assert_string_equal(json_string_value(json_object_get(il, "axis")), "command");
    } else if (!strcmp(type, "run")) {
      runs++;
      assert_int_equal(json_array_size(json_object_get(r, "arms")), 2);
    } else if (!strcmp(type, "sample")) {
      json_int_t run = json_integer_value(json_object_get(r, "run"));
      json_int_t cycle = json_integer_value(json_object_get(r, "cycle"));
      json_int_t arm = json_integer_value(json_object_get(r, "arm"));
      json_int_t slot = json_integer_value(json_object_get(r, "slot"));
      assert_true(run >= 0 && run < 3);
      /* ABBA: the arm that measures first changes every cycle. */
      if (arm == 0 && cycle == 0) first_slot[run] = (int)slot;
      if (arm == 0 && cycle == 1 && first_slot[run] >= 0)
        assert_int_equal(slot, 1 - first_slot[run]);
    }
  }
  assert_int_equal(runs, 3);
  json_decref(recs);
}

/* --name labels the arms; --format adds the whole report after the answers. Two runs of two
 * pairs say little (t with one degree of freedom): any verdict will do here. */
static void test_names_and_format(void **state) {
  (void)state;
  char *out, *err;
  int rc = rigor(&out, &err,
                 "ab -n fast -n slow 'sleep 0.001' 'sleep 0.05' --cycles 2 --min-runs 2 "
                 "--max-runs 2 --warmup 0 -q -o named.jsonl --format md");
  if (rc != 0 && rc != 4) fail_msg("exit %d\n%s\n%s", rc, out, err);
  assert_non_null(strstr(out, "slow ran "));
  assert_non_null(strstr(out, "than fast ["));
  assert_non_null(strstr(out, "## answers"));
  if (err[0]) fail_msg("stderr with -q: %s", err);
  free(out), free(err);
}

/* The same command twice is an A/A of two arms, as hyperfine allows, not a duplicate level.
 * Chance may still read a direction into two runs; the test asks only for the answer. */
static void test_same_command_twice(void **state) {
  (void)state;
  char *out, *err;
  int rc = rigor(&out, &err,
                 "ab 'sleep 0.001' 'sleep 0.001' --cycles 2 --min-runs 2 --max-runs 2 "
                 "--warmup 0 -q -o same.jsonl");
  if ((rc != 0 && rc != 4) || !strstr(out, "B ran ") || !strstr(out, " than A ["))
    fail_msg("exit %d\nstdout:\n%s\nstderr:\n%s", rc, out, err);
  free(out), free(err);
}

/* A config's plugin as two builds: the same folder twice is an A/A of two private copies. */
static void test_config_with_builds(void **state) {
  (void)state;
  char path[1200];
  snprintf(path, sizeof path, "%s/aa.yaml", dir);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs("schema: 1\nname: aa\nplugin: \"null\"\nparams: {spin_ns: 20000}\n"
        "timing: {warmup: 0, cycles: 4, iters: 20}\norder: {replicates: 3}\n",
        f);
  /* rigor ab's stop rule replaces the file's order: exactly 3 runs here. */
  fclose(f);
  char *out, *err;
  int rc = rigor(&out, &err,
                 "ab aa.yaml --build a=" RIGOR_PLUGIN_DIR " --build b=" RIGOR_PLUGIN_DIR
                 " --min-runs 3 --max-runs 3 -q -o aa.jsonl");
  if (rc != 0 && rc != 4) fail_msg("exit %d\n%s\n%s", rc, out, err);
  assert_non_null(strstr(out, "b ran "));
  assert_non_null(strstr(out, " than a ["));
  assert_non_null(strstr(out, "3 runs x 4 pairs"));
  free(out), free(err);
}

/* The memory the arms of a run hold together: rigor plan shows it from the plugin's footprint
 * hook, and rigor run refuses, before anything runs, a run that cannot fit. */
static void write_stream_arms(const char *name, const char *big) {
  char path[1200];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fprintf(f,
          "schema: 1\nname: mem\nplugin: stream\nparams: {kernels: triad, threads: 1}\n"
          "matrix: {elements: [1048576, %s]}\norder: {interleave: elements, replicates: 2}\n"
          "timing: {warmup: 0, cycles: 2, iters: 1}\n",
          big);
  fclose(f);
}

static void test_memory_of_the_arms(void **state) {
  (void)state;
  char *out, *err;
  write_stream_arms("mem_small.yaml", "2097152");
  assert_int_equal(rigor(&out, &err, "plan mem_small.yaml"), 0);
  /* 3 arrays of 8 MiB and 3 of 16 MiB, each rounded to 2 MiB. */
  if (!strstr(out, "memory: a run holds up to 72 MiB at once (every arm's instance together)"))
    fail_msg("%s", out);
  free(out), free(err);
  /* 2^40 doubles an array: 24 TiB for the second arm alone. */
  write_stream_arms("mem_huge.yaml", "1099511627776");
  assert_int_equal(rigor(&out, &err, "plan mem_huge.yaml"), 0);
  assert_non_null(strstr(out, "rigor run refuses it"));
  free(out), free(err);
  assert_int_equal(rigor(&out, &err, "run mem_huge.yaml -o mem_huge.jsonl"), 2);
  assert_non_null(strstr(err, "a run would hold 24 TiB at once (its arms together), more than"));
  assert_non_null(strstr(err, "order: {interleave: none}"));
  free(out), free(err);
  char path[1200];
  snprintf(path, sizeof path, "%s/mem_huge.jsonl", dir);
  assert_int_not_equal(access(path, F_OK), 0); /* nothing ran, nothing was written */
}

static void test_usage_errors(void **state) {
  (void)state;
  char *out, *err;
  assert_int_equal(rigor(&out, &err, "ab 'true'"), 2);
  assert_non_null(strstr(err, "needs two or more commands"));
  free(out), free(err);
  assert_int_equal(rigor(&out, &err, "ab --name 'a b' true false"), 2);
  assert_non_null(strstr(err, "--name 'a b'"));
  free(out), free(err);
  assert_int_equal(rigor(&out, &err, "ab true false --build x=/tmp"), 2);
  assert_non_null(strstr(err, "--build and --axis need a CONFIG"));
  free(out), free(err);
  assert_int_equal(rigor(&out, &err, "ab true false --precision 5"), 2);
  free(out), free(err);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_commands_interleaved), cmocka_unit_test(test_names_and_format),
      cmocka_unit_test(test_same_command_twice),   cmocka_unit_test(test_config_with_builds),
      cmocka_unit_test(test_memory_of_the_arms),   cmocka_unit_test(test_usage_errors),
  };
  return cmocka_run_group_tests(tests, setup, NULL);
}

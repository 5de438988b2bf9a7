/* The exec plugin through the rigor binary, as a user runs it: the --allow-commands gate, plan's
 * command list, refusals at file:line:col, exit codes 0/1/3/5, and what the results file holds. */
#include <dirent.h>
#include <jansson.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "support.h"

static char *dir;

static int setup(void **state) {
  (void)state;
  dir = tmpdir_make();
  return 0;
}

static int teardown(void **state) {
  (void)state;
  tmpdir_remove(dir);
  return 0;
}

static cmd_result_t rigor(const char *verb, const char *file, bool allow) {
  const char *args[] = {verb, file, "--no-report", allow ? "--allow-commands" : NULL, NULL};
  if (strcmp(verb, "run") != 0) args[2] = NULL;
  return rigor_exec(dir, args);
}

static void assert_contains(const char *text, const char *needle) {
  if (!strstr(text, needle)) fail_msg("'%s' not in:\n%s", needle, text);
}

static json_t *first_of(const json_t *records, const char *type) {
  size_t i;
  json_t *rec;
  json_array_foreach(records, i, rec) {
    if (strcmp(json_string_value(json_object_get(rec, "type")), type) == 0) return rec;
  }
  return NULL;
}

static void test_commands_need_allow_and_plan_lists_them(void **state) {
  (void)state;
  char yaml[1024];
  snprintf(yaml, sizeof yaml,
           "schema: 1\n"
           "name: gate\n"
           "plugin: exec\n"
           "params:\n"
           "  command: [" EXEC_PROBE ", \"out:{size}\", \"cwd\"]\n"
           "  vars: {size: 1K}\n"
           "  setup: [touch, %s/PLANTED]\n"
           "sweep: {vars.size: [1K, 1M]}\n"
           "matrix: {env: [{label: c, value: {LC_ALL: C}}, {label: posix, value: {LC_ALL: "
           "POSIX}}]}\n"
           "timing: {warmup: 0, cycles: 1, iters: 1}\n"
           "output: gate.jsonl\n",
           dir);
  char *cfg = config_in(dir, "gate.yaml", yaml);
  cmd_result_t r = rigor("run", cfg, false);
  assert_int_equal(r.exit_code, 2);
  assert_contains(r.err, "would execute external commands (see `rigor plan`); nothing was run: "
                         "rerun with --allow-commands");
  cmd_result_free(&r);
  char *planted = path_join(dir, "PLANTED");
  assert_int_not_equal(access(planted, F_OK), 0);
  r = rigor("plan", cfg, false);
  assert_int_equal(r.exit_code, 0);
  assert_contains(r.out, "commands (executed only under --allow-commands):");
  assert_contains(r.out, "! v0 env=c: env LC_ALL=C " EXEC_PROBE " out:1K cwd\n");
  assert_contains(r.out, "! v0 env=c: env LC_ALL=C " EXEC_PROBE " out:1M cwd\n");
  assert_contains(r.out, "! v1 env=posix: setup: env LC_ALL=POSIX touch ");
  assert_contains(r.out, "    !  1  v1   env=posix");
  cmd_result_free(&r);
  r = rigor("run", cfg, true);
  assert_int_equal(r.exit_code, 0);
  cmd_result_free(&r);
  assert_int_equal(access(planted, F_OK), 0);
  free(planted);
  free(cfg);
}

/* Each bad config and the first line `rigor validate` must print for it. */
static void test_bad_params_are_refused_at_their_node(void **state) {
  (void)state;
  static const struct {
    const char *yaml, *error;
  } cases[] = {
      {"schema: 1\nname: e\nplugin: exec\nparams:\n  command: []\n",
       "e.yaml:5:12: plugin 'exec': param 'command': the argv list is empty"},
      {"schema: 1\nname: e\nplugin: exec\n",
       "e.yaml:1:1: plugin 'exec': param 'command': is required"},
      {"schema: 1\nname: e\nplugin: exec\nparams:\n  vars: {n: 1}\n"
       "  command: [prog, \"--size={sizes}\"]\n",
       "e.yaml:6:12: plugin 'exec': param 'command': {sizes} names no variable (known: n, tmp)"},
      {"schema: 1\nname: e\nplugin: exec\nparams:\n  command: [prog, \"{size}\"]\n"
       "sweep: {vars.sise: [1K, 1M]}\n",
       "e.yaml:5:12: plugin 'exec': param 'command': {size} names no variable (known: sise, tmp)"},
      {"schema: 1\nname: e\nplugin: exec\nparams:\n  command: [prog]\n"
       "  expect_stdout: \"busbw (\"\n",
       "e.yaml:6:18: plugin 'exec': param 'expect_stdout': /busbw (/ does not compile"},
      {"schema: 1\nname: e\nplugin: exec\nparams:\n  command: [prog]\n  metrics:\n"
       "    busbw: {regex: \"([0-9.]+\", better: higher}\n",
       "e.yaml:7:12: plugin 'exec': param 'metrics.busbw': /([0-9.]+/ does not compile"},
      {"schema: 1\nname: e\nplugin: exec\nparams:\n  command: [prog]\n"
       "matrix:\n  env.PATH: [/bin, \"{nowhere}\"]\n",
       "e.yaml:7:3: plugin 'exec': param 'env.PATH': {nowhere} names no variable (known: tmp) "
       "(variant PATH={nowhere})"},
      {"schema: 1\nname: e\nplugin: exec\nparams: {command: [prog], vars: {a: 1}}\n"
       "sweep: {vars: [{a: 1}], vars.a: [2]}\n",
       "e.yaml:5:25: sweep axes 'vars' and 'vars.a' set the same param"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char *cfg = config_in(dir, "e.yaml", cases[i].yaml);
    cmd_result_t r = rigor("validate", cfg, false);
    if (r.exit_code != 2 || !strstr(r.err, cases[i].error))
      fail_msg("case %zu: exit %d, expected '%s' in:\n%s", i, r.exit_code, cases[i].error, r.err);
    cmd_result_free(&r);
    free(cfg);
  }
}

static void test_a_command_from_a_base_file_is_checked_there(void **state) {
  (void)state;
  free(config_in(dir, "base.yaml",
                 "schema: 1\nplugin: exec\nparams:\n  command: [prog, \"{missing}\"]\n"));
  char *cfg = config_in(dir, "child.yaml", "schema: 1\nextends: base.yaml\nname: c\n");
  cmd_result_t r = rigor("validate", cfg, false);
  assert_int_equal(r.exit_code, 2);
  assert_contains(r.err, "base.yaml:4:12: plugin 'exec': param 'command': {missing} names no "
                         "variable");
  cmd_result_free(&r);
  free(cfg);
  /* A base that runs a command makes the extending file need --allow-commands. */
  free(config_in(dir, "base.yaml", "schema: 1\nplugin: exec\nparams:\n  command: [true]\n"));
  cfg = config_in(dir, "child.yaml",
                  "schema: 1\nextends: base.yaml\nname: c\noutput: c.jsonl\n"
                  "timing: {warmup: 0, cycles: 1, iters: 1}\n");
  r = rigor("run", cfg, false);
  assert_int_equal(r.exit_code, 2);
  cmd_result_free(&r);
  free(cfg);
}

static void test_results_carry_metrics_checks_and_spawn_cost(void **state) {
  (void)state;
  char *cfg =
      config_in(dir, "ok.yaml",
                "schema: 1\nname: ok\nplugin: exec\n"
                "params:\n"
                "  command: [" EXEC_PROBE ", \"out:size {size} busbw 12.5\", \"err:#wrong 0\"]\n"
                "  expect_stdout: \"^size [0-9]+[KM]\"\n"
                "  metrics:\n"
                "    busbw: {regex: \"busbw ([0-9.]+)\", better: higher, unit: GB/s}\n"
                "    wrong: {regex: \"#wrong ([0-9]+)\", better: lower, from: stderr}\n"
                "sweep: {vars.size: [1K, 1M]}\n"
                "matrix: {vars.level: ['1', '9']}\n"
                "timing: {warmup: 1, cycles: 2, iters: 2}\n"
                "order: {design: mirrored, replicates: 2}\n"
                "output: ok.jsonl\n");
  cmd_result_t r = rigor("run", cfg, true);
  if (r.exit_code != 0) fail_msg("exit %d:\n%s", r.exit_code, r.err);
  cmd_result_free(&r);
  char *path = path_join(dir, "ok.jsonl");
  json_t *recs = results_read(path);
  assert_int_equal(results_count(recs, "run", "status", "ok"), 4);
  assert_int_equal(results_count(recs, "sample", "status", "ok"), 4 * 2 * 2);
  json_t *exp = first_of(recs, "experiment");
  json_t *declared = json_object_get(json_object_get(exp, "plugin"), "metrics");
  assert_int_equal(json_array_size(declared), 3);
  assert_string_equal(json_string_value(json_object_get(json_array_get(declared, 1), "name")),
                      "busbw");
  assert_string_equal(json_string_value(json_object_get(json_array_get(declared, 1), "unit")),
                      "GB/s");
  assert_string_equal(json_string_value(json_object_get(json_array_get(declared, 1), "better")),
                      "higher");
  json_t *sample = first_of(recs, "sample");
  json_t *metrics = json_object_get(sample, "metrics");
  assert_true(json_real_value(json_object_get(metrics, "busbw")) == 12.5);
  assert_true(json_real_value(json_object_get(metrics, "wrong")) == 0);
  double spawn = json_real_value(json_object_get(metrics, "spawn_s"));
  assert_true(spawn > 0 && spawn < 1);
  assert_string_equal(json_string_value(json_object_get(sample, "point_label")), "vars.size=1K");
  assert_int_equal(json_integer_value(json_object_get(json_object_get(sample, "check"), "checked")),
                   2);
  json_t *run = results_find_run(recs, 0);
  json_t *identity = json_object_get(run, "plugin_identity");
  assert_string_equal(json_string_value(json_object_get(identity, "exec.program")), EXEC_PROBE);
  assert_non_null(json_object_get(identity, "exec.spawn_s"));
  assert_contains(json_string_value(json_object_get(run, "label")), "level=");
  json_decref(recs);
  free(path);
  free(cfg);
}

static void test_a_failed_execution_fails_the_sample(void **state) {
  (void)state;
  char *cfg = config_in(dir, "bad.yaml",
                        "schema: 1\nname: bad\nplugin: exec\n"
                        "params: {command: [" EXEC_PROBE ", \"err:no space left\", exit:3]}\n"
                        "timing: {warmup: 0, cycles: 2, iters: 1}\noutput: bad.jsonl\n");
  cmd_result_t r = rigor("run", cfg, true);
  assert_int_equal(r.exit_code, 3);
  cmd_result_free(&r);
  char *path = path_join(dir, "bad.jsonl");
  json_t *recs = results_read(path);
  assert_int_equal(results_count(recs, "sample", "status", "wrong"), 2);
  json_t *check = json_object_get(first_of(recs, "sample"), "check");
  assert_contains(json_string_value(json_object_get(check, "detail")),
                  "execution 1: exit status 3 (expected 0); stderr: ...no space left");
  json_t *run = results_find_run(recs, 0);
  assert_string_equal(json_string_value(json_object_get(run, "status")), "invalid");
  assert_contains(json_string_value(json_object_get(run, "reason")), "exit status 3");
  json_decref(recs);
  free(path);
  free(cfg);
  cfg = config_in(dir, "out.yaml",
                  "schema: 1\nname: out\nplugin: exec\n"
                  "params: {command: [" EXEC_PROBE ", \"out:1 wrong\"], expect_stdout: '^0 "
                  "wrong'}\n"
                  "timing: {warmup: 0, cycles: 1, iters: 1}\noutput: out.jsonl\n");
  r = rigor("run", cfg, true);
  assert_int_equal(r.exit_code, 3);
  cmd_result_free(&r);
  free(cfg);
}

static void test_timeout_fails_the_run_and_absence_skips_it(void **state) {
  (void)state;
  char *cfg = config_in(dir, "slow.yaml",
                        "schema: 1\nname: slow\nplugin: exec\n"
                        "params: {command: [" EXEC_PROBE ", \"sleep:20\"], timeout: 0.2}\n"
                        "timing: {warmup: 0, cycles: 1, iters: 1}\noutput: slow.jsonl\n");
  cmd_result_t r = rigor("run", cfg, true);
  assert_int_equal(r.exit_code, 1);
  cmd_result_free(&r);
  char *path = path_join(dir, "slow.jsonl");
  json_t *recs = results_read(path);
  json_t *run = results_find_run(recs, 0);
  assert_string_equal(json_string_value(json_object_get(run, "status")), "timeout");
  assert_contains(json_string_value(json_object_get(run, "reason")),
                  "ran past its timeout of 0.2 s; its process group was killed");
  json_decref(recs);
  free(path);
  free(cfg);
  cfg = config_in(dir, "absent.yaml",
                  "schema: 1\nname: absent\nplugin: exec\n"
                  "params: {command: [rigor-absent-program, -b, 8]}\n"
                  "output: absent.jsonl\n");
  r = rigor("run", cfg, true);
  assert_int_equal(r.exit_code, 5);
  cmd_result_free(&r);
  path = path_join(dir, "absent.jsonl");
  recs = results_read(path);
  run = results_find_run(recs, 0);
  assert_string_equal(json_string_value(json_object_get(run, "status")), "skipped");
  assert_contains(json_string_value(json_object_get(run, "reason")),
                  "'rigor-absent-program' is not on PATH");
  json_decref(recs);
  free(path);
  free(cfg);
}

static size_t scratch_folders(const char *tmpdir) {
  DIR *d = opendir(tmpdir);
  assert_non_null(d);
  size_t n = 0;
  for (struct dirent *e; (e = readdir(d));)
    n += strncmp(e->d_name, "rigor-exec-", 11) == 0;
  closedir(d);
  return n;
}

/* rigor stopped by SIGTERM while a program runs: the run's process dies of the signal, and its
 * {tmp} folder goes with it. */
static void test_sigterm_removes_the_scratch_folder(void **state) {
  (void)state;
  char *tmpdir = path_join(dir, "tmp"), *started = path_join(dir, "started");
  assert_int_equal(mkdir(tmpdir, 0700), 0);
  char yaml[1024];
  snprintf(yaml, sizeof yaml,
           "schema: 1\nname: stopped\nplugin: exec\n"
           "params: {command: [sh, -c, \"touch {tmp}/mine && touch %s && sleep 30\"]}\n"
           "timing: {warmup: 0, cycles: 1, iters: 1}\noutput: stopped.jsonl\n",
           started);
  char *cfg = config_in(dir, "stopped.yaml", yaml);
  setenv("TMPDIR", tmpdir, 1);
  const char *args[] = {"run", cfg, "--no-report", "--allow-commands", NULL};
  pid_t pid = rigor_start(dir, args);
  unsetenv("TMPDIR");
  assert_true(pid > 0);
  for (int i = 0; i < 6000 && access(started, F_OK) != 0; i++)
    usleep(10000);
  assert_int_equal(access(started, F_OK), 0);
  assert_int_equal(scratch_folders(tmpdir), 1);
  kill(pid, SIGTERM);
  int status = 0;
  assert_int_equal(waitpid(pid, &status, 0), pid);
  assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 128 + SIGTERM);
  assert_int_equal(scratch_folders(tmpdir), 0);
  free(cfg), free(started), free(tmpdir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_commands_need_allow_and_plan_lists_them),
      cmocka_unit_test(test_bad_params_are_refused_at_their_node),
      cmocka_unit_test(test_a_command_from_a_base_file_is_checked_there),
      cmocka_unit_test(test_results_carry_metrics_checks_and_spawn_cost),
      cmocka_unit_test(test_a_failed_execution_fails_the_sample),
      cmocka_unit_test(test_timeout_fails_the_run_and_absence_skips_it),
      cmocka_unit_test(test_sigterm_removes_the_scratch_folder),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}

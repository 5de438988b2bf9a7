/* One command gate, checked once before anything runs: a launcher is a command (listed by
 * `rigor plan`, refused without --allow-commands, from a base too); a suite is refused whole
 * before its first run; `plan` shows a long command in full. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "support.h"

static bool exists(const char *name) {
  char *path = path_join(scratch, name);
  bool there = access(path, F_OK) == 0;
  free(path);
  return there;
}

/* A launcher that leaves a mark, then runs the run's process. */
#define MARKING_LAUNCHER "launcher: [sh, -c, 'touch launched; exec \"$@\"', sh]\n"

static void test_launcher_is_a_command(void **st) {
  (void)st;
  char *cfg = config_in(scratch, "l.yaml",
                        "schema: 1\nname: l\nplugin: \"null\"\n" MARKING_LAUNCHER
                        "timing: {warmup: 0, cycles: 1, iters: 1}\noutput: l.jsonl\n");
  const char *plan[] = {"plan", cfg, NULL};
  cmd_result_t r = rigor_exec(scratch, plan);
  assert_int_equal(r.exit_code, 0);
  assert_non_null(strstr(r.out, "commands (executed only under --allow-commands)"));
  assert_non_null(strstr(r.out, "! v0 default: launcher: sh -c"));
  assert_non_null(strstr(r.out, "touch launched"));
  cmd_result_free(&r);

  const char *run[] = {"run", cfg, "--quiet", NULL};
  r = rigor_exec(scratch, run);
  assert_int_equal(r.exit_code, 2);
  assert_non_null(strstr(r.err, "experiment 'l' would execute external commands"));
  assert_non_null(strstr(r.err, "--allow-commands"));
  cmd_result_free(&r);
  assert_false(exists("launched"));
  assert_false(exists("l.jsonl"));

  const char *allowed[] = {"run", cfg, "--quiet", "--allow-commands", NULL};
  r = rigor_exec(scratch, allowed);
  assert_int_equal(r.exit_code, 0);
  cmd_result_free(&r);
  assert_true(exists("launched"));
  free(cfg);
}

/* A base the file extends may not slip a launcher past the gate. */
static void test_launcher_from_a_base(void **st) {
  (void)st;
  free(config_in(scratch, "base.yaml", "schema: 1\n" MARKING_LAUNCHER));
  char *cfg = config_in(scratch, "child.yaml",
                        "schema: 1\nextends: base.yaml\nname: child\nplugin: \"null\"\n"
                        "timing: {warmup: 0, cycles: 1, iters: 1}\noutput: child.jsonl\n");
  const char *run[] = {"run", cfg, "--quiet", NULL};
  cmd_result_t r = rigor_exec(scratch, run);
  assert_int_equal(r.exit_code, 2);
  assert_non_null(strstr(r.err, "experiment 'child' would execute external commands"));
  cmd_result_free(&r);
  assert_false(exists("launched"));
  free(cfg);
}

/* The third experiment runs a command: the first two do not run either. */
static void test_suite_is_checked_whole(void **st) {
  (void)st;
  char *cfg = config_in(scratch, "suite.yaml",
                        "schema: 1\nname: suite\n"
                        "defaults:\n  timing: {warmup: 0, cycles: 1, iters: 1}\n"
                        "experiments:\n"
                        "  - {name: one, plugin: \"null\", output: one.jsonl}\n"
                        "  - {name: two, plugin: \"null\", output: two.jsonl}\n"
                        "  - name: three\n    plugin: exec\n"
                        "    params: {command: [sh, -c, 'touch executed']}\n"
                        "    output: three.jsonl\n");
  const char *run[] = {"run", cfg, "--quiet", NULL};
  cmd_result_t r = rigor_exec(scratch, run);
  assert_int_equal(r.exit_code, 2);
  assert_non_null(strstr(r.err, "experiment 'three' would execute external commands"));
  assert_non_null(strstr(r.err, "nothing was run"));
  cmd_result_free(&r);
  assert_false(exists("one.jsonl"));
  assert_false(exists("two.jsonl"));
  assert_false(exists("executed"));
  free(cfg);
}

/* A command far longer than a line buffer is shown whole. */
static void test_plan_shows_a_long_command_in_full(void **st) {
  (void)st;
  size_t n = 20000;
  char *word = malloc(n + 1);
  memset(word, 'x', n);
  word[n - 1] = 'Z';
  word[n] = '\0';
  size_t size = n + 512;
  char *yaml = malloc(size);
  snprintf(yaml, size,
           "schema: 1\nname: long\nplugin: exec\n"
           "params: {command: [echo, %s]}\noutput: long.jsonl\n",
           word);
  char *cfg = config_in(scratch, "long.yaml", yaml);
  const char *plan[] = {"plan", cfg, NULL};
  cmd_result_t r = rigor_exec(scratch, plan);
  assert_int_equal(r.exit_code, 0);
  assert_non_null(strstr(r.out, word));
  assert_null(strstr(r.out, "[cut:"));
  cmd_result_free(&r);
  free(cfg), free(yaml), free(word);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_launcher_is_a_command, scratch_setup, scratch_teardown),
      cmocka_unit_test_setup_teardown(test_launcher_from_a_base, scratch_setup, scratch_teardown),
      cmocka_unit_test_setup_teardown(test_suite_is_checked_whole, scratch_setup, scratch_teardown),
      cmocka_unit_test_setup_teardown(test_plan_shows_a_long_command_in_full, scratch_setup,
                                      scratch_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

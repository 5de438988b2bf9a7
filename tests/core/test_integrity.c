/* Results integrity under concurrent and careless use: nothing written is lost, no file is
 * written twice at once, and every path that is no results file is refused with exit 2. */
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "support.h"

static const char quick[] = "schema: 1\nname: quick\nplugin: \"null\"\n"
                            "timing: {warmup: 0, cycles: 2, iters: 10}\n"
                            "order: {design: sequential, replicates: 2}\n";

static cmd_result_t run_args(const char *a1, const char *a2, const char *a3, const char *a4,
                             const char *a5) {
  const char *args[] = {
      "run", a1, "--plugin-path", RIGOR_TEST_PLUGIN_DIR, "--no-report", a2, a3, a4, a5, NULL};
  return rigor_exec(scratch, args);
}

static void expect_refusal(cmd_result_t *r, const char *message) {
  if (r->exit_code != 2 || !strstr(r->err, message))
    fprintf(stderr, "exit %d, stderr: %s\n", r->exit_code, r->err);
  assert_int_equal(r->exit_code, 2);
  assert_non_null(strstr(r->err, message));
  cmd_result_free(r);
}

/* Two experiments of one suite writing one file under two spellings: the second appends to what
 * the first wrote in the same invocation, even with --force. */
static void test_two_spellings_are_one_file(void **st) {
  (void)st;
  char *cfg = config_in(scratch, "suite.yaml",
                        "schema: 1\nname: suite\n"
                        "defaults: {plugin: \"null\", timing: {warmup: 0, cycles: 2, iters: 10}}\n"
                        "experiments:\n"
                        "  - {name: a, output: r.jsonl}\n"
                        "  - {name: b, output: ./r.jsonl}\n");
  char *out = path_join(scratch, "r.jsonl");
  write_file(out, "");
  cmd_result_t r = run_args(cfg, "--force", NULL, NULL, NULL);
  assert_int_equal(r.exit_code, 0);
  json_t *recs = results_read(out);
  assert_int_equal(results_count(recs, "experiment", NULL, NULL), 2);
  assert_int_equal(results_count(recs, "run", NULL, NULL), 2);
  json_decref(recs);
  cmd_result_free(&r);
  free(out);
  free(cfg);
}

/* -o naming the experiment file (or a file it extends) is refused, --force or not. */
static void test_output_is_never_the_config(void **st) {
  (void)st;
  char *base = config_in(scratch, "base.yaml", "schema: 1\ntiming: {warmup: 0, cycles: 2}\n");
  char *cfg = config_in(scratch, "own.yaml",
                        "schema: 1\nname: own\nplugin: \"null\"\nextends: base.yaml\n");
  char *before = read_file(cfg), *base_before = read_file(base);
  cmd_result_t r = run_args(cfg, "-o", cfg, "--force", NULL);
  expect_refusal(&r, "is the experiment file");
  r = run_args(cfg, "-o", base, "--force", NULL);
  expect_refusal(&r, "is the experiment file");
  char *after = read_file(cfg), *base_after = read_file(base);
  assert_string_equal(before, after);
  assert_string_equal(base_before, base_after);
  free(before), free(after), free(base_before), free(base_after);
  free(cfg);
  free(base);
}

/* A valid file whose last record lacks its final newline is resumed without gluing the next
 * record onto that line. */
static void test_resume_after_missing_final_newline(void **st) {
  (void)st;
  char *cfg = config_in(scratch, "nl.yaml", quick);
  char *out = path_join(scratch, "nl.jsonl");
  cmd_result_t r = run_args(cfg, "-o", out, NULL, NULL);
  assert_int_equal(r.exit_code, 0);
  cmd_result_free(&r);
  /* Drop the last run record and the newline of the record before it. */
  char *text = read_file(out);
  char *last = strrchr(text, '\n');
  *last = '\0';
  char *cut = strrchr(text, '\n');
  *cut = '\0';
  write_file(out, text);
  free(text);
  r = run_args(cfg, "-o", out, "--resume", NULL);
  assert_int_equal(r.exit_code, 0);
  cmd_result_free(&r);
  json_t *recs = results_read(out);
  assert_int_equal(results_count(recs, "run", "status", "ok"), 2);
  json_decref(recs);
  const char *args[] = {"report", out, NULL};
  r = rigor_exec(scratch, args);
  assert_int_equal(r.exit_code, 0);
  cmd_result_free(&r);
  free(out);
  free(cfg);
}

/* One writer at a time: a second run or resume of a file being written is refused. */
static void test_second_writer_is_refused(void **st) {
  (void)st;
  char *cfg = config_in(scratch, "slow.yaml",
                        "schema: 1\nname: slow\nplugin: fault\n"
                        "params: {mode: slow, sleep_us: 100000}\n"
                        "timing: {warmup: 0, cycles: 20, iters: 1}\n"
                        "order: {design: sequential, replicates: 3}\n");
  char *out = path_join(scratch, "slow.jsonl");
  const char *args[] = {
      "run", cfg, "--plugin-path", RIGOR_TEST_PLUGIN_DIR, "--quiet", "--no-report", "-o",
      out,   NULL};
  pid_t first = rigor_start(scratch, args);
  /* Wait until the first has written its experiment record, so the file exists. */
  for (int i = 0; i < 500; i++) {
    struct stat sb;
    if (stat(out, &sb) == 0 && sb.st_size > 0) break;
    usleep(10000);
  }
  cmd_result_t r = run_args(cfg, "-o", out, "--resume", NULL);
  expect_refusal(&r, "another rigor is writing this results file");
  r = run_args(cfg, "-o", out, "--force", NULL);
  expect_refusal(&r, "another rigor is writing this results file");
  kill(first, SIGTERM);
  waitpid(first, NULL, 0);
  free(out);
  free(cfg);
}

/* --resume on a file that holds only other experiments is refused. */
static void test_resume_of_a_foreign_file(void **st) {
  (void)st;
  char *other = config_in(scratch, "other.yaml",
                          "schema: 1\nname: other\nplugin: \"null\"\n"
                          "timing: {warmup: 0, cycles: 2, iters: 10}\n");
  char *cfg = config_in(scratch, "mine.yaml", quick);
  char *out = path_join(scratch, "shared.jsonl");
  cmd_result_t r = run_args(other, "-o", out, NULL, NULL);
  assert_int_equal(r.exit_code, 0);
  cmd_result_free(&r);
  char *before = read_file(out);
  r = run_args(cfg, "-o", out, "--resume", NULL);
  expect_refusal(&r, "holds experiment other, none of this config's");
  char *after = read_file(out);
  assert_string_equal(before, after);
  free(before), free(after), free(out), free(cfg), free(other);
}

/* A raw telemetry sidecar left from deleted results is not appended to. */
static void test_stale_sidecar(void **st) {
  (void)st;
  char *cfg = config_in(scratch, "side.yaml",
                        "schema: 1\nname: side\nplugin: \"null\"\n"
                        "timing: {warmup: 0, cycles: 2, iters: 10}\n"
                        "environment: {telemetry: {raw: true, interval: 10ms}}\n");
  char *out = path_join(scratch, "side.jsonl"),
       *side = path_join(scratch, "side.jsonl.telemetry.jsonl");
  cmd_result_t r = run_args(cfg, "-o", out, NULL, NULL);
  assert_int_equal(r.exit_code, 0);
  cmd_result_free(&r);
  unlink(out);
  char *stale = read_file(side);
  r = run_args(cfg, "-o", out, NULL, NULL);
  expect_refusal(&r, "holds raw telemetry of other results");
  char *kept = read_file(side);
  assert_string_equal(stale, kept);
  r = run_args(cfg, "-o", out, "--force", NULL);
  assert_int_equal(r.exit_code, 0);
  cmd_result_free(&r);
  free(stale), free(kept), free(out), free(side), free(cfg);
}

/* Paths that are no results file: exit 2, with what the path is, and nothing blocks. */
static void test_bad_output_paths(void **st) {
  (void)st;
  char *cfg = config_in(scratch, "paths.yaml", quick);
  cmd_result_t r = run_args(cfg, "-o", "", NULL, NULL);
  expect_refusal(&r, "the results path is empty");
  char longname[NAME_MAX + 20];
  memset(longname, 'x', sizeof longname - 1);
  longname[sizeof longname - 1] = '\0';
  r = run_args(cfg, "-o", longname, NULL, NULL);
  expect_refusal(&r, "a file name is longer than");
  char *folder = path_join(scratch, "afolder");
  assert_int_equal(mkdir(folder, 0755), 0);
  r = run_args(cfg, "-o", folder, "--force", NULL);
  expect_refusal(&r, "is a folder");
  char *dangling = path_join(scratch, "dangling.jsonl");
  assert_int_equal(symlink("/nonexistent/target", dangling), 0);
  r = run_args(cfg, "-o", dangling, NULL, NULL);
  expect_refusal(&r, "is a symlink");
  char *fifo = path_join(scratch, "fifo.jsonl");
  assert_int_equal(mkfifo(fifo, 0600), 0);
  r = run_args(cfg, "-o", fifo, "--force", NULL);
  expect_refusal(&r, "is a FIFO");
  free(folder), free(dangling), free(fifo), free(cfg);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_two_spellings_are_one_file, scratch_setup,
                                      scratch_teardown),
      cmocka_unit_test_setup_teardown(test_output_is_never_the_config, scratch_setup,
                                      scratch_teardown),
      cmocka_unit_test_setup_teardown(test_resume_after_missing_final_newline, scratch_setup,
                                      scratch_teardown),
      cmocka_unit_test_setup_teardown(test_second_writer_is_refused, scratch_setup,
                                      scratch_teardown),
      cmocka_unit_test_setup_teardown(test_resume_of_a_foreign_file, scratch_setup,
                                      scratch_teardown),
      cmocka_unit_test_setup_teardown(test_stale_sidecar, scratch_setup, scratch_teardown),
      cmocka_unit_test_setup_teardown(test_bad_output_paths, scratch_setup, scratch_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

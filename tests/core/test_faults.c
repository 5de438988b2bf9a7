/* Fault injection through real signals and the fault plugin: SIGINT with burners running,
 * SIGKILL at random moments followed by --resume, NaN metrics, a hang past the timeout while
 * burners run. Every case asserts what the results file holds afterwards. */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "reader.h"
#include "support.h"

static char *config(const char *name, const char *yaml) {
  return config_in(scratch, name, yaml);
}

static bool process_alive(pid_t pid) {
  if (kill(pid, 0) != 0) return errno != ESRCH;
  /* A zombie has exited; only its entry is left for its parent to reap. */
  char path[64], *stat;
  snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
  stat = read_file(path);
  if (!stat) return false;
  char *close_paren = strrchr(stat, ')');
  bool zombie = close_paren && close_paren[1] == ' ' && close_paren[2] == 'Z';
  free(stat);
  return !zombie;
}

/* Every burner recorded in run records is gone; returns how many were recorded. */
static size_t assert_burners_gone(const json_t *recs) {
  size_t n = 0, i, j;
  json_t *rec, *b;
  json_array_foreach(recs, i, rec) {
    json_array_foreach(json_object_get(json_object_get(rec, "noise"), "burners"), j, b) {
      json_t *pid = json_object_get(b, "pid");
      assert_true(json_is_integer(pid));
      assert_false(process_alive((pid_t)json_integer_value(pid)));
      n++;
    }
  }
  return n;
}

static const char *burner_env =
    "environment: {noise: {label: same-core, burners: [{kind: cpu, cpus: [0]}]}}\n";

static void test_sigint_finishes_record_and_kills_burners(void **st) {
  (void)st;
  char yaml[1024];
  snprintf(yaml, sizeof yaml,
           "schema: 1\nname: sigint\nplugin: fault\n"
           "params: {mode: slow, sleep_us: 50000}\n"
           "timing: {warmup: 0, cycles: 4, iters: 2}\n"
           "order: {design: sequential, replicates: 6}\n%soutput: sigint.jsonl\n",
           burner_env);
  char *cfg = config("sigint.yaml", yaml);
  char *out = path_join(scratch, "sigint.jsonl");
  const char *args[] = {"run", cfg, "--plugin-path", RIGOR_TEST_PLUGIN_DIR, "--quiet", NULL};
  pid_t pid = rigor_start(scratch, args);
  assert_true(wait_for_runs(out, 1) >= 1);
  usleep(100000); /* inside the second run, burners started */
  kill(pid, SIGINT);
  int status;
  waitpid(pid, &status, 0);
  assert_true(WIFEXITED(status));
  assert_int_equal(WEXITSTATUS(status), 128 + SIGINT);
  assert_int_equal(processes_matching(cfg), 0);

  json_t *recs = results_read(out);
  assert_int_equal(results_count(recs, "run", "status", "ok"), 1);
  assert_int_equal(results_count(recs, "run", "status", "interrupted"), 1);
  json_t *cut = results_find_run(recs, 1);
  assert_string_equal(json_string_value(json_object_get(cut, "status")), "interrupted");
  assert_string_equal(json_string_value(json_object_get(cut, "reason")),
                      "rigor received Interrupt");
  assert_true(assert_burners_gone(recs) >= 2);
  json_decref(recs);
  free(out);
  free(cfg);
}

static void test_sigint_message(void **st) {
  (void)st;
  char *cfg = config("msg.yaml", "schema: 1\nname: msg\nplugin: fault\n"
                                 "params: {mode: slow, sleep_us: 50000}\n"
                                 "timing: {warmup: 0, cycles: 4, iters: 2}\n"
                                 "order: {design: sequential, replicates: 4}\n"
                                 "output: msg.jsonl\n");
  char *out = path_join(scratch, "msg.jsonl");
  char *err = path_join(scratch, "msg.err");
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    if (!freopen(err, "w", stderr) || chdir(scratch) != 0) _exit(127);
    execl(RIGOR_EXE, "rigor", "run", cfg, "--plugin-path", RIGOR_TEST_PLUGIN_DIR, "--quiet",
          (char *)NULL);
    _exit(127);
  }
  assert_true(wait_for_runs(out, 1) >= 1);
  kill(pid, SIGINT);
  int status;
  waitpid(pid, &status, 0);
  assert_int_equal(WEXITSTATUS(status), 128 + SIGINT);
  char *text = read_file(err);
  assert_string_equal(text, "rigor: stopped by Interrupt; the results file holds every finished "
                            "run (use --resume to finish)\n");
  free(text);
  free(err);
  free(out);
  free(cfg);
}

/* The reader's view of a file a killed writer left: its experiment and run records. */
static int keep_record(void *records, json_t *rec, const char *type, size_t line) {
  (void)type, (void)line;
  return json_array_append(records, rec);
}

static json_t *experiment_record(const json_t *recs) {
  size_t i;
  json_t *rec;
  json_array_foreach(recs, i, rec) {
    if (strcmp(json_string_value(json_object_get(rec, "type")), "experiment") == 0) return rec;
  }
  return NULL;
}

/* 20 SIGKILLs at random moments, each followed by --resume: the file always reads, and the last
 * resume completes the schedule of an uninterrupted run with exactly one ok run per index. */
static void test_sigkill_resume_twenty_times(void **st) {
  (void)st;
  const char *yaml = "schema: 1\nname: kill\nplugin: fault\n"
                     "params: {mode: slow}\n"
                     "matrix: {sleep_us: [10000, 16000, 22000]}\n"
                     "timing: {warmup: 0, cycles: 2, iters: 2}\n"
                     "order: {design: random, replicates: 8, seed: 11}\n";
  char text[1024];
  snprintf(text, sizeof text, "%soutput: reference.jsonl\n", yaml);
  char *ref_cfg = config("reference.yaml", text);
  snprintf(text, sizeof text, "%soutput: kill.jsonl\n", yaml);
  char *cfg = config("kill.yaml", text);
  char *out = path_join(scratch, "kill.jsonl");
  char *ref_out = path_join(scratch, "reference.jsonl");
  const char *ref_args[] = {"run",         ref_cfg, "--plugin-path", RIGOR_TEST_PLUGIN_DIR,
                            "--no-report", NULL};
  cmd_result_t r = rigor_exec(scratch, ref_args);
  assert_int_equal(r.exit_code, 0);
  cmd_result_free(&r);
  json_t *ref = results_read(ref_out);
  const size_t total = 24;
  assert_int_equal(results_count(ref, "run", "status", "ok"), total);

  srand(20240611);
  const char *args[] = {"run",      cfg, "--plugin-path", RIGOR_TEST_PLUGIN_DIR, "--quiet",
                        "--resume", NULL};
  int cut_short = 0; /* trials that left the schedule unfinished */
  for (int trial = 0; trial < 20; trial++) {
    pid_t pid = rigor_start(scratch, args);
    usleep((useconds_t)(rand() % 150000));
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    for (int waited = 0; waited < 100 && processes_matching(cfg) > 0; waited++)
      usleep(10000);
    assert_int_equal(processes_matching(cfg), 0);
    if (access(out, F_OK) != 0) continue; /* killed before the file was created */
    json_t *records = json_array();
    rigor_results_callbacks_t keep = {.record = keep_record, .arg = records};
    bool truncated;
    char err[512];
    assert_int_equal(rigor_results_read(out, &keep, &truncated, err, sizeof err), 0);
    assert_true(results_count(records, "experiment", NULL, NULL) <= 1);
    if (results_count(records, "run", "status", "ok") < total) cut_short++;
    json_decref(records);
  }
  assert_true(cut_short >= 15);
  r = rigor_exec(scratch, args);
  assert_int_equal(r.exit_code, 0);
  cmd_result_free(&r);

  json_t *recs = results_read(out);
  assert_int_equal(results_count(recs, "experiment", NULL, NULL), 1);
  for (size_t k = 0; k < total; k++) {
    char index[16];
    snprintf(index, sizeof index, "%zu", k);
    size_t ok = 0, i;
    json_t *rec;
    json_array_foreach(recs, i, rec) {
      if (strcmp(json_string_value(json_object_get(rec, "type")), "run") == 0 &&
          json_integer_value(json_object_get(rec, "run")) == (json_int_t)k &&
          strcmp(json_string_value(json_object_get(rec, "status")), "ok") == 0)
        ok++;
    }
    assert_int_equal(ok, 1);
  }
  assert_true(json_equal(json_object_get(experiment_record(recs), "schedule"),
                         json_object_get(experiment_record(ref), "schedule")));
  assert_string_equal(json_string_value(json_object_get(experiment_record(recs), "hash")),
                      json_string_value(json_object_get(experiment_record(ref), "hash")));
  json_decref(recs);
  json_decref(ref);
  free(ref_out);
  free(out);
  free(cfg);
  free(ref_cfg);
}

static void test_nan_metric_recorded_as_null(void **st) {
  (void)st;
  char *cfg = config("nan.yaml", "schema: 1\nname: nan\nplugin: fault\n"
                                 "params: {mode: nan}\n"
                                 "timing: {warmup: 0, cycles: 2, iters: 2}\n"
                                 "output: nan.jsonl\n");
  const char *args[] = {"run", cfg, "--plugin-path", RIGOR_TEST_PLUGIN_DIR, "--no-report", NULL};
  cmd_result_t r = rigor_exec(scratch, args);
  assert_int_equal(r.exit_code, 0);
  char *out = path_join(scratch, "nan.jsonl");
  json_t *recs = results_read(out);
  assert_int_equal(results_count(recs, "sample", NULL, NULL), 2);
  size_t i;
  json_t *rec;
  json_array_foreach(recs, i, rec) {
    if (strcmp(json_string_value(json_object_get(rec, "type")), "sample") != 0) continue;
    json_t *metrics = json_object_get(rec, "metrics");
    assert_true(json_is_object(metrics));
    json_t *value = json_object_get(metrics, "value");
    assert_non_null(value);
    assert_true(json_is_null(value));
  }
  /* The file stays valid JSON: NaN is never written as a bare token. */
  char *text = read_file(out);
  assert_null(strstr(text, "NaN"));
  assert_null(strstr(text, "nan,"));
  free(text);
  json_decref(recs);
  free(out);
  free(cfg);
  cmd_result_free(&r);
}

static void test_timeout_with_burners_kills_both(void **st) {
  (void)st;
  char yaml[1024];
  snprintf(yaml, sizeof yaml,
           "schema: 1\nname: hangnoise\nplugin: fault\n"
           "matrix: {mode: [hang, hang_hard]}\n"
           "timing: {warmup: 0, cycles: 1, iters: 1, timeout: 1s}\n%soutput: hangnoise.jsonl\n",
           burner_env);
  char *cfg = config("hangnoise.yaml", yaml);
  const char *args[] = {"run", cfg, "--plugin-path", RIGOR_TEST_PLUGIN_DIR, "--no-report", NULL};
  cmd_result_t r = rigor_exec(scratch, args);
  assert_int_equal(r.exit_code, 1);
  char *out = path_join(scratch, "hangnoise.jsonl");
  json_t *recs = results_read(out);
  assert_int_equal(results_count(recs, "run", "status", "timeout"), 2);
  assert_int_equal(assert_burners_gone(recs), 2);
  assert_int_equal(processes_matching(cfg), 0);
  json_decref(recs);
  free(out);
  free(cfg);
  cmd_result_free(&r);
}

/* The deadline holds while the run keeps reporting (a sample every 20 ms), and after the run's
 * process closes its pipe and hangs. */
static void test_timeout_fires_on_every_path(void **st) {
  (void)st;
  char *cfg = config("chatty.yaml", "schema: 1\nname: chatty\nplugin: fault\n"
                                    "params: {sleep_us: 20000}\n"
                                    "matrix: {mode: [slow, close_hang]}\n"
                                    "timing: {warmup: 0, cycles: 1000, iters: 1, timeout: 1s}\n"
                                    "output: chatty.jsonl\n");
  const char *args[] = {"run", cfg, "--plugin-path", RIGOR_TEST_PLUGIN_DIR, "--no-report", NULL};
  cmd_result_t r = rigor_exec(scratch, args);
  assert_int_equal(r.exit_code, 1);
  char *out = path_join(scratch, "chatty.jsonl");
  json_t *recs = results_read(out);
  assert_int_equal(results_count(recs, "run", "status", "timeout"), 2);
  size_t samples = results_count(recs, "sample", NULL, NULL);
  assert_true(samples > 0 && samples < 1000); /* the slow run was stopped, not finished */
  json_decref(recs);
  free(out);
  free(cfg);
  cmd_result_free(&r);
}

/* A grandchild that calls setsid() leaves the run's process group and session; it is still
 * killed when its run ends. */
static void test_escaped_grandchild_is_killed(void **st) {
  (void)st;
  char *pid_file = path_join(scratch, "escaped.pid"), yaml[1024];
  unlink(pid_file);
  snprintf(yaml, sizeof yaml,
           "schema: 1\nname: orphan\nplugin: fault\n"
           "params: {mode: orphan, pid_file: '%s'}\n"
           "timing: {warmup: 0, cycles: 1, iters: 1}\noutput: orphan.jsonl\n",
           pid_file);
  char *cfg = config("orphan.yaml", yaml);
  const char *args[] = {"run", cfg, "--plugin-path", RIGOR_TEST_PLUGIN_DIR, "--no-report", NULL};
  cmd_result_t r = rigor_exec(scratch, args);
  assert_int_equal(r.exit_code, 0);
  char *text = read_file(pid_file);
  assert_non_null(text);
  pid_t pid = (pid_t)atoi(text);
  assert_true(pid > 0);
  assert_false(process_alive(pid));
  free(text);
  free(pid_file);
  free(cfg);
  cmd_result_free(&r);
}

/* SIGKILL of rigor while runs are spawned as new programs (randomize_env) leaves no spec file
 * or folder behind. */
static void test_sigkill_leaves_no_temporary_files(void **st) {
  (void)st;
  char *tmp = path_join(scratch, "tmp");
  assert_int_equal(mkdir(tmp, 0700), 0);
  char *cfg = config("pad.yaml", "schema: 1\nname: pad\nplugin: fault\n"
                                 "params: {mode: slow, sleep_us: 50000}\n"
                                 "timing: {warmup: 0, cycles: 40, iters: 1}\n"
                                 "environment: {randomize_env: true}\n"
                                 "order: {design: sequential, replicates: 4}\n"
                                 "output: pad.jsonl\n");
  char *out = path_join(scratch, "pad.jsonl");
  const char *args[] = {"run", cfg, "--plugin-path", RIGOR_TEST_PLUGIN_DIR, "--quiet", NULL};
  setenv("TMPDIR", tmp, 1);
  pid_t pid = rigor_start(scratch, args);
  unsetenv("TMPDIR");
  wait_for_runs(out, 1);
  kill(pid, SIGKILL);
  waitpid(pid, NULL, 0);
  usleep(200000); /* the run's process dies with its parent */
  DIR *d = opendir(tmp);
  assert_non_null(d);
  struct dirent *e;
  int left = 0;
  while ((e = readdir(d)))
    left += strncmp(e->d_name, "rigor-run-", 10) == 0;
  closedir(d);
  assert_int_equal(left, 0);
  rmdir(tmp);
  free(tmp), free(out), free(cfg);
}

/* A plugin's error in invalid UTF-8 is recorded (bytes replaced), and a byte count above 2^63 - 1
 * is recorded as a number, never as -1. */
static void test_odd_plugin_values_are_recorded(void **st) {
  (void)st;
  char *cfg = config("odd.yaml", "schema: 1\nname: odd\nplugin: fault\n"
                                 "matrix: {mode: [bad_utf8, huge_bytes]}\n"
                                 "timing: {warmup: 0, cycles: 1, iters: 1}\noutput: odd.jsonl\n");
  const char *args[] = {"run", cfg, "--plugin-path", RIGOR_TEST_PLUGIN_DIR, "--no-report", NULL};
  cmd_result_t r = rigor_exec(scratch, args);
  assert_int_equal(r.exit_code, 1);
  char *out = path_join(scratch, "odd.jsonl");
  json_t *recs = results_read(out);
  json_t *failed = results_find_run(recs, 0);
  assert_string_equal(json_string_value(json_object_get(failed, "reason")), "bad ?? bytes");
  size_t i;
  json_t *rec;
  int samples = 0;
  json_array_foreach(recs, i, rec) {
    const char *type = json_string_value(json_object_get(rec, "type"));
    if (strcmp(type, "sample") != 0) continue;
    samples++;
    assert_true(json_number_value(json_object_get(rec, "bytes")) > 1.8e19);
  }
  assert_int_equal(samples, 1);
  json_decref(recs);
  free(out), free(cfg);
  cmd_result_free(&r);
}

static cmd_result_t rigor_in_dir(const char *a1, const char *a2, const char *a3, const char *a4,
                                 const char *a5) {
  const char *args[] = {a1, a2, a3, a4, a5, NULL};
  return rigor_exec(scratch, args);
}

static void assert_refusal(cmd_result_t *r, const char *message) {
  assert_int_equal(r->exit_code, 2);
  assert_non_null(strstr(r->err, message));
  cmd_result_free(r);
}

static void check_commands_refused(void) {
  char cmd[4096];
  cmd_result_t r;
  char yaml[1024];
  char *planted = path_join(scratch, "PLANTED");
  snprintf(yaml, sizeof yaml,
           "schema: 1\nname: cmd\nplugin: pto_vf\n"
           "params: {trace_dir: %s, runner: '[\"touch\", \"%s\"]'}\n"
           "timing: {cycles: 1, iters: 1}\noutput: cmd.jsonl\n",
           scratch, planted);
  char *cmd_cfg = config("cmd.yaml", yaml);
  r = rigor_in_dir("run", cmd_cfg, "--plugin-path", RIGOR_PLUGIN_DIR, "--no-report");
  assert_refusal(&r, "would execute external commands (see `rigor plan`); nothing was run: "
                     "rerun with --allow-commands");
  assert_int_equal(access(planted, F_OK), -1);
  r = rigor_in_dir("plan", cmd_cfg, "--plugin-path", RIGOR_PLUGIN_DIR, NULL);
  assert_int_equal(r.exit_code, 0);
  assert_non_null(strstr(r.out, "commands (executed only under --allow-commands):"));
  snprintf(cmd, sizeof cmd, "! v0 default: [\"touch\", \"%s\"]", planted);
  assert_non_null(strstr(r.out, cmd));
  cmd_result_free(&r);
  free(cmd_cfg);
  free(planted);
}

/* The trust boundaries of docs/security.md, each refused and each with its opt-in. */
static void test_trust_boundaries(void **st) {
  (void)st;
  char *cfg = config("slash.yaml", "schema: 1\nname: a\nplugin: \"../null\"\noutput: a.jsonl\n");
  cmd_result_t r = rigor_in_dir("validate", cfg, "--plugin-path", RIGOR_TEST_PLUGIN_DIR, NULL);
  assert_refusal(&r, "plugin name '../null' is not a plain name");
  free(cfg);

  char *open_dir = path_join(scratch, "open");
  assert_int_equal(mkdir(open_dir, 0755), 0);
  char *so = path_join(open_dir, "null.so");
  char cmd[4096];
  snprintf(cmd, sizeof cmd, "cp %s/null.so %s && chmod 0777 %s", RIGOR_PLUGIN_DIR, so, open_dir);
  assert_int_equal(system(cmd), 0);
  cfg = config("ok.yaml", "schema: 1\nname: a\nplugin: \"null\"\noutput: a.jsonl\n");
  r = rigor_in_dir("validate", cfg, "--plugin-path", open_dir, NULL);
  assert_refusal(&r, "is world-writable");
  r = rigor_in_dir("validate", cfg, "--plugin-path", open_dir, "--allow-unsafe-plugin-path");
  assert_int_equal(r.exit_code, 0);
  cmd_result_free(&r);
  free(so);
  free(open_dir);

  char *sub = path_join(scratch, "sub");
  assert_int_equal(mkdir(sub, 0755), 0);
  char *child = config("sub/child.yaml", "extends: ../ok.yaml\nname: b\n");
  r = rigor_in_dir("validate", child, "--plugin-path", RIGOR_TEST_PLUGIN_DIR, NULL);
  assert_refusal(&r, "is outside the folder of");
  r = rigor_in_dir("validate", child, "--plugin-path", RIGOR_TEST_PLUGIN_DIR,
                   "--allow-external-extends");
  assert_int_equal(r.exit_code, 0);
  cmd_result_free(&r);
  free(child);
  free(sub);

  /* pto_vf is the shipped plugin that runs commands; RIGOR_PLUGINS may leave it out. */
  if (access(RIGOR_PLUGIN_DIR "/pto_vf.so", F_OK) == 0)
    check_commands_refused();
  else
    print_message("pto_vf not built: --allow-commands not checked\n");

  /* Results: mode 0644, never written through a symlink over an existing file. */
  char *victim = path_join(scratch, "victim.txt");
  write_file(victim, "keep\n");
  char *link = path_join(scratch, "link.jsonl");
  assert_int_equal(symlink(victim, link), 0);
  char *sym = config("sym.yaml", "schema: 1\nname: a\nplugin: \"null\"\ntiming: {cycles: 1}\n"
                                 "output: link.jsonl\n");
  r = rigor_in_dir("run", sym, "--plugin-path", RIGOR_TEST_PLUGIN_DIR, "--force");
  assert_int_not_equal(r.exit_code, 0);
  assert_non_null(strstr(r.err, "results are never written through a symlink"));
  cmd_result_free(&r);
  char *kept = read_file(victim);
  assert_string_equal(kept, "keep\n");
  free(kept);
  r = rigor_in_dir("run", cfg, "--plugin-path", RIGOR_TEST_PLUGIN_DIR, "--no-report");
  assert_int_equal(r.exit_code, 0);
  cmd_result_free(&r);
  char *made = path_join(scratch, "a.jsonl");
  struct stat sb;
  assert_int_equal(stat(made, &sb), 0);
  assert_int_equal(sb.st_mode & 0777, 0644);
  free(made);
  free(sym);
  free(link);
  free(victim);
  free(cfg);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_sigint_finishes_record_and_kills_burners, scratch_setup,
                                      scratch_teardown),
      cmocka_unit_test_setup_teardown(test_sigint_message, scratch_setup, scratch_teardown),
      cmocka_unit_test_setup_teardown(test_sigkill_resume_twenty_times, scratch_setup,
                                      scratch_teardown),
      cmocka_unit_test_setup_teardown(test_nan_metric_recorded_as_null, scratch_setup,
                                      scratch_teardown),
      cmocka_unit_test_setup_teardown(test_timeout_with_burners_kills_both, scratch_setup,
                                      scratch_teardown),
      cmocka_unit_test_setup_teardown(test_timeout_fires_on_every_path, scratch_setup,
                                      scratch_teardown),
      cmocka_unit_test_setup_teardown(test_escaped_grandchild_is_killed, scratch_setup,
                                      scratch_teardown),
      cmocka_unit_test_setup_teardown(test_sigkill_leaves_no_temporary_files, scratch_setup,
                                      scratch_teardown),
      cmocka_unit_test_setup_teardown(test_odd_plugin_values_are_recorded, scratch_setup,
                                      scratch_teardown),
      cmocka_unit_test_setup_teardown(test_trust_boundaries, scratch_setup, scratch_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

/* rigor run end to end: real processes, real plugins, real results files. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <signal.h>
#include <unistd.h>

#include <cmocka.h>

#include "support.h"

static char *config(const char *name, const char *yaml) {
  return config_in(scratch, name, yaml);
}

static cmd_result_t run(const char *cfg, const char *extra1, const char *extra2) {
  const char *args[] = {"run",         cfg,    "--plugin-path", RIGOR_TEST_PLUGIN_DIR,
                        "--no-report", extra1, extra2,          NULL};
  return rigor_exec(scratch, args);
}

static const char *run_status(const json_t *records, int k) {
  return json_string_value(json_object_get(results_find_run(records, k), "status"));
}

static void test_null_run_records(void **st) {
  (void)st;
  char *cfg = config("basic.yaml", "schema: 1\n"
                                   "name: basic\n"
                                   "plugin: \"null\"\n"
                                   "params: {bytes: 1KiB}\n"
                                   "sweep: {spin_ns: [0, 2000]}\n"
                                   "timing: {warmup: 1, cycles: 3, iters: 10, agg: 2}\n"
                                   "order: {design: sequential, replicates: 2}\n"
                                   "output: basic.jsonl\n");
  cmd_result_t r = run(cfg, NULL, NULL);
  assert_int_equal(r.exit_code, 0);
  char *out = path_join(scratch, "basic.jsonl");
  json_t *recs = results_read(out);
  assert_int_equal(results_count(recs, "experiment", NULL, NULL), 1);
  assert_int_equal(results_count(recs, "run", "status", "ok"), 2);
  assert_int_equal(results_count(recs, "sample", NULL, NULL), 2 * 3 * 2);
  size_t i;
  json_t *rec;
  json_array_foreach(recs, i, rec) {
    const char *type = json_string_value(json_object_get(rec, "type"));
    assert_string_equal(json_string_value(json_object_get(rec, "schema")), "rigor.result/1");
    if (strcmp(type, "sample") != 0) continue;
    assert_int_equal(json_integer_value(json_object_get(rec, "iters")), 10);
    assert_int_equal(json_integer_value(json_object_get(rec, "agg")), 2);
    assert_int_equal(json_integer_value(json_object_get(rec, "bytes")), 1024);
    assert_string_equal(json_string_value(json_object_get(rec, "window")), "wall");
    double t = json_number_value(json_object_get(rec, "time_s"));
    assert_true(t > 0);
    if (json_integer_value(json_object_get(rec, "point")) == 1) {
      /* 2 µs of spinning per operation is inside the window, normalised per operation. */
      assert_true(t >= 2e-6 && t < 1e-3);
      assert_string_equal(json_string_value(json_object_get(rec, "status")), "ok");
      double rate =
          json_number_value(json_object_get(json_object_get(rec, "rates"), "bytes_per_s"));
      assert_true(rate > 0 && rate <= 1024 / 2e-6);
    }
  }
  json_t *exp = json_array_get(recs, 0);
  assert_non_null(json_object_get(json_object_get(exp, "clock"), "resolution_s"));
  /* Identity and environment checks are in the experiment record, telemetry in each run's. */
  json_t *identity = json_object_get(exp, "identity");
  assert_true(json_is_string(json_object_get(json_object_get(identity, "kernel"), "release")));
  assert_true(json_is_string(json_object_get(identity, "cpu_model")));
  assert_true(json_is_string(json_object_get(identity, "rigor_version")));
  assert_true(json_array_size(json_object_get(exp, "checks")) > 0);
  assert_int_equal(
      strlen(json_string_value(json_object_get(json_object_get(exp, "plugin"), "sha256"))), 64);
  json_t *run0 = results_find_run(recs, 0);
  json_t *load = json_object_get(json_object_get(run0, "telemetry"), "load1");
  assert_true(json_integer_value(json_object_get(load, "n")) >= 2);
  assert_int_equal(json_array_size(json_object_get(json_object_get(exp, "schedule"), "blocks")), 2);
  assert_int_equal(strlen(json_string_value(json_object_get(exp, "hash"))), 64);
  json_decref(recs);
  free(out);
  free(cfg);
  cmd_result_free(&r);
}

static const json_t *check_named(const json_t *checks, const char *name) {
  size_t i;
  const json_t *c;
  json_array_foreach(checks, i, c) {
    if (strcmp(json_string_value(json_object_get(c, "check")), name) == 0) return c;
  }
  return NULL;
}

/* The swap and busy-process checks sample a window that spans the runs instead of delaying
 * them: the experiment record lists them as pending, and exactly one run record, the one that
 * closed the window, carries their results; the file still reads as rigor.result/1. */
static void test_sampled_checks_overlap_the_runs(void **st) {
  (void)st;
  char *cfg = config("sampled.yaml", "schema: 1\n"
                                     "name: sampled\n"
                                     "plugin: \"null\"\n"
                                     "timing: {warmup: 0, cycles: 1, iters: 1, agg: 1, check: 0}\n"
                                     "order: {design: sequential, replicates: 3}\n"
                                     "output: sampled.jsonl\n");
  cmd_result_t r = run(cfg, NULL, NULL);
  assert_int_equal(r.exit_code, 0);
  char *out = path_join(scratch, "sampled.jsonl");
  json_t *recs = results_read(out);
  json_t *exp = json_array_get(recs, 0);
  const json_t *checks = json_object_get(exp, "checks");
  assert_string_equal(json_string_value(json_object_get(check_named(checks, "swap"), "status")),
                      "pending");
  assert_string_equal(
      json_string_value(json_object_get(check_named(checks, "busy_processes"), "status")),
      "pending");
  size_t carrying = 0;
  for (int k = 0; k < 3; k++) {
    const json_t *sampled = json_object_get(results_find_run(recs, k), "checks");
    if (!sampled) continue;
    carrying++;
    const json_t *swap = check_named(sampled, "swap");
    assert_non_null(swap);
    const char *status = json_string_value(json_object_get(swap, "status"));
    assert_true(strcmp(status, "ok") == 0 || strcmp(status, "warn") == 0 ||
                strcmp(status, "unavailable") == 0);
    assert_non_null(strstr(json_string_value(json_object_get(swap, "detail")), "during"));
    assert_non_null(check_named(sampled, "busy_processes"));
  }
  assert_int_equal(carrying, 1);
  const char *report[] = {"report", out, NULL};
  cmd_result_t rep = rigor_exec(scratch, report);
  assert_int_equal(rep.exit_code, 0);
  cmd_result_free(&rep);
  json_decref(recs);
  free(out);
  free(cfg);
  cmd_result_free(&r);
}

/* Bus bandwidth: an unset bus factor reads as 1, a plugin's 0 (one rank) stays 0, others scale. */
static void test_bus_factor_zero_is_kept(void **st) {
  (void)st;
  char *cfg = config("bus.yaml", "schema: 1\n"
                                 "name: bus\n"
                                 "plugin: \"null\"\n"
                                 "params: {bytes: 1KiB, spin_ns: 1000}\n"
                                 "sweep: {bus_factor: [-1, 0, 1.5]}\n"
                                 "timing: {warmup: 0, cycles: 1, iters: 10}\n"
                                 "output: bus.jsonl\n");
  cmd_result_t r = run(cfg, NULL, NULL);
  assert_int_equal(r.exit_code, 0);
  char *out = path_join(scratch, "bus.jsonl");
  json_t *recs = results_read(out);
  assert_int_equal(results_count(recs, "sample", NULL, NULL), 3);
  const double factors[] = {1, 0, 1.5};
  size_t i;
  json_t *rec;
  json_array_foreach(recs, i, rec) {
    if (strcmp(json_string_value(json_object_get(rec, "type")), "sample") != 0) continue;
    json_int_t pt = json_integer_value(json_object_get(rec, "point"));
    const json_t *rates = json_object_get(rec, "rates");
    double bytes_per_s = json_number_value(json_object_get(rates, "bytes_per_s"));
    double busbw = json_number_value(json_object_get(rates, "busbw_bytes_per_s"));
    assert_true(bytes_per_s > 0);
    assert_true(json_is_number(json_object_get(rates, "busbw_bytes_per_s")));
    assert_true(json_number_value(json_object_get(rec, "bus_factor")) == factors[pt]);
    assert_true(fabs(busbw - bytes_per_s * factors[pt]) <= bytes_per_s * 1e-12);
  }
  json_decref(recs);
  free(out);
  free(cfg);
  cmd_result_free(&r);
}

static void test_experiments_share_one_output(void **st) {
  (void)st;
  char *cfg = config("two.yaml", "schema: 1\n"
                                 "name: two\n"
                                 "defaults: {plugin: null, timing: {cycles: 2}}\n"
                                 "experiments:\n"
                                 "  - {name: a, order: {design: sequential, replicates: 2}}\n"
                                 "  - {name: b}\n"
                                 "output: two.jsonl\n");
  cmd_result_t r = run(cfg, NULL, NULL);
  assert_int_equal(r.exit_code, 0);
  char *out = path_join(scratch, "two.jsonl");
  json_t *recs = results_read(out);
  assert_int_equal(results_count(recs, "experiment", NULL, NULL), 2);
  assert_int_equal(results_count(recs, "run", "experiment", "a"), 2);
  assert_int_equal(results_count(recs, "run", "experiment", "b"), 1);
  assert_int_equal(results_count(recs, "run", "status", "ok"), 3);
  json_decref(recs);
  cmd_result_free(&r);
  /* --only runs one of them. */
  r = run(cfg, "--only", "b");
  assert_int_equal(r.exit_code, 2); /* the file exists: neither --force nor --resume */
  cmd_result_free(&r);
  free(out);
  free(cfg);
}

static void test_faults_recorded_and_others_continue(void **st) {
  (void)st;
  char *cfg = config("faults.yaml", "schema: 1\n"
                                    "name: faults\n"
                                    "plugin: fault\n"
                                    "matrix: {mode: [none, crash, abort, exit, init_error]}\n"
                                    "timing: {warmup: 0, cycles: 2, iters: 3, timeout: 20s}\n"
                                    "output: faults.jsonl\n");
  cmd_result_t r = run(cfg, NULL, NULL);
  assert_int_equal(r.exit_code, 1);
  char *out = path_join(scratch, "faults.jsonl");
  json_t *recs = results_read(out);
  assert_string_equal(run_status(recs, 0), "ok");
  assert_string_equal(run_status(recs, 1), "crashed");
  json_t *crash = results_find_run(recs, 1);
  assert_int_equal(json_integer_value(json_object_get(crash, "signal")), SIGSEGV);
  assert_non_null(
      strstr(json_string_value(json_object_get(crash, "reason")), "about to dereference NULL"));
  assert_string_equal(run_status(recs, 2), "crashed");
  assert_int_equal(json_integer_value(json_object_get(results_find_run(recs, 2), "signal")),
                   SIGABRT);
  assert_string_equal(run_status(recs, 3), "failed");
  assert_int_equal(json_integer_value(json_object_get(results_find_run(recs, 3), "exit_code")), 7);
  assert_string_equal(run_status(recs, 4), "failed");
  assert_non_null(strstr(json_string_value(json_object_get(results_find_run(recs, 4), "reason")),
                         "init failed on purpose"));
  assert_non_null(strstr(r.err, "crashed"));
  json_decref(recs);
  free(out);
  free(cfg);
  cmd_result_free(&r);
}

static void test_timeout_kills_the_run(void **st) {
  (void)st;
  char *cfg = config("hang.yaml", "schema: 1\n"
                                  "name: hang\n"
                                  "plugin: fault\n"
                                  "matrix: {mode: [hang, hang_hard, none]}\n"
                                  "timing: {warmup: 0, cycles: 1, iters: 1, timeout: 1s}\n"
                                  "output: hang.jsonl\n");
  cmd_result_t r = run(cfg, NULL, NULL);
  assert_int_equal(r.exit_code, 1);
  char *out = path_join(scratch, "hang.jsonl");
  json_t *recs = results_read(out);
  assert_string_equal(run_status(recs, 0), "timeout");
  assert_string_equal(run_status(recs, 1), "timeout");
  assert_non_null(strstr(json_string_value(json_object_get(results_find_run(recs, 1), "reason")),
                         "timing.timeout"));
  assert_string_equal(run_status(recs, 2), "ok");
  assert_int_equal(processes_matching(cfg), 0);
  json_decref(recs);
  free(out);
  free(cfg);
  cmd_result_free(&r);
}

static void test_exit_codes_skip_and_check(void **st) {
  (void)st;
  char *skip = config("skip.yaml", "schema: 1\nname: skip\nplugin: fault\n"
                                   "params: {mode: unavailable}\n"
                                   "timing: {cycles: 1}\noutput: skip.jsonl\n");
  cmd_result_t r = run(skip, NULL, NULL);
  assert_int_equal(r.exit_code, 5);
  char *out = path_join(scratch, "skip.jsonl");
  json_t *recs = results_read(out);
  assert_string_equal(run_status(recs, 0), "skipped");
  assert_non_null(strstr(json_string_value(json_object_get(results_find_run(recs, 0), "reason")),
                         "no such device here"));
  json_decref(recs);
  free(out);
  cmd_result_free(&r);

  char *check = config("check.yaml", "schema: 1\nname: check\nplugin: fault\n"
                                     "params: {mode: fail_validate}\n"
                                     "timing: {cycles: 2, iters: 2}\noutput: check.jsonl\n");
  r = run(check, NULL, NULL);
  assert_int_equal(r.exit_code, 3);
  out = path_join(scratch, "check.jsonl");
  recs = results_read(out);
  assert_string_equal(run_status(recs, 0), "invalid");
  assert_int_equal(results_count(recs, "sample", "status", "wrong"), 2);
  json_decref(recs);
  free(out);
  cmd_result_free(&r);
  free(skip);
  free(check);
}

static void test_never_overwrites_without_force(void **st) {
  (void)st;
  char *cfg = config("keep.yaml", "schema: 1\nname: keep\nplugin: \"null\"\n"
                                  "timing: {cycles: 1}\noutput: keep.jsonl\n");
  char *out = path_join(scratch, "keep.jsonl");
  write_file(out, "precious\n");
  cmd_result_t r = run(cfg, NULL, NULL);
  assert_int_equal(r.exit_code, 2);
  assert_non_null(strstr(r.err, "already exists"));
  char *text = read_file(out);
  assert_string_equal(text, "precious\n");
  free(text);
  cmd_result_free(&r);
  r = run(cfg, "--force", NULL);
  assert_int_equal(r.exit_code, 0);
  json_t *recs = results_read(out);
  assert_int_equal(results_count(recs, "run", "status", "ok"), 1);
  json_decref(recs);
  cmd_result_free(&r);
  /* A symlink in place of the results file is never followed. */
  char *link = path_join(scratch, "link.jsonl");
  char *target = path_join(scratch, "target.txt");
  write_file(target, "do not touch\n");
  assert_int_equal(symlink(target, link), 0);
  const char *args[] = {
      "run",     cfg, "--plugin-path", RIGOR_TEST_PLUGIN_DIR, "--no-report", "-o", link,
      "--force", NULL};
  r = rigor_exec(scratch, args);
  assert_int_equal(r.exit_code, 2);
  assert_non_null(strstr(r.err, "never written through a symlink"));
  text = read_file(target);
  assert_string_equal(text, "do not touch\n");
  free(text);
  cmd_result_free(&r);
  free(link);
  free(target);
  free(out);
  free(cfg);
}

/* Raw telemetry that cannot be written stops the run before the results file is touched. */
static void test_unwritable_telemetry_sidecar_stops_early(void **st) {
  (void)st;
  char *cfg = config("tel.yaml", "schema: 1\n"
                                 "name: tel\n"
                                 "plugin: \"null\"\n"
                                 "timing: {warmup: 0, cycles: 1, iters: 10}\n"
                                 "environment: {telemetry: {raw: true}}\n"
                                 "output: tel.jsonl\n");
  char *side = path_join(scratch, "tel.jsonl.telemetry.jsonl");
  assert_int_equal(mkdir(side, 0755), 0);
  cmd_result_t r = run(cfg, NULL, NULL);
  assert_int_equal(r.exit_code, 2);
  assert_non_null(strstr(r.err, "tel.jsonl.telemetry.jsonl: is a folder"));
  char *out = path_join(scratch, "tel.jsonl");
  struct stat sb;
  assert_int_not_equal(stat(out, &sb), 0);
  cmd_result_free(&r);
  free(out);
  free(side);
  free(cfg);
}

/* Run indices with a complete (ok) run record, each counted. */
static void ok_runs(const json_t *recs, int *counts, int n) {
  memset(counts, 0, (size_t)n * sizeof *counts);
  size_t i;
  json_t *rec;
  json_array_foreach(recs, i, rec) {
    const char *t = json_string_value(json_object_get(rec, "type"));
    const char *s = json_string_value(json_object_get(rec, "status"));
    json_int_t k = json_integer_value(json_object_get(rec, "run"));
    if (t && !strcmp(t, "run") && s && !strcmp(s, "ok") && k >= 0 && k < n) counts[k]++;
  }
}

static void test_resume_after_sigkill(void **st) {
  (void)st;
  char *cfg = config("slow.yaml", "schema: 1\nname: slow\nplugin: fault\n"
                                  "params: {mode: slow, sleep_us: 20000}\n"
                                  "timing: {warmup: 0, cycles: 2, iters: 2}\n"
                                  "order: {design: sequential, replicates: 8}\n"
                                  "output: slow.jsonl\n");
  char *out = path_join(scratch, "slow.jsonl");
  const char *args[] = {"run", cfg, "--plugin-path", RIGOR_TEST_PLUGIN_DIR, "--quiet", NULL};
  pid_t pid = rigor_start(scratch, args);
  /* Kill it once some runs are in, mid-run. */
  wait_for_runs(out, 3);
  usleep(30000);
  kill(pid, SIGKILL);
  waitpid(pid, NULL, 0);
  usleep(100000); /* the run's process dies with its parent */
  assert_int_equal(processes_matching(cfg), 0);
  json_t *recs = results_read(out);
  size_t before = results_count(recs, "run", NULL, NULL);
  assert_true(before >= 3 && before < 8);
  json_decref(recs);

  cmd_result_t r = run(cfg, "--resume", NULL);
  assert_int_equal(r.exit_code, 0);
  recs = results_read(out);
  int counts[8];
  ok_runs(recs, counts, 8);
  for (int k = 0; k < 8; k++)
    assert_int_equal(counts[k], 1);
  assert_int_equal(results_count(recs, "experiment", NULL, NULL), 1);
  json_decref(recs);
  cmd_result_free(&r);

  /* A changed config is refused, naming what changed. */
  char *changed = config("slow.yaml", "schema: 1\nname: slow\nplugin: fault\n"
                                      "params: {mode: slow, sleep_us: 30000}\n"
                                      "timing: {warmup: 0, cycles: 2, iters: 2}\n"
                                      "order: {design: sequential, replicates: 8}\n"
                                      "output: slow.jsonl\n");
  r = run(changed, "--resume", NULL);
  assert_int_equal(r.exit_code, 2);
  assert_non_null(strstr(r.err, "cannot resume"));
  assert_non_null(strstr(r.err, "params.sleep_us"));
  cmd_result_free(&r);
  free(changed);
  free(out);
  free(cfg);
}

static void test_sigterm_stops_cleanly(void **st) {
  (void)st;
  char *cfg = config("term.yaml", "schema: 1\nname: term\nplugin: fault\n"
                                  "params: {mode: slow, sleep_us: 50000}\n"
                                  "timing: {warmup: 0, cycles: 4, iters: 2}\n"
                                  "order: {design: sequential, replicates: 6}\n"
                                  "output: term.jsonl\n");
  char *out = path_join(scratch, "term.jsonl");
  const char *args[] = {"run", cfg, "--plugin-path", RIGOR_TEST_PLUGIN_DIR, "--quiet", NULL};
  pid_t pid = rigor_start(scratch, args);
  wait_for_runs(out, 1);
  usleep(100000); /* well inside the next run, which lasts about 0.4 s */
  kill(pid, SIGTERM);
  int status;
  waitpid(pid, &status, 0);
  assert_true(WIFEXITED(status));
  assert_int_equal(WEXITSTATUS(status), 128 + SIGTERM);
  assert_int_equal(processes_matching(cfg), 0);
  /* The run in progress (if the signal did not fall between two runs) is recorded as
   * interrupted; every other record is a finished run; the schedule is not complete. */
  json_t *recs = results_read(out);
  size_t runs = results_count(recs, "run", NULL, NULL);
  size_t interrupted = results_count(recs, "run", "status", "interrupted");
  assert_true(interrupted <= 1);
  assert_int_equal(results_count(recs, "run", "status", "ok") + interrupted, runs);
  assert_true(runs >= 1 && runs < 6);
  json_decref(recs);
  free(out);
  free(cfg);
}

static void test_per_iteration_and_blocking(void **st) {
  (void)st;
  char *cfg = config("iter.yaml", "schema: 1\nname: iter\nplugin: \"null\"\n"
                                  "params: {spin_ns: 1000}\n"
                                  "matrix: {timing.blocking: [batch, each, each_barrier, "
                                  "each_excluded]}\n"
                                  "timing: {cycles: 2, iters: 16, per_iteration: true}\n"
                                  "output: iter.jsonl\n");
  cmd_result_t r = run(cfg, NULL, NULL);
  assert_int_equal(r.exit_code, 0);
  char *out = path_join(scratch, "iter.jsonl");
  json_t *recs = results_read(out);
  assert_int_equal(results_count(recs, "run", "status", "ok"), 4);
  size_t i;
  json_t *rec;
  json_array_foreach(recs, i, rec) {
    if (strcmp(json_string_value(json_object_get(rec, "type")), "sample")) continue;
    json_t *it = json_object_get(rec, "iterations");
    assert_int_equal(json_integer_value(json_object_get(it, "n")), 16);
    assert_int_equal(json_array_size(json_object_get(it, "raw")), 16);
    assert_string_equal(json_string_value(json_object_get(it, "source")), "host");
    assert_true(json_number_value(json_object_get(it, "min")) >= 1e-6);
  }
  json_decref(recs);
  free(out);
  free(cfg);
  cmd_result_free(&r);
}

static void test_flood_does_not_break_records(void **st) {
  (void)st;
  char *cfg = config("flood.yaml", "schema: 1\nname: flood\nplugin: fault\n"
                                   "params: {mode: flood, flood_bytes: 2MiB}\n"
                                   "timing: {warmup: 0, cycles: 2, iters: 1}\n"
                                   "output: flood.jsonl\n");
  cmd_result_t r = run(cfg, NULL, NULL);
  assert_int_equal(r.exit_code, 0);
  char *out = path_join(scratch, "flood.jsonl");
  json_t *recs = results_read(out);
  assert_int_equal(results_count(recs, "run", "status", "ok"), 1);
  assert_int_equal(results_count(recs, "sample", NULL, NULL), 2);
  json_decref(recs);
  free(out);
  free(cfg);
  cmd_result_free(&r);
}

static void test_file_size_limit_keeps_file_valid(void **st) {
  (void)st;
  char *cfg = config("full.yaml", "schema: 1\nname: full\nplugin: \"null\"\n"
                                  "timing: {cycles: 50, iters: 4, per_iteration: true}\n"
                                  "order: {design: sequential, replicates: 20}\n"
                                  "output: full.jsonl\n");
  char *out = path_join(scratch, "full.jsonl");
  pid_t pid = fork();
  if (pid == 0) {
    struct rlimit lim = {40000, 40000};
    setrlimit(RLIMIT_FSIZE, &lim);
    if (chdir(scratch) != 0) _exit(126);
    int devnull = open("/dev/null", O_WRONLY);
    dup2(devnull, STDOUT_FILENO);
    execl(RIGOR_EXE, RIGOR_EXE, "run", cfg, "--plugin-path", RIGOR_TEST_PLUGIN_DIR, "--quiet",
          (char *)NULL);
    _exit(127);
  }
  int status;
  waitpid(pid, &status, 0);
  assert_true(WIFEXITED(status));
  assert_int_equal(WEXITSTATUS(status), 1);
  /* Every line that is there parses: the partial record was cut back. */
  char *text = read_file(out);
  assert_non_null(text);
  assert_true(strlen(text) > 0 && strlen(text) <= 40000);
  assert_int_equal(text[strlen(text) - 1], '\n');
  char *save = NULL;
  for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
    json_error_t e;
    json_t *j = json_loads(line, 0, &e);
    assert_non_null(j);
    json_decref(j);
  }
  free(text);
  free(out);
  free(cfg);
}

static void test_mpi_launcher_aggregates_ranks(void **st) {
  (void)st;
  if (access("/usr/bin/mpirun", X_OK) != 0) {
    skip();
  }
  char *cfg = config("mpi.yaml", "schema: 1\nname: mpi\nplugin: \"null\"\n"
                                 "params: {spin_ns: 5000}\n"
                                 "launcher: [mpirun, --allow-run-as-root, --oversubscribe, "
                                 "-np, \"{ranks}\"]\n"
                                 "ranks: 2\n"
                                 "timing: {cycles: 2, iters: 4, aggregate: max, timeout: 120s}\n"
                                 "output: mpi.jsonl\n");
  /* A launcher is a command like any other. */
  cmd_result_t r = run(cfg, "--allow-commands", NULL);
  if (r.exit_code != 0) fprintf(stderr, "%s\n%s\n", r.out, r.err);
  assert_int_equal(r.exit_code, 0);
  char *out = path_join(scratch, "mpi.jsonl");
  json_t *recs = results_read(out);
  assert_int_equal(results_count(recs, "run", "status", "ok"), 1);
  assert_int_equal(results_count(recs, "sample", NULL, NULL), 2);
  size_t i;
  json_t *rec;
  json_array_foreach(recs, i, rec) {
    if (strcmp(json_string_value(json_object_get(rec, "type")), "sample")) continue;
    json_t *ranks = json_object_get(rec, "ranks");
    assert_int_equal(json_integer_value(json_object_get(ranks, "n")), 2);
    double mn = json_number_value(json_object_get(ranks, "min"));
    double mx = json_number_value(json_object_get(ranks, "max"));
    double avg = json_number_value(json_object_get(ranks, "avg"));
    assert_true(mn >= 5e-6 && mn <= avg && avg <= mx);
    assert_true(json_number_value(json_object_get(rec, "time_s")) == mx);
  }
  json_decref(recs);
  free(out);
  free(cfg);
  cmd_result_free(&r);
}

/* A launcher's {nodes}: the pair's nodes where RIGOR_NODES names them, else the allocation's;
 * outside any, the run fails and says why. */
static void test_launcher_nodes_placeholder(void **st) {
  (void)st;
  char *cfg = config("nodes.yaml", "schema: 1\nname: nodes\nplugin: \"null\"\n"
                                   "launcher: [sh, -c, 'printf %s \"$0\" >nodes.txt; exec \"$@\"', "
                                   "\"{nodes}\"]\n"
                                   "timing: {warmup: 0, cycles: 1, iters: 2}\n"
                                   "output: nodes.jsonl\n");
  unsetenv("RIGOR_NODES");
  unsetenv("SLURM_JOB_NODELIST");
  cmd_result_t r = run(cfg, "--allow-commands", NULL);
  assert_int_not_equal(r.exit_code, 0);
  char *out = path_join(scratch, "nodes.jsonl");
  json_t *recs = results_read(out);
  const char *reason = json_string_value(json_object_get(results_find_run(recs, 0), "reason"));
  if (!reason || !strstr(reason, "{nodes}") || !strstr(reason, "SLURM_JOB_NODELIST"))
    fail_msg("reason: %s\n%s", reason ? reason : "(none)", r.err);
  json_decref(recs);
  cmd_result_free(&r);

  setenv("RIGOR_NODES", "n7,n8", 1);
  setenv("SLURM_JOB_NODELIST", "n[1-9]", 1);
  r = run(cfg, "--allow-commands", "--force");
  unsetenv("RIGOR_NODES");
  unsetenv("SLURM_JOB_NODELIST");
  if (r.exit_code != 0) fail_msg("%s\n%s", r.out, r.err);
  char *seen_path = path_join(scratch, "nodes.txt");
  FILE *f = fopen(seen_path, "r");
  assert_non_null(f);
  char seen[64] = "";
  assert_non_null(fgets(seen, sizeof seen, f));
  fclose(f);
  assert_string_equal(seen, "n7,n8");
  free(seen_path);
  free(out);
  free(cfg);
  cmd_result_free(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_null_run_records, scratch_setup, scratch_teardown),
      cmocka_unit_test_setup_teardown(test_sampled_checks_overlap_the_runs, scratch_setup,
                                      scratch_teardown),
      cmocka_unit_test_setup_teardown(test_bus_factor_zero_is_kept, scratch_setup,
                                      scratch_teardown),
      cmocka_unit_test_setup_teardown(test_experiments_share_one_output, scratch_setup,
                                      scratch_teardown),
      cmocka_unit_test_setup_teardown(test_faults_recorded_and_others_continue, scratch_setup,
                                      scratch_teardown),
      cmocka_unit_test_setup_teardown(test_timeout_kills_the_run, scratch_setup, scratch_teardown),
      cmocka_unit_test_setup_teardown(test_exit_codes_skip_and_check, scratch_setup,
                                      scratch_teardown),
      cmocka_unit_test_setup_teardown(test_never_overwrites_without_force, scratch_setup,
                                      scratch_teardown),
      cmocka_unit_test_setup_teardown(test_unwritable_telemetry_sidecar_stops_early, scratch_setup,
                                      scratch_teardown),
      cmocka_unit_test_setup_teardown(test_resume_after_sigkill, scratch_setup, scratch_teardown),
      cmocka_unit_test_setup_teardown(test_sigterm_stops_cleanly, scratch_setup, scratch_teardown),
      cmocka_unit_test_setup_teardown(test_per_iteration_and_blocking, scratch_setup,
                                      scratch_teardown),
      cmocka_unit_test_setup_teardown(test_flood_does_not_break_records, scratch_setup,
                                      scratch_teardown),
      cmocka_unit_test_setup_teardown(test_file_size_limit_keeps_file_valid, scratch_setup,
                                      scratch_teardown),
      cmocka_unit_test_setup_teardown(test_mpi_launcher_aggregates_ranks, scratch_setup,
                                      scratch_teardown),
      cmocka_unit_test_setup_teardown(test_launcher_nodes_placeholder, scratch_setup,
                                      scratch_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

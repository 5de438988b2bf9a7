/* The exec plugin's callbacks driven directly: its checks before a run, and real executions of
 * exec_probe (built beside this test) for placeholders, exit statuses, stdout checks, metrics,
 * timeouts and a missing program. */
#include <dirent.h>
#include <math.h>
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

#include "exec_params.h"
#include "test_host.h"

typedef struct fixture {
  void *so;
  const rigor_plugin_t *d;
  test_host_t th;
  exec_params_t p;
  char dir[64];
} fixture_t;

static int setup(void **state) {
  fixture_t *fx = calloc(1, sizeof *fx);
  fx->d = test_plugin_open(EXEC_SO, "exec", &fx->so);
  test_host_init(&fx->th);
  fx->th.allow_commands = 1;
  fx->p = (exec_params_t){.command = "null",
                          .cwd = "",
                          .env = "{}",
                          .vars = "{}",
                          .stdin_file = "",
                          .expect_stdout = "",
                          .metrics = "{}",
                          .capture = 1 << 20,
                          .setup = "null",
                          .prepare = "null",
                          .verify = "null",
                          .cleanup = "null"};
  snprintf(fx->dir, sizeof fx->dir, "/tmp/rigor-exec-test-XXXXXX");
  assert_non_null(mkdtemp(fx->dir));
  *state = fx;
  return 0;
}

static int teardown(void **state) {
  fixture_t *fx = *state;
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", fx->dir);
  assert_int_equal(system(cmd), 0);
  free(fx);
  return 0;
}

static rigor_ctx_t *ctx(fixture_t *fx) {
  return (rigor_ctx_t *)&fx->th;
}

static const rigor_points_t *one_point(fixture_t *fx) {
  static const void *pts[1];
  static rigor_points_t points;
  pts[0] = &fx->p;
  points = (rigor_points_t){1, pts};
  return &points;
}

/* check_params on the fixture's params; returns the code, with the message and param. */
static int check(fixture_t *fx, char *err, size_t cap, const char **param) {
  *param = NULL;
  err[0] = '\0';
  return fx->d->check_params(&fx->p, one_point(fx), err, cap, param);
}

static void assert_refused(fixture_t *fx, const char *param, const char *message) {
  char err[512];
  const char *at = NULL;
  int rc = check(fx, err, sizeof err, &at);
  if (rc == 0 || !at || strcmp(at, param) != 0 || !strstr(err, message))
    fail_msg("expected '%s': %s, got rc %d, '%s': %s", param, message, rc, at ? at : "(none)", err);
}

static void test_refuses_bad_params_naming_them(void **state) {
  fixture_t *fx = *state;
  assert_refused(fx, "command", "is required");
  fx->p.command = "[]";
  assert_refused(fx, "command", "the argv list is empty");
  fx->p.command = "[\"\", \"x\"]";
  assert_refused(fx, "command", "the program (item 1) is empty");
  fx->p.command = "\"gzip -9 file\"";
  assert_refused(fx, "command", "runs only with shell: true");
  fx->p.shell = true;
  fx->p.command = "[\"gzip\", \"-9\"]";
  assert_refused(fx, "command", "one command line for /bin/sh -c");
  fx->p.shell = false;
  fx->p.command = "[\"prog\", \"--size\", \"{sise}\"]";
  fx->p.vars = "{\"size\": \"1K\"}";
  assert_refused(fx, "command", "{sise} names no variable (known: size, tmp)");
  fx->p.command = "[\"prog\", \"{size}\", \"{{literal}}\", \"{not a placeholder}\"]";
  char err[512];
  const char *at = NULL;
  assert_int_equal(check(fx, err, sizeof err, &at), 0);
  fx->p.cwd = "{where}";
  assert_refused(fx, "cwd", "{where} names no variable");
  fx->p.cwd = "";
  fx->p.env = "{\"OMP_NUM_THREADS\": \"{threads}\"}";
  assert_refused(fx, "env.OMP_NUM_THREADS", "{threads} names no variable");
  fx->p.env = "{}";
  fx->p.vars = "{\"tmp\": \"x\"}";
  assert_refused(fx, "vars.tmp", "the run's scratch folder");
  fx->p.vars = "{\"size\": [\"1K\"]}";
  assert_refused(fx, "vars.size", "must be a string, not a list");
  fx->p.vars = "{\"size\": \"1K\"}";
  fx->p.expect_stdout = "busbw (";
  assert_refused(fx, "expect_stdout", "/busbw (/ does not compile");
  fx->p.expect_stdout = "";
  fx->p.metrics = "{\"busbw\": {\"regex\": \"busbw ([0-9.]+\", \"better\": \"higher\"}}";
  assert_refused(fx, "metrics.busbw", "does not compile");
  fx->p.metrics = "{\"busbw\": {\"regex\": \"busbw [0-9.]+\", \"better\": \"higher\"}}";
  assert_refused(fx, "metrics.busbw", "has no group");
  fx->p.metrics = "{\"busbw\": {\"regex\": \"busbw ([0-9.]+)\"}}";
  assert_refused(fx, "metrics.busbw", "needs 'regex' (with one group) and 'better'");
  fx->p.metrics = "{\"busbw\": {\"regex\": \"b (.)\", \"better\": \"up\"}}";
  assert_refused(fx, "metrics.busbw", "better: 'up' is not lower or higher");
  fx->p.metrics = "{\"spawn_s\": {\"regex\": \"b (.)\", \"better\": \"lower\"}}";
  assert_refused(fx, "metrics.spawn_s", "the plugin's own metric");
  fx->p.metrics = "{}";
  fx->p.verify = "[]";
  assert_refused(fx, "verify", "the argv list is empty");
}

static void test_a_sweep_may_not_change_the_metrics(void **state) {
  fixture_t *fx = *state;
  fx->p.command = "[\"prog\"]";
  exec_params_t other = fx->p;
  other.metrics = "{\"t\": {\"regex\": \"t=(.*)\", \"better\": \"lower\"}}";
  const void *pts[] = {&fx->p, &other};
  rigor_points_t points = {2, pts};
  char err[256];
  const char *param = NULL;
  assert_int_not_equal(fx->d->check_params(&fx->p, &points, err, sizeof err, &param), 0);
  assert_string_equal(param, "metrics");
  other = fx->p;
  other.command = "[]";
  assert_int_not_equal(fx->d->check_params(&fx->p, &points, err, sizeof err, &param), 0);
  assert_string_equal(param, "command");
  assert_non_null(strstr(err, "(at sweep point 2 of 2)"));
}

static void test_lists_commands_with_placeholders_filled(void **state) {
  fixture_t *fx = *state;
  fx->p.command = "[\"gzip\", \"-{level}\", \"-c\", \"{tmp}/in put\"]";
  fx->p.vars = "{\"level\": \"9\"}";
  fx->p.env = "{\"GZIP\":null,\"LC_ALL\":\"C\"}";
  fx->p.setup = "[\"sh\", \"-c\", \"seq 100000 > {tmp}/in\"]";
  exec_params_t fast = fx->p;
  fast.vars = "{\"level\": \"1\"}";
  const void *pts[] = {&fx->p, &fast, &fx->p};
  rigor_points_t points = {3, pts};
  char out[4096];
  int n = fx->d->commands(&fx->p, &points, out, sizeof out);
  assert_int_equal(n, 3);
  assert_string_equal(out, "env -u GZIP LC_ALL=C gzip -9 -c '{tmp}/in put'\n"
                           "setup: env -u GZIP LC_ALL=C sh -c 'seq 100000 > {tmp}/in'\n"
                           "env -u GZIP LC_ALL=C gzip -1 -c '{tmp}/in put'\n");
}

static void test_declares_metrics_from_params(void **state) {
  fixture_t *fx = *state;
  fx->p.command = "[\"all_reduce_perf\"]";
  rigor_metric_decl_t m[4];
  /* JSON params arrive as canonical text, keys sorted. */
  fx->p.metrics = "{\"busbw\":{\"better\":\"higher\",\"from\":\"stderr\",\"regex\":\"busbw "
                  "([0-9.]+)\",\"unit\":\"GB/s\"},\"wrong\":{\"better\":\"lower\",\"regex\":"
                  "\"#wrong ([0-9]+)\"}}";
  assert_int_equal(fx->d->declare_metrics(&fx->p, m, 4), 2);
  assert_string_equal(m[0].name, "busbw");
  assert_string_equal(m[0].unit, "GB/s");
  assert_int_equal(m[0].better, RIGOR_HIGHER_IS_BETTER);
  assert_non_null(strstr(m[0].help, "stderr"));
  assert_string_equal(m[1].name, "wrong");
  assert_int_equal(m[1].better, RIGOR_LOWER_IS_BETTER);
  assert_int_equal(fx->d->declare_metrics(&fx->p, m, 1), 1);
}

static void test_init_needs_allow_commands(void **state) {
  fixture_t *fx = *state;
  fx->th.allow_commands = 0;
  fx->p.command = "[\"" EXEC_PROBE "\"]";
  void *st = NULL;
  rigor_work_t work = {0};
  assert_int_equal(fx->d->init(ctx(fx), &fx->th.host, &fx->p, one_point(fx), &st, &work),
                   RIGOR_ECONFIG);
  assert_non_null(strstr(fx->th.first_error, "--allow-commands"));
}

static void test_missing_program_is_unavailable(void **state) {
  fixture_t *fx = *state;
  fx->p.command = "[\"rigor-no-such-program\", \"-x\"]";
  void *st = NULL;
  rigor_work_t work = {0};
  assert_int_equal(fx->d->init(ctx(fx), &fx->th.host, &fx->p, one_point(fx), &st, &work),
                   RIGOR_EUNAVAILABLE);
  assert_non_null(strstr(fx->th.first_error, "'rigor-no-such-program' is not on PATH"));
  fx->p.command = "[\"./not/built/bench\"]";
  assert_int_equal(fx->d->init(ctx(fx), &fx->th.host, &fx->p, one_point(fx), &st, &work),
                   RIGOR_EUNAVAILABLE);
}

/* init, then one window of n executions, validate and metrics; returns validate's code. */
typedef struct window {
  int init_rc, run_rc, validate_rc;
  rigor_check_t check;
  double values[8];
} window_t;

static window_t one_window(fixture_t *fx, uint64_t n) {
  window_t w = {0};
  void *st = NULL;
  rigor_work_t work = {0};
  const rigor_points_t *pts = one_point(fx);
  w.init_rc = fx->d->init(ctx(fx), &fx->th.host, &fx->p, pts, &st, &work);
  if (w.init_rc) return w;
  assert_int_equal(fx->d->prime(ctx(fx), st, &fx->p), 0);
  w.run_rc = fx->d->run(ctx(fx), st, &fx->p, n);
  if (w.run_rc == 0) {
    w.validate_rc = fx->d->validate(ctx(fx), st, &fx->p, &w.check);
    for (int i = 0; i < 8; i++)
      w.values[i] = NAN;
    assert_int_equal(fx->d->metrics_read(ctx(fx), st, &fx->p, w.values), 0);
  }
  fx->d->fini(ctx(fx), st);
  return w;
}

static void test_exit_status_and_stderr_tail_fail_the_check(void **state) {
  fixture_t *fx = *state;
  fx->p.command = "[\"" EXEC_PROBE "\", \"err:disk full at block 7\", \"exit:3\"]";
  window_t w = one_window(fx, 2);
  assert_int_equal(w.init_rc, 0);
  assert_int_equal(w.validate_rc, RIGOR_EVALIDATE);
  assert_int_equal(w.check.checked, 2);
  assert_int_equal(w.check.wrong, 2);
  assert_non_null(strstr(w.check.detail, "execution 1: exit status 3 (expected 0)"));
  assert_non_null(strstr(w.check.detail, "stderr: ...disk full at block 7"));
  fx->p.expect_exit = 3;
  w = one_window(fx, 2);
  assert_int_equal(w.validate_rc, 0);
  assert_int_equal(w.check.wrong, 0);
  fx->p.expect_exit = 0;
  fx->p.command = "[\"" EXEC_PROBE "\", \"signal:9\"]";
  w = one_window(fx, 1);
  assert_int_equal(w.validate_rc, RIGOR_EVALIDATE);
  assert_non_null(strstr(w.check.detail, "killed by signal 9"));
}

static void test_stdout_must_match_and_metrics_are_read(void **state) {
  fixture_t *fx = *state;
  fx->p.command = "[\"" EXEC_PROBE "\", \"out:# Out of bounds values : 0 OK\", "
                  "\"out:     1048576  148.70  0\", \"err:took 2.5 ms\"]";
  fx->p.expect_stdout = "Out of bounds values : 0 OK";
  fx->p.metrics = "{\"busbw\":{\"better\":\"higher\",\"regex\":\"^ +1048576 +([0-9.]+)\"},"
                  "\"ms\":{\"better\":\"lower\",\"from\":\"stderr\",\"regex\":\"took ([0-9.]+) "
                  "ms\"},\"wrong\":{\"better\":\"lower\",\"regex\":\"([0-9]+)$\"}}";
  window_t w = one_window(fx, 3);
  assert_int_equal(w.validate_rc, 0);
  assert_int_equal(w.check.checked, 3);
  assert_true(w.values[0] > 0 && w.values[0] < 1); /* spawn_s */
  assert_true(w.values[1] == 148.70);
  assert_true(w.values[2] == 2.5);
  assert_true(w.values[3] == 0);
  fx->p.expect_stdout = "Out of bounds values : 0 FAILED";
  w = one_window(fx, 1);
  assert_int_equal(w.validate_rc, RIGOR_EVALIDATE);
  assert_non_null(strstr(w.check.detail, "does not match /Out of bounds values : 0 FAILED/"));
}

/* Output is bytes: what follows a NUL byte is matched by expect_stdout and the metrics too. */
static void test_output_is_matched_past_a_nul_byte(void **state) {
  fixture_t *fx = *state;
  fx->p.command = "[\"" EXEC_PROBE "\", \"out:before\", \"nul\", \"out:done 7\"]";
  fx->p.expect_stdout = "done";
  fx->p.metrics = "{\"n\":{\"better\":\"lower\",\"regex\":\"done ([0-9]+)\"}}";
  window_t w = one_window(fx, 1);
  assert_int_equal(w.validate_rc, 0);
  assert_true(w.values[1] == 7);
  fx->p.expect_stdout = "missing";
  w = one_window(fx, 1);
  assert_int_equal(w.validate_rc, RIGOR_EVALIDATE);
  assert_non_null(
      strstr(w.check.detail, "it ends: before  done 7")); /* newline and NUL as spaces */
}

/* A FIFO as stdin with no writer: the execution starts (and reads end of file) instead of
 * blocking before execve, where no timeout could end it. Run in a child process, so that the
 * failure, a hang, ends as a failed test after a generous wait. */
static void test_fifo_stdin_does_not_block_the_start(void **state) {
  fixture_t *fx = *state;
  char fifo[128], vars[256];
  snprintf(fifo, sizeof fifo, "%s/in.fifo", fx->dir);
  assert_int_equal(mkfifo(fifo, 0600), 0);
  snprintf(vars, sizeof vars, "{\"in\": \"%s\"}", fifo);
  fx->p.vars = vars;
  fx->p.stdin_file = "{in}";
  fx->p.command = "[\"" EXEC_PROBE "\", \"cat\", \"out:done\"]";
  fx->p.expect_stdout = "^done$";
  fx->p.timeout = 5;
  fflush(NULL);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    window_t w = one_window(fx, 1);
    _exit(w.init_rc == 0 && w.run_rc == 0 && w.validate_rc == 0 ? 0 : 1);
  }
  int status = 0;
  pid_t got = 0;
  for (int i = 0; i < 6000 && (got = waitpid(pid, &status, WNOHANG)) == 0; i++)
    usleep(10000);
  if (got == 0) {
    kill(pid, SIGKILL); /* the program, blocked in open, dies with it (PR_SET_PDEATHSIG) */
    waitpid(pid, &status, 0);
    fail_msg("the execution never started: opening its stdin FIFO blocked");
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) fail_msg("the execution's check failed");
}

static size_t entries_named(const char *dir, const char *prefix) {
  DIR *d = opendir(dir);
  assert_non_null(d);
  size_t n = 0;
  for (struct dirent *e; (e = readdir(d));)
    n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
  closedir(d);
  return n;
}

/* A scratch folder whose owner process is gone (killed outright, fini never ran) is swept when
 * the next run starts; one whose owner lives stays, and the run's own goes at fini. */
static void test_stale_scratch_folders_are_swept(void **state) {
  fixture_t *fx = *state;
  pid_t gone = fork();
  if (gone == 0) _exit(0);
  assert_int_equal(waitpid(gone, NULL, 0), gone);
  char stale[256], live[256], path[400];
  snprintf(stale, sizeof stale, "%s/rigor-exec-%ld-AbC123", fx->dir, (long)gone);
  snprintf(live, sizeof live, "%s/rigor-exec-%ld-XyZ789", fx->dir, (long)getppid());
  assert_int_equal(mkdir(stale, 0700), 0);
  assert_int_equal(mkdir(live, 0700), 0);
  snprintf(path, sizeof path, "%s/sub", stale);
  assert_int_equal(mkdir(path, 0700), 0);
  snprintf(path, sizeof path, "%s/sub/data", stale);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs("left behind\n", f);
  fclose(f);
  setenv("TMPDIR", fx->dir, 1);
  fx->p.command = "[\"" EXEC_PROBE "\", \"out:x\"]";
  window_t w = one_window(fx, 1);
  unsetenv("TMPDIR");
  assert_int_equal(w.validate_rc, 0);
  struct stat st;
  assert_int_not_equal(stat(stale, &st), 0);
  assert_int_equal(stat(live, &st), 0);
  assert_int_equal(entries_named(fx->dir, "rigor-exec-"), 1);
}

static void test_placeholders_reach_argv_cwd_env_and_stdin(void **state) {
  fixture_t *fx = *state;
  char input[128];
  snprintf(input, sizeof input, "%s/input.txt", fx->dir);
  FILE *f = fopen(input, "w");
  fputs("from stdin\n", f);
  fclose(f);
  char command[512], cwd[128], env[128], expect[256];
  snprintf(command, sizeof command,
           "[\"" EXEC_PROBE "\", \"out:size={size}\", \"cwd\", \"env:RIGOR_T\", \"cat\"]");
  snprintf(cwd, sizeof cwd, "{where}");
  snprintf(env, sizeof env, "{\"RIGOR_T\": \"t-{size}\"}");
  char vars[256];
  snprintf(vars, sizeof vars, "{\"size\": \"1K\", \"where\": \"%s\", \"in\": \"%s\"}", fx->dir,
           input);
  snprintf(expect, sizeof expect, "^size=1K\n%s\nRIGOR_T=t-1K\nfrom stdin\n$", fx->dir);
  fx->p.command = command;
  fx->p.cwd = cwd;
  fx->p.env = env;
  fx->p.vars = vars;
  fx->p.stdin_file = "{in}";
  fx->p.expect_stdout = expect;
  window_t w = one_window(fx, 1);
  assert_int_equal(w.init_rc, 0);
  assert_int_equal(w.validate_rc, 0);
}

static void test_setup_and_verify_commands(void **state) {
  fixture_t *fx = *state;
  fx->p.setup = "[\"sh\", \"-c\", \"echo 12345 > {tmp}/data\"]";
  fx->p.command = "[\"sh\", \"-c\", \"cp {tmp}/data {tmp}/copy\"]";
  fx->p.verify = "[\"cmp\", \"{tmp}/data\", \"{tmp}/copy\"]";
  window_t w = one_window(fx, 1);
  assert_int_equal(w.init_rc, 0);
  assert_int_equal(w.validate_rc, 0);
  fx->p.command = "[\"sh\", \"-c\", \"echo 0 > {tmp}/copy\"]";
  w = one_window(fx, 1);
  assert_int_equal(w.validate_rc, RIGOR_EVALIDATE);
  assert_non_null(strstr(w.check.detail, "verify cmp: exit status 1"));
  fx->p.setup = "[\"false\"]";
  test_host_init(&fx->th);
  fx->th.allow_commands = 1;
  w = one_window(fx, 1);
  assert_int_equal(w.init_rc, RIGOR_EPLUGIN);
  assert_non_null(strstr(fx->th.first_error, "setup false: exit status 1"));
}

static bool alive(pid_t pid) {
  char path[64], state = '?';
  snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
  FILE *f = fopen(path, "r");
  if (!f) return false;
  int got = fscanf(f, "%*d %*s %c", &state);
  fclose(f);
  return got == 1 && state != 'Z' && state != 'X';
}

static void test_timeout_kills_the_process_group(void **state) {
  fixture_t *fx = *state;
  char command[256], pidfile[128];
  snprintf(pidfile, sizeof pidfile, "%s/grandchild.pid", fx->dir);
  snprintf(command, sizeof command, "[\"" EXEC_PROBE "\", \"grandchild:%s\", \"sleep:30\"]",
           pidfile);
  fx->p.command = command;
  fx->p.timeout = 0.2;
  window_t w = one_window(fx, 1);
  assert_int_equal(w.run_rc, RIGOR_ETIMEDOUT);
  assert_non_null(strstr(fx->th.first_error, "ran past its timeout of 0.2 s"));
  FILE *f = fopen(pidfile, "r");
  assert_non_null(f);
  long pid = 0;
  assert_int_equal(fscanf(f, "%ld", &pid), 1);
  fclose(f);
  /* SIGKILL is delivered at once, but the grandchild's parent (init here) reaps it later. */
  for (int i = 0; i < 200 && alive((pid_t)pid); i++)
    usleep(10000);
  assert_false(alive((pid_t)pid));
}

static void test_large_output_is_drained_and_its_tail_kept(void **state) {
  fixture_t *fx = *state;
  fx->p.command = "[\"" EXEC_PROBE "\", \"bytes:3000000\", \"out:\", \"out:END 42\"]";
  fx->p.capture = 4096;
  fx->p.metrics = "{\"end\":{\"better\":\"lower\",\"regex\":\"END ([0-9]+)\"}}";
  window_t w = one_window(fx, 1);
  assert_int_equal(w.validate_rc, 0);
  assert_true(w.values[1] == 42);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_refuses_bad_params_naming_them, setup, teardown),
      cmocka_unit_test_setup_teardown(test_a_sweep_may_not_change_the_metrics, setup, teardown),
      cmocka_unit_test_setup_teardown(test_lists_commands_with_placeholders_filled, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_declares_metrics_from_params, setup, teardown),
      cmocka_unit_test_setup_teardown(test_init_needs_allow_commands, setup, teardown),
      cmocka_unit_test_setup_teardown(test_missing_program_is_unavailable, setup, teardown),
      cmocka_unit_test_setup_teardown(test_exit_status_and_stderr_tail_fail_the_check, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_stdout_must_match_and_metrics_are_read, setup, teardown),
      cmocka_unit_test_setup_teardown(test_output_is_matched_past_a_nul_byte, setup, teardown),
      cmocka_unit_test_setup_teardown(test_fifo_stdin_does_not_block_the_start, setup, teardown),
      cmocka_unit_test_setup_teardown(test_stale_scratch_folders_are_swept, setup, teardown),
      cmocka_unit_test_setup_teardown(test_placeholders_reach_argv_cwd_env_and_stdin, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_setup_and_verify_commands, setup, teardown),
      cmocka_unit_test_setup_teardown(test_timeout_kills_the_process_group, setup, teardown),
      cmocka_unit_test_setup_teardown(test_large_output_is_drained_and_its_tail_kept, setup,
                                      teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include <stdbool.h>

#include "rigor/plugin.h"
#include "checks.h"
#include "noise.h"
#include "fakeroot.h"

static const char *const check_names[] = {"governor", "boost", "load", "busy_processes",
                                          "aslr",     "swap",  "build"};
#define N_CHECKS (sizeof check_names / sizeof *check_names)

static const json_t *entry(const json_t *checks, const char *name) {
  size_t i;
  const json_t *c;
  json_array_foreach(checks, i, c) {
    if (strcmp(json_string_value(json_object_get(c, "check")), name) == 0) return c;
  }
  fail_msg("no check named %s", name);
  return NULL;
}

static const char *status(const json_t *checks, const char *name) {
  return json_string_value(json_object_get(entry(checks, name), "status"));
}

static const char *detail(const json_t *checks, const char *name) {
  return json_string_value(json_object_get(entry(checks, name), "detail"));
}

/* Every entry says why it matters, and a warning says what to do. */
static void assert_well_formed(const json_t *checks) {
  assert_int_equal(json_array_size(checks), N_CHECKS);
  for (size_t k = 0; k < N_CHECKS; k++) {
    const json_t *c = entry(checks, check_names[k]);
    const char *s = json_string_value(json_object_get(c, "status"));
    assert_true(strcmp(s, "ok") == 0 || strcmp(s, "warn") == 0 || strcmp(s, "unavailable") == 0);
    assert_true(strlen(json_string_value(json_object_get(c, "why"))) > 20);
    assert_non_null(json_string_value(json_object_get(c, "detail")));
    if (strcmp(s, "warn") == 0)
      assert_true(strlen(json_string_value(json_object_get(c, "advice"))) > 10);
    else
      assert_true(json_is_null(json_object_get(c, "advice")));
  }
}

typedef struct swapper {
  const char *root;
} swapper_t;

/* Swapping starts while the check watches. */
static void *start_swapping(void *arg) {
  const swapper_t *s = arg;
  struct timespec ts = {0, 50 * 1000000L};
  nanosleep(&ts, NULL);
  fake_write(s->root, "/proc/vmstat", "nr_free_pages 10\npswpin 7\npswpout 5\n");
  return NULL;
}

static void test_untuned_machine_warns(void **state) {
  (void)state;
  char *root = fake_root_new();
  fake_write(root, "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "powersave\n");
  fake_write(root, "/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor", "powersave\n");
  fake_write(root, "/sys/devices/system/cpu/cpu2/cpufreq/scaling_governor", "performance\n");
  fake_write(root, "/sys/devices/system/cpu/intel_pstate/no_turbo", "0\n");
  fake_write(root, "/proc/loadavg", "3.25 2.00 1.00 4/200 999\n");
  fake_write(root, "/proc/sys/kernel/randomize_va_space", "2\n");
  fake_write(root, "/proc/vmstat", "nr_free_pages 10\npswpin 3\npswpout 0\n");
  swapper_t s = {root};
  pthread_t th;
  assert_int_equal(pthread_create(&th, NULL, start_swapping, &s), 0);
  json_t *checks = rigor__env_check_at(root, 0.3);
  pthread_join(th, NULL);

  assert_well_formed(checks);
  assert_string_equal(status(checks, "governor"), "warn");
  assert_string_equal(detail(checks, "governor"), "governor 'powersave' on CPUs 0,1");
  assert_string_equal(status(checks, "boost"), "warn");
  assert_non_null(strstr(json_string_value(json_object_get(entry(checks, "boost"), "advice")),
                         "intel_pstate/no_turbo"));
  assert_string_equal(status(checks, "load"), "warn");
  assert_non_null(strstr(detail(checks, "load"), "3.25"));
  assert_string_equal(status(checks, "aslr"), "warn");
  assert_string_equal(status(checks, "swap"), "warn");
  /* The window's length is what the clock measured: on a loaded machine more than 0.3 s. */
  assert_non_null(strstr(detail(checks, "swap"), "9 pages swapped in or out during "));
  assert_string_equal(status(checks, "busy_processes"), "ok"); /* the tree has no processes */
  json_decref(checks);
  fake_root_free(root);
}

static void test_tuned_machine_passes(void **state) {
  (void)state;
  char *root = fake_root_new();
  fake_write(root, "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "performance\n");
  fake_write(root, "/sys/devices/system/cpu/cpufreq/boost", "0\n");
  fake_write(root, "/proc/loadavg", "0.05 0.10 0.10 1/200 999\n");
  fake_write(root, "/proc/sys/kernel/randomize_va_space", "0\n");
  fake_write(root, "/proc/vmstat", "pswpin 3\npswpout 4\n");
  json_t *checks = rigor__env_check_at(root, 0.12);
  assert_well_formed(checks);
  for (size_t k = 0; k < N_CHECKS - 1; k++)
    assert_string_equal(status(checks, check_names[k]), "ok");
  json_decref(checks);
  fake_root_free(root);
}

static void test_nothing_exposed_is_unavailable(void **state) {
  (void)state;
  char *root = fake_root_new();
  json_t *checks = rigor__env_check_at(root, 0.01);
  assert_well_formed(checks);
  for (size_t k = 0; k < N_CHECKS - 1; k++)
    assert_string_equal(status(checks, check_names[k]), "unavailable");
  json_decref(checks);
  fake_root_free(root);
}

/* `rigor run`'s way: the experiment record holds the sampled checks as pending, a window spans
 * the runs, and its results replace them. */
static void test_window_spanning_the_runs(void **state) {
  (void)state;
  json_t *pending = rigor_env_check_pending();
  assert_int_equal(json_array_size(pending), N_CHECKS);
  assert_string_equal(status(pending, "swap"), "pending");
  assert_string_equal(status(pending, "busy_processes"), "pending");
  assert_non_null(strstr(detail(pending, "swap"), "run record"));
  assert_string_equal(status(pending, "build"), "ok");
  json_decref(pending);

  char *root = fake_root_new();
  fake_write(root, "/proc/vmstat", "pswpin 3\npswpout 4\n");
  rigor_env_window_t *w = rigor__env_window_open_at(root);
  assert_non_null(w);
  fake_write(root, "/proc/vmstat", "pswpin 5\npswpout 4\n");
  json_t *sampled = rigor_env_window_close(w);
  assert_int_equal(json_array_size(sampled), 2);
  assert_string_equal(status(sampled, "swap"), "warn");
  assert_non_null(strstr(detail(sampled, "swap"), "2 pages swapped in or out during 0.0"));
  /* A window shorter than ten clock ticks cannot attribute CPU time: it says so. */
  assert_string_equal(status(sampled, "busy_processes"), "unavailable");
  assert_non_null(strstr(detail(sampled, "busy_processes"), "too short"));

  json_t *list = rigor_env_check_pending();
  rigor_env_checks_settle(list, sampled);
  assert_well_formed(list);
  assert_string_equal(status(list, "swap"), "warn");
  json_decref(list);
  json_decref(sampled);

  w = rigor__env_window_open_at(root);
  struct timespec ts = {0, 120 * 1000000L};
  nanosleep(&ts, NULL);
  sampled = rigor_env_window_close(w);
  assert_string_equal(status(sampled, "busy_processes"), "ok"); /* the tree has no processes */
  assert_string_equal(status(sampled, "swap"), "ok");
  json_decref(sampled);
  fake_root_free(root);
}

/* User and system ticks of process pid so far. */
static unsigned long long cpu_ticks(pid_t pid) {
  char path[64], line[1024];
  snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  size_t n = fread(line, 1, sizeof line - 1, f);
  fclose(f);
  line[n] = '\0';
  const char *p = strrchr(line, ')');
  unsigned long long utime = 0, stime = 0;
  if (p) sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &utime, &stime);
  return utime + stime;
}

static void test_names_a_real_busy_process(void **state) {
  (void)state;
  json_t *spec = json_pack("{s:s, s:[{s:[i]}]}", "label", "busy", "burners", "cpus", 0);
  rigor_noise_t *noise = NULL;
  char err[256];
  assert_int_equal(rigor_noise_start(spec, &noise, err, sizeof err), 0);
  json_decref(spec);
  pid_t pid;
  assert_int_equal(rigor_noise_pids(noise, &pid, 1), 1);
  /* On a loaded machine a burner that just started may not have run yet: wait until it has used
   * CPU, and sample over a second rather than a quarter. */
  for (int i = 0; i < 500 && cpu_ticks(pid) < 5; i++)
    usleep(10000);
  unsigned long long before = cpu_ticks(pid);
  json_t *checks = rigor__env_check_at("", 1.0);
  unsigned long long used = cpu_ticks(pid) - before;
  rigor_noise_stop(noise);
  assert_well_formed(checks);
  /* The check's rule is more than 10% of a CPU. A machine so loaded that the burner got less
   * than twice that in the window cannot show the rule either way. */
  if ((double)used < 0.2 * (double)sysconf(_SC_CLK_TCK)) {
    printf("the burner ran %llu ticks of the 1 s window: too loaded to check, skipped\n", used);
    json_decref(checks);
    skip();
  }
  assert_string_equal(status(checks, "busy_processes"), "warn");
  /* The detail names the busiest few; on a loaded machine the burner need not be among them,
   * but it is always in the full list. */
  const json_t *entry = NULL;
  size_t i;
  json_t *c;
  json_array_foreach(checks, i, c) {
    if (strcmp(json_string_value(json_object_get(c, "check")), "busy_processes") == 0) entry = c;
  }
  bool listed = false;
  json_t *proc;
  json_array_foreach(json_object_get(entry, "processes"), i, proc) {
    listed = listed || json_integer_value(json_object_get(proc, "pid")) == pid;
  }
  if (!listed) fail_msg("'%s' does not list pid %d", detail(checks, "busy_processes"), (int)pid);
  json_decref(checks);
}

/* Runs `rigor check ARGS` in-process with stdout captured; returns the exit code. */
static int run_check(char **argv, int argc, char *out, size_t cap) {
  fflush(stdout);
  FILE *tmp = tmpfile();
  int saved = dup(1);
  dup2(fileno(tmp), 1);
  int rc = rigor_cmd_check(argc, argv);
  fflush(stdout);
  dup2(saved, 1);
  close(saved);
  rewind(tmp);
  size_t n = fread(out, 1, cap - 1, tmp);
  out[n] = '\0';
  fclose(tmp);
  return rc;
}

static void test_command(void **state) {
  (void)state;
  static char out[65536];
  char *json_args[] = {"check", "--format", "json"};
  assert_int_equal(run_check(json_args, 3, out, sizeof out), RIGOR_EXIT_OK);
  json_error_t jerr;
  json_t *checks = json_loads(out, 0, &jerr);
  if (!checks) fail_msg("not JSON: %s", jerr.text);
  assert_well_formed(checks);
  json_decref(checks);

  char *text_args[] = {"check"};
  assert_int_equal(run_check(text_args, 1, out, sizeof out), RIGOR_EXIT_OK);
  assert_non_null(strstr(out, "rigor check: 7 checks, "));
  assert_non_null(strstr(out, "why: "));
  for (size_t k = 0; k < N_CHECKS; k++)
    assert_non_null(strstr(out, check_names[k]));

  char *bad_format[] = {"check", "--format", "yaml"};
  assert_int_equal(run_check(bad_format, 3, out, sizeof out), RIGOR_EXIT_USAGE);
  char *bad_arg[] = {"check", "--fix"};
  assert_int_equal(run_check(bad_arg, 2, out, sizeof out), RIGOR_EXIT_USAGE);
  assert_string_equal(out, "");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_untuned_machine_warns),
      cmocka_unit_test(test_tuned_machine_passes),
      cmocka_unit_test(test_nothing_exposed_is_unavailable),
      cmocka_unit_test(test_window_spanning_the_runs),
      cmocka_unit_test(test_names_a_real_busy_process),
      cmocka_unit_test(test_command),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

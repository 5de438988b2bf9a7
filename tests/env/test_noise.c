#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <stdbool.h>

#include "rigor/plugin.h"
#include "noise.h"

static int last_cpu;

static int setup(void **state) {
  (void)state;
  cpu_set_t mask;
  sched_getaffinity(0, sizeof mask, &mask);
  for (int c = 0; c < CPU_SETSIZE; c++)
    if (CPU_ISSET(c, &mask)) last_cpu = c;
  /* Orphaned burners come back to this process, so the test can see how they died. */
  return prctl(PR_SET_CHILD_SUBREAPER, 1);
}

static void sleep_ms(int ms) {
  struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

/* The state letter from /proc/PID/stat, or 0 when the process does not exist. */
static char proc_state(pid_t pid) {
  char path[64], line[512];
  snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  char *ok = fgets(line, sizeof line, f);
  fclose(f);
  char *close = ok ? strrchr(line, ')') : NULL;
  return close ? close[2] : 0;
}

/* Busy loops are runnable all the time: some look at the state must see R. */
static bool seen_running(pid_t pid) {
  for (int i = 0; i < 50; i++) {
    if (proc_state(pid) == 'R') return true;
    sleep_ms(10);
  }
  return false;
}

static bool becomes_state(pid_t pid, char want, int timeout_ms) {
  for (int waited = 0; waited < timeout_ms; waited += 10) {
    if (proc_state(pid) == want) return true;
    sleep_ms(10);
  }
  return false;
}

static long rss_kib(pid_t pid) {
  char path[64], line[256];
  snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
  FILE *f = fopen(path, "r");
  long kib = -1;
  if (!f) return -1;
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "VmRSS: %ld kB", &kib) == 1) break;
  fclose(f);
  return kib;
}

static bool is_gone(pid_t pid) {
  return kill(pid, 0) == -1 && errno == ESRCH && proc_state(pid) == 0;
}

static json_t *two_burners(void) {
  return json_pack("{s:s, s:[{s:s, s:[i]}, {s:s, s:[i]}]}", "label", "same-core", "burners", "kind",
                   "cpu", "cpus", 0, "kind", "membw", "cpus", last_cpu);
}

static void test_burners_run_pinned_and_stop_kills_them(void **state) {
  (void)state;
  json_t *spec = two_burners();
  rigor_noise_t *noise = NULL;
  char err[256] = "";
  assert_int_equal(rigor_noise_start(spec, &noise, err, sizeof err), 0);
  json_decref(spec);
  pid_t pids[4];
  assert_int_equal(rigor_noise_pids(noise, pids, 4), 2);
  const int want_cpu[] = {0, last_cpu};
  for (int i = 0; i < 2; i++) {
    assert_true(seen_running(pids[i]));
    cpu_set_t mask;
    assert_int_equal(sched_getaffinity(pids[i], sizeof mask, &mask), 0);
    assert_int_equal(CPU_COUNT(&mask), 1);
    assert_true(CPU_ISSET(want_cpu[i], &mask));
    assert_int_equal(getpgid(pids[i]), pids[i]);
  }
  /* The bandwidth burner streams over at least half of its 64 MiB minimum buffer. */
  long kib = 0;
  for (int waited = 0; waited < 5000 && kib < 32 * 1024; waited += 20) {
    kib = rss_kib(pids[1]);
    sleep_ms(20);
  }
  assert_true(kib >= 32 * 1024);

  json_t *d = rigor_noise_describe(noise);
  assert_string_equal(json_string_value(json_object_get(d, "label")), "same-core");
  json_t *b = json_object_get(d, "burners");
  assert_int_equal(json_array_size(b), 2);
  assert_string_equal(json_string_value(json_object_get(json_array_get(b, 0), "kind")), "cpu");
  assert_string_equal(json_string_value(json_object_get(json_array_get(b, 1), "kind")), "membw");
  assert_int_equal(
      json_integer_value(json_array_get(json_object_get(json_array_get(b, 1), "cpus"), 0)),
      last_cpu);
  assert_int_equal(json_integer_value(json_object_get(json_array_get(b, 0), "pid")), pids[0]);
  json_decref(d);

  rigor_noise_stop(noise);
  assert_true(is_gone(pids[0]));
  assert_true(is_gone(pids[1]));
}

static void test_burner_per_cpu_and_idle(void **state) {
  (void)state;
  rigor_noise_t *noise = NULL;
  char err[256];
  json_t *spec =
      json_pack("{s:s, s:[{s:[i, i]}]}", "label", "both", "burners", "cpus", 0, last_cpu);
  if (last_cpu == 0) {
    json_decref(spec);
    skip();
  }
  assert_int_equal(rigor_noise_start(spec, &noise, err, sizeof err), 0);
  json_decref(spec);
  pid_t pids[4];
  assert_int_equal(rigor_noise_pids(noise, pids, 4), 2);
  rigor_noise_stop(noise);
  assert_true(is_gone(pids[0]) && is_gone(pids[1]));

  spec = json_pack("{s:s, s:[]}", "label", "idle", "burners");
  assert_int_equal(rigor_noise_start(spec, &noise, err, sizeof err), 0);
  json_decref(spec);
  assert_int_equal(rigor_noise_pids(noise, pids, 4), 0);
  json_t *d = rigor_noise_describe(noise);
  assert_string_equal(json_string_value(json_object_get(d, "label")), "idle");
  assert_int_equal(json_array_size(json_object_get(d, "burners")), 0);
  json_decref(d);
  rigor_noise_stop(noise);
  rigor_noise_stop(NULL);
}

static void expect_refused(const char *json, const char *message) {
  json_t *spec = json_loads(json, 0, NULL);
  assert_non_null(spec);
  char err[256] = "";
  rigor_noise_t *noise = (rigor_noise_t *)&err;
  assert_int_equal(rigor_noise_check(spec, err, sizeof err), RIGOR_ECONFIG);
  if (!strstr(err, message)) fail_msg("error '%s' does not contain '%s'", err, message);
  assert_int_equal(rigor_noise_start(spec, &noise, err, sizeof err), RIGOR_ECONFIG);
  assert_null(noise);
  json_decref(spec);
}

static void test_refuses_bad_specs(void **state) {
  (void)state;
  expect_refused("{\"burners\": [{\"kind\": \"gpu\", \"cpus\": [0]}]}",
                 "'cpu' or 'membw', not gpu");
  expect_refused("{\"burners\": [{\"cpus\": [9999]}]}",
                 "noise: burner 0: CPU 9999 does not exist on this machine");
  expect_refused("{\"burners\": [{\"cpu\": [0]}]}", "unknown key 'cpu'");
  expect_refused("{\"label\": \"x\", \"burner\": []}", "unknown key 'burner'");
  expect_refused("{\"burners\": [{\"kind\": \"cpu\"}]}", "non-empty list");
}

/* What a runner's SIGINT/SIGTERM handler does. */
static void on_usr1(int sig) {
  (void)sig;
  rigor_noise_kill_all();
}

static void test_kill_all_from_a_signal_handler(void **state) {
  (void)state;
  signal(SIGUSR1, on_usr1);
  json_t *spec = two_burners();
  rigor_noise_t *noise = NULL;
  char err[256];
  assert_int_equal(rigor_noise_start(spec, &noise, err, sizeof err), 0);
  json_decref(spec);
  pid_t pids[2];
  assert_int_equal(rigor_noise_pids(noise, pids, 2), 2);
  raise(SIGUSR1);
  /* Dead at once; the zombies hold the pids until stop reaps them, so no pid can be reused. */
  assert_true(becomes_state(pids[0], 'Z', 2000));
  assert_true(becomes_state(pids[1], 'Z', 2000));
  rigor_noise_stop(noise);
  assert_true(is_gone(pids[0]) && is_gone(pids[1]));
  signal(SIGUSR1, SIG_DFL);
}

static void test_burners_die_with_a_killed_parent(void **state) {
  (void)state;
  int fds[2];
  assert_int_equal(pipe(fds), 0);
  pid_t parent = fork();
  assert_true(parent >= 0);
  if (parent == 0) {
    close(fds[0]);
    json_t *spec = two_burners();
    rigor_noise_t *noise = NULL;
    char err[256];
    pid_t pids[2] = {0, 0};
    if (rigor_noise_start(spec, &noise, err, sizeof err) == 0) rigor_noise_pids(noise, pids, 2);
    if (write(fds[1], pids, sizeof pids) != (ssize_t)sizeof pids) _exit(1);
    for (;;)
      pause();
  }
  close(fds[1]);
  pid_t pids[2] = {0, 0};
  assert_int_equal(read(fds[0], pids, sizeof pids), (ssize_t)sizeof pids);
  close(fds[0]);
  assert_true(pids[0] > 0 && pids[1] > 0);
  assert_true(seen_running(pids[0]));
  assert_true(seen_running(pids[1]));

  assert_int_equal(kill(parent, SIGKILL), 0);
  assert_int_equal(waitpid(parent, NULL, 0), parent);
  alarm(10);
  for (int i = 0; i < 2; i++) {
    int status = 0;
    assert_int_equal(waitpid(pids[i], &status, 0), pids[i]);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGKILL);
    assert_true(is_gone(pids[i]));
  }
  alarm(0);
}

static void test_burners_hold_no_parent_pipes(void **state) {
  (void)state;
  int fds[2];
  assert_int_equal(pipe(fds), 0);
  json_t *spec = two_burners();
  rigor_noise_t *noise = NULL;
  char err[256];
  assert_int_equal(rigor_noise_start(spec, &noise, err, sizeof err), 0);
  json_decref(spec);
  close(fds[1]);
  /* EOF arrives at once: no burner kept a copy of the write end. */
  char c;
  alarm(5);
  assert_int_equal(read(fds[0], &c, 1), 0);
  alarm(0);
  close(fds[0]);
  rigor_noise_stop(noise);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_burners_run_pinned_and_stop_kills_them),
      cmocka_unit_test(test_burner_per_cpu_and_idle),
      cmocka_unit_test(test_refuses_bad_specs),
      cmocka_unit_test(test_kill_all_from_a_signal_handler),
      cmocka_unit_test(test_burners_die_with_a_killed_parent),
      cmocka_unit_test(test_burners_hold_no_parent_pipes),
  };
  return cmocka_run_group_tests(tests, setup, NULL);
}

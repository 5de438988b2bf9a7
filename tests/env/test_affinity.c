#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>

#include <stdbool.h>

#include "rigor/plugin.h"
#include "affinity.h"

static cpu_set_t original;

static int save_mask(void **state) {
  (void)state;
  return sched_getaffinity(0, sizeof original, &original);
}

static int restore_mask(void **state) {
  (void)state;
  return sched_setaffinity(0, sizeof original, &original);
}

static int last_allowed_cpu(void) {
  int last = -1;
  for (int c = 0; c < CPU_SETSIZE; c++)
    if (CPU_ISSET(c, &original)) last = c;
  return last;
}

static void expect_error(const char *json, const char *message) {
  json_t *a = json_loads(json, 0, NULL);
  char err[256] = "";
  assert_int_equal(rigor_affinity_check(a, err, sizeof err), RIGOR_ECONFIG);
  if (!strstr(err, message)) fail_msg("error '%s' does not contain '%s'", err, message);
  int cpus[8], n = -1;
  err[0] = '\0';
  assert_int_equal(rigor_affinity_apply(a, cpus, 8, &n, err, sizeof err), RIGOR_ECONFIG);
  assert_non_null(strstr(err, message));
  json_decref(a);
}

static void test_refuses_what_does_not_exist(void **state) {
  (void)state;
  expect_error("{\"cpus\": [9999]}", "CPU 9999 does not exist on this machine");
  expect_error("{\"numa\": 99}", "NUMA node 99 does not exist on this machine");
  expect_error("{\"cpus\": [0, 0]}", "CPU 0 is listed twice");
  expect_error("{\"cpus\": []}", "non-empty list");
  expect_error("{\"cpus\": [-1]}", "non-negative");
  expect_error("{\"cpus\": [0], \"numa\": 0}", "exactly one of 'cpus' and 'numa'");
  expect_error("{\"cores\": [0]}", "unknown key 'cores'");
  /* A refused affinity leaves the binding alone. */
  cpu_set_t now;
  sched_getaffinity(0, sizeof now, &now);
  assert_true(CPU_EQUAL(&now, &original));
}

static void test_accepts_existing(void **state) {
  (void)state;
  char err[256];
  json_t *a = json_pack("{s:[i]}", "cpus", last_allowed_cpu());
  assert_int_equal(rigor_affinity_check(a, err, sizeof err), 0);
  json_decref(a);
  a = json_pack("{s:i}", "numa", 0);
  assert_int_equal(rigor_affinity_check(a, err, sizeof err), 0);
  json_decref(a);
  assert_int_equal(rigor_affinity_check(json_null(), err, sizeof err), 0);
  assert_int_equal(rigor_affinity_check(NULL, err, sizeof err), 0);
}

static void *thread_mask(void *arg) {
  sched_getaffinity(0, sizeof(cpu_set_t), arg);
  return NULL;
}

static void test_binds_process_and_later_threads(void **state) {
  (void)state;
  int cpu = last_allowed_cpu(), cpus[8] = {-1}, n = 0;
  char err[256] = "";
  json_t *a = json_pack("{s:[i]}", "cpus", cpu);
  assert_int_equal(rigor_affinity_apply(a, cpus, 8, &n, err, sizeof err), 0);
  json_decref(a);
  assert_int_equal(n, 1);
  assert_int_equal(cpus[0], cpu);

  cpu_set_t main_mask, thread_set;
  sched_getaffinity(0, sizeof main_mask, &main_mask);
  assert_int_equal(CPU_COUNT(&main_mask), 1);
  assert_true(CPU_ISSET(cpu, &main_mask));
  pthread_t th;
  assert_int_equal(pthread_create(&th, NULL, thread_mask, &thread_set), 0);
  pthread_join(th, NULL);
  assert_true(CPU_EQUAL(&thread_set, &main_mask));

  /* null reports the binding in force without changing it. */
  n = 0;
  assert_int_equal(rigor_affinity_apply(json_null(), cpus, 8, &n, err, sizeof err), 0);
  assert_int_equal(n, 1);
  assert_int_equal(cpus[0], cpu);
}

static void test_numa_node_binds_its_cpus(void **state) {
  (void)state;
  int cpus[CPU_SETSIZE], n = 0;
  char err[256] = "";
  json_t *a = json_pack("{s:i}", "numa", 0);
  assert_int_equal(rigor_affinity_apply(a, cpus, CPU_SETSIZE, &n, err, sizeof err), 0);
  json_decref(a);
  assert_true(n >= 1);
  cpu_set_t now;
  sched_getaffinity(0, sizeof now, &now);
  assert_int_equal(CPU_COUNT(&now), n);
  for (int i = 0; i < n; i++)
    assert_true(CPU_ISSET(cpus[i], &now));
}

static void test_reports_count_beyond_cap(void **state) {
  (void)state;
  int cpus[1] = {-1}, n = 0;
  char err[256];
  assert_int_equal(rigor_affinity_apply(NULL, cpus, 1, &n, err, sizeof err), 0);
  assert_int_equal(n, CPU_COUNT(&original));
  assert_true(cpus[0] >= 0);
}

static void test_omp_places(void **state) {
  (void)state;
  char buf[32];
  int cpus[] = {0, 2, 13};
  assert_int_equal(rigor_affinity_omp_places(cpus, 3, buf, sizeof buf), 0);
  assert_string_equal(buf, "{0},{2},{13}");
  assert_int_equal(rigor_affinity_omp_places(cpus, 3, buf, 8), RIGOR_ERANGE);
  assert_string_equal(buf, "");
  assert_int_equal(rigor_affinity_omp_places(cpus, 0, buf, sizeof buf), 0);
  assert_string_equal(buf, "");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_refuses_what_does_not_exist),
      cmocka_unit_test(test_accepts_existing),
      cmocka_unit_test_setup_teardown(test_binds_process_and_later_threads, save_mask,
                                      restore_mask),
      cmocka_unit_test_setup_teardown(test_numa_node_binds_its_cpus, save_mask, restore_mask),
      cmocka_unit_test(test_reports_count_beyond_cap),
      cmocka_unit_test(test_omp_places),
  };
  return cmocka_run_group_tests(tests, save_mask, restore_mask);
}

/* The fork-join pool: every active thread runs each call exactly once, inactive ones never, and
 * both the spinning and the blocking waits deliver. */
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "x280_pool.h"

#define THREADS 3

typedef struct counts {
  uint64_t per_thread[THREADS][8]; /* a line each */
} counts_t;

static void count_fn(unsigned thread, void *arg) {
  counts_t *c = arg;
  c->per_thread[thread][0]++;
}

/* Up to THREADS CPUs this process may use, repeating the first where there are fewer; returns
 * how many distinct ones there are. */
static unsigned usable_cpus(int *cpus) {
  cpu_set_t set;
  assert_int_equal(sched_getaffinity(0, sizeof set, &set), 0);
  unsigned n = 0;
  for (int cpu = 0; cpu < CPU_SETSIZE && n < THREADS; cpu++)
    if (CPU_ISSET(cpu, &set)) cpus[n++] = cpu;
  assert_true(n > 0);
  for (unsigned k = n; k < THREADS; k++)
    cpus[k] = cpus[0];
  return n;
}

static void run_calls(unsigned threads, uint64_t spin_ns, uint64_t calls) {
  int cpus[THREADS];
  usable_cpus(cpus);
  x280_pool_t *pool = NULL;
  assert_int_equal(x280_pool_create(&pool, cpus, threads, spin_ns), 0);
  counts_t counts;
  memset(&counts, 0, sizeof counts);
  for (uint64_t i = 0; i < calls; i++)
    x280_pool_run(pool, threads, count_fn, &counts);
  for (unsigned t = 0; t < threads; t++)
    assert_int_equal(counts.per_thread[t][0], calls);
  for (unsigned t = 1; t < threads; t++)
    assert_int_equal(x280_pool_served(pool, t), calls);
  x280_pool_destroy(pool);
}

/* Spinning pays only where every thread has a CPU of its own. */
static void test_spinning_calls(void **state) {
  (void)state;
  int cpus[THREADS];
  unsigned distinct = usable_cpus(cpus);
  if (distinct < 2) skip();
  run_calls(distinct, 1000000, 20000);
}

/* Three threads on however many CPUs there are: the futex waits carry every call. */
static void test_blocking_calls(void **state) {
  (void)state;
  run_calls(THREADS, 0, 2000);
}

static void test_inactive_threads_sit_out(void **state) {
  (void)state;
  int cpus[THREADS];
  usable_cpus(cpus);
  x280_pool_t *pool = NULL;
  assert_int_equal(x280_pool_create(&pool, cpus, THREADS, 0), 0);
  counts_t counts;
  memset(&counts, 0, sizeof counts);
  for (int i = 0; i < 1000; i++) {
    x280_pool_run(pool, 2, count_fn, &counts);
    x280_pool_run(pool, 1, count_fn, &counts);
  }
  assert_int_equal(counts.per_thread[0][0], 2000);
  assert_int_equal(counts.per_thread[1][0], 1000);
  assert_int_equal(counts.per_thread[2][0], 0);
  assert_int_equal(x280_pool_served(pool, 2), 0);
  x280_pool_destroy(pool);
}

static void test_refuses_bad_sizes(void **state) {
  (void)state;
  int cpus[1] = {0};
  x280_pool_t *pool = NULL;
  assert_int_equal(x280_pool_create(&pool, cpus, 0, 0), -22);
  assert_int_equal(x280_pool_create(&pool, cpus, X280_POOL_MAX_THREADS + 1, 0), -22);
  assert_null(pool);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_spinning_calls),
      cmocka_unit_test(test_blocking_calls),
      cmocka_unit_test(test_inactive_threads_sit_out),
      cmocka_unit_test(test_refuses_bad_sizes),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

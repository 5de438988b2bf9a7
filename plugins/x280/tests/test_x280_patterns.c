/* The real x280.so through the test host: every pattern exact at several sizes, core counts,
 * clusters and layouts; a planted error caught; deadlines, stops and refusals reported. */
#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "test_host.h"
#include "x280_params.h"

#define PLUGIN_SO  RIGOR_PLUGIN_DIR "/x280.so"
#define MAX_POINTS 512

typedef struct fixture {
  void *handle;
  const rigor_plugin_t *d;
  test_host_t th;
  unsigned cpus;
} fixture_t;

static int setup(void **state) {
  fixture_t *f = calloc(1, sizeof *f);
  f->d = test_plugin_open(PLUGIN_SO, "x280", &f->handle);
  cpu_set_t set;
  sched_getaffinity(0, sizeof set, &set);
  f->cpus = (unsigned)CPU_COUNT(&set);
  *state = f;
  return 0;
}

static int teardown(void **state) {
  fixture_t *f = *state;
  dlclose(f->handle);
  free(f);
  return 0;
}

/* The names of an enum param's choices, read from the plugin's own schema. */
static const char *choice(const rigor_plugin_t *d, const char *param, int32_t index) {
  for (uint32_t i = 0; i < d->n_params; i++)
    if (strcmp(d->params[i].name, param) == 0) return d->params[i].choices[index];
  return "?";
}

static x280_params_t point(x280_pattern_t pattern, uint64_t words, uint64_t cores) {
  return (x280_params_t){.pattern = pattern,
                         .layout = X280_CHUNKS,
                         .words = words,
                         .alias_stride = 128 * 1024,
                         .cores = cores,
                         .rounds = 16,
                         .seed = 7,
                         .spin_us = 100};
}

typedef struct session {
  void *state;
  rigor_work_t work;
} session_t;

static int open_session(fixture_t *f, session_t *ses, x280_params_t *pts, uint32_t n) {
  test_host_init(&f->th);
  const void *ptrs[MAX_POINTS];
  for (uint32_t i = 0; i < n; i++)
    ptrs[i] = &pts[i];
  rigor_points_t points = {.count = n, .points = ptrs};
  memset(ses, 0, sizeof *ses);
  return f->d->init((rigor_ctx_t *)&f->th, &f->th.host, &pts[0], &points, &ses->state, &ses->work);
}

/* prime, run `ops` operations, validate: the core's order for one sample. */
static int sample(fixture_t *f, session_t *ses, const x280_params_t *p, uint64_t ops,
                  rigor_check_t *check) {
  rigor_ctx_t *ctx = (rigor_ctx_t *)&f->th;
  memset(&ses->work, 0, sizeof ses->work);
  int rc = f->d->prime(ctx, ses->state, p);
  if (rc == 0) rc = f->d->run(ctx, ses->state, p, ops);
  if (rc != 0) return rc;
  memset(check, 0, sizeof *check);
  return f->d->validate(ctx, ses->state, p, check);
}

static uint64_t expected_checked(const x280_params_t *p) {
  switch (p->pattern) {
  case X280_REDUCTION:
    return 1;
  case X280_FALSE_SHARING_PACKED:
  case X280_FALSE_SHARING_PADDED:
  case X280_FORK_JOIN_POOL:
  case X280_FORK_JOIN_OMP:
    return p->cores;
  default:
    return p->words;
  }
}

static void test_every_pattern_exact(void **state) {
  fixture_t *f = *state;
  static x280_params_t pts[MAX_POINTS];
  const uint64_t sizes[] = {1, 1000, 4097, 65539};
  unsigned max_cores = f->cpus < 2 ? 1 : 2;
  uint32_t n = 0;
  for (int pattern = 0; pattern < X280_PATTERN_COUNT; pattern++)
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
      for (unsigned cores = 1; cores <= max_cores; cores++)
        for (int layout = X280_CHUNKS; layout <= X280_ALIASED; layout++)
          for (int prefetch = 0; prefetch <= 1; prefetch++) {
            pts[n] = point((x280_pattern_t)pattern, sizes[i], cores);
            pts[n].layout = layout;
            pts[n].prefetch = prefetch;
            n++;
          }
  session_t ses;
  assert_int_equal(open_session(f, &ses, pts, n), 0);
  for (uint32_t i = 0; i < n; i++) {
    /* As the core's warmup does: run without a prime first. */
    assert_int_equal(f->d->run((rigor_ctx_t *)&f->th, ses.state, &pts[i], 1), 0);
    rigor_check_t check;
    int rc = sample(f, &ses, &pts[i], 3, &check);
    if (rc != 0 || check.wrong != 0)
      fail_msg("%s words=%llu cores=%llu layout=%s prefetch=%d: rc %d, %llu wrong: %s",
               choice(f->d, "pattern", pts[i].pattern), (unsigned long long)pts[i].words,
               (unsigned long long)pts[i].cores, choice(f->d, "layout", pts[i].layout),
               pts[i].prefetch, rc, (unsigned long long)check.wrong, check.detail);
    assert_int_equal(check.checked, expected_checked(&pts[i]));
  }
  f->d->fini((rigor_ctx_t *)&f->th, ses.state);
}

static void test_clusters_exact(void **state) {
  fixture_t *f = *state;
  if (f->cpus < 2) skip();
  const x280_pattern_t patterns[] = {X280_MAP, X280_MAP_VECTOR, X280_MAP_HEAVY, X280_REDUCTION,
                                     X280_PREFIX_SUM};
  x280_params_t pts[2 * 5 * 2];
  uint32_t n = 0;
  for (size_t i = 0; i < 5; i++)
    for (uint64_t words = 4096; words <= 65539; words += 65539 - 4096)
      for (int layout = X280_CHUNKS; layout <= X280_QUARTERS; layout++) {
        pts[n] = point(patterns[i], words, 2);
        pts[n].cores_per_cluster = 1;
        pts[n].layout = layout;
        n++;
      }
  session_t ses;
  assert_int_equal(open_session(f, &ses, pts, n), 0);
  for (uint32_t i = 0; i < n; i++) {
    rigor_check_t check;
    int rc = sample(f, &ses, &pts[i], 2, &check);
    if (rc != 0 || check.wrong != 0)
      fail_msg("two clusters, %s words=%llu: rc %d, %llu wrong: %s",
               choice(f->d, "pattern", pts[i].pattern), (unsigned long long)pts[i].words, rc,
               (unsigned long long)check.wrong, check.detail);
  }
  f->d->fini((rigor_ctx_t *)&f->th, ses.state);
}

static void test_planted_error_caught(void **state) {
  fixture_t *f = *state;
  x280_params_t pts[X280_PATTERN_COUNT];
  for (int pattern = 0; pattern < X280_PATTERN_COUNT; pattern++) {
    pts[pattern] = point((x280_pattern_t)pattern, 5000, 1);
    pts[pattern].plant_error = true;
  }
  session_t ses;
  assert_int_equal(open_session(f, &ses, pts, X280_PATTERN_COUNT), 0);
  for (int i = 0; i < X280_PATTERN_COUNT; i++) {
    rigor_check_t check;
    assert_int_equal(sample(f, &ses, &pts[i], 2, &check), RIGOR_EVALIDATE);
    assert_int_equal(check.wrong, 1);
    assert_non_null(strstr(check.detail, "expected"));
    assert_true(check.max_abs_err >= 1);
  }
  /* The map's spoiled word is the middle one, and the detail names it. */
  rigor_check_t check;
  sample(f, &ses, &pts[X280_MAP], 1, &check);
  assert_non_null(strstr(check.detail, "word 2500: got"));
  f->d->fini((rigor_ctx_t *)&f->th, ses.state);
}

static void test_work_from_what_ran(void **state) {
  fixture_t *f = *state;
  x280_params_t pts[] = {point(X280_MAP, 10000, 1), point(X280_REDUCTION, 10000, 1),
                         point(X280_PREFIX_SUM, 10000, 1), point(X280_PREFIX_SUM_SERIAL, 10000, 1),
                         point(X280_FORK_JOIN_POOL, 10000, 1)};
  const uint64_t bytes[] = {80000, 40000, 120000, 80000, 0};
  session_t ses;
  assert_int_equal(open_session(f, &ses, pts, 5), 0);
  for (int i = 0; i < 5; i++) {
    rigor_check_t check;
    assert_int_equal(sample(f, &ses, &pts[i], 1, &check), 0);
    assert_int_equal(ses.work.bytes, bytes[i]);
  }
  f->d->fini((rigor_ctx_t *)&f->th, ses.state);
}

static void test_cold_prime_keeps_results_exact(void **state) {
  fixture_t *f = *state;
  x280_params_t pts[] = {point(X280_PREFIX_SUM, 262144, f->cpus < 2 ? 1 : 2)};
  pts[0].cold = true;
  session_t ses;
  assert_int_equal(open_session(f, &ses, pts, 1), 0);
  rigor_check_t check;
  assert_int_equal(sample(f, &ses, &pts[0], 1, &check), 0);
  assert_int_equal(check.wrong, 0);
  rigor_kv_t kv[16];
  int n = f->d->identity((rigor_ctx_t *)&f->th, ses.state, kv, 16);
  assert_true(n >= 5);
  assert_string_equal(kv[0].key, "x280.pool_cpus");
  f->d->fini((rigor_ctx_t *)&f->th, ses.state);
}

static const char *identity_get(const rigor_kv_t *kv, int n, const char *key) {
  for (int i = 0; i < n; i++)
    if (strcmp(kv[i].key, key) == 0) return kv[i].value;
  return NULL;
}

/* The pool's threads and OpenMP's team are pinned, thread k to the k-th CPU of the run's set
 * in its own order, as read back from each OpenMP thread's mask; fini gives the team the
 * caller's mask back. */
static void test_threads_pinned_to_the_runs_cpus(void **state) {
  fixture_t *f = *state;
  cpu_set_t set, after;
  sched_getaffinity(0, sizeof set, &set);
  int cpus[2], n = 0;
  for (int c = CPU_SETSIZE - 1; c >= 0 && n < 2; c--)
    if (CPU_ISSET(c, &set)) cpus[n++] = c; /* highest first: not the default order */
  x280_params_t pts[] = {point(X280_FORK_JOIN_OMP, 1, (uint64_t)n),
                         point(X280_MAP, 4097, (uint64_t)n)};
  const char *binds[] = {"spread", "close"};
  for (int b = 0; b < 2; b++) {
    pts[0].proc_bind = pts[1].proc_bind = b;
    test_host_init(&f->th);
    f->th.n_cpus = n;
    memcpy(f->th.cpus, cpus, sizeof cpus);
    const void *ptrs[] = {&pts[0], &pts[1]};
    rigor_points_t points = {.count = 2, .points = ptrs};
    session_t ses = {0};
    assert_int_equal(
        f->d->init((rigor_ctx_t *)&f->th, &f->th.host, &pts[0], &points, &ses.state, &ses.work), 0);
    rigor_check_t check;
    for (int p = 0; p < 2; p++) {
      assert_int_equal(sample(f, &ses, &pts[p], 3, &check), 0);
      assert_int_equal(check.wrong, 0);
    }
    rigor_kv_t kv[16];
    int k = f->d->identity((rigor_ctx_t *)&f->th, ses.state, kv, 16);
    char want[32];
    if (n == 2)
      snprintf(want, sizeof want, "%d,%d", cpus[0], cpus[1]);
    else
      snprintf(want, sizeof want, "%d", cpus[0]);
    assert_string_equal(identity_get(kv, k, "x280.proc_bind"), binds[b]);
    assert_string_equal(identity_get(kv, k, "x280.pool_cpus"), want);
    assert_string_equal(identity_get(kv, k, "x280.omp_cpus"), want);
    f->d->fini((rigor_ctx_t *)&f->th, ses.state);
    sched_getaffinity(0, sizeof after, &after);
    assert_true(CPU_EQUAL(&set, &after));
  }
}

static void test_deadline_makes_run_late(void **state) {
  fixture_t *f = *state;
  x280_params_t pts[] = {point(X280_MAP_HEAVY, 262144, 1)};
  pts[0].rounds = 100000;
  pts[0].deadline = 0.05;
  session_t ses;
  assert_int_equal(open_session(f, &ses, pts, 1), 0);
  rigor_check_t check;
  assert_int_equal(sample(f, &ses, &pts[0], 1, &check), RIGOR_ETIMEDOUT);
  assert_int_equal(f->th.first_error_code, RIGOR_ETIMEDOUT);
  assert_non_null(strstr(f->th.first_error, "map_heavy is late"));
  assert_non_null(strstr(f->th.first_error, "deadline 0.05 s"));
  f->d->fini((rigor_ctx_t *)&f->th, ses.state);
}

static void *raise_stop(void *arg) {
  test_host_t *th = arg;
  struct timespec pause = {.tv_nsec = 20 * 1000 * 1000};
  nanosleep(&pause, NULL);
  __atomic_store_n(&th->stop, 1, __ATOMIC_RELAXED);
  return NULL;
}

static void test_host_stop_cancels_a_long_loop(void **state) {
  fixture_t *f = *state;
  x280_params_t pts[] = {point(X280_FALSE_SHARING_PADDED, 1ull << 40, 1)};
  session_t ses;
  assert_int_equal(open_session(f, &ses, pts, 1), 0);
  rigor_ctx_t *ctx = (rigor_ctx_t *)&f->th;
  assert_int_equal(f->d->prime(ctx, ses.state, &pts[0]), 0);
  pthread_t raiser;
  assert_int_equal(pthread_create(&raiser, NULL, raise_stop, &f->th), 0);
  assert_int_equal(f->d->run(ctx, ses.state, &pts[0], 1), RIGOR_ECANCELED);
  pthread_join(raiser, NULL);
  assert_string_equal(f->th.first_error,
                      "x280: false_sharing_padded stopped at the host's request");
  f->d->fini(ctx, ses.state);
}

static void test_refusals(void **state) {
  fixture_t *f = *state;
  session_t ses;
  x280_params_t too_many[] = {point(X280_MAP, 1024, f->cpus + 1)};
  assert_int_equal(open_session(f, &ses, too_many, 1), RIGOR_EUNAVAILABLE);
  char expected[160];
  snprintf(expected, sizeof expected, "x280: point 0 (map) asks for %u cores; this run has %u CPUs",
           f->cpus + 1, f->cpus);
  assert_string_equal(f->th.first_error, expected);

  x280_params_t bad_stride[] = {point(X280_MAP, 1024, 1)};
  bad_stride[0].alias_stride = 1000;
  assert_int_equal(open_session(f, &ses, bad_stride, 1), RIGOR_EINVAL);
  assert_string_equal(f->th.first_error,
                      "x280: point 0 (map): alias_stride must be a positive multiple of 128 bytes");

  x280_params_t spins[] = {point(X280_MAP, 1024, 1), point(X280_MAP, 1024, 1)};
  spins[1].spin_us = 5;
  assert_int_equal(open_session(f, &ses, spins, 2), RIGOR_EINVAL);
  assert_non_null(strstr(f->th.first_error, "spin_us differs between points"));
}

static void test_validate_needs_the_point_that_ran(void **state) {
  fixture_t *f = *state;
  x280_params_t pts[] = {point(X280_MAP, 1024, 1), point(X280_REDUCTION, 1024, 1)};
  session_t ses;
  assert_int_equal(open_session(f, &ses, pts, 2), 0);
  rigor_ctx_t *ctx = (rigor_ctx_t *)&f->th;
  rigor_check_t check;
  assert_int_equal(sample(f, &ses, &pts[0], 1, &check), 0);
  assert_int_equal(f->d->validate(ctx, ses.state, &pts[1], &check), RIGOR_EINVAL);
  assert_string_equal(f->th.first_error, "x280: validate of a point that did not run last");
  f->d->fini(ctx, ses.state);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_pattern_exact),
      cmocka_unit_test(test_clusters_exact),
      cmocka_unit_test(test_planted_error_caught),
      cmocka_unit_test(test_work_from_what_ran),
      cmocka_unit_test(test_cold_prime_keeps_results_exact),
      cmocka_unit_test(test_threads_pinned_to_the_runs_cpus),
      cmocka_unit_test(test_deadline_makes_run_late),
      cmocka_unit_test(test_host_stop_cancels_a_long_loop),
      cmocka_unit_test(test_refusals),
      cmocka_unit_test(test_validate_needs_the_point_that_ran),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}

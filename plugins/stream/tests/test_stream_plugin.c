/* The real stream plugin, driven through the test host: honest runs validate, work comes from
 * the executed loop bounds, and bad settings are refused with a clear message. */
#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "stream_driver.h"
#include "../stream_kernels.h"

#define STREAM_SO RIGOR_PLUGIN_DIR "/stream.so"
#define N         "elements=100003"

static const stream_timing_t quick = {.warmup = 1, .cycles = 3, .iters = 2, .agg = 2};

static void assert_valid_after(const stream_outcome_t *o, stream_timing_t t) {
  if (o->init_rc != 0) fail_msg("init failed (%d): %s", o->init_rc, o->error);
  if (o->validate_rc != 0)
    fail_msg("point %d failed validation: %s", o->failed_point, o->failure.detail);
  assert_int_equal(o->validations, t.cycles * o->n_points);
}

static void assert_valid(const stream_outcome_t *o) {
  assert_valid_after(o, quick);
}

static void test_descriptor_declares_the_schema(void **state) {
  (void)state;
  void *handle;
  const rigor_plugin_t *d = test_plugin_open(STREAM_SO, "stream", &handle);
  assert_int_equal(d->abi_major, RIGOR_ABI_MAJOR);
  assert_int_equal(d->size, sizeof(rigor_plugin_t));
  const char *names[] = {"kernels", "elements",    "dtype",     "threads",   "nt_stores",
                         "offset",  "copy_stores", "proc_bind", "huge_pages"};
  assert_int_equal(d->n_params, 9);
  for (int i = 0; i < 9; i++)
    assert_string_equal(d->params[i].name, names[i]);
  assert_string_equal(d->params[6].def, "auto");
  assert_string_equal(d->params[7].def, "spread");
  assert_string_equal(d->params[8].def, "true");
  assert_int_equal(d->n_metrics, 2);
  assert_string_equal(d->metrics[0].name, "nt_stores");
  assert_string_equal(d->metrics[1].name, "threads");
  assert_non_null(d->metrics_read);
  const rigor_param_t *k = &d->params[0];
  assert_int_equal(k->type, RIGOR_PARAM_ENUM);
  const char *choices[] = {"copy", "scale", "add", "triad", "dot", "nstream"};
  for (int i = 0; i < 6; i++)
    assert_string_equal(k->choices[i], choices[i]);
  assert_null(k->choices[6]);
  assert_string_equal(k->aliases[0], "classic");
  assert_string_equal(k->aliases[1], "copy,scale,add,triad");
  assert_string_equal(k->aliases[2], "all");
  assert_string_equal(k->aliases[3], "copy,scale,add,triad,dot,nstream");
  assert_null(k->aliases[4]);
  assert_non_null(d->validate);
  dlclose(handle);
}

static void test_classic_validates_and_counts_stream_bytes(void **state) {
  (void)state;
  stream_outcome_t o;
  stream_drive(STREAM_SO, "stream", "copy,scale,add,triad", (const char *[]){N, NULL}, quick, &o);
  assert_valid(&o);
  const uint64_t n = 100003, e = sizeof(double);
  assert_int_equal(o.bytes[0], 2 * e * n);
  assert_int_equal(o.bytes[1], 2 * e * n);
  assert_int_equal(o.bytes[2], 3 * e * n);
  assert_int_equal(o.bytes[3], 3 * e * n);
  assert_true(o.flops[0] == 0.0);
  assert_true(o.flops[3] == 2.0 * (double)n);
  assert_string_equal(stream_identity_get(&o, "stream.variant"), "standard");
  assert_string_equal(stream_identity_get(&o, "stream.elements"), "100003");
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
  /* The loops were built for AVX2 too, and that build runs where the CPU has it. */
  assert_string_equal(stream_identity_get(&o, "stream.loop_isa"),
                      __builtin_cpu_supports("avx2") ? "avx2" : "sse2");
#endif
}

static void test_all_kernels_in_float_stay_bounded_for_many_cycles(void **state) {
  (void)state;
  stream_outcome_t o;
  const stream_timing_t many = {.warmup = 2, .cycles = 200, .iters = 1, .agg = 1};
  stream_drive(STREAM_SO, "stream", "copy,scale,add,triad,dot,nstream",
               (const char *[]){"elements=4099", "dtype=float", NULL}, many, &o);
  assert_int_equal(o.init_rc, 0);
  if (o.validate_rc != 0) fail_msg("%s", o.failure.detail);
  assert_int_equal(o.validations, 200 * 6);
  const uint64_t e = sizeof(float);
  const uint64_t expected[] = {2 * e * 4099, 2 * e * 4099, 3 * e * 4099,
                               3 * e * 4099, 2 * e * 4099, 4 * e * 4099};
  for (int p = 0; p < 6; p++)
    assert_int_equal(o.bytes[p], expected[p]);
  /* The sweep doubles its values every cycle: float would overflow after about 130 cycles. */
  assert_true(strtoull(stream_identity_get(&o, "stream.rescales"), NULL, 10) >= 5);
}

static void test_classic_float_does_not_decay_to_subnormals(void **state) {
  (void)state;
  stream_outcome_t o;
  const stream_timing_t many = {.warmup = 0, .cycles = 2500, .iters = 1, .agg = 1};
  stream_drive(STREAM_SO, "stream", "copy,scale,add,triad",
               (const char *[]){"elements=1031", "dtype=float", NULL}, many, &o);
  assert_valid_after(&o, many);
  /* Each cycle multiplies by 0.96: 0.96^2500 is below the smallest normal float. */
  assert_true(strtoull(stream_identity_get(&o, "stream.rescales"), NULL, 10) >= 2);
}

static void test_single_kernel_contracts_validate(void **state) {
  (void)state;
  const char *singles[] = {"copy", "scale", "add", "triad", "dot", "nstream"};
  for (int i = 0; i < 6; i++) {
    stream_outcome_t o;
    stream_drive(STREAM_SO, "stream", singles[i], (const char *[]){N, NULL}, quick, &o);
    assert_valid(&o);
    assert_int_equal(o.n_points, 1);
  }
}

static void test_threads_and_offset_validate(void **state) {
  (void)state;
  stream_outcome_t o;
  stream_drive(STREAM_SO, "stream", "copy,scale,add,triad",
               (const char *[]){N, "threads=1", "offset=3", NULL}, quick, &o);
  assert_valid(&o);
  assert_string_equal(stream_identity_get(&o, "stream.threads"), "1");
  stream_drive(STREAM_SO, "stream", "triad,nstream,dot",
               (const char *[]){N, "threads=2", "dtype=float", NULL}, quick, &o);
  assert_valid(&o);
  assert_string_equal(stream_identity_get(&o, "stream.threads"), "2");
}

static void test_nt_stores_validate_or_are_refused(void **state) {
  (void)state;
  const char *offsets[] = {"offset=0", "offset=5"};
  const char *dtypes[] = {"dtype=double", "dtype=float"};
  for (int i = 0; i < 2; i++)
    for (int t = 0; t < 2; t++) {
      stream_outcome_t o;
      stream_drive(STREAM_SO, "stream", "copy,scale,add,triad,dot,nstream",
                   (const char *[]){N, "nt_stores=true", offsets[i], dtypes[t], NULL}, quick, &o);
#if defined(__x86_64__)
      assert_valid(&o);
      assert_string_equal(stream_identity_get(&o, "stream.variant"), "tuned");
      assert_int_equal(o.bytes[0], 2 * (t ? 4 : 8) * 100003);
#else
      assert_int_equal(o.init_rc, RIGOR_ENOTSUP);
      assert_non_null(strstr(o.error, "nt_stores"));
#endif
    }
}

/* The non-temporal copy: head to the first aligned element, pairs of 4 KiB spans in parallel, a
 * plain tail. Lengths below, at and above two spans, shifted arrays, both types, 1 and 2 threads;
 * every element is checked after every pass. */
static void test_nt_copy_validates_at_every_alignment(void **state) {
  (void)state;
  const char *lengths[] = {"elements=7", "elements=1023", "elements=1024", "elements=100003"};
  const char *offsets[] = {"offset=0", "offset=5"};
  const char *dtypes[] = {"dtype=double", "dtype=float"};
  const char *threads[] = {"threads=1", "threads=2"};
  for (int l = 0; l < 4; l++)
    for (int i = 0; i < 2; i++)
      for (int t = 0; t < 2; t++)
        for (int h = 0; h < 2; h++) {
          stream_outcome_t o;
          stream_drive(STREAM_SO, "stream", "copy,scale,copy",
                       (const char *[]){lengths[l], "copy_stores=nt", offsets[i], dtypes[t],
                                        threads[h], NULL},
                       quick, &o);
#if defined(__x86_64__)
          assert_valid(&o);
          assert_string_equal(stream_identity_get(&o, "stream.copy_path"), "nt");
          assert_true(o.metrics[0] == 1.0 && o.metrics[2] == 1.0);
          assert_true(o.metrics[1] == 0.0);
          const uint64_t n = strtoull(lengths[l] + 9, NULL, 10);
          assert_int_equal(o.bytes[0], 2 * (t ? 4 : 8) * n);
#else
          assert_int_equal(o.init_rc, RIGOR_ENOTSUP);
          assert_non_null(strstr(o.error, "copy_stores"));
#endif
        }
}

/* `auto` copies with the C library's memcpy on each thread's share, as stream.c's copy compiles,
 * at every length, alignment, type and team size; `plain` and `nt` force the plugin's loop; the
 * sample's metric says which path ran (0 plain, 1 non-temporal, 2 memcpy). */
static void test_copy_stores_choose_the_path(void **state) {
  (void)state;
  const char *lengths[] = {"elements=1", "elements=7", "elements=100003"};
  const char *offsets[] = {"offset=0", "offset=3"};
  const char *dtypes[] = {"dtype=double", "dtype=float"};
  const char *threads[] = {"threads=1", "threads=2", "threads=3"};
  for (int l = 0; l < 3; l++)
    for (int i = 0; i < 2; i++)
      for (int t = 0; t < 2; t++)
        for (int h = 0; h < 3; h++) {
          stream_outcome_t o;
          stream_drive(STREAM_SO, "stream", "copy,scale,copy",
                       (const char *[]){lengths[l], offsets[i], dtypes[t], threads[h], NULL}, quick,
                       &o);
          assert_valid(&o);
          assert_string_equal(stream_identity_get(&o, "stream.copy_path"), "memcpy");
          assert_true(o.metrics[0] == 2.0 && o.metrics[2] == 2.0);
          assert_true(o.metrics[1] == 0.0); /* scale keeps its plain stores */
          const uint64_t n = strtoull(lengths[l] + 9, NULL, 10);
          assert_int_equal(o.bytes[0], 2 * (t ? 4 : 8) * n);
        }
  const stream_timing_t once = {.warmup = 0, .cycles = 2, .iters = 1, .agg = 1};
  stream_outcome_t o;
  stream_drive(STREAM_SO, "stream", "copy", (const char *[]){N, "copy_stores=plain", NULL}, once,
               &o);
  assert_valid_after(&o, once);
  assert_string_equal(stream_identity_get(&o, "stream.copy_path"), "plain");
  assert_true(o.metrics[0] == 0.0);
#if defined(__x86_64__)
  stream_drive(STREAM_SO, "stream", "copy", (const char *[]){N, "nt_stores=true", NULL}, once, &o);
  assert_valid_after(&o, once);
  assert_string_equal(stream_identity_get(&o, "stream.copy_path"), "nt");
  assert_true(o.metrics[0] == 1.0);
#endif
}

/* The static split the memcpy copy uses covers [0, n) once, in order, as libgomp's
 * schedule(static) does: shares differ by at most one element, the larger ones first. */
static void test_static_chunks_tile_the_array(void **state) {
  (void)state;
  const size_t lengths[] = {0, 1, 7, 8, 100003};
  for (int l = 0; l < 5; l++)
    for (size_t threads = 1; threads <= 5; threads++) {
      size_t next = 0;
      for (size_t t = 0; t < threads; t++) {
        size_t first, count;
        stream_static_chunk(lengths[l], t, threads, &first, &count);
        assert_int_equal(first, next);
        assert_true(count == lengths[l] / threads || count == lengths[l] / threads + 1);
        next = first + count;
      }
      assert_int_equal(next, lengths[l]);
    }
}

/* Two instances in one process, as interleaved arms run them: threads 1 and 2, windows in ABBA
 * order. Each window's team, read inside the kernel's parallel region, is its own arm's. */
static void test_arms_keep_their_own_thread_counts(void **state) {
  (void)state;
  void *handle;
  const rigor_plugin_t *d = test_plugin_open(STREAM_SO, "stream", &handle);
  test_host_t th;
  test_host_init(&th);
  rigor_ctx_t *ctx = (rigor_ctx_t *)&th;
  const char *counts[2] = {"threads=1", "threads=2"};
  const char *kernels[] = {"copy", "scale", "add", "triad", "dot", "nstream"};
  void *params[2][6];
  void *arm[2] = {NULL, NULL};
  rigor_work_t work[2] = {{0}, {0}};
  cpu_set_t before;
  assert_int_equal(pthread_getaffinity_np(pthread_self(), sizeof before, &before), 0);
  for (int a = 0; a < 2; a++) {
    for (int k = 0; k < 6; k++) {
      params[a][k] = stream_params_new(d, (const char *[]){N, counts[a], NULL});
      stream_param_set(d, params[a][k], "kernels", kernels[k]);
    }
    const rigor_points_t sweep = {.count = 6, .points = (const void *const *)params[a]};
    const int rc = d->init(ctx, &th.host, params[a][0], &sweep, &arm[a], &work[a]);
    if (rc) fail_msg("arm %d: init failed (%d): %s", a, rc, th.first_error);
  }
  static const int abba[] = {0, 1, 1, 0, 1, 0, 0, 1};
  for (int k = 0; k < 6; k++)
    for (int w = 0; w < 8; w++) {
      const int a = abba[w];
      d->prime(ctx, arm[a], params[a][k]);
      assert_int_equal(d->run(ctx, arm[a], params[a][k], 2), 0);
      double values[8] = {NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN};
      assert_int_equal(d->metrics_read(ctx, arm[a], params[a][k], values), 0);
      if (values[1] != (double)(a + 1))
        fail_msg("%s, window %d: arm %d ran with %g threads, asked for %d", kernels[k], w, a,
                 values[1], a + 1);
      rigor_check_t check;
      if (d->validate(ctx, arm[a], params[a][k], &check) != 0)
        fail_msg("%s, arm %d: %s", kernels[k], a, check.detail);
    }
  for (int a = 0; a < 2; a++) {
    d->fini(ctx, arm[a]);
    for (int k = 0; k < 6; k++)
      free(params[a][k]);
  }
  /* The caller's mask comes back once both arms are gone, whichever was pinned first. */
  cpu_set_t after;
  assert_int_equal(pthread_getaffinity_np(pthread_self(), sizeof after, &after), 0);
  assert_true(CPU_EQUAL(&after, &before));
  dlclose(handle);
}

/* nt_stores switches every storing kernel; dot stores nothing and reports no value. */
static void test_nt_stores_are_recorded_per_kernel(void **state) {
  (void)state;
  stream_outcome_t o;
  stream_drive(STREAM_SO, "stream", "copy,scale,add,triad,dot,nstream",
               (const char *[]){N, "nt_stores=true", NULL}, quick, &o);
#if defined(__x86_64__)
  assert_valid(&o);
  for (int p = 0; p < 6; p++)
    if (p == 4)
      assert_true(isnan(o.metrics[p]));
    else
      assert_true(o.metrics[p] == 1.0);
#else
  assert_int_equal(o.init_rc, RIGOR_ENOTSUP);
#endif
  stream_drive(STREAM_SO, "stream", "copy,scale,add,triad,dot,nstream",
               (const char *[]){N, "nt_stores=true", "copy_stores=plain", NULL}, quick, &o);
#if defined(__x86_64__)
  assert_valid(&o);
  assert_true(o.metrics[0] == 0.0 && o.metrics[1] == 1.0);
#endif
}

/* The CPUs this process may use, at most `cap`. */
static int usable_cpus(int *cpus, int cap) {
  cpu_set_t set;
  int n = 0;
  if (sched_getaffinity(0, sizeof set, &set) != 0) return 0;
  for (int c = 0; c < CPU_SETSIZE && n < cap; c++)
    if (CPU_ISSET(c, &set)) cpus[n++] = c;
  return n;
}

static void assert_thread_cpus(const stream_outcome_t *o, const char *expected) {
  if (o->init_rc != 0) fail_msg("init failed (%d): %s", o->init_rc, o->error);
  assert_valid(o);
  const char *got = stream_identity_get(o, "stream.thread_cpus");
  assert_non_null(got);
  if (strcmp(got, expected) != 0) fail_msg("thread_cpus \"%s\", expected \"%s\"", got, expected);
}

/* Each OpenMP thread is pinned to one CPU of the run's set, read back from the thread's own
 * affinity mask; the run's order of CPUs is the order of places. */
static void test_threads_are_pinned_to_the_runs_cpus(void **state) {
  (void)state;
  int cpus[8];
  const int n = usable_cpus(cpus, 8);
  assert_true(n >= 1);
  const int last = cpus[n - 1], first = cpus[0];
  char want[64];
  stream_outcome_t o;
  const int one[] = {last};
  stream_drive_on(STREAM_SO, "stream", "copy,triad", (const char *[]){N, NULL}, quick, one, 1, &o);
  snprintf(want, sizeof want, "%d", last);
  assert_thread_cpus(&o, want); /* threads: 0 is one thread per CPU of the run */
  assert_string_equal(stream_identity_get(&o, "stream.proc_bind"), "spread");
  stream_drive_on(STREAM_SO, "stream", "copy,triad", (const char *[]){N, "threads=2", NULL}, quick,
                  one, 1, &o);
  snprintf(want, sizeof want, "%d,%d", last, last);
  assert_thread_cpus(&o, want);
  if (n < 2) return;
  const int reversed[] = {last, first};
  const char *binds[] = {"proc_bind=spread", "proc_bind=close"};
  for (int b = 0; b < 2; b++) {
    stream_drive_on(STREAM_SO, "stream", "copy,scale,add,triad,dot,nstream",
                    (const char *[]){N, binds[b], NULL}, quick, reversed, 2, &o);
    snprintf(want, sizeof want, "%d,%d", last, first);
    assert_thread_cpus(&o, want);
    assert_string_equal(stream_identity_get(&o, "stream.threads"), "2");
  }
}

/* proc_bind: none leaves the team as the OpenMP runtime placed it: here unpinned. */
static void test_proc_bind_none_leaves_threads_unpinned(void **state) {
  (void)state;
  int cpus[8];
  if (usable_cpus(cpus, 8) < 2 || getenv("OMP_PROC_BIND")) skip();
  stream_outcome_t o;
  stream_drive_on(STREAM_SO, "stream", "copy", (const char *[]){N, "proc_bind=none", NULL}, quick,
                  cpus, 2, &o);
  assert_thread_cpus(&o, "*,*");
}

/* The caller is pinned as thread 0 while the plugin runs and gets its mask back at fini. */
static void test_callers_affinity_comes_back_at_fini(void **state) {
  (void)state;
  cpu_set_t before, after;
  assert_int_equal(sched_getaffinity(0, sizeof before, &before), 0);
  int cpus[8];
  const int n = usable_cpus(cpus, 8);
  stream_outcome_t o;
  stream_drive_on(STREAM_SO, "stream", "copy", (const char *[]){N, NULL}, quick, cpus + n - 1, 1,
                  &o);
  assert_valid(&o);
  assert_int_equal(sched_getaffinity(0, sizeof after, &after), 0);
  assert_true(CPU_EQUAL(&before, &after));
}

/* The arrays ask for transparent huge pages unless told not to, and the identity says what the
 * kernel granted: nothing with huge_pages=false (even under THP mode `always`), and some of the
 * arrays' 24 MiB where the kernel grants huge pages on advice. */
static void test_huge_pages_are_asked_for_and_read_back(void **state) {
  (void)state;
  const char *settings[][3] = {{"elements=1048576", "huge_pages=false", NULL},
                               {"elements=1048576", NULL, NULL}};
  for (int i = 0; i < 2; i++) {
    stream_outcome_t o;
    stream_drive(STREAM_SO, "stream", "copy,scale,add,triad", settings[i], quick, &o);
    assert_valid(&o);
    const char *asked = stream_identity_get(&o, "stream.huge_pages");
    const char *mode = stream_identity_get(&o, "stream.thp");
    const char *granted = stream_identity_get(&o, "stream.huge_page_bytes");
    assert_non_null(asked);
    assert_non_null(mode);
    assert_non_null(granted);
    const long long bytes = strtoll(granted, NULL, 10);
    assert_in_range(bytes, 0, 3 * (8 << 20));
    if (i == 0) {
      assert_string_equal(asked, "false");
      assert_int_equal(bytes, 0);
    } else {
      assert_string_equal(asked, "true");
      if (strcmp(mode, "always") == 0 || strcmp(mode, "madvise") == 0)
        assert_true(bytes >= 2 << 20);
      else
        assert_int_equal(bytes, 0);
    }
  }
}

static void test_default_length_follows_streams_rule(void **state) {
  (void)state;
  /* STREAM's rule asks for 4x the last-level cache per array (3.6 GiB in all on a 300 MiB L3),
   * more address space than memcheck can map; .ci/run says when it runs this under memcheck. */
  if (getenv("RIGOR_UNDER_MEMCHECK")) skip();
  stream_outcome_t o;
  const stream_timing_t once = {.warmup = 0, .cycles = 1, .iters = 1, .agg = 1};
  stream_drive(STREAM_SO, "stream", "copy", NULL, once, &o);
  assert_valid_after(&o, once);
  const uint64_t elements = strtoull(stream_identity_get(&o, "stream.elements"), NULL, 10);
  const uint64_t llc = strtoull(stream_identity_get(&o, "stream.llc_bytes"), NULL, 10);
  if (llc > 0)
    assert_true(elements * sizeof(double) >= 4 * llc);
  else
    assert_int_equal(elements, 10000000);
  assert_int_equal(o.bytes[0], 2 * sizeof(double) * elements);
}

static void test_array_shaping_params_cannot_vary_in_the_sweep(void **state) {
  (void)state;
  void *handle;
  const rigor_plugin_t *d = test_plugin_open(STREAM_SO, "stream", &handle);
  void *a = stream_params_new(d, (const char *[]){N, NULL});
  void *b = stream_params_new(d, (const char *[]){"elements=5000", "kernels=add", NULL});
  const void *points[] = {a, b};
  const rigor_points_t sweep = {.count = 2, .points = points};
  test_host_t th;
  test_host_init(&th);
  rigor_work_t work;
  void *st = NULL;
  assert_int_equal(d->init((rigor_ctx_t *)&th, &th.host, a, &sweep, &st, &work), RIGOR_EINVAL);
  assert_null(st);
  assert_non_null(strstr(th.first_error, "param 'elements' varies within the sweep"));
  free(b);
  /* The pages are the arrays' too. */
  b = stream_params_new(d, (const char *[]){N, "huge_pages=false", "kernels=add", NULL});
  points[1] = b;
  test_host_init(&th);
  assert_int_equal(d->init((rigor_ctx_t *)&th, &th.host, a, &sweep, &st, &work), RIGOR_EINVAL);
  assert_null(st);
  assert_non_null(strstr(th.first_error, "param 'huge_pages' varies within the sweep"));
  free(a);
  free(b);
  dlclose(handle);
}

static void test_impossible_allocation_is_refused(void **state) {
  (void)state;
  stream_outcome_t o;
  stream_drive(STREAM_SO, "stream", "copy", (const char *[]){"elements=1099511627776", NULL}, quick,
               &o);
  assert_int_equal(o.init_rc, RIGOR_ENOMEM);
  assert_non_null(strstr(o.error, "cannot allocate array a[]"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_descriptor_declares_the_schema),
      cmocka_unit_test(test_classic_validates_and_counts_stream_bytes),
      cmocka_unit_test(test_all_kernels_in_float_stay_bounded_for_many_cycles),
      cmocka_unit_test(test_classic_float_does_not_decay_to_subnormals),
      cmocka_unit_test(test_single_kernel_contracts_validate),
      cmocka_unit_test(test_threads_and_offset_validate),
      cmocka_unit_test(test_nt_stores_validate_or_are_refused),
      cmocka_unit_test(test_nt_copy_validates_at_every_alignment),
      cmocka_unit_test(test_copy_stores_choose_the_path),
      cmocka_unit_test(test_static_chunks_tile_the_array),
      cmocka_unit_test(test_arms_keep_their_own_thread_counts),
      cmocka_unit_test(test_nt_stores_are_recorded_per_kernel),
      cmocka_unit_test(test_threads_are_pinned_to_the_runs_cpus),
      cmocka_unit_test(test_proc_bind_none_leaves_threads_unpinned),
      cmocka_unit_test(test_callers_affinity_comes_back_at_fini),
      cmocka_unit_test(test_huge_pages_are_asked_for_and_read_back),
      cmocka_unit_test(test_default_length_follows_streams_rule),
      cmocka_unit_test(test_array_shaping_params_cannot_vary_in_the_sweep),
      cmocka_unit_test(test_impossible_allocation_is_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

/* The timing state machine's call sequence, per blocking mode, against a recording plugin. */
#include <setjmp.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "measure.h"

typedef struct recorder {
  char log[16384];
  size_t len;
  rigor_work_t *work;
  int fail_validate_point;
  uint64_t ops;
} recorder_t;

static recorder_t rec;

static void note(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  rec.len += (size_t)vsnprintf(rec.log + rec.len, sizeof rec.log - rec.len, fmt, ap);
  va_end(ap);
}

typedef struct point {
  int id;
} point_t;

static int r_init(rigor_ctx_t *ctx, const rigor_host_t *host, const void *params,
                  const rigor_points_t *points, void **state, rigor_work_t *work) {
  (void)ctx, (void)host, (void)params, (void)points;
  rec.work = work;
  *state = &rec;
  return 0;
}

static int r_prime(rigor_ctx_t *ctx, void *state, const void *point) {
  (void)ctx, (void)state;
  note("P%d ", ((const point_t *)point)->id);
  rec.work->bytes = 100u * (uint64_t)(((const point_t *)point)->id + 1);
  return 0;
}

static int r_run(rigor_ctx_t *ctx, void *state, const void *point, uint64_t n) {
  (void)ctx, (void)state;
  note("R%d/%llu ", ((const point_t *)point)->id, (unsigned long long)n);
  rec.ops += n;
  return 0;
}

static int r_complete(rigor_ctx_t *ctx, void *state, const void *point) {
  (void)ctx, (void)state, (void)point;
  note("C ");
  return 0;
}

static int r_validate(rigor_ctx_t *ctx, void *state, const void *point, rigor_check_t *check) {
  (void)ctx, (void)state;
  int id = ((const point_t *)point)->id;
  note("V%d ", id);
  check->checked = 10;
  if (id == rec.fail_validate_point) {
    check->wrong = 2;
    snprintf(check->detail, sizeof check->detail, "planted");
    return RIGOR_EVALIDATE;
  }
  return 0;
}

static void r_fini(rigor_ctx_t *ctx, void *state) {
  (void)ctx, (void)state;
}

static rigor_plugin_t plugin = {
    .abi_major = RIGOR_ABI_MAJOR,
    .size = sizeof(rigor_plugin_t),
    .name = "recorder",
    .init = r_init,
    .prime = r_prime,
    .run = r_run,
    .complete = r_complete,
    .validate = r_validate,
    .fini = r_fini,
};

static int barriers;
static int count_barrier(rigor_comm_t *c) {
  (void)c;
  barriers++;
  note("B ");
  return 0;
}

static int no_allreduce(rigor_comm_t *c, void *b, size_t n, rigor_host_dtype_t t, rigor_redop_t o) {
  (void)c, (void)b, (void)n, (void)t, (void)o;
  return 0;
}

static int no_broadcast(rigor_comm_t *c, void *b, size_t n, int root) {
  (void)c, (void)b, (void)n, (void)root;
  return 0;
}

static json_t *samples;
static void collect(void *arg, rigor_sample_record_t *s) {
  (void)arg;
  json_array_append_new(samples, rigor_record_sample(s));
}

/* A warm schedule of three points, 10..12, whatever the sweep: what a plugin names for
 * timing.warmup_sizes, owned by the plugin. */
static point_t warm_named[] = {{10}, {11}, {12}};
static const void *const warm_named_ptrs[] = {&warm_named[0], &warm_named[1], &warm_named[2]};
static rigor_warmup_sizes_t warm_asked;
static uint32_t warm_seen_points;

static int r_warm_points(rigor_ctx_t *ctx, void *state, rigor_warmup_sizes_t sizes,
                         const rigor_points_t *points, rigor_points_t *warm) {
  (void)ctx, (void)state;
  note("W ");
  warm_asked = sizes;
  warm_seen_points = points->count;
  *warm = (rigor_points_t){3, warm_named_ptrs};
  return 0;
}

/* Runs the state machine over two points with `sizes` as timing.warmup_sizes; returns its code. */
static int run_machine_rc(rigor_blocking_t blocking, uint32_t warmup, uint32_t cycles,
                          uint64_t iters, uint64_t agg, uint32_t check, rigor_warmup_sizes_t sizes,
                          rigor_ctx_t **ctx_out) {
  memset(&rec, 0, sizeof rec);
  rec.fail_validate_point = -1;
  barriers = 0;
  static rigor_comm_t comm = {0, 1, count_barrier, no_allreduce, no_broadcast, NULL};
  static rigor_ctx_t ctx;
  rigor_ctx_init(&ctx, &comm, NULL);
  static point_t p0 = {0}, p1 = {1};
  const void *pts[] = {&p0, &p1};
  rigor_points_t points = {2, pts};
  rigor_work_t work = {0};
  void *state = NULL;
  assert_int_equal(plugin.init(&ctx, &ctx.host, &p0, &points, &state, &work), 0);
  rigor_timing_t t;
  rigor_timing_defaults(&t);
  t.blocking = blocking;
  t.warmup = warmup;
  t.cycles = cycles;
  t.iters = iters;
  t.agg = agg;
  t.check = check;
  t.warmup_sizes = sizes;
  json_t *objs = json_pack("[{s:i},{s:i}]", "id", 0, "id", 1);
  char *labels[] = {"id=0", "id=1"};
  json_decref(samples);
  samples = json_array();
  rigor_measure_t m = {.ctx = &ctx,
                       .plugin = &plugin,
                       .state = state,
                       .timing = &t,
                       .points = pts,
                       .point_objs = objs,
                       .point_labels = labels,
                       .n_points = 2,
                       .work = &work,
                       .emit = collect};
  rigor_clock_probe(&m.clock);
  int rc = rigor_measure_run(&m);
  json_decref(objs);
  if (ctx_out) *ctx_out = &ctx;
  return rc;
}

/* Runs the state machine over two points and returns the recorded call sequence. */
static const char *run_machine(rigor_blocking_t blocking, uint32_t warmup, uint32_t cycles,
                               uint64_t iters, uint64_t agg, uint32_t check) {
  assert_int_equal(
      run_machine_rc(blocking, warmup, cycles, iters, agg, check, RIGOR_WARMUP_POINTS, NULL), 0);
  return rec.log;
}

static void test_batch_sequence(void **st) {
  (void)st;
  /* warmup 2 per point then one complete; per point: prime, barrier, iters × run(agg), complete,
   * validate after the window. */
  const char *log = run_machine(RIGOR_BLOCKING_BATCH, 2, 1, 3, 4, 1);
  assert_string_equal(log, "R0/1 R0/1 C R1/1 R1/1 C "
                           "P0 B R0/4 R0/4 R0/4 C V0 "
                           "P1 B R1/4 R1/4 R1/4 C V1 ");
  assert_int_equal(json_array_size(samples), 2);
  json_t *s = json_array_get(samples, 1);
  assert_int_equal(json_integer_value(json_object_get(s, "iters")), 3);
  assert_int_equal(json_integer_value(json_object_get(s, "agg")), 4);
  assert_int_equal(json_integer_value(json_object_get(s, "bytes")), 200);
  assert_string_equal(json_string_value(json_object_get(s, "window")), "wall");
}

static void test_each_sequence(void **st) {
  (void)st;
  const char *log = run_machine(RIGOR_BLOCKING_EACH, 0, 1, 2, 1, 0);
  assert_string_equal(log, "P0 B R0/1 C R0/1 C C P1 B R1/1 C R1/1 C C ");
}

static void test_each_barrier_sequence(void **st) {
  (void)st;
  const char *log = run_machine(RIGOR_BLOCKING_EACH_BARRIER, 0, 1, 2, 1, 0);
  assert_string_equal(log, "P0 B R0/1 C B R0/1 C B C P1 B R1/1 C B R1/1 C B C ");
}

static void test_each_excluded_sequence(void **st) {
  (void)st;
  const char *log = run_machine(RIGOR_BLOCKING_EACH_EXCLUDED, 0, 1, 2, 1, 0);
  assert_string_equal(log, "P0 B R0/1 C B R0/1 C B C P1 B R1/1 C B R1/1 C B C ");
  json_t *s = json_array_get(samples, 0);
  /* The window excludes the barriers: wall and cputime are both the summed collective time. */
  assert_true(json_real_value(json_object_get(s, "wall_s")) ==
              json_real_value(json_object_get(s, "cputime_s")));
}

static void test_cycles_repeat_sweep(void **st) {
  (void)st;
  run_machine(RIGOR_BLOCKING_BATCH, 0, 3, 1, 1, 1);
  assert_int_equal(json_array_size(samples), 6);
  for (int i = 0; i < 6; i++) {
    json_t *s = json_array_get(samples, (size_t)i);
    assert_int_equal(json_integer_value(json_object_get(s, "cycle")), i / 2);
    assert_int_equal(json_integer_value(json_object_get(s, "point")), i % 2);
  }
}

static void test_failed_check_is_kept_and_marked(void **st) {
  (void)st;
  memset(&rec, 0, sizeof rec);
  run_machine(RIGOR_BLOCKING_BATCH, 0, 1, 1, 1, 1);
  /* Run again with a planted failure on point 1. */
  memset(&rec, 0, sizeof rec);
  rec.fail_validate_point = 1;
  static rigor_comm_t comm = {0, 1, count_barrier, no_allreduce, no_broadcast, NULL};
  static rigor_ctx_t ctx;
  rigor_ctx_init(&ctx, &comm, NULL);
  static point_t p0 = {0}, p1 = {1};
  const void *pts[] = {&p0, &p1};
  rigor_work_t work = {0};
  rec.work = &work;
  rigor_timing_t t;
  rigor_timing_defaults(&t);
  t.cycles = 1;
  t.iters = 2;
  json_t *objs = json_pack("[{},{}]");
  char *labels[] = {"a", "b"};
  json_decref(samples);
  samples = json_array();
  rigor_measure_t m = {.ctx = &ctx,
                       .plugin = &plugin,
                       .state = &rec,
                       .timing = &t,
                       .points = pts,
                       .point_objs = objs,
                       .point_labels = labels,
                       .n_points = 2,
                       .work = &work,
                       .emit = collect};
  rigor_clock_probe(&m.clock);
  assert_int_equal(rigor_measure_run(&m), 0);
  assert_int_equal(m.wrong_samples, 1);
  json_t *bad = json_array_get(samples, 1);
  assert_string_equal(json_string_value(json_object_get(bad, "status")), "wrong");
  json_t *check = json_object_get(bad, "check");
  assert_int_equal(json_integer_value(json_object_get(check, "wrong")), 2);
  assert_string_equal(json_string_value(json_object_get(check, "detail")), "planted");
  json_decref(objs);
}

static void test_named_warm_schedule_replaces_the_points(void **st) {
  (void)st;
  plugin.warm_points = r_warm_points;
  int rc = run_machine_rc(RIGOR_BLOCKING_BATCH, 2, 1, 1, 1, 0, RIGOR_WARMUP_POWERS_OF_TWO, NULL);
  assert_int_equal(rc, 0);
  /* Asked once with the sweep, before anything runs; its points warm untimed, each then
   * completed, and the sweep is measured as before. */
  assert_string_equal(rec.log, "W R10/1 R10/1 C R11/1 R11/1 C R12/1 R12/1 C "
                               "P0 B R0/1 C P1 B R1/1 C ");
  assert_int_equal(warm_asked, RIGOR_WARMUP_POWERS_OF_TWO);
  assert_int_equal(warm_seen_points, 2);
  /* `points` keeps the sweep's own warmup even when the plugin could name another. */
  run_machine(RIGOR_BLOCKING_BATCH, 2, 1, 1, 1, 0);
  assert_string_equal(rec.log, "R0/1 R0/1 C R1/1 R1/1 C P0 B R0/1 C P1 B R1/1 C ");
  /* No warmup: the hook is not asked. */
  rc = run_machine_rc(RIGOR_BLOCKING_BATCH, 0, 1, 1, 1, 0, RIGOR_WARMUP_POWERS_OF_TWO, NULL);
  assert_int_equal(rc, 0);
  assert_string_equal(rec.log, "P0 B R0/1 C P1 B R1/1 C ");
  plugin.warm_points = NULL;
}

static void test_warm_schedule_without_hook_fails_before_running(void **st) {
  (void)st;
  rigor_ctx_t *ctx = NULL;
  int rc = run_machine_rc(RIGOR_BLOCKING_BATCH, 1, 1, 1, 1, 0, RIGOR_WARMUP_POWERS_OF_TWO, &ctx);
  assert_int_equal(rc, RIGOR_ENOTSUP);
  assert_string_equal(rec.log, "");
  assert_string_equal(ctx->error, "timing.warmup_sizes: powers_of_two needs the plugin to name its "
                                  "warm sizes, and plugin 'recorder' has no warm_points hook");
  assert_int_equal(json_array_size(samples), 0);
}

static void test_window_status_rules(void **st) {
  (void)st;
  const rigor_clock_info_t fast = {.resolution_s = 1e-9, .now_cost_s = 0};
  assert_int_equal(rigor_window_status(0.0, &fast, 0.0), RIGOR_SAMPLE_TOO_SHORT);
  assert_int_equal(rigor_window_status(19e-9, &fast, 1e-9), RIGOR_SAMPLE_TOO_SHORT);
  assert_int_equal(rigor_window_status(1e-3, &fast, 1e-5), RIGOR_SAMPLE_OK);
  assert_int_equal(rigor_window_status(1e-3, &fast, -1.0), RIGOR_SAMPLE_INVALID);
  /* A 123 ns window passes STREAM's 20 ticks of a 1 ns clock, but not 100 reads of a clock that
   * costs 40 ns to read: the floor is 4 us. */
  const rigor_clock_info_t vm = {.resolution_s = 1e-9, .now_cost_s = 40e-9};
  assert_int_equal(rigor_window_status(123e-9, &fast, 123e-9), RIGOR_SAMPLE_OK);
  assert_int_equal(rigor_window_status(123e-9, &vm, 123e-9), RIGOR_SAMPLE_TOO_SHORT);
  assert_int_equal(rigor_window_status(3.9e-6, &vm, 3.9e-6), RIGOR_SAMPLE_TOO_SHORT);
  assert_int_equal(rigor_window_status(4.1e-6, &vm, 4.1e-6), RIGOR_SAMPLE_OK);
  assert_true(fabs(rigor_window_floor(&vm) - 4e-6) < 1e-12);
  /* A coarse clock: 20 ticks of 1 ms dominate. */
  const rigor_clock_info_t coarse = {.resolution_s = 1e-3, .now_cost_s = 40e-9};
  assert_true(fabs(rigor_window_floor(&coarse) - 20e-3) < 1e-12);
}

static int teardown(void **st) {
  (void)st;
  json_decref(samples);
  samples = NULL;
  return 0;
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_batch_sequence),
      cmocka_unit_test(test_each_sequence),
      cmocka_unit_test(test_each_barrier_sequence),
      cmocka_unit_test(test_each_excluded_sequence),
      cmocka_unit_test(test_cycles_repeat_sweep),
      cmocka_unit_test(test_failed_check_is_kept_and_marked),
      cmocka_unit_test(test_named_warm_schedule_replaces_the_points),
      cmocka_unit_test(test_warm_schedule_without_hook_fails_before_running),
      cmocka_unit_test(test_window_status_rules),
  };
  return cmocka_run_group_tests(tests, NULL, teardown);
}

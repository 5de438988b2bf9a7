/* The plugin template (examples/plugin-template), driven directly through the test host: schema,
 * work from the executed bound, validation of what ran, metrics. */
#include <dlfcn.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "test_host.h"

/* Mirrors the template's params struct; the schema's offsets are checked against it below. */
typedef struct memcpy_bw_params {
  uint64_t bytes;
  uint64_t offset;
  int32_t method;
} memcpy_bw_params_t;

typedef struct fixture {
  void *handle;
  const rigor_plugin_t *desc;
  test_host_t th;
} fixture_t;

static int setup(void **state) {
  static fixture_t f;
  memset(&f, 0, sizeof f);
  f.desc = test_plugin_open(RIGOR_TEST_PLUGIN_DIR "/memcpy_bw.so", "memcpy_bw", &f.handle);
  test_host_init(&f.th);
  *state = &f;
  return 0;
}

static int teardown(void **state) {
  fixture_t *f = *state;
  dlclose(f->handle);
  return 0;
}

static const rigor_param_t *find_param(const rigor_plugin_t *d, const char *name) {
  for (uint32_t i = 0; i < d->n_params; i++)
    if (strcmp(d->params[i].name, name) == 0) return &d->params[i];
  return NULL;
}

static void test_schema(void **state) {
  fixture_t *f = *state;
  const rigor_plugin_t *d = f->desc;
  assert_int_equal(d->abi_major, RIGOR_ABI_MAJOR);
  assert_int_equal(d->size, sizeof(rigor_plugin_t));
  assert_int_equal(d->params_size, sizeof(memcpy_bw_params_t));
  assert_int_equal(d->n_params, 3);
  const rigor_param_t *bytes = find_param(d, "bytes");
  const rigor_param_t *offset = find_param(d, "offset");
  const rigor_param_t *method = find_param(d, "method");
  assert_non_null(bytes);
  assert_non_null(offset);
  assert_non_null(method);
  assert_int_equal(bytes->type, RIGOR_PARAM_SIZE);
  assert_int_equal(bytes->offset, offsetof(memcpy_bw_params_t, bytes));
  assert_int_equal(offset->type, RIGOR_PARAM_UINT);
  assert_int_equal(offset->offset, offsetof(memcpy_bw_params_t, offset));
  assert_string_equal(offset->max, "4095");
  assert_int_equal(method->type, RIGOR_PARAM_ENUM);
  assert_int_equal(method->offset, offsetof(memcpy_bw_params_t, method));
  assert_string_equal(method->choices[0], "memcpy");
  assert_string_equal(method->choices[1], "memmove");
  assert_null(method->choices[2]);
  assert_int_equal(d->n_metrics, 1);
  assert_string_equal(d->metrics[0].name, "prime_s");
  assert_int_equal(d->metrics[0].better, RIGOR_LOWER_IS_BETTER);
  /* Synchronous: nothing to complete. */
  assert_null(d->complete);
  assert_non_null(d->validate);
  assert_non_null(d->metrics_read);
}

static void test_lifecycle_work_and_validation(void **state) {
  fixture_t *f = *state;
  const rigor_plugin_t *d = f->desc;
  memcpy_bw_params_t p[2] = {{.bytes = 4096, .offset = 0, .method = 0},
                             {.bytes = 100003, .offset = 3, .method = 1}};
  const void *pts[2] = {&p[0], &p[1]};
  rigor_points_t points = {.count = 2, .points = pts};
  rigor_ctx_t *ctx = (rigor_ctx_t *)&f->th;
  void *st = NULL;
  rigor_work_t work = {0};
  assert_int_equal(d->init(ctx, &f->th.host, &p[0], &points, &st, &work), 0);
  assert_non_null(st);
  /* The warmup sweep runs every point before its first prime(). */
  for (int i = 0; i < 2; i++)
    assert_int_equal(d->run(ctx, st, &p[i], 1), 0);

  for (int i = 0; i < 2; i++) {
    memset(&work, 0, sizeof work);
    assert_int_equal(d->prime(ctx, st, &p[i]), 0);
    /* Read and written once per operation: twice the bytes run() copies. */
    assert_int_equal(work.bytes, 2 * p[i].bytes);
    assert_true(work.flops == 0);
    assert_int_equal(d->run(ctx, st, &p[i], 3), 0);
    rigor_check_t check = {0};
    assert_int_equal(d->validate(ctx, st, &p[i], &check), 0);
    assert_int_equal(check.checked, p[i].bytes + 64);
    assert_int_equal(check.wrong, 0);
    assert_true(check.tolerance == 0);
    double prime_s = NAN;
    assert_int_equal(d->metrics_read(ctx, st, &p[i], &prime_s), 0);
    assert_true(isfinite(prime_s) && prime_s >= 0 && prime_s < 10);
  }
  assert_int_equal(f->th.first_error_code, 0);
  d->fini(ctx, st);
}

static void test_validation_refuses_a_window_that_ran_nothing(void **state) {
  fixture_t *f = *state;
  const rigor_plugin_t *d = f->desc;
  memcpy_bw_params_t p = {.bytes = 1024};
  const void *pts[1] = {&p};
  rigor_points_t points = {.count = 1, .points = pts};
  rigor_ctx_t *ctx = (rigor_ctx_t *)&f->th;
  void *st = NULL;
  rigor_work_t work = {0};
  assert_int_equal(d->init(ctx, &f->th.host, &p, &points, &st, &work), 0);
  assert_int_equal(d->prime(ctx, st, &p), 0);
  rigor_check_t check = {0};
  assert_int_equal(d->validate(ctx, st, &p, &check), RIGOR_EVALIDATE);
  assert_int_equal(f->th.first_error_code, RIGOR_EVALIDATE);
  assert_non_null(strstr(f->th.first_error, "no operation ran"));
  d->fini(ctx, st);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_schema, setup, teardown),
      cmocka_unit_test_setup_teardown(test_lifecycle_work_and_validation, setup, teardown),
      cmocka_unit_test_setup_teardown(test_validation_refuses_a_window_that_ran_nothing, setup,
                                      teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

/* ABI stability: descriptors of another size load as ABI 1 describes, wrong majors and missing
 * callbacks are refused with messages that say why. Through the loader and the real binary. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "loader.h"
#include "sdk_util.h"

static const char *const fixture_dirs[] = {RIGOR_TEST_PLUGIN_DIR, NULL};
static const rigor_plugin_search_t fixture_search = {.extra_dirs = fixture_dirs};

static void test_smaller_descriptor_loads_with_hooks_absent(void **state) {
  (void)state;
  rigor_loaded_t *p = NULL;
  char err[1024] = "";
  int rc = rigor_plugin_load("sdk_old_size", &fixture_search, &p, err, sizeof err);
  assert_int_equal(rc, 0);
  assert_non_null(p);
  assert_int_equal(p->desc.size, offsetof(rigor_plugin_t, identity));
  assert_string_equal(p->desc.name, "sdk_old_size");
  assert_non_null(p->desc.init);
  assert_non_null(p->desc.prime);
  assert_non_null(p->desc.run);
  assert_non_null(p->desc.fini);
  assert_int_equal(p->desc.n_params, 1);
  assert_string_equal(p->desc.params[0].name, "bytes");
  assert_int_equal(p->desc.n_metrics, 1);
  /* Set in the fixture's memory past its declared size: the core must not see them. */
  assert_null(p->desc.identity);
  assert_null(p->desc.telemetry);
  assert_null(p->desc.mark);
  assert_null(p->desc.mark_read);
  assert_null(p->desc.metrics_read);
  assert_null(p->desc.primary_metric); /* appended after the old descriptor ends */
  rigor_plugin_unload(p);
}

static void test_larger_descriptor_loads_known_fields(void **state) {
  (void)state;
  rigor_loaded_t *p = NULL;
  char err[1024] = "";
  int rc = rigor_plugin_load("sdk_new_size", &fixture_search, &p, err, sizeof err);
  assert_int_equal(rc, 0);
  assert_int_equal(p->desc.size, sizeof(rigor_plugin_t));
  assert_non_null(p->desc.identity);
  assert_non_null(p->desc.metrics_read);
  double value = 0;
  assert_int_equal(p->desc.metrics_read(NULL, NULL, NULL, &value), 0);
  assert_true(value == 1.0);
  assert_non_null(p->desc.primary_metric);
  assert_string_equal(p->desc.primary_metric, "hook_calls");
  rigor_plugin_unload(p);
}

static void test_wrong_major_is_refused_naming_both_versions(void **state) {
  (void)state;
  rigor_loaded_t *p = NULL;
  char err[1024] = "";
  int rc = rigor_plugin_load("sdk_wrong_major", &fixture_search, &p, err, sizeof err);
  assert_int_equal(rc, RIGOR_EABI);
  assert_null(p);
  char theirs[32], ours[32];
  snprintf(theirs, sizeof theirs, "ABI %d", RIGOR_ABI_MAJOR + 1);
  snprintf(ours, sizeof ours, "ABI %d", RIGOR_ABI_MAJOR);
  assert_non_null(strstr(err, "sdk_wrong_major.so"));
  assert_non_null(strstr(err, theirs));
  assert_non_null(strstr(err, ours));
}

static void test_missing_required_callback_is_named(void **state) {
  (void)state;
  rigor_loaded_t *p = NULL;
  char err[1024] = "";
  int rc = rigor_plugin_load("sdk_no_run", &fixture_search, &p, err, sizeof err);
  assert_int_equal(rc, RIGOR_EABI);
  assert_null(p);
  assert_non_null(strstr(err, "sdk_no_run"));
  assert_non_null(strstr(err, "'run'"));
}

static int noop_init(rigor_ctx_t *ctx, const rigor_host_t *host, const void *params,
                     const rigor_points_t *points, void **state, rigor_work_t *work) {
  (void)ctx, (void)host, (void)params, (void)points, (void)state, (void)work;
  return 0;
}
static int noop_prime(rigor_ctx_t *ctx, void *state, const void *point) {
  (void)ctx, (void)state, (void)point;
  return 0;
}
static int noop_run(rigor_ctx_t *ctx, void *state, const void *point, uint64_t n) {
  (void)ctx, (void)state, (void)point, (void)n;
  return 0;
}
static void noop_fini(rigor_ctx_t *ctx, void *state) {
  (void)ctx, (void)state;
}

/* A primary metric must be one of the plugin's own metrics. */
static void test_primary_metric_must_be_declared(void **state) {
  (void)state;
  static const rigor_metric_t metrics[] = {{.name = "cycles", .better = RIGOR_LOWER_IS_BETTER}};
  rigor_plugin_t d = {.abi_major = RIGOR_ABI_MAJOR,
                      .size = sizeof d,
                      .name = "primary",
                      .metrics = metrics,
                      .n_metrics = 1,
                      .init = noop_init,
                      .prime = noop_prime,
                      .run = noop_run,
                      .fini = noop_fini,
                      .primary_metric = "cycles"};
  rigor_plugin_t out;
  char err[512] = "";
  assert_int_equal(rigor_plugin_check(&d, "primary.so", &out, err, sizeof err), 0);
  assert_string_equal(out.primary_metric, "cycles");
  d.primary_metric = "seconds";
  assert_int_equal(rigor_plugin_check(&d, "primary.so", &out, err, sizeof err), RIGOR_EABI);
  assert_string_equal(err,
                      "primary.so: plugin 'primary': primary metric 'seconds' is not one of its "
                      "metrics");
}

static void test_binary_describes_smaller_descriptor(void **state) {
  (void)state;
  char *out = NULL;
  int rc = sdk_run(RIGOR_EXE " plugins sdk_old_size --plugin-path " RIGOR_TEST_PLUGIN_DIR, &out);
  if (rc != 0) fprintf(stderr, "%s", out);
  assert_int_equal(rc, 0);
  assert_non_null(strstr(out, "sdk_old_size"));
  assert_non_null(strstr(out, "bytes"));
  free(out);
}

static void test_binary_refuses_wrong_major(void **state) {
  (void)state;
  char *out = NULL;
  int rc = sdk_run(RIGOR_EXE " plugins sdk_wrong_major --plugin-path " RIGOR_TEST_PLUGIN_DIR, &out);
  assert_int_not_equal(rc, 0);
  char theirs[32], ours[32];
  snprintf(theirs, sizeof theirs, "ABI %d", RIGOR_ABI_MAJOR + 1);
  snprintf(ours, sizeof ours, "ABI %d", RIGOR_ABI_MAJOR);
  assert_non_null(strstr(out, theirs));
  assert_non_null(strstr(out, ours));
  free(out);
}

static void test_binary_refuses_missing_callback(void **state) {
  (void)state;
  char *out = NULL;
  int rc = sdk_run(RIGOR_EXE " plugins sdk_no_run --plugin-path " RIGOR_TEST_PLUGIN_DIR, &out);
  assert_int_not_equal(rc, 0);
  assert_non_null(strstr(out, "'run'"));
  free(out);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_smaller_descriptor_loads_with_hooks_absent),
      cmocka_unit_test(test_larger_descriptor_loads_known_fields),
      cmocka_unit_test(test_wrong_major_is_refused_naming_both_versions),
      cmocka_unit_test(test_missing_required_callback_is_named),
      cmocka_unit_test(test_primary_metric_must_be_declared),
      cmocka_unit_test(test_binary_describes_smaller_descriptor),
      cmocka_unit_test(test_binary_refuses_wrong_major),
      cmocka_unit_test(test_binary_refuses_missing_callback),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

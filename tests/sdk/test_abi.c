/* ABI stability: descriptors of another size load as ABI 1 describes, wrong majors and missing
 * callbacks are refused with messages that say why. Through the loader and the real binary. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "capabilities.h"
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
  assert_null(p->desc.check_params);
  assert_null(p->desc.commands);
  assert_null(p->desc.declare_metrics);
  assert_null(p->desc.warm_points);
  assert_null(p->desc.primary_metric);
  rigor_plugin_unload(p);
}

static void test_descriptor_before_warm_points_reads_it_as_null(void **state) {
  (void)state;
  rigor_loaded_t *p = NULL;
  char err[1024] = "";
  int rc = rigor_plugin_load("sdk_before_warm", &fixture_search, &p, err, sizeof err);
  assert_int_equal(rc, 0);
  assert_int_equal(p->desc.size, offsetof(rigor_plugin_t, warm_points));
  assert_non_null(p->desc.metrics_read);
  assert_null(p->desc.warm_points);
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
  assert_non_null(p->desc.warm_points);
  assert_non_null(p->desc.primary_metric);
  assert_string_equal(p->desc.primary_metric, "hook_calls");
  rigor_plugin_unload(p);
}

/* Built before the hooks were appended: they read as absent, and a plugin flagged as running
 * commands without a way to list them is taken to run them always. */
static void test_descriptor_before_appended_hooks(void **state) {
  (void)state;
  rigor_loaded_t *p = NULL;
  char err[1024] = "";
  assert_int_equal(rigor_plugin_load("sdk_pre_hooks", &fixture_search, &p, err, sizeof err), 0);
  assert_int_equal(p->desc.size, offsetof(rigor_plugin_t, check_params));
  assert_non_null(p->desc.metrics_read);
  assert_null(p->desc.check_params);
  assert_null(p->desc.commands);
  assert_null(p->desc.declare_metrics);
  rigor_plugin_unload(p);

  char dir[4096], path[4200], cmd[9000], *out = NULL;
  sdk_scratch_dir("abi-hooks", dir, sizeof dir);
  snprintf(path, sizeof path, "%s/old.yaml", dir);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fprintf(f,
          "schema: 1\nname: old\nplugin: sdk_pre_hooks\noutput: %s/old.jsonl\n"
          "timing: {warmup: 0, cycles: 1, iters: 1}\n",
          dir);
  fclose(f);
  snprintf(cmd, sizeof cmd, RIGOR_EXE " plan %s --plugin-path " RIGOR_TEST_PLUGIN_DIR, path);
  assert_int_equal(sdk_run(cmd, &out), 0);
  assert_non_null(strstr(out, "! v0 default: (the plugin does not list its commands)"));
  free(out);
  snprintf(cmd, sizeof cmd, RIGOR_EXE " run %s --no-report --plugin-path " RIGOR_TEST_PLUGIN_DIR,
           path);
  assert_int_equal(sdk_run(cmd, &out), 2);
  assert_non_null(strstr(out, "rerun with --allow-commands"));
  free(out);
  snprintf(cmd, sizeof cmd,
           RIGOR_EXE " run %s --no-report --allow-commands --plugin-path " RIGOR_TEST_PLUGIN_DIR,
           path);
  assert_int_equal(sdk_run(cmd, &out), 0);
  free(out);
  snprintf(path, sizeof path, "%s/old.jsonl", dir);
  char *results = sdk_read_file(path, NULL);
  assert_non_null(results);
  assert_null(strstr(results, "read_past_size"));
  free(results);
  sdk_remove_tree(dir);
}

/* A JSON param from a YAML list, check_params reported at its node, declared metrics in the
 * experiment record and in every sample. */
static void test_json_param_and_appended_hooks(void **state) {
  (void)state;
  char *out = NULL;
  assert_int_equal(
      sdk_run(RIGOR_EXE " plugins sdk_json --plugin-path " RIGOR_TEST_PLUGIN_DIR, &out), 0);
  assert_non_null(strstr(out, "names                json    default [\"first\"]"));
  free(out);
  char dir[4096], path[4200], cmd[9000];
  sdk_scratch_dir("abi-json", dir, sizeof dir);
  snprintf(path, sizeof path, "%s/j.yaml", dir);
  FILE *f = fopen(path, "w");
  fprintf(f, "schema: 1\nname: j\nplugin: sdk_json\nparams:\n  names: []\n");
  fclose(f);
  snprintf(cmd, sizeof cmd, RIGOR_EXE " validate %s --plugin-path " RIGOR_TEST_PLUGIN_DIR, path);
  assert_int_equal(sdk_run(cmd, &out), 2);
  assert_non_null(strstr(out, "j.yaml:5:10: plugin 'sdk_json': param 'names': needs at least one "
                              "name"));
  free(out);
  f = fopen(path, "w");
  fprintf(f,
          "schema: 1\nname: j\nplugin: sdk_json\nparams:\n  names: [hits, misses]\n"
          "timing: {warmup: 0, cycles: 1, iters: 1}\noutput: %s/j.jsonl\n",
          dir);
  fclose(f);
  snprintf(cmd, sizeof cmd, RIGOR_EXE " run %s --no-report --plugin-path " RIGOR_TEST_PLUGIN_DIR,
           path);
  assert_int_equal(sdk_run(cmd, &out), 0);
  free(out);
  snprintf(path, sizeof path, "%s/j.jsonl", dir);
  char *results = sdk_read_file(path, NULL);
  assert_non_null(results);
  assert_non_null(strstr(results, "\"metrics\":[{\"name\":\"hits\",\"unit\":\"1\","
                                  "\"better\":\"higher\"},{\"name\":\"misses\""));
  assert_non_null(strstr(results, "\"metrics\":{\"hits\":7.0,\"misses\":null}"));
  free(results);
  sdk_remove_tree(dir);
}

static void test_unknown_param_type_is_refused(void **state) {
  (void)state;
  rigor_loaded_t *p = NULL;
  char err[1024] = "";
  assert_int_equal(rigor_plugin_load("sdk_bad_type", &fixture_search, &p, err, sizeof err),
                   RIGOR_EABI);
  assert_non_null(strstr(err, "param #0 ('future') has an unknown type"));
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

/* A plugin built before the capabilities field reads 0 there: the core infers them from its
 * hooks as it always did, and says so. */
static void test_capabilities_inferred_without_the_field(void **state) {
  (void)state;
  rigor_loaded_t *p = NULL;
  char err[1024] = "";
  assert_int_equal(rigor_plugin_load("sdk_pre_hooks", &fixture_search, &p, err, sizeof err), 0);
  assert_int_equal(p->desc.capabilities, RIGOR_CAP_READS_METRICS | RIGOR_CAP_IDENTITY |
                                             RIGOR_CAP_TELEMETRY | RIGOR_CAP_DEVICE_MARKS |
                                             RIGOR_CAP_WARMUP_SIZES);
  rigor_plugin_unload(p);
  assert_int_equal(rigor_plugin_load("sdk_old_size", &fixture_search, &p, err, sizeof err), 0);
  assert_int_equal(p->desc.capabilities, 0);
  rigor_plugin_unload(p);

  char *out = NULL;
  int rc = sdk_run(RIGOR_EXE " plugins sdk_pre_hooks --plugin-path " RIGOR_TEST_PLUGIN_DIR, &out);
  assert_int_equal(rc, 0);
  assert_non_null(strstr(out, "capabilities: device marks, reads metrics, identity, telemetry, "
                              "warmup sizes (inferred from its hooks)"));
  free(out);
}

/* A plugin that declares them is taken at its word, and `rigor plugins` says so. */
static void test_capabilities_declared_are_kept(void **state) {
  (void)state;
  rigor_loaded_t *p = NULL;
  char err[1024] = "";
  assert_int_equal(rigor_plugin_load("sdk_caps", &fixture_search, &p, err, sizeof err), 0);
  assert_int_equal(p->desc.capabilities, RIGOR_CAP_DECLARED | RIGOR_CAP_IDENTITY |
                                             RIGOR_CAP_TELEMETRY | RIGOR_CAP_DEVICE_MARKS |
                                             RIGOR_CAP_READS_METRICS | RIGOR_CAP_WARMUP_SIZES);
  rigor_plugin_unload(p);

  char *out = NULL;
  int rc = sdk_run(RIGOR_EXE " plugins sdk_caps --plugin-path " RIGOR_TEST_PLUGIN_DIR, &out);
  assert_int_equal(rc, 0);
  assert_non_null(strstr(out, "capabilities: device marks, reads metrics, identity, telemetry, "
                              "warmup sizes (declared)"));
  free(out);
}

/* A declaration that disagrees with the hooks, either way, or that sets bits this rigor does not
 * know, is refused with the capability and the hook named. */
static void test_capabilities_that_disagree_are_refused(void **state) {
  (void)state;
  rigor_plugin_t d = {.abi_major = RIGOR_ABI_MAJOR,
                      .size = sizeof d,
                      .name = "caps",
                      .init = noop_init,
                      .prime = noop_prime,
                      .run = noop_run,
                      .fini = noop_fini,
                      .capabilities = RIGOR_CAP_DECLARED};
  rigor_plugin_t out;
  char err[512] = "";
  assert_int_equal(rigor_plugin_check(&d, "caps.so", &out, err, sizeof err), 0);
  assert_int_equal(out.capabilities, RIGOR_CAP_DECLARED);

  d.capabilities = RIGOR_CAP_DECLARED | RIGOR_CAP_ASYNC;
  assert_int_equal(rigor_plugin_check(&d, "caps.so", &out, err, sizeof err), RIGOR_EABI);
  assert_string_equal(err, "caps.so: plugin 'caps' declares RIGOR_CAP_ASYNC but has no complete "
                           "hook");

  d.capabilities = RIGOR_CAP_DECLARED;
  d.complete = noop_prime;
  assert_int_equal(rigor_plugin_check(&d, "caps.so", &out, err, sizeof err), RIGOR_EABI);
  assert_string_equal(err, "caps.so: plugin 'caps' has a complete hook but does not declare "
                           "RIGOR_CAP_ASYNC");

  d.capabilities = RIGOR_CAP_ASYNC; /* without RIGOR_CAP_DECLARED */
  assert_int_equal(rigor_plugin_check(&d, "caps.so", &out, err, sizeof err), RIGOR_EABI);
  assert_non_null(strstr(err, "RIGOR_CAP_DECLARED"));

  d.capabilities = RIGOR_CAP_DECLARED | RIGOR_CAP_ASYNC | (1u << 30);
  assert_int_equal(rigor_plugin_check(&d, "caps.so", &out, err, sizeof err), RIGOR_EABI);
  assert_non_null(strstr(err, "does not read"));
}

/* Every shipped plugin declares its capabilities, and they are those of its hooks. */
static void test_shipped_plugins_declare_capabilities(void **state) {
  (void)state;
  static const char *const dirs[] = {RIGOR_PLUGIN_DIR, NULL};
  const rigor_plugin_search_t shipped = {.extra_dirs = dirs, .exclusive = true};
  rigor_loaded_t **list = NULL;
  size_t n = 0;
  assert_int_equal(rigor_plugin_list(&shipped, &list, &n, NULL, NULL), 0);
  assert_true(n >= 4);
  for (size_t i = 0; i < n; i++) {
    const rigor_plugin_t *d = &list[i]->desc;
    if (!(d->capabilities & RIGOR_CAP_DECLARED)) fail_msg("%s declares no capabilities", d->name);
    assert_int_equal(d->capabilities & ~(uint32_t)RIGOR_CAP_DECLARED, rigor_caps_inferred(d));
    rigor_plugin_unload(list[i]);
  }
  free(list);
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

/* A table longer than the plugin says, or a field past its params struct, is refused before the
 * core reads past the table or writes past the struct; other plugins still list. */
static void test_lying_tables_are_refused(void **state) {
  (void)state;
  rigor_loaded_t *p = NULL;
  char err[1024] = "";
  assert_int_equal(rigor_plugin_load("sdk_params_overrun", &fixture_search, &p, err, sizeof err),
                   RIGOR_EABI);
  assert_null(p);
  assert_non_null(strstr(err, "sdk_params_overrun"));
  assert_non_null(strstr(err, "param #1"));
  assert_int_equal(rigor_plugin_load("sdk_param_offset", &fixture_search, &p, err, sizeof err),
                   RIGOR_EABI);
  assert_non_null(strstr(err, "param #0 ('a') lies outside the params struct"));

  char *out = NULL;
  int rc = sdk_run(RIGOR_EXE " plugins --plugin-path " RIGOR_TEST_PLUGIN_DIR, &out);
  assert_int_equal(rc, 0);
  assert_non_null(strstr(out, "sdk_params_overrun"));
  assert_non_null(strstr(out, "sdk_old_size"));
  free(out);
  rc = sdk_run(RIGOR_EXE " plugins sdk_params_overrun --plugin-path " RIGOR_TEST_PLUGIN_DIR, &out);
  assert_int_not_equal(rc, 0);
  assert_int_not_equal(rc, 139); /* no crash */
  assert_non_null(strstr(out, "param #1"));
  free(out);
}

static void test_unallocatable_params_are_named(void **state) {
  (void)state;
  char dir[] = "/tmp/rigor-sdk-huge-XXXXXX";
  assert_non_null(mkdtemp(dir));
  char yaml[128], results[128], cmd[1024];
  snprintf(yaml, sizeof yaml, "%s/huge.yaml", dir);
  snprintf(results, sizeof results, "%s/huge.jsonl", dir);
  FILE *f = fopen(yaml, "w");
  assert_non_null(f);
  fputs("schema: 1\nname: huge\nplugin: sdk_huge_params\ntiming: {warmup: 0, cycles: 1}\n", f);
  fclose(f);
  snprintf(cmd, sizeof cmd,
           RIGOR_EXE " run %s -o %s --no-report --plugin-path " RIGOR_TEST_PLUGIN_DIR, yaml,
           results);
  char *out = NULL;
  int rc = sdk_run(cmd, &out);
  assert_int_equal(rc, 1);
  assert_non_null(strstr(out, "params: cannot allocate 4611686018427387904 bytes for the params"));
  free(out);
  unlink(yaml);
  unlink(results);
  rmdir(dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_smaller_descriptor_loads_with_hooks_absent),
      cmocka_unit_test(test_descriptor_before_warm_points_reads_it_as_null),
      cmocka_unit_test(test_larger_descriptor_loads_known_fields),
      cmocka_unit_test(test_descriptor_before_appended_hooks),
      cmocka_unit_test(test_json_param_and_appended_hooks),
      cmocka_unit_test(test_unknown_param_type_is_refused),
      cmocka_unit_test(test_wrong_major_is_refused_naming_both_versions),
      cmocka_unit_test(test_missing_required_callback_is_named),
      cmocka_unit_test(test_primary_metric_must_be_declared),
      cmocka_unit_test(test_capabilities_inferred_without_the_field),
      cmocka_unit_test(test_capabilities_declared_are_kept),
      cmocka_unit_test(test_capabilities_that_disagree_are_refused),
      cmocka_unit_test(test_shipped_plugins_declare_capabilities),
      cmocka_unit_test(test_binary_describes_smaller_descriptor),
      cmocka_unit_test(test_binary_refuses_wrong_major),
      cmocka_unit_test(test_binary_refuses_missing_callback),
      cmocka_unit_test(test_lying_tables_are_refused),
      cmocka_unit_test(test_unallocatable_params_are_named),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "params.h"
#include "test_host.h"

/* Mirrors the fixture's params struct (tests/config/fixtures/schema_plugin.c). */
typedef struct fixture_params {
  bool flag;
  int64_t offset;
  uint64_t count;
  double ratio;
  uint64_t bytes;
  const char *note;
  int32_t kernel;
  const char *runner;
  const char *table;
} fixture_params_t;

static const rigor_plugin_t *plugin;
static void *handle;

static int setup(void **state) {
  (void)state;
  plugin = test_plugin_open(RIGOR_TEST_PLUGIN_DIR "/cfgfix.so", "cfgfix", &handle);
  return plugin ? 0 : -1;
}

static int teardown(void **state) {
  (void)state;
  dlclose(handle);
  return 0;
}

static const rigor_param_t *param(const char *name) {
  const rigor_param_t *p = rigor_param_lookup(plugin, name);
  assert_non_null(p);
  return p;
}

static void convert_ok(const char *name, const char *text, const char *expect_json) {
  char err[256] = "";
  json_t *v = NULL;
  assert_int_equal(rigor_param_from_text(param(name), text, &v, err, sizeof err), 0);
  char *dumped = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT | JSON_REAL_PRECISION(15));
  assert_string_equal(dumped, expect_json);
  free(dumped);
  json_decref(v);
}

static void convert_fails(const char *name, const char *text, const char *message) {
  char err[256] = "";
  json_t *v = NULL;
  assert_int_not_equal(rigor_param_from_text(param(name), text, &v, err, sizeof err), 0);
  assert_null(v);
  assert_string_equal(err, message);
}

static void test_every_type_converts(void **state) {
  (void)state;
  convert_ok("flag", "yes", "true");
  convert_ok("offset", "-42", "-42");
  convert_ok("count", "1000", "1000");
  convert_ok("ratio", "0.25", "0.25");
  convert_ok("bytes", "64MiB", "67108864");
  convert_ok("bytes", "1G", "1073741824");
  convert_ok("note", "free text", "\"free text\"");
  convert_ok("kernel", "add", "\"add\"");
}

static void test_bounds_and_choices(void **state) {
  (void)state;
  convert_fails("offset", "-101", "param 'offset': -101 is below the minimum -100");
  convert_fails("count", "0", "param 'count': 0 is below the minimum 1");
  convert_fails("count", "1001", "param 'count': 1001 is above the maximum 1000");
  convert_fails("count", "-1", "param 'count': '-1' is negative; expected a non-negative integer");
  convert_fails("ratio", "1.5", "param 'ratio': 1.5 is above the maximum 1");
  convert_fails("bytes", "2TiB", "param 'bytes': 2TiB is above the maximum 1TiB");
  convert_fails("bytes", "0", "param 'bytes': 0 is below the minimum 1");
  convert_fails("bytes", "32EiB", "param 'bytes': size '32EiB' overflows 64 bits");
  convert_fails("flag", "maybe", "param 'flag': 'maybe' is not a boolean (true or false)");
  convert_fails("kernel", "triadd",
                "param 'kernel': 'triadd' is not one of copy, scale, add, triad, dot (did you "
                "mean 'triad'?)");
  convert_fails("kernel", "memset",
                "param 'kernel': 'memset' is not one of copy, scale, add, triad, dot");
}

static void test_format_and_alias(void **state) {
  (void)state;
  json_t *v = json_integer(1 << 20);
  char *s = rigor_param_format(param("bytes"), v);
  assert_string_equal(s, "1MiB");
  free(s);
  json_decref(v);
  v = json_real(0.5);
  s = rigor_param_format(param("ratio"), v);
  assert_string_equal(s, "0.5");
  free(s);
  json_decref(v);
  assert_string_equal(rigor_param_alias(param("kernel"), "classic"), "copy,scale,add,triad");
  assert_null(rigor_param_alias(param("kernel"), "copy"));
  assert_null(rigor_param_alias(param("note"), "classic"));
  assert_null(rigor_param_lookup(plugin, "nope"));
}

static void test_defaults_and_fill(void **state) {
  (void)state;
  char err[256];
  json_t *d = rigor_params_defaults(plugin, err, sizeof err);
  assert_non_null(d);
  char *text = json_dumps(d, JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(15));
  assert_string_equal(
      text, "{\"bytes\":1048576,\"count\":10,\"flag\":false,\"kernel\":\"triad\","
            "\"note\":\"hello\",\"offset\":-3,\"ratio\":0.5,\"runner\":\"\",\"table\":{}}");
  free(text);
  json_decref(d);

  json_t *values = json_pack("{s:b, s:I, s:s, s:s}", "flag", 1, "bytes", (json_int_t)4096, "kernel",
                             "scale", "note", "n");
  fixture_params_t p;
  memset(&p, 0, sizeof p);
  assert_int_equal(rigor_params_fill(plugin, values, &p, err, sizeof err), 0);
  assert_true(p.flag);
  assert_int_equal(p.offset, -3);
  assert_int_equal(p.count, 10);
  assert_true(p.ratio == 0.5);
  assert_int_equal(p.bytes, 4096);
  assert_string_equal(p.note, "n");
  assert_int_equal(p.kernel, 1);
  assert_string_equal(p.runner, "");
  rigor_params_clear(plugin, &p);
  assert_null(p.note);
  json_decref(values);

  values = json_pack("{s:i}", "bogus", 1);
  assert_int_not_equal(rigor_params_fill(plugin, values, &p, err, sizeof err), 0);
  assert_string_equal(err, "plugin 'cfgfix' has no param 'bogus'");
  json_decref(values);
  values = json_pack("{s:s}", "count", "ten");
  assert_int_not_equal(rigor_params_fill(plugin, values, &p, err, sizeof err), 0);
  assert_string_equal(err, "param 'count' must be a uint");
  json_decref(values);
}

/* JSON params: text defaults parse, values reach the plugin as canonical text, and member keys
 * ("table.size") fold into a copy of the param's object. */
static void test_json_params_and_members(void **state) {
  (void)state;
  convert_ok("table", "{\"b\": [1, \"x\"], \"a\": null}", "{\"b\":[1,\"x\"],\"a\":null}");
  convert_fails("table", "{\"a\": 1, \"a\": 2}",
                "param 'table': not JSON text: duplicate object key near '\"a\"'");
  const char *member = NULL;
  assert_ptr_equal(rigor_param_member(plugin, "table.size", &member), param("table"));
  assert_string_equal(member, "size");
  assert_null(rigor_param_member(plugin, "note.size", &member));
  assert_null(rigor_param_member(plugin, "table.", &member));
  assert_null(rigor_param_member(plugin, "table", &member));

  char err[256];
  json_t *table = json_pack("{s:s, s:s}", "z", "last", "size", "old");
  json_t *values = json_pack("{s:O, s:s, s:s}", "table", table, "table.size", "1K", "table.n", "2");
  fixture_params_t p;
  memset(&p, 0, sizeof p);
  assert_int_equal(rigor_params_fill(plugin, values, &p, err, sizeof err), 0);
  assert_string_equal(p.table, "{\"n\":\"2\",\"size\":\"1K\",\"z\":\"last\"}");
  /* The object the values held is not changed: variants share it. */
  assert_string_equal(json_string_value(json_object_get(table, "size")), "old");
  rigor_params_clear(plugin, &p);
  assert_null(p.table);
  json_decref(values);

  values = json_pack("{s:s}", "table.size", "1K"); /* onto the default {} */
  assert_int_equal(rigor_params_fill(plugin, values, &p, err, sizeof err), 0);
  assert_string_equal(p.table, "{\"size\":\"1K\"}");
  rigor_params_clear(plugin, &p);
  json_decref(values);
  values = json_pack("{s:s}", "note.size", "1K");
  assert_int_not_equal(rigor_params_fill(plugin, values, &p, err, sizeof err), 0);
  assert_string_equal(err, "plugin 'cfgfix' has no param 'note.size'");
  json_decref(values);
  json_decref(table);
}

static void test_sweep_points_and_labels(void **state) {
  (void)state;
  json_t *sweep = json_pack("[{s:s, s:[I, I]}, {s:s, s:[s, s, s]}]", "axis", "bytes", "values",
                            (json_int_t)1024, (json_int_t)1048576, "axis", "kernel", "values",
                            "copy", "add", "dot");
  json_t *points = rigor_sweep_points(sweep);
  assert_int_equal(json_array_size(points), 6);
  const char *expect[] = {"bytes=1KiB, kernel=copy", "bytes=1KiB, kernel=add",
                          "bytes=1KiB, kernel=dot",  "bytes=1MiB, kernel=copy",
                          "bytes=1MiB, kernel=add",  "bytes=1MiB, kernel=dot"};
  for (size_t i = 0; i < 6; i++) {
    char *label = rigor_point_label(plugin, json_array_get(points, i));
    assert_string_equal(label, expect[i]);
    free(label);
  }
  json_decref(points);
  json_decref(sweep);
  json_t *empty = json_array();
  points = rigor_sweep_points(empty);
  assert_int_equal(json_array_size(points), 1);
  assert_int_equal(json_object_size(json_array_get(points, 0)), 0);
  char *label = rigor_point_label(plugin, json_array_get(points, 0));
  assert_string_equal(label, "");
  free(label);
  json_decref(points);
  json_decref(empty);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_type_converts),
      cmocka_unit_test(test_bounds_and_choices),
      cmocka_unit_test(test_format_and_alias),
      cmocka_unit_test(test_defaults_and_fill),
      cmocka_unit_test(test_sweep_points_and_labels),
      cmocka_unit_test(test_json_params_and_members),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}

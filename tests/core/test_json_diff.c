/* Where two configs or identities differ, by dotted path. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "json_diff.h"

static void test_paths_of_changed_added_and_removed_leaves(void **st) {
  (void)st;
  json_t *a = json_loads("{\"params\": {\"bytes\": 1024, \"op\": \"sum\"}, \"order\": [1, 2],"
                         " \"gone\": true}",
                         0, NULL);
  json_t *b = json_loads("{\"params\": {\"bytes\": 2048, \"op\": \"sum\"}, \"order\": [1, 2],"
                         " \"new\": {\"x\": 1}}",
                         0, NULL);
  json_t *d = rigor_json_diff(a, b, "settings");
  assert_int_equal(json_array_size(d), 3);
  json_t *first = json_array_get(d, 0);
  assert_string_equal(json_string_value(json_object_get(first, "path")), "settings.params.bytes");
  assert_string_equal(json_string_value(json_object_get(first, "base")), "1024");
  assert_string_equal(json_string_value(json_object_get(first, "cand")), "2048");
  json_t *gone = json_array_get(d, 1), *added = json_array_get(d, 2);
  assert_string_equal(json_string_value(json_object_get(gone, "path")), "settings.gone");
  assert_true(json_is_null(json_object_get(gone, "cand")));
  assert_string_equal(json_string_value(json_object_get(added, "path")), "settings.new.x");
  assert_true(json_is_null(json_object_get(added, "base")));
  json_decref(d);
  d = rigor_json_diff(a, a, "");
  assert_int_equal(json_array_size(d), 0);
  json_decref(d);
  json_decref(a);
  json_decref(b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_paths_of_changed_added_and_removed_leaves),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

/* `rigor __child SPEC`: the spec is the one serialised form of a run's settings, and the child
 * parses their timing and environment once from it; a setting it refuses is a spec it cannot read,
 * for the run's one instance and for every interleaved arm. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support.h"
#include "wire.h"

#define PLUGIN_DIR RIGOR_BINARY_DIR "/lib/rigor/plugins"

/* Runs the child on a spec of the null plugin with `settings` and, when not NULL, one arm with
 * `arm_settings`. */
static cmd_result_t run_child(const char *settings, const char *arm_settings) {
  char *dir = tmpdir_make();
  char *spec = path_join(dir, "spec.json");
  char text[1024];
  int len = snprintf(text, sizeof text,
                     "{\"experiment\":\"e\",\"plugin\":\"null\",\"plugin_dir\":\"%s\","
                     "\"settings\":%s,\"run\":0,\"attempt\":1,\"block\":0,\"position\":0,"
                     "\"variant\":0,\"commands_allowed\":false,\"allow_unsafe\":false,"
                     "\"deadline_s\":0.0",
                     PLUGIN_DIR, settings);
  if (arm_settings)
    len += snprintf(text + len, sizeof text - (size_t)len,
                    ",\"arms\":[{\"variant\":0,\"settings\":%s,\"plugin_file\":null}],"
                    "\"arm_order\":{\"square\":[[0]],\"first_row\":0}",
                    arm_settings);
  snprintf(text + len, sizeof text - (size_t)len, "}");
  write_file(spec, text);
  const char *args[] = {"__child", spec, NULL};
  cmd_result_t r = rigor_exec(dir, args);
  free(spec);
  tmpdir_remove(dir);
  return r;
}

static void test_refused_timing_is_a_bad_spec(void **state) {
  (void)state;
  cmd_result_t r = run_child("{\"timing\":{\"cycles\":0}}", NULL);
  assert_int_equal(r.exit_code, RIGOR_CHILD_BAD_SPEC);
  assert_non_null(strstr(r.err, "cycles"));
  cmd_result_free(&r);
}

static void test_refused_arm_timing_is_a_bad_spec(void **state) {
  (void)state;
  cmd_result_t r = run_child("{\"timing\":{}}", "{\"timing\":{\"iters\":\"often\"}}");
  assert_int_equal(r.exit_code, RIGOR_CHILD_BAD_SPEC);
  assert_non_null(strstr(r.err, "iters"));
  cmd_result_free(&r);
}

/* The environment is parsed from the spec once too: one it refuses is a bad spec. */
static void test_refused_environment_is_a_bad_spec(void **state) {
  (void)state;
  cmd_result_t r =
      run_child("{\"timing\":{},\"environment\":{\"telemetry\":{\"interval\":0}}}", NULL);
  assert_int_equal(r.exit_code, RIGOR_CHILD_BAD_SPEC);
  assert_non_null(strstr(r.err, "environment.telemetry.interval"));
  cmd_result_free(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_refused_timing_is_a_bad_spec),
      cmocka_unit_test(test_refused_arm_timing_is_a_bad_spec),
      cmocka_unit_test(test_refused_environment_is_a_bad_spec),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

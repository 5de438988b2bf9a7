/* What a file says reaches a terminal with its control characters escaped: a label holding a
 * carriage return and an escape sequence, through plan, the progress lines and the text and
 * markdown reports; an argument holding a newline, through plan's list of commands. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support.h"

/* No raw carriage return or escape, and the label spelled out. */
static void assert_shown_escaped(const char *text) {
  assert_null(strchr(text, '\r'));
  assert_null(strchr(text, '\x1b'));
  assert_non_null(strstr(text, "a\\rb\\x1b[31mred"));
}

static void test_label_with_control_characters(void **st) {
  (void)st;
  char *cfg = config_in(scratch, "t.yaml",
                        "schema: 1\nname: t\nplugin: \"null\"\n"
                        "matrix:\n  spin_ns:\n"
                        "    - {label: \"a\\rb\\e[31mred\", value: 0}\n"
                        "    - {label: c, value: 10}\n"
                        "timing: {warmup: 0, cycles: 2, iters: 20}\noutput: t.jsonl\n");
  const char *plan[] = {"plan", cfg, NULL};
  cmd_result_t r = rigor_exec(scratch, plan);
  assert_int_equal(r.exit_code, 0);
  assert_shown_escaped(r.out);
  cmd_result_free(&r);

  const char *run[] = {"run", cfg, "--verbose", "--no-report", NULL};
  r = rigor_exec(scratch, run);
  assert_int_equal(r.exit_code, 0);
  assert_shown_escaped(r.err);
  cmd_result_free(&r);

  const char *formats[] = {"text", "md"};
  for (size_t i = 0; i < 2; i++) {
    const char *report[] = {"report", "t.jsonl", "--format", formats[i], NULL};
    r = rigor_exec(scratch, report);
    assert_int_equal(r.exit_code, 0);
    assert_shown_escaped(r.out);
    cmd_result_free(&r);
  }
  free(cfg);
}

static void test_command_with_a_newline_stays_on_its_line(void **st) {
  (void)st;
  char *cfg = config_in(scratch, "nl.yaml",
                        "schema: 1\nname: nl\nplugin: exec\n"
                        "params: {command: [echo, \"x\\ny\"]}\noutput: nl.jsonl\n");
  const char *plan[] = {"plan", cfg, NULL};
  cmd_result_t r = rigor_exec(scratch, plan);
  assert_int_equal(r.exit_code, 0);
  assert_non_null(strstr(r.out, "! v0 default: echo $'x\\ny'\n"));
  cmd_result_free(&r);
  free(cfg);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_label_with_control_characters, scratch_setup,
                                      scratch_teardown),
      cmocka_unit_test_setup_teardown(test_command_with_a_newline_stays_on_its_line, scratch_setup,
                                      scratch_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Malformed pto_vf trace lines: each is counted, located (file line) and classified, never
 * fatal, and the good lines around it still parse. */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <unistd.h>

#include <cmocka.h>

#include "pto_vf_scan.h"

#define CORPUS RIGOR_SOURCE_DIR "/tests/badinput/traces/"

typedef struct bad_trace {
  const char *file;
  const char *kind; /* vf_line_status_name of line 3, the damaged one */
} bad_trace_t;

static const bad_trace_t cases[] = {
    {"bad_cycle.dump", "bad_cycle"},     {"binary_junk.dump", "no_cycle"},
    {"no_binary.dump", "no_binary"},     {"no_cycle.dump", "no_cycle"},
    {"no_mnemonic.dump", "no_mnemonic"}, {"no_pc.dump", "no_pc"},
    {"no_pipe.dump", "no_pipe"},         {"nul_byte.dump", "no_pc"},
    {"too_long.dump", "too_long"},
};

static void test_each_bad_line_located(void **st) {
  (void)st;
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char path[512];
    snprintf(path, sizeof path, CORPUS "%s", cases[i].file);
    int fd = open(path, O_RDONLY);
    assert_true(fd >= 0);
    vf_reader_t starts, ends;
    vf_reader_from_memory(&starts, "", 0);
    assert_int_equal(vf_reader_from_fd(&ends, fd), 0);
    vf_summary_t sum;
    vf_summary_init(&sum);
    assert_int_equal(vf_scan_core(&starts, &ends, 1, &sum, NULL, NULL), 0);
    char where[128];
    snprintf(where, sizeof where, "%s:%llu: %s", cases[i].file,
             (unsigned long long)sum.issues[0].line, vf_line_status_name(sum.issues[0].kind));
    char expected[128];
    snprintf(expected, sizeof expected, "%s:3: %s", cases[i].file, cases[i].kind);
    assert_string_equal(where, expected);
    assert_int_equal(sum.n_issues, 1);
    assert_int_equal(sum.issues[0].file, 2); /* the ends of file_base 1 */
    assert_int_equal(sum.malformed, 1);
    assert_int_equal(sum.lines, 5);
    vf_reader_release(&ends);
    close(fd);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_each_bad_line_located),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

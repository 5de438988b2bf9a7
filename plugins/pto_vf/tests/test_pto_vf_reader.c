#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "pto_vf_reader.h"

/* Line lengths around the 64-byte newline blocks, an overlong line that fits the buffer, one that
 * outgrows it, blank and CR-terminated lines. */
static const size_t LENGTHS[] = {
    0,   1,   62,    63,     64,  65,  127, 128, 129, 5,
    300, 0,   70000, 600000, 2,   64,  1,   200, 63,  VF_READER_BUFFER - 1,
    17,  129, 0,     3,      100, 128, 64,  64};

static char *build(size_t n_lines, int final_newline, size_t *size) {
  size_t total = 0;
  for (size_t i = 0; i < n_lines; i++)
    total += LENGTHS[i] + 1;
  char *text = malloc(total);
  assert_non_null(text);
  char *p = text;
  for (size_t i = 0; i < n_lines; i++) {
    memset(p, 'a' + (int)(i % 26), LENGTHS[i]);
    if (LENGTHS[i] > 1 && i % 3 == 0) p[LENGTHS[i] - 1] = '\r';
    p += LENGTHS[i];
    *p++ = '\n';
  }
  *size = final_newline ? total : total - 1;
  return text;
}

/* Every line comes back in order with its number and content; overlong ones are flagged. */
static void check_reader(vf_reader_t *r, const char *text, size_t n_lines, size_t size) {
  const char *line;
  size_t len;
  size_t offset = 0;
  for (size_t i = 0; i < n_lines; offset += LENGTHS[i] + 1, i++) {
    int rc = vf_reader_next(r, &line, &len);
    assert_int_equal(r->line_no, i + 1);
    if (LENGTHS[i] > VF_READER_MAX_LINE) {
      assert_int_equal(rc, VF_READ_TOO_LONG);
      continue;
    }
    assert_int_equal(rc, VF_READ_LINE);
    assert_int_equal(len, LENGTHS[i]);
    if (len > 0) assert_memory_equal(line, text + offset, len);
  }
  assert_int_equal(vf_reader_next(r, &line, &len), VF_READ_EOF);
  assert_int_equal(vf_reader_next(r, &line, &len), VF_READ_EOF);
  assert_int_equal(r->bytes, size);
}

static void read_both_ways(size_t n_lines, int final_newline) {
  size_t size;
  char *text = build(n_lines, final_newline, &size);

  vf_reader_t mem;
  vf_reader_from_memory(&mem, text, size);
  check_reader(&mem, text, n_lines, size);

  char path[] = "/tmp/pto_vf_reader_XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  assert_int_equal(write(fd, text, size), (ssize_t)size);
  assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
  vf_reader_t file;
  assert_int_equal(vf_reader_from_fd(&file, fd), 0);
  check_reader(&file, text, n_lines, size);
  vf_reader_release(&file);
  close(fd);
  unlink(path);
  free(text);
}

static void test_lines_from_memory_and_file(void **state) {
  (void)state;
  size_t n = sizeof LENGTHS / sizeof LENGTHS[0];
  read_both_ways(n, 1);
  read_both_ways(n, 0);
  read_both_ways(3, 0);
}

static void test_empty_input(void **state) {
  (void)state;
  vf_reader_t r;
  const char *line;
  size_t len;
  vf_reader_from_memory(&r, NULL, 0);
  assert_int_equal(vf_reader_next(&r, &line, &len), VF_READ_EOF);
  assert_int_equal(r.line_no, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_lines_from_memory_and_file),
      cmocka_unit_test(test_empty_input),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

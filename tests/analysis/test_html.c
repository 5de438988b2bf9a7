#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "fixture.h"

#define DIR RIGOR_BINARY_DIR "/tests/analysis-html"

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  rewind(f);
  char *buf = malloc((size_t)n + 1);
  buf[fread(buf, 1, (size_t)n, f)] = '\0';
  fclose(f);
  return buf;
}

static long file_size(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

static int screenshot(const char *html, const char *png, const char *log) {
  char cmd[1024];
  snprintf(cmd, sizeof cmd,
           "timeout 60 chromium --headless --no-sandbox --disable-gpu --enable-logging=stderr "
           "--v=0 --window-size=1000,1400 --screenshot=%s file://%s >%s 2>&1",
           png, html, log);
  return system(cmd);
}

static void test_html_report_renders(void **state) {
  (void)state;
  assert_int_equal(system("mkdir -p " DIR), 0);
  fx_spec_t s;
  fx_defaults(&s);
  s.n_variants = 3;
  s.n_blocks = 6;
  s.design = "williams";
  s.raw_telemetry = 1;
  fx_write(DIR "/r.jsonl", &s);
  assert_int_equal(system(RIGOR_EXE " report --format html -o " DIR "/r.html " DIR "/r.jsonl"), 0);
  char *html = slurp(DIR "/r.html");
  assert_non_null(html);
  /* Self-contained: inline SVG, no script, nothing fetched. */
  assert_non_null(strstr(html, "<svg"));
  assert_non_null(strstr(html, "distribution, point bytes=1024"));
  assert_non_null(strstr(html, "cycle by execution position"));
  assert_non_null(strstr(html, "telemetry: cpu_mhz"));
  assert_non_null(strstr(html, "<td class=\"good\">stable</td>"));
  assert_null(strstr(html, "<script"));
  assert_null(strstr(html, "src=\"http"));
  free(html);
  if (system("command -v chromium >/dev/null 2>&1") != 0) {
    print_message("chromium not installed: rendering check skipped\n");
    skip();
  }
  FILE *blank = fopen(DIR "/blank.html", "w");
  assert_non_null(blank);
  fputs("<!DOCTYPE html><html><body></body></html>\n", blank);
  fclose(blank);
  assert_int_equal(screenshot(DIR "/r.html", DIR "/r.png", DIR "/r.log"), 0);
  assert_int_equal(screenshot(DIR "/blank.html", DIR "/blank.png", DIR "/blank.log"), 0);
  /* A white page compresses to a few KB; the report's tables and charts do not. */
  long report = file_size(DIR "/r.png"), empty = file_size(DIR "/blank.png");
  print_message("screenshot %ld bytes, blank page %ld bytes\n", report, empty);
  assert_true(empty > 0);
  assert_true(report > 5 * empty);
  char *log = slurp(DIR "/r.log");
  assert_non_null(log);
  assert_null(strstr(log, "CONSOLE"));
  assert_null(strstr(log, "Uncaught"));
  free(log);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_html_report_renders)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}

#include <math.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "test_files.h"

#include "fixture.h"

#define DIR RIGOR_BINARY_DIR "/tests/analysis-html"

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

/* Nice ticks: within each chart, consecutive numeric labels of the y axis differ by 1, 2 or 5
 * times a power of ten. */
static void assert_nice_ticks(const char *html) {
  size_t checked = 0;
  for (const char *svg = strstr(html, "<svg"); svg; svg = strstr(svg + 1, "<svg")) {
    const char *stop = strstr(svg, "</svg>");
    double prev = NAN;
    for (const char *p = svg; (p = strstr(p, "text-anchor=\"end\">")) && p < stop; p++) {
      const char *v = p + strlen("text-anchor=\"end\">");
      char *end;
      double x = strtod(v, &end);
      if (end == v || *end != '<') continue; /* a label with a unit, or a variant's name */
      if (isfinite(prev)) {
        double d = fabs(x - prev), mantissa = d / pow(10, floor(log10(d)));
        bool nice = fabs(mantissa - 1) < 1e-6 || fabs(mantissa - 2) < 1e-6 ||
                    fabs(mantissa - 5) < 1e-6 || fabs(mantissa - 10) < 1e-6;
        if (!nice) print_message("tick step %g (from %g to %g) is not 1-2-5\n", d, prev, x);
        assert_true(nice);
        checked++;
      }
      prev = x;
    }
  }
  assert_true(checked > 4);
}

/* No two labels of a chart on one line overlap: tick labels, block labels. Widths are estimated
 * below what Chromium draws (6px a character at 12px, 5px at 10px), so an overlap found here is
 * an overlap on the page. */
static void assert_no_overlapping_labels(const char *html) {
  enum { MAX = 4096 };
  static double x0[MAX], x1[MAX], ys[MAX];
  for (const char *svg = strstr(html, "<svg"); svg; svg = strstr(svg + 1, "<svg")) {
    const char *stop = strstr(svg, "</svg>");
    size_t n = 0;
    for (const char *p = svg; (p = strstr(p, "<text ")) && p < stop && n < MAX; p++) {
      const char *close = strchr(p, '>'), *end = strstr(p, "</text>");
      if (!close || !end || strstr(p, "transform=") < close) continue; /* turned: not on a line */
      double x, y;
      if (sscanf(p, "<text x=\"%lf\" y=\"%lf\"", &x, &y) != 2) continue;
      size_t chars = 0;
      for (const char *c = close + 1; c < end; c++)
        chars += ((unsigned char)*c & 0xC0) != 0x80;
      bool small = strstr(p, "class=\"small\"") && strstr(p, "class=\"small\"") < close;
      double w = (double)chars * (small ? 5 : 6);
      const char *anchor = strstr(p, "text-anchor=\"");
      bool middle = anchor && anchor < close && strncmp(anchor + 13, "middle", 6) == 0;
      bool end_anchor = anchor && anchor < close && strncmp(anchor + 13, "end", 3) == 0;
      x0[n] = middle ? x - w / 2 : end_anchor ? x - w : x;
      x1[n] = x0[n] + w;
      ys[n++] = y;
    }
    for (size_t i = 0; i < n; i++)
      for (size_t j = i + 1; j < n; j++)
        if (fabs(ys[i] - ys[j]) < 6 && x0[i] < x1[j] && x0[j] < x1[i]) {
          print_message("labels overlap at y %g: [%g, %g] and [%g, %g]\n", ys[i], x0[i], x1[i],
                        x0[j], x1[j]);
          fail();
        }
  }
}

/* Every axis of times on the page reads in one unit. */
static void assert_one_time_unit(const char *html) {
  const char *key = "time per operation (";
  char first[16] = "";
  size_t seen = 0;
  for (const char *p = strstr(html, key); p; p = strstr(p + 1, key)) {
    char unit[16];
    if (sscanf(p + strlen(key), "%15[^,)]", unit) != 1) continue;
    if (!seen++) snprintf(first, sizeof first, "%s", unit);
    if (strcmp(unit, first) != 0) print_message("time in %s and in %s\n", first, unit);
    assert_string_equal(unit, first);
  }
  assert_true(seen >= 2);
}

/* Chart labels are built from the parts that exist: no leading colon, no trailing comma. */
static void assert_whole_labels(const char *html) {
  assert_null(strstr(html, "\">: "));
  assert_null(strstr(html, ",</text>"));
  assert_null(strstr(html, ", </text>"));
}

static void assert_every_verdict_in_legend(const char *html) {
  static const char *const verdicts[] = {"same",    "faster",       "slower",       "inconclusive",
                                         "invalid", "incomparable", "undetermined", "missing"};
  for (size_t i = 0; i < sizeof verdicts / sizeof *verdicts; i++) {
    char item[64];
    snprintf(item, sizeof item, "&#9632;</span> %s", verdicts[i]);
    if (!strstr(html, item)) print_message("the legend does not name %s\n", verdicts[i]);
    assert_non_null(strstr(html, item));
  }
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
  char *html = test_slurp(DIR "/r.html", NULL);
  assert_non_null(html);
  /* Self-contained: inline SVG, no script, nothing fetched. */
  assert_non_null(strstr(html, "<svg"));
  assert_non_null(strstr(html, "samples per variant, point bytes=1024"));
  assert_non_null(strstr(html, "cycles in execution order, point bytes=1024"));
  /* Charts scale to the page, name their axes with one unit each, separate the schedule's
   * blocks, show an interval on each median, and use the Okabe-Ito palette. */
  assert_non_null(strstr(html, "viewBox=\"0 0 "));
  assert_non_null(strstr(html, "time per operation (µs)"));
  assert_non_null(strstr(html, "run, in execution order"));
  assert_non_null(strstr(html, ">block 1</text>"));
  assert_non_null(strstr(html, "95% interval of the median over runs"));
  assert_non_null(strstr(html, "fill=\"#0072B2\""));
  assert_null(strstr(html, "#d62728"));
  assert_null(strstr(html, ">-0<"));
  assert_null(strstr(html, " us<"));
  assert_nice_ticks(html);
  assert_no_overlapping_labels(html);
  assert_one_time_unit(html);
  assert_whole_labels(html);
  assert_every_verdict_in_legend(html);
  assert_non_null(strstr(html, "telemetry: cpu_mhz"));
  assert_non_null(strstr(html, "<td class=\"good\">stable</td>"));
  assert_null(strstr(html, "<script"));
  assert_null(strstr(html, "src=\"http"));
  free(html);
  /* The contrasts page of the same file: a forest plot with whole labels and every verdict. */
  int rc = system(RIGOR_EXE " compare --axis timing.warmup --format html -o " DIR "/axis.html " DIR
                            "/r.jsonl");
  assert_true(rc == 0 || rc == 4 << 8);
  html = test_slurp(DIR "/axis.html", NULL);
  assert_non_null(html);
  assert_non_null(strstr(html, "<h4>contrasts: level / reference (right of 1 is slower)</h4>"));
  assert_no_overlapping_labels(html);
  assert_whole_labels(html);
  assert_every_verdict_in_legend(html);
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
  assert_int_equal(screenshot(DIR "/axis.html", DIR "/axis.png", DIR "/axis.log"), 0);
  assert_true(file_size(DIR "/axis.png") > 10000);
  assert_int_equal(screenshot(DIR "/blank.html", DIR "/blank.png", DIR "/blank.log"), 0);
  /* A white page compresses to a few KB; the report's tables and charts do not. */
  long report = file_size(DIR "/r.png"), empty = file_size(DIR "/blank.png");
  print_message("screenshot %ld bytes, blank page %ld bytes\n", report, empty);
  assert_true(empty > 0);
  assert_true(report > 5 * empty);
  char *log = test_slurp(DIR "/r.log", NULL);
  assert_non_null(log);
  assert_null(strstr(log, "CONSOLE"));
  assert_null(strstr(log, "Uncaught"));
  free(log);
}

/* An nccl-tests style size sweep: bandwidth against size, log-scaled over its decades. */
static void test_html_size_sweep(void **state) {
  (void)state;
  assert_int_equal(system("mkdir -p " DIR), 0);
  fx_spec_t s;
  fx_defaults(&s);
  s.points = 12;
  s.bytes = 1 << 20;
  fx_write(DIR "/sweep.jsonl", &s);
  assert_int_equal(
      system(RIGOR_EXE " report --format html -o " DIR "/sweep.html " DIR "/sweep.jsonl"), 0);
  char *html = test_slurp(DIR "/sweep.html", NULL);
  assert_non_null(html);
  assert_non_null(strstr(html, "<h4>median rate against bytes</h4>"));
  assert_non_null(strstr(html, ">bytes (log scale)</text>"));
  /* The fixture's plugin declares no size param: plain numbers, decades on a log axis. */
  assert_non_null(strstr(html, ">1000</text>"));
  assert_non_null(strstr(html, ">1e6</text>"));
  assert_null(strstr(html, "e+0"));
  assert_non_null(strstr(html, "<polyline"));
  assert_nice_ticks(html);
  free(html);
  /* The compare page of two such files: both contexts and a forest plot. */
  s.slowdown = 0.05;
  s.seed = 7;
  fx_write(DIR "/sweep2.jsonl", &s);
  assert_int_equal(system(RIGOR_EXE " compare --session-noise 0 --format html " DIR
                                    "/sweep.jsonl " DIR "/sweep2.jsonl > " DIR "/compare.html"),
                   4 << 8); /* exit 4: the candidate is slower */
  html = test_slurp(DIR "/compare.html", NULL);
  assert_non_null(html);
  assert_non_null(strstr(html, "<h4>CAND / BASE (right of 1 is slower)</h4>"));
  assert_non_null(strstr(html, "<th>BASE</th><th>CAND</th>"));
  /* The why column wraps rather than pushing the table past the page's edge. */
  assert_non_null(strstr(html, "<td class=\"text prose\">"));
  assert_whole_labels(html);
  assert_every_verdict_in_legend(html);
  free(html);
  if (system("command -v chromium >/dev/null 2>&1") != 0) {
    print_message("chromium not installed: rendering check skipped\n");
    skip();
  }
  const char *pages[] = {DIR "/sweep.html", DIR "/compare.html"};
  for (size_t i = 0; i < 2; i++) {
    assert_int_equal(screenshot(pages[i], DIR "/page.png", DIR "/page.log"), 0);
    assert_true(file_size(DIR "/page.png") > 10000);
    char *log = test_slurp(DIR "/page.log", NULL);
    assert_non_null(log);
    assert_null(strstr(log, "CONSOLE"));
    assert_null(strstr(log, "Uncaught"));
    free(log);
  }
}

/* Forty blocks: their labels and the run axis's are thinned so that none overprint. */
static void test_html_many_blocks(void **state) {
  (void)state;
  assert_int_equal(system("mkdir -p " DIR), 0);
  fx_spec_t s;
  fx_defaults(&s);
  s.n_variants = 2;
  s.n_blocks = 40;
  s.cycles = 3;
  s.outlier = 200; /* one stall: the time axis goes log, in the page's unit */
  fx_write(DIR "/blocks.jsonl", &s);
  assert_int_equal(
      system(RIGOR_EXE " report --format html -o " DIR "/blocks.html " DIR "/blocks.jsonl"), 0);
  char *html = test_slurp(DIR "/blocks.html", NULL);
  assert_non_null(html);
  assert_non_null(strstr(html, ">block 1</text>"));
  assert_null(strstr(html, ">block 2</text>")); /* one run a block: too close to the first */
  assert_no_overlapping_labels(html);
  assert_one_time_unit(html);
  assert_whole_labels(html);
  free(html);
  if (system("command -v chromium >/dev/null 2>&1") != 0) {
    print_message("chromium not installed: rendering check skipped\n");
    skip();
  }
  assert_int_equal(screenshot(DIR "/blocks.html", DIR "/blocks.png", DIR "/blocks.log"), 0);
  assert_true(file_size(DIR "/blocks.png") > 10000);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_html_report_renders),
                                     cmocka_unit_test(test_html_size_sweep),
                                     cmocka_unit_test(test_html_many_blocks)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}

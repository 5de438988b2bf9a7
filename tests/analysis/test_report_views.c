/* What a report shows people and programs: the context header in every format, one unit per
 * column, one column per axis, the text fitted to a width, --table and --columns, and a CSV that
 * Python's csv module reads into numbers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "fixture.h"
#include "test_files.h"

#define DIR RIGOR_BINARY_DIR "/tests/analysis-views"

/* Runs `env ... rigor ARGS` (COLUMNS unset unless the args set it), stdout and stderr together. */
static int run_rigor(const char *args, char **out) {
  char cmd[4096];
  snprintf(cmd, sizeof cmd, "env -u COLUMNS %s 2>&1", args);
  return test_capture(cmd, out);
}

#define RIGOR RIGOR_EXE " "

/* Display columns of one line: UTF-8 continuation bytes take none. */
static size_t widest_line(const char *s) {
  size_t widest = 0, w = 0;
  for (; *s; s++) {
    if (*s == '\n') {
      widest = w > widest ? w : widest;
      w = 0;
    } else if (((unsigned char)*s & 0xC0) != 0x80) {
      w++;
    }
  }
  return w > widest ? w : widest;
}

static int setup(void **state) {
  (void)state;
  if (system("mkdir -p " DIR) != 0) return -1;
  fx_spec_t s;
  fx_defaults(&s);
  s.n_variants = 2;
  s.n_blocks = 4;
  s.points = 3;
  s.bytes = 1 << 20;
  fx_write(DIR "/r.jsonl", &s);
  return 0;
}

static void test_context_in_every_format(void **state) {
  (void)state;
  char *out;
  assert_int_equal(run_rigor(RIGOR "report " DIR "/r.jsonl", &out), 0);
  assert_non_null(strstr(out, "\nhost     "));
  assert_non_null(strstr(out, "\ncpu      Test CPU 9000"));
  assert_non_null(strstr(out, "\nplugin   null 1.0"));
  assert_non_null(strstr(out, "\nconfig   "));
  assert_non_null(strstr(out, "\nresults  " DIR "/r.jsonl"));
  /* The context comes before the first table. */
  assert_true(strstr(out, "\nhost ") < strstr(out, "statistics per variant"));
  free(out);
  assert_int_equal(run_rigor(RIGOR "report --format md " DIR "/r.jsonl", &out), 0);
  assert_non_null(strstr(out, "- **cpu**: Test CPU 9000"));
  free(out);
  assert_int_equal(run_rigor(RIGOR "report --format html " DIR "/r.jsonl", &out), 0);
  assert_non_null(strstr(out, "<table class=\"context\">"));
  assert_non_null(strstr(out, "<th>cpu</th><td>Test CPU 9000"));
  free(out);
  assert_int_equal(run_rigor(RIGOR "report --format csv --table context " DIR "/r.jsonl", &out), 0);
  assert_non_null(strstr(out, "experiment,field,value\n"));
  assert_non_null(strstr(out, "exp,cpu,Test CPU 9000\n"));
  free(out);
  assert_int_equal(run_rigor(RIGOR "report --format json " DIR "/r.jsonl", &out), 0);
  assert_non_null(strstr(out, "\"cpu_model\": \"Test CPU 9000\""));
  free(out);
}

static void test_columns_read(void **state) {
  (void)state;
  char *out;
  assert_int_equal(run_rigor(RIGOR "report --width 0 " DIR "/r.jsonl", &out), 0);
  /* One column per axis, one unit per column in its header, µs spelled so. */
  assert_non_null(strstr(out, "timing.warmup  bytes   n  median (µs)"));
  assert_null(strstr(out, " us "));
  const char *stats = strstr(out, "statistics per variant"), *end = strstr(out, "runs per variant");
  assert_true(stats && end && stats < end);
  assert_null(memmem(stats, (size_t)(end - stats), "bytes=", 6)); /* the axis, not a label */
  /* A bus factor of 1 and a plugin other than stream: no busbw, no best rate, no flops. */
  assert_non_null(strstr(out, "rate (GB/s)"));
  assert_null(strstr(out, "busbw"));
  assert_null(strstr(out, "best"));
  assert_null(strstr(out, "flops"));
  /* Kalibera & Jones without between-run variance say so, not a capped suggestion. */
  assert_non_null(strstr(out, "no between-run variance"));
  assert_null(strstr(out, "1000 / 1000"));
  free(out);
  assert_int_equal(run_rigor(RIGOR "report --format md " DIR "/r.jsonl", &out), 0);
  assert_non_null(strstr(out, "| timing.warmup | bytes | n | median (µs) |"));
  free(out);
}

/* Real runs of the null plugin: busbw only with a bus factor other than 1, and the sweep's size
 * axis a column of sizes (bytes in CSV). Windows of 200 us: far above the too-short floor (100
 * clock reads), which a sanitized build on a busy machine raised past windows of 10 us. */
static void test_rates_that_apply(void **state) {
  (void)state;
  const char *factors[] = {"1", "1.5"};
  for (int k = 0; k < 2; k++) {
    char yaml[1024], cmd[2048];
    snprintf(yaml, sizeof yaml,
             "schema: 1\nname: rates\nplugin: null\nparams: {spin_ns: 2000, bus_factor: %s}\n"
             "sweep: {bytes: [1KiB, 1MiB]}\ntiming: {warmup: 1, cycles: 3, iters: 100}\n"
             "output: " DIR "/rates%d.jsonl\n",
             factors[k], k);
    char path[512];
    snprintf(path, sizeof path, DIR "/rates%d.yaml", k);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(yaml, f);
    fclose(f);
    char *out;
    snprintf(cmd, sizeof cmd, RIGOR "run %s --force --quiet", path);
    assert_int_equal(run_rigor(cmd, &out), 0);
    free(out);
    snprintf(cmd, sizeof cmd, RIGOR "report --width 0 " DIR "/rates%d.jsonl", k);
    assert_int_equal(run_rigor(cmd, &out), 0);
    assert_non_null(strstr(out, "\nbytes  n  median (")); /* the unit follows the data */
    assert_non_null(strstr(out, "\n 1KiB "));
    assert_non_null(strstr(out, "rate ("));
    if (k == 0)
      assert_null(strstr(out, "busbw"));
    else
      assert_non_null(strstr(out, "busbw ("));
    assert_null(strstr(out, "best ("));
    free(out);
    snprintf(cmd, sizeof cmd, RIGOR "report --format csv " DIR "/rates%d.jsonl", k);
    assert_int_equal(run_rigor(cmd, &out), 0);
    assert_non_null(strstr(out, "\nrates,1048576,"));
    assert_true(k == 0 || strstr(out, ",busbw_bytes_per_s,"));
    free(out);
  }
}

static void test_text_fits_the_width(void **state) {
  (void)state;
  char *out;
  assert_int_equal(run_rigor(RIGOR "report --width 0 " DIR "/r.jsonl", &out), 0);
  assert_true(widest_line(out) > 100);
  free(out);
  assert_int_equal(run_rigor("COLUMNS=80 " RIGOR "report " DIR "/r.jsonl", &out), 0);
  assert_true(widest_line(out) <= 80);
  assert_non_null(strstr(out, "left out to fit 80 columns"));
  free(out);
  assert_int_equal(run_rigor(RIGOR "report --width 100 " DIR "/r.jsonl", &out), 0);
  assert_true(widest_line(out) <= 100);
  free(out);
  assert_int_equal(run_rigor(RIGOR "report --width lots " DIR "/r.jsonl", &out), 2);
  assert_non_null(strstr(out, "--width takes a number of columns"));
  free(out);
}

static void test_table_and_columns(void **state) {
  (void)state;
  char *out;
  assert_int_equal(
      run_rigor(RIGOR "report --columns bytes,median,verdict --width 0 " DIR "/r.jsonl", &out), 0);
  assert_non_null(strstr(out, "bytes  median (µs)  verdict"));
  assert_null(strstr(out, "P95"));
  assert_non_null(strstr(out, "runs per variant")); /* other tables stay */
  free(out);
  assert_int_equal(run_rigor(RIGOR "report --table gate --width 0 " DIR "/r.jsonl", &out), 0);
  assert_non_null(strstr(out, "\ngate ("));
  assert_null(strstr(out, "statistics per variant"));
  assert_non_null(strstr(out, "\nhost ")); /* the context stays */
  free(out);
  assert_int_equal(run_rigor(RIGOR "report --table nope " DIR "/r.jsonl", &out), 2);
  assert_non_null(strstr(out, "no table 'nope' in this report (tables: context, statistics"));
  free(out);
  assert_int_equal(run_rigor(RIGOR "report --columns nope " DIR "/r.jsonl", &out), 2);
  assert_non_null(strstr(out, "table 'statistics' has no column 'nope' (columns: timing.warmup"));
  free(out);
}

/* The CSV loads with Python's csv module: one header row, one table, numbers in SI base units. */
static void test_csv_is_tidy(void **state) {
  (void)state;
  char *out;
  assert_int_equal(run_rigor(RIGOR "report --format csv -o " DIR "/r.csv " DIR "/r.jsonl", &out),
                   0);
  free(out);
  FILE *py = fopen(DIR "/check.py", "w");
  assert_non_null(py);
  fputs("import csv, math, sys\n"
        "rows = list(csv.DictReader(open(sys.argv[1], newline='')))\n"
        "assert len(rows) == 6, len(rows)\n"
        "numeric = ['timing.warmup', 'bytes', 'n', 'median_s', 'p95_s', 'mean_s', 'sd_s', 'cv',\n"
        "           'min_s', 'max_s', 'rate_bytes_per_s', 'wrong']\n"
        "for r in rows:\n"
        "    for k in numeric:\n"
        "        v = float(r[k])\n"
        "        assert math.isfinite(v), (k, r[k])\n"
        "    assert 5e-5 < float(r['median_s']) < 1e-3, r['median_s']\n"
        "    assert float(r['rate_bytes_per_s']) > 1e9, r['rate_bytes_per_s']\n"
        "    assert r['verdict'] in ('stable', 'unstable', 'too few'), r['verdict']\n"
        "assert sorted({int(r['bytes']) for r in rows}) == [1024, 2048, 4096]\n"
        "assert not any(c.startswith('#') for r in rows for c in r.values())\n"
        "print('csv ok')\n",
        py);
  fclose(py);
  assert_int_equal(run_rigor("python3 " DIR "/check.py " DIR "/r.csv", &out), 0);
  assert_non_null(strstr(out, "csv ok"));
  free(out);
  /* Another table, as its own file. */
  assert_int_equal(run_rigor(RIGOR "report --format csv --table gate " DIR "/r.jsonl", &out), 0);
  assert_non_null(strstr(out, "experiment,timing.warmup,bytes,"));
  assert_null(strstr(out, "statistics"));
  assert_null(strstr(out, "%"));
  free(out);
}

static void test_compare_views(void **state) {
  (void)state;
  fx_spec_t s;
  fx_defaults(&s);
  s.cycles = 10;
  s.cv = 0.01;
  fx_write(DIR "/base.jsonl", &s);
  s.slowdown = 0.05;
  s.seed = 99;
  fx_write(DIR "/cand.jsonl", &s);
  char *out;
  assert_int_equal(run_rigor(RIGOR "compare --session-noise 0 --width 0 " DIR "/base.jsonl " DIR
                                   "/cand.jsonl",
                             &out),
                   4);
  assert_non_null(strstr(out, "BASE"));
  assert_non_null(strstr(out, "\ncpu      Test CPU 9000"));
  free(out);
  assert_int_equal(run_rigor(RIGOR "compare --session-noise 0 --format csv " DIR "/base.jsonl " DIR
                                   "/cand.jsonl",
                             &out),
                   4);
  assert_non_null(strstr(out, "experiment,variant,point,base_median_s,cand_median_s,change,"));
  assert_non_null(strstr(out, ",ci_low,ci_high,"));
  free(out);
  assert_int_equal(run_rigor(RIGOR "compare --session-noise 0 --format html " DIR "/base.jsonl " DIR
                                   "/cand.jsonl",
                             &out),
                   4);
  assert_non_null(strstr(out, "<h4>CAND / BASE (right of 1 is slower)</h4>"));
  assert_non_null(strstr(out, "<th>BASE</th><th>CAND</th>"));
  assert_non_null(strstr(out, "fill=\"#D55E00\"")); /* the slower row, Okabe-Ito vermillion */
  free(out);
  assert_int_equal(
      run_rigor(RIGOR "compare --table nope " DIR "/base.jsonl " DIR "/cand.jsonl", &out), 2);
  assert_non_null(strstr(out, "no table 'nope'"));
  free(out);
}

/* A real null run whose windows are all too short: the report says why the row has no data and
 * what to change. */
static void test_no_data_says_why(void **state) {
  (void)state;
  FILE *f = fopen(DIR "/short.yaml", "w");
  assert_non_null(f);
  fputs("schema: 1\nname: short\nplugin: \"null\"\ntiming: {warmup: 0, cycles: 5, iters: 1}\n", f);
  fclose(f);
  char *out;
  assert_int_equal(
      run_rigor(RIGOR "run -q --force " DIR "/short.yaml -o " DIR "/short.jsonl", &out), 0);
  free(out);
  assert_int_equal(run_rigor(RIGOR "report " DIR "/short.jsonl", &out), 0);
  if (!strstr(out, "no data: all 5 windows too_short") || !strstr(out, "use iters: auto"))
    fail_msg("%s", out);
  free(out);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_context_in_every_format), cmocka_unit_test(test_columns_read),
      cmocka_unit_test(test_rates_that_apply),        cmocka_unit_test(test_text_fits_the_width),
      cmocka_unit_test(test_table_and_columns),       cmocka_unit_test(test_csv_is_tidy),
      cmocka_unit_test(test_compare_views),           cmocka_unit_test(test_no_data_says_why),
  };
  return cmocka_run_group_tests(tests, setup, NULL);
}

/* rigor store and rigor history as a user runs them, against SQLite and PostgreSQL (argv[1]):
 * series, change points, the CI gate's exit codes, the formats, the page in Chromium. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cmocka.h>
#include <jansson.h>

#include "support.h"

static hx_backend_t backend;

typedef struct fixture {
  char url[1024];
  char dir[512];
} fixture_t;

static int setup(void **state) {
  static int serial;
  fixture_t *f = calloc(1, sizeof *f);
  char name[64];
  snprintf(name, sizeof name, "rigor_history_%s_%d", hx_backend_name(backend), serial++);
  hx_fresh_db(backend, name, f->url, sizeof f->url);
  snprintf(f->dir, sizeof f->dir, "%s", hx_scratch(name));
  *state = f;
  return 0;
}

static int teardown(void **state) {
  free(*state);
  return 0;
}

/* Runs a shell command line; returns its exit status, its output in f->dir/out.txt. */
static int sh(const fixture_t *f, const char *fmt, ...) {
  char cmd[4096];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(cmd, sizeof cmd, fmt, ap);
  va_end(ap);
  snprintf(cmd + n, sizeof cmd - (size_t)n, " >'%s/out.txt' 2>&1", f->dir);
  int st = system(cmd);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static char *output(const fixture_t *f) {
  char path[600];
  snprintf(path, sizeof path, "%s/out.txt", f->dir);
  return hx_slurp(path);
}

static void expect_output(const fixture_t *f, const char *text) {
  char *out = output(f);
  if (!out || !strstr(out, text)) fail_msg("expected '%s' in:\n%s", text, out ? out : "(none)");
  free(out);
}

/* Commits c00, c01, ... a minute apart; the level rises by `step` from commit `step_at` on. */
static void history(const fixture_t *f, int commits, int step_at, double step, hx_spec_t *spec) {
  for (int i = 0; i < commits; i++) {
    char path[600], created[40];
    snprintf(path, sizeof path, "%s/c%02d.jsonl", f->dir, i);
    snprintf(created, sizeof created, "2024-01-01T00:%02d:00.000Z", i);
    hx_spec_t s = *spec;
    s.created = created;
    s.seed = (uint64_t)(i + 1) * 7919;
    s.level = spec->level * (i >= step_at ? 1 + step : 1);
    hx_write(path, &s);
    assert_int_equal(sh(f,
                        RIGOR_EXE " store add '%s' --db '%s' --commit c%02d --date "
                                  "2024-01-01T00:%02d:00Z --quiet",
                        path, f->url, i, i),
                     0);
  }
}

static json_t *history_json(const fixture_t *f, const char *extra) {
  char path[600];
  snprintf(path, sizeof path, "%s/history.json", f->dir);
  assert_int_equal(
      sh(f, RIGOR_EXE " history --db '%s' --format json -o '%s' %s", f->url, path, extra), 0);
  json_error_t e;
  json_t *doc = json_load_file(path, 0, &e);
  if (!doc) fail_msg("%s: %s", path, e.text);
  assert_string_equal(json_string_value(json_object_get(doc, "schema")), "rigor.history/1");
  return doc;
}

static json_t *series_named(json_t *doc, const char *name) {
  size_t i;
  json_t *s;
  json_array_foreach(json_object_get(doc, "series"), i, s) {
    if (strcmp(json_string_value(json_object_get(s, "name")), name) == 0) return s;
  }
  fail_msg("no series %s", name);
  return NULL;
}

static void test_step_is_one_change_point(void **state) {
  fixture_t *f = *state;
  hx_spec_t spec;
  hx_defaults(&spec);
  spec.metric = "throughput";
  spec.metric_value = 1.0;
  history(f, 30, 20, 0.05, &spec);
  json_t *doc = history_json(f, "");
  assert_int_equal(json_array_size(json_object_get(doc, "commits")), 30);
  assert_int_equal(json_array_size(json_object_get(doc, "series")), 2);
  /* Time goes up and throughput down: both are regressions, at c20 and nowhere else. */
  const char *names[] = {"hist/default/kernels=triad/time",
                         "hist/default/kernels=triad/throughput"};
  for (int k = 0; k < 2; k++) {
    json_t *s = series_named(doc, names[k]);
    assert_string_equal(json_string_value(json_object_get(s, "better")), k ? "higher" : "lower");
    assert_int_equal(json_array_size(json_object_get(s, "points")), 30);
    json_t *cps = json_object_get(s, "change_points");
    assert_int_equal(json_array_size(cps), 1);
    json_t *cp = json_array_get(cps, 0);
    assert_string_equal(json_string_value(json_object_get(cp, "commit")), "c20");
    assert_string_equal(json_string_value(json_object_get(cp, "kind")), "regression");
    double change = json_real_value(json_object_get(cp, "change"));
    double lo = json_real_value(json_object_get(cp, "ci_low"));
    double hi = json_real_value(json_object_get(cp, "ci_high"));
    assert_true(k ? change < -0.03 && change > -0.07 : change > 0.03 && change < 0.07);
    assert_true(lo < change && change < hi);
    assert_true(json_real_value(json_object_get(cp, "p")) < 0.001);
    json_t *pt = json_array_get(json_object_get(s, "points"), 20);
    assert_true(json_is_true(json_object_get(pt, "change_point")));
    assert_int_equal(json_integer_value(json_object_get(pt, "runs")), 3);
    if (k == 0)
      assert_true(json_real_value(json_object_get(pt, "ci_low")) <
                  json_real_value(json_object_get(pt, "ci_high")));
    else
      assert_true(json_is_null(json_object_get(pt, "ci_low")));
  }
  json_decref(doc);
  /* The text report says the same. */
  assert_int_equal(sh(f, RIGOR_EXE " history --db '%s' --series time", f->url), 0);
  expect_output(f, "change points\ncommit");
  expect_output(f, "\nc20     +");
  expect_output(f, "regression\n");
  expect_output(f, "1 series over 30 commits: 1 change points, 1 regressions");
  /* A filter that matches nothing prints that. */
  assert_int_equal(sh(f, RIGOR_EXE " history --db '%s' --series 'nope*'", f->url), 0);
  expect_output(f, "no series");
}

static void test_check_exit_codes(void **state) {
  fixture_t *f = *state;
  hx_spec_t spec;
  hx_defaults(&spec);
  /* 5% from c20 on, then 25% more at c29. */
  history(f, 29, 20, 0.05, &spec);
  char path[600];
  snprintf(path, sizeof path, "%s/c29.jsonl", f->dir);
  hx_spec_t jump = spec;
  jump.created = "2024-01-01T00:29:00.000Z";
  jump.level = spec.level * 1.05 * 1.25;
  hx_write(path, &jump);
  assert_int_equal(sh(f,
                      RIGOR_EXE " store add '%s' --db '%s' --commit c29 --date "
                                "2024-01-01T00:29:00Z --quiet",
                      path, f->url),
                   0);
  assert_int_equal(sh(f, RIGOR_EXE " history check --db '%s' --commit c29", f->url), 4);
  expect_output(f, "regression hist/default/kernels=triad/time: a regression change point opens "
                   "here: +");
  expect_output(f, "c29: 1 series, 1 regressions: REGRESSION");
  /* One commit after a 5% step is too little for the detector at p 0.001: not opened there,
   * and the check says so; a few commits on, the step shows, found late, at c20. */
  assert_int_equal(sh(f, RIGOR_EXE " history check --db '%s' --commit c20", f->url), 0);
  expect_output(f, "no change point opens here (detector over 21 stable points)");
  int found_at = -1;
  for (int i = 21; i < 29 && found_at < 0; i++) {
    assert_int_equal(sh(f, RIGOR_EXE " history check --db '%s' --commit c%02d", f->url, i), 0);
    char *out = output(f);
    if (strstr(out, "a regression change point shows at c20")) found_at = i;
    free(out);
  }
  print_message("the 5%% step at c20 shows from c%02d on\n", found_at);
  assert_true(found_at > 20);
  assert_int_equal(sh(f, RIGOR_EXE " history check --db '%s' --commit c19", f->url), 0);
  expect_output(f, "no change point opens here (detector over 20 stable points)");
  assert_int_equal(sh(f, RIGOR_EXE " history check --db '%s' --commit c29 --format json", f->url),
                   4);
  expect_output(f, "\"schema\": \"rigor.history-check/1\"");
  expect_output(f, "\"method\": \"detector\"");
  assert_int_equal(sh(f, RIGOR_EXE " history check --db '%s' --commit zzzz", f->url), 2);
  expect_output(f, "commit 'zzzz' has no results in the store");
  assert_int_equal(sh(f, RIGOR_EXE " history check --db '%s' --commit c20 --window 1", f->url), 2);
  assert_int_equal(sh(f, RIGOR_EXE " history --db '%s' --format pdf", f->url), 2);
}

static void test_short_history_uses_ab(void **state) {
  fixture_t *f = *state;
  hx_spec_t spec;
  hx_defaults(&spec);
  spec.runs = 4;
  spec.sd_run = 0.01;
  history(f, 5, 4, 0.10, &spec);
  /* Four earlier commits measure the variation between sessions: the 10% step is slower. */
  assert_int_equal(sh(f, RIGOR_EXE " history check --db '%s' --commit c04", f->url), 4);
  expect_output(f, "5 stable points < 8: A/B against c03 (4 and 4 runs): slower, median +");
  expect_output(f, "(the spread of 4 earlier commits)");
  /* No step: four runs a side with a 1% run spread cannot show "same" within 2%. */
  assert_int_equal(sh(f, RIGOR_EXE " history check --db '%s' --commit c03", f->url), 0);
  expect_output(f, "A/B against c02 (4 and 4 runs): inconclusive");
  expect_output(f, "the observed spread calls for");
  /* With fewer earlier commits the default allowance keeps a 1% run spread from deciding. */
  assert_int_equal(sh(f, RIGOR_EXE " history check --db '%s' --commit c01", f->url), 0);
  expect_output(f, "A/B against c00 (4 and 4 runs): inconclusive");
  expect_output(f, "(the default: fewer than 3 earlier commits)");
  assert_int_equal(sh(f, RIGOR_EXE " history check --db '%s' --commit c00", f->url), 0);
  expect_output(f, "nothing to compare with");
}

static void test_one_run_is_no_verdict(void **state) {
  fixture_t *f = *state;
  hx_spec_t spec;
  hx_defaults(&spec);
  spec.runs = 1;
  spec.cycles = 10;
  history(f, 2, 1, 0.20, &spec);
  assert_int_equal(sh(f, RIGOR_EXE " history check --db '%s' --commit c01", f->url), 0);
  expect_output(f, "not judged");
  expect_output(f, "two runs a side");
}

static void test_unstable_point_left_out(void **state) {
  fixture_t *f = *state;
  hx_spec_t spec;
  hx_defaults(&spec);
  history(f, 12, 99, 0, &spec);
  char path[600];
  snprintf(path, sizeof path, "%s/noisy.jsonl", f->dir);
  hx_spec_t noisy = spec;
  noisy.created = "2024-01-01T01:00:00.000Z";
  noisy.sd_cycle = 0.4;
  noisy.level = spec.level * 1.5;
  hx_write(path, &noisy);
  assert_int_equal(sh(f,
                      RIGOR_EXE " store add '%s' --db '%s' --commit c99 --date "
                                "2024-01-01T01:00:00Z --quiet",
                      path, f->url),
                   0);
  json_t *doc = history_json(f, "");
  json_t *s = series_named(doc, "hist/default/kernels=triad/time");
  json_t *last = json_array_get(json_object_get(s, "points"), 12);
  assert_string_equal(json_string_value(json_object_get(last, "verdict")), "unstable");
  assert_int_equal(json_integer_value(json_object_get(s, "stable_points")), 12);
  assert_int_equal(json_array_size(json_object_get(s, "change_points")), 0);
  json_decref(doc);
  assert_int_equal(sh(f, RIGOR_EXE " history check --db '%s' --commit c99", f->url), 0);
  expect_output(f, "not judged hist/default/kernels=triad/time: unstable (CV");
}

/* A 0/1 metric declared with unit bool is a flag: shown at every commit, never a series the
 * time's spread or the detector judges. */
static void test_flag_is_shown_not_judged(void **state) {
  fixture_t *f = *state;
  hx_spec_t spec;
  hx_defaults(&spec);
  spec.flag = "nt_stores";
  spec.sd_cycle = 0.4; /* the time is unstable; the flag is not judged by it */
  history(f, 3, 99, 0, &spec);
  assert_int_equal(sh(f, RIGOR_EXE " history check --db '%s' --commit c02", f->url), 0);
  expect_output(f, "flag       hist/default/kernels=triad/nt_stores: on at this commit (a flag");
  expect_output(f, "c02: 1 series (and 1 flags, not judged), 0 regressions");
  char *out = output(f);
  assert_null(strstr(out, "nt_stores: unstable"));
  free(out);
  json_t *doc = history_json(f, "");
  json_t *s = series_named(doc, "hist/default/kernels=triad/nt_stores");
  assert_string_equal(json_string_value(json_object_get(s, "kind")), "flag");
  assert_int_equal(json_array_size(json_object_get(s, "change_points")), 0);
  json_decref(doc);
  assert_int_equal(sh(f, RIGOR_EXE " history --db '%s'", f->url), 0);
  expect_output(f, "hist / default / kernels=triad / nt_stores: a flag (unit bool), shown, not "
                   "judged: c00 on, c01 on, c02 on");
}

static void test_detector_parameters(void **state) {
  fixture_t *f = *state;
  hx_spec_t spec;
  hx_defaults(&spec);
  spec.gate_extra = "\"change_min_magnitude\":0.1,\"change_window\":40";
  history(f, 30, 20, 0.05, &spec);
  /* The experiment's gate asks for 10%: a 5% step is not a change point. */
  json_t *doc = history_json(f, "");
  json_t *s = series_named(doc, "hist/default/kernels=triad/time");
  json_t *det = json_object_get(s, "detector");
  assert_true(json_real_value(json_object_get(det, "min_magnitude")) == 0.1);
  assert_int_equal(json_integer_value(json_object_get(det, "window")), 40);
  assert_int_equal(json_array_size(json_object_get(s, "change_points")), 0);
  json_decref(doc);
  /* The command line overrides the gate. */
  doc = history_json(f, "--min-magnitude 1% --significance 0.0001");
  s = series_named(doc, "hist/default/kernels=triad/time");
  det = json_object_get(s, "detector");
  assert_true(json_real_value(json_object_get(det, "significance")) == 0.0001);
  assert_int_equal(json_array_size(json_object_get(s, "change_points")), 1);
  json_decref(doc);
}

static long file_size(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* The trend chart's y ticks (labels anchored at their end, plain numbers) step by 1, 2 or 5
 * times a power of ten, and every point's centre lies between the lowest and highest tick. */
static void assert_trend_axis(const char *html) {
  const char *svg = strstr(html, "<svg"), *stop = svg ? strstr(svg, "</svg>") : NULL;
  assert_non_null(stop);
  double ys[64], vals[64];
  size_t n = 0;
  for (const char *p = svg; (p = strstr(p, "<text ")) && p < stop && n < 64; p++) {
    double x, y, v;
    char tail[8];
    if (sscanf(p, "<text x=\"%lf\" y=\"%lf\" text-anchor=\"end\">%lf%7[<]", &x, &y, &v, tail) == 4)
      ys[n] = y - 4, vals[n++] = v;
  }
  assert_true(n >= 3);
  double top = ys[0], bottom = ys[0];
  for (size_t i = 1; i < n; i++) {
    double d = fabs(vals[i] - vals[i - 1]), mantissa = d / pow(10, floor(log10(d)));
    bool nice = fabs(mantissa - 1) < 1e-6 || fabs(mantissa - 2) < 1e-6 ||
                fabs(mantissa - 5) < 1e-6 || fabs(mantissa - 10) < 1e-6;
    if (!nice) print_message("tick step %g is not 1-2-5\n", d);
    assert_true(nice);
    top = fmin(top, ys[i]), bottom = fmax(bottom, ys[i]);
  }
  size_t points = 0;
  for (const char *p = svg; (p = strstr(p, "<circle cx=\"")) && p < stop; p++) {
    double cx, cy;
    assert_int_equal(sscanf(p, "<circle cx=\"%lf\" cy=\"%lf\"", &cx, &cy), 2);
    assert_true(cy >= top - 0.5 && cy <= bottom + 0.5);
    points++;
  }
  assert_int_equal(points, 30);
}

static void test_html_page(void **state) {
  fixture_t *f = *state;
  hx_spec_t spec;
  hx_defaults(&spec);
  history(f, 30, 20, 0.05, &spec);
  char page[600], png[600], blank[600], blank_png[600], log[600], blank_log[600];
  snprintf(page, sizeof page, "%s/history.html", f->dir);
  assert_int_equal(sh(f, RIGOR_EXE " history --db '%s' --format html -o '%s'", f->url, page), 0);
  char *html = hx_slurp(page);
  assert_non_null(html);
  assert_non_null(strstr(html, "<h2>experiment hist</h2>"));
  assert_non_null(strstr(html, "<svg"));
  assert_non_null(strstr(html, "class=\"change\""));
  assert_non_null(strstr(html, ">c20</text>"));
  assert_non_null(strstr(html, "<td class=\"bad\">regression</td>"));
  /* The series is named by its parts, its axis ticks step by 1, 2 or 5 in one unit, and every
   * point lies inside the span of the ticks (the frame). */
  assert_non_null(strstr(html, "<h4>hist / default / kernels=triad / time</h4>"));
  assert_non_null(strstr(html, "time per operation (ms)"));
  assert_trend_axis(html);
  assert_null(strstr(html, "<script"));
  assert_null(strstr(html, "src=\"http"));
  free(html);
  if (backend == HX_POSTGRESQL) return; /* the same page: rendered once, in the SQLite half */
  if (system("command -v chromium >/dev/null 2>&1") != 0) {
    print_message("chromium not installed: rendering check skipped\n");
    skip();
  }
  snprintf(blank, sizeof blank, "%s/blank.html", f->dir);
  FILE *b = fopen(blank, "w");
  fputs("<!DOCTYPE html><html><body></body></html>\n", b);
  fclose(b);
  snprintf(png, sizeof png, "%s/history.png", f->dir);
  snprintf(blank_png, sizeof blank_png, "%s/blank.png", f->dir);
  snprintf(log, sizeof log, "%s/chromium.log", f->dir);
  snprintf(blank_log, sizeof blank_log, "%s/blank.log", f->dir);
  const char *shots[][3] = {{page, png, log}, {blank, blank_png, blank_log}};
  for (int k = 0; k < 2; k++) {
    char cmd[2400];
    snprintf(cmd, sizeof cmd,
             "timeout 60 chromium --headless --no-sandbox --disable-gpu --enable-logging=stderr "
             "--v=0 --window-size=1000,1400 --screenshot=%s file://%s >%s 2>&1",
             shots[k][1], shots[k][0], shots[k][2]);
    assert_int_equal(system(cmd), 0);
  }
  long shot = file_size(png), empty = file_size(blank_png);
  print_message("screenshot %ld bytes, blank page %ld bytes\n", shot, empty);
  assert_true(empty > 0);
  assert_true(shot > 5 * empty);
  char *text = hx_slurp(log);
  assert_non_null(text);
  assert_null(strstr(text, "CONSOLE"));
  assert_null(strstr(text, "Uncaught"));
  free(text);
}

/* A stored file is anyone's: a metric's unit reaches the SVG of the trend as text, escaped. */
static void test_html_escapes_a_stored_unit(void **state) {
  fixture_t *f = *state;
  hx_spec_t spec;
  hx_defaults(&spec);
  spec.metric = "throughput";
  spec.metric_value = 1.0;
  spec.unit = "<script>alert(1)</script>";
  history(f, 4, 2, 0.05, &spec);
  char page[600];
  snprintf(page, sizeof page, "%s/history.html", f->dir);
  assert_int_equal(sh(f, RIGOR_EXE " history --db '%s' --format html -o '%s'", f->url, page), 0);
  char *html = hx_slurp(page);
  assert_non_null(html);
  assert_null(strstr(html, "<script"));
  assert_non_null(strstr(html, "&lt;script&gt;alert(1)&lt;/script&gt;"));
  free(html);
}

static void test_store_commands(void **state) {
  fixture_t *f = *state;
  hx_spec_t spec;
  hx_defaults(&spec);
  char path[600];
  snprintf(path, sizeof path, "%s/r.jsonl", f->dir);
  hx_write(path, &spec);
  assert_int_equal(
      sh(f, "RIGOR_DB='%s' " RIGOR_EXE " store add '%s' --commit abcdef0 --tag k=v", f->url, path),
      0);
  expect_output(f, "3 runs, 15 samples");
  /* The first import creates the store: no migration from a version 0 there never was. */
  expect_output(f, ": created (schema version ");
  char *first = output(f);
  assert_null(strstr(first, "schema version 0 ->"));
  free(first);
  assert_int_equal(
      sh(f, "RIGOR_DB='%s' " RIGOR_EXE " store add '%s' --commit abcdef0", f->url, path), 0);
  expect_output(f, "already stored (3 runs): nothing added");
  assert_int_equal(sh(f, RIGOR_EXE " store ls --db '%s'", f->url), 0);
  expect_output(f, "abcdef0");
  expect_output(f, "k=v");
  char out[600];
  snprintf(out, sizeof out, "%s/export.jsonl", f->dir);
  remove(out);
  assert_int_equal(sh(f, RIGOR_EXE " store export --db '%s' --commit abcdef0 -o '%s'", f->url, out),
                   0);
  /* The export is a results file rigor reads like any other. */
  assert_int_equal(sh(f, RIGOR_EXE " report '%s'", out), 0);
  expect_output(f, "kernels=triad");
  assert_int_equal(sh(f, RIGOR_EXE " store export --db '%s' -o '%s'", f->url, out), 1);
  expect_output(f, "exists: a results file is never overwritten");
  /* A selection that matches nothing is an error that names it, and leaves no file. */
  remove(out);
  assert_int_equal(sh(f,
                      RIGOR_EXE " store export --db '%s' --commit nope --experiment hist -o '%s'",
                      f->url, out),
                   2);
  expect_output(f, "rigor store export: no stored runs match commit 'nope' and experiment 'hist'");
  struct stat st;
  assert_int_not_equal(stat(out, &st), 0);
  /* Dates outside the years 1 to 9999, or days the month lacks, are refused, not stored. */
  static const char *const bad_dates[] = {"@99999999999999",      "@-99999999999999",
                                          "@9223372036854775808", "0000-01-01",
                                          "2024-02-30",           "2023-02-29T12:00Z"};
  for (size_t i = 0; i < sizeof bad_dates / sizeof *bad_dates; i++) {
    assert_int_equal(sh(f, RIGOR_EXE " store add '%s' --db '%s' --commit abcdef2 --date '%s'", path,
                        f->url, bad_dates[i]),
                     2);
    expect_output(f, "is not an ISO-8601 date of the years 1 to 9999");
  }
  assert_int_equal(sh(f,
                      RIGOR_EXE " store add '%s' --db '%s' --commit abcdef2 --date 2024-02-29 -q",
                      path, f->url),
                   0); /* a leap day is a day */
  /* A cut file: refused by line and column, exit 2. */
  FILE *fp = fopen(path, "a");
  fputs("{\"schema\":\"rigor.result/1\",\"type\":\"sam", fp);
  fclose(fp);
  assert_int_equal(sh(f, RIGOR_EXE " store add '%s' --db '%s' --commit abcdef1", path, f->url), 2);
  char where[700];
  snprintf(where, sizeof where, "%s:20:39: the last line is cut short", path);
  expect_output(f, where);
  assert_int_equal(sh(f, RIGOR_EXE " store ls --db '%s' --format json", f->url), 0);
  expect_output(f, "\"samples\": 15");
  assert_int_equal(sh(f, RIGOR_EXE " store frobnicate"), 2);
  assert_int_equal(sh(f, RIGOR_EXE " store ls --db '%s' --commit x", f->url), 2);
}

/* Without --commit the working tree answers: its HEAD, date and state. */
static void test_git_metadata(void **state) {
  fixture_t *f = *state;
  if (backend == HX_POSTGRESQL) return; /* the store does not matter here */
  hx_spec_t spec;
  hx_defaults(&spec);
  assert_int_equal(sh(f,
                      "cd '%s' && rm -rf repo && mkdir repo && cd repo && git init -q && "
                      "echo a > file && git add file && GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t "
                      "GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t "
                      "GIT_COMMITTER_DATE='2024-02-03T04:05:06+02:00' git commit -qm one",
                      f->dir),
                   0);
  char path[600];
  snprintf(path, sizeof path, "%s/repo/r.jsonl", f->dir);
  hx_write(path, &spec);
  assert_int_equal(
      sh(f, "cd '%s/repo' && " RIGOR_EXE " store add r.jsonl --db '%s'", f->dir, f->url), 0);
  assert_int_equal(sh(f,
                      "cd '%s/repo' && echo b > file && " RIGOR_EXE
                      " store add r.jsonl --db '%s/repo/dirty.db'",
                      f->dir, f->dir),
                   0);
  assert_int_equal(sh(f, "cd '%s/repo' && git rev-parse HEAD", f->dir), 0);
  char *head = output(f);
  head[strcspn(head, "\n")] = '\0';
  assert_int_equal(sh(f, RIGOR_EXE " store ls --db '%s' --format json", f->url), 0);
  char *list = output(f);
  json_error_t e;
  json_t *doc = json_loads(list, 0, &e);
  assert_non_null(doc);
  json_t *row = json_array_get(doc, 0);
  assert_string_equal(json_string_value(json_object_get(row, "commit")), head);
  assert_string_equal(json_string_value(json_object_get(row, "commit_date")),
                      "2024-02-03T02:05:06.000Z");
  assert_true(json_is_false(json_object_get(row, "dirty")));
  json_decref(doc);
  free(list);
  assert_int_equal(sh(f, RIGOR_EXE " store ls --db '%s/repo/dirty.db' --format json", f->dir), 0);
  expect_output(f, "\"dirty\": true");
  free(head);
}

/* Runs under Slurm name their node: figures of two nodes are two series, each named with its
 * node, so that moving to a slower node is not read as a change of the code; files without
 * nodes keep their names (the tests above). */
static void test_nodes_are_series_of_their_own(void **state) {
  fixture_t *f = *state;
  const char *node_of[] = {"n1", "n2", "n1", "n2"};
  for (int i = 0; i < 4; i++) {
    char path[600], created[40];
    snprintf(path, sizeof path, "%s/c%02d.jsonl", f->dir, i);
    snprintf(created, sizeof created, "2024-01-01T00:%02d:00.000Z", i);
    hx_spec_t s;
    hx_defaults(&s);
    s.created = created;
    s.seed = (uint64_t)(i + 1) * 7919;
    s.node = node_of[i];
    s.level = strcmp(node_of[i], "n2") == 0 ? 2e-3 : 1e-3; /* n2 is twice as slow */
    hx_write(path, &s);
    assert_int_equal(sh(f,
                        RIGOR_EXE " store add '%s' --db '%s' --commit c%02d --date "
                                  "2024-01-01T00:%02d:00Z --quiet",
                        path, f->url, i, i),
                     0);
  }
  json_t *doc = history_json(f, "");
  assert_int_equal(json_array_size(json_object_get(doc, "series")), 2);
  const char *nodes[] = {"n1", "n2"};
  for (int k = 0; k < 2; k++) {
    char name[128];
    snprintf(name, sizeof name, "hist/default/kernels=triad/time@%s", nodes[k]);
    json_t *s = series_named(doc, name);
    assert_string_equal(json_string_value(json_object_get(s, "nodes")), nodes[k]);
    json_t *points = json_object_get(s, "points");
    assert_int_equal(json_array_size(points), 2);
    for (size_t i = 0; i < 2; i++) {
      double v = json_real_value(json_object_get(json_array_get(points, i), "value"));
      assert_true(k ? v > 1.8e-3 : v < 1.2e-3);
    }
  }
  json_decref(doc);
  assert_int_equal(sh(f, RIGOR_EXE " history --db '%s'", f->url), 0);
  expect_output(f, "hist / default / kernels=triad / time @ n2");
  assert_int_equal(sh(f, RIGOR_EXE " history --db '%s' --series '*@n2' --format json", f->url), 0);
  expect_output(f, "time@n2");
  char *out = output(f);
  assert_null(strstr(out, "time@n1"));
  free(out);
}

int main(int argc, char **argv) {
  backend = hx_backend_from_args(argc, argv);
  printf("store backend: %s\n", hx_backend_name(backend));
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_step_is_one_change_point, setup, teardown),
      cmocka_unit_test_setup_teardown(test_check_exit_codes, setup, teardown),
      cmocka_unit_test_setup_teardown(test_short_history_uses_ab, setup, teardown),
      cmocka_unit_test_setup_teardown(test_one_run_is_no_verdict, setup, teardown),
      cmocka_unit_test_setup_teardown(test_unstable_point_left_out, setup, teardown),
      cmocka_unit_test_setup_teardown(test_flag_is_shown_not_judged, setup, teardown),
      cmocka_unit_test_setup_teardown(test_detector_parameters, setup, teardown),
      cmocka_unit_test_setup_teardown(test_html_page, setup, teardown),
      cmocka_unit_test_setup_teardown(test_html_escapes_a_stored_unit, setup, teardown),
      cmocka_unit_test_setup_teardown(test_store_commands, setup, teardown),
      cmocka_unit_test_setup_teardown(test_git_metadata, setup, teardown),
      cmocka_unit_test_setup_teardown(test_nodes_are_series_of_their_own, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

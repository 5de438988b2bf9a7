/* Cross-file verdicts that cannot cry wolf, and the gate that judges them: synthetic results
 * files with run-to-run variation and drift (fixture.c), compared through the library and the
 * rigor binary. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "analysis.h"
#include "compare.h"
#include "fixture.h"
#include "test_files.h"
#include "rigor/plugin.h"

#define DIR RIGOR_BINARY_DIR "/tests/verdicts-data"

static int setup(void **state) {
  (void)state;
  return system("mkdir -p " DIR);
}

static rigor_analysis_t *load(const char *path) {
  rigor_analysis_t *a = NULL;
  char err[1024] = "";
  if (rigor_analysis_load(&path, 1, &a, err, sizeof err)) fail_msg("%s", err);
  return a;
}

/* Verdict counts of BASE against CAND through the library. */
static void compare_counts(const char *base, const char *cand, const rigor_compare_opts_t *o,
                           size_t counts[RIGOR_CMP_VERDICT_COUNT]) {
  rigor_analysis_t *a = load(base), *b = load(cand);
  rigor_comparison_t *c = NULL;
  assert_int_equal(rigor_compare(a, b, o, &c), 0);
  for (size_t i = 0; i < c->n_rows; i++)
    counts[c->rows[i].verdict]++;
  rigor_comparison_free(c);
  rigor_analysis_free(a);
  rigor_analysis_free(b);
}

/* What a run of the same build on a shared machine looks like: 2-5% between processes, 1%
 * between cycles, a slow drift. */
static void noisy_spec(fx_spec_t *s, uint32_t blocks, uint64_t seed) {
  fx_defaults(s);
  s->n_blocks = blocks;
  s->cycles = 10;
  s->cv = 0.01;
  s->run_sd = 0.03;
  s->drift = 0.02;
  s->seed = seed;
}

/* One run a side never gives a direction: with a 3% run-level sd, a verdict from the cycles
 * alone would be wrong often (issue: 25-62% false faster/slower). */
/* The rule's one orientation: a ratio of a lower-is-better figure is its cost, one of a
 * higher-is-better figure is turned over; the factor says how many times, at least 1. */
static void test_cost_orientation(void **state) {
  (void)state;
  rigor_cost_t c;
  rigor_cost_of(1.25, 1.1, 1.4, false, &c);
  assert_true(c.worse);
  assert_true(c.ratio == 1.25 && c.lo == 1.1 && c.hi == 1.4);
  assert_true(c.factor == 1.25 && c.factor_lo == 1.1 && c.factor_hi == 1.4);
  rigor_cost_of(1.25, 1.1, 1.4, true, &c);
  assert_false(c.worse);
  assert_true(c.ratio == 1 / 1.25 && c.lo == 1 / 1.4 && c.hi == 1 / 1.1);
  assert_true(fabs(c.factor - 1.25) < 1e-12);
  assert_true(fabs(c.factor_lo - 1.1) < 1e-12 && fabs(c.factor_hi - 1.4) < 1e-12);
  /* What rigor_decide returns is that orientation of its evidence. */
  rigor_evidence_t e = {
      .ratio = 0.5, .lo = 0.45, .hi = 0.55, .threshold = 0.02, .n_units = 5, .unit_sd = 0.01};
  rigor_decision_t d;
  rigor_decide(&e, &d);
  assert_int_equal(d.verdict, RIGOR_CMP_FASTER);
  assert_false(d.cost.worse);
  assert_true(fabs(d.cost.factor - 2) < 1e-12);
  e.higher_is_better = true;
  rigor_decide(&e, &d);
  assert_int_equal(d.verdict, RIGOR_CMP_SLOWER);
  assert_true(d.cost.worse && fabs(d.cost.factor - 2) < 1e-12);
}

static void test_one_run_a_side_is_undetermined(void **state) {
  (void)state;
  rigor_compare_opts_t o;
  rigor_compare_opts_default(&o);
  size_t counts[RIGOR_CMP_VERDICT_COUNT] = {0};
  for (uint64_t k = 0; k < 40; k++) {
    fx_spec_t s;
    noisy_spec(&s, 1, 500 + k);
    fx_write(DIR "/one_a.jsonl", &s);
    s.seed += 10000;
    fx_write(DIR "/one_b.jsonl", &s);
    compare_counts(DIR "/one_a.jsonl", DIR "/one_b.jsonl", &o, counts);
  }
  print_message("one run a side: %zu undetermined, %zu faster, %zu slower, %zu same\n",
                counts[RIGOR_CMP_UNDETERMINED], counts[RIGOR_CMP_FASTER], counts[RIGOR_CMP_SLOWER],
                counts[RIGOR_CMP_SAME]);
  assert_int_equal(counts[RIGOR_CMP_FASTER] + counts[RIGOR_CMP_SLOWER], 0);
  assert_int_equal(counts[RIGOR_CMP_SAME], 0);
  assert_int_equal(counts[RIGOR_CMP_UNDETERMINED], 80);

  char *out;
  assert_int_equal(test_rigor("compare " DIR "/one_a.jsonl " DIR "/one_b.jsonl", &out), 0);
  assert_non_null(strstr(out, "undetermined"));
  assert_non_null(strstr(out, "1 run BASE, 1 CAND: an interval needs at least 2 runs a side"));
  assert_non_null(strstr(out, "runs a side"));
  free(out);
  assert_int_equal(
      test_rigor("compare --fail-on undetermined " DIR "/one_a.jsonl " DIR "/one_b.jsonl", &out),
      4);
  assert_non_null(strstr(out, "FAILED"));
  free(out);
  assert_int_equal(
      test_rigor("compare --format json " DIR "/one_a.jsonl " DIR "/one_b.jsonl", &out), 0);
  json_error_t jerr;
  json_t *doc = json_loads(out, 0, &jerr);
  free(out);
  assert_non_null(doc);
  json_t *row = json_array_get(json_object_get(doc, "rows"), 0);
  assert_true(json_is_true(json_object_get(row, "one_run")));
  /* With one run a side the spread between runs is unmeasured: the count is a lower bound
   * from the cycles. */
  assert_true(json_integer_value(json_object_get(row, "runs_needed")) >= 2);
  json_decref(doc);
}

/* Two or more runs a side: the run-level interval keeps false verdicts under the 5% alpha
 * allows, with run-to-run variation and drift in every file. */
static void test_aa_false_verdicts_with_runs(void **state) {
  (void)state;
  rigor_compare_opts_t o;
  rigor_compare_opts_default(&o);
  size_t counts[RIGOR_CMP_VERDICT_COUNT] = {0}, rows = 0;
  for (uint64_t k = 0; k < 100; k++) {
    fx_spec_t s;
    noisy_spec(&s, 2 + k % 3, 900 + k); /* 2, 3 or 4 runs a side */
    fx_write(DIR "/aa_a.jsonl", &s);
    s.seed += 10000;
    fx_write(DIR "/aa_b.jsonl", &s);
    compare_counts(DIR "/aa_a.jsonl", DIR "/aa_b.jsonl", &o, counts);
    rows += 2;
  }
  size_t wrong = counts[RIGOR_CMP_FASTER] + counts[RIGOR_CMP_SLOWER];
  print_message("A/A with 2-4 runs a side: %zu false verdicts in %zu rows\n", wrong, rows);
  assert_true(wrong * 20 < rows); /* under 5% */
  assert_int_equal(counts[RIGOR_CMP_UNDETERMINED], 0);
}

/* A planted 5% slowdown with 6 runs a side and a 1% run-level sd is found by the run-level
 * interval (without the allowance for sessions, tested below: these files share one). */
static void test_planted_slowdown_found(void **state) {
  (void)state;
  rigor_compare_opts_t o;
  rigor_compare_opts_default(&o);
  o.session_noise = 0;
  size_t found = 0;
  for (uint64_t k = 0; k < 20; k++) {
    fx_spec_t s;
    noisy_spec(&s, 6, 1500 + k);
    s.run_sd = 0.01;
    fx_write(DIR "/pl_a.jsonl", &s);
    s.seed += 10000;
    s.slowdown = 0.05;
    fx_write(DIR "/pl_b.jsonl", &s);
    size_t counts[RIGOR_CMP_VERDICT_COUNT] = {0};
    compare_counts(DIR "/pl_a.jsonl", DIR "/pl_b.jsonl", &o, counts);
    found += counts[RIGOR_CMP_SLOWER];
    assert_int_equal(counts[RIGOR_CMP_FASTER], 0);
  }
  print_message("planted 5%%: found slower in %zu of 20\n", found);
  assert_true(found >= 19);
}

static void test_fail_on_and_vacuous(void **state) {
  (void)state;
  fx_spec_t s;
  noisy_spec(&s, 3, 7);
  s.points = 2;
  fx_write(DIR "/fo_base.jsonl", &s);
  s.points = 1;
  s.seed = 8;
  fx_write(DIR "/fo_cand.jsonl", &s);
  char *out;
  /* Rows of point 1 are only in BASE: missing, which fails only when asked. */
  assert_int_equal(test_rigor("compare " DIR "/fo_base.jsonl " DIR "/fo_cand.jsonl", &out), 0);
  assert_non_null(strstr(out, "missing"));
  assert_non_null(strstr(out, "only in BASE"));
  free(out);
  assert_int_equal(
      test_rigor("compare --fail-on missing " DIR "/fo_base.jsonl " DIR "/fo_cand.jsonl", &out), 4);
  free(out);
  assert_int_equal(test_rigor("compare --fail-on undetermined,invalid " DIR "/fo_base.jsonl " DIR
                              "/fo_cand.jsonl",
                              &out),
                   0);
  free(out);
  assert_int_equal(
      test_rigor("compare --fail-on slowish " DIR "/fo_base.jsonl " DIR "/fo_cand.jsonl", &out), 2);
  assert_non_null(strstr(out, "--fail-on takes a comma-separated list of undetermined, "
                              "inconclusive, invalid, incomparable or missing, not 'slowish'"));
  free(out);

  /* The closing line counts what was judged and what could not be. */
  assert_int_equal(test_rigor("compare " DIR "/fo_base.jsonl " DIR "/fo_cand.jsonl", &out), 0);
  assert_non_null(strstr(out, "could not be judged: "));
  assert_null(strstr(out, "no regression"));
  free(out);

  /* No experiment in common: one line that says what each file holds, and no table. */
  s.name = "other";
  fx_write(DIR "/fo_other.jsonl", &s);
  assert_int_equal(test_rigor("compare " DIR "/fo_base.jsonl " DIR "/fo_other.jsonl", &out), 1);
  assert_non_null(strstr(out, "share nothing: BASE holds "));
  assert_non_null(strstr(out, "CAND holds other (2 rows)"));
  assert_null(strstr(out, "only in BASE"));
  free(out);

  /* --map compares the experiments by their other name. */
  assert_int_equal(
      test_rigor("compare --map exp=other " DIR "/fo_base.jsonl " DIR "/fo_other.jsonl", &out), 0);
  assert_non_null(strstr(out, "compared with other in CAND (--map)"));
  assert_non_null(strstr(out, "could not be judged: 2 missing"));
  free(out);
  assert_int_equal(
      test_rigor("compare --map nosuch=other " DIR "/fo_base.jsonl " DIR "/fo_other.jsonl", &out),
      2);
  assert_non_null(strstr(out, "has no experiment nosuch"));
  free(out);
}

/* A candidate file whose every run crashed: its rows exist, none has a usable sample. */
static void test_all_candidate_runs_crashed(void **state) {
  (void)state;
  fx_spec_t s;
  fx_defaults(&s);
  s.n_blocks = 2;
  fx_write(DIR "/cr_base.jsonl", &s);
  assert_int_equal(system("sed -E 's/(\"type\":\"run\".*\"status\":)\"ok\",\"reason\":null/"
                          "\\1\"crashed\",\"reason\":\"SIGSEGV\"/' " DIR "/cr_base.jsonl > " DIR
                          "/cr_cand.jsonl"),
                   0);
  char *out;
  assert_int_equal(test_rigor("compare " DIR "/cr_base.jsonl " DIR "/cr_cand.jsonl", &out), 1);
  assert_non_null(strstr(out, "nothing was compared: no row has usable samples on both sides"));
  free(out);
}

static void test_threshold_refused_without_unit(void **state) {
  (void)state;
  fx_spec_t s;
  noisy_spec(&s, 2, 3);
  fx_write(DIR "/th.jsonl", &s);
  char *out;
  assert_int_equal(test_rigor("compare --threshold 5 " DIR "/th.jsonl " DIR "/th.jsonl", &out), 2);
  assert_non_null(strstr(out, "'5' is ambiguous: write 5% or 0.05"));
  free(out);
  assert_int_equal(test_rigor("compare --threshold 0.05 " DIR "/th.jsonl " DIR "/th.jsonl", &out),
                   0);
  assert_non_null(strstr(out, "threshold 5.00%"));
  free(out);
  assert_int_equal(test_rigor("compare --threshold 5% " DIR "/th.jsonl " DIR "/th.jsonl", &out), 0);
  free(out);
}

/* Two runs a side that read exactly 1.00 and 1.03 (timings quantised to 10 ms): no spread
 * between runs is not a measured certainty. The interval is floored at the quantum and the
 * row is not called slower with p 0. */
static void test_quantised_timings_floor_the_interval(void **state) {
  (void)state;
  fx_spec_t s;
  fx_defaults(&s);
  s.n_blocks = 2;
  s.cv = 0;
  s.base_time = 1.0;
  s.quantum = 0.01;
  fx_write(DIR "/q_base.jsonl", &s);
  s.slowdown = 0.03;
  fx_write(DIR "/q_cand.jsonl", &s);
  rigor_analysis_t *a = load(DIR "/q_base.jsonl"), *b = load(DIR "/q_cand.jsonl");
  rigor_compare_opts_t o;
  rigor_compare_opts_default(&o);
  rigor_comparison_t *c = NULL;
  assert_int_equal(rigor_compare(a, b, &o, &c), 0);
  const rigor_cmp_row_t *r = &c->rows[1]; /* variant 1 carries the 3% */
  assert_true(fabs(r->ratio - 1.03) < 1e-9);
  assert_true(r->floored);
  assert_true(r->p_runs > 0.05);
  assert_true(r->ci_lo < 1.02);
  assert_int_not_equal(r->verdict, RIGOR_CMP_SLOWER);
  assert_non_null(strstr(r->reason, "interval widened to the quantum"));
  rigor_comparison_free(c);
  rigor_analysis_free(a);
  rigor_analysis_free(b);
}

/* A doubling beside a noisy side: slower (exit 4), with its figure and interval shown: the row
 * gate says whether a side's median is quotable alone, it never hides a comparison whose
 * interval already carries the noise. */
static void test_noisy_side_keeps_its_figure(void **state) {
  (void)state;
  fx_spec_t s;
  fx_defaults(&s);
  s.n_blocks = 3;
  s.cycles = 10;
  s.cv = 0.01;
  s.run_sd = 0.01;
  fx_write(DIR "/im_base.jsonl", &s);
  s.seed = 99;
  s.cv = 0.10; /* over the 5% gate */
  s.slowdown = 1.0;
  fx_write(DIR "/im_cand.jsonl", &s);
  char *out;
  assert_int_equal(
      test_rigor("compare --format json " DIR "/im_base.jsonl " DIR "/im_cand.jsonl", &out), 4);
  json_error_t jerr;
  json_t *doc = json_loads(out, 0, &jerr);
  free(out);
  assert_non_null(doc);
  json_t *r1 = json_array_get(json_object_get(doc, "rows"), 1);
  assert_string_equal(json_string_value(json_object_get(r1, "verdict")), "slower");
  assert_true(json_number_value(json_object_get(r1, "median_ratio")) > 1.5);
  assert_true(json_number_value(json_object_get(r1, "ci_low")) > 1.5);
  json_decref(doc);
  assert_int_equal(test_rigor("compare " DIR "/im_base.jsonl " DIR "/im_cand.jsonl", &out), 4);
  assert_null(strstr(out, "withheld"));
  free(out);

  /* Runs of a side that differ by 15% from each other, and the allowance for two sessions,
   * leave a 20% change inconclusive across files, however narrow twelve runs make the runs'
   * part of the interval; the figure is shown with the runs it would take. */
  s.n_blocks = 12;
  s.cv = 0.01;
  s.run_sd = 0.01;
  s.slowdown = 0;
  s.seed = 5;
  fx_write(DIR "/im_base12.jsonl", &s);
  s.run_sd = 0.15;
  s.slowdown = 0.20;
  s.seed = 7;
  fx_write(DIR "/im_cand2.jsonl", &s);
  rigor_analysis_t *a = load(DIR "/im_base12.jsonl"), *b = load(DIR "/im_cand2.jsonl");
  rigor_compare_opts_t o;
  rigor_compare_opts_default(&o);
  rigor_comparison_t *c = NULL;
  assert_int_equal(rigor_compare(a, b, &o, &c), 0);
  const rigor_cmp_row_t *r = &c->rows[1];
  assert_int_equal(r->verdict, RIGOR_CMP_INCONCLUSIVE);
  assert_true(r->ci_lo < 1.02 && r->ci_hi > 1.02);
  assert_non_null(strstr(r->reason, "reaches across the 2.00% threshold"));
  assert_true(isfinite(r->ratio));
  assert_false(c->regression);
  rigor_comparison_free(c);
  rigor_analysis_free(a);
  rigor_analysis_free(b);
}

/* Across files a file is one sample of its session: A/A files minutes apart were seen 12.9%
 * apart with runs 3.9% apart. A 13% gap between two quiet files reads inconclusive under the
 * default allowance (and names the interleaved way), slower without it; a doubling is slower
 * either way. */
static void test_across_files_allows_for_sessions(void **state) {
  (void)state;
  fx_spec_t s;
  fx_defaults(&s);
  s.n_blocks = 3;
  s.cv = 0.01;
  s.run_sd = 0.01;
  s.seed = 11;
  fx_write(DIR "/session_base.jsonl", &s);
  s.seed = 12;
  s.slowdown = 0.13;
  fx_write(DIR "/session_cand.jsonl", &s);
  s.slowdown = 1.0;
  fx_write(DIR "/session_double.jsonl", &s);
  rigor_analysis_t *a = load(DIR "/session_base.jsonl"), *b = load(DIR "/session_cand.jsonl");
  rigor_compare_opts_t o;
  rigor_compare_opts_default(&o);
  rigor_comparison_t *c = NULL;
  assert_int_equal(rigor_compare(a, b, &o, &c), 0);
  const rigor_cmp_row_t *r = &c->rows[1]; /* variant 1 carries the change */
  assert_int_equal(r->verdict, RIGOR_CMP_INCONCLUSIVE);
  assert_non_null(strstr(r->reason, "between sessions"));
  assert_non_null(strstr(r->reason, "rigor ab"));
  assert_false(c->regression);
  rigor_comparison_free(c);

  o.session_noise = 0;
  assert_int_equal(rigor_compare(a, b, &o, &c), 0);
  assert_int_equal(c->rows[1].verdict, RIGOR_CMP_SLOWER);
  rigor_comparison_free(c);
  rigor_analysis_free(b);

  rigor_compare_opts_default(&o);
  b = load(DIR "/session_double.jsonl");
  assert_int_equal(rigor_compare(a, b, &o, &c), 0);
  assert_int_equal(c->rows[1].verdict, RIGOR_CMP_SLOWER);
  assert_true(c->regression);
  rigor_comparison_free(c);
  rigor_analysis_free(a);
  rigor_analysis_free(b);
}

/* BASE... -- CAND...: each file one session. With three files a side the interval is over the
 * files (the sessions measured, not assumed): a 50% slowdown reads slower, an A/A not. */
static void test_several_files_a_side(void **state) {
  (void)state;
  fx_spec_t s;
  fx_defaults(&s);
  s.n_blocks = 3;
  s.cv = 0.01;
  s.run_sd = 0.01;
  char paths[9][64];
  for (int i = 0; i < 9; i++) {
    snprintf(paths[i], sizeof paths[i], DIR "/sess%d.jsonl", i);
    s.seed = 300 + (uint64_t)i;
    s.slowdown = i >= 6 ? 0.5 : 0;
    fx_write(paths[i], &s);
  }
  char *out;
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "compare --format json %s %s %s -- %s %s %s", paths[0], paths[1],
           paths[2], paths[6], paths[7], paths[8]);
  assert_int_equal(test_rigor(cmd, &out), 4);
  json_error_t jerr;
  json_t *doc = json_loads(out, 0, &jerr);
  free(out);
  assert_non_null(doc);
  json_t *r1 = json_array_get(json_object_get(doc, "rows"), 1);
  assert_string_equal(json_string_value(json_object_get(r1, "verdict")), "slower");
  assert_non_null(strstr(json_string_value(json_object_get(r1, "reason")),
                         "the interval is over 3 and 3 files"));
  json_decref(doc);
  snprintf(cmd, sizeof cmd, "compare --format json %s %s %s -- %s %s %s", paths[0], paths[1],
           paths[2], paths[3], paths[4], paths[5]);
  assert_int_equal(test_rigor(cmd, &out), 0);
  assert_null(strstr(out, "\"slower\""));
  assert_null(strstr(out, "\"faster\""));
  free(out);
  /* No file on one side is a usage error. */
  snprintf(cmd, sizeof cmd, "compare %s --", paths[0]);
  assert_int_equal(test_rigor(cmd, &out), 2);
  free(out);
}

/* One 30%-slow cycle among 30 makes the nccl-tests methodology study's CV exceed 5%; the robust
 * spread does not move, and the outlier is counted. */
static void test_gate_statistics_and_outliers(void **state) {
  (void)state;
  fx_spec_t s;
  fx_defaults(&s);
  s.n_variants = 1;
  s.n_blocks = 3;
  s.cycles = 10;
  s.cv = 0.003;
  s.outlier = 3.0; /* one cycle 4x as long */
  fx_write(DIR "/gs.jsonl", &s);
  rigor_analysis_t *a = load(DIR "/gs.jsonl");
  const rigor_row_t *w = &a->exps[0].rows[0];
  assert_int_equal(w->figure.n, 30);
  assert_true(w->time.cv > 0.05);
  assert_int_equal(w->verdict, RIGOR_VERDICT_UNSTABLE);
  assert_true(w->figure.robust < 0.01);
  assert_int_equal(w->figure.n_outliers, 1);
  assert_int_equal(w->figure.n_runs, 3);
  assert_true(isfinite(w->figure.between_run));
  assert_true(w->figure.within_run > w->figure.between_run); /* the outlier sits inside a run */
  rigor_analysis_free(a);
  /* The same file judged by the robust statistic. */
  char *out;
  assert_int_equal(system("sed -e 's/\"gate\":{\"cv_max\":0.05,/\"gate\":{\"statistic\":"
                          "\"robust\",\"cv_max\":0.05,/g' " DIR "/gs.jsonl > " DIR
                          "/gs_robust.jsonl"),
                   0);
  a = load(DIR "/gs_robust.jsonl");
  w = &a->exps[0].rows[0];
  assert_int_equal(w->statistic, RIGOR_GATE_ROBUST);
  assert_int_equal(w->verdict, RIGOR_VERDICT_STABLE);
  rigor_analysis_free(a);
  assert_int_equal(test_rigor("report " DIR "/gs_robust.jsonl", &out), 0);
  assert_non_null(strstr(out, "robust ≤ 5.00%"));
  assert_non_null(strstr(out, "outliers"));
  free(out);
}

/* gate.expect through real runs of the null plugin: a row below its expectation is reported
 * and rigor run exits 3, the exit of a failed check. */
static void test_expectations_exit_3(void **state) {
  (void)state;
  FILE *f = fopen(DIR "/expect.yaml", "w");
  assert_non_null(f);
  fputs("schema: 1\nname: expect\nplugin: null\nparams: {spin_ns: 20000, bytes: 1MiB}\n"
        "matrix:\n  gate.expect:\n    - {label: loose, time: \"<= 1s\", rate: \">= 1KB/s\"}\n"
        "    - {label: tight, time: \"<= 1ns\"}\n"
        "timing: {warmup: 1, cycles: 3, iters: 5}\n"
        "output: " DIR "/expect.jsonl\n",
        f);
  fclose(f);
  char *out;
  assert_int_equal(
      test_rigor("run " DIR "/expect.yaml --force --plugin-path " RIGOR_TEST_PLUGIN_DIR, &out), 3);
  assert_non_null(strstr(out, "1 row below expectation"));
  assert_non_null(strstr(out, "below expectation: time is"));
  assert_non_null(strstr(out, "expected <= 1ns"));
  assert_non_null(strstr(out, "met"));
  free(out);
  assert_int_equal(test_rigor("report --format json " DIR "/expect.jsonl", &out), 0);
  assert_non_null(strstr(out, "\"below_expectation\": true"));
  free(out);
  f = fopen(DIR "/expect_bad.yaml", "w");
  assert_non_null(f);
  fputs("schema: 1\nname: expect\nplugin: null\ngate: {expect: {ops: \">= many\"}}\n"
        "output: " DIR "/expect_bad.jsonl\n",
        f);
  fclose(f);
  assert_int_equal(
      test_rigor("run " DIR "/expect_bad.yaml --force --plugin-path " RIGOR_TEST_PLUGIN_DIR, &out),
      2);
  assert_non_null(strstr(out, "gate.expect.ops: 'many' is not a number of count"));
  free(out);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_cost_orientation),
      cmocka_unit_test(test_one_run_a_side_is_undetermined),
      cmocka_unit_test(test_aa_false_verdicts_with_runs),
      cmocka_unit_test(test_planted_slowdown_found),
      cmocka_unit_test(test_fail_on_and_vacuous),
      cmocka_unit_test(test_all_candidate_runs_crashed),
      cmocka_unit_test(test_threshold_refused_without_unit),
      cmocka_unit_test(test_quantised_timings_floor_the_interval),
      cmocka_unit_test(test_noisy_side_keeps_its_figure),
      cmocka_unit_test(test_across_files_allows_for_sessions),
      cmocka_unit_test(test_several_files_a_side),
      cmocka_unit_test(test_gate_statistics_and_outliers),
      cmocka_unit_test(test_expectations_exit_3),
  };
  return cmocka_run_group_tests(tests, setup, NULL);
}

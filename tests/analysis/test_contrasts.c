/* Contrasts within one results file: paired by block, on synthetic files (fixture.c) with
 * run-to-run variation and drift, and on real runs of the null plugin. */
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
#include "contrast_doc.h"
#include "fixture.h"
#include "test_files.h"
#include "rigor/plugin.h"

#define DIR RIGOR_BINARY_DIR "/tests/contrasts-data"

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

static void noisy_spec(fx_spec_t *s, uint32_t blocks, uint64_t seed) {
  fx_defaults(s);
  s->n_blocks = blocks;
  s->cycles = 10;
  s->cv = 0.01;
  s->run_sd = 0.03;
  s->drift = 0.05;
  s->seed = seed;
}

/* A/A inside one file: the blocks pair the levels, so drift cancels and only the runs' own
 * variation is left; false verdicts stay under 5%. */
static void test_aa_within_file(void **state) {
  (void)state;
  size_t wrong = 0, total = 0, undetermined = 0;
  for (uint64_t k = 0; k < 100; k++) {
    fx_spec_t s;
    noisy_spec(&s, 2 + k % 5, 300 + k); /* 2 to 6 blocks */
    fx_write(DIR "/aa.jsonl", &s);
    rigor_analysis_t *a = load(DIR "/aa.jsonl");
    rigor_contrasts_t *c = NULL;
    assert_int_equal(rigor_contrasts_build(&a->exps[0], NULL, NULL, &c), 0);
    assert_int_equal(c->n, 1);
    for (size_t i = 0; i < c->n; i++) {
      wrong += c->items[i].verdict == RIGOR_CMP_FASTER || c->items[i].verdict == RIGOR_CMP_SLOWER;
      undetermined += c->items[i].verdict == RIGOR_CMP_UNDETERMINED;
      total++;
    }
    rigor_contrasts_free(c);
    rigor_analysis_free(a);
  }
  print_message("A/A within a file: %zu false verdicts in %zu contrasts\n", wrong, total);
  assert_true(wrong * 20 < total);
  assert_int_equal(undetermined, 0);
}

static void test_planted_and_sentence(void **state) {
  (void)state;
  size_t found = 0;
  for (uint64_t k = 0; k < 20; k++) {
    fx_spec_t s;
    noisy_spec(&s, 10, 700 + k);
    s.run_sd = 0.01;
    s.slowdown = 0.05;
    fx_write(DIR "/planted.jsonl", &s);
    rigor_analysis_t *a = load(DIR "/planted.jsonl");
    rigor_contrasts_t *c = NULL;
    assert_int_equal(rigor_contrasts_build(&a->exps[0], "timing.warmup", "0", &c), 0);
    found += c->items[0].verdict == RIGOR_CMP_SLOWER;
    assert_true(c->regression == (c->items[0].verdict == RIGOR_CMP_SLOWER));
    rigor_contrasts_free(c);
    rigor_analysis_free(a);
  }
  print_message("planted 5%% within a file: slower in %zu of 20\n", found);
  assert_true(found >= 19);

  rigor_analysis_t *a = load(DIR "/planted.jsonl");
  rigor_contrasts_t *c = NULL;
  assert_int_equal(rigor_contrasts_build(&a->exps[0], "timing.warmup", NULL, &c), 0);
  const rigor_contrast_t *x = &c->items[0];
  assert_string_equal(x->axis, "timing.warmup");
  assert_string_equal(x->ref_label, "0");
  assert_string_equal(x->label, "1");
  assert_int_equal(x->n_pairs, 10);
  assert_int_equal(x->n_incomplete, 0);
  assert_true(fabs(x->ratio - 1.05) < 0.015);
  assert_true(x->lo < x->ratio && x->ratio < x->hi);
  assert_true(isfinite(x->p_wilcoxon) && x->wilcoxon_exact);
  char sentence[1024];
  rigor_contrast_sentence(x, sentence, sizeof sentence);
  assert_non_null(strstr(sentence, "bytes=1024: 1 ran 1.0"));
  assert_non_null(strstr(sentence, "× slower than 0 ["));
  assert_non_null(strstr(sentence, "], 10 blocks, p "));
  double worst = rigor_precision_worst(&a->exps[0], NULL, NULL);
  assert_true(fabs(worst - x->half_width) < 1e-12);
  rigor_contrasts_free(c);
  /* Unknown axis or level. */
  char err[512];
  assert_int_equal(rigor_contrasts_build(&a->exps[0], "threads", NULL, &c), RIGOR_EINVAL);
  assert_int_equal(rigor_axis_check(&a->exps[0], "threads", NULL, err, sizeof err), RIGOR_EINVAL);
  assert_string_equal(err, "experiment exp has no matrix axis 'threads' (axes: timing.warmup)");
  assert_int_equal(rigor_axis_check(&a->exps[0], "timing.warmup", "7", err, sizeof err),
                   RIGOR_EINVAL);
  assert_string_equal(err,
                      "axis 'timing.warmup' of experiment exp has no level '7' (levels: 0, 1)");
  rigor_analysis_free(a);
}

/* Wilcoxon's exact p for 12 blocks that all go one way is 2 / 2^12; a crashed run drops its
 * block out of the pairing, and it is counted. */
static void test_blocks_signed_rank_and_incomplete(void **state) {
  (void)state;
  fx_spec_t s;
  noisy_spec(&s, 12, 41);
  s.run_sd = 0.002;
  s.drift = 0;
  s.slowdown = 0.10;
  s.failed_run = 5; /* block 2 */
  fx_write(DIR "/blocks.jsonl", &s);
  rigor_analysis_t *a = load(DIR "/blocks.jsonl");
  rigor_contrasts_t *c = NULL;
  assert_int_equal(rigor_contrasts_build(&a->exps[0], NULL, NULL, &c), 0);
  const rigor_contrast_t *x = &c->items[0];
  assert_int_equal(x->n_pairs, 11);
  assert_int_equal(x->n_incomplete, 1);
  assert_true(fabs(x->p_wilcoxon - 2.0 / 2048) < 1e-12);
  assert_int_equal(x->verdict, RIGOR_CMP_SLOWER);
  rigor_contrasts_free(c);
  rigor_analysis_free(a);
}

/* One block cannot give an interval: undetermined, and the stop rule of adaptive replication
 * reads an infinite half-width. Without a matrix axis the rows' own run-level half-width. */
static void test_precision_and_one_block(void **state) {
  (void)state;
  fx_spec_t s;
  noisy_spec(&s, 1, 5);
  fx_write(DIR "/one.jsonl", &s);
  rigor_analysis_t *a = load(DIR "/one.jsonl");
  rigor_contrasts_t *c = NULL;
  assert_int_equal(rigor_contrasts_build(&a->exps[0], NULL, NULL, &c), 0);
  assert_int_equal(c->items[0].verdict, RIGOR_CMP_UNDETERMINED);
  assert_non_null(strstr(c->items[0].reason, "1 complete block"));
  assert_true(isinf(rigor_precision_worst(&a->exps[0], NULL, NULL)));
  rigor_contrasts_free(c);
  rigor_analysis_free(a);

  noisy_spec(&s, 4, 6);
  s.n_variants = 1;
  fx_write(DIR "/rows.jsonl", &s);
  a = load(DIR "/rows.jsonl");
  assert_int_equal(rigor_contrasts_build(&a->exps[0], NULL, NULL, &c), 0);
  assert_int_equal(c->n, 0); /* one level: nothing to contrast */
  rigor_contrasts_free(c);
  const rigor_figure_t *f = &a->exps[0].rows[0].figure;
  assert_int_equal(f->n_runs, 4);
  assert_true(isfinite(f->half_width) && f->half_width > 0);
  assert_true(fabs(rigor_precision_worst(&a->exps[0], NULL, NULL) - f->half_width) < 1e-15);
  rigor_analysis_free(a);
}

/* Contrasts are per cell of the other axes, each level against the reference. */
static void test_cells(void **state) {
  (void)state;
  fx_spec_t s;
  noisy_spec(&s, 4, 77);
  s.n_variants = 6; /* warmup 0, 1, 2 x threads 1, 2 */
  s.cells = 2;
  s.design = "random";
  fx_write(DIR "/cells.jsonl", &s);
  rigor_analysis_t *a = load(DIR "/cells.jsonl");
  rigor_contrasts_t *c = NULL;
  assert_int_equal(rigor_contrasts_build(&a->exps[0], "timing.warmup", "1", &c), 0);
  assert_int_equal(c->n, 4); /* levels 0 and 2 against 1, in two cells */
  assert_string_equal(c->items[0].cell, "threads=1");
  assert_string_equal(c->items[0].label, "0");
  assert_string_equal(c->items[1].label, "2");
  assert_string_equal(c->items[2].cell, "threads=2");
  for (size_t i = 0; i < c->n; i++)
    assert_string_equal(c->items[i].ref_label, "1");
  rigor_contrasts_free(c);
  assert_int_equal(rigor_contrasts_build(&a->exps[0], NULL, NULL, &c), 0);
  assert_int_equal(c->n_axes, 2);
  assert_int_equal(c->n, 4 + 3); /* warmup: 2 levels x 2 cells; threads: 1 level x 3 cells */
  rigor_contrasts_free(c);
  rigor_analysis_free(a);
}

/* The primary metric identical in every repeat: the contrast is an exact ratio, and rounds read
 * the axis's levels of one file (the pto-isa vector-operator guide: 756042 -> 504028 cycles
 * is 1.50x). */
static void test_primary_metric_exact(void **state) {
  (void)state;
  fx_spec_t s;
  noisy_spec(&s, 2, 9);
  s.cv = 0.3; /* the window time is noisy; the figure is not */
  s.metric = "vf_total_cycles";
  s.metric_value = 756042;
  s.metric_level1 = 504028;
  s.primary = 1;
  fx_write(DIR "/primary.jsonl", &s);
  rigor_analysis_t *a = load(DIR "/primary.jsonl");
  const rigor_row_t *w = &a->exps[0].rows[0];
  assert_string_equal(w->figure.name, "vf_total_cycles");
  assert_true(w->figure.exact);
  assert_int_equal(w->verdict, RIGOR_VERDICT_STABLE); /* the time's CV is not what is judged */
  assert_true(w->time.cv > 0.05);
  rigor_contrasts_t *c = NULL;
  assert_int_equal(rigor_contrasts_build(&a->exps[0], NULL, NULL, &c), 0);
  const rigor_contrast_t *x = &c->items[0];
  assert_true(x->exact);
  assert_string_equal(x->figure, "vf_total_cycles");
  assert_true(fabs(x->ratio - 504028.0 / 756042) < 1e-12);
  assert_true(x->half_width == 0);
  assert_int_equal(x->verdict, RIGOR_CMP_FASTER);
  char sentence[1024];
  rigor_contrast_sentence(x, sentence, sizeof sentence);
  assert_non_null(strstr(sentence, "1 is 1.50× better than 0 on vf_total_cycles, exact"));
  assert_true(rigor_precision_worst(&a->exps[0], NULL, NULL) == 0);
  rigor_contrasts_free(c);
  rigor_analysis_free(a);
  char *out;
  assert_int_equal(test_rigor("rounds --format json " DIR "/primary.jsonl", &out), 0);
  json_error_t jerr;
  json_t *doc = json_loads(out, 0, &jerr);
  free(out);
  assert_non_null(doc);
  assert_string_equal(json_string_value(json_object_get(doc, "metric")), "vf_total_cycles");
  assert_string_equal(json_string_value(json_object_get(doc, "axis")), "timing.warmup");
  json_t *r = json_object_get(doc, "rounds");
  assert_int_equal(json_array_size(r), 2);
  assert_string_equal(json_string_value(json_object_get(json_array_get(r, 0), "level")), "0");
  assert_true(fabs(json_number_value(json_object_get(json_array_get(r, 1), "speedup_vs_baseline")) -
                   1.5) < 1e-4);
  json_decref(doc);
  assert_int_equal(test_rigor("rounds --axis threads " DIR "/primary.jsonl", &out), 2);
  free(out);
}

/* The contrasts in every report format, and rigor compare FILE --axis. */
static void test_report_and_compare_axis(void **state) {
  (void)state;
  fx_spec_t s;
  noisy_spec(&s, 6, 1234);
  s.run_sd = 0.005;
  s.slowdown = 0.2;
  fx_write(DIR "/rep.jsonl", &s);
  char *out;
  assert_int_equal(test_rigor("report " DIR "/rep.jsonl", &out), 0);
  assert_non_null(strstr(out, "contrasts of timing.warmup against 0"));
  assert_non_null(strstr(out, "1 ran 1.2"));
  assert_non_null(strstr(out, "contrasts (level / reference, paired by block)"));
  free(out);
  assert_int_equal(test_rigor("report --ref timing.warmup=1 " DIR "/rep.jsonl", &out), 0);
  assert_non_null(strstr(out, "0 ran 1.2"));
  assert_non_null(strstr(out, "× faster than 1"));
  free(out);
  assert_int_equal(test_rigor("report --ref warmup=1 " DIR "/rep.jsonl", &out), 2);
  assert_non_null(strstr(out, "has no matrix axis 'warmup'"));
  free(out);
  assert_int_equal(test_rigor("report --format md " DIR "/rep.jsonl", &out), 0);
  assert_non_null(strstr(out, "| axis | bytes | cell | level | reference |"));
  free(out);
  assert_int_equal(test_rigor("report --format csv --table contrasts " DIR "/rep.jsonl", &out), 0);
  assert_non_null(strstr(out, "experiment,axis,bytes,cell,level,reference,figure,blocks"));
  free(out);
  assert_int_equal(test_rigor("report --format html " DIR "/rep.jsonl", &out), 0);
  assert_non_null(strstr(out, "<h4>contrasts: level / reference"));
  assert_non_null(strstr(out, "stroke=\"#D55E00\"")); /* a slower interval (Okabe-Ito) */
  free(out);
  assert_int_equal(test_rigor("report --format json " DIR "/rep.jsonl", &out), 0);
  json_error_t jerr;
  json_t *doc = json_loads(out, 0, &jerr);
  free(out);
  assert_non_null(doc);
  json_t *con =
      json_object_get(json_array_get(json_object_get(doc, "experiments"), 0), "contrasts");
  assert_int_equal(json_array_size(con), 1);
  json_t *c0 = json_array_get(con, 0);
  assert_string_equal(json_string_value(json_object_get(c0, "verdict")), "slower");
  assert_int_equal(json_integer_value(json_object_get(c0, "pairs")), 6);
  assert_true(json_number_value(json_object_get(c0, "ci_low")) > 1.1);
  assert_true(json_is_object(json_object_get(c0, "wilcoxon")));
  json_decref(doc);

  assert_int_equal(test_rigor("compare " DIR "/rep.jsonl --axis timing.warmup", &out), 4);
  assert_non_null(strstr(out, "REGRESSION"));
  free(out);
  assert_int_equal(test_rigor("compare " DIR "/rep.jsonl --axis timing.warmup --ref 1", &out), 0);
  assert_non_null(strstr(out, "faster"));
  free(out);
  assert_int_equal(test_rigor("compare " DIR
                              "/rep.jsonl --axis timing.warmup --candidate 9 --format json",
                              &out),
                   2);
  assert_non_null(strstr(out, "has no level '9'"));
  free(out);
  assert_int_equal(test_rigor("compare " DIR "/rep.jsonl --axis nope", &out), 2);
  assert_non_null(strstr(out, "no matrix axis 'nope'"));
  free(out);
  assert_int_equal(test_rigor("compare " DIR "/rep.jsonl --ref 1", &out), 2);
  assert_non_null(strstr(out, "--ref and --candidate need --axis"));
  free(out);
  /* One block: nothing can be compared. */
  noisy_spec(&s, 1, 5);
  fx_write(DIR "/rep1.jsonl", &s);
  assert_int_equal(test_rigor("compare " DIR "/rep1.jsonl --axis timing.warmup", &out), 0);
  assert_non_null(strstr(out, "undetermined"));
  free(out);
  assert_int_equal(
      test_rigor("compare " DIR "/rep1.jsonl --axis timing.warmup --fail-on undetermined", &out),
      4);
  free(out);
}

/* Real runs: the null plugin spins 20 us or 40 us per operation, in a balanced order; the
 * contrast finds the doubling whatever the machine's noise adds. Eight blocks, because on a busy
 * machine one run in a dozen can be slowed tenfold: with four blocks such a run widens the
 * interval across the threshold (inconclusive, rightly), with eight it still leaves it above
 * 1.2. */
static void test_real_runs_of_the_null_plugin(void **state) {
  (void)state;
  FILE *f = fopen(DIR "/spin.yaml", "w");
  assert_non_null(f);
  fputs("schema: 1\nname: spin\nplugin: null\n"
        "matrix: {spin_ns: [{label: short, value: 20000}, {label: long, value: 40000}]}\n"
        "order: {design: latin, replicates: 8, seed: 3}\n"
        "timing: {warmup: 1, cycles: 5, iters: 10}\n"
        "output: " DIR "/spin.jsonl\n",
        f);
  fclose(f);
  char *out;
  assert_int_equal(test_rigor("run " DIR
                              "/spin.yaml --force --quiet --plugin-path " RIGOR_TEST_PLUGIN_DIR,
                              &out),
                   0);
  free(out);
  assert_int_equal(test_rigor("compare " DIR "/spin.jsonl --axis spin_ns --format json", &out), 4);
  json_error_t jerr;
  json_t *doc = json_loads(out, 0, &jerr);
  free(out);
  assert_non_null(doc);
  json_t *c0 = json_array_get(json_object_get(doc, "contrasts"), 0);
  assert_string_equal(json_string_value(json_object_get(c0, "reference")), "short");
  assert_string_equal(json_string_value(json_object_get(c0, "level")), "long");
  assert_string_equal(json_string_value(json_object_get(c0, "verdict")), "slower");
  assert_int_equal(json_integer_value(json_object_get(c0, "pairs")), 8);
  assert_true(json_number_value(json_object_get(c0, "ci_low")) > 1.2);
  json_decref(doc);
  assert_int_equal(test_rigor("compare " DIR "/spin.jsonl --axis spin_ns --ref long", &out), 0);
  /* A noisy machine may put a side over its CV gate: the direction stands either way. */
  assert_non_null(strstr(out, "short ran "));
  assert_non_null(strstr(out, "faster than long"));
  free(out);
}

/* Interleaved arms: the run is the unit. Every run's window pairs share a factor drawn once per
 * run (sd 5%) and differ by 0.2% from each other: counted as independent samples the 200 pairs
 * would give an interval of about ±0.03%; over the 10 runs it must be several percent wide. */
static void test_arms_run_is_the_unit(void **state) {
  (void)state;
  fx_spec_t s;
  fx_defaults(&s);
  s.n_blocks = 10;
  s.cycles = 20;
  s.cv = 0.001;
  s.arm_run_sd = 0.05;
  fx_write_interleaved(DIR "/arms_corr.jsonl", &s);
  rigor_analysis_t *a = load(DIR "/arms_corr.jsonl");
  rigor_contrasts_t *c = NULL;
  assert_int_equal(rigor_contrasts_build(&a->exps[0], NULL, NULL, &c), 0);
  assert_int_equal(c->n, 1);
  const rigor_contrast_t *x = &c->items[0];
  assert_true(x->interleaved);
  assert_int_equal(x->n_pairs, 10);
  assert_int_equal(x->n_windows, 200);
  assert_true(x->half_width > 0.015); /* the runs' spread, not the windows' */
  assert_true(x->window_sd < 0.01);   /* one pair varies little around its run's mean */
  assert_true(x->pair_sd > 0.02);
  assert_int_not_equal(x->verdict, RIGOR_CMP_SAME);
  char line[600];
  rigor_contrast_arms_line(x, 0.02, line, sizeof line);
  assert_non_null(strstr(line, "10 runs × 20 window pairs"));
  assert_non_null(strstr(line, "the run level dominates"));
  rigor_contrasts_free(c);
  rigor_analysis_free(a);
}

/* An A/A of arms with little noise and enough runs: the whole interval inside ±2%, `same`;
 * a planted 5% reads slower; a position effect is measured and warned about. */
static void test_arms_equivalence_and_planted(void **state) {
  (void)state;
  fx_spec_t s;
  fx_defaults(&s);
  s.n_blocks = 8;
  s.cycles = 10;
  s.cv = 0.01;
  fx_write_interleaved(DIR "/arms_aa.jsonl", &s);
  rigor_analysis_t *a = load(DIR "/arms_aa.jsonl");
  rigor_contrasts_t *c = NULL;
  assert_int_equal(rigor_contrasts_build(&a->exps[0], NULL, NULL, &c), 0);
  assert_int_equal(c->items[0].verdict, RIGOR_CMP_SAME);
  assert_true(c->items[0].lo > 0.98 && c->items[0].hi < 1.02);
  char sentence[1200];
  rigor_contrast_sentence(&c->items[0], sentence, sizeof sentence);
  assert_non_null(strstr(sentence, "8 runs"));
  assert_non_null(strstr(sentence, ": same (the whole interval lies within the 2.00% threshold)"));
  rigor_contrasts_free(c);
  rigor_analysis_free(a);

  s.slowdown = 0.05;
  s.position0 = 0.03; /* the arm measured first in a cycle is 3% slower */
  s.seed = 2;
  fx_write_interleaved(DIR "/arms_planted.jsonl", &s);
  a = load(DIR "/arms_planted.jsonl");
  assert_int_equal(rigor_contrasts_build(&a->exps[0], NULL, NULL, &c), 0);
  const rigor_contrast_t *x = &c->items[0];
  assert_int_equal(x->verdict, RIGOR_CMP_SLOWER);
  assert_true(fabs(x->ratio - 1.05) < 0.01); /* ABBA cancels the position effect */
  /* The level measured second against first: its log ratio differs by twice the 3% a window
   * pays for going first, and half of that is the effect of one position. */
  assert_true(fabs(expm1(x->position_effect) - (1 / 1.03 - 1)) < 0.005);
  char line[600];
  rigor_contrast_arms_line(x, 0.02, line, sizeof line);
  assert_non_null(strstr(line, "WARNING, more than half the threshold"));
  rigor_contrasts_free(c);
  rigor_analysis_free(a);
}

/* Too few runs to decide: inconclusive, with the runs the observed spread calls for. */
static void test_arms_inconclusive_asks_for_runs(void **state) {
  (void)state;
  fx_spec_t s;
  fx_defaults(&s);
  s.n_blocks = 3;
  s.cycles = 5;
  s.cv = 0.02;
  s.arm_run_sd = 0.02;
  s.slowdown = 0.02;
  fx_write_interleaved(DIR "/arms_few.jsonl", &s);
  rigor_analysis_t *a = load(DIR "/arms_few.jsonl");
  rigor_contrasts_t *c = NULL;
  assert_int_equal(rigor_contrasts_build(&a->exps[0], NULL, NULL, &c), 0);
  const rigor_contrast_t *x = &c->items[0];
  assert_int_equal(x->verdict, RIGOR_CMP_INCONCLUSIVE);
  assert_true(x->units_needed > 3);
  assert_non_null(strstr(x->reason, "the observed spread calls for"));
  assert_non_null(strstr(x->reason, " runs"));
  rigor_contrasts_free(c);
  rigor_analysis_free(a);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_aa_within_file),
      cmocka_unit_test(test_planted_and_sentence),
      cmocka_unit_test(test_blocks_signed_rank_and_incomplete),
      cmocka_unit_test(test_precision_and_one_block),
      cmocka_unit_test(test_cells),
      cmocka_unit_test(test_primary_metric_exact),
      cmocka_unit_test(test_report_and_compare_axis),
      cmocka_unit_test(test_real_runs_of_the_null_plugin),
      cmocka_unit_test(test_arms_run_is_the_unit),
      cmocka_unit_test(test_arms_equivalence_and_planted),
      cmocka_unit_test(test_arms_inconclusive_asks_for_runs),
  };
  return cmocka_run_group_tests(tests, setup, NULL);
}

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
#include "fixture.h"
#include "test_files.h"
#include "rigor/plugin.h"

#define DIR RIGOR_BINARY_DIR "/tests/analysis-data"

#define assert_near(a, b, eps)                                                                     \
  do {                                                                                             \
    double a_ = (a), b_ = (b);                                                                     \
    if (!(fabs(a_ - b_) <= (eps))) fail_msg("%s = %.10g, expected %.10g", #a, a_, b_);             \
  } while (0)

static int setup(void **state) {
  (void)state;
  return system("mkdir -p " DIR);
}

static const rigor_row_t *find_row(const rigor_exp_analysis_t *e, uint32_t v, uint32_t p) {
  for (size_t r = 0; r < e->n_rows; r++)
    if (e->rows[r].variant == v && e->rows[r].point == p) return &e->rows[r];
  return NULL;
}

static void test_analysis_rows_and_runs(void **state) {
  (void)state;
  fx_spec_t s;
  fx_defaults(&s);
  s.points = 2;
  s.first_cycle = 0.10;
  s.cv = 0;
  s.wrong_run = 2;       /* block 1, position 0: variant 1 */
  s.failed_run = 5;      /* block 2, position 1: variant 1 */
  s.interrupted_run = 0; /* an attempt 0 with samples and no run record */
  s.metric = "vf_total_cycles";
  s.metric_value = 1234;
  s.iterations = 1;
  fx_write(DIR "/rows.jsonl", &s);
  const char *paths[] = {DIR "/rows.jsonl"};
  rigor_analysis_t *a;
  char err[512];
  assert_int_equal(rigor_analysis_load(paths, 1, &a, err, sizeof err), 0);
  assert_int_equal(a->n_exps, 1);
  rigor_exp_analysis_t *e = &a->exps[0];
  assert_int_equal(e->n_runs, 8);
  assert_int_equal(e->ignored_samples, 5);
  const rigor_row_t *v0 = find_row(e, 0, 0), *v1 = find_row(e, 1, 0), *v0p1 = find_row(e, 0, 1);
  assert_non_null(v0);
  assert_non_null(v1);
  assert_non_null(v0p1);
  /* 4 ok runs x 5 cycles; cycle 0 is 10% slower, every other one exactly 100 us. */
  assert_int_equal(v0->n, 20);
  assert_near(v0->time.median, 100e-6, 1e-15);
  assert_near(v0->time.max, 110e-6, 1e-15);
  assert_near(v0->first_cycle_penalty, 0.10, 1e-9);
  assert_near(v0->time.cv, sqrt(0.2 * 0.8) * 10e-6 / 102e-6, 1e-9);
  assert_int_equal(v0->verdict, RIGOR_VERDICT_STABLE); /* CV 3.92% <= 5% */
  assert_near(v0p1->time.median, 200e-6, 1e-15);
  assert_string_equal(v0p1->point_label, "bytes=2048");
  /* STREAM's best rate: bytes / min time with cycle 0 excluded. */
  assert_near(v0->best_bytes_per_s, (1 << 20) / 100e-6, 1);
  assert_near(v0->bytes_per_s, (1 << 20) / 100e-6, 1);
  /* Variant 1: one invalid run (5 wrong samples) and one crashed run. */
  assert_int_equal(v1->n_wrong, 5);
  assert_int_equal(v1->n, 10);
  assert_int_equal(v1->verdict, RIGOR_VERDICT_WRONG);
  const rigor_variant_info_t *vi = &e->variants[1];
  assert_int_equal(vi->status_count[RIGOR_RUN_OK], 2);
  assert_int_equal(vi->status_count[RIGOR_RUN_INVALID], 1);
  assert_int_equal(vi->status_count[RIGOR_RUN_CRASHED], 1);
  assert_string_equal(json_string_value(json_array_get(vi->reasons, 1)), "run 5: crashed: SIGSEGV");
  assert_int_equal(json_integer_value(json_object_get(e->variants[1].flags, "low_clock")), 1);
  assert_int_equal(v0->n_metrics, 1);
  assert_string_equal(v0->metrics[0].name, "vf_total_cycles");
  assert_near(v0->metrics[0].median, 1234, 0);
  assert_true(v0->has_iterations);
  assert_int_equal(v0->iter_n, 80);
  assert_near(v0->iter_cv, 0.03, 1e-12);
  assert_near(v0->iter_p95, 1.2 * 100e-6, 1e-12);
  assert_true(v0->has_variance);
  assert_int_equal(v0->variance.runs, 4);
  assert_int_equal(v0->variance.cycles, 5);
  assert_near(v0->variance.s2_sq, 0, 1e-20);
  rigor_analysis_free(a);
}

static void test_design_effects(void **state) {
  (void)state;
  fx_spec_t s;
  fx_defaults(&s);
  s.n_variants = 3;
  s.n_blocks = 6;
  s.design = "williams";
  s.position0 = 0.08;
  s.cv = 0.001;
  s.slowdown = 0.01;
  fx_write(DIR "/design.jsonl", &s);
  const char *paths[] = {DIR "/design.jsonl"};
  rigor_analysis_t *a;
  char err[512];
  assert_int_equal(rigor_analysis_load(paths, 1, &a, err, sizeof err), 0);
  rigor_exp_analysis_t *e = &a->exps[0];
  assert_int_equal(e->n_effects, 1);
  const rigor_design_effect_t *d = &e->effects[0];
  assert_int_equal(d->n_positions, 3);
  /* Position 0 is 8% slower; each variant's median comes from a later position. */
  assert_near(d->position[0], 0.08, 0.01);
  assert_near(d->position[1], 0, 0.01);
  assert_true(d->warn_position);
  assert_true(d->has_carryover);
  assert_near(d->treatment_spread, 0.01, 0.005);
  rigor_analysis_free(a);
  char *out;
  assert_int_equal(test_rigor("report " DIR "/design.jsonl", &out), 0);
  assert_non_null(strstr(out, "design effects"));
  assert_non_null(strstr(out, "the position effect (spread"));
  free(out);
}

static void test_report_formats(void **state) {
  (void)state;
  fx_spec_t s;
  fx_defaults(&s);
  s.failed_run = 3;
  fx_write(DIR "/fmt.jsonl", &s);
  char *out;
  assert_int_equal(test_rigor("report " DIR "/fmt.jsonl", &out), 0);
  assert_non_null(strstr(out, "experiment exp"));
  assert_non_null(strstr(out, "stable"));
  assert_non_null(strstr(out, "run 3: crashed: SIGSEGV"));
  assert_non_null(strstr(out, "low_clock x1"));
  free(out);
  assert_int_equal(test_rigor("report --format md " DIR "/fmt.jsonl", &out), 0);
  assert_non_null(strstr(out, "| timing.warmup | bytes | n | median (µs) |"));
  free(out);
  assert_int_equal(test_rigor("report --format csv --by point " DIR "/fmt.jsonl", &out), 0);
  assert_non_null(strstr(out, "experiment,timing.warmup,bytes,n,median_s,p95_s,p99_s"));
  assert_non_null(strstr(out, "exp,0,1024,15,")); /* run 3 (variant 0) crashed */
  free(out);
  assert_int_equal(test_rigor("report --format json -o " DIR "/fmt.json " DIR "/fmt.jsonl", &out),
                   0);
  free(out);
  json_error_t jerr;
  json_t *doc = json_load_file(DIR "/fmt.json", 0, &jerr);
  assert_non_null(doc);
  json_t *exp = json_array_get(json_object_get(doc, "experiments"), 0);
  json_t *runs = json_object_get(exp, "runs");
  assert_int_equal(json_array_size(runs), 8);
  json_t *r0 = json_array_get(runs, 0), *r3 = json_array_get(runs, 3);
  assert_true(json_is_true(json_object_get(r0, "ok")));
  assert_true(json_is_true(json_object_get(r0, "exact")));
  assert_int_equal(json_array_size(json_object_get(r0, "times")), 5);
  assert_true(json_is_false(json_object_get(r3, "ok")));
  assert_string_equal(json_string_value(json_object_get(r3, "reason")), "SIGSEGV");
  json_t *row = json_array_get(json_object_get(exp, "rows"), 0);
  assert_int_equal(json_integer_value(json_object_get(json_object_get(row, "time_s"), "n")), 15);
  assert_string_equal(json_string_value(json_object_get(row, "verdict")), "stable");
  json_decref(doc);
  assert_int_equal(test_rigor("report --format xml " DIR "/fmt.jsonl", &out), 2);
  assert_non_null(strstr(out, "--format takes text, md, csv, json or html, not 'xml'"));
  free(out);
  assert_int_equal(test_rigor("report " DIR "/nope.jsonl", &out), 2);
  assert_non_null(strstr(out, "nope.jsonl: cannot open results file: No such file"));
  free(out);
}

static void write_pair(const char *base, const char *cand, double slowdown, uint64_t seed) {
  fx_spec_t s;
  fx_defaults(&s);
  s.cycles = 10;
  s.cv = 0.01;
  s.seed = seed;
  fx_write(base, &s);
  s.seed = seed + 1000;
  s.slowdown = slowdown; /* variant 1 only */
  fx_write(cand, &s);
}

static void test_compare_self_and_planted(void **state) {
  (void)state;
  write_pair(DIR "/base.jsonl", DIR "/cand.jsonl", 0.05, 7);
  char *out;
  assert_int_equal(test_rigor("compare " DIR "/base.jsonl " DIR "/base.jsonl", &out), 0);
  assert_non_null(strstr(out, "2 rows: "));
  assert_null(strstr(out, "REGRESSION"));
  free(out);
  /* A file against itself claims no direction. */
  assert_int_equal(test_rigor("compare --format json " DIR "/base.jsonl " DIR "/base.jsonl", &out),
                   0);
  assert_null(strstr(out, "\"slower\""));
  assert_null(strstr(out, "\"faster\""));
  free(out);
  /* Both files come from one synthetic session: no allowance for the variation between
   * sessions (test_verdicts covers it). */
  assert_int_equal(test_rigor("compare --session-noise 0 --format json " DIR "/base.jsonl " DIR
                              "/cand.jsonl",
                              &out),
                   4);
  json_error_t jerr;
  json_t *doc = json_loads(out, 0, &jerr);
  free(out);
  assert_non_null(doc);
  json_t *rows = json_object_get(doc, "rows");
  assert_int_equal(json_array_size(rows), 2);
  json_t *r0 = json_array_get(rows, 0), *r1 = json_array_get(rows, 1);
  assert_string_equal(json_string_value(json_object_get(r0, "verdict")), "same");
  assert_string_equal(json_string_value(json_object_get(r1, "verdict")), "slower");
  assert_near(json_number_value(json_object_get(r1, "median_ratio")), 1.05, 0.01);
  assert_true(json_number_value(json_object_get(r1, "ci_low")) > 1.02);
  assert_true(json_number_value(json_object_get(r1, "p")) < 0.001);
  assert_true(json_number_value(json_object_get(r1, "p_holm")) < 0.001);
  assert_int_equal(json_integer_value(json_object_get(r1, "runs_base")), 4);
  assert_true(json_is_true(json_object_get(doc, "regression")));
  json_decref(doc);
  assert_int_equal(
      test_rigor("compare --session-noise 0 " DIR "/cand.jsonl " DIR "/base.jsonl", &out), 0);
  assert_non_null(strstr(out, "faster"));
  free(out);
  assert_int_equal(test_rigor("compare --session-noise 0 --threshold 10% " DIR "/base.jsonl " DIR
                              "/cand.jsonl",
                              &out),
                   0);
  assert_non_null(strstr(out, "within the 10.00% threshold"));
  free(out);
}

/* A/A: 20 comparisons of independent files drawn from the same distribution. */
static void test_compare_aa_false_positives(void **state) {
  (void)state;
  int false_positives = 0;
  for (uint64_t k = 0; k < 20; k++) {
    write_pair(DIR "/aa_base.jsonl", DIR "/aa_cand.jsonl", 0, 100 + k);
    char *out;
    int rc = test_rigor("compare --format json " DIR "/aa_base.jsonl " DIR "/aa_cand.jsonl", &out);
    false_positives += rc != 0 || strstr(out, "\"faster\"") != NULL;
    free(out);
  }
  print_message("A/A: %d false positives in 20 comparisons\n", false_positives);
  assert_int_equal(false_positives, 0);
}

static void test_compare_identity_invalid_unstable(void **state) {
  (void)state;
  fx_spec_t s;
  fx_defaults(&s);
  fx_write(DIR "/id_base.jsonl", &s);
  s.cpu_model = "Other CPU 1";
  s.plugin_version = "2.0";
  s.seed = 2;
  fx_write(DIR "/id_cand.jsonl", &s);
  char *out;
  assert_int_equal(test_rigor("compare " DIR "/id_base.jsonl " DIR "/id_cand.jsonl", &out), 0);
  assert_non_null(strstr(out, "identity.cpu.model: \"Test CPU 9000\" -> \"Other CPU 1\""));
  assert_non_null(strstr(out, "incomparable"));
  assert_non_null(strstr(out, "plugin version 1.0 -> 2.0"));
  assert_null(strstr(out, "hostname")); /* volatile members are not identity differences */
  free(out);
  assert_int_equal(test_rigor("compare --ignore-identity identity.cpu " DIR "/id_base.jsonl " DIR
                              "/id_cand.jsonl",
                              &out),
                   0);
  assert_null(strstr(out, "incomparable"));
  free(out);
  fx_defaults(&s);
  s.wrong_run = 1;
  fx_write(DIR "/wrong.jsonl", &s);
  assert_int_equal(test_rigor("compare " DIR "/id_base.jsonl " DIR "/wrong.jsonl", &out), 0);
  assert_non_null(strstr(out, "CAND: correctness failed in 5 samples"));
  free(out);
  fx_defaults(&s);
  s.cv = 0.2;
  fx_write(DIR "/noisy.jsonl", &s);
  /* A side over its gate does not hide the comparison: its interval carries the noise. */
  assert_int_equal(test_rigor("compare " DIR "/id_base.jsonl " DIR "/noisy.jsonl", &out), 0);
  assert_null(strstr(out, "unstable"));
  assert_null(strstr(out, "withheld"));
  assert_non_null(strstr(out, "inconclusive"));
  free(out);
}

static void test_rounds(void **state) {
  (void)state;
  fx_spec_t s;
  fx_defaults(&s);
  s.n_variants = 1;
  s.n_blocks = 1;
  s.metric = "vf_total_cycles";
  s.metric_value = 1000;
  fx_write(DIR "/r1.jsonl", &s);
  s.metric_value = 800;
  fx_write(DIR "/r2.jsonl", &s);
  s.wrong_run = 0;
  s.metric_value = 10;
  fx_write(DIR "/r3.jsonl", &s);
  s.wrong_run = -1;
  s.metric_value = 900;
  fx_write(DIR "/r4.jsonl", &s);
  char *out;
  assert_int_equal(test_rigor("rounds --metric vf_total_cycles --format json " DIR "/r1.jsonl " DIR
                              "/r2.jsonl " DIR "/r3.jsonl " DIR "/r4.jsonl",
                              &out),
                   0);
  json_error_t jerr;
  json_t *doc = json_loads(out, 0, &jerr);
  free(out);
  assert_non_null(doc);
  json_t *r = json_object_get(doc, "rounds");
  assert_int_equal(json_array_size(r), 4);
  assert_near(json_number_value(json_object_get(json_array_get(r, 1), "speedup_vs_baseline")), 1.25,
              1e-9);
  assert_true(json_is_false(json_object_get(json_array_get(r, 2), "valid")));
  assert_string_equal(json_string_value(json_object_get(json_array_get(r, 2), "reason")),
                      "correctness failed in 5 samples");
  json_t *r4 = json_array_get(r, 3);
  assert_near(json_number_value(json_object_get(r4, "speedup_vs_previous")), 800.0 / 900, 1e-9);
  assert_near(json_number_value(json_object_get(r4, "speedup_vs_baseline")), 1000.0 / 900, 1e-9);
  assert_int_equal(json_integer_value(json_object_get(r4, "best_round")), 2);
  json_decref(doc);
  /* A file that cannot be read is refused, not taken for an invalid round. */
  assert_int_equal(test_rigor("rounds " DIR "/r1.jsonl " DIR "/none.jsonl", &out), 2);
  assert_non_null(strstr(out, "rigor rounds: " DIR "/none.jsonl: cannot open results file"));
  free(out);
}

/* A metric the plugin declares not a figure ("better": "none": a path taken, a thread count) is
 * a state, never judged; a bool of 0s and 1s is a flag; any other metric is a figure. */
static void test_metric_kinds(void **state) {
  (void)state;
  json_error_t jerr;
  json_t *record = json_loads(
      "{\"plugin\": {\"metrics\": [{\"name\": \"nt_stores\", \"unit\": \"path\", \"better\": "
      "\"none\"}, {\"name\": \"on\", \"unit\": \"bool\", \"better\": \"higher\"}, {\"name\": "
      "\"gflops\", \"unit\": \"GFLOP/s\", \"better\": \"higher\"}]}}",
      0, &jerr);
  assert_non_null(record);
  rigor_exp_analysis_t e = {.record = record};
  const double paths[] = {2, 2, 0}, bits[] = {0, 1, 1}, rates[] = {1.5, 2.5};
  assert_true(rigor_metric_is_state(&e, "nt_stores", paths, 3));
  assert_false(rigor_metric_is_flag(&e, "nt_stores", paths, 3));
  assert_true(rigor_metric_is_flag(&e, "on", bits, 3));
  assert_true(rigor_metric_is_state(&e, "on", bits, 3));
  assert_false(rigor_metric_is_state(&e, "gflops", rates, 2));
  json_decref(record);
}

/* A campaign on two nodes, the second 5% slower: the row's variance has a third level, the nodes,
 * that holds most of it, and the reports show it; the same runs without slurm members have two
 * levels and no node column. */
static void test_node_variance(void **state) {
  (void)state;
  fx_spec_t s;
  fx_defaults(&s);
  s.n_blocks = 8;
  s.cv = 0.002;
  s.run_sd = 0.002;
  s.nodes = 2;
  s.node_offset = 0.05;
  fx_write(DIR "/nodes.jsonl", &s);
  s.nodes = 0;
  fx_write(DIR "/no_nodes.jsonl", &s);
  const char *paths[] = {DIR "/nodes.jsonl", DIR "/no_nodes.jsonl"};
  rigor_analysis_t *a;
  char err[512];
  assert_int_equal(rigor_analysis_load(paths, 2, &a, err, sizeof err), 0);
  assert_int_equal(a->n_exps, 2);
  const rigor_row_t *w = find_row(&a->exps[0], 0, 0), *plain = find_row(&a->exps[1], 0, 0);
  assert_non_null(w);
  assert_non_null(plain);
  assert_string_equal(w->nodes, "n1,n2");
  assert_int_equal(w->n_nodes, 2);
  assert_true(w->has_variance);
  assert_true(w->has_node_variance);
  const rigor_variance_t *v = &w->variance;
  assert_int_equal(v->nodes, 2);
  assert_int_equal(v->runs, 8);
  assert_near(v->node_runs, 4, 1e-12);
  /* Node means 5% apart: T3 is about 2.5% of the mean (the sd of two values d apart is
   * d / sqrt(2)), far above the runs' 0.2%, and the nodes hold most of the variance. */
  assert_true(v->t3_sq > 0);
  double rel = sqrt(v->t3_sq) / v->mean;
  if (!(rel > 0.025 && rel < 0.045)) fail_msg("between-node sd %.4f of the mean", rel);
  assert_true(v->node_share > 0.9);
  assert_true(v->t2_sq < v->t3_sq / 100); /* within a node the runs agree */
  /* The interval of the mean counts the nodes, not the runs: t(0.975, 1) sqrt(S3^2 / 2). */
  assert_near(v->half_width, 12.7062047 * sqrt(v->s3_sq / 2), 1e-9 * v->mean);
  /* Without slurm members: the two levels as before, the node difference in the runs. */
  assert_null(plain->nodes);
  assert_true(plain->has_variance);
  assert_false(plain->has_node_variance);
  assert_int_equal(plain->variance.nodes, 0);
  assert_true(plain->variance.t2_sq > 0);
  rigor_analysis_free(a);

  char *out;
  assert_int_equal(test_rigor("report --width 0 " DIR "/nodes.jsonl", &out), 0);
  assert_non_null(strstr(out, "what runs add, and what nodes add"));
  assert_non_null(strstr(out, "between-node sd"));
  assert_non_null(strstr(out, "node share"));
  free(out);
  assert_int_equal(test_rigor("report --width 0 " DIR "/no_nodes.jsonl", &out), 0);
  assert_non_null(strstr(out, "variance components"));
  assert_null(strstr(out, "between-node sd"));
  assert_null(strstr(out, "node share"));
  free(out);
  assert_int_equal(test_rigor("report --format csv --table variance " DIR "/nodes.jsonl", &out), 0);
  assert_non_null(strstr(out, "node_share"));
  assert_non_null(strstr(out, "t3_sq"));
  free(out);
  assert_int_equal(
      test_rigor("report --format json -o " DIR "/nodes.json " DIR "/nodes.jsonl", &out), 0);
  free(out);
  json_error_t jerr;
  json_t *doc = json_load_file(DIR "/nodes.json", 0, &jerr);
  assert_non_null(doc);
  json_t *row = json_array_get(
      json_object_get(json_array_get(json_object_get(doc, "experiments"), 0), "rows"), 0);
  assert_string_equal(json_string_value(json_object_get(row, "nodes")), "n1,n2");
  json_t *var = json_object_get(row, "variance");
  assert_int_equal(json_integer_value(json_object_get(var, "nodes")), 2);
  assert_true(json_real_value(json_object_get(var, "t3_sq")) > 0);
  assert_true(json_real_value(json_object_get(var, "node_share")) > 0.9);
  assert_true(json_is_true(json_object_get(var, "between_node_variance")));
  json_decref(doc);
  assert_int_equal(
      test_rigor("report --format json -o " DIR "/no_nodes.json " DIR "/no_nodes.jsonl", &out), 0);
  free(out);
  doc = json_load_file(DIR "/no_nodes.json", 0, &jerr);
  assert_non_null(doc);
  row = json_array_get(
      json_object_get(json_array_get(json_object_get(doc, "experiments"), 0), "rows"), 0);
  assert_null(json_object_get(row, "nodes"));
  var = json_object_get(row, "variance");
  assert_non_null(var);
  assert_null(json_object_get(var, "nodes"));
  assert_null(json_object_get(var, "t3_sq"));
  json_decref(doc);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_metric_kinds),
      cmocka_unit_test(test_analysis_rows_and_runs),
      cmocka_unit_test(test_design_effects),
      cmocka_unit_test(test_report_formats),
      cmocka_unit_test(test_compare_self_and_planted),
      cmocka_unit_test(test_compare_aa_false_positives),
      cmocka_unit_test(test_compare_identity_invalid_unstable),
      cmocka_unit_test(test_rounds),
      cmocka_unit_test(test_node_variance),
  };
  return cmocka_run_group_tests(tests, setup, NULL);
}

/* The stop rule's accumulator against the analysis, on synthetic files (fixture.c) with what real
 * runs rarely give: crashed and invalid runs, an attempt without a run record, coarse quanta, a
 * primary metric (exact, or varying), cells of a second axis, drift. The file's records go in
 * one at a time; after every run record the accumulator's worst and every target's half-width
 * equal those of an analysis of the records so far, to the bit. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis.h"
#include "contrast.h"
#include "fixture.h"
#include "precision_acc.h"
#include "reader.h"

#define DIR RIGOR_BINARY_DIR "/tests/precision-acc-data"

static int setup(void **state) {
  (void)state;
  return system("mkdir -p " DIR);
}

static bool same(double a, double b) {
  return a == b || (isinf(a) && isinf(b) && a > 0 && b > 0);
}

static void check_judgement(rigor_precision_acc_t *acc, const json_t *prefix, size_t at) {
  rigor_analysis_t *a = NULL;
  char err[1024];
  if (rigor_analysis_of_records(json_deep_copy(prefix), "prefix", &a, err, sizeof err))
    fail_msg("%s", err);
  const rigor_exp_analysis_t *e = &a->exps[0];
  rigor_stop_judgement_t j;
  assert_int_equal(rigor_precision_acc_judge(acc, e->name, &j), 0);
  double worst = rigor_precision_worst(e, NULL, NULL);
  if (!same(j.worst, worst))
    fail_msg("record %zu: worst %.17g, the analysis says %.17g", at, j.worst, worst);
  rigor_contrasts_t *c = NULL;
  assert_int_equal(rigor_contrasts_build(e, NULL, NULL, &c), 0);
  assert_int_equal(j.n, c->n ? c->n : e->n_rows);
  for (size_t i = 0; i < j.n; i++) {
    double hw = c->n ? c->items[i].half_width : e->rows[i].figure.half_width;
    size_t units = c->n ? c->items[i].n_pairs : e->rows[i].figure.n_runs;
    if (!same(j.targets[i].half_width, hw) || j.targets[i].units != units)
      fail_msg("record %zu, target %zu: %.17g over %zu, the analysis says %.17g over %zu", at, i,
               j.targets[i].half_width, j.targets[i].units, hw, units);
  }
  rigor_contrasts_free(c);
  rigor_stop_judgement_free(&j);
  rigor_analysis_free(a);
}

static void check_file(const fx_spec_t *s) {
  char path[512];
  snprintf(path, sizeof path, DIR "/%s.jsonl", s->name);
  fx_write(path, s);
  json_t *recs = NULL;
  bool truncated = false;
  char err[1024];
  if (rigor_results_load(path, &recs, &truncated, err, sizeof err)) fail_msg("%s", err);
  rigor_precision_acc_t *acc = rigor_precision_acc_new();
  json_t *prefix = json_array();
  size_t i, runs = 0;
  json_t *rec;
  json_array_foreach(recs, i, rec) {
    if (rigor_precision_acc_feed(acc, path, rec, err, sizeof err)) fail_msg("%s", err);
    json_array_append(prefix, rec);
    if (strcmp(json_string_value(json_object_get(rec, "type")), "run") == 0) {
      check_judgement(acc, prefix, i + 1);
      runs++;
    }
  }
  assert_true(runs > 0);
  json_decref(prefix);
  json_decref(recs);
  rigor_precision_acc_free(acc);
}

static void spec(fx_spec_t *s, const char *name, uint64_t seed) {
  fx_defaults(s);
  s->name = name;
  s->n_blocks = 6;
  s->cycles = 5;
  s->cv = 0.02;
  s->run_sd = 0.03;
  s->drift = 0.04;
  s->seed = seed;
}

/* Crashed, invalid and interrupted runs drop out of the pairs and the rows. */
static void test_faults(void **st) {
  (void)st;
  fx_spec_t s;
  spec(&s, "faults", 11);
  s.points = 2;
  s.failed_run = 3;
  s.wrong_run = 6;
  s.interrupted_run = 4;
  s.slowdown = 0.05;
  check_file(&s);
}

/* Times rounded to a coarse step: the quantum's floor widens the intervals. */
static void test_quantised(void **st) {
  (void)st;
  fx_spec_t s;
  spec(&s, "quantised", 12);
  s.quantum = 2e-6;
  s.cv = 0.001;
  s.run_sd = 0.0005;
  check_file(&s);
}

/* Each level reads one value in every sample: the only step is the one between the levels, and
 * it floors the contrast's interval. */
static void test_one_value_a_level(void **st) {
  (void)st;
  fx_spec_t s;
  spec(&s, "steps", 17);
  s.quantum = 10e-6;
  s.cv = 0.0001;
  s.run_sd = 0;
  s.drift = 0;
  s.slowdown = 0.1;
  check_file(&s);
}

/* One variant: no contrast, each row's run-level interval. */
static void test_rows(void **st) {
  (void)st;
  fx_spec_t s;
  spec(&s, "rows", 13);
  s.n_variants = 1;
  s.points = 3;
  check_file(&s);
}

/* Cells of a second axis: each axis contrasted in every cell of the other. */
static void test_cells(void **st) {
  (void)st;
  fx_spec_t s;
  spec(&s, "cells", 14);
  s.n_variants = 4;
  s.cells = 2;
  s.points = 2;
  s.slowdown = 0.1;
  check_file(&s);
}

/* A primary metric, identical in every sample of a level (exact) or not. */
static void test_primary_metric(void **st) {
  (void)st;
  fx_spec_t s;
  spec(&s, "exact", 15);
  s.metric = "units";
  s.metric_value = 42;
  s.metric_level1 = 84;
  s.primary = 1;
  check_file(&s);
  spec(&s, "metric", 16);
  s.metric = "units";
  s.metric_value = 42;
  s.primary = 1;
  s.cv = 0;
  check_file(&s);
}

/* The verdict stop reads a wider interval at every later look: a 5% difference with a standard
 * error of 0.5% over 4 units is beyond doubt at the first look (97.5%) but not at the tenth
 * (1 - 0.05/110); an exact contrast is decided at once, a row target never. */
static void test_decided_levels(void **st) {
  (void)st;
  rigor_stop_target_t t = {.contrast = true,
                           .units = 4,
                           .half_width = 0.01,
                           .estimate = log(1.05),
                           .se = 0.005,
                           .df = 3};
  rigor_stop_judgement_t j = {.known = true, .worst = 0.01, .targets = &t, .n = 1};
  assert_true(rigor_stop_all_decided(&j, 0.02, 1));
  assert_false(rigor_stop_all_decided(&j, 0.02, 10));
  /* An A/A narrowed well inside the threshold is `same`, also decided. */
  t.estimate = log(1.001);
  t.se = 0.001;
  assert_true(rigor_stop_all_decided(&j, 0.02, 1));
  /* Across the threshold: undecided. */
  t.estimate = log(1.02);
  assert_false(rigor_stop_all_decided(&j, 0.02, 1));
  rigor_stop_target_t exact = {
      .contrast = true, .units = 3, .estimate = log(2), .se = 0, .df = NAN, .exact = true};
  j.targets = &exact;
  assert_true(rigor_stop_all_decided(&j, 0.02, 50));
  rigor_stop_target_t row = {
      .contrast = false, .units = 9, .half_width = 0.001, .estimate = NAN, .se = NAN, .df = NAN};
  j.targets = &row;
  assert_false(rigor_stop_all_decided(&j, 0.02, 1));
  /* Fewer than two units: no interval, no decision. */
  t.units = 1;
  j.targets = &t;
  assert_false(rigor_stop_all_decided(&j, 0.02, 1));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_faults),         cmocka_unit_test(test_quantised),
      cmocka_unit_test(test_rows),           cmocka_unit_test(test_cells),
      cmocka_unit_test(test_primary_metric), cmocka_unit_test(test_one_value_a_level),
      cmocka_unit_test(test_decided_levels),
  };
  return cmocka_run_group_tests(tests, setup, NULL);
}

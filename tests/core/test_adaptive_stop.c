/* The stop rule follows the records as they are written instead of re-reading the results file:
 * real adaptive experiments of the null and exact plugins (contrasts, rows, several cells,
 * interleaved arms, an exact primary metric), each stop record checked against what a fresh
 * analysis of the final file computes, to the last bit, and the accumulator fed the same records
 * one at a time checked against an analysis of every prefix of them; what cannot be followed
 * stops the runner. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis.h"
#include "contrast.h"
#include "experiment.h"
#include "jobs.h"
#include "precision_acc.h"
#include "support.h"

static const char *type_of(const json_t *rec) {
  return json_string_value(json_object_get(rec, "type"));
}

static json_t *last_stop(const json_t *recs) {
  size_t i;
  json_t *rec, *found = NULL;
  json_array_foreach(recs, i, rec) {
    if (!strcmp(type_of(rec), "stop")) found = rec;
  }
  return found;
}

/* The same number, where infinity is written as null. */
static void assert_same_half_width(const json_t *written, double computed) {
  if (isfinite(computed))
    assert_true(json_real_value(written) == computed);
  else
    assert_true(json_is_null(written));
}

static void assert_same_text(const json_t *written, const char *computed) {
  if (computed)
    assert_string_equal(json_string_value(written), computed);
  else
    assert_null(written);
}

/* The stop record's worst and targets equal a fresh analysis of the file. */
static void check_stop_record(const char *path, const json_t *recs) {
  const json_t *stop = last_stop(recs);
  assert_non_null(stop);
  rigor_analysis_t *a = NULL;
  char err[1024];
  assert_int_equal(rigor_analysis_load(&path, 1, &a, err, sizeof err), 0);
  const rigor_exp_analysis_t *e = &a->exps[0];
  assert_same_half_width(json_object_get(stop, "worst_half_width_log"),
                         rigor_precision_worst(e, NULL, NULL));
  const json_t *targets = json_object_get(stop, "targets");
  rigor_contrasts_t *c = NULL;
  assert_int_equal(rigor_contrasts_build(e, NULL, NULL, &c), 0);
  if (c->n) {
    assert_int_equal(json_array_size(targets), c->n);
    for (size_t i = 0; i < c->n; i++) {
      const json_t *t = json_array_get(targets, i);
      const rigor_contrast_t *x = &c->items[i];
      assert_string_equal(json_string_value(json_object_get(t, "kind")), "contrast");
      assert_same_text(json_object_get(t, "axis"), x->axis);
      assert_same_text(json_object_get(t, "level"), x->label);
      assert_same_text(json_object_get(t, "reference"), x->ref_label);
      assert_same_text(json_object_get(t, "cell"), x->cell);
      assert_same_text(json_object_get(t, "point_label"), x->point_label);
      assert_int_equal(json_integer_value(json_object_get(t, "point")), x->point);
      assert_int_equal(json_integer_value(json_object_get(t, "blocks")), x->n_pairs);
      assert_same_half_width(json_object_get(t, "half_width_log"), x->half_width);
    }
  } else {
    assert_int_equal(json_array_size(targets), e->n_rows);
    for (size_t r = 0; r < e->n_rows; r++) {
      const json_t *t = json_array_get(targets, r);
      const rigor_row_t *w = &e->rows[r];
      assert_string_equal(json_string_value(json_object_get(t, "kind")), "row");
      assert_int_equal(json_integer_value(json_object_get(t, "variant")), w->variant);
      assert_same_text(json_object_get(t, "variant_label"), w->variant_label);
      assert_same_text(json_object_get(t, "point_label"), w->point_label);
      assert_int_equal(json_integer_value(json_object_get(t, "runs")), w->figure.n_runs);
      assert_same_half_width(json_object_get(t, "half_width_log"), w->figure.half_width);
    }
  }
  rigor_contrasts_free(c);
  rigor_analysis_free(a);
}

/* The judgement of the accumulator against an analysis of the same records. */
static void check_judgement(rigor_precision_acc_t *acc, const json_t *prefix) {
  rigor_analysis_t *a = NULL;
  char err[1024];
  assert_int_equal(rigor_analysis_of_records(json_deep_copy(prefix), "prefix", &a, err, sizeof err),
                   0);
  const rigor_exp_analysis_t *e = &a->exps[0];
  rigor_stop_judgement_t j;
  assert_int_equal(rigor_precision_acc_judge(acc, e->name, &j), 0);
  assert_true(j.known);
  double worst = rigor_precision_worst(e, NULL, NULL);
  assert_true(j.worst == worst || (isinf(j.worst) && isinf(worst)));
  rigor_contrasts_t *c = NULL;
  assert_int_equal(rigor_contrasts_build(e, NULL, NULL, &c), 0);
  assert_int_equal(j.n, c->n ? c->n : e->n_rows);
  for (size_t i = 0; i < j.n; i++) {
    const rigor_stop_target_t *t = &j.targets[i];
    double hw = c->n ? c->items[i].half_width : e->rows[i].figure.half_width;
    assert_true(t->half_width == hw || (isinf(hw) && isinf(t->half_width)));
    assert_int_equal(t->units, c->n ? c->items[i].n_pairs : e->rows[i].figure.n_runs);
  }
  rigor_contrasts_free(c);
  rigor_stop_judgement_free(&j);
  rigor_analysis_free(a);
}

/* Feeds the file's records one by one; after every run record the judgement is the
 * analysis's. */
static void check_every_prefix(const json_t *recs) {
  rigor_precision_acc_t *acc = rigor_precision_acc_new();
  json_t *prefix = json_array();
  size_t i, runs = 0;
  json_t *rec;
  char err[1024];
  json_array_foreach(recs, i, rec) {
    assert_int_equal(rigor_precision_acc_feed(acc, "results", rec, err, sizeof err), 0);
    json_array_append(prefix, rec);
    if (strcmp(type_of(rec), "run") == 0) {
      check_judgement(acc, prefix);
      runs++;
    }
  }
  assert_true(runs >= 4);
  json_decref(prefix);
  rigor_precision_acc_free(acc);
}

static void run_and_check(const char *name, const char *yaml, const char *reason) {
  char file[64], results[64];
  snprintf(file, sizeof file, "%s.yaml", name);
  snprintf(results, sizeof results, "%s.jsonl", name);
  char *cfg = config_in(scratch, file, yaml);
  const char *args[] = {"run", cfg, "--plugin-path", RIGOR_TEST_PLUGIN_DIR, "--no-report", NULL};
  cmd_result_t r = rigor_exec(scratch, args);
  if (r.exit_code != 0) fail_msg("rigor exited %d:\n%s", r.exit_code, r.err);
  char *out = path_join(scratch, results);
  json_t *recs = results_read(out);
  assert_string_equal(json_string_value(json_object_get(last_stop(recs), "reason")), reason);
  check_stop_record(out, recs);
  check_every_prefix(recs);
  json_decref(recs);
  free(out);
  cmd_result_free(&r);
  free(cfg);
}

/* Two levels of one axis, out of reach: every block of max, a contrast per point. */
static void test_contrasts_at_max(void **st) {
  (void)st;
  run_and_check("c",
                "schema: 1\nname: c\nplugin: \"null\"\n"
                "matrix: {spin_ns: [20000, 30000]}\n"
                "sweep: {bytes: [64, 128]}\n"
                "timing: {warmup: 1, cycles: 3, iters: 10}\n"
                "order: {design: latin, replicates: {min: 2, max: 5, precision: 0.0001%}}\n"
                "output: c.jsonl\n",
                "max");
}

/* Two axes: the contrasts of each in every cell of the other. */
static void test_cells(void **st) {
  (void)st;
  run_and_check("x",
                "schema: 1\nname: x\nplugin: \"null\"\n"
                "matrix: {spin_ns: [20000, 30000], bytes: [64, 256]}\n"
                "timing: {warmup: 1, cycles: 3, iters: 10}\n"
                "order: {replicates: {min: 2, max: 3, precision: 0.0001%}}\n"
                "output: x.jsonl\n",
                "max");
}

/* No axis of several levels: each row's own interval; a generous precision stops it early. */
static void test_rows(void **st) {
  (void)st;
  run_and_check("r",
                "schema: 1\nname: r\nplugin: \"null\"\n"
                "params: {spin_ns: 20000}\n"
                "timing: {warmup: 1, cycles: 3, iters: 10}\n"
                "order: {replicates: {min: 4, max: 8, precision: 90%}}\n"
                "output: r.jsonl\n",
                "precision");
}

/* Interleaved arms: the contrast pairs the windows of one cycle inside each run. */
static void test_interleaved_arms(void **st) {
  (void)st;
  run_and_check("i",
                "schema: 1\nname: i\nplugin: \"null\"\n"
                "matrix: {spin_ns: [20000, 30000]}\n"
                "timing: {warmup: 1, cycles: 4, iters: 10}\n"
                "order: {interleave: spin_ns, replicates: {min: 2, max: 5, precision: "
                "0.0001%}}\n"
                "output: i.jsonl\n",
                "max");
}

/* The exact plugin's primary metric: exact contrasts of no width stop at once. */
static void test_exact_metric(void **st) {
  (void)st;
  run_and_check("e",
                "schema: 1\nname: e\nplugin: exact\n"
                "matrix: {cost: [2, 4]}\n"
                "timing: {warmup: 1, cycles: 5, iters: auto, min_window: 1ms}\n"
                "order: {design: latin, replicates: {min: 4, max: 10, precision: 80%}}\n"
                "output: e.jsonl\n",
                "precision");
}

/* A record the reader refuses is an error, never dropped. */
static void test_a_bad_record_is_an_error(void **st) {
  (void)st;
  rigor_precision_acc_t *acc = rigor_precision_acc_new();
  json_t *bad = json_pack("{s:s}", "experiment", "x"); /* no type */
  char err[256];
  assert_int_not_equal(rigor_precision_acc_feed(acc, "results", bad, err, sizeof err), 0);
  assert_true(err[0] != '\0');
  json_decref(bad);
  rigor_precision_acc_free(acc);
}

/* Fails when asked to follow the second run record. */
static int fail_at_second_run(void *arg, const rigor_job_t *job, const json_t *rec, char *err,
                              size_t errlen) {
  (void)job;
  int *runs = arg;
  if (strcmp(type_of(rec), "run") != 0 || ++*runs < 2) return 0;
  snprintf(err, errlen, "cannot follow run %lld",
           (long long)json_integer_value(json_object_get(rec, "run")));
  return RIGOR_ENOMEM;
}

/* A record the caller cannot follow stops the runner with the caller's message: no run
 * starts after it. */
static void test_a_follow_error_stops_the_runner(void **st) {
  (void)st;
  char *cfg_path = config_in(scratch, "f.yaml",
                             "schema: 1\nname: f\nplugin: \"null\"\n"
                             "matrix: {spin_ns: [20000, 30000]}\n"
                             "timing: {warmup: 0, cycles: 2, iters: 10}\n"
                             "order: {replicates: {min: 2, max: 6, precision: 0.0001%}}\n"
                             "output: f.jsonl\n");
  char *out = path_join(scratch, "f.jsonl");
  const char *plugin_dirs[] = {RIGOR_TEST_PLUGIN_DIR, NULL};
  rigor_config_opts_t copts = {.search = {.extra_dirs = plugin_dirs}, .output_override = out};
  rigor_config_t *cfg = NULL;
  char err[4096];
  assert_int_equal(rigor_config_load(cfg_path, &copts, &cfg, err, sizeof err), 0);
  rigor_jobs_t jobs;
  assert_int_equal(rigor_jobs_build(cfg, &jobs), 0);
  int runs = 0;
  rigor_run_opts_t ropts = {.search = copts.search,
                            .on_record = fail_at_second_run,
                            .on_record_arg = &runs,
                            .rigor_version = "test",
                            .rigor_git = "test"};
  rigor_tally_t tally;
  int rc = rigor_runner_execute(jobs.jobs, jobs.n, &ropts, &tally, err, sizeof err);
  assert_true(rc < 0);
  assert_string_equal(err, "cannot follow run 1");
  assert_int_equal(tally.ran, 2);
  json_t *recs = results_read(out);
  assert_int_equal(results_count(recs, "run", NULL, NULL), 2);
  json_decref(recs);
  rigor_jobs_free(&jobs);
  rigor_config_free(cfg);
  free(out);
  free(cfg_path);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_contrasts_at_max, scratch_setup, scratch_teardown),
      cmocka_unit_test_setup_teardown(test_cells, scratch_setup, scratch_teardown),
      cmocka_unit_test_setup_teardown(test_rows, scratch_setup, scratch_teardown),
      cmocka_unit_test_setup_teardown(test_interleaved_arms, scratch_setup, scratch_teardown),
      cmocka_unit_test_setup_teardown(test_exact_metric, scratch_setup, scratch_teardown),
      cmocka_unit_test(test_a_bad_record_is_an_error),
      cmocka_unit_test_setup_teardown(test_a_follow_error_stops_the_runner, scratch_setup,
                                      scratch_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

/* rigor import against the real binary: each tool's committed output (tests/fixtures/import)
 * becomes a results file that `rigor report` reads with the runs and samples the source holds,
 * and a malformed input is refused with exit 2, its file and line or JSON path, and no file. */
#include <jansson.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "test_files.h"

#define FIXTURES RIGOR_SOURCE_DIR "/tests/fixtures/import"

static char dir[1024];

typedef struct result {
  int rc;
  char *out, *err;
} result_t;

static char *slurp(const char *path) {
  char *text = test_slurp(path, NULL);
  return text ? text : strdup("");
}

/* `rigor ARGS` in the scratch folder, with $F naming the fixtures. */
static result_t rigor(const char *fmt, ...) {
  result_t r;
  va_list ap;
  va_start(ap, fmt);
  r.rc = test_rigor_vin(dir, "F='" FIXTURES "'", &r.out, &r.err, fmt, ap);
  va_end(ap);
  return r;
}

static void result_free(result_t *r) {
  free(r->out);
  free(r->err);
}

static void write_text(const char *name, const char *text) {
  char path[2048];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

static bool exists(const char *name) {
  char path[2048];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  return access(path, F_OK) == 0;
}

/* Whether a file in the scratch folder has a name that starts with `prefix`. */
static bool any_file_starting(const char *prefix) {
  char cmd[2200];
  snprintf(cmd, sizeof cmd, "ls -1 '%s' | grep -q '^%s'", dir, prefix);
  return system(cmd) == 0;
}

#define ASSERT_HAS(text, needle)                                                                   \
  do {                                                                                             \
    if (!strstr((text), (needle))) fail_msg("expected '%s' in:\n%s", (needle), (text));            \
  } while (0)

static int setup(void **state) {
  (void)state;
  snprintf(dir, sizeof dir, "%s/import-scratch", RIGOR_BINARY_DIR "/tests");
  char cmd[2200];
  snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", dir, dir);
  return system(cmd) == 0 ? 0 : -1;
}

/* Imports `files` as `format` into `out` and reads it back through `rigor report`. */
static json_t *import_and_report(const char *format, const char *files, const char *out) {
  result_t r = rigor("import %s %s -o %s --force", format, files, out);
  if (r.rc != 0) fail_msg("rigor import %s %s: exit %d\n%s", format, files, r.rc, r.err);
  result_free(&r);
  r = rigor("report --format json %s", out);
  if (r.rc != 0) fail_msg("rigor report %s: exit %d\n%s", out, r.rc, r.err);
  json_error_t je;
  json_t *doc = json_loads(r.out, 0, &je);
  if (!doc) fail_msg("report of %s is no JSON: %s", out, je.text);
  result_free(&r);
  return doc;
}

static json_t *experiment(json_t *report, size_t i) {
  return json_array_get(json_object_get(report, "experiments"), i);
}

static long long runs_of(json_t *exp, size_t variant, const char *status) {
  json_t *v = json_array_get(json_object_get(exp, "variants"), variant);
  return json_integer_value(json_object_get(json_object_get(v, "runs"), status));
}

static long long samples_of_row(json_t *exp, size_t row) {
  json_t *r = json_array_get(json_object_get(exp, "rows"), row);
  return json_integer_value(json_object_get(json_object_get(r, "time_s"), "n"));
}

/* The experiment record of a results file (its first line). */
static json_t *experiment_record(const char *name) {
  char path[2048];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  char *text = slurp(path);
  text[strcspn(text, "\n")] = '\0';
  json_t *rec = json_loads(text, 0, NULL);
  free(text);
  assert_non_null(rec);
  return rec;
}

static void assert_source(const char *results, const char *tool, const char *version,
                          const char *file) {
  json_t *rec = experiment_record(results);
  json_t *src = json_object_get(rec, "source");
  assert_string_equal(json_string_value(json_object_get(src, "tool")), tool);
  if (version)
    assert_string_equal(json_string_value(json_object_get(src, "version")), version);
  else
    assert_true(json_is_null(json_object_get(src, "version")));
  ASSERT_HAS(json_string_value(json_object_get(src, "file")), file);
  assert_int_equal(strlen(json_string_value(json_object_get(src, "sha256"))), 64);
  assert_true(json_array_size(json_object_get(src, "notes")) > 0);
  json_decref(rec);
}

static void test_hyperfine(void **state) {
  (void)state;
  json_t *rep = import_and_report("hyperfine", "$F/hyperfine-params.json", "hf.jsonl");
  json_t *e = experiment(rep, 0);
  assert_string_equal(json_string_value(json_object_get(e, "name")), "hyperfine-params");
  /* One variant per command, one run per execution, the parameter as the axis contrasted. */
  assert_int_equal(json_array_size(json_object_get(e, "variants")), 2);
  assert_int_equal(runs_of(e, 0, "ok"), 5);
  assert_int_equal(runs_of(e, 1, "ok"), 5);
  assert_int_equal(samples_of_row(e, 0), 5);
  json_t *c = json_array_get(json_object_get(e, "contrasts"), 0);
  assert_string_equal(json_string_value(json_object_get(c, "axis")), "ms");
  /* The report says what the source does not record. */
  json_t *notes = json_object_get(e, "notes");
  bool said = false;
  for (size_t k = 0; k < json_array_size(notes); k++)
    said = said || strstr(json_string_value(json_array_get(notes, k)), "imported from hyperfine");
  if (!said) fail_msg("no note on what the source leaves out");
  /* hyperfine checks nothing: how many samples were wrong is unknown, not 0. */
  assert_true(
      json_is_null(json_object_get(json_array_get(json_object_get(e, "rows"), 0), "wrong")));
  json_decref(rep);
  assert_source("hf.jsonl", "hyperfine", NULL, "hyperfine-params.json");

  /* A command that exits non-zero gives failed runs with the exit code as the reason. */
  rep = import_and_report("hyperfine", "$F/hyperfine-exit-codes.json", "hf2.jsonl");
  e = experiment(rep, 0);
  assert_int_equal(runs_of(e, 0, "ok"), 4);
  assert_int_equal(runs_of(e, 1, "failed"), 4);
  json_t *reasons = json_object_get(json_array_get(json_object_get(e, "variants"), 1), "reasons");
  ASSERT_HAS(json_string_value(json_array_get(reasons, 0)), "exit code 3");
  json_decref(rep);
}

static void test_google_benchmark(void **state) {
  (void)state;
  json_t *rep = import_and_report("google-benchmark", "$F/google-benchmark.json", "gb.jsonl");
  json_t *e = experiment(rep, 0);
  /* Families as variants, instances as points, repetitions as runs, aggregates left out. */
  assert_int_equal(json_array_size(json_object_get(e, "variants")), 2);
  assert_int_equal(runs_of(e, 0, "ok"), 3);
  assert_int_equal(runs_of(e, 1, "ok"), 3);
  json_t *rows = json_object_get(e, "rows");
  assert_int_equal(json_array_size(rows), 3);
  for (size_t i = 0; i < 3; i++)
    assert_int_equal(samples_of_row(e, i), 3);
  /* Times per iteration in seconds, whatever unit the family reported in. */
  double memcpy64 = json_real_value(
      json_object_get(json_object_get(json_array_get(rows, 0), "time_s"), "median"));
  double sum = json_real_value(
      json_object_get(json_object_get(json_array_get(rows, 2), "time_s"), "median"));
  assert_true(memcpy64 > 1e-9 && memcpy64 < 1e-6);
  assert_true(sum > 1e-6 && sum < 1e-3);
  json_t *ctx = json_object_get(e, "context");
  assert_string_equal(json_string_value(json_object_get(ctx, "host")), "vm");
  json_decref(rep);
  assert_source("gb.jsonl", "google-benchmark", NULL, "google-benchmark.json");
}

static void test_pyperf(void **state) {
  (void)state;
  json_t *rep = import_and_report("pyperf", "$F/pyperf-suite.json", "pp.jsonl");
  json_t *e = experiment(rep, 0);
  /* The calibration runs hold no values and are no runs; the warmups are no samples. */
  assert_int_equal(json_array_size(json_object_get(e, "variants")), 2);
  assert_int_equal(runs_of(e, 0, "ok"), 3);
  assert_int_equal(runs_of(e, 1, "ok"), 3);
  assert_int_equal(samples_of_row(e, 0), 9);
  assert_int_equal(samples_of_row(e, 1), 9);
  json_decref(rep);
  assert_source("pp.jsonl", "pyperf", "2.11.0", "pyperf-suite.json");
}

static void test_nccl_tests(void **state) {
  (void)state;
  json_t *rep = import_and_report(
      "nccl-tests", "$F/all_reduce_run1.txt $F/all_reduce_run2.txt $F/all_reduce_run3.json",
      "nccl.jsonl");
  json_t *e = experiment(rep, 0);
  assert_string_equal(json_string_value(json_object_get(e, "name")), "all_reduce_perf");
  /* Out-of-place and in-place, each run of the binary one run of each, six sizes. */
  assert_int_equal(json_array_size(json_object_get(e, "variants")), 2);
  assert_int_equal(runs_of(e, 0, "ok"), 3);
  assert_int_equal(runs_of(e, 1, "ok"), 3);
  json_t *rows = json_object_get(e, "rows");
  assert_int_equal(json_array_size(rows), 12);
  for (size_t i = 0; i < 12; i++)
    assert_int_equal(samples_of_row(e, i), 3);
  json_t *row = json_array_get(rows, 5);
  assert_string_equal(json_string_value(json_object_get(row, "point_label")), "bytes=1048576");
  assert_true(json_real_value(json_object_get(row, "busbw_bytes_per_s")) > 1e11);
  assert_string_equal(json_string_value(json_object_get(
                          json_array_get(json_object_get(e, "contrasts"), 0), "axis")),
                      "placement");
  assert_string_equal(json_string_value(json_object_get(json_object_get(e, "context"), "host")),
                      "node01");
  json_decref(rep);
  assert_source("nccl.jsonl", "nccl-tests", "2.19.6", "all_reduce_run1.txt");
  json_t *rec = experiment_record("nccl.jsonl");
  json_t *settings = json_object_get(json_object_get(rec, "config"), "settings");
  assert_int_equal(json_integer_value(json_object_get(settings, "iterations")), 20);
  assert_int_equal(json_integer_value(json_object_get(settings, "warmup_iters")), 5);
  assert_int_equal(json_integer_value(json_object_get(settings, "ranks")), 8);
  assert_int_equal(json_array_size(json_object_get(json_object_get(rec, "source"), "files")), 3);
  json_decref(rec);
}

/* Runs of one binary that ran otherwise are no blocks of one experiment; a run whose output
 * stops before the summary did not finish. */
static void test_nccl_tests_runs_that_differ(void **state) {
  (void)state;
  char path[2048];
  snprintf(path, sizeof path, "%s/all_reduce_run2.txt", FIXTURES);
  char *text = slurp(path);
  char *iters = strstr(text, " iters: 20 ");
  assert_non_null(iters);
  memcpy(iters, " iters: 50 ", 11);
  write_text("more-iters.txt", text);
  result_t r = rigor("import nccl-tests $F/all_reduce_run1.txt more-iters.txt -o differ.jsonl");
  assert_int_equal(r.rc, 2);
  ASSERT_HAS(r.err, "more-iters.txt:1: all_reduce_perf ran with other settings (iterations)");
  assert_false(exists("differ.jsonl"));
  result_free(&r);

  *strstr(text, "# Out of bounds") = '\0';
  memcpy(strstr(text, " iters: 50 "), " iters: 20 ", 11);
  write_text("cut.txt", text);
  free(text);
  json_t *rep = import_and_report("nccl-tests", "$F/all_reduce_run1.txt cut.txt", "cut.jsonl");
  json_t *e = experiment(rep, 0);
  assert_int_equal(runs_of(e, 0, "ok"), 1);
  assert_int_equal(runs_of(e, 0, "failed"), 1);
  json_decref(rep);
}

/* The import refused: exit 2, `message` on stderr, and neither the output nor a temporary file. */
static void assert_refused(const char *format, const char *file, const char *message) {
  result_t r = rigor("import %s %s -o refused.jsonl", format, file);
  if (r.rc != 2) fail_msg("import %s %s: exit %d, expected 2\n%s", format, file, r.rc, r.err);
  ASSERT_HAS(r.err, message);
  ASSERT_HAS(r.err, "nothing was written");
  assert_false(exists("refused.jsonl"));
  assert_false(any_file_starting("refused.jsonl.import-"));
  result_free(&r);
}

static void test_malformed_inputs_are_refused(void **state) {
  (void)state;
  write_text("hf-string.json", "{\"results\": [{\"command\": \"true\", \"times\": [0.1, \"x\"]}]}");
  assert_refused("hyperfine", "hf-string.json",
                 "hf-string.json: $.results[0].times[1]: is not a number");
  write_text("hf-cut.json", "{\"results\": [{\"command\": \"true\",\n \"times\": [0.1");
  assert_refused("hyperfine", "hf-cut.json", "hf-cut.json:2:");
  write_text(
      "hf-codes.json",
      "{\"results\": [{\"command\": \"true\", \"times\": [0.1, 0.2], \"exit_codes\": [0]}]}");
  assert_refused("hyperfine", "hf-codes.json", "\"exit_codes\" has 1 entries for 2 times");

  write_text("gb-unit.json", "{\"context\": {}, \"benchmarks\": [{\"name\": \"BM_x\", "
                             "\"iterations\": 10, \"real_time\": 1.0, \"cpu_time\": 1.0}]}");
  assert_refused("google-benchmark", "gb-unit.json",
                 "gb-unit.json: $.benchmarks[0]: \"time_unit\" is missing, expected a string");
  write_text("gb-aggregates.json",
             "{\"context\": {}, \"benchmarks\": [{\"name\": \"BM_x_mean\", \"run_name\": \"BM_x\", "
             "\"run_type\": \"aggregate\", \"aggregate_name\": \"mean\", \"iterations\": 3, "
             "\"real_time\": 1.0, \"cpu_time\": 1.0, \"time_unit\": \"ns\"}]}");
  assert_refused("google-benchmark", "gb-aggregates.json", "holds only aggregates");

  write_text("pp-value.json", "{\"version\": \"1.0\", \"benchmarks\": [{\"metadata\": {\"name\": "
                              "\"b\"}, \"runs\": [{\"values\": [1e-5, null]}]}]}");
  assert_refused("pyperf", "pp-value.json",
                 "pp-value.json: $.benchmarks[0].runs[0].values[1]: is not a number");

  write_text("nccl-row.txt", "# nThread 1 nGpus 1 minBytes 8 maxBytes 16 step: 2(factor) warmup "
                             "iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0\n"
                             "#  size count type redop root time algbw busbw #wrong time algbw "
                             "busbw #wrong\n"
                             "   8  2  float  sum  -1  10.0  0.00  0.00  0  10.1  0.00  0.00  0\n"
                             "  16  4  float  sum  -1  10.0  zero  0.00  0  10.1  0.00  0.00  0\n");
  assert_refused("nccl-tests", "nccl-row.txt",
                 "nccl-row.txt:4: 'zero' in column algbw is not a number");
  write_text("nccl-early.txt", "   8  2  float  sum  -1  10.0  0.00  0.00  0\n");
  assert_refused("nccl-tests", "nccl-early.txt",
                 "nccl-early.txt:1: a result row before the table header");
  write_text("nccl-json.json", "{\"config\": {}, \"results\": [{\"size\": 8, \"out_of_place\": "
                               "{\"time\": \"fast\", \"alg_bw\": 0, \"bus_bw\": 0}}]}");
  assert_refused("nccl-tests", "nccl-json.json",
                 "nccl-json.json: $.results[0].out_of_place: \"time\" is not a number");
}

static void test_output_is_never_overwritten_unasked(void **state) {
  (void)state;
  write_text("kept.jsonl", "precious\n");
  result_t r = rigor("import hyperfine $F/hyperfine-params.json -o kept.jsonl");
  assert_int_equal(r.rc, 2);
  ASSERT_HAS(r.err, "kept.jsonl exists");
  result_free(&r);
  char path[2048];
  snprintf(path, sizeof path, "%s/kept.jsonl", dir);
  char *text = slurp(path);
  assert_string_equal(text, "precious\n");
  free(text);
  /* Two files that would give one experiment name cannot share a results file. */
  r = rigor("import hyperfine $F/hyperfine-params.json $F/../import/hyperfine-params.json "
            "-o twice.jsonl");
  assert_int_equal(r.rc, 2);
  ASSERT_HAS(r.err, "both give an experiment named 'hyperfine-params'");
  assert_false(exists("twice.jsonl"));
  result_free(&r);
  r = rigor("import hyperfin $F/hyperfine-params.json -o x.jsonl");
  assert_int_equal(r.rc, 2);
  ASSERT_HAS(r.err, "(did you mean 'hyperfine'?)");
  result_free(&r);
}

static void test_store_add_from(void **state) {
  (void)state;
  const char *args = "store add --db imported.db --commit c0ffee --date 2026-11-30T10:00Z "
                     "--from nccl-tests $F/all_reduce_run1.txt $F/all_reduce_run2.txt";
  result_t r = rigor("%s", args);
  if (r.rc != 0) fail_msg("store add --from: exit %d\n%s", r.rc, r.err);
  ASSERT_HAS(r.out, "4 runs, 24 samples");
  result_free(&r);
  /* The same files again add nothing: the records they give are the same. */
  r = rigor("%s", args);
  assert_int_equal(r.rc, 0);
  ASSERT_HAS(r.out, "already stored");
  result_free(&r);
  r = rigor("store ls --db imported.db --format csv");
  assert_int_equal(r.rc, 0);
  ASSERT_HAS(r.out, "nccl-tests:");
  ASSERT_HAS(r.out, "all_reduce_run2.txt");
  result_free(&r);
  r = rigor("store add --db imported.db --from pyperf nccl-row.txt");
  assert_int_equal(r.rc, 2);
  result_free(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_hyperfine),
      cmocka_unit_test(test_google_benchmark),
      cmocka_unit_test(test_pyperf),
      cmocka_unit_test(test_nccl_tests),
      cmocka_unit_test(test_nccl_tests_runs_that_differ),
      cmocka_unit_test(test_malformed_inputs_are_refused),
      cmocka_unit_test(test_output_is_never_overwritten_unasked),
      cmocka_unit_test(test_store_add_from),
  };
  return cmocka_run_group_tests(tests, setup, NULL);
}

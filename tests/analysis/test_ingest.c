/* The analysis reading results as a stream: the same statistics as jansson's reading of every
 * line, plugin metrics with many names, CRLF files, and rows that own their labels. */
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
#include "fixture.h"
#include "stats.h"

#define DIR RIGOR_BINARY_DIR "/tests/ingest-data"

static int setup(void **state) {
  (void)state;
  return system("mkdir -p " DIR);
}

static const rigor_row_t *find_row(const rigor_exp_analysis_t *e, uint32_t v, uint32_t p) {
  for (size_t r = 0; r < e->n_rows; r++)
    if (e->rows[r].variant == v && e->rows[r].point == p) return &e->rows[r];
  return NULL;
}

static rigor_analysis_t *load(const char *path) {
  rigor_analysis_t *a = NULL;
  char err[512] = "";
  if (rigor_analysis_load(&path, 1, &a, err, sizeof err) != 0) fail_msg("%s", err);
  return a;
}

/* The reference: every line parsed by jansson, the usable times of each (variant, point) in file
 * order (ok samples of runs whose record says ok), and the metric and iteration values. */
typedef struct oracle_row {
  double *times, *metric, *raw;
  size_t n, n_metric, n_raw, iter_n;
} oracle_row_t;

enum { MAX_VARIANTS = 4, MAX_POINTS = 4 };

static void oracle_read(const char *path, oracle_row_t rows[MAX_VARIANTS][MAX_POINTS]) {
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  json_t *lines = json_array(), *ok_runs = json_object();
  char *buf = NULL;
  size_t cap = 0;
  ssize_t len;
  while ((len = getline(&buf, &cap, f)) > 0) {
    json_error_t jerr;
    json_t *rec = json_loadb(buf, (size_t)len, 0, &jerr);
    assert_non_null(rec);
    if (strcmp(json_string_value(json_object_get(rec, "type")), "run") == 0) {
      char key[64];
      snprintf(key, sizeof key, "%lld/%lld",
               (long long)json_integer_value(json_object_get(rec, "run")),
               (long long)json_integer_value(json_object_get(rec, "attempt")));
      json_object_set_new(
          ok_runs, key,
          json_boolean(strcmp(json_string_value(json_object_get(rec, "status")), "ok") == 0));
    }
    json_array_append_new(lines, rec);
  }
  free(buf);
  fclose(f);
  memset(rows, 0, sizeof(oracle_row_t) * MAX_VARIANTS * MAX_POINTS);
  size_t i;
  json_t *rec;
  json_array_foreach(lines, i, rec) {
    if (strcmp(json_string_value(json_object_get(rec, "type")), "sample") != 0) continue;
    char key[64];
    snprintf(key, sizeof key, "%lld/%lld",
             (long long)json_integer_value(json_object_get(rec, "run")),
             (long long)json_integer_value(json_object_get(rec, "attempt")));
    if (!json_is_true(json_object_get(ok_runs, key)) ||
        strcmp(json_string_value(json_object_get(rec, "status")), "ok") != 0)
      continue;
    oracle_row_t *r = &rows[json_integer_value(json_object_get(rec, "variant"))]
                           [json_integer_value(json_object_get(rec, "point"))];
    r->times = realloc(r->times, (r->n + 1) * sizeof *r->times);
    r->times[r->n++] = json_number_value(json_object_get(rec, "time_s"));
    json_t *m = json_object_get(json_object_get(rec, "metrics"), "vf_total_cycles");
    if (m) {
      r->metric = realloc(r->metric, (r->n_metric + 1) * sizeof *r->metric);
      r->metric[r->n_metric++] = json_number_value(m);
    }
    json_t *it = json_object_get(rec, "iterations"), *raw = json_object_get(it, "raw"), *x;
    r->iter_n += (size_t)json_integer_value(json_object_get(it, "n"));
    size_t k;
    json_array_foreach(raw, k, x) {
      r->raw = realloc(r->raw, (r->n_raw + 1) * sizeof *r->raw);
      r->raw[r->n_raw++] = json_number_value(x);
    }
  }
  json_decref(lines);
  json_decref(ok_runs);
}

static void oracle_free(oracle_row_t rows[MAX_VARIANTS][MAX_POINTS]) {
  for (int v = 0; v < MAX_VARIANTS; v++)
    for (int p = 0; p < MAX_POINTS; p++)
      free(rows[v][p].times), free(rows[v][p].metric), free(rows[v][p].raw);
}

/* Exact: the same doubles in the same order give the same figures. */
#define assert_same(a, b)                                                                          \
  do {                                                                                             \
    double a_ = (a), b_ = (b);                                                                     \
    if (!(a_ == b_ || (isnan(a_) && isnan(b_))))                                                   \
      fail_msg("%s = %.17g, expected %.17g", #a, a_, b_);                                          \
  } while (0)

static void test_same_statistics_as_jansson(void **state) {
  (void)state;
  fx_spec_t s;
  fx_defaults(&s);
  s.n_variants = 3;
  s.n_blocks = 40;
  s.cycles = 10;
  s.points = 3;
  s.cv = 0.02;
  s.first_cycle = 0.05;
  s.metric = "vf_total_cycles";
  s.metric_value = 4321;
  s.iterations = 1;
  s.wrong_run = 4;
  s.failed_run = 7;
  s.interrupted_run = 9;
  s.seed = 42;
  fx_write(DIR "/large.jsonl", &s);
  rigor_analysis_t *a = load(DIR "/large.jsonl");
  oracle_row_t oracle[MAX_VARIANTS][MAX_POINTS];
  oracle_read(DIR "/large.jsonl", oracle);
  const rigor_exp_analysis_t *e = &a->exps[0];
  assert_int_equal(e->n_rows, 9);
  assert_int_equal(e->n_runs, 120);
  assert_int_equal(e->ignored_samples, 10); /* the interrupted attempt's cycles at point 0 */
  size_t total = 0;
  for (uint32_t v = 0; v < 3; v++)
    for (uint32_t p = 0; p < 3; p++) {
      const rigor_row_t *row = find_row(e, v, p);
      const oracle_row_t *o = &oracle[v][p];
      assert_non_null(row);
      rigor_summary_t want;
      assert_int_equal(rigor_stats_summarize(o->times, o->n, &want), 0);
      assert_int_equal(row->n, o->n);
      assert_same(row->time.median, want.median);
      assert_same(row->time.cv, want.cv);
      assert_same(row->time.mean, want.mean);
      assert_same(row->time.p95, want.p95);
      for (size_t i = 0; i < o->n; i++)
        assert_same(row->times[i], o->times[i]);
      assert_int_equal(row->n_metrics, 1);
      assert_string_equal(row->metrics[0].name, "vf_total_cycles");
      assert_int_equal(row->metrics[0].n, o->n_metric);
      assert_same(row->metrics[0].median, rigor_stats_median(o->metric, o->n_metric));
      /* Iteration percentiles pool the raw values of the usable samples. */
      assert_true(row->has_iterations);
      assert_int_equal(row->iter_n, o->iter_n);
      rigor_stats_sort(o->raw, o->n_raw);
      assert_same(row->iter_p50, rigor_stats_median_sorted(o->raw, o->n_raw));
      assert_same(row->iter_p99, rigor_stats_percentile_sorted(o->raw, o->n_raw, 0.99));
      assert_same(row->iter_cv, 0.03);
      char label[32];
      snprintf(label, sizeof label, "bytes=%u", 1024u << p);
      assert_string_equal(row->point_label, label);
      assert_int_equal(json_integer_value(json_object_get(row->point_params, "bytes")), 1024 << p);
      assert_string_equal(row->window, "wall");
      total += row->n;
    }
  assert_true(total > 3000);
  oracle_free(oracle);
  rigor_analysis_free(a);
}

/* A plugin with hundreds of metric names: every one summarised, in the order they first came. */
static void test_many_metric_names_summarised(void **state) {
  (void)state;
  enum { N_METRICS = 400, N_RUNS = 4, N_CYCLES = 5 };
  FILE *f = fopen(DIR "/metrics.jsonl", "wb");
  assert_non_null(f);
  fputs("{\"schema\":\"rigor.result/1\",\"type\":\"experiment\",\"experiment\":\"m\",\"name\":"
        "\"m\",\"variants\":[{\"index\":0,\"label\":\"only\"}]}\n",
        f);
  for (int run = 0; run < N_RUNS; run++) {
    for (int c = 0; c < N_CYCLES; c++) {
      fprintf(f,
              "{\"schema\":\"rigor.result/1\",\"type\":\"sample\",\"experiment\":\"m\","
              "\"run\":%d,\"attempt\":1,\"variant\":0,\"cycle\":%d,\"point\":0,\"status\":\"ok\","
              "\"time_s\":0.001,\"metrics\":{",
              run, c);
      /* Each sample names them in its own rotation, so no order is the same twice running. */
      for (int k = 0; k < N_METRICS; k++) {
        int m = (k + run * 7 + c) % N_METRICS;
        fprintf(f, "%s\"metric_%03d\":%d", k ? "," : "", m, m * 10 + c);
      }
      fputs("}}\n", f);
    }
    fprintf(f,
            "{\"schema\":\"rigor.result/1\",\"type\":\"run\",\"experiment\":\"m\",\"run\":%d,"
            "\"attempt\":1,\"block\":%d,\"position\":0,\"variant\":0,\"status\":\"ok\"}\n",
            run, run);
  }
  fclose(f);
  rigor_analysis_t *a = load(DIR "/metrics.jsonl");
  const rigor_row_t *row = find_row(&a->exps[0], 0, 0);
  assert_non_null(row);
  assert_int_equal(row->n, N_RUNS * N_CYCLES);
  assert_int_equal(row->n_metrics, N_METRICS);
  for (int k = 0; k < N_METRICS; k++) {
    char name[32];
    snprintf(name, sizeof name, "metric_%03d", k); /* the first sample's order */
    assert_string_equal(row->metrics[k].name, name);
    assert_int_equal(row->metrics[k].n, N_RUNS * N_CYCLES);
    assert_same(row->metrics[k].median, k * 10 + 2); /* cycles 0..4 of every run */
    assert_same(row->metrics[k].min, k * 10);
  }
  rigor_analysis_free(a);
}

/* CRLF line endings and members in the writer's order give the rows an LF file gives. */
static void test_crlf_file_same_rows(void **state) {
  (void)state;
  fx_spec_t s;
  fx_defaults(&s);
  s.points = 2;
  s.metric = "vf_total_cycles";
  s.metric_value = 7;
  fx_write(DIR "/lf.jsonl", &s);
  FILE *in = fopen(DIR "/lf.jsonl", "rb"), *out = fopen(DIR "/crlf.jsonl", "wb");
  assert_non_null(in);
  assert_non_null(out);
  int ch;
  while ((ch = fgetc(in)) != EOF) {
    if (ch == '\n') fputc('\r', out);
    fputc(ch, out);
  }
  fclose(in);
  fclose(out);
  rigor_analysis_t *lf = load(DIR "/lf.jsonl"), *crlf = load(DIR "/crlf.jsonl");
  assert_int_equal(lf->exps[0].n_rows, crlf->exps[0].n_rows);
  assert_int_equal(lf->exps[0].n_runs, crlf->exps[0].n_runs);
  for (size_t r = 0; r < lf->exps[0].n_rows; r++) {
    const rigor_row_t *x = &lf->exps[0].rows[r], *y = &crlf->exps[0].rows[r];
    assert_int_equal(x->n, y->n);
    assert_same(x->time.median, y->time.median);
    assert_same(x->time.cv, y->time.cv);
    assert_string_equal(x->point_label, y->point_label);
    assert_true(json_equal(x->point_params, y->point_params));
  }
  rigor_analysis_free(lf);
  rigor_analysis_free(crlf);
}

/* Rows keep their labels after the file is gone: the analysis owns them. */
static void test_rows_own_their_labels(void **state) {
  (void)state;
  fx_spec_t s;
  fx_defaults(&s);
  s.points = 3;
  fx_write(DIR "/owned.jsonl", &s);
  rigor_analysis_t *a = load(DIR "/owned.jsonl");
  assert_int_equal(remove(DIR "/owned.jsonl"), 0);
  const rigor_row_t *row = find_row(&a->exps[0], 1, 2);
  assert_non_null(row);
  assert_string_equal(row->point_label, "bytes=4096");
  char *params = json_dumps(row->point_params, JSON_COMPACT);
  assert_string_equal(params, "{\"bytes\":4096}");
  free(params);
  assert_string_equal(row->window, "wall");
  assert_string_equal(row->variant_label, "v1");
  rigor_analysis_free(a);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_same_statistics_as_jansson),
      cmocka_unit_test(test_many_metric_names_summarised),
      cmocka_unit_test(test_crlf_file_same_rows),
      cmocka_unit_test(test_rows_own_their_labels),
  };
  return cmocka_run_group_tests(tests, setup, NULL);
}

/* The streaming results reader: what it tolerates (a cut last line, a missing final newline,
 * CRLF, members in any order), what it refuses and with which message, and that its fast path
 * reads every clean sample exactly as jansson does. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "reader.h"
#include "rigor/plugin.h"
#include "sample_dom.h"
#include "sample_json.h"

#define DIR RIGOR_BINARY_DIR "/tests/records-data"

#define REC(type, extra)                                                                           \
  "{\"schema\":\"rigor.result/1\",\"type\":\"" type "\",\"experiment\":\"e\"" extra "}"

/* One sample as the fixture writes it, and the same record in the order `rigor run` writes. */
#define SAMPLE_FIXTURE_ORDER                                                                       \
  "{\"schema\":\"rigor.result/1\",\"type\":\"sample\",\"experiment\":\"e\",\"run\":3,"             \
  "\"attempt\":2,\"variant\":1,\"cycle\":4,\"point\":0,\"point_label\":\"bytes=1024\","            \
  "\"point_params\":{\"bytes\":1024,\"f\":1.0,\"s\":[true,null,\"x\"]},\"status\":\"ok\","         \
  "\"window\":\"wall\",\"time_s\":1.5e-4,\"wall_s\":1.5e-4,\"cputime_s\":1.4e-4,\"iters\":20,"     \
  "\"agg\":1,\"bytes\":1024,\"flops\":0.0,\"bus_factor\":1.0,\"rates\":{\"bytes_per_s\":6.8e6,"    \
  "\"flops_per_s\":null,\"busbw_bytes_per_s\":6.8e6},\"check\":{\"checked\":128,\"wrong\":0},"     \
  "\"metrics\":{\"cycles\":1234,\"misses\":5.5,\"note\":\"text\"},\"iterations\":{\"n\":3,"        \
  "\"min\":1e-4,\"max\":2e-4,\"p50\":1.5e-4,\"p95\":2e-4,\"p99\":2e-4,\"mean\":1.5e-4,"            \
  "\"cv\":0.2,\"source\":\"host\",\"raw\":[1e-4,1.5e-4,null,2e-4]}}"
#define SAMPLE_WRITER_ORDER                                                                        \
  "{\"type\":\"sample\",\"cycle\":4,\"point\":0,\"point_label\":\"bytes=1024\","                   \
  "\"point_params\":{\"bytes\":1024,\"f\":1.0,\"s\":[true,null,\"x\"]},\"status\":\"ok\","         \
  "\"window\":\"wall\",\"time_s\":1.5e-4,\"wall_s\":1.5e-4,\"cputime_s\":1.4e-4,\"iters\":20,"     \
  "\"agg\":1,\"bytes\":1024,\"flops\":0.0,\"bus_factor\":1.0,\"rates\":{\"busbw_bytes_per_s\":"    \
  "6.8e6,\"bytes_per_s\":6.8e6,\"flops_per_s\":null},\"check\":{\"wrong\":0,\"checked\":128},"     \
  "\"metrics\":{\"cycles\":1234,\"misses\":5.5,\"note\":\"text\"},\"iterations\":{\"raw\":"        \
  "[1e-4,1.5e-4,null,2e-4],\"n\":3,\"min\":1e-4,\"max\":2e-4,\"p50\":1.5e-4,\"p95\":2e-4,"         \
  "\"p99\":2e-4,\"mean\":1.5e-4,\"cv\":0.2,\"source\":\"host\"},\"ranks\":null,"                   \
  "\"schema\":\"rigor.result/1\",\"experiment\":\"e\",\"run\":3,\"attempt\":2,\"variant\":1}"

static int setup(void **state) {
  (void)state;
  return system("mkdir -p " DIR);
}

static void write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

static json_t *number(double x) {
  return isnan(x) ? json_null() : json_real(x);
}

/* Everything a sample carries, as JSON, so two readings compare with json_equal. */
static json_t *sample_summary(const rigor_sample_t *s) {
  json_t *metrics = json_array(), *raw = json_array();
  for (size_t m = 0; m < s->n_metrics; m++)
    json_array_append_new(metrics,
                          json_pack("[s, o]", s->metrics[m].name, number(s->metrics[m].value)));
  for (size_t i = 0; i < s->n_raw; i++)
    json_array_append_new(raw, number(s->raw[i]));
  json_t *params = rigor_sample_point_params(s);
  json_t *o = json_pack(
      "{s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:i, s:s?, s:s?, s:o, s:o, s:o, s:o, s:o, s:o, "
      "s:o, s:o, "
      "s:o, s:o, s:o, s:b, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o?}",
      "experiment", s->experiment, "run", (json_int_t)s->run, "attempt", (json_int_t)s->attempt,
      "variant", (json_int_t)s->variant, "point", (json_int_t)s->point, "cycle",
      (json_int_t)s->cycle, "arm", (json_int_t)s->arm, "slot", (json_int_t)s->slot, "status",
      (int)s->status, "window", s->window, "point_label", s->point_label, "time_s",
      number(s->time_s), "iters", number(s->iters), "agg", number(s->agg), "bytes",
      number(s->bytes), "flops", number(s->flops), "bus_factor", number(s->bus_factor),
      "bytes_per_s", number(s->bytes_per_s), "flops_per_s", number(s->flops_per_s), "busbw",
      number(s->busbw_bytes_per_s), "wrong", number(s->check_wrong), "metrics", metrics,
      "has_iterations", s->has_iterations, "it_n", number(s->it_n), "it_min", number(s->it_min),
      "it_max", number(s->it_max), "it_p50", number(s->it_p50), "it_p95", number(s->it_p95),
      "it_p99", number(s->it_p99), "it_mean", number(s->it_mean), "it_cv", number(s->it_cv), "raw",
      raw, "point_params", params);
  assert_non_null(o);
  return o;
}

typedef struct collected {
  json_t *samples; /* sample_summary of each */
  json_t *records; /* the other records, with their type and line */
} collected_t;

static int collect_sample(void *arg, const rigor_sample_t *s) {
  collected_t *c = arg;
  json_t *summary = sample_summary(s);
  json_object_set_new(summary, "line", json_integer((json_int_t)s->line));
  return json_array_append_new(c->samples, summary);
}

static int collect_record(void *arg, json_t *rec, const char *type, size_t line) {
  collected_t *c = arg;
  return json_array_append_new(c->records, json_pack("{s:s, s:I, s:O}", "type", type, "line",
                                                     (json_int_t)line, "record", rec));
}

static int read_all(const char *path, collected_t *c, bool *truncated, char *err, size_t errlen) {
  c->samples = json_array();
  c->records = json_array();
  rigor_results_callbacks_t cb = {.sample = collect_sample, .record = collect_record, .arg = c};
  return rigor_results_read(path, &cb, truncated, err, errlen);
}

static void collected_free(collected_t *c) {
  json_decref(c->samples);
  json_decref(c->records);
}

/* The reading jansson gives the line, the fast path's reference. */
static json_t *jansson_summary(const char *line) {
  json_error_t jerr;
  json_t *rec = json_loads(line, 0, &jerr);
  assert_non_null(rec);
  rigor_sample_scratch_t scratch = {0};
  rigor_sample_t s;
  assert_int_equal(rigor__sample_from_json(rec, &scratch, &s), 0);
  json_t *summary = sample_summary(&s);
  rigor__sample_scratch_free(&scratch);
  json_decref(rec);
  return summary;
}

/* The fast path's reading of the line, NULL when it leaves the line to jansson. */
static json_t *fast_summary(rigor_sample_dom_t *d, const char *line) {
  size_t len = strlen(line);
  char *padded = calloc(1, len + RIGOR_SAMPLE_DOM_PADDING);
  memcpy(padded, line, len);
  rigor_sample_t s;
  int rc = rigor__sample_dom_parse(d, padded, len, &s);
  assert_true(rc == 0 || rc == 1);
  json_t *summary = rc ? sample_summary(&s) : NULL;
  free(padded);
  return summary;
}

static void assert_same_json(const json_t *got, const json_t *expected) {
  if (json_equal(got, expected)) return;
  char *g = json_dumps(got, JSON_SORT_KEYS), *e = json_dumps(expected, JSON_SORT_KEYS);
  fail_msg("got      %s\nexpected %s", g, e);
}

static void test_truncated_last_line_is_flagged(void **state) {
  (void)state;
  write_text(DIR "/trunc.jsonl", REC("experiment", "") "\n" REC(
                                     "run", ",\"run\":0") "\n"
                                                          "{\"schema\":\"rigor.result/1\",\"ty");
  collected_t c;
  bool truncated = false;
  char err[512] = "";
  assert_int_equal(read_all(DIR "/trunc.jsonl", &c, &truncated, err, sizeof err), 0);
  assert_true(truncated);
  assert_int_equal(json_array_size(c.records), 2);
  collected_free(&c);
  /* A cut sample line, which the fast path sees first, is flagged the same way. */
  write_text(DIR "/trunc_sample.jsonl",
             SAMPLE_FIXTURE_ORDER "\n" REC("run", ",\"run\":3") "\n"
                                                                "{\"schema\":\"rigor.result/1"
                                                                "\",\"type\":\"sample\",\"ex");
  assert_int_equal(read_all(DIR "/trunc_sample.jsonl", &c, &truncated, err, sizeof err), 0);
  assert_true(truncated);
  assert_int_equal(json_array_size(c.samples), 1);
  assert_int_equal(json_array_size(c.records), 1);
  collected_free(&c);
}

static void test_last_record_without_newline_reads_fully(void **state) {
  (void)state;
  write_text(DIR "/no_newline.jsonl", REC("experiment", "") "\n" SAMPLE_FIXTURE_ORDER);
  collected_t c;
  bool truncated = true;
  char err[512] = "";
  assert_int_equal(read_all(DIR "/no_newline.jsonl", &c, &truncated, err, sizeof err), 0);
  assert_false(truncated);
  assert_int_equal(json_array_size(c.samples), 1);
  assert_int_equal(json_integer_value(json_object_get(json_array_get(c.samples, 0), "line")), 2);
  collected_free(&c);
  write_text(DIR "/no_newline_run.jsonl", SAMPLE_FIXTURE_ORDER "\n" REC("run", ",\"run\":3"));
  assert_int_equal(read_all(DIR "/no_newline_run.jsonl", &c, &truncated, err, sizeof err), 0);
  assert_false(truncated);
  assert_int_equal(json_array_size(c.records), 1);
  collected_free(&c);
}

static void test_crlf_line_endings(void **state) {
  (void)state;
  write_text(DIR "/crlf.jsonl", REC("experiment", "") "\r\n" SAMPLE_FIXTURE_ORDER
                                                      "\r\n\r\n" REC("run", ",\"run\":3") "\r\n");
  collected_t c;
  bool truncated = true;
  char err[512] = "";
  assert_int_equal(read_all(DIR "/crlf.jsonl", &c, &truncated, err, sizeof err), 0);
  assert_false(truncated);
  assert_int_equal(json_array_size(c.records), 2);
  assert_int_equal(json_array_size(c.samples), 1);
  json_t *expected = jansson_summary(SAMPLE_FIXTURE_ORDER);
  json_t *got = json_deep_copy(json_array_get(c.samples, 0));
  json_object_del(got, "line");
  assert_same_json(got, expected);
  assert_int_equal(json_integer_value(json_object_get(json_array_get(c.records, 1), "line")), 4);
  json_decref(got);
  json_decref(expected);
  collected_free(&c);
}

static void test_members_in_another_order(void **state) {
  (void)state;
  write_text(DIR "/order.jsonl", SAMPLE_FIXTURE_ORDER "\n" SAMPLE_WRITER_ORDER "\n");
  collected_t c;
  bool truncated;
  char err[512] = "";
  assert_int_equal(read_all(DIR "/order.jsonl", &c, &truncated, err, sizeof err), 0);
  assert_int_equal(json_array_size(c.samples), 2);
  json_t *a = json_array_get(c.samples, 0), *b = json_array_get(c.samples, 1);
  json_object_del(a, "line");
  json_object_del(b, "line");
  assert_same_json(a, b);
  assert_int_equal(json_integer_value(json_object_get(a, "run")), 3);
  assert_int_equal(json_integer_value(json_object_get(a, "attempt")), 2);
  assert_string_equal(json_string_value(json_object_get(a, "window")), "wall");
  /* The metrics' numeric members only, in their order; raw keeps null as NaN. */
  assert_int_equal(json_array_size(json_object_get(a, "metrics")), 2);
  assert_int_equal(json_array_size(json_object_get(a, "raw")), 4);
  assert_true(json_is_null(json_array_get(json_object_get(a, "raw"), 2)));
  collected_free(&c);
}

/* Lines the fast path reads, each as jansson reads it; and lines it leaves to jansson. */
static void test_fast_path_reads_as_jansson(void **state) {
  (void)state;
  static const char *const clean[] = {
      SAMPLE_FIXTURE_ORDER,
      SAMPLE_WRITER_ORDER,
      /* Absent, null and mistyped members read as jansson's accessors read them. */
      "{\"schema\":\"rigor.result/1\",\"type\":\"sample\",\"experiment\":\"e\"}",
      "{\"schema\":\"rigor.result/1\",\"type\":\"sample\",\"experiment\":\"e\",\"run\":null,"
      "\"attempt\":null,\"status\":3,\"window\":null,\"time_s\":\"1\",\"iters\":true,"
      "\"rates\":[1,2],\"check\":null,\"metrics\":[1],\"iterations\":[],\"point_params\":null}",
      "{\"schema\":\"rigor.result/1\",\"type\":\"sample\",\"experiment\":\"e\",\"metrics\":{},"
      "\"iterations\":{\"raw\":{}},\"rates\":{},\"check\":{\"wrong\":2}}",
      /* A repeated name: jansson keeps the last value at the first place. */
      "{\"schema\":\"rigor.result/1\",\"type\":\"sample\",\"experiment\":\"e\",\"time_s\":1,"
      "\"time_s\":2,\"metrics\":{\"a\":1,\"b\":2,\"a\":3,\"c\":4,\"b\":\"x\"},\"rates\":"
      "{\"bytes_per_s\":1},\"rates\":{\"flops_per_s\":2},\"point_params\":{\"k\":1,\"k\":2.5}}",
      /* Escapes, UTF-8, -0, exponents and the integer bounds. */
      "{\"schema\":\"rigor.result/1\",\"type\":\"sample\",\"experiment\":\"\\u00e9\\\"x\","
      "\"point_label\":\"caf\xc3\xa9 "
      "\\ud83d\\ude00\\n\",\"time_s\":-0,\"bytes\":9223372036854775807,"
      "\"flops\":-9223372036854775808,\"agg\":1E3,\"iters\":2.5e-320,\"run\":9999999,"
      "\"cycle\":2147483647,\"metrics\":{\"\\u0041\":1}}",
      "  {\"schema\" : \"rigor.result/1\" , \"type\" : \"sample\" ,\t\"experiment\" : \"e\" }\r",
      /* A sample of an interleaved arm: its arm and slot. */
      "{\"schema\":\"rigor.result/1\",\"type\":\"sample\",\"experiment\":\"e\",\"run\":2,"
      "\"variant\":5,\"arm\":1,\"slot\":0,\"cycle\":3}",
  };
  rigor_sample_dom_t *d = rigor__sample_dom_new();
  assert_non_null(d);
  json_t *arm = fast_summary(d, clean[sizeof clean / sizeof *clean - 1]);
  assert_int_equal(json_integer_value(json_object_get(arm, "arm")), 1);
  assert_int_equal(json_integer_value(json_object_get(arm, "slot")), 0);
  json_decref(arm);
  /* Names repeated on each side of where the scan for a repeat gives way to a hash. */
  for (int n = 14; n <= 19; n++) {
    char line[2048];
    int len = snprintf(line, sizeof line,
                       "{\"schema\":\"rigor.result/1\",\"type\":\"sample\","
                       "\"experiment\":\"e\",\"metrics\":{");
    for (int m = 0; m < n; m++)
      len += snprintf(line + len, sizeof line - (size_t)len, "\"m%d\":%d,", m, m);
    snprintf(line + len, sizeof line - (size_t)len, "\"m%d\":-1,\"m0\":-2}}", n - 1);
    json_t *fast = fast_summary(d, line), *reference = jansson_summary(line);
    assert_non_null(fast);
    assert_same_json(fast, reference);
    json_decref(fast);
    json_decref(reference);
  }
  for (size_t i = 0; i < sizeof clean / sizeof *clean; i++) {
    const char *line = clean[i];
    while (*line == ' ')
      line++;
    json_t *fast = fast_summary(d, line);
    if (!fast) fail_msg("the fast path left clean line %zu to jansson", i);
    json_t *reference = jansson_summary(line);
    assert_same_json(fast, reference);
    json_decref(fast);
    json_decref(reference);
  }
  static const char *const for_jansson[] = {
      REC("run", ",\"run\":0"),
      REC("experiment", ""),
      "[1,2]",
      "{\"schema\":\"rigor.result/2\",\"type\":\"sample\",\"experiment\":\"e\"}",
      "{\"schema\":\"rigor.result/1\",\"type\":\"sample\",\"experiment\":1}",
      "{\"schema\":\"rigor.result/1\",\"type\":\"sample\",\"experiment\":\"e\",\"run\":1.0}",
      "{\"schema\":\"rigor.result/1\",\"type\":\"sample\",\"experiment\":\"e\",\"run\":10000000}",
      "{\"schema\":\"rigor.result/1\",\"type\":\"sample\",\"experiment\":\"e\",\"block\":-1}",
      "{\"schema\":\"rigor.result/1\",\"type\":\"sample\",\"experiment\":\"e\",\"x\":"
      "[{\"y\":9223372036854775808}]}",
      "{\"schema\":\"rigor.result/1\",\"type\":\"sample\",\"experiment\":\"e\",\"x\":\"\\u0000\"}",
      "{\"schema\":\"rigor.result/1\",\"type\":\"sample\",\"experiment\":\"e\"} {}",
      "{\"schema\":\"rigor.result/1\",\"type\":\"sample\",\"experiment\":\"e\",\"t\":1e999}",
  };
  for (size_t i = 0; i < sizeof for_jansson / sizeof *for_jansson; i++) {
    json_t *fast = fast_summary(d, for_jansson[i]);
    if (fast) fail_msg("the fast path read line %zu, which is for jansson", i);
  }
  rigor__sample_dom_free(d);
}

/* Lines the fast path leaves to jansson still get jansson's message, with its line:col. */
static void test_refusals_keep_their_messages(void **state) {
  (void)state;
  static const struct {
    const char *text, *message;
  } cases[] = {
      {REC("experiment", "") "\n{\"schema\":\"rigor.result/1\",}\n",
       "2:28: string or '}' expected near '}'"},
      {"{\"schema\":\"other/2\",\"type\":\"run\"}\n",
       "1:1: unsupported schema 'other/2' (expected 'rigor.result/1')"},
      {"{\"schema\":\"rigor.result/1\",\"type\":\"sample\",\"experiment\":\"e\",\"bytes\":"
       "18446744073709551615}\n",
       "1:88: too big integer near '18446744073709551615'"},
      {"\n  "
       "{\"schema\":\"rigor.result/"
       "1\",\"type\":\"sample\",\"experiment\":\"e\",\"x\":\"a\\u0000\"}\n",
       "2:75: \\u0000 is not allowed without JSON_ALLOW_NUL near '\"a\\u0000\"'"},
      {"{\"schema\":\"rigor.result/"
       "1\",\"type\":\"sample\",\"experiment\":\"e\",\"point\":100000}\n",
       "1:1: \"point\" must be an integer from 0 to 99999"},
      {"{\"schema\":\"rigor.result/"
       "1\",\"type\":\"sample\",\"experiment\":\"e\",\"arm\":64}\n",
       "1:1: \"arm\" must be an integer from 0 to 63"},
      {"{\"schema\":\"rigor.result/1\",\"type\":\"sample\",\"experiment\":\"e\"}\r\n"
       "{\"schema\":\"rigor.result/1\",\"type\":\"sample\"}\r\n",
       "2:1: sample record has no \"experiment\" name"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    write_text(DIR "/refused.jsonl", cases[i].text);
    collected_t c;
    bool truncated;
    char err[512] = "", expected[512];
    assert_int_equal(read_all(DIR "/refused.jsonl", &c, &truncated, err, sizeof err), RIGOR_EINVAL);
    snprintf(expected, sizeof expected, "%s:%s", DIR "/refused.jsonl", cases[i].message);
    assert_string_equal(err, expected);
    collected_free(&c);
  }
  collected_t c;
  bool truncated;
  char err[512] = "";
  assert_int_equal(read_all(DIR "/missing.jsonl", &c, &truncated, err, sizeof err), RIGOR_ENOENT);
  assert_string_equal(err, DIR "/missing.jsonl: cannot open results file: No such file or "
                               "directory");
  collected_free(&c);
}

/* Hundreds of metric names (and a repeated one) on one sample, past the scan into the hash. */
static void test_many_metric_names(void **state) {
  (void)state;
  enum { N_METRICS = 300 };
  FILE *f = fopen(DIR "/metrics.jsonl", "wb");
  assert_non_null(f);
  fputs("{\"schema\":\"rigor.result/1\",\"type\":\"sample\",\"experiment\":\"e\",\"metrics\":{", f);
  for (int m = 0; m < N_METRICS; m++)
    fprintf(f, "%s\"metric_%d\":%d", m ? "," : "", m, m);
  fputs(",\"metric_7\":-7,\"metric_250\":null}}\n", f);
  fclose(f);
  collected_t c;
  bool truncated;
  char err[512] = "";
  assert_int_equal(read_all(DIR "/metrics.jsonl", &c, &truncated, err, sizeof err), 0);
  json_t *metrics = json_object_get(json_array_get(c.samples, 0), "metrics");
  assert_int_equal(json_array_size(metrics), N_METRICS - 1);
  for (int m = 0, k = 0; m < N_METRICS; m++) {
    if (m == 250) continue;
    char name[32];
    snprintf(name, sizeof name, "metric_%d", m);
    json_t *pair = json_array_get(metrics, (size_t)k++);
    assert_string_equal(json_string_value(json_array_get(pair, 0)), name);
    assert_true(json_number_value(json_array_get(pair, 1)) == (m == 7 ? -7 : m));
  }
  collected_free(&c);
}

/* A line longer than the read buffer, among lines that cross its boundary. */
static void test_long_lines(void **state) {
  (void)state;
  enum { N_RAW = 300000, N_SAMPLES = 3000 };
  FILE *f = fopen(DIR "/long.jsonl", "wb");
  assert_non_null(f);
  for (int i = 0; i < N_SAMPLES; i++) {
    fprintf(f,
            "{\"schema\":\"rigor.result/1\",\"type\":\"sample\",\"experiment\":\"e\","
            "\"cycle\":%d,\"iterations\":{\"raw\":[",
            i);
    int n_raw = i == N_SAMPLES / 2 ? N_RAW : 100;
    for (int k = 0; k < n_raw; k++)
      fprintf(f, "%s%d.5", k ? "," : "", k);
    fputs("]}}\n", f);
  }
  fclose(f);
  collected_t c;
  bool truncated;
  char err[512] = "";
  assert_int_equal(read_all(DIR "/long.jsonl", &c, &truncated, err, sizeof err), 0);
  assert_int_equal(json_array_size(c.samples), N_SAMPLES);
  for (int i = 0; i < N_SAMPLES; i++) {
    json_t *s = json_array_get(c.samples, (size_t)i);
    json_t *raw = json_object_get(s, "raw");
    assert_int_equal(json_integer_value(json_object_get(s, "cycle")), i);
    assert_int_equal(json_array_size(raw), i == N_SAMPLES / 2 ? N_RAW : 100);
    assert_true(json_real_value(json_array_get(raw, json_array_size(raw) - 1)) ==
                (double)json_array_size(raw) - 0.5);
  }
  collected_free(&c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_truncated_last_line_is_flagged),
      cmocka_unit_test(test_last_record_without_newline_reads_fully),
      cmocka_unit_test(test_crlf_line_endings),
      cmocka_unit_test(test_members_in_another_order),
      cmocka_unit_test(test_fast_path_reads_as_jansson),
      cmocka_unit_test(test_refusals_keep_their_messages),
      cmocka_unit_test(test_many_metric_names),
      cmocka_unit_test(test_long_lines),
  };
  return cmocka_run_group_tests(tests, setup, NULL);
}

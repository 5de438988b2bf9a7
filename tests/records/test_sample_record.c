/* The sample record's builder writes the line `rigor run` has always written (members, order,
 * number formats), and both readers read back what it wrote. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sample_dom.h"
#include "sample_json.h"
#include "sample_record.h"

/* The first sample of tests/golden/contrast.jsonl, as the runner wrote it before the table. */
#define GOLDEN_SAMPLE                                                                              \
  "{\"type\":\"sample\",\"cycle\":0,\"point\":0,\"point_label\":\"bytes=1KiB\",\"point_params\":"  \
  "{\"bytes\":1024},\"status\":\"ok\",\"window\":\"wall\",\"time_s\":2.065755e-6,\"wall_s\":"      \
  "2.065755e-6,\"cputime_s\":2.0654550000000002e-6,\"iters\":200,\"agg\":1,\"bytes\":1024,"        \
  "\"flops\":0.0,\"bus_factor\":1.0,\"rates\":{\"bytes_per_s\":495702539.74938947,"                \
  "\"flops_per_s\":null,\"busbw_bytes_per_s\":495702539.74938947},\"check\":{\"checked\":1,"       \
  "\"wrong\":0,\"max_abs_err\":0.0,\"max_rel_err\":0.0,\"tolerance\":0.0,\"detail\":null},"        \
  "\"metrics\":{\"ops\":202.0},\"iterations\":null,\"ranks\":null,\"schema\":\"rigor.result/1\","  \
  "\"experiment\":\"golden-contrast\",\"run\":0,\"attempt\":1,\"variant\":0}"

/* A sample with every optional part: per-iteration times, a failed check with its detail, ranks,
 * a count past INT64_MAX and an interleaved arm, in the order the runner wrote them. */
#define FULL_SAMPLE                                                                                \
  "{\"type\":\"sample\",\"cycle\":3,\"point\":1,\"point_label\":\"n=2\",\"point_params\":"         \
  "{\"n\":2},\"status\":\"wrong\",\"window\":\"cputime\",\"time_s\":0.5,\"wall_s\":0.75,"          \
  "\"cputime_s\":0.5,\"iters\":3,\"agg\":2,\"bytes\":1.8446744073709552e19,\"flops\":null,"        \
  "\"bus_factor\":2.0,\"rates\":{\"bytes_per_s\":4.0,\"flops_per_s\":null,\"busbw_bytes_per_s\":"  \
  "8.0},\"check\":{\"checked\":10,\"wrong\":2,\"max_abs_err\":0.25,\"max_rel_err\":null,"          \
  "\"tolerance\":0.001,\"detail\":\"x[3] differs\"},\"metrics\":{\"m\":1.5},\"iterations\":"       \
  "{\"n\":3,\"min\":0.25,\"max\":1.0,\"p50\":0.5,\"p95\":1.0,\"p99\":1.0,\"mean\":0.5,\"cv\":0.5," \
  "\"source\":\"host\",\"raw\":[0.25,null,1.0]},\"ranks\":{\"n\":2},\"schema\":\"rigor.result/"    \
  "1\","                                                                                           \
  "\"experiment\":\"e\",\"run\":7,\"attempt\":2,\"variant\":4,\"arm\":1,\"slot\":0}"

static char *dump(const json_t *rec) {
  char *text = json_dumps(rec, JSON_COMPACT | JSON_ENSURE_ASCII); /* as the results writer */
  assert_non_null(text);
  return text;
}

static void test_builds_the_golden_line(void **state) {
  (void)state;
  rigor_sample_record_t x = rigor_sample_record_init();
  x.experiment = "golden-contrast";
  x.run = 0;
  x.attempt = 1;
  x.variant = 0;
  x.cycle = 0;
  x.point = 0;
  x.point_label = "bytes=1KiB";
  x.point_params = json_pack("{s:i}", "bytes", 1024);
  x.status = RIGOR_SAMPLE_OK;
  x.window = "wall";
  x.time_s = x.wall_s = 2.065755e-6;
  x.cputime_s = 2.0654550000000002e-6;
  x.iters = 200;
  x.agg = 1;
  x.bytes = 1024;
  x.flops = 0.0;
  x.bus_factor = 1.0;
  x.bytes_per_s = x.busbw_bytes_per_s = 495702539.74938947;
  x.checked = true;
  x.check_checked = 1;
  x.check_max_abs_err = x.check_max_rel_err = x.check_tolerance = 0.0;
  x.metrics = json_pack("{s:f}", "ops", 202.0);
  json_t *rec = rigor_record_sample(&x);
  char *text = dump(rec);
  assert_string_equal(text, GOLDEN_SAMPLE);
  free(text);
  json_decref(rec);
}

static rigor_sample_record_t full_sample(const double *raw) {
  rigor_sample_record_t x = rigor_sample_record_init();
  x.experiment = "e";
  x.run = 7;
  x.attempt = 2;
  x.variant = 4;
  x.arm = 1;
  x.slot = 0;
  x.cycle = 3;
  x.point = 1;
  x.point_label = "n=2";
  x.point_params = json_pack("{s:i}", "n", 2);
  x.status = RIGOR_SAMPLE_WRONG;
  x.window = "cputime";
  x.time_s = x.cputime_s = 0.5;
  x.wall_s = 0.75;
  x.iters = 3;
  x.agg = 2;
  x.bytes = UINT64_MAX;
  x.bus_factor = 2.0;
  x.bytes_per_s = 4.0;
  x.busbw_bytes_per_s = 8.0;
  x.checked = true;
  x.check_checked = 10;
  x.check_wrong = 2;
  x.check_max_abs_err = 0.25;
  x.check_tolerance = 0.001;
  x.check_detail = "x[3] differs";
  x.metrics = json_pack("{s:f}", "m", 1.5);
  x.has_iterations = true;
  x.it_n = 3;
  x.it_min = 0.25;
  x.it_max = x.it_p95 = x.it_p99 = 1.0;
  x.it_p50 = x.it_mean = x.it_cv = 0.5;
  x.it_source = "host";
  x.raw = raw;
  x.n_raw = 3;
  x.ranks = json_pack("{s:i}", "n", 2);
  return x;
}

static void test_builds_every_optional_part_in_order(void **state) {
  (void)state;
  const double raw[] = {0.25, NAN, 1.0};
  rigor_sample_record_t x = full_sample(raw);
  json_t *rec = rigor_record_sample(&x);
  char *text = dump(rec);
  assert_string_equal(text, FULL_SAMPLE);
  free(text);
  json_decref(rec);
  /* What the builder took is released: nothing is left to drop twice. */
  assert_null(x.point_params);
  assert_null(x.metrics);
  assert_null(x.ranks);
}

static void assert_read_back(const rigor_sample_t *s) {
  assert_string_equal(s->experiment, "e");
  assert_int_equal(s->run, 7);
  assert_int_equal(s->attempt, 2);
  assert_int_equal(s->variant, 4);
  assert_int_equal(s->arm, 1);
  assert_int_equal(s->slot, 0);
  assert_int_equal(s->cycle, 3);
  assert_int_equal(s->point, 1);
  assert_int_equal(s->status, RIGOR_SAMPLE_WRONG);
  assert_string_equal(s->window, "cputime");
  assert_string_equal(s->point_label, "n=2");
  assert_true(s->time_s == 0.5 && s->iters == 3 && s->agg == 2 && s->bytes == 0x1p64);
  assert_true(isnan(s->flops) && s->bus_factor == 2.0);
  assert_true(s->bytes_per_s == 4.0 && isnan(s->flops_per_s) && s->busbw_bytes_per_s == 8.0);
  assert_true(s->check_wrong == 2);
  assert_int_equal(s->n_metrics, 1);
  assert_string_equal(s->metrics[0].name, "m");
  assert_true(s->has_iterations && s->it_n == 3 && s->it_min == 0.25 && s->it_cv == 0.5);
  assert_int_equal(s->n_raw, 3);
  assert_true(s->raw[0] == 0.25 && isnan(s->raw[1]) && s->raw[2] == 1.0);
}

/* Both readers read every member the builder wrote where the table puts it. */
static void test_both_readers_read_what_was_built(void **state) {
  (void)state;
  const double raw[] = {0.25, NAN, 1.0};
  rigor_sample_record_t x = full_sample(raw);
  json_t *rec = rigor_record_sample(&x);
  char *text = dump(rec);

  rigor_sample_scratch_t scratch = {0};
  rigor_sample_t s;
  assert_int_equal(rigor__sample_from_json(rec, &scratch, &s), 0);
  assert_read_back(&s);
  rigor__sample_scratch_free(&scratch);

  size_t len = strlen(text);
  char *padded = calloc(1, len + RIGOR_SAMPLE_DOM_PADDING);
  memcpy(padded, text, len);
  rigor_sample_dom_t *d = rigor__sample_dom_new();
  assert_int_equal(rigor__sample_dom_parse(d, padded, len, &s), 1);
  assert_read_back(&s);
  rigor__sample_dom_free(d);
  free(padded);
  free(text);
  json_decref(rec);
}

/* A run without interleaved arms leaves arm and slot out; readers read them as -1. */
static void test_no_arm_leaves_arm_and_slot_out(void **state) {
  (void)state;
  rigor_sample_record_t x = rigor_sample_record_init();
  x.experiment = "e";
  x.run = x.attempt = x.variant = x.cycle = x.point = 0;
  json_t *rec = rigor_record_sample(&x);
  assert_null(json_object_get(rec, "arm"));
  assert_null(json_object_get(rec, "slot"));
  rigor_sample_scratch_t scratch = {0};
  rigor_sample_t s;
  assert_int_equal(rigor__sample_from_json(rec, &scratch, &s), 0);
  assert_int_equal(s.arm, -1);
  assert_int_equal(s.slot, -1);
  rigor__sample_scratch_free(&scratch);
  json_decref(rec);
}

static void test_status_names_round_trip(void **state) {
  (void)state;
  for (int i = 0; i < RIGOR_SAMPLE_STATUS_COUNT; i++)
    assert_int_equal(rigor_sample_status_parse(rigor_sample_status_names[i]), i);
  assert_int_equal(rigor_sample_status_parse(NULL), RIGOR_SAMPLE_UNKNOWN);
  assert_int_equal(rigor_sample_status_parse("fine"), RIGOR_SAMPLE_UNKNOWN);
}

/* Every member of an object follows it, and every member is read into its own place. */
static void test_table_is_well_formed(void **state) {
  (void)state;
  for (int id = 0; id < RIGOR_SAMPLE_MEMBER_COUNT; id++) {
    const rigor_sample_member_t *m = &rigor_sample_members[id];
    assert_non_null(m->key);
    if (m->parent != RIGOR_SAMPLE_TOP) {
      assert_true(m->parent < id);
      assert_int_equal(rigor_sample_members[m->parent].kind, RIGOR_SAMPLE_OBJECT);
      for (int between = m->parent + 1; between < id; between++)
        assert_int_equal(rigor_sample_members[between].parent, m->parent);
    }
    for (int other = 0; other < id; other++) {
      const rigor_sample_member_t *o = &rigor_sample_members[other];
      if (o->parent == m->parent) assert_string_not_equal(o->key, m->key);
      if (m->read_into != RIGOR_SAMPLE_NOWHERE) assert_true(o->read_into != m->read_into);
    }
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_builds_the_golden_line),
      cmocka_unit_test(test_builds_every_optional_part_in_order),
      cmocka_unit_test(test_both_readers_read_what_was_built),
      cmocka_unit_test(test_no_arm_leaves_arm_and_slot_out),
      cmocka_unit_test(test_status_names_round_trip),
      cmocka_unit_test(test_table_is_well_formed),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

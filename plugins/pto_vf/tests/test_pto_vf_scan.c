#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "pto_vf_gen.h"
#include "pto_vf_scan.h"
#include "pto_vf_trace_set.h"

typedef struct mem_trace {
  char *starts, *ends;
  size_t starts_len, ends_len;
  vf_gen_truth_t truth;
} mem_trace_t;

static void generate(const vf_gen_opts_t *o, mem_trace_t *t) {
  FILE *s = open_memstream(&t->starts, &t->starts_len);
  FILE *e = open_memstream(&t->ends, &t->ends_len);
  assert_int_equal(vf_gen_write(s, e, o, &t->truth), 0);
  fclose(s);
  fclose(e);
}

static void scan_memory(const char *starts, size_t sl, const char *ends, size_t el,
                        vf_summary_t *sum) {
  vf_reader_t rs, re;
  vf_reader_from_memory(&rs, starts, sl);
  vf_reader_from_memory(&re, ends, el);
  vf_summary_init(sum);
  assert_int_equal(vf_scan_core(&rs, &re, 0, sum, NULL, NULL), 0);
}

static void assert_matches_truth(const vf_summary_t *s, const vf_gen_truth_t *t) {
  assert_int_equal(s->last_vf_end - s->first_vf_start, t->total);
  assert_int_equal(s->first_vf_start, t->first_start);
  assert_int_equal(s->last_vf_end, t->last_end);
  assert_int_equal(s->vf_ends, t->vf_count);
  assert_int_equal(s->vf_starts, t->vf_count);
  assert_int_equal(s->exec_sum, t->exec_sum);
  assert_int_equal(s->exec_min, t->exec_min);
  assert_int_equal(s->exec_max, t->exec_max);
  assert_int_equal(s->real_sum, t->real_sum);
  assert_int_equal(s->instr_num_sum, t->instr_num_sum);
  assert_int_equal(s->malformed, t->malformed);
  for (int c = 0; c < VF_CLASS_COUNT; c++)
    assert_int_equal(s->class_count[c], t->class_count[c]);
  assert_int_equal(s->matched, t->vf_count);
  assert_int_equal(s->unmatched_starts, 0);
  assert_int_equal(s->unmatched_ends, 0);
}

static void check_generated(bool ids, vf_gen_layout_t layout, uint32_t malformed_every) {
  vf_gen_opts_t o = {.vf_count = 500,
                     .with_ids = ids,
                     .noise_per_vf = 6,
                     .layout = layout,
                     .malformed_every = malformed_every,
                     .seed = 42,
                     .start_cycle = 1000};
  mem_trace_t t = {0};
  generate(&o, &t);
  vf_summary_t s;
  scan_memory(t.starts, t.starts_len, t.ends, t.ends_len, &s);
  assert_matches_truth(&s, &t.truth);
  /* The window is not the sum of execute times. */
  assert_true(t.truth.exec_sum != t.truth.total);
  free(t.starts);
  free(t.ends);
}

static void test_generated_with_ids(void **state) {
  (void)state;
  check_generated(true, VF_GEN_LAYOUT_FULL, 0);
  check_generated(true, VF_GEN_LAYOUT_MIXED, 0);
}

static void test_generated_without_ids(void **state) {
  (void)state;
  check_generated(false, VF_GEN_LAYOUT_FULL, 0);
  check_generated(false, VF_GEN_LAYOUT_TIMES, 0);
}

static void test_generated_with_malformed_lines(void **state) {
  (void)state;
  check_generated(true, VF_GEN_LAYOUT_MIXED, 7);
  check_generated(false, VF_GEN_LAYOUT_TIMES, 3);
}

/* Streaming from files with the fixed buffer gives the same answers, with bounded waiting. */
static void test_streaming_from_files(void **state) {
  (void)state;
  char dir[] = "/tmp/pto_vf_scan_XXXXXX";
  assert_non_null(mkdtemp(dir));
  char sp[256], ep[256];
  snprintf(sp, sizeof sp, "%s/s.dump", dir);
  snprintf(ep, sizeof ep, "%s/e.dump", dir);
  FILE *s = fopen(sp, "w"), *e = fopen(ep, "w");
  vf_gen_opts_t o = {.target_bytes = 3u << 20,
                     .with_ids = true,
                     .noise_per_vf = 4,
                     .seed = 9,
                     .malformed_every = 50};
  vf_gen_truth_t truth;
  assert_int_equal(vf_gen_write(s, e, &o, &truth), 0);
  fclose(s);
  fclose(e);
  FILE *fs = fopen(sp, "r"), *fe = fopen(ep, "r");
  vf_reader_t rs, re;
  assert_int_equal(vf_reader_from_fd(&rs, fileno(fs)), 0);
  assert_int_equal(vf_reader_from_fd(&re, fileno(fe)), 0);
  vf_summary_t sum;
  vf_summary_init(&sum);
  assert_int_equal(vf_scan_core(&rs, &re, 0, &sum, NULL, NULL), 0);
  assert_matches_truth(&sum, &truth);
  assert_int_equal(sum.bytes, truth.bytes);
  assert_true(sum.peak_waiting < 64);
  vf_reader_release(&rs);
  vf_reader_release(&re);
  fclose(fs);
  fclose(fe);
  unlink(sp);
  unlink(ep);
  rmdir(dir);
}

/* Hand-written: IDs pair exactly, lines without IDs pair in order, and leftovers are counted. */
static void test_pairing_and_unmatched(void **state) {
  (void)state;
  const char *starts =
      "[info] [00000100] (PC: 0x10) PUSHQ    : (Binary: 0x15400000) (ID: 000001) VF  addr: "
      "0x1,instr_num: 0x10,\n"
      "[info] [00000110] (PC: 0x10) PUSHQ    : (Binary: 0x15400000) (ID: 000002) VF  addr: "
      "0x1,instr_num: 0x20,\n"
      "[info] [00000120] (PC: 0x10) PUSHQ    : (Binary: 0x15400000) VF  addr: 0x1,instr_num: 0x1,\n"
      "[info] [00000130] (PC: 0x10) PUSHQ    : (Binary: 0x15400000) (ID: 000009) VF  ,\n";
  const char *ends = "[info] [00000300] (PC: 0x10) PUSHQ    : (Binary: 0x15400000) (ID: 000002) "
                     "VF , vf_execute_time: 190, vf_real_execute_time: 150\n"
                     "[info] [00000400] (PC: 0x10) PUSHQ    : (Binary: 0x15400000) (ID: 000001) "
                     "VF  \n"
                     "[info] [00000410] (PC: 0x10) PUSHQ    : (Binary: 0x15400000) VF , "
                     "vf_execute_time: 290\n"
                     "[info] [00000500] (PC: 0x10) PUSHQ    : (Binary: 0x15400000) (ID: 000007) "
                     "VF , vf_execute_time: 5\n";
  vf_summary_t s;
  scan_memory(starts, strlen(starts), ends, strlen(ends), &s);
  assert_int_equal(s.first_vf_start, 100);
  assert_int_equal(s.last_vf_end, 500);
  assert_int_equal(s.matched, 3);
  assert_int_equal(s.unmatched_starts, 1);
  assert_int_equal(s.unmatched_ends, 1);
  /* 190, 290 and 5 from the field; 300 = 400 - 100 from the ID pair. */
  assert_int_equal(s.exec_n, 4);
  assert_int_equal(s.exec_sum, 190 + 300 + 290 + 5);
  assert_int_equal(s.exec_min, 5);
  assert_int_equal(s.exec_max, 300);
  assert_int_equal(s.real_n, 1);
  assert_int_equal(s.real_sum, 150);
  /* instr_num comes from the paired start when the end lacks it. */
  assert_int_equal(s.instr_num_sum, 0x10 + 0x20 + 0x1);
}

static void scan_fixture(const char *name, vf_summary_t *sum) {
  char dir[512];
  snprintf(dir, sizeof dir, "%s/%s", PTO_VF_DATA, name);
  vf_trace_set_t set;
  char err[256];
  assert_int_equal(vf_trace_set_find(dir, "all", false, &set, err, sizeof err), 0);
  assert_int_equal(set.n, 1);
  assert_string_equal(set.units[0].unit, "core0.veccore0");
  FILE *fs = fopen(set.units[0].starts, "r"), *fe = fopen(set.units[0].ends, "r");
  vf_reader_t rs, re;
  assert_int_equal(vf_reader_from_fd(&rs, fileno(fs)), 0);
  assert_int_equal(vf_reader_from_fd(&re, fileno(fe)), 0);
  vf_summary_init(sum);
  assert_int_equal(vf_scan_core(&rs, &re, 0, sum, NULL, NULL), 0);
  vf_reader_release(&rs);
  vf_reader_release(&re);
  fclose(fs);
  fclose(fe);
  vf_trace_set_free(&set);
}

static void test_fixtures(void **state) {
  (void)state;
  vf_summary_t s;
  scan_fixture("msopprof_91095", &s);
  assert_int_equal(s.lines, 6);
  assert_int_equal(s.malformed, 0);
  assert_int_equal(s.vf_starts + s.vf_ends, 0);
  assert_false(s.has_first_start);
  assert_int_equal(s.class_count[VF_CLASS_OTHER], 3);
  scan_fixture("msopprof_910B", &s);
  assert_int_equal(s.lines, 20);
  assert_int_equal(s.malformed, 0);
  assert_int_equal(s.class_count[VF_CLASS_SYNC], 2);
  assert_int_equal(s.class_count[VF_CLASS_OTHER], 10);
  scan_fixture("msopprof_simulator_sample", &s);
  assert_int_equal(s.lines, 12);
  assert_int_equal(s.malformed, 0);
  assert_int_equal(s.class_count[VF_CLASS_LOAD], 1);
}

static void test_trace_set_missing_file(void **state) {
  (void)state;
  char dir[] = "/tmp/pto_vf_set_XXXXXX";
  assert_non_null(mkdtemp(dir));
  char path[300];
  snprintf(path, sizeof path, "%s/core0.veccore0.instr_popped_log.dump", dir);
  FILE *f = fopen(path, "w");
  fclose(f);
  vf_trace_set_t set;
  char err[512];
  assert_int_equal(vf_trace_set_find(dir, "core0.veccore0", false, &set, err, sizeof err), -ENOENT);
  assert_non_null(strstr(err, "trace file missing"));
  assert_non_null(strstr(err, "core0.veccore0.instr_log.dump"));
  assert_int_equal(vf_trace_set_find(dir, "core0.vec", false, &set, err, sizeof err), -ENOENT);
  assert_non_null(strstr(err, "not a unit name"));
  unlink(path);
  assert_int_equal(vf_trace_set_find(dir, "all", false, &set, err, sizeof err), -ENOENT);
  assert_non_null(strstr(err, "no core<C>.veccore<V> dumps"));
  rmdir(dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_generated_with_ids),
      cmocka_unit_test(test_generated_without_ids),
      cmocka_unit_test(test_generated_with_malformed_lines),
      cmocka_unit_test(test_streaming_from_files),
      cmocka_unit_test(test_pairing_and_unmatched),
      cmocka_unit_test(test_fixtures),
      cmocka_unit_test(test_trace_set_missing_file),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

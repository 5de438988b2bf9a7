#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pto_vf_class.h"
#include "pto_vf_line.h"

static vf_line_status_t parse(const char *s, vf_line_t *l) {
  return vf_line_parse(s, strlen(s), l);
}

static int span_eq(vf_span_t s, const char *lit) {
  return s.len == strlen(lit) && memcmp(s.ptr, lit, s.len) == 0;
}

static void test_a5_line_with_id(void **state) {
  (void)state;
  vf_line_t l;
  assert_int_equal(parse("[info] [00000745] (PC: 0x11bbe03c) SCALAR   : (Binary: 0x083dd2b8) (ID: "
                         "000123) ADD_IMM  dtype:S64, XD:X30=0x204258, IMM:0x2b8, ",
                         &l),
                   VF_LINE_OK);
  assert_int_equal(l.cycle, 745);
  assert_int_equal(l.pc, 0x11bbe03c);
  assert_int_equal(l.pipe, VF_PIPE_SCALAR);
  assert_int_equal(l.binary, 0x083dd2b8);
  assert_true(l.has_id);
  assert_int_equal(l.id, 123);
  assert_true(span_eq(l.mnemonic, "ADD_IMM"));
  assert_true(span_eq(l.operands, "dtype:S64, XD:X30=0x204258, IMM:0x2b8,"));
  assert_false(l.is_vf);
}

static void test_a2_line_without_id_and_operand_ids(void **state) {
  (void)state;
  vf_line_t l;
  assert_int_equal(parse("[info] [00011691] (PC: 0x10f86088) SCALAR   : (Binary: 0x40c01000) "
                         "WAIT_FLAG  PIPE:MTE2, TRIGGER PIPE:SCALAR, FLAG ID:0,",
                         &l),
                   VF_LINE_OK);
  assert_false(l.has_id);
  assert_true(span_eq(l.mnemonic, "WAIT_FLAG"));
  assert_int_equal(vf_classify(l.pipe, l.mnemonic), VF_CLASS_SYNC);
  assert_int_equal(parse("[00000184](PC: 0x10ce8008) VECTOR : (Binary: 0x80400000) MOVEMASK  "
                         "XN:X0=0xffffffffffffffff, Id:415;",
                         &l),
                   VF_LINE_OK);
  assert_false(l.has_id);
  assert_int_equal(l.cycle, 184);
  assert_int_equal(l.pipe, VF_PIPE_VECTOR);
  assert_int_equal(vf_classify(l.pipe, l.mnemonic), VF_CLASS_OTHER);
}

static void test_legacy_function_style(void **state) {
  (void)state;
  vf_line_t l;
  assert_int_equal(parse("[info] [00000181](PC: 0x10ce8000) SCALAR : (Binary: 0x07000001) "
                         "scalar_mov_xd_imme16(x[0]= 0x1, imme16:0x1 )",
                         &l),
                   VF_LINE_OK);
  assert_true(span_eq(l.mnemonic, "scalar_mov_xd_imme16"));
  assert_true(span_eq(l.operands, "(x[0]= 0x1, imme16:0x1 )"));
}

static void test_vf_layouts(void **state) {
  (void)state;
  vf_line_t l;
  assert_int_equal(parse("[info] [00001833] (PC: 0x10d0d104) PUSHQ    : (Binary: 0x15400000) (ID: "
                         "000041) VF  addr: 0x10d0d200,instr_num: 0x54, vf_execute_time: 72, "
                         "vf_real_execute_time: 60",
                         &l),
                   VF_LINE_OK);
  assert_true(l.is_vf);
  assert_int_equal(l.vf_fields,
                   VF_FIELD_ADDR | VF_FIELD_INSTR_NUM | VF_FIELD_EXEC | VF_FIELD_REAL_EXEC);
  assert_int_equal(l.vf_addr, 0x10d0d200);
  assert_int_equal(l.vf_instr_num, 0x54);
  assert_int_equal(l.vf_execute_time, 72);
  assert_int_equal(l.vf_real_execute_time, 60);
  assert_int_equal(parse("[info] [00002693] (PC: 0x10d0d204) PUSHQ    : (Binary: 0x15400000) (ID: "
                         "000077) VF , vf_execute_time: 561, vf_real_execute_time: 540",
                         &l),
                   VF_LINE_OK);
  assert_int_equal(l.vf_fields, VF_FIELD_EXEC | VF_FIELD_REAL_EXEC);
  assert_int_equal(l.vf_execute_time, 561);
  assert_int_equal(l.vf_real_execute_time, 540);
  assert_int_equal(parse("[info] [00001761] (PC: 0x10d0d104) PUSHQ    : (Binary: 0x15400000) (ID: "
                         "000041) VF  addr: 0x10d0d200,instr_num: 0x54,",
                         &l),
                   VF_LINE_OK);
  assert_int_equal(l.vf_fields, VF_FIELD_ADDR | VF_FIELD_INSTR_NUM);
  /* VF family members count; a VF mnemonic on another pipe does not. */
  assert_int_equal(parse("[1] (PC: 0x1) PUSHQ : (Binary: 0x1) VF_PREFETCH  ,", &l), VF_LINE_OK);
  assert_true(l.is_vf);
  assert_int_equal(parse("[1] (PC: 0x1) VEC : (Binary: 0x1) VF  ,", &l), VF_LINE_OK);
  assert_false(l.is_vf);
  assert_int_equal(parse("[1] (PC: 0x1) PUSHQ : (Binary: 0x1) PUSH_PB", &l), VF_LINE_OK);
  assert_false(l.is_vf);
}

/* Each VF key counts at its first occurrence as a whole word, with any spaces around its ':' or
 * '='; text that only contains a key's name is not that key. */
static void test_vf_field_spellings(void **state) {
  (void)state;
  vf_line_t l;
  assert_int_equal(parse("[info] [00000001] (PC: 0x00000010) PUSHQ    : (Binary: 0x15400000) (ID: "
                         "000041) VF  addr:  0x20,instr_num:\t0x3, vf_execute_time:   72, "
                         "vf_real_execute_time : 60, vf_execute_time: 99",
                         &l),
                   VF_LINE_OK);
  assert_int_equal(l.vf_fields,
                   VF_FIELD_ADDR | VF_FIELD_INSTR_NUM | VF_FIELD_EXEC | VF_FIELD_REAL_EXEC);
  assert_int_equal(l.vf_addr, 0x20);
  assert_int_equal(l.vf_instr_num, 3);
  assert_int_equal(l.vf_execute_time, 72);
  assert_int_equal(l.vf_real_execute_time, 60);
  assert_int_equal(parse("[1] (PC: 0x1) PUSHQ : (Binary: 0x1) VF  xaddr: 0x5, my_instr_num: 0x6, "
                         "vf_execute_times: 7, addr=0x123456789, instr_num = 0xABCDEF0",
                         &l),
                   VF_LINE_OK);
  assert_int_equal(l.vf_fields, VF_FIELD_ADDR | VF_FIELD_INSTR_NUM);
  assert_int_equal(l.vf_addr, 0x123456789);
  assert_int_equal(l.vf_instr_num, 0xABCDEF0);
  assert_int_equal(parse("[info] [00000001] (PC: 0x00000010) PUSHQ    : (Binary: 0x15400000) (ID: "
                         "000041) VF  addr: 0x20,instr_num: 0x3, vf_execute_time: 7x",
                         &l),
                   VF_LINE_BAD_VF_FIELD);
  assert_int_equal(parse("[info] [00000001] (PC: 0x00000010) PUSHQ    : (Binary: 0x15400000) (ID: "
                         "000041) VF  addr: 0x20,instr_num: 0x3, vf_execute_time: 7, addr: zz",
                         &l),
                   VF_LINE_OK);
  assert_int_equal(l.vf_addr, 0x20);
}

static void test_malformed_kinds(void **state) {
  (void)state;
  vf_line_t l;
  assert_int_equal(parse("   \r", &l), VF_LINE_BLANK);
  assert_int_equal(parse("[info] [0000", &l), VF_LINE_NO_CYCLE);
  assert_int_equal(parse("banner text", &l), VF_LINE_NO_CYCLE);
  assert_int_equal(parse("[123456789012345678901234] (PC: 0x1) VEC : (Binary: 0x1) X", &l),
                   VF_LINE_BAD_CYCLE);
  assert_int_equal(parse("[1] PC: 0x1 VEC : (Binary: 0x1) X", &l), VF_LINE_NO_PC);
  assert_int_equal(parse("[1] (PC: 0x1) VEC (Binary: 0x1) X", &l), VF_LINE_NO_PIPE);
  assert_int_equal(parse("[1] (PC: 0x1) VEC : X", &l), VF_LINE_NO_BINARY);
  assert_int_equal(parse("[1] (PC: 0x1) VEC : (Binary: 0x1) (ID: 12a) X", &l), VF_LINE_BAD_ID);
  assert_int_equal(parse("[1] (PC: 0x1) VEC : (Binary: 0x1) (ID: 12) ", &l), VF_LINE_NO_MNEMONIC);
  assert_int_equal(parse("[1] (PC: 0x1) PUSHQ : (Binary: 0x1) VF  vf_execute_time: x", &l),
                   VF_LINE_BAD_VF_FIELD);
  assert_int_equal(parse("[1] (PC: 0x1) PUSHQ : (Binary: 0x1) VF  instr_num: 0xzz", &l),
                   VF_LINE_BAD_VF_FIELD);
}

static void test_never_reads_past_len(void **state) {
  (void)state;
  const char *full = "[info] [00000745] (PC: 0x11bbe03c) PUSHQ : (Binary: 0x1) (ID: 000123) VF  "
                     "vf_execute_time: 72";
  vf_line_t l;
  for (size_t n = 0; n < strlen(full); n++) {
    char buf[256];
    memcpy(buf, full, n);
    vf_line_status_t st = vf_line_parse(buf, n, &l);
    assert_true(st < VF_LINE_KIND_COUNT);
  }
  assert_int_equal(vf_line_parse(full, strlen(full), &l), VF_LINE_OK);
  assert_int_equal(l.vf_execute_time, 72);
}

static void test_classes(void **state) {
  (void)state;
  vf_span_t dma = {"DMA_MOV", 7}, vadd = {"VADD", 4}, setf = {"set_flag", 8}, nop = {"NOP_PIPE", 8};
  assert_int_equal(vf_classify(VF_PIPE_MTE2, dma), VF_CLASS_LOAD);
  assert_int_equal(vf_classify(VF_PIPE_MTE3, dma), VF_CLASS_STORE);
  assert_int_equal(vf_classify(VF_PIPE_VEC, vadd), VF_CLASS_COMPUTE);
  assert_int_equal(vf_classify(VF_PIPE_MTE2, setf), VF_CLASS_SYNC);
  assert_int_equal(vf_classify(VF_PIPE_VEC, nop), VF_CLASS_OTHER);
  assert_int_equal(vf_classify(VF_PIPE_SCALAR, vadd), VF_CLASS_OTHER);
  /* Spans of sixteen characters or more take the word-at-a-time path: same rules. */
  static const struct {
    const char *text;
    vf_pipe_t pipe;
    vf_class_t cls;
  } long_spans[] = {
      {"Wait_Flag  PIPE:MTE2, FLAG ID:0", VF_PIPE_SCALAR, VF_CLASS_SYNC},
      {"WAIT_EVENT  PIPE:MTE2, FLAG ID:0", VF_PIPE_MTE2, VF_CLASS_SYNC},
      {"WAIT_EVEN  PIPE:MTE2, FLAG ID:0", VF_PIPE_MTE2, VF_CLASS_LOAD},
      {"pipe_barrier(PIPE_ALL) xxxxxxx", VF_PIPE_ALL, VF_CLASS_SYNC},
      {"PIPE_BARRIE  xxxxxxxxxxxxxxxxx", VF_PIPE_VEC, VF_CLASS_COMPUTE},
      {"barrier  xxxxxxxxxxxxxxxxxxxxx", VF_PIPE_MTE3, VF_CLASS_SYNC},
      {"BA  xxxxxxxxxxxxxxxxxxxxxxxxxx", VF_PIPE_MTE3, VF_CLASS_STORE},
      {"set_event  xxxxxxxxxxxxxxxxxxx", VF_PIPE_VEC, VF_CLASS_SYNC},
      {"SYNC_ALL  xxxxxxxxxxxxxxxxxxxx", VF_PIPE_VEC, VF_CLASS_SYNC},
      {"NOP_PIPE  xxxxxxxxxxxxxxxxxxxx", VF_PIPE_VEC, VF_CLASS_OTHER},
      {"MOVEMASK  XN:X0=0xffffffffffff", VF_PIPE_VECTOR, VF_CLASS_OTHER},
      {"MOVEMAS  XN:X0=0xfffffffffffff", VF_PIPE_VECTOR, VF_CLASS_COMPUTE},
      {"DMA_MOV  Src:OUT, Dst:UB, addr", VF_PIPE_MTE2, VF_CLASS_LOAD},
  };
  for (size_t i = 0; i < sizeof long_spans / sizeof long_spans[0]; i++) {
    vf_span_t span = {long_spans[i].text, strlen(long_spans[i].text)};
    assert_true(span.len >= 16);
    assert_int_equal(vf_classify(long_spans[i].pipe, span), long_spans[i].cls);
  }
}

static void assert_same_span(vf_span_t a, vf_span_t b) {
  assert_ptr_equal(a.ptr, b.ptr);
  assert_int_equal(a.len, b.len);
}

/* A VF record's cycle, ID and fields, which every variant of the parse computes. */
static void assert_vf_fields_equal(const vf_line_t *a, const vf_line_t *b) {
  assert_int_equal(a->cycle, b->cycle);
  assert_int_equal(a->has_id, b->has_id);
  if (a->has_id) assert_int_equal(a->id, b->id);
  assert_int_equal(a->vf_fields, b->vf_fields);
  if (a->vf_fields & VF_FIELD_ADDR) assert_int_equal(a->vf_addr, b->vf_addr);
  if (a->vf_fields & VF_FIELD_INSTR_NUM) assert_int_equal(a->vf_instr_num, b->vf_instr_num);
  if (a->vf_fields & VF_FIELD_EXEC) assert_int_equal(a->vf_execute_time, b->vf_execute_time);
  if (a->vf_fields & VF_FIELD_REAL_EXEC)
    assert_int_equal(a->vf_real_execute_time, b->vf_real_execute_time);
}

/* Both parsers on an exact-size heap copy, so a read past the end is a sanitizer error. */
static void assert_parsers_agree(const char *text, size_t len) {
  char *buf = malloc(len ? len : 1);
  assert_non_null(buf);
  memcpy(buf, text, len);
  vf_line_t fast, general, lean, bare;
  vf_line_status_t st = vf_line_parse(buf, len, &fast);
  vf_line_status_t st_general = vf_line_parse_general(buf, len, &general);
  vf_line_status_t st_lean = vf_line_parse_only(buf, len, VF_NEED_MNEMONIC, &lean);
  vf_line_status_t st_bare = vf_line_parse_only(buf, len, 0, &bare);
  if (st != st_general)
    fail_msg("status %d vs general %d for: %.*s", st, st_general, (int)len, buf);
  assert_int_equal(st_lean, st);
  assert_int_equal(st_bare, st);
  if (st == VF_LINE_OK) {
    assert_int_equal(bare.pipe, general.pipe);
    assert_int_equal(bare.has_id, general.has_id);
    assert_int_equal(bare.is_vf, general.is_vf);
    assert_int_equal(vf_classify(bare.pipe, bare.mnemonic),
                     vf_classify(general.pipe, general.mnemonic));
    assert_int_equal(lean.pipe, general.pipe);
    assert_int_equal(lean.has_id, general.has_id);
    assert_int_equal(lean.is_vf, general.is_vf);
    assert_same_span(lean.mnemonic, general.mnemonic);
    assert_same_span(lean.operands, general.operands);
    if (general.is_vf) {
      assert_vf_fields_equal(&bare, &general);
      assert_vf_fields_equal(&lean, &general);
    }
    assert_int_equal(fast.cycle, general.cycle);
    assert_int_equal(fast.pc, general.pc);
    assert_int_equal(fast.binary, general.binary);
    assert_int_equal(fast.has_id, general.has_id);
    if (fast.has_id) assert_int_equal(fast.id, general.id);
    assert_int_equal(fast.pipe, general.pipe);
    assert_same_span(fast.pipe_text, general.pipe_text);
    assert_same_span(fast.mnemonic, general.mnemonic);
    assert_same_span(fast.operands, general.operands);
    assert_int_equal(fast.is_vf, general.is_vf);
    assert_int_equal(fast.vf_fields, general.vf_fields);
    if (fast.vf_fields & VF_FIELD_ADDR) assert_int_equal(fast.vf_addr, general.vf_addr);
    if (fast.vf_fields & VF_FIELD_INSTR_NUM)
      assert_int_equal(fast.vf_instr_num, general.vf_instr_num);
    if (fast.vf_fields & VF_FIELD_EXEC)
      assert_int_equal(fast.vf_execute_time, general.vf_execute_time);
    if (fast.vf_fields & VF_FIELD_REAL_EXEC)
      assert_int_equal(fast.vf_real_execute_time, general.vf_real_execute_time);
  }
  free(buf);
}

/* The fixed-layout fast path, whatever it is asked to compute, must read every line as the general
 * parser does: canonical lines, every one-byte substitution, deletion and insertion of them, and
 * every prefix.
 */
static void test_fast_path_agrees_with_general(void **state) {
  (void)state;
  static const char *const seeds[] = {
      "[info] [00000745] (PC: 0x11bbe03c) SCALAR   : (Binary: 0x083dd2b8) (ID: 000123) ADD_IMM  "
      "dtype:S64, XD:X30=0x204258, IMM:0x2b8, ",
      "[info] [00011691] (PC: 0x10f86088) SCALAR   : (Binary: 0x40c01000) WAIT_FLAG  PIPE:MTE2, "
      "TRIGGER PIPE:SCALAR, FLAG ID:0,",
      "[info] [00001833] (PC: 0x10D0D104) PUSHQ    : (Binary: 0x15400000) (ID: 000041) VF  addr: "
      "0x10d0d200,instr_num: 0x54, vf_execute_time: 72, vf_real_execute_time: 60\r",
      "[info] [123456789012] (PC: 0xabcdef01) PUSHQ    : (Binary: 0x15400000) (ID: 1234567) "
      "VF_SIMT , vf_execute_time: 561",
      "[info] [00000258] (PC: 0x10cfa008) FLOWCTRL : (Binary: 0x80400000) scalar_mov_xd_imme16(x[0]"
      "= 0x1, imme16:0x1 )",
      "[info] [00000258] (PC: 0x10cfa008) RVECLD   : (Binary: 0x80400000) (ID: 7) MOVEMASK  "
      "XN:X0=0xffffffffffffffff, Id:415;",
      "[info] [00000258] (PC: 0x10cfa008) NEWPIPE  : (Binary: 0x80400000) (ID: 7) VADD  ,",
      "[info] [00000545] (PC: 0x10cfa058) MTE2     : (Binary: 0x74401100) DMA_MOV",
  };
  static const char subst[] = {' ', '\t', '(', ')', ',', ':',  '[',  ']',    '0',    '9',
                               'a', 'f',  'G', 'x', '_', '\r', '\n', '\x80', '\xff', 'I'};
  char line[512];
  static const char *const pipes[] = {"SCALAR", "VEC",    "VECTOR", "MTE1",   "MTE2",
                                      "MTE3",   "FIXP",   "CUBE",   "FC",     "FLOWCTRL",
                                      "ALL",    "RVECEX", "RVECLD", "RVECST", "RVECSU",
                                      "RVECLP", "PUSHQ",  "scalar", "MTE4",   "FLOWCTRL2"};
  for (size_t p = 0; p < sizeof pipes / sizeof pipes[0]; p++) {
    int n = snprintf(line, sizeof line,
                     "[info] [00000001] (PC: 0x00000010) %-8s : (Binary: 0x00000001) (ID: 000002) "
                     "VF  vf_execute_time: 3",
                     pipes[p]);
    assert_parsers_agree(line, (size_t)n);
  }
  for (size_t s = 0; s < sizeof seeds / sizeof seeds[0]; s++) {
    size_t n = strlen(seeds[s]);
    for (size_t len = 0; len <= n; len++)
      assert_parsers_agree(seeds[s], len);
    for (size_t i = 0; i < n; i++) {
      for (size_t k = 0; k < sizeof subst; k++) {
        memcpy(line, seeds[s], n);
        line[i] = subst[k];
        assert_parsers_agree(line, n);
        memcpy(line, seeds[s], i);
        line[i] = subst[k];
        memcpy(line + i + 1, seeds[s] + i, n - i);
        assert_parsers_agree(line, n + 1);
      }
      memcpy(line, seeds[s], i);
      memcpy(line + i, seeds[s] + i + 1, n - i - 1);
      assert_parsers_agree(line, n - 1);
    }
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_a5_line_with_id),
      cmocka_unit_test(test_a2_line_without_id_and_operand_ids),
      cmocka_unit_test(test_legacy_function_style),
      cmocka_unit_test(test_vf_layouts),
      cmocka_unit_test(test_vf_field_spellings),
      cmocka_unit_test(test_malformed_kinds),
      cmocka_unit_test(test_never_reads_past_len),
      cmocka_unit_test(test_classes),
      cmocka_unit_test(test_fast_path_agrees_with_general),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

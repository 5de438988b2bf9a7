#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "nccl_data.h"
#include "nccl_elem.h"

/* ---- element codec ------------------------------------------------------------------------ */

static void test_minifloat_encodings(void **state) {
  (void)state;
  const nccl_dtype_t *h = nccl_dtype_get(NCCL_DT_HALF);
  assert_int_equal(nccl_elem_encode_float(h, 1.0), 0x3C00);
  assert_int_equal(nccl_elem_encode_float(h, -2.0), 0xC000);
  assert_int_equal(nccl_elem_encode_float(h, 65504.0), 0x7BFF);
  assert_int_equal(nccl_elem_encode_float(h, 1e6), 0x7C00);
  assert_int_equal(nccl_elem_encode_float(h, 0x1p-24), 0x0001);
  assert_int_equal(nccl_elem_encode_float(h, 2049.0), nccl_elem_encode_float(h, 2048.0));
  assert_int_equal(nccl_elem_encode_float(h, 2051.0), nccl_elem_encode_float(h, 2052.0));
  const nccl_dtype_t *bf = nccl_dtype_get(NCCL_DT_BFLOAT16);
  assert_int_equal(nccl_elem_encode_float(bf, 1.0), 0x3F80);
  assert_int_equal(nccl_elem_encode_float(bf, -0.5), 0xBF00);
  const nccl_dtype_t *e4 = nccl_dtype_get(NCCL_DT_F8E4M3);
  assert_int_equal(nccl_elem_encode_float(e4, 1.0), 0x38);
  assert_int_equal(nccl_elem_encode_float(e4, 448.0), 0x7E);
  assert_int_equal(nccl_elem_encode_float(e4, 480.0), 0x7F); /* no infinity: NaN */
  const nccl_dtype_t *e5 = nccl_dtype_get(NCCL_DT_F8E5M2);
  assert_int_equal(nccl_elem_encode_float(e5, 1.0), 0x3C);
  assert_int_equal(nccl_elem_encode_float(e5, 57344.0), 0x7B);
}

static void test_every_half_and_fp8_pattern_round_trips(void **state) {
  (void)state;
  nccl_dtype_id_t ids[] = {NCCL_DT_HALF, NCCL_DT_BFLOAT16, NCCL_DT_F8E4M3, NCCL_DT_F8E5M2};
  for (size_t k = 0; k < 4; k++) {
    const nccl_dtype_t *t = nccl_dtype_get(ids[k]);
    uint64_t n = UINT64_C(1) << (8 * t->size);
    for (uint64_t bits = 0; bits < n; bits++) {
      double v = nccl_elem_decode_float(t, bits);
      if (v != v) continue;
      assert_int_equal(nccl_elem_encode_float(t, v), bits);
    }
  }
}

static void test_ulp_distance(void **state) {
  (void)state;
  const nccl_dtype_t *h = nccl_dtype_get(NCCL_DT_HALF);
  assert_int_equal(nccl_elem_ulp_distance(h, 0x3C00, 0x3C01), 1);
  assert_int_equal(nccl_elem_ulp_distance(h, 0x3C03, 0x3C00), 3);
  assert_int_equal(nccl_elem_ulp_distance(h, 0x0000, 0x8000), 0);
  assert_int_equal(nccl_elem_ulp_distance(h, 0x0001, 0x8001), 2);
  assert_int_equal(nccl_elem_ulp_distance(h, 0x7E00, 0x3C00), UINT64_MAX);
  const nccl_dtype_t *d = nccl_dtype_get(NCCL_DT_DOUBLE);
  assert_int_equal(nccl_elem_ulp_distance(d, nccl_elem_encode_float(d, 1.0),
                                          nccl_elem_encode_float(d, 1.0 + 0x1p-51)),
                   2);
}

static void test_integers_wrap_and_sign_extend(void **state) {
  (void)state;
  const nccl_dtype_t *i8 = nccl_dtype_get(NCCL_DT_INT8);
  assert_int_equal(nccl_elem_signed(i8, 0xFF), -1);
  assert_int_equal(nccl_elem_signed(i8, 0x80), -128);
  assert_int_equal(nccl_elem_normalize_int(nccl_dtype_get(NCCL_DT_UINT8), 0x1FF), 0xFF);
  unsigned char buf[8];
  const nccl_dtype_t *u32 = nccl_dtype_get(NCCL_DT_UINT32);
  nccl_elem_store(u32, buf, 1, 0xA1B2C3D4);
  assert_int_equal(buf[4], 0xD4);
  assert_int_equal(buf[7], 0xA1);
  assert_int_equal(nccl_elem_load(u32, buf, 1), 0xA1B2C3D4);
}

/* ---- a host model of each collective ---------------------------------------------------- */

/* Reduces element `index` over ranks in reverse order, rounding to the type after each step as
 * a device would: a different order from the expected-value code. */
static uint64_t model_reduce(const nccl_case_t *c, void *const *send, size_t index) {
  const nccl_dtype_t *t = c->dtype;
  int n = c->nranks;
  uint64_t acc = nccl_elem_load(t, send[n - 1], index);
  for (int r = n - 2; r >= 0; r--) {
    uint64_t v = nccl_elem_load(t, send[r], index);
    if (t->kind == NCCL_KIND_FLOAT) {
      double a = nccl_elem_decode_float(t, acc), b = nccl_elem_decode_float(t, v), out = a;
      switch (c->op) {
      case NCCL_OP_SUM:
      case NCCL_OP_AVG:
      case NCCL_OP_COUNT:
        out = a + b;
        break;
      case NCCL_OP_PROD:
        out = a * b;
        break;
      case NCCL_OP_MAX:
        out = b > a ? b : a;
        break;
      case NCCL_OP_MIN:
        out = b < a ? b : a;
        break;
      }
      acc = nccl_elem_encode_float(t, out);
    } else {
      uint64_t a = nccl_elem_normalize_int(t, acc), b = nccl_elem_normalize_int(t, v);
      bool s = t->kind == NCCL_KIND_SIGNED;
      switch (c->op) {
      case NCCL_OP_SUM:
      case NCCL_OP_AVG:
      case NCCL_OP_COUNT:
        acc = a + b;
        break;
      case NCCL_OP_PROD:
        acc = a * b;
        break;
      case NCCL_OP_MAX:
        acc = (s ? (int64_t)b > (int64_t)a : b > a) ? b : a;
        break;
      case NCCL_OP_MIN:
        acc = (s ? (int64_t)b < (int64_t)a : b < a) ? b : a;
        break;
      }
    }
  }
  if (c->op == NCCL_OP_AVG) {
    if (t->kind == NCCL_KIND_FLOAT)
      return nccl_elem_encode_float(t, nccl_elem_decode_float(t, acc) / n);
    return (nccl_elem_normalize_int(t, acc) / (uint64_t)n) &
           (t->size >= 8 ? UINT64_MAX : (UINT64_C(1) << (8 * t->size)) - 1);
  }
  return acc & (t->size >= 8 ? UINT64_MAX : (UINT64_C(1) << (8 * t->size)) - 1);
}

/* Produces what `rank` receives, from every rank's send buffer. */
static void model_collective(const nccl_case_t *c, void *const *send, int rank, void *recv) {
  const nccl_dtype_t *t = c->dtype;
  size_t per = c->layout.param_count;
  int n = c->nranks;
  for (size_t j = 0; j < c->layout.recv_count; j++) {
    uint64_t v = 0;
    switch (c->coll) {
    case NCCL_COLL_ALL_REDUCE:
    case NCCL_COLL_REDUCE:
    case NCCL_COLL_COUNT:
      v = model_reduce(c, send, j);
      break;
    case NCCL_COLL_REDUCE_SCATTER:
      v = model_reduce(c, send, (size_t)rank * per + j);
      break;
    case NCCL_COLL_BROADCAST:
      v = nccl_elem_load(t, send[c->root], j);
      break;
    case NCCL_COLL_ALL_GATHER:
    case NCCL_COLL_GATHER:
      v = nccl_elem_load(t, send[j / per], j % per);
      break;
    case NCCL_COLL_ALLTOALL:
      v = nccl_elem_load(t, send[j / per], (size_t)rank * per + j % per);
      break;
    case NCCL_COLL_SENDRECV:
      v = nccl_elem_load(t, send[(rank + n - 1) % n], j);
      break;
    case NCCL_COLL_SCATTER:
      v = nccl_elem_load(t, send[c->root], (size_t)rank * per + j);
      break;
    }
    nccl_elem_store(t, recv, j, v);
  }
}

typedef struct model_run {
  nccl_case_t c;
  void *send[16];
  void *recv[16];
} model_run_t;

static void model_run(model_run_t *m, nccl_coll_t coll, nccl_dtype_id_t dt, nccl_op_t op, int root,
                      int n, uint64_t bytes) {
  nccl_case_init(&m->c, coll, dt, op, root, n, bytes);
  size_t elt = m->c.dtype->size;
  for (int r = 0; r < n; r++) {
    m->send[r] = calloc(m->c.layout.send_count + 1, elt);
    m->recv[r] = calloc(m->c.layout.recv_count + 1, elt);
    nccl_data_fill(&m->c, r, m->send[r]);
  }
  for (int r = 0; r < n; r++)
    model_collective(&m->c, m->send, r, m->recv[r]);
}

static void model_free(model_run_t *m) {
  for (int r = 0; r < m->c.nranks; r++) {
    free(m->send[r]);
    free(m->recv[r]);
  }
}

static nccl_check_result_t check_rank(const model_run_t *m, int rank) {
  nccl_check_result_t res;
  memset(&res, 0, sizeof res);
  nccl_data_check(&m->c, rank, m->recv[rank], &res);
  return res;
}

static void test_every_collective_type_and_op_checks_clean(void **state) {
  (void)state;
  int ranks[] = {1, 2, 3, 4, 8};
  for (int coll = 0; coll < NCCL_COLL_COUNT; coll++)
    for (int dt = 0; dt < NCCL_DT_COUNT; dt++)
      for (int op = 0; op < NCCL_OP_COUNT; op++) {
        if (!nccl_coll_reduces((nccl_coll_t)coll) && op != NCCL_OP_SUM) continue;
        for (size_t k = 0; k < sizeof ranks / sizeof ranks[0]; k++) {
          int n = ranks[k];
          model_run_t m;
          model_run(&m, (nccl_coll_t)coll, (nccl_dtype_id_t)dt, (nccl_op_t)op, n - 1, n, 4096);
          for (int r = 0; r < n; r++) {
            nccl_check_result_t res = check_rank(&m, r);
            if (res.wrong != 0)
              fail_msg("%s %s %s n=%d rank %d: %llu wrong, first at %zu", nccl_coll_names[coll],
                       nccl_dtype_names[dt], nccl_op_names[op], n, r, (unsigned long long)res.wrong,
                       res.first_index);
            bool receives = nccl_data_rank_checked(&m.c, r);
            assert_int_equal(res.checked, receives ? m.c.layout.recv_count : 0);
          }
          model_free(&m);
        }
      }
}

static void test_float_inputs_reduce_exactly_in_any_order(void **state) {
  (void)state;
  nccl_dtype_id_t floats[] = {NCCL_DT_HALF,   NCCL_DT_BFLOAT16, NCCL_DT_FLOAT,
                              NCCL_DT_DOUBLE, NCCL_DT_F8E4M3,   NCCL_DT_F8E5M2};
  nccl_op_t ops[] = {NCCL_OP_SUM, NCCL_OP_PROD, NCCL_OP_MAX, NCCL_OP_MIN};
  int ranks[] = {2, 3, 7, 16, 300};
  for (size_t f = 0; f < 6; f++)
    for (size_t o = 0; o < 4; o++)
      for (size_t k = 0; k < 5; k++) {
        nccl_case_t c;
        nccl_case_init(&c, NCCL_COLL_ALL_REDUCE, floats[f], ops[o], 0, ranks[k], 512);
        const nccl_dtype_t *t = c.dtype;
        for (size_t i = 0; i < c.layout.recv_count; i++) {
          /* forward and interleaved (odd ranks first) orders, rounded to the type each step */
          double fwd = nccl_elem_decode_float(t, nccl_data_input(&c, 0, i));
          for (int r = 1; r < c.nranks; r++) {
            double v = nccl_elem_decode_float(t, nccl_data_input(&c, r, i));
            double out = ops[o] == NCCL_OP_SUM    ? fwd + v
                         : ops[o] == NCCL_OP_PROD ? fwd * v
                         : ops[o] == NCCL_OP_MAX  ? (v > fwd ? v : fwd)
                                                  : (v < fwd ? v : fwd);
            fwd = nccl_elem_decode_float(t, nccl_elem_encode_float(t, out));
          }
          double mixed = 0.0;
          bool first = true;
          for (int pass = 1; pass >= 0; pass--)
            for (int r = pass; r < c.nranks; r += 2) {
              double v = nccl_elem_decode_float(t, nccl_data_input(&c, r, i));
              double out = first                    ? v
                           : ops[o] == NCCL_OP_SUM  ? mixed + v
                           : ops[o] == NCCL_OP_PROD ? mixed * v
                           : ops[o] == NCCL_OP_MAX  ? (v > mixed ? v : mixed)
                                                    : (v < mixed ? v : mixed);
              first = false;
              mixed = nccl_elem_decode_float(t, nccl_elem_encode_float(t, out));
            }
          uint64_t want = nccl_data_expected(&c, 0, i);
          if (nccl_elem_encode_float(t, fwd) != want || nccl_elem_encode_float(t, mixed) != want)
            fail_msg("%s %s n=%d element %zu: orders disagree", t->name, nccl_op_names[ops[o]],
                     ranks[k], i);
        }
      }
}

static void test_inputs_differ_between_ranks(void **state) {
  (void)state;
  nccl_case_t c;
  nccl_case_init(&c, NCCL_COLL_ALL_GATHER, NCCL_DT_FLOAT, NCCL_OP_SUM, 0, 4, 4096);
  size_t same = 0;
  for (size_t i = 0; i < c.layout.send_count; i++)
    same += nccl_data_input(&c, 0, i) == nccl_data_input(&c, 1, i);
  assert_true(same < c.layout.send_count / 10);
}

static void test_planted_errors_are_counted(void **state) {
  (void)state;
  model_run_t m;
  model_run(&m, NCCL_COLL_ALL_REDUCE, NCCL_DT_FLOAT, NCCL_OP_SUM, 0, 4, 4096);
  const nccl_dtype_t *t = m.c.dtype;
  size_t planted[] = {5, 17, 1000};
  for (size_t k = 0; k < 3; k++) {
    uint64_t v = nccl_elem_load(t, m.recv[2], planted[k]);
    nccl_elem_store(t, m.recv[2], planted[k], v ^ 1); /* one ULP off */
  }
  nccl_check_result_t res = check_rank(&m, 2);
  assert_int_equal(res.checked, 1024);
  assert_int_equal(res.wrong, 3);
  assert_true(res.have_first);
  assert_int_equal(res.first_index, 5);
  assert_int_equal(res.first_got, res.first_expected ^ 1);
  assert_true(res.max_abs_err > 0.0);
  assert_int_equal(check_rank(&m, 1).wrong, 0);
  model_free(&m);
}

static void test_untouched_output_fails(void **state) {
  (void)state;
  model_run_t m;
  model_run(&m, NCCL_COLL_BROADCAST, NCCL_DT_INT32, NCCL_OP_SUM, 1, 2, 4096);
  memset(m.recv[0], 0xA5, m.c.layout.recv_count * 4);
  nccl_check_result_t res = check_rank(&m, 0);
  assert_int_equal(res.wrong, 1024);
  model_free(&m);
}

static void test_misplaced_chunks_fail(void **state) {
  (void)state;
  model_run_t m;
  model_run(&m, NCCL_COLL_ALL_GATHER, NCCL_DT_UINT8, NCCL_OP_SUM, 0, 4, 4096);
  size_t per = m.c.layout.param_count;
  unsigned char *r = m.recv[3];
  unsigned char tmp[1024];
  memcpy(tmp, r, per);
  memcpy(r, r + per, per);
  memcpy(r + per, tmp, per);
  nccl_check_result_t res = check_rank(&m, 3);
  /* a uint8 pattern may coincide by chance: almost every swapped element must be caught */
  assert_true(res.wrong > 2 * per - 2 * per / 64);
  assert_true(res.wrong <= 2 * per);
  model_free(&m);
}

static void test_alltoall_transposed_is_wrong(void **state) {
  (void)state;
  model_run_t m;
  model_run(&m, NCCL_COLL_ALLTOALL, NCCL_DT_INT64, NCCL_OP_SUM, 0, 3, 3 * 1024);
  /* deliver what a plain all_gather would instead of the transpose */
  for (size_t j = 0; j < m.c.layout.recv_count; j++)
    nccl_elem_store(
        m.c.dtype, m.recv[1], j,
        nccl_data_input(&m.c, (int)(j / m.c.layout.param_count), j % m.c.layout.param_count));
  nccl_check_result_t res = check_rank(&m, 1);
  /* the chunk from rank 0 at offset 0 differs from rank 0's chunk for rank 1 */
  assert_true(res.wrong >= 2 * m.c.layout.param_count);
  model_free(&m);
}

static void test_avg_tolerance_is_two_ulp(void **state) {
  (void)state;
  model_run_t m;
  model_run(&m, NCCL_COLL_ALL_REDUCE, NCCL_DT_HALF, NCCL_OP_AVG, 0, 3, 256);
  const nccl_dtype_t *t = m.c.dtype;
  assert_int_equal(nccl_data_tolerance_ulp(&m.c), 2);
  /* find elements with a non-zero result and shift them by 1, 2 and 3 ULP */
  size_t idx[3];
  size_t found = 0;
  for (size_t j = 0; j < m.c.layout.recv_count && found < 3; j++)
    if ((nccl_elem_load(t, m.recv[0], j) & 0x7FFF) > 0x0400) idx[found++] = j;
  assert_int_equal(found, 3);
  for (size_t k = 0; k < 3; k++)
    nccl_elem_store(t, m.recv[0], idx[k], nccl_elem_load(t, m.recv[0], idx[k]) + (k + 1));
  nccl_check_result_t res = check_rank(&m, 0);
  assert_int_equal(res.wrong, 1);
  assert_int_equal(res.first_index, idx[2]);
  assert_true(res.max_abs_err > 0.0);
  model_free(&m);
  /* integers and other ops stay exact */
  nccl_case_t c;
  nccl_case_init(&c, NCCL_COLL_ALL_REDUCE, NCCL_DT_INT32, NCCL_OP_AVG, 0, 3, 256);
  assert_int_equal(nccl_data_tolerance_ulp(&c), 0);
  nccl_case_init(&c, NCCL_COLL_ALL_REDUCE, NCCL_DT_HALF, NCCL_OP_SUM, 0, 3, 256);
  assert_int_equal(nccl_data_tolerance_ulp(&c), 0);
}

static void test_rooted_results_only_on_root(void **state) {
  (void)state;
  model_run_t m;
  model_run(&m, NCCL_COLL_REDUCE, NCCL_DT_FLOAT, NCCL_OP_MAX, 2, 4, 1024);
  memset(m.recv[0], 0, m.c.layout.recv_count * 4);
  assert_int_equal(check_rank(&m, 0).checked, 0);
  memset(m.recv[2], 0, m.c.layout.recv_count * 4);
  assert_int_equal(check_rank(&m, 2).checked, m.c.layout.recv_count);
  assert_true(check_rank(&m, 2).wrong > 0);
  model_free(&m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_minifloat_encodings),
      cmocka_unit_test(test_every_half_and_fp8_pattern_round_trips),
      cmocka_unit_test(test_ulp_distance),
      cmocka_unit_test(test_integers_wrap_and_sign_extend),
      cmocka_unit_test(test_every_collective_type_and_op_checks_clean),
      cmocka_unit_test(test_float_inputs_reduce_exactly_in_any_order),
      cmocka_unit_test(test_inputs_differ_between_ranks),
      cmocka_unit_test(test_planted_errors_are_counted),
      cmocka_unit_test(test_untouched_output_fails),
      cmocka_unit_test(test_misplaced_chunks_fail),
      cmocka_unit_test(test_alltoall_transposed_is_wrong),
      cmocka_unit_test(test_avg_tolerance_is_two_ulp),
      cmocka_unit_test(test_rooted_results_only_on_root),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

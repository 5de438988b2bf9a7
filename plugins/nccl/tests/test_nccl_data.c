#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
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

/* Round to nearest even by libm arithmetic (frexp, ldexp, nearbyint): an oracle written apart from
 * nccl_gen.h's bit-level encoder, which the check kernels share. */
static uint64_t oracle_encode(const nccl_dtype_t *t, double v) {
  int bias = (1 << (t->exp_bits - 1)) - 1;
  int max_field = (1 << t->exp_bits) - 1;
  uint64_t one = UINT64_C(1) << t->mant_bits;
  uint64_t nan = ((uint64_t)max_field << t->mant_bits) | (one - 1);
  uint64_t sign = signbit(v) ? UINT64_C(1) << (t->exp_bits + t->mant_bits) : 0;
  if (isnan(v)) return nan;
  double a = fabs(v);
  uint64_t overflowed = t->has_inf ? sign | ((uint64_t)max_field << t->mant_bits) : sign | nan;
  if (isinf(a)) return overflowed;
  if (a == 0.0) return sign;
  int e;
  frexp(a, &e);
  int unbiased = e - 1;
  if (unbiased < 1 - bias) return sign | (uint64_t)nearbyint(ldexp(a, bias - 1 + t->mant_bits));
  double m = nearbyint(ldexp(a, t->mant_bits - unbiased));
  if ((uint64_t)m == one << 1) {
    m /= 2;
    unbiased++;
  }
  int field = unbiased + bias;
  uint64_t mant = (uint64_t)m - one;
  bool overflow = t->has_inf ? field >= max_field
                             : (field > max_field || (field == max_field && mant == one - 1));
  return overflow ? overflowed : sign | ((uint64_t)field << t->mant_bits) | mant;
}

static void expect_oracle(const nccl_dtype_t *t, double v) {
  uint64_t got = nccl_elem_encode_float(t, v), want = oracle_encode(t, v);
  if (got != want)
    fail_msg("%s: %a encodes as 0x%llx, the oracle says 0x%llx", t->name, v,
             (unsigned long long)got, (unsigned long long)want);
}

static void test_encoder_matches_arithmetic_oracle(void **state) {
  (void)state;
  nccl_dtype_id_t ids[] = {NCCL_DT_HALF, NCCL_DT_BFLOAT16, NCCL_DT_F8E4M3, NCCL_DT_F8E5M2};
  for (size_t k = 0; k < 4; k++) {
    const nccl_dtype_t *t = nccl_dtype_get(ids[k]);
    uint64_t magnitudes = UINT64_C(1) << (8 * t->size - 1);
    for (uint64_t bits = 0; bits + 1 < magnitudes; bits++) {
      double lo = nccl_elem_decode_float(t, bits), hi = nccl_elem_decode_float(t, bits + 1);
      if (isnan(lo) || isnan(hi) || isinf(hi)) continue;
      /* every tie between neighbours, either side of it, and both signs */
      double mid = (lo + hi) / 2;
      double probes[] = {lo, mid, nextafter(mid, 0), nextafter(mid, INFINITY), hi * 1.5, hi * 4};
      for (size_t j = 0; j < sizeof probes / sizeof probes[0]; j++) {
        expect_oracle(t, probes[j]);
        expect_oracle(t, -probes[j]);
      }
    }
    double specials[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1e300, 1e-300, 0x1p-1074, 0x1p-60};
    for (size_t j = 0; j < sizeof specials / sizeof specials[0]; j++)
      expect_oracle(t, specials[j]);
    uint64_t h = 12345;
    for (int i = 0; i < 200000; i++) {
      h = h * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
      double v = ldexp((double)(h >> 11) * 0x1p-53, (int)((h >> 3) % 200) - 150);
      expect_oracle(t, (h & 1) ? -v : v);
    }
  }
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

/* The check kernel on the host: `threads` grid-stride tallies folded together as its atomics do
 * must say what one pass says, and nccl_data_add_tally must give what the host check gives. */
static void tally_as_kernel(const model_run_t *m, int rank, uint64_t threads, nccl_tally_t *out) {
  uint64_t tol = nccl_gen_tolerance_ulp(&m->c.gen);
  nccl_tally_init(out);
  for (uint64_t t = threads; t-- > 0;) { /* folded in reverse, as atomics land in any order */
    nccl_tally_t mine;
    nccl_tally_init(&mine);
    for (uint64_t i = t; i < m->c.gen.recv_count; i += threads)
      nccl_tally_add(&mine, &m->c.gen, rank, i, nccl_elem_load(m->c.dtype, m->recv[rank], i), tol);
    nccl_tally_merge(out, &mine);
  }
}

static void expect_kernel_agrees(const model_run_t *m, int rank) {
  nccl_check_result_t host = check_rank(m, rank);
  nccl_tally_t one, many;
  tally_as_kernel(m, rank, 1, &one);
  tally_as_kernel(m, rank, 7, &many);
  assert_int_equal(one.wrong, many.wrong);
  assert_int_equal(one.first, many.first);
  assert_int_equal(one.max_abs_bits, many.max_abs_bits);
  assert_int_equal(one.max_rel_bits, many.max_rel_bits);
  nccl_check_result_t dev;
  memset(&dev, 0, sizeof dev);
  uint64_t got = many.wrong ? nccl_elem_load(m->c.dtype, m->recv[rank], many.first) : 0;
  nccl_data_add_tally(&m->c, rank, m->c.layout.recv_count, &many, got, &dev);
  assert_int_equal(dev.checked, host.checked);
  assert_int_equal(dev.wrong, host.wrong);
  assert_int_equal(dev.have_first, host.have_first);
  assert_int_equal(dev.first_index, host.first_index);
  assert_int_equal(dev.first_got, host.first_got);
  assert_int_equal(dev.first_expected, host.first_expected);
  assert_true(dev.max_abs_err == host.max_abs_err);
  assert_true(dev.max_rel_err == host.max_rel_err);
  assert_int_equal(dev.tolerance_ulp, host.tolerance_ulp);
}

static void test_kernel_tallies_agree_with_host_check(void **state) {
  (void)state;
  model_run_t m;
  model_run(&m, NCCL_COLL_ALL_REDUCE, NCCL_DT_FLOAT, NCCL_OP_SUM, 0, 4, 4096);
  expect_kernel_agrees(&m, 1); /* clean */
  size_t planted[] = {999, 17, 640, 5};
  for (size_t k = 0; k < 4; k++) {
    uint64_t v = nccl_elem_load(m.c.dtype, m.recv[1], planted[k]);
    nccl_elem_store(m.c.dtype, m.recv[1], planted[k], v ^ (UINT64_C(1) << (3 + k)));
  }
  expect_kernel_agrees(&m, 1);
  assert_int_equal(check_rank(&m, 1).wrong, 4);
  assert_int_equal(check_rank(&m, 1).first_index, 5);
  model_free(&m);
  /* avg on half: within 2 ULP counts for the errors only */
  model_run(&m, NCCL_COLL_REDUCE_SCATTER, NCCL_DT_HALF, NCCL_OP_AVG, 0, 3, 3 * 256);
  for (size_t j = 0; j < m.c.layout.recv_count; j += 10)
    nccl_elem_store(m.c.dtype, m.recv[2], j, nccl_elem_load(m.c.dtype, m.recv[2], j) + 1 + j % 3);
  expect_kernel_agrees(&m, 2);
  model_free(&m);
  /* untouched output on a signed integer type */
  model_run(&m, NCCL_COLL_ALL_GATHER, NCCL_DT_INT64, NCCL_OP_SUM, 0, 2, 4096);
  memset(m.recv[0], 0xA5, m.c.layout.recv_count * 8);
  expect_kernel_agrees(&m, 0);
  model_free(&m);
}

static void test_case_carries_its_gen_by_value(void **state) {
  (void)state;
  nccl_case_t c;
  nccl_case_init(&c, NCCL_COLL_SCATTER, NCCL_DT_BFLOAT16, NCCL_OP_SUM, 2, 3, 3000);
  assert_int_equal(c.gen.send_count, c.layout.send_count);
  assert_int_equal(c.gen.recv_count, c.layout.recv_count);
  assert_int_equal(c.gen.param_count, c.layout.param_count);
  assert_int_equal(c.gen.root, 2);
  assert_int_equal(c.gen.nranks, 3);
  assert_int_equal(c.gen.t.size, 2);
  assert_int_equal(c.gen.t.mant_bits, 7);
  assert_int_equal(c.gen.t.kind, NCCL_KIND_FLOAT);
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
      cmocka_unit_test(test_encoder_matches_arithmetic_oracle),
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
      cmocka_unit_test(test_kernel_tallies_agree_with_host_check),
      cmocka_unit_test(test_case_carries_its_gen_by_value),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

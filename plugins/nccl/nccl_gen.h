/* Inputs, expected results and the judgement of one element, for every collective, type and op.
 *
 * The host (C11) and the check kernels (CUDA C++, nccl_kernels.cu) compile these same inline
 * functions, so the host's fallback check and its unit tests run the very formulas the device
 * runs. They work on bit patterns and on IEEE double arithmetic alone (+, *, / and the double to
 * float conversion, all rounded to nearest even on both sides; the kernels are built without
 * fused multiply-add): no libm, whose results may differ between host and device.
 *
 * Inputs are chosen so that every reduction order gives one exact result: integers wrap around
 * (sum and product are then exact modulo 2^width in any order), and floating inputs are small
 * integers whose partial sums stay below 2^(mantissa bits + 1), or powers of two whose product
 * stays within {1/2, 1, 2} in magnitude. Results are compared bit for bit, except avg on floating
 * types, which NCCL computes as a pre-multiplied sum and so may round differently: 2 ULP. */
#ifndef RIGOR_NCCL_GEN_H
#define RIGOR_NCCL_GEN_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "nccl_tables.h"

#ifdef __CUDACC__
#define NCCL_HD __host__ __device__
#else
#define NCCL_HD
#endif

/* An element type by value (the kernels cannot follow nccl_dtype_t's name pointer). */
typedef struct nccl_fmt {
  uint32_t size; /* bytes */
  uint32_t kind; /* nccl_kind_t */
  int32_t exp_bits;
  int32_t mant_bits; /* explicit mantissa bits */
  uint32_t has_inf;
} nccl_fmt_t;

/* One collective of one point: what every rank sends and receives. */
typedef struct nccl_gen {
  nccl_fmt_t t;
  int32_t coll; /* nccl_coll_t */
  int32_t op;   /* nccl_op_t */
  int32_t root;
  int32_t nranks;
  uint64_t send_count; /* elements */
  uint64_t recv_count;
  uint64_t param_count; /* per-rank chunk of the gather/scatter family */
} nccl_gen_t;

/* How a received element compares with the expected one. */
enum { NCCL_JUDGE_EQUAL = 0, NCCL_JUDGE_NEAR = 1, NCCL_JUDGE_WRONG = 2 };

static inline nccl_fmt_t nccl_fmt_of(const nccl_dtype_t *t) {
  nccl_fmt_t f;
  f.size = (uint32_t)t->size;
  f.kind = (uint32_t)t->kind;
  f.exp_bits = t->exp_bits;
  f.mant_bits = t->mant_bits;
  f.has_inf = t->has_inf ? 1u : 0u;
  return f;
}

/* ---- doubles as bits ------------------------------------------------------------------------ */

#define NCCL_F64_SIGN UINT64_C(0x8000000000000000)
#define NCCL_F64_INF  UINT64_C(0x7FF0000000000000)
#define NCCL_F64_NAN  UINT64_C(0x7FF8000000000000)

NCCL_HD static inline uint64_t nccl_f64_bits(double v) {
  uint64_t b;
  memcpy(&b, &v, sizeof b);
  return b;
}

NCCL_HD static inline double nccl_f64_of(uint64_t b) {
  double v;
  memcpy(&v, &b, sizeof v);
  return v;
}

NCCL_HD static inline bool nccl_f64_isnan(double v) {
  return (nccl_f64_bits(v) & ~NCCL_F64_SIGN) > NCCL_F64_INF;
}

NCCL_HD static inline double nccl_f64_abs(double v) {
  return nccl_f64_of(nccl_f64_bits(v) & ~NCCL_F64_SIGN);
}

/* 2^k for the normal range of double, exactly. */
NCCL_HD static inline double nccl_f64_pow2(int k) {
  return nccl_f64_of((uint64_t)(k + 1023) << 52);
}

/* ---- element formats ------------------------------------------------------------------------ */

NCCL_HD static inline uint64_t nccl_fmt_mask(const nccl_fmt_t *t) {
  return t->size >= 8 ? UINT64_MAX : (UINT64_C(1) << (8 * t->size)) - 1;
}

NCCL_HD static inline int nccl_fmt_bias(const nccl_fmt_t *t) {
  return (1 << (t->exp_bits - 1)) - 1;
}

NCCL_HD static inline uint64_t nccl_fmt_nan(const nccl_fmt_t *t) {
  uint64_t exp_all = ((UINT64_C(1) << t->exp_bits) - 1) << t->mant_bits;
  return exp_all | ((UINT64_C(1) << t->mant_bits) - 1);
}

/* sig / 2^shift rounded to nearest, ties to even. */
NCCL_HD static inline uint64_t nccl_round_shift(uint64_t sig, int shift) {
  if (shift <= 0) return sig << -shift;
  if (shift >= 64) return 0;
  uint64_t q = sig >> shift;
  uint64_t rem = sig & ((UINT64_C(1) << shift) - 1);
  uint64_t half = UINT64_C(1) << (shift - 1);
  if (rem > half || (rem == half && (q & 1))) q++;
  return q;
}

/* A double rounded to nearest even into a floating type of 1 or 2 bytes (half, bfloat16, fp8),
 * from the double's bits: sign, exponent and the 53-bit significand. */
NCCL_HD static inline uint64_t nccl_fmt_encode_small(const nccl_fmt_t *t, double v) {
  uint64_t d = nccl_f64_bits(v);
  int m = t->mant_bits;
  uint64_t sign = (d & NCCL_F64_SIGN) ? UINT64_C(1) << (t->exp_bits + m) : 0;
  int dexp = (int)((d >> 52) & 0x7FF);
  uint64_t dmant = d & ((UINT64_C(1) << 52) - 1);
  int max_field = (1 << t->exp_bits) - 1;
  uint64_t overflowed = t->has_inf ? sign | ((uint64_t)max_field << m) : sign | nccl_fmt_nan(t);
  if (dexp == 0x7FF) return dmant ? nccl_fmt_nan(t) : overflowed;
  if (dexp == 0 && dmant == 0) return sign;
  uint64_t sig = dexp ? dmant | (UINT64_C(1) << 52) : dmant; /* v = sig * 2^(e - 52) */
  int e = dexp ? dexp - 1023 : -1022;
  int bias = nccl_fmt_bias(t), emin = 1 - bias;
  if (e < emin) /* subnormal: a carry out of the mantissa lands on exponent field 1, correctly */
    return sign | nccl_round_shift(sig, 52 - m + (emin - e));
  uint64_t q = nccl_round_shift(sig, 52 - m);
  if (q == UINT64_C(1) << (m + 1)) {
    q >>= 1;
    e++;
  }
  if (e + bias > max_field) return overflowed;
  uint64_t field = (uint64_t)(e + bias);
  uint64_t mant = q - (UINT64_C(1) << m);
  uint64_t top_mant = (UINT64_C(1) << m) - 1;
  bool overflow =
      t->has_inf ? field >= (uint64_t)max_field : field == (uint64_t)max_field && mant == top_mant;
  if (overflow) return overflowed;
  return sign | (field << m) | mant;
}

/* Bit pattern of `v` in floating type `t`, rounded to nearest even. */
NCCL_HD static inline uint64_t nccl_fmt_encode(const nccl_fmt_t *t, double v) {
  if (t->size == 8) return nccl_f64_bits(v);
  if (t->size == 4) {
    float f = (float)v;
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    return bits;
  }
  return nccl_fmt_encode_small(t, v);
}

/* The value of a floating bit pattern (NaN and infinities included). */
NCCL_HD static inline double nccl_fmt_decode(const nccl_fmt_t *t, uint64_t bits) {
  if (t->size == 8) return nccl_f64_of(bits);
  if (t->size == 4) {
    uint32_t b = (uint32_t)bits;
    float f;
    memcpy(&f, &b, sizeof f);
    return (double)f;
  }
  int m = t->mant_bits;
  int bias = nccl_fmt_bias(t);
  int max_field = (1 << t->exp_bits) - 1;
  uint64_t mant_mask = (UINT64_C(1) << m) - 1;
  int field = (int)((bits >> m) & (uint64_t)max_field);
  uint64_t mant = bits & mant_mask;
  bool negative = (bits >> (t->exp_bits + m)) & 1;
  double magnitude;
  if (field == max_field && (t->has_inf || mant == mant_mask)) {
    if (!(t->has_inf && mant == 0)) return nccl_f64_of(NCCL_F64_NAN);
    magnitude = nccl_f64_of(NCCL_F64_INF);
  } else if (field == 0) {
    magnitude = (double)mant * nccl_f64_pow2(1 - bias - m);
  } else {
    magnitude = (double)(mant | (mant_mask + 1)) * nccl_f64_pow2(field - bias - m);
  }
  return negative ? -magnitude : magnitude;
}

/* Signed value of an integer element (only meaningful for signed types). */
NCCL_HD static inline int64_t nccl_fmt_signed(const nccl_fmt_t *t, uint64_t bits) {
  unsigned width = 8 * t->size;
  if (width >= 64) return (int64_t)bits;
  uint64_t m = bits & nccl_fmt_mask(t);
  uint64_t sign = UINT64_C(1) << (width - 1);
  return (int64_t)(m ^ sign) - (int64_t)sign;
}

/* An integer element's value: sign-extended for signed types, masked for unsigned. */
NCCL_HD static inline uint64_t nccl_fmt_normalize_int(const nccl_fmt_t *t, uint64_t bits) {
  if (t->kind == NCCL_KIND_SIGNED) return (uint64_t)nccl_fmt_signed(t, bits);
  return bits & nccl_fmt_mask(t);
}

/* Distance in units in the last place between two floating bit patterns; UINT64_MAX when either
 * is NaN. Sign-magnitude patterns map onto a line where neighbouring values differ by one. */
NCCL_HD static inline uint64_t nccl_fmt_ulp_distance(const nccl_fmt_t *t, uint64_t a, uint64_t b) {
  if (nccl_f64_isnan(nccl_fmt_decode(t, a)) || nccl_f64_isnan(nccl_fmt_decode(t, b)))
    return UINT64_MAX;
  unsigned sign_bit = 8 * t->size - 1;
  uint64_t magnitude_mask = (UINT64_C(1) << sign_bit) - 1;
  int64_t oa = (a >> sign_bit) & 1 ? -(int64_t)(a & magnitude_mask) : (int64_t)(a & magnitude_mask);
  int64_t ob = (b >> sign_bit) & 1 ? -(int64_t)(b & magnitude_mask) : (int64_t)(b & magnitude_mask);
  return oa > ob ? (uint64_t)(oa - ob) : (uint64_t)(ob - oa);
}

/* The value an element stands for, to measure errors. */
NCCL_HD static inline double nccl_fmt_value(const nccl_fmt_t *t, uint64_t bits) {
  if (t->kind == NCCL_KIND_FLOAT) return nccl_fmt_decode(t, bits);
  if (t->kind == NCCL_KIND_SIGNED) return (double)nccl_fmt_signed(t, bits);
  return (double)bits;
}

/* ---- inputs --------------------------------------------------------------------------------- */

NCCL_HD static inline uint64_t nccl_gen_mix(int rank, uint64_t index) {
  uint64_t h = index * UINT64_C(0x9E3779B97F4A7C15) + (uint64_t)rank * UINT64_C(0xBF58476D1CE4E5B9);
  h ^= h >> 29;
  h *= UINT64_C(0x94D049BB133111EB);
  return h ^ (h >> 32);
}

/* Largest magnitude whose sums over all ranks stay exact. */
NCCL_HD static inline uint64_t nccl_gen_sum_bound(const nccl_gen_t *g) {
  const nccl_fmt_t *t = &g->t;
  if (t->kind == NCCL_KIND_FLOAT) {
    uint64_t limit = UINT64_C(1) << (t->mant_bits < 53 ? t->mant_bits + 1 : 53);
    return limit / (uint64_t)g->nranks;
  }
  unsigned width = 8 * t->size - (t->kind == NCCL_KIND_SIGNED ? 1 : 0);
  uint64_t max = width >= 64 ? UINT64_MAX : (UINT64_C(1) << width) - 1;
  return max / (uint64_t)g->nranks;
}

NCCL_HD static inline double nccl_gen_float_input(const nccl_gen_t *g, int rank, uint64_t index) {
  uint64_t h = nccl_gen_mix(rank, index);
  if (g->op == NCCL_OP_PROD) {
    /* Over any set of consecutive ranks the 2s and the halves differ by at most one. */
    uint64_t phase = (index + (uint64_t)rank) % 4;
    double v = phase == 0 ? 2.0 : phase == 2 ? 0.5 : 1.0;
    return (h >> 7) % 5 == 0 ? -v : v;
  }
  if (g->op == NCCL_OP_MAX || g->op == NCCL_OP_MIN) {
    uint64_t span = UINT64_C(1) << (g->t.mant_bits + 1);
    if (span > 1000) span = 1000;
    return (double)(int64_t)(h % (2 * span + 1)) - (double)span;
  }
  uint64_t m = nccl_gen_sum_bound(g);
  if (m == 0) /* more ranks than exact integers: one rank contributes 1 per element */
    return index % (uint64_t)g->nranks == (uint64_t)rank ? 1.0 : 0.0;
  if (m > 1000) m = 1000;
  /* avg: non-negative, so NCCL's pre-multiplied sum has no cancellation to magnify rounding */
  if (g->op == NCCL_OP_AVG) return (double)(h % (m + 1));
  return (double)(int64_t)(h % (2 * m + 1)) - (double)m;
}

NCCL_HD static inline uint64_t nccl_gen_int_input(const nccl_gen_t *g, int rank, uint64_t index) {
  uint64_t h = nccl_gen_mix(rank, index);
  if (g->op == NCCL_OP_AVG) { /* non-negative and overflow-free: the division is unambiguous */
    uint64_t bound = nccl_gen_sum_bound(g);
    return bound == UINT64_MAX ? h : h % (bound + 1);
  }
  if (g->op == NCCL_OP_PROD) /* odd factors keep wrapped products from collapsing to zero */
    return h | 1;
  return h;
}

/* Bit pattern of element `index` of the send buffer of `rank`. */
NCCL_HD static inline uint64_t nccl_gen_input(const nccl_gen_t *g, int rank, uint64_t index) {
  if (g->t.kind == NCCL_KIND_FLOAT)
    return nccl_fmt_encode(&g->t, nccl_gen_float_input(g, rank, index));
  return nccl_gen_int_input(g, rank, index) & nccl_fmt_mask(&g->t);
}

/* ---- expected results ----------------------------------------------------------------------- */

NCCL_HD static inline uint64_t nccl_gen_reduce_int(const nccl_gen_t *g, uint64_t index) {
  const nccl_fmt_t *t = &g->t;
  bool is_signed = t->kind == NCCL_KIND_SIGNED;
  uint64_t acc = nccl_fmt_normalize_int(t, nccl_gen_input(g, 0, index));
  for (int r = 1; r < g->nranks; r++) {
    uint64_t v = nccl_fmt_normalize_int(t, nccl_gen_input(g, r, index));
    if (g->op == NCCL_OP_PROD)
      acc *= v;
    else if (g->op == NCCL_OP_MAX)
      acc = (is_signed ? (int64_t)v > (int64_t)acc : v > acc) ? v : acc;
    else if (g->op == NCCL_OP_MIN)
      acc = (is_signed ? (int64_t)v < (int64_t)acc : v < acc) ? v : acc;
    else
      acc += v;
  }
  if (g->op == NCCL_OP_AVG) acc /= (uint64_t)g->nranks;
  return acc & nccl_fmt_mask(t);
}

NCCL_HD static inline uint64_t nccl_gen_reduce_float(const nccl_gen_t *g, uint64_t index) {
  const nccl_fmt_t *t = &g->t;
  double acc = nccl_fmt_decode(t, nccl_gen_input(g, 0, index));
  for (int r = 1; r < g->nranks; r++) {
    double v = nccl_fmt_decode(t, nccl_gen_input(g, r, index));
    if (g->op == NCCL_OP_PROD)
      acc *= v;
    else if (g->op == NCCL_OP_MAX)
      acc = v > acc ? v : acc;
    else if (g->op == NCCL_OP_MIN)
      acc = v < acc ? v : acc;
    else
      acc += v;
  }
  if (g->op == NCCL_OP_AVG) acc /= (double)g->nranks;
  return nccl_fmt_encode(t, acc);
}

NCCL_HD static inline uint64_t nccl_gen_reduced(const nccl_gen_t *g, uint64_t index) {
  return g->t.kind == NCCL_KIND_FLOAT ? nccl_gen_reduce_float(g, index)
                                      : nccl_gen_reduce_int(g, index);
}

/* Bit pattern expected at element `index` of the result region of `rank`. */
NCCL_HD static inline uint64_t nccl_gen_expected(const nccl_gen_t *g, int rank, uint64_t index) {
  uint64_t per = g->param_count;
  int n = g->nranks;
  switch (g->coll) {
  case NCCL_COLL_REDUCE_SCATTER:
    return nccl_gen_reduced(g, (uint64_t)rank * per + index);
  case NCCL_COLL_BROADCAST:
    return nccl_gen_input(g, g->root, index);
  case NCCL_COLL_ALL_GATHER:
  case NCCL_COLL_GATHER:
    return nccl_gen_input(g, (int)(index / per), index % per);
  case NCCL_COLL_ALLTOALL:
    return nccl_gen_input(g, (int)(index / per), (uint64_t)rank * per + index % per);
  case NCCL_COLL_SENDRECV:
    return nccl_gen_input(g, (rank - 1 + n) % n, index);
  case NCCL_COLL_SCATTER:
    return nccl_gen_input(g, g->root, (uint64_t)rank * per + index);
  default: /* all_reduce, reduce */
    return nccl_gen_reduced(g, index);
  }
}

/* Whether `rank` receives a result (reduce and gather deliver to the root only). */
NCCL_HD static inline bool nccl_gen_rank_checked(const nccl_gen_t *g, int rank) {
  if (g->coll == NCCL_COLL_REDUCE || g->coll == NCCL_COLL_GATHER) return rank == g->root;
  return true;
}

/* Largest ULP distance accepted (0 except avg on floating types of a reducing collective). */
NCCL_HD static inline uint64_t nccl_gen_tolerance_ulp(const nccl_gen_t *g) {
  bool reduces = g->coll == NCCL_COLL_ALL_REDUCE || g->coll == NCCL_COLL_REDUCE_SCATTER ||
                 g->coll == NCCL_COLL_REDUCE;
  return g->op == NCCL_OP_AVG && g->t.kind == NCCL_KIND_FLOAT && reduces ? 2 : 0;
}

/* ---- the comparison ------------------------------------------------------------------------- */

/* Judges a received element against the expected one: EQUAL (bit for bit), NEAR (within
 * `tolerance` ULP) or WRONG. For NEAR and WRONG, *abs_err and *rel_err get the error (infinite for
 * a NaN received; relative to |expected|, or absolute where that is 0). */
NCCL_HD static inline int nccl_gen_judge(const nccl_fmt_t *t, uint64_t got, uint64_t want,
                                         uint64_t tolerance, double *abs_err, double *rel_err) {
  if (got == want) return NCCL_JUDGE_EQUAL;
  double g = nccl_fmt_value(t, got), w = nccl_fmt_value(t, want);
  double diff = g - w;
  double a = nccl_f64_isnan(g) ? nccl_f64_of(NCCL_F64_INF) : nccl_f64_abs(diff);
  *abs_err = a;
  *rel_err = w != 0.0 ? a / nccl_f64_abs(w) : a;
  if (tolerance > 0 && nccl_fmt_ulp_distance(t, got, want) <= tolerance) return NCCL_JUDGE_NEAR;
  return NCCL_JUDGE_WRONG;
}

/* What a check found over some elements. The errors are kept as the bit patterns of non-negative
 * doubles, which order as unsigned integers: the kernels merge them with integer atomics. */
typedef struct nccl_tally {
  uint64_t wrong;
  uint64_t first; /* smallest wrong index; UINT64_MAX for none */
  uint64_t max_abs_bits;
  uint64_t max_rel_bits;
} nccl_tally_t;

NCCL_HD static inline void nccl_tally_init(nccl_tally_t *t) {
  t->wrong = 0;
  t->first = UINT64_MAX;
  t->max_abs_bits = 0;
  t->max_rel_bits = 0;
}

/* Judges element `index` of the result region of `rank`, received as `got`. */
NCCL_HD static inline void nccl_tally_add(nccl_tally_t *t, const nccl_gen_t *g, int rank,
                                          uint64_t index, uint64_t got, uint64_t tolerance) {
  uint64_t want = nccl_gen_expected(g, rank, index);
  double abs_err = 0, rel_err = 0;
  int verdict = nccl_gen_judge(&g->t, got, want, tolerance, &abs_err, &rel_err);
  if (verdict == NCCL_JUDGE_EQUAL) return;
  uint64_t a = nccl_f64_bits(abs_err), r = nccl_f64_bits(rel_err);
  if (a > t->max_abs_bits) t->max_abs_bits = a;
  if (r > t->max_rel_bits) t->max_rel_bits = r;
  if (verdict == NCCL_JUDGE_NEAR) return;
  t->wrong++;
  if (index < t->first) t->first = index;
}

/* Folds `from` into `into`: what the kernels' atomics do across threads. */
NCCL_HD static inline void nccl_tally_merge(nccl_tally_t *into, const nccl_tally_t *from) {
  into->wrong += from->wrong;
  if (from->first < into->first) into->first = from->first;
  if (from->max_abs_bits > into->max_abs_bits) into->max_abs_bits = from->max_abs_bits;
  if (from->max_rel_bits > into->max_rel_bits) into->max_rel_bits = from->max_rel_bits;
}

#endif

#include "nccl_elem.h"

#include <math.h>
#include <string.h>

static int bias_of(const nccl_dtype_t *t) {
  return (1 << (t->exp_bits - 1)) - 1;
}

static uint64_t width_mask(const nccl_dtype_t *t) {
  return t->size >= 8 ? UINT64_MAX : (UINT64_C(1) << (8 * t->size)) - 1;
}

static uint64_t nan_bits(const nccl_dtype_t *t) {
  uint64_t exp_all = ((UINT64_C(1) << t->exp_bits) - 1) << t->mant_bits;
  return exp_all | ((UINT64_C(1) << t->mant_bits) - 1);
}

static uint64_t minifloat_encode(const nccl_dtype_t *t, double v) {
  uint64_t sign = signbit(v) ? UINT64_C(1) << (t->exp_bits + t->mant_bits) : 0;
  if (isnan(v)) return nan_bits(t);
  double a = fabs(v);
  int bias = bias_of(t);
  int max_field = (1 << t->exp_bits) - 1;
  uint64_t one = UINT64_C(1) << t->mant_bits;
  if (isinf(a))
    return t->has_inf ? sign | ((uint64_t)max_field << t->mant_bits) : sign | nan_bits(t);
  if (a == 0.0) return sign;
  int e;
  frexp(a, &e);
  int unbiased = e - 1;
  if (unbiased < 1 - bias) {
    /* Subnormal: a carry out of the mantissa lands on exponent field 1, which is correct. */
    double m = nearbyint(ldexp(a, bias - 1 + t->mant_bits));
    return sign | (uint64_t)m;
  }
  double m = nearbyint(ldexp(a, t->mant_bits - unbiased));
  if ((uint64_t)m == one << 1) {
    m /= 2;
    unbiased++;
  }
  int field = unbiased + bias;
  uint64_t mant = (uint64_t)m - one;
  bool overflow = t->has_inf ? field >= max_field
                             : (field > max_field || (field == max_field && mant == one - 1));
  if (overflow)
    return t->has_inf ? sign | ((uint64_t)max_field << t->mant_bits) : sign | nan_bits(t);
  return sign | ((uint64_t)field << t->mant_bits) | mant;
}

uint64_t nccl_elem_encode_float(const nccl_dtype_t *t, double v) {
  if (t->size == 8) {
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    return bits;
  }
  if (t->size == 4) {
    float f = (float)v;
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    return bits;
  }
  return minifloat_encode(t, v);
}

double nccl_elem_decode_float(const nccl_dtype_t *t, uint64_t bits) {
  if (t->size == 8) {
    double v;
    memcpy(&v, &bits, sizeof v);
    return v;
  }
  if (t->size == 4) {
    uint32_t b = (uint32_t)bits;
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
  }
  int bias = bias_of(t);
  int max_field = (1 << t->exp_bits) - 1;
  uint64_t mant_mask = (UINT64_C(1) << t->mant_bits) - 1;
  int field = (int)((bits >> t->mant_bits) & (uint64_t)max_field);
  uint64_t mant = bits & mant_mask;
  double sign = (bits >> (t->exp_bits + t->mant_bits)) & 1 ? -1.0 : 1.0;
  if (field == max_field && (t->has_inf || mant == mant_mask)) {
    if (t->has_inf && mant == 0) return sign * INFINITY;
    return NAN;
  }
  if (field == 0) return sign * ldexp((double)mant, 1 - bias - t->mant_bits);
  return sign * ldexp((double)(mant | (mant_mask + 1)), field - bias - t->mant_bits);
}

uint64_t nccl_elem_normalize_int(const nccl_dtype_t *t, uint64_t bits) {
  if (t->kind == NCCL_KIND_SIGNED) return (uint64_t)nccl_elem_signed(t, bits);
  return bits & width_mask(t);
}

int64_t nccl_elem_signed(const nccl_dtype_t *t, uint64_t bits) {
  unsigned width = (unsigned)(8 * t->size);
  if (width >= 64) return (int64_t)bits;
  uint64_t m = bits & width_mask(t);
  uint64_t sign = UINT64_C(1) << (width - 1);
  return (int64_t)(m ^ sign) - (int64_t)sign;
}

/* Maps sign-magnitude bit patterns onto a line where neighbouring values differ by one. */
static int64_t ordered(const nccl_dtype_t *t, uint64_t bits) {
  unsigned sign_bit = (unsigned)(8 * t->size - 1);
  uint64_t magnitude = bits & ((UINT64_C(1) << sign_bit) - 1);
  return (bits >> sign_bit) & 1 ? -(int64_t)magnitude : (int64_t)magnitude;
}

uint64_t nccl_elem_ulp_distance(const nccl_dtype_t *t, uint64_t a, uint64_t b) {
  if (isnan(nccl_elem_decode_float(t, a)) || isnan(nccl_elem_decode_float(t, b))) return UINT64_MAX;
  int64_t oa = ordered(t, a), ob = ordered(t, b);
  return oa > ob ? (uint64_t)(oa - ob) : (uint64_t)(ob - oa);
}

uint64_t nccl_elem_load(const nccl_dtype_t *t, const void *buf, size_t index) {
  const unsigned char *p = (const unsigned char *)buf + index * t->size;
  uint64_t bits = 0;
  for (size_t i = 0; i < t->size; i++)
    bits |= (uint64_t)p[i] << (8 * i);
  return bits;
}

void nccl_elem_store(const nccl_dtype_t *t, void *buf, size_t index, uint64_t bits) {
  unsigned char *p = (unsigned char *)buf + index * t->size;
  for (size_t i = 0; i < t->size; i++)
    p[i] = (unsigned char)(bits >> (8 * i));
}

#include "nccl_elem.h"

#include "nccl_gen.h"

uint64_t nccl_elem_encode_float(const nccl_dtype_t *t, double v) {
  nccl_fmt_t f = nccl_fmt_of(t);
  return nccl_fmt_encode(&f, v);
}

double nccl_elem_decode_float(const nccl_dtype_t *t, uint64_t bits) {
  nccl_fmt_t f = nccl_fmt_of(t);
  return nccl_fmt_decode(&f, bits);
}

uint64_t nccl_elem_normalize_int(const nccl_dtype_t *t, uint64_t bits) {
  nccl_fmt_t f = nccl_fmt_of(t);
  return nccl_fmt_normalize_int(&f, bits);
}

int64_t nccl_elem_signed(const nccl_dtype_t *t, uint64_t bits) {
  nccl_fmt_t f = nccl_fmt_of(t);
  return nccl_fmt_signed(&f, bits);
}

uint64_t nccl_elem_ulp_distance(const nccl_dtype_t *t, uint64_t a, uint64_t b) {
  nccl_fmt_t f = nccl_fmt_of(t);
  return nccl_fmt_ulp_distance(&f, a, b);
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

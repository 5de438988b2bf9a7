/* Element encoding for every data type on the host: integers as two's complement of the type's
 * width, floating types (half, bfloat16, fp8 included) by round-to-nearest-even from double. The
 * conversions are nccl_gen.h's, which the check kernels compile too. */
#ifndef RIGOR_NCCL_ELEM_H
#define RIGOR_NCCL_ELEM_H

#include <stdint.h>

#include "nccl_tables.h"

/* Bit pattern of `v` in floating type `t`, rounded to nearest even. */
uint64_t nccl_elem_encode_float(const nccl_dtype_t *t, double v);
/* The value of a floating bit pattern (NaN and infinities included). */
double nccl_elem_decode_float(const nccl_dtype_t *t, uint64_t bits);
/* An integer element's value: sign-extended for signed types, masked for unsigned. */
uint64_t nccl_elem_normalize_int(const nccl_dtype_t *t, uint64_t bits);
/* Signed value of an integer element (only meaningful for signed types). */
int64_t nccl_elem_signed(const nccl_dtype_t *t, uint64_t bits);
/* Distance in units in the last place between two floating bit patterns; UINT64_MAX when either
 * is NaN. */
uint64_t nccl_elem_ulp_distance(const nccl_dtype_t *t, uint64_t a, uint64_t b);

/* Little-endian load/store of one element of `t->size` bytes. */
uint64_t nccl_elem_load(const nccl_dtype_t *t, const void *buf, size_t index);
void nccl_elem_store(const nccl_dtype_t *t, void *buf, size_t index, uint64_t bits);

#endif

#include "x280_vmap.h"

#include <string.h>

#include "x280_mix.h"

/* Eight words a vector: one AVX2 register, two SSE registers on a baseline x86-64 build. */
typedef uint32_t x280_v8u32 __attribute__((vector_size(32)));

#define X280_VLEN (sizeof(x280_v8u32) / sizeof(uint32_t))

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
/* The baseline x86-64 build has no 32-bit vector multiply; a clone for AVX2 hosts has one. */
__attribute__((target_clones("avx2", "default")))
#endif
void x280_vmap_range(uint32_t *restrict out, const uint32_t *restrict in, size_t n,
                     x280_next_t next) {
  size_t i = 0;
  /* Two vectors make one line: one prefetch of the next chunk per line worked here. */
  for (; i + 2 * X280_VLEN <= n; i += 2 * X280_VLEN) {
    if (next.in) x280_prefetch_next(next, i);
    x280_v8u32 x, y;
    memcpy(&x, in + i, sizeof x);
    memcpy(&y, in + i + X280_VLEN, sizeof y);
    x = (x ^ x >> X280_MIX_SHIFT) * X280_MIX_MUL + 1u;
    y = (y ^ y >> X280_MIX_SHIFT) * X280_MIX_MUL + 1u;
    memcpy(out + i, &x, sizeof x);
    memcpy(out + i + X280_VLEN, &y, sizeof y);
  }
  for (; i < n; i++)
    out[i] = x280_mix(in[i]);
}

bool x280_vmap_available(void) {
  return true;
}

const char *x280_vmap_isa(void) {
  return "gcc-vector-extensions";
}

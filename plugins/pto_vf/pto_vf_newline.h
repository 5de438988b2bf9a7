/* Newline positions sixty-four bytes at a time, as one bit per byte: SSE2 where the compiler
 * targets it (every x86-64), a plain loop elsewhere. */
#ifndef PTO_VF_NEWLINE_H
#define PTO_VF_NEWLINE_H

#include <stdint.h>

#if defined(__SSE2__)
#include <emmintrin.h>

/* Bit i set when p[i] == '\n', for i in 0..63; p needs no alignment. */
static inline uint64_t vf_newline_mask64(const char *p) {
  const __m128i nl = _mm_set1_epi8('\n');
  uint64_t m0 =
      (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)p), nl));
  uint64_t m1 =
      (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + 16)), nl));
  uint64_t m2 =
      (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + 32)), nl));
  uint64_t m3 =
      (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + 48)), nl));
  return m0 | m1 << 16 | m2 << 32 | m3 << 48;
}
#else
static inline uint64_t vf_newline_mask64(const char *p) {
  uint64_t mask = 0;
  for (int i = 0; i < 64; i++)
    mask |= (uint64_t)(p[i] == '\n') << i;
  return mask;
}
#endif

#endif

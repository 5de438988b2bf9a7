#include "x280_kernels.h"

#include "x280_mix.h"

/* Scalar code throughout (this file builds with -fno-tree-vectorize): the map is the X280
 * measurements' word-at-a-time loop. It is unrolled by four because on a wide out-of-order core the
 * loop's own count, compare and branch would otherwise cost about as much as the word's arithmetic.
 */
static inline void map4(uint32_t *restrict out, const uint32_t *restrict in) {
  uint32_t a = in[0], b = in[1], c = in[2], d = in[3];
  out[0] = x280_mix(a);
  out[1] = x280_mix(b);
  out[2] = x280_mix(c);
  out[3] = x280_mix(d);
}

void x280_map_range(uint32_t *restrict out, const uint32_t *restrict in, size_t n,
                    x280_next_t next) {
  size_t i = 0;
  if (next.in) {
    for (; i + X280_LINE_WORDS <= n; i += X280_LINE_WORDS) {
      x280_prefetch_next(next, i);
      map4(out + i, in + i);
      map4(out + i + 4, in + i + 4);
      map4(out + i + 8, in + i + 8);
      map4(out + i + 12, in + i + 12);
    }
  }
  for (; i + 4 <= n; i += 4)
    map4(out + i, in + i);
  for (; i < n; i++)
    out[i] = x280_mix(in[i]);
}

void x280_map_heavy_range(uint32_t *restrict out, const uint32_t *restrict in, size_t n,
                          uint64_t rounds) {
  for (size_t i = 0; i < n; i++) {
    uint32_t x = in[i];
    for (uint64_t r = 0; r < rounds; r++)
      x = x280_mix(x);
    out[i] = x;
  }
}

uint64_t x280_sum_range(const uint32_t *in, size_t n, x280_next_t next) {
  uint64_t sum = 0;
  size_t i = 0;
  if (next.in) {
    for (; i + X280_LINE_WORDS <= n; i += X280_LINE_WORDS) {
      x280_prefetch_next(next, i);
      for (size_t k = i; k < i + X280_LINE_WORDS; k++)
        sum += in[k];
    }
  }
  for (; i < n; i++)
    sum += in[i];
  return sum;
}

/* The low 32 bits of the 64-bit sum are the sum modulo 2^32. */
uint32_t x280_sum32_range(const uint32_t *in, size_t n, x280_next_t next) {
  return (uint32_t)x280_sum_range(in, n, next);
}

uint32_t x280_scan_range(uint32_t *restrict out, const uint32_t *restrict in, size_t n,
                         uint32_t base, x280_next_t next) {
  size_t i = 0;
  if (next.in) {
    for (; i + X280_LINE_WORDS <= n; i += X280_LINE_WORDS) {
      x280_prefetch_next(next, i);
      for (size_t k = i; k < i + X280_LINE_WORDS; k++) {
        out[k] = base;
        base += in[k];
      }
    }
  }
  for (; i < n; i++) {
    out[i] = base;
    base += in[i];
  }
  return base;
}

void x280_count(volatile uint64_t *counter, uint64_t n) {
  for (uint64_t i = 0; i < n; i++)
    *counter += 1;
}

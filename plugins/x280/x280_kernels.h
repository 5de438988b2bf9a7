/* The loops each core runs over one chunk. They take plain pointers and lengths, so nothing the
 * loop stores can alias a field it reads (the X280 measurements' 2.46 ms against 0.72 ms lesson).
 */
#ifndef X280_KERNELS_H
#define X280_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#define X280_LINE_WORDS 16u /* uint32 words in a 64-byte line */

/* The chunk the calling core takes next, prefetched a line for every line worked on now, so
 * each core's walk stays ahead of memory when its chunks are not contiguous. `in` NULL: none;
 * `out` NULL: the next chunk is only read. */
typedef struct x280_next {
  const uint32_t *in;
  uint32_t *out;
  size_t n;
} x280_next_t;

void x280_map_range(uint32_t *restrict out, const uint32_t *restrict in, size_t n,
                    x280_next_t next);
void x280_map_heavy_range(uint32_t *restrict out, const uint32_t *restrict in, size_t n,
                          uint64_t rounds);
uint64_t x280_sum_range(const uint32_t *in, size_t n, x280_next_t next);
/* The chunk sum the prefix sum's first pass stores: modulo 2^32, as the output words wrap. */
uint32_t x280_sum32_range(const uint32_t *in, size_t n, x280_next_t next);
/* out[i] = base + in[0] + ... + in[i-1], modulo 2^32; returns base + the sum of all n words. */
uint32_t x280_scan_range(uint32_t *restrict out, const uint32_t *restrict in, size_t n,
                         uint32_t base, x280_next_t next);
/* Adds 1 to *counter n times, each add a load and a store the compiler must keep. */
void x280_count(volatile uint64_t *counter, uint64_t n);

/* Prefetches the next chunk's line that matches word `i` of this one, if it has one. */
static inline void x280_prefetch_next(x280_next_t next, size_t i) {
  if (i >= next.n) return;
  __builtin_prefetch(next.in + i, 0, 3);
  if (next.out) __builtin_prefetch(next.out + i, 1, 3);
}

#endif

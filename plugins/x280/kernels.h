/* The loops each core runs over one chunk. They take plain pointers and lengths, so nothing the
 * loop stores can alias a field it reads (the seed's 2.46 ms against 0.72 ms lesson). */
#ifndef X280_KERNELS_H
#define X280_KERNELS_H

#include <stddef.h>
#include <stdint.h>

void x280_map_range(uint32_t *restrict out, const uint32_t *restrict in, size_t n);
void x280_map_heavy_range(uint32_t *restrict out, const uint32_t *restrict in, size_t n,
                          uint64_t rounds);
uint64_t x280_sum_range(const uint32_t *in, size_t n);
/* The chunk sum the prefix sum's first pass stores: modulo 2^32, as the output words wrap. */
uint32_t x280_sum32_range(const uint32_t *in, size_t n);
/* out[i] = base + in[0] + ... + in[i-1], modulo 2^32; returns base + the sum of all n words. */
uint32_t x280_scan_range(uint32_t *restrict out, const uint32_t *restrict in, size_t n,
                         uint32_t base);
/* Adds 1 to *counter n times, each add a load and a store the compiler must keep. */
void x280_count(volatile uint64_t *counter, uint64_t n);

#endif

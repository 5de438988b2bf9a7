#include "kernels.h"

#include "mix.h"

void x280_map_range(uint32_t *restrict out, const uint32_t *restrict in, size_t n) {
  for (size_t i = 0; i < n; i++)
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

uint64_t x280_sum_range(const uint32_t *in, size_t n) {
  uint64_t sum = 0;
  for (size_t i = 0; i < n; i++)
    sum += in[i];
  return sum;
}

uint32_t x280_sum32_range(const uint32_t *in, size_t n) {
  uint32_t sum = 0;
  for (size_t i = 0; i < n; i++)
    sum += in[i];
  return sum;
}

uint32_t x280_scan_range(uint32_t *restrict out, const uint32_t *restrict in, size_t n,
                         uint32_t base) {
  for (size_t i = 0; i < n; i++) {
    out[i] = base;
    base += in[i];
  }
  return base;
}

void x280_count(volatile uint64_t *counter, uint64_t n) {
  for (uint64_t i = 0; i < n; i++)
    *counter += 1;
}

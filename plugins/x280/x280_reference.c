#include "x280_reference.h"

#include "x280_mix.h"

uint32_t x280_input_word(uint64_t seed, size_t w) {
  uint64_t z = seed + (uint64_t)(w + 1) * 0x9e3779b97f4a7c15u;
  z = (z ^ z >> 30) * 0xbf58476d1ce4e5b9u;
  z = (z ^ z >> 27) * 0x94d049bb133111ebu;
  return (uint32_t)(z ^ z >> 31);
}

void x280_input_fill(uint32_t *in, size_t words, uint64_t seed) {
  for (size_t w = 0; w < words; w++)
    in[w] = x280_input_word(seed, w);
}

uint32_t x280_reference_map(uint32_t x, uint64_t rounds) {
  for (uint64_t r = 0; r < rounds; r++)
    x = x280_mix(x);
  return x;
}

uint64_t x280_reference_sum(const uint32_t *in, size_t words) {
  uint64_t sum = 0;
  for (size_t w = 0; w < words; w++)
    sum += in[w];
  return sum;
}

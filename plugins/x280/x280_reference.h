/* The input every pattern reads, and the serial answers validate() compares against. */
#ifndef X280_REFERENCE_H
#define X280_REFERENCE_H

#include <stddef.h>
#include <stdint.h>

/* Word w of the input for `seed`: a SplitMix64 output, so every word differs and sums carry. */
uint32_t x280_input_word(uint64_t seed, size_t w);
void x280_input_fill(uint32_t *in, size_t words, uint64_t seed);

uint32_t x280_reference_map(uint32_t x, uint64_t rounds);
uint64_t x280_reference_sum(const uint32_t *in, size_t words);

#endif

/* The seed's word function: every map pattern and its reference use this one definition. */
#ifndef X280_MIX_H
#define X280_MIX_H

#include <stdint.h>

#define X280_MIX_SHIFT 15
#define X280_MIX_MUL   2246822519u

static inline uint32_t x280_mix(uint32_t x) {
  return (x ^ x >> X280_MIX_SHIFT) * X280_MIX_MUL + 1u;
}

#endif

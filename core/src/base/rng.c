#include "rng.h"

static uint64_t splitmix64(uint64_t *x) {
  uint64_t z = (*x += UINT64_C(0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}

void rigor_rng_seed(rigor_rng_t *rng, uint64_t seed) {
  for (int i = 0; i < 4; i++)
    rng->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k) {
  return (x << k) | (x >> (64 - k));
}

uint64_t rigor_rng_next(rigor_rng_t *rng) {
  uint64_t *s = rng->s;
  uint64_t result = rotl(s[1] * 5, 7) * 9;
  uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return result;
}

uint64_t rigor_rng_below(rigor_rng_t *rng, uint64_t bound) {
  if (bound <= 1) return 0;
  /* Reject the top partial range so every residue is equally likely. */
  uint64_t limit = UINT64_MAX - (UINT64_MAX % bound + 1) % bound;
  uint64_t x;
  do
    x = rigor_rng_next(rng);
  while (x > limit);
  return x % bound;
}

double rigor_rng_uniform(rigor_rng_t *rng) {
  return (double)(rigor_rng_next(rng) >> 11) * 0x1.0p-53;
}

/* An independent stream per (seed, purpose, index): the index goes through SplitMix64's
 * finaliser before seeding, so neighbouring streams share no state words. */
void rigor_rng_stream(rigor_rng_t *rng, uint64_t seed, uint64_t purpose, uint64_t index) {
  uint64_t x = purpose * UINT64_C(0x100000001B3) ^ index;
  uint64_t mixed = splitmix64(&x);
  rigor_rng_seed(rng, seed ^ mixed);
}

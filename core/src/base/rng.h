/* The project's PRNG: SplitMix64 seeds xoshiro256**, so one seed gives one sequence on every
 * platform. */
#ifndef RIGOR_RNG_H
#define RIGOR_RNG_H

#include <stdint.h>

typedef struct rigor_rng {
  uint64_t s[4];
} rigor_rng_t;
void rigor_rng_seed(rigor_rng_t *rng, uint64_t seed);
uint64_t rigor_rng_next(rigor_rng_t *rng);
/* Uniform in [0, bound) without modulo bias. */
uint64_t rigor_rng_below(rigor_rng_t *rng, uint64_t bound);
double rigor_rng_uniform(rigor_rng_t *rng); /* [0, 1) */
/* An independent stream for (seed, purpose, index): the schedule draws one per block or square,
 * so adding blocks never changes earlier ones. */
void rigor_rng_stream(rigor_rng_t *rng, uint64_t seed, uint64_t purpose, uint64_t index);

#endif

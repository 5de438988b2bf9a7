/* Balanced run orders: which variant runs at each (block, position). */
#ifndef RIGOR_PLAN_H
#define RIGOR_PLAN_H

#include <stdbool.h>
#include <stdint.h>

typedef enum {
  RIGOR_ORDER_SEQUENTIAL = 0,
  RIGOR_ORDER_MIRRORED,
  RIGOR_ORDER_LATIN,
  RIGOR_ORDER_WILLIAMS,
  RIGOR_ORDER_RANDOM,
} rigor_order_design_t;

extern const char *const rigor_order_design_names[]; /* indexed by design, NULL-terminated */

typedef struct rigor_order {
  rigor_order_design_t design;
  uint32_t replicates; /* number of blocks; default 1 */
  uint64_t seed;       /* default 0 */
  bool randomize;      /* latin/williams: permute rows and relabel variants with `seed` */
} rigor_order_t;

typedef struct rigor_schedule {
  uint32_t n_blocks;
  uint32_t n_variants;
  uint32_t *cells;      /* cells[block * n_variants + position] = variant index */
  uint32_t square_rows; /* rows of one complete square (latin: n; williams: n or 2n); 0 if n/a */
  bool incomplete;      /* n_blocks is not a multiple of square_rows */
} rigor_schedule_t;

/* Builds the schedule; returns 0 or RIGOR_EINVAL / RIGOR_ENOMEM. */
int rigor_plan_build(const rigor_order_t *order, uint32_t n_variants, rigor_schedule_t *out);
void rigor_schedule_free(rigor_schedule_t *s);

/* The project's PRNG: SplitMix64 seeds xoshiro256**, identical on every platform. */
typedef struct rigor_rng {
  uint64_t s[4];
} rigor_rng_t;
void rigor_rng_seed(rigor_rng_t *rng, uint64_t seed);
uint64_t rigor_rng_next(rigor_rng_t *rng);
/* Uniform in [0, bound) without modulo bias. */
uint64_t rigor_rng_below(rigor_rng_t *rng, uint64_t bound);
double rigor_rng_uniform(rigor_rng_t *rng); /* [0, 1) */

#endif

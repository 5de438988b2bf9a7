#include "plan.h"

#include <stdlib.h>
#include <string.h>

#include "rigor/plugin.h"

const char *const rigor_order_design_names[] = {"sequential", "mirrored", "latin",
                                                "williams",   "random",   NULL};

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
enum { STREAM_BLOCK = 1, STREAM_SQUARE = 2, STREAM_RELABEL = 3 };

static void rng_stream(rigor_rng_t *rng, uint64_t seed, uint64_t purpose, uint64_t index) {
  uint64_t x = purpose * UINT64_C(0x100000001B3) ^ index;
  uint64_t mixed = splitmix64(&x);
  rigor_rng_seed(rng, seed ^ mixed);
}

static void shuffle(rigor_rng_t *rng, uint32_t *v, uint32_t n) {
  for (uint32_t i = n; i > 1; i--) {
    uint32_t j = (uint32_t)rigor_rng_below(rng, i);
    uint32_t t = v[i - 1];
    v[i - 1] = v[j];
    v[j] = t;
  }
}

static void identity(uint32_t *v, uint32_t n) {
  for (uint32_t i = 0; i < n; i++)
    v[i] = i;
}

/* Row r of the unrandomised square. */
static void square_row(rigor_order_design_t design, uint32_t n, uint32_t r, uint32_t *row) {
  if (design == RIGOR_ORDER_LATIN) {
    for (uint32_t j = 0; j < n; j++)
      row[j] = (r + j) % n;
    return;
  }
  /* Williams: f = 0, 1, n-1, 2, n-2, ...; rows n..2n-1 (odd n) are rows 0..n-1 reversed. */
  uint32_t base = r % n;
  for (uint32_t j = 0; j < n; j++) {
    uint32_t f = (j % 2 == 1) ? (j + 1) / 2 : (n - j / 2) % n;
    uint32_t col = r >= n ? n - 1 - j : j;
    row[col] = (f + base) % n;
  }
}

int rigor_plan_build(const rigor_order_t *order, uint32_t n_variants, rigor_schedule_t *out) {
  if (!order || !out || n_variants == 0 || order->replicates == 0 ||
      order->design > RIGOR_ORDER_RANDOM)
    return RIGOR_EINVAL;
  memset(out, 0, sizeof *out);
  uint32_t n = n_variants, blocks = order->replicates;
  uint32_t *cells = malloc((size_t)n * blocks * sizeof *cells);
  uint32_t *perm = malloc((size_t)n * sizeof *perm);
  uint32_t *relabel = malloc((size_t)n * sizeof *relabel);
  if (!cells || !perm || !relabel) {
    free(cells), free(perm), free(relabel);
    return RIGOR_ENOMEM;
  }
  bool square = order->design == RIGOR_ORDER_LATIN || order->design == RIGOR_ORDER_WILLIAMS;
  uint32_t rows = 0;
  if (square) rows = (order->design == RIGOR_ORDER_WILLIAMS && n % 2 == 1 && n > 1) ? 2 * n : n;
  identity(relabel, n);
  if (square && order->randomize) {
    rigor_rng_t rng;
    rng_stream(&rng, order->seed, STREAM_RELABEL, 0);
    shuffle(&rng, relabel, n);
  }
  uint32_t *row_order = square ? malloc((size_t)rows * sizeof *row_order) : NULL;
  if (square && !row_order) {
    free(cells), free(perm), free(relabel);
    return RIGOR_ENOMEM;
  }
  for (uint32_t b = 0; b < blocks; b++) {
    uint32_t *cell = cells + (size_t)b * n;
    switch (order->design) {
    case RIGOR_ORDER_SEQUENTIAL:
      identity(cell, n);
      break;
    case RIGOR_ORDER_MIRRORED:
      for (uint32_t j = 0; j < n; j++)
        cell[j] = b % 2 == 0 ? j : n - 1 - j;
      break;
    case RIGOR_ORDER_RANDOM: {
      rigor_rng_t rng;
      rng_stream(&rng, order->seed, STREAM_BLOCK, b);
      identity(cell, n);
      shuffle(&rng, cell, n);
      break;
    }
    case RIGOR_ORDER_LATIN:
    case RIGOR_ORDER_WILLIAMS: {
      /* Each complete square draws its own row order, so adding blocks never moves earlier ones. */
      uint32_t sq = b / rows, r = b % rows;
      if (r == 0) {
        identity(row_order, rows);
        if (order->randomize) {
          rigor_rng_t rng;
          rng_stream(&rng, order->seed, STREAM_SQUARE, sq);
          shuffle(&rng, row_order, rows);
        }
      }
      square_row(order->design, n, row_order[r], perm);
      for (uint32_t j = 0; j < n; j++)
        cell[j] = relabel[perm[j]];
      break;
    }
    }
  }
  free(perm), free(relabel), free(row_order);
  out->n_blocks = blocks;
  out->n_variants = n;
  out->cells = cells;
  out->square_rows = rows;
  out->incomplete = square && blocks % rows != 0;
  return 0;
}

void rigor_schedule_free(rigor_schedule_t *s) {
  if (!s) return;
  free(s->cells);
  memset(s, 0, sizeof *s);
}

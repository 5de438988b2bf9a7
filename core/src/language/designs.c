#include "plan.h"

#include <stddef.h>
#include <string.h>

#include "rng.h"

/* Streams of the project PRNG drawn by the designs (see rigor_rng_stream). */
enum { STREAM_BLOCK = 1 };

static void identity_row(const rigor_order_t *o, uint32_t n, uint32_t b, uint32_t r,
                         uint32_t *out) {
  (void)o, (void)b, (void)r;
  for (uint32_t j = 0; j < n; j++)
    out[j] = j;
}

static void mirrored_row(const rigor_order_t *o, uint32_t n, uint32_t b, uint32_t r,
                         uint32_t *out) {
  (void)o, (void)r;
  for (uint32_t j = 0; j < n; j++)
    out[j] = b % 2 == 0 ? j : n - 1 - j;
}

/* A seeded Fisher-Yates permutation per block, from a stream of its own. */
static void random_row(const rigor_order_t *o, uint32_t n, uint32_t b, uint32_t r, uint32_t *out) {
  (void)r;
  rigor_rng_t rng;
  rigor_rng_stream(&rng, o->seed, STREAM_BLOCK, b);
  identity_row(o, n, b, r, out);
  for (uint32_t i = n; i > 1; i--) {
    uint32_t j = (uint32_t)rigor_rng_below(&rng, i);
    uint32_t t = out[i - 1];
    out[i - 1] = out[j];
    out[j] = t;
  }
}

/* Cyclic Latin square: row r runs variant (r + j) mod n at position j. */
static uint32_t latin_rows(uint32_t n) {
  return n;
}

static void latin_row(const rigor_order_t *o, uint32_t n, uint32_t b, uint32_t r, uint32_t *out) {
  (void)o, (void)b;
  for (uint32_t j = 0; j < n; j++)
    out[j] = (r + j) % n;
}

/* Williams: f = 0, 1, n-1, 2, n-2, ...; row r, column j = (f[j] + r) mod n; for odd n the
 * square has 2n rows, rows n..2n-1 being rows 0..n-1 reversed. */
static uint32_t williams_rows(uint32_t n) {
  return n % 2 == 1 && n > 1 ? 2 * n : n;
}

static void williams_row(const rigor_order_t *o, uint32_t n, uint32_t b, uint32_t r,
                         uint32_t *out) {
  (void)o, (void)b;
  uint32_t base = r % n;
  for (uint32_t j = 0; j < n; j++) {
    uint32_t f = (j % 2 == 1) ? (j + 1) / 2 : (n - j / 2) % n;
    uint32_t col = r >= n ? n - 1 - j : j;
    out[col] = (f + base) % n;
  }
}

const rigor_design_t rigor_designs[] = {
    {.name = "sequential",
     .summary = "the variants in declaration order every block (for debugging)",
     .row = identity_row},
    {.name = "mirrored",
     .summary = "ABCD, DCBA, ...: every variant has the same mean position (linear drift)",
     .row = mirrored_row,
     .balances_position = true},
    {.name = "latin",
     .summary = "a cyclic Latin square: each variant once at each position per square",
     .square_rows = latin_rows,
     .row = latin_row,
     .balances_position = true,
     .randomisable = true},
    {.name = "williams",
     .summary = "a Latin square that also balances first-order carryover",
     .square_rows = williams_rows,
     .row = williams_row,
     .balances_position = true,
     .balances_carryover = true,
     .randomisable = true},
    {.name = "random",
     .summary = "seeded randomised complete blocks, one permutation per block",
     .row = random_row,
     .balances_position = true},
    {.name = NULL},
};

const rigor_design_t *rigor_design_find(const char *name) {
  for (const rigor_design_t *d = rigor_designs; name && d->name; d++)
    if (strcmp(d->name, name) == 0) return d;
  return NULL;
}

const char *const *rigor_design_names(void) {
  enum { MAX_DESIGNS = 16 };
  static const char *names[MAX_DESIGNS + 1];
  if (!names[0])
    for (size_t i = 0; i < MAX_DESIGNS && rigor_designs[i].name; i++)
      names[i] = rigor_designs[i].name;
  return names;
}

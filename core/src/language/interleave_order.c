#include "plan.h"

#include <stdlib.h>
#include <string.h>

#include "rigor/plugin.h"
#include "rng.h"

/* The stream of the project PRNG that draws the square row of block 0's runs (see
 * rigor_rng_stream); streams 1-3 belong to the run order. */
enum { STREAM_ARM_OFFSET = 4 };

int rigor_interleave_order(const rigor_order_t *order, uint32_t n_blocks, rigor_interleave_t *il) {
  const rigor_design_t *williams = rigor_design_find("williams");
  uint32_t k = il->n_arms;
  if (!williams || k < 2 || n_blocks == 0) return RIGOR_EINVAL;
  uint32_t rows = williams->square_rows(k);
  il->square = malloc((size_t)rows * k * sizeof *il->square);
  il->offsets = malloc((size_t)n_blocks * sizeof *il->offsets);
  if (!il->square || !il->offsets) return RIGOR_ENOMEM;
  for (uint32_t r = 0; r < rows; r++)
    williams->row(order, k, r, r, il->square + (size_t)r * k);
  rigor_rng_t rng;
  rigor_rng_stream(&rng, order->seed, STREAM_ARM_OFFSET, 0);
  uint32_t first = (uint32_t)rigor_rng_below(&rng, rows);
  /* Consecutive blocks start on consecutive rows: with two arms, the arm that goes first
   * alternates from block to block, and over every `rows` blocks each row starts once. */
  for (uint32_t b = 0; b < n_blocks; b++)
    il->offsets[b] = (uint32_t)(((uint64_t)first + b) % rows);
  il->square_rows = rows;
  il->n_blocks = n_blocks;
  return 0;
}

void rigor_interleave_free(rigor_interleave_t *il) {
  if (!il) return;
  free(il->axis), free(il->arms), free(il->square), free(il->offsets);
  memset(il, 0, sizeof *il);
}

const char *rigor_interleave_order_name(const rigor_interleave_t *il) {
  return il->n_arms == 2 ? "abba" : "williams";
}

static json_t *uint_rows(const uint32_t *v, uint32_t rows, uint32_t cols) {
  json_t *out = json_array();
  for (uint32_t r = 0; r < rows; r++) {
    json_t *row = json_array();
    for (uint32_t j = 0; j < cols; j++)
      json_array_append_new(row, json_integer(v[(size_t)r * cols + j]));
    json_array_append_new(out, row);
  }
  return out;
}

void rigor_interleave_describe(const rigor_interleave_t *il, const json_t *levels, json_t *sched) {
  /* blocks name each run's first arm, so a run record's `variant` is still blocks[block][pos]. */
  json_t *blocks = json_object_get(sched, "blocks");
  size_t b;
  json_t *row;
  json_array_foreach(blocks, b, row) {
    size_t p;
    json_t *cell;
    json_array_foreach(row, p, cell) {
      json_int_t c = json_integer_value(cell);
      if (c >= 0 && (uint32_t)c < il->n_cells)
        json_array_set_new(row, p, json_integer(il->arms[(size_t)c * il->n_arms]));
    }
  }
  json_t *offsets = json_array();
  for (uint32_t i = 0; i < il->n_blocks; i++)
    json_array_append_new(offsets, json_integer(il->offsets[i]));
  json_object_set_new(sched, "interleave",
                      json_pack("{s:s, s:O, s:o, s:s, s:o, s:o}", "axis", il->axis, "levels",
                                levels, "arms", uint_rows(il->arms, il->n_cells, il->n_arms),
                                "order", rigor_interleave_order_name(il), "square",
                                uint_rows(il->square, il->square_rows, il->n_arms), "offsets",
                                offsets));
}

#include "plan.h"

#include <stdlib.h>
#include <string.h>

#include "rigor/plugin.h"
#include "rng.h"

/* Streams of the project PRNG drawn by randomised squares (see rigor_rng_stream). */
enum { STREAM_SQUARE = 2, STREAM_RELABEL = 3 };

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

int rigor_plan_build(const rigor_order_t *order, uint32_t n_variants, rigor_schedule_t *out) {
  if (!order || !out || !order->design || n_variants == 0 || order->replicates == 0)
    return RIGOR_EINVAL;
  memset(out, 0, sizeof *out);
  const rigor_design_t *d = order->design;
  uint32_t n = n_variants, blocks = order->replicates;
  uint32_t rows = d->square_rows ? d->square_rows(n) : 0;
  bool randomize = order->randomize && d->randomisable;
  uint32_t *cells = malloc((size_t)n * blocks * sizeof *cells);
  uint32_t *perm = malloc((size_t)n * sizeof *perm);
  uint32_t *relabel = malloc((size_t)n * sizeof *relabel);
  uint32_t *row_order = rows ? malloc((size_t)rows * sizeof *row_order) : NULL;
  if (!cells || !perm || !relabel || (rows && !row_order)) {
    free(cells), free(perm), free(relabel), free(row_order);
    return RIGOR_ENOMEM;
  }
  identity(relabel, n);
  if (randomize) {
    rigor_rng_t rng;
    rigor_rng_stream(&rng, order->seed, STREAM_RELABEL, 0);
    shuffle(&rng, relabel, n);
  }
  for (uint32_t b = 0; b < blocks; b++) {
    uint32_t *cell = cells + (size_t)b * n;
    if (!rows) {
      d->row(order, n, b, b, cell);
      continue;
    }
    /* Each complete square draws its own row order, so adding blocks never moves earlier ones. */
    uint32_t sq = b / rows, r = b % rows;
    if (r == 0) {
      identity(row_order, rows);
      if (randomize) {
        rigor_rng_t rng;
        rigor_rng_stream(&rng, order->seed, STREAM_SQUARE, sq);
        shuffle(&rng, row_order, rows);
      }
    }
    d->row(order, n, b, row_order[r], perm);
    for (uint32_t j = 0; j < n; j++)
      cell[j] = relabel[perm[j]];
  }
  free(perm), free(relabel), free(row_order);
  out->n_blocks = blocks;
  out->n_variants = n;
  out->cells = cells;
  out->square_rows = rows;
  out->incomplete = rows && blocks % rows != 0;
  return 0;
}

void rigor_schedule_free(rigor_schedule_t *s) {
  if (!s) return;
  free(s->cells);
  memset(s, 0, sizeof *s);
}

json_t *rigor_schedule_describe(const rigor_order_t *order, const rigor_schedule_t *s) {
  json_t *sched = json_object();
  json_object_set_new(sched, "design", json_string(order->design->name));
  json_object_set_new(sched, "seed", json_integer((json_int_t)order->seed));
  json_object_set_new(sched, "replicates", json_integer(order->replicates));
  json_object_set_new(sched, "randomize", json_boolean(order->randomize));
  json_object_set_new(sched, "square_rows", json_integer(s->square_rows));
  json_object_set_new(sched, "incomplete", json_boolean(s->incomplete));
  if (order->precision > 0) {
    json_t *adaptive = json_pack("{s:I, s:I, s:f}", "min", (json_int_t)order->min_blocks, "max",
                                 (json_int_t)order->replicates, "precision", order->precision);
    if (order->decided > 0) json_object_set_new(adaptive, "decided", json_real(order->decided));
    json_object_set_new(sched, "adaptive", adaptive);
  }
  json_t *blocks = json_array();
  for (uint32_t b = 0; b < s->n_blocks; b++) {
    json_t *row = json_array();
    for (uint32_t p = 0; p < s->n_variants; p++)
      json_array_append_new(row, json_integer(s->cells[(size_t)b * s->n_variants + p]));
    json_array_append_new(blocks, row);
  }
  json_object_set_new(sched, "blocks", blocks);
  return sched;
}

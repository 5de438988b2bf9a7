#include "analysis_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bounds.h"
#include "json_util.h"

void rigor__schedule_balance(const json_t *blocks, bool *positions_vary, bool *carryover_balanced) {
  *positions_vary = *carryover_balanced = false;
  size_t n = json_array_size(json_array_get(blocks, 0));
  if (n < 2 || n > RIGOR_MAX_VARIANTS) return;
  uint32_t *first_position = malloc(n * sizeof *first_position);
  size_t *follows = calloc(n * n, sizeof *follows);
  if (!first_position || !follows) {
    free(first_position), free(follows);
    return;
  }
  for (size_t v = 0; v < n; v++)
    first_position[v] = UINT32_MAX;
  size_t b;
  json_t *row;
  json_array_foreach(blocks, b, row) {
    if (json_array_size(row) != n) goto done; /* not a schedule of complete blocks */
    size_t prev = SIZE_MAX;
    for (size_t p = 0; p < n; p++) {
      json_int_t v = json_integer_value(json_array_get(row, p));
      if (v < 0 || (size_t)v >= n) goto done;
      if (first_position[v] == UINT32_MAX)
        first_position[v] = (uint32_t)p;
      else if (first_position[v] != p)
        *positions_vary = true;
      if (prev != SIZE_MAX) follows[prev * n + (size_t)v]++;
      prev = (size_t)v;
    }
  }
  *carryover_balanced = follows[1] > 0;
  for (size_t a = 0; a < n && *carryover_balanced; a++)
    for (size_t c = 0; c < n; c++)
      if (a != c && follows[a * n + c] != follows[1]) *carryover_balanced = false;
done:
  free(first_position), free(follows);
}

static int preceding_variant(const rigor_exp_analysis_t *e, const rigor_run_info_t *r) {
  if (r->position == 0) return -1;
  json_t *blocks = json_object_get(json_object_get(e->record, "schedule"), "blocks");
  json_t *prev = json_array_get(json_array_get(blocks, r->block), r->position - 1);
  if (json_is_integer(prev)) return (int)json_integer_value(prev);
  for (size_t k = 0; k < e->n_runs; k++)
    if (e->runs[k].block == r->block && e->runs[k].position == r->position - 1)
      return (int)e->runs[k].variant;
  return -1;
}

static double spread(const double *x, size_t n) {
  double lo = INFINITY, hi = -INFINITY;
  for (size_t i = 0; i < n; i++)
    if (!isnan(x[i])) {
      lo = fmin(lo, x[i]);
      hi = fmax(hi, x[i]);
    }
  return hi >= lo ? hi - lo : NAN;
}

/* By run index, its first ok run info, so a run is found without a scan of every run; rows hold
 * samples of ok runs only, so every run a row names is there. */
static const rigor_run_info_t **ok_runs_by_index(const rigor_exp_analysis_t *e) {
  size_t n = 0;
  for (size_t q = 0; q < e->n_runs; q++)
    if (e->runs[q].run >= n) n = (size_t)e->runs[q].run + 1;
  const rigor_run_info_t **by_index = calloc(n ? n : 1, sizeof *by_index);
  for (size_t q = e->n_runs; by_index && q-- > 0;)
    if (e->runs[q].status == RIGOR_RUN_OK) by_index[e->runs[q].run] = &e->runs[q];
  return by_index;
}

/* Median of the normalised run medians grouped by key; key_of returns -1 to leave a run out. */
static int group_effect(const rigor_exp_analysis_t *e, const rigor_row_t *rows,
                        const run_medians_t *rm, size_t n_rows, uint32_t point, bool by_preceding,
                        size_t n_keys, double *out) {
  dvec_t *groups = calloc(n_keys, sizeof *groups);
  const rigor_run_info_t **ok_run = ok_runs_by_index(e);
  if (!groups || !ok_run) {
    free(groups), free(ok_run);
    return RIGOR_ENOMEM;
  }
  int rc = 0;
  for (size_t r = 0; r < n_rows; r++) {
    if (rows[r].point != point || !(rows[r].time.median > 0)) continue;
    for (size_t k = 0; k < rm[r].n; k++) {
      const rigor_run_info_t *ri = ok_run[rm[r].run[k]];
      if (!ri) continue;
      long key = by_preceding ? preceding_variant(e, ri) : (long)ri->position;
      if (key >= 0 && (size_t)key < n_keys)
        rc |= dvec_push(&groups[key], rm[r].median[k] / rows[r].time.median - 1);
    }
  }
  for (size_t k = 0; k < n_keys; k++) {
    out[k] = rigor__median_of(&groups[k]);
    free(groups[k].v);
  }
  free(groups);
  free(ok_run);
  return rc ? RIGOR_ENOMEM : 0;
}

int rigor__design_effects(rigor_exp_analysis_t *e, const run_medians_t *rm) {
  if (!e->positions_vary || e->n_variants < 2) return 0;
  bool carryover = e->carryover_balanced;
  uint32_t max_point = 0;
  for (size_t r = 0; r < e->n_rows; r++)
    if (e->rows[r].point > max_point) max_point = e->rows[r].point;
  e->effects = calloc((size_t)max_point + 1, sizeof *e->effects);
  if (!e->effects) return RIGOR_ENOMEM;
  for (uint32_t p = 0; p <= max_point; p++) {
    double lo = INFINITY, hi = -INFINITY;
    const char *label = NULL;
    for (size_t r = 0; r < e->n_rows; r++)
      if (e->rows[r].point == p && e->rows[r].n) {
        lo = fmin(lo, e->rows[r].time.median);
        hi = fmax(hi, e->rows[r].time.median);
        label = e->rows[r].point_label;
      }
    if (!(lo > 0)) continue;
    rigor_design_effect_t *d = &e->effects[e->n_effects++];
    d->point = p;
    d->point_label = label;
    d->treatment_spread = hi / lo - 1;
    d->n_positions = e->n_variants;
    d->position = calloc(d->n_positions, sizeof *d->position);
    if (!d->position ||
        group_effect(e, e->rows, rm, e->n_rows, p, false, d->n_positions, d->position))
      return RIGOR_ENOMEM;
    d->position_spread = spread(d->position, d->n_positions);
    d->warn_position = d->position_spread > 0 && d->position_spread >= d->treatment_spread;
    if (carryover) {
      d->has_carryover = true;
      d->n_preceding = e->n_variants;
      d->carryover = calloc(d->n_preceding, sizeof *d->carryover);
      if (!d->carryover ||
          group_effect(e, e->rows, rm, e->n_rows, p, true, d->n_preceding, d->carryover))
        return RIGOR_ENOMEM;
      d->carryover_spread = spread(d->carryover, d->n_preceding);
      d->warn_carryover = d->carryover_spread > 0 && d->carryover_spread >= d->treatment_spread;
    }
  }
  return 0;
}

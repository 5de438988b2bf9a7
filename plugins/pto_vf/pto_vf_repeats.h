/* The VF totals of the valid samples of each point in this process, and the repeat metrics drawn
 * from them (vf_total_repeats, _deterministic, _median, _spread). */
#ifndef PTO_VF_REPEATS_H
#define PTO_VF_REPEATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct pto_vf_history {
  uint64_t *totals;
  size_t n, cap;
} pto_vf_history_t;

typedef struct pto_vf_repeats {
  pto_vf_history_t *points;
  size_t n_points;
} pto_vf_repeats_t;

/* Returns 0, or -ENOMEM. */
int pto_vf_repeats_init(pto_vf_repeats_t *r, size_t n_points);
void pto_vf_repeats_free(pto_vf_repeats_t *r);
/* Appends `total` to the point's history when `record` is set, then fills the repeat metrics'
 * slots of `values` (NaN where there is no repeat yet). */
void pto_vf_repeats_fill(pto_vf_repeats_t *r, size_t point, bool record, uint64_t total,
                         double *values);

#endif

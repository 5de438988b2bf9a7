/* The warm schedule for timing.warmup_sizes: powers_of_two, as nccl-tests' TimeTest warms before
 * it measures: each size from -b, doubled while it stays within -e, out-of-place. */
#ifndef RIGOR_NCCL_WARM_H
#define RIGOR_NCCL_WARM_H

#include <stdint.h>

#include "nccl_params.h"

/* Writes the warm points of the sweep `points` (n of them) into `out`, at most `cap`, and returns
 * how many there are. Points that differ only in bytes, placement, check_on and graph form one
 * series (nccl-tests runs one TimeTest per type, op and root); per series, in the order the series
 * first appear, the series' smallest bytes doubled while within its largest (after 0, from 1),
 * each a copy of the series' first point with that size, out-of-place and without graphs. */
uint32_t nccl_warm_schedule(const nccl_params_t *const *points, uint32_t n, nccl_params_t *out,
                            uint32_t cap);

#endif

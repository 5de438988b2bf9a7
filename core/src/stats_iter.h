/* Summary of one window's per-iteration times (computed in the run's process). */
#ifndef RIGOR_STATS_ITER_H
#define RIGOR_STATS_ITER_H

#include <stddef.h>
#include <stdint.h>

typedef struct rigor_iter_stats {
  double min, max, p50, p95, p99, mean, cv;
} rigor_iter_stats_t;

/* Percentiles by nearest rank (as nccl-tests): the ceil(p * n)-th smallest value. */
void rigor_iter_stats(const double *v, uint64_t n, rigor_iter_stats_t *out);

#endif

#include "stats_iter.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double nearest_rank(const double *sorted, uint64_t n, double p) {
  uint64_t rank = (uint64_t)ceil(p * (double)n);
  if (rank < 1)
    rank = 1;
  return sorted[rank - 1];
}

void rigor_iter_stats(const double *v, uint64_t n, rigor_iter_stats_t *out) {
  if (n == 0) {
    out->min = out->max = out->p50 = out->p95 = out->p99 = out->mean = out->cv = NAN;
    return;
  }
  double *s = malloc(n * sizeof *s);
  if (!s) {
    out->min = out->max = out->p50 = out->p95 = out->p99 = out->mean = out->cv = NAN;
    return;
  }
  memcpy(s, v, n * sizeof *s);
  qsort(s, n, sizeof *s, cmp_double);
  double sum = 0;
  for (uint64_t i = 0; i < n; i++)
    sum += s[i];
  double mean = sum / (double)n, ss = 0;
  for (uint64_t i = 0; i < n; i++)
    ss += (s[i] - mean) * (s[i] - mean);
  out->min = s[0];
  out->max = s[n - 1];
  out->p50 = nearest_rank(s, n, 0.50);
  out->p95 = nearest_rank(s, n, 0.95);
  out->p99 = nearest_rank(s, n, 0.99);
  out->mean = mean;
  out->cv = mean > 0 ? sqrt(ss / (double)n) / mean : NAN;
  free(s);
}

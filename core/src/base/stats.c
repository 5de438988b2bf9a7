#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rigor/plugin.h"

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

void rigor_stats_sort(double *x, size_t n) {
  qsort(x, n, sizeof *x, cmp_double);
}

double rigor_stats_percentile_sorted(const double *sorted, size_t n, double p) {
  if (n == 0) return NAN;
  if (p <= 0) return sorted[0];
  double rank = ceil(p * (double)n - 1e-9);
  size_t idx = rank < 1 ? 0 : (size_t)rank - 1;
  return sorted[idx < n ? idx : n - 1];
}

double rigor_stats_median_sorted(const double *sorted, size_t n) {
  if (n == 0) return NAN;
  if (n % 2) return sorted[n / 2];
  return 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
}

double rigor_stats_median(const double *x, size_t n) {
  if (n == 0) return NAN;
  double *c = malloc(n * sizeof *c);
  if (!c) return NAN;
  memcpy(c, x, n * sizeof *c);
  rigor_stats_sort(c, n);
  double m = rigor_stats_median_sorted(c, n);
  free(c);
  return m;
}

int rigor_stats_summarize(const double *x, size_t n, rigor_summary_t *out) {
  if (!out || (n && !x)) return RIGOR_EINVAL;
  out->n = n;
  if (n == 0) {
    out->median = out->p95 = out->p99 = out->mean = out->sd = out->cv = out->min = out->max = NAN;
    return 0;
  }
  double *c = malloc(n * sizeof *c);
  if (!c) return RIGOR_ENOMEM;
  memcpy(c, x, n * sizeof *c);
  rigor_stats_sort(c, n);
  double sum = 0;
  for (size_t i = 0; i < n; i++)
    sum += c[i];
  double mean = sum / (double)n, ss = 0;
  for (size_t i = 0; i < n; i++)
    ss += (c[i] - mean) * (c[i] - mean);
  out->mean = mean;
  out->sd = sqrt(ss / (double)n);
  out->cv = mean != 0 ? out->sd / fabs(mean) : NAN;
  out->min = c[0];
  out->max = c[n - 1];
  out->median = rigor_stats_median_sorted(c, n);
  out->p95 = rigor_stats_percentile_sorted(c, n, 0.95);
  out->p99 = rigor_stats_percentile_sorted(c, n, 0.99);
  free(c);
  return 0;
}

double rigor_stats_first_cycle_penalty(const double *times, size_t n) {
  if (n < 2) return NAN;
  double rest = rigor_stats_median(times + 1, n - 1);
  return rest > 0 ? times[0] / rest - 1 : NAN;
}

static int cmp_by_run(const void *x, const void *y, void *arg) {
  const uint32_t *run = arg;
  uint32_t a = run[*(const size_t *)x], b = run[*(const size_t *)y];
  return (a > b) - (a < b);
}

size_t rigor_stats_run_medians(const double *x, const uint32_t *run, size_t n, double *medians) {
  size_t *order = malloc((n ? n : 1) * sizeof *order);
  double *buf = malloc((n ? n : 1) * sizeof *buf);
  size_t runs = 0;
  if (order && buf) {
    for (size_t i = 0; i < n; i++)
      order[i] = i;
    qsort_r(order, n, sizeof *order, cmp_by_run, (void *)run);
    for (size_t i = 0; i < n;) {
      size_t m = 0, j = i;
      for (; j < n && run[order[j]] == run[order[i]]; j++)
        buf[m++] = x[order[j]];
      medians[runs++] = rigor_stats_median(buf, m);
      i = j;
    }
  }
  free(order);
  free(buf);
  return runs;
}

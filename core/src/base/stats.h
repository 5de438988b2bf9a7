/* Descriptive statistics for benchmark samples.
 *
 * Percentiles use the nearest-rank definition (as nccl-tests does): for n sorted values x[0..n-1]
 * and 0 < p <= 1, Pp = x[ceil(p * n) - 1]; P0 is the minimum. The median is the conventional
 * one: the middle value, or the mean of the two middle values when n is even. The standard
 * deviation is the population one (divide by n), so CV = sd / mean as the nccl-tests methodology
 * study defines it. */
#ifndef RIGOR_STATS_H
#define RIGOR_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct rigor_summary {
  size_t n;
  double median, p95, p99, mean, sd, cv, min, max;
} rigor_summary_t;

/* Sorts a copy of x and fills every member; n == 0 gives n = 0 and NaN elsewhere. */
int rigor_stats_summarize(const double *x, size_t n, rigor_summary_t *out);

void rigor_stats_sort(double *x, size_t n);
double rigor_stats_percentile_sorted(const double *sorted, size_t n, double p);
double rigor_stats_median_sorted(const double *sorted, size_t n);
/* Median of unsorted values (a sorted copy is made). NaN for n == 0. */
double rigor_stats_median(const double *x, size_t n);

/* First-cycle penalty of one run: cycle 0 against the median of the other cycles, as a fraction
 * (+0.05 means the first cycle was 5% slower). times[i] is cycle i. NaN with fewer than 2. */
double rigor_stats_first_cycle_penalty(const double *times, size_t n);

/* The medians of each run's samples, in run order; returns the number of runs (<= n). */
size_t rigor_stats_run_medians(const double *x, const uint32_t *run, size_t n, double *medians);

#endif

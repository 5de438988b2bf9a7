/* Change points in a series of per-commit values: Hunter's method (Fleming et al., "Hunter:
 * Using Change Point Detection to Hunt for Performance Regressions", ICPE 2023), as Apache Otava
 * implements it (docs/methodology.md, "Change points").
 *
 * Split: windows of `window` points, each half a window after the last (or from the last change
 * point found), are divided as E-Divisive means does (Matteson & James 2014): the split that
 * maximises the energy statistic q-hat is kept while a two-sided Student's t-test of the
 * segments either side has p <= the first-pass level (10 x significance below 0.05). Merge: the
 * weak points are re-tested between their neighbours over the whole series; the one with the
 * largest p is dropped while that p is not below `significance`, then the one with the smallest
 * magnitude while it is not above `min_magnitude`, the neighbours of each dropped point being
 * re-tested. Deterministic: the same series gives the same points on every platform. */
#ifndef RIGOR_CHANGEPOINT_H
#define RIGOR_CHANGEPOINT_H

#include <stddef.h>
#include <stdint.h>

#define RIGOR_CPD_SIGNIFICANCE_DEFAULT  0.001
#define RIGOR_CPD_MIN_MAGNITUDE_DEFAULT 0.0
#define RIGOR_CPD_WINDOW_DEFAULT        50

typedef struct rigor_cpd_opts {
  double significance;  /* largest p-value a change point keeps */
  double min_magnitude; /* a change point must change the mean by more than this fraction */
  uint32_t window;      /* points per window of the split step, >= 2 */
} rigor_cpd_opts_t;
void rigor_cpd_opts_default(rigor_cpd_opts_t *o);

typedef struct rigor_change_point {
  size_t index;             /* the first point after the change */
  size_t n_before, n_after; /* the segments it was tested on: to the neighbouring change points */
  double mean_before, mean_after;
  double sd_before, sd_after; /* population sds (divisor n), as the test takes them */
  double p;                   /* two-sided Student's t, pooled variance */
  double change;              /* mean_after / mean_before - 1 */
  double magnitude;           /* max(|after / before - 1|, |before / after - 1|) */
  double qhat;                /* the energy statistic that placed it */
} rigor_change_point_t;

/* The change points of x[0..n-1] in index order; *out is malloc'd (NULL when none). */
int rigor_change_points(const double *x, size_t n, const rigor_cpd_opts_t *o,
                        rigor_change_point_t **out, size_t *n_out);

#endif

/* Calibration of the change-point detector on synthetic histories with this machine's noise:
 * each commit is R runs of C cycles, the runs' levels spread by a run-level sd (2% and 5%), the
 * commit's point the median of its samples, as `rigor history` takes it. Reports:
 *   - false change points per 100 commits in histories without a step (the whole history, as
 *     `rigor history` reports it) and false alarms of the gate (`history check` at every commit);
 *   - for planted steps of 2%, 5% and 10%: the share found in the whole history (a change point
 *     within 2 commits of the step), the share the gate flags at the step's own commit, and the
 *     delay: commits after the step until a change point within 2 commits of it first shows;
 *   - the same for a plain t-test of each commit's runs against the previous commit's (Welch on
 *     log run medians, p < 0.05), and for rigor compare's rule (that p, a change of at least 2%
 *     and an interval beyond 2%).
 * Usage: calibrate [SERIES] [SEED] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "changepoint.h"
#include "inference.h"
#include "rng.h"
#include "stats.h"

enum { RUNS = 3, CYCLES = 5, COMMITS = 100, STEP_AT = 40, STEP_LEN = 60, NEAR = 2 };
#define CYCLE_SD 0.005

typedef struct commit {
  double value;                  /* median of the samples */
  double samples[RUNS * CYCLES]; /* for the A/B tests */
  uint32_t run_of[RUNS * CYCLES];
} commit_t;

static double gauss(rigor_rng_t *rng) {
  double u1 = rigor_rng_uniform(rng), u2 = rigor_rng_uniform(rng);
  return sqrt(-2 * log(1 - u1)) * cos(2 * M_PI * u2);
}

static void make_commit(rigor_rng_t *rng, double level, double run_sd, commit_t *c) {
  for (int r = 0; r < RUNS; r++) {
    double run_level = level * (1 + run_sd * gauss(rng));
    for (int k = 0; k < CYCLES; k++) {
      c->samples[r * CYCLES + k] = run_level * (1 + CYCLE_SD * gauss(rng));
      c->run_of[r * CYCLES + k] = (uint32_t)r;
    }
  }
  c->value = rigor_stats_median(c->samples, RUNS * CYCLES);
}

static void make_history(rigor_rng_t *rng, size_t n, size_t step_at, double step, double run_sd,
                         commit_t *h) {
  for (size_t i = 0; i < n; i++)
    make_commit(rng, 1e-3 * (i >= step_at ? 1 + step : 1), run_sd, &h[i]);
}

/* Change points of the first n commits. */
static size_t detect(const commit_t *h, size_t n, const rigor_cpd_opts_t *o,
                     rigor_change_point_t **cp) {
  double y[COMMITS];
  for (size_t i = 0; i < n; i++)
    y[i] = h[i].value;
  size_t m = 0;
  if (rigor_change_points(y, n, o, cp, &m)) abort();
  return m;
}

static bool near(const rigor_change_point_t *cp, size_t m, size_t at) {
  for (size_t i = 0; i < m; i++)
    if (cp[i].index + NEAR >= at && cp[i].index <= at + NEAR) return true;
  return false;
}

static bool opens_at(const rigor_change_point_t *cp, size_t m, size_t at) {
  for (size_t i = 0; i < m; i++)
    if (cp[i].index == at && cp[i].change > 0) return true;
  return false;
}

/* The plain t-test and compare's rule, commit i against commit i - 1, for a slowdown. */
static void ab(const commit_t *h, size_t i, bool *ttest, bool *rule) {
  rigor_run_ratio_t r;
  *ttest = *rule = false;
  if (rigor_stats_run_ratio(h[i - 1].samples, h[i - 1].run_of, RUNS * CYCLES, h[i].samples,
                            h[i].run_of, RUNS * CYCLES, 0.95, 0, &r))
    return;
  *ttest = r.p < 0.05 && r.ratio > 1;
  *rule = *ttest && r.ratio - 1 >= 0.02 && r.lo > 1.02;
}

static void no_step(const rigor_cpd_opts_t *o, double run_sd, int series, uint64_t seed) {
  rigor_rng_t rng;
  rigor_rng_seed(&rng, seed);
  commit_t *h = malloc(COMMITS * sizeof *h);
  size_t offline = 0, gate = 0, ttest = 0, rule = 0, checks = 0;
  for (int s = 0; s < series; s++) {
    make_history(&rng, COMMITS, COMMITS, 0, run_sd, h);
    rigor_change_point_t *cp = NULL;
    offline += detect(h, COMMITS, o, &cp);
    free(cp);
    for (size_t n = 2; n <= COMMITS; n++) {
      size_t m = detect(h, n, o, &cp);
      gate += opens_at(cp, m, n - 1);
      free(cp);
      bool t, r;
      ab(h, n - 1, &t, &r);
      ttest += t, rule += r;
      checks++;
    }
  }
  printf("| %.0f%% | no step | %.2f | %.2f | %.2f | %.2f |\n", run_sd * 100,
         100.0 * (double)offline / (series * COMMITS), 100.0 * (double)gate / (double)checks,
         100.0 * (double)ttest / (double)checks, 100.0 * (double)rule / (double)checks);
  free(h);
}

static void with_step(const rigor_cpd_opts_t *o, double run_sd, double step, int series,
                      uint64_t seed) {
  rigor_rng_t rng;
  rigor_rng_seed(&rng, seed);
  commit_t *h = malloc(STEP_LEN * sizeof *h);
  size_t found = 0, at_once = 0, ttest = 0, rule = 0, seen = 0;
  size_t *delays = calloc((size_t)series, sizeof *delays);
  for (int s = 0; s < series; s++) {
    make_history(&rng, STEP_LEN, STEP_AT, step, run_sd, h);
    rigor_change_point_t *cp = NULL;
    size_t m = detect(h, STEP_LEN, o, &cp);
    found += near(cp, m, STEP_AT);
    free(cp);
    for (size_t n = STEP_AT + 1; n <= STEP_LEN; n++) {
      m = detect(h, n, o, &cp);
      bool hit = near(cp, m, STEP_AT);
      if (n == STEP_AT + 1) at_once += opens_at(cp, m, STEP_AT);
      free(cp);
      if (hit) {
        delays[seen++] = n - 1 - STEP_AT;
        break;
      }
    }
    bool t, r;
    ab(h, STEP_AT, &t, &r);
    ttest += t, rule += r;
  }
  double d[1024];
  for (size_t i = 0; i < seen; i++)
    d[i] = (double)delays[i];
  char delay[64] = "-";
  if (seen) {
    rigor_stats_sort(d, seen);
    snprintf(delay, sizeof delay, "%.0f (P90 %.0f)", rigor_stats_median_sorted(d, seen),
             rigor_stats_percentile_sorted(d, seen, 0.9));
  }
  printf("| %.0f%% | +%.0f%% | %.0f%% | %.0f%% | %.0f%% within %d | %s | %.0f%% | %.0f%% |\n",
         run_sd * 100, step * 100, 100.0 * (double)found / series, 100.0 * (double)at_once / series,
         100.0 * (double)seen / series, STEP_LEN - STEP_AT - 1, delay,
         100.0 * (double)ttest / series, 100.0 * (double)rule / series);
  free(delays);
  free(h);
}

int main(int argc, char **argv) {
  int series = argc > 1 ? atoi(argv[1]) : 100;
  uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
  if (series < 1 || series > 1024) series = 100;
  static const double sds[] = {0.02, 0.05}, steps[] = {0.02, 0.05, 0.10};
  static const double magnitudes[] = {0.0, 0.02};
  printf("%d synthetic histories per row; %d runs x %d cycles per commit, cycle sd %.1f%%\n",
         series, RUNS, CYCLES, CYCLE_SD * 100);
  for (size_t mi = 0; mi < 2; mi++) {
    rigor_cpd_opts_t o;
    rigor_cpd_opts_default(&o);
    o.min_magnitude = magnitudes[mi];
    printf("\ndetector: p <= %g, magnitude > %g%%, window %u\n\n", o.significance,
           o.min_magnitude * 100, o.window);
    printf("| run sd | history | false change points / 100 commits | gate false alarms / 100 "
           "checks | t-test false alarms / 100 | compare rule false alarms / 100 |\n"
           "|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < 2; i++)
      no_step(&o, sds[i], series, seed + i);
    printf("\n| run sd | step | found in history | gate at the step | found later | delay, "
           "commits (median) | t-test at the step | compare rule at the step |\n"
           "|---|---|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < 2; i++)
      for (size_t k = 0; k < 3; k++)
        with_step(&o, sds[i], steps[k], series, seed + 100 + 10 * i + k);
  }
  return 0;
}

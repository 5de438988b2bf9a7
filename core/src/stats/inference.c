#include "inference.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rigor/plugin.h"
#include "rng.h"
#include "stats.h"

int rigor_stats_bootstrap_median_ratio(const double *base, size_t nb, const double *cand, size_t nc,
                                       uint32_t resamples, double level, uint64_t seed, double *lo,
                                       double *hi) {
  if (!base || !cand || nb == 0 || nc == 0 || resamples == 0 || !(level > 0 && level < 1))
    return RIGOR_EINVAL;
  double *rb = malloc(nb * sizeof *rb), *rc = malloc(nc * sizeof *rc);
  double *ratios = malloc(resamples * sizeof *ratios);
  if (!rb || !rc || !ratios) {
    free(rb), free(rc), free(ratios);
    return RIGOR_ENOMEM;
  }
  rigor_rng_t rng;
  rigor_rng_seed(&rng, seed);
  uint32_t kept = 0;
  for (uint32_t r = 0; r < resamples; r++) {
    for (size_t i = 0; i < nb; i++)
      rb[i] = base[rigor_rng_below(&rng, nb)];
    for (size_t i = 0; i < nc; i++)
      rc[i] = cand[rigor_rng_below(&rng, nc)];
    rigor_stats_sort(rb, nb);
    rigor_stats_sort(rc, nc);
    double mb = rigor_stats_median_sorted(rb, nb);
    if (mb != 0) ratios[kept++] = rigor_stats_median_sorted(rc, nc) / mb;
  }
  rigor_stats_sort(ratios, kept);
  double tail = (1 - level) / 2;
  *lo = kept ? rigor_stats_percentile_sorted(ratios, kept, tail) : NAN;
  *hi = kept ? rigor_stats_percentile_sorted(ratios, kept, 1 - tail) : NAN;
  free(rb), free(rc), free(ratios);
  return 0;
}

static void log_mean_var(const double *x, size_t n, double *mean, double *var) {
  double s = 0, ss = 0;
  for (size_t i = 0; i < n; i++)
    s += log(x[i]);
  *mean = s / (double)n;
  for (size_t i = 0; i < n; i++)
    ss += (log(x[i]) - *mean) * (log(x[i]) - *mean);
  *var = ss / (double)(n - 1); /* sample variance: the runs estimate a population */
}

int rigor_stats_run_ratio(const double *base, const uint32_t *base_run, size_t nb,
                          const double *cand, const uint32_t *cand_run, size_t nc, double level,
                          double se_floor, rigor_run_ratio_t *out) {
  if (!base || !cand || !base_run || !cand_run || !out || !(level > 0 && level < 1))
    return RIGOR_EINVAL;
  double *mb = malloc((nb ? nb : 1) * sizeof *mb), *mc = malloc((nc ? nc : 1) * sizeof *mc);
  if (!mb || !mc) {
    free(mb), free(mc);
    return RIGOR_ENOMEM;
  }
  memset(out, 0, sizeof *out);
  size_t rb = rigor_stats_run_medians(base, base_run, nb, mb);
  size_t rc = rigor_stats_run_medians(cand, cand_run, nc, mc);
  out->runs_base = rb;
  out->runs_cand = rc;
  int status = RIGOR_EINVAL;
  bool positive = true;
  for (size_t i = 0; i < rb; i++)
    positive = positive && mb[i] > 0;
  for (size_t i = 0; i < rc; i++)
    positive = positive && mc[i] > 0;
  if (rb >= 2 && rc >= 2 && positive) {
    double m1, v1, m2, v2;
    log_mean_var(mb, rb, &m1, &v1);
    log_mean_var(mc, rc, &m2, &v2);
    double a = v1 / (double)rb, b = v2 / (double)rc, se = sqrt(a + b);
    double d = m2 - m1;
    /* Welch-Satterthwaite degrees of freedom; with no spread at all, the smallest honest df. */
    double df = a + b > 0
                    ? (a + b) * (a + b) / (a * a / (double)(rb - 1) + b * b / (double)(rc - 1))
                    : (double)(rb + rc - 2);
    out->floored = se < se_floor;
    if (out->floored) se = se_floor;
    double q = rigor_student_t_quantile(1 - (1 - level) / 2, df);
    out->ratio = exp(d);
    out->lo = exp(d - q * se);
    out->hi = exp(d + q * se);
    out->se = se;
    out->df = df;
    out->p = se > 0 ? 2 * (1 - rigor_student_t_cdf(fabs(d) / se, df)) : (d == 0 ? 1.0 : 0.0);
    status = 0;
  }
  free(mb), free(mc);
  return status;
}

double rigor_normal_cdf(double z) {
  return 0.5 * erfc(-z / sqrt(2.0));
}

/* Continued fraction for the regularised incomplete beta function (modified Lentz). */
static double beta_cf(double a, double b, double x) {
  const double tiny = 1e-300;
  double c = 1, d = 1 - (a + b) * x / (a + 1);
  if (fabs(d) < tiny) d = tiny;
  d = 1 / d;
  double h = d;
  for (int m = 1; m <= 300; m++) {
    double m2 = 2.0 * m;
    double aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
    d = 1 + aa * d;
    c = 1 + aa / c;
    d = fabs(d) < tiny ? 1 / tiny : 1 / d;
    c = fabs(c) < tiny ? tiny : c;
    h *= d * c;
    aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
    d = 1 + aa * d;
    c = 1 + aa / c;
    d = fabs(d) < tiny ? 1 / tiny : 1 / d;
    c = fabs(c) < tiny ? tiny : c;
    double delta = d * c;
    h *= delta;
    if (fabs(delta - 1) < 1e-15) break;
  }
  return h;
}

static double incomplete_beta(double a, double b, double x) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  double lbeta = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
  if (x < (a + 1) / (a + b + 2)) return exp(lbeta) * beta_cf(a, b, x) / a;
  return 1 - exp(lbeta) * beta_cf(b, a, 1 - x) / b;
}

double rigor_student_t_cdf(double t, double df) {
  double x = df / (df + t * t);
  double tail = 0.5 * incomplete_beta(df / 2, 0.5, x);
  return t > 0 ? 1 - tail : tail;
}

double rigor_student_t_quantile(double p, double df) {
  if (!(p > 0 && p < 1) || !(df > 0)) return NAN;
  double lo = -1e6, hi = 1e6;
  for (int i = 0; i < 200 && hi - lo > 1e-12 * (1 + fabs(lo)); i++) {
    double mid = 0.5 * (lo + hi);
    if (rigor_student_t_cdf(mid, df) < p)
      lo = mid;
    else
      hi = mid;
  }
  return 0.5 * (lo + hi);
}

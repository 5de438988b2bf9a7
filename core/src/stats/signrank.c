#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rigor/plugin.h"
#include "inference.h"
#include "stats.h"

typedef struct absval {
  double a;
  bool positive;
} absval_t;

static int cmp_abs(const void *x, const void *y) {
  double a = ((const absval_t *)x)->a, b = ((const absval_t *)y)->a;
  return (a > b) - (a < b);
}

/* P(W+ <= w) under the null for n untied ranks: the number of subsets of {1..n} whose sum is at
 * most w, over 2^n. Counts stay exact in a double up to n = 52. */
static double exact_lower(size_t n, double w) {
  size_t max = n * (n + 1) / 2;
  double *c = calloc(max + 1, sizeof *c);
  if (!c) return NAN;
  c[0] = 1;
  for (size_t k = 1; k <= n; k++)
    for (size_t s = k * (k + 1) / 2; s >= k; s--)
      c[s] += c[s - k];
  double sum = 0, total = ldexp(1.0, (int)n);
  for (size_t s = 0; s <= max && (double)s <= w + 1e-9; s++)
    sum += c[s];
  free(c);
  return sum / total;
}

int rigor_signed_rank(const double *d, size_t n, rigor_signrank_t *out) {
  if (!d || !out) return RIGOR_EINVAL;
  absval_t *v = malloc((n ? n : 1) * sizeof *v);
  if (!v) return RIGOR_ENOMEM;
  size_t m = 0;
  out->n_zero = 0;
  for (size_t i = 0; i < n; i++) {
    if (d[i] == 0)
      out->n_zero++; /* Wilcoxon's rule: zero differences carry no sign and are dropped */
    else
      v[m++] = (absval_t){fabs(d[i]), d[i] > 0};
  }
  qsort(v, m, sizeof *v, cmp_abs);
  double w_plus = 0, tie_term = 0;
  for (size_t i = 0; i < m;) {
    size_t j = i;
    while (j < m && v[j].a == v[i].a)
      j++;
    double t = (double)(j - i), mid_rank = 0.5 * (double)(i + 1 + j);
    for (size_t k = i; k < j; k++)
      if (v[k].positive) w_plus += mid_rank;
    tie_term += t * t * t - t;
    i = j;
  }
  free(v);
  out->n = m;
  out->w_plus = w_plus;
  if (m == 0) {
    out->p = 1;
    out->exact = true;
    return 0;
  }
  double dm = (double)m, mean = dm * (dm + 1) / 4;
  out->exact = tie_term == 0 && m <= RIGOR_SIGNRANK_EXACT_MAX;
  if (out->exact) {
    /* Two-sided: twice the smaller tail; the distribution is symmetric about its mean. */
    double w = w_plus <= mean ? w_plus : dm * (dm + 1) / 2 - w_plus;
    double p = 2 * exact_lower(m, w);
    out->p = p > 1 ? 1 : p;
    return 0;
  }
  double var = dm * (dm + 1) * (2 * dm + 1) / 24 - tie_term / 48;
  if (var <= 0) {
    out->p = 1;
    return 0;
  }
  double z = fabs(w_plus - mean) / sqrt(var);
  out->p = 2 * (1 - rigor_normal_cdf(z));
  return 0;
}

/* The Walsh averages are never listed: there are n (n + 1) / 2 of them. Over the sorted values,
 * how many lie at or below v is counted in one pass (for each i, the j >= i with
 * (s_i + s_j) / 2 <= v form a run that shrinks as i grows), a bisection on v brackets the k-th,
 * and one search per i finds it exactly: O(n log n) time and O(n) memory. */
static double walsh(const double *s, size_t i, size_t j) {
  return 0.5 * (s[i] + s[j]);
}

static size_t walsh_at_most(const double *s, size_t n, double v) {
  size_t count = 0, end = n; /* for this i, the j in [i, end) qualify */
  for (size_t i = 0; i < n; i++) {
    while (end > i && walsh(s, i, end - 1) > v)
      end--;
    if (end <= i) break;
    count += end - i;
  }
  return count;
}

/* The k-th smallest Walsh average (1-based) of the n sorted values s. */
static double walsh_kth(const double *s, size_t n, size_t k) {
  double lo = nextafter(s[0], -INFINITY), hi = s[n - 1]; /* at_most(lo) < k <= at_most(hi) */
  for (int step = 0; step < 4096; step++) {
    double mid = lo + 0.5 * (hi - lo);
    if (!(mid > lo && mid < hi)) break;
    if (walsh_at_most(s, n, mid) >= k)
      hi = mid;
    else
      lo = mid;
  }
  /* The k-th is the smallest average above lo. */
  double best = INFINITY;
  for (size_t i = 0; i < n; i++) {
    size_t a = i, b = n; /* the first j >= i with walsh(i, j) > lo */
    while (a < b) {
      size_t c = a + (b - a) / 2;
      if (walsh(s, i, c) > lo)
        b = c;
      else
        a = c + 1;
    }
    if (a < n && walsh(s, i, a) < best) best = walsh(s, i, a);
  }
  return best;
}

double rigor_walsh_median(const double *d, size_t n) {
  if (!d || n == 0) return NAN;
  double *s = malloc(n * sizeof *s);
  if (!s) return NAN;
  memcpy(s, d, n * sizeof *s);
  rigor_stats_sort(s, n);
  size_t m = n * (n + 1) / 2;
  double med = m % 2 ? walsh_kth(s, n, m / 2 + 1)
                     : 0.5 * (walsh_kth(s, n, m / 2) + walsh_kth(s, n, m / 2 + 1));
  free(s);
  return med;
}

int rigor_stats_paired(const double *d, size_t n, double level, double se_floor,
                       rigor_paired_t *out) {
  if (!d || !out || n < 2 || !(level > 0 && level < 1)) return RIGOR_EINVAL;
  double s = 0, ss = 0;
  for (size_t i = 0; i < n; i++)
    s += d[i];
  double mean = s / (double)n;
  for (size_t i = 0; i < n; i++)
    ss += (d[i] - mean) * (d[i] - mean);
  out->n = n;
  out->mean = mean;
  out->sd = sqrt(ss / (double)(n - 1));
  out->df = (double)(n - 1);
  double se = out->sd / sqrt((double)n);
  out->floored = se < se_floor;
  out->se = out->floored ? se_floor : se;
  double q = rigor_student_t_quantile(1 - (1 - level) / 2, out->df);
  out->half_width = q * out->se;
  out->lo = mean - out->half_width;
  out->hi = mean + out->half_width;
  out->p = out->se > 0 ? 2 * (1 - rigor_student_t_cdf(fabs(mean) / out->se, out->df))
                       : (mean == 0 ? 1.0 : 0.0);
  return 0;
}

double rigor_quantum_of(const double *x, size_t n) {
  if (!x || n < 2) return 0;
  double *s = malloc(n * sizeof *s);
  if (!s) return 0;
  for (size_t i = 0; i < n; i++)
    s[i] = x[i];
  rigor_stats_sort(s, n);
  double q = 0;
  for (size_t i = 1; i < n; i++) {
    double gap = s[i] - s[i - 1];
    if (gap > 0 && (q == 0 || gap < q)) q = gap;
  }
  free(s);
  return q;
}

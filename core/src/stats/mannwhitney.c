#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rigor/plugin.h"
#include "inference.h"
#include "stats.h"

typedef struct ranked {
  double v;
  int side; /* 0: a, 1: b */
} ranked_t;

static int cmp_ranked(const void *x, const void *y) {
  double a = ((const ranked_t *)x)->v, b = ((const ranked_t *)y)->v;
  return (a > b) - (a < b);
}

/* Number of arrangements with U = 0..upto: the low coefficients of the Gaussian binomial
 * [na + nb choose na]_q = prod_{i=1..na} (1 - q^(nb+i)) / (1 - q^i). Only the lower tail is
 * built (U is symmetric), so every count stays a small exact integer. */
static double lower_tail_count(size_t na, size_t nb, size_t upto) {
  double *c = calloc(upto + 1, sizeof *c);
  if (!c) return NAN;
  c[0] = 1;
  for (size_t i = 1; i <= na; i++) {
    size_t up = nb + i;
    for (size_t k = upto; k >= up && k <= upto; k--)
      c[k] -= c[k - up];
    for (size_t k = i; k <= upto; k++)
      c[k] += c[k - i];
  }
  double sum = 0;
  for (size_t k = 0; k <= upto; k++)
    sum += c[k];
  free(c);
  return sum;
}

static double exact_p(double u1, size_t na, size_t nb) {
  size_t umax = na * nb, u = (size_t)llround(u1);
  size_t tail = u < umax - u ? u : umax - u;
  double total = 1;
  for (size_t i = 1; i <= na; i++)
    total = total * (double)(nb + i) / (double)i;
  double p = 2 * lower_tail_count(na, nb, tail) / total;
  return p > 1 ? 1 : p;
}

int rigor_mann_whitney(const double *a, size_t na, const double *b, size_t nb, rigor_mw_t *out) {
  if (!a || !b || !out || na == 0 || nb == 0) return RIGOR_EINVAL;
  size_t n = na + nb;
  ranked_t *r = malloc(n * sizeof *r);
  if (!r) return RIGOR_ENOMEM;
  for (size_t i = 0; i < na; i++)
    r[i] = (ranked_t){a[i], 0};
  for (size_t j = 0; j < nb; j++)
    r[na + j] = (ranked_t){b[j], 1};
  qsort(r, n, sizeof *r, cmp_ranked);
  double rank_sum_a = 0, tie_term = 0;
  for (size_t i = 0; i < n;) {
    size_t j = i;
    while (j < n && r[j].v == r[i].v)
      j++;
    double t = (double)(j - i), mid_rank = 0.5 * (double)(i + 1 + j);
    for (size_t k = i; k < j; k++)
      if (r[k].side == 0) rank_sum_a += mid_rank;
    tie_term += t * t * t - t;
    i = j;
  }
  free(r);
  double dna = (double)na, dnb = (double)nb, dn = (double)n;
  out->u1 = rank_sum_a - dna * (dna + 1) / 2;
  out->exact = tie_term == 0 && na <= RIGOR_MW_EXACT_MAX && nb <= RIGOR_MW_EXACT_MAX;
  if (out->exact) {
    out->p = exact_p(out->u1, na, nb);
    return 0;
  }
  double mu = dna * dnb / 2;
  double var = dna * dnb / 12 * ((dn + 1) - tie_term / (dn * (dn - 1)));
  if (var <= 0) {
    out->p = 1;
    return 0;
  }
  double z = (fabs(out->u1 - mu) - 0.5) / sqrt(var);
  out->p = z <= 0 ? 1 : 2 * (1 - rigor_normal_cdf(z));
  return 0;
}

double rigor_hodges_lehmann(const double *a, size_t na, const double *b, size_t nb) {
  if (!a || !b || na == 0 || nb == 0) return NAN;
  double *d = malloc(na * nb * sizeof *d);
  if (!d) return NAN;
  for (size_t i = 0; i < na; i++)
    for (size_t j = 0; j < nb; j++)
      d[i * nb + j] = b[j] - a[i];
  rigor_stats_sort(d, na * nb);
  double m = rigor_stats_median_sorted(d, na * nb);
  free(d);
  return m;
}

typedef struct indexed {
  double p;
  size_t i;
} indexed_t;

static int cmp_indexed(const void *x, const void *y) {
  double a = ((const indexed_t *)x)->p, b = ((const indexed_t *)y)->p;
  return (a > b) - (a < b);
}

void rigor_holm(const double *p, size_t m, double *adjusted) {
  indexed_t *v = malloc((m ? m : 1) * sizeof *v);
  size_t k = 0;
  for (size_t i = 0; i < m; i++) {
    adjusted[i] = NAN;
    if (v && !isnan(p[i])) v[k++] = (indexed_t){p[i], i};
  }
  if (!v) return;
  qsort(v, k, sizeof *v, cmp_indexed);
  double running = 0;
  for (size_t j = 0; j < k; j++) {
    double adj = fmin(1, (double)(k - j) * v[j].p);
    running = fmax(running, adj);
    adjusted[v[j].i] = running;
  }
  free(v);
}

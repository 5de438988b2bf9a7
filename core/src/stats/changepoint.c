#include "changepoint.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "inference.h"
#include "rigor/plugin.h"

void rigor_cpd_opts_default(rigor_cpd_opts_t *o) {
  o->significance = RIGOR_CPD_SIGNIFICANCE_DEFAULT;
  o->min_magnitude = RIGOR_CPD_MIN_MAGNITUDE_DEFAULT;
  o->window = RIGOR_CPD_WINDOW_DEFAULT;
}

typedef struct cp_list {
  rigor_change_point_t *v;
  size_t n, cap;
} cp_list_t;

static int cp_insert(cp_list_t *l, const rigor_change_point_t *cp) {
  if (l->n == l->cap) {
    size_t cap = l->cap ? 2 * l->cap : 8;
    rigor_change_point_t *v = realloc(l->v, cap * sizeof *v);
    if (!v) return RIGOR_ENOMEM;
    l->v = v, l->cap = cap;
  }
  size_t at = l->n;
  while (at > 0 && l->v[at - 1].index > cp->index)
    at--;
  memmove(&l->v[at + 1], &l->v[at], (l->n - at) * sizeof *l->v);
  l->v[at] = *cp;
  l->n++;
  return 0;
}

static bool cp_has(const cp_list_t *l, size_t index) {
  for (size_t i = 0; i < l->n; i++)
    if (l->v[i].index == index) return true;
  return false;
}

static void cp_remove(cp_list_t *l, size_t at) {
  memmove(&l->v[at], &l->v[at + 1], (l->n - at - 1) * sizeof *l->v);
  l->n--;
}

static void mean_sd(const double *x, size_t n, double *mean, double *sd) {
  double s = 0;
  for (size_t i = 0; i < n; i++)
    s += x[i];
  *mean = s / (double)n;
  double q = 0;
  for (size_t i = 0; i < n && n >= 2; i++)
    q += (x[i] - *mean) * (x[i] - *mean);
  *sd = n >= 2 ? sqrt(q / (double)n) : 0.0;
}

/* The segments x[a..b) and x[b..c) either side of a change point at b. A p-value the data cannot
 * give (two constant segments with one mean) counts as 1, the weakest. */
static void test_segments(const double *x, size_t a, size_t b, size_t c, rigor_change_point_t *cp) {
  size_t n1 = b - a, n2 = c - b;
  cp->index = b;
  cp->n_before = n1, cp->n_after = n2;
  mean_sd(x + a, n1, &cp->mean_before, &cp->sd_before);
  mean_sd(x + b, n2, &cp->mean_after, &cp->sd_after);
  double m1 = cp->mean_before, m2 = cp->mean_after;
  cp->p = 1.0;
  if (n1 + n2 > 2) {
    double df = (double)(n1 + n2 - 2);
    double pooled = ((double)(n1 - 1) * cp->sd_before * cp->sd_before +
                     (double)(n2 - 1) * cp->sd_after * cp->sd_after) /
                    df;
    double se = sqrt(pooled * (1.0 / (double)n1 + 1.0 / (double)n2));
    if (se > 0)
      cp->p = 2 * rigor_student_t_cdf(-fabs(m1 - m2) / se, df);
    else if (m1 != m2)
      cp->p = 0.0;
  }
  cp->change = m1 != 0 ? m2 / m1 - 1 : 0.0;
  double back = m2 != 0 ? m1 / m2 - 1 : 0.0;
  cp->magnitude = fmax(fabs(cp->change), fabs(back));
}

/* Re-tests the change point at l->v[at] between its neighbours in l (or the series' ends). */
static void retest(const double *x, size_t n, cp_list_t *l, size_t at) {
  size_t a = at > 0 ? l->v[at - 1].index : 0, c = at + 1 < l->n ? l->v[at + 1].index : n;
  double qhat = l->v[at].qhat;
  test_segments(x, a, l->v[at].index, c, &l->v[at]);
  l->v[at].qhat = qhat;
}

/* ---- E-Divisive inside one window ----------------------------------------------------------- */

typedef struct window {
  const double *y;
  size_t len;
  double *prefix; /* (len + 1)^2: prefix[a * (len + 1) + b] = sum |y_i - y_j|, i < a, j < b */
} window_t;

static double rect(const window_t *w, size_t i0, size_t i1, size_t j0, size_t j1) {
  size_t s = w->len + 1;
  const double *P = w->prefix;
  return P[i1 * s + j1] - P[i0 * s + j1] - P[i1 * s + j0] + P[i0 * s + j0];
}

/* The split tau of [s, e) and the kappa that maximise q-hat(y[s..tau), y[tau..kappa)); the
 * first maximum in (tau, kappa) order wins, as in the reference. */
static double best_split(const window_t *w, size_t s, size_t e, size_t *tau_out) {
  double best = -INFINITY;
  *tau_out = s + 1;
  for (size_t tau = s + 1; tau < e; tau++) {
    double nx = (double)(tau - s), xx = rect(w, s, tau, s, tau) / 2;
    for (size_t kappa = tau + 1; kappa <= e; kappa++) {
      double ny = (double)(kappa - tau), all = nx + ny;
      double q = 2 / all * rect(w, s, tau, tau, kappa);
      if (nx > 1) q -= 2 * ny / (all * (nx - 1)) * xx;
      if (ny > 1) q -= 2 * nx / (all * (ny - 1)) * (rect(w, tau, kappa, tau, kappa) / 2);
      if (q > best) {
        best = q;
        *tau_out = tau;
      }
    }
  }
  return best;
}

/* Change points of one window, in window indices: split the segment with the largest q-hat
 * while its split is significant at `level`. */
static int divide_window(const window_t *w, double level, cp_list_t *found) {
  for (;;) {
    bool have = false;
    size_t best_tau = 0;
    double best_q = -INFINITY;
    for (size_t k = 0; k <= found->n; k++) {
      size_t s = k == 0 ? 0 : found->v[k - 1].index, e = k < found->n ? found->v[k].index : w->len;
      if (e - s < 2) continue;
      size_t tau;
      double q = best_split(w, s, e, &tau);
      if (!have || q > best_q) best_q = q, best_tau = tau, have = true;
    }
    if (!have) return 0;
    rigor_change_point_t cp;
    size_t a = 0, c = w->len;
    for (size_t k = 0; k < found->n; k++) {
      if (found->v[k].index < best_tau) a = found->v[k].index;
      if (found->v[k].index > best_tau && c == w->len) c = found->v[k].index;
    }
    test_segments(w->y, a, best_tau, c, &cp);
    cp.qhat = best_q;
    if (!(cp.p <= level)) return 0;
    int rc = cp_insert(found, &cp);
    if (rc) return rc;
  }
}

static int prepare_window(window_t *w, const double *y, size_t len) {
  size_t s = len + 1;
  w->y = y, w->len = len;
  w->prefix = calloc(s * s, sizeof *w->prefix);
  if (!w->prefix) return RIGOR_ENOMEM;
  for (size_t i = 0; i < len; i++)
    for (size_t j = 0; j < len; j++)
      w->prefix[(i + 1) * s + (j + 1)] = fabs(y[i] - y[j]) + w->prefix[i * s + (j + 1)] +
                                         w->prefix[(i + 1) * s + j] - w->prefix[i * s + j];
  return 0;
}

/* The split step: weak change points over sliding windows, re-tested on the whole series
 * between their neighbours. */
static int split(const double *x, size_t n, size_t window, double level, cp_list_t *weak) {
  size_t start = 0, step = window / 2;
  int rc = 0;
  while (!rc && start < n) {
    size_t end = start + window < n ? start + window : n;
    window_t w;
    cp_list_t found = {0};
    rc = prepare_window(&w, x + start, end - start);
    if (!rc) rc = divide_window(&w, level, &found);
    free(w.prefix);
    size_t last = 0;
    for (size_t k = 0; !rc && k < found.n; k++) {
      found.v[k].index += start;
      last = found.v[k].index;
      if (!cp_has(weak, found.v[k].index)) rc = cp_insert(weak, &found.v[k]);
    }
    free(found.v);
    start = last > start + step ? last : start + step;
  }
  for (size_t k = 0; !rc && k < weak->n; k++)
    retest(x, n, weak, k);
  return rc;
}

/* The merge step: drop the weakest point until every one left is significant and large enough;
 * after each drop, the points either side of it are re-tested. */
static void merge(const double *x, size_t n, const rigor_cpd_opts_t *o, cp_list_t *l) {
  while (l->n) {
    size_t weakest = 0;
    for (size_t k = 1; k < l->n; k++)
      if (l->v[k].p > l->v[weakest].p) weakest = k;
    if (l->v[weakest].p < o->significance) {
      weakest = 0;
      for (size_t k = 1; k < l->n; k++)
        if (l->v[k].magnitude < l->v[weakest].magnitude) weakest = k;
      if (l->v[weakest].magnitude > o->min_magnitude) return;
    }
    cp_remove(l, weakest);
    if (weakest > 0) retest(x, n, l, weakest - 1);
    if (weakest < l->n) retest(x, n, l, weakest);
  }
}

int rigor_change_points(const double *x, size_t n, const rigor_cpd_opts_t *o,
                        rigor_change_point_t **out, size_t *n_out) {
  if ((!x && n) || !o || !out || !n_out || o->window < 2 || !(o->significance > 0))
    return RIGOR_EINVAL;
  *out = NULL;
  *n_out = 0;
  if (n < 2) return 0;
  double first_pass = o->significance < 0.05  ? o->significance * 10
                      : o->significance < 0.5 ? o->significance * 2
                                              : o->significance;
  cp_list_t l = {0};
  int rc = split(x, n, o->window, first_pass, &l);
  if (rc) {
    free(l.v);
    return rc;
  }
  merge(x, n, o, &l);
  if (l.n == 0) {
    free(l.v);
    return 0;
  }
  *out = l.v;
  *n_out = l.n;
  return 0;
}

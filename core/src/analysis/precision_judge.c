/* The stop rule over the accumulator: the figure's half-width of figure.c and the contrasts'
 * of contrast.c, computed the same way, in the same order, from the run medians and sorted
 * values the accumulator keeps instead of from every sample. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "decide.h"
#include "inference.h"
#include "precision_acc_internal.h"

#define HALF_WIDTH_LVL 0.95

/* What figure.c and decide.c read of a row's figure. */
typedef struct fig {
  const acc_series_t *s;
  size_t n;
  double median, quantum;
  bool exact, is_time;
} fig_t;

static void figure_of(const acc_exp_t *x, const acc_row_t *w, fig_t *f) {
  f->s = acc_figure(x, w);
  f->is_time = f->s == &w->time;
  f->n = f->s->sorted.n;
  f->median = rigor_stats_median_sorted(f->s->sorted.v, f->n);
  if (f->is_time) {
    double ops = w->iters * w->agg;
    double clock = isfinite(x->clock_res) && x->clock_res > 0 && ops > 0 ? x->clock_res / ops : 0;
    f->exact = false;
    f->quantum = fmax(clock, f->s->gap);
  } else {
    f->exact = f->n > 0 && f->s->sorted.v[0] == f->s->sorted.v[f->n - 1];
    f->quantum = f->s->gap;
  }
}

/* rigor_figure_t.half_width: the t interval of the mean log run median. */
static double row_half_width(const fig_t *f) {
  const acc_series_t *s = f->s;
  if (f->n == 0) return INFINITY;
  bool positive = true;
  for (size_t r = 0; r < s->n_runs; r++)
    positive = positive && s->runs[r].median > 0;
  if (s->n_runs >= 2 && positive) {
    double m = 0, v = 0;
    for (size_t r = 0; r < s->n_runs; r++)
      m += log(s->runs[r].median);
    m /= (double)s->n_runs;
    for (size_t r = 0; r < s->n_runs; r++)
      v += (log(s->runs[r].median) - m) * (log(s->runs[r].median) - m);
    double between = sqrt(v / (double)(s->n_runs - 1));
    double se = between / sqrt((double)s->n_runs);
    double qrel = f->median != 0 ? f->quantum / fabs(f->median) : 0;
    double floor = qrel / sqrt(12.0);
    double t = rigor_student_t_quantile(1 - (1 - HALF_WIDTH_LVL) / 2, (double)(s->n_runs - 1));
    return f->exact ? 0 : t * fmax(se, floor);
  }
  return f->exact ? 0 : INFINITY;
}

/* rigor_decide_relative_quantum without gathering both rows' values: the smallest gap of their
 * union matters only when neither row has a gap of its own, and then it is the distance between
 * their one value each. */
static double relative_quantum(const fig_t *a, const fig_t *b) {
  double q = fmax(a->quantum, b->quantum);
  if (a->s->gap == 0 && b->s->gap == 0 && a->n && b->n)
    q = fmax(q, fabs(a->s->sorted.v[0] - b->s->sorted.v[0]));
  double scale = sqrt(fabs(a->median * b->median));
  return scale > 0 ? q / scale : 0;
}

static const acc_run_t *run_of(const acc_series_t *s, uint32_t run) {
  size_t lo = 0, hi = s->n_runs;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (s->runs[mid].run < run)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < s->n_runs && s->runs[lo].run == run ? &s->runs[lo] : NULL;
}

/* contrast.c's pair_by_run for one run: the mean log ratio of the windows of one cycle. Kept
 * with the run until either side's values change, so each run is paired once. */
static void pair_run(uint64_t now, uint32_t ref_variant, acc_run_t *r, const acc_run_t *ref) {
  if (ref && r->memo && r->memo_ref == ref_variant && r->memo_stamp >= r->stamp &&
      r->memo_stamp >= ref->stamp)
    return;
  double sum = 0;
  size_t m = 0;
  for (size_t a = 0; ref && a < r->values.n; a++) {
    if (!(r->values.v[a] > 0)) continue;
    for (size_t b = 0; b < ref->values.n; b++) {
      if (ref->cycles.v[b] != r->cycles.v[a] || !(ref->values.v[b] > 0)) continue;
      sum += log(r->values.v[a] / ref->values.v[b]);
      m++;
      break;
    }
  }
  r->memo = true;
  r->memo_ref = ref_variant;
  r->memo_stamp = now;
  r->memo_units = m;
  r->memo_d = m ? sum / (double)m : NAN;
}

/* The paired log ratios of one contrast, by block (or by run for interleaved arms). */
static size_t pairs_of(rigor_precision_acc_t *acc, const acc_exp_t *x, bool interleaved,
                       uint32_t ref_variant, const fig_t *ref, const fig_t *row, double *d) {
  size_t n = 0;
  if (interleaved) {
    acc_series_t *s = (acc_series_t *)row->s;
    for (size_t i = 0; i < s->n_runs; i++) {
      pair_run(acc->stamp, ref_variant, &s->runs[i], run_of(ref->s, s->runs[i].run));
      if (s->runs[i].memo_units) d[n++] = s->runs[i].memo_d;
    }
    return n;
  }
  for (uint32_t b = 0; x->any_run && b <= x->max_block; b++) {
    double mr = b < ref->s->block_median.n ? ref->s->block_median.v[b] : NAN;
    double mc = b < row->s->block_median.n ? row->s->block_median.v[b] : NAN;
    if (mr > 0 && mc > 0) d[n++] = log(mc / mr);
  }
  return n;
}

/* Sets t's half-width, units and the paired estimate; returns -1 when out of memory. */
static int contrast_interval(rigor_precision_acc_t *acc, const acc_exp_t *x, uint32_t ref_variant,
                             const acc_row_t *rr, const acc_row_t *cr, rigor_stop_target_t *t) {
  const char *axis = t->axis;
  size_t *units = &t->units;
  t->estimate = t->se = t->df = NAN;
  fig_t ref, row;
  figure_of(x, rr, &ref);
  figure_of(x, cr, &row);
  bool interleaved = x->arms_axis && strcmp(x->arms_axis, axis) == 0 && row.is_time &&
                     rr->time.sorted.n && cr->time.sorted.n;
  size_t cap = interleaved ? row.s->n_runs : (size_t)x->max_block + 1;
  double *d = malloc((cap ? cap : 1) * sizeof *d);
  if (!d) return -1;
  *units = pairs_of(acc, x, interleaved, ref_variant, &ref, &row, d);
  t->half_width = INFINITY;
  rigor_contrast_opts_t o;
  rigor_contrast_opts_default(&o);
  t->exact = ref.exact && row.exact && ref.n && row.n;
  if (t->exact) {
    t->half_width = 0;
    t->estimate = log(ref.median > 0 && row.median > 0 ? row.median / ref.median : NAN);
    t->se = 0;
  } else if (*units >= 2) {
    rigor_paired_t p;
    double floor = relative_quantum(&ref, &row) / sqrt(6.0);
    rigor_stats_paired(d, *units, o.level, floor, &p);
    t->half_width = p.half_width;
    t->estimate = p.mean;
    t->se = p.se;
    t->df = p.df;
  }
  free(d);
  return 0;
}

static const acc_row_t *used_row(const acc_exp_t *x, uint32_t v, uint32_t p) {
  if (v >= x->n_rows_v || p >= x->rows[v].n) return NULL;
  const acc_row_t *w = &x->rows[v].points[p];
  return w->used ? w : NULL;
}

static int push(rigor_stop_judgement_t *j, const rigor_stop_target_t *t) {
  rigor_stop_target_t *grown = realloc(j->targets, (j->n + 1) * sizeof *grown);
  if (!grown) return RIGOR_ENOMEM;
  j->targets = grown;
  j->targets[j->n++] = *t;
  return 0;
}

static int judge_contrasts(rigor_precision_acc_t *acc, const acc_exp_t *x, uint32_t max_point,
                           rigor_stop_judgement_t *j) {
  const rigor_contrast_pairs_t *pairs = &x->pairs;
  for (size_t i = 0; i < pairs->n; i++) {
    const rigor_contrast_pair_t *pr = &pairs->items[i];
    for (uint32_t p = 0; p <= max_point; p++) {
      const acc_row_t *rr = used_row(x, pr->ref_variant, p), *cr = used_row(x, pr->variant, p);
      if (!rr || !cr) continue;
      rigor_stop_target_t t = {.contrast = true,
                               .axis = pairs->axes[pr->axis],
                               .level = pr->label,
                               .reference = pairs->refs[pr->axis],
                               .point = p,
                               .point_label = cr->point_label};
      if (contrast_interval(acc, x, pr->ref_variant, rr, cr, &t) != 0 ||
          !(t.cell = strdup(pr->cell)) || push(j, &t)) {
        free(t.cell);
        return RIGOR_ENOMEM;
      }
    }
  }
  return 0;
}

static int judge_rows(const acc_exp_t *x, rigor_stop_judgement_t *j) {
  for (uint32_t v = 0; v < x->n_rows_v; v++)
    for (uint32_t p = 0; p < x->rows[v].n; p++) {
      const acc_row_t *w = used_row(x, v, p);
      if (!w) continue;
      fig_t f;
      figure_of(x, w, &f);
      rigor_stop_target_t t = {.variant = v,
                               .variant_label =
                                   v < x->shape.n_variants ? x->shape.variants[v].label : NULL,
                               .point = p,
                               .point_label = w->point_label,
                               .units = f.s->n_runs,
                               .half_width = row_half_width(&f),
                               .estimate = NAN,
                               .se = NAN,
                               .df = NAN};
      if (push(j, &t)) return RIGOR_ENOMEM;
    }
  return 0;
}

int rigor_precision_acc_judge(rigor_precision_acc_t *acc, const char *experiment,
                              rigor_stop_judgement_t *out) {
  memset(out, 0, sizeof *out);
  out->worst = INFINITY;
  const acc_exp_t *x = NULL;
  for (size_t i = 0; acc && experiment && i < acc->n_exps && !x; i++)
    if (strcmp(acc->exps[i].name, experiment) == 0) x = &acc->exps[i];
  if (!x) return 0;
  out->known = true;
  uint32_t max_point = 0;
  bool any_row = false;
  for (uint32_t v = 0; v < x->n_rows_v; v++)
    for (uint32_t p = 0; p < x->rows[v].n; p++)
      if (x->rows[v].points[p].used) {
        any_row = true;
        max_point = p > max_point ? p : max_point;
      }
  int rc = any_row ? judge_contrasts(acc, x, max_point, out) : 0;
  /* Without contrasts, every row's own interval. */
  if (!rc && out->n == 0) rc = judge_rows(x, out);
  if (rc) {
    rigor_stop_judgement_free(out);
    return rc;
  }
  double worst = 0;
  for (size_t i = 0; i < out->n; i++)
    worst = fmax(worst, out->targets[i].half_width);
  out->worst = out->n ? worst : INFINITY;
  return 0;
}

void rigor_stop_judgement_free(rigor_stop_judgement_t *j) {
  for (size_t i = 0; j && i < j->n; i++)
    free(j->targets[i].cell);
  if (j) free(j->targets);
  if (j) memset(j, 0, sizeof *j);
}

bool rigor_stop_all_decided(const rigor_stop_judgement_t *j, double threshold, uint32_t look) {
  if (!j || !j->n || !(threshold > 0)) return false;
  double k = look ? (double)look : 1;
  double alpha = 0.05 / (k * (k + 1) * (double)j->n);
  for (size_t i = 0; i < j->n; i++) {
    const rigor_stop_target_t *t = &j->targets[i];
    if (!t->contrast || !isfinite(t->estimate) || (!t->exact && !(t->units >= 2 && t->df > 0)))
      return false;
    double h = t->exact ? 0 : rigor_student_t_quantile(1 - alpha / 2, t->df) * t->se;
    rigor_evidence_t e = {.ratio = exp(t->estimate),
                          .lo = exp(t->estimate - h),
                          .hi = exp(t->estimate + h),
                          .exact = t->exact,
                          .threshold = threshold,
                          .n_units = t->units,
                          .unit_sd = t->se * sqrt((double)t->units),
                          .unit_name = "units"};
    rigor_decision_t d;
    rigor_decide(&e, &d);
    if (d.verdict != RIGOR_CMP_FASTER && d.verdict != RIGOR_CMP_SLOWER &&
        d.verdict != RIGOR_CMP_SAME)
      return false;
  }
  return true;
}

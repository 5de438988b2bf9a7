#include "contrast.h"
#include "suggest.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clauses.h"
#include "inference.h"
#include "rigor/plugin.h"
#include "stats.h"

void rigor_contrast_opts_default(rigor_contrast_opts_t *o) {
  memset(o, 0, sizeof *o);
  o->threshold = 0.02;
  o->alpha = 0.05;
  o->level = 0.95;
}

/* ---- axes and levels ------------------------------------------------------------------------ */

static char *label_of_value(const json_t *v) {
  if (json_is_string(v)) return strdup(json_string_value(v));
  return json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
}

/* The declared matrix axis named `name` in the experiment's resolved config, or NULL. */
static const json_t *declared_axis(const rigor_exp_analysis_t *e, const char *name) {
  size_t i;
  json_t *a;
  json_array_foreach(
      json_object_get(json_object_get(json_object_get(e->record, "config"), "matrix"), "axes"), i,
      a) {
    const char *n = json_string_value(json_object_get(a, "axis"));
    if (n && strcmp(n, name) == 0) return a;
  }
  return NULL;
}

/* The label of the level a variant's axis value names: the declared value it equals (a labelled
 * level is recorded by its label), else the value itself. */
static char *level_label(const json_t *declared, const json_t *value) {
  size_t i;
  json_t *lv;
  json_array_foreach(json_object_get(declared, "values"), i, lv) {
    if (json_equal(json_object_get(lv, "value"), (json_t *)value))
      return strdup(json_string_value(json_object_get(lv, "label")));
  }
  json_array_foreach(json_object_get(declared, "values"), i, lv) {
    const char *l = json_string_value(json_object_get(lv, "label"));
    if (json_is_string(value) && l && strcmp(l, json_string_value(value)) == 0) return strdup(l);
  }
  return label_of_value(value);
}

char *rigor_axis_level_label(const rigor_exp_analysis_t *e, const char *axis, const json_t *value) {
  return value ? level_label(declared_axis(e, axis), value) : NULL;
}

static int push_label(rigor_axis_info_t *a, char *label) {
  if (!label) return RIGOR_ENOMEM;
  for (size_t k = 0; k < a->n_levels; k++)
    if (strcmp(a->levels[k], label) == 0) {
      free(label);
      return 0;
    }
  char **grown = realloc(a->levels, (a->n_levels + 1) * sizeof *grown);
  if (!grown) return free(label), RIGOR_ENOMEM;
  a->levels = grown;
  a->levels[a->n_levels++] = label;
  return 0;
}

void rigor_exp_axes_free(rigor_axis_info_t *axes, size_t n) {
  for (size_t i = 0; axes && i < n; i++) {
    for (size_t k = 0; k < axes[i].n_levels; k++)
      free(axes[i].levels[k]);
    free(axes[i].levels);
    free(axes[i].name);
  }
  free(axes);
}

int rigor_exp_axes(const rigor_exp_analysis_t *e, rigor_axis_info_t **axes, size_t *n) {
  *axes = NULL;
  *n = 0;
  rigor_axis_info_t *out = NULL;
  size_t count = 0;
  int rc = 0;
  /* Axis names in the order of the first variant that has them (the matrix's own order). */
  for (size_t v = 0; !rc && v < e->n_variants; v++) {
    const char *key;
    json_t *val;
    json_object_foreach(e->variants[v].axes, key, val) {
      size_t i = 0;
      while (i < count && strcmp(out[i].name, key) != 0)
        i++;
      if (i == count) {
        rigor_axis_info_t *grown = realloc(out, (count + 1) * sizeof *grown);
        if (!grown) {
          rc = RIGOR_ENOMEM;
          break;
        }
        out = grown;
        memset(&out[count], 0, sizeof *out);
        if (!(out[count++].name = strdup(key))) {
          rc = RIGOR_ENOMEM;
          break;
        }
      }
    }
  }
  for (size_t i = 0; !rc && i < count; i++) {
    const json_t *declared = declared_axis(e, out[i].name);
    /* Declared levels first, in the matrix's order, then any level only the variants name. */
    size_t k;
    json_t *lv;
    json_array_foreach(json_object_get(declared, "values"), k, lv) {
      for (size_t v = 0; v < e->n_variants; v++) {
        const json_t *val = json_object_get(e->variants[v].axes, out[i].name);
        char *l = val ? level_label(declared, val) : NULL;
        const char *want = json_string_value(json_object_get(lv, "label"));
        bool match = l && want && strcmp(l, want) == 0;
        free(l);
        if (match) {
          rc = push_label(&out[i], strdup(want));
          break;
        }
      }
      if (rc) break;
    }
    for (size_t v = 0; !rc && v < e->n_variants; v++) {
      const json_t *val = json_object_get(e->variants[v].axes, out[i].name);
      if (val) rc = push_label(&out[i], level_label(declared, val));
    }
  }
  if (rc) {
    rigor_exp_axes_free(out, count);
    return rc;
  }
  *axes = out;
  *n = count;
  return 0;
}

static const rigor_axis_info_t *find_axis(const rigor_axis_info_t *axes, size_t n,
                                          const char *name) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(axes[i].name, name) == 0) return &axes[i];
  return NULL;
}

static long find_level(const rigor_axis_info_t *a, const char *label) {
  for (size_t k = 0; k < a->n_levels; k++)
    if (strcmp(a->levels[k], label) == 0) return (long)k;
  return -1;
}

static void append_name(char *buf, size_t len, const char *name) {
  size_t used = strlen(buf);
  snprintf(buf + used, len - used, "%s%s", used ? ", " : "", name);
}

int rigor_axis_check(const rigor_exp_analysis_t *e, const char *axis, const char *level, char *err,
                     size_t errlen) {
  rigor_axis_info_t *axes;
  size_t n;
  if (rigor_exp_axes(e, &axes, &n)) return snprintf(err, errlen, "out of memory"), RIGOR_ENOMEM;
  const rigor_axis_info_t *a = axis ? find_axis(axes, n, axis) : NULL;
  char names[1024];
  int rc = 0;
  if (!a) {
    names[0] = '\0';
    for (size_t i = 0; i < n; i++)
      append_name(names, sizeof names, axes[i].name);
    char near[160];
    snprintf(err, errlen, "experiment %s has no matrix axis '%s' (%s%s)%s", e->name,
             axis ? axis : "", n ? "axes: " : "it has no matrix", names,
             rigor_did_you_mean(axis, names, near, sizeof near));
    rc = RIGOR_EINVAL;
  } else if (level && find_level(a, level) < 0) {
    names[0] = '\0';
    for (size_t k = 0; k < a->n_levels; k++)
      append_name(names, sizeof names, a->levels[k]);
    char near[160];
    snprintf(err, errlen, "axis '%s' of experiment %s has no level '%s' (levels: %s)%s", axis,
             e->name, level, names, rigor_did_you_mean(level, names, near, sizeof near));
    rc = RIGOR_EINVAL;
  }
  rigor_exp_axes_free(axes, n);
  return rc;
}

/* ---- pairing by block ----------------------------------------------------------------------- */

/* The variant's level of the axis, as an index into a->levels (-1 when it has none). */
static long variant_level(const rigor_exp_analysis_t *e, uint32_t v, const rigor_axis_info_t *a) {
  const json_t *val = json_object_get(e->variants[v].axes, a->name);
  if (!val) return -1;
  char *l = level_label(declared_axis(e, a->name), val);
  long k = l ? find_level(a, l) : -1;
  free(l);
  return k;
}

/* The variant's other axes, as canonical text (the cell it belongs to). */
static char *cell_key(const rigor_exp_analysis_t *e, uint32_t v, const char *axis) {
  json_t *rest = json_copy(e->variants[v].axes);
  if (!rest) return NULL;
  json_object_del(rest, axis);
  char *key = json_dumps(rest, JSON_COMPACT | JSON_SORT_KEYS);
  json_decref(rest);
  return key;
}

static char *cell_label(const rigor_exp_analysis_t *e, uint32_t v, const char *axis) {
  char buf[1024] = "";
  const char *key;
  json_t *val;
  json_object_foreach(e->variants[v].axes, key, val) {
    if (strcmp(key, axis) == 0) continue;
    char *l = level_label(declared_axis(e, key), val);
    const char *dot = strrchr(key, '.');
    size_t used = strlen(buf);
    snprintf(buf + used, sizeof buf - used, "%s%s=%s", used ? ", " : "", dot ? dot + 1 : key,
             l ? l : "?");
    free(l);
  }
  return strdup(buf);
}

static const rigor_row_t *row_at(const rigor_exp_analysis_t *e, uint32_t v, uint32_t p) {
  for (size_t r = 0; r < e->n_rows; r++)
    if (e->rows[r].variant == v && e->rows[r].point == p) return &e->rows[r];
  return NULL;
}

/* Block of every ok run, by run index (UINT32_MAX where there is none). */
typedef struct blocks {
  uint32_t *of_run;
  size_t n;
} blocks_t;

static int index_blocks(const rigor_exp_analysis_t *e, blocks_t *b) {
  b->n = 0;
  for (size_t k = 0; k < e->n_runs; k++)
    if ((size_t)e->runs[k].run + 1 > b->n) b->n = (size_t)e->runs[k].run + 1;
  b->of_run = malloc((b->n ? b->n : 1) * sizeof *b->of_run);
  if (!b->of_run) return RIGOR_ENOMEM;
  for (size_t i = 0; i < b->n; i++)
    b->of_run[i] = UINT32_MAX;
  for (size_t k = 0; k < e->n_runs; k++)
    if (e->runs[k].status == RIGOR_RUN_OK) b->of_run[e->runs[k].run] = e->runs[k].block;
  return 0;
}

/* The blocks in which variant v has a run record, whatever its outcome. */
static bool ran_in_block(const rigor_exp_analysis_t *e, uint32_t v, uint32_t block) {
  for (size_t k = 0; k < e->n_runs; k++)
    if (e->runs[k].variant == v && e->runs[k].block == block) return true;
  return false;
}

static double median_in_block(const rigor_figure_t *f, const blocks_t *b, uint32_t block) {
  for (size_t r = 0; r < f->n_runs; r++)
    if (f->runs[r] < b->n && b->of_run[f->runs[r]] == block) return f->run_median[r];
  return NAN;
}

/* The axis whose levels ran as arms inside every run (schedule.interleave), or NULL. */
static const json_t *interleave_of(const rigor_exp_analysis_t *e) {
  return json_object_get(json_object_get(e->record, "schedule"), "interleave");
}

/* The arm index of variant v in its cell (schedule.interleave.arms), or -1. */
static long arm_of(const json_t *il, uint32_t v) {
  size_t c, a;
  json_t *cell, *x;
  json_array_foreach(json_object_get(il, "arms"), c, cell) {
    json_array_foreach(cell, a, x) {
      if (json_integer_value(x) == (json_int_t)v) return (long)a;
    }
  }
  return -1;
}

/* Whether arm `arm` measured before arm `other` in cycle `cycle` of a run of block `block`: the
 * square's row (cycle + offsets[block]) mod rows gives the order (language/interleave_order.c). */
static int arm_first(const json_t *il, uint32_t block, uint32_t cycle, long arm, long other) {
  const json_t *square = json_object_get(il, "square");
  size_t rows = json_array_size(square);
  json_t *off = json_array_get(json_object_get(il, "offsets"), block);
  if (!rows || !json_is_integer(off) || arm < 0 || other < 0) return -1;
  const json_t *row =
      json_array_get(square, ((size_t)cycle + (size_t)json_integer_value(off)) % rows);
  size_t j;
  json_t *x;
  json_array_foreach(row, j, x) {
    if (json_integer_value(x) == arm) return 1;
    if (json_integer_value(x) == other) return 0;
  }
  return -1;
}

/* The block of run `run`'s ok record, or UINT32_MAX. */
static uint32_t block_of_run(const rigor_exp_analysis_t *e, uint32_t run) {
  for (size_t k = 0; k < e->n_runs; k++)
    if (e->runs[k].run == run && e->runs[k].status == RIGOR_RUN_OK) return e->runs[k].block;
  return UINT32_MAX;
}

/* Interleaved arms: each ok run hosting both levels gives one paired estimate, the mean over its
 * cycles of log(level / reference) of the two windows of one cycle and point. The runs are the
 * units (a run's window pairs are never independent samples); the pooled sd of the window pairs
 * around their run's mean, and the position effect (the log ratio when the level measured second
 * against when it measured first, halved), come with it. Returns the number of runs in d. */
/* One window of the reference, found by its run and cycle. */
typedef struct ref_window {
  uint32_t run, cycle;
  double time;
} ref_window_t;

static int cmp_ref_window(const void *x, const void *y) {
  const ref_window_t *a = x, *b = y;
  if (a->run != b->run) return a->run < b->run ? -1 : 1;
  return (a->cycle > b->cycle) - (a->cycle < b->cycle);
}

static long run_index(const uint32_t *runs, size_t n, uint32_t run) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (runs[mid] < run)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < n && runs[lo] == run ? (long)lo : -1;
}

static size_t pair_by_run(const rigor_exp_analysis_t *e, rigor_contrast_t *c, double *d,
                          size_t cap) {
  const rigor_row_t *ref = c->ref, *row = c->row;
  const json_t *il = interleave_of(e);
  long arm = arm_of(il, c->variant), ref_arm = arm_of(il, c->ref_variant);
  size_t n_runs = row->figure.n_runs;
  /* The reference's windows sorted by (run, cycle), and per run of the level the sums of its
   * pairs' log ratios: one pass over each side, in file order within a run. */
  ref_window_t *refs = malloc((ref->figure.n ? ref->figure.n : 1) * sizeof *refs);
  double *sum = calloc(n_runs ? n_runs : 1, sizeof *sum);
  double *sum2 = calloc(n_runs ? n_runs : 1, sizeof *sum2);
  size_t *m = calloc(n_runs ? n_runs : 1, sizeof *m);
  size_t n_refs = 0, n = 0, n_windows = 0, n_first = 0, n_second = 0;
  double ss_within = 0, sum_first = 0, sum_second = 0;
  if (!refs || !sum || !sum2 || !m) goto done;
  for (size_t b = 0; b < ref->figure.n; b++)
    if (ref->times[b] > 0)
      refs[n_refs++] = (ref_window_t){ref->run_of[b], ref->cycle_of[b], ref->times[b]};
  qsort(refs, n_refs, sizeof *refs, cmp_ref_window);
  for (size_t a = 0; a < row->figure.n; a++) {
    if (!(row->times[a] > 0)) continue;
    long r = run_index(row->figure.runs, n_runs, row->run_of[a]);
    ref_window_t key = {row->run_of[a], row->cycle_of[a], 0};
    const ref_window_t *w = bsearch(&key, refs, n_refs, sizeof *refs, cmp_ref_window);
    if (r < 0 || !w) continue;
    double x = log(row->times[a] / w->time);
    sum[r] += x, sum2[r] += x * x, m[r]++;
    int first = arm_first(il, block_of_run(e, key.run), key.cycle, arm, ref_arm);
    if (first == 1) sum_first += x, n_first++;
    if (first == 0) sum_second += x, n_second++;
  }
  for (size_t i = 0; i < n_runs && n < cap; i++) {
    if (m[i] == 0) continue;
    d[n++] = sum[i] / (double)m[i];
    ss_within += sum2[i] - sum[i] * sum[i] / (double)m[i];
    n_windows += m[i];
  }
done:
  free(refs), free(sum), free(sum2), free(m);
  c->n_windows = n_windows;
  c->window_sd = n_windows > n ? sqrt(ss_within / (double)(n_windows - n)) : NAN;
  c->position_effect = n_first && n_second
                           ? 0.5 * (sum_second / (double)n_second - sum_first / (double)n_first)
                           : NAN;
  return n;
}

/* Fills the measurement of one contrast; the verdict waits for Holm's adjustment. */
static void measure(const rigor_exp_analysis_t *e, const blocks_t *blocks,
                    const rigor_contrast_opts_t *o, rigor_contrast_t *c) {
  const rigor_row_t *ref = c->ref, *row = c->row;
  c->ratio = c->lo = c->hi = c->p = c->p_holm = c->p_wilcoxon = c->w_plus = c->hl_ratio =
      c->pair_sd = c->window_sd = c->position_effect = NAN;
  const char *arms_axis = json_string_value(json_object_get(interleave_of(e), "axis"));
  c->interleaved = arms_axis && strcmp(arms_axis, c->axis) == 0 &&
                   strcmp(row->figure.name, "time_s") == 0 && row->cycle_of && ref->cycle_of;
  c->half_width = INFINITY;
  c->figure = row->figure.name;
  c->higher_is_better = row->figure.higher_is_better;
  char invalid[512] = "", unusable[512] = "";
  bool no_data = false;
  rigor_decide_side_problems(ref, c->ref_label, invalid, sizeof invalid, unusable, sizeof unusable,
                             &no_data);
  rigor_decide_side_problems(row, c->label, invalid, sizeof invalid, unusable, sizeof unusable,
                             &no_data);
  if (strcmp(ref->figure.name, row->figure.name) != 0)
    rigor_clause_append(invalid, sizeof invalid, "judged by %s against %s", row->figure.name,
                        ref->figure.name);
  uint32_t max_block = 0;
  for (size_t k = 0; k < e->n_runs; k++)
    max_block = e->runs[k].block > max_block ? e->runs[k].block : max_block;
  double *d = malloc(((size_t)max_block + 1) * sizeof *d);
  if (!d) return;
  if (c->interleaved) {
    free(d);
    d = malloc((row->figure.n_runs ? row->figure.n_runs : 1) * sizeof *d);
    if (!d) return;
    c->n_pairs = pair_by_run(e, c, d, row->figure.n_runs);
    c->n_incomplete = row->figure.n_runs - c->n_pairs;
  }
  for (uint32_t b = 0; !c->interleaved && e->n_runs && b <= max_block; b++) {
    double mr = median_in_block(&ref->figure, blocks, b);
    double mc = median_in_block(&row->figure, blocks, b);
    if (mr > 0 && mc > 0)
      d[c->n_pairs++] = log(mc / mr);
    else if (ran_in_block(e, c->ref_variant, b) || ran_in_block(e, c->variant, b))
      c->n_incomplete++;
  }
  c->exact = ref->figure.exact && row->figure.exact && ref->figure.n && row->figure.n;
  if (c->exact) {
    c->ratio = c->lo = c->hi = c->hl_ratio = row->figure.values[0] / ref->figure.values[0];
    c->half_width = 0;
  } else if (c->n_pairs >= 2) {
    rigor_paired_t t;
    double floor = rigor_decide_relative_quantum(&ref->figure, &row->figure) / sqrt(6.0);
    rigor_stats_paired(d, c->n_pairs, o->level, floor, &t);
    c->ratio = exp(t.mean);
    c->lo = exp(t.lo);
    c->hi = exp(t.hi);
    c->half_width = t.half_width;
    c->p = t.p;
    c->pair_sd = t.sd;
    c->floored = t.floored;
    rigor_signrank_t w;
    if (rigor_signed_rank(d, c->n_pairs, &w) == 0) {
      c->w_plus = w.w_plus;
      c->p_wilcoxon = w.p;
      c->wilcoxon_exact = w.exact;
      c->n_zero = w.n_zero;
    }
    c->hl_ratio = exp(rigor_walsh_median(d, c->n_pairs));
  } else if (c->n_pairs == 1) {
    c->ratio = exp(d[0]);
  }
  free(d);
  snprintf(c->invalid, sizeof c->invalid, "%s", invalid);
  snprintf(c->reason, sizeof c->reason, "%s", unusable);
}

/* Each contrast's evidence to the one rule (decide.h), after Holm's adjustment of the paired
 * p-values over the set (reported beside the interval). "slower" and "faster" read the figure's
 * direction: for a higher-is-better metric a lower value is slower. */
static void decide(rigor_contrasts_t *set) {
  const rigor_contrast_opts_t *o = &set->opts;
  double *p = malloc((set->n ? set->n : 1) * sizeof *p);
  double *adj = malloc((set->n ? set->n : 1) * sizeof *adj);
  if (!p || !adj) {
    free(p), free(adj);
    return;
  }
  for (size_t i = 0; i < set->n; i++) {
    const rigor_contrast_t *c = &set->items[i];
    p[i] = !c->invalid[0] && !c->exact && c->n_pairs >= 2 ? c->p : NAN;
  }
  rigor_holm(p, set->n, adj);
  for (size_t i = 0; i < set->n; i++) {
    rigor_contrast_t *c = &set->items[i];
    c->p_holm = adj[i];
    rigor_evidence_t e = {
        .ratio = c->ratio,
        .lo = c->lo,
        .hi = c->hi,
        .higher_is_better = c->higher_is_better,
        .exact = c->exact,
        .floored = c->floored,
        .threshold = o->threshold,
        .n_units = c->n_pairs,
        .unit_sd = c->pair_sd,
        .unit_name = c->interleaved ? "runs" : "blocks",
        .invalid = c->invalid,
        .unusable = c->reason,
    };
    char have[64];
    snprintf(have, sizeof have, "%zu complete %s%s", c->n_pairs, c->interleaved ? "run" : "block",
             c->n_pairs == 1 ? "" : "s");
    e.units_text = have;
    rigor_decision_t d;
    rigor_decide(&e, &d);
    c->verdict = d.verdict;
    c->cost = d.cost;
    c->units_needed = d.units_needed;
    snprintf(c->reason, sizeof c->reason, "%s", d.reason);
    if (c->verdict == RIGOR_CMP_SLOWER) set->regression = true;
    if ((c->verdict == RIGOR_CMP_SLOWER || c->verdict == RIGOR_CMP_FASTER) && !c->exact &&
        c->n_pairs >= 6 && !(c->p_wilcoxon < o->alpha))
      rigor_clause_append(c->reason, sizeof c->reason,
                          "the signed-rank test does not confirm it (p %.3g)", c->p_wilcoxon);
  }
  free(p), free(adj);
}

static int push(rigor_contrasts_t *set, const rigor_contrast_t *c) {
  rigor_contrast_t *grown = realloc(set->items, (set->n + 1) * sizeof *grown);
  if (!grown) return RIGOR_ENOMEM;
  set->items = grown;
  set->items[set->n++] = *c;
  return 0;
}

/* Appends the pairings of one axis against level `ref` of it: cells in the order of their
 * reference variant, levels in the matrix's order. */
static int pair_axis(const rigor_exp_analysis_t *e, rigor_contrast_pairs_t *set,
                     const rigor_axis_info_t *a, size_t ref, const char *candidate, size_t slot) {
  long *level = malloc((e->n_variants ? e->n_variants : 1) * sizeof *level);
  char **cells = calloc(e->n_variants ? e->n_variants : 1, sizeof *cells);
  int rc = level && cells ? 0 : RIGOR_ENOMEM;
  for (size_t v = 0; !rc && v < e->n_variants; v++) {
    level[v] = variant_level(e, (uint32_t)v, a);
    if (level[v] >= 0 && !(cells[v] = cell_key(e, (uint32_t)v, a->name))) rc = RIGOR_ENOMEM;
  }
  for (size_t rv = 0; !rc && rv < e->n_variants; rv++) {
    if (level[rv] != (long)ref) continue;
    for (size_t k = 0; !rc && k < a->n_levels; k++) {
      if (k == ref || (candidate && strcmp(a->levels[k], candidate) != 0)) continue;
      for (size_t v = 0; !rc && v < e->n_variants; v++) {
        if (level[v] != (long)k || strcmp(cells[v], cells[rv]) != 0) continue;
        rigor_contrast_pair_t *grown = realloc(set->items, (set->n + 1) * sizeof *grown);
        if (!grown) {
          rc = RIGOR_ENOMEM;
          break;
        }
        set->items = grown;
        rigor_contrast_pair_t *p = &set->items[set->n];
        *p = (rigor_contrast_pair_t){.axis = slot,
                                     .label = a->levels[k],
                                     .ref_variant = (uint32_t)rv,
                                     .variant = (uint32_t)v};
        if (!(p->cell = cell_label(e, (uint32_t)v, a->name)))
          rc = RIGOR_ENOMEM;
        else
          set->n++;
      }
    }
  }
  for (size_t v = 0; cells && v < e->n_variants; v++)
    free(cells[v]);
  free(cells), free(level);
  return rc;
}

void rigor_contrast_pairs_free(rigor_contrast_pairs_t *p) {
  if (!p) return;
  for (size_t i = 0; i < p->n; i++)
    free(p->items[i].cell);
  free(p->items);
  for (size_t i = 0; i < p->n_axes; i++)
    free(p->axes[i]), free(p->refs[i]);
  free(p->axes), free(p->refs);
  rigor_exp_axes_free(p->info, p->n_info);
  memset(p, 0, sizeof *p);
}

int rigor_contrast_pairs_build(const rigor_exp_analysis_t *e, const char *axis, const char *ref,
                               const char *candidate, rigor_contrast_pairs_t *out) {
  memset(out, 0, sizeof *out);
  if (!e || (!axis && ref)) return RIGOR_EINVAL;
  int rc = rigor_exp_axes(e, &out->info, &out->n_info);
  if (rc) return rc;
  const rigor_axis_info_t *one = axis ? find_axis(out->info, out->n_info, axis) : NULL;
  long ref_level = one && ref ? find_level(one, ref) : 0;
  if ((axis && !one) || ref_level < 0 || (candidate && one && find_level(one, candidate) < 0)) {
    rigor_contrast_pairs_free(out);
    return RIGOR_EINVAL;
  }
  out->axes = calloc(out->n_info ? out->n_info : 1, sizeof *out->axes);
  out->refs = calloc(out->n_info ? out->n_info : 1, sizeof *out->refs);
  rc = out->axes && out->refs ? 0 : RIGOR_ENOMEM;
  for (size_t i = 0; !rc && i < out->n_info; i++) {
    const rigor_axis_info_t *a = &out->info[i];
    if ((one && a != one) || a->n_levels < 2) continue;
    size_t slot = out->n_axes++;
    out->axes[slot] = strdup(a->name);
    out->refs[slot] = strdup(a->levels[ref_level]);
    rc = out->axes[slot] && out->refs[slot]
             ? pair_axis(e, out, a, (size_t)ref_level, candidate, slot)
             : RIGOR_ENOMEM;
  }
  if (rc) rigor_contrast_pairs_free(out);
  return rc;
}

/* Appends the contrasts of every pairing at every point where both variants have a row. */
static int contrast_pairs(rigor_contrasts_t *set, const rigor_contrast_pairs_t *pairs,
                          const blocks_t *blocks) {
  const rigor_exp_analysis_t *e = set->exp;
  uint32_t max_point = 0;
  for (size_t r = 0; r < e->n_rows; r++)
    max_point = e->rows[r].point > max_point ? e->rows[r].point : max_point;
  int rc = 0;
  for (size_t i = 0; !rc && i < pairs->n; i++) {
    const rigor_contrast_pair_t *pr = &pairs->items[i];
    for (uint32_t p = 0; !rc && e->n_rows && p <= max_point; p++) {
      const rigor_row_t *rr = row_at(e, pr->ref_variant, p), *cr = row_at(e, pr->variant, p);
      if (!rr || !cr) continue;
      rigor_contrast_t c = {.axis = set->axes[pr->axis],
                            .ref_label = set->refs[pr->axis],
                            .label = pr->label,
                            .ref_variant = pr->ref_variant,
                            .variant = pr->variant,
                            .point = p,
                            .point_label = cr->point_label,
                            .ref = rr,
                            .row = cr};
      if (!(c.cell = strdup(pr->cell))) {
        rc = RIGOR_ENOMEM;
        break;
      }
      measure(e, blocks, &set->opts, &c);
      if ((rc = push(set, &c))) free(c.cell);
    }
  }
  return rc;
}

void rigor_contrasts_free(rigor_contrasts_t *c) {
  if (!c) return;
  for (size_t i = 0; i < c->n; i++)
    free(c->items[i].cell);
  free(c->items);
  for (size_t i = 0; i < c->n_axes; i++)
    free(c->axes[i]), free(c->refs[i]);
  free(c->axes), free(c->refs);
  rigor_exp_axes_free(c->info, c->n_info);
  free(c);
}

int rigor_contrasts_build_opts(const rigor_exp_analysis_t *e, const char *axis, const char *ref,
                               const rigor_contrast_opts_t *opts, rigor_contrasts_t **out) {
  if (!e || !out || (!axis && ref)) return RIGOR_EINVAL;
  *out = NULL;
  rigor_contrast_pairs_t pairs;
  int rc = rigor_contrast_pairs_build(e, axis, ref, opts ? opts->candidate : NULL, &pairs);
  if (rc) return rc;
  rigor_contrasts_t *set = calloc(1, sizeof *set);
  if (!set) {
    rigor_contrast_pairs_free(&pairs);
    return RIGOR_ENOMEM;
  }
  set->exp = e;
  if (opts)
    set->opts = *opts;
  else
    rigor_contrast_opts_default(&set->opts);
  /* The set owns the pairings' axes and labels from here. */
  set->axes = pairs.axes, set->refs = pairs.refs, set->n_axes = pairs.n_axes;
  set->info = pairs.info, set->n_info = pairs.n_info;
  pairs.axes = pairs.refs = NULL, pairs.n_axes = 0;
  pairs.info = NULL, pairs.n_info = 0;
  blocks_t blocks = {0};
  rc = index_blocks(e, &blocks);
  if (!rc) rc = contrast_pairs(set, &pairs, &blocks);
  free(blocks.of_run);
  rigor_contrast_pairs_free(&pairs);
  if (rc) {
    rigor_contrasts_free(set);
    return rc;
  }
  decide(set);
  *out = set;
  return 0;
}

int rigor_contrasts_build(const rigor_exp_analysis_t *e, const char *axis, const char *ref,
                          rigor_contrasts_t **out) {
  return rigor_contrasts_build_opts(e, axis, ref, NULL, out);
}

double rigor_precision_worst(const rigor_exp_analysis_t *e, const char *axis, const char *ref) {
  rigor_contrasts_t *c = NULL;
  if (!e || rigor_contrasts_build(e, axis, ref, &c)) return INFINITY;
  double worst = 0;
  if (c->n) {
    for (size_t i = 0; i < c->n; i++)
      worst = fmax(worst, c->items[i].half_width);
  } else {
    for (size_t r = 0; r < e->n_rows; r++)
      worst = fmax(worst, e->rows[r].figure.half_width);
    if (e->n_rows == 0) worst = INFINITY;
  }
  rigor_contrasts_free(c);
  return worst;
}

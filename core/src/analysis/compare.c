#include "compare.h"

#include "json_diff.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clauses.h"
#include "rigor/plugin.h"

/* How many times a side's run-to-run spread a direction across files must clear (above). */
#define FILE_DRIFT_FACTOR 2.0

const char *rigor_cmp_verdict_name(rigor_cmp_verdict_t v) {
  static const char *const names[] = {"same",    "faster",       "slower",       "unstable",
                                      "invalid", "incomparable", "undetermined", "missing"};
  return v < RIGOR_CMP_VERDICT_COUNT ? names[v] : "?";
}

int rigor_cmp_verdict_parse(const char *name) {
  for (int v = 0; name && v < RIGOR_CMP_VERDICT_COUNT; v++)
    if (strcmp(name, rigor_cmp_verdict_name((rigor_cmp_verdict_t)v)) == 0) return v;
  return -1;
}

void rigor_compare_opts_default(rigor_compare_opts_t *o) {
  memset(o, 0, sizeof *o);
  o->threshold = 0.02;
  o->alpha = 0.05;
  o->seed = 0x726967u;
  o->resamples = 2000;
}

/* Identity members that differ between any two runs of the same code on the same machine
 * type, or that a regression check changes on purpose (the build under test). */
static const char *const volatile_keys[] = {"hostname", "host_name", "nodename", "boot_id",
                                            "uptime",   "loadavg",   "load",     "pid",
                                            "created",  "timestamp", "rigor",    "git"};

static bool ignored(const char *path, const rigor_compare_opts_t *o) {
  for (size_t i = 0; i < o->n_ignore; i++) {
    size_t n = strlen(o->ignore_identity[i]);
    if (strncmp(path, o->ignore_identity[i], n) == 0 && (path[n] == '\0' || path[n] == '.'))
      return true;
  }
  const char *p = path;
  while (p && *p) {
    const char *dot = strchr(p, '.');
    size_t n = dot ? (size_t)(dot - p) : strlen(p);
    for (size_t k = 0; k < sizeof volatile_keys / sizeof *volatile_keys; k++)
      if (strlen(volatile_keys[k]) == n && strncmp(p, volatile_keys[k], n) == 0) return true;
    p = dot ? dot + 1 : NULL;
  }
  return false;
}

static void diff_objects(const json_t *a, const json_t *b, const char *prefix,
                         const rigor_compare_opts_t *o, json_t *diffs) {
  json_t *all = rigor_json_diff(a, b, prefix);
  size_t i;
  json_t *d;
  json_array_foreach(all, i, d) {
    const char *path = json_string_value(json_object_get(d, "path"));
    if (ignored(path, o)) continue;
    const char *va = json_string_value(json_object_get(d, "base"));
    const char *vb = json_string_value(json_object_get(d, "cand"));
    char line[1024];
    snprintf(line, sizeof line, "%s: %s -> %s", path, va ? va : "(absent)", vb ? vb : "(absent)");
    json_array_append_new(diffs, json_string(line));
  }
  json_decref(all);
}

static const json_t *first_ok_plugin_identity(const rigor_exp_analysis_t *e) {
  for (size_t k = 0; k < e->n_runs; k++)
    if (e->runs[k].status == RIGOR_RUN_OK)
      return json_object_get(e->runs[k].record, "plugin_identity");
  return NULL;
}

static const json_t *variant_settings(const rigor_exp_analysis_t *e, uint32_t v) {
  return v < e->n_variants ? e->variants[v].settings : NULL;
}

/* The row's identity across files: experiment, plugin, variant axes and point parameters. */
static char *row_key(const rigor_exp_analysis_t *e, const rigor_row_t *w) {
  const json_t *settings = variant_settings(e, w->variant);
  const char *plugin = json_string_value(json_object_get(settings, "plugin"));
  if (!plugin)
    plugin = json_string_value(json_object_get(json_object_get(e->record, "plugin"), "name"));
  const json_t *axes = w->variant < e->n_variants ? e->variants[w->variant].axes : NULL;
  json_t *key = json_pack("{s:s, s:s?, s:O?, s:O?, s:s?, s:s?}", "experiment", e->name, "plugin",
                          plugin, "axes", axes, "point", w->point_params, "variant_label",
                          axes ? NULL : w->variant_label, "point_label",
                          w->point_params ? NULL : w->point_label);
  char *text = json_dumps(key, JSON_COMPACT | JSON_SORT_KEYS);
  json_decref(key);
  return text;
}

static void workload_mismatch(const rigor_exp_analysis_t *eb, const rigor_row_t *b,
                              const rigor_exp_analysis_t *ec, const rigor_row_t *c, char *reason,
                              size_t len) {
  const json_t *sb = variant_settings(eb, b->variant), *sc = variant_settings(ec, c->variant);
  static const char *const sections[] = {"params", "timing", "environment"};
  rigor_compare_opts_t none;
  rigor_compare_opts_default(&none);
  for (size_t s = 0; sb && sc && s < 3; s++) {
    json_t *diffs = json_array();
    diff_objects(json_object_get(sb, sections[s]), json_object_get(sc, sections[s]), sections[s],
                 &none, diffs);
    size_t i;
    json_t *d;
    json_array_foreach(diffs, i, d) {
      if (strncmp(json_string_value(d), "timing.timeout", 14) != 0)
        rigor_clause_append(reason, len, "%s differs", json_string_value(d));
    }
    json_decref(diffs);
  }
  if (isfinite(b->bytes) && isfinite(c->bytes) && b->bytes != c->bytes)
    rigor_clause_append(reason, len, "bytes per operation differ: %.0f -> %.0f", b->bytes,
                        c->bytes);
  /* Under iters: auto each run chose its own count; the settings above already say both did. */
  bool calibrated = json_is_string(json_object_get(json_object_get(sb, "timing"), "iters")) &&
                    json_is_string(json_object_get(json_object_get(sc, "timing"), "iters"));
  if (isfinite(b->iters) && isfinite(c->iters) &&
      ((!calibrated && b->iters != c->iters) || b->agg != c->agg))
    rigor_clause_append(reason, len, "iters x agg differ: %.0f x %.0f -> %.0f x %.0f", b->iters,
                        b->agg, c->iters, c->agg);
  if (b->window && c->window && strcmp(b->window, c->window) != 0)
    rigor_clause_append(reason, len, "timing window differs: %s -> %s", b->window, c->window);
}

static void side_problems(const rigor_row_t *w, const char *side, char *invalid, size_t ilen,
                          char *unstable, size_t ulen, bool *no_data) {
  if (w->n_wrong)
    rigor_clause_append(invalid, ilen, "%s: correctness failed in %zu samples", side, w->n_wrong);
  if (w->n_invalid)
    rigor_clause_append(invalid, ilen, "%s: %zu invalid samples", side, w->n_invalid);
  if (w->verdict == RIGOR_VERDICT_NO_DATA || w->figure.n == 0) {
    rigor_clause_append(unstable, ulen, "%s: no usable samples", side);
    *no_data = true;
  } else if (w->verdict == RIGOR_VERDICT_TOO_FEW) {
    rigor_clause_append(unstable, ulen, "%s: %zu samples < %u", side, w->figure.n, w->min_samples);
  } else if (w->verdict == RIGOR_VERDICT_UNSTABLE) {
    rigor_clause_append(unstable, ulen, "%s: %s %.2f%% > %.2f%%", side,
                        w->statistic == RIGOR_GATE_ROBUST ? "robust spread" : "CV",
                        w->gate_value * 100, w->cv_max * 100);
  }
}

static size_t count_flag(const rigor_exp_analysis_t *e, const char *flag) {
  size_t n = 0;
  for (size_t v = 0; v < e->n_variants; v++)
    n += (size_t)json_integer_value(json_object_get(e->variants[v].flags, flag));
  return n;
}

static void experiment_notes(const rigor_exp_analysis_t *eb, const rigor_exp_analysis_t *ec,
                             const rigor_compare_opts_t *o, rigor_comparison_t *c) {
  diff_objects(json_object_get(eb->record, "identity"), json_object_get(ec->record, "identity"),
               "identity", o, c->identity_diffs);
  diff_objects(first_ok_plugin_identity(eb), first_ok_plugin_identity(ec), "plugin_identity", o,
               c->identity_diffs);
  const char *vb =
      json_string_value(json_object_get(json_object_get(eb->record, "plugin"), "version"));
  const char *vc =
      json_string_value(json_object_get(json_object_get(ec->record, "plugin"), "version"));
  char buf[512];
  if (vb && vc && strcmp(vb, vc) != 0) {
    snprintf(buf, sizeof buf, "%s: plugin version %s -> %s", eb->name, vb, vc);
    json_array_append_new(c->notes, json_string(buf));
  }
  const rigor_exp_analysis_t *sides[2] = {eb, ec};
  for (int s = 0; s < 2; s++) {
    size_t low = count_flag(sides[s], "low_clock");
    if (low) {
      snprintf(buf, sizeof buf, "%s: %s has %zu runs flagged low_clock", sides[s]->name,
               s ? "CAND" : "BASE", low);
      json_array_append_new(c->notes, json_string(buf));
    }
    if (sides[s]->record && !sides[s]->positions_vary && sides[s]->n_variants > 1) {
      snprintf(buf, sizeof buf, "%s: %s ran in sequential order (not balanced)", sides[s]->name,
               s ? "CAND" : "BASE");
      json_array_append_new(c->notes, json_string(buf));
    }
  }
}

static int push_row(rigor_comparison_t *c, const rigor_cmp_row_t *r) {
  rigor_cmp_row_t *rows = realloc(c->rows, (c->n_rows + 1) * sizeof *rows);
  if (!rows) return RIGOR_ENOMEM;
  c->rows = rows;
  c->rows[c->n_rows++] = *r;
  return 0;
}

/* The step quantised values cannot resolve, relative to the medians (see contrast.c). */
static double relative_quantum(const rigor_figure_t *a, const rigor_figure_t *b) {
  size_t n = a->n + b->n;
  double q = fmax(a->quantum, b->quantum);
  double *all = malloc((n ? n : 1) * sizeof *all);
  if (all) {
    memcpy(all, a->values, a->n * sizeof *all);
    memcpy(all + a->n, b->values, b->n * sizeof *all);
    q = fmax(q, rigor_quantum_of(all, n));
    free(all);
  }
  double scale = sqrt(fabs(a->summary.median * b->summary.median));
  return scale > 0 ? q / scale : 0;
}

/* How many runs a side a Welch interval needs to decide this row: its half-width must fall
 * below the distance of the observed log ratio from the threshold (and below half the
 * threshold when the ratio sits on it). The spread is the sides' measured run-to-run spread, or,
 * with one run a side, the cycles' own spread over the cycles per run: a lower bound, since the
 * run level can only add to it. */
static void runs_needed(rigor_cmp_row_t *r, const rigor_compare_opts_t *o) {
  const rigor_figure_t *b = &r->base->figure, *c = &r->cand->figure;
  double s = NAN;
  if (b->n_runs >= 2 && c->n_runs >= 2)
    s = sqrt(0.5 * (b->between_run * b->between_run + c->between_run * c->between_run));
  else if (b->n_runs >= 2)
    s = b->between_run;
  else if (c->n_runs >= 2)
    s = c->between_run;
  r->runs_needed_floor = !isfinite(s);
  if (!isfinite(s)) {
    double per_run =
        fmax((double)b->n / fmax((double)b->n_runs, 1), (double)c->n / fmax((double)c->n_runs, 1));
    s = fmax(b->within_run, c->within_run) / sqrt(per_run);
  }
  double d = fabs(log(r->ratio)), t = log(1 + o->threshold);
  double h = fmax(fabs(d - t), t / 2);
  if (!isfinite(s) || !isfinite(h)) return;
  if (s <= 0) {
    r->runs_needed = 2;
    return;
  }
  for (uint32_t n = 2; n <= RIGOR_CMP_RUNS_NEEDED_MAX; n++)
    if (rigor_student_t_quantile(0.975, 2.0 * n - 2) * s * sqrt(2.0 / n) <= h) {
      r->runs_needed = n;
      return;
    }
  r->runs_needed = RIGOR_CMP_RUNS_NEEDED_MAX + 1;
}

static void measure(rigor_cmp_row_t *r, const rigor_compare_opts_t *o) {
  r->ratio = r->p95_ratio = r->ci_lo = r->ci_hi = r->p = r->p_runs = r->p_holm = r->hl_shift = NAN;
  if (!r->base || !r->cand) return;
  const rigor_figure_t *b = &r->base->figure, *c = &r->cand->figure;
  if (!b->n || !c->n || strcmp(b->name, c->name) != 0) return;
  r->ratio = c->summary.median / b->summary.median;
  r->p95_ratio = c->summary.p95 / b->summary.p95;
  r->runs_base = b->n_runs;
  r->runs_cand = c->n_runs;
  r->figure_exact = b->exact && c->exact;
  if (r->figure_exact) {
    r->ci_lo = r->ci_hi = r->ratio;
    r->p = r->p_runs = 0;
    return;
  }
  rigor_run_ratio_t rr;
  r->one_run = rigor_stats_run_ratio(b->values, b->run_of, b->n, c->values, c->run_of, c->n, 0.95,
                                     relative_quantum(b, c) / sqrt(6.0), &rr) != 0;
  r->runs_base = rr.runs_base;
  r->runs_cand = rr.runs_cand;
  if (!r->one_run) {
    r->ci_lo = rr.lo;
    r->ci_hi = rr.hi;
    r->p_runs = rr.p;
    r->floored = rr.floored;
  } else {
    rigor_stats_bootstrap_median_ratio(b->values, b->n, c->values, c->n, o->resamples, 0.95,
                                       o->seed, &r->ci_lo, &r->ci_hi);
    runs_needed(r, o);
  }
  rigor_mw_t mw;
  if (rigor_mann_whitney(b->values, b->n, c->values, c->n, &mw) == 0) {
    r->p = mw.p;
    r->exact = mw.exact;
  }
  r->hl_shift = rigor_hodges_lehmann(b->values, b->n, c->values, c->n);
}

static int push_missing(rigor_comparison_t *c, const rigor_exp_analysis_t *e, const rigor_row_t *w,
                        bool in_base, const char *why) {
  rigor_cmp_row_t r = {.experiment = e->name,
                       .variant_label = w->variant_label,
                       .point_label = w->point_label,
                       .verdict = RIGOR_CMP_MISSING};
  if (in_base)
    r.base = w;
  else
    r.cand = w;
  measure(&r, &c->opts);
  snprintf(r.reason, sizeof r.reason, "%s", why);
  return push_row(c, &r);
}

static int compare_experiments(const rigor_exp_analysis_t *eb, const rigor_exp_analysis_t *ec,
                               const rigor_compare_opts_t *o, bool incomparable,
                               rigor_comparison_t *c) {
  char **keys_c = calloc(ec->n_rows ? ec->n_rows : 1, sizeof *keys_c);
  bool *matched = calloc(ec->n_rows ? ec->n_rows : 1, sizeof *matched);
  int rc = keys_c && matched ? 0 : RIGOR_ENOMEM;
  for (size_t j = 0; !rc && j < ec->n_rows; j++)
    keys_c[j] = row_key(ec, &ec->rows[j]);
  for (size_t i = 0; !rc && i < eb->n_rows; i++) {
    rigor_cmp_row_t r = {.experiment = eb->name, .base = &eb->rows[i]};
    r.variant_label = eb->rows[i].variant_label;
    r.point_label = eb->rows[i].point_label;
    char *kb = row_key(eb, &eb->rows[i]);
    for (size_t j = 0; kb && j < ec->n_rows; j++)
      if (!matched[j] && keys_c[j] && strcmp(kb, keys_c[j]) == 0) {
        r.cand = &ec->rows[j];
        matched[j] = true;
        break;
      }
    free(kb);
    measure(&r, o);
    char invalid[512] = "", unstable[512] = "";
    bool no_data = false;
    if (!r.cand) {
      r.verdict = RIGOR_CMP_MISSING;
      snprintf(r.reason, sizeof r.reason, "only in BASE");
    } else if (incomparable) {
      r.verdict = RIGOR_CMP_INCOMPARABLE;
      snprintf(r.reason, sizeof r.reason, "identity differs (see above)");
    } else {
      side_problems(r.base, "BASE", invalid, sizeof invalid, unstable, sizeof unstable, &no_data);
      side_problems(r.cand, "CAND", invalid, sizeof invalid, unstable, sizeof unstable, &no_data);
      workload_mismatch(eb, r.base, ec, r.cand, invalid, sizeof invalid);
      if (strcmp(r.base->figure.name, r.cand->figure.name) != 0)
        rigor_clause_append(invalid, sizeof invalid, "judged by %s -> %s", r.base->figure.name,
                            r.cand->figure.name);
      if (invalid[0]) {
        r.verdict = RIGOR_CMP_INVALID;
        snprintf(r.reason, sizeof r.reason, "%s", invalid);
      } else if (no_data) {
        r.verdict = RIGOR_CMP_UNSTABLE;
        snprintf(r.reason, sizeof r.reason, "%s", unstable);
      } else {
        /* Decided after the Holm adjustment; a side over its gate may still show a direction. */
        r.verdict = RIGOR_CMP_SAME;
        r.imprecise = unstable[0] != '\0';
        snprintf(r.reason, sizeof r.reason, "%s", unstable);
      }
    }
    c->n_compared += r.base && r.cand && r.base->figure.n && r.cand->figure.n;
    rc = push_row(c, &r);
  }
  for (size_t j = 0; !rc && j < ec->n_rows; j++)
    if (!matched[j]) rc = push_missing(c, ec, &ec->rows[j], false, "only in CAND");
  for (size_t j = 0; keys_c && j < ec->n_rows; j++)
    free(keys_c[j]);
  free(keys_c);
  free(matched);
  return rc;
}

static void decide(rigor_comparison_t *c, const rigor_compare_opts_t *o) {
  double *p = malloc((c->n_rows ? c->n_rows : 1) * sizeof *p);
  double *adj = malloc((c->n_rows ? c->n_rows : 1) * sizeof *adj);
  if (!p || !adj) {
    free(p), free(adj);
    return;
  }
  for (size_t i = 0; i < c->n_rows; i++) {
    const rigor_cmp_row_t *r = &c->rows[i];
    bool tested = r->verdict == RIGOR_CMP_SAME && !r->one_run && !r->figure_exact;
    p[i] = tested ? r->p_runs : NAN;
  }
  rigor_holm(p, c->n_rows, adj);
  for (size_t i = 0; i < c->n_rows; i++) {
    rigor_cmp_row_t *r = &c->rows[i];
    r->p_holm = adj[i];
    if (r->verdict != RIGOR_CMP_SAME) continue;
    double change = r->ratio - 1;
    bool beyond = fabs(change) >= o->threshold;
    if (r->one_run && !r->figure_exact) {
      /* One run a side measures no run-to-run variation, which is most of the noise between
       * invocations: no direction can be claimed. */
      r->verdict = r->imprecise ? RIGOR_CMP_UNSTABLE : RIGOR_CMP_UNDETERMINED;
      char need[96];
      if (r->runs_needed > RIGOR_CMP_RUNS_NEEDED_MAX)
        snprintf(need, sizeof need, "more than %d runs a side", RIGOR_CMP_RUNS_NEEDED_MAX);
      else if (r->runs_needed)
        snprintf(need, sizeof need, "%s%u runs a side", r->runs_needed_floor ? "at least " : "",
                 r->runs_needed);
      else
        snprintf(need, sizeof need, "two or more runs a side");
      rigor_clause_append(
          r->reason, sizeof r->reason,
          "%zu run%s BASE, %zu CAND: run-to-run variation is not measured; the observed "
          "spread calls for %s",
          r->runs_base, r->runs_base == 1 ? "" : "s", r->runs_cand, need);
      continue;
    }
    /* A change counts only when the whole interval lies beyond the threshold: the data must show
     * that it is larger than the smallest change that matters, not merely that it is not zero.
     * From a side over its gate, the interval must also clear twice what that side's runs differ
     * by: the two files ran minutes apart, and nothing measured how much that alone moves them
     * (A/A files on a shared machine were seen 12.7% apart with runs 3.9% apart). */
    bool significant = r->figure_exact || r->p_holm < o->alpha;
    bool ci_excludes = change > 0 ? r->ci_lo > 1 + o->threshold : r->ci_hi < 1 - o->threshold;
    double noise = FILE_DRIFT_FACTOR * fmax(rigor_row_noise(r->base), rigor_row_noise(r->cand));
    bool clears_noise = change > 0 ? r->ci_lo > 1 + noise : r->ci_hi < 1 / (1 + noise);
    if (beyond && significant && ci_excludes && (!r->imprecise || clears_noise)) {
      r->verdict = change > 0 ? RIGOR_CMP_SLOWER : RIGOR_CMP_FASTER;
      if (r->imprecise)
        rigor_clause_append(
            r->reason, sizeof r->reason,
            "the whole interval lies beyond the threshold and twice what the runs of the "
            "noisier side differ by (%.2f%%): the direction stands, the precise figure is "
            "withheld",
            noise * 100);
      if ((r->p95_ratio - 1) * change < 0)
        rigor_clause_append(r->reason, sizeof r->reason, "P95 moved the other way (%+.2f%%)",
                            (r->p95_ratio - 1) * 100);
    } else if (r->imprecise) {
      r->verdict = RIGOR_CMP_UNSTABLE;
      if (beyond && significant && ci_excludes)
        rigor_clause_append(
            r->reason, sizeof r->reason,
            "the interval does not clear twice what the runs of the noisier side differ by "
            "(%.2f%%)",
            noise * 100);
    } else if (!beyond) {
      rigor_clause_append(r->reason, sizeof r->reason, "change within the %.2f%% threshold",
                          o->threshold * 100);
    } else {
      rigor_clause_append(r->reason, sizeof r->reason,
                          "not shown beyond the threshold (Holm p %.3g%s)", r->p_holm,
                          ci_excludes ? "" : ", 95% CI reaches inside the threshold");
    }
    if (r->floored)
      rigor_clause_append(
          r->reason, sizeof r->reason,
          "interval widened to the quantum of the values (identical runs show no spread)");
    if (r->figure_exact)
      rigor_clause_append(r->reason, sizeof r->reason, "exact: %s is identical in every repeat",
                          r->base->figure.name);
  }
  for (size_t i = 0; i < c->n_rows; i++) {
    rigor_cmp_row_t *r = &c->rows[i];
    /* Only a direction read from a side over its gate withholds its figure; an unstable row's
     * ratio is an observation, shown as one. */
    r->imprecise =
        r->imprecise && (r->verdict == RIGOR_CMP_SLOWER || r->verdict == RIGOR_CMP_FASTER);
    if (c->rows[i].verdict == RIGOR_CMP_SLOWER) c->regression = true;
    if (o->fail_on & (1u << c->rows[i].verdict)) c->failed = true;
  }
  free(p), free(adj);
}

void rigor_comparison_vacuous_reason(const rigor_comparison_t *c, char *buf, size_t len) {
  size_t base_rows = 0, cand_rows = 0, both = 0;
  for (size_t i = 0; i < c->n_rows; i++) {
    base_rows += c->rows[i].base != NULL;
    cand_rows += c->rows[i].cand != NULL;
    both += c->rows[i].base && c->rows[i].cand;
  }
  if (c->n_rows == 0)
    snprintf(buf, len, "the files hold no rows");
  else if (base_rows == 0 || cand_rows == 0 || both == 0)
    snprintf(buf, len, "no row is in both files (no experiment, variant and point in common)");
  else
    snprintf(buf, len,
             "no row has usable samples on both sides (every run crashed, failed or "
             "was skipped on a side)");
}

int rigor_fail_on_parse(const char *list, unsigned *bits, char *err, size_t errlen) {
  static const rigor_cmp_verdict_t allowed[] = {RIGOR_CMP_UNDETERMINED, RIGOR_CMP_UNSTABLE,
                                                RIGOR_CMP_INVALID, RIGOR_CMP_INCOMPARABLE,
                                                RIGOR_CMP_MISSING};
  *bits = 0;
  const char *p = list;
  while (p && *p) {
    const char *comma = strchr(p, ',');
    size_t n = comma ? (size_t)(comma - p) : strlen(p);
    char name[32];
    snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), p);
    int v = n < sizeof name ? rigor_cmp_verdict_parse(name) : -1;
    bool ok = false;
    for (size_t k = 0; v >= 0 && k < sizeof allowed / sizeof *allowed; k++)
      ok = ok || (int)allowed[k] == v;
    if (!ok) {
      snprintf(err, errlen,
               "'%.*s' is not a verdict --fail-on takes (undetermined, unstable, invalid, "
               "incomparable, missing)",
               (int)n, p);
      return RIGOR_EINVAL;
    }
    *bits |= 1u << v;
    p = comma ? comma + 1 : NULL;
  }
  return 0;
}

int rigor_compare(const rigor_analysis_t *base, const rigor_analysis_t *cand,
                  const rigor_compare_opts_t *opts, rigor_comparison_t **out) {
  if (!base || !cand || !opts || !out) return RIGOR_EINVAL;
  rigor_comparison_t *c = calloc(1, sizeof *c);
  if (!c) return RIGOR_ENOMEM;
  c->identity_diffs = json_array();
  c->notes = json_array();
  c->opts = *opts;
  if (base->n_exps) c->sides[0] = &base->exps[0];
  if (cand->n_exps) c->sides[1] = &cand->exps[0];
  int rc = 0;
  for (size_t i = 0; !rc && i < base->n_exps; i++) {
    const rigor_exp_analysis_t *eb = &base->exps[i], *ec = NULL;
    for (size_t j = 0; j < cand->n_exps && !ec; j++)
      if (strcmp(cand->exps[j].name, eb->name) == 0) ec = &cand->exps[j];
    if (!ec) {
      char buf[512];
      snprintf(buf, sizeof buf, "experiment %s is only in BASE", eb->name);
      json_array_append_new(c->notes, json_string(buf));
      for (size_t r = 0; !rc && r < eb->n_rows; r++)
        rc = push_missing(c, eb, &eb->rows[r], true, "only in BASE (experiment not in CAND)");
      continue;
    }
    size_t before = json_array_size(c->identity_diffs);
    experiment_notes(eb, ec, opts, c);
    rc = compare_experiments(eb, ec, opts, json_array_size(c->identity_diffs) > before, c);
  }
  for (size_t j = 0; j < cand->n_exps; j++) {
    bool found = false;
    for (size_t i = 0; i < base->n_exps && !found; i++)
      found = strcmp(cand->exps[j].name, base->exps[i].name) == 0;
    if (!found) {
      char buf[512];
      snprintf(buf, sizeof buf, "experiment %s is only in CAND", cand->exps[j].name);
      json_array_append_new(c->notes, json_string(buf));
      for (size_t r = 0; !rc && r < cand->exps[j].n_rows; r++)
        rc = push_missing(c, &cand->exps[j], &cand->exps[j].rows[r], false,
                          "only in CAND (experiment not in BASE)");
    }
  }
  if (rc) {
    rigor_comparison_free(c);
    return rc;
  }
  decide(c, opts);
  *out = c;
  return 0;
}

void rigor_comparison_free(rigor_comparison_t *c) {
  if (!c) return;
  free(c->rows);
  json_decref(c->identity_diffs);
  json_decref(c->notes);
  free(c);
}

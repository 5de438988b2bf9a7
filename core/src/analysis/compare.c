#include "compare.h"
#include "suggest.h"

#include "json_diff.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clauses.h"
#include "rigor/plugin.h"

void rigor_compare_opts_default(rigor_compare_opts_t *o) {
  memset(o, 0, sizeof *o);
  o->threshold = 0.02;
  o->alpha = 0.05;
  o->seed = 0x726967u;
  o->resamples = 2000;
  o->session_noise = RIGOR_SESSION_NOISE_DEFAULT;
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

/* The row's identity across files: experiment, plugin, variant axes and point parameters. The
 * experiment is named by BASE's name on both sides, so that a mapped pair matches. */
static char *row_key(const rigor_exp_analysis_t *e, const char *name, const rigor_row_t *w) {
  const json_t *settings = variant_settings(e, w->variant);
  const char *plugin = json_string_value(json_object_get(settings, "plugin"));
  if (!plugin)
    plugin = json_string_value(json_object_get(json_object_get(e->record, "plugin"), "name"));
  const json_t *axes = w->variant < e->n_variants ? e->variants[w->variant].axes : NULL;
  json_t *key =
      json_pack("{s:s, s:s?, s:O?, s:O?, s:s?, s:s?}", "experiment", name, "plugin", plugin, "axes",
                axes, "point", w->point_params, "variant_label", axes ? NULL : w->variant_label,
                "point_label", w->point_params ? NULL : w->point_label);
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
  bool calibrated = b->variant < eb->n_variants && eb->variants[b->variant].iters_auto &&
                    c->variant < ec->n_variants && ec->variants[c->variant].iters_auto;
  if (isfinite(b->iters) && isfinite(c->iters) &&
      ((!calibrated && b->iters != c->iters) || b->agg != c->agg))
    rigor_clause_append(reason, len, "iters x agg differ: %.0f x %.0f -> %.0f x %.0f", b->iters,
                        b->agg, c->iters, c->agg);
  if (b->window && c->window && strcmp(b->window, c->window) != 0)
    rigor_clause_append(reason, len, "timing window differs: %s -> %s", b->window, c->window);
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

/* The sd of one run's log figure that the interval's width comes from: the sides' measured
 * run-to-run spread, or, with one run a side, the cycles' own spread over the cycles per run (a
 * lower bound, since the run level can only add to it; *floor says so). */
static double run_sd(const rigor_figure_t *b, const rigor_figure_t *c, bool *floor) {
  double s = NAN;
  if (b->n_runs >= 2 && c->n_runs >= 2)
    s = sqrt(0.5 * (b->between_run * b->between_run + c->between_run * c->between_run));
  else if (b->n_runs >= 2)
    s = b->between_run;
  else if (c->n_runs >= 2)
    s = c->between_run;
  *floor = !isfinite(s);
  if (!isfinite(s)) {
    double per_run =
        fmax((double)b->n / fmax((double)b->n_runs, 1), (double)c->n / fmax((double)c->n_runs, 1));
    s = fmax(b->within_run, c->within_run) / sqrt(per_run);
  }
  return s;
}

/* The half-width on the log scale that the variation between two sessions adds to a
 * comparison of one file a side: each file is one draw of its session's level. */
static double session_half_width(double session_noise) {
  return session_noise > 0 ? 1.959964 * sqrt(2.0) * log1p(session_noise) : 0;
}

/* The run-level interval widened by the allowance for two sessions (the sd measured between
 * one side's files, else the option's); nothing when the files measured the sessions. */
static double widen_for_sessions(rigor_cmp_row_t *r, const rigor_compare_opts_t *o) {
  if (r->sessions_measured || r->one_run || r->figure_exact || !isfinite(r->ci_lo)) return 0;
  double fixed = session_half_width(isfinite(r->session_sd) ? r->session_sd : o->session_noise);
  double mid = 0.5 * (log(r->ci_lo) + log(r->ci_hi)), h = 0.5 * (log(r->ci_hi) - log(r->ci_lo));
  h = sqrt(h * h + fixed * fixed);
  r->ci_lo = exp(mid - h);
  r->ci_hi = exp(mid + h);
  return fixed;
}

static void measure(rigor_cmp_row_t *r, const rigor_compare_opts_t *o) {
  r->ratio = r->p95_ratio = r->ci_lo = r->ci_hi = r->p = r->p_runs = r->p_holm = r->hl_shift = NAN;
  r->unit_sd = r->session_sd = NAN;
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
  r->unit_sd = run_sd(b, c, &r->unit_sd_floor);
  rigor_run_ratio_t rr;
  r->one_run = rigor_stats_run_ratio(b->values, b->run_of, b->n, c->values, c->run_of, c->n, 0.95,
                                     rigor_decide_relative_quantum(b, c) / sqrt(6.0), &rr) != 0;
  r->runs_base = rr.runs_base;
  r->runs_cand = rr.runs_cand;
  if (!r->one_run) {
    /* Welch's interval over the runs; decide() widens it by the allowance for sessions. */
    r->ci_lo = rr.lo;
    r->ci_hi = rr.hi;
    r->p_runs = rr.p;
    r->floored = rr.floored;
  } else {
    rigor_stats_bootstrap_median_ratio(b->values, b->n, c->values, c->n, o->resamples, 0.95,
                                       o->seed, &r->ci_lo, &r->ci_hi);
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
    keys_c[j] = row_key(ec, eb->name, &ec->rows[j]);
  for (size_t i = 0; !rc && i < eb->n_rows; i++) {
    rigor_cmp_row_t r = {.experiment = eb->name, .base = &eb->rows[i]};
    r.variant_label = eb->rows[i].variant_label;
    r.point_label = eb->rows[i].point_label;
    char *kb = row_key(eb, eb->name, &eb->rows[i]);
    for (size_t j = 0; kb && j < ec->n_rows; j++)
      if (!matched[j] && keys_c[j] && strcmp(kb, keys_c[j]) == 0) {
        r.cand = &ec->rows[j];
        matched[j] = true;
        break;
      }
    free(kb);
    measure(&r, o);
    char invalid[512] = "", unusable[512] = "";
    bool no_data = false;
    if (!r.cand) {
      r.verdict = RIGOR_CMP_MISSING;
      snprintf(r.reason, sizeof r.reason, "only in BASE");
    } else if (incomparable) {
      r.verdict = RIGOR_CMP_INCOMPARABLE;
      snprintf(r.reason, sizeof r.reason, "identity differs (see above)");
    } else {
      rigor_decide_side_problems(r.base, "BASE", invalid, sizeof invalid, unusable, sizeof unusable,
                                 &no_data);
      rigor_decide_side_problems(r.cand, "CAND", invalid, sizeof invalid, unusable, sizeof unusable,
                                 &no_data);
      workload_mismatch(eb, r.base, ec, r.cand, invalid, sizeof invalid);
      if (strcmp(r.base->figure.name, r.cand->figure.name) != 0)
        rigor_clause_append(invalid, sizeof invalid, "judged by %s -> %s", r.base->figure.name,
                            r.cand->figure.name);
      r.to_decide = true;
      snprintf(r.invalid, sizeof r.invalid, "%s", invalid);
      snprintf(r.reason, sizeof r.reason, "%s", unusable);
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

/* Each row's evidence to the one rule (decide.h), after Holm's adjustment of the run-level
 * p-values across the rows (reported beside the interval). */
static void decide(rigor_comparison_t *c, const rigor_compare_opts_t *o) {
  double *p = malloc((c->n_rows ? c->n_rows : 1) * sizeof *p);
  double *adj = malloc((c->n_rows ? c->n_rows : 1) * sizeof *adj);
  if (!p || !adj) {
    free(p), free(adj);
    return;
  }
  for (size_t i = 0; i < c->n_rows; i++) {
    const rigor_cmp_row_t *r = &c->rows[i];
    bool tested = r->to_decide && !r->invalid[0] && !r->one_run && !r->figure_exact;
    p[i] = tested ? r->p_runs : NAN;
  }
  rigor_holm(p, c->n_rows, adj);
  for (size_t i = 0; i < c->n_rows; i++) {
    rigor_cmp_row_t *r = &c->rows[i];
    r->p_holm = adj[i];
    if (!r->to_decide) {
      rigor_cost_of(r->ratio, r->ci_lo, r->ci_hi, r->base && r->base->figure.higher_is_better,
                    &r->cost);
      continue;
    }
    double fixed = widen_for_sessions(r, o);
    rigor_evidence_t e = {
        .ratio = r->ratio,
        .lo = r->ci_lo,
        .hi = r->ci_hi,
        .higher_is_better = r->base->figure.higher_is_better,
        .exact = r->figure_exact,
        .floored = r->floored,
        .threshold = o->threshold,
        .n_units = r->runs_base < r->runs_cand ? r->runs_base : r->runs_cand,
        .unit_sd = r->unit_sd,
        .two_sample = true,
        .unit_sd_floor = r->unit_sd_floor,
        .fixed_half_width = fixed,
        .unit_name = r->sessions_measured ? "files a side" : "runs a side",
        .invalid = r->invalid,
        .unusable = r->reason,
    };
    char have[96];
    if (r->sessions_measured) {
      snprintf(have, sizeof have, "%zu files BASE, %zu CAND", r->files_base, r->files_cand);
      e.n_units = r->files_base < r->files_cand ? r->files_base : r->files_cand;
    } else {
      snprintf(have, sizeof have, "%zu run%s BASE, %zu CAND", r->runs_base,
               r->runs_base == 1 ? "" : "s", r->runs_cand);
    }
    e.units_text = have;
    if (r->one_run && e.n_units > 1) e.n_units = 1;
    rigor_decision_t d;
    rigor_decide(&e, &d);
    r->verdict = d.verdict;
    r->cost = d.cost;
    r->runs_needed = d.units_needed;
    r->runs_needed_floor = e.unit_sd_floor;
    snprintf(r->reason, sizeof r->reason, "%s", d.reason);
    if (r->sessions_measured)
      rigor_clause_append(r->reason, sizeof r->reason,
                          "sessions measured: the interval is over %zu and %zu files",
                          r->files_base, r->files_cand);
    else if (isfinite(r->session_sd) && fixed > 0)
      rigor_clause_append(r->reason, sizeof r->reason,
                          "sessions allowed for: %.2f%%, the spread between one side's files",
                          r->session_sd * 100);
    double change = d.cost.ratio - 1;
    if ((r->verdict == RIGOR_CMP_SLOWER || r->verdict == RIGOR_CMP_FASTER) &&
        (r->p95_ratio - 1) * change < 0)
      rigor_clause_append(r->reason, sizeof r->reason, "P95 moved the other way (%+.2f%%)",
                          (r->p95_ratio - 1) * 100);
  }
  bool assumed = false;
  for (size_t i = 0; i < c->n_rows; i++)
    assumed = assumed || (c->rows[i].to_decide && !c->rows[i].sessions_measured &&
                          !c->rows[i].one_run && !c->rows[i].figure_exact &&
                          !isfinite(c->rows[i].session_sd) && o->session_noise > 0);
  if (assumed) {
    char note[300];
    snprintf(note, sizeof note,
             "intervals allow for the variation between two sessions: %.2f%% a file (the "
             "--session-noise default, not measured; several files a side, BASE... -- CAND..., "
             "measure it)",
             o->session_noise * 100);
    json_array_append_new(c->notes, json_string(note));
  }
  for (size_t i = 0; i < c->n_rows; i++) {
    if (c->rows[i].verdict == RIGOR_CMP_SLOWER) c->regression = true;
    if (o->fail_on & (1u << c->rows[i].verdict)) c->failed = true;
  }
  free(p), free(adj);
}

const char *rigor_compare_cand_name(const rigor_compare_opts_t *o, const char *name) {
  for (size_t i = 0; i < o->n_map; i++) {
    const char *eq = strchr(o->map[i], '=');
    if (eq && (size_t)(eq - o->map[i]) == strlen(name) &&
        strncmp(o->map[i], name, strlen(name)) == 0)
      return eq + 1;
  }
  return name;
}

/* Whether CAND's experiment `name` is some BASE experiment's partner. */
static bool in_base(const rigor_analysis_t *base, const rigor_compare_opts_t *o, const char *name) {
  for (size_t i = 0; i < base->n_exps; i++)
    if (strcmp(rigor_compare_cand_name(o, base->exps[i].name), name) == 0) return true;
  return false;
}

bool rigor_comparison_shares_nothing(const rigor_comparison_t *c) {
  for (size_t i = 0; i < c->n_rows; i++)
    if (c->rows[i].base && c->rows[i].cand) return false;
  return true;
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
  static const rigor_cmp_verdict_t allowed[] = {RIGOR_CMP_UNDETERMINED, RIGOR_CMP_INCONCLUSIVE,
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
      static const char verdicts[] = "undetermined, inconclusive, invalid, incomparable, missing";
      char near[160];
      snprintf(err, errlen,
               "--fail-on takes a comma-separated list of undetermined, inconclusive, invalid, "
               "incomparable or missing, not '%s'%s",
               name, rigor_did_you_mean(name, verdicts, near, sizeof near));
      return RIGOR_EINVAL;
    }
    *bits |= 1u << v;
    p = comma ? comma + 1 : NULL;
  }
  return 0;
}

static bool of_first_file(const rigor_analysis_t *a, const rigor_exp_analysis_t *e) {
  /* By identity: the same path may be given twice, as two sessions. */
  return a->n_sources == 0 || !e->source || e->source == a->sources[0];
}

/* A row's level in each file of a side that holds it: the geometric mean of its run medians
 * (one number per session). Returns how many files gave one; levels gets at most cap. */
static size_t file_levels(const rigor_analysis_t *a, const char *exp_name, const char *key_name,
                          const char *key, double *levels, size_t cap) {
  size_t n = 0;
  for (size_t x = 0; x < a->n_exps && n < cap; x++) {
    const rigor_exp_analysis_t *e = &a->exps[x];
    if (strcmp(e->name, exp_name) != 0) continue;
    for (size_t r = 0; r < e->n_rows; r++) {
      char *k = row_key(e, key_name, &e->rows[r]);
      bool same = k && strcmp(k, key) == 0;
      free(k);
      if (!same) continue;
      const rigor_figure_t *f = &e->rows[r].figure;
      double sum = 0;
      size_t m = 0;
      for (size_t i = 0; i < f->n_runs; i++)
        if (f->run_median[i] > 0) sum += log(f->run_median[i]), m++;
      if (m) levels[n++] = exp(sum / (double)m);
      break;
    }
  }
  return n;
}

/* The sample sd of the logs of n levels; NAN below two. */
static double log_sd(const double *v, size_t n) {
  if (n < 2) return NAN;
  double sum = 0, sum2 = 0;
  for (size_t i = 0; i < n; i++)
    sum += log(v[i]), sum2 += log(v[i]) * log(v[i]);
  double var = (sum2 - sum * sum / (double)n) / (double)(n - 1);
  return sqrt(var > 0 ? var : 0);
}

/* Several files a side (`rigor compare BASE... -- CAND...`): each file is one session. With two
 * or more a side, the interval is Welch's over the files' levels, which holds the variation
 * between sessions as measured; with two or more on one side only, that side's spread between
 * files replaces the default allowance. */
static int sessions(rigor_comparison_t *c, const rigor_analysis_t *base,
                    const rigor_analysis_t *cand) {
  size_t cap = base->n_exps + cand->n_exps + 1;
  double *lb = malloc(cap * sizeof *lb), *lc = malloc(cap * sizeof *lc);
  uint32_t *idx = malloc(cap * sizeof *idx);
  if (!lb || !lc || !idx) {
    free(lb), free(lc), free(idx);
    return RIGOR_ENOMEM;
  }
  for (size_t i = 0; i < cap; i++)
    idx[i] = (uint32_t)i;
  for (size_t i = 0; i < c->n_rows; i++) {
    rigor_cmp_row_t *r = &c->rows[i];
    if (!r->to_decide || r->figure_exact || !isfinite(r->ratio)) continue;
    const rigor_exp_analysis_t *eb = NULL;
    for (size_t x = 0; x < base->n_exps && !eb; x++)
      if (of_first_file(base, &base->exps[x]) && !strcmp(base->exps[x].name, r->experiment))
        eb = &base->exps[x];
    char *key = eb ? row_key(eb, eb->name, r->base) : NULL;
    if (!key) continue;
    const char *partner = rigor_compare_cand_name(&c->opts, eb->name);
    size_t nb = file_levels(base, eb->name, eb->name, key, lb, cap);
    size_t nc = file_levels(cand, partner, eb->name, key, lc, cap);
    free(key);
    r->files_base = nb, r->files_cand = nc;
    if (nb >= 2 && nc >= 2) {
      rigor_run_ratio_t rr;
      if (rigor_stats_run_ratio(lb, idx, nb, lc, idx, nc, 0.95, 0, &rr) == 0) {
        r->ratio = rr.ratio;
        r->ci_lo = rr.lo;
        r->ci_hi = rr.hi;
        r->p_runs = rr.p;
        double sb = log_sd(lb, nb), sc = log_sd(lc, nc);
        r->unit_sd = sqrt(0.5 * (sb * sb + sc * sc));
        r->unit_sd_floor = false;
        r->sessions_measured = true;
      }
    } else if (nb >= 2 || nc >= 2) {
      double sd = nb >= 2 ? log_sd(lb, nb) : log_sd(lc, nc);
      if (isfinite(sd)) r->session_sd = expm1(sd);
    }
  }
  free(lb), free(lc), free(idx);
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
  /* With several files a side the rows come from the first file of each; the others are more
   * sessions of the same rows (sessions below). */
  for (size_t i = 0; !rc && i < base->n_exps; i++) {
    const rigor_exp_analysis_t *eb = &base->exps[i], *ec = NULL;
    if (!of_first_file(base, eb)) continue;
    const char *partner = rigor_compare_cand_name(opts, eb->name);
    for (size_t j = 0; j < cand->n_exps && !ec; j++)
      if (of_first_file(cand, &cand->exps[j]) && strcmp(cand->exps[j].name, partner) == 0)
        ec = &cand->exps[j];
    if (!ec) {
      char buf[512];
      snprintf(buf, sizeof buf, "experiment %s is only in BASE", eb->name);
      json_array_append_new(c->notes, json_string(buf));
      for (size_t r = 0; !rc && r < eb->n_rows; r++)
        rc = push_missing(c, eb, &eb->rows[r], true, "only in BASE (experiment not in CAND)");
      continue;
    }
    if (partner != eb->name) {
      char buf[512];
      snprintf(buf, sizeof buf, "experiment %s in BASE is compared with %s in CAND (--map)",
               eb->name, partner);
      json_array_append_new(c->notes, json_string(buf));
    }
    size_t before = json_array_size(c->identity_diffs);
    experiment_notes(eb, ec, opts, c);
    rc = compare_experiments(eb, ec, opts, json_array_size(c->identity_diffs) > before, c);
  }
  for (size_t j = 0; j < cand->n_exps; j++) {
    if (!of_first_file(cand, &cand->exps[j])) continue;
    if (!in_base(base, opts, cand->exps[j].name)) {
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
  if (base->n_sources > 1 || cand->n_sources > 1) rc = sessions(c, base, cand);
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

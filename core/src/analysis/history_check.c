#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "history.h"
#include "rigor/plugin.h"

typedef enum { JUDGED_OK = 0, JUDGED_REGRESSION, NOT_JUDGED, FLAG } judgement_t;

static const char *const judgement_names[] = {"ok", "regression", "not judged", "flag"};

typedef struct check {
  rigor_store_t *s;
  const rigor_history_t *h;
  rigor_analysis_t **analyses; /* by commit, loaded when the A/B fallback needs them */
  char *err;
  size_t errlen;
} check_t;

static const rigor_analysis_t *analysis_at(check_t *c, size_t commit) {
  if (!c->analyses[commit] &&
      rigor_history_commit_analysis(c->s, c->h, commit, &c->analyses[commit], c->err, c->errlen))
    return NULL;
  return c->analyses[commit];
}

static const rigor_cmp_row_t *matching_row(const rigor_comparison_t *cmp, const rigor_series_t *s) {
  for (size_t i = 0; i < cmp->n_rows; i++) {
    const rigor_cmp_row_t *r = &cmp->rows[i];
    if (strcmp(r->experiment, s->experiment) == 0 && r->variant_label && r->point_label &&
        strcmp(r->variant_label, s->variant) == 0 && strcmp(r->point_label, s->point_label) == 0)
      return r;
  }
  return NULL;
}

/* The variation between sessions as this series shows it: the sd of the log medians of the
 * commits before `at` (each measured in its own session), with at least three of them; the
 * default allowance otherwise. *earlier says how many it read (0: the default). */
static double series_session_noise(const rigor_series_t *s, size_t at, size_t *earlier) {
  double sum = 0, sum2 = 0;
  size_t n = 0;
  for (size_t k = 0; k < at; k++) {
    double v = s->points[k].value;
    if (!(v > 0)) continue;
    sum += log(v), sum2 += log(v) * log(v), n++;
  }
  *earlier = n >= 3 ? n : 0;
  if (n < 3) return RIGOR_SESSION_NOISE_DEFAULT;
  double var = (sum2 - sum * sum / (double)n) / (double)(n - 1);
  return expm1(sqrt(var > 0 ? var : 0));
}

/* rigor compare's verdict on this series' row, the previous commit as BASE, with the series'
 * own commit-to-commit spread as the allowance for sessions. */
static judgement_t contrast(check_t *c, const rigor_series_t *s, size_t at, char *why, size_t len) {
  char prev[64];
  if (at == 0) {
    snprintf(why, len, "A/B: the first commit of the series, nothing to compare with");
    return NOT_JUDGED;
  }
  rigor_history_commit_label(c->h, s->points[at - 1].commit, prev, sizeof prev);
  if (strcmp(s->metric, "time") != 0) {
    snprintf(why, len, "A/B against %s: the contrast judges time only", prev);
    return NOT_JUDGED;
  }
  const rigor_analysis_t *base = analysis_at(c, s->points[at - 1].commit);
  const rigor_analysis_t *cand = analysis_at(c, s->points[at].commit);
  if (!base || !cand) return NOT_JUDGED;
  rigor_compare_opts_t opts;
  rigor_compare_opts_default(&opts);
  size_t earlier = 0;
  opts.session_noise = series_session_noise(s, at, &earlier);
  rigor_comparison_t *cmp = NULL;
  if (rigor_compare(base, cand, &opts, &cmp)) {
    snprintf(why, len, "A/B against %s: the comparison failed", prev);
    return NOT_JUDGED;
  }
  const rigor_cmp_row_t *r = matching_row(cmp, s);
  judgement_t j = NOT_JUDGED;
  if (!r) {
    snprintf(why, len, "A/B against %s: the row is missing on one side", prev);
  } else {
    int n = snprintf(why, len, "A/B against %s (%zu and %zu runs): %s, median %+.2f%%", prev,
                     r->runs_base, r->runs_cand, rigor_cmp_verdict_name(r->verdict),
                     (r->ratio - 1) * 100);
    if (isfinite(r->ci_lo) && n > 0 && (size_t)n < len)
      n += snprintf(why + n, len - (size_t)n, " [%+.2f%%, %+.2f%%]", (r->ci_lo - 1) * 100,
                    (r->ci_hi - 1) * 100);
    if (r->reason[0] && n > 0 && (size_t)n < len)
      n += snprintf(why + n, len - (size_t)n, "; %s", r->reason);
    if (n > 0 && (size_t)n < len) {
      if (earlier)
        snprintf(why + n, len - (size_t)n,
                 "; sessions allowed for: %.2f%% (the spread of %zu earlier commits)",
                 opts.session_noise * 100, earlier);
      else
        snprintf(why + n, len - (size_t)n,
                 "; sessions allowed for: %.2f%% (the default: fewer than 3 earlier commits)",
                 opts.session_noise * 100);
    }
    if (r->runs_base < 2 || r->runs_cand < 2) {
      n = (int)strlen(why);
      if ((size_t)n < len) snprintf(why + n, len - (size_t)n, "; a verdict needs two runs a side");
      rigor_comparison_free(cmp);
      return NOT_JUDGED;
    }
    j = r->verdict == RIGOR_CMP_SLOWER                                   ? JUDGED_REGRESSION
        : r->verdict == RIGOR_CMP_SAME || r->verdict == RIGOR_CMP_FASTER ? JUDGED_OK
                                                                         : NOT_JUDGED;
  }
  rigor_comparison_free(cmp);
  return j;
}

static judgement_t detector(const rigor_series_t *s, const rigor_history_point_t *p, char *why,
                            size_t len) {
  if (p->change < 0) {
    snprintf(why, len, "no change point opens here (detector over %zu stable points)", s->n_stable);
    return JUDGED_OK;
  }
  const rigor_history_change_t *ch = &s->changes[p->change];
  int n = snprintf(why, len, "%s change point opens here: %+.2f%%",
                   ch->regression ? "a regression" : "an improvement", ch->cp.change * 100);
  if (isfinite(ch->lo) && n > 0 && (size_t)n < len)
    n += snprintf(why + n, len - (size_t)n, " [%+.2f%%, %+.2f%%]", ch->lo * 100, ch->hi * 100);
  if (n > 0 && (size_t)n < len)
    snprintf(why + n, len - (size_t)n, ", p %.2g, over %zu points before and %zu after", ch->cp.p,
             ch->cp.n_before, ch->cp.n_after);
  return ch->regression ? JUDGED_REGRESSION : JUDGED_OK;
}

/* Regression change points before `at` that the detector finds only with the point at `at`:
 * what this commit's data newly shows about earlier commits (found late, not opened here). */
static json_t *found_now(const rigor_history_t *h, const rigor_series_t *s, size_t at) {
  json_t *list = json_array();
  double *y = malloc((s->n_points ? s->n_points : 1) * sizeof *y);
  size_t *where = malloc((s->n_points ? s->n_points : 1) * sizeof *where), n = 0;
  for (size_t i = 0; y && where && i < at; i++)
    if (s->points[i].verdict == RIGOR_VERDICT_STABLE) where[n] = i, y[n++] = s->points[i].value;
  rigor_change_point_t *before = NULL;
  size_t n_before = 0;
  if (y && where && rigor_change_points(y, n, &s->cpd, &before, &n_before) == 0) {
    for (size_t k = 0; k < s->n_changes; k++) {
      const rigor_history_change_t *c = &s->changes[k];
      if (!c->regression || c->point >= at) continue;
      bool known = false;
      for (size_t j = 0; j < n_before && !known; j++)
        known = where[before[j].index] == c->point;
      if (known) continue;
      char label[64];
      rigor_history_commit_label(h, s->points[c->point].commit, label, sizeof label);
      json_array_append_new(list, json_pack("{s:s, s:f, s:f}", "commit", label, "change",
                                            c->cp.change, "p", c->cp.p));
    }
  }
  free(before), free(y), free(where);
  return list;
}

static judgement_t judge(check_t *c, const rigor_series_t *s, size_t at, const char **method,
                         char *why, size_t len) {
  const rigor_history_point_t *p = &s->points[at];
  if (s->flag) {
    *method = "flag";
    if (strcmp(s->unit, "bool") != 0)
      snprintf(why, len, "%g at this commit (a state of the run: shown, not a performance series)",
               p->value);
    else
      snprintf(why, len, "%s at this commit (a flag, unit bool: shown, not a performance series)",
               p->value == 1   ? "on"
               : p->value == 0 ? "off"
                               : "mixed");
    return FLAG;
  }
  if (p->verdict != RIGOR_VERDICT_STABLE) {
    *method = "gate";
    snprintf(why, len, "%s (%s): left out of detection", rigor_verdict_name(p->verdict), p->reason);
    return NOT_JUDGED;
  }
  if (s->n_stable >= RIGOR_HISTORY_MIN_POINTS) {
    *method = "detector";
    return detector(s, p, why, len);
  }
  *method = "ab";
  size_t n = strlen(why);
  snprintf(why + n, len - n, "%zu stable points < %d: ", s->n_stable, RIGOR_HISTORY_MIN_POINTS);
  n = strlen(why);
  return contrast(c, s, at, why + n, len - n);
}

int rigor_history_check(rigor_store_t *s, const rigor_history_t *h, size_t commit, FILE *out,
                        bool json, bool *regression, char *err, size_t errlen) {
  *regression = false;
  check_t c = {.s = s, .h = h, .err = err, .errlen = errlen};
  c.analyses = calloc(h->n_commits ? h->n_commits : 1, sizeof *c.analyses);
  if (!c.analyses) return RIGOR_ENOMEM;
  char label[64];
  rigor_history_commit_label(h, commit, label, sizeof label);
  json_t *rows = json_array();
  size_t judged = 0, regressed = 0, flags = 0;
  for (size_t i = 0; i < h->n_series; i++) {
    const rigor_series_t *ser = &h->series[i];
    size_t at = ser->n_points;
    while (at > 0 && ser->points[at - 1].commit != commit)
      at--;
    if (at == 0) continue;
    char why[1024] = "";
    const char *method = "";
    judgement_t j = judge(&c, ser, at - 1, &method, why, sizeof why);
    judged += j != FLAG;
    flags += j == FLAG;
    regressed += j == JUDGED_REGRESSION;
    json_t *late = found_now(h, ser, at - 1);
    if (json) {
      json_array_append_new(rows, json_pack("{s:s, s:s, s:s, s:s, s:O}", "series", ser->name,
                                            "verdict", judgement_names[j], "method", method, "why",
                                            why, "found_now", late));
    } else {
      fprintf(out, "%-10s %s: %s\n", judgement_names[j], ser->name, why);
      size_t k;
      json_t *cp;
      json_array_foreach(late, k, cp) {
        fprintf(out,
                "note       %s: with this commit's data a regression change point shows at %s "
                "(%+.2f%%, p %.2g)\n",
                ser->name, json_string_value(json_object_get(cp, "commit")),
                json_real_value(json_object_get(cp, "change")) * 100,
                json_real_value(json_object_get(cp, "p")));
      }
    }
    json_decref(late);
  }
  for (size_t k = 0; k < h->n_commits; k++)
    rigor_analysis_free(c.analyses[k]);
  free(c.analyses);
  *regression = regressed > 0;
  if (json) {
    json_t *doc = json_pack("{s:s, s:s, s:b, s:I, s:I, s:o}", "schema", "rigor.history-check/1",
                            "commit", h->commits[commit].commit ? h->commits[commit].commit : label,
                            "regression", regressed > 0, "series_judged", (json_int_t)judged,
                            "regressions", (json_int_t)regressed, "series", rows);
    json_dumpf(doc, out, JSON_INDENT(2));
    fputc('\n', out);
    json_decref(doc);
  } else {
    json_decref(rows);
    char shown[64] = "";
    if (flags) snprintf(shown, sizeof shown, " (and %zu flags, not judged)", flags);
    fprintf(out, "%s: %zu series%s, %zu regressions: %s\n", label, judged, shown, regressed,
            regressed ? "REGRESSION" : "no regression");
  }
  if (!judged && !flags) {
    snprintf(err, errlen, "commit %s has no series%s", label, " matching the filter");
    return RIGOR_ENOENT;
  }
  return 0;
}

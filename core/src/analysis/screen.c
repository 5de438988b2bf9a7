#include "screen.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decide.h"
#include "inference.h"
#include "rigor/plugin.h"

static const char *const verdict_names[] = {"same", "slow", "fast", "inconclusive", "failed"};

const char *rigor_screen_verdict_name(rigor_screen_verdict_t v) {
  return v < RIGOR_SCREEN_VERDICT_COUNT ? verdict_names[v] : "?";
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The first experiment's rows of a node's results, or NULL. */
static const rigor_exp_analysis_t *exp_of(const rigor_screen_input_t *in) {
  return in->analysis && in->analysis->n_exps ? &in->analysis->exps[0] : NULL;
}

static const rigor_row_t *row_of(const rigor_screen_input_t *in, const rigor_row_t *like) {
  const rigor_exp_analysis_t *e = exp_of(in);
  for (size_t i = 0; e && i < e->n_rows; i++)
    if (e->rows[i].variant == like->variant && e->rows[i].point == like->point &&
        e->rows[i].figure.n_runs > 0)
      return &e->rows[i];
  return NULL;
}

/* Why a node has nothing for a row: its runs' first reason, or that it has no such row. */
static void no_data(const rigor_screen_input_t *in, const rigor_row_t *like, char *buf,
                    size_t len) {
  if (!in->analysis) {
    snprintf(buf, len, "%s", in->failure ? in->failure : "no results");
    return;
  }
  const rigor_exp_analysis_t *e = exp_of(in);
  for (size_t i = 0; e && i < e->n_runs; i++)
    if (e->runs[i].status != RIGOR_RUN_OK && e->runs[i].variant == like->variant) {
      snprintf(buf, len, "run %u %s: %s", e->runs[i].run, rigor_run_status_names[e->runs[i].status],
               e->runs[i].reason ? e->runs[i].reason : "no reason given");
      return;
    }
  snprintf(buf, len, "no usable sample for this row");
}

static double mean_log(const rigor_figure_t *f) {
  double s = 0;
  for (size_t j = 0; j < f->n_runs; j++)
    s += log(f->run_median[j]);
  return s / (double)f->n_runs;
}

/* One node's paired interval at `level` of its runs' log ratios to the fleet. */
static int interval(const rigor_row_t *w, double fleet_log, double level, rigor_paired_t *pt) {
  const rigor_figure_t *f = &w->figure;
  double *d = malloc(f->n_runs * sizeof *d);
  if (!d) return RIGOR_ENOMEM;
  for (size_t j = 0; j < f->n_runs; j++)
    d[j] = log(f->run_median[j]) - fleet_log;
  double value = exp(mean_log(f));
  double floor = value > 0 && f->quantum > 0 ? f->quantum / value / 2 : 0;
  int rc = rigor_stats_paired(d, f->n_runs, level, floor, pt);
  free(d);
  return rc;
}

static int judge_row(const rigor_screen_input_t *in, size_t n, const rigor_row_t *like,
                     const char *row_label, rigor_screen_t *s) {
  const rigor_row_t **rows = calloc(n, sizeof *rows);
  double *logs = calloc(n, sizeof *logs), *p = calloc(n, sizeof *p), *adj = calloc(n, sizeof *adj);
  size_t *order = calloc(n, sizeof *order);
  rigor_screen_entry_t *grown = realloc(s->items, (s->n + n) * sizeof *grown);
  if (!rows || !logs || !p || !adj || !order || !grown) {
    free(rows), free(logs), free(p), free(adj), free(order);
    if (grown) s->items = grown;
    return RIGOR_ENOMEM;
  }
  s->items = grown;
  size_t m = 0;
  for (size_t i = 0; i < n; i++)
    if ((rows[i] = row_of(&in[i], like))) logs[m++] = mean_log(&rows[i]->figure);
  qsort(logs, m, sizeof *logs, cmp_double);
  double fleet_log = m % 2 ? logs[m / 2] : (logs[m / 2 - 1] + logs[m / 2]) / 2;
  /* First pass at 1 - alpha for each node's p; Holm then sets each interval's level. */
  for (size_t i = 0; i < n; i++) {
    rigor_paired_t pt;
    p[i] = rows[i] && rows[i]->figure.n_runs >= 2 &&
                   interval(rows[i], fleet_log, 1 - s->alpha, &pt) == 0
               ? pt.p
               : NAN;
  }
  rigor_holm(p, n, adj);
  size_t judged = 0;
  for (size_t i = 0; i < n; i++)
    if (!isnan(p[i])) order[judged++] = i;
  for (size_t a = 0; a < judged; a++) /* ascending p: the rank of each judged node */
    for (size_t b = a + 1; b < judged; b++)
      if (p[order[b]] < p[order[a]]) {
        size_t t = order[a];
        order[a] = order[b], order[b] = t;
      }
  for (size_t i = 0; i < n; i++) {
    rigor_screen_entry_t *x = &s->items[s->n++];
    *x = (rigor_screen_entry_t){.node = in[i].node,
                                .row = strdup(row_label),
                                .figure = like->figure.name,
                                .unit = like->figure.unit,
                                .higher_is_better = like->figure.higher_is_better,
                                .value = NAN,
                                .fleet = exp(fleet_log),
                                .ratio = NAN,
                                .lo = NAN,
                                .hi = NAN,
                                .level = NAN,
                                .p = p[i],
                                .p_holm = adj[i]};
    if (!rows[i]) {
      x->verdict = RIGOR_SCREEN_FAILED;
      no_data(&in[i], like, x->reason, sizeof x->reason);
      s->count[x->verdict]++;
      continue;
    }
    const rigor_figure_t *f = &rows[i]->figure;
    x->n_runs = f->n_runs;
    x->value = exp(mean_log(f));
    size_t rank = 0;
    while (rank < judged && order[rank] != i)
      rank++;
    x->level = 1 - s->alpha / (double)(judged > rank ? judged - rank : 1);
    rigor_paired_t pt = {0};
    bool have = f->n_runs >= 2 && interval(rows[i], fleet_log, x->level, &pt) == 0;
    x->ratio = x->value / x->fleet;
    if (have) x->lo = exp(pt.lo), x->hi = exp(pt.hi);
    char units[64];
    snprintf(units, sizeof units, "%zu run%s on this node", f->n_runs, f->n_runs == 1 ? "" : "s");
    rigor_evidence_t e = {
        .ratio = x->ratio,
        .lo = have ? x->lo : NAN,
        .hi = have ? x->hi : NAN,
        .higher_is_better = f->higher_is_better,
        .exact = f->half_width == 0,
        .floored = have && pt.floored,
        .threshold = s->threshold,
        .n_units = f->n_runs,
        .unit_sd = have ? pt.sd : NAN,
        .unit_name = "runs",
        .units_text = units,
    };
    rigor_decision_t d;
    rigor_decide(&e, &d);
    x->verdict = d.verdict == RIGOR_CMP_SLOWER   ? RIGOR_SCREEN_SLOW
                 : d.verdict == RIGOR_CMP_FASTER ? RIGOR_SCREEN_FAST
                 : d.verdict == RIGOR_CMP_SAME   ? RIGOR_SCREEN_SAME
                                                 : RIGOR_SCREEN_INCONCLUSIVE;
    snprintf(x->reason, sizeof x->reason, "%s", d.reason);
    s->count[x->verdict]++;
  }
  free(rows), free(logs), free(p), free(adj), free(order);
  return 0;
}

int rigor_screen_judge(const rigor_screen_input_t *in, size_t n_nodes, double threshold,
                       double alpha, rigor_screen_t *out, char *err, size_t errlen) {
  memset(out, 0, sizeof *out);
  out->threshold = threshold;
  out->alpha = alpha;
  /* The rows are those of the first node with results: every node ran the same file. */
  const rigor_exp_analysis_t *e = NULL;
  for (size_t i = 0; i < n_nodes && !e; i++)
    e = exp_of(&in[i]);
  if (!e) {
    snprintf(err, errlen, "no node has results to judge");
    for (size_t i = 0; i < n_nodes && i < 1; i++)
      snprintf(err, errlen, "no node has results to judge (%s: %s)", in[i].node,
               in[i].failure ? in[i].failure : "no results");
    return RIGOR_EINVAL;
  }
  for (size_t r = 0; r < e->n_rows; r++) {
    const rigor_row_t *w = &e->rows[r];
    char label[512];
    bool point = w->point_label && w->point_label[0];
    snprintf(label, sizeof label, "%s%s%s", w->variant_label ? w->variant_label : "-",
             point ? " / " : "", point ? w->point_label : "");
    if (judge_row(in, n_nodes, w, label, out) != 0) {
      snprintf(err, errlen, "out of memory");
      return RIGOR_ENOMEM;
    }
  }
  return 0;
}

void rigor_screen_free(rigor_screen_t *s) {
  for (size_t i = 0; i < s->n; i++)
    free(s->items[i].row);
  free(s->items);
  memset(s, 0, sizeof *s);
}

/* Adds each node of pair "a+b" to `nodes` (name -> [pairs seen, pairs bad]) for one row. */
static void count_pair(json_t *nodes, const char *pair, bool bad) {
  char both[1024];
  snprintf(both, sizeof both, "%s", pair);
  char *plus = strchr(both, '+');
  if (!plus) return;
  *plus = '\0';
  const char *members[2] = {both, plus + 1};
  for (size_t m = 0; m < 2; m++) {
    json_t *c = json_object_get(nodes, members[m]);
    if (!c) json_object_set_new(nodes, members[m], c = json_pack("[i, i]", 0, 0));
    json_array_set_new(c, 0, json_integer(json_integer_value(json_array_get(c, 0)) + 1));
    json_array_set_new(c, 1, json_integer(json_integer_value(json_array_get(c, 1)) + bad));
  }
}

static int by_name(const void *a, const void *b) {
  return strcmp(json_string_value(*(json_t *const *)a), json_string_value(*(json_t *const *)b));
}

json_t *rigor_screen_suspects(const rigor_screen_t *s) {
  json_t *out = json_array(), *seen = json_object();
  if (!out || !seen) return json_decref(out), json_decref(seen), NULL;
  /* Row by row: items come by row, then unit. */
  for (size_t i = 0; i < s->n;) {
    size_t j = i, good = 0;
    json_t *nodes = json_object();
    /* A pair is bad where it is slow or failed (a link that does not work at all). */
    for (; j < s->n && strcmp(s->items[j].row, s->items[i].row) == 0; j++) {
      bool bad =
          s->items[j].verdict == RIGOR_SCREEN_SLOW || s->items[j].verdict == RIGOR_SCREEN_FAILED;
      good += !bad;
      count_pair(nodes, s->items[j].node, bad);
    }
    const char *name;
    json_t *c;
    json_object_foreach(nodes, name, c) {
      json_int_t pairs = json_integer_value(json_array_get(c, 0));
      /* Where no pair is good, no node stands out. */
      if (good && pairs >= 2 && json_integer_value(json_array_get(c, 1)) == pairs &&
          !json_object_get(seen, name)) {
        json_object_set_new(seen, name, json_true());
        json_array_append_new(out, json_string(name));
      }
    }
    json_decref(nodes);
    i = j;
  }
  json_decref(seen);
  /* jansson keeps no order of its own worth showing: by name. */
  size_t n = json_array_size(out);
  json_t **names = calloc(n ? n : 1, sizeof *names);
  if (!names) return json_decref(out), NULL;
  for (size_t i = 0; i < n; i++)
    names[i] = json_incref(json_array_get(out, i));
  qsort(names, n, sizeof *names, by_name);
  json_array_clear(out);
  for (size_t i = 0; i < n; i++)
    json_array_append_new(out, names[i]);
  free(names);
  return out;
}

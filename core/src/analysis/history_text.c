#include <math.h>
#include <string.h>

#include "history.h"
#include "report.h"

static void fmt_value(const rigor_series_t *s, double v, char *buf, size_t len) {
  if (strcmp(s->metric, "time") == 0) {
    rigor_fmt_time(buf, len, v);
    return;
  }
  rigor_fmt_number(buf, len, v);
  if (isfinite(v) && s->unit[0]) snprintf(buf + strlen(buf), len - strlen(buf), " %s", s->unit);
}

static void fmt_change(const rigor_history_change_t *c, char *buf, size_t len) {
  int n = snprintf(buf, len, "%+.2f%%", c->cp.change * 100);
  if (isfinite(c->lo))
    n += snprintf(buf + n, len - (size_t)n, " [%+.2f%%, %+.2f%%]", c->lo * 100, c->hi * 100);
  snprintf(buf + n, len - (size_t)n, " p %.2g %s", c->cp.p,
           c->regression ? "REGRESSION" : "improvement");
}

static void print_series(const rigor_history_t *h, const rigor_series_t *s, FILE *out) {
  char title[1400];
  snprintf(title, sizeof title,
           "%s (%s is better): %zu points, %zu stable; detector p <= %.3g, magnitude > %.3g%%, "
           "window %u",
           s->name, s->higher_better ? "higher" : "lower", s->n_points, s->n_stable,
           s->cpd.significance, s->cpd.min_magnitude * 100, s->cpd.window);
  static const char *const hd[] = {"commit",        "date", "runs",    "median",
                                   "95% CI (runs)", "CV",   "verdict", "change point"};
  rigor_table_t *t = rigor_table_new(title, 8, hd);
  for (size_t i = 0; t && i < s->n_points; i++) {
    const rigor_history_point_t *p = &s->points[i];
    const rigor_store_point_t *c = &h->commits[p->commit];
    char cell[8][256], lo[64], hi[64];
    rigor_history_commit_label(h, p->commit, cell[0], sizeof cell[0]);
    if (c->dirty > 0) snprintf(cell[0] + strlen(cell[0]), 16, " dirty");
    snprintf(cell[1], sizeof cell[1], "%.16s",
             c->date          ? c->date
             : c->imported_at ? c->imported_at
                              : "-");
    snprintf(cell[2], sizeof cell[2], "%zu", p->runs);
    fmt_value(s, p->value, cell[3], sizeof cell[3]);
    if (isfinite(p->lo)) {
      fmt_value(s, p->lo, lo, sizeof lo);
      fmt_value(s, p->hi, hi, sizeof hi);
      snprintf(cell[4], sizeof cell[4], "[%s, %s]", lo, hi);
    } else {
      snprintf(cell[4], sizeof cell[4], "-");
    }
    rigor_fmt_percent(cell[5], sizeof cell[5], p->cv, 0);
    snprintf(cell[6], sizeof cell[6], "%s%s%s%s", rigor_verdict_name(p->verdict),
             p->reason[0] ? " (" : "", p->reason, p->reason[0] ? ")" : "");
    if (p->change >= 0)
      fmt_change(&s->changes[p->change], cell[7], sizeof cell[7]);
    else
      snprintf(cell[7], sizeof cell[7], "-");
    const char *cells[8];
    for (int k = 0; k < 8; k++)
      cells[k] = cell[k];
    rigor_table_add(t, cells);
  }
  if (t) rigor_table_print(t, RIGOR_FORMAT_TEXT, out);
  rigor_table_free(t);
  if (!s->n_changes) {
    fprintf(out, "no change point\n\n");
    return;
  }
  for (size_t k = 0; k < s->n_changes; k++) {
    const rigor_history_change_t *c = &s->changes[k];
    char label[64], before[64], after[64], change[256];
    rigor_history_commit_label(h, s->points[c->point].commit, label, sizeof label);
    fmt_value(s, c->cp.mean_before, before, sizeof before);
    fmt_value(s, c->cp.mean_after, after, sizeof after);
    fmt_change(c, change, sizeof change);
    fprintf(out, "change point at %s: %s; mean %s (%zu points) -> %s (%zu points)\n", label, change,
            before, c->cp.n_before, after, c->cp.n_after);
  }
  fputc('\n', out);
}

void rigor_history_print(const rigor_history_t *h, FILE *out) {
  if (!h->n_series) {
    fprintf(out, "no series (%zu commits in the store)\n", h->n_commits);
    return;
  }
  size_t regressions = 0, changes = 0;
  for (size_t i = 0; i < h->n_series; i++) {
    print_series(h, &h->series[i], out);
    changes += h->series[i].n_changes;
    for (size_t k = 0; k < h->series[i].n_changes; k++)
      regressions += h->series[i].changes[k].regression;
  }
  fprintf(out, "%zu series over %zu commits: %zu change points, %zu regressions\n", h->n_series,
          h->n_commits, changes, regressions);
}

#include <math.h>
#include <string.h>

#include "history_doc.h"
#include "html.h"
#include "report.h"

/* The trend plot of a series in inline SVG (no script, nothing fetched): the median and interval
 * per commit, change points marked, short SHAs on the x axis. */

enum { W = 900, LEFT = 90, RIGHT = 20, TOP = 24, PLOT_H = 240, BOTTOM = 70 };

static const char *const regress_color = "#d62728", *const improve_color = "#2ca02c";

static void fmt_value(const rigor_series_t *s, double v, char *buf, size_t len) {
  if (strcmp(s->metric, "time") == 0) {
    rigor_fmt_time(buf, len, v);
    return;
  }
  rigor_fmt_number(buf, len, v);
  if (isfinite(v) && s->unit[0]) snprintf(buf + strlen(buf), len - strlen(buf), " %s", s->unit);
}

static double px(size_t i, size_t n) {
  double span = W - LEFT - RIGHT;
  return LEFT + (n > 1 ? span * (double)i / (double)(n - 1) : span / 2);
}

static double py(double v, double lo, double hi) {
  return TOP + PLOT_H - (v - lo) / (hi - lo) * PLOT_H;
}

static void y_range(const rigor_series_t *s, double *lo, double *hi) {
  *lo = INFINITY, *hi = -INFINITY;
  for (size_t i = 0; i < s->n_points; i++) {
    const rigor_history_point_t *p = &s->points[i];
    double a = isfinite(p->lo) ? p->lo : p->value, b = isfinite(p->hi) ? p->hi : p->value;
    if (isfinite(a)) *lo = fmin(*lo, a);
    if (isfinite(b)) *hi = fmax(*hi, b);
  }
  if (!isfinite(*lo)) *lo = 0, *hi = 1;
  if (!(*hi > *lo)) {
    double pad = fabs(*lo) * 0.05 + 1e-12;
    *lo -= pad, *hi += pad;
  }
  double pad = (*hi - *lo) * 0.08;
  *lo -= pad, *hi += pad;
}

static void axes(const rigor_history_t *h, const rigor_series_t *s, double lo, double hi,
                 FILE *out) {
  fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#888\"/>\n", LEFT,
          TOP + PLOT_H, W - RIGHT, TOP + PLOT_H);
  fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#888\"/>\n", LEFT, TOP, LEFT,
          TOP + PLOT_H);
  for (int k = 0; k <= 4; k++) {
    double v = lo + (hi - lo) * k / 4;
    char buf[64];
    fmt_value(s, v, buf, sizeof buf);
    double y = py(v, lo, hi);
    fprintf(out,
            "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#eee\"/>\n"
            "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">",
            LEFT, y, W - RIGHT, y, LEFT - 6, y + 4);
    /* The unit comes from the stored results, which anyone may have written. */
    rigor_html_escape(out, buf);
    fputs("</text>\n", out);
  }
  /* Short SHAs under their points, thinned to about 40 labels. */
  size_t every = s->n_points / 40 + 1;
  for (size_t i = 0; i < s->n_points; i++) {
    if (i % every && i + 1 != s->n_points && s->points[i].change < 0) continue;
    char label[64];
    const char *sha = h->commits[s->points[i].commit].commit;
    if (sha)
      snprintf(label, sizeof label, "%.7s", sha);
    else
      rigor_history_commit_label(h, s->points[i].commit, label, sizeof label);
    double x = px(i, s->n_points);
    fprintf(out,
            "<text x=\"%.1f\" y=\"%d\" text-anchor=\"end\" transform=\"rotate(-45 %.1f %d)\" "
            "class=\"sha\">",
            x, TOP + PLOT_H + 14, x, TOP + PLOT_H + 14);
    rigor_html_escape(out, label);
    fputs("</text>\n", out);
  }
}

/* Segment means between change points, from the detector's own segments. */
static void segments(const rigor_series_t *s, double lo, double hi, FILE *out) {
  size_t start = 0;
  for (size_t k = 0; k <= s->n_changes; k++) {
    size_t end = k < s->n_changes ? s->changes[k].point : s->n_points;
    double mean = k < s->n_changes ? s->changes[k].cp.mean_before
                  : s->n_changes   ? s->changes[s->n_changes - 1].cp.mean_after
                                   : NAN;
    if (isfinite(mean) && end > start)
      fprintf(out,
              "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#999\" "
              "stroke-width=\"2\" stroke-dasharray=\"6 3\"/>\n",
              px(start, s->n_points), py(mean, lo, hi), px(end - 1, s->n_points), py(mean, lo, hi));
    start = end;
  }
}

static void trend_svg(const rigor_history_t *h, const rigor_series_t *s, FILE *out) {
  double lo, hi;
  y_range(s, &lo, &hi);
  fprintf(out,
          "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
          "class=\"chart\">\n",
          W, TOP + PLOT_H + BOTTOM);
  axes(h, s, lo, hi, out);
  for (size_t k = 0; k < s->n_changes; k++) {
    const rigor_history_change_t *c = &s->changes[k];
    double x = (px(c->point, s->n_points) + px(c->point ? c->point - 1 : 0, s->n_points)) / 2;
    const char *color = c->regression ? regress_color : improve_color;
    fprintf(out,
            "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" "
            "stroke-width=\"2\" class=\"change\"/>\n"
            "<text x=\"%.1f\" y=\"%d\" fill=\"%s\" text-anchor=\"middle\">%+.1f%%</text>\n",
            x, TOP, x, TOP + PLOT_H, color, x, TOP - 8, color, c->cp.change * 100);
  }
  segments(s, lo, hi, out);
  fputs("<polyline fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"1\" points=\"", out);
  for (size_t i = 0; i < s->n_points; i++)
    if (s->points[i].verdict == RIGOR_VERDICT_STABLE)
      fprintf(out, "%.1f,%.1f ", px(i, s->n_points), py(s->points[i].value, lo, hi));
  fputs("\"/>\n", out);
  for (size_t i = 0; i < s->n_points; i++) {
    const rigor_history_point_t *p = &s->points[i];
    if (!isfinite(p->value)) continue;
    double x = px(i, s->n_points);
    bool stable = p->verdict == RIGOR_VERDICT_STABLE;
    if (isfinite(p->lo))
      fprintf(out,
              "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
              "stroke-width=\"2\"/>\n",
              x, py(p->lo, lo, hi), x, py(p->hi, lo, hi), stable ? "#1f77b4" : "#bbb");
    char v[64];
    fmt_value(s, p->value, v, sizeof v);
    fprintf(out,
            "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\" stroke=\"%s\" "
            "class=\"%s\"><title>",
            x, py(p->value, lo, hi), stable ? "#1f77b4" : "#fff", stable ? "#1f77b4" : "#999",
            stable ? "point" : "unstable");
    char label[64];
    rigor_history_commit_label(h, p->commit, label, sizeof label);
    rigor_html_escape(out, label);
    fputs(": ", out);
    rigor_html_escape(out, v);
    fprintf(out, ", %zu runs, %s", p->runs, rigor_verdict_name(p->verdict));
    if (p->reason[0]) {
      fputs(" (", out);
      rigor_html_escape(out, p->reason);
      fputs(")", out);
    }
    fputs("</title></circle>\n", out);
  }
  fputs("</svg>\n", out);
}

typedef struct trend_figure {
  const rigor_history_t *h;
  const rigor_series_t *s;
} trend_figure_t;

static void trend_figure(const void *arg, FILE *out) {
  const trend_figure_t *f = arg;
  trend_svg(f->h, f->s, out);
}

void rigor_history_trend(rigor_doc_t *doc, const rigor_history_t *h, const rigor_series_t *s) {
  trend_figure_t f = {h, s};
  rigor_doc_figure(doc, trend_figure, &f, sizeof f);
}

#include <math.h>
#include <string.h>

#include "history.h"
#include "report.h"

/* One self-contained page: a trend plot per series in inline SVG (no script, nothing fetched),
 * grouped by experiment, each followed by its change points. */

enum { W = 900, LEFT = 90, RIGHT = 20, TOP = 24, PLOT_H = 240, BOTTOM = 70 };

static const char *const regress_color = "#d62728", *const improve_color = "#2ca02c";

static void esc(FILE *out, const char *s) {
  for (; s && *s; s++) {
    if (*s == '<')
      fputs("&lt;", out);
    else if (*s == '>')
      fputs("&gt;", out);
    else if (*s == '&')
      fputs("&amp;", out);
    else if (*s == '"')
      fputs("&quot;", out);
    else
      fputc(*s, out);
  }
}

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
            "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
            LEFT, y, W - RIGHT, y, LEFT - 6, y + 4, buf);
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
    esc(out, label);
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
    esc(out, label);
    fprintf(out, ": %s, %zu runs, %s", v, p->runs, rigor_verdict_name(p->verdict));
    if (p->reason[0]) {
      fputs(" (", out);
      esc(out, p->reason);
      fputs(")", out);
    }
    fputs("</title></circle>\n", out);
  }
  fputs("</svg>\n", out);
}

static void changes_table(const rigor_history_t *h, const rigor_series_t *s, FILE *out) {
  if (!s->n_changes) {
    fputs("<p class=\"legend\">no change point</p>\n", out);
    return;
  }
  fputs("<table>\n<tr><th>commit</th><th>change</th><th>95% CI</th><th>p</th><th>mean "
        "before</th><th>mean after</th><th>kind</th></tr>\n",
        out);
  for (size_t k = 0; k < s->n_changes; k++) {
    const rigor_history_change_t *c = &s->changes[k];
    char label[64], before[64], after[64];
    rigor_history_commit_label(h, s->points[c->point].commit, label, sizeof label);
    fmt_value(s, c->cp.mean_before, before, sizeof before);
    fmt_value(s, c->cp.mean_after, after, sizeof after);
    fputs("<tr><td>", out);
    esc(out, label);
    fprintf(out, "</td><td>%+.2f%%</td>", c->cp.change * 100);
    if (isfinite(c->lo))
      fprintf(out, "<td>[%+.2f%%, %+.2f%%]</td>", c->lo * 100, c->hi * 100);
    else
      fputs("<td>-</td>", out);
    fprintf(out, "<td>%.2g</td><td>%s</td><td>%s</td><td class=\"%s\">%s</td></tr>\n", c->cp.p,
            before, after, c->regression ? "bad" : "good",
            c->regression ? "regression" : "improvement");
  }
  fputs("</table>\n", out);
}

int rigor_history_write_html(const rigor_history_t *h, FILE *out) {
  fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<title>rigor history</title>\n<style>\n"
        "body{font-family:sans-serif;margin:2em;color:#222;background:#fff}\n"
        "table{border-collapse:collapse;margin:0.5em 0 1.5em}\n"
        "th,td{border:1px solid #bbb;padding:2px 8px;text-align:right;font-size:13px}\n"
        "th{background:#eee}\ntd.good{background:#d9f2d9}\ntd.bad{background:#f8d7d7}\n"
        "svg.chart{border:1px solid #ddd;font-size:11px}\ntext.sha{font-family:monospace}\n"
        ".legend{font-size:12px;color:#444}\n"
        "</style>\n</head>\n<body>\n<h1>rigor history</h1>\n",
        out);
  fprintf(out,
          "<p class=\"legend\">%zu commits, %zu series. Each point: the median at that commit "
          "with the 95%% interval of its runs; hollow points are unstable and left out of "
          "detection; vertical lines mark change points (red: regression, green: "
          "improvement); dashed lines are the segment means.</p>\n",
          h->n_commits, h->n_series);
  for (size_t i = 0; i < h->n_series; i++) {
    const rigor_series_t *s = &h->series[i];
    if (i == 0 || strcmp(s->experiment, h->series[i - 1].experiment) != 0) {
      fputs("<h2>experiment ", out);
      esc(out, s->experiment);
      fputs("</h2>\n", out);
    }
    fputs("<h3>", out);
    esc(out, s->name);
    fprintf(out,
            " <small>(%s is better; p &le; %.3g, magnitude &gt; %.3g%%, window %u)</small></h3>\n",
            s->higher_better ? "higher" : "lower", s->cpd.significance, s->cpd.min_magnitude * 100,
            s->cpd.window);
    trend_svg(h, s, out);
    changes_table(h, s, out);
  }
  fputs("</body>\n</html>\n", out);
  return ferror(out) ? -1 : 0;
}

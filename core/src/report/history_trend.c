#include <math.h>
#include <stdio.h>
#include <string.h>

#include "chart.h"
#include "history_trend.h"
#include "writers.h"
#include "labels.h"
#include "report.h"

/* The trend plot of a series in inline SVG (no script, nothing fetched): the median and interval
 * per commit, change points marked, short SHAs under the x axis. The y axis is the charts' own
 * (chart.c): ticks at 1, 2 or 5 times a power of ten in one unit, over the span of the values
 * and their intervals; each commit sits in the middle of its own slot, so that the first and
 * last points stay inside the frame. */

enum { VIEW_W = 1200, LEFT = 110, RIGHT = 30, TOP = 28, PLOT_H = 260, BOTTOM = 84 };

static bool is_time(const rigor_series_t *s) {
  return strcmp(s->metric, "time") == 0;
}

static void hover_value(const rigor_series_t *s, double v, char *buf, size_t len) {
  if (is_time(s)) {
    rigor_fmt_time(buf, len, v);
    return;
  }
  rigor_fmt_number(buf, len, v);
  if (isfinite(v) && s->unit[0]) snprintf(buf + strlen(buf), len - strlen(buf), " %s", s->unit);
}

static double slot_x(const rigor_frame_t *f, size_t i, size_t n) {
  return f->left + f->width * ((double)i + 0.5) / (double)(n ? n : 1);
}

/* The span of the values and their intervals. */
static void value_span(const rigor_series_t *s, double *lo, double *hi) {
  *lo = INFINITY, *hi = -INFINITY;
  for (size_t i = 0; i < s->n_points; i++) {
    const rigor_history_point_t *p = &s->points[i];
    double v[3] = {p->value, p->lo, p->hi};
    for (int k = 0; k < 3; k++)
      if (isfinite(v[k])) *lo = fmin(*lo, v[k]), *hi = fmax(*hi, v[k]);
  }
  if (!isfinite(*lo)) *lo = 0, *hi = 1;
}

static void commit_labels(const rigor_history_t *h, const rigor_series_t *s, const rigor_frame_t *f,
                          FILE *out) {
  double base = f->top + f->height;
  /* Turned labels stand about a line apart; thinned so that none overlap. */
  double spacing = f->width / (double)(s->n_points ? s->n_points : 1);
  size_t every = rigor_chart_label_every(s->n_points, spacing, 8);
  for (size_t i = 0; i < s->n_points; i++) {
    double x = slot_x(f, i, s->n_points);
    fprintf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#000\"/>\n", x, x,
            base, base + 4);
    if (i % every && s->points[i].change < 0) continue;
    char label[64];
    const char *sha = h->commits[s->points[i].commit].commit;
    if (sha)
      snprintf(label, sizeof label, "%.7s", sha);
    else
      rigor_history_commit_label(h, s->points[i].commit, label, sizeof label);
    fprintf(out,
            "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" transform=\"rotate(-45 %.1f %.1f)\" "
            "class=\"sha\">",
            x, base + 14, x, base + 14);
    rigor_html_escape(out, label);
    fputs("</text>\n", out);
  }
  fprintf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#000\"/>\n", f->left,
          f->left + f->width, base, base);
  fprintf(out,
          "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" class=\"title\">commit, oldest "
          "first</text>\n",
          f->left + f->width / 2, (double)f->view_h - 6);
}

/* Segment means between change points, from the detector's own segments. */
static void segments(const rigor_series_t *s, const rigor_frame_t *f, const rigor_axis_t *y,
                     FILE *out) {
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
              slot_x(f, start, s->n_points), rigor_frame_y(f, y, mean),
              slot_x(f, end - 1, s->n_points), rigor_frame_y(f, y, mean));
    start = end;
  }
}

void rigor_history_series_title(const rigor_series_t *s, char *buf, size_t len) {
  const char *parts[] = {s->experiment, s->variant, s->point_label, s->metric};
  rigor_label_join(buf, len, " / ", parts, 4);
  size_t used = strlen(buf);
  if (s->nodes && used < len) snprintf(buf + used, len - used, " @ %s", s->nodes);
}

static void trend_svg(const rigor_history_t *h, const rigor_series_t *s, FILE *out) {
  double lo, hi;
  value_span(s, &lo, &hi);
  rigor_axis_t y;
  rigor_axis_linear(&y, is_time(s) ? RIGOR_COL_TIME : RIGOR_COL_NUMBER, lo, hi, 6);
  rigor_frame_t f = rigor_frame_in(VIEW_W, LEFT, RIGHT, TOP, PLOT_H, BOTTOM);
  char title[1200], axis_title[200];
  rigor_history_series_title(s, title, sizeof title);
  rigor_chart_open(out, &f, title);
  if (is_time(s))
    rigor_axis_title(&y, "time per operation", axis_title, sizeof axis_title);
  else if (s->unit[0])
    snprintf(axis_title, sizeof axis_title, "%s (%s)", s->metric, s->unit);
  else
    snprintf(axis_title, sizeof axis_title, "%s", s->metric);
  rigor_chart_y_axis(out, &f, &y, axis_title);
  commit_labels(h, s, &f, out);
  static const char *const regress_color = "#D55E00", *const improve_color = "#009E73";
  for (size_t k = 0; k < s->n_changes; k++) {
    const rigor_history_change_t *c = &s->changes[k];
    double x = c->point
                   ? (slot_x(&f, c->point, s->n_points) + slot_x(&f, c->point - 1, s->n_points)) / 2
                   : slot_x(&f, 0, s->n_points);
    const char *color = c->regression ? regress_color : improve_color;
    fprintf(out,
            "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
            "stroke-width=\"2\" class=\"change\"/>\n"
            "<text x=\"%.1f\" y=\"%.1f\" fill=\"%s\" text-anchor=\"middle\">%+.1f%%</text>\n",
            x, f.top, x, f.top + f.height, color, x, f.top - 8, color, c->cp.change * 100);
  }
  segments(s, &f, &y, out);
  fputs("<polyline fill=\"none\" stroke=\"#0072B2\" stroke-width=\"1\" points=\"", out);
  for (size_t i = 0; i < s->n_points; i++)
    if (s->points[i].verdict == RIGOR_VERDICT_STABLE && isfinite(s->points[i].value))
      fprintf(out, "%.1f,%.1f ", slot_x(&f, i, s->n_points),
              rigor_frame_y(&f, &y, s->points[i].value));
  fputs("\"/>\n", out);
  for (size_t i = 0; i < s->n_points; i++) {
    const rigor_history_point_t *p = &s->points[i];
    if (!isfinite(p->value)) continue;
    double x = slot_x(&f, i, s->n_points);
    bool stable = p->verdict == RIGOR_VERDICT_STABLE;
    if (isfinite(p->lo) && isfinite(p->hi))
      fprintf(out,
              "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
              "stroke-width=\"2\"/>\n",
              x, rigor_frame_y(&f, &y, p->lo), x, rigor_frame_y(&f, &y, p->hi),
              stable ? "#0072B2" : "#bbb");
    char v[64], label[64];
    hover_value(s, p->value, v, sizeof v);
    fprintf(out,
            "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\" stroke=\"%s\" "
            "class=\"%s\"><title>",
            x, rigor_frame_y(&f, &y, p->value), stable ? "#0072B2" : "#fff",
            stable ? "#0072B2" : "#999", stable ? "point" : "unstable");
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
  rigor_chart_close(out);
  fputs("<p class=\"legend\">filled dots: stable medians, joined; open dots: unstable (left out "
        "of detection); bars: 95% interval over runs; dashed: segment means; vertical lines: "
        "change points (<span style=\"color:#D55E00\">&#9632;</span> regression, <span "
        "style=\"color:#009E73\">&#9632;</span> improvement)</p>\n",
        out);
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

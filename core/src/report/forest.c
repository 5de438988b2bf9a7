#include "forest.h"

#include <math.h>
#include <string.h>

#include "chart.h"
#include "writers.h"

enum { VIEW_W = 1200, LABEL_W = 380, RIGHT = 40, TOP = 12, ROW = 24, BOTTOM = 50 };

rigor_forest_item_t rigor_forest_judged(const char *label, const rigor_cost_t *cost,
                                        rigor_cmp_verdict_t verdict) {
  return (rigor_forest_item_t){.label = label,
                               .ratio = cost->ratio,
                               .lo = cost->lo,
                               .hi = cost->hi,
                               .show_ratio = true,
                               .color = rigor_chart_verdict_color(verdict)};
}

void rigor_forest_svg(FILE *out, const char *heading, const char *axis_title,
                      const rigor_forest_item_t *items, size_t n, double threshold) {
  double lo = 1 / (1 + 2 * threshold), hi = 1 + 2 * threshold;
  size_t shown = 0;
  for (size_t i = 0; i < n; i++) {
    const rigor_forest_item_t *it = &items[i];
    if (!isfinite(it->ratio) || it->ratio <= 0) continue;
    shown++;
    lo = fmin(lo, it->ratio), hi = fmax(hi, it->ratio);
    if (isfinite(it->lo) && it->lo > 0) lo = fmin(lo, it->lo);
    if (isfinite(it->hi)) hi = fmax(hi, it->hi);
  }
  if (!shown) return;
  /* Nice ratio ticks (1-2-5 steps) placed on a log scale, so that 0.5x and 2x sit equally far
   * from 1. */
  rigor_axis_t ticks;
  rigor_axis_linear(&ticks, RIGOR_COL_NUMBER, lo, hi, 8);
  rigor_axis_t x = ticks;
  x.log = true;
  x.lo = lo / 1.02, x.hi = hi * 1.02;
  x.n_ticks = 0;
  bool one = false; /* 1 (no change) is always a tick */
  for (size_t i = 0; i < ticks.n_ticks; i++) {
    double v = ticks.ticks[i];
    if (!one && v > 1 + 1e-9 && x.lo < 1 && x.n_ticks < RIGOR_AXIS_MAX_TICKS)
      x.ticks[x.n_ticks++] = 1;
    one = one || v >= 1 - 1e-9; /* 1.0000000001 is 1: one tick there, not two */
    if (v > 0 && v >= x.lo && v <= x.hi && x.n_ticks < RIGOR_AXIS_MAX_TICKS)
      x.ticks[x.n_ticks++] = v;
  }
  if (hi / lo > 20) rigor_axis_log(&x, RIGOR_COL_NUMBER, lo, hi);
  rigor_frame_t f = {.left = LABEL_W,
                     .top = TOP,
                     .width = VIEW_W - LABEL_W - RIGHT,
                     .height = (double)shown * ROW,
                     .view_w = VIEW_W,
                     .view_h = TOP + (int)shown * ROW + BOTTOM};
  rigor_chart_open(out, &f, heading);
  /* Labels: the tick formatter of a log axis of plain numbers writes "%g"; keep the linear
   * step's decimals instead ("0.98", "1.00"). */
  double base = f.top + f.height;
  int decimals = x.log && hi / lo > 20 ? -1 : (int)fmax(0, -floor(log10(ticks.step) + 1e-9));
  /* Ticks crowd at one end of a log axis: their labels every k-th where they would touch. */
  double spacing = INFINITY, widest = 0;
  for (size_t i = 0; i < x.n_ticks; i++) {
    char label[32];
    if (decimals < 0)
      snprintf(label, sizeof label, "%g×", x.ticks[i]);
    else
      snprintf(label, sizeof label, "%.*f×", decimals, x.ticks[i]);
    widest = fmax(widest, rigor_chart_text_width(label));
    double gap = i ? rigor_frame_x(&f, &x, x.ticks[i]) - rigor_frame_x(&f, &x, x.ticks[i - 1]) : 0;
    if (gap > 0.5) spacing = fmin(spacing, gap); /* 1 may be there twice: one place, no gap */
  }
  size_t every = rigor_chart_label_every(x.n_ticks, spacing, widest);
  for (size_t i = 0; i < x.n_ticks; i++) {
    double px = rigor_frame_x(&f, &x, x.ticks[i]);
    fprintf(out,
            "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>\n"
            "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#000\"/>\n",
            px, px, f.top, base, px, px, base, base + 5);
    if (i % every) continue;
    if (decimals < 0)
      fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g×</text>\n", px, base + 18,
              x.ticks[i]);
    else
      fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%.*f×</text>\n", px,
              base + 18, decimals, x.ticks[i]);
  }
  fprintf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#000\"/>\n", f.left,
          f.left + f.width, base, base);
  fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" class=\"title\">",
          f.left + f.width / 2, base + 38);
  rigor_html_escape(out, axis_title);
  fputs("</text>\n", out);
  double marks[3] = {1, 1 + threshold, 1 / (1 + threshold)};
  for (int m = 0; m < 3; m++) {
    if (!(marks[m] > x.lo && marks[m] < x.hi)) continue;
    double px = rigor_frame_x(&f, &x, marks[m]);
    fprintf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"%s/>\n", px,
            px, f.top, base, m ? "#777" : "#000", m ? " stroke-dasharray=\"4,3\"" : "");
  }
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    const rigor_forest_item_t *it = &items[i];
    if (!isfinite(it->ratio) || it->ratio <= 0) continue;
    double y = f.top + (double)k++ * ROW + ROW / 2.0;
    fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", f.left - 8, y + 4);
    rigor_html_escape(out, it->label);
    fputs("</text>\n", out);
    if (isfinite(it->lo) && isfinite(it->hi) && it->lo > 0)
      fprintf(out,
              "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
              "stroke-width=\"2.5\"/>\n",
              rigor_frame_x(&f, &x, fmax(it->lo, x.lo)), rigor_frame_x(&f, &x, fmin(it->hi, x.hi)),
              y, y, it->color);
    if (it->show_ratio)
      fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\" fill=\"%s\"/>\n",
              rigor_frame_x(&f, &x, it->ratio), y, it->color);
  }
  rigor_chart_close(out);
  fprintf(out,
          "<p class=\"legend\">bar: 95%% interval; dot: the ratio; solid line: 1 (no change); "
          "dashed: the threshold (±%.2g%%); ",
          threshold * 100);
  rigor_chart_verdict_legend(out);
  fputs("</p>\n", out);
}

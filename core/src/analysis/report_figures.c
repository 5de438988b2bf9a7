#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "report.h"

/* Charts are inline SVG written here: the page stays one self-contained file with no script,
 * no network and no dependency beyond libc, and the text is deterministic and diffable. */

static const char *const palette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                      "#9467bd", "#8c564b", "#e377c2", "#17becf"};
#define COLOR(i) palette[(i) % (sizeof palette / sizeof *palette)]

enum { W = 860, LEFT = 170, RIGHT = 20, TOP = 20, PLOT_H = 220, BOTTOM = 40 };

static void axis_range(double *lo, double *hi) {
  if (!(*hi > *lo)) {
    double pad = fabs(*lo) * 0.05 + 1e-12;
    *lo -= pad;
    *hi += pad;
  }
  double pad = (*hi - *lo) * 0.05;
  *lo -= pad;
  *hi += pad;
}

static double sx(double v, double lo, double hi) {
  return LEFT + (v - lo) / (hi - lo) * (W - LEFT - RIGHT);
}

static void x_ticks(FILE *out, double lo, double hi, double y, bool time_axis) {
  for (int k = 0; k <= 4; k++) {
    double v = lo + (hi - lo) * k / 4;
    char buf[48];
    if (time_axis)
      rigor_fmt_time(buf, sizeof buf, v);
    else
      snprintf(buf, sizeof buf, "%.0f", v);
    fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n", sx(v, lo, hi),
            y + 16, buf);
  }
}

/* Per point: one strip per variant with every sample, the median (thick) and P95 (thin). */
static void distribution_svg(const rigor_exp_analysis_t *e, uint32_t point, FILE *out) {
  double lo = INFINITY, hi = -INFINITY;
  size_t strips = 0;
  const char *label = NULL;
  for (size_t r = 0; r < e->n_rows; r++)
    if (e->rows[r].point == point && e->rows[r].n) {
      lo = fmin(lo, e->rows[r].time.min);
      hi = fmax(hi, e->rows[r].time.max);
      strips++;
      label = e->rows[r].point_label;
    }
  if (!strips) return;
  axis_range(&lo, &hi);
  int strip_h = 36, h = TOP + (int)strips * strip_h + BOTTOM;
  fputs("<h4>distribution, point ", out);
  rigor_html_escape(out, label ? label : "-");
  fprintf(out,
          "</h4>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
          "class=\"chart\">\n",
          W, h);
  size_t k = 0;
  for (size_t r = 0; r < e->n_rows; r++) {
    const rigor_row_t *w = &e->rows[r];
    if (w->point != point || !w->n) continue;
    double y = TOP + (double)k * strip_h + strip_h / 2.0;
    fprintf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">", LEFT - 8, y + 4);
    rigor_html_escape(out, w->variant_label ? w->variant_label : "?");
    fputs("</text>\n", out);
    size_t stride = w->n > 2000 ? w->n / 2000 : 1;
    for (size_t i = 0; i < w->n; i += stride)
      fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2\" fill=\"%s\" fill-opacity=\"0.5\"/>\n",
              sx(w->times[i], lo, hi), y + (double)((i * 7) % 13) - 6, COLOR(w->variant));
    fprintf(out,
            "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#000\" "
            "stroke-width=\"3\"/>\n",
            sx(w->time.median, lo, hi), sx(w->time.median, lo, hi), y - 12, y + 12);
    fprintf(out,
            "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#555\" "
            "stroke-dasharray=\"3,2\"/>\n",
            sx(w->time.p95, lo, hi), sx(w->time.p95, lo, hi), y - 12, y + 12);
    k++;
  }
  double base = TOP + (double)strips * strip_h;
  fprintf(out, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#000\"/>\n", LEFT,
          W - RIGHT, base, base);
  x_ticks(out, lo, hi, base, true);
  fputs("</svg>\n<p class=\"legend\">dots: samples; thick line: median; dashed: P95</p>\n", out);
}

/* Per point: every sample in execution order (run, then cycle), coloured by variant. */
static void position_svg(const rigor_exp_analysis_t *e, uint32_t point, FILE *out) {
  double lo = INFINITY, hi = -INFINITY, max_x = 0;
  uint32_t max_cycle = 0;
  bool any = false;
  for (size_t r = 0; r < e->n_rows; r++)
    if (e->rows[r].point == point)
      for (size_t i = 0; i < e->rows[r].n; i++) {
        lo = fmin(lo, e->rows[r].times[i]);
        hi = fmax(hi, e->rows[r].times[i]);
        max_cycle = e->rows[r].cycle_of[i] > max_cycle ? e->rows[r].cycle_of[i] : max_cycle;
        any = true;
      }
  if (!any) return;
  for (size_t r = 0; r < e->n_rows; r++)
    if (e->rows[r].point == point)
      for (size_t i = 0; i < e->rows[r].n; i++)
        max_x =
            fmax(max_x, (double)e->rows[r].run_of[i] * (max_cycle + 1) + e->rows[r].cycle_of[i]);
  axis_range(&lo, &hi);
  int h = TOP + PLOT_H + BOTTOM;
  fprintf(out,
          "<h4>cycle by execution position</h4>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
          "width=\"%d\" height=\"%d\" class=\"chart\">\n",
          W, h);
  double x_lo = -0.5, x_hi = max_x + 0.5;
  for (size_t r = 0; r < e->n_rows; r++) {
    const rigor_row_t *w = &e->rows[r];
    if (w->point != point) continue;
    size_t stride = w->n > 4000 ? w->n / 4000 : 1;
    for (size_t i = 0; i < w->n; i += stride) {
      double x = (double)w->run_of[i] * (max_cycle + 1) + w->cycle_of[i];
      double y = TOP + PLOT_H - (w->times[i] - lo) / (hi - lo) * PLOT_H;
      fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"/>\n", sx(x, x_lo, x_hi),
              y, COLOR(w->variant));
    }
  }
  for (int k = 0; k <= 4; k++) {
    double v = lo + (hi - lo) * k / 4;
    char buf[48];
    rigor_fmt_time(buf, sizeof buf, v);
    fprintf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", LEFT - 8,
            TOP + PLOT_H - (double)k / 4 * PLOT_H + 4, buf);
  }
  fprintf(out, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"#000\"/>\n", LEFT, W - RIGHT,
          TOP + PLOT_H, TOP + PLOT_H);
  x_ticks(out, x_lo, x_hi, TOP + PLOT_H, false);
  fputs("</svg>\n<p class=\"legend\">x: run x cycles + cycle (execution order); colour: "
        "variant</p>\n",
        out);
}

/* Raw telemetry from run records ("telemetry_raw": [{t, signal: value, ...}]), one chart per
 * signal, coloured by variant. */
static void telemetry_svg(const rigor_exp_analysis_t *e, FILE *out) {
  json_t *signals = json_object();
  for (size_t k = 0; k < e->n_runs; k++) {
    size_t i;
    json_t *s;
    json_array_foreach(json_object_get(e->runs[k].record, "telemetry_raw"), i, s) {
      const char *key;
      json_t *v;
      json_object_foreach(s, key, v) {
        if (strcmp(key, "t") != 0 && json_is_number(v))
          json_object_set_new(signals, key, json_true());
      }
    }
  }
  const char *name;
  json_t *unused;
  json_object_foreach(signals, name, unused) {
    double lo = INFINITY, hi = -INFINITY, t_hi = 0;
    for (int pass = 0; pass < 2; pass++) {
      if (pass == 1) {
        axis_range(&lo, &hi);
        fputs("<h4>telemetry: ", out);
        rigor_html_escape(out, name);
        fprintf(out,
                "</h4>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                "class=\"chart\">\n",
                W, TOP + PLOT_H + BOTTOM);
      }
      double offset = 0;
      for (size_t k = 0; k < e->n_runs; k++) {
        json_t *raw = json_object_get(e->runs[k].record, "telemetry_raw");
        size_t i;
        json_t *s;
        double run_end = offset;
        json_array_foreach(raw, i, s) {
          double t = json_number_value(json_object_get(s, "t")) + offset;
          json_t *v = json_object_get(s, name);
          if (!json_is_number(v)) continue;
          double y = json_number_value(v);
          run_end = fmax(run_end, t);
          if (pass == 0) {
            lo = fmin(lo, y);
            hi = fmax(hi, y);
          } else {
            fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"1.5\" fill=\"%s\"/>\n",
                    sx(t, 0, t_hi > 0 ? t_hi : 1), TOP + PLOT_H - (y - lo) / (hi - lo) * PLOT_H,
                    COLOR(e->runs[k].variant));
          }
        }
        offset = run_end;
      }
      t_hi = offset;
    }
    for (int k = 0; k <= 4; k++)
      fprintf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.4g</text>\n", LEFT - 8,
              TOP + PLOT_H - (double)k / 4 * PLOT_H + 4, lo + (hi - lo) * k / 4);
    fputs("</svg>\n<p class=\"legend\">x: time across runs in execution order; colour: "
          "variant</p>\n",
          out);
  }
  json_decref(signals);
}

static void legend(const rigor_exp_analysis_t *e, FILE *out) {
  fputs("<p class=\"legend\">", out);
  for (size_t v = 0; v < e->n_variants; v++) {
    fprintf(out, "<span style=\"color:%s\">&#9679;</span> ", COLOR(v));
    rigor_html_escape(out, e->variants[v].label ? e->variants[v].label : "?");
    fputs(" &nbsp; ", out);
  }
  fputs("</p>\n", out);
}

typedef struct point_figure {
  const rigor_exp_analysis_t *e;
  uint32_t point;
} point_figure_t;

static void legend_figure(const void *arg, FILE *out) {
  legend(*(const rigor_exp_analysis_t *const *)arg, out);
}

static void distribution_figure(const void *arg, FILE *out) {
  const point_figure_t *f = arg;
  distribution_svg(f->e, f->point, out);
}

static void position_figure(const void *arg, FILE *out) {
  const point_figure_t *f = arg;
  position_svg(f->e, f->point, out);
}

static void telemetry_figure(const void *arg, FILE *out) {
  telemetry_svg(*(const rigor_exp_analysis_t *const *)arg, out);
}

void rigor_report_figures(rigor_doc_t *doc, const rigor_exp_analysis_t *e) {
  rigor_doc_figure(doc, legend_figure, &e, sizeof e);
  uint32_t max_point = 0;
  for (size_t r = 0; r < e->n_rows; r++)
    max_point = e->rows[r].point > max_point ? e->rows[r].point : max_point;
  for (uint32_t p = 0; e->n_rows && p <= max_point; p++) {
    point_figure_t f = {e, p};
    rigor_doc_figure(doc, distribution_figure, &f, sizeof f);
    rigor_doc_figure(doc, position_figure, &f, sizeof f);
  }
  rigor_doc_figure(doc, telemetry_figure, &e, sizeof e);
}

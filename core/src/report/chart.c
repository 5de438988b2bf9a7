#include "chart.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "writers.h"
#include "units.h"

/* Okabe & Ito (2008), without the yellow, which is hard to see on white. */
static const char *const palette[] = {"#0072B2", "#D55E00", "#009E73", "#E69F00",
                                      "#CC79A7", "#56B4E9", "#000000"};
const char *const rigor_chart_worse = "#D55E00", *const rigor_chart_better = "#009E73",
                  *const rigor_chart_same = "#0072B2", *const rigor_chart_undecided = "#999999";

const char *rigor_chart_verdict_color(rigor_cmp_verdict_t v) {
  switch (v) {
  case RIGOR_CMP_SLOWER:
    return rigor_chart_worse;
  case RIGOR_CMP_FASTER:
    return rigor_chart_better;
  case RIGOR_CMP_SAME:
    return rigor_chart_same;
  case RIGOR_CMP_INVALID:
    return "#000000";
  case RIGOR_CMP_INCOMPARABLE:
    return "#CC79A7";
  case RIGOR_CMP_UNDETERMINED:
    return "#56B4E9";
  case RIGOR_CMP_MISSING:
    return "#E69F00";
  default:
    return rigor_chart_undecided;
  }
}

void rigor_chart_verdict_legend(FILE *out) {
  fputs("colour: verdict (", out);
  for (int v = 0; v < RIGOR_CMP_VERDICT_COUNT; v++)
    fprintf(out, "%s<span style=\"color:%s\">&#9632;</span> %s", v ? ", " : "",
            rigor_chart_verdict_color((rigor_cmp_verdict_t)v),
            rigor_cmp_verdict_name((rigor_cmp_verdict_t)v));
  fputs(")", out);
}

double rigor_chart_text_width(const char *label) {
  /* Counting UTF-8 lead bytes: "µs" is two characters, not three bytes. */
  size_t chars = 0;
  for (const unsigned char *p = (const unsigned char *)label; *p; p++)
    chars += (*p & 0xC0) != 0x80;
  return 7.0 * (double)chars;
}

size_t rigor_chart_label_every(size_t n, double spacing, double width) {
  if (n < 2 || !(spacing > 0)) return 1;
  size_t every = (size_t)ceil((width + 8) / spacing);
  return every ? every : 1;
}

const char *rigor_chart_color(size_t i) {
  size_t n = sizeof palette / sizeof *palette;
  return palette[i < n ? i : n - 1];
}

static double nice_step(double raw) {
  double mag = pow(10, floor(log10(raw))), norm = raw / mag;
  return (norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 5 ? 5 : 10) * mag;
}

static double max_abs(double lo, double hi) {
  return fmax(fabs(lo), fabs(hi));
}

void rigor_axis_linear(rigor_axis_t *a, rigor_col_kind_t kind, double lo, double hi, int target) {
  memset(a, 0, sizeof *a);
  a->kind = kind;
  if (!isfinite(lo) || !isfinite(hi)) lo = 0, hi = 1;
  if (hi < lo) {
    double t = lo;
    lo = hi, hi = t;
  }
  if (!(hi > lo)) {
    double pad = fabs(lo) > 0 ? fabs(lo) * 0.05 : 1;
    lo -= pad, hi += pad;
  }
  a->step = nice_step((hi - lo) / (target > 1 ? target : 2));
  a->lo = floor(lo / a->step + 1e-9) * a->step;
  a->hi = ceil(hi / a->step - 1e-9) * a->step;
  for (double v = a->lo; v <= a->hi + a->step * 1e-6 && a->n_ticks < RIGOR_AXIS_MAX_TICKS;
       v += a->step)
    a->ticks[a->n_ticks++] = fabs(v) < a->step * 1e-6 ? 0 : v;
  /* One unit for the axis, from its largest magnitude: 1500 µs reads 1.5 ms. */
  double m = max_abs(a->lo, a->hi);
  a->unit = rigor_unit_for(kind, m, m);
}

void rigor_axis_integral(rigor_axis_t *a) {
  if (a->log || a->step >= 1) return;
  a->step = 1;
  a->lo = floor(a->lo), a->hi = ceil(a->hi);
  if (!(a->hi > a->lo)) a->hi = a->lo + 1;
  a->n_ticks = 0;
  for (double v = a->lo; v <= a->hi && a->n_ticks < RIGOR_AXIS_MAX_TICKS; v++)
    a->ticks[a->n_ticks++] = v;
}

bool rigor_axis_wants_log(double lo, double hi) {
  return lo > 0 && isfinite(hi) && hi / lo >= 100;
}

void rigor_axis_log(rigor_axis_t *a, rigor_col_kind_t kind, double lo, double hi) {
  memset(a, 0, sizeof *a);
  a->kind = kind;
  a->log = true;
  if (!(lo > 0)) lo = hi > 0 ? hi / 10 : 1;
  if (!(hi > lo)) hi = lo * 10;
  if (kind == RIGOR_COL_SIZE) {
    double e_lo = floor(log2(lo)), e_hi = ceil(log2(hi)), span = e_hi - e_lo;
    double every = span <= 10 ? 1 : span <= 20 ? 2 : ceil(span / 10);
    e_lo = floor(e_lo / every) * every;
    a->lo = exp2(e_lo), a->hi = exp2(e_hi);
    for (double e = e_lo; e <= e_hi && a->n_ticks < RIGOR_AXIS_MAX_TICKS; e += every)
      a->ticks[a->n_ticks++] = exp2(e);
  } else {
    double d_lo = floor(log10(lo) + 1e-9), d_hi = ceil(log10(hi) - 1e-9);
    if (d_hi <= d_lo) d_hi = d_lo + 1;
    a->lo = pow(10, d_lo), a->hi = pow(10, d_hi);
    bool fine = d_hi - d_lo < 3;
    for (double d = d_lo; d <= d_hi && a->n_ticks < RIGOR_AXIS_MAX_TICKS; d++) {
      static const double mult[] = {1, 2, 5};
      for (int k = 0; k < (fine ? 3 : 1); k++) {
        double v = mult[k] * pow(10, d);
        if (v <= a->hi * (1 + 1e-9) && a->n_ticks < RIGOR_AXIS_MAX_TICKS)
          a->ticks[a->n_ticks++] = v;
      }
    }
  }
  a->unit = rigor_unit_for(kind, a->ticks[0], a->ticks[a->n_ticks - 1]);
  if (kind == RIGOR_COL_NUMBER || kind == RIGOR_COL_COUNT) a->unit = (rigor_unit_t){1, "", -1};
}

void rigor_axis_use_unit(rigor_axis_t *a, rigor_unit_t u) {
  if (!u.name || !u.name[0] || !(u.scale > 0) || a->kind == RIGOR_COL_SIZE) return;
  a->unit = u;
  a->page_unit = true;
}

double rigor_axis_at(const rigor_axis_t *a, double v) {
  if (a->log) return (log(v) - log(a->lo)) / (log(a->hi) - log(a->lo));
  return (v - a->lo) / (a->hi - a->lo);
}

void rigor_axis_tick_label(const rigor_axis_t *a, double v, char *buf, size_t len) {
  if (a->kind == RIGOR_COL_SIZE && v >= 1 && v < 1.8e19 && v == floor(v)) {
    char *s = rigor_format_size((uint64_t)v);
    snprintf(buf, len, "%s", s ? s : "?");
    free(s);
    return;
  }
  bool fraction = a->kind == RIGOR_COL_FRACTION || a->kind == RIGOR_COL_CHANGE;
  double scale = fraction ? 0.01 : a->unit.scale > 0 ? a->unit.scale : 1;
  double shown = v / scale;
  if (a->log && a->page_unit) {
    snprintf(buf, len, "%g", shown);
  } else if (a->log && a->unit.name[0]) {
    /* A log axis spans decades that no one unit reads well: each tick in its own ("10 MB/s",
     * "1 GB/s"), which 1-2-5 steps keep from mixing within a decade. */
    rigor_unit_t own = rigor_unit_for(a->kind, fabs(v), fabs(v));
    snprintf(buf, len, "%g %s", v / own.scale, own.name);
  } else if (a->log && fabs(shown) >= 1e5) {
    int exp10 = (int)floor(log10(fabs(shown)) + 1e-9);
    snprintf(buf, len, "%ge%d", shown / pow(10, exp10), exp10); /* "2e6", never "2e+06" */
  } else if (a->log) {
    snprintf(buf, len, "%g", shown);
  } else {
    int decimals = (int)fmax(0, -floor(log10(a->step / scale) + 1e-9));
    snprintf(buf, len, "%.*f", decimals, fabs(shown) < a->step / scale * 1e-6 ? 0.0 : shown);
  }
  if (fraction) strncat(buf, "%", len - strlen(buf) - 1);
}

void rigor_axis_title(const rigor_axis_t *a, const char *what, char *buf, size_t len) {
  const char *u = a->kind == RIGOR_COL_SIZE || (a->log && !a->page_unit) ? "" : a->unit.name;
  if (u && u[0])
    snprintf(buf, len, "%s (%s%s)", what, u, a->log ? ", log scale" : "");
  else
    snprintf(buf, len, "%s%s", what, a->log ? " (log scale)" : "");
}

rigor_frame_t rigor_frame_in(int view_w, double left, double right, double top, double height,
                             double bottom) {
  return (rigor_frame_t){.left = left,
                         .top = top,
                         .width = view_w - left - right,
                         .height = height,
                         .view_w = view_w,
                         .view_h = (int)(top + height + bottom)};
}

void rigor_chart_open(FILE *out, const rigor_frame_t *f, const char *heading) {
  fputs("<h4>", out);
  rigor_html_escape(out, heading);
  fprintf(out,
          "</h4>\n<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" width=\"%d\" "
          "height=\"%d\" class=\"chart\" role=\"img\">\n<title>",
          f->view_w, f->view_h, f->view_w, f->view_h);
  rigor_html_escape(out, heading);
  fputs("</title>\n", out);
}

void rigor_chart_close(FILE *out) {
  fputs("</svg>\n", out);
}

double rigor_frame_x(const rigor_frame_t *f, const rigor_axis_t *x, double v) {
  return f->left + rigor_axis_at(x, v) * f->width;
}

double rigor_frame_y(const rigor_frame_t *f, const rigor_axis_t *y, double v) {
  return f->top + f->height - rigor_axis_at(y, v) * f->height;
}

void rigor_chart_x_axis(FILE *out, const rigor_frame_t *f, const rigor_axis_t *x,
                        const char *title) {
  double base = f->top + f->height;
  char label[64];
  /* Labels no wider than the space between ticks: every k-th one when they would touch. */
  double widest = 0, spacing = INFINITY;
  for (size_t i = 0; i < x->n_ticks; i++) {
    rigor_axis_tick_label(x, x->ticks[i], label, sizeof label);
    widest = fmax(widest, rigor_chart_text_width(label));
    double gap =
        i ? fabs(rigor_frame_x(f, x, x->ticks[i]) - rigor_frame_x(f, x, x->ticks[i - 1])) : 0;
    if (gap > 0.5) spacing = fmin(spacing, gap);
  }
  size_t every = rigor_chart_label_every(x->n_ticks, spacing, widest);
  for (size_t i = 0; i < x->n_ticks; i++) {
    double px = rigor_frame_x(f, x, x->ticks[i]);
    fprintf(out,
            "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>\n"
            "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#000\"/>\n",
            px, px, f->top, base, px, px, base, base + 5);
    if (i % every) continue;
    rigor_axis_tick_label(x, x->ticks[i], label, sizeof label);
    /* The end labels keep inside the view box. */
    const char *anchor = i + 1 == x->n_ticks && px > f->view_w - 30 ? "end" : "middle";
    fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">", px, base + 18, anchor);
    rigor_html_escape(out, label);
    fputs("</text>\n", out);
  }
  fprintf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#000\"/>\n", f->left,
          f->left + f->width, base, base);
  fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" class=\"title\">",
          f->left + f->width / 2, base + 38);
  rigor_html_escape(out, title);
  fputs("</text>\n", out);
}

void rigor_chart_y_axis(FILE *out, const rigor_frame_t *f, const rigor_axis_t *y,
                        const char *title) {
  char label[64];
  for (size_t i = 0; i < y->n_ticks; i++) {
    double py = rigor_frame_y(f, y, y->ticks[i]);
    fprintf(out,
            "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>\n"
            "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#000\"/>\n",
            f->left, f->left + f->width, py, py, f->left - 5, f->left, py, py);
    rigor_axis_tick_label(y, y->ticks[i], label, sizeof label);
    fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", f->left - 8, py + 4);
    rigor_html_escape(out, label);
    fputs("</text>\n", out);
  }
  fprintf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#000\"/>\n", f->left,
          f->left, f->top, f->top + f->height);
  double cx = 16, cy = f->top + f->height / 2;
  fprintf(out,
          "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" class=\"title\" "
          "transform=\"rotate(-90 %.1f %.1f)\">",
          cx, cy, cx, cy);
  rigor_html_escape(out, title);
  fputs("</text>\n", out);
}

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "writers.h"
#include "labels.h"
#include "report.h"

/* Charts are inline SVG written here: the page stays one self-contained file with no script,
 * no network and no dependency beyond libc, and the text is deterministic and diffable. */

#define COLOR(i) rigor_chart_color(i)

enum { VIEW_W = 1200, PLOT_H = 260, TOP = 16, BOTTOM = 50, AXIS_LEFT = 110, RIGHT = 30 };

/* The 95% interval of a row's median time from its runs' spread (the half-width of the mean
 * log run median); false with fewer than two runs or when the figure is a plugin metric. */
static bool median_interval(const rigor_row_t *w, double center, double *lo, double *hi) {
  if (strcmp(w->figure.name, "time_s") != 0) return false;
  double hw = w->figure.half_width;
  if (!isfinite(hw) || !(center > 0)) return false;
  *lo = center * exp(-hw);
  *hi = center * exp(hw);
  return true;
}

/* Times that span two decades (a 1 ms stall among 2 µs cycles) on a log axis, where the many
 * stay apart and the few stay on the chart. */
static void time_axis(rigor_axis_t *a, double lo, double hi, int ticks, rigor_unit_t unit) {
  if (rigor_axis_wants_log(lo, hi))
    rigor_axis_log(a, RIGOR_COL_TIME, lo, hi);
  else
    rigor_axis_linear(a, RIGOR_COL_TIME, lo, hi, ticks);
  rigor_axis_use_unit(a, unit);
}

static void widen(double v, double *lo, double *hi) {
  if (!isfinite(v) || !(v > 0)) return;
  *lo = fmin(*lo, v), *hi = fmax(*hi, v);
}

void rigor_page_units_of(const rigor_analysis_t *a, rigor_page_units_t *u) {
  double t[2] = {INFINITY, -INFINITY}, r[2] = {INFINITY, -INFINITY}, f[2] = {INFINITY, -INFINITY};
  for (size_t x = 0; x < a->n_exps; x++)
    for (size_t k = 0; k < a->exps[x].n_rows; k++) {
      const rigor_row_t *w = &a->exps[x].rows[k];
      if (!w->n) continue;
      widen(w->time.min, &t[0], &t[1]);
      widen(w->time.max, &t[0], &t[1]);
      widen(w->bytes_per_s, &r[0], &r[1]);
      widen(w->busbw_per_s, &r[0], &r[1]);
      widen(w->flops_per_s, &f[0], &f[1]);
    }
  /* Unit choice reads magnitudes; an empty page leaves each unit nameless (no override). */
  u->time = isfinite(t[0]) ? rigor_unit_for(RIGOR_COL_TIME, t[0], t[1]) : (rigor_unit_t){0};
  u->rate = isfinite(r[0]) ? rigor_unit_for(RIGOR_COL_RATE, r[0], r[1]) : (rigor_unit_t){0};
  u->flop_rate =
      isfinite(f[0]) ? rigor_unit_for(RIGOR_COL_FLOP_RATE, f[0], f[1]) : (rigor_unit_t){0};
}

static rigor_unit_t unit_of(const rigor_page_units_t *u, rigor_col_kind_t kind) {
  return kind == RIGOR_COL_TIME ? u->time : kind == RIGOR_COL_RATE ? u->rate : u->flop_rate;
}

static void interval_bar(FILE *out, double x1, double x2, double y, const char *color) {
  fprintf(
      out,
      "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
      "stroke-width=\"2\"/>\n"
      "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"/>\n"
      "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"/>\n",
      x1, x2, y, y, color, x1, x1, y - 4, y + 4, color, x2, x2, y - 4, y + 4, color);
}

/* Per point: one strip per variant with every sample, the median (thick), its 95% interval
 * over runs (bar) and P95 (dashed). */
static void distribution_svg(const rigor_exp_analysis_t *e, uint32_t point,
                             const rigor_page_units_t *u, FILE *out) {
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
  rigor_axis_t x;
  time_axis(&x, lo, hi, 8, u->time);
  int strip_h = 40;
  rigor_frame_t f = {.left = 220,
                     .top = TOP,
                     .width = VIEW_W - 220 - RIGHT,
                     .height = (double)strips * strip_h,
                     .view_w = VIEW_W,
                     .view_h = TOP + (int)strips * strip_h + BOTTOM};
  char heading[600], title[128];
  snprintf(heading, sizeof heading, "samples per variant, point %s", label ? label : "-");
  rigor_chart_open(out, &f, heading);
  rigor_axis_title(&x, "time per operation", title, sizeof title);
  rigor_chart_x_axis(out, &f, &x, title);
  size_t k = 0;
  for (size_t r = 0; r < e->n_rows; r++) {
    const rigor_row_t *w = &e->rows[r];
    if (w->point != point || !w->n) continue;
    double y = f.top + (double)k * strip_h + strip_h / 2.0;
    if (k)
      fprintf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>\n",
              f.left, f.left + f.width, y - strip_h / 2.0, y - strip_h / 2.0);
    fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", f.left - 8, y + 4);
    rigor_html_escape(out, w->variant_label ? w->variant_label : "?");
    fputs("</text>\n", out);
    size_t stride = w->n > 2000 ? w->n / 2000 : 1;
    for (size_t i = 0; i < w->n; i += stride)
      fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2\" fill=\"%s\" fill-opacity=\"0.5\"/>\n",
              rigor_frame_x(&f, &x, w->times[i]), y + (double)((i * 7) % 13) - 6,
              COLOR(w->variant));
    double mx = rigor_frame_x(&f, &x, w->time.median), p95 = rigor_frame_x(&f, &x, w->time.p95);
    fprintf(out,
            "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#000\" "
            "stroke-width=\"3\"/>\n",
            mx, mx, y - 13, y + 13);
    fprintf(out,
            "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#555\" "
            "stroke-dasharray=\"3,2\"/>\n",
            p95, p95, y - 13, y + 13);
    double ilo, ihi;
    if (median_interval(w, w->time.median, &ilo, &ihi))
      interval_bar(out, rigor_frame_x(&f, &x, ilo), rigor_frame_x(&f, &x, ihi), y + 15, "#000");
    k++;
  }
  rigor_chart_close(out);
  fputs("<p class=\"legend\">dots: samples (cycles); thick line: median; bar below it: 95% "
        "interval of the median over runs; dashed: P95; colour: variant</p>\n",
        out);
}

/* The block of a run (its first attempt's record), or UINT32_MAX. */
static uint32_t block_of(const rigor_exp_analysis_t *e, uint32_t run) {
  for (size_t k = 0; k < e->n_runs; k++)
    if (e->runs[k].run == run) return e->runs[k].block;
  return UINT32_MAX;
}

/* Per point: every sample in execution order (run, then cycle), coloured by variant, with a
 * thin line between runs and a dashed one where a block of the schedule begins. */
static void position_svg(const rigor_exp_analysis_t *e, uint32_t point, const rigor_page_units_t *u,
                         FILE *out) {
  double lo = INFINITY, hi = -INFINITY;
  uint32_t max_cycle = 0, max_run = 0;
  bool any = false;
  for (size_t r = 0; r < e->n_rows; r++)
    if (e->rows[r].point == point)
      for (size_t i = 0; i < e->rows[r].n; i++) {
        lo = fmin(lo, e->rows[r].times[i]);
        hi = fmax(hi, e->rows[r].times[i]);
        max_cycle = e->rows[r].cycle_of[i] > max_cycle ? e->rows[r].cycle_of[i] : max_cycle;
        max_run = e->rows[r].run_of[i] > max_run ? e->rows[r].run_of[i] : max_run;
        any = true;
      }
  if (!any) return;
  const char *label = NULL;
  for (size_t r = 0; r < e->n_rows && !label; r++)
    if (e->rows[r].point == point) label = e->rows[r].point_label;
  double per_run = max_cycle + 1;
  rigor_axis_t x, y;
  /* x counts runs: a sample sits at run + (cycle + 0.5) / cycles per run. */
  rigor_axis_linear(&x, RIGOR_COL_NUMBER, 0, max_run + 1, 10);
  rigor_axis_integral(&x);
  time_axis(&y, lo, hi, 6, u->time);
  rigor_frame_t f = rigor_frame_in(VIEW_W, AXIS_LEFT, RIGHT, TOP, PLOT_H, BOTTOM);
  char heading[600], title[128];
  snprintf(heading, sizeof heading, "cycles in execution order, point %s", label ? label : "-");
  rigor_chart_open(out, &f, heading);
  rigor_chart_x_axis(out, &f, &x, "run, in execution order (each run's cycles side by side)");
  rigor_axis_title(&y, "time per operation", title, sizeof title);
  rigor_chart_y_axis(out, &f, &y, title);
  uint32_t prev_block = block_of(e, 0);
  double free_from = -INFINITY; /* where the next block label may start without overprinting */
  for (uint32_t run = 1; run <= max_run; run++) {
    uint32_t b = block_of(e, run);
    bool new_block = b != prev_block && b != UINT32_MAX;
    double px = rigor_frame_x(&f, &x, run);
    fprintf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"%s/>\n", px,
            px, f.top, f.top + f.height, new_block ? "#555" : "#ddd",
            new_block ? " stroke-dasharray=\"5,3\"" : "");
    char name[32];
    snprintf(name, sizeof name, "block %u", b);
    /* At 10px a label is narrower than at 12px; 0.85 of the charts' estimate. */
    double w = 0.85 * rigor_chart_text_width(name);
    if (new_block && px + 3 >= free_from && px + 3 + w <= f.left + f.width) {
      fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" class=\"small\">%s</text>\n", px + 3, f.top + 11,
              name);
      free_from = px + 3 + w + 6;
    }
    if (b != UINT32_MAX) prev_block = b;
  }
  for (size_t r = 0; r < e->n_rows; r++) {
    const rigor_row_t *w = &e->rows[r];
    if (w->point != point) continue;
    size_t stride = w->n > 4000 ? w->n / 4000 : 1;
    for (size_t i = 0; i < w->n; i += stride) {
      double pos = w->run_of[i] + (w->cycle_of[i] + 0.5) / per_run;
      fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"/>\n",
              rigor_frame_x(&f, &x, pos), rigor_frame_y(&f, &y, w->times[i]), COLOR(w->variant));
    }
  }
  rigor_chart_close(out);
  fputs("<p class=\"legend\">colour: variant; thin lines: run boundaries; dashed: a new block "
        "of the schedule begins</p>\n",
        out);
}

/* What a curve plots for the rows of e: the rate the plugin reported, else the time. */
typedef struct curve_metric {
  rigor_col_kind_t kind;
  const char *what;
} curve_metric_t;

static curve_metric_t curve_metric(const rigor_exp_analysis_t *e) {
  bool bus = false, bytes = false, flops = false;
  for (size_t r = 0; r < e->n_rows; r++) {
    const rigor_row_t *w = &e->rows[r];
    bus = bus || (isfinite(w->busbw_per_s) && w->bus_factor > 0 && w->bus_factor != 1);
    bytes = bytes || (isfinite(w->bytes_per_s) && w->bytes > 0);
    flops = flops || (isfinite(w->flops_per_s) && w->flops > 0);
  }
  if (bus) return (curve_metric_t){RIGOR_COL_RATE, "bus bandwidth"};
  if (bytes) return (curve_metric_t){RIGOR_COL_RATE, "rate"};
  if (flops) return (curve_metric_t){RIGOR_COL_FLOP_RATE, "FLOP rate"};
  return (curve_metric_t){RIGOR_COL_TIME, "time per operation"};
}

static double metric_of(const rigor_exp_analysis_t *e, const rigor_row_t *w) {
  curve_metric_t m = curve_metric(e);
  if (m.kind == RIGOR_COL_FLOP_RATE) return w->flops_per_s;
  if (m.kind == RIGOR_COL_TIME) return w->time.median;
  return strstr(m.what, "bus") ? w->busbw_per_s : w->bytes_per_s;
}

typedef struct curve_figure {
  const rigor_exp_analysis_t *e;
  size_t col; /* the label column the curve runs along */
  rigor_page_units_t units;
} curve_figure_t;

/* The series a row belongs to: the text of every other label column. */
static void series_key(const rigor_labels_t *l, size_t skip, const rigor_row_t *w, char *buf,
                       size_t len) {
  buf[0] = '\0';
  for (size_t c = 0; c < l->n; c++) {
    if (c == skip) continue;
    char text[256];
    double v;
    if (!rigor_labels_value(l, c, w->variant, w->point, &v, text, sizeof text)) continue;
    size_t used = strlen(buf);
    snprintf(buf + used, len - used, "%s%s=%s", used ? ", " : "", l->cols[c].name, text);
  }
}

static double clip_y(const rigor_frame_t *f, double py) {
  return fmin(fmax(py, f->top), f->top + f->height);
}

static int by_x(const void *a, const void *b) {
  const double *x = a, *y = b;
  return (x[0] > y[0]) - (x[0] < y[0]);
}

/* The rate (or time) against one numeric axis, a curve per combination of the others: STREAM's
 * bandwidth against threads, nccl-tests' bus bandwidth against size. Log scales where the
 * values span two decades. */
static void curve_svg(const curve_figure_t *cf, FILE *out) {
  const rigor_exp_analysis_t *e = cf->e;
  rigor_labels_t l;
  if (rigor_labels_of(e, RIGOR_LABELS_BOTH, NULL, &l)) return;
  curve_metric_t m = curve_metric(e);
  size_t n = e->n_rows;
  char(*keys)[512] = calloc(n ? n : 1, sizeof *keys);
  double *pts = calloc(n ? n * 4 : 1, sizeof *pts); /* x, y, lo, hi per row */
  size_t *series = calloc(n ? n : 1, sizeof *series);
  if (!keys || !pts || !series) goto done;
  double xlo = INFINITY, xhi = -INFINITY, yhi = -INFINITY;
  double mlo = INFINITY, mhi = -INFINITY; /* of the medians alone */
  bool whole = true;
  size_t n_series = 0, used = 0;
  for (size_t r = 0; r < n; r++) {
    const rigor_row_t *w = &e->rows[r];
    char text[256];
    double xv, yv = metric_of(e, w);
    if (!rigor_labels_value(&l, cf->col, w->variant, w->point, &xv, text, sizeof text) ||
        !isfinite(xv) || !isfinite(yv) || !w->n)
      continue;
    char key[512];
    series_key(&l, cf->col, w, key, sizeof key);
    size_t s = 0;
    while (s < n_series && strcmp(keys[s], key) != 0)
      s++;
    if (s == n_series) snprintf(keys[n_series++], sizeof *keys, "%s", key);
    double *p = &pts[used * 4];
    p[0] = xv, p[1] = yv, p[2] = p[3] = NAN;
    /* The interval of the median time carries over to a rate as its reciprocal. */
    double tlo, thi;
    if (median_interval(w, w->time.median, &tlo, &thi)) {
      double f_lo = tlo / w->time.median, f_hi = thi / w->time.median;
      p[2] = m.kind == RIGOR_COL_TIME ? yv * f_lo : yv / f_hi;
      p[3] = m.kind == RIGOR_COL_TIME ? yv * f_hi : yv / f_lo;
    }
    series[used++] = s;
    xlo = fmin(xlo, xv), xhi = fmax(xhi, xv);
    mlo = fmin(mlo, yv), mhi = fmax(mhi, yv);
    whole = whole && xv == floor(xv);
    yhi = fmax(yhi, isfinite(p[3]) ? p[3] : yv);
  }
  if (used < 2 || !(xhi > xlo)) goto done;
  rigor_axis_t x, y;
  rigor_col_kind_t xkind = l.cols[cf->col].kind;
  if (rigor_axis_wants_log(xlo, xhi))
    rigor_axis_log(&x, xkind, xlo, xhi);
  else
    rigor_axis_linear(&x, xkind == RIGOR_COL_SIZE ? RIGOR_COL_NUMBER : xkind, xlo, xhi, 8);
  if (whole) rigor_axis_integral(&x);
  if (!x.log) { /* a little room either side keeps the end points off the frame */
    x.lo = fmin(x.lo, xlo - (xhi - xlo) * 0.04);
    x.hi = fmax(x.hi, xhi + (xhi - xlo) * 0.04);
  }
  /* The scale follows the medians; an interval wider than it is cut at the frame. */
  if (rigor_axis_wants_log(mlo, mhi))
    rigor_axis_log(&y, m.kind, mlo, mhi);
  else
    rigor_axis_linear(&y, m.kind, m.kind == RIGOR_COL_TIME ? mlo : 0, fmax(mhi, fmin(yhi, 2 * mhi)),
                      6);
  rigor_axis_use_unit(&y, unit_of(&cf->units, m.kind));
  rigor_frame_t f = rigor_frame_in(VIEW_W, AXIS_LEFT, RIGHT, TOP, PLOT_H + 40, BOTTOM);
  char heading[600], xt[300], yt[200];
  snprintf(heading, sizeof heading, "median %s against %s", m.what, l.cols[cf->col].name);
  rigor_chart_open(out, &f, heading);
  rigor_axis_title(&x, l.cols[cf->col].name, xt, sizeof xt);
  rigor_axis_title(&y, m.what, yt, sizeof yt);
  rigor_chart_x_axis(out, &f, &x, xt);
  rigor_chart_y_axis(out, &f, &y, yt);
  double *line = malloc(used * 4 * sizeof *line);
  for (size_t s = 0; line && s < n_series; s++) {
    size_t k = 0;
    for (size_t i = 0; i < used; i++)
      if (series[i] == s) memcpy(&line[4 * k++], &pts[4 * i], 4 * sizeof *line);
    qsort(line, k, 4 * sizeof *line, by_x);
    const char *color = COLOR(s);
    fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", color);
    for (size_t i = 0; i < k; i++)
      fprintf(out, "%s%.1f,%.1f", i ? " " : "", rigor_frame_x(&f, &x, line[4 * i]),
              rigor_frame_y(&f, &y, line[4 * i + 1]));
    fputs("\"/>\n", out);
    /* Each series' bars sit a little apart, so that overlapping intervals stay readable. */
    double dodge = ((double)s - (double)(n_series - 1) / 2) * 5;
    for (size_t i = 0; i < k; i++) {
      double px = rigor_frame_x(&f, &x, line[4 * i]);
      if (isfinite(line[4 * i + 2]))
        fprintf(out,
                "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                "stroke-width=\"1.5\"/>\n",
                px + dodge, px + dodge,
                clip_y(&f, rigor_frame_y(&f, &y, fmax(line[4 * i + 2], 1e-300))),
                clip_y(&f, rigor_frame_y(&f, &y, line[4 * i + 3])), color);
      fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"/>\n", px,
              rigor_frame_y(&f, &y, line[4 * i + 1]), color);
    }
  }
  free(line);
  rigor_chart_close(out);
  fputs("<p class=\"legend\">dots: medians; vertical bars: their 95% interval over runs", out);
  if (n_series > 1 || keys[0][0]) {
    fputs("; ", out);
    for (size_t s = 0; s < n_series; s++) {
      fprintf(out, "<span style=\"color:%s\">&#9632;</span> ", COLOR(s));
      rigor_html_escape(out, keys[s][0] ? keys[s] : "all");
      fputs(" &nbsp; ", out);
    }
  }
  fputs("</p>\n", out);
done:
  free(keys), free(pts), free(series);
  rigor_labels_free(&l);
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
    rigor_axis_t x, y;
    rigor_frame_t f = rigor_frame_in(VIEW_W, AXIS_LEFT, RIGHT, TOP, PLOT_H, BOTTOM);
    for (int pass = 0; pass < 2; pass++) {
      if (pass == 1) {
        rigor_axis_linear(&x, RIGOR_COL_TIME, 0, t_hi > 0 ? t_hi : 1, 8);
        rigor_axis_linear(&y, RIGOR_COL_NUMBER, lo, hi, 6);
        char heading[300], xt[64];
        snprintf(heading, sizeof heading, "telemetry: %s", name);
        rigor_chart_open(out, &f, heading);
        rigor_axis_title(&x, "time across runs in execution order", xt, sizeof xt);
        rigor_chart_x_axis(out, &f, &x, xt);
        rigor_chart_y_axis(out, &f, &y, name);
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
          double val = json_number_value(v);
          run_end = fmax(run_end, t);
          if (pass == 0) {
            lo = fmin(lo, val);
            hi = fmax(hi, val);
          } else {
            fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"1.5\" fill=\"%s\"/>\n",
                    rigor_frame_x(&f, &x, t), rigor_frame_y(&f, &y, val),
                    COLOR(e->runs[k].variant));
          }
        }
        offset = run_end;
      }
      t_hi = offset;
    }
    rigor_chart_close(out);
    fputs("<p class=\"legend\">colour: variant</p>\n", out);
  }
  json_decref(signals);
}

static void legend(const rigor_exp_analysis_t *e, FILE *out) {
  fputs("<p class=\"legend\">variants: ", out);
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
  rigor_page_units_t units;
} point_figure_t;

static void legend_figure(const void *arg, FILE *out) {
  legend(*(const rigor_exp_analysis_t *const *)arg, out);
}

static void distribution_figure(const void *arg, FILE *out) {
  const point_figure_t *f = arg;
  distribution_svg(f->e, f->point, &f->units, out);
}

static void position_figure(const void *arg, FILE *out) {
  const point_figure_t *f = arg;
  position_svg(f->e, f->point, &f->units, out);
}

static void curve_figure(const void *arg, FILE *out) {
  curve_svg(arg, out);
}

static void telemetry_figure(const void *arg, FILE *out) {
  telemetry_svg(*(const rigor_exp_analysis_t *const *)arg, out);
}

/* How many numeric values column c takes over the rows (counting to 3). */
static size_t distinct(const rigor_exp_analysis_t *e, const rigor_labels_t *l, size_t c) {
  double seen[3];
  size_t n_seen = 0;
  for (size_t r = 0; r < e->n_rows && n_seen < 3; r++) {
    char text[256];
    double v;
    if (!rigor_labels_value(l, c, e->rows[r].variant, e->rows[r].point, &v, text, sizeof text) ||
        !isfinite(v))
      continue;
    bool dup = false;
    for (size_t k = 0; k < n_seen; k++)
      dup = dup || seen[k] == v;
    if (!dup) seen[n_seen++] = v;
  }
  return n_seen;
}

/* A curve for each numeric sweep axis with two values or more, else for each such matrix
 * axis. */
static void curves(rigor_doc_t *doc, const rigor_exp_analysis_t *e, const rigor_page_units_t *u) {
  rigor_labels_t l;
  if (rigor_labels_of(e, RIGOR_LABELS_BOTH, NULL, &l)) return;
  bool numeric_sweep = false;
  for (size_t c = 0; c < l.n; c++)
    numeric_sweep = numeric_sweep || (l.cols[c].from == RIGOR_LABEL_SWEEP &&
                                      l.cols[c].kind != RIGOR_COL_TEXT && distinct(e, &l, c) >= 2);
  for (size_t c = 0; c < l.n; c++) {
    if (l.cols[c].kind != RIGOR_COL_NUMBER && l.cols[c].kind != RIGOR_COL_SIZE) continue;
    /* A matrix axis gets its curve when no sweep axis does (STREAM's threads). */
    if (numeric_sweep && l.cols[c].from != RIGOR_LABEL_SWEEP) continue;
    if (distinct(e, &l, c) < 2) continue;
    curve_figure_t f = {e, c, *u};
    rigor_doc_figure(doc, curve_figure, &f, sizeof f);
  }
  rigor_labels_free(&l);
}

void rigor_report_curves(rigor_doc_t *doc, const rigor_exp_analysis_t *e,
                         const rigor_page_units_t *u) {
  curves(doc, e, u);
}

void rigor_report_figures(rigor_doc_t *doc, const rigor_exp_analysis_t *e,
                          const rigor_page_units_t *u) {
  rigor_doc_figure(doc, legend_figure, &e, sizeof e);
  uint32_t max_point = 0;
  for (size_t r = 0; r < e->n_rows; r++)
    max_point = e->rows[r].point > max_point ? e->rows[r].point : max_point;
  for (uint32_t p = 0; e->n_rows && p <= max_point; p++) {
    point_figure_t f = {e, p, *u};
    rigor_doc_figure(doc, distribution_figure, &f, sizeof f);
    rigor_doc_figure(doc, position_figure, &f, sizeof f);
  }
  rigor_doc_figure(doc, telemetry_figure, &e, sizeof e);
}

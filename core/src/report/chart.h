/* The parts every SVG chart of a report shares: axes with nice ticks (steps of 1, 2 or 5 times
 * a power of ten, or decades on a log axis) in one unit per axis, axis titles that name it,
 * and Okabe and Ito's palette, which readers with any common colour-vision deficiency tell
 * apart. Charts scale to the page's width (a viewBox) and stay one self-contained file. */
#ifndef RIGOR_CHART_H
#define RIGOR_CHART_H

#include <stdbool.h>
#include <stdio.h>

#include "decide.h"
#include "table.h"

enum { RIGOR_AXIS_MAX_TICKS = 40 };

typedef struct rigor_axis {
  rigor_col_kind_t kind; /* TIME, RATE, FLOP_RATE, SIZE, NUMBER... */
  bool log;
  double lo, hi; /* the span drawn, in base units (ticks' ends on a linear axis) */
  double step;   /* between linear ticks, in base units */
  rigor_unit_t unit;
  bool page_unit; /* the unit is the page's for this quantity, log axis included */
  size_t n_ticks;
  double ticks[RIGOR_AXIS_MAX_TICKS];
} rigor_axis_t;

/* A linear axis over [lo, hi] with about `target` ticks; lo == hi widens it. */
void rigor_axis_linear(rigor_axis_t *a, rigor_col_kind_t kind, double lo, double hi, int target);
/* A log axis over [lo, hi] (both > 0): ticks at powers of ten, with 2 and 5 between them when it
 * spans fewer than three decades; sizes tick at powers of two. */
void rigor_axis_log(rigor_axis_t *a, rigor_col_kind_t kind, double lo, double hi);
/* Ticks at whole numbers only (threads, runs): a step below 1 becomes 1. */
void rigor_axis_integral(rigor_axis_t *a);
/* Whether values over [lo, hi] read better on a log axis: positive, spanning two decades. */
bool rigor_axis_wants_log(double lo, double hi);
/* Shows the axis in `u`, the unit every chart of the page gives this quantity, so that the same
 * data never reads in ms in one chart and in s in the next; a log axis then labels its ticks in
 * it too. A unit without a name (a plain number) leaves the axis as it is. */
void rigor_axis_use_unit(rigor_axis_t *a, rigor_unit_t u);
/* Where v sits along the axis, 0 at lo and 1 at hi. */
double rigor_axis_at(const rigor_axis_t *a, double v);
/* A tick's label: on a linear axis in the axis's unit, without it ("2.5", "0"); on a log axis
 * of times or rates with the tick's own unit ("10 MB/s"); sizes as sizes ("64KiB"). */
void rigor_axis_tick_label(const rigor_axis_t *a, double v, char *buf, size_t len);
/* "time per operation (µs)": what the axis shows, with its unit when it has one. */
void rigor_axis_title(const rigor_axis_t *a, const char *what, char *buf, size_t len);

/* The i-th colour of the palette (black after seven). */
const char *rigor_chart_color(size_t i);
/* Verdict colours: worse (vermillion), better (bluish green), same (blue), undecided (grey). */
extern const char *const rigor_chart_worse,
    *const rigor_chart_better, *const rigor_chart_same, *const rigor_chart_undecided;
/* The colour of each verdict: slower, faster and same as above, inconclusive grey, and the
 * verdicts that judged nothing in colours of their own. */
const char *rigor_chart_verdict_color(rigor_cmp_verdict_t v);
/* "colour: verdict (■ same, ■ faster, ...)": every verdict, whether or not the chart has it. */
void rigor_chart_verdict_legend(FILE *out);

/* Of n labels `width` units wide each, `spacing` apart: label every k-th so that none overlap. */
size_t rigor_chart_label_every(size_t n, double spacing, double width);
/* About how wide a label of `chars` characters is at the charts' 12px text. */
double rigor_chart_text_width(const char *label);

/* A chart's frame: plot area [left, left + width] x [top, top + height] inside a view box of
 * view_w x view_h. */
typedef struct rigor_frame {
  double left, top, width, height;
  int view_w, view_h;
} rigor_frame_t;

/* The frame of a plot `height` high in a view `view_w` wide, with these margins around it. */
rigor_frame_t rigor_frame_in(int view_w, double left, double right, double top, double height,
                             double bottom);

/* Opens the <svg> (with its view box and an accessible title) after an <h4> heading. */
void rigor_chart_open(FILE *out, const rigor_frame_t *f, const char *heading);
void rigor_chart_close(FILE *out);
double rigor_frame_x(const rigor_frame_t *f, const rigor_axis_t *x, double v);
double rigor_frame_y(const rigor_frame_t *f, const rigor_axis_t *y, double v);
/* The x axis below the plot (ticks, labels, light grid lines, title centred under it). */
void rigor_chart_x_axis(FILE *out, const rigor_frame_t *f, const rigor_axis_t *x,
                        const char *title);
/* The y axis left of the plot, its title turned along it. */
void rigor_chart_y_axis(FILE *out, const rigor_frame_t *f, const rigor_axis_t *y,
                        const char *title);

#endif

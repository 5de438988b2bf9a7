/* A forest plot: one line per comparison, its ratio (a dot) and 95% interval (a bar) on a log
 * axis, with 1 and the threshold marked; the A/B contrasts of a report and the rows of
 * rigor compare draw it. */
#ifndef RIGOR_FOREST_H
#define RIGOR_FOREST_H

#include <stdbool.h>
#include <stdio.h>

#include "decide.h"

typedef struct rigor_forest_item {
  const char *label;
  double ratio, lo, hi; /* as a cost: above 1 is worse; NaN where unknown */
  bool show_ratio;      /* false where the figure is withheld (imprecise) */
  const char *color;
} rigor_forest_item_t;

/* The line of a judged comparison: its cost and interval as the rule oriented them, coloured
 * by its verdict. */
rigor_forest_item_t rigor_forest_judged(const char *label, const rigor_cost_t *cost,
                                        rigor_cmp_verdict_t verdict);

/* Writes the heading and chart; nothing when no item has a finite ratio. */
void rigor_forest_svg(FILE *out, const char *heading, const char *axis_title,
                      const rigor_forest_item_t *items, size_t n, double threshold);

#endif

/* The columns that say which variant and point a table row is: one per matrix axis and one per
 * sweep axis (nvbench's one column per axis), numeric where every level is a number, so that a
 * CSV reader can plot bandwidth against size without parsing "bytes=1MiB". Where the records
 * name no axes, the variant's and the point's labels. */
#ifndef RIGOR_LABELS_H
#define RIGOR_LABELS_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#include "analysis.h"
#include "table.h"

typedef enum {
  RIGOR_LABEL_MATRIX = 0, /* a matrix axis: the variant's level */
  RIGOR_LABEL_SWEEP,      /* a sweep axis: the point's value */
  RIGOR_LABEL_VARIANT,    /* the variant's label (no axes recorded) */
  RIGOR_LABEL_POINT,      /* the point's label (no sweep values recorded) */
} rigor_label_from_t;

typedef struct rigor_label_col {
  char *name; /* the axis as written ("threads", "timing.warmup", "bytes") */
  rigor_label_from_t from;
  rigor_col_kind_t kind; /* TEXT, NUMBER or SIZE */
} rigor_label_col_t;

typedef struct rigor_labels {
  const rigor_exp_analysis_t *e;
  rigor_label_col_t *cols;
  size_t n;
} rigor_labels_t;

enum { RIGOR_LABELS_VARIANT = 1, RIGOR_LABELS_POINT = 2, RIGOR_LABELS_BOTH = 3 };

/* The label columns of e: the variant's (RIGOR_LABELS_VARIANT), the point's, or both, without
 * the matrix axis `skip` (NULL: none). */
int rigor_labels_of(const rigor_exp_analysis_t *e, unsigned which, const char *skip,
                    rigor_labels_t *out);
void rigor_labels_free(rigor_labels_t *l);
/* Appends the columns' headers at headers[*n], advancing *n. */
void rigor_labels_headers(const rigor_labels_t *l, const char **headers, size_t *n);
/* Gives columns first ... first + l->n - 1 of t their kinds and keys (the axis names). */
void rigor_labels_declare(const rigor_labels_t *l, rigor_table_t *t, size_t first);
/* Fills them for the variant and point (UINT32_MAX: none) of row `row`. */
void rigor_labels_set(const rigor_labels_t *l, rigor_table_t *t, size_t row, size_t first,
                      uint32_t variant, uint32_t point);
/* The value of the label column for a variant and point: its number (NaN when it has none) and
 * the text people read; false when there is no value. */
bool rigor_labels_value(const rigor_labels_t *l, size_t col, uint32_t variant, uint32_t point,
                        double *value, char *text, size_t len);

/* A label built from the parts that exist: "sort1 / default", never "sort1: default," or
 * ": cand vs base" where a part is missing. Writes the parts that are neither NULL, empty nor
 * "-" into buf, `sep` between them; an empty string when none is. Returns the length written. */
size_t rigor_label_join(char *buf, size_t len, const char *sep, const char *const *parts, size_t n);

#endif

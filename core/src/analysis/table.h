/* Tables of a report: titled, with one kind of value per column, so that each writer shows a
 * number the way its format wants (text in human units, CSV as it is). */
#ifndef RIGOR_TABLE_H
#define RIGOR_TABLE_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
  RIGOR_COL_TEXT = 0, /* labels, verdicts, reasons */
  RIGOR_COL_COUNT,    /* an integer */
  RIGOR_COL_NUMBER,   /* a plain number */
  RIGOR_COL_TIME,     /* seconds */
  RIGOR_COL_RATE,     /* bytes per second */
  RIGOR_COL_FRACTION, /* shown as a percentage */
  RIGOR_COL_CHANGE,   /* a signed fraction: +5.00% */
} rigor_col_kind_t;

/* A cell holds text, or a number (NaN when there is none) for a column of a numeric kind. */
typedef struct rigor_cell {
  double value;
  char *text;
} rigor_cell_t;

typedef struct rigor_table {
  char *title;
  size_t n_cols, n_rows, cap;
  char **headers;
  rigor_col_kind_t *kinds;
  rigor_cell_t *cells; /* n_rows * n_cols */
} rigor_table_t;

/* A table whose columns are all text until rigor_table_kind says otherwise. */
rigor_table_t *rigor_table_new(const char *title, size_t n_cols, const char *const *headers);
void rigor_table_kind(rigor_table_t *t, size_t col, rigor_col_kind_t kind);
/* Appends one row of n_cols strings (copied; NULL prints as empty). */
int rigor_table_add(rigor_table_t *t, const char *const *cells);
/* Appends an empty row and returns its index, or -1 on ENOMEM; fill it with the setters. */
long rigor_table_add_row(rigor_table_t *t);
void rigor_table_set_value(rigor_table_t *t, size_t row, size_t col, double value);
void rigor_table_set_text(rigor_table_t *t, size_t row, size_t col, const char *text);
void rigor_table_free(rigor_table_t *t);

const rigor_cell_t *rigor_table_cell(const rigor_table_t *t, size_t row, size_t col);
/* The cell as people read it: its text, or its number in the column kind's human unit. */
void rigor_table_cell_text(const rigor_table_t *t, size_t row, size_t col, char *buf, size_t len);
/* A cell that reads as a number (right-aligned in text). */
bool rigor_table_cell_numeric(const rigor_table_t *t, size_t row, size_t col);

/* Human units: times (ns, us, ms, s), rates (decimal: B/s, KB/s, MB/s, GB/s, TB/s), fractions
 * as percentages. NaN prints as "-". */
void rigor_fmt_time(char *buf, size_t len, double seconds);
void rigor_fmt_rate(char *buf, size_t len, double per_s, const char *unit);
void rigor_fmt_percent(char *buf, size_t len, double fraction, int plus);
void rigor_fmt_number(char *buf, size_t len, double v);

#endif

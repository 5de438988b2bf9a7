/* Tables of a report: titled and named, with one kind of value per column, so that each writer
 * shows a number the way its format wants: people's formats (text, md, html) in one unit per
 * column chosen from the column's range, data formats (csv) in SI base units. */
#ifndef RIGOR_TABLE_H
#define RIGOR_TABLE_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
  RIGOR_COL_TEXT = 0,  /* labels, verdicts, reasons */
  RIGOR_COL_COUNT,     /* an integer */
  RIGOR_COL_NUMBER,    /* a plain number */
  RIGOR_COL_TIME,      /* seconds */
  RIGOR_COL_RATE,      /* bytes per second */
  RIGOR_COL_FLOP_RATE, /* floating-point operations per second */
  RIGOR_COL_FRACTION,  /* shown as a percentage */
  RIGOR_COL_CHANGE,    /* a signed fraction: +5.00% */
  RIGOR_COL_SIZE,      /* bytes, shown as an exact binary size (1MiB) */
} rigor_col_kind_t;

/* Which formats show a column: a combined human cell ("[+1.0%, +3.0%]") and its numbers as
 * separate data columns (ci_low, ci_high) are two columns of one table. */
typedef enum {
  RIGOR_SHOW_BOTH = 0,
  RIGOR_SHOW_HUMAN, /* text, md, html */
  RIGOR_SHOW_DATA,  /* csv */
} rigor_col_show_t;

/* A cell holds a number (NaN when there is none) for a column of a numeric kind, and may hold a
 * text that people read instead ("withheld", "1MiB"); data formats write the number. A cell of
 * a text column holds only text. */
typedef struct rigor_cell {
  double value;
  char *text;
} rigor_cell_t;

typedef struct rigor_table {
  char *title;
  char *name; /* "statistics", "gate"...: what --table names; "" when unnamed */
  size_t n_cols, n_rows, cap;
  char **headers; /* as people read them, without the unit */
  char **keys;    /* the data formats' column names; NULL: derived from the header and kind */
  rigor_col_kind_t *kinds;
  rigor_col_show_t *show;
  /* 0: always shown; otherwise the order in which a table too wide for the terminal leaves
   * columns out, highest first. */
  unsigned *drop;
  rigor_cell_t *cells; /* n_rows * n_cols */
} rigor_table_t;

/* A table whose columns are all text until rigor_table_kind says otherwise. */
rigor_table_t *rigor_table_new(const char *title, size_t n_cols, const char *const *headers);
void rigor_table_name(rigor_table_t *t, const char *name);
void rigor_table_kind(rigor_table_t *t, size_t col, rigor_col_kind_t kind);
void rigor_table_key(rigor_table_t *t, size_t col, const char *key);
void rigor_table_show(rigor_table_t *t, size_t col, rigor_col_show_t show);
void rigor_table_drop(rigor_table_t *t, size_t col, unsigned rank);
/* Appends one row of n_cols strings (copied; NULL prints as empty). */
int rigor_table_add(rigor_table_t *t, const char *const *cells);
/* Appends an empty row and returns its index, or -1 on ENOMEM; fill it with the setters. */
long rigor_table_add_row(rigor_table_t *t);
void rigor_table_set_value(rigor_table_t *t, size_t row, size_t col, double value);
void rigor_table_set_text(rigor_table_t *t, size_t row, size_t col, const char *text);
void rigor_table_free(rigor_table_t *t);
/* A table of the given columns of t, in that order (each index < t->n_cols); NULL on ENOMEM. */
rigor_table_t *rigor_table_project(const rigor_table_t *t, const size_t *cols, size_t n);
/* The column whose header or key is `name` (case-insensitive), or -1. */
long rigor_table_find(const rigor_table_t *t, const char *name);

const rigor_cell_t *rigor_table_cell(const rigor_table_t *t, size_t row, size_t col);
bool rigor_table_is_numeric(const rigor_table_t *t, size_t col);

/* The unit people read a column in: times in s, ms, µs or ns, rates in B/s ... TB/s (decimal),
 * FLOP/s likewise; `name` is "" for kinds shown without one. */
typedef struct rigor_unit {
  double scale; /* value / scale is the number shown */
  const char *name;
  int decimals; /* -1: four significant digits per cell */
} rigor_unit_t;
/* From the column's finite values: the largest unit in which the smallest magnitude reads at
 * least 1, moved up while the largest reads 100000 or more; decimals for four significant
 * digits of the smallest, at most three. */
rigor_unit_t rigor_table_unit(const rigor_table_t *t, size_t col);
/* Every column's unit, indexed by column (malloc'd, one entry at least); NULL when out of
 * memory. */
rigor_unit_t *rigor_table_units(const rigor_table_t *t);
/* The same choice for a range of magnitudes (an axis of a chart). */
rigor_unit_t rigor_unit_for(rigor_col_kind_t kind, double min_abs, double max_abs);
/* The cell as people read it, in unit u (rigor_table_unit), without the unit's name. */
void rigor_table_cell_human(const rigor_table_t *t, size_t row, size_t col, const rigor_unit_t *u,
                            char *buf, size_t len);
/* The cell as people read it in the column's own unit (computed per call: writers that show a
 * whole table call rigor_table_unit once per column instead). */
void rigor_table_cell_text(const rigor_table_t *t, size_t row, size_t col, char *buf, size_t len);
/* "median (ms)": the header with the unit people read the column in. */
void rigor_table_header_human(const rigor_table_t *t, size_t col, const rigor_unit_t *u, char *buf,
                              size_t len);
/* The cell for data formats: text as it is; a number in SI base units ("0.0253", "1.06e+10"),
 * empty when there is none. */
void rigor_table_cell_data(const rigor_table_t *t, size_t row, size_t col, char *buf, size_t len);
/* The column's data name: its key, or the header in lower case with '_' for anything but
 * letters and digits, and the base unit appended ("median_s", "rate_bytes_per_s"). */
void rigor_table_column_key(const rigor_table_t *t, size_t col, char *buf, size_t len);
/* A cell that reads as a number (right-aligned in text). */
bool rigor_table_cell_numeric(const rigor_table_t *t, size_t row, size_t col);

/* A value in unit u, as rigor_table_cell_human writes it. */
void rigor_unit_format(const rigor_unit_t *u, rigor_col_kind_t kind, double v, char *buf,
                       size_t len);
/* Human units with the unit written after the number (notes, sentences): times (ns, µs, ms, s),
 * rates (decimal: B/s, KB/s, MB/s, GB/s, TB/s), fractions as percentages. NaN prints as "-". */
void rigor_fmt_time(char *buf, size_t len, double seconds);
void rigor_fmt_rate(char *buf, size_t len, double per_s, const char *unit);
void rigor_fmt_percent(char *buf, size_t len, double fraction, int plus);
/* "[-1.20%, +3.40%]": an interval of changes (fractions), each as rigor_fmt_percent with a sign. */
void rigor_fmt_change_interval(char *buf, size_t len, double lo, double hi);
void rigor_fmt_number(char *buf, size_t len, double v);
/* Four significant digits, never in e-notation; integers of five digits or more in full. */
void rigor_fmt_sig(char *buf, size_t len, double v);

#endif

/* Reports of analysed results: tables in text, Markdown and CSV, a JSON document, and a
 * self-contained HTML page with inline SVG charts. */
#ifndef RIGOR_REPORT_H
#define RIGOR_REPORT_H

#include <jansson.h>
#include <stdio.h>

#include "analysis.h"

typedef enum {
  RIGOR_FORMAT_TEXT = 0,
  RIGOR_FORMAT_MD,
  RIGOR_FORMAT_CSV,
  RIGOR_FORMAT_JSON,
  RIGOR_FORMAT_HTML,
} rigor_format_t;

/* "text", "md", "csv", "json" or "html"; returns RIGOR_EINVAL for anything else. */
int rigor_format_parse(const char *name, rigor_format_t *out);

/* A table of preformatted cells, rendered the same way by every text-like format. */
typedef struct rigor_table {
  char *title;
  size_t n_cols, n_rows, cap;
  char **headers;
  char **cells; /* n_rows * n_cols */
} rigor_table_t;

rigor_table_t *rigor_table_new(const char *title, size_t n_cols, const char *const *headers);
/* Appends one row of n_cols strings (copied; NULL prints as empty). */
int rigor_table_add(rigor_table_t *t, const char *const *cells);
/* text: aligned columns; md: a pipe table; csv: RFC 4180 with a "# title" line first. HTML
 * renders tables itself. */
void rigor_table_print(const rigor_table_t *t, rigor_format_t fmt, FILE *out);
void rigor_table_free(rigor_table_t *t);

/* Human units: times (ns, us, ms, s), rates (decimal: B/s, KB/s, MB/s, GB/s, TB/s), fractions
 * as percentages. NaN prints as "-". */
void rigor_fmt_time(char *buf, size_t len, double seconds);
void rigor_fmt_rate(char *buf, size_t len, double per_s, const char *unit);
void rigor_fmt_percent(char *buf, size_t len, double fraction, int plus);
void rigor_fmt_number(char *buf, size_t len, double v);

typedef enum { RIGOR_BY_VARIANT = 0, RIGOR_BY_POINT } rigor_by_t;

/* The report's tables for one experiment, in print order: summary, runs, iterations, metrics,
 * design effects, variance components (the last four only when they have rows). Returns the
 * count; the caller frees each with rigor_table_free. */
size_t rigor_report_tables(const rigor_exp_analysis_t *e, rigor_by_t by, rigor_table_t **tables,
                           size_t cap);
/* Notes for one experiment: truncated file, ignored samples, incomplete designs, design-effect
 * warnings, run failure reasons. An array of strings. */
json_t *rigor_report_notes(const rigor_analysis_t *a, const rigor_exp_analysis_t *e);

int rigor_report_write_tables(const rigor_analysis_t *a, rigor_format_t fmt, rigor_by_t by,
                              FILE *out);
/* JSON: every row with its statistics, plus one object per run (times, exactness, ok). */
json_t *rigor_report_json(const rigor_analysis_t *a);
int rigor_report_write_html(const rigor_analysis_t *a, rigor_by_t by, FILE *out);

#endif

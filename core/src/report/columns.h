/* The statistics of a report row, one table entry per column: the summary table and the JSON
 * report both read this table, so adding a statistic is adding an entry. */
#ifndef RIGOR_COLUMNS_H
#define RIGOR_COLUMNS_H

#include <jansson.h>

#include "analysis.h"
#include "table.h"

typedef struct rigor_stat_column {
  const char *header; /* in the summary table; NULL: JSON only */
  const char *key;    /* its CSV name; NULL: derived from the header (table.h) */
  const char *json;   /* dotted path in a row of the JSON report; NULL: tables only */
  rigor_col_kind_t kind;
  unsigned drop; /* the order in which a narrow terminal leaves it out (table.h); 0: never */
  double (*value)(const rigor_row_t *r);     /* numeric kinds; NaN for none */
  const char *(*text)(const rigor_row_t *r); /* RIGOR_COL_TEXT; NULL for none */
  /* Whether the summary table of e shows it (a rate the plugin did not report is left out);
   * NULL: always. */
  bool (*applies)(const rigor_exp_analysis_t *e);
} rigor_stat_column_t;

/* NULL-terminated (both header and json NULL), in table order. */
extern const rigor_stat_column_t rigor_stat_columns[];

/* The summary table's headers for e, NULL-terminated, and how many there are; `picked` gets the
 * rigor_stat_columns entry of each. */
size_t rigor_stat_headers(const rigor_exp_analysis_t *e, const char **headers,
                          const rigor_stat_column_t **picked, size_t cap);
/* Sets every column with a JSON path on `obj`, creating nested objects. */
void rigor_stat_json(const rigor_row_t *r, json_t *obj);

#endif

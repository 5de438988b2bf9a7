/* What part of a report people asked to see, shared by report and compare: --table NAME,
 * --columns A,B,... and --width N (text only; by default $COLUMNS, else the terminal's width
 * when stdout is one, else no limit). */
#ifndef RIGOR_REPORT_VIEW_H
#define RIGOR_REPORT_VIEW_H

#include <stdbool.h>

#include "document.h"

typedef struct rigor_report_view {
  const char *table, *columns;
  int width; /* -1 until --width sets it */
} rigor_report_view_t;

#define RIGOR_REPORT_VIEW_INIT                                                                     \
  { .table = NULL, .columns = NULL, .width = -1 }

/* Whether arg is one of the view's options (they all take a value). */
bool rigor_report_view_option(const char *arg);
/* Takes the option's value; -1 with a message on stderr (naming `cmd`) when it is bad. */
int rigor_report_view_set(rigor_report_view_t *v, const char *cmd, const char *arg,
                          const char *value);
/* Applies the view to doc; -1 with a message on stderr when a table or column is not there. */
int rigor_report_view_apply(const rigor_report_view_t *v, const char *cmd, rigor_doc_t *doc);

#endif

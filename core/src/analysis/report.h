/* The report of analysed results: its tables, notes and figures as one document (document.h)
 * that any writer shows, and its JSON form. */
#ifndef RIGOR_REPORT_H
#define RIGOR_REPORT_H

#include <jansson.h>
#include <stdio.h>

#include "analysis.h"
#include "document.h"
#include "table.h"

typedef enum { RIGOR_BY_VARIANT = 0, RIGOR_BY_POINT } rigor_by_t;

/* The report's tables for one experiment, in print order: summary, runs, builds, iterations,
 * iteration calibration, metrics, telemetry, design effects, variance components (the tables after
 * runs only when they have rows). Returns the count; the caller frees each with rigor_table_free.
 */
size_t rigor_report_tables(const rigor_exp_analysis_t *e, rigor_by_t by, rigor_table_t **tables,
                           size_t cap);
/* The iterations iters: auto chose per variant and point, from the ok runs' calibration
 * (report_calibration.c); no rows when no run calibrated. */
rigor_table_t *rigor_report_calibration_table(const rigor_exp_analysis_t *e);
/* The builds of a build axis: label, plugin, version, SHA-256 and file of each
 * (report_builds.c); no rows without builds. */
rigor_table_t *rigor_report_builds_table(const rigor_exp_analysis_t *e);
/* Appends a note for every two builds that load the same file (an A/A comparison). */
void rigor_report_builds_notes(const rigor_exp_analysis_t *e, json_t *notes);
/* Notes for one experiment: truncated file, ignored samples, incomplete designs, design-effect
 * warnings, run failure reasons. An array of strings. */
json_t *rigor_report_notes(const rigor_analysis_t *a, const rigor_exp_analysis_t *e);
/* The charts of one experiment (report_figures.c). */
void rigor_report_figures(rigor_doc_t *doc, const rigor_exp_analysis_t *e);
/* JSON: every row with its statistics, plus one object per run (times, exactness, ok). */
json_t *rigor_report_json(const rigor_analysis_t *a);

/* The whole report; it borrows from `a`, which must outlive it. */
rigor_doc_t *rigor_report_doc(const rigor_analysis_t *a, rigor_by_t by);

#endif

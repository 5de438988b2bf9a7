/* The report of analysed results: its tables, notes and figures as one document (document.h)
 * that any writer shows, and its JSON form. */
#ifndef RIGOR_REPORT_H
#define RIGOR_REPORT_H

#include <jansson.h>
#include <stdio.h>

#include "analysis.h"
#include "contrast_doc.h"
#include "document.h"
#include "table.h"

typedef enum { RIGOR_BY_VARIANT = 0, RIGOR_BY_POINT } rigor_by_t;

typedef struct rigor_report_opts {
  rigor_by_t by;
  /* "AXIS=LEVEL": the reference level of a contrasted axis (default: its first level). */
  const char *const *refs;
  size_t n_refs;
} rigor_report_opts_t;

/* The contrasts of one experiment: one set per matrix axis with more than one level, each
 * against the level `refs` names for it, or its first level. */
typedef struct rigor_exp_contrasts {
  rigor_contrasts_t **sets;
  size_t n;
} rigor_exp_contrasts_t;
int rigor_report_contrasts(const rigor_exp_analysis_t *e, const char *const *refs, size_t n_refs,
                           rigor_exp_contrasts_t *out);
void rigor_exp_contrasts_free(rigor_exp_contrasts_t *c);
/* 0 when some experiment of a has the axis and level of each "AXIS=LEVEL" of refs; otherwise
 * RIGOR_EINVAL with the reason. */
int rigor_report_refs_check(const rigor_analysis_t *a, const char *const *refs, size_t n_refs,
                            char *err, size_t errlen);

/* Each variant and point per node, where the runs name more than one node (report_setup.c);
 * no rows otherwise. */
rigor_table_t *rigor_report_nodes_table(const rigor_exp_analysis_t *e);
/* The report's tables for one experiment, in print order: summary, runs, nodes, builds,
 * replication, gate, expectations, iterations, iteration calibration, metrics, telemetry, design
 * effects, variance components (all but the first two only when they have rows). Returns the count;
 * the caller frees each with rigor_table_free. */
size_t rigor_report_tables(const rigor_exp_analysis_t *e, rigor_by_t by, rigor_table_t **tables,
                           size_t cap);
/* The iterations iters: auto chose per variant and point, from the ok runs' calibration
 * (report_setup.c); no rows when no run calibrated. */
rigor_table_t *rigor_report_calibration_table(const rigor_exp_analysis_t *e);
/* The builds of a build axis: label, plugin, version, SHA-256 and file of each
 * (report_setup.c); no rows without builds. */
rigor_table_t *rigor_report_builds_table(const rigor_exp_analysis_t *e);
/* Appends a note for every two builds that load the same file (an A/A comparison). */
void rigor_report_builds_notes(const rigor_exp_analysis_t *e, json_t *notes);
/* The stop record of adaptive replication (or of a deadline): why the experiment stopped and
 * every interval the rule read (report_setup.c); NULL without a stop record. */
rigor_table_t *rigor_report_replication_table(const rigor_exp_analysis_t *e);
/* Notes when max or the deadline stopped it short of its precision. */
void rigor_report_replication_notes(const rigor_exp_analysis_t *e, json_t *notes);
/* Notes for one experiment: truncated file, ignored samples, incomplete designs, design-effect
 * warnings, run failure reasons. An array of strings. */
json_t *rigor_report_notes(const rigor_analysis_t *a, const rigor_exp_analysis_t *e);
/* The charts of one experiment (report_figures.c): the curves of its rate against each numeric
 * axis, shown beside the statistics, and the rest (samples per point, execution order,
 * telemetry). */
typedef struct rigor_page_units {
  rigor_unit_t time, rate, flop_rate; /* one unit per quantity across the page */
} rigor_page_units_t;
/* The units every chart of a report of `a` shows its times and rates in. */
void rigor_page_units_of(const rigor_analysis_t *a, rigor_page_units_t *u);
void rigor_report_curves(rigor_doc_t *doc, const rigor_exp_analysis_t *e,
                         const rigor_page_units_t *u);
void rigor_report_figures(rigor_doc_t *doc, const rigor_exp_analysis_t *e,
                          const rigor_page_units_t *u);
/* JSON: every row with its statistics, the contrasts, and one object per run (times, exactness,
 * ok). `contrasts` has one entry per experiment of a, or is NULL for the default references. */
json_t *rigor_report_json(const rigor_analysis_t *a, const rigor_exp_contrasts_t *contrasts);

/* The whole report; it borrows from `a`, which must outlive it. */
rigor_doc_t *rigor_report_doc(const rigor_analysis_t *a, const rigor_report_opts_t *o);

#endif

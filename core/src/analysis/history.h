/* History: series over commits read from the results store, their change points, the CI gate,
 * and the reports (text, JSON rigor.history/1, a self-contained HTML page). A series is one
 * (experiment name, variant, point, metric, and the nodes where the runs name them) in commit
 * order; each commit's point is the row the
 * analysis of that commit's runs gives, with its gate verdict. */
#ifndef RIGOR_HISTORY_H
#define RIGOR_HISTORY_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "analysis.h"
#include "changepoint.h"
#include "store.h"

/* The detector needs this many stable points, the newest included, before it judges the newest
 * commit: with fewer, its t-test at p 0.001 cannot see even a step of 6 standard deviations
 * there, and the gate falls back to the A/B contrast with the previous commit. */
#define RIGOR_HISTORY_MIN_POINTS 8

typedef struct rigor_history_opts {
  const char *filter; /* series names (EXP/VARIANT/POINT/METRIC[@NODES]): a glob, else a substring
                         or an experiment hash prefix; NULL for all */
  const char *upto;   /* a commit: later points are left out; NULL for all */
  /* Detector parameters given on the command line; the rest come from the experiment's gate:
   * (change_significance, change_min_magnitude, change_window), then the defaults. */
  rigor_cpd_opts_t cpd;
  bool has_significance, has_min_magnitude, has_window;
} rigor_history_opts_t;
void rigor_history_opts_default(rigor_history_opts_t *o);

typedef struct rigor_history_point {
  size_t commit;  /* index into rigor_history_t.commits */
  char *hash;     /* the experiment's config hash at that commit */
  size_t runs, n; /* ok runs; usable samples */
  double value;   /* the median (time per operation, or the metric) */
  double lo, hi;  /* 95% interval of the geometric mean of run medians; NaN with < 2 runs */
  double cv;
  rigor_verdict_t verdict; /* the gate's: only stable points enter detection */
  char reason[160];        /* why it is not stable */
  long change;             /* index into the series' changes when a change starts here, or -1 */
} rigor_history_point_t;

typedef struct rigor_history_change {
  size_t point;            /* index into the series' points */
  rigor_change_point_t cp; /* indices count stable points only */
  double lo, hi;           /* 95% interval of the change (ratio of geometric means - 1) */
  bool regression;         /* by the metric's direction */
} rigor_history_change_t;

typedef struct rigor_series {
  char *experiment, *variant, *point_label, *metric, *unit;
  /* The nodes the row's runs ran on (slurm.node, sorted, joined by commas), or NULL: figures
   * of different nodes are different series. */
  char *nodes;
  char *name; /* EXP/VARIANT/POINT/METRIC, then @NODES when the runs name their nodes */
  bool higher_better;
  /* A flag (rigor_metric_is_flag at every commit): its points are shown, never judged, and the
   * detector does not run on it. */
  bool flag;
  rigor_history_point_t *points;
  size_t n_points;
  rigor_history_change_t *changes;
  size_t n_changes;
  size_t n_stable;
  rigor_cpd_opts_t cpd; /* the parameters the detector ran with */
} rigor_series_t;

typedef struct rigor_history {
  rigor_store_point_t *commits; /* in commit order */
  size_t n_commits;
  rigor_series_t *series;
  size_t n_series;
} rigor_history_t;

/* Reads the store's history and runs the detector on every series. */
int rigor_history_build(rigor_store_t *s, const rigor_history_opts_t *o, rigor_history_t **out,
                        char *err, size_t errlen);
void rigor_history_free(rigor_history_t *h);

/* The commit name (or unique prefix of at least 4 characters) among h's commits; -1 with a
 * message when none or several match. */
long rigor_history_find_commit(const rigor_history_t *h, const char *name, char *err,
                               size_t errlen);
/* A point's commit as the reports label it: the first 10 characters, or "import N". */
void rigor_history_commit_label(const rigor_history_t *h, size_t commit, char *buf, size_t len);

/* The analysis of one commit's stored runs, every execution of an experiment pooled. */
int rigor_history_commit_analysis(rigor_store_t *s, const rigor_history_t *h, size_t commit,
                                  rigor_analysis_t **out, char *err, size_t errlen);

/* The CI gate for `commit` (the newest point of h, which was built up to it): per series with a
 * point there, a regression change point opened at that commit, or, with fewer than
 * RIGOR_HISTORY_MIN_POINTS stable points, the A/B verdict of that commit against the previous
 * one (rigor compare's, which needs two runs a side). Prints why for each series; *regression
 * is set when any series regressed. */
int rigor_history_check(rigor_store_t *s, const rigor_history_t *h, size_t commit, FILE *out,
                        bool json, bool *regression, char *err, size_t errlen);

#endif

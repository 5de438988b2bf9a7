/* The stop rule of adaptive replication, kept as records are written rather than re-read from
 * the results file: fed every record of an experiment as it is appended, the accumulator holds,
 * per (variant, point), the sorted values of the row's figure (for its median and the smallest
 * gap between them) and each run's median, by run and by block. A judgement then reads only
 * those: the same half-widths, worst and targets that rigor_precision_worst and
 * rigor_contrasts_build give for an analysis of the file, bit for bit. */
#ifndef RIGOR_PRECISION_ACC_H
#define RIGOR_PRECISION_ACC_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct rigor_precision_acc rigor_precision_acc_t;

/* One interval the rule reads: a contrast's (contrast.h), or, for an experiment without a
 * matrix axis of several levels, a row's run-level interval. Strings are borrowed from the
 * judgement's accumulator or owned by the judgement (cell). */
typedef struct rigor_stop_target {
  bool contrast;
  const char *axis, *level, *reference; /* contrast */
  char *cell;                           /* contrast: the other axes' levels, "" when none */
  uint32_t variant;                     /* row */
  const char *variant_label;            /* row, may be NULL */
  uint32_t point;
  const char *point_label; /* may be NULL */
  size_t units;            /* complete blocks (or runs, for interleaved arms); a row's runs */
  double half_width;       /* 95%, log scale; INFINITY while it cannot be formed, 0 when exact */
  /* contrast: the mean log ratio, its standard error (floored as the interval's) and degrees of
   * freedom, from which an interval at another level is formed; NAN while units < 2. */
  double estimate, se, df;
  bool exact; /* contrast: both rows identical in every sample */
} rigor_stop_target_t;

typedef struct rigor_stop_judgement {
  bool known;   /* some record named the experiment */
  double worst; /* rigor_precision_worst's value */
  rigor_stop_target_t *targets;
  size_t n;
} rigor_stop_judgement_t;

/* Whether every contrast of j has a verdict (faster, slower or same at `threshold`) beyond doubt:
 * decided by the one rule (decide.c) from an interval at the level of the k-th look (k from 1),
 * 1 - 0.05 / (k (k + 1) contrasts): the looks' levels sum to 5% however many there are, so the
 * chance of any wrong verdict over every look and contrast stays under 5%. False without
 * contrasts, or while any contrast has fewer than two units. */
bool rigor_stop_all_decided(const rigor_stop_judgement_t *j, double threshold, uint32_t look);

rigor_precision_acc_t *rigor_precision_acc_new(void);
void rigor_precision_acc_free(rigor_precision_acc_t *acc);

/* Takes one record as it is appended to a results file (`source` names it in messages): an
 * experiment record, a sample, a run record; others are ignored. The record is checked as the
 * reader checks it. Returns 0, or an error with `err`: a malformed record, a second experiment
 * record of the name with another hash, out of memory. */
int rigor_precision_acc_feed(rigor_precision_acc_t *acc, const char *source, const json_t *rec,
                             char *err, size_t errlen);

/* The rule's intervals for `experiment` as the records fed so far give them. Its cost grows with
 * the rows, runs and blocks, not with the samples (each run of interleaved arms is paired once
 * and kept). Returns 0 or RIGOR_ENOMEM. */
int rigor_precision_acc_judge(rigor_precision_acc_t *acc, const char *experiment,
                              rigor_stop_judgement_t *out);
void rigor_stop_judgement_free(rigor_stop_judgement_t *j);

#endif

/* Adaptive replication (order.replicates: {min, max, precision}): the runner's callbacks, which
 * follow the records as they are written (an accumulator of the judge, precision_acc.h, never
 * a re-read of the results file) and say whether the experiment's answer is precise enough, and
 * the stop record that says why it stopped. */
#ifndef RIGOR_ADAPTIVE_H
#define RIGOR_ADAPTIVE_H

#include <jansson.h>
#include <stdbool.h>

#include "precision_acc.h"
#include "runner.h"

typedef struct rigor_adaptive {
  bool quiet;                 /* print nothing when an experiment stops */
  bool resume;                /* the runner resumes results files (--resume): each is read once */
  rigor_precision_acc_t *acc; /* made by the first record it follows */
  const rigor_job_t **read;   /* the jobs whose resumed file has been read */
  size_t n_read;
} rigor_adaptive_t;

/* A rigor_run_opts_t.on_record; arg is a rigor_adaptive_t. Follows the records of every
 * experiment that can be stopped (adaptive, or with a deadline); on --resume the job's first
 * record reads its results file instead (rigor_adaptive_catch_up). */
int rigor_adaptive_on_record(void *arg, const rigor_job_t *job, const json_t *rec, char *err,
                             size_t errlen);

/* Before a judgement of the job: on --resume, what its results file held (with what the runner
 * appended since), read once. Returns 0 or an error with `err`. */
int rigor_adaptive_catch_up(rigor_adaptive_t *ad, const rigor_job_t *job, char *err, size_t errlen);

/* A rigor_run_opts_t.after_block; arg is a rigor_adaptive_t. From min blocks on, after every
 * complete block: the worst 95% half-width of every contrast (or, without contrasts, of every
 * row's run-level interval; rigor_precision_worst) against the precision. The experiment stops
 * at the first block count where it is reached and the design's square is complete (or cannot
 * be completed within max), at max, or at the deadline; each writes a stop record. A fixed number
 * of blocks writes one only when the deadline cut it short. */
int rigor_adaptive_after_block(void *arg, const rigor_block_report_t *b, json_t **record, char *err,
                               size_t errlen);

void rigor_adaptive_free(rigor_adaptive_t *ad);

#endif

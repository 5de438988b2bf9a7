/* Adaptive replication (order.replicates: {min, max, precision}): the runner's after_block
 * callback, which reads the results written so far and says whether the experiment's answer is
 * precise enough, and the stop record that says why it stopped. */
#ifndef RIGOR_ADAPTIVE_H
#define RIGOR_ADAPTIVE_H

#include <jansson.h>
#include <stdbool.h>

#include "runner.h"

typedef struct rigor_adaptive {
  bool quiet; /* print nothing when an experiment stops */
} rigor_adaptive_t;

/* A rigor_run_opts_t.after_block; arg is a rigor_adaptive_t. From min blocks on, after every
 * complete block: the worst 95% half-width of every contrast (or, without contrasts, of every
 * row's run-level interval; rigor_precision_worst) against the precision. The experiment stops
 * at the first block count where it is reached and the design's square is complete (or cannot
 * be completed within max), at max, or at the deadline; each writes a stop record. A fixed number
 * of blocks writes one only when the deadline cut it short. */
bool rigor_adaptive_after_block(void *arg, const rigor_block_report_t *b, json_t **record);

#endif

/* How long an experiment will take, before it runs: from its past runs in its results file when
 * there are any, else the bounds its timing settings set. */
#ifndef RIGOR_PLAN_ESTIMATE_H
#define RIGOR_PLAN_ESTIMATE_H

#include <stdio.h>

#include "experiment.h"

/* Writes "  expected time: ..." lines for e to out. */
void rigor_plan_estimate_print(FILE *out, const rigor_experiment_t *e);

#endif

/* The memory a run holds at once, from the plugin's footprint hook: one instance per run, or
 * every arm's instance together with interleaved arms. rigor plan shows it; rigor run refuses an
 * experiment whose runs cannot fit in what the machine has available. */
#ifndef RIGOR_RUN_MEMORY_H
#define RIGOR_RUN_MEMORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "experiment.h"

/* The most bytes any run of e holds at once; 0 when the plugin cannot say for some variant. */
uint64_t rigor_run_memory(const rigor_experiment_t *e);

/* MemAvailable of /proc/meminfo in bytes; 0 when unknown. */
uint64_t rigor_memory_available(void);

/* "  memory: ..." for rigor plan, or nothing when the plugin cannot say. */
void rigor_run_memory_print(FILE *out, const rigor_experiment_t *e);

/* false, with a message naming the experiment and both sizes, when a run cannot fit. */
bool rigor_run_memory_fits(const rigor_experiment_t *e, char *err, size_t errlen);

#endif

/* OpenMP's empty parallel region, measured beside the plugin's own pool. */
#ifndef X280_FORKJOIN_OMP_H
#define X280_FORKJOIN_OMP_H

#include <stdbool.h>

#include "x280_state.h"

/* Whether the plugin was built with OpenMP. */
bool x280_forkjoin_omp_available(void);
/* Pins OpenMP's team like the pool: thread k to cpus[k]. Without it the team inherits the
 * caller's affinity, which the pool has narrowed to one CPU. libgomp keeps the same threads for
 * later regions. Returns 0 or a negative errno-style code. */
int x280_forkjoin_omp_pin(const int *cpus, unsigned threads);
/* One parallel region of `threads` threads; each adds one to its slot's call count. */
void x280_forkjoin_omp(unsigned threads, x280_slot_t *slots);
/* The OpenMP version (_OPENMP, yyyymm), 0 without OpenMP. */
long x280_forkjoin_omp_version(void);

#endif

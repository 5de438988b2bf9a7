/* OpenMP's empty parallel region, measured beside the plugin's own pool. */
#ifndef X280_FORKJOIN_OMP_H
#define X280_FORKJOIN_OMP_H

#include <stdbool.h>
#include <stddef.h>

#include "x280_state.h"

/* Whether the plugin was built with OpenMP. */
bool x280_forkjoin_omp_available(void);
/* Pins OpenMP's team like the pool: thread k to cpus[k]. Without it the team inherits the
 * caller's affinity, which the pool has narrowed to one CPU. libgomp keeps the same threads for
 * later regions. bound[k] is then the one CPU thread k may run on, read back from its own mask
 * (-1 when it may run on several). Returns 0 or a negative errno-style code. */
int x280_forkjoin_omp_pin(const int *cpus, unsigned threads, int *bound);
/* Gives every thread of a team of `threads` the affinity `mask` (a cpu_set_t) back. */
void x280_forkjoin_omp_release(unsigned threads, const void *mask, size_t mask_size);
/* One parallel region of `threads` threads; each adds one to its slot's call count. */
void x280_forkjoin_omp(unsigned threads, x280_slot_t *slots);
/* The OpenMP version (_OPENMP, yyyymm), 0 without OpenMP. */
long x280_forkjoin_omp_version(void);

#endif

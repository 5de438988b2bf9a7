#include "forkjoin_omp.h"

#ifdef _OPENMP
#include <omp.h>

bool x280_forkjoin_omp_available(void) {
  return true;
}

/* proc_bind(close) pins the team like the plugin's pool is pinned, so both pay the same for
 * locality. */
void x280_forkjoin_omp(unsigned threads, x280_slot_t *slots) {
#pragma omp parallel num_threads(threads) proc_bind(close)
  slots[omp_get_thread_num()].calls++;
}

long x280_forkjoin_omp_version(void) {
  return _OPENMP;
}

#else

bool x280_forkjoin_omp_available(void) {
  return false;
}

void x280_forkjoin_omp(unsigned threads, x280_slot_t *slots) {
  (void)threads, (void)slots;
}

long x280_forkjoin_omp_version(void) {
  return 0;
}

#endif

#include "x280_forkjoin_omp.h"

#ifdef _OPENMP
#include <omp.h>
#include <pthread.h>
#include <sched.h>

bool x280_forkjoin_omp_available(void) {
  return true;
}

int x280_forkjoin_omp_pin(const int *cpus, unsigned threads) {
  int failed = 0;
#pragma omp parallel num_threads(threads) reduction(+ : failed)
  {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpus[omp_get_thread_num()], &set);
    failed += pthread_setaffinity_np(pthread_self(), sizeof set, &set) != 0;
  }
  return failed == 0 ? 0 : -22;
}

void x280_forkjoin_omp(unsigned threads, x280_slot_t *slots) {
#pragma omp parallel num_threads(threads)
  slots[omp_get_thread_num()].calls++;
}

long x280_forkjoin_omp_version(void) {
  return _OPENMP;
}

#else

bool x280_forkjoin_omp_available(void) {
  return false;
}

int x280_forkjoin_omp_pin(const int *cpus, unsigned threads) {
  (void)cpus, (void)threads;
  return 0;
}

void x280_forkjoin_omp(unsigned threads, x280_slot_t *slots) {
  (void)threads, (void)slots;
}

long x280_forkjoin_omp_version(void) {
  return 0;
}

#endif

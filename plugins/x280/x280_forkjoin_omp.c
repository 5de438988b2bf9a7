#include "x280_forkjoin_omp.h"

#ifdef _OPENMP
#include <omp.h>
#include <pthread.h>
#include <sched.h>

bool x280_forkjoin_omp_available(void) {
  return true;
}

int x280_forkjoin_omp_pin(const int *cpus, unsigned threads, int *bound) {
  int failed = 0;
  for (unsigned k = 0; k < threads; k++)
    bound[k] = -1;
#pragma omp parallel num_threads(threads) reduction(+ : failed)
  {
    const int k = omp_get_thread_num();
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpus[k], &set);
    failed += pthread_setaffinity_np(pthread_self(), sizeof set, &set) != 0;
    if (pthread_getaffinity_np(pthread_self(), sizeof set, &set) == 0 && CPU_COUNT(&set) == 1)
      for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
        if (CPU_ISSET(cpu, &set)) bound[k] = cpu;
  }
  return failed == 0 ? 0 : -22;
}

void x280_forkjoin_omp_release(unsigned threads, const void *mask, size_t mask_size) {
#pragma omp parallel num_threads(threads)
  pthread_setaffinity_np(pthread_self(), mask_size, mask);
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

int x280_forkjoin_omp_pin(const int *cpus, unsigned threads, int *bound) {
  (void)cpus;
  for (unsigned k = 0; k < threads; k++)
    bound[k] = -1;
  return 0;
}

void x280_forkjoin_omp_release(unsigned threads, const void *mask, size_t mask_size) {
  (void)threads, (void)mask, (void)mask_size;
}

void x280_forkjoin_omp(unsigned threads, x280_slot_t *slots) {
  (void)threads, (void)slots;
}

long x280_forkjoin_omp_version(void) {
  return 0;
}

#endif

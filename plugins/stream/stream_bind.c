#include "stream_bind.h"

#include <errno.h>
#include <omp.h>
#include <pthread.h>
#include <sched.h>

int stream_bind_place(stream_bind_t policy, int thread, int threads, int places) {
  if (places <= 0 || threads <= 0) return 0;
  if (policy == STREAM_BIND_CLOSE && threads <= places) return thread;
  return (int)((long long)thread * places / threads);
}

/* The one CPU the calling thread may run on, -1 when it may run on several. */
static int only_cpu(void) {
  cpu_set_t set;
  if (pthread_getaffinity_np(pthread_self(), sizeof set, &set) != 0 || CPU_COUNT(&set) != 1)
    return -1;
  for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
    if (CPU_ISSET(cpu, &set)) return cpu;
  return -1;
}

int stream_bind_team(stream_bind_t policy, const int *cpus, int n_cpus, int threads, int *bound) {
  int failed = 0;
  for (int k = 0; k < threads; k++)
    bound[k] = -1;
#pragma omp parallel num_threads(threads) reduction(max : failed)
  {
    const int k = omp_get_thread_num();
    if (policy != STREAM_BIND_NONE && n_cpus > 0) {
      const int cpu = cpus[stream_bind_place(policy, k, threads, n_cpus)];
      cpu_set_t set;
      CPU_ZERO(&set);
      if (cpu >= 0 && cpu < CPU_SETSIZE) CPU_SET(cpu, &set);
      failed = pthread_setaffinity_np(pthread_self(), sizeof set, &set);
    }
    bound[k] = only_cpu();
  }
  return failed ? -(failed > 0 ? failed : EINVAL) : 0;
}

void stream_bind_release(int threads, const void *mask, size_t mask_size) {
#pragma omp parallel num_threads(threads)
  pthread_setaffinity_np(pthread_self(), mask_size, mask);
}

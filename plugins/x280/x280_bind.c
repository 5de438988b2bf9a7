#include "x280_bind.h"

#include <stddef.h>

const char *const x280_bind_names[] = {"spread", "close", NULL};

unsigned x280_bind_place(x280_bind_t policy, unsigned thread, unsigned threads, unsigned places) {
  if (places == 0 || threads == 0) return 0;
  if (policy == X280_BIND_CLOSE && threads <= places) return thread;
  return (unsigned)((unsigned long long)thread * places / threads);
}

void x280_bind_map(x280_bind_t policy, const int *cpus, unsigned n_cpus, unsigned threads,
                   int *out) {
  for (unsigned k = 0; k < threads; k++)
    out[k] = n_cpus ? cpus[x280_bind_place(policy, k, threads, n_cpus)] : 0;
}

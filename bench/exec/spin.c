/* Commands for the exec benchmarks.
 *   spin WORK           runs WORK rounds of a dependent integer chain (fixed work) and exits 0
 *   spin --calibrate MS prints the WORK that takes about MS milliseconds here, unloaded
 *   spin --sleep MS     sleeps MS milliseconds (fixed wall time, whatever the load)
 *   spin --empty        exits at once (the per-execution overhead probe) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t chain(uint64_t work) {
  uint64_t x = 88172645463325252ull;
  for (uint64_t i = 0; i < work; i++) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
  }
  return x;
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int compare(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  if (argc == 2 && strcmp(argv[1], "--empty") == 0) return 0;
  if (argc == 3 && strcmp(argv[1], "--sleep") == 0) {
    double s = atof(argv[2]) * 1e-3;
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    while (nanosleep(&ts, &ts) != 0)
      ;
    return 0;
  }
  if (argc == 3 && strcmp(argv[1], "--calibrate") == 0) {
    double target = atof(argv[2]) * 1e-3, t[9];
    uint64_t probe = 1u << 24;
    for (int i = 0; i < 9; i++) {
      double t0 = now_s();
      volatile uint64_t sink = chain(probe);
      (void)sink;
      t[i] = now_s() - t0;
    }
    qsort(t, 9, sizeof *t, compare); /* the fastest: the nearest to unloaded */
    printf("%llu\n", (unsigned long long)((double)probe * target / t[0]));
    return 0;
  }
  if (argc != 2) {
    fprintf(stderr, "usage: spin WORK | spin --calibrate MS | spin --empty\n");
    return 2;
  }
  return chain(strtoull(argv[1], NULL, 10)) == 42 ? 1 : 0;
}

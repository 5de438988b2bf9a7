/* A background load that ramps: for SECONDS, in slices of 10 ms, it spins for a share of each
 * slice that grows linearly from 0 to MAX (0..1), pinned to CPU. It plants a drift that a
 * sequential benchmark order mistakes for a difference between commands.
 *   ramp SECONDS MAX CPU */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: ramp SECONDS MAX CPU\n");
    return 2;
  }
  double seconds = atof(argv[1]), max = atof(argv[2]);
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(atoi(argv[3]), &set);
  if (sched_setaffinity(0, sizeof set, &set) != 0) perror("ramp: sched_setaffinity");
  const double slice = 0.010;
  volatile unsigned long sink = 0;
  double start = now_s();
  for (double t = 0; t < seconds; t = now_s() - start) {
    double busy = slice * max * t / seconds, slice_start = now_s();
    while (now_s() - slice_start < busy)
      sink++;
    double rest = slice - (now_s() - slice_start);
    if (rest > 0) {
      struct timespec ts = {0, (long)(rest * 1e9)};
      nanosleep(&ts, NULL);
    }
  }
  return 0;
}

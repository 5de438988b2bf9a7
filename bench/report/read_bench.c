/* The results reader alone: streams a file through rigor_results_read with callbacks that only
 * count, and prints the throughput (wall and CPU). usage: read_bench FILE [REPEAT] */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>

#include "reader.h"

typedef struct counts {
  size_t samples, records;
  double time_sum; /* so the compiler keeps the reads */
} counts_t;

static int count_sample(void *arg, const rigor_sample_t *s) {
  counts_t *c = arg;
  c->samples++;
  c->time_sum += s->time_s;
  return 0;
}

static int count_record(void *arg, json_t *rec, const char *type, size_t line) {
  (void)rec, (void)type, (void)line;
  ((counts_t *)arg)->records++;
  return 0;
}

static double seconds(clockid_t clock) {
  struct timespec ts;
  clock_gettime(clock, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: read_bench FILE [REPEAT]\n");
    return 2;
  }
  int repeat = argc > 2 ? atoi(argv[2]) : 3;
  struct stat st;
  if (stat(argv[1], &st) != 0) {
    perror(argv[1]);
    return 1;
  }
  double mb = (double)st.st_size / 1e6, best_wall = 1e300, best_cpu = 1e300;
  counts_t c = {0};
  for (int r = 0; r < repeat; r++) {
    c = (counts_t){0};
    rigor_results_callbacks_t cb = {.sample = count_sample, .record = count_record, .arg = &c};
    bool truncated;
    char err[1024];
    double w0 = seconds(CLOCK_MONOTONIC), c0 = seconds(CLOCK_PROCESS_CPUTIME_ID);
    if (rigor_results_read(argv[1], &cb, &truncated, err, sizeof err) != 0) {
      fprintf(stderr, "read_bench: %s\n", err);
      return 1;
    }
    double wall = seconds(CLOCK_MONOTONIC) - w0, cpu = seconds(CLOCK_PROCESS_CPUTIME_ID) - c0;
    if (wall < best_wall) best_wall = wall;
    if (cpu < best_cpu) best_cpu = cpu;
  }
  printf("%s: %zu samples, %zu other records, %.1f MB: best of %d %.3f s wall (%.0f MB/s), "
         "%.3f s CPU (%.0f MB/s)\n",
         argv[1], c.samples, c.records, mb, repeat, best_wall, mb / best_wall, best_cpu,
         mb / best_cpu);
  return 0;
}

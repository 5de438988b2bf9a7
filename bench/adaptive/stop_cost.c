/* The cost of one stop decision of adaptive replication as an experiment grows: the old way
 * (load the whole results file, analyse it, rigor_precision_worst) against the accumulator the
 * runner's records feed (rigor_precision_acc_judge), at the same blocks of one synthetic
 * experiment: two levels of one axis, POINTS points, CYCLES cycles per run, one run per level and
 * block, times drawn around 1 ms and 1.1 ms. Each figure is the median of several decisions.
 * usage: stop_cost FILE [POINTS [CYCLES]] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis.h"
#include "contrast.h"
#include "inference.h"
#include "precision_acc.h"

#define MAX_BLOCKS 200

static const int report_at[] = {3, 10, 50, 100, 200};

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median_of(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static json_t *experiment_record(void) {
  return json_pack("{s:s, s:s, s:s, s:s, s:[{s:i, s:s, s:{s:s}}, {s:i, s:s, s:{s:s}}], "
                   "s:{s:{s:[{s:s, s:[{s:s, s:s}, {s:s, s:s}]}]}}, s:{s:s}}",
                   "schema", "rigor.result/1", "type", "experiment", "experiment", "bench", "hash",
                   "bench", "variants", "index", 0, "label", "a", "axes", "method", "a", "index", 1,
                   "label", "b", "axes", "method", "b", "config", "matrix", "axes", "axis",
                   "method", "values", "value", "a", "label", "a", "value", "b", "label", "b",
                   "schedule", "design", "sequential");
}

/* Appends a record to the file and hands it to the accumulator; returns the seconds the
 * accumulator took. */
static double emit(FILE *f, rigor_precision_acc_t *acc, json_t *rec) {
  char *line = json_dumps(rec, JSON_COMPACT);
  fprintf(f, "%s\n", line);
  free(line);
  char err[512];
  double t0 = now_s();
  if (rigor_precision_acc_feed(acc, "bench", rec, err, sizeof err)) {
    fprintf(stderr, "stop_cost: %s\n", err);
    exit(1);
  }
  double t = now_s() - t0;
  json_decref(rec);
  return t;
}

/* One block: a run of each level, every point and cycle of it. */
static double emit_block(FILE *f, rigor_precision_acc_t *acc, int block, int points, int cycles,
                         unsigned *seed) {
  double fed = 0;
  for (int v = 0; v < 2; v++) {
    int run = block * 2 + v;
    for (int c = 0; c < cycles; c++)
      for (int p = 0; p < points; p++) {
        double noise = 1 + 0.02 * ((double)rand_r(seed) / RAND_MAX - 0.5);
        char label[32];
        snprintf(label, sizeof label, "n=%d", p);
        fed += emit(f, acc,
                    json_pack("{s:s, s:s, s:s, s:i, s:i, s:i, s:i, s:i, s:s, s:s, s:f, s:i, "
                              "s:i}",
                              "schema", "rigor.result/1", "type", "sample", "experiment", "bench",
                              "run", run, "attempt", 1, "variant", v, "point", p, "cycle", c,
                              "point_label", label, "status", "ok", "time_s",
                              (v ? 1.1e-3 : 1e-3) * noise, "iters", 10, "agg", 1));
      }
    fed += emit(f, acc,
                json_pack("{s:s, s:s, s:s, s:i, s:i, s:i, s:i, s:i, s:s, s:s}", "schema",
                          "rigor.result/1", "type", "run", "experiment", "bench", "run", run,
                          "attempt", 1, "block", block, "position", v, "variant", v, "status", "ok",
                          "label", v ? "b" : "a"));
  }
  fflush(f);
  return fed;
}

/* The old decision: the file read and analysed whole, then the rule. */
static double decide_by_reading(const char *path, double *worst) {
  double t0 = now_s();
  rigor_analysis_t *a = NULL;
  char err[1024];
  if (rigor_analysis_load(&path, 1, &a, err, sizeof err)) {
    fprintf(stderr, "stop_cost: %s\n", err);
    exit(1);
  }
  *worst = rigor_precision_worst(&a->exps[0], NULL, NULL);
  rigor_analysis_free(a);
  return now_s() - t0;
}

/* What the rule's t quantiles alone cost at this many blocks: one per interval, whichever way the
 * intervals are kept (its iterations grow with the degrees of freedom). */
static double quantiles_alone(int blocks, int intervals) {
  double t0 = now_s(), sink = 0;
  for (int i = 0; i < intervals; i++)
    sink += rigor_student_t_quantile(0.975, (double)(blocks - 1));
  return sink > 0 ? now_s() - t0 : 0;
}

static double decide_by_accumulator(rigor_precision_acc_t *acc, double *worst) {
  double t0 = now_s();
  rigor_stop_judgement_t j;
  if (rigor_precision_acc_judge(acc, "bench", &j)) exit(1);
  *worst = j.worst;
  rigor_stop_judgement_free(&j);
  return now_s() - t0;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: stop_cost FILE [POINTS [CYCLES]]\n");
    return 2;
  }
  int points = argc > 2 ? atoi(argv[2]) : 4, cycles = argc > 3 ? atoi(argv[3]) : 10;
  FILE *f = fopen(argv[1], "w");
  rigor_precision_acc_t *acc = rigor_precision_acc_new();
  if (!f || !acc || points < 1 || cycles < 1) return 1;
  unsigned seed = 1;
  emit(f, acc, experiment_record());
  printf("%d points x %d cycles per run, 2 levels: a block is %d samples\n", points, cycles,
         2 * points * cycles);
  printf("%6s %9s %14s %17s %15s %16s %s\n", "block", "file KiB", "re-read (us)",
         "accumulator (us)", "t quantiles (us)", "feed/block (us)", "same worst");
  size_t next = 0;
  for (int b = 0; b < MAX_BLOCKS; b++) {
    double fed = emit_block(f, acc, b, points, cycles, &seed);
    if (next >= sizeof report_at / sizeof *report_at || b + 1 != report_at[next]) continue;
    next++;
    double old_t[9], new_t[101], q_t[101], w_old = 0, w_new = 0;
    for (int r = 0; r < 9; r++)
      old_t[r] = decide_by_reading(argv[1], &w_old);
    for (int r = 0; r < 101; r++) {
      new_t[r] = decide_by_accumulator(acc, &w_new);
      q_t[r] = quantiles_alone(b + 1, points);
    }
    long size = ftell(f);
    printf("%6d %9.1f %14.1f %17.2f %15.2f %16.1f %s\n", b + 1, (double)size / 1024,
           1e6 * median_of(old_t, 9), 1e6 * median_of(new_t, 101), 1e6 * median_of(q_t, 101),
           1e6 * fed, w_old == w_new || (isinf(w_old) && isinf(w_new)) ? "yes" : "NO");
  }
  fclose(f);
  rigor_precision_acc_free(acc);
  return 0;
}

/* Writes rigor.result/1 files for the analysis tests. */
#ifndef RIGOR_TEST_FIXTURE_H
#define RIGOR_TEST_FIXTURE_H

#include <stdint.h>
#include <stdio.h>

#include "rng.h"

typedef struct fx_spec {
  const char *name;   /* experiment */
  const char *design; /* schedule design */
  uint32_t n_variants, n_blocks, cycles, points;
  const char *cpu_model; /* identity.cpu.model */
  const char *plugin_version;
  double base_time; /* seconds per operation */
  double cv;        /* relative noise of each sample */
  double run_sd;    /* relative sd of a factor drawn once per run (process-to-process noise) */
  double drift;    /* the machine drifts linearly by this fraction from the first run to the last */
  double quantum;  /* times are rounded to multiples of this (seconds), or 0 */
  double outlier;  /* extra fraction on cycle 1 of run 0 (one slow cycle), or 0 */
  double slowdown; /* applied to level 1 of the axis (fraction) */
  uint32_t cells;  /* levels of a second axis, "threads" (1: none) */
  double first_cycle; /* extra fraction on cycle 0 */
  double position0;   /* extra fraction on position 0 */
  double bytes;       /* per operation */
  uint64_t seed;
  const char *metric; /* a plugin metric recorded per sample, or NULL */
  double metric_value;
  double metric_level1; /* the metric's value on level 1 of the axis when not 0 */
  int primary;          /* the plugin declares `metric` its primary figure */
  int wrong_run;        /* run whose samples fail the check (run status invalid), or -1 */
  int failed_run;       /* run that crashes after one cycle, or -1 */
  int interrupted_run;  /* run with an extra attempt 0 that has no run record, or -1 */
  int iterations;       /* record per-iteration stats */
  int raw_telemetry;    /* add telemetry_raw to run records */
  /* fx_write_interleaved: the relative sd of a factor drawn once per run on level 1 only, so
   * the window pairs of one run share it (correlated inside the run). */
  double arm_run_sd;
  /* fx_write: the blocks run on this many nodes (slurm.node n1, n2, ...: the first n_blocks /
   * nodes blocks on n1 and so on), 0 for runs without a slurm member; each node past the first
   * adds node_offset (a fraction) to its runs' times. */
  uint32_t nodes;
  double node_offset;
} fx_spec_t;

void fx_defaults(fx_spec_t *s);
/* Writes the file; the schedule is the cyclic square (b + j) mod n unless design is
 * "sequential". Run 1 carries the low_clock flag. The matrix has the axis timing.warmup with
 * n_variants / cells levels (0, 1, ...), and, with cells > 1, the axis threads (1, 2, ...) inside
 * it: variant v is level v / cells, cell v % cells. */
void fx_write(const char *path, const fx_spec_t *s);
/* The same experiment with its timing.warmup levels as interleaved arms (order.interleave, one
 * cell, ABBA): n_blocks runs, each hosting every level, the arm that goes first alternating by
 * cycle and by run; samples carry arm and slot. */
void fx_write_interleaved(const char *path, const fx_spec_t *s);

#endif

/* The core's timing settings (DESIGN.md, the timing state machine): their names, defaults and
 * canonical JSON form, shared by the config language that writes them and the runner that
 * obeys them. */
#ifndef RIGOR_TIMING_H
#define RIGOR_TIMING_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rigor/plugin.h"

typedef enum {
  RIGOR_BLOCKING_BATCH = 0,     /* nccl-tests -z 0 */
  RIGOR_BLOCKING_EACH,          /* -z 2 */
  RIGOR_BLOCKING_EACH_BARRIER,  /* -z 1 */
  RIGOR_BLOCKING_EACH_EXCLUDED, /* -z 3 */
} rigor_blocking_t;

typedef enum {
  RIGOR_AGGREGATE_RANK0 = 0,
  RIGOR_AGGREGATE_AVG,
  RIGOR_AGGREGATE_MIN,
  RIGOR_AGGREGATE_MAX,
} rigor_aggregate_t;

typedef enum { RIGOR_WINDOW_WALL = 0, RIGOR_WINDOW_CPUTIME } rigor_window_t;

/* JSON member names in `timing`: warmup, cycles, iters (an integer or "auto"), min_window
 * (seconds), agg, blocking ("batch" | "each" | "each_barrier" | "each_excluded"), per_iteration,
 * aggregate ("rank0" | "avg" | "min" | "max"), check, timeout (seconds), report ("wall" |
 * "cputime"), warmup_sizes ("points" | "powers_of_two"). */
typedef struct rigor_timing {
  uint32_t warmup; /* default 1  (nccl-tests -w) */
  uint32_t cycles; /* default 10 (nccl-tests -N; the seed's formal runs) */
  uint64_t iters;  /* default 20 (-n); 0 when iters_auto */
  /* iters: auto. During each run's warmup, per point, iters doubles from 1 until the measured
   * window reaches min_window (as Google Benchmark and pyperf calibrate their loops); every
   * cycle of the run then keeps that count. */
  bool iters_auto;
  double min_window_s; /* default 0.01 (10 ms) */
  uint64_t agg;        /* default 1  (-m) */
  rigor_blocking_t blocking;
  bool per_iteration;                /* default false (-I) */
  rigor_aggregate_t aggregate;       /* default avg (-a 1) */
  uint32_t check;                    /* default 1 (-c): validations after each window */
  double timeout_s;                  /* default 300 */
  rigor_window_t report;             /* default wall (-C 0) */
  rigor_warmup_sizes_t warmup_sizes; /* default points; powers_of_two as nccl-tests' TimeTest */
} rigor_timing_t;

extern const char *const rigor_blocking_names[];  /* indexed by rigor_blocking_t, NULL-terminated */
extern const char *const rigor_aggregate_names[]; /* indexed by rigor_aggregate_t */
extern const char *const rigor_window_names[];
extern const char *const rigor_warmup_sizes_names[]; /* indexed by rigor_warmup_sizes_t */

void rigor_timing_defaults(rigor_timing_t *t);
/* Reads a canonical timing object (missing members keep their defaults). */
int rigor_timing_from_json(const json_t *obj, rigor_timing_t *t, char *err, size_t errlen);
json_t *rigor_timing_to_json(const rigor_timing_t *t);

#endif

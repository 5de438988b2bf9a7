/* The timing state machine (nccl-tests BenchTime semantics; see DESIGN.md). */
#ifndef RIGOR_MEASURE_H
#define RIGOR_MEASURE_H

#include <jansson.h>

#include "context.h"
#include "sample_record.h"
#include "timing.h"

typedef struct rigor_clock_info {
  double resolution_s;
  double now_cost_s;
} rigor_clock_info_t;

/* Measures the clock's resolution and the cost of one now() call. */
void rigor_clock_probe(rigor_clock_info_t *info);

/* Receives each sample of rank 0 with the measured members filled: the receiver adds the run's
 * (experiment, run, attempt, variant, arm, slot) and builds or drops it. */
typedef void (*rigor_sample_fn)(void *arg, rigor_sample_record_t *sample);

typedef struct rigor_measure {
  rigor_ctx_t *ctx;
  const rigor_plugin_t *plugin;
  void *state;
  const rigor_timing_t *timing;
  const void *const *points; /* filled params structs */
  const json_t *point_objs;  /* array of {axis: value} */
  char **point_labels;
  uint32_t n_points;
  rigor_work_t *work;
  rigor_clock_info_t clock;
  rigor_sample_fn emit;
  void *emit_arg;
  /* Outcome. */
  uint64_t samples;
  uint64_t wrong_samples;
  uint64_t *iters;     /* while running, per point: the window's iterations (or calibrated) */
  json_t *calibration; /* iters: auto: [{point, iters, min_window_s, windows: [[iters, s]...]}] */
} rigor_measure_t;

/* Runs warmup (and, under iters: auto, the calibration of each point) and every cycle of every
 * point; emits one sample per (cycle, point). Returns 0, or the first error (the plugin's, or
 * RIGOR_ECANCELED when stopped). The caller takes m->calibration. */
int rigor_measure_run(rigor_measure_t *m);

/* The same in steps, for a run that interleaves several instances (arms.h): prepare runs the
 * warmup and the calibration of iters: auto; point measures one window of (cycle, point) and
 * emits its sample, with iter_buf room for rigor_measure_most_iters doubles when per_iteration;
 * release frees what prepare allocated (after the last point). should_stop returns the code of a
 * stop or deadline, 0 to go on. */
int rigor_measure_prepare(rigor_measure_t *m);
int rigor_measure_point(rigor_measure_t *m, uint32_t cycle, uint32_t pt, double *iter_buf);
uint64_t rigor_measure_most_iters(const rigor_measure_t *m);
int rigor_measure_should_stop(rigor_measure_t *m);
void rigor_measure_release(rigor_measure_t *m);

/* The shortest window that is not too short: STREAM's 20 clock resolutions, and 100 reads of the
 * clock, so that reading the clock itself costs at most 1% of the window (on a virtual machine
 * one read of CLOCK_MONOTONIC costs tens of nanoseconds, far above its 1 ns resolution). */
#define RIGOR_TOO_SHORT_TICKS       20
#define RIGOR_TOO_SHORT_CLOCK_READS 100
double rigor_window_floor(const rigor_clock_info_t *clock);
/* ok, too_short (a window under rigor_window_floor, or of zero length: never an infinite rate)
 * or invalid (a NaN or negative time). */
rigor_sample_status_t rigor_window_status(double elapsed_s, const rigor_clock_info_t *clock,
                                          double time_s);

/* iters: auto never doubles past this (2^40 iterations). */
#define RIGOR_CALIBRATION_MAX_ITERS (1ull << 40)

/* Per-operation time aggregated across ranks as `timing.aggregate` names. */
double rigor_aggregate_pick(rigor_aggregate_t how, double rank0, double avg, double min,
                            double max);

#endif

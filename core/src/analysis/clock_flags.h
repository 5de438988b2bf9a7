/* Runs whose clocks fell well below the experiment's usual clock (the nccl-tests methodology
 * study's 135 MHz run). */
#ifndef RIGOR_CLOCK_FLAGS_H
#define RIGOR_CLOCK_FLAGS_H

#include <jansson.h>
#include <stdbool.h>

/* `summaries` is an array with one telemetry summary per run (null entries are runs without
 * telemetry). For each clock signal (telemetry_names.h) the reference is the median, over the
 * runs that have it, of the per-run medians; run i is flagged (flagged[i] = true) when its
 * minimum of some clock signal is below threshold x reference. Returns the number of runs
 * flagged (or RIGOR_EINVAL); when `findings` is not NULL it receives an array of
 * {"run", "signal", "min", "reference", "threshold"}, one per (run, signal) below. */
int rigor_telemetry_flag_low_clock(const json_t *summaries, double threshold, bool *flagged,
                                   json_t **findings);

#endif

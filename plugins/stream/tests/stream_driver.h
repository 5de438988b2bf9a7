/* Drives a stream plugin module through the test host as the core's timing state machine does:
 * init; warmup (each point `warmup` times, run(point, 1)); per cycle per point prime, `iters`
 * runs of `agg`, validate; fini. */
#ifndef STREAM_DRIVER_H
#define STREAM_DRIVER_H

#include <stdint.h>

#include "test_host.h"

#define STREAM_DRIVER_MAX_POINTS 8

typedef struct stream_timing {
  unsigned warmup, cycles, iters, agg;
} stream_timing_t;

typedef struct stream_outcome {
  int init_rc;
  char error[512];       /* the host's first error */
  int validate_rc;       /* the first failing validate's code, else 0 */
  rigor_check_t failure; /* that validate's check */
  int failed_point;      /* its point, -1 for none */
  uint32_t validations;
  uint32_t n_points;
  uint64_t bytes[STREAM_DRIVER_MAX_POINTS]; /* work after each point's last window */
  double flops[STREAM_DRIVER_MAX_POINTS];
  double metrics[STREAM_DRIVER_MAX_POINTS]; /* the plugin's first metric after each point's last
                                              window (nt_stores for stream), NaN for none */
  double teams[STREAM_DRIVER_MAX_POINTS];   /* the second metric (stream's threads): the team that
                                               ran each point's last window */
  rigor_kv_t identity[40];
  int n_identity;
} stream_outcome_t;

/* Fills a params struct with the schema defaults, then applies "name=value" settings. */
void *stream_params_new(const rigor_plugin_t *d, const char *const *settings);
void stream_param_set(const rigor_plugin_t *d, void *params, const char *name, const char *value);

/* Runs the sweep `kernels` ("copy,scale,add,triad") with the base `settings` (NULL-terminated
 * "name=value" strings) through `plugin` in module `so`. */
void stream_drive(const char *so, const char *plugin, const char *kernels,
                  const char *const *settings, stream_timing_t timing, stream_outcome_t *out);

/* The same on a host whose run is bound to cpus[0..n_cpus) (host->cpus()); n_cpus 0 for none. */
void stream_drive_on(const char *so, const char *plugin, const char *kernels,
                     const char *const *settings, stream_timing_t timing, const int *cpus,
                     int n_cpus, stream_outcome_t *out);

/* The value of identity key `key`, or NULL. */
const char *stream_identity_get(const stream_outcome_t *o, const char *key);

#endif

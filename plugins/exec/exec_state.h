/* What one run of the exec plugin holds between its callbacks. */
#ifndef EXEC_STATE_H
#define EXEC_STATE_H

#include <limits.h>
#include <regex.h>
#include <stdbool.h>
#include <stdint.h>

#include "exec_metrics.h"
#include "exec_points.h"
#include "exec_spawn.h"
#include "rigor/plugin.h"

#define EXEC_ERR_TAIL 4096 /* stderr bytes kept for the record when no metric reads stderr */

typedef struct exec_state {
  rigor_ctx_t *ctx;
  const rigor_host_t *host;
  const rigor_points_t *points;
  exec_point_t *pts;
  uint32_t n_pts;
  uint32_t last; /* the point of the latest call, so run() finds its point without a search */
  bool ready;    /* init succeeded: fini runs cleanup */
  char tmp[PATH_MAX];
  exec_spawner_t sp;
  exec_sink_t out, err, hook_err;
  bool capture_out;
  bool have_expect;
  regex_t expect;
  exec_metric_t *metrics; /* from point 0: every point has the same metrics */
  size_t n_metrics;
  double timeout_s;
  double spawn_s; /* median start-and-wait time of an empty program through this path */
  char spawn_program[32];
  /* The current window. */
  uint64_t executions, failures;
  bool last_ok;
  char failure[200]; /* the first failed execution, for the check's detail */
} exec_state_t;

#endif

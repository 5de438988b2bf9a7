/* The plugin's parameters, filled by the core from the schema in pto_vf_schema.c. */
#ifndef PTO_VF_PARAMS_H
#define PTO_VF_PARAMS_H

#include <stdbool.h>

typedef struct pto_vf_params {
  const char *trace_dir;
  const char *vec_core;
  bool include_cube;
  bool preload;
  const char *runner;
  const char *runner_cwd;
  double runner_timeout;
  const char *golden;
  bool require_golden;
  const char *status_regex;
  const char *mismatches_regex;
  const char *max_abs_err_regex;
  const char *max_rel_err_regex;
  const char *build_flags;
  const char *workload;
  double atol;
  double rtol;
  double baseline_cycles;
  double benchmark_cycles;
  double malformed_threshold;
  const char *device_addrs;
  const char *timeline_csv;
  const char *timeline_json;
  const char *aggregates_csv;
} pto_vf_params_t;

#endif

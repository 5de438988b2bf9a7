/* The plugin's schema: its parameter and metric tables, and the slot of each metric in the values
 * metrics_read fills. */
#ifndef PTO_VF_SCHEMA_H
#define PTO_VF_SCHEMA_H

#include "rigor/plugin.h"

/* Entries of pto_vf_params_table; pto_vf_schema.c checks the count at compile time. */
#define PTO_VF_N_PARAMS 24

enum {
  PTO_VF_M_TOTAL,
  PTO_VF_M_FIRST_START,
  PTO_VF_M_LAST_END,
  PTO_VF_M_VF_COUNT,
  PTO_VF_M_EXEC_SUM,
  PTO_VF_M_EXEC_MIN,
  PTO_VF_M_EXEC_MAX,
  PTO_VF_M_REAL_SUM,
  PTO_VF_M_REAL_MIN,
  PTO_VF_M_REAL_MAX,
  PTO_VF_M_INSTR_COUNT,
  PTO_VF_M_UNMATCHED_STARTS,
  PTO_VF_M_UNMATCHED_ENDS,
  PTO_VF_M_CLASS_LOAD,
  PTO_VF_M_CLASS_COMPUTE,
  PTO_VF_M_CLASS_STORE,
  PTO_VF_M_CLASS_SYNC,
  PTO_VF_M_CLASS_OTHER,
  PTO_VF_M_MALFORMED,
  PTO_VF_M_SPEEDUP,
  PTO_VF_M_PERCENT,
  PTO_VF_M_GOLDEN_PASS,
  PTO_VF_M_MISMATCHES,
  PTO_VF_M_MAX_ABS,
  PTO_VF_M_MAX_REL,
  PTO_VF_M_ATOL,
  PTO_VF_M_RTOL,
  PTO_VF_M_RUNNER_EXIT,
  PTO_VF_M_RUNNER_WALL,
  PTO_VF_M_DETERMINISTIC,
  PTO_VF_M_REPEATS,
  PTO_VF_M_MEDIAN,
  PTO_VF_M_SPREAD,
  PTO_VF_M_VALID,
  PTO_VF_M_COUNT
};

extern const rigor_param_t pto_vf_params_table[]; /* PTO_VF_N_PARAMS entries */
extern const rigor_metric_t pto_vf_metrics_table[PTO_VF_M_COUNT];

#endif

/* Synthetic CAModel dumps with known answers, for tests, benchmarks and sample configs. */
#ifndef PTO_VF_GEN_H
#define PTO_VF_GEN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "pto_vf_class.h"

typedef enum {
  VF_GEN_LAYOUT_FULL = 0,  /* end records carry addr, instr_num and both times */
  VF_GEN_LAYOUT_TIMES = 1, /* end records are "VF , vf_execute_time: N, vf_real_execute_time: M" */
  VF_GEN_LAYOUT_MIXED = 2,
} vf_gen_layout_t;

typedef struct vf_gen_opts {
  uint64_t vf_count;        /* VFs to write; ignored when target_bytes is set */
  uint64_t target_bytes;    /* keep writing VFs until both files hold this many bytes */
  bool with_ids;            /* A5 "(ID: n)" format, or A2 without IDs */
  uint32_t noise_per_vf;    /* non-VF instructions around each VF */
  uint32_t malformed_every; /* one malformed line in each file every N VFs; 0 for none */
  vf_gen_layout_t layout;
  uint64_t seed;
  uint64_t start_cycle;
  uint64_t cycle_scale; /* multiplies every gap and latency; 0 means 1 (a slower candidate) */
} vf_gen_opts_t;

typedef struct vf_gen_truth {
  uint64_t vf_count;
  uint64_t first_start, last_end, total;
  uint64_t exec_sum, exec_min, exec_max;
  uint64_t real_sum, real_min, real_max;
  uint64_t instr_num_sum;
  uint64_t malformed;
  uint64_t class_count[VF_CLASS_COUNT]; /* over the instr_log records */
  uint64_t bytes;
} vf_gen_truth_t;

/* Returns 0, or -EIO when a write failed. */
int vf_gen_write(FILE *starts, FILE *ends, const vf_gen_opts_t *opts, vf_gen_truth_t *truth);

#endif

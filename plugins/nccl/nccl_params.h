/* The plugin's params struct: one per sweep point, filled by the core from the schema. */
#ifndef RIGOR_NCCL_PARAMS_H
#define RIGOR_NCCL_PARAMS_H

#include <stdbool.h>
#include <stdint.h>

typedef struct nccl_params {
  int32_t collective; /* nccl_coll_t */
  int32_t dtype;      /* nccl_dtype_id_t */
  int32_t op;         /* nccl_op_t */
  int32_t placement;  /* nccl_placement_t */
  uint64_t bytes;
  int64_t root;
  int64_t gpus_per_process;
  int64_t device;      /* first device of this process; -1: local rank x gpus_per_process */
  double poll_timeout; /* seconds; 0 waits forever */
  int32_t check_on;    /* nccl_check_on_t */
  bool graph;          /* launch each iteration from a CUDA graph (nccl-tests -G) */
} nccl_params_t;

#endif

/* Per-process state shared by the device-side files of the plugin. */
#ifndef RIGOR_NCCL_STATE_H
#define RIGOR_NCCL_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include <cuda_runtime_api.h>
#include <nccl.h>

#include "rigor/plugin.h"

#include "nccl_data.h"
#include "nccl_layout.h"
#include "nccl_nvml.h"
#include "nccl_params.h"
#include "nccl_tables.h"

typedef struct nccl_gpu {
  int device;
  int rank; /* rank in the communicator */
  ncclComm_t comm;
  cudaStream_t stream;
  void *send; /* alloc_bytes each, from ncclMemAlloc */
  void *recv;
  cudaEvent_t *begin; /* per-iteration marks */
  cudaEvent_t *end;
  nccl_tally_t *tally; /* device memory the check kernels report into; NULL without them */
  char pci_bus_id[32];
} nccl_gpu_t;

/* One sweep point's CUDA graphs (graph: true): `ops` operations, one graph per local GPU. */
typedef struct nccl_graph {
  const void *point; /* the core's params struct, the same pointer every cycle */
  uint64_t ops;      /* 0: nothing captured */
  cudaGraphExec_t *exec;
} nccl_graph_t;

typedef struct nccl_state {
  rigor_ctx_t *ctx;
  const rigor_host_t *host;
  rigor_work_t *work;
  nccl_gpu_t *gpus;
  int n_gpus;
  int host_rank;
  int host_nranks;
  int nranks;           /* host_nranks x n_gpus */
  uint64_t max_bytes;   /* the largest swept size: operations rotate through it */
  uint64_t alloc_bytes; /* per buffer */
  uint64_t op_index;    /* operations since the last prime; drives the offset rotation */
  double poll_timeout;
  bool aborted;
  bool host_checks; /* some point checks on the host: staging and results exist */
  void *staging;    /* pinned host buffers of alloc_bytes: inputs, and results read back */
  void *results;
  nccl_params_t staged; /* the point and rank whose inputs `staging` holds */
  int staged_rank;      /* -1: nothing staged */
  uint32_t n_events;
  bool paired_marks;    /* mark(i, END) seen since the last prime */
  double check_s;       /* seconds validate took since the last prime; NaN for none */
  nccl_graph_t *graphs; /* one per sweep point */
  uint32_t n_graphs;
  nccl_graph_t *graph_now; /* the primed point's, NULL when it runs without graphs */
  uint64_t graph_ops;      /* operations per run() last seen: what prime captures */
  uint32_t graph_captures; /* captures inside the window since the last prime */
  nccl_params_t *warm;     /* the warm schedule handed to the core */
  const void **warm_points;
  uint32_t n_warm;
  nccl_nvml_t *nvml;
} nccl_state_t;

/* nccl_device.c: choose devices, create streams, buffers, events and the communicators. */
int nccl_device_setup(nccl_state_t *s, const nccl_params_t *base);
void nccl_device_teardown(nccl_state_t *s);

/* nccl_launch.c: enqueue `n` operations of `p` (one group when more than one). */
int nccl_launch(nccl_state_t *s, const nccl_params_t *p, uint64_t n);
/* The layout and type of a point for this communicator. */
void nccl_point_layout(const nccl_state_t *s, const nccl_params_t *p, nccl_layout_t *layout);

/* nccl_wait.c: poll every stream until done; on timeout or asynchronous error abort the
 * communicators and fail. */
int nccl_wait(nccl_state_t *s);

/* nccl_check.c: inputs and their check, by the kernels or on the host (check_on). */
bool nccl_check_kernels_built(void);
nccl_check_on_t nccl_check_where(const nccl_params_t *p);
/* Writes each GPU's inputs where the operation reads them, over a poisoned result region. */
int nccl_inputs_load(nccl_state_t *s, const nccl_params_t *p, const nccl_case_t *c);
/* Waits for what was enqueued, then judges every local rank's result into `res` (zeroed by the
 * caller); *first_rank gets the rank of the first wrong element. */
int nccl_results_check(nccl_state_t *s, const nccl_params_t *p, const nccl_case_t *c,
                       nccl_check_result_t *res, int *first_rank);

/* nccl_graph.c: CUDA graphs of one iteration per sweep point (graph: true). */
int nccl_graphs_create(nccl_state_t *s, const rigor_points_t *points);
/* In prime, after the priming operation: captures the point's graph of graph_ops operations unless
 * it has one, and makes it the one run() launches. */
int nccl_graph_prime(nccl_state_t *s, const void *point);
/* Launches `n` operations of the primed point from its graph, capturing anew first when `n`
 * differs from what it holds. */
int nccl_graph_run(nccl_state_t *s, const void *point, uint64_t n);
/* One operation through a graph of its own (validate in graph mode, as nccl-tests checks). */
int nccl_graph_once(nccl_state_t *s, const nccl_params_t *p);
void nccl_graphs_destroy(nccl_state_t *s);

/* nccl_marks.c */
int nccl_marks_create(nccl_state_t *s, uint32_t count);
void nccl_marks_destroy(nccl_state_t *s);
int nccl_mark(rigor_ctx_t *ctx, void *state, uint32_t index, rigor_mark_kind_t kind);
int nccl_mark_read(rigor_ctx_t *ctx, void *state, double *seconds, uint32_t iters);

/* nccl_identity.c */
int nccl_identity(rigor_ctx_t *ctx, void *state, rigor_kv_t *out, int cap);

#endif

#include <stdlib.h>

#include "nccl_errors.h"
#include "nccl_state.h"

static int create_range(nccl_state_t *s, uint32_t from, uint32_t to) {
  for (int g = 0; g < s->n_gpus; g++) {
    cudaError_t err = cudaSetDevice(s->gpus[g].device);
    for (uint32_t i = from; i < to && err == cudaSuccess; i++) {
      err = cudaEventCreate(&s->gpus[g].begin[i]);
      if (err == cudaSuccess) err = cudaEventCreate(&s->gpus[g].end[i]);
    }
    if (err != cudaSuccess) return nccl_fail_cuda(s, RIGOR_EPLUGIN, err, "cudaEventCreate");
  }
  return 0;
}

/* Grows every GPU's begin/end arrays to `count` events; new slots start NULL so teardown can
 * tell which exist. */
int nccl_marks_create(nccl_state_t *s, uint32_t count) {
  if (count <= s->n_events) return 0;
  for (int g = 0; g < s->n_gpus; g++) {
    nccl_gpu_t *gpu = &s->gpus[g];
    cudaEvent_t *begin = realloc(gpu->begin, count * sizeof *begin);
    if (begin) gpu->begin = begin;
    cudaEvent_t *end = begin ? realloc(gpu->end, count * sizeof *end) : NULL;
    if (end) gpu->end = end;
    if (!begin || !end)
      return s->host->error(s->ctx, RIGOR_ENOMEM, "out of memory for %u CUDA events", count);
    for (uint32_t i = s->n_events; i < count; i++)
      gpu->begin[i] = gpu->end[i] = NULL;
  }
  uint32_t from = s->n_events;
  s->n_events = count;
  return create_range(s, from, count);
}

void nccl_marks_destroy(nccl_state_t *s) {
  for (int g = 0; g < s->n_gpus; g++) {
    nccl_gpu_t *gpu = &s->gpus[g];
    for (uint32_t i = 0; i < s->n_events; i++) {
      if (gpu->begin && gpu->begin[i]) cudaEventDestroy(gpu->begin[i]);
      if (gpu->end && gpu->end[i]) cudaEventDestroy(gpu->end[i]);
    }
    free(gpu->begin);
    free(gpu->end);
    gpu->begin = gpu->end = NULL;
  }
  s->n_events = 0;
}

int nccl_mark(rigor_ctx_t *ctx, void *state, uint32_t index, rigor_mark_kind_t kind) {
  (void)ctx;
  nccl_state_t *s = state;
  /* Beyond the pre-created events (more than 1023 iterations) the window pays for creating more. */
  if (index >= s->n_events) {
    int rc = nccl_marks_create(s, 2 * (index + 1));
    if (rc < 0) return rc;
  }
  if (kind == RIGOR_MARK_END) s->paired_marks = true;
  for (int g = 0; g < s->n_gpus; g++) {
    nccl_gpu_t *gpu = &s->gpus[g];
    cudaEvent_t ev = kind == RIGOR_MARK_END ? gpu->end[index] : gpu->begin[index];
    cudaError_t err = cudaEventRecord(ev, gpu->stream);
    if (err != cudaSuccess) return nccl_fail_cuda(s, RIGOR_EPLUGIN, err, "cudaEventRecord");
  }
  return 0;
}

/* Iteration i spans begin[i]..begin[i+1], or begin[i]..end[i] when blocking excluded the barrier
 * from each iteration. Each iteration takes the slowest local GPU, then the slowest rank. */
int nccl_mark_read(rigor_ctx_t *ctx, void *state, double *seconds, uint32_t iters) {
  nccl_state_t *s = state;
  if (iters + 1 > s->n_events && iters > 0)
    return s->host->error(ctx, RIGOR_EINVAL, "%u iterations but only %u marks", iters, s->n_events);
  for (uint32_t i = 0; i < iters; i++) {
    double slowest = 0.0;
    for (int g = 0; g < s->n_gpus; g++) {
      nccl_gpu_t *gpu = &s->gpus[g];
      cudaEvent_t stop = s->paired_marks ? gpu->end[i] : gpu->begin[i + 1];
      float ms = 0.0f;
      cudaError_t err = cudaEventElapsedTime(&ms, gpu->begin[i], stop);
      if (err != cudaSuccess) return nccl_fail_cuda(s, RIGOR_EPLUGIN, err, "cudaEventElapsedTime");
      if (ms * 1e-3 > slowest) slowest = ms * 1e-3;
    }
    seconds[i] = slowest;
  }
  int rc = s->host->allreduce(ctx, seconds, iters, RIGOR_DT_DOUBLE, RIGOR_RED_MAX);
  if (rc < 0) return s->host->error(ctx, rc, "allreduce of iteration times failed");
  return 0;
}

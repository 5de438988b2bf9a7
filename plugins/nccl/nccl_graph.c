#include <stdlib.h>

#include "nccl_errors.h"
#include "nccl_state.h"

static cudaError_t instantiate(cudaGraphExec_t *exec, cudaGraph_t graph) {
#if CUDART_VERSION >= 12000
  return cudaGraphInstantiate(exec, graph, 0);
#else
  return cudaGraphInstantiate(exec, graph, NULL, NULL, 0);
#endif
}

static void release(nccl_state_t *s, cudaGraphExec_t *exec) {
  for (int g = 0; g < s->n_gpus; g++) {
    if (!exec[g]) continue;
    cudaSetDevice(s->gpus[g].device);
    cudaGraphExecDestroy(exec[g]); /* freed once it stops running, if it still runs */
    exec[g] = NULL;
  }
}

/* Captures `n` operations of `p` (one group, at the rotation offsets of operations 0..n-1) on
 * every local stream into `exec`, one executable graph per GPU. Thread-local capture, as
 * nccl-tests: NCCL's proxy thread may allocate while this one captures. */
static int capture(nccl_state_t *s, const nccl_params_t *p, uint64_t n, cudaGraphExec_t *exec) {
  int g = 0;
  cudaError_t err = cudaSuccess;
  for (; g < s->n_gpus && err == cudaSuccess; g++) {
    err = cudaSetDevice(s->gpus[g].device);
    if (err == cudaSuccess)
      err = cudaStreamBeginCapture(s->gpus[g].stream, cudaStreamCaptureModeThreadLocal);
  }
  int capturing = err == cudaSuccess ? s->n_gpus : g - 1;
  s->op_index = 0;
  int rc = err == cudaSuccess ? nccl_launch(s, p, n) : 0;
  s->op_index = 0;
  for (g = 0; g < capturing; g++) {
    cudaGraph_t graph = NULL;
    cudaError_t e = cudaSetDevice(s->gpus[g].device);
    if (e == cudaSuccess) e = cudaStreamEndCapture(s->gpus[g].stream, &graph);
    if (e == cudaSuccess && rc == 0 && err == cudaSuccess) e = instantiate(&exec[g], graph);
    if (graph) cudaGraphDestroy(graph); /* the executable graph keeps what it needs */
    if (err == cudaSuccess) err = e;
  }
  if (rc < 0 || err != cudaSuccess) {
    release(s, exec);
    return rc < 0 ? rc : nccl_fail_cuda(s, RIGOR_EPLUGIN, err, "capturing a CUDA graph");
  }
  return 0;
}

static int launch(nccl_state_t *s, cudaGraphExec_t *exec) {
  for (int g = 0; g < s->n_gpus; g++) {
    cudaError_t err = cudaGraphLaunch(exec[g], s->gpus[g].stream);
    if (err != cudaSuccess) return nccl_fail_cuda(s, RIGOR_EPLUGIN, err, "cudaGraphLaunch");
  }
  return 0;
}

int nccl_graphs_create(nccl_state_t *s, const rigor_points_t *points) {
  s->graph_ops = 1;
  bool any = false;
  for (uint32_t i = 0; i < points->count; i++)
    any = any || ((const nccl_params_t *)points->points[i])->graph;
  if (!any) return 0;
  s->graphs = calloc(points->count, sizeof *s->graphs);
  if (!s->graphs)
    return s->host->error(s->ctx, RIGOR_ENOMEM, "out of memory for %u graphs", points->count);
  s->n_graphs = points->count;
  for (uint32_t i = 0; i < points->count; i++) {
    s->graphs[i].point = points->points[i];
    s->graphs[i].exec = calloc((size_t)s->n_gpus, sizeof *s->graphs[i].exec);
    if (!s->graphs[i].exec)
      return s->host->error(s->ctx, RIGOR_ENOMEM, "out of memory for graphs of %d GPUs", s->n_gpus);
  }
  return 0;
}

int nccl_graph_prime(nccl_state_t *s, const void *point) {
  const nccl_params_t *p = point;
  s->graph_now = NULL;
  s->graph_captures = 0;
  if (!p->graph) return 0;
  nccl_graph_t *graph = NULL;
  for (uint32_t i = 0; i < s->n_graphs && !graph; i++)
    if (s->graphs[i].point == point) graph = &s->graphs[i];
  if (!graph)
    return s->host->error(s->ctx, RIGOR_EINVAL, "graph: a point outside the sweep was primed");
  if (graph->ops != s->graph_ops) {
    release(s, graph->exec);
    graph->ops = 0;
    int rc = capture(s, p, s->graph_ops, graph->exec);
    if (rc < 0) return rc;
    graph->ops = s->graph_ops;
  }
  s->graph_now = graph;
  return 0;
}

int nccl_graph_run(nccl_state_t *s, const void *point, uint64_t n) {
  nccl_graph_t *graph = s->graph_now;
  if (!graph || graph->point != point) return nccl_launch(s, point, n);
  if (graph->ops != n) {
    /* Only the first window of a process with agg > 1 gets here: prime captured the one-operation
     * graph it guessed. Later primes capture `n` up front; graph_captures reports this one. */
    release(s, graph->exec);
    graph->ops = 0;
    int rc = capture(s, point, n, graph->exec);
    if (rc < 0) return rc;
    graph->ops = n;
    s->graph_ops = n;
    s->graph_captures++;
  }
  return launch(s, graph->exec);
}

int nccl_graph_once(nccl_state_t *s, const nccl_params_t *p) {
  cudaGraphExec_t stack[8] = {NULL};
  cudaGraphExec_t *exec = s->n_gpus <= 8 ? stack : calloc((size_t)s->n_gpus, sizeof *exec);
  if (!exec) return s->host->error(s->ctx, RIGOR_ENOMEM, "out of memory for graphs");
  int rc = capture(s, p, 1, exec);
  if (rc == 0) rc = launch(s, exec);
  release(s, exec);
  if (exec != stack) free(exec);
  return rc;
}

void nccl_graphs_destroy(nccl_state_t *s) {
  for (uint32_t i = 0; i < s->n_graphs; i++) {
    if (s->graphs[i].exec) release(s, s->graphs[i].exec);
    free(s->graphs[i].exec);
  }
  free(s->graphs);
  s->graphs = NULL;
  s->n_graphs = 0;
  s->graph_now = NULL;
}

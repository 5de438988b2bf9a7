#include <sched.h>
#include <stdbool.h>

#include "nccl_errors.h"
#include "nccl_state.h"

static void abort_all(nccl_state_t *s) {
  for (int g = 0; g < s->n_gpus; g++) {
    if (s->gpus[g].comm) ncclCommAbort(s->gpus[g].comm);
    s->gpus[g].comm = NULL;
  }
  s->aborted = true;
}

int nccl_wait(nccl_state_t *s) {
  if (s->aborted)
    return s->host->error(s->ctx, RIGOR_EPLUGIN, "the communicators were aborted earlier");
  uint64_t start = s->host->now_ns(s->ctx);
  uint64_t limit_ns = (uint64_t)(s->poll_timeout * 1e9);
  bool done[64] = {false};
  int remaining = s->n_gpus;
  while (remaining > 0) {
    bool progressed = false;
    for (int g = 0; g < s->n_gpus; g++) {
      if (done[g]) continue;
      cudaError_t err = cudaStreamQuery(s->gpus[g].stream);
      if (err == cudaSuccess) {
        done[g] = true;
        remaining--;
        progressed = true;
        continue;
      }
      if (err != cudaErrorNotReady) {
        abort_all(s);
        return nccl_fail_cuda(s, RIGOR_EPLUGIN, err, "cudaStreamQuery");
      }
      ncclResult_t async_err = ncclSuccess;
      ncclResult_t res = ncclCommGetAsyncError(s->gpus[g].comm, &async_err);
      if (res != ncclSuccess || async_err != ncclSuccess) {
        ncclComm_t comm = s->gpus[g].comm;
        int rc = nccl_fail_nccl(s, res != ncclSuccess ? res : async_err, comm,
                                "asynchronous NCCL error");
        abort_all(s);
        return rc;
      }
    }
    if (remaining == 0) break;
    uint64_t waited = s->host->now_ns(s->ctx) - start;
    if (limit_ns > 0 && waited > limit_ns) {
      abort_all(s);
      return s->host->error(s->ctx, RIGOR_ETIMEDOUT,
                            "operations did not complete within poll_timeout %.3g s; "
                            "communicators aborted",
                            s->poll_timeout);
    }
    if (s->host->should_stop(s->ctx)) {
      abort_all(s);
      return s->host->error(s->ctx, RIGOR_ECANCELED,
                            "stopped while waiting; communicators aborted");
    }
    if (!progressed) sched_yield(); /* leave the CPU to NCCL's proxy threads */
  }
  return 0;
}

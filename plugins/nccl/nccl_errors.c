#include "nccl_errors.h"

int nccl_fail_cuda(nccl_state_t *s, int code, cudaError_t err, const char *what) {
  return s->host->error(s->ctx, code, "%s: %s", what, cudaGetErrorString(err));
}

int nccl_fail_nccl(nccl_state_t *s, ncclResult_t res, ncclComm_t comm, const char *what) {
  const char *last = ncclGetLastError(comm);
  return s->host->error(s->ctx, RIGOR_EPLUGIN, "%s: %s%s%s", what, ncclGetErrorString(res),
                        last && *last ? ": " : "", last ? last : "");
}

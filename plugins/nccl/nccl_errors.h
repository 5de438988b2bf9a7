/* Error reports of CUDA and NCCL failures through the host, shared by every device-side file. */
#ifndef RIGOR_NCCL_ERRORS_H
#define RIGOR_NCCL_ERRORS_H

#include <cuda_runtime_api.h>
#include <nccl.h>

#include "nccl_state.h"

/* Records "what: CUDA error text" through the host and returns `code`. */
int nccl_fail_cuda(nccl_state_t *s, int code, cudaError_t err, const char *what);
/* Records "what: NCCL error text (last error)" through the host and returns RIGOR_EPLUGIN. */
int nccl_fail_nccl(nccl_state_t *s, ncclResult_t res, ncclComm_t comm, const char *what);

#endif

/* The check kernels (nccl_kernels.cu, built when CMake finds nvcc, NCCL_HAVE_KERNELS then
 * defined): a GPU's inputs generated where they are used and its results judged where they
 * landed, both with nccl_gen.h, so a check copies back one tally instead of the result. Both are
 * asynchronous on `stream` and return the launch's error. */
#ifndef RIGOR_NCCL_KERNELS_H
#define RIGOR_NCCL_KERNELS_H

#include <cuda_runtime_api.h>

#include "nccl_gen.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes the send buffer of `rank` (g->send_count elements) at `dst`. */
cudaError_t nccl_kernels_fill(const nccl_gen_t *g, int rank, void *dst, cudaStream_t stream);

/* Resets `*tally` (device memory) and judges the g->recv_count elements of the result region of
 * `rank` at `recv` into it. */
cudaError_t nccl_kernels_check(const nccl_gen_t *g, int rank, const void *recv, nccl_tally_t *tally,
                               cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
